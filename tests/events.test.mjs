// events.test.mjs — the questions on pi's event bus (extension/board/events.ts): the real tool
// with a fake TUI and pi's bus as another extension sees it. A question that waits is announced
// on "question:asked" and its end on "question:ended"; an answer on "question:answer" goes
// through the board (validated by the C core, exactly once, details.mode "extension"); one that
// is not taken is said back on "question:refused", with the reason, and changes nothing.
import "./helpers/own-home.mjs"; // never the real ~/.pi/agent (remembered answers)
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { loadExtension, tuiContext } from "./helpers/fake-pi.mjs";
import { importShim } from "./helpers/shim.mjs";
import { until } from "./helpers/until.mjs";

const handlers = new Map();
const { pi, tools } = await loadExtension({ on: (name, fn) => handlers.set(name, fn) });
const tool = tools.get("question");
let shown = [];
const ctx = tuiContext((component) => shown.push(component));
await handlers.get("session_start")({ reason: "startup" }, ctx);
after(() => handlers.get("session_shutdown")({}, ctx));

/** Everything said on the question channels, in order. */
const heard = [];
for (const channel of ["question:asked", "question:ended", "question:refused"])
  pi.events.on(channel, (data) => heard.push({ channel, data }));
const said = (channel) => heard.filter((h) => h.channel === channel).map((h) => h.data);

const DB = { id: "db", prompt: "Which database?", options: ["SQLite", "Postgres"] };
const ARGS = tool.prepareArguments({ questions: [DB] });

/** Asks, and returns the pending call with the id "question:asked" gave it. */
async function ask(args = ARGS) {
  shown = [];
  heard.length = 0;
  const asking = tool.execute("c", args, undefined, undefined, ctx);
  await until(() => said("question:asked").length && shown.length, "the question announced and shown");
  return { asking, id: said("question:asked")[0].id };
}

test("events: a waiting question is announced with its id, questions, asker and project; another extension's answer is taken, mode extension", async () => {
  const { asking, id } = await ask();
  const asked = said("question:asked")[0];
  assert.match(id, /^q[0-9a-f]{8}$/);
  assert.deepEqual(
    asked.questions.map((q) => [q.id, q.prompt, q.options.map((o) => o.label)]),
    [["db", "Which database?", ["SQLite", "Postgres"]]],
  );
  assert.equal(asked.asker, null, "this pi's own agent");
  assert.equal(asked.cwd, ctx.cwd);
  assert.equal(asked.async, false);
  pi.events.emit("question:answer", { id, answers: { db: "Postgres" } });
  const result = await asking;
  assert.equal(result.details.mode, "extension");
  assert.equal(result.details.status, "answered");
  assert.match(result.content[0].text, /^Answered by another pi extension, not by the person\. [^\n]*\ndb: selected: 2\. Postgres$/);
  await until(() => said("question:ended").length, "the end announced");
  assert.deepEqual(said("question:ended"), [{ id, outcome: "answered" }]);
  assert.deepEqual(said("question:refused"), []);
});

test("events: exactly once — a second answer, and one to a question answered in the TUI, are refused with how it ended", async () => {
  const { asking, id } = await ask();
  pi.events.emit("question:answer", { id, answers: { db: "SQLite" } });
  pi.events.emit("question:answer", { id, answers: { db: "Postgres" } });
  const result = await asking;
  assert.match(result.content[0].text, /\ndb: selected: 1\. SQLite$/, "the first answer stands");
  assert.deepEqual(said("question:refused"), [{ id, code: "already", reason: "already answered" }]);
  // answered with a key in the TUI: a later answer from the bus is refused
  const second = await ask();
  shown[0].handleInput("2");
  assert.equal((await second.asking).details.mode, "interactive");
  pi.events.emit("question:answer", { id: second.id, answers: { db: "SQLite" } });
  assert.deepEqual(said("question:refused").at(-1), { id: second.id, code: "already", reason: "already answered" });
});

test("events: answers that do not fit, bad shapes and unknown ids are refused with a reason, the question still waiting", async () => {
  const { asking, id } = await ask();
  const cyclic = {};
  cyclic.self = cyclic;
  const bad = [
    [null, null, "invalid", /takes an object/],
    [[1, 2], null, "invalid", /takes an object/],
    [{ answers: { db: "SQLite" } }, null, "invalid", /id must be/],
    [{ id, answers: { db: ["SQLite", "Postgres"] } }, id, "invalid", /db/],
    [{ id, answers: { nope: "x" } }, id, "invalid", /no question with id "nope"/],
    [{ id, answers: cyclic }, id, "invalid", /cannot be read/],
    [{ id, outcome: 5 }, id, "invalid", /outcome must be a string/],
    [{ id, outcome: "maybe" }, id, "invalid", /outcome/],
    [{ id: "q00000000", answers: { db: "SQLite" } }, "q00000000", "not_waiting", /no longer waiting/],
  ];
  for (const [k, [data, refusedId, code, reason]] of bad.entries()) {
    const before = said("question:refused").length;
    pi.events.emit("question:answer", data);
    const refused = said("question:refused").slice(before);
    assert.equal(refused.length, 1, `case ${k}`);
    assert.equal(refused[0].id, refusedId);
    assert.equal(refused[0].code, code);
    assert.match(refused[0].reason, reason);
  }
  assert.equal(said("question:ended").length, 0, "still waiting");
  pi.events.emit("question:answer", { id, outcome: "declined" });
  const result = await asking;
  assert.equal(result.details.status, "declined");
  assert.equal(result.details.mode, "extension");
});

test("events: talk first and cancel through the bus; the end is announced with its outcome", async () => {
  let { asking, id } = await ask();
  pi.events.emit("question:answer", { id, outcome: "discuss", discussion: "why a database at all?" });
  let result = await asking;
  assert.equal(result.details.status, "discuss");
  assert.match(result.content[0].text, /why a database at all\?/);
  ({ asking, id } = await ask());
  pi.events.emit("question:answer", { id, outcome: "cancelled" });
  result = await asking;
  assert.equal(result.details.status, "cancelled");
  await until(() => said("question:ended").length, "the end announced");
  assert.deepEqual(said("question:ended"), [{ id, outcome: "cancelled" }]);
});

test("events: a listener of another extension that throws changes nothing here", async () => {
  const stop = pi.events.on("question:asked", () => {
    throw new Error("a broken bridge");
  });
  try {
    const { asking, id } = await ask();
    pi.events.emit("question:answer", { id, answers: { db: "SQLite" } });
    assert.equal((await asking).details.status, "answered");
  } finally {
    stop();
  }
});

test("events: the example extension (examples/recommended-autopilot.ts) leaves a free-text question alone, and answers one whose every question has a recommendation", async () => {
  const { eventBus } = await import("./helpers/fake-pi.mjs");
  const { default: autopilot } = await importShim("../examples/recommended-autopilot.ts");
  const bus = eventBus();
  const answered = [];
  bus.on("question:answer", (data) => answered.push(data));
  autopilot({ events: bus });
  const free = { id: "name", prompt: "What should we call it?", multiSelect: false };
  bus.emit("question:asked", { id: "q00000001", questions: [free], asker: null, cwd: "/", async: false });
  assert.deepEqual(answered, [], "a question without options is the person's");
  const db = {
    id: "db",
    prompt: "Which?",
    multiSelect: false,
    options: [
      { value: "pg", label: "PG (Recommended)" },
      { value: "l", label: "Lite" },
    ],
  };
  bus.emit("question:asked", { id: "q00000002", questions: [db], asker: null, cwd: "/", async: false });
  assert.deepEqual(answered, [{ id: "q00000002", answers: { db: "pg" }, source: "autopilot" }]);
});

test("events: another extension's answer never reads as the person's — the model is told it was that extension, under the name it gives itself, said as its own claim", async () => {
  let { asking, id } = await ask();
  pi.events.emit("question:answer", { id, answers: { db: "Postgres" } });
  let result = await asking;
  const text = result.content[0].text;
  assert.doesNotMatch(text, /user selected|user wrote/);
  assert.match(text, /^Answered by another pi extension, not by the person\. Nothing below is the user's choice/);
  assert.match(text, /\ndb: selected: 2\. Postgres$/);
  assert.equal(result.details.source, undefined, "no name given: none kept");
  // a name: sanitized (no escape reaches pi's transcript or the model), quotes made single, said as unverified
  ({ asking, id } = await ask({ ...ARGS }));
  pi.events.emit("question:answer", { id, answers: { db: "SQLite" }, source: ' auto"pilot\x1b[2J ' });
  result = await asking;
  assert.match(
    result.content[0].text,
    /^Answered by another pi extension, not by the person \(it calls itself "auto'pilot␛\[2J"; the name is its own claim, not verified\)\./,
  );
  assert.match(result.content[0].text, /\ndb: selected: 1\. SQLite$/);
  assert.equal(result.details.source, "auto'pilot␛[2J");
  // typed text too: "wrote", never "user wrote"; a decline says the extension declined
  const typed = tool.prepareArguments({ questions: [{ ...DB, allowOther: true }] });
  ({ asking, id } = await ask(typed));
  pi.events.emit("question:answer", { id, answers: { db: { wrote: "DuckDB" } }, source: "bot" });
  result = await asking;
  assert.match(result.content[0].text, /\ndb: wrote: DuckDB$/);
  ({ asking, id } = await ask());
  pi.events.emit("question:answer", { id, outcome: "declined", source: "bot" });
  result = await asking;
  assert.match(
    result.content[0].text,
    /^Answered by another pi extension, not by the person \(it calls itself "bot";[^\n]*\nThe user declined/,
  );
});

test("events: a source that is not a string or is over limits.answerSourceBytes is refused with why", async () => {
  const { addon } = await import("./helpers/addon.mjs");
  const most = addon.limits.answerSourceBytes;
  assert.equal(most, 64);
  const { asking, id } = await ask();
  pi.events.emit("question:answer", { id, answers: { db: "SQLite" }, source: 7 });
  assert.match(said("question:refused").at(-1).reason, /source must be a string/);
  pi.events.emit("question:answer", { id, answers: { db: "SQLite" }, source: "x".repeat(most + 1) });
  assert.match(said("question:refused").at(-1).reason, new RegExp(`source is ${most + 1} bytes; a name of at most ${most} bytes`));
  pi.events.emit("question:answer", { id, answers: { db: "SQLite" }, source: "x".repeat(most) });
  assert.equal((await asking).details.source, "x".repeat(most));
});

test("events: a payload whose getters throw anything (null, undefined, a string) is refused, nothing escapes the handler", async () => {
  const { asking, id } = await ask();
  const throwing = [
    {
      get id() {
        throw null;
      },
    },
    {
      id,
      get answers() {
        throw null;
      },
    },
    {
      id,
      get outcome() {
        throw undefined;
      },
    },
    {
      id,
      get source() {
        throw "nope";
      },
    },
    {
      id,
      answers: {
        get db() {
          throw null;
        },
      },
    },
  ];
  for (const [k, data] of throwing.entries()) {
    const before = said("question:refused").length;
    assert.doesNotThrow(() => pi.events.emit("question:answer", data), `case ${k}`);
    const refused = said("question:refused").slice(before);
    assert.equal(refused.length, 1, `case ${k}: one refusal`);
    assert.equal(refused[0].code, "invalid");
    assert.equal(typeof refused[0].reason, "string");
  }
  assert.equal(said("question:ended").length, 0, "still waiting");
  pi.events.emit("question:answer", { id, answers: { db: "SQLite" } });
  assert.equal((await asking).details.status, "answered");
});

test("events: an answer from another extension is never remembered as the person's (memory.ts REMEMBERED_MODES)", async () => {
  const { REMEMBERED_MODES } = await importShim("../extension/ask/memory.ts");
  assert.equal(REMEMBERED_MODES.has("extension"), false);
  assert.equal(REMEMBERED_MODES.has("interactive"), true);
});
