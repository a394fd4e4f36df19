// e2e-desktop.test.mjs — the desktop notice with the real pi in tmux: the desktop notification
// (setting notice.desktop) reaches the terminal as the bytes pi writes, read with `tmux
// pipe-pane` (the pane's raw output, before tmux interprets it). Inside tmux it goes through
// tmux's passthrough; it carries the question's first line only, the model's escape sequences
// neutralized; it is sent once per question, never per keystroke; off by default nothing is sent.
// Sessions are named pq-desk-….
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { startMockModel } from "./helpers/mock-model.mjs";
import { lineEnv, makeHome, piArgs, piArgv } from "./helpers/pi.mjs";
import { tmux, withPi as withPiIn } from "./helpers/tmux.mjs";
import { finished, startInTmux, tmux as ttyTmux, waitScreen } from "./helpers/tty-tmux.mjs";

const withPi = (options, fn) => withPiIn({ namePrefix: "pq-desk-", ...options }, fn);

// The model's prompt: a clipboard-writing OSC 52 and a bell inside, a second line after.
const PROMPT = "Deploy \u001b]52;c;ZXZpbA==\u0007now?\nDetails on a second line";
const script = [
  { toolCalls: [{ name: "question", arguments: { questions: [{ id: "go", prompt: PROMPT, options: ["Yes", "No"] }] } }] },
  { text: "thanks" },
];
const settings = (value) => ({ ".pi/agent/question.json": JSON.stringify(value) });

/** Starts copying the pane's raw output to a file in pi's HOME; returns a reader of it. */
function rawOutput(pi) {
  const file = join(pi.home, "pane-output.raw");
  const r = tmux("pipe-pane", "-o", "-t", pi.name, `cat >> '${file}'`);
  assert.equal(r.status, 0, r.stderr);
  return () => (existsSync(file) ? readFileSync(file, "utf8") : "");
}

const count = (haystack, needle) => haystack.split(needle).length - 1;

test("e2e desktop: one notification per question through tmux's passthrough, first line only, the model's escapes neutralized", async () => {
  await withPi({ replies: script, homeFiles: settings({ notice: { desktop: true } }) }, async (pi) => {
    const raw = rawOutput(pi);
    await pi.prompt();
    await pi.waitForScreen(/Deploy/);
    await pi.keys("Down", "Up", "Down", "Up");
    // Inside tmux (TERM is tmux's own), OSC 777 wrapped in tmux's DCS passthrough, every ESC of
    // the inner sequence doubled; the C core turned the model's ESC and BEL into visible text.
    const start = "\x1bPtmux;\x1b\x1b]777;notify;pi is asking;Deploy ";
    const waitForNotice = async () => {
      for (const until = Date.now() + 10000; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
        if (raw().includes(start)) return raw();
      }
      throw new Error(`no notification in the pane's output:\n${JSON.stringify(raw().slice(-2000))}`);
    };
    const out = await waitForNotice();
    const at = out.indexOf(start);
    const end = out.indexOf("\x07\x1b\\", at);
    assert.ok(end > at, "the passthrough is closed");
    const body = out.slice(at + start.length, end);
    assert.match(body, /^.\]52;c;ZXZpbA==.now\?$/u, `the model's ESC and BEL shown as symbols: ${JSON.stringify(body)}`);
    assert.doesNotMatch(body, /[\x00-\x1f\x7f-\x9f]/, `no control character of the model's inside: ${JSON.stringify(body)}`);
    assert.doesNotMatch(body, /Details/, "the first line only");
    await pi.keys("Enter");
    await pi.waitForScreen(/thanks/);
    assert.equal(count(raw(), "]777;notify;"), 1, "one notification for the question, none for the keys");
  });
});

test("e2e desktop: off by default — no notification reaches the terminal", async () => {
  await withPi({ replies: script }, async (pi) => {
    const raw = rawOutput(pi);
    await pi.prompt();
    await pi.waitForScreen(/Deploy/);
    await pi.keys("Enter");
    await pi.waitForScreen(/thanks/);
    assert.ok(raw().includes("Deploy"), "the pane's output was captured");
    assert.equal(count(raw(), "]777;"), 0);
    assert.equal(count(raw(), "\x1bPtmux;"), 0);
  });
});

test("e2e desktop: pi -p from a terminal — the terminal runner sends the notification once it has the terminal, once, before the question's first frame", async () => {
  const model = await startMockModel(script);
  const { home, work, cleanup } = makeHome(model.port);
  const name = "pq-desk-print";
  const file = join(home, "pane-output.raw");
  try {
    mkdirSync(join(home, ".pi", "agent"), { recursive: true });
    writeFileSync(join(home, ".pi", "agent", "question.json"), JSON.stringify({ notice: { desktop: true } }));
    const cmd = `sleep 1; ${piArgv([...piArgs(), "-p", "ask"])
      .map((a) => `'${a}'`)
      .join(" ")}`;
    startInTmux(name, work, cmd, { HOME: home, PI_OFFLINE: "1", PATH: lineEnv().PATH });
    const piped = ttyTmux("pipe-pane", "-o", "-t", name, `cat >> '${file}'`);
    assert.equal(piped.status, 0, piped.stderr);
    await waitScreen(name, /Deploy/);
    ttyTmux("send-keys", "-t", name, "Down", "Up", "Enter");
    await finished(work);
    await model.waitForRequests(2);
    const raw = readFileSync(file, "utf8");
    const start = "\x1bPtmux;\x1b\x1b]777;notify;pi is asking;Deploy ";
    assert.equal(count(raw, "]777;notify;"), 1, `one notification: ${JSON.stringify(raw.slice(0, 400))}`);
    const at = raw.indexOf(start);
    assert.ok(at >= 0, "through tmux's passthrough");
    assert.ok(at < raw.indexOf("Yes", at), "sent before the question is drawn (by the runner, on the terminal it took)");
  } finally {
    ttyTmux("kill-session", "-t", name);
    cleanup();
    await model.close();
  }
});
