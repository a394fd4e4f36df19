// e2e-change-answer.test.mjs — changing your mind in the real pi: /answer on the last question
// answered reopens it with the answer given chosen ("Answered on …: … — Enter keeps it"); a new
// answer reaches the agent once, as the person's message saying they changed it; the project's
// remembered answer follows; Enter on each (nothing changed) sends nothing. TUI in tmux (sessions
// pq-change-…), and RPC.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { startMockModel } from "./helpers/mock-model.mjs";
import { makeHome } from "./helpers/pi.mjs";
import { startRpc } from "./helpers/rpc-client.mjs";
import { withPi } from "./helpers/tmux.mjs";

const DB = { id: "db", label: "DB", prompt: "Which database?", options: ["SQLite", "Postgres"] };
const userText = (request) => {
  const last = request.messages.at(-1);
  assert.equal(last.role, "user");
  return typeof last.content === "string" ? last.content : last.content.map((c) => c.text).join("");
};

test("e2e change answer: /answer reopens the last question answered with its answer chosen; the new one reaches the agent once as the person's message, and is remembered", async () => {
  const replies = [
    { toolCalls: [{ name: "question", arguments: { questions: [DB] } }] },
    { text: "SQLite it is" },
    { text: "switching to Postgres" },
  ];
  await withPi({ namePrefix: "pq-change-", replies }, async (pi) => {
    await pi.prompt();
    await pi.waitForScreen(/Which database\?/);
    await pi.keys("1");
    await pi.model.waitForRequests(2);
    await pi.waitForScreen(/SQLite it is/);
    await pi.text("/answer");
    await pi.keys("Enter");
    await pi.waitForScreen((s) => /Which database\?/.test(s) && /Answered on [^:]+: SQLite — Enter keeps it/.test(s));
    await pi.keys("2");
    await pi.model.waitForRequests(3);
    assert.equal(
      userText(pi.model.requests[2]),
      "I changed my answer to the question you asked earlier (db); this replaces what I answered before:\ndb: user selected: 2. Postgres",
    );
    await pi.waitForScreen(/switching to Postgres/);
    // the project's remembered answer follows: its newest entry is Postgres
    const dir = join(pi.home, ".pi", "agent", "question-answers");
    const jsonl = readdirSync(dir).find((f) => f.endsWith(".jsonl"));
    const entries = readFileSync(join(dir, jsonl), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.deepEqual(entries.at(-1).answer, { selected: ["Postgres"] });
    // remembered: asked again, it opens with Postgres; and /answer now changes the changed answer
    await pi.text("/answer");
    await pi.keys("Enter");
    await pi.waitForScreen(/Answered on [^:]+: Postgres — Enter keeps it/);
    await pi.keys("Enter"); // kept: nothing changed, nothing sent
    await pi.waitForScreen(/Nothing changed: the agent keeps the answer you gave\./);
    assert.equal(pi.model.requests.length, 3, "no message for an answer kept");
  });
});

test("e2e change answer (rpc): /answer reopens the last answer in the client's dialog; the change goes to the agent as the person's message", async () => {
  const model = await startMockModel([
    { toolCalls: [{ name: "question", arguments: { questions: [DB] } }] },
    { text: "SQLite it is" },
    { text: "noted" },
  ]);
  const { home, work, cleanup } = makeHome(model.port);
  const titles = [];
  const rpc = startRpc(home, work, (d) => {
    if (d.method !== "select") return undefined;
    titles.push(d.title);
    return { value: titles.length === 1 ? "1. SQLite" : "2. Postgres" };
  });
  try {
    rpc.send({ type: "prompt", message: "ask me" });
    await rpc.waitFor((e) => e.type === "agent_end");
    rpc.send({ type: "prompt", message: "/answer" });
    await model.waitForRequests(3);
    assert.match(titles[1], /Answered on [^:]+: SQLite — Enter keeps it/, "the dialog says the answer given");
    assert.equal(
      userText(model.requests[2]),
      "I changed my answer to the question you asked earlier (db); this replaces what I answered before:\ndb: user selected: 2. Postgres",
    );
  } finally {
    rpc.close();
    cleanup();
    await model.close();
  }
});
