// result.test.mjs — the answer model: `details` and the text the model reads, for every outcome.
import assert from "node:assert/strict";
import { test } from "node:test";
import { addon } from "./helpers/addon.mjs";

const args = {
  questions: [
    {
      id: "db",
      label: "Database",
      prompt: "Which database?",
      options: [
        { value: "pg", label: "PostgreSQL" },
        { value: "SQLite", label: "SQLite" },
      ],
    },
    { id: "features", prompt: "Features?", multiSelect: true, options: ["Auth", "API", "Admin"] },
    { id: "name", prompt: "Service name?" },
  ],
  metadata: { source: "setup" },
};
const build = (outcome, answers, reason = null) => {
  const r = addon.result(JSON.stringify(args), outcome, "interactive", 1700000000000, reason, answers ? JSON.stringify(answers) : null);
  return { details: JSON.parse(r.details), text: r.text };
};
const full = { db: "pg", features: ["Auth", "Admin", "audit log"], name: "  order-processor  " };

test("result: answered text has one line per question, in order", () => {
  const { text } = build("answered", full);
  assert.equal(
    text,
    [
      "db: user selected: 1. PostgreSQL (value: pg)",
      "features: user selected: 1. Auth, 3. Admin; user wrote: audit log",
      "name: user wrote: order-processor",
    ].join("\n"),
  );
});

test("result: answered details follow the answer model", () => {
  const { details } = build("answered", full);
  assert.equal(details.status, "answered");
  assert.equal(details.cancelled, false);
  assert.equal(details.mode, "interactive");
  assert.equal(details.answeredAt, 1700000000000);
  assert.deepEqual(details.metadata, { source: "setup" });
  assert.deepEqual(details.answers[0], { id: "db", value: "pg", label: "PostgreSQL", wasCustom: false, index: 1 });
  assert.deepEqual(details.answers[1], {
    id: "features",
    value: "Auth, Admin, audit log",
    label: "Auth, Admin, audit log",
    wasCustom: true,
    values: ["Auth", "Admin", "audit log"],
    labels: ["Auth", "Admin", "audit log"],
    indices: [1, 3],
  });
  assert.deepEqual(details.answers[2], { id: "name", value: "order-processor", label: "order-processor", wasCustom: true });
  assert.equal(details.questions.length, 3);
  assert.equal(details.questions[0].otherLabel, "Something else…", "every question with options offers Something else…");
  assert.equal(details.questions[2].otherLabel, undefined);
});

test("result: an option answer may be given by value, by label, or loosely", () => {
  for (const given of ["pg", "PostgreSQL", " postgresql "]) {
    assert.equal(build("answered", { ...full, db: given }).details.answers[0].index, 1, given);
  }
});

test("result: a bare number is typed text, never an option number", () => {
  const { details, text } = build("answered", { ...full, db: "1" });
  assert.deepEqual(details.answers[0], { id: "db", value: "1", label: "1", wasCustom: true });
  assert.match(text, /^db: user wrote: 1$/m);
});

test("result: the structured form keeps typed text apart from the options", () => {
  const { details, text } = build("answered", {
    ...full,
    db: { selected: [], wrote: "SQLite" },
    features: { selected: ["API"], wrote: "Auth" },
  });
  assert.equal(details.answers[0].wasCustom, true, "typed 'SQLite' stays typed");
  assert.match(text, /^db: user wrote: SQLite$/m);
  assert.match(text, /^features: user selected: 2\. API; user wrote: Auth$/m);
  assert.throws(() => build("answered", { ...full, db: { selected: ["Oracle"] } }), /is not an option of question "db"/);
  assert.throws(() => build("answered", { ...full, db: { selected: ["pg"], wrote: "x" } }), /takes one answer/);
});

test("result: numbers in answers read back exactly", () => {
  assert.match(build("answered", { ...full, name: 0.1 }).text, /name: user wrote: 0\.1$/);
});

test("result: answered requires every question answered, and says which are missing", () => {
  assert.throws(
    () => build("answered", { db: "pg" }),
    (e) => e.code === "QT_ESTATE" && /missing: features name$/.test(e.message),
  );
});

test("result: unavailable never lists pre-supplied answers as the user's", () => {
  const { details, text } = build("unavailable", { db: "pg" });
  assert.deepEqual(details.answers, []);
  assert.doesNotMatch(text, /user selected/);
});

test("result: a cancel that lets the agent continue says so (settings: escape continue)", () => {
  const r = addon.result(JSON.stringify(args), "cancelled", "interactive", 0, null, null, 1);
  assert.match(r.text, /lets you continue\. Go on without this information/);
  assert.doesNotMatch(r.text, /end your turn/);
});

test("result: declining after answering everything keeps the answers as preferences", () => {
  const { text } = build("declined", full);
  assert.match(text, /declined to confirm them/);
  assert.doesNotMatch(text, /declined the others/);
});

test("result: cancelled discards answers and tells the model to stop", () => {
  const { details, text } = build("cancelled", full);
  assert.equal(details.status, "cancelled");
  assert.equal(details.cancelled, true);
  assert.deepEqual(details.answers, []);
  assert.match(text, /cancelled/);
  assert.match(text, /end your turn and wait/);
  assert.doesNotMatch(text, /best judgment/i);
});

test("result: declined tells the model to decide and state its assumptions; keeps given answers", () => {
  let { details, text } = build("declined", null);
  assert.equal(details.status, "declined");
  assert.equal(details.cancelled, true);
  assert.match(text, /declined.*Decide yourself, state the assumptions/s);
  ({ details, text } = build("declined", { db: "SQLite" }));
  assert.equal(details.answers.length, 1);
  assert.match(text, /^db: user selected: 2\. SQLite\n/);
  assert.match(text, /declined the others/);
});

test("result: interrupted and unavailable each get their own sentence", () => {
  const i = build("interrupted", null);
  assert.equal(i.details.status, "interrupted");
  assert.match(i.text, /interrupted before the user answered/);
  const u = build("unavailable", null, "Ask in plain text.");
  assert.equal(u.details.status, "unavailable");
  assert.match(u.text, /could not be shown.* Ask in plain text\.$/s);
});

test("result: a note follows its answer", () => {
  // Notes come from the UI; pre-supplied answers carry none.
  const { text } = build("answered", full);
  assert.doesNotMatch(text, /note:/);
});

test("result: typed text with newlines stays one indented entry", () => {
  const { text } = build("answered", { ...full, name: "line one\nline two" });
  assert.match(text, /name: user wrote: line one\n  line two$/);
});

const CAP = 100000;
const SHORTENED = /… \[shortened: (\d+) more bytes\]/;

/** Types `text` (pasted) as the answer of the current free-text question and submits it,
 * confirming a long answer; with `note`, attaches it first. */
function answerTyped(engine, text, note) {
  engine.feed(`\x1b[200~${text}\x1b[201~`);
  if (note) engine.feed(`\x0e\x1b[200~${note}\x1b[201~\r`); // Ctrl+N, the note, Enter closes it
  engine.feed("\r");
  if (!engine.done) engine.feed("y"); // "Answer is long … Submit anyway?"
}

/** The typed text of a line "id: user wrote: …" as kept, and the bytes left out (0: whole). */
function typedPart(line, id) {
  const m = line.match(new RegExp(`^${id}: user wrote: (.*?)(?:${SHORTENED.source})?(?:; note: .*)?$`, "s"));
  assert.ok(m, `no typed answer in ${JSON.stringify(line.slice(0, 80))}`);
  return { kept: m[1], left: Number(m[2] ?? 0) };
}

test("result: a long typed answer is shortened with a mark and pushes no other answer out", () => {
  // The reproduction: one 99,990-byte typed answer plus `deploy: no`. The model used to read
  // no deploy line at all, only "[result truncated: 134 more bytes]".
  const q = {
    questions: [
      { id: "answer", prompt: "Tell me" },
      { id: "deploy", prompt: "Deploy?", options: ["yes", "no"] },
    ],
  };
  const engine = addon.createEngine(JSON.stringify(q));
  const typed = "a".repeat(99990);
  answerTyped(engine, typed);
  engine.feed("2\r"); // deploy: no, then submit the review
  assert.equal(engine.outcome, "answered");
  const { text } = engine.result("interactive", 0, null);
  engine.dispose();
  assert.ok(Buffer.byteLength(text) <= CAP, `${Buffer.byteLength(text)} bytes`);
  const lines = text.split("\n");
  assert.equal(lines.length, 2);
  assert.equal(lines[1], "deploy: user selected: 2. no");
  const { kept, left } = typedPart(lines[0], "answer");
  assert.ok(left > 0, "the long answer carries the mark");
  assert.equal(kept.length + left, typed.length, "the mark counts exactly the bytes left out");
  assert.ok(typed.startsWith(kept));
  assert.doesNotMatch(text, /result truncated/);
});

test("result: 50 huge typed answers with notes all keep their line, cut to one length at character boundaries", () => {
  const n = addon.limits.questions;
  const q = { questions: Array.from({ length: n }, (_, i) => ({ id: `q${i}`, prompt: `Question ${i}?` })) };
  const engine = addon.createEngine(JSON.stringify(q));
  // two-byte characters, so a cut in the middle of one would show as U+FFFD
  const typed = Array.from({ length: n }, (_, i) => `${i}:` + "é".repeat(49000));
  const notes = Array.from({ length: n }, (_, i) => `note ${i} ` + "ü".repeat(990));
  for (let i = 0; i < n; i++) answerTyped(engine, typed[i], notes[i]);
  engine.feed("\r"); // the review: submit
  assert.equal(engine.outcome, "answered");
  const { text, details } = engine.result("interactive", 0, null);
  engine.dispose();
  assert.equal(JSON.parse(details).answers[n - 1].value, typed[n - 1], "details keep every answer whole");
  assert.ok(Buffer.byteLength(text) <= CAP, `${Buffer.byteLength(text)} bytes`);
  assert.ok(!text.includes("\ufffd"), "cut on character boundaries");
  const lines = text.split("\n");
  assert.equal(lines.length, n, "one line per question");
  const sizes = [];
  for (let i = 0; i < n; i++) {
    const { kept, left } = typedPart(lines[i], `q${i}`);
    assert.ok(left > 0 && typed[i].startsWith(kept), `q${i} is shortened from its start`);
    assert.equal(Buffer.byteLength(kept) + left, Buffer.byteLength(typed[i]), `q${i}: the mark counts the bytes left out`);
    const note = lines[i].slice(lines[i].indexOf("; note: ") + 8);
    assert.match(note, new RegExp(`^note ${i} ü+${SHORTENED.source}$`), `q${i} keeps its note, shortened`);
    sizes.push(Buffer.byteLength(kept));
  }
  // the longest pieces are cut to one common length (less a mark and a character's bytes)
  assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 2, `kept ${Math.min(...sizes)}…${Math.max(...sizes)} bytes`);
  assert.ok(Math.min(...sizes) > 500, "the room is shared, not given to the first answers");
});

test("result: ticked options and the host's reason are shortened too, every line kept", () => {
  // 185 options with 500-byte labels, all ticked, plus a typed answer: the lines exceed the cap.
  const options = Array.from({ length: 185 }, (_, i) => ({ value: `v${i}`, label: `${String(i).padStart(3, "0")}${"é".repeat(248)}` }));
  const big = {
    questions: [
      { id: "many", prompt: "p", multiSelect: true, options },
      { id: "text", prompt: "q" },
    ],
  };
  const answers = { many: options.map((o) => o.value), text: "x".repeat(10000) };
  const r = addon.result(JSON.stringify(big), "answered", "print", 0, null, JSON.stringify(answers));
  assert.ok(Buffer.byteLength(r.text) <= CAP, `${Buffer.byteLength(r.text)} bytes`);
  assert.ok(!r.text.includes("\ufffd"), "cut on a character boundary");
  const [many, text, ...rest] = r.text.split("\n");
  assert.deepEqual(rest, []);
  assert.match(many, new RegExp(`^many: user selected: 1\\. 000é+ \\(value: v0\\), .*${SHORTENED.source}$`));
  assert.equal(text, `text: user wrote: ${answers.text}`, "the shorter answer stays whole");
  // a declined result keeps its sentence; a huge reason is one more piece
  const d = addon.result(JSON.stringify(big), "declined", "print", 0, "r".repeat(300000), JSON.stringify(answers));
  assert.ok(Buffer.byteLength(d.text) <= CAP, `${Buffer.byteLength(d.text)} bytes`);
  assert.match(
    d.text,
    /^many: .*\ntext: user wrote: x+.*\nThe user answered every question above but declined to confirm them.* r+… \[shortened: \d+ more bytes\]$/s,
  );
});

test("result: discuss quotes the person's words between two sentences, keeps answers given so far, and is never cut short of its tail", () => {
  const none = build("discuss", null, "Why not both?\nWe run SQLite already.");
  assert.equal(none.details.status, "discuss");
  assert.equal(none.details.cancelled, true);
  assert.equal(none.details.discussion, "Why not both?\nWe run SQLite already.");
  assert.deepEqual(none.details.answers, []);
  assert.equal(
    none.text,
    "The user wants to talk about this question before answering it, and wrote to you:\n  Why not both?\n  We run SQLite already.\nReply to what they wrote. Do not answer the question for them and do not act on it yet; ask the question again later if you still need the answer.",
  );
  const some = build("discuss", { db: "pg" }, "and the features?");
  assert.match(
    some.text,
    /^db: user selected: 1\. PostgreSQL \(value: pg\)\nThe user answered the questions above and wants to talk about the rest/,
  );
  assert.deepEqual(
    some.details.answers.map((a) => a.id),
    ["db"],
  );
  const huge = build("discuss", null, "x".repeat(200000));
  assert.ok(Buffer.byteLength(huge.text) <= addon.limits.resultTextBytes);
  assert.match(huge.text, /\[shortened: \d+ more bytes\]\nReply to what they wrote\./);
  assert.equal(huge.details.discussion.length, 200000, "details keeps the words whole");
});

// Answers as many JSON values: they may be 61 MB of JSON (QT_MAX_ANSWERS_JSON_BYTES), and cJSON makes
// one node per value before anything is checked, so a body of tiny values ([],[],… or 0,0,…)
// could make pi allocate gigabytes. The pre-scan counts the values and refuses past
// QT_MAX_ANSWERS_JSON_VALUES, stopping there (the rest of the body is never parsed).
const VALUES_REFUSED =
  /^The answers hold more than (\d+) JSON values \(byte (\d+)\), more than any answer can: the limit is 50 questions x \(1000 options \+ 16\)\. Send one entry per question id\.$/;
const resultOf = (request, answers) => addon.result(JSON.stringify(request), "answered", "print", 0, null, answers);
const refusal = (fn) => {
  try {
    fn();
  } catch (error) {
    return error;
  }
  assert.fail("expected a refusal");
};

test("result: answers with more JSON values than any answer holds are refused before parsing, with the limit named", () => {
  const max = addon.limits.answersJsonValues;
  assert.equal(max, addon.limits.questions * (addon.limits.options + 16));
  const one = { questions: [{ id: "f", prompt: "F?", multiSelect: true, options: ["a", "b"] }] };
  // values counted: the root, the ':' and the '[' (3), then one per ','
  const zeros = (n) => `{"f":[${"0,".repeat(n - 3)}0]}`;
  const at = refusal(() => resultOf(one, zeros(max)));
  assert.equal(at.code, "QT_EINVALID");
  assert.doesNotMatch(at.message, VALUES_REFUSED, "exactly the limit passes the count (then the shape is refused)");
  const over = refusal(() => resultOf(one, zeros(max + 1)));
  assert.equal(over.code, "QT_EINVALID");
  assert.match(over.message, VALUES_REFUSED);
  assert.equal(Number(VALUES_REFUSED.exec(over.message)[1]), max);
  // 6 MB of empty arrays (2 million values): refused where the count passes the limit, near the
  // start, not after cJSON built a node for each
  const arrays = `{"f":[${"[],".repeat(2_000_000)}[]]}`;
  const big = refusal(() => resultOf(one, arrays));
  assert.match(big.message, VALUES_REFUSED);
  assert.ok(Number(VALUES_REFUSED.exec(big.message)[2]) < 3 * max + 16, big.message);
  // nested and keyed tiny values count the same
  assert.match(refusal(() => resultOf(one, `[${"[[]],".repeat(max)}[]]`)).message, VALUES_REFUSED);
  assert.match(refusal(() => resultOf(one, `{${Array.from({ length: max }, (_, i) => `"k${i}":{}`).join(",")}}`)).message, VALUES_REFUSED);
});

test("result: the fullest answers a call can get pass the value count (every option ticked on every question, typed text and a note)", () => {
  // 50 multi-select questions with as many options as the 100 KB of arguments allow, and one
  // question with the 1000 options a question may have
  const per = 380;
  const code = (i) => i.toString(36);
  const wide = {
    questions: Array.from({ length: addon.limits.questions }, (_, q) => ({
      id: `q${q}`,
      prompt: "P",
      multiSelect: true,
      options: Array.from({ length: per }, (_, i) => code(i)),
    })),
  };
  const tall = {
    questions: [{ id: "q", prompt: "P", multiSelect: true, options: Array.from({ length: addon.limits.options }, (_, i) => code(i)) }],
  };
  for (const request of [wide, tall]) {
    assert.ok(
      Buffer.byteLength(JSON.stringify(request)) <= addon.limits.argumentBytes,
      `${Buffer.byteLength(JSON.stringify(request))} bytes of arguments`,
    );
    const answers = Object.fromEntries(request.questions.map((q) => [q.id, { selected: q.options, wrote: "typed", note: "a note" }]));
    const r = resultOf(request, JSON.stringify(answers));
    const details = JSON.parse(r.details);
    assert.equal(details.status, "answered");
    assert.equal(details.answers.length, request.questions.length);
    assert.equal(
      details.answers[0].values.length,
      request.questions[0].options.length + 1,
      JSON.stringify(details.answers[0]).slice(0, 200),
    );
  }
});

test("result: asked (wait: false) names the question's id, tells the model the answer comes later, keeps no answers", () => {
  const r = build("asked", null, "q1a2b3c4d");
  assert.equal(r.details.status, "asked");
  assert.equal(r.details.qid, "q1a2b3c4d");
  assert.deepEqual(r.details.answers, []);
  assert.equal(
    r.text,
    "Asked (question q1a2b3c4d): the person's answer will arrive later as a message naming this question. Don't assume an answer; go on with work that does not depend on it.",
  );
  assert.equal("qid" in build("cancelled", null).details, false, "only an asked result carries the id");
});
