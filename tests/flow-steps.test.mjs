// flow-steps.test.mjs — the question flow as steps (qt_engine_act, qt_engine_live, qt_engine_view
// through engine.act / actions / view): the same flow the keys drive, for faces that draw no
// frame. Steps not live now, bad indices and text over a field's limit are refused, changing
// nothing; keys only ever apply live steps.
import assert from "node:assert/strict";
import { test } from "node:test";
import { addon } from "./helpers/addon.mjs";

const THREE = JSON.stringify({
  questions: [
    { id: "db", label: "DB", prompt: "Which?", options: ["PostgreSQL", "SQLite"] },
    { id: "f", label: "Feat", prompt: "Features?\u001b]0;x\u0007", multiSelect: true, options: ["A", "B\u001b[2J"] },
    { id: "name", label: "Name", prompt: "Name?" },
  ],
});
const view = (e) => JSON.parse(e.view());

test("flow steps: the live steps follow the state; a step not live is refused and changes nothing", () => {
  const e = addon.createEngine(THREE);
  assert.deepEqual(e.actions(), ["pick", "type", "note", "discuss", "decline", "cancel", "go", "filter", "draft", "skip"]);
  const before = e.view();
  const rev = e.revision;
  assert.deepEqual(e.act("toggle", 0), { ok: false, error: "That is not possible now" });
  assert.deepEqual(e.act("yes"), { ok: false, error: "That is not possible now" });
  assert.equal(e.act("pick", 7).ok, false);
  assert.equal(e.act("pick", 7).error, "There is no option 8");
  assert.equal(e.act("jump").error, "no such step");
  assert.equal(e.act("pick", -1).ok, false);
  assert.equal(e.act("pick", 0.5).ok, false);
  assert.equal(e.view(), before, "nothing changed");
  assert.equal(e.revision, rev);
  assert.deepEqual(e.act("pick", 1), { ok: true });
  const v = view(e);
  assert.equal(v.state, "choosing");
  assert.equal(v.current, 1, "on to the next question");
  assert.deepEqual(e.actions(), ["toggle", "type", "note", "discuss", "decline", "cancel", "go", "submit", "filter", "draft", "skip"]);
  e.dispose();
});

test("flow steps: a session through act() gives the answers and the result the keys give", () => {
  const steps = addon.createEngine(THREE);
  for (const [name, index, text] of [
    ["pick", 1],
    ["toggle", 0],
    ["toggle", 1],
    ["toggle", 1],
    ["type", null, "mine"],
    ["note", null, "why not"],
    ["submit"],
    ["type", null, "Ann"],
    ["submit"],
  ])
    assert.deepEqual(steps.act(name, index, text), { ok: true }, name);
  const keys = addon.createEngine(THREE);
  keys.feed("2"); // SQLite
  keys.feed("1"); // tick A
  keys.feed("\x0e"); // Ctrl+N: the note
  keys.feed("why not");
  keys.feed("\r");
  keys.feed("0mine\r"); // Something else…: the typed part, Enter finishes the question
  keys.feed("Ann\r");
  keys.feed("\r"); // the review
  assert.equal(steps.outcome, "answered");
  assert.equal(keys.outcome, "answered");
  assert.deepEqual(steps.result("rpc", 1).details, keys.result("rpc", 1).details);
  // An answer with a note is given in the long form, which carries the note (the short forms cannot).
  assert.deepEqual(view(steps).answers, { db: "SQLite", f: { selected: ["A"], wrote: "mine", note: "why not" }, name: "Ann" });
  assert.equal(view(steps).state, "done");
  assert.deepEqual(steps.actions(), [], "nothing is live once done");
  assert.match(steps.act("pick", 0).error, /has ended/);
});

test("flow steps: the view is sanitized display text; answers and values are data", () => {
  const e = addon.createEngine(THREE);
  e.act("go", 1);
  e.act("toggle", 1);
  e.act("type", null, "  typed\u001b[2J ");
  const v = view(e);
  const q = v.questions[1];
  assert.equal(q.prompt, "Features?␛]0;x␇");
  assert.equal(q.options[1].label, "B␛[2J");
  assert.equal(q.options[1].value, "B\u001b[2J");
  assert.equal(q.options[1].ticked, true);
  assert.equal(q.wrote, "typed[2J", "typed text is cleaned as typed keys are");
  assert.equal(q.answered, true);
  assert.equal(v.state, "choosing", "a multi-select question stays open after its typed part");
  assert.deepEqual(v.answers.f, ["B\u001b[2J", "typed[2J"]);
  for (const text of [JSON.stringify(v.questions.map((x) => [x.prompt, x.label, x.options.map((o) => o.label)]))])
    assert.ok(!/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/u.test(JSON.parse(text).flat(3).join("")), text);
});

test("flow steps: the engine's own questions: confirm with its title and what yes would discard", () => {
  const e = addon.createEngine(THREE);
  e.act("pick", 0);
  e.act("toggle", 0);
  assert.deepEqual(e.act("cancel"), { ok: true });
  let v = view(e);
  assert.equal(v.state, "confirm");
  assert.deepEqual(e.actions(), ["yes", "no"]);
  assert.deepEqual(v.confirm, {
    which: "discard",
    title: "Discard 2 answers?",
    count: 2,
    items: [
      { question: 0, label: "DB", text: "PostgreSQL" },
      { question: 1, label: "Feat", text: "A" },
    ],
  });
  e.act("no");
  v = view(e);
  assert.equal(v.state, "choosing");
  assert.equal(v.current, 1, "no: back where the person was");
  e.act("go", 2);
  e.act("note", null, "later");
  e.act("go", 1);
  e.act("decline");
  v = view(e);
  assert.equal(v.confirm.title, "Discard what you typed?");
  assert.deepEqual(v.confirm.items, [{ question: 2, label: "Name", text: "later" }]);
  e.act("yes");
  assert.equal(e.outcome, "declined");
});

test("flow steps: long typed text asks first; over a field's limit it is refused whole", () => {
  const long = JSON.stringify({ questions: [{ id: "x", prompt: "Say" }] });
  const e = addon.createEngine(long);
  const soft = addon.limits.softAnswerChars ?? 2000;
  assert.deepEqual(e.act("type", null, "w".repeat(soft + 1)), { ok: true });
  assert.equal(view(e).confirm.which, "long");
  e.act("no");
  assert.equal(view(e).state, "typing", "no: back to the text");
  const note = "n".repeat(4001);
  const r = e.act("note", null, note);
  assert.equal(r.ok, false);
  assert.equal(r.error, `Too long: at most ${addon.limits.noteBytes} bytes`);
  assert.equal(view(e).questions[0].note, "", "nothing kept of a refused text");
  assert.equal(e.act("type", null, "   ").error, "Type an answer first");
  assert.equal(e.act("discuss", null, " ").error, "Type what you want to tell the agent first");
  assert.deepEqual(e.act("discuss", null, " why? "), { ok: true });
  assert.equal(view(e).confirm.title, "Discard what you typed?", "the long draft would be lost");
  e.act("yes");
  assert.equal(e.outcome, "discuss");
  assert.equal(view(e).discussionSent, "why?");
});

test("flow steps: talk first is the engine's mode — 'discuss' without text opens the field as Ctrl+T does (the page's and the dialogs' button), 'back' leaves it with its words kept, and only Enter or 'discuss' with text sends", () => {
  const byStep = addon.createEngine(THREE);
  const byKey = addon.createEngine(THREE);
  assert.deepEqual(byStep.act("discuss"), { ok: true });
  byKey.feed("\x14"); // Ctrl+T
  assert.equal(view(byStep).state, "discuss");
  assert.deepEqual(byStep.actions(), ["discuss", "back"]);
  assert.deepEqual(view(byStep), view(byKey), "the same flow, by step or by key");
  assert.deepEqual(byStep.render(60), byKey.render(60));
  byStep.feed("why two?");
  assert.deepEqual(byStep.act("back"), { ok: true });
  assert.notEqual(view(byStep).state, "discuss");
  assert.deepEqual(byStep.act("discuss"), { ok: true }, "opened again");
  assert.equal(view(byStep).discussion, "why two?", "with the words it held");
  assert.deepEqual(byStep.act("discuss"), { ok: true }, "already open: nothing changes (a stale face never sends the words)");
  assert.equal(view(byStep).state, "discuss");
  assert.equal(byStep.done, false);
  byStep.feed("\r"); // Enter sends the field's own words
  assert.equal(byStep.outcome, "discuss");
  assert.equal(view(byStep).discussionSent, "why two?");
  // an empty field, sent: the engine's warning, the field still open
  const empty = addon.createEngine(THREE);
  empty.act("discuss");
  empty.feed("\r");
  assert.equal(empty.done, false);
  assert.equal(view(empty).state, "discuss");
  assert.match(view(empty).message, /tell the agent/i);
});

test("flow steps: a pick or tick naming no option (the page's Submit with none chosen) is the engine's refusal, in the engine's language, and changes nothing — never option 1", () => {
  const e = addon.createEngine(THREE);
  const before = e.revision;
  assert.deepEqual(e.act("pick"), { ok: false, error: "Choose an option or type an answer first" });
  assert.deepEqual(e.act("pick", null, null), { ok: false, error: "Choose an option or type an answer first" });
  assert.equal(e.act("go").ok, false);
  assert.equal(e.revision, before, "nothing changed");
  assert.equal(view(e).questions[0].answered, false);
  e.setLanguage("de");
  assert.equal(e.act("pick").error, "Erst eine Option wählen oder eine Antwort tippen");
  assert.deepEqual(e.act("pick", 0), { ok: true }, "an index still picks");
});

test("flow steps: keys apply only live steps (the discussion field, the review, the filter)", () => {
  const e = addon.createEngine(THREE);
  e.feed("\x14"); // Ctrl+T
  assert.equal(view(e).state, "discuss");
  assert.deepEqual(e.actions(), ["discuss", "back"]);
  e.feed("\x1b");
  e.feed("\x1b[Z"); // Shift+Tab: the review
  assert.equal(view(e).state, "review");
  assert.deepEqual(e.actions(), ["note", "discuss", "decline", "cancel", "go", "submit"]); // note: one on the whole call
  e.feed("1/lite");
  const v = view(e);
  assert.equal(v.state, "filter");
  assert.deepEqual(v.questions[0].shown, [1]);
  assert.ok(e.actions().includes("back"));
  e.feed("\r");
  assert.equal(view(e).questions[0].answered, true);
});

test("flow steps: why a step is refused is said in the person's language, as the engine's own strings are", () => {
  const cases = [
    ["de", (e) => e.act("toggle", 0), "Das ist jetzt nicht möglich"],
    ["zh", (e) => e.act("pick", 7), "没有选项 8"],
    ["de", (e) => e.act("type", null, "  "), "Erst eine Antwort tippen"],
    ["zh", (e) => e.act("go", 9), "没有问题 10"],
  ];
  for (const [language, act, said] of cases) {
    const e = addon.createEngine(THREE);
    e.setLanguage(language);
    assert.deepEqual(act(e), { ok: false, error: said }, language);
  }
  const ended = addon.createEngine(THREE);
  ended.setLanguage("de");
  ended.act("cancel");
  assert.equal(ended.act("pick", 0).error, "Die Frage ist beendet");
  const asking = addon.createEngine(THREE);
  asking.act("pick", 0);
  asking.act("cancel"); // "Discard 1 answer?"
  assert.equal(asking.act("pick", 1).error, "Answer yes or no first");
});

test("flow steps: draft holds the typed answer's field without answering; leaving then asks “Discard what you typed?”, as typing without Enter does", () => {
  const e = addon.createEngine(THREE);
  assert.deepEqual(e.act("draft", null, "Maria"), { ok: true });
  let v = view(e);
  assert.equal(v.questions[0].typed, "Maria", "held in the field");
  assert.equal(v.questions[0].answered, false, "nothing answered");
  assert.equal(v.current, 0, "the question stays");
  assert.deepEqual(e.act("decline"), { ok: true });
  v = view(e);
  assert.equal(v.state, "confirm", "leaving would drop the draft: the engine asks");
  assert.equal(v.confirm.title, "Discard what you typed?");
  assert.deepEqual(
    v.confirm.items.map((it) => it.text),
    ["Maria"],
  );
  e.act("no");
  assert.equal(e.done, false);
  assert.deepEqual(e.act("type", null, view(e).questions[0].typed), { ok: true }, "the draft submitted as typed");
  assert.equal(view(e).questions[0].wrote, "Maria");
  // the same through keys: typed without Enter, then decline asks the same question
  const keys = addon.createEngine(THREE);
  keys.feed("0Maria"); // "Something else…" and the text, no Enter
  keys.feed("\x1b"); // back to the list: the text stays in its field
  keys.feed("\x04"); // Ctrl+D: let the agent decide
  assert.equal(view(keys).state, "confirm");
  assert.equal(view(keys).confirm.title, "Discard what you typed?");
  // an empty draft and a draft over the limit
  const f = addon.createEngine(THREE);
  assert.deepEqual(f.act("draft", null, ""), { ok: true });
  assert.equal(f.act("draft", null, "x".repeat(addon.limits.answerBytes + 1)).error.startsWith("Too long"), true);
  assert.deepEqual(f.act("decline"), { ok: true });
  assert.equal(f.outcome, "declined", "nothing typed: nothing to ask");
});

test("flow steps: stepping aside is the host's key — unbound it does nothing and is not named; bound (pi's TUI: Alt+A) the help line and the accessible keys name it, and the key changes nothing in the flow but asks the host once", () => {
  const e = addon.createEngine(THREE);
  e.feed("\x1ba");
  assert.equal(e.takeAside(), false, "no key bound: nothing asked");
  assert.doesNotMatch(e.render(200).join("\n"), /step aside/);
  e.feed("\x1b[B"); // the highlight moved, as the person had it
  assert.equal(e.bind("aside", ["alt+a"]), 0);
  assert.match(e.render(200).join("\n"), /Alt\+A step aside/);
  const before = JSON.stringify(view(e));
  e.feed("\x1ba");
  assert.equal(e.takeAside(), true);
  assert.equal(e.takeAside(), false, "asked once");
  assert.equal(JSON.stringify(view(e)), before, "the flow is as it was");
  e.setAccessible(true);
  assert.match(e.render(1000).join("\n"), /Alt\+A steps aside; the same key brings the question back\./);
  assert.match(e.render(1000).join("\n"), /Escape cancels\./, "the sentences for the default keys stay");
});
