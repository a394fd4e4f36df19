// e2e-typed.test.mjs — typed answers in the real pi: a question of type "integer" with bounds
// shows what it expects, refuses an answer that does not read as one where it is typed (the text
// kept to correct), and the model reads the type and the value (TUI in tmux, sessions
// pq-typed-…); in `pi --mode rpc` the client's input is refused the same way and given back.
import assert from "node:assert/strict";
import { test } from "node:test";
import { startMockModel } from "./helpers/mock-model.mjs";
import { makeHome } from "./helpers/pi.mjs";
import { startRpc } from "./helpers/rpc-client.mjs";
import { withPi } from "./helpers/tmux.mjs";

const SEATS = { id: "seats", prompt: "How many seats?", type: "integer", min: 1, max: 10 };
const script = (args) => [{ toolCalls: [{ name: "question", arguments: args }] }, { text: "thanks" }];

test("e2e typed: an integer question shows its bounds, refuses 42 where it is typed (the text kept), takes 7; the model reads (integer: 7)", async () => {
  await withPi({ namePrefix: "pq-typed-", replies: script({ questions: [SEATS] }) }, async (pi) => {
    await pi.prompt();
    await pi.waitForScreen((s) => /How many seats\?/.test(s) && /A whole number \(1–10\)/.test(s));
    await pi.text("42");
    await pi.keys("Enter");
    await pi.waitForScreen(/Expected: A whole number \(1–10\)/);
    assert.equal(pi.model.requests.length, 1, "still asking");
    await pi.keys("BSpace", "BSpace");
    await pi.text("7");
    await pi.keys("Enter");
    await pi.model.waitForRequests(2);
    assert.equal(pi.model.toolMessages(1)[0].content, "seats: user wrote: 7 (integer: 7)");
    const result = await pi.waitForQuestionResult();
    assert.equal(result.details.answers[0].typed, 7);
    assert.equal(result.details.questions[0].type, "integer");
  });
});

test("e2e typed (rpc): the client's input shows the hint; a wrong answer is refused with the reason and given back to correct", async () => {
  const model = await startMockModel(script({ questions: [SEATS] }));
  const { home, work, cleanup } = makeHome(model.port);
  const seen = [];
  const rpc = startRpc(home, work, (d) => {
    if (d.method === "input") {
      seen.push(`input: ${d.title}`);
      return { value: "lots" };
    }
    if (d.method === "editor") {
      seen.push(`editor: ${d.prefill}`);
      return { value: "4" };
    }
    return undefined;
  });
  try {
    rpc.send({ type: "prompt", message: "ask me" });
    const end = await rpc.waitFor((e) => e.type === "tool_execution_end" && e.toolName === "question");
    assert.equal(end.result.details.status, "answered");
    assert.equal(end.result.details.answers[0].typed, 4);
    assert.match(seen[0], /How many seats\?\nA whole number \(1–10\)/);
    assert.equal(seen[1], "editor: lots", "the refused text given back");
    assert.ok(
      rpc.events.some(
        (e) => e.type === "extension_ui_request" && e.method === "notify" && /Expected: A whole number \(1–10\)/.test(e.message),
      ),
      "the engine's reason told",
    );
    await model.waitForRequests(2);
    assert.equal(model.toolMessages(1)[0].content, "seats: user wrote: 4 (integer: 4)");
  } finally {
    rpc.close();
    cleanup();
    await model.close();
  }
});
