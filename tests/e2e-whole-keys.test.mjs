// e2e-whole-keys.test.mjs — the real pi in tmux: pi's TUI hands the question
// whole key sequences, so Alt+] ("\x1b]", which a raw terminal decoder would hold as the start of
// a terminal reply) is one key, and the text typed after it arrives in the answer.
import assert from "node:assert/strict";
import { test } from "node:test";
import { withPi } from "./helpers/tmux.mjs";

const DB = { id: "db", label: "Database", prompt: "Which database?", options: ["PostgreSQL", "SQLite"] };

test("interactive: Alt+] then typing — the typed text arrives (nothing is swallowed)", async () => {
  await withPi({ replies: [{ toolCalls: [{ name: "question", arguments: { questions: [DB] } }] }, { text: "thanks" }] }, async (pi) => {
    await pi.prompt("ask me");
    await pi.waitForScreen(/3\. Something else…/);
    await pi.keys("Down", "Down", "Enter");
    await pi.waitForScreen(/Enter submit/);
    await pi.text("hi");
    await pi.waitForScreen(/^ +hi$/m); // the typed line ("Which database?" has "hi" in it too)
    // pi's input buffer waits 10 ms for the rest of an unfinished sequence before it hands
    // "\x1b]" over alone; keys() sends the text after pi has read Alt+], and later than that.
    await pi.keys("M-]");
    await pi.text("there");
    await pi.waitForScreen(/hithere/);
    await pi.keys("BSpace", "BSpace");
    await pi.waitForScreen((s) => /hithe/.test(s) && !/hither/.test(s)); // DEL is not swallowed either
    await pi.keys("Enter");
    await pi.model.waitForRequests(2);
    assert.equal(pi.model.toolMessages(1)[0].content, "db: user wrote: hithe");
  });
});

test("interactive: Ctrl+J in typed text is a new line, as in pi's own editor (0.73 reads LF so, 0.87 binds Ctrl+J)", async () => {
  const NAME = { id: "name", prompt: "Service name?" };
  await withPi({ replies: [{ toolCalls: [{ name: "question", arguments: { questions: [NAME] } }] }, { text: "thanks" }] }, async (pi) => {
    await pi.prompt("ask me");
    await pi.waitForScreen(/Service name\?/);
    await pi.text("one");
    await pi.waitForScreen(/^ +> one$/m);
    await pi.keys("C-j");
    await pi.text("two");
    await pi.waitForScreen(/two/);
    await pi.keys("Enter");
    await pi.model.waitForRequests(2);
    assert.equal(pi.model.toolMessages(1)[0].content, "name: user wrote: one\n  two");
  });
});
