// e2e-aside.test.mjs — stepping aside from a question in the real pi (TUI, in tmux): Alt+A (the
// help line names it) shrinks the question to one line above pi's editor so the transcript can be
// read; Alt+A again, or /answer, brings it back as it was — ticks, the highlight, typed text — and
// the answer given then is the person's, as usual. Sessions are named pq-aside-….
import assert from "node:assert/strict";
import { test } from "node:test";
import { withPi as withPiIn } from "./helpers/tmux.mjs";

const FEATURES = {
  id: "f",
  label: "Features",
  prompt: "Which features?",
  multiSelect: true,
  options: ["Auth", "API", "Admin"],
};
const script = (args) => [{ toolCalls: [{ name: "question", arguments: args }] }, { text: "thanks" }];
const withPi = (options, fn) => withPiIn({ namePrefix: "pq-aside-", ...options }, fn);
const ASIDE = /The question waits for you — Alt\+A or \/answer to show it again/;

test("e2e aside: Alt+A steps aside (one line above the editor, the transcript readable), Alt+A brings the question back with its ticks and highlight, and the answer is the person's", async () => {
  await withPi({ replies: script({ questions: [FEATURES] }) }, async (pi) => {
    await pi.prompt();
    await pi.waitForScreen(/Alt\+A step aside/);
    await pi.keys("Space", "Down");
    await pi.waitForScreen(/\[x\] 1\. Auth/);
    await pi.keys("M-a");
    const aside = await pi.waitForScreen(ASIDE);
    assert.doesNotMatch(aside, /\[x\] 1\. Auth/, "the question is out of the way");
    assert.equal(pi.model.requests.length, 1, "still waiting for the person");
    await pi.keys("M-a");
    const back = await pi.waitForScreen(/\[x\] 1\. Auth/);
    assert.doesNotMatch(back, ASIDE);
    assert.match(back, /> \[ \] 2\. API/, "the highlight where it was");
    await pi.keys("Space", "Enter");
    await pi.model.waitForRequests(2);
    assert.equal(pi.model.toolMessages(1)[0].content, "f: user selected: 1. Auth, 2. API");
    const result = await pi.waitForQuestionResult();
    assert.equal(result.details.mode, "interactive");
  });
});

test("e2e aside: /answer brings the question back too, with what was typed", async () => {
  await withPi({ replies: script({ questions: [{ id: "name", prompt: "What should it be called?" }] }) }, async (pi) => {
    await pi.prompt();
    await pi.waitForScreen(/What should it be called\?/);
    await pi.text("Orbit");
    await pi.waitForScreen(/Orbit/);
    await pi.keys("M-a");
    await pi.waitForScreen(ASIDE);
    await pi.text("/answer");
    await pi.keys("Enter");
    await pi.waitForScreen((s) => /What should it be called\?/.test(s) && /Orbit/.test(s) && !ASIDE.test(s));
    await pi.text(" v2");
    await pi.keys("Enter");
    await pi.model.waitForRequests(2);
    assert.equal(pi.model.toolMessages(1)[0].content, "name: user wrote: Orbit v2");
  });
});

test("e2e aside: with the timeout's \"selected\" the clock runs on while the question is aside; when it runs out, the ticks go to the model as the person's and the line goes", async () => {
  const settings = { ".pi/agent/question.json": JSON.stringify({ timeout: { after: "3s", then: "selected" } }) };
  await withPi({ replies: script({ questions: [FEATURES] }), homeFiles: settings }, async (pi) => {
    await pi.prompt();
    await pi.waitForScreen(/Sends what you selected in/);
    await pi.keys("Space");
    await pi.waitForScreen(/\[x\] 1\. Auth/);
    await pi.keys("M-a");
    await pi.waitForScreen(ASIDE);
    await pi.model.waitForRequests(2, 20000);
    const text = pi.model.toolMessages(1)[0].content;
    assert.match(text, /^f: user selected: 1\. Auth$/m);
    assert.match(text, /\("then": "selected"\) sent the answers they had selected/);
    await pi.waitForScreen((s) => !ASIDE.test(s));
    assert.equal((await pi.waitForQuestionResult()).details.status, "timed_out");
  });
});
