// desktop.test.mjs — the desktop notification a waiting question may send (notice.desktop):
// the exact bytes of each protocol, tmux's passthrough, model text that can never end or extend
// the sequence, the protocol picked from the terminal, the setting, and one notification per
// question — never one per keystroke.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { addon, root } from "./helpers/addon.mjs";
import { loadExtension } from "./helpers/fake-pi.mjs";
import { importShim } from "./helpers/shim.mjs";

const { desktopKind, desktopNotice } = await importShim("text/desktop.ts");
const { loadSettings } = await importShim("text/settings.ts");

test("desktop: each protocol's exact bytes", () => {
  assert.equal(addon.desktopNotice("osc777", "pi is asking", "Which database?", false), "\x1b]777;notify;pi is asking;Which database?\x07");
  assert.equal(addon.desktopNotice("osc9", "pi is asking", "Which database?", false), "\x1b]9;pi is asking: Which database?\x07");
  assert.equal(
    addon.desktopNotice("osc99", "pi is asking", "Which database?", false),
    "\x1b]99;i=pi-question:d=0;pi is asking\x1b\\\x1b]99;i=pi-question:p=body;Which database?\x1b\\",
  );
});

test("desktop: inside tmux the sequence goes through tmux's passthrough, every ESC doubled", () => {
  assert.equal(addon.desktopNotice("osc777", "t", "b", true), "\x1bPtmux;\x1b\x1b]777;notify;t;b\x07\x1b\\");
  const kitty = addon.desktopNotice("osc99", "t", "b", true);
  assert.ok(kitty.startsWith("\x1bPtmux;") && kitty.endsWith("\x1b\\"));
  const inner = kitty.slice("\x1bPtmux;".length, -2);
  assert.doesNotMatch(inner.replace(/\x1b\x1b/g, ""), /\x1b/, "a lone ESC inside would end the passthrough");
});

test("desktop: model text can never end or extend the sequence, and long text is cut", () => {
  const hostile = "a\x07b\x1b\\c\x1b]52;c;ZXZpbA==\x07d\u009ce\nf;g";
  for (const kind of ["osc777", "osc9", "osc99"]) {
    const seq = addon.desktopNotice(kind, hostile, hostile, false);
    const framing = { osc777: 1, osc9: 1, osc99: 4 }[kind]; // ESC count of the protocol itself
    assert.equal((seq.match(/\x1b/g) ?? []).length, framing, `${kind}: ${JSON.stringify(seq)}`);
    assert.equal((seq.match(/\x07/g) ?? []).length, kind === "osc99" ? 0 : 1);
    assert.doesNotMatch(seq, /[\n\u009c]/);
  }
  // OSC 777's title cannot add a field.
  assert.equal(addon.desktopNotice("osc777", "a;b", "c;d", false), "\x1b]777;notify;a,b;c;d\x07");
  const long = addon.desktopNotice("osc9", "t", "é".repeat(1000), false);
  assert.ok(Buffer.byteLength(long) < 400, "cut to a glance");
  assert.match(long, /é…\x07$/, "cut at a character boundary, with a mark");
  assert.throws(() => addon.desktopNotice("osc1", "t", "b", false), /kind/);
});

test("desktop: the protocol follows the terminal unless the setting names one", () => {
  assert.equal(desktopKind(false, {}), undefined);
  assert.equal(desktopKind(true, { TERM: "xterm-kitty" }), "osc99");
  assert.equal(desktopKind(true, { TERM_PROGRAM: "iTerm.app" }), "osc9");
  assert.equal(desktopKind(true, { WT_SESSION: "1" }), "osc9");
  assert.equal(desktopKind(true, { TERM: "foot" }), "osc777");
  assert.equal(desktopKind("osc9", { TERM: "xterm-kitty" }), "osc9");
  assert.equal(desktopNotice(true, "First line\nsecond line", { TERM: "foot" }), "\x1b]777;notify;pi is asking;First line\x07");
  assert.equal(desktopNotice(false, "x", {}), "");
});

test("desktop: notice.desktop in the settings file is checked like every other key", () => {
  const home = mkdtempSync(join(tmpdir(), "pq-desktop-"));
  try {
    const cwd = join(home, "p");
    mkdirSync(join(cwd, ".pi"), { recursive: true });
    mkdirSync(join(home, ".pi", "agent"), { recursive: true });
    writeFileSync(join(home, ".pi", "agent", "question.json"), JSON.stringify({ notice: { desktop: "osc99" } }));
    const warnings = [];
    assert.equal(loadSettings(cwd, (w) => warnings.push(w), home).notice.desktop, "osc99");
    writeFileSync(join(home, ".pi", "agent", "question.json"), JSON.stringify({ notice: { desktop: "loud" } }));
    assert.equal(loadSettings(cwd, (w) => warnings.push(w), home).notice.desktop, false);
    assert.match(warnings.join("\n"), /notice\.desktop/);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test("desktop: one notification per question, none per keystroke", async () => {
  const home = mkdtempSync(join(tmpdir(), "pq-desktop-"));
  const savedHome = process.env.HOME;
  const savedTerm = process.env.TERM;
  const write = process.stdout.write;
  const isTTY = process.stdout.isTTY;
  const written = [];
  try {
    mkdirSync(join(home, ".pi", "agent"), { recursive: true });
    writeFileSync(join(home, ".pi", "agent", "question.json"), JSON.stringify({ notice: { desktop: true } }));
    process.env.HOME = home;
    process.env.TERM = "foot";
    const { tools } = await loadExtension();
    const tool = tools.get("question");
    const theme = { fg: (_c, s) => s, bold: (s) => s, inverse: (s) => s, italic: (s) => s };
    const ctx = {
      hasUI: true,
      cwd: home,
      sessionManager: { getBranch: () => [] },
      isIdle: () => true,
      ui: {
        setWorkingMessage: () => undefined,
        setTitle: () => undefined,
        notify: () => undefined,
        custom: (factory) =>
          new Promise((resolve) => {
            const c = factory({ requestRender: () => {} }, theme, { getKeys: () => [] }, resolve);
            queueMicrotask(() => {
              for (const k of ["\x1b[B", "\x1b[A", "\x1b[B", "\x1b[B", "\x1b[A"]) c.handleInput(k);
              c.handleInput("\r");
            });
          }),
      },
    };
    Object.defineProperty(process.stdout, "isTTY", { value: true, configurable: true });
    process.stdout.write = (chunk, ...rest) => {
      written.push(String(chunk));
      return typeof rest.at(-1) === "function" ? (rest.at(-1)(), true) : true;
    };
    const args = tool.prepareArguments({ questions: [{ id: "db", prompt: "Which database?", options: ["A", "B"] }] });
    const r = await tool.execute("1", args, undefined, undefined, ctx);
    process.stdout.write = write;
    assert.equal(r.content[0].text, "db: user selected: 2. B");
    assert.deepEqual(written, ["\x1b]777;notify;pi is asking;Which database?\x07"]);
  } finally {
    process.stdout.write = write;
    Object.defineProperty(process.stdout, "isTTY", { value: isTTY, configurable: true });
    process.env.HOME = savedHome;
    if (savedTerm === undefined) delete process.env.TERM;
    else process.env.TERM = savedTerm;
    rmSync(home, { recursive: true, force: true });
  }
});

test("desktop: inside tmux iTerm2 is known by LC_TERMINAL (tmux sets TERM_PROGRAM to tmux) and gets OSC 9 through the passthrough", () => {
  const inTmux = { TERM: "tmux-256color", TERM_PROGRAM: "tmux", TMUX: "/tmp/tmux-1000/default,1,0", LC_TERMINAL: "iTerm2" };
  assert.equal(desktopKind(true, inTmux), "osc9");
  assert.equal(desktopNotice(true, "Which database?", inTmux), "\x1bPtmux;\x1b\x1b]9;pi is asking: Which database?\x07\x1b\\");
  assert.equal(desktopKind(true, { ...inTmux, LC_TERMINAL: undefined }), "osc777", "tmux alone says nothing of the terminal");
  assert.equal(desktopKind(true, { LC_TERMINAL: "iTerm2" }), "osc9");
});

// The runner on a pseudo-terminal (tests/helpers/pty-host.py): print mode hands the notification
// to the runner, which writes it only once it has taken the terminal.
const python = spawnSync("python3", ["-c", "import pty"]).status === 0;
function onPty(extra) {
  const dir = mkdtempSync(join(tmpdir(), "pq-desktop-pty-"));
  try {
    const spec = {
      argv: [process.execPath, join(root, "tests", "helpers", "tty-child.mjs"), extra.mode, join(dir, "result")],
      stdout: join(dir, "out"),
      capture: join(dir, "screen"),
      limitMs: 10000,
      env: { PQ_TEST_NOTICE: NOTICE },
      ...extra,
    };
    const r = spawnSync("python3", [join(root, "tests", "helpers", "pty-host.py"), JSON.stringify(spec)], {
      encoding: "utf8",
      timeout: 60000,
    });
    assert.equal(r.status, 0, r.stderr);
    let result = null;
    try {
      result = JSON.parse(readFileSync(join(dir, "result"), "utf8"));
    } catch {}
    return { ...JSON.parse(r.stdout), result, screen: readFileSync(join(dir, "screen"), "latin1") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const NOTICE = "\x1b]777;notify;pi is asking;Which database?\x07";

test(
  "desktop: the runner sends the notification once it has the terminal, before the question; never on a terminal another program owns",
  { skip: !python && "python3 with pty" },
  () => {
    // stopped (SIGUSR1) once the question is drawn
    const free = onPty({
      mode: "stop",
      actions: [
        { afterMs: 0, awaitOutput: "Which database?" },
        { afterMs: 0, signal: "SIGUSR1" },
      ],
    });
    assert.ok(free.ready && free.exited, JSON.stringify(free));
    const at = free.screen.indexOf(NOTICE);
    assert.ok(at >= 0, `the notification went out: ${JSON.stringify(free.screen.slice(0, 200))}`);
    assert.equal(free.screen.indexOf(NOTICE, at + 1), -1, "once");
    assert.ok(at < free.screen.indexOf("Which database?", at + NOTICE.length), "before the question is drawn");
    const owned = onPty({ mode: "hold", raw: true, readyMs: 0 });
    assert.ok(owned.exited, JSON.stringify(owned));
    assert.deepEqual(owned.result, { error: "QT_ETTYOWNED" });
    assert.equal(owned.screen.includes("notify"), false, "no notification for a question that is never shown");
  },
);
