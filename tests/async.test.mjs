// async.test.mjs — questions asked without waiting (wait: false, extension/ask/async.ts): the real
// tool with a fake pi and TUI. The call returns at once (status "asked" and the id); the line
// above the editor counts what waits; the shortcut and /answer open the oldest through the
// queue; the answer reaches the agent as a message exactly once (steering a busy agent, starting
// a turn for an idle one), however it is answered; /reload posts the unanswered ones again.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { eventBus, headlessContext, loadExtension, tuiContext } from "./helpers/fake-pi.mjs";
import { importShim } from "./helpers/shim.mjs";
import { until } from "./helpers/until.mjs";

// Remembered answers go to the person's own directory (~/.pi/agent/question-answers): a home of
// this test's own, never the real one.
const HOME = mkdtempSync(join(tmpdir(), "pq-async-home-"));
process.env.HOME = HOME;
process.on("exit", () => rmSync(HOME, { recursive: true, force: true }));

const WIDGET = "pi-question-async";
const DB = { id: "db", prompt: "Which database?", options: ["SQLite", "Postgres"] };

/**
 * pi's side of a session, as far as these questions see it (both lines behave so): the branch of
 * entries (custom ones from appendEntry, custom_message ones for delivered messages), the agent's
 * steering queue, and the extension's event handlers. A message sent to an idle agent with
 * triggerTurn starts a turn (message_end, then persisted); without it, it is persisted at once and
 * extensions hear nothing; to a busy one, it waits in the queue until a turn takes it (`turn`) or
 * Esc clears it (`abort`). `end` ends a run (agent_end, then idle).
 */
function fakeSession(branch, ctx) {
  const handlers = new Map();
  const queue = [];
  const emit = async (name, event) => {
    let result;
    for (const fn of handlers.get(name) ?? []) {
      const r = await fn(event, ctx);
      if (r !== undefined) result = r;
    }
    return result;
  };
  const persist = (m) =>
    branch.push({ type: "custom_message", customType: m.customType, content: m.content, display: m.display, details: m.details });
  /** The agent takes the message into its context: message_end (a handler may replace it), persisted. */
  const take = async (m) => {
    const replaced = await emit("message_end", { type: "message_end", message: m });
    persist(replaced?.message ?? m);
  };
  return {
    handlers,
    queue,
    emit,
    on: (name, fn) => handlers.set(name, [...(handlers.get(name) ?? []), fn]),
    appendEntry: (customType, data) => branch.push({ type: "custom", customType, data }),
    send(message, options) {
      const m = { role: "custom", ...message };
      if (!ctx.idle) queue.push(m);
      else if (options?.triggerTurn) void take(m);
      else persist(m);
    },
    /** A turn boundary: the agent takes the queued messages. */
    async turn() {
      for (const m of queue.splice(0)) await take(m);
    },
    /** The run ends (Esc: `aborted`, pi's TUI clears the queue first; `keepQueue`: a message
     * queued after the run's last look stays there until the next run). */
    async end({ aborted = false, keepQueue = false } = {}) {
      if (aborted && !keepQueue) queue.length = 0;
      await emit("agent_end", { type: "agent_end", messages: [] });
      ctx.idle = true;
    },
    /** The messages the model reads next (pi's `context` event over the agent's messages). */
    async context() {
      const messages = branch
        .filter((e) => e.type === "custom_message")
        .map((e) => ({ role: "custom", customType: e.customType, content: e.content, display: e.display, details: e.details }));
      return (await emit("context", { type: "context", messages }))?.messages ?? messages;
    },
  };
}

/** One extension instance as pi loads it, with its session started in a fake TUI; `events`: pi's
 * bus, which outlives an instance (/reload). `branch`: the session's branch (the fake session
 * adds to it). `entries`: what appendEntry wrote; `messages`: every sendMessage. */
async function start(branch = [], events = eventBus(), cwd = "/nonexistent") {
  branch = [...branch];
  const shown = [];
  const ctx = tuiContext((component) => shown.push(component), cwd, branch);
  const session = fakeSession(branch, ctx);
  const entries = [];
  const messages = [];
  const ext = await loadExtension({
    on: session.on,
    events,
    appendEntry: (customType, data) => {
      entries.push({ customType, data });
      session.appendEntry(customType, data);
    },
    sendMessage: (message, options) => {
      messages.push({ message, options });
      session.send(message, options);
    },
  });
  const heard = [];
  for (const channel of ["question:asked", "question:ended", "question:refused"])
    ext.pi.events.on(channel, (data) => heard.push({ channel, data }));
  await session.emit("session_start", { reason: "startup" });
  return {
    ...ext,
    entries,
    messages,
    branch,
    session,
    ctx,
    shown,
    heard,
    tool: ext.tools.get("question"),
    stop: () => session.emit("session_shutdown", {}),
  };
}

/** The event loop drained of what is queued now (microtasks, zero-delay timers such as the
 * resend at the next idle moment, immediates): what the code under test does next has run, so a
 * check that nothing more came is a check, not a race against a sleep. */
const settle = async () => {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 0));
    await new Promise((r) => setImmediate(r));
  }
};

/** The session entries of an instance as pi's branch holds them. */
const branchOf = (entries) => entries.map(({ customType, data }) => ({ type: "custom", customType, data }));
/** The answer messages of question `qid` on a branch. */
const answersOn = (branch, qid) => branch.filter((e) => e.type === "custom_message" && e.details?.qid === qid);
/** The custom entries of type `type` about question `qid` on a branch. */
const entriesOf = (branch, type, qid) => branch.filter((e) => e.type === "custom" && e.customType === type && e.data.qid === qid);

const running = [];
after(async () => {
  for (const s of running) await s.stop();
});

test(
  "async: wait:false returns at once with status asked and the id, the line counts it, nothing is shown, the bus says async",
  { timeout: 20000 },
  async () => {
    const s = await start();
    running.push(s);
    const result = await s.tool.execute("c1", s.tool.prepareArguments({ questions: [DB], wait: false }), undefined, undefined, s.ctx);
    assert.equal(result.details.status, "asked");
    assert.match(result.details.qid, /^q[0-9a-f]{8}$/);
    assert.equal(result.terminate, undefined, "the turn goes on");
    assert.equal(
      result.content[0].text,
      `Asked (question ${result.details.qid}): the person's answer will arrive later as a message naming this question. Don't assume an answer; go on with work that does not depend on it.`,
    );
    assert.equal(s.shown.length, 0, "not shown until the person opens it");
    assert.deepEqual(s.ctx.widgets.get(WIDGET), ["1 question waiting — /answer or Alt+A to answer"]);
    assert.deepEqual(
      s.entries.map((e) => [e.customType, e.data.qid]),
      [["pi-question-async", result.details.qid]],
    );
    assert.equal(JSON.parse(s.entries[0].data.args).wait, false);
    await settle();
    const asked = s.heard.filter((h) => h.channel === "question:asked").map((h) => h.data);
    assert.deepEqual(
      asked.map((a) => [a.id, a.async]),
      [[result.details.qid, true]],
    );
    assert.equal(s.messages.length, 0, "no answer yet");
    // the shortcut pi binds to nothing opens it; a key answers it; the idle agent gets a turn
    assert.ok(s.shortcuts.has("alt+a"));
    await s.shortcuts.get("alt+a").handler(s.ctx);
    await until(() => s.shown.length === 1, "the question shown");
    s.shown[0].handleInput("2");
    await until(() => s.messages.length, "the answer sent");
    await settle();
    assert.equal(s.messages.length, 1, "exactly once");
    const { message, options } = s.messages[0];
    assert.deepEqual(options, { triggerTurn: true });
    assert.equal(message.customType, "pi-question-answer");
    assert.equal(message.display, true);
    assert.equal(
      message.content,
      `The answer to question ${result.details.qid}, which you asked without waiting:\ndb: user selected: 2. Postgres`,
    );
    assert.equal(message.details.qid, result.details.qid);
    assert.equal(message.details.result.mode, "interactive");
    assert.equal(message.details.result.status, "answered");
    assert.equal(s.ctx.widgets.has(WIDGET), false, "the line is gone");
    assert.deepEqual(s.entries.at(-1), { customType: "pi-question-async-end", data: { qid: result.details.qid, status: "answered" } });
  },
);

test(
  "async: answered from elsewhere (another extension) while the agent works: steers it, once; a second answer is refused; /answer then reopens as before",
  { timeout: 20000 },
  async () => {
    const s = await start();
    running.push(s);
    const result = await s.tool.execute("c1", s.tool.prepareArguments({ questions: [DB], wait: false }), undefined, undefined, s.ctx);
    const id = result.details.qid;
    s.ctx.idle = false;
    s.pi.events.emit("question:answer", { id, answers: { db: "SQLite" } });
    s.pi.events.emit("question:answer", { id, answers: { db: "Postgres" } });
    await until(() => s.messages.length, "the answer sent");
    await settle();
    assert.equal(s.messages.length, 1, "exactly once");
    assert.deepEqual(s.messages[0].options, { deliverAs: "steer" });
    // another extension's answer, never the person's (events.test.mjs)
    assert.match(
      s.messages[0].message.content,
      /\nAnswered by another pi extension, not by the person\. [^\n]*\ndb: selected: 1\. SQLite$/,
    );
    assert.equal(s.messages[0].message.details.result.mode, "extension");
    assert.deepEqual(
      s.heard.filter((h) => h.channel === "question:refused").map((h) => h.data),
      [{ id, code: "already", reason: "already answered" }],
    );
    assert.equal(s.ctx.widgets.has(WIDGET), false);
    assert.equal(s.shown.length, 0, "never shown here");
    // /answer with no question waiting: its old behaviour (nothing cancelled to reopen)
    const notes = [];
    s.ctx.ui.notify = (text) => notes.push(text);
    await s.commands.get("answer").handler("", s.ctx);
    assert.equal(s.shown.length, 0);
    assert.deepEqual(notes, ["There is no cancelled or interrupted question to answer."]);
  },
);

test(
  "async: two waiting are counted; /answer opens the oldest first; a cancel ends it too, said to the agent",
  { timeout: 20000 },
  async () => {
    const s = await start();
    running.push(s);
    const first = await s.tool.execute("c1", s.tool.prepareArguments({ questions: [DB], wait: false }), undefined, undefined, s.ctx);
    const second = await s.tool.execute(
      "c2",
      s.tool.prepareArguments({ questions: [{ id: "name", prompt: "Name?" }], wait: false }),
      undefined,
      undefined,
      s.ctx,
    );
    assert.deepEqual(s.ctx.widgets.get(WIDGET), ["2 questions waiting — /answer or Alt+A to answer"]);
    const answering = s.commands.get("answer").handler("", s.ctx);
    await until(() => s.shown.length === 1, "the oldest shown");
    assert.match(s.shown[0].render(80).join("\n"), /Which database\?/);
    s.shown[0].handleInput("\x1b"); // Esc: cancelled
    await answering;
    await until(() => s.messages.length === 1, "the cancel said");
    assert.match(s.messages[0].message.content, new RegExp(`^The answer to question ${first.details.qid},`));
    assert.equal(s.messages[0].message.details.result.status, "cancelled");
    // the agent asked without waiting and works on: it is told to go on, never to end its turn
    assert.match(s.messages[0].message.content, /dismissed the question without answering and lets you continue/);
    assert.doesNotMatch(s.messages[0].message.content, /end your turn/);
    assert.deepEqual(s.ctx.widgets.get(WIDGET), ["1 question waiting — /answer or Alt+A to answer"]);
    assert.equal(second.details.status, "asked");
  },
);

test(
  "async: /reload — the unanswered question waits again with its id, the line comes back, its answer arrives once from the new instance",
  { timeout: 20000 },
  async () => {
    const old = await start();
    const result = await old.tool.execute("c1", old.tool.prepareArguments({ questions: [DB], wait: false }), undefined, undefined, old.ctx);
    const id = result.details.qid;
    await old.stop(); // pi's /reload: the old instance shuts down, unended
    const fresh = await start(branchOf(old.entries));
    running.push(fresh);
    assert.deepEqual(fresh.ctx.widgets.get(WIDGET), ["1 question waiting — /answer or Alt+A to answer"]);
    await settle();
    assert.deepEqual(
      fresh.heard.filter((h) => h.channel === "question:asked").map((h) => [h.data.id, h.data.async]),
      [[id, true]],
    );
    fresh.pi.events.emit("question:answer", { id, answers: { db: "Postgres" } });
    await until(() => fresh.messages.length, "the answer sent");
    await settle();
    assert.equal(fresh.messages.length, 1);
    assert.equal(old.messages.length, 0, "the old instance says nothing");
    assert.match(fresh.messages[0].message.content, new RegExp(`^The answer to question ${id}, [^]*\\ndb: selected: 2\\. Postgres$`));
    // once ended, a later start posts nothing again
    const again = await start(branchOf([...old.entries, ...fresh.entries]));
    running.push(again);
    assert.equal(again.ctx.widgets.has(WIDGET), false);
  },
);

test("async: without a UI (print mode) wait is ignored: the question goes the way it always went", { timeout: 20000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pq-async-"));
  try {
    const s = await start();
    running.push(s);
    const result = await s.tool.execute(
      "c1",
      s.tool.prepareArguments({ questions: [DB], wait: false }),
      undefined,
      undefined,
      headlessContext(dir),
    );
    assert.notEqual(result.details.status, "asked");
    assert.equal(result.details.mode, "print");
    assert.equal(s.messages.length, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(
  "async: RPC mode — the line goes to the client as a widget, /answer shows the question through the dialogs, the answer arrives",
  { timeout: 20000 },
  async () => {
    const s = await start();
    running.push(s);
    const dialogs = [];
    const widgets = new Map();
    const rpc = {
      hasUI: true,
      cwd: "/nonexistent",
      sessionManager: { getBranch: () => [] },
      isIdle: () => true,
      ui: {
        custom: async () => undefined, // RPC mode: no components, pi's dialogs instead
        select: async (title, entries) => {
          dialogs.push(title);
          return entries.find((e) => e.includes("Postgres"));
        },
        input: async () => undefined,
        confirm: async () => true,
        editor: async () => undefined,
        notify: () => undefined,
        setTitle: () => undefined,
        setWorkingMessage: () => undefined,
        setWidget: (key, lines) => (lines === undefined ? widgets.delete(key) : widgets.set(key, lines)),
      },
    };
    const result = await s.tool.execute("c1", s.tool.prepareArguments({ questions: [DB], wait: false }), undefined, undefined, rpc);
    assert.equal(result.details.status, "asked");
    assert.deepEqual(widgets.get(WIDGET), ["1 question waiting — /answer or Alt+A to answer"]);
    assert.equal(dialogs.length, 0, "nothing asked yet");
    await s.commands.get("answer").handler("", rpc);
    assert.equal(dialogs.length, 1);
    await until(() => s.messages.length, "the answer sent");
    assert.match(s.messages[0].message.content, /\ndb: user selected: 2\. Postgres$/);
    assert.equal(s.messages[0].message.details.result.mode, "rpc");
    assert.equal(widgets.has(WIDGET), false);
  },
);

test(
  "async: opened while a waiting question is shown, it waits its turn in the queue (never two at once)",
  { timeout: 20000 },
  async () => {
    const s = await start();
    running.push(s);
    const later = await s.tool.execute("c1", s.tool.prepareArguments({ questions: [DB], wait: false }), undefined, undefined, s.ctx);
    const blocking = s.tool.execute(
      "c2",
      s.tool.prepareArguments({ questions: [{ id: "name", prompt: "Name?" }] }),
      undefined,
      undefined,
      s.ctx,
    );
    await until(() => s.shown.length === 1, "the waiting call shown");
    await s.shortcuts.get("alt+a").handler(s.ctx);
    await settle();
    assert.equal(s.shown.length, 1, "not over the shown question");
    for (const ch of "orders") s.shown[0].handleInput(ch);
    s.shown[0].handleInput("\r");
    assert.equal((await blocking).content[0].text, "name: user wrote: orders");
    await until(() => s.shown.length === 2, "then the one asked without waiting");
    assert.match(s.shown[1].render(80).join("\n"), /Which database\?/);
    s.shown[1].handleInput("1");
    await until(() => s.messages.length, "its answer sent");
    assert.equal(s.messages[0].message.details.qid, later.details.qid);
  },
);

test(
  "async: pi's event bus outlives /reload: the stopped instance neither says the question ended nor refuses the answer the new one takes",
  { timeout: 20000 },
  async () => {
    const bus = eventBus();
    const old = await start([], bus);
    const result = await old.tool.execute("c1", old.tool.prepareArguments({ questions: [DB], wait: false }), undefined, undefined, old.ctx);
    const id = result.details.qid;
    await settle();
    await old.stop();
    const fresh = await start(branchOf(old.entries), bus);
    running.push(fresh);
    await settle();
    bus.emit("question:answer", { id, answers: { db: "SQLite" } });
    await until(() => fresh.messages.length, "the answer sent");
    await settle();
    const heard = fresh.heard.map((h) => [h.channel, h.data.id, h.data.outcome ?? h.data.code ?? "asked"]);
    assert.deepEqual(heard, [
      ["question:asked", id, "asked"],
      ["question:ended", id, "answered"],
    ]);
    assert.equal(old.messages.length, 0);
  },
);

test(
  "async: the answer's message is drawn by pi-question's renderer, sanitized (the model's labels never reach the terminal as they are), the question named",
  { timeout: 20000 },
  async () => {
    const s = await start();
    running.push(s);
    const HOSTILE = { id: "db", prompt: "Which?\x1b[2J", options: ["Lite\x1b]0;pwned\x07", "Postgres"] };
    const result = await s.tool.execute("c9", s.tool.prepareArguments({ questions: [HOSTILE], wait: false }), undefined, undefined, s.ctx);
    await s.shortcuts.get("alt+a").handler(s.ctx);
    await until(() => s.shown.length === 1, "the question shown");
    s.shown[0].handleInput("1");
    await until(() => s.messages.length, "the answer sent");
    const { message } = s.messages[0];
    assert.match(message.content, /\x1b\]0;pwned/, "the model reads its own label as it wrote it");
    const render = s.messageRenderers.get("pi-question-answer");
    assert.ok(render, "a renderer for the answer's message is registered");
    const theme = { fg: (_c, t) => t, bold: (t) => t };
    for (const expanded of [false, true]) {
      const drawn = render(message, { expanded }, theme).render(100).join("\n");
      assert.doesNotMatch(drawn, /[\x00-\x08\x0b-\x1f\x7f]/, `nothing raw in ${JSON.stringify(drawn)}`);
      assert.match(drawn, new RegExp(`the answer to a question asked without waiting \\(${result.details.qid}\\)`));
      assert.match(drawn, /Lite/);
    }
  },
);

test(
  "async: an answer given later is remembered for the project; the same question asked without waiting again opens with it chosen, and Enter confirms it",
  { timeout: 20000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), "pq-async-memory-"));
    try {
      const s = await start([], eventBus(), dir);
      running.push(s);
      const askAndOpen = async (n) => {
        await s.tool.execute(`m${n}`, s.tool.prepareArguments({ questions: [DB], wait: false }), undefined, undefined, s.ctx);
        await s.shortcuts.get("alt+a").handler(s.ctx);
        await until(() => s.shown.length === n, "the question shown");
        return s.shown[n - 1];
      };
      (await askAndOpen(1)).handleInput("2");
      await until(() => s.messages.length === 1, "the first answer sent");
      const { memoryPaths } = await importShim("ask/memory.ts");
      await until(() => existsSync(memoryPaths(dir).jsonl), "the answer remembered");
      const again = await askAndOpen(2);
      assert.match(again.render(100).join("\n"), /Answered on .*Postgres/);
      again.handleInput("\r");
      await until(() => s.messages.length === 2, "the second answer sent");
      assert.match(s.messages[1].message.content, /db: user selected: 2\. Postgres \(the earlier answer \([^)]+\), confirmed\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  "async: the session ends (/reload) while the question is shown — it closes on screen (pi's working message back), nothing is delivered, and the next instance posts it again",
  { timeout: 20000 },
  async () => {
    const events = eventBus();
    const s = await start([], events);
    const working = [];
    s.ctx.ui.setWorkingMessage = (m) => working.push(m);
    const result = await s.tool.execute("r1", s.tool.prepareArguments({ questions: [DB], wait: false }), undefined, undefined, s.ctx);
    await s.shortcuts.get("alt+a").handler(s.ctx);
    await until(() => s.shown.length === 1, "the question shown");
    assert.equal(typeof working.at(-1), "string", "pi's working message says a question waits");
    await s.stop();
    await until(() => working.at(-1) === undefined && working.length >= 2, "the question closed on screen");
    await settle();
    assert.equal(s.messages.length, 0, "nothing delivered");
    assert.deepEqual(
      s.entries.map((e) => e.customType),
      ["pi-question-async"],
      "no end entry: it is still unanswered",
    );
    const next = await start(branchOf(s.entries), events);
    running.push(next);
    assert.deepEqual(next.ctx.widgets.get(WIDGET), ["1 question waiting — /answer or Alt+A to answer"]);
    await next.shortcuts.get("alt+a").handler(next.ctx);
    await until(() => next.shown.length === 1, "shown again");
    next.shown[0].handleInput("1");
    await until(() => next.messages.length === 1, "answered once, by the new instance");
    assert.equal(next.messages[0].message.details.qid, result.details.qid);
  },
);

/** Asks DB without waiting in `s` and answers it from the event bus (another extension: the
 * quickest way to an answer); resolves the qid once the answer went out. */
async function askAndAnswer(s, answer = "Postgres") {
  const result = await s.tool.execute("x1", s.tool.prepareArguments({ questions: [DB], wait: false }), undefined, undefined, s.ctx);
  const qid = result.details.qid;
  const before = s.messages.length;
  s.pi.events.emit("question:answer", { id: qid, answers: { db: answer } });
  await until(() => s.messages.length > before, "the answer sent");
  return qid;
}

test(
  "async: Esc right after answering (pi drops the queued steer) — the answer is sent again once pi is idle, added without starting a turn, and reaches the model exactly once; the end is recorded only then",
  { timeout: 20000 },
  async () => {
    const s = await start();
    running.push(s);
    s.ctx.idle = false; // the agent works
    const qid = await askAndAnswer(s);
    assert.deepEqual(s.messages[0].options, { deliverAs: "steer" });
    await settle();
    assert.equal(entriesOf(s.branch, "pi-question-async-end", qid).length, 0, "not delivered yet: no end recorded");
    await s.session.end({ aborted: true }); // Esc: pi clears its queue and stops the run
    await until(() => answersOn(s.branch, qid).length === 1, "the answer in the session");
    assert.equal(s.messages.length, 2);
    assert.deepEqual(s.messages[1].options, {}, "added to the conversation: the stopped agent is not started again");
    assert.equal(s.messages[1].message.content, s.messages[0].message.content);
    assert.equal(entriesOf(s.branch, "pi-question-async-end", qid).length, 1);
    // later runs send nothing more
    s.ctx.idle = false;
    await s.session.turn();
    await s.session.end();
    await settle();
    assert.equal(s.messages.length, 2, "never a third time");
    const read = (await s.session.context()).filter((m) => m.details?.qid === qid);
    assert.equal(read.length, 1, "the model reads it once");
    assert.match(read[0].content, /not by the person[^]*\ndb: selected: 2\. Postgres$/);
  },
);

test("async: a steer pi delivers is never sent again; its end is recorded once, when it arrived", { timeout: 20000 }, async () => {
  const s = await start();
  running.push(s);
  s.ctx.idle = false;
  const qid = await askAndAnswer(s);
  await s.session.turn(); // the next turn takes it
  await until(() => entriesOf(s.branch, "pi-question-async-end", qid).length === 1, "the end recorded");
  await s.session.end();
  await settle();
  assert.equal(s.messages.length, 1);
  assert.equal(answersOn(s.branch, qid).length, 1);
  assert.equal(entriesOf(s.branch, "pi-question-async-end", qid).length, 1);
});

test(
  "async: /reload after an answer pi never delivered — the next instance sends it from the session, once, without asking again; the one after sends nothing",
  { timeout: 20000 },
  async () => {
    const events = eventBus();
    const old = await start([], events);
    old.ctx.idle = false;
    const qid = await askAndAnswer(old);
    await old.stop(); // the session ends with the steer still queued: it never reaches the agent
    assert.equal(answersOn(old.branch, qid).length, 0);
    assert.equal(entriesOf(old.branch, "pi-question-async-end", qid).length, 0);
    const fresh = await start(old.branch, events);
    running.push(fresh);
    await until(() => answersOn(fresh.branch, qid).length === 1, "sent by the new instance");
    assert.equal(fresh.messages.length, 1);
    assert.deepEqual(fresh.messages[0].options, {}, "a recovered answer never starts the agent");
    assert.equal(fresh.messages[0].message.content, old.messages[0].message.content);
    assert.deepEqual(fresh.messages[0].message.details, old.messages[0].message.details);
    assert.equal(fresh.ctx.widgets.has(WIDGET), false, "answered: nothing waits");
    assert.equal(fresh.shown.length, 0);
    assert.equal(entriesOf(fresh.branch, "pi-question-async-end", qid).length, 1);
    const again = await start(fresh.branch, events);
    running.push(again);
    await settle();
    assert.equal(again.messages.length, 0, "delivered: never sent twice");
    assert.equal(again.ctx.widgets.has(WIDGET), false);
  },
);

test(
  "async: a copy pi still held arrives after the answer was sent again — hidden in the transcript and left out of what the model reads",
  { timeout: 20000 },
  async () => {
    const s = await start();
    running.push(s);
    s.ctx.idle = false;
    const qid = await askAndAnswer(s);
    await s.session.end({ keepQueue: true }); // queued after the run's last look: pi keeps it for the next run
    await until(() => s.messages.length === 2, "sent again at the idle moment");
    assert.equal(answersOn(s.branch, qid).length, 1);
    s.ctx.idle = false; // the next run takes the old copy
    await s.session.turn();
    const copies = answersOn(s.branch, qid);
    assert.equal(copies.length, 2, "pi keeps both in the session");
    assert.deepEqual(
      copies.map((c) => c.display),
      [true, false],
      "the second is not drawn",
    );
    const read = (await s.session.context()).filter((m) => m.details?.qid === qid);
    assert.equal(read.length, 1, "the model reads it once");
    assert.equal(entriesOf(s.branch, "pi-question-async-end", qid).length, 1);
  },
);

test(
  "async: /tree away from the question's branch — it stops waiting (line gone, never shown); back — it waits again; answered there, away and back again sends nothing twice",
  { timeout: 20000 },
  async () => {
    const s = await start();
    running.push(s);
    const result = await s.tool.execute("t1", s.tool.prepareArguments({ questions: [DB], wait: false }), undefined, undefined, s.ctx);
    const qid = result.details.qid;
    const full = [...s.branch];
    const navigate = async (entries) => {
      s.branch.length = 0;
      s.branch.push(...entries);
      await s.session.emit("session_tree", { type: "session_tree" });
    };
    await navigate([]); // before the question was asked
    assert.equal(s.ctx.widgets.has(WIDGET), false, "no stale question on this branch");
    await s.shortcuts.get("alt+a").handler(s.ctx);
    await settle();
    assert.equal(s.shown.length, 0, "nothing to open");
    await navigate(full); // back
    assert.deepEqual(s.ctx.widgets.get(WIDGET), ["1 question waiting — /answer or Alt+A to answer"]);
    s.pi.events.emit("question:answer", { id: qid, answers: { db: "SQLite" } });
    await until(() => answersOn(s.branch, qid).length === 1, "delivered");
    const answered = [...s.branch];
    await navigate([]);
    await navigate(answered);
    await settle();
    assert.equal(s.messages.length, 1, "never sent twice");
    assert.equal(answersOn(s.branch, qid).length, 1);
    assert.equal(s.ctx.widgets.has(WIDGET), false, "nothing waits");
  },
);

test(
  "async: answered, then /tree away before it arrived — nothing reaches the other branch; back, it is sent once",
  { timeout: 20000 },
  async () => {
    const s = await start();
    running.push(s);
    s.ctx.idle = false;
    const qid = await askAndAnswer(s);
    const answered = [...s.branch];
    await s.session.end({ aborted: true, keepQueue: false });
    // navigated away at once, before the idle moment
    s.branch.length = 0;
    await s.session.emit("session_tree", { type: "session_tree" });
    await settle();
    assert.equal(answersOn(s.branch, qid).length, 0, "not on a branch that never asked it");
    s.branch.push(...answered);
    await s.session.emit("session_tree", { type: "session_tree" });
    await until(() => answersOn(s.branch, qid).length === 1, "sent on its own branch");
    await settle();
    assert.equal(answersOn(s.branch, qid).length, 1);
  },
);
