// request.test.mjs — normalization and validation of the model's arguments, through the addon.
import assert from "node:assert/strict";
import { test } from "node:test";
import { addon, thrown } from "./helpers/addon.mjs";

const norm = (args) => JSON.parse(addon.normalize(typeof args === "string" ? args : JSON.stringify(args)));
const rejects = (args) => {
  const e = thrown(() => addon.normalize(typeof args === "string" || Buffer.isBuffer(args) ? args : JSON.stringify(args)));
  assert.equal(e.code, "QT_EINVALID", `unexpected error: ${e.message}`);
  return e;
};
const L = addon.limits;

test("normalize: trims strings, defaults labels to Q1…, values to labels; a question whose options are only their labels has them written as strings", () => {
  const out = norm({
    questions: [
      { id: " db ", prompt: "  Which database?  ", options: [{ label: " SQLite " }, { value: "pg", label: "PostgreSQL" }] },
      { id: "name", prompt: "Name?" },
    ],
  });
  assert.deepEqual(out.questions[0], {
    id: "db",
    label: "Q1",
    prompt: "Which database?",
    options: [
      { value: "SQLite", label: "SQLite" },
      { value: "pg", label: "PostgreSQL" },
    ],
    multiSelect: false,
  });
  assert.equal(out.questions[1].label, "Q2");
  assert.equal(out.questions[1].options, undefined, "no options makes a free-text question");
});

test("normalize: an empty options list makes a free-text question", () => {
  assert.equal(norm({ questions: [{ id: "a", prompt: "Why?", options: [] }] }).questions[0].options, undefined);
});

test("normalize: accepts the AskUserQuestion shape (question, header, options without value, multiSelect)", () => {
  const out = norm({
    questions: [
      {
        question: "Which database?",
        header: "Database Selection",
        options: [{ label: "PostgreSQL (Recommended)", description: "Relational" }],
      },
      { question: "Features?", header: "Features", multiSelect: true, options: [{ label: "Auth" }, { label: "API" }] },
      { question: "Anything else?" },
    ],
  });
  assert.deepEqual(
    out.questions.map((q) => [q.id, q.label, q.prompt, q.multiSelect]),
    [
      ["database-selection", "Database Selection", "Which database?", false],
      ["features", "Features", "Features?", true],
      ["q3", "Q3", "Anything else?", false],
    ],
  );
  assert.deepEqual(out.questions[0].options[0], {
    value: "PostgreSQL (Recommended)",
    label: "PostgreSQL (Recommended)",
    description: "Relational",
  });
});

test("normalize: accepts the single-question shape { header, question, options, multiple, custom }", () => {
  const out = norm({ header: "Deploy", question: "Where to?", options: ["staging", "prod"], multiple: true, custom: false });
  assert.equal(out.questions.length, 1);
  assert.deepEqual(out.questions[0], {
    id: "deploy",
    label: "Deploy",
    prompt: "Where to?",
    options: ["staging", "prod"],
    multiSelect: true,
  });
});

test("normalize: accepts options as plain strings and questionnaire's allowOther", () => {
  const out = norm({ questions: [{ id: "x", prompt: "Pick", options: ["A", "B"], allowOther: false }] });
  assert.deepEqual(out.questions[0].options, ["A", "B"]);
  // the same option spelled as an object, with its value its label, is written the same way
  const objects = norm({ questions: [{ id: "x", prompt: "Pick", options: [{ value: "A", label: "A" }, { label: "B" }] }] });
  assert.deepEqual(objects.questions[0].options, ["A", "B"]);
  // one option with a value, a description or a preview of its own: every option an object
  const mixed = norm({ questions: [{ id: "x", prompt: "Pick", options: ["A", { label: "B", description: "d" }] }] });
  assert.deepEqual(mixed.questions[0].options, [
    { value: "A", label: "A" },
    { value: "B", label: "B", description: "d" },
  ]);
});

test("normalize: ids derived from headers stay unique", () => {
  const out = norm({ questions: [{ question: "a?", header: "Scope" }, { question: "b?", header: "scope" }, { question: "c?" }] });
  assert.deepEqual(
    out.questions.map((q) => q.id),
    ["scope", "scope-2", "q3"],
  );
});

test("normalize: a header too long for a tab is shortened, not rejected", () => {
  const out = norm({ questions: [{ id: "a", label: "x".repeat(L.labelBytes + 50), prompt: "p" }] });
  assert.ok(Buffer.byteLength(out.questions[0].label) <= L.labelBytes);
  assert.ok(out.questions[0].label.endsWith("…"));
});

test("normalize: keeps metadata.source and pre-supplied answers", () => {
  const out = norm({ questions: [{ id: "a", prompt: "p", options: ["X", "Y"] }], metadata: { source: " wizard " }, answers: { a: "Y" } });
  assert.deepEqual(out.metadata, { source: "wizard" });
  assert.deepEqual(out.answers, { a: "Y" });
});

test("validate: rejects no questions with 'No questions provided'", () => {
  for (const args of [{}, { questions: [] }, { questions: null }]) {
    const e = rejects(args);
    assert.match(e.message, /^No questions provided/);
    assert.equal(e.path, "questions");
  }
});

test("validate: rejects non-object items, naming the index", () => {
  const e = rejects({ questions: [{ id: "a", prompt: "ok" }, "what?"] });
  assert.equal(e.path, "questions[1]");
  assert.match(e.message, /questions\[1\] must be an object .* not a string/);
});

test("validate: rejects a missing or empty prompt", () => {
  let e = rejects({ questions: [{ id: "a" }] });
  assert.equal(e.path, "questions[0].prompt");
  assert.match(e.message, /prompt is missing/);
  e = rejects({ questions: [{ id: "a", prompt: "   " }] });
  assert.match(e.message, /prompt is empty/);
});

test("validate: rejects duplicate question ids", () => {
  const e = rejects({
    questions: [
      { id: "db", prompt: "a" },
      { id: "db", prompt: "b" },
    ],
  });
  assert.equal(e.path, "questions[1].id");
  assert.match(e.message, /"db" repeats questions\[0\]\.id\. Give every question a distinct id/);
});

test("validate: rejects duplicate option values and labels within a question", () => {
  let e = rejects({
    questions: [
      {
        id: "a",
        prompt: "p",
        options: [
          { value: "x", label: "X" },
          { value: "x", label: "Y" },
        ],
      },
    ],
  });
  assert.equal(e.path, "questions[0].options[1]");
  assert.match(e.message, /value "x" repeats .*distinct value/);
  e = rejects({
    questions: [
      {
        id: "a",
        prompt: "p",
        options: [
          { value: "x", label: "Same" },
          { value: "y", label: "Same" },
        ],
      },
    ],
  });
  assert.match(e.message, /label "Same" repeats .*distinct label/);
});

test("validate: rejects wrong types, naming what was sent", () => {
  const cases = [
    [{ questions: "nope" }, "questions", /array/],
    [{ questions: [{ id: "a", prompt: ["x"] }] }, "questions[0].prompt", /must be a string, not an array/],
    [{ questions: [{ id: "a", prompt: "p", options: { a: 1 } }] }, "questions[0].options", /must be an array of options, not an object/],
    [{ questions: [{ id: "a", prompt: "p", options: [true] }] }, "questions[0].options[0]", /not a boolean/],
    [{ questions: [{ id: "a", prompt: "p", multiSelect: "sometimes" }] }, "questions[0].multiSelect", /true or false/],
    [{ questions: [{ id: {}, prompt: "p" }] }, "questions[0].id", /must be a string, not an object/],
    [{ questions: [{ id: "a", prompt: "p" }], metadata: "x" }, "metadata", /must be an object/],
    [[1, 2], "", /must be a JSON object/],
  ];
  for (const [args, path, re] of cases) {
    const e = rejects(args);
    assert.equal(e.path, path, e.message);
    assert.match(e.message, re);
  }
});

test("validate: rejects strings over their limits, naming the limit", () => {
  const e = rejects({ questions: [{ id: "a", prompt: "p".repeat(L.promptBytes + 1) }] });
  assert.equal(e.path, "questions[0].prompt");
  assert.match(e.message, new RegExp(`${L.promptBytes + 1} bytes long; the limit is ${L.promptBytes}`));
  assert.match(rejects({ questions: [{ id: "i".repeat(L.idBytes + 1), prompt: "p" }] }).message, /limit is 64/);
});

test("validate: rejects more questions or options than the limits", () => {
  const many = Array.from({ length: L.questions + 1 }, (_, i) => ({ id: `q${i}`, prompt: "p" }));
  assert.match(rejects({ questions: many }).message, new RegExp(`limit is ${L.questions}`));
  const opts = Array.from({ length: L.options + 1 }, (_, i) => `${i}`);
  const e = rejects({ questions: [{ id: "a", prompt: "p", options: opts }] });
  assert.equal(e.path, "questions[0].options");
  assert.match(e.message, new RegExp(`limit is ${L.options}`));
});

test("validate: the limits are generous: 20 questions with 12 options each pass", () => {
  const qs = Array.from({ length: 20 }, (_, i) => ({ id: `q${i}`, prompt: "p", options: Array.from({ length: 12 }, (_, k) => `o${k}`) }));
  assert.equal(norm({ questions: qs }).questions.length, 20);
});

test("validate: rejects arguments over 100,000 bytes", () => {
  const e = rejects(JSON.stringify({ questions: [{ id: "a", prompt: "p" }], pad: "x".repeat(100000) }));
  assert.match(e.message, /limit is 100000/);
});

test("validate: rejects invalid UTF-8, naming the byte", () => {
  const bytes = Buffer.concat([Buffer.from('{"questions":[{"id":"a","prompt":"ab'), Buffer.from([0xc3, 0x28]), Buffer.from('"}]}')]);
  const e = rejects(bytes);
  assert.match(e.message, /not valid UTF-8 \(byte 36\)/);
  for (const bad of [[0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xff]]) {
    const b = Buffer.concat([Buffer.from('{"questions":[{"id":"a","prompt":"'), Buffer.from(bad), Buffer.from('"}]}')]);
    assert.match(rejects(b).message, /not valid UTF-8/, `bytes ${bad}`);
  }
});

test("validate: a string's bad bytes are reported with its JSON path, not just a byte offset", () => {
  // invalid UTF-8, a raw control character, an escaped NUL: each names the field it is in
  const utf8 = Buffer.concat([Buffer.from('{"questions":[{"id":"a","prompt":"ab'), Buffer.from([0xc3, 0x28]), Buffer.from('"}]}')]);
  let e = rejects(utf8);
  assert.equal(e.path, "questions[0].prompt");
  assert.match(e.message, /^questions\[0\]\.prompt: the arguments are not valid UTF-8 \(byte 36\)/);
  e = rejects(Buffer.from('{"questions":[{"id":"a","prompt":"ok"},{"id":"b","prompt":"p","options":["x","y\x01"]}]}'));
  assert.equal(e.path, "questions[1].options[1]");
  assert.match(e.message, /^questions\[1\]\.options\[1\]: the arguments contain a raw control character/);
  e = rejects('{"questions":[{"id":"a","prompt":"x\\u0000y"}]}');
  assert.equal(e.path, "questions[0].prompt");
  assert.match(e.message, /^questions\[0\]\.prompt: the arguments contain a NUL character \(\\u0000, byte 35\)/);
  // other shapes name the fields as the model sent them
  e = rejects({ question: "Deploy?", header: "x\u0000", options: ["a"] });
  assert.equal(e.path, "header");
  e = rejects({ questions: [{ question: "q", options: [{ label: "a", description: "d\u0000" }] }] });
  assert.equal(e.path, "questions[0].options[0].description");
  // inside a key: the path ends with that key; escapes and controls in it stay readable
  e = rejects('{"questions":[{"id":"a","pr\\u0000ompt":"x"}]}');
  assert.equal(e.path, "questions[0].pr\\u0000ompt");
  // pre-supplied answers (in the arguments or on their own) are under "answers"
  e = rejects({ questions: [{ id: "db", prompt: "p" }], answers: { db: "x\u0000" } });
  assert.equal(e.path, "answers.db");
  e = thrown(() => addon.result('{"questions":[{"id":"a","prompt":"x"}]}', "answered", "print", 0, null, '{"a":["x","y\\u0000"]}'));
  assert.equal(e.path, "answers.a[1]");
  assert.match(e.message, /^answers\.a\[1\]: the answers contain a NUL character/);
  // malformed JSON says where it broke when that is inside a question
  e = rejects('{"questions":[{"id":"a","prompt":"x",,}]}');
  assert.equal(e.path, "questions[0]");
  assert.match(e.message, /^questions\[0\]: the arguments are not valid JSON \(near byte 37\)/);
});

test("validate: a lone UTF-16 surrogate (a broken emoji) is refused naming its path and what it is", () => {
  // JSON.stringify writes half an emoji as an escaped lone surrogate, which is no character:
  // refused (never mended into U+FFFD behind the model's back), with the path and the fix.
  const broken = "Ship it? \u{1F680}".slice(0, -1); // the high half of 🚀 only
  let e = rejects({ questions: [{ id: "a", prompt: "p", options: ["ok", broken] }] });
  assert.equal(e.path, "questions[0].options[1]");
  assert.match(
    e.message,
    /^questions\[0\]\.options\[1\]: the arguments contain a lone UTF-16 surrogate \(\\ud83d, byte \d+\): half of a character such as an emoji/,
  );
  assert.match(e.message, /Send the whole character/);
  assert.doesNotMatch(e.message, /not valid JSON/);
  for (const lone of ["\\ud800", "\\udfff", "\\ude00\\ud83d", "\\ud83d\\u0041", "\\ud83d\\ud83d\\ude00"]) {
    e = rejects(`{"questions":[{"id":"a","prompt":"x${lone}y"}]}`);
    assert.equal(e.path, "questions[0].prompt", lone);
    assert.match(e.message, /lone UTF-16 surrogate \(\\u[dD][89a-fA-F][0-9a-fA-F]{2}, byte 35\)/, lone);
  }
  // a whole pair, escaped in either case, is the character it stands for
  assert.equal(norm('{"questions":[{"id":"a","prompt":"x\\ud83d\\ude80 \\uD83D\\uDE80"}]}').questions[0].prompt, "x🚀 🚀");
  // an escaped backslash before "u" is no escape at all
  assert.equal(norm('{"questions":[{"id":"a","prompt":"x\\\\ud83d"}]}').questions[0].prompt, "x\\ud83d");
});

test("validate: rejects deeply nested JSON and malformed JSON", () => {
  assert.match(rejects("[".repeat(200) + "]".repeat(200)).message, /nest deeper/);
  assert.match(rejects('{"questions": [').message, /not valid JSON/);
});

test("validate: pre-supplied answers must name asked questions and fit their kind", () => {
  const qs = [{ id: "a", prompt: "p", options: ["X", "Y"] }];
  let e = rejects({ questions: qs, answers: { b: "X" } });
  assert.equal(e.path, "answers.b");
  assert.match(e.message, /no question with id "b"/);
  e = rejects({ questions: qs, answers: { a: ["X", "Y"] } });
  assert.match(e.message, /takes one/);
  e = rejects({ questions: qs, answers: { a: "  " } });
  assert.match(e.message, /empty/);
  e = rejects({ questions: qs, answers: { a: { x: 1 } } });
  assert.match(e.message, /must be a string/);
});

test("validate: __proto__ and constructor are ordinary ids and answer keys", () => {
  const out = norm({
    questions: [
      { id: "__proto__", prompt: "p" },
      { id: "constructor", prompt: "q" },
    ],
    answers: JSON.parse('{"__proto__":"x"}'),
  });
  assert.deepEqual(
    out.questions.map((q) => q.id),
    ["__proto__", "constructor"],
  );
  assert.equal(Object.getOwnPropertyDescriptor(out.answers, "__proto__")?.value, "x");
});

// ---- the internal header and the helpers stay single-sourced ---------------------------------
test("native sources: no .c file declares another file's functions (no extern, no prototypes of non-static functions); the shared helpers are defined once, in common.c", async () => {
  const { readFileSync, readdirSync } = await import("node:fs");
  const { join } = await import("node:path");
  const dir = join(import.meta.dirname, "..", "native");
  const code = (file) =>
    readFileSync(join(dir, file), "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/\/\/.*$/gm, "")
      .replace(/"(?:[^"\\\n]|\\.)*"/g, '""');
  // the core and the Node-API binding (paths relative to native/)
  const sources = ["core", "node"].flatMap((d) =>
    readdirSync(join(dir, d), { recursive: true })
      .map((f) => f.split("\\").join("/"))
      .filter((f) => f.endsWith(".c"))
      .sort()
      .map((f) => `${d}/${f}`),
  );
  assert.ok(sources.includes("core/request/request.c") && sources.includes("core/request/common.c") && sources.includes("node/binding.c"));
  const definedIn = new Map();
  for (const file of sources) {
    const text = code(file);
    assert.doesNotMatch(text, /\bextern\b/, `${file}: an extern declaration belongs in a header`);
    // A declaration at file scope that is not static: `type name(args);` starting in column 0.
    const prototypes = [
      ...text.matchAll(/^(?!static\b|typedef\b)[A-Za-z_][\w \t*]*?\b(\w+)\s*\([^;{}()]*(?:\([^()]*\)[^;{}()]*)*\)\s*;/gm),
    ].map((m) => m[1]);
    assert.deepEqual(prototypes, [], `${file}: prototypes of functions of other files belong in a header (request/request_internal.h)`);
    for (const m of text.matchAll(/^[A-Za-z_][\w \t*]*?\b(qt_\w+)\s*\([^;{}]*\)\s*\{/gm)) {
      definedIn.set(m[1], [...(definedIn.get(m[1]) ?? []), file]);
    }
  }
  for (const helper of [
    "qt_strdup",
    "qt_strndup_trimmed",
    "qt_loose_equal",
    "qt_number_text",
    "qt_cjson_print",
    "qt_json_parse",
    "qt_json_precheck",
    "qt_fail",
    "qt_pathf",
  ]) {
    assert.deepEqual(definedIn.get(helper), ["core/request/common.c"], `${helper} is defined once, in common.c`);
  }
  const header = code("core/request/request_internal.h");
  for (const [a, b] of [
    ["request.c", "answers.c"],
    ["answers.c", "request.c"],
  ]) {
    const raw = readFileSync(join(dir, "core", "request", a), "utf8");
    assert.doesNotMatch(
      raw,
      new RegExp(`#include\\s+"(?:[\\w/]*/)?${b.replace(".c", "")}(?:_json|_memory)?\\.h"`),
      `${a} does not include ${b}'s declarations (no include circle)`,
    );
  }
  assert.match(header, /qt_strdup\s*\(/, "the helpers are declared in request/request_internal.h");
});

test("normalize: line breaks and tabs in one-line fields become spaces, and stay in prompts and values", () => {
  const out = norm({ questions: [{ prompt: "P\nq", header: "a\tb\nc", options: [{ label: "x\ny\rz\tw", value: "v\nw" }, "m\r\nn"] }] });
  const q = out.questions[0];
  assert.equal(q.label, "a b c");
  assert.equal(q.prompt, "P\nq");
  assert.deepEqual(q.options, [
    { value: "v\nw", label: "x y z w" },
    { value: "m  n", label: "m  n" }, // no value: the label (folded) is the value
  ]);
});

test("normalize: the canonical JSON escapes quotes, backslashes and control characters, in short and long strings", () => {
  const long = 'plain text long enough for the eight-byte path "quoted" \\ back\u0001slash\u001f end é 日本 😀';
  const args = { questions: [{ id: "q", prompt: long, options: [{ value: 'v"1\\', label: "a\u0002b", description: long }] }] };
  const text = addon.normalize(JSON.stringify(args));
  assert.match(text, /\\u0001slash\\u001f end é 日本 😀/);
  const q = JSON.parse(text).questions[0];
  assert.equal(q.prompt, long);
  assert.deepEqual(q.options, [{ value: 'v"1\\', label: "a\u0002b", description: long }]);
});

test("validate: the arguments are strict JSON — what cJSON let through is refused with the byte and the path", () => {
  const q = (options) => `{"questions":[{"id":"a","prompt":"p","options":${options}}]}`;
  for (const [bad, byte] of [
    ["[01]", 49], // a leading zero (cJSON read it as 1): the byte after the 0
    ["[1.]", 50], // a bare dot: the byte after it
    ["[-.5]", 49],
    ['["ok","x\\u0(07"]', 55], // \u without four hex digits (cJSON read U+0000 and cut the label there): its backslash
    ["[1\f]", 49], // a control byte between tokens (cJSON skipped every byte up to a space)
  ]) {
    const e = rejects(q(bad));
    assert.match(
      e.message,
      new RegExp(`^questions\\[0\\]\\.options(\\[\\d\\])?: the arguments are not valid JSON \\(near byte ${byte}\\)`),
      bad,
    );
  }
  // a number longer than 63 characters (cJSON's own bound) is refused, not read in part
  rejects(q(`[${"1".repeat(64)}]`));
  assert.equal(JSON.parse(addon.normalize(q(`[${"1".repeat(63)}]`))).questions[0].options[0], "1.1111111111111112e+62");
  // what JSON.stringify writes is read as before: -0, exponents, fractions, escapes
  const ok = JSON.parse(addon.normalize(q('[-0, 1e2, 2.50, "\\u00e9\\ud83d\\ude00", " sp "]')));
  assert.deepEqual(ok.questions[0].options, ["0", "100", "2.5", "é😀", "sp"]);
  // a misspelled literal is reported where it is, inside what holds it
  const e = rejects('{"questions":[{"id":"db","prompt":"P"}],"answers":{"db":nul}}');
  assert.equal(e.path, "answers.db");
});

test("validate: pre-supplied answers must be an object — a string is not read as JSON", () => {
  for (const answers of ["{}", " { } ", "x", ""]) {
    const e = rejects({ questions: [{ id: "db", prompt: "P" }], answers });
    assert.equal(e.path, "answers");
    assert.match(e.message, /^answers must be an object mapping question ids to answers/);
  }
});

/** The core's report of a question's first repeated option, as comparing each option with every
 * earlier one gives it (label before value, the earliest earlier match), or null when none repeats. */
function firstRepeat(options, label, value) {
  for (let k = 0; k < options.length; k++) {
    const jl = options.slice(0, k).findIndex((o) => label(o) === label(options[k]));
    const jv = options.slice(0, k).findIndex((o) => value(o) === value(options[k]));
    if (jl >= 0 && (jv < 0 || jl <= jv))
      return `questions[0].options[${k}].label "${label(options[k])}" repeats questions[0].options[${jl}].`;
    if (jv >= 0) return `questions[0].options[${k}].value "${value(options[k])}" repeats questions[0].options[${jv}].`;
  }
  return null;
}

test("validate: repeated options are reported as comparing each option with every earlier one would (random lists, bare and with values of their own)", () => {
  let seed = 7;
  const rand = (n) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
  const words = ["a", "b", "c", "d"];
  for (let round = 0; round < 400; round++) {
    const options = Array.from({ length: 1 + rand(7) }, () =>
      rand(3) === 0 ? words[rand(4)] : rand(2) ? { label: words[rand(4)], value: words[rand(4)] } : { label: words[rand(4)] },
    );
    const label = (o) => (typeof o === "string" ? o : o.label);
    const value = (o) => (typeof o === "string" ? o : (o.value ?? o.label));
    const expected = firstRepeat(options, label, value);
    const args = JSON.stringify({ questions: [{ id: "q", prompt: "p", options }] });
    if (!expected) {
      assert.doesNotThrow(() => addon.normalize(args), args);
      continue;
    }
    assert.ok(rejects(args).message.startsWith(expected), `${args}: ${expected}`);
  }
});

test("validate: repeated options among numbers (read by a table while every option so far is a small number) are reported as comparing each with every earlier one would, through the switch to other options", () => {
  let seed = 11;
  const rand = (n) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
  const pool = [
    0,
    1,
    2,
    7,
    "7",
    "07",
    2047,
    2048,
    "2048",
    10000,
    "x",
    { label: "7", value: "7" },
    { label: "1", value: "z" },
    { label: "y", value: "2" },
  ];
  const label = (o) => (typeof o === "object" ? o.label : String(o));
  const value = (o) => (typeof o === "object" ? o.value : String(o));
  for (let round = 0; round < 2000; round++) {
    // mostly small numbers first, so the table is in use when the first repeat or other option comes
    const length = 1 + rand(12);
    const options = Array.from({ length }, (_, k) => (k < length / 2 && rand(4) ? rand(40) : pool[rand(pool.length)]));
    const expected = firstRepeat(options, label, value);
    const args = JSON.stringify({ questions: [{ id: "q", prompt: "p", options }] });
    if (!expected) {
      const labels = JSON.parse(addon.normalize(args)).questions[0].options.map((o) => (typeof o === "string" ? o : o.label));
      assert.deepEqual(labels, options.map(label), args);
      continue;
    }
    assert.ok(rejects(args).message.startsWith(expected), `${args}: ${rejects(args).message} — expected ${expected}`);
  }
  // 1,000 numbers, the last repeating the first: found (and named) by the table
  const many = Array.from({ length: 1000 }, (_, i) => i + 1);
  many[999] = 1;
  assert.ok(
    rejects({ questions: [{ id: "q", prompt: "p", options: many }] }).message.startsWith(
      'questions[0].options[999].label "1" repeats questions[0].options[0].',
    ),
  );
});

test("pre-supplied answers keep their notes through normalization (the long answer form carries them)", () => {
  const args = {
    questions: [
      { id: "db", label: "DB", prompt: "Which?", options: ["SQLite", "Postgres"] },
      { id: "f", label: "F", prompt: "Which?", multiSelect: true, options: ["A", "B"] },
    ],
    answers: { db: { selected: ["SQLite"], note: "keep it small" }, f: ["A", "B"] },
  };
  const normalized = JSON.parse(addon.normalize(JSON.stringify(args)));
  assert.deepEqual(normalized.answers, { db: { selected: ["SQLite"], note: "keep it small" }, f: ["A", "B"] });
});

test("normalize: wait is kept only when false (ask and keep working); true or absent is the default and left out", () => {
  const q = [{ id: "a", prompt: "p" }];
  assert.equal(norm({ questions: q, wait: false }).wait, false);
  assert.equal("wait" in norm({ questions: q, wait: true }), false);
  assert.equal("wait" in norm({ questions: q }), false);
  assert.equal("wait" in norm({ questions: q, wait: null }), false);
  // the canonical form reads back the same (pi hands prepared arguments back)
  const once = addon.normalize(JSON.stringify({ questions: q, wait: false }));
  assert.equal(addon.normalize(once), once);
  assert.match(once, /,"wait":false}$/);
});

test("validate: wait must be a boolean: the path and the fix are named", () => {
  for (const wait of ["false", 0, [], {}]) {
    const e = rejects({ questions: [{ id: "a", prompt: "p" }], wait });
    assert.equal(e.path, "wait");
    assert.match(e.message, /^wait must be true or false, not (a string|a number|an array|an object)\. Leave it out/);
  }
});
