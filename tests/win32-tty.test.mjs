// win32-tty.test.mjs — the terminal runner on the Windows console, run here under Wine in a tmux
// pane (Wine gives a Windows program a console when its terminal is one; its stderr must stay on
// the pane for that, so only stdout goes to a file):
//   - tests/native-win32-tty.c, built with mingw-w64 together with native/os/win32/tty.c: the
//     console device (qt_term.h) — key records into the console's input and the xterm bytes read
//     back, modes set and put back, ownership, the wake, the size, what drawing leaves in the
//     console's cells. Every line it prints becomes a test here;
//   - with the win32 prebuilt (dist/prebuilds/win32-x64, or PI_QUESTION_WINE_ADDON) and Node for
//     Windows (scripts/wine.mjs): bin/pi-question.mjs answering with keys pressed in the pane
//     (Down, Enter, Space, typing into "Something else…"), the answer JSON on stdout; and Esc
//     cancelling, with the console free again afterwards (raw while the question was up), the
//     cursor shown and the question erased; a resized pane redrawn at its new width (skipped under
//     Wine, whose console never reports a new size: the test measures that first); Ctrl+C,
//     which Wine's console sends as an event, ending the question as interrupted; and pi's print
//     mode (the current pi line, a scripted model in pi's process) asking there.
// Skipped where there is no Wine, mingw-w64 or tmux (Linux only); the prebuilt's tests are skipped
// when it is not built, print mode also without the current pi line (scripts/wine-tests.mjs runs
// this file after the prebuilds and with that line, and counts a skip there as a failure).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { currentLine } from "../scripts/current-pi.mjs";
import { ensureWineNode, ensureWinePrefix, toWinePath, wineCommand, winePrefixDir } from "../scripts/wine.mjs";
import { screen, tmux, waitFor } from "./helpers/tty-tmux.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const MINGW = process.env.MINGW_CC || "x86_64-w64-mingw32-gcc";
const ADDON = process.env.PI_QUESTION_WINE_ADDON || join(root, "dist", "prebuilds", "win32-x64", "pi_question.node");
/** Node for Windows starts in a few seconds under Wine; a first start of the prefix takes longer. */
const START_MS = 90_000;

function why() {
  if (process.platform !== "linux") return "runs Windows programs under Wine on Linux";
  if (spawnSync(MINGW, ["--version"], { stdio: "ignore" }).status !== 0)
    return `mingw-w64 (${MINGW}) is missing: apt-get install gcc-mingw-w64-x86-64`;
  if (spawnSync("tmux", ["-V"], { stdio: "ignore" }).status !== 0) return "tmux is missing";
  try {
    wineCommand();
  } catch (error) {
    return error.message;
  }
  return false;
}
const skip = why();
const addonSkip = skip || (!existsSync(ADDON) ? `the win32 prebuilt ${ADDON} is not built ("node scripts/prebuild.mjs win32-x64")` : false);

const quote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;
let sessions = 0;

/** Runs the Windows program `argv` (its first element a Linux path, the rest as given) in a new
 * tmux pane with stdout to `dir`/stdout, its pid in `dir`/pid and its exit code in `dir`/code.
 * Returns the session name and a cleanup that ends the session and the program. */
function inPane(dir, argv, { env = {}, cols = 100, rows = 30, cwd = root } = {}) {
  const name = `pq-win32-tty-${process.pid}-${++sessions}`;
  const exports = Object.entries({ WINEPREFIX: winePrefixDir(), WINEDEBUG: "-all", ...env })
    .map(([k, v]) => `export ${k}=${quote(v)}`)
    .join("\n");
  writeFileSync(
    join(dir, "run.sh"),
    `unset DISPLAY WAYLAND_DISPLAY NODE_OPTIONS NO_COLOR PI_QUESTION_RELAY\n${exports}\ncd ${quote(cwd)}\n` +
      `(echo $BASHPID > ${quote(join(dir, "pid"))}; exec ${[wineCommand(), ...argv].map(quote).join(" ")} > ${quote(join(dir, "stdout"))})\n` +
      `echo $? > ${quote(join(dir, "code"))}\nsleep 600\n`,
  );
  const r = tmux("new-session", "-d", "-s", name, "-x", String(cols), "-y", String(rows), `bash ${quote(join(dir, "run.sh"))}`);
  if (r.status !== 0) throw new Error(`tmux could not start ${name}: ${r.stderr}`);
  const cleanup = () => {
    tmux("kill-session", "-t", name);
    try {
      const pid = Number(readFileSync(join(dir, "pid"), "utf8"));
      if (pid > 0) process.kill(pid, "SIGKILL");
    } catch {} // gone already, or never started
  };
  return { name, cleanup };
}

const exitCode = (dir, what) =>
  waitFor(() => existsSync(join(dir, "code")) && readFileSync(join(dir, "code"), "utf8").trim(), what, START_MS).then(Number);
const waitPane = (name, re, timeoutMs = 30_000) =>
  waitFor(
    () => re.test(screen(name)),
    () => `${re} on screen:\n${screen(name)}`,
    timeoutMs,
  );

// ── the console device: tests/native-win32-tty.c ────────────────────────────────────────────

/** Builds and runs the harness in a pane: { lines } or { error }. */
async function runHarness() {
  const dir = mkdtempSync(join(tmpdir(), "pq-win32-tty-"));
  let pane;
  try {
    const exe = join(dir, "native-win32-tty.exe");
    const native = join(root, "native");
    const built = spawnSync(
      MINGW,
      [
        "-std=c11",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-DQT_TERM_TEST_HOOKS",
        `-I${join(native, "core")}`,
        join(root, "tests", "native-win32-tty.c"),
        join(native, "os", "win32", "tty.c"),
        "-o",
        exe,
      ],
      { encoding: "utf8" },
    );
    if (built.status !== 0) return { error: `${MINGW} failed:\n${built.stderr}` };
    ensureWinePrefix();
    pane = inPane(dir, [exe], { cols: 80, rows: 24 });
    const code = await exitCode(dir, "the harness to end");
    const lines = readFileSync(join(dir, "stdout"), "utf8").split(/\r?\n/).filter(Boolean);
    return { lines, code, screen: screen(pane.name) };
  } catch (error) {
    return { error: error.message };
  } finally {
    pane?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}

const harness = skip ? null : await runHarness();

if (skip) {
  test("win32 console device", { skip }, () => {});
} else {
  for (const line of harness.lines ?? []) {
    const m = /^(ok|not ok) (.*?)(?: -- (.*))?$/.exec(line);
    if (!m) continue;
    test(`win32 console: ${m[2]}`, () => assert.equal(m[1], "ok", m[3]));
  }
  test("win32 console: the harness ran to its end and checked keys, ownership, modes, the wake and drawing", () => {
    assert.equal(harness.error, undefined, harness.error);
    const lines = harness.lines;
    assert.ok(
      lines.some((l) => /^done 0 failure\(s\)$/.test(l)),
      `no clean end:\n${lines.join("\n")}\n${harness.screen}`,
    );
    assert.equal(harness.code, 0);
    for (const part of ["owner:", "raw:", "keys:", "wake:", "draw:", "vt:", "restore:"]) {
      assert.ok(lines.filter((l) => l.startsWith(`ok ${part}`)).length >= 1, `nothing checked for ${part}`);
    }
    assert.ok(lines.filter((l) => l.startsWith("ok keys:")).length >= 40, "the key table");
  });
}

// ── the standalone command and the runner with Node for Windows ────────────────────────────

const QUESTIONS = {
  questions: [
    {
      id: "db",
      prompt: "Which database?",
      options: [
        { value: "pg", label: "PostgreSQL" },
        { value: "lite", label: "SQLite" },
      ],
    },
    {
      id: "f",
      prompt: "Which features?",
      multiSelect: true,
      options: [
        { value: "auth", label: "Auth" },
        { value: "api", label: "API" },
        { value: "admin", label: "Admin" },
      ],
    },
  ],
};

function fixture() {
  const dir = mkdtempSync(join(tmpdir(), "pq-win32-tty-"));
  writeFileSync(join(dir, "q.json"), JSON.stringify(QUESTIONS));
  return dir;
}

test(
  "windows: the standalone command asks on the console — Down, Enter, Space, typing into Something else… — and prints the answer JSON",
  { skip: addonSkip, timeout: 240_000 },
  async () => {
    const dir = fixture();
    const node = ensureWineNode();
    const pane = inPane(dir, [node, toWinePath(join(root, "bin", "pi-question.mjs")), toWinePath(join(dir, "q.json"))], {
      env: { PI_QUESTION_ADDON: toWinePath(ADDON) },
    });
    try {
      const key = (...keys) => tmux("send-keys", "-t", pane.name, ...keys);
      await waitPane(pane.name, /> 1\. PostgreSQL/, START_MS);
      key("Down");
      await waitPane(pane.name, /> 2\. SQLite/);
      key("Enter");
      await waitPane(pane.name, /> \[ \] 1\. Auth/);
      key("Space");
      await waitPane(pane.name, /\[x\] 1\. Auth/);
      key("Down");
      key("Down");
      await waitPane(pane.name, /> \[ \] 3\. Admin/);
      key("Space");
      await waitPane(pane.name, /\[x\] 3\. Admin/);
      key("Down");
      key("Enter"); // Something else…
      await waitPane(pane.name, /Enter submit/);
      key("-l", "Billing é");
      await waitPane(pane.name, /Billing é/);
      key("Enter");
      await waitPane(pane.name, /Review your answers/);
      key("Enter");
      assert.equal(await exitCode(dir, "pi-question to end"), 0, readFileSync(join(dir, "stdout"), "utf8"));
      const out = JSON.parse(readFileSync(join(dir, "stdout"), "utf8"));
      assert.equal(out.status, "answered");
      assert.equal(out.mode, "standalone");
      assert.deepEqual(
        out.answers.map((a) => a.id),
        ["db", "f"],
      );
      assert.equal(out.answers[0].value, "lite");
      assert.deepEqual(out.answers[1].values, ["auth", "admin", "Billing é"]);
      assert.equal(out.answers[1].wasCustom, true);
      assert.doesNotMatch(screen(pane.name), /Which (database|features)\?/, "the question is erased");
    } finally {
      pane.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

/** Runs the question with the addon directly and reports what the console looked like around it. */
const DRIVER = `
const { readFileSync, writeFileSync } = require("node:fs");
const addon = require(process.env.PI_QUESTION_ADDON);
const before = addon.ttyStatus("CONIN$");
const run = addon.runTty(readFileSync(process.argv[2], "utf8"), { path: "CONIN$", color: true, mode: "standalone" });
const during = new Set();
const sizes = new Set(); // the console's size as Windows reports it (stderr is the console)
const look = setInterval(() => {
  during.add(addon.ttyStatus("CONIN$"));
  if (process.stderr.isTTY) sizes.add(process.stderr.getWindowSize().join("x"));
  writeFileSync(process.argv[3] + ".sizes", [...sizes].join(" "));
}, 50);
run.done.then((r) => {
  clearInterval(look);
  const details = JSON.parse(r.details);
  writeFileSync(process.argv[3], JSON.stringify({ before, during: [...during], after: addon.ttyStatus("CONIN$"), status: details.status }));
});
`;

test(
  "windows: Esc cancels; the console is raw while the question is up and free again after, the cursor shown, the question erased",
  { skip: addonSkip, timeout: 240_000 },
  async () => {
    const dir = fixture();
    writeFileSync(join(dir, "driver.cjs"), DRIVER);
    const node = ensureWineNode();
    const pane = inPane(
      dir,
      [node, toWinePath(join(dir, "driver.cjs")), toWinePath(join(dir, "q.json")), toWinePath(join(dir, "seen.json"))],
      {
        env: { PI_QUESTION_ADDON: toWinePath(ADDON) },
      },
    );
    try {
      const rule = (width) => new RegExp(`^${"─".repeat(width)}$`, "m");
      await waitPane(pane.name, /> 1\. PostgreSQL/, START_MS);
      assert.match(screen(pane.name), rule(100), "the frame is as wide as the pane");
      tmux("send-keys", "-t", pane.name, "Escape");
      assert.equal(await exitCode(dir, "the driver to end"), 0);
      const seen = JSON.parse(readFileSync(join(dir, "seen.json"), "utf8"));
      assert.equal(seen.status, "cancelled");
      assert.equal(seen.before, "free");
      assert.ok(seen.during.includes("owned"), `raw while the question was up: ${seen.during}`);
      assert.equal(seen.after, "free", "the console's input mode is put back");
      assert.equal(tmux("display-message", "-p", "-t", pane.name, "#{cursor_flag}").stdout.trim(), "1", "the cursor is shown");
      assert.doesNotMatch(screen(pane.name), /Which database\?|PostgreSQL/, "the question is erased");
    } finally {
      pane.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  "windows: a resized console is redrawn at its new width — not testable under Wine, whose console never reports a new size",
  { skip: addonSkip, timeout: 240_000 },
  async (t) => {
    const dir = fixture();
    writeFileSync(join(dir, "driver.cjs"), DRIVER);
    const node = ensureWineNode();
    const seen = join(dir, "seen.json");
    const pane = inPane(dir, [node, toWinePath(join(dir, "driver.cjs")), toWinePath(join(dir, "q.json")), toWinePath(seen)], {
      env: { PI_QUESTION_ADDON: toWinePath(ADDON) },
    });
    try {
      await waitPane(pane.name, /> 1\. PostgreSQL/, START_MS);
      tmux("resize-window", "-t", pane.name, "-x", "72", "-y", "30");
      const sizes = () => (existsSync(`${seen}.sizes`) ? readFileSync(`${seen}.sizes`, "utf8").split(" ") : []);
      // Measured here (Wine 8): Node's own getWindowSize() on the console says 100x30 for as long
      // as the process lives after the pane became 72 columns; the runner reads the same API, so
      // it has nothing to redraw for. Only a console that reports the size can test the redraw.
      const reported = await waitFor(() => sizes().includes("72x30"), "the console to report 72x30", 3000).then(
        () => true,
        () => false,
      );
      if (!reported) {
        t.skip(`Wine's console never reported the new size (it said ${sizes().join(", ")} after the pane became 72x30)`);
        return;
      }
      // tmux re-wraps the old 100-column rule into lines of 72 and 28: only a frame drawn anew at
      // 72 columns has its rules all 72 wide.
      const rules = (text) =>
        text
          .split("\n")
          .filter((l) => /^─+$/.test(l))
          .map((l) => l.length);
      await waitPane(pane.name, {
        test: (text) => rules(text).length > 0 && rules(text).every((n) => n === 72),
        toString: () => "rules 72 wide only",
      });
    } finally {
      pane.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  "windows: Ctrl+C that comes as a console event (Wine's console sends it so) ends the question as interrupted and puts the console back",
  { skip: addonSkip, timeout: 240_000 },
  async () => {
    const dir = fixture();
    writeFileSync(join(dir, "driver.cjs"), DRIVER);
    const node = ensureWineNode();
    const pane = inPane(
      dir,
      [node, toWinePath(join(dir, "driver.cjs")), toWinePath(join(dir, "q.json")), toWinePath(join(dir, "seen.json"))],
      {
        env: { PI_QUESTION_ADDON: toWinePath(ADDON) },
      },
    );
    try {
      await waitPane(pane.name, /> 1\. PostgreSQL/, START_MS);
      tmux("send-keys", "-t", pane.name, "C-c");
      assert.equal(await exitCode(dir, "the driver to end"), 0, "the event is taken: the process goes on and reports");
      const seen = JSON.parse(readFileSync(join(dir, "seen.json"), "utf8"));
      assert.equal(seen.status, "interrupted");
      assert.equal(seen.after, "free", "the console's input mode is put back");
      assert.equal(tmux("display-message", "-p", "-t", pane.name, "#{cursor_flag}").stdout.trim(), "1", "the cursor is shown");
      assert.doesNotMatch(screen(pane.name), /Which database\?|PostgreSQL/, "the question is erased");
    } finally {
      pane.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

// pi's print mode on Windows' Node with a console: the current pi line (pi is JavaScript: the
// line installed for Linux runs on Windows' Node as it is) and a scripted model in pi's own process
// (tests/fixtures/scripted-provider.ts: fetch does not work under Wine), as wine-rpc.test.mjs runs it.
const piLine = currentLine();
const piModules = join(piLine.dir, "node_modules", "@earendil-works");
const printSkip =
  addonSkip ||
  (!existsSync(join(piModules, "pi-coding-agent", "dist", "bundle", "cli.js"))
    ? `the current pi line is not installed (${piLine.dir}: node scripts/current-pi.mjs)`
    : false);

test(
  "windows: pi -p with a console asks on it (the print-mode runner) and the model reads the answer; stdout carries only pi's reply",
  { skip: printSkip, timeout: 240_000 },
  async () => {
    const dir = fixture();
    for (const d of ["agent", "work"]) mkdirSync(join(dir, d));
    writeFileSync(join(dir, "agent", "settings.json"), "{}\n");
    const node = ensureWineNode();
    const cli = join(piModules, "pi-coding-agent", "dist", "bundle", "cli.js");
    const args = [
      cli,
      "-p",
      "ask me",
      "--offline",
      "--no-session",
      "-e",
      join(root, "tests", "fixtures", "scripted-provider.ts"),
      "-e",
      root,
      "--provider",
      "scripted",
      "--model",
      "scripted-1",
    ];
    const pane = inPane(dir, [node, ...args.map((a) => (a.startsWith("/") ? toWinePath(a) : a))], {
      cwd: join(dir, "work"),
      env: {
        PI_QUESTION_ADDON: toWinePath(ADDON),
        PI_CODING_AGENT_DIR: toWinePath(join(dir, "agent")),
        PI_OFFLINE: "1",
        PI_SKIP_VERSION_CHECK: "1",
        PI_QUESTION_FAUX_MODULE: toWinePath(join(piModules, "pi-ai", "dist", "providers", "faux.js")),
        PI_QUESTION_SCRIPTED_ARGS: JSON.stringify({ questions: [QUESTIONS.questions[0]] }),
      },
    });
    try {
      await waitPane(pane.name, /> 1\. PostgreSQL/, START_MS);
      tmux("send-keys", "-t", pane.name, "Down");
      await waitPane(pane.name, /> 2\. SQLite/);
      tmux("send-keys", "-t", pane.name, "Enter");
      assert.equal(await exitCode(dir, "pi to end"), 0, readFileSync(join(dir, "stdout"), "utf8"));
      assert.equal(readFileSync(join(dir, "stdout"), "utf8").trim(), "tool result: db: user selected: 2. SQLite (value: lite)");
      assert.doesNotMatch(screen(pane.name), /Which database\?/, "the question is erased");
    } finally {
      pane.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
