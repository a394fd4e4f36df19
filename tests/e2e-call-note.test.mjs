// e2e-call-note.test.mjs — one note for the whole call in the real pi: on the review, Ctrl+N (the
// help line names it) opens "A note on all your answers", and the model reads it after the answers
// (TUI, in tmux); in `pi --mode rpc` the review's other ways offer "Note on all the answers…",
// written in the client's editor. Sessions are named pq-callnote-….
import assert from "node:assert/strict";
import { test } from "node:test";
import { startMockModel } from "./helpers/mock-model.mjs";
import { makeHome } from "./helpers/pi.mjs";
import { startRpc } from "./helpers/rpc-client.mjs";
import { withPi as withPiIn } from "./helpers/tmux.mjs";

const DB = { id: "db", label: "DB", prompt: "Which database?", options: ["SQLite", "Postgres"] };
const NAME = { id: "name", label: "Name", prompt: "What is it called?" };
const script = (args) => [{ toolCalls: [{ name: "question", arguments: args }] }, { text: "thanks" }];

test("e2e call note: Ctrl+N on the review writes one note on all the answers; the review shows it and the model reads it after the answers", async () => {
  await withPiIn({ namePrefix: "pq-callnote-", replies: script({ questions: [DB, NAME] }) }, async (pi) => {
    await pi.prompt();
    await pi.waitForScreen(/Which database\?/);
    await pi.keys("2");
    await pi.waitForScreen(/What is it called\?/);
    await pi.text("Orbit");
    await pi.keys("Enter");
    await pi.waitForScreen(/Ctrl\+N note on all/);
    await pi.keys("C-n");
    await pi.waitForScreen(/A note on all your answers \(Enter when done\):/);
    await pi.text("ship it by Friday");
    await pi.keys("Enter");
    await pi.waitForScreen(/Note on all: ship it by Friday/);
    assert.equal(pi.model.requests.length, 1, "still waiting for the person");
    await pi.keys("Enter");
    await pi.model.waitForRequests(2);
    assert.equal(
      pi.model.toolMessages(1)[0].content,
      "db: user selected: 2. Postgres\nname: user wrote: Orbit\nnote on all the answers: ship it by Friday",
    );
    assert.equal((await pi.waitForQuestionResult()).details.note, "ship it by Friday");
  });
});

test("e2e call note (rpc): the review's other ways offer 'Note on all the answers…' in the client's editor; the model reads it", async () => {
  const model = await startMockModel(script({ questions: [DB, NAME] }));
  const { home, work, cleanup } = makeHome(model.port);
  const reviews = [];
  const rpc = startRpc(home, work, (d) => {
    if (d.method === "select" && /Which database\?/.test(d.title)) return { value: "1. SQLite" };
    if (d.method === "input" && /What is it called\?/.test(d.title)) return { value: "Orbit" };
    if (d.method === "confirm") {
      reviews.push(d.message);
      return { confirmed: reviews.length > 1 }; // no the first time: the other ways
    }
    if (d.method === "select") return { value: d.options.find((o) => o === "Note on all the answers…") };
    if (d.method === "editor") return { value: "both are fine for now" };
    return undefined;
  });
  try {
    rpc.send({ type: "prompt", message: "ask me" });
    const end = await rpc.waitFor((e) => e.type === "tool_execution_end" && e.toolName === "question");
    assert.equal(end.result.details.status, "answered");
    assert.equal(end.result.details.note, "both are fine for now");
    assert.equal(reviews.length, 2);
    assert.match(reviews[1], /Note on all: both are fine for now/, "the review again, with the note");
    await model.waitForRequests(2);
    assert.match(model.toolMessages(1)[0].content, /\nnote on all the answers: both are fine for now$/);
  } finally {
    rpc.close();
    cleanup();
    await model.close();
  }
});
