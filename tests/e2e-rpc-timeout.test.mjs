// e2e-rpc-timeout.test.mjs — the person's timeout in `pi --mode rpc`: the nearest
// RPC equivalent is pi's own dialog `timeout`, carried by the first dialog; a client that leaves
// it unanswered lets pi resolve it, and the question ends timed_out with the setting's `then`.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { startMockModel } from "./helpers/mock-model.mjs";
import { makeHome } from "./helpers/pi.mjs";
import { startRpc } from "./helpers/rpc-client.mjs";

const DB = {
  id: "db",
  prompt: "Which database?",
  options: [
    { value: "pg", label: "PostgreSQL" },
    { value: "lite", label: "SQLite (Recommended)" },
  ],
};

async function rpcRound(then, answer, questions = [DB]) {
  const model = await startMockModel([{ toolCalls: [{ name: "question", arguments: { questions } }] }, { text: "ok" }]);
  const { home, work, cleanup } = makeHome(model.port);
  mkdirSync(join(home, ".pi", "agent"), { recursive: true });
  writeFileSync(join(home, ".pi", "agent", "question.json"), JSON.stringify({ timeout: { after: "2s", then } })); // the person's own settings: a project may not set a timeout
  const rpc = startRpc(home, work, answer);
  try {
    rpc.send({ type: "prompt", message: "ask me" });
    const end = await rpc.waitFor((e) => e.type === "tool_execution_end" && e.toolName === "question");
    await rpc.waitFor((e) => e.type === "agent_end");
    return { end, model, dialogs: rpc.dialogs };
  } finally {
    rpc.close();
    cleanup();
    await model.close();
  }
}

test("rpc timeout: the first dialog carries pi's timeout; unanswered, the question ends timed_out (then recommended)", async () => {
  const { end, model, dialogs } = await rpcRound("recommended", () => undefined);
  assert.ok(dialogs[0].timeout > 0 && dialogs[0].timeout <= 2000, `timeout ${dialogs[0].timeout}`);
  assert.equal(end.result.details.status, "timed_out");
  assert.equal(end.result.details.timeout, "recommended");
  await model.waitForRequests(2);
  assert.match(
    model.toolMessages(1)[0].content,
    /^db: not answered in time; the timeout applied the recommended option: 2\. SQLite \(Recommended\)/,
  );
});

test("rpc timeout: then decline reaches the model as the agent's decision", async () => {
  const { end, model } = await rpcRound("decline", () => undefined);
  assert.equal(end.result.details.status, "timed_out");
  await model.waitForRequests(2);
  assert.match(model.toolMessages(1)[0].content, /\("then": "decline"\) leaves the decision to you/);
});

test("rpc timeout: then cancel ends the turn", async () => {
  const { end, model } = await rpcRound("cancel", () => undefined);
  assert.equal(end.result.details.status, "timed_out");
  assert.match(end.result.content[0].text, /closed itself/);
  assert.equal(model.requests.length, 1, "the turn ended");
});

test("rpc timeout: a client that answers in time answers", async () => {
  const { end, model } = await rpcRound("cancel", () => ({ value: "1. PostgreSQL" }));
  assert.equal(end.result.details.status, "answered");
  await model.waitForRequests(2);
  assert.equal(model.toolMessages(1)[0].content, "db: user selected: 1. PostgreSQL (value: pg)");
});

test("rpc timeout: then selected — the reply to the first question starts the clock again (the next dialog carries it whole), and when the person stops, their answer so far reaches the model as theirs", async () => {
  const NAME = { id: "name", prompt: "Called?", options: ["api", "core"] };
  const { end, model, dialogs } = await rpcRound(
    "selected",
    (d) => (d.method === "select" && d.title.includes("Which database") ? { value: "1. PostgreSQL" } : undefined),
    [DB, NAME],
  );
  assert.equal(end.result.details.status, "timed_out");
  assert.equal(end.result.details.timeout, "selected");
  const second = dialogs.find((d) => d.title.includes("Called?"));
  assert.ok(second && second.timeout > 1500 && second.timeout <= 2000, `the second dialog's countdown: ${second?.timeout}`);
  await model.waitForRequests(2);
  const text = model.toolMessages(1)[0].content;
  assert.match(text, /^db: user selected: 1\. PostgreSQL \(value: pg\)$/m);
  assert.match(text, /\("then": "selected"\) sent the answers they had selected/);
  assert.match(text, /questions not listed were not answered/);
});
