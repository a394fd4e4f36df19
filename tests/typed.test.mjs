// typed.test.mjs — typed answers (a question's `type`, qt_typed.h): the request's rules and
// errors, the canonical form, every type's reading (bounds, calendar dates, addresses), the hint a
// face shows, a typed answer refused where it is typed (keys and steps) with the text kept, the
// answers object checked with its path, and what the model reads (the type and the value) with
// `details.typed`.
import assert from "node:assert/strict";
import { test } from "node:test";
import { addon, thrown } from "./helpers/addon.mjs";

const ask = (q) => JSON.stringify({ questions: [{ id: "a", prompt: "?", ...q }] });
const view = (e) => JSON.parse(e.view());
const screen = (e, w = 80) => e.render(w).join("\n");
/** Whether `text` is taken as the answer of a question `q` (a fresh engine, the type step). */
const takes = (q, text) => {
  const e = addon.createEngine(ask(q));
  const r = e.act("type", null, text);
  e.dispose();
  return r.ok;
};

test("typed: the request's rules — a known type, bounds for numbers only and in order, no options but boolean's two, one answer", () => {
  const err = (q) => thrown(() => addon.normalize(ask(q)));
  assert.match(
    err({ type: "colour" }).message,
    /questions\[0\]\.type "colour" is not a type: use "number", "integer", "boolean", "date", "email" or "url"/,
  );
  assert.equal(err({ type: 3 }).path, "questions[0].type");
  assert.match(err({ type: "date", min: 1 }).message, /questions\[0\]\.min: bounds are for a question of type "number" or "integer"/);
  assert.match(err({ type: "integer", min: 5, max: 1 }).message, /questions\[0\]\.max is below min/);
  assert.match(err({ type: "number", min: "1" }).message, /questions\[0\]\.min must be a number, not a string/);
  assert.match(err({ type: "email", options: ["a@b.c"] }).message, /takes a typed answer, not options/);
  assert.match(
    err({ type: "integer", multiSelect: true }).message,
    /questions\[0\]\.multiSelect: a question of type "integer" takes one answer/,
  );
  assert.match(err({ type: "boolean", options: ["Yes", "No", "Maybe"] }).message, /has two options, yes first and no second/);
  // canonical: the type and bounds kept; a boolean question without options gets Yes and No
  const n = JSON.parse(addon.normalize(ask({ type: "integer", min: 1, max: 10 }))).questions[0];
  assert.deepEqual([n.type, n.min, n.max], ["integer", 1, 10]);
  const b = JSON.parse(addon.normalize(ask({ type: "boolean" }))).questions[0];
  assert.deepEqual(b.options, ["Yes", "No"]);
  assert.equal(
    addon.normalize(JSON.stringify(JSON.parse(addon.normalize(ask({ type: "boolean" }))))),
    addon.normalize(ask({ type: "boolean" })),
    "canonical is a fixed point",
  );
  // "text" is the type of a question without one
  assert.equal(JSON.parse(addon.normalize(ask({ type: "text" }))).questions[0].type, undefined);
});

test("typed: each type reads what it says and nothing else", () => {
  const integer = { type: "integer", min: 1, max: 10 };
  assert.ok(takes(integer, "7") && takes(integer, " 10 ") && takes(integer, "1"));
  for (const bad of ["0", "11", "7.5", "07", "seven", "1e1", "", "-"]) assert.equal(takes(integer, bad), false, bad);
  const number = { type: "number", min: -1 };
  assert.ok(takes(number, "-0.5") && takes(number, "3.25") && takes(number, "1e3"));
  for (const bad of ["-2", "1,5", "NaN", "Infinity", "1e999", ".5"]) assert.equal(takes(number, bad), false, bad);
  const date = { type: "date" };
  assert.ok(takes(date, "2026-11-28") && takes(date, "2024-02-29"));
  for (const bad of ["2026-02-29", "2026-13-01", "28.11.2026", "2026-1-1", "0000-01-01"]) assert.equal(takes(date, bad), false, bad);
  const email = { type: "email" };
  assert.ok(takes(email, "ana@example.com") && takes(email, "a.b+c@sub.example.org"));
  for (const bad of ["ana", "ana@", "@example.com", "ana@example", "a b@example.com", "a@b@example.com", "ana@example..com"])
    assert.equal(takes(email, bad), false, bad);
  const url = { type: "url" };
  assert.ok(takes(url, "https://example.com/a?b=c") && takes(url, "HTTP://localhost:8080"));
  for (const bad of ["example.com", "ftp://example.com", "https://", "https:///path", "https://a b"])
    assert.equal(takes(url, bad), false, bad);
  const yes = { type: "boolean" };
  assert.ok(takes(yes, "yes") && takes(yes, "N") && takes(yes, "true"));
  assert.equal(takes(yes, "maybe"), false);
});

test("typed: the hint under the question, in the person's language; a wrong answer is refused where it is typed and the text stays", () => {
  const e = addon.createEngine(ask({ type: "integer", min: 1, max: 10 }));
  assert.match(screen(e), /A whole number \(1–10\)/);
  e.feed("42\r");
  assert.equal(e.done, false);
  assert.match(screen(e), /Expected: A whole number \(1–10\)/);
  assert.equal(view(e).questions[0].typed, "42", "the text kept to correct");
  assert.deepEqual(e.act("type", null, "eleven"), { ok: false, error: "Expected: A whole number (1–10)" });
  e.feed("\x7f\x7f7\r");
  assert.equal(e.outcome, "answered");
  const { text, details } = e.result("interactive", 1);
  assert.equal(text, "a: user wrote: 7 (integer: 7)");
  assert.equal(JSON.parse(details).answers[0].typed, 7);
  e.dispose();
  const de = addon.createEngine(ask({ type: "date" }));
  de.setLanguage("de");
  assert.match(screen(de), /Ein Datum \(JJJJ-MM-TT\)/);
  assert.equal(view(de).questions[0].hint, "Ein Datum (JJJJ-MM-TT)");
  assert.equal(view(de).questions[0].type, "date");
  de.dispose();
  for (const w of [8, 20, 40])
    for (const l of addon.createEngine(ask({ type: "number", min: -1000000, max: 1000000 })).render(w))
      assert.ok(addon.visibleWidth(l) <= w);
});

test("typed: a boolean question is Yes/No options, and its typed text reads as yes or no; the model reads true or false", () => {
  const args = ask({ type: "boolean" });
  const e = addon.createEngine(args);
  assert.match(screen(e), /Yes or no/);
  e.feed("2");
  assert.equal(e.result("interactive", 1).text, "a: user selected: 2. No (boolean: false)");
  assert.equal(JSON.parse(e.result("interactive", 1).details).answers[0].typed, false);
  e.dispose();
  const r = addon.result(args, "answered", "web", 1, null, JSON.stringify({ a: { wrote: "y" } }));
  assert.equal(r.text, "a: user wrote: y (boolean: true)");
});

test("typed: answers from elsewhere (the page, another terminal, the model's own) are checked with their path", () => {
  const args = ask({ type: "email" });
  const bad = thrown(() => addon.result(args, "answered", "remote", 1, null, JSON.stringify({ a: "not an address" })));
  assert.equal(bad.path, "answers.a");
  assert.match(bad.message, /answers\.a: "not an address" does not read as an e-mail address, which question "a" asks for/);
  const preset = thrown(() => addon.normalize(JSON.stringify({ ...JSON.parse(ask({ type: "integer", max: 3 })), answers: { a: "4" } })));
  assert.match(preset.message, /does not read as a whole number \(≤ 3\)/);
  const ok = addon.result(args, "answered", "remote", 1, null, JSON.stringify({ a: "ana@example.com" }));
  assert.equal(ok.text, "a: user wrote: ana@example.com (email)");
  assert.equal(JSON.parse(ok.details).answers[0].typed, "ana@example.com");
});

test("typed: accessible mode says the hint in words", () => {
  const e = addon.createEngine(ask({ type: "url" }));
  e.setAccessible(true);
  assert.match(screen(e), /^A web address \(https:\/\/…\)$/m);
  e.dispose();
});
