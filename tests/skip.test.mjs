// skip.test.mjs — skipping one question of several (qt_skip): the skip key's three states and
// its help item, what replaces a skip, the skip step as faces send it, the answers object's
// { skipped } form (the person's only: the model's pre-supplied answers may not skip), the result
// the model reads, and the relay's structured answers carrying it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { structuredAnswers } from "../extension/elsewhere/relay-wire.mjs";
import { addon, thrown } from "./helpers/addon.mjs";

const ARGS = {
  questions: [
    { id: "db", label: "DB", prompt: "Which database?", options: ["SQLite", "Postgres"] },
    { id: "f", label: "Feat", prompt: "Features?", multiSelect: true, options: ["Auth", "API"] },
    { id: "name", label: "Name", prompt: "Name?" },
  ],
};
const THREE = JSON.stringify(ARGS);
const CTRL_S = "\x13";
const view = (e) => JSON.parse(e.view());
const screen = (e) => e.render(80).join("\n");

test("skip: Ctrl+S skips, again says 'in the chat', again takes it back; the help line names what the next press does", () => {
  const e = addon.createEngine(THREE);
  assert.match(screen(e), /Ctrl\+S skip/);
  e.feed(CTRL_S);
  assert.equal(view(e).questions[0].skipped, "skipped");
  assert.equal(view(e).current, 0, "the question stays shown");
  assert.match(screen(e), /Skipped: the agent decides this one/);
  assert.match(screen(e), /Ctrl\+S say it in chat/);
  e.feed(CTRL_S);
  assert.equal(view(e).questions[0].skipped, "chat");
  assert.match(screen(e), /Skipped: you'll answer it in the chat/);
  assert.match(screen(e), /Ctrl\+S unskip/);
  assert.equal(view(e).questions[0].reading, "you'll say it in the chat");
  e.feed(CTRL_S);
  assert.equal(view(e).questions[0].skipped, null);
  assert.equal(view(e).questions[0].answered, false);
  assert.doesNotMatch(screen(e), /Skipped:/);
  e.dispose();
});

test("skip: only in a call of several questions, never in a sub-field; a single question has decline and talk first", () => {
  const one = addon.createEngine(JSON.stringify({ questions: [ARGS.questions[0]] }));
  assert.ok(!one.actions().includes("skip"));
  one.feed(CTRL_S);
  assert.equal(view(one).questions[0].answered, false);
  assert.doesNotMatch(screen(one), /Ctrl\+S/);
  assert.deepEqual(one.act("skip"), { ok: false, error: "That is not possible now" });
  one.dispose();
  const e = addon.createEngine(THREE);
  e.feed("\x0e"); // Ctrl+N: the note's field
  assert.ok(!e.actions().includes("skip"));
  e.feed(CTRL_S);
  assert.equal(view(e).questions[0].skipped, null);
  e.act("go", 3); // the review
  assert.ok(!e.actions().includes("skip"));
  e.dispose();
});

test("skip: an answer replaces a skip; a multi-select question's ticks are its answer again when the skip is taken back", () => {
  const e = addon.createEngine(THREE);
  e.feed(CTRL_S);
  e.feed("2"); // Postgres
  assert.equal(view(e).questions[0].skipped, null);
  assert.equal(view(e).questions[0].reading, "Postgres");
  assert.equal(view(e).current, 1);
  e.feed(" "); // ticks Auth
  e.feed(CTRL_S);
  assert.equal(view(e).questions[1].skipped, "skipped");
  assert.equal(view(e).questions[1].options[0].ticked, true, "the ticks stay, shown");
  assert.deepEqual(view(e).answers.f, { skipped: "skipped" });
  e.act("skip", null, "none");
  assert.deepEqual(view(e).answers.f, ["Auth"]);
  e.act("skip", null, "chat");
  e.act("toggle", 1, "ticked"); // a tick answers it again
  assert.deepEqual(view(e).answers.f, ["Auth", "API"]);
  e.dispose();
});

test("skip: the step as faces send it — a reason, or none for the next; anything else refused, nothing changed", () => {
  const e = addon.createEngine(THREE);
  const before = e.view();
  assert.deepEqual(e.act("skip", null, "later"), { ok: false, error: 'a skip\'s text is "skipped", "chat", "none" or none' });
  assert.equal(e.view(), before);
  assert.deepEqual(e.act("skip", null, "chat"), { ok: true });
  assert.equal(view(e).questions[0].skipped, "chat");
  assert.deepEqual(e.act("skip"), { ok: true }); // the next after "chat": not skipped
  assert.equal(view(e).questions[0].skipped, null);
  e.dispose();
});

test("skip: the model reads each question's fate, details keep the skips apart from the answers, a note goes with it", () => {
  const e = addon.createEngine(THREE);
  e.act("skip", null, "skipped");
  e.act("note", null, "ask the ops team");
  e.act("go", 1);
  e.act("skip", null, "chat");
  e.act("go", 2);
  e.act("type", null, "Orbit");
  e.act("submit");
  assert.equal(e.outcome, "answered");
  const { details, text } = e.result("interactive", 5);
  assert.equal(
    text,
    "db: skipped by the user: decide it yourself; note: ask the ops team\n" +
      "f: the user will answer this one in the chat\n" +
      "name: user wrote: Orbit\n" +
      'The user skipped the questions marked "skipped" (decide those yourself and state your assumptions) and will ' +
      'answer the ones marked "in the chat" in their next message: do not decide those or act on anything that ' +
      "depends on them. Go on with what the rest settles, then end your turn and wait for the user.",
  );
  const d = JSON.parse(details);
  assert.deepEqual(d.skipped, [
    { id: "db", reason: "skipped", note: "ask the ops team" },
    { id: "f", reason: "chat" },
  ]);
  assert.deepEqual(
    d.answers.map((a) => a.id),
    ["name"],
  );
  // the relay carries them to the child's pi as they were (structured answers, read back by C)
  const structured = structuredAnswers(d);
  assert.deepEqual(structured.db, { skipped: "skipped", note: "ask the ops team" });
  const again = addon.result(THREE, "answered", "remote", 5, null, JSON.stringify(structured));
  assert.equal(again.text, text);
  e.dispose();
});

test("skip: the answers object's { skipped } form — the person's answers only, a call of several, a known reason", () => {
  const preset = thrown(() => addon.normalize(JSON.stringify({ ...ARGS, answers: { db: { skipped: "skipped" } } })));
  assert.equal(preset.path, "answers.db");
  assert.match(preset.message, /only the person can skip a question/);
  const one = JSON.stringify({ questions: [ARGS.questions[0]] });
  assert.match(
    thrown(() => addon.result(one, "answered", "remote", 1, null, '{"db":{"skipped":"skipped"}}')).message,
    /a call of one question cannot skip it/,
  );
  assert.match(
    thrown(() => addon.result(THREE, "declined", "remote", 1, null, '{"db":{"skipped":"later"}}')).message,
    /answers\.db\.skipped must be "skipped" \(the agent decides\) or "chat"/,
  );
  assert.match(
    thrown(() => addon.result(THREE, "declined", "remote", 1, null, '{"db":{"skipped":"chat","selected":["SQLite"]}}')).message,
    /a skipped question carries only its note/,
  );
  // an extension's skip is said as its, never the person's
  const { text } = addon.result(THREE, "declined", "extension", 1, null, '{"db":{"skipped":"skipped"}}', 0, null, "helper");
  assert.match(text, /^Answered by another pi extension/);
  assert.match(text, /^db: skipped: decide it yourself$/m);
});

test("skip: accessible mode says it in words, the key's sentence included", () => {
  const e = addon.createEngine(THREE);
  e.setAccessible(true);
  const words = e.render(80).join(" "); // the sentence wraps
  assert.match(words, /Ctrl\+S skips this question; pressed again, you answer it in the chat instead/);
  e.feed(CTRL_S);
  assert.match(screen(e), /^Skipped: the agent decides this one$/m);
  e.act("go", 3);
  assert.match(screen(e), /1\. DB: skipped/);
  e.dispose();
});

test("skip: taking back a skip that is not there touches nothing (a remembered answer not taken up stays out of a decline)", () => {
  const e = addon.createEngine(THREE);
  e.remember(0, '{"db":"Postgres"}', "Answered on 1 Jan: Postgres — Enter keeps it", "1 Jan 2026");
  assert.deepEqual(e.act("skip", null, "none"), { ok: true });
  e.act("decline");
  assert.doesNotMatch(e.result("interactive", 1).text, /Postgres/);
  e.dispose();
});

test("skip: a decline after skips says each and never counts a skip as an answer; Enter on a skipped question's ticks answers it", () => {
  const one = addon.result(THREE, "declined", "web", 1, null, JSON.stringify({ db: { skipped: "chat" } }));
  assert.equal(
    one.text,
    "db: the user will answer this one in the chat\n" +
      "The user declined to answer and left the decision to you. Decide yourself, state the assumptions you made in your reply, and continue. " +
      'The user will answer the questions marked "in the chat" in their next message: do not decide those.',
  );
  const all = addon.result(
    THREE,
    "declined",
    "web",
    1,
    null,
    JSON.stringify({ db: { skipped: "skipped" }, f: { skipped: "skipped" }, name: { skipped: "skipped" } }),
  );
  assert.doesNotMatch(all.text, /answered every question/);
  const e = addon.createEngine(THREE);
  e.act("go", 1);
  e.feed(" "); // Auth ticked
  e.feed(CTRL_S);
  assert.equal(view(e).questions[1].skipped, "skipped");
  e.feed("\r"); // Enter on the ticks shown
  assert.equal(view(e).questions[1].skipped, null);
  assert.deepEqual(view(e).answers.f, ["Auth"]);
  e.dispose();
});
