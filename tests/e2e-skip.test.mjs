// e2e-skip.test.mjs — skipping one question of several in the real pi: in the TUI (tmux), Ctrl+S
// (the help line names it) skips the question shown, a second press says "I'll answer it in the
// chat", and the model reads per question what happened, the other answers as usual; in
// `pi --mode rpc`, the client's select offers the same as entries. Sessions are named pq-skip-….
import assert from "node:assert/strict";
import { test } from "node:test";
import { startMockModel } from "./helpers/mock-model.mjs";
import { makeHome } from "./helpers/pi.mjs";
import { startRpc } from "./helpers/rpc-client.mjs";
import { withPi as withPiIn } from "./helpers/tmux.mjs";

const DB = { id: "db", label: "DB", prompt: "Which database?", options: ["SQLite", "Postgres"] };
const HOST = { id: "host", label: "Host", prompt: "Where does it run?", options: ["Fly", "Render"] };
const NAME = { id: "name", label: "Name", prompt: "What is it called?" };
const script = (args) => [{ toolCalls: [{ name: "question", arguments: args }] }, { text: "thanks" }];
const withPi = (options, fn) => withPiIn({ namePrefix: "pq-skip-", ...options }, fn);

test("e2e skip: Ctrl+S skips a question, again says 'in the chat'; the review shows it; the model reads each question's fate and the rest as answered", async () => {
  await withPi({ replies: script({ questions: [DB, HOST, NAME] }) }, async (pi) => {
    await pi.prompt();
    await pi.waitForScreen(/Ctrl\+S skip/);
    await pi.keys("C-s");
    await pi.waitForScreen((s) => /Skipped: the agent decides this one/.test(s) && /Ctrl\+S say it in chat/.test(s));
    await pi.keys("Tab");
    await pi.waitForScreen(/Where does it run\?/);
    await pi.keys("C-s", "C-s");
    await pi.waitForScreen(/Skipped: you'll answer it in the chat/);
    await pi.keys("Tab");
    await pi.waitForScreen(/What is it called\?/);
    await pi.text("Orbit");
    await pi.keys("Enter");
    const review = await pi.waitForScreen(/Review your answers/);
    assert.match(review, /– DB: skipped/);
    assert.match(review, /– Host: you'll say it in the chat/);
    assert.match(review, /✓ Name: Orbit/);
    assert.equal(pi.model.requests.length, 1, "still waiting for the person");
    await pi.keys("Enter");
    await pi.model.waitForRequests(2);
    const text = pi.model.toolMessages(1)[0].content;
    assert.match(text, /^db: skipped by the user: decide it yourself$/m);
    assert.match(text, /^host: the user will answer this one in the chat$/m);
    assert.match(text, /^name: user wrote: Orbit$/m);
    assert.match(text, /will answer the ones marked "in the chat" in their next message/);
    const result = await pi.waitForQuestionResult();
    assert.equal(result.details.status, "answered");
    assert.deepEqual(result.details.skipped, [
      { id: "db", reason: "skipped" },
      { id: "host", reason: "chat" },
    ]);
    assert.deepEqual(
      result.details.answers.map((a) => a.id),
      ["name"],
    );
  });
});

test("e2e skip: a third Ctrl+S takes the skip back, and picking an option replaces a skip", async () => {
  await withPi({ replies: script({ questions: [DB, HOST] }) }, async (pi) => {
    await pi.prompt();
    await pi.waitForScreen(/Ctrl\+S skip/);
    await pi.keys("C-s", "C-s", "C-s");
    await pi.waitForScreen((s) => /Ctrl\+S skip/.test(s) && !/Skipped:/.test(s));
    await pi.keys("C-s");
    await pi.waitForScreen(/Skipped: the agent decides this one/);
    await pi.keys("2"); // Postgres: an answer replaces the skip, and the call goes on
    await pi.waitForScreen(/Where does it run\?/);
    await pi.keys("1");
    await pi.waitForScreen(/Review your answers/);
    await pi.keys("Enter");
    await pi.model.waitForRequests(2);
    assert.equal(pi.model.toolMessages(1)[0].content, "db: user selected: 2. Postgres\nhost: user selected: 1. Fly");
    assert.equal((await pi.waitForQuestionResult()).details.skipped, undefined);
  });
});

test("e2e skip (rpc): the client's select offers 'Skip this question' and 'I'll answer this in the chat'; the model reads it", async () => {
  const model = await startMockModel(script({ questions: [DB, HOST] }));
  const { home, work, cleanup } = makeHome(model.port);
  const titles = [];
  const reviews = [];
  const rpc = startRpc(home, work, (d) => {
    if (d.method === "confirm") {
      reviews.push(d.message);
      return { confirmed: true };
    }
    if (d.method !== "select") return undefined;
    titles.push(d.title);
    if (/Which database\?/.test(d.title)) return { value: d.options.find((o) => o === "I'll answer this in the chat") };
    if (/Where does it run\?/.test(d.title)) return { value: "2. Render" };
    return undefined;
  });
  try {
    rpc.send({ type: "prompt", message: "ask me" });
    const end = await rpc.waitFor((e) => e.type === "tool_execution_end" && e.toolName === "question");
    assert.equal(end.result.details.status, "answered");
    assert.deepEqual(end.result.details.skipped, [{ id: "db", reason: "chat" }]);
    await model.waitForRequests(2);
    const text = model.toolMessages(1)[0].content;
    assert.match(text, /^db: the user will answer this one in the chat$/m);
    assert.match(text, /^host: user selected: 2\. Render$/m);
    assert.equal(titles.length, 2, "one select per question: the skip went on to the next question");
    assert.equal(reviews.length, 1);
    assert.match(reviews[0], /DB: you'll say it in the chat/);
  } finally {
    rpc.close();
    cleanup();
    await model.close();
  }
});
