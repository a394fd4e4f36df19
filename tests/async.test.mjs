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

const WIDGET = "pi-question-async";
const DB = { id: "db", prompt: "Which database?", options: ["SQLite", "Postgres"] };

/** One extension instance as pi loads it, with its session started in a fake TUI; `events`: pi's
 * bus, which outlives an instance (/reload). */
async function start(branch = [], events = eventBus(), cwd = "/nonexistent") {
  const handlers = new Map();
  const ext = await loadExtension({ on: (name, fn) => handlers.set(name, fn), events });
  const shown = [];
  const ctx = tuiContext((component) => shown.push(component), cwd, branch);
  const heard = [];
  for (const channel of ["question:asked", "question:ended", "question:refused"])
    ext.pi.events.on(channel, (data) => heard.push({ channel, data }));
  await handlers.get("session_start")({ reason: "startup" }, ctx);
  return { ...ext, handlers, ctx, shown, heard, tool: ext.tools.get("question"), stop: () => handlers.get("session_shutdown")({}, ctx) };
}

const until = async (check, what) => {
  const stop = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > stop) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};
const settle = () => new Promise((r) => setTimeout(r, 30));

/** The session entries of an instance as pi's branch holds them. */
const branchOf = (entries) => entries.map(({ customType, data }) => ({ type: "custom", customType, data }));

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
  "async: an answer given later is remembered in the project; the same question asked without waiting again opens with it chosen, and Enter confirms it",
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
      await until(() => existsSync(join(dir, ".pi", "answers.jsonl")), "the answer remembered");
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
