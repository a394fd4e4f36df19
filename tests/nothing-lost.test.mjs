// nothing-lost.test.mjs — typed text survives every key path: moving between questions,
// opening the review, answering "no" to "Discard N answers?", toggling options and filtering.
import assert from "node:assert/strict";
import { test } from "node:test";
import { addon } from "./helpers/addon.mjs";

const UP = "\u001b[A",
  ESC = "\u001b",
  TAB = "\t",
  BTAB = "\u001b[Z";
const ARGS = {
  questions: [
    { id: "langs", prompt: "Which languages?", multiSelect: true, options: ["C", "Rust", "Go", "Zig"] },
    { id: "db", prompt: "Which database?", options: ["Postgres", "SQLite"] },
    { id: "why", prompt: "Why?" },
  ],
};

function engine() {
  const e = addon.createEngine(JSON.stringify(ARGS));
  const screen = () => e.render(100).join("\n");
  const feed = (...keys) => keys.forEach((k) => e.feed(k));
  return { e, screen, feed };
}

test("nothing lost: a multi-select draft survives toggles, filtering, other questions, the review and a declined discard", () => {
  const { e, screen, feed } = engine();
  feed("0"); // Something else… on the multi-select question
  feed("\u001b[200~my own language\u001b[201~");
  feed(ESC); // back to the list, draft kept
  feed("1", "3"); // toggle C and Go
  feed("/", "r", "u"); // filter to Rust
  feed(ESC); // clear the filter
  feed(TAB, TAB); // to the third question, then the review
  feed(TAB); // review
  assert.match(screen(), /Review/);
  feed(BTAB, BTAB, BTAB); // back to the first question
  feed("2"); // toggle Rust
  feed(ESC); // Esc with answers given: "Discard N answers?"
  assert.match(screen(), /Discard \d answers?\?/);
  feed("n"); // keep everything
  feed("0"); // reopen Something else…: the draft is there
  assert.match(screen(), /my own language/);
  feed("\r"); // submit the typed text (added to ticks)
  feed("1"); // db: Postgres
  feed("b", "e", "c", "a", "u", "s", "e", "\r"); // why
  feed("\r"); // submit on the review
  assert.equal(e.outcome, "answered");
  const details = JSON.parse(e.result("test").details);
  const langs = details.answers.find((a) => a.id === "langs");
  assert.deepEqual(langs.values, ["C", "Rust", "Go", "my own language"]);
  assert.equal(langs.wasCustom, true);
});

test("nothing lost: a free-text draft survives leaving the question and coming back", () => {
  const { e, screen, feed } = engine();
  feed(TAB, TAB); // to "Why?" (free text: entry at once)
  feed("half an ans", "wer");
  feed(BTAB); // away
  feed(TAB); // back
  assert.match(screen(), /half an answer/);
  feed(UP); // up leaves the entry; text stays
  assert.match(screen(), /half an answer/);
  assert.equal(e.done, false);
});

test("nothing lost: cancelling with only a draft asks first, and 'n' keeps it", () => {
  const e = addon.createEngine(JSON.stringify({ questions: [{ id: "a", prompt: "Name?" }] }));
  e.feed("precious");
  e.feed(ESC);
  assert.match(e.render(80).join("\n"), /Discard what you typed\?/);
  e.feed("n");
  assert.equal(e.done, false);
  assert.match(e.render(80).join("\n"), /precious/);
  e.feed("\r");
  assert.match(e.result("test").text, /user wrote: precious/);
});

// ---- keys that end the call ask before typed text is dropped ---------------------------------
const CTRL_D = "\u0004",
  CTRL_N = "\u000e",
  ENTER = "\r";
const DB = { questions: [{ id: "db", prompt: "Which database?", options: ["Postgres", "SQLite", "Mongo"] }] };
const ask = (e) => e.render(100).join("\n");
const discardAsked = (e) => /Discard what you typed\? \(y\/n\)/.test(ask(e));
const keys = (e, ...ks) => ks.forEach((k) => e.feed(k));

test("nothing lost: Ctrl+D after typing an answer and Esc asks first; 'n' keeps the draft, 'y' declines", () => {
  for (const reply of ["n", "y"]) {
    const e = addon.createEngine(JSON.stringify(DB));
    e.feed("0"); // Something else…
    e.feed("\u001b[200~Cockroach\u001b[201~");
    e.feed(ESC); // back to the list, the draft kept
    e.feed(CTRL_D); // let the agent decide: the draft would be lost
    assert.equal(e.done, false, "Ctrl+D does not end the call unasked");
    assert.ok(discardAsked(e), ask(e));
    e.feed(reply);
    if (reply === "y") {
      assert.equal(e.outcome, "declined");
      continue;
    }
    assert.equal(e.done, false);
    assert.ok(!discardAsked(e));
    assert.match(ask(e), /Cockroach/, "back on the list, the draft shown");
    keys(e, "0", ENTER); // reopen and submit it
    assert.equal(e.outcome, "answered");
    assert.match(e.result("test").text, /^db: user wrote: Cockroach$/);
  }
});

test("nothing lost: Ctrl+D on the review asks when a question holds typed text, 'n' returns to the review", () => {
  const { e, screen, feed } = engine();
  feed(TAB, TAB); // "Why?": free text
  feed("\u001b[200~because it is fast\u001b[201~");
  feed(TAB); // the review
  assert.match(screen(), /Review/);
  feed(CTRL_D);
  assert.equal(e.done, false);
  assert.match(screen(), /Discard what you typed\?/);
  feed("n");
  assert.match(screen(), /Review/);
  assert.doesNotMatch(screen(), /Discard/);
  feed("3"); // go to "Why?": the draft is there
  assert.match(screen(), /because it is fast/);
  feed(ENTER); // submit it; Ctrl+D now keeps it as a given answer, without asking
  feed(CTRL_D);
  assert.equal(e.outcome, "declined");
  assert.match(e.result("test").text, /^why: user wrote: because it is fast\n/);
});

test("nothing lost: every key path to 'let the agent decide' asks while a draft is pending", () => {
  // From the list, the filter, an empty text entry of another question and the review, and with
  // the decline key rebound to one that does not edit: each asks, each 'n' keeps the draft.
  const paths = [
    ["the list", () => {}],
    ["the filter", (feed) => feed("/")],
    ["another question's empty entry", (feed) => feed(TAB, "0")],
    ["the review", (feed) => feed(BTAB)],
  ];
  for (const [where, go] of paths) {
    const { e, screen, feed } = engine();
    feed("0", "\u001b[200~Odin\u001b[201~", ESC); // a draft on the first question
    go(feed);
    const before = screen();
    feed(CTRL_D);
    assert.equal(e.done, false, where);
    assert.match(screen(), /Discard what you typed\?/, where);
    feed("n");
    assert.equal(screen(), before, `${where}: 'n' returns to the same screen`);
    while (!/Which languages\?/.test(screen())) feed(BTAB);
    assert.match(screen(), /Odin/, `${where}: the draft is intact`);
  }
  const e = addon.createEngine(JSON.stringify({ questions: [{ id: "a", prompt: "Name?" }] }));
  e.bind("decline", ["ctrl+x"]);
  e.feed("precious");
  e.feed("\u0018"); // Ctrl+X: no editing key, so it declines — after asking
  assert.ok(discardAsked(e));
  e.feed("n");
  assert.match(ask(e), /precious/);
});

test("nothing lost: a note on an unanswered question counts as typed text", () => {
  // Declining keeps given answers with their notes; a note on a question without an answer
  // would be lost, and a cancel drops every note.
  const e = addon.createEngine(JSON.stringify(DB));
  keys(e, CTRL_N, "\u001b[200~ask the DBA first\u001b[201~", ESC);
  e.feed(CTRL_D);
  assert.ok(discardAsked(e), "decline asks");
  e.feed("n");
  e.feed(ESC); // cancel asks too
  assert.ok(discardAsked(e), "cancel asks");
  e.feed("n");
  e.feed("2"); // answer: the note now travels with it
  assert.equal(e.outcome, "answered");
  assert.match(e.result("test").text, /^db: user selected: 2\. SQLite; note: ask the DBA first$/);
  const d = addon.createEngine(JSON.stringify(ARGS));
  keys(d, TAB, CTRL_N, "\u001b[200~fine for now\u001b[201~", ESC, "1"); // db: a note, then Postgres
  d.feed(CTRL_D);
  assert.equal(d.outcome, "declined", "a note on an answered question is kept: no question");
  assert.match(d.result("test").text, /^db: user selected: 1\. Postgres; note: fine for now\n/);
});

test("nothing lost: submitting the review or picking the option of a single question asks before dropping a draft", () => {
  // several questions: an answered question whose text was changed and not submitted again
  const { e, screen, feed } = engine();
  feed("1", ENTER); // langs: C
  feed("2"); // db: SQLite
  feed("\u001b[200~first thought\u001b[201~", ENTER); // why
  feed("3", "\u001b[200~, second thought\u001b[201~"); // change it, no Enter
  feed(TAB); // the review
  feed(ENTER); // submit
  assert.equal(e.done, false);
  assert.match(screen(), /Discard what you typed\?/);
  feed("n");
  assert.match(screen(), /Review/);
  feed("3", ENTER, ENTER); // submit the change, then the review
  assert.equal(e.outcome, "answered");
  assert.match(e.result("test").text, /why: user wrote: first thought, second thought$/);
  // one question: type, go back to the list, pick an option
  for (const reply of ["n", "y"]) {
    const s = addon.createEngine(JSON.stringify(DB));
    keys(s, "0", "\u001b[200~Cockroach\u001b[201~", ESC, "2");
    assert.equal(s.done, false);
    assert.ok(discardAsked(s));
    s.feed(reply);
    if (reply === "y") {
      assert.equal(s.outcome, "answered");
      assert.match(s.result("test").text, /^db: user selected: 2\. SQLite$/);
    } else {
      assert.equal(s.done, false);
      s.feed("0");
      assert.match(ask(s), /Cockroach/);
    }
  }
});
