// nothing-lost.test.mjs — typed text survives every key path: moving between questions,
// opening the review, answering "no" to "Discard N answers?", toggling options and filtering.
import assert from "node:assert/strict";
import { test } from "node:test";
import { addon } from "./helpers/addon.mjs";

const UP = "\u001b[A", ESC = "\u001b", TAB = "\t", BTAB = "\u001b[Z";
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
