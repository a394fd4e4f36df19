// dialogs.test.mjs — the RPC dialogs (dialogs.ts) through the real tool with a fake dialog UI
// that answers with the exact strings it was offered: a choice is known by its position, never
// by its text, so options whose labels read like the special entries, or alike once sanitized,
// are all pickable, and the special entries still do what they say.
import "./helpers/own-home.mjs"; // never the real ~/.pi/agent (remembered answers)
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { loadExtension } from "./helpers/fake-pi.mjs";
import { importShim } from "./helpers/shim.mjs";
import { addon } from "./helpers/addon.mjs";

const { tools, commands, sent } = await loadExtension();
const tool = tools.get("question");
const { askWithDialogs, menu } = await importShim("ask/dialogs.ts");
const { createFlow } = await importShim("board/flow.ts");
/** A question's flow as the board makes it (its engine, no other face following it). */
const flowOf = (questions) => createFlow(addon.createEngine(JSON.stringify({ questions })), () => undefined);
const addonStrings = (language) => addon.strings(language);

const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

/** An RPC-like context (custom() gives undefined) whose dialogs are answered by `pick`, which
 * gets the method, title and entries and returns an entry (or typed text for input). */
function rpcContext(pick, cwd = "/nonexistent") {
  const dialogs = [];
  const answer = (method) => async (title, second) => {
    dialogs.push({ method, title, options: second });
    return pick(method, title, second, dialogs.length - 1);
  };
  return {
    dialogs,
    ctx: {
      hasUI: true,
      cwd,
      sessionManager: { getBranch: () => [] },
      isIdle: () => true,
      ui: {
        custom: async () => undefined,
        select: answer("select"),
        input: answer("input"),
        confirm: answer("confirm"),
        editor: answer("editor"),
        notify: (message, kind) => dialogs.push({ method: "notify", title: message, options: kind }),
        setTitle: () => {},
        setWorkingMessage: () => {},
      },
    },
  };
}

const ask = (questions, pick, cwd) => {
  const { ctx, dialogs } = rpcContext(pick, cwd);
  return tool.execute("c", tool.prepareArguments({ questions }), undefined, undefined, ctx).then((r) => ({ r, dialogs }));
};

/** A project whose settings pick the UI language. */
function projectIn(language) {
  const cwd = mkdtempSync(join(tmpdir(), "pq-dialogs-"));
  mkdirSync(join(cwd, ".pi"));
  writeFileSync(join(cwd, ".pi", "question.json"), JSON.stringify({ language }));
  return { cwd, cleanup: () => rmSync(cwd, { recursive: true, force: true }) };
}

test("dialogs: options are numbered and the special entries follow them", async () => {
  const { r, dialogs } = await ask([{ id: "db", prompt: "Which?", options: ["PostgreSQL", "SQLite"] }], (_m, _t, entries) => entries[1]);
  assert.deepEqual(dialogs[0].options, [
    "1. PostgreSQL",
    "2. SQLite",
    "3. Something else…",
    "Add a note…",
    "Let the agent decide",
    "Discuss first…",
  ]);
  assert.equal(r.content[0].text, "db: user selected: 2. SQLite");
});

for (const [language, decline, other] of [
  ["en", "Let the agent decide", "Something else…"],
  ["de", "Der Agent soll entscheiden", "Etwas anderes…"],
  ["zh", "让助手决定", "其他…"],
]) {
  test(`dialogs (${language}): an option labelled like "let the agent decide" is answered, not declined`, async () => {
    const { cwd, cleanup } = projectIn(language);
    try {
      const q = {
        id: "who",
        prompt: "Who decides?",
        options: [
          { value: "agent", label: decline },
          { value: "me", label: "Me" },
        ],
      };
      const { r, dialogs } = await ask([q], (_m, _t, entries) => entries[0], cwd);
      assert.equal(dialogs[0].options.at(-2), decline, "the real decline entry is there too");
      assert.equal(r.details.status, "answered");
      assert.equal(r.content[0].text, `who: user selected: 1. ${decline} (value: agent)`);
      const again = await ask([q], (_m, _t, entries) => entries.at(-2), cwd);
      assert.equal(again.r.details.status, "declined", "the decline entry still declines");
    } finally {
      cleanup();
    }
  });

  test(`dialogs (${language}): an option labelled like "Something else…" leaves the typed-answer entry reachable`, async () => {
    const { cwd, cleanup } = projectIn(language);
    try {
      const q = {
        id: "x",
        prompt: "Pick",
        options: [
          { value: "o", label: other },
          { value: "b", label: "B" },
        ],
      };
      const typed = await ask([q], (m, _t, entries) => (m === "select" ? entries[2] : "my own words"), cwd);
      assert.equal(typed.dialogs[1].method, "input", "the real entry asks for text");
      assert.equal(typed.r.content[0].text, "x: user wrote: my own words");
      const picked = await ask([q], (_m, _t, entries) => entries[0], cwd);
      assert.equal(picked.r.content[0].text, `x: user selected: 1. ${other} (value: o)`);
    } finally {
      cleanup();
    }
  });
}

test("dialogs: two labels that sanitize to the same text are both pickable", async () => {
  const q = {
    id: "k",
    prompt: "Key?",
    options: [
      { value: "esc", label: "X\u001b" },
      { value: "pic", label: "X␛" },
    ],
  };
  const { r, dialogs } = await ask([q], (_m, _t, entries) => entries[1]);
  assert.deepEqual(dialogs[0].options.slice(0, 2), ["1. X␛", "2. X␛"]);
  assert.equal(r.details.answers[0].value, "pic");
});

test("dialogs: multi-select ticks by position; options named Done or like the special entries are options", async () => {
  const q = {
    id: "f",
    prompt: "Which?",
    multiSelect: true,
    options: [
      { value: "done", label: "Done" },
      { value: "decide", label: "Let the agent decide" },
      { value: "dup", label: "Done\u001b" },
      { value: "other", label: "Something else…" },
    ],
  };
  const script = [0, 1, 2, 3, "done"];
  const { r, dialogs } = await ask([q], (_m, _t, entries) => {
    const step = script.shift();
    return step === "done" ? entries.at(-4) : entries[step];
  });
  assert.deepEqual(dialogs[0].options, [
    "[ ] 1. Done",
    "[ ] 2. Let the agent decide",
    "[ ] 3. Done␛",
    "[ ] 4. Something else…",
    "[ ] 5. Something else…",
    "Done",
    "Add a note…",
    "Let the agent decide",
    "Discuss first…",
  ]);
  assert.deepEqual(dialogs[4].options.slice(0, 4), [
    "[x] 1. Done",
    "[x] 2. Let the agent decide",
    "[x] 3. Done␛",
    "[x] 4. Something else…",
  ]);
  assert.equal(r.details.status, "answered");
  assert.deepEqual(r.details.answers[0].values, ["done", "decide", "dup", "other"]);
});

test("dialogs: multi-select's own typed entry and decline still work", async () => {
  const q = { id: "f", prompt: "Which?", multiSelect: true, options: ["A", "B"] };
  const steps = ["other", "done"];
  const { r, dialogs } = await ask([q], (m, _t, entries) => {
    if (m === "input") return "mine\u001b[2J";
    return steps.shift() === "other" ? entries[2] : entries.at(-4);
  });
  const second = dialogs.filter((d) => d.method === "select")[1].options;
  assert.equal(second[2], "[x] 3. Something else… mine[2J", "the typed text is cleaned as typed keys are");
  assert.equal(r.details.status, "answered");
  const declined = await ask([q], (_m, _t, entries) => entries.at(-2));
  assert.equal(declined.r.details.status, "declined");
});

for (const [language, discard] of [
  ["en", "Discard what you typed?"],
  ["de", "Getippten Text verwerfen?"],
  ["zh", "放弃已输入的文字？"],
]) {
  test(`dialogs (${language}): multi-select ticks and typed text count at once, as in the TUI: decline and discuss keep them, nothing to ask`, async () => {
    const { cwd, cleanup } = projectIn(language);
    const q = { id: "f", prompt: "Which?", multiSelect: true, options: ["A", "B"] };
    /** Runs `script`: select steps are an entry index (negative from the end) or "dismiss";
     * each confirm takes the next of `confirms`. */
    const run = async (script, confirms) => {
      const asked = [];
      const out = await ask(
        [q],
        (m, title, second) => {
          if (m === "input") return "mine\u001b[2J";
          if (m === "confirm") {
            asked.push({ title, message: second });
            return confirms.shift();
          }
          const step = script.shift();
          return step === "dismiss" ? undefined : second.at(step);
        },
        cwd,
      );
      return { ...out, asked };
    };
    try {
      assert.equal(addonStrings(language).CONFIRM_DISCARD_TEXT, discard, "the engine's own string");
      // Tick A, type "mine", decline: the tick and the typed text are the answer declined with.
      const declined = await run([0, 2, -2], []);
      assert.equal(declined.r.details.status, "declined");
      assert.equal(declined.asked.length, 0);
      assert.deepEqual(declined.r.details.answers[0].values, ["A", "mine[2J"], "kept, cleaned as typed keys are");
      const discussed = await run([1, -1], []);
      assert.equal(discussed.r.details.status, "discuss");
      assert.deepEqual(discussed.r.details.answers[0].values, ["B"]);
      // Nothing ticked or typed: nothing to ask either.
      const plain = await run([-2], []);
      assert.equal(plain.r.details.status, "declined");
      assert.equal(plain.asked.length, 0);
    } finally {
      cleanup();
    }
  });
}

test("dialogs: every title and entry offered is free of controls and entries are all different", async () => {
  const hostile = "\u001b]52;c;eA==\u0007\u009b2J\u202e";
  const questions = [
    {
      id: "a",
      label: `L${hostile}`,
      prompt: `P${hostile}\nsecond line`,
      options: [`A${hostile}`, `A${hostile}`.replace("\u0007", "␇"), "Let the agent decide"],
    },
    { id: "b", prompt: `M${hostile}`, multiSelect: true, options: [`B${hostile}`, "Done"] },
    { id: "c", prompt: `T${hostile}` },
  ];
  const seen = [];
  let multi = 0;
  const { r } = await ask(questions, (m, title, second) => {
    seen.push(title, ...(Array.isArray(second) ? second : [second ?? ""]));
    if (m === "select") {
      assert.equal(new Set(second).size, second.length, `entries all different: ${JSON.stringify(second)}`);
      if (title.includes("(1/3)")) return second[1];
      return multi++ === 0 ? second[0] : second.at(-4);
    }
    if (m === "input") return `typed${hostile}`;
    return true; // confirm
  });
  assert.equal(r.details.status, "answered");
  for (const text of seen) assert.ok(!UNSAFE.test(text), JSON.stringify(text));
});

test("dialogs: “Discuss first…” asks what to tell the agent and ends with status discuss, answers so far kept", async () => {
  const q1 = { id: "db", prompt: "Which?", options: ["PostgreSQL", "SQLite"] };
  const q2 = { id: "f", prompt: "Features?", multiSelect: true, options: ["A", "B"] };
  const seen = [];
  const { r } = await ask([q1, q2], (m, title, entries) => {
    seen.push({ m, title });
    if (m === "input") return "  why two databases?\nreally ";
    return title.includes("(1/2)") ? entries[1] : entries.at(-1);
  });
  assert.equal(seen.at(-1).title, "What do you want to tell the agent?");
  assert.equal(r.details.status, "discuss");
  assert.equal(r.details.discussion, "why two databases?\nreally");
  assert.deepEqual(
    r.details.answers.map((a) => a.id),
    ["db"],
  );
  assert.equal(
    r.content[0].text,
    "db: user selected: 2. SQLite\nThe user answered the questions above and wants to talk about the rest before answering, and wrote to you:\n  why two databases?\n  really\nReply to what they wrote. Do not answer the question for them and do not act on it yet; ask the question again later if you still need the answer.",
  );
  assert.equal(r.terminate, undefined, "the turn goes on");
});

test("dialogs: an empty or dismissed “Discuss first…” input asks the question again", async () => {
  const q = { id: "db", prompt: "Which?", options: ["PostgreSQL", "SQLite"] };
  let selects = 0;
  const { r } = await ask([q], (m, _t, entries) => {
    if (m === "input") return selects === 1 ? "   " : undefined;
    selects++;
    return selects < 3 ? entries.at(-1) : entries[0];
  });
  assert.equal(selects, 3);
  assert.equal(r.details.status, "answered");
  assert.equal(r.content[0].text, "db: user selected: 1. PostgreSQL");
});

test("dialogs: menu numbers a plain entry that would read like another one", () => {
  assert.deepEqual(menu(["a", "b"], ["Done", "Decide"]), ["1. a", "2. b", "Done", "Decide"]);
  assert.deepEqual(menu(["x"], ["1. x", "Done", "Done"]), ["1. x", "2. 1. x", "Done", "4. Done"]);
  const tricky = menu(["[ ] 1. a", "Done"], ["Done", "3. Done", "3. Done"], false);
  assert.equal(new Set(tricky).size, tricky.length, JSON.stringify(tricky));
});

test("/answer: the reopened answers, shown by pi as the user's message, carry no raw controls", async () => {
  const q = {
    id: "k",
    prompt: "Key\u001b]0;t\u0007?",
    options: [
      { value: "a", label: "A\u001b]52;c;eA==\u0007" },
      { value: "b", label: "B" },
    ],
  };
  const cancelled = await ask([q], () => undefined);
  assert.equal(cancelled.r.details.status, "cancelled");
  const branch = [
    { type: "message", message: { role: "toolResult", toolName: "question", toolCallId: "t1", details: cancelled.r.details } },
  ];
  const { ctx } = rpcContext((_m, _t, entries) => entries[0]);
  ctx.sessionManager = { getBranch: () => branch };
  await commands.get("answer").handler("", ctx);
  assert.equal(sent.length, 1);
  assert.match(sent[0].text, /k: user selected: 1\. A␛\]52;c;eA==␇/);
  assert.ok(!UNSAFE.test(sent[0].text), JSON.stringify(sent[0].text));
});

// ---- the person's timeout in RPC mode ------------------------------------------------------------
/** A project, with a home whose own settings set a timeout (a project's may not), made this
 * process's HOME until cleanup; and an RPC context whose dialogs see the options. */
function timedProject(then) {
  const home = mkdtempSync(join(tmpdir(), "pq-uxb-rpc-"));
  const cwd = join(home, "project");
  mkdirSync(join(home, ".pi", "agent"), { recursive: true });
  mkdirSync(cwd);
  writeFileSync(join(home, ".pi", "agent", "question.json"), JSON.stringify({ timeout: { after: "1s", then } }));
  const oldHome = process.env.HOME;
  process.env.HOME = home;
  return {
    cwd,
    cleanup: () => {
      process.env.HOME = oldHome;
      rmSync(home, { recursive: true, force: true });
    },
  };
}

function timedContext(cwd, answerFirst) {
  const seen = [];
  const dialog = (method) => async (title, second, opts) => {
    seen.push({ method, timeout: opts?.timeout });
    if (answerFirst || seen.length > 1) return method === "select" ? second[0] : method === "confirm" ? true : "typed";
    // a client that lets pi's dialog timeout run out: undefined once it has passed
    await new Promise((resolve) => setTimeout(resolve, opts?.timeout ?? 0));
    return undefined;
  };
  const { ctx } = rpcContext(() => undefined, cwd);
  ctx.ui.select = dialog("select");
  ctx.ui.input = dialog("input");
  ctx.ui.confirm = dialog("confirm");
  return { ctx, seen };
}

const OPTIONS = [{ question: "Which database?", options: ["PostgreSQL", "SQLite (Recommended)"] }];

for (const then of ["cancel", "decline", "recommended"]) {
  test(`rpc timeout: the first dialog carries pi's timeout; when it runs out the status is timed_out (then ${then})`, async () => {
    const { cwd, cleanup } = timedProject(then);
    try {
      const { ctx, seen } = timedContext(cwd, false);
      const r = await tool.execute("c", tool.prepareArguments({ questions: OPTIONS }), undefined, undefined, ctx);
      assert.ok(seen[0].timeout > 0 && seen[0].timeout <= 1000, `timeout ${seen[0].timeout}`);
      assert.equal(r.details.status, "timed_out");
      assert.equal(r.details.timeout, then);
      assert.equal(r.details.mode, "rpc");
      assert.match(r.content[0].text, /did not answer within the time limit/);
      if (then === "recommended") {
        assert.equal(r.details.answers[0].value, "SQLite (Recommended)");
        assert.equal(r.details.answers[0].appliedByTimeout, true);
      } else {
        assert.deepEqual(r.details.answers, []);
      }
      assert.equal(r.terminate === true, then === "cancel");
    } finally {
      cleanup();
    }
  });
}

test("rpc timeout: answering the first dialog stops the clock; later dialogs carry none", async () => {
  const { cwd, cleanup } = timedProject("decline");
  try {
    const { ctx, seen } = timedContext(cwd, true);
    const questions = [...OPTIONS, { question: "Name?", id: "name" }];
    const r = await tool.execute("c", tool.prepareArguments({ questions }), undefined, undefined, ctx);
    assert.equal(r.details.status, "answered");
    assert.ok(seen[0].timeout > 0);
    assert.ok(
      seen.slice(1).every((d) => d.timeout === undefined),
      JSON.stringify(seen),
    );
  } finally {
    cleanup();
  }
});

test("rpc timeout: the person starts answering on the page (board.touch stops the flow's clock) — the open dialog is shown again at once without its countdown, and the answer here is taken", async () => {
  const questions = JSON.parse(addon.normalize(JSON.stringify({ questions: OPTIONS }))).questions;
  const flow = flowOf(questions);
  const seen = [];
  const { ctx } = rpcContext(() => undefined);
  ctx.ui.select = async (title, entries, opts) => {
    seen.push({ timeout: opts?.timeout, closed: opts?.signal?.aborted });
    if (seen.length > 1) return entries[0];
    // the page is touched while this dialog is open: the flow closes it (its signal)
    flow.stopClock();
    seen[0].closed = opts?.signal?.aborted;
    return undefined; // what a client answers for a dialog closed under it
  };
  const r = await askWithDialogs(flow, questions, ctx, undefined, { timeout: { ms: 300, then: "cancel" } });
  assert.equal(r.outcome, "answered");
  assert.ok(seen[0].timeout > 0 && seen[0].timeout <= 300, JSON.stringify(seen));
  assert.equal(seen[0].closed, true, "the open dialog was closed when the clock stopped");
  assert.equal(seen.length, 2, "shown again once");
  assert.equal(seen[1].timeout, undefined, "without a countdown");
  assert.equal(flow.clockLeft(), undefined);
  // touched before the first dialog: the clock never starts, no dialog carries the countdown
  const early = flowOf(questions);
  early.stopClock();
  const later = [];
  ctx.ui.select = async (title, entries, opts) => {
    later.push(opts?.timeout);
    return entries[0];
  };
  const r2 = await askWithDialogs(early, questions, ctx, undefined, { timeout: { ms: 300, then: "cancel" } });
  assert.equal(r2.outcome, "answered");
  assert.deepEqual(later, [undefined]);
});

test("rpc timeout: the flow owns the clock — it runs out while a dialog is open: the dialog closes, the engine applies the timeout's 'then' (the recommended option), and every face hears the end once", async () => {
  const questions = JSON.parse(
    addon.normalize(
      JSON.stringify({
        questions: [{ id: "db", label: "DB", prompt: "Which?", options: [{ label: "SQLite" }, { label: "Postgres (Recommended)" }] }],
      }),
    ),
  ).questions;
  const flow = flowOf(questions);
  const heard = [];
  flow.follow({}, (what) => heard.push(what));
  const { ctx } = rpcContext(() => undefined);
  const seen = [];
  ctx.ui.select = (title, entries, opts) =>
    new Promise((resolve) => {
      // a client that never answers: only the flow's end closes this (its signal). pi's RPC
      // channel keeps the process alive meanwhile (the flow's timer does not): this interval.
      seen.push(opts?.timeout);
      const alive = setInterval(() => undefined, 50);
      opts.signal.addEventListener(
        "abort",
        () => {
          clearInterval(alive);
          resolve(undefined);
        },
        { once: true },
      );
    });
  const r = await askWithDialogs(flow, questions, ctx, undefined, { timeout: { ms: 200, then: "recommended" } });
  assert.equal(r.outcome, "timed_out");
  assert.equal(seen.length, 1, JSON.stringify(seen));
  assert.ok(seen[0] > 0 && seen[0] <= 200, "the dialog carried the countdown");
  assert.equal(heard.filter((w) => w === "ended").length, 1, JSON.stringify(heard));
  assert.equal(flow.engine.done, true);
  // the result is the engine's (as ask.ts builds it): the timeout's "then" is its own flag
  const details = JSON.parse(flow.engine.result("rpc", Date.now(), null, 0).details);
  assert.equal(details.status, "timed_out");
  assert.equal(details.timeout, "recommended");
  assert.equal(details.answers[0].label, "Postgres (Recommended)");
  assert.equal(details.answers[0].appliedByTimeout, true);
});

test("rpc timeout: then selected — each reply starts the flow's clock again (every dialog carries it whole), and when the person stops part-way the answers so far go, as theirs", async () => {
  const questions = JSON.parse(
    addon.normalize(
      JSON.stringify({
        questions: [
          { id: "db", label: "DB", prompt: "Which?", options: ["SQLite", "Postgres"] },
          { id: "name", label: "Name", prompt: "Called?", options: ["api", "core"] },
        ],
      }),
    ),
  ).questions;
  const flow = flowOf(questions);
  const { ctx } = rpcContext(() => undefined);
  const seen = [];
  ctx.ui.select = (title, entries, opts) =>
    new Promise((resolve) => {
      seen.push(opts?.timeout);
      if (seen.length === 1) return setTimeout(() => resolve(entries[1]), 150); // "2. Postgres", after a while
      // then the person steps away: the client's countdown closes the dialog
      setTimeout(() => resolve(undefined), opts?.timeout ?? 0);
    });
  const r = await askWithDialogs(flow, questions, ctx, undefined, { timeout: { ms: 300, then: "selected" } });
  assert.equal(r.outcome, "timed_out");
  assert.equal(seen.length, 2, JSON.stringify(seen));
  assert.ok(seen[1] > 250, `the second dialog carries the whole time again: ${seen[1]}`);
  const details = JSON.parse(flow.engine.result("rpc", Date.now(), null, 0).details);
  assert.equal(details.timeout, "selected");
  assert.deepEqual(
    details.answers.map((a) => [a.id, a.label]),
    [["db", "Postgres"]],
  );
});

// ---- the "Something else…" box and later questions never drop answers unasked ----
/** Runs questions through a script of replies: each step is [method, reply] checked against the
 * dialog asked (reply a number picks that entry, negative from the end; a function gets the
 * dialog). Returns the result and every dialog seen. */
async function scripted(questions, steps) {
  const seen = [];
  const { r, dialogs } = await ask(questions, (m, title, second) => {
    seen.push({ m, title, second });
    const step = steps.shift();
    assert.ok(step, `a dialog past the script: ${m} ${title}`);
    assert.equal(m, step[0], `dialog ${seen.length}: ${title}`);
    const reply = step[1];
    if (typeof reply === "function") return reply(title, second);
    return typeof reply === "number" ? second.at(reply) : reply;
  });
  assert.equal(steps.length, 0, "the whole script was used");
  return { r, seen, told: dialogs.filter((d) => d.method === "notify").map((d) => d.title) };
}

test("dialogs: Esc in multi-select's “Something else…” box goes back to the list with ticks and text kept", async () => {
  const q = { id: "f", prompt: "Which?", multiSelect: true, options: ["A", "B"] };
  const { r, seen } = await scripted(
    [q],
    [
      ["select", 0], // tick A
      ["select", 2], // Something else…
      ["input", undefined], // Esc: back to the list, A still ticked
      ["select", 2],
      ["input", "mine"],
      ["select", 2], // the typed entry again: asks for text, does not clear
      ["input", undefined], // Esc: "mine" kept
      ["select", 2],
      ["input", "   "], // empty: asks before clearing
      ["confirm", false], // no: kept
      ["select", -4], // Done
    ],
  );
  const lists = seen.filter((d) => d.m === "select").map((d) => d.second);
  assert.deepEqual(lists[2].slice(0, 3), ["[x] 1. A", "[ ] 2. B", "[ ] 3. Something else…"], "after Esc the tick is still there");
  assert.equal(lists[3][2], "[x] 3. Something else… mine");
  assert.equal(lists[4][2], "[x] 3. Something else… mine", "picking the typed entry again and Esc keeps the text");
  const confirm = seen.find((d) => d.m === "confirm");
  assert.equal(confirm.title, addonStrings("en").CONFIRM_DISCARD_TEXT);
  assert.equal(confirm.second, "mine");
  assert.equal(r.details.status, "answered");
  assert.deepEqual(r.details.answers[0].values, ["A", "mine"]);
});

test("dialogs: multi-select typed text is replaced by new text, cleared only when agreed, and a reply that is no entry keeps it", async () => {
  const q = { id: "f", prompt: "Which?", multiSelect: true, options: ["A", "B"] };
  const replaced = await scripted(
    [q],
    [
      ["select", 2],
      ["input", "first"],
      ["select", "a rewritten entry"], // no entry: asks for text, keeps "first" meanwhile
      ["input", undefined],
      ["select", 2],
      ["input", "second"],
      ["select", -4],
    ],
  );
  assert.equal(replaced.seen[3].second, "first", "the text box shows the typed text as its placeholder");
  assert.deepEqual(replaced.r.details.answers[0].values, ["second"]);
  const cleared = await scripted(
    [q],
    [
      ["select", 1],
      ["select", 2],
      ["input", "first"],
      ["select", 2],
      ["input", ""],
      ["confirm", true], // yes: cleared
      ["select", -4],
    ],
  );
  assert.deepEqual(cleared.r.details.answers[0].values, ["B"]);
});

test("dialogs: Esc in a single-select's “Something else…” box shows the list again", async () => {
  const q = { id: "db", prompt: "Which?", options: ["PostgreSQL", "SQLite"] };
  const { r } = await scripted(
    [q],
    [
      ["select", 2],
      ["input", undefined],
      ["select", 1],
    ],
  );
  assert.equal(r.details.status, "answered");
  assert.equal(r.content[0].text, "db: user selected: 2. SQLite");
});

for (const language of ["en", "de", "zh"]) {
  test(`dialogs (${language}): dismissing a later question asks “Discard N answers?” before dropping earlier answers`, async () => {
    const { cwd, cleanup } = projectIn(language);
    try {
      const s = addonStrings(language);
      const questions = [
        { id: "name", label: "Name", prompt: "Name?" },
        { id: "db", label: "DB", prompt: "Which?", options: ["PostgreSQL", "SQLite"] },
        { id: "f", label: "Feat", prompt: "Features?", multiSelect: true, options: ["A", "B"] },
      ];
      const seen = [];
      const steps = [
        ["input", "me\u001b[2J"],
        ["select", undefined], // dismissed on question 2: asks
        ["confirm", false], // no: question 2 again
        ["select", 1],
        ["select", 0], // tick A on question 3
        ["select", undefined], // dismissed: asks about all three
        ["confirm", undefined], // a dismissed confirm discards nothing
        ["select", undefined],
        ["confirm", true],
      ];
      const { r } = await ask(
        questions,
        (m, title, second) => {
          seen.push({ m, title, second });
          const [method, reply] = steps.shift();
          assert.equal(m, method, title);
          return typeof reply === "number" ? second.at(reply) : reply;
        },
        cwd,
      );
      assert.equal(steps.length, 0);
      const confirms = seen.filter((d) => d.m === "confirm");
      assert.equal(confirms[0].title, s.CONFIRM_DISCARD_ONE);
      assert.equal(confirms[0].second, "Name: me[2J", "what would be lost, cleaned as typed keys are");
      assert.equal(confirms[1].title, s.CONFIRM_DISCARD_MANY.replace("{n}", "3"));
      assert.equal(confirms[1].second, "Name: me[2J\nDB: SQLite\nA");
      assert.equal(r.details.status, "cancelled");
    } finally {
      cleanup();
    }
  });
}

// a single-select question and a free-text one, for the tests of answers given before a dismissal
const DB_AND_NAME = [
  { id: "db", label: "DB", prompt: "Which?", options: ["PostgreSQL", "SQLite"] },
  { id: "name", label: "Name", prompt: "Name?" },
];

test("dialogs: a dismissed free-text question after an answered one asks, and no asks it again", async () => {
  const { r, seen } = await scripted(DB_AND_NAME, [
    ["select", 0],
    ["input", undefined], // dismissed: the other ways on
    ["select", 3], // "Cancel the question"
    ["confirm", false],
    ["input", "Ann"],
    ["confirm", true], // the review
  ]);
  assert.deepEqual(seen[2].second, [
    "Type an answer…",
    "Let the agent decide",
    "Discuss first…",
    "Cancel the question",
    "Skip this question",
    "I'll answer this in the chat",
  ]);
  assert.equal(seen[3].title, "Discard 1 answer?");
  assert.equal(r.details.status, "answered");
  assert.match(r.content[0].text, /DB: user selected: 1\. PostgreSQL|db: user selected: 1\. PostgreSQL/);
  assert.match(r.content[0].text, /Ann/, "question 2 asked again and answered");
});

test("dialogs: the review not submitted (cancelled from its other ways, or dismissed) asks “Discard 2 answers?”; no shows the review again", async () => {
  const { r, seen } = await scripted(DB_AND_NAME, [
    ["select", 1],
    ["input", "Ann"],
    ["confirm", false], // the review: no — the other ways on
    ["select", 3], // "Cancel the question"
    ["confirm", false], // Discard 2 answers? no: the review again
    ["confirm", undefined], // the review dismissed
    ["confirm", true], // Discard 2 answers? yes
  ]);
  assert.deepEqual(
    seen.filter((d) => d.m === "confirm").map((d) => d.title),
    ["Submit these answers?", "Discard 2 answers?", "Submit these answers?", "Discard 2 answers?"],
  );
  assert.deepEqual(seen[3].second, [
    "Back to the questions",
    "Let the agent decide",
    "Discuss first…",
    "Cancel the question",
    "Note on all the answers…",
  ]);
  assert.equal(seen[5].second, "DB: SQLite\nName: Ann (typed)");
  assert.equal(r.details.status, "cancelled");
});

test("dialogs: dismissing a lone multi-select question that holds a typed part asks “Discard what you typed?” first; no keeps it", async () => {
  const q = { id: "f", prompt: "Which?", multiSelect: true, options: ["A", "B"] };
  const { r, seen } = await scripted(
    [q],
    [
      ["select", 0], // tick A
      ["select", 2], // Something else…
      ["input", "mine"],
      ["select", undefined], // dismissed: the call would be cancelled and "mine" lost
      ["confirm", false], // no: kept
      ["select", -4], // Done
    ],
  );
  const confirm = seen.find((d) => d.m === "confirm");
  assert.equal(confirm.title, addonStrings("en").CONFIRM_DISCARD_TEXT);
  assert.equal(confirm.second, "mine");
  assert.equal(r.details.status, "answered");
  assert.deepEqual(r.details.answers[0].values, ["A", "mine"]);
});

// ---- what the dialogs gained from the one flow: the note, the long answer in pi's editor, the engine's messages ----
test("dialogs: “Add a note…” opens pi's editor; the note is shown, edited from what it was, kept when dismissed, and goes with the answer", async () => {
  const q = { id: "db", prompt: "Which?", options: ["PostgreSQL", "SQLite"] };
  const { r, seen } = await scripted(
    [q],
    [
      ["select", -3], // Add a note…
      ["editor", "only if cheap"],
      [
        "select",
        (title, entries) => {
          assert.equal(title, "Which?\nNote: only if cheap", "the note is shown with the question");
          assert.equal(entries.at(-3), "Edit the note…");
          return entries.at(-3);
        },
      ],
      ["editor", undefined], // dismissed: the note stays
      ["select", -3],
      ["editor", "only if cheap, and fast"],
      ["select", 1], // SQLite
    ],
  );
  const editors = seen.filter((d) => d.m === "editor");
  assert.deepEqual(
    editors.map((d) => d.second),
    ["", "only if cheap", "only if cheap"],
    "the editor starts from the note so far",
  );
  assert.equal(editors[0].title, `${addonStrings("en").DIALOG_NOTE_TITLE}\nWhich?`, "which question the note is for");
  assert.equal(r.details.status, "answered");
  assert.equal(r.details.answers[0].value, "SQLite");
  assert.equal(r.details.answers[0].note, "only if cheap, and fast");
});

test("dialogs: a note emptied in the editor is removed", async () => {
  const q = { id: "db", prompt: "Which?", options: ["PostgreSQL", "SQLite"] };
  const { r } = await scripted(
    [q],
    [
      ["select", -3],
      ["editor", "first thought"],
      ["select", -3],
      ["editor", "  "],
      ["select", (title, entries) => (assert.equal(title, "Which?"), assert.equal(entries.at(-3), "Add a note…"), entries[0])],
    ],
  );
  assert.equal(r.details.answers[0].note, undefined);
});

test("dialogs: “no” to “Answer is long… Submit anyway?” opens the long text in pi's editor, to shorten it", async () => {
  const q = { id: "name", prompt: "Say", options: ["short"] };
  const long = "w".repeat(addon.limits.softAnswerChars + 10);
  const { r, seen } = await scripted(
    [q],
    [
      ["select", 1], // Something else…
      ["input", long],
      ["confirm", false], // no: back to the text
      ["editor", (title, prefill) => (assert.equal(prefill, long, "the long draft, to edit"), "w".repeat(20))],
    ],
  );
  assert.equal(seen.filter((d) => d.m === "editor").length, 1);
  assert.equal(r.details.status, "answered");
  assert.equal(r.details.answers[0].value, "w".repeat(20));
  assert.equal(r.details.answers[0].wasCustom, true);
});

test("dialogs: a note over its limit comes back in the editor with the reason told; nothing written is thrown away", async () => {
  const q = { id: "db", prompt: "Which?", options: ["PostgreSQL", "SQLite"] };
  const long = "n".repeat(addon.limits.noteBytes + 50);
  const { r, told } = await scripted(
    [q],
    [
      ["select", -3], // Add a note…
      ["editor", long], // refused: too long
      ["editor", (_title, prefill) => (assert.equal(prefill, long, "what was written, to shorten"), "short enough")],
      ["select", 0],
    ],
  );
  assert.deepEqual(told, [`Too long: at most ${addon.limits.noteBytes} bytes`]);
  assert.equal(r.details.answers[0].note, "short enough");
});

test("dialogs: a free-text question's long answer, “no” to “Submit anyway?”, comes back in the editor; dismissed, cancelling asks first", async () => {
  const q = { id: "why", prompt: "Why?" };
  const long = "w".repeat(addon.limits.softAnswerChars + 10);
  const kept = await scripted(
    [q],
    [
      ["input", long],
      ["confirm", false], // no: back to the text
      ["editor", (_title, prefill) => (assert.equal(prefill, long), "because")],
    ],
  );
  assert.equal(kept.r.details.answers[0].value, "because");
  const dismissed = await scripted(
    [q],
    [
      ["input", long],
      ["confirm", false],
      ["editor", undefined], // dismissed: a cancel, which would drop the text
      ["confirm", (title) => (assert.equal(title, "Discard what you typed?"), true)],
    ],
  );
  assert.equal(dismissed.r.details.status, "cancelled");
});

test("dialogs: the editor is dismissed by the question's end (the agent stopped, or an answer from elsewhere) like every other dialog", async () => {
  const q = { id: "db", prompt: "Which?", options: ["PostgreSQL", "SQLite"] };
  const controller = new AbortController();
  const { ctx } = rpcContext((m, _title, entries) => {
    if (m === "select") return entries.at(-3); // Add a note…
    if (m === "editor") {
      setImmediate(() => controller.abort()); // pi's editor never settles; the question ends meanwhile
      return new Promise(() => {});
    }
    throw new Error(`unexpected ${m}`);
  });
  const r = await tool.execute("c", tool.prepareArguments({ questions: [q] }), controller.signal, undefined, ctx);
  assert.equal(r.details.status, "interrupted");
});

test("dialogs: the engine's one-shot message (“Tick at least one option…”) is shown once, as a warning", async () => {
  const q = { id: "f", prompt: "Which?", multiSelect: true, options: ["A", "B"] };
  const steps = ["done", "note", "dismiss", "tick", "done"];
  const { r, dialogs } = await ask([q], (m, _title, entries) => {
    const step = steps.shift();
    assert.ok(step, "a dialog past the script");
    assert.equal(m, step === "dismiss" ? "editor" : "select");
    if (step === "done") return entries.at(-4);
    if (step === "note") return entries.at(-3); // Add a note…, then dismissed: no new message
    if (step === "dismiss") return undefined;
    return entries[0];
  });
  const said = dialogs.filter((d) => d.method === "notify");
  assert.deepEqual(
    said.map((d) => [d.title, d.options]),
    [[addonStrings("en").WARN_NOTHING_CHOSEN, "warning"]],
    "told why Done did not end it, once (not again after the dismissed note)",
  );
  assert.equal(r.details.status, "answered");
  assert.deepEqual(r.details.answers[0].values, ["A"]);
});

test("dialogs: a typed answer over its limit from the input comes back in pi's editor, not thrown away", async () => {
  const q = { id: "db", prompt: "Which?", options: ["PostgreSQL", "SQLite"] };
  const long = "x".repeat(addon.limits.answerBytes + 10);
  const { r, told } = await scripted(
    [q],
    [
      ["select", 2], // Something else…
      ["input", long], // refused: too long
      ["editor", (_title, prefill) => (assert.equal(prefill, long, "what was typed, to shorten"), "MariaDB")],
    ],
  );
  assert.deepEqual(told, [`Too long: at most ${addon.limits.answerBytes} bytes`]);
  assert.equal(r.details.answers[0].value, "MariaDB");
});

test("rpc: one flow — a step on another face (the page) while a dialog is open closes that dialog and shows the flow as it is now; a reply to the old dialog is not applied", async () => {
  const questions = JSON.parse(
    addon.normalize(JSON.stringify({ questions: [{ id: "f", prompt: "Which?", multiSelect: true, options: ["A", "B", "C"] }] })),
  ).questions;
  const flow = flowOf(questions);
  const page = {}; // the page's face
  const { ctx } = rpcContext(() => undefined);
  const seen = [];
  ctx.ui.select = async (title, entries, opts) => {
    seen.push(entries);
    if (seen.length === 1) {
      // pi's select, closed when its signal aborts: the page ticks A meanwhile
      const closed = new Promise((resolve) => opts.signal.addEventListener("abort", () => resolve(undefined), { once: true }));
      assert.ok(flow.engine.act("toggle", 0, null).ok);
      flow.moved(page);
      return closed;
    }
    if (seen.length === 2) {
      // a client that replies to the old dialog anyway ("3. C") after the page ticked B
      assert.ok(flow.engine.act("toggle", 1, null).ok);
      flow.moved(page);
      return entries[2];
    }
    return entries[4]; // "Done"
  };
  const r = await askWithDialogs(flow, questions, ctx, undefined);
  assert.equal(seen.length, 3, "shown again after each move of the page");
  assert.deepEqual(
    seen.map((entries) => entries.slice(0, 3)),
    [
      ["[ ] 1. A", "[ ] 2. B", "[ ] 3. C"],
      ["[x] 1. A", "[ ] 2. B", "[ ] 3. C"], // the page's tick
      ["[x] 1. A", "[x] 2. B", "[ ] 3. C"],
    ],
  );
  assert.equal(seen[2][4], "Done");
  assert.deepEqual(r, { outcome: "answered", answers: { f: ["A", "B"] } }, "the old dialog's reply (C) was not applied");
  flow.end();
});
