// e2e-rpc.test.mjs — `pi --mode rpc` with a real RPC client answering the extension UI dialogs:
// single, multi-question, multi-select, typed and cancelled answers reach the model exactly;
// choices are known by position (an option may read like a special entry); what a project's
// settings file says reaches the client's notifications sanitized.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { startMockModel } from "./helpers/mock-model.mjs";
import { makeHome } from "./helpers/pi.mjs";
import { startRpc } from "./helpers/rpc-client.mjs";

async function rpcRound(args, answer, setup = () => {}) {
  const model = await startMockModel([{ toolCalls: [{ name: "question", arguments: args }] }, { text: "ok" }]);
  const { home, work, cleanup } = makeHome(model.port);
  setup(work);
  const rpc = startRpc(home, work, answer);
  try {
    rpc.send({ type: "prompt", message: "ask me" });
    const end = await rpc.waitFor((e) => e.type === "tool_execution_end" && e.toolName === "question");
    await rpc.waitFor((e) => e.type === "agent_end");
    return { end, model, dialogs: rpc.dialogs, events: rpc.events };
  } finally {
    rpc.close();
    cleanup();
    await model.close();
  }
}

const DB = {
  id: "db",
  prompt: "Which database?",
  options: [
    { value: "pg", label: "PostgreSQL" },
    { value: "lite", label: "SQLite" },
  ],
};

test("rpc: a single question is a select of the numbered labels plus Something else…", async () => {
  const { end, model, dialogs } = await rpcRound({ questions: [DB] }, (d) => ({ value: "2. SQLite" }));
  assert.deepEqual(dialogs[0].options, [
    "1. PostgreSQL",
    "2. SQLite",
    "3. Something else…",
    "Add a note…",
    "Let the agent decide",
    "Discuss first…",
  ]);
  assert.equal(dialogs[0].title, "Which database?");
  assert.equal(end.result.details.mode, "rpc");
  await model.waitForRequests(2);
  assert.equal(model.toolMessages(1)[0].content, "db: user selected: 2. SQLite (value: lite)");
});

test("rpc: “Discuss first…” asks what to tell the agent; the model reads it (status discuss) and replies", async () => {
  const { end, model, dialogs } = await rpcRound({ questions: [DB] }, (d) =>
    d.method === "select" ? { value: "Discuss first…" } : { value: "Why not both?" },
  );
  assert.equal(dialogs[1].method, "input");
  assert.equal(dialogs[1].title, "What do you want to tell the agent?");
  assert.equal(end.result.details.status, "discuss");
  assert.equal(end.result.details.discussion, "Why not both?");
  await model.waitForRequests(2);
  assert.equal(
    model.toolMessages(1)[0].content,
    "The user wants to talk about this question before answering it, and wrote to you:\n  Why not both?\nReply to what they wrote. Do not answer the question for them and do not act on it yet; ask the question again later if you still need the answer.",
  );
});

test("rpc: “Add a note…” opens pi's editor; the note goes with the answer to the model", async () => {
  let selects = 0;
  const { end, model, dialogs } = await rpcRound({ questions: [DB] }, (d) => {
    if (d.method === "editor") return { value: "only if hosting is cheap" };
    return { value: selects++ === 0 ? "Add a note…" : "2. SQLite" };
  });
  const editor = dialogs.find((d) => d.method === "editor");
  assert.ok(editor, "pi's RPC mode sent an editor request");
  assert.equal(editor.title, "A note for the agent, sent with your answer\nWhich database?");
  const second = dialogs.filter((d) => d.method === "select")[1];
  assert.equal(second.title, "Which database?\nNote: only if hosting is cheap");
  assert.ok(second.options.includes("Edit the note…"));
  assert.equal(end.result.details.answers[0].note, "only if hosting is cheap");
  await model.waitForRequests(2);
  assert.match(model.toolMessages(1)[0].content, /db: user selected: 2\. SQLite \(value: lite\)[\s\S]*only if hosting is cheap/);
});

test("rpc: Something else… asks for the typed text", async () => {
  const { model, dialogs } = await rpcRound({ questions: [DB] }, (d) =>
    d.method === "select" ? { value: "3. Something else…" } : { value: "  DynamoDB " },
  );
  assert.equal(dialogs[1].method, "input");
  await model.waitForRequests(2);
  assert.equal(model.toolMessages(1)[0].content, "db: user wrote: DynamoDB");
});

test("rpc: several questions, multi-select and free text, then the review confirm", async () => {
  const args = {
    questions: [
      DB,
      { id: "f", label: "Features", prompt: "Which features?", multiSelect: true, options: ["Auth", "API", "Admin"] },
      { id: "name", prompt: "Name?" },
    ],
  };
  const ticks = ["[ ] 1. Auth", "[ ] 3. Admin", "Done"];
  const { model, dialogs } = await rpcRound(args, (d) => {
    if (d.method === "confirm") return { confirmed: true };
    if (d.method === "input") return { value: "orders" };
    if (d.title.includes("Which database")) return { value: "1. PostgreSQL" };
    return { value: ticks.shift() };
  });
  assert.match(dialogs[1].title, /^\(2\/3\) Features: Which features\?$/);
  assert.deepEqual(dialogs[2].options.slice(0, 3), ["[x] 1. Auth", "[ ] 2. API", "[ ] 3. Admin"]);
  const confirm = dialogs.find((d) => d.method === "confirm");
  assert.match(confirm.message, /Features: Auth, Admin/);
  await model.waitForRequests(2);
  assert.equal(
    model.toolMessages(1)[0].content,
    "db: user selected: 1. PostgreSQL (value: pg)\nf: user selected: 1. Auth, 3. Admin\nname: user wrote: orders",
  );
});

test("rpc: 'Let the agent decide' with ticks and typed text declines with them kept (they count at once, as in the TUI)", async () => {
  const args = { questions: [{ id: "f", prompt: "Which features?", multiSelect: true, options: ["Auth", "API"] }] };
  const steps = ["[ ] 1. Auth", "[ ] 3. Something else…", "Let the agent decide"];
  const { end, model, dialogs } = await rpcRound(args, (d) => {
    if (d.method === "confirm") return { confirmed: false };
    if (d.method === "input") return { value: "audit log" };
    return { value: steps.shift() };
  });
  assert.equal(
    dialogs.find((d) => d.method === "confirm"),
    undefined,
    "nothing would be lost: nothing to ask",
  );
  assert.equal(end.result.details.status, "declined");
  await model.waitForRequests(2);
  assert.match(model.toolMessages(1)[0].content, /f: user selected: 1\. Auth; user wrote: audit log/);
});

test("rpc: a cancelled dialog cancels the whole call and ends the turn", async () => {
  const { end, model } = await rpcRound({ questions: [DB, { id: "n", prompt: "Name?" }] }, () => ({ cancelled: true }));
  assert.equal(end.result.details.status, "cancelled");
  assert.match(end.result.content[0].text, /cancelled/);
  assert.equal(model.requests.length, 1, "no further model call after a cancel");
});

test("rpc: /answer reopens a cancelled question and sends the answers as the user's next message", async () => {
  const model = await startMockModel([
    { toolCalls: [{ name: "question", arguments: { questions: [DB] } }] },
    { text: "thanks for answering" },
  ]);
  const { home, work, cleanup } = makeHome(model.port);
  let cancelFirst = true;
  const rpc = startRpc(home, work, () => {
    if (cancelFirst) {
      cancelFirst = false;
      return { cancelled: true };
    }
    return { value: "2. SQLite" };
  });
  try {
    rpc.send({ type: "prompt", message: "ask me" });
    await rpc.waitFor((e) => e.type === "agent_end");
    assert.equal(model.requests.length, 1, "the cancel ended the turn");
    rpc.send({ type: "prompt", message: "/answer" });
    await model.waitForRequests(2);
    const last = model.requests[1].messages.at(-1);
    assert.equal(last.role, "user");
    const text = typeof last.content === "string" ? last.content : last.content.map((c) => c.text).join("");
    assert.equal(text, "Here are my answers to the question you asked earlier:\ndb: user selected: 2. SQLite (value: lite)");
  } finally {
    rpc.close();
    cleanup();
    await model.close();
  }
});

test("rpc: 'Let the agent decide' declines; the agent is told to decide and state its assumptions", async () => {
  const { end, model } = await rpcRound({ questions: [DB] }, () => ({ value: "Let the agent decide" }));
  assert.equal(end.result.details.status, "declined");
  await model.waitForRequests(2);
  assert.match(model.toolMessages(1)[0].content, /declined to answer and left the decision to you/);
});

test("rpc: an option labelled 'Let the agent decide' is an answer, not a decline", async () => {
  const args = {
    questions: [
      {
        id: "who",
        prompt: "Who picks the name?",
        options: [
          { value: "agent", label: "Let the agent decide" },
          { value: "me", label: "Me" },
        ],
      },
    ],
  };
  const { end, model, dialogs } = await rpcRound(args, (d) => ({ value: d.options[0] }));
  assert.deepEqual(dialogs[0].options, [
    "1. Let the agent decide",
    "2. Me",
    "3. Something else…",
    "Add a note…",
    "Let the agent decide",
    "Discuss first…",
  ]);
  assert.equal(end.result.details.status, "answered");
  await model.waitForRequests(2);
  assert.equal(model.toolMessages(1)[0].content, "who: user selected: 1. Let the agent decide (value: agent)");
});

test("rpc: a project's hostile settings key reaches the client's notification sanitized", async () => {
  const osc52 = "\u001b]52;c;cHduZWQ=\u0007";
  const { end, events } = await rpcRound(
    { questions: [DB] },
    (d) => ({ value: d.options[0] }),
    (work) => {
      mkdirSync(join(work, ".pi"), { recursive: true });
      writeFileSync(join(work, ".pi", "question.json"), JSON.stringify({ [osc52]: true, language: "\u009b2J", notice: { notify: true } }));
    },
  );
  assert.equal(end.result.details.status, "answered");
  const shown = events.filter((e) => e.type === "extension_ui_request" && ["notify", "setTitle", "setStatus"].includes(e.method));
  const notes = shown.filter((e) => e.method === "notify").map((e) => e.message);
  assert.ok(
    notes.some((m) => m.includes('"\\u001b]52;c;cHduZWQ=\\u0007" is not a setting')),
    JSON.stringify(notes),
  );
  assert.ok(
    notes.some((m) => m.includes('"language" must be')),
    JSON.stringify(notes),
  );
  for (const e of shown) {
    const text = e.message ?? e.title ?? e.statusText ?? "";
    assert.ok(!/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(text), `raw control in ${e.method}: ${JSON.stringify(text)}`);
  }
});
