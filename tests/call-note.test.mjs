// call-note.test.mjs — one note for the whole call (the review's note key, the engine's NOTE step
// on the review): written, shown on the review and kept when its field closes; the model reads it
// after the answers; the answers object carries it under "" (no question's id) through the relay;
// the model's own pre-supplied answers may not carry one.
import assert from "node:assert/strict";
import { test } from "node:test";
import { structuredAnswers } from "../extension/elsewhere/relay-wire.mjs";
import { addon, thrown } from "./helpers/addon.mjs";

const ARGS = {
  questions: [
    { id: "db", label: "DB", prompt: "Which database?", options: ["SQLite", "Postgres"] },
    { id: "name", label: "Name", prompt: "Name?" },
  ],
};
const TWO = JSON.stringify(ARGS);
const CTRL_N = "\x0e";
const view = (e) => JSON.parse(e.view());
const screen = (e) => e.render(80).join("\n");

test("call note: Ctrl+N on the review opens its field; Enter keeps it, shown on the review; Ctrl+N again edits it", () => {
  const e = addon.createEngine(TWO);
  e.feed("2");
  e.feed("Orbit\r");
  assert.equal(view(e).state, "review");
  assert.match(screen(e), /Ctrl\+N note on all/);
  e.feed(CTRL_N);
  assert.equal(view(e).state, "callNote");
  assert.match(screen(e), /A note on all your answers \(Enter when done\):/);
  e.feed("ship it by Friday");
  e.feed("\r");
  assert.equal(view(e).state, "review");
  assert.match(screen(e), /Note on all: ship it by Friday/);
  assert.equal(view(e).answers[""], "ship it by Friday");
  e.feed(CTRL_N);
  e.feed("\x7f".repeat(6)); // Backspace: "ship it by"
  e.feed("\x1b"); // Esc keeps it too
  assert.equal(view(e).callNote, "ship it by ", "the field as typed; the result takes it trimmed");
  e.feed("\r");
  assert.equal(e.outcome, "answered");
  const { text, details } = e.result("interactive", 1);
  assert.equal(text, "db: user selected: 2. Postgres\nname: user wrote: Orbit\nnote on all the answers: ship it by");
  assert.equal(JSON.parse(details).note, "ship it by");
  e.dispose();
});

test("call note: the NOTE step on the review as faces send it; emptied, there is none; only on the review", () => {
  const e = addon.createEngine(TWO);
  e.act("pick", 0);
  e.act("type", null, "Orbit");
  assert.deepEqual(e.act("note", null, "  mind the cache  "), { ok: true });
  assert.equal(view(e).answers[""], "mind the cache");
  assert.deepEqual(e.act("note", null, ""), { ok: true });
  assert.equal(view(e).answers[""], undefined);
  assert.equal(e.act("note", null, "x".repeat(2001)).ok, false, "over the note's limit");
  e.act("note", null, "last word");
  e.act("submit");
  assert.match(e.result("rpc", 1).text, /\nnote on all the answers: last word$/);
  // a single question has no review: its note is the question's own
  const one = addon.createEngine(JSON.stringify({ questions: [ARGS.questions[1]] }));
  one.act("note", null, "mine");
  assert.deepEqual(view(one).answers, {}, "not answered yet; the note waits with the question");
  one.dispose();
  e.dispose();
});

test("call note: through the answers object (the page, another terminal, the relay) the model reads the same; the model's own answers may not carry one", () => {
  const answers = JSON.stringify({ db: "SQLite", name: "Orbit", "": "both are fine for now" });
  const { text, details } = addon.result(TWO, "answered", "web", 1, null, answers);
  assert.equal(text, "db: user selected: 1. SQLite\nname: user wrote: Orbit\nnote on all the answers: both are fine for now");
  const d = JSON.parse(details);
  assert.equal(d.note, "both are fine for now");
  assert.equal(structuredAnswers(d)[""], "both are fine for now");
  assert.equal(addon.result(TWO, "answered", "relay", 1, null, JSON.stringify(structuredAnswers(d))).text, text);
  // a cancel keeps nothing, the note neither
  const cancelled = addon.result(TWO, "cancelled", "web", 1, null, answers);
  assert.doesNotMatch(cancelled.text, /note on all/);
  assert.equal(JSON.parse(cancelled.details).note, undefined);
  const preset = thrown(() => addon.normalize(JSON.stringify({ ...ARGS, answers: { "": "the user agrees" } })));
  assert.equal(preset.path, 'answers[""]');
  assert.match(preset.message, /a note on the whole call is the person's/);
  assert.match(thrown(() => addon.result(TWO, "answered", "web", 1, null, '{"db":"SQLite","name":"x","":[1]}')).message, /answers\[""\]/);
});

test("call note: accessible mode says it in words", () => {
  const e = addon.createEngine(TWO);
  e.setAccessible(true);
  e.act("pick", 0);
  e.act("type", null, "Orbit");
  e.feed(CTRL_N);
  assert.match(screen(e), /^A note on all your answers \(Enter when done\):$/m);
  e.feed("soon\r");
  assert.match(screen(e), /^Note on all: soon$/m);
  e.dispose();
});

test("call note: a cancel asks before it goes ('Discard what you typed?', the note listed); a second \"\" is refused; accessible keys in its field", () => {
  const e = addon.createEngine(TWO);
  e.act("go", 2);
  e.feed(CTRL_N);
  e.feed("Please use Rust\r");
  e.feed("\x1b"); // Esc on the review: cancel
  assert.equal(e.done, false);
  const v = view(e);
  assert.equal(v.state, "confirm");
  assert.ok(
    v.confirm.items.some((it) => it.text === "Please use Rust"),
    JSON.stringify(v.confirm),
  );
  e.feed("n");
  assert.equal(view(e).callNote, "Please use Rust");
  e.dispose();
  assert.match(thrown(() => addon.result(TWO, "declined", "web", 1, null, '{"":null,"":"x"}')).message, /given twice/);
  const a = addon.createEngine(TWO);
  a.setAccessible(true);
  a.act("go", 2);
  assert.match(a.render(80).join(" "), /Ctrl\+N writes a note on all the answers/);
  a.feed(CTRL_N);
  const words = a.render(80).join(" ");
  assert.match(words, /Keys: type your note on all the answers; Enter or Escape keeps it\./);
  assert.doesNotMatch(words, /Tab goes to the next question/);
  a.dispose();
});
