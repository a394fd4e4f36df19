// e2e-teardown.test.mjs — the real pi in tmux: after a question was shown and answered, the end
// of the session is a clean exit of pi, not a crash. The tmux helper's kill() ends pi with
// SIGHUP while its terminal is still there (pi's own handler: exit status 129 on pi 0.73, a
// graceful shutdown with 0 on pi 0.87) and reports how pi ended. It used to kill the tmux
// session first: the terminal hung up, and Node 20 aborted
// (SIGABRT) or segfaulted (SIGSEGV in libgcc_s's unwinder) in its exit-time terminal reset —
// one crashed pi per e2e test in the kernel log, with or without this package
// (nodejs/node#51519). A crash of this addon at exit (a finalizer, a cleanup hook, the
// terminal runner's atexit hook) would now fail every e2e test's kill() and this one.
import assert from "node:assert/strict";
import { constants } from "node:os";
import { test } from "node:test";
import { startPi } from "./helpers/tmux.mjs";

const DB = { id: "db", label: "Database", prompt: "Which database?", options: ["PostgreSQL", "SQLite"] };

test("teardown: a question answered, then pi is ended — it exits through its own SIGHUP handler, no crash", async () => {
  const pi = await startPi({ replies: [{ toolCalls: [{ name: "question", arguments: { questions: [DB] } }] }, { text: "thanks" }] });
  let ended;
  try {
    await pi.prompt("ask me");
    await pi.waitForScreen(/3\. Something else…/);
    await pi.keys("Down", "Down", "Enter");
    await pi.waitForScreen(/Enter submit/);
    await pi.text("hi");
    await pi.keys("Enter");
    // Ended right after the answer went out, while pi is still taking the model's reply: the
    // moment the crash was most likely (pi left through process.exit, not an empty loop).
    await pi.model.waitForRequests(2);
    assert.equal(pi.model.toolMessages(1)[0].content, "db: user wrote: hi");
  } finally {
    ended = await pi.kill();
  }
  assert.ok(ended, "kill() reports how pi ended");
  assert.equal(ended.already, false, "pi was still running when the test ended it");
  assert.notEqual(ended.timedOut, true, `pi exited within 5 s of SIGHUP (${JSON.stringify(ended)})`);
  assert.notEqual(ended.signal, constants.signals.SIGSEGV);
  assert.notEqual(ended.signal, constants.signals.SIGABRT);
  // pi 0.73.1 exits 129 at once (emergencyTerminalExit); pi 0.87.x shuts down gracefully (0).
  assert.equal(ended.signal, null, `pi exited by itself, not by a signal (${JSON.stringify(ended)})`);
  assert.ok([0, 129].includes(ended.status), `pi's SIGHUP exit status (${JSON.stringify(ended)})`);
});
