// e2e-print.test.mjs — the real pi (print mode, no terminal) with a scripted model: the exact
// tool result pi sends back for pre-supplied answers and for an invalid call.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { startMockModel } from "./helpers/mock-model.mjs";
import { makeHome, runPrint } from "./helpers/pi.mjs";

async function roundTrip(toolArguments) {
  const model = await startMockModel([{ toolCalls: [{ name: "question", arguments: toolArguments }] }, { text: "thanks" }]);
  const { home, work, cleanup } = makeHome(model.port);
  try {
    const run = await runPrint(home, work, "ask me");
    await model.waitForRequests(2);
    const tools = model.toolMessages(1);
    return { run, tools, request: model.requests[1] };
  } finally {
    cleanup();
    await model.close();
  }
}

test("e2e: pi receives the structured result of pre-supplied answers", async () => {
  const { run, tools } = await roundTrip({
    questions: [
      {
        id: "db",
        prompt: "Which database?",
        options: [
          { value: "pg", label: "PostgreSQL (Recommended)" },
          { value: "lite", label: "SQLite" },
        ],
      },
      { id: "name", prompt: "Service name?" },
    ],
    answers: { db: "lite", name: "order-processor" },
  });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(tools.length, 1);
  assert.equal(
    tools[0].content,
    "Taken from the answers given in this call's `answers`; the user was not asked and chose none of it.\ndb: selected: 2. SQLite (value: lite)\nname: wrote: order-processor",
  );
  assert.match(run.stdout, /thanks/);
});

test("e2e: pi receives the AskUserQuestion shape answered through pre-supplied answers", async () => {
  const { tools } = await roundTrip({
    questions: [{ question: "Deploy where?", header: "Target", options: [{ label: "staging" }, { label: "prod" }] }],
    answers: { target: "prod" },
  });
  assert.equal(
    tools[0].content,
    "Taken from the answers given in this call's `answers`; the user was not asked and chose none of it.\ntarget: selected: 2. prod",
  );
});

test("e2e: an invalid call comes back to the model as an error naming the path and the fix", async () => {
  const { run, tools } = await roundTrip({
    questions: [
      { id: "a", prompt: "x" },
      { id: "a", prompt: "y" },
    ],
  });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(tools.length, 1);
  assert.equal(tools[0].content, 'questions[1].id "a" repeats questions[0].id. Give every question a distinct id.');
});

test("e2e: an empty call gets 'No questions provided'", async () => {
  const { tools } = await roundTrip({ questions: [] });
  assert.match(tools[0].content, /^No questions provided/);
});

test("e2e: a question that is not the only tool call of its message is refused without UI", async () => {
  const model = await startMockModel([
    {
      toolCalls: [
        { name: "ls", arguments: { path: "." } },
        { name: "question", arguments: { questions: [{ id: "a", prompt: "x" }], answers: { a: "y" } } },
      ],
    },
    { text: "ok" },
  ]);
  const { home, work, cleanup } = makeHome(model.port);
  try {
    await runPrint(home, work, "go");
    await model.waitForRequests(2);
    const q = model.toolMessages(1).find((m) => m.content.includes("question"));
    assert.ok(q, JSON.stringify(model.toolMessages(1)));
    assert.match(q.content, /must be the only tool call in its message/);
  } finally {
    cleanup();
    await model.close();
  }
});

test("e2e: the session file keeps each question and its answer in the tool result's details", async () => {
  const model = await startMockModel([
    {
      toolCalls: [
        {
          name: "question",
          arguments: {
            questions: [{ id: "db", prompt: "Which?", options: ["pg", "lite"] }],
            answers: { db: "lite" },
            metadata: { source: "e2e" },
          },
        },
      ],
    },
    { text: "ok" },
  ]);
  const { home, work, cleanup } = makeHome(model.port);
  try {
    const sessions = join(home, "sessions");
    const run = await runPrint(home, work, "ask", ["--session-dir", sessions]);
    assert.equal(run.code, 0, run.stderr);
    const files = readdirSync(sessions, { recursive: true }).filter((f) => String(f).endsWith(".jsonl"));
    assert.equal(files.length, 1);
    const entries = readFileSync(join(sessions, String(files[0])), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const result = entries.find((e) => e.type === "message" && e.message.role === "toolResult" && e.message.toolName === "question");
    assert.ok(result, "a question tool result is in the session");
    const d = result.message.details;
    assert.equal(d.status, "answered");
    assert.equal(d.questions[0].prompt, "Which?");
    assert.deepEqual(d.answers, [{ id: "db", value: "lite", label: "lite", wasCustom: false, index: 2 }]);
    assert.deepEqual(d.metadata, { source: "e2e" });
  } finally {
    cleanup();
    await model.close();
  }
});
