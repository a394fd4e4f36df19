// tty-runner.test.mjs — the terminal runner (native/core/tty/tty_run.c on native/os/posix/tty.c) on a pseudo-terminal that nobody
// reads (tests/helpers/pty-host.py fills its output first): stop(), signals, process.exit and a
// terminated worker all end the run within a bound and put the terminal back;
// and a terminal another program owns is never taken ("never fight over a terminal").
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { root } from "./helpers/addon.mjs";

const HOST = join(root, "tests", "helpers", "pty-host.py");
const CHILD = join(root, "tests", "helpers", "tty-child.mjs");
const BIN = join(root, "bin", "pi-question.mjs");
const python = spawnSync("python3", ["-c", "import pty"]).status === 0;
const skip = python ? false : "python3 with the pty module is needed";

/** A run is over this long after it was told to end, at most (the runner's own waits are
 * 250 ms; the rest is a loaded machine). Before the fix these runs never ended. */
const BOUND_MS = 5000;

/** python3 runs without a sanitizer preload (npm run test:asan); the command keeps it. */
const { LD_PRELOAD, ...hostEnv } = process.env;

function host(spec) {
  const dir = mkdtempSync(join(tmpdir(), "pq-tty-runner-"));
  try {
    const full = { stdout: join(dir, "out"), limitMs: 10000, env: LD_PRELOAD ? { LD_PRELOAD } : {}, ...spec(dir) };
    const r = spawnSync("python3", [HOST, JSON.stringify(full)], { encoding: "utf8", timeout: 90000, env: hostEnv });
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    const read = (f) => {
      try {
        return readFileSync(join(dir, f), "utf8");
      } catch {
        return "";
      }
    };
    report.output = read("out");
    report.result = read("result") ? JSON.parse(read("result")) : null;
    return report;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const child = (mode) => (dir) => ({ argv: [process.execPath, CHILD, mode, join(dir, "result")] });
/** tty-child's stop, exit and worker modes end the run on SIGUSR1: sent this long after the
 * terminal went raw (the runner has it by then, however loaded the machine). */
const endAfterRaw = [{ afterMs: 300, signal: "SIGUSR1" }];

test("runner: stop() ends a run on a terminal that stopped reading; nothing keeps node alive", { skip }, () => {
  const r = host((dir) => ({ ...child("stop")(dir), fill: true, actions: endAfterRaw }));
  assert.ok(r.ready, "the runner switched the terminal to raw mode");
  assert.ok(r.exited && r.exitMs < BOUND_MS, `exited within ${BOUND_MS} ms: ${JSON.stringify(r)}`);
  assert.equal(r.status, 0, r.output);
  assert.deepEqual(r.result, { status: "interrupted" });
  assert.ok(r.restored, "the terminal's settings are back");
});

test("runner: a run stopped while the person types hands back what they typed (built.typed)", { skip }, () => {
  const r = host((dir) => ({
    ...child("typed")(dir),
    actions: [
      { afterMs: 0, input: "my own db" },
      // stopped once the runner has drawn what was typed (not after a guess at how long a
      // loaded machine takes to read it)
      { afterMs: 0, awaitOutput: "my own db" },
      { afterMs: 0, signal: "SIGUSR1" },
    ],
  }));
  assert.ok(r.ready, "the runner switched the terminal to raw mode");
  assert.equal(r.status, 0, r.output);
  assert.deepEqual(r.result, { status: "interrupted", typed: [{ id: "db", wrote: "my own db" }] });
  assert.ok(r.restored, "the terminal's settings are back");
});

test("runner: process.exit during a run (no stop()) ends the process and restores the terminal", { skip }, () => {
  const r = host((dir) => ({ ...child("exit")(dir), fill: true, actions: endAfterRaw }));
  assert.ok(r.ready);
  assert.ok(r.exited && r.exitMs < BOUND_MS, `exited within ${BOUND_MS} ms: ${JSON.stringify(r)}`);
  assert.equal(r.status, 0, r.output);
  assert.ok(r.restored, "the terminal's settings are back");
});

test("runner: a worker thread asking is terminated at once (environment teardown stops the run)", { skip }, () => {
  const r = host((dir) => ({ ...child("worker")(dir), fill: true, actions: endAfterRaw }));
  assert.ok(r.ready);
  assert.ok(r.exited && r.exitMs < BOUND_MS, `exited within ${BOUND_MS} ms: ${JSON.stringify(r)}`);
  assert.equal(r.status, 0, r.output);
  assert.deepEqual(r.result, { terminated: true });
  assert.ok(r.restored, "the terminal's settings are back");
});

test("runner: SIGTERM with no handler of the program ends it at once, terminal restored", { skip }, () => {
  const r = host((dir) => ({ ...child("hold")(dir), fill: true, actions: [{ afterMs: 200, signal: "SIGTERM" }] }));
  assert.ok(r.ready);
  assert.ok(r.exited && r.exitMs < BOUND_MS, `exited within ${BOUND_MS} ms: ${JSON.stringify(r)}`);
  assert.equal(r.signal, 15);
  assert.ok(r.restored, "the terminal's settings are back");
});

test("runner: pi-question on a terminal that stopped reading ends on SIGTERM (a second one at most)", { skip }, () => {
  const r = host(() => ({
    argv: [process.execPath, BIN, join(root, "examples", "demo.json")],
    fill: true,
    actions: [
      { afterMs: 200, signal: "SIGTERM" },
      { afterMs: 2200, signal: "SIGTERM" },
    ],
  }));
  assert.ok(r.ready);
  assert.ok(r.exited && r.exitMs < BOUND_MS, `exited within ${BOUND_MS} ms: ${JSON.stringify(r)}`);
  assert.ok(r.restored, "the terminal's settings are back");
});

test("runner: a terminal in raw mode belongs to another program: not available, and runTty does not touch it", { skip }, () => {
  const probe = host((dir) => ({ ...child("probe")(dir), raw: true, readyMs: 0 }));
  assert.deepEqual(probe.result, { status: "owned", available: false });
  const run = host((dir) => ({ ...child("hold")(dir), raw: true, readyMs: 0 }));
  assert.ok(run.exited, JSON.stringify(run));
  assert.equal(run.status, 0, run.output);
  assert.deepEqual(run.result, { error: "QT_ETTYOWNED" });
  assert.ok(run.restored && run.rawAtEnd, "the other program's raw mode is left as it was");
});

test("runner: a process outside the terminal's foreground process group does not take it", { skip }, () => {
  const r = host((dir) => ({ ...child("probe")(dir), background: true, readyMs: 0 }));
  assert.deepEqual(r.result, { status: "owned", available: false });
});

test("runner: a free terminal is free", { skip }, () => {
  const r = host((dir) => ({ ...child("probe")(dir), readyMs: 0 }));
  assert.deepEqual(r.result, { status: "free", available: true });
});

test("runner: the terminal is put back in exactly one place (tty_run.c's restore_terminal, through the device's qt_term_restore)", () => {
  const strip = (f) => readFileSync(join(root, "native", ...f), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
  const bodyOf = (source, head) => {
    const body = source.slice(source.indexOf(head));
    return body.slice(0, body.indexOf("\n}\n"));
  };
  const run = strip(["core", "tty", "tty_run.c"]);
  assert.equal(run.match(/\bLEAVE\b(?!\[\])/g)?.length, 2, "LEAVE defined once and written once");
  assert.equal(run.match(/qt_term_restore\(/g)?.length, 1, "the device restores in one place");
  assert.match(bodyOf(run, "static void restore_terminal"), /qt_term_restore\(/);
  const posix = strip(["os", "posix", "tty.c"]);
  assert.equal(posix.match(/tcsetattr\([^;]*saved/g)?.length, 1, "one tcsetattr back to the saved settings");
  assert.match(bodyOf(posix, "void qt_term_restore"), /tcsetattr\([^;]*saved/);
});

test("pi-question: an unreadable file's name and a last-resort error reach stderr sanitized", () => {
  // The whole environment: under `npm run test:asan` the sanitizer build named by
  // PI_QUESTION_ADDON loads only with the sanitizer runtime preloaded (LD_PRELOAD).
  const dir = mkdtempSync(join(tmpdir(), "pq-bin-"));
  const hostile = "\u001b]0;owned\u0007\u009b2J\u202e";
  const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
  try {
    const missing = spawnSync(process.execPath, [BIN, join(dir, `q${hostile}.json`)], { encoding: "utf8", env: process.env });
    assert.equal(missing.status, 2);
    assert.ok(!UNSAFE.test(missing.stderr), JSON.stringify(missing.stderr));
    assert.match(missing.stderr, /pi-question: cannot read .*q␛\]0;owned␇<U\+009B>2J<U\+202E>\.json: ENOENT/);
    // The catch-all: an error nobody expected, whose message carries controls (here the registry
    // directory cannot be listed).
    const hook = join(dir, "hook.mjs");
    writeFileSync(
      hook,
      `import fs from "node:fs"; import { syncBuiltinESMExports } from "node:module";
       fs.readdirSync = () => { throw new Error(${JSON.stringify(`cannot list ${hostile}`)}); };
       syncBuiltinESMExports();`,
    );
    const thrown = spawnSync(process.execPath, ["--import", hook, BIN, "pending"], {
      encoding: "utf8",
      env: { ...process.env, XDG_RUNTIME_DIR: dir },
    });
    assert.equal(thrown.status, 1);
    assert.ok(!UNSAFE.test(thrown.stderr), JSON.stringify(thrown.stderr));
    assert.match(thrown.stderr, /^pi-question: cannot list ␛\]0;owned␇<U\+009B>2J<U\+202E>\n$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---- claim at the key: the person's final key and an answer from elsewhere ---------------------
const CLAIM_CHILD = join(root, "tests", "helpers", "claim-child.mjs");
const claimChild = (mode) => (dir) => ({ argv: [process.execPath, CLAIM_CHILD, mode, dir], limitMs: 15000 });

test(
  "runner: the person's Enter takes the question; an answer from elsewhere before its result reaches JS is refused (already answered)",
  { skip },
  () => {
    // claim-child blocks its JS thread from READY until the runner gave the terminal back, then
    // answers from elsewhere: the key was read, its result not yet seen by JS.
    const r = host((dir) => ({
      ...claimChild("window")(dir),
      actions: [
        { afterMs: 0, awaitOutput: "READY" },
        { afterMs: 0, input: "\r" },
      ],
    }));
    assert.ok(r.ready, "the runner switched the terminal to raw mode");
    assert.equal(r.status, 0, r.output);
    assert.deepEqual(r.result.verdict, { ok: false, code: "already", reason: "already answered" });
    assert.equal(r.result.status, "answered");
    assert.equal(r.result.mode, "tty");
    assert.equal(r.result.text, "db: user selected: 1. Option 0");
    assert.doesNotMatch(r.output, /answered elsewhere/);
    assert.ok(r.restored, "the terminal's settings are back");
  },
);

test(
  "runner: an answer from elsewhere first closes the question on the terminal; the person is told and what they typed is shown",
  { skip },
  () => {
    const r = host((dir) => ({
      ...claimChild("first")(dir),
      actions: [
        { afterMs: 0, input: "half a thought" },
        { afterMs: 0, awaitOutput: "half a thought" },
        { afterMs: 0, signal: "SIGUSR1" },
      ],
    }));
    assert.ok(r.ready, "the runner switched the terminal to raw mode");
    assert.equal(r.status, 0, r.output);
    assert.deepEqual(r.result.verdict, { ok: true });
    assert.equal(r.result.status, "answered");
    assert.equal(r.result.mode, "web");
    assert.match(r.result.text, /from the page/);
    assert.equal(
      r.output,
      "The question was answered elsewhere.\nNot delivered; what you wrote, so it is not lost:\nWords: half a thought\n",
    );
    assert.ok(r.restored, "the terminal's settings are back");
  },
);
