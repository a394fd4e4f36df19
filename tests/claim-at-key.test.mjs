// claim-at-key.test.mjs — pi's RPC dialogs take the question at the person's final reply, as the
// TUI does at the final key (extension/ask/dialogs.ts through the real asker, extension/ask/ask.ts): an
// answer from elsewhere (another terminal, the web page) that arrives after that reply, even
// before the result is recorded, is refused ("already answered") and the person's answer stands;
// one that arrives first closes the dialog and is taken. The terminal runner's side of the same
// rule: tty-runner.test.mjs.
import "./helpers/own-home.mjs"; // never the real ~/.pi/agent (remembered answers)
import assert from "node:assert/strict";
import { test } from "node:test";
import { addon } from "./helpers/addon.mjs";
import { importShim } from "./helpers/shim.mjs";

const { createAsker } = await importShim("ask/ask.ts");
const ALREADY = { ok: false, code: "already", reason: "already answered" };

/** pi in RPC mode at pi's API: custom() gives undefined, so the dialogs ask; every dialog is
 * recorded with a way to answer it (`reply`). */
function rpcContext() {
  const dialogs = [];
  const dialog = (method) => (title, second, opts) =>
    new Promise((resolve) => {
      dialogs.push({ method, title, options: second, signal: opts?.signal, reply: resolve });
      opts?.signal?.addEventListener("abort", () => resolve(undefined), { once: true });
    });
  const ctx = {
    hasUI: true,
    cwd: "/nonexistent",
    sessionManager: { getBranch: () => [] },
    isIdle: () => true,
    ui: {
      custom: async () => undefined,
      select: dialog("select"),
      confirm: dialog("confirm"),
      input: dialog("input"),
      setWorkingMessage: () => undefined,
      setTitle: () => undefined,
      notify: () => undefined,
    },
  };
  return { ctx, dialogs };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
/** Waits for `check`, looking again at every turn of the event loop, for at most 20 s (the first
 * question loads the asker's modules, which takes long under the sanitizer build). */
async function until(check, what) {
  const stop = Date.now() + 20_000;
  while (!check() && Date.now() < stop) await turn();
  assert.ok(check(), `timed out: ${what}`);
}

function ask(asker, ctx, questions) {
  const args = { prepared: addon.normalize(JSON.stringify({ questions })) };
  return asker.ask(args, JSON.parse(args.prepared).questions, ctx, undefined);
}

/** The person's final `value` for dialog `d`, and, in the very next microtask — after the reply is
 * read, before the asker records the result — an answer from elsewhere. Its verdict. */
function replyThenElsewhere(asker, d, value, answers) {
  const [qid] = asker.board.waiting.keys();
  return new Promise((resolve) => {
    d.reply(value);
    queueMicrotask(() => resolve(asker.board.answer(qid, "answered", JSON.stringify(answers), "web")));
  });
}

const DB = [{ id: "db", prompt: "Which database?", options: ["SQLite", "Postgres"] }];

test("claim at the key (RPC dialogs): an answer from elsewhere right after the person's final pick is refused; the pick stands", async () => {
  const asker = createAsker({ getSessionName: () => undefined });
  const { ctx, dialogs } = rpcContext();
  const asking = ask(asker, ctx, DB);
  await until(() => dialogs.length === 1, "the select");
  const verdict = await replyThenElsewhere(asker, dialogs[0], dialogs[0].options[0], { db: "Postgres" });
  assert.deepEqual(verdict, ALREADY);
  const result = await asking;
  assert.equal(result.details.mode, "rpc");
  assert.equal(result.content[0].text, "db: user selected: 1. SQLite");
  assert.deepEqual(
    [...asker.board.ended.values()].map((e) => e.ending),
    ["answered"],
  );
});

/** Every way a call through the dialogs ends at the person's reply: the replies before the last
 * (each picked from the dialog shown: an entry's position, or a value), then the final one, right
 * behind which an answer from elsewhere arrives. */
const entry = (n) => (d) => d.options[n];
/** The entry that reads `text` (the special entries follow the options and vary in number). */
const named = (text) => (d) => d.options.find((o) => o === text);
const FINAL_REPLIES = [
  {
    name: "the review's confirm of two answers",
    questions: [...DB, { id: "orm", prompt: "Which ORM?", options: ["Prisma", "Drizzle"] }],
    before: [entry(1), entry(0)],
    last: () => true,
    status: "answered",
    text: /db: user selected: 2\. Postgres[\s\S]*orm: user selected: 1\. Prisma/,
  },
  {
    name: "a dismissed select, nothing given (cancel)",
    questions: DB,
    before: [],
    last: () => undefined,
    status: "cancelled",
    code: "cancelled",
  },
  { name: "“Something else…” and its text", questions: DB, before: [entry(2)], last: () => "MariaDB", status: "answered", text: /MariaDB/ },
  {
    name: "a free-text question's text",
    questions: [{ id: "why", prompt: "Why?" }],
    before: [],
    last: () => "because",
    status: "answered",
    text: /because/,
  },
  { name: "“Let the agent decide”", questions: DB, before: [], last: named("Let the agent decide"), status: "declined" },
  {
    name: "“Discuss first…” and the words",
    questions: DB,
    before: [named("Discuss first…")],
    last: () => "let us talk",
    status: "discuss",
  },
  {
    name: "“Discard 1 answer?” yes, after the second question was dismissed",
    questions: [...DB, { id: "orm", prompt: "Which ORM?", options: ["Prisma", "Drizzle"] }],
    before: [entry(0), () => undefined],
    last: () => true,
    status: "cancelled",
    code: "cancelled",
  },
  {
    name: "multi-select: “Let the agent decide” with a tick (kept: ticks count at once)",
    questions: [{ id: "langs", prompt: "Which languages?", options: ["C", "Go"], multiSelect: true }],
    before: [entry(0)],
    last: named("Let the agent decide"),
    status: "declined",
    text: /langs: user selected: 1\. C/,
  },
];

for (const c of FINAL_REPLIES) {
  test(`claim at the key (RPC dialogs): ${c.name} takes the question where the reply arrives; an answer from elsewhere right after is refused`, async () => {
    const asker = createAsker({ getSessionName: () => undefined });
    const { ctx, dialogs } = rpcContext();
    const asking = ask(asker, ctx, c.questions);
    for (const [k, reply] of c.before.entries()) {
      await until(() => dialogs.length === k + 1, `dialog ${k + 1}`);
      dialogs[k].reply(reply(dialogs[k]));
    }
    const k = c.before.length;
    await until(() => dialogs.length === k + 1, "the final dialog");
    const valid = Object.fromEntries(
      c.questions.map((q) => [q.id, q.options ? (q.multiSelect ? [q.options[1]] : q.options[1]) : "from elsewhere"]),
    );
    const verdict = await replyThenElsewhere(asker, dialogs[k], c.last(dialogs[k]), valid);
    assert.equal(verdict.ok, false, `refused: ${JSON.stringify(verdict)}`);
    assert.equal(verdict.code, c.code ?? "already");
    const result = await asking;
    assert.equal(result.details.mode, "rpc");
    assert.equal(result.details.status, c.status);
    if (c.text) assert.match(result.content[0].text, c.text);
    assert.equal(dialogs.length, k + 1, "no further dialog");
  });
}

test("claim at the key (RPC dialogs): an answer from elsewhere first closes the dialog and is taken; the person's late pick changes nothing", async () => {
  const asker = createAsker({ getSessionName: () => undefined });
  const { ctx, dialogs } = rpcContext();
  const asking = ask(asker, ctx, DB);
  await until(() => dialogs.length === 1, "the select");
  const [qid] = asker.board.waiting.keys();
  assert.deepEqual(asker.board.answer(qid, "answered", JSON.stringify({ db: "Postgres" }), "web"), { ok: true });
  assert.equal(dialogs[0].signal?.aborted, true, "the dialog was told to close");
  dialogs[0].reply(dialogs[0].options[0]); // too late: the dialog already gave its answer (none)
  const result = await asking;
  assert.equal(result.details.mode, "web");
  assert.equal(result.content[0].text, "db: user selected: 2. Postgres");
  assert.equal(dialogs.length, 1, "no further dialog opened");
  assert.deepEqual(asker.board.answer(qid, "answered", JSON.stringify({ db: "SQLite" }), "remote"), ALREADY);
});
