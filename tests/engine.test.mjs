// engine.test.mjs — the interaction engine (native/core/engine/engine.c, editor.c, render.c) through the
// addon: scripted key sequences and the exact answers and outcome they produce, golden screens
// at 40, 80 and 120 columns, and the width invariant (no line wider than asked, judged by
// pi-tui's own visibleWidth) at every width from 1 to 200.
//
// Binding API this file relies on (native/node/engine_class.c):
//   const e = addon.createEngine(argsJson)  parses + validates (qt_request_parse); throws when invalid
//   e.feed(str)                             raw input bytes (a JS string, sent as UTF-8)
//   e.render(width) -> string[]
//   e.done -> boolean; e.outcome -> 'answered'|'declined'|'cancelled'|'interrupted'|'unavailable'
//                                            (null while running)
//   e.result(mode) -> { details, text }     qt_result_build; details is a JSON string (or object)
//   e.interrupt(); e.setStyle(name, open, close); e.bind(action, keys[]) -> unknown count;
//   e.setCursorMarker(str); e.revision -> number
// Style names: accent muted dim success warning error title border selected cursor.
//
// Golden screens live in tests/fixtures/screens/<case>.<width>.txt (plain text, no styles).
// Regenerate them with UPDATE_GOLDEN=1 node --test tests/engine.test.mjs and review the diff.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { LONG_LIST, LONG_PROMPT, TALL_PREVIEW } from "./helpers/question-sets.mjs";
import { addon } from "./helpers/addon.mjs"; // the loader's addon: PI_QUESTION_ADDON when set
import test from "node:test";
import { importPiTui } from "./helpers/pi-line.mjs";

// pi-tui of the pi line under test (PI_LINE; tests/helpers/pi-line.mjs).
const { visibleWidth } = await importPiTui();

const SCREENS = new URL("./fixtures/screens/", import.meta.url);
const UPDATE = process.env.UPDATE_GOLDEN === "1";

// ---- keys as a terminal sends them --------------------------------------------------------
const K = {
  up: "\x1b[A",
  down: "\x1b[B",
  right: "\x1b[C",
  left: "\x1b[D",
  home: "\x1b[H",
  end: "\x1b[F",
  pageUp: "\x1b[5~",
  pageDown: "\x1b[6~",
  del: "\x1b[3~",
  enter: "\r",
  shiftEnter: "\x1b[13;2u",
  esc: "\x1b",
  tab: "\t",
  shiftTab: "\x1b[Z",
  space: " ",
  backspace: "\x7f",
  altLeft: "\x1b[1;3D",
  altRight: "\x1b[1;3C",
  ctrlLeft: "\x1b[1;5D",
  altB: "\x1bb",
  altF: "\x1bf",
  altD: "\x1bd",
  ctrl: (c) => String.fromCharCode(c.toUpperCase().charCodeAt(0) - 64),
  paste: (s) => `\x1b[200~${s}\x1b[201~`,
};
const PI_CURSOR = "\x1b_pi:c\x07";

// ---- helpers ------------------------------------------------------------------------------
const engine = (args) => addon.createEngine(JSON.stringify(args));

/** Feeds each key as its own chunk (pi hands a component one sequence per call). */
function press(e, ...keys) {
  for (const k of keys.flat()) e.feed(k);
  return e;
}

/** Types text one character at a time. */
function type(e, text) {
  for (const ch of text) e.feed(ch);
  return e;
}

function details(e, mode = "interactive") {
  const r = e.result(mode);
  return typeof r.details === "string" ? JSON.parse(r.details) : r.details;
}

function answers(e) {
  return details(e).answers;
}

const screen = (e, width = 80) => e.render(width).join("\n");

/** Every line of every width from `from` to `to` is at most that wide (pi-tui's count). */
function assertFits(e, label, from = 1, to = 200) {
  for (let w = from; w <= to; w++) {
    const lines = e.render(w);
    assert.ok(Array.isArray(lines) && lines.length > 0, `${label}: no lines at width ${w}`);
    for (const [i, line] of lines.entries()) {
      const vw = visibleWidth(line);
      if (vw > w) assert.fail(`${label}: line ${i} is ${vw} columns at width ${w}: ${JSON.stringify(line)}`);
    }
  }
}

// The requests used throughout.
const DB = {
  questions: [
    {
      id: "db",
      label: "Database",
      prompt: "Which database should we use?",
      options: [
        { value: "pg", label: "PostgreSQL (Recommended)", description: "Battle-tested relational DB" },
        { value: "sqlite", label: "SQLite", description: "Lightweight, file-based" },
        { value: "mongo", label: "MongoDB", description: "Document store" },
      ],
    },
  ],
};

const THREE = {
  questions: [
    {
      id: "db",
      label: "Database",
      prompt: "Which database should we use?",
      options: [
        { value: "pg", label: "PostgreSQL" },
        { value: "sqlite", label: "SQLite" },
      ],
    },
    { id: "name", label: "Service Name", prompt: "What should we name this service?" },
    {
      id: "features",
      label: "Features",
      prompt: "Which features should we include?",
      multiSelect: true,
      options: [
        { value: "auth", label: "Authentication", description: "OAuth2 + JWT" },
        { value: "rest", label: "REST API", description: "OpenAPI spec included" },
        { value: "admin", label: "Admin Dashboard" },
      ],
    },
  ],
};

const FEATURES = { questions: [THREE.questions[2]] };
const FREE = { questions: [THREE.questions[1]] };

const PREVIEW_CODE = [
  "export function connect() {",
  "  const pool = new Pool({ host: 'localhost', port: 5432, database: 'orders', max: 20 });",
  "  return pool;",
  "}",
].join("\n");

const PREVIEW = {
  questions: [
    {
      id: "layout",
      prompt: "Which connection helper should we generate?",
      options: [
        { value: "pool", label: "Connection pool", description: "One shared pool", preview: PREVIEW_CODE },
        { value: "single", label: "Single client", preview: "const client = new Client();\nawait client.connect();" },
        { value: "none", label: "Nothing" },
      ],
    },
  ],
};

const LONG_TEXT = {
  questions: [
    {
      id: "plan",
      label: "A very long question label that needs shortening",
      prompt:
        "We found three ways to migrate the orders table without downtime. Each has trade-offs in complexity, risk and how long the migration window stays open.\nWhich one should we take?",
      options: [
        {
          value: "dual",
          label: "Dual writes with a background backfill job that copies historical rows in batches",
          description:
            "Safest: the old table stays authoritative until the backfill is verified, but it needs the most code and a feature flag to switch reads.",
        },
        { value: "trigger", label: "Database triggers", description: "Less application code.\nHarder to debug." },
        { value: "cjk", label: "一次性迁移数据库表结构并且在维护窗口内完成所有操作 🚀", description: "ＣＪＫ全角文字和表情符号 👩‍👩‍👧‍👦 🇯🇵" },
      ],
    },
    { id: "who", label: "Owner", prompt: "Who owns the migration?" },
  ],
};

const HOSTILE = {
  questions: [
    {
      id: "x\x1b[31m",
      label: "Evil\x1b]0;pwned\x07tab",
      prompt: "Pick\x1b[2J one\u202e reversed\r\nnext line\x07",
      options: [
        { value: "a", label: "Red \x1b[31mred\x1b[0m", description: "bell\x07 and\ttab" },
        { value: "b", label: "C1 \u009b control", preview: "line\x1b[1A up\r\n\u2067isolate" },
      ],
    },
    { id: "y", prompt: "ok" },
  ],
};

// ---- single question ----------------------------------------------------------------------
test("single: Enter picks the highlighted option and completes at once", () => {
  const e = press(engine(DB), K.enter);
  assert.equal(e.done, true);
  assert.equal(e.outcome, "answered");
  assert.deepEqual(answers(e), [{ id: "db", value: "pg", label: "PostgreSQL (Recommended)", wasCustom: false, index: 1 }]);
  assert.equal(e.result("interactive").text, "db: user selected: 1. PostgreSQL (Recommended) (value: pg)");
});

test("single: ↓ moves, ↑ from the top wraps to “Something else…”, ↓ from the bottom wraps to the top", () => {
  let e = press(engine(DB), K.down, K.enter);
  assert.equal(answers(e)[0].value, "sqlite");
  e = press(engine(DB), K.up);
  assert.match(screen(e), /> 4\. Something else…/);
  press(e, K.down, K.down, K.enter);
  assert.equal(answers(e)[0].value, "sqlite");
});

test("single: number keys pick the option shown with that number; 0 and the last number open text entry", () => {
  assert.equal(answers(press(engine(DB), "3"))[0].value, "mongo");
  for (const key of ["0", "4"]) {
    const e = press(engine(DB), key);
    assert.equal(e.done, false);
    type(e, "CockroachDB");
    press(e, K.enter);
    assert.deepEqual(answers(e), [{ id: "db", value: "CockroachDB", label: "CockroachDB", wasCustom: true }]);
  }
});

test("single: a number with no option says so and changes nothing", () => {
  const e = press(engine(DB), "7");
  assert.equal(e.done, false);
  assert.match(screen(e), /There is no option 7/);
  press(e, K.enter);
  assert.equal(answers(e)[0].value, "pg");
});

test("single: Esc cancels", () => {
  const e = press(engine(DB), K.down, K.esc);
  assert.equal(e.done, true);
  assert.equal(e.outcome, "cancelled");
  assert.deepEqual(answers(e), []);
});

test("single: Ctrl+C cancels like Esc", () => {
  assert.equal(press(engine(DB), K.ctrl("c")).outcome, "cancelled");
});

test("single: input after the end changes nothing", () => {
  const e = press(engine(DB), K.enter);
  const before = e.revision;
  press(e, K.down, K.enter, "x", K.esc);
  assert.equal(e.outcome, "answered");
  assert.equal(e.revision, before);
  assert.equal(answers(e)[0].value, "pg");
});

// ---- "Something else…" and text entry -------------------------------------------------------
test("entry: “Something else…” opens text entry; Enter submits the trimmed text", () => {
  const e = press(engine(DB), K.up, K.enter);
  assert.equal(e.done, false);
  type(e, "   DynamoDB, please  ");
  press(e, K.enter);
  assert.equal(e.outcome, "answered");
  assert.deepEqual(answers(e), [{ id: "db", value: "DynamoDB, please", label: "DynamoDB, please", wasCustom: true }]);
});

test("entry: empty or blank text is not accepted; the entry stays open with a warning", () => {
  const e = press(engine(DB), "0", K.enter);
  assert.equal(e.done, false);
  assert.match(screen(e), /Type an answer first/);
  type(e, "   ");
  press(e, K.enter);
  assert.equal(e.done, false);
  type(e, "x");
  press(e, K.enter);
  assert.equal(answers(e)[0].value, "x");
});

test("entry: typing a printable character on the list starts text entry with it", () => {
  const e = engine(DB);
  type(e, "Redis");
  assert.equal(e.done, false);
  assert.match(screen(e), /> 4\. Something else…\n\s+Redis/);
  press(e, K.enter);
  assert.equal(answers(e)[0].value, "Redis");
});

test("entry: Esc goes back to the list and keeps the draft; coming back shows it", () => {
  const e = press(engine(DB), "0");
  type(e, "Cassandra");
  press(e, K.esc);
  assert.equal(e.done, false);
  assert.match(screen(e), /Something else…\n\s+Cassandra/, "the draft is shown under the option");
  press(e, K.up, K.down, K.enter); // back on "Something else…"
  type(e, " cluster");
  press(e, K.enter);
  assert.equal(answers(e)[0].value, "Cassandra cluster");
});

test("entry: ↑ leaves text entry for the list, keeping the draft", () => {
  const e = press(engine(DB), "0");
  type(e, "draft");
  press(e, K.up);
  assert.match(screen(e), /> 3\. MongoDB/);
  press(e, "0", K.enter);
  assert.equal(answers(e)[0].value, "draft");
});

test("entry: cancelling with typed text asks first; n keeps everything, y cancels", () => {
  const e = press(engine(DB), "0");
  type(e, "half an answer");
  press(e, K.esc, K.esc);
  assert.equal(e.done, false);
  assert.match(screen(e), /Discard what you typed\? \(y\/n\)/);
  press(e, "n");
  assert.equal(e.done, false);
  press(e, "0", K.enter);
  assert.equal(answers(e)[0].value, "half an answer");
  const f = press(engine(DB), "0");
  type(f, "x");
  press(f, K.esc, K.esc, "y");
  assert.equal(f.outcome, "cancelled");
});

test("editor: cursor moves by grapheme, words, line start and end; deletions by grapheme and word", () => {
  const run = (keys) => {
    const e = press(engine(DB), "0");
    for (const k of keys) e.feed(k);
    press(e, K.enter);
    return answers(e)[0].value;
  };
  // insert in the middle
  assert.equal(run(["ac", K.left, "b"]), "abc");
  // a family emoji and a flag are one cursor step and one backspace each
  assert.equal(run(["a👩‍👩‍👧‍👦🇯🇵b", K.left, K.left, K.backspace]), "a🇯🇵b");
  assert.equal(run(["e\u0301x", K.left, K.left, K.del]), "x");
  // Home/End and Ctrl+A/Ctrl+E
  assert.equal(run(["bc", K.home, "a", K.end, "d"]), "abcd");
  assert.equal(run(["bc", K.ctrl("a"), "a", K.ctrl("e"), "d"]), "abcd");
  // word movement: Alt+←/Ctrl+←/Alt+B back, Alt+→/Alt+F forward
  assert.equal(run(["one two three", K.altLeft, "X"]), "one two Xthree");
  assert.equal(run(["one two three", K.ctrlLeft, K.ctrlLeft, "X"]), "one Xtwo three");
  assert.equal(run(["one two three", K.altB, K.altB, K.altF, "X"]), "one twoX three");
  assert.equal(run(["foo.bar", K.altB, "X"]), "foo.Xbar");
  // Ctrl+W, Alt+D, Ctrl+U, Ctrl+K
  assert.equal(run(["one two three", K.ctrl("w")]), "one two");
  assert.equal(run(["one two three", K.home, K.altD]), "two three");
  assert.equal(run(["one two three", K.altLeft, K.ctrl("u")]), "three");
  assert.equal(run(["one two three", K.altLeft, K.ctrl("k")]), "one two");
  // Delete and Ctrl+D delete forward while there is text
  assert.equal(run(["abc", K.home, K.del, K.ctrl("d")]), "c");
  // Ctrl+B / Ctrl+F move by character
  assert.equal(run(["ac", K.ctrl("b"), "b", K.ctrl("f"), "d"]), "abcd");
});

test("editor: paste inserts the text; newlines stay in a typed answer; Shift+Enter adds a line", () => {
  const e = press(engine(DB), "0", K.paste("first line\r\nsecond\tline"), K.shiftEnter);
  type(e, "third");
  assert.match(screen(e), /first line\n\s+second {3}line\n\s+third/);
  press(e, K.enter);
  assert.equal(answers(e)[0].value, "first line\nsecond\tline\nthird");
});

test("editor: a paste on the list starts text entry with the pasted text", () => {
  const e = press(engine(DB), K.paste("pasted answer"), K.enter);
  assert.equal(answers(e)[0].value, "pasted answer");
});

test("editor: control characters in a paste are dropped, not inserted", () => {
  const e = press(engine(DB), "0", K.paste("a\x1b[31mb\x07c"), K.enter);
  assert.equal(answers(e)[0].value, "a[31mbc");
});

test("editor: the host's cursor marker sits exactly at the cursor and counts no width", () => {
  const e = engine(DB);
  e.setCursorMarker(PI_CURSOR);
  press(e, "0");
  type(e, "héllo wörld");
  press(e, K.left, K.left, K.left);
  const lines = e.render(80);
  const line = lines.find((l) => l.includes(PI_CURSOR));
  assert.ok(line, "one line carries the marker");
  assert.equal(lines.filter((l) => l.includes(PI_CURSOR)).length, 1);
  assert.equal(line.slice(0, line.indexOf(PI_CURSOR)).trim(), "héllo wö");
  assert.equal(visibleWidth(line), visibleWidth(line.replace(PI_CURSOR, "")));
  // not shown once the entry is closed
  press(e, K.esc);
  assert.ok(!e.render(80).some((l) => l.includes(PI_CURSOR)));
});

test("editor: long typed text wraps at the width instead of being cut", () => {
  const e = press(engine(DB), "0");
  const words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt";
  type(e, words);
  const lines = e.render(40);
  const after = lines.slice(lines.findIndex((l) => l.includes("Something else…")) + 1);
  const shown = after.filter((l) => /^\s{6}\S/.test(l)).map((l) => l.trim());
  assert.equal(shown.join(" "), words);
  for (const l of lines) assert.ok(visibleWidth(l) <= 40);
});

test("editor: a very long answer shows a window of lines around the cursor", () => {
  const e = press(engine(DB), "0", K.paste(Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join("\n")));
  const s = screen(e, 80);
  assert.match(s, /↑ 30 more lines\n\s+line 31\n/);
  assert.match(s, /line 40/);
  press(e, K.ctrl("a"));
  for (let i = 0; i < 39; i++) press(e, K.ctrl("b"));
  assert.match(screen(e, 80), /line 31/);
});

// ---- free-text questions ----------------------------------------------------------------------
test("free text: text entry at once; Enter submits; Esc with nothing typed cancels", () => {
  const e = engine(FREE);
  assert.match(screen(e), / > /);
  type(e, "order-processor");
  press(e, K.enter);
  assert.deepEqual(answers(e), [{ id: "name", value: "order-processor", label: "order-processor", wasCustom: true }]);
  assert.equal(press(engine(FREE), K.esc).outcome, "cancelled");
});

test("free text: Esc with typed text asks before cancelling", () => {
  const e = engine(FREE);
  type(e, "svc");
  press(e, K.esc);
  assert.equal(e.done, false);
  assert.match(screen(e), /Discard what you typed\?/);
  press(e, K.esc, K.enter);
  assert.equal(answers(e)[0].value, "svc");
});

// ---- several questions ------------------------------------------------------------------------
test("multi: tab bar marks the current, answered and open questions; answering moves on", () => {
  const e = engine(THREE);
  assert.match(e.render(80)[1], /■ Database {2}□ Service Name {2}□ Features {2}□ Review/);
  press(e, K.down, K.enter);
  assert.match(e.render(80)[1], /✓ Database {2}■ Service Name/);
  type(e, "billing");
  press(e, K.enter);
  assert.match(screen(e), /Which features should we include\?/);
  press(e, K.space, K.enter);
  assert.match(screen(e), /Review your answers/);
  assert.match(e.render(80)[1], /■ Submit/);
  press(e, K.enter);
  assert.equal(e.outcome, "answered");
  assert.deepEqual(answers(e), [
    { id: "db", value: "sqlite", label: "SQLite", wasCustom: false, index: 2 },
    { id: "name", value: "billing", label: "billing", wasCustom: true },
    {
      id: "features",
      value: "auth",
      label: "Authentication",
      wasCustom: false,
      values: ["auth"],
      labels: ["Authentication"],
      indices: [1],
    },
  ]);
});

test("multi: Tab/→ and Shift+Tab/← switch questions and wrap around the review tab", () => {
  const e = engine(THREE);
  press(e, K.tab);
  assert.match(screen(e), /What should we name this service\?/);
  press(e, K.right);
  assert.match(screen(e), /What should we name/, "→ moves the cursor in a text field");
  press(e, K.shiftTab, K.right, K.tab);
  assert.match(screen(e), /Which features/);
  press(e, K.right);
  assert.match(screen(e), /Review your answers/);
  press(e, K.tab);
  assert.match(screen(e), /Which database/);
  press(e, K.left);
  assert.match(screen(e), /Review your answers/);
});

test("multi: in text entry ←/→ move the cursor, Tab switches question and keeps the draft", () => {
  const e = press(engine(THREE), K.tab);
  type(e, "bilng");
  press(e, K.left, K.left, "l", "i", K.right, K.right);
  press(e, K.tab, K.shiftTab);
  assert.match(screen(e), /billing/);
  type(e, "!");
  press(e, K.enter, K.tab);
  assert.match(screen(e), /Service Name: billing! \(typed\)/);
});

test("multi: review lists every answer, marks typed ones, and says which are missing", () => {
  const e = press(engine(THREE), "1", K.tab, K.tab);
  const review = screen(e);
  assert.match(review, /✓ Database: PostgreSQL/);
  assert.match(review, /□ Service Name: not answered/);
  assert.match(review, /□ Features: not answered/);
  press(e, K.enter);
  assert.equal(e.done, false);
  assert.match(screen(e), /Not answered yet: Service Name, Features/);
  assert.match(screen(e), /What should we name this service\?/, "jumps to the first missing question");
  type(e, "svc");
  press(e, K.enter, "2", K.enter);
  assert.match(screen(e), /✓ Service Name: svc \(typed\)/);
  press(e, K.enter);
  assert.equal(e.outcome, "answered");
});

test("multi: number keys on the review jump to that question; answers can be changed", () => {
  const e = press(engine(THREE), "1");
  type(e, "svc");
  press(e, K.enter, "1", K.enter);
  press(e, "1", K.down, K.enter); // change Database to SQLite
  assert.match(screen(e), /Review your answers/, "every question is answered: back on the review");
  assert.match(screen(e), /Database: SQLite/);
  press(e, K.enter);
  assert.equal(answers(e)[0].value, "sqlite");
});

test("multi: Esc with answers given asks “Discard N answers?”; n/Esc go back, y/Enter cancel", () => {
  const e = press(engine(THREE), "1", K.esc);
  assert.equal(e.done, false);
  assert.match(screen(e), /Discard 1 answer\? \(y\/n\)/);
  press(e, "n");
  assert.equal(e.done, false);
  type(e, "svc");
  press(e, K.enter, K.esc);
  assert.match(screen(e), /Discard 2 answers\?/);
  press(e, K.esc);
  assert.equal(e.done, false);
  press(e, K.esc, K.enter);
  assert.equal(e.outcome, "cancelled");
  assert.deepEqual(answers(e), []);
  const f = press(engine(THREE), "1", K.esc, "y");
  assert.equal(f.outcome, "cancelled");
});

test("multi: Esc with nothing answered cancels at once", () => {
  assert.equal(press(engine(THREE), K.esc).outcome, "cancelled");
});

test("multi: Esc on a free-text question behaves like Esc on a list", () => {
  const e = press(engine(THREE), "1");
  press(e, K.esc);
  assert.match(screen(e), /Discard 1 answer\?/);
  press(e, "n");
  assert.equal(e.done, false);
  assert.match(screen(e), /What should we name/);
});

test("multi: drafts survive navigation", () => {
  const e = engine(THREE);
  type(e, "my own db");
  press(e, K.esc, K.tab, K.tab, K.shiftTab, K.shiftTab);
  assert.match(screen(e), /my own db/);
});

// ---- multi-select ---------------------------------------------------------------------------------
test("multi-select: Space and number keys toggle; Enter confirms the ticked options", () => {
  const e = engine(FEATURES);
  assert.match(screen(e), /\[ \] 1\. Authentication/);
  press(e, K.space, "3", "2", "2");
  assert.match(screen(e), /\[x\] 1\. Authentication/);
  assert.match(screen(e), /\[ \] 2\. REST API/);
  assert.match(screen(e), /\[x\] 3\. Admin Dashboard/);
  press(e, K.enter);
  assert.deepEqual(answers(e), [
    {
      id: "features",
      value: "auth, admin",
      label: "Authentication, Admin Dashboard",
      wasCustom: false,
      values: ["auth", "admin"],
      labels: ["Authentication", "Admin Dashboard"],
      indices: [1, 3],
    },
  ]);
});

test("multi-select: Enter with nothing ticked warns and stays", () => {
  const e = press(engine(FEATURES), K.enter);
  assert.equal(e.done, false);
  assert.match(screen(e), /Tick at least one option or type an answer/);
  press(e, K.space, K.space, K.enter);
  assert.equal(e.done, false);
});

test("multi-select: typed text is added to the ticked options", () => {
  const e = press(engine(FEATURES), "1", "0");
  type(e, "Rate limiting");
  press(e, K.enter);
  assert.deepEqual(answers(e), [
    {
      id: "features",
      value: "auth, Rate limiting",
      label: "Authentication, Rate limiting",
      wasCustom: true,
      values: ["auth", "Rate limiting"],
      labels: ["Authentication", "Rate limiting"],
      indices: [1],
    },
  ]);
});

test("multi-select: typed text alone is an answer; a draft left with Esc counts on Enter", () => {
  const e = press(engine(FEATURES), K.space);
  press(e, "4");
  type(e, "Webhooks");
  press(e, K.esc, K.up, K.up, K.up, K.enter);
  const a = answers(e)[0];
  assert.deepEqual(a.indices, [1]);
  assert.deepEqual(a.values, ["auth", "Webhooks"]);
  const f = press(engine(FEATURES), "0");
  type(f, "Only this");
  press(f, K.enter);
  assert.deepEqual(answers(f)[0].values, ["Only this"]);
});

test("multi-select: Space on “Something else…” opens text entry", () => {
  const e = press(engine(FEATURES), K.up, K.space);
  type(e, "x");
  press(e, K.enter);
  assert.deepEqual(answers(e)[0].values, ["x"]);
});

// ---- talk first: Ctrl+T ---------------------------------------------------------------------------
const DISCUSS_TEXT = (words) =>
  "The user wants to talk about this question before answering it, and wrote to you:\n  " +
  words +
  "\nReply to what they wrote. Do not answer the question for them and do not act on it yet; ask the question again later if you still need the answer.";

test("discuss: Ctrl+T opens “What do you want to tell the agent?”; Enter ends the question with status discuss and the text", () => {
  const e = press(engine(DB), K.ctrl("t"));
  let s = screen(e);
  assert.match(s, /What do you want to tell the agent\?\n > +$/m);
  assert.match(s, /Enter send to the agent • Shift\+Enter new line • Ctrl\+G editor\n Esc back to the question/);
  type(e, "  Why not both?");
  press(e, K.shiftEnter);
  type(e, "We already run SQLite.  ");
  assert.equal(e.done, false);
  press(e, K.enter);
  assert.equal(e.done, true);
  assert.equal(e.outcome, "discuss");
  const r = e.result("interactive");
  assert.equal(r.text, DISCUSS_TEXT("Why not both?\n  We already run SQLite."));
  const d = JSON.parse(r.details);
  assert.equal(d.status, "discuss");
  assert.equal(d.discussion, "Why not both?\nWe already run SQLite.");
  assert.deepEqual(d.answers, []);
});

test("discuss: the help line offers Ctrl+T while typing the filter and a note too (it works there), in every language", () => {
  for (const lang of ["en", "de", "zh"]) {
    const t = addon.strings(lang);
    const item = `${t.MOD_CTRL}T ${t.HELP_DISCUSS}`;
    const filtering = engine(LONG_LIST);
    filtering.setLanguage(lang);
    press(filtering, "/", "j");
    assert.ok(screen(filtering, 160).includes(item), `${lang}: filter typing`);
    press(filtering, K.ctrl("t"));
    assert.ok(screen(filtering, 160).includes(t.DISCUSS_PROMPT), `${lang}: Ctrl+T from the filter`);
    const noting = engine(DB);
    noting.setLanguage(lang);
    press(noting, K.ctrl("n"), "x");
    assert.ok(screen(noting, 160).includes(item), `${lang}: note`);
    press(noting, K.ctrl("t"));
    assert.ok(screen(noting, 160).includes(t.DISCUSS_PROMPT), `${lang}: Ctrl+T from the note`);
  }
});

test("discuss: Ctrl+G in the field hands the words to the external editor; what comes back replaces them", () => {
  const e = press(engine(DB), K.ctrl("t"));
  type(e, "first thoughts");
  assert.equal(e.editorRequest(), null);
  press(e, K.ctrl("g"));
  assert.equal(e.editorRequest(), "first thoughts");
  e.editorDone(true, "Why not both?\nWe run SQLite.\n", null);
  assert.equal(e.editorRequest(), null);
  assert.match(screen(e), /What do you want to tell the agent\?/);
  press(e, K.enter);
  assert.equal(e.outcome, "discuss");
  assert.equal(JSON.parse(e.result("interactive").details).discussion, "Why not both?\nWe run SQLite.");
  // a failed editor keeps the words and says why
  const f = press(engine(DB), K.ctrl("t"));
  type(f, "kept");
  press(f, K.ctrl("g"));
  f.editorDone(false, null, "exited with status 1");
  assert.match(screen(f, 160), /Editor: exited with status 1\. Your text is kept\./);
  assert.match(screen(f, 160), / > kept/);
});

test("discuss: the help line offers Ctrl+T on the list, in text entry and on the review", () => {
  assert.match(screen(engine(DB), 160), /Ctrl\+T talk first/);
  assert.match(screen(press(engine(DB), "0"), 160), /Ctrl\+T talk first/);
  assert.match(screen(press(engine(THREE), K.shiftTab), 160), /Ctrl\+T talk first/);
  for (const lang of ["de", "zh"]) {
    const e = engine(DB);
    e.setLanguage(lang);
    const t = addon.strings(lang);
    assert.ok(screen(e, 160).includes(`${t.MOD_CTRL}T ${t.HELP_DISCUSS}`), lang);
    press(e, K.ctrl("t"));
    assert.ok(screen(e, 160).includes(t.DISCUSS_PROMPT), lang);
    assert.ok(screen(e, 160).includes(`Enter ${t.HELP_SEND}`), lang);
  }
});

test("discuss: Esc closes the field and keeps the text; an empty text is refused with a warning", () => {
  const e = press(engine(DB), K.ctrl("t"), K.enter);
  assert.equal(e.done, false);
  assert.match(screen(e), /Type what you want to tell the agent \(Esc goes back\)/);
  type(e, "hold on");
  press(e, K.esc);
  assert.doesNotMatch(screen(e), /What do you want to tell the agent/);
  assert.match(screen(e), /Enter select/);
  press(e, K.ctrl("t"));
  assert.match(screen(e), / > hold on/);
  press(e, K.ctrl("t")); // Ctrl+T again closes it too
  assert.doesNotMatch(screen(e), /What do you want to tell the agent/);
});

test("discuss: words for the agent that were not sent are not dropped unasked", () => {
  const e = press(engine(DB), K.ctrl("t"));
  type(e, "wait");
  press(e, K.esc, K.enter); // picking ends the call: the words would be lost
  assert.equal(e.done, false);
  assert.match(screen(e), /Discard what you typed\? \(y\/n\)/);
  press(e, "n", K.ctrl("t"), K.enter);
  assert.equal(e.outcome, "discuss");
  assert.equal(JSON.parse(e.result("interactive").details).discussion, "wait");
});

test("discuss: in several questions the answers given so far are kept and the model reads them", () => {
  const e = press(engine(THREE), "2", K.ctrl("t"));
  type(e, "what is the name for?");
  press(e, K.enter);
  assert.equal(e.outcome, "discuss");
  const r = e.result("interactive");
  assert.equal(
    r.text,
    "db: user selected: 2. SQLite (value: sqlite)\n" +
      "The user answered the questions above and wants to talk about the rest before answering, and wrote to you:\n  what is the name for?" +
      "\nReply to what they wrote. Do not answer the question for them and do not act on it yet; ask the question again later if you still need the answer.",
  );
  assert.deepEqual(
    JSON.parse(r.details).answers.map((a) => a.id),
    ["db"],
  );
});

test("discuss: a draft not yet submitted asks first; the keys of the field do not reach the question", () => {
  const e = press(engine(DB), "0");
  type(e, "Cockroach");
  press(e, K.ctrl("t"));
  type(e, "1"); // typed into the field, not a quick pick
  assert.equal(e.done, false);
  press(e, K.enter);
  assert.match(screen(e), /Discard what you typed\?/);
  press(e, "y");
  assert.equal(e.outcome, "discuss");
  assert.equal(JSON.parse(e.result("interactive").details).discussion, "1");
});

test("discuss: Ctrl+T can be rebound; the addon's result() builds discuss with the person's words", () => {
  const e = engine(DB);
  assert.equal(e.bind("discuss", ["ctrl+o"]), 0);
  assert.match(screen(e, 160), /Ctrl\+O talk first/);
  press(e, K.ctrl("o"));
  assert.match(screen(e), /What do you want to tell the agent\?/);
  const built = addon.result(JSON.stringify(DB), "discuss", "rpc", 1, "a\nb");
  assert.equal(built.text, DISCUSS_TEXT("a\n  b"));
  assert.equal(JSON.parse(built.details).discussion, "a\nb");
  assert.equal(addon.limits.discussBytes, 4000);
});

// ---- the question fits the screen -----------------------------------------------------------------

const ASKER = ["reviewer, the subagent that checks the migration plan before it runs", null];

test("rows: who asks a relayed question stays, shortened to one line, when the rows are few", () => {
  for (const lang of ["en", "de", "zh"]) {
    const t = addon.strings(lang);
    for (const [asker, template] of [
      [ASKER, t.ASKED_BY],
      [[null, "/home/me/project/a/rather/long/working/directory"], t.ASKED_BY_SUBAGENT],
    ]) {
      const lead = template.split(/[ {]/)[0]; // "Asked", "Gefragt", "由"
      for (const width of [30, 40, 80]) {
        for (let rows = 3; rows <= 24; rows++) {
          const e = engine(THREE);
          e.setLanguage(lang);
          e.setAsker(...asker);
          const lines = e.render(width, rows);
          assert.ok(lines.length <= rows, `${lang} @${width}x${rows}`);
          const who = lines.filter((l) => l.trimStart().startsWith(lead));
          assert.equal(who.length, 1, `${lang} @${width}x${rows}: one line says who asks, in\n${lines.join("\n")}`);
        }
      }
    }
  }
});

test("rows: a long prompt keeps its first line, the highlighted row and the whole help line", () => {
  const e = engine(LONG_PROMPT);
  const lines = e.render(80, 16);
  assert.equal(lines.length, 16);
  const s = lines.join("\n");
  assert.match(lines[1], /^ FIRST-LINE w1 w2/);
  assert.match(s, /↓ \d+ more lines/);
  assert.match(s, /> 1\. Alpha/);
  assert.match(s, /4\. Something else…/);
  assert.match(s, /PgUp\/PgDn read the question/);
  assert.match(s, /Esc cancel/);
  assert.match(lines.at(-1), /^─+$/);
  assert.ok(e.render(80).length > 25 && e.render(80).join("\n").includes("LAST-WORD"), "without rows the whole prompt is drawn");
});

test("rows: PageDown reads the cut prompt to its end, PageUp back to its first line; the list keeps its keys", () => {
  const e = engine(LONG_PROMPT);
  e.render(80, 16);
  let seen = 0;
  for (let i = 0; i < 30 && !screenRows(e, 80, 16).includes("LAST-WORD"); i++) {
    press(e, K.pageDown);
    seen++;
    const s = screenRows(e, 80, 16);
    assert.match(s, /↑ \d+ more lines/);
    assert.doesNotMatch(s, /FIRST-LINE/);
  }
  assert.ok(seen > 2 && screenRows(e, 80, 16).includes("LAST-WORD"), `${seen} pages`);
  assert.doesNotMatch(screenRows(e, 80, 16), /↓ \d+ more lines/);
  for (let i = 0; i < 30; i++) press(e, K.pageUp);
  assert.match(e.render(80, 16)[1], /^ FIRST-LINE/);
  press(e, K.down, K.enter);
  assert.equal(answers(e)[0].value, "Beta");
});

/** The screen at a width and a number of rows. */
function screenRows(e, width, rows) {
  return e.render(width, rows).join("\n");
}

test("rows: PageUp/PageDown page the list as before when the prompt is not cut", () => {
  const e = engine(LONG_LIST);
  press(e, K.pageDown);
  assert.match(screenRows(e, 80, 40), /> 9\. Nuxt/);
  assert.doesNotMatch(screenRows(e, 80, 40), /PgUp\/PgDn/);
});

test("rows: a long list narrows its window; the highlighted row stays in view while moving", () => {
  const e = engine(LONG_LIST);
  for (let i = 0; i < 15; i++) {
    const lines = e.render(80, 14);
    assert.ok(lines.length <= 14, `${lines.length} lines`);
    const s = lines.join("\n");
    assert.match(s, /^ > \d+\. /m, `the highlighted row is shown after ${i} downs:\n${s}`);
    assert.match(s, /Which framework should we use\?/);
    press(e, K.down);
  }
  const s = screenRows(e, 80, 14);
  assert.match(s, /↑ \d+ more/);
  assert.match(s, /^ > 16\. Something else…/m);
  press(e, K.up, K.up, K.up);
  assert.match(screenRows(e, 80, 14), /^ > 13\. Sails/m);
});

test("rows: the line being typed stays visible, in a long draft under Something else… and in a free-text answer", () => {
  const draft = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n");
  const e = press(engine(DB), "0", K.paste(draft));
  e.setCursorMarker(PI_CURSOR);
  for (const rows of [8, 10, 14, 20]) {
    const lines = e.render(60, rows);
    assert.ok(lines.length <= rows, `${lines.length} > ${rows}`);
    const cursor = lines.find((l) => l.includes(PI_CURSOR));
    assert.ok(cursor && cursor.includes("line 30"), `rows ${rows}: the cursor's line is shown:\n${lines.join("\n")}`);
    assert.match(lines.join("\n"), /Enter submit/);
  }
  const f = press(engine(FREE), K.paste(draft), K.home);
  f.setCursorMarker(PI_CURSOR);
  for (let i = 0; i < 20; i++) press(f, K.up);
  const lines = f.render(60, 9);
  assert.ok(lines.length <= 9);
  assert.ok(
    lines.some((l) => l.includes(PI_CURSOR)),
    lines.join("\n"),
  );
});

const shiftUp = "\x1b[1;2A";
const shiftDown = "\x1b[1;2B";

/** The preview lines of a frame (after the bar), in order. */
const previewLines = (lines) => lines.filter((l) => /^ ?│ /.test(l) || / │ /.test(l)).map((l) => l.slice(l.lastIndexOf("│ ") + 2));

test("preview: one taller than its window says “↓ N more lines”; Shift+↓/Shift+↑ read all of it, in few rows and in many", () => {
  for (const [width, rows] of [
    [80, 0],
    [80, 14],
    [80, 20],
    [120, 12],
    [40, 16],
  ]) {
    const e = engine(TALL_PREVIEW);
    const frame = () => (rows ? e.render(width, rows) : e.render(width));
    let lines = frame();
    if (rows) assert.ok(lines.length <= rows, `${width}x${rows}`);
    const text = lines.join("\n");
    assert.match(text, /↓ \d+ more lines/, `${width}x${rows}`);
    assert.match(text, /Shift\+↑↓ read the preview/, `${width}x${rows}`);
    assert.doesNotMatch(text, /column_40 /, `${width}x${rows}: cut`);
    // read on to the end: every line of the preview is seen, in order, and ↓ never moves the highlight
    const seen = new Set();
    for (let i = 0; i < 60 && !seen.has(40); i++) {
      for (const l of previewLines(lines)) {
        const m = /^column_(\d+) /.exec(l);
        if (m) seen.add(Number(m[1]));
      }
      press(e, shiftDown);
      lines = frame();
      assert.match(lines.join("\n"), /> 1\. Tall schema/, "Shift+↓ does not move the highlight");
    }
    assert.equal(seen.size, 40, `${width}x${rows}: every line read (${[...seen].length})`);
    assert.doesNotMatch(lines.join("\n"), /↓ \d+ more lines/, `${width}x${rows}: at the end`);
    assert.match(lines.join("\n"), /↑ \d+ more lines/, `${width}x${rows}: at the end`);
    for (let i = 0; i < 60; i++) (press(e, shiftUp), frame());
    assert.ok(
      previewLines(frame()).some((l) => l.startsWith("column_1 ")),
      `${width}x${rows}: back at the top`,
    );
    // another option starts at its own top; coming back starts at the top again
    for (let i = 0; i < 3; i++) (press(e, shiftDown), frame());
    press(e, K.down);
    assert.deepEqual(previewLines(frame()).slice(0, 2), ["id integer", "name text"]);
    assert.doesNotMatch(frame().join("\n"), /read the preview/, "a short preview offers nothing to read");
    press(e, shiftDown); // nothing to read: no effect
    press(e, K.up);
    assert.ok(
      previewLines(frame()).some((l) => l.startsWith("column_1 ")),
      `${width}x${rows}: from the top again`,
    );
  }
});

test("preview: Shift+↑/Shift+↓ can be rebound; PageUp/PageDown still page the list; in de and zh the help names it", () => {
  const e = engine(TALL_PREVIEW);
  assert.equal(e.bind("previewDown", ["ctrl+j"]), 0);
  assert.match(screen(e, 160), /Shift\+↑\/Ctrl\+J read the preview/);
  for (const lang of ["de", "zh"]) {
    const t = addon.strings(lang);
    const l = engine(TALL_PREVIEW);
    l.setLanguage(lang);
    assert.ok(screen(l, 160).includes(`${t.MOD_SHIFT}↑↓ ${t.HELP_READ_PREVIEW}`), lang);
  }
  const list = engine({
    questions: [
      {
        id: "r",
        prompt: "Region?",
        options: Array.from({ length: 30 }, (_, i) => ({ label: `Region ${i + 1}`, preview: "x\n".repeat(30) })),
      },
    ],
  });
  press(list, K.pageDown);
  assert.match(screen(list), /> 9\. Region 9/);
});

test("rows: the preview gets what is left; the review is cut and scrolls with PageUp/PageDown", () => {
  const p = engine(PREVIEW);
  const lines = p.render(80, 16);
  assert.ok(lines.length <= 16);
  assert.match(lines.join("\n"), /> 1\. Connection pool/);
  const many = {
    questions: Array.from({ length: 12 }, (_, i) => ({
      id: `q${i}`,
      label: `Question ${i + 1}`,
      prompt: `Prompt ${i + 1}?`,
      options: ["Yes", "No"],
    })),
  };
  const e = engine(many);
  for (let i = 0; i < 12; i++) press(e, "1");
  let s = screenRows(e, 80, 12);
  assert.ok(s.split("\n").length <= 12);
  assert.match(s, /Review your answers/);
  assert.match(s, /↓ \d+ more lines/);
  assert.match(s, /PgUp\/PgDn scroll/);
  assert.doesNotMatch(s, /Question 12: Yes/);
  for (let i = 0; i < 20 && !/Question 12: Yes/.test(s); i++) {
    press(e, K.pageDown);
    s = screenRows(e, 80, 12);
    assert.ok(s.split("\n").length <= 12);
  }
  assert.match(s, /Question 12: Yes/);
  press(e, K.enter);
  assert.equal(e.outcome, "answered");
});

test("rows: the discussion field and a note being typed keep their line when the rows are few", () => {
  const e = press(engine(LONG_PROMPT), K.ctrl("t"));
  type(e, "a few words");
  e.setCursorMarker(PI_CURSOR);
  for (const rows of [10, 14, 20]) {
    const lines = e.render(80, rows);
    assert.ok(lines.length <= rows);
    assert.ok(
      lines.some((l) => l.includes(PI_CURSOR) && l.includes("a few words")),
      lines.join("\n"),
    );
    assert.match(lines.join("\n"), /Esc back to the question/);
  }
  const n = press(engine(LONG_PROMPT), K.ctrl("n"));
  type(n, "my note");
  n.setCursorMarker(PI_CURSOR);
  const lines = n.render(80, 12);
  assert.ok(lines.length <= 12);
  assert.ok(
    lines.some((l) => l.includes(PI_CURSOR) && l.includes("my note")),
    lines.join("\n"),
  );
});

test("rows: no frame is taller than the rows given, in every golden state, at rows 1–40 and widths 10–130", () => {
  for (const c of CASES) {
    const e = engine(c.args);
    if (c.lang) e.setLanguage(c.lang);
    if (c.asker) e.setAsker(...c.asker);
    press(e, c.keys);
    for (let rows = 1; rows <= 40; rows++) {
      for (let w = 10; w <= 130; w += 15) {
        const lines = e.render(w, rows);
        assert.ok(lines.length >= 1 && lines.length <= rows, `${c.name} @${w}x${rows}: ${lines.length} lines`);
        for (const line of lines) assert.ok(visibleWidth(line) <= w, `${c.name} @${w}x${rows}: ${JSON.stringify(line)}`);
      }
    }
  }
});

test("rows: help and hints in German and Chinese fit as well", () => {
  for (const lang of ["de", "zh"]) {
    const e = engine(LONG_PROMPT);
    e.setLanguage(lang);
    const t = addon.strings(lang);
    const s = screenRows(e, 80, 16);
    assert.ok(s.includes(t.HELP_READ_PROMPT), `${lang}: ${s}`);
    assert.ok(e.render(80, 16).length <= 16);
    press(e, K.pageDown);
    assert.ok(screenRows(e, 80, 16).includes(t.LINES_ABOVE.split("{n}")[1].trim()), lang);
  }
});

// ---- long lists and the filter ---------------------------------------------------------------------
test("long list: a window of rows with “↑ N more” / “↓ N more”", () => {
  const e = engine(LONG_LIST);
  let s = screen(e);
  assert.match(s, /↓ 8 more/);
  assert.doesNotMatch(s, /↑ \d+ more/);
  assert.doesNotMatch(s, /Astro/);
  press(e, K.pageDown, K.pageDown);
  s = screen(e);
  assert.match(s, /↑ \d+ more/);
  assert.match(s, /> 16\. Something else…/, "PageDown stops at the end");
  press(e, K.pageUp);
  assert.match(screen(e), /> 8\. SvelteKit/);
  press(e, K.pageUp, K.pageUp, K.enter);
  assert.equal(answers(e)[0].value, "fw1");
});

test("long list: ↑ from the top wraps to the end of a long list", () => {
  const e = press(engine(LONG_LIST), K.up, K.up, K.enter);
  assert.equal(answers(e)[0].value, "fw15");
});

test("filter: / filters by label and description, case-insensitively", () => {
  const e = press(engine(LONG_LIST), "/");
  type(e, "JS");
  const s = screen(e);
  assert.match(s, /Filter: JS/);
  assert.match(s, /1\. Express\.js/);
  assert.match(s, /2\. NestJS/);
  assert.match(s, /3\. Next\.js/);
  assert.match(s, /4\. AdonisJS/);
  assert.match(s, /5\. Something else…/);
  assert.doesNotMatch(s, /Fastify/);
  const f = press(engine(LONG_LIST), "/");
  type(f, "number 13");
  assert.match(screen(f), /1\. Sails/);
});

test("filter: in a single-select question Enter picks the highlighted match at once", () => {
  const e = press(engine(LONG_LIST), "/");
  type(e, "number 13");
  press(e, K.enter);
  assert.equal(e.done, true);
  assert.equal(e.outcome, "answered");
  assert.equal(answers(e)[0].value, "fw13");
  const g = press(engine(LONG_LIST), "/");
  type(g, "js");
  press(g, K.down, K.down, K.enter);
  assert.equal(answers(g)[0].value, "fw6", "↑/↓ move while typing; Enter picks the highlighted match (Next.js)");
});

test("filter: in several questions Enter picks, moves on, and the list comes back whole with the pick highlighted", () => {
  const e = press(engine(THREE), "/");
  type(e, "lite");
  press(e, K.enter);
  assert.match(screen(e), /What should we name this service\?/);
  press(e, K.shiftTab);
  const s = screen(e);
  assert.doesNotMatch(s, /Filter:/);
  assert.match(s, /> 2\. SQLite ✓/);
  assert.match(s, /1\. PostgreSQL/);
});

test("filter: with no match, Enter in a single-select question types the filter text as the answer", () => {
  const e = press(engine(LONG_LIST), "/");
  type(e, "Deno Fresh");
  assert.match(screen(e), /No option matches/);
  press(e, K.enter);
  assert.equal(e.done, false);
  assert.match(screen(e), /> 1\. Something else…\n\s+Deno Fresh/);
  press(e, K.enter);
  assert.equal(answers(e)[0].value, "Deno Fresh");
  assert.equal(answers(e)[0].wasCustom, true);
});

test("filter: in a multi-select question Enter leaves filter typing and keeps the list filtered", () => {
  const e = press(engine(FEATURES), "/");
  type(e, "api");
  press(e, K.enter);
  assert.equal(e.done, false);
  let s = screen(e);
  assert.match(s, /Filter: api/);
  assert.match(s, /1\. REST API/);
  assert.doesNotMatch(s, /Authentication/);
  assert.match(s, /Space toggle/, "back on the list: the list keys work");
  press(e, "1");
  assert.match(screen(e), /\[x\] 1\. REST API/);
  press(e, K.esc); // clears the filter, the tick stays
  s = screen(e);
  assert.doesNotMatch(s, /Filter:/);
  assert.match(s, /\[x\] 2\. REST API/);
  press(e, K.enter);
  assert.deepEqual(answers(e)[0].values, ["rest"]);
});

test("filter: Esc clears the filter first; the next Esc cancels", () => {
  const e = press(engine(FEATURES), "/");
  type(e, "zzz");
  assert.match(screen(e), /No option matches/);
  assert.match(screen(e), /1\. Something else…/);
  press(e, K.enter, K.esc);
  assert.equal(e.done, false);
  assert.doesNotMatch(screen(e), /Filter:/);
  assert.match(screen(e), /> \[ \] 4\. Something else…/, "the highlight stays on the same row");
  press(e, K.esc);
  assert.equal(e.outcome, "cancelled");
  const f = press(engine(LONG_LIST), "/");
  type(f, "zzz");
  press(f, K.esc);
  assert.doesNotMatch(screen(f), /Filter:/, "Esc while typing clears the filter at once");
  press(f, K.esc);
  assert.equal(f.outcome, "cancelled");
});

test("filter: the help line says what Enter does while typing the filter", () => {
  const single = press(engine(LONG_LIST), "/");
  assert.match(screen(single, 120), /Enter select/);
  const multi = press(engine(FEATURES), "/");
  assert.match(screen(multi, 120), /Enter done/);
  for (const [lang, word] of [
    ["de", "auswählen"],
    ["zh", "选择"],
  ]) {
    const e = engine(LONG_LIST);
    e.setLanguage(lang);
    press(e, "/");
    assert.ok(screen(e, 120).includes(addon.strings(lang).HELP_SELECT), `${lang}: ${word}`);
  }
});

// ---- preview and notes -----------------------------------------------------------------------------
test("preview: beside the list from 100 columns on, below it when narrower", () => {
  const e = engine(PREVIEW);
  const wide = e.render(120);
  assert.ok(wide.some((l) => /Connection pool\s+│ export function connect\(\) \{/.test(l)));
  const narrow = screen(e, 80);
  assert.match(narrow, /│ export function connect\(\) \{/);
  assert.match(narrow, /4\. Something else…\n\n │ export function/);
  press(e, K.down);
  assert.match(screen(e, 80), /│ const client = new Client\(\);\n │ await client\.connect\(\);/);
  press(e, K.down);
  assert.doesNotMatch(screen(e, 80), /│/);
  assert.match(screen(e, 120), /│ \(no preview\)/);
});

test("notes: Ctrl+N attaches a note to the current question, kept in the answer and the review", () => {
  const e = press(engine(THREE), K.ctrl("n"));
  type(e, "we already run it in prod");
  press(e, K.enter);
  assert.match(screen(e), /Note: we already run it in prod/);
  press(e, "1", K.tab, K.tab);
  assert.match(screen(e), /Database: PostgreSQL\n\s+Note: we already run it in prod/);
  press(e, "2");
  type(e, "svc");
  press(e, K.enter, "1", K.enter, K.enter);
  assert.equal(answers(e)[0].note, "we already run it in prod");
  assert.match(e.result("interactive").text, /; note: we already run it in prod/);
});

test("notes: a single question keeps its note; Esc closes the note editor without losing it", () => {
  const e = press(engine(DB), K.ctrl("n"));
  type(e, "temporary");
  press(e, K.esc, K.enter);
  assert.equal(answers(e)[0].note, "temporary");
});

// ---- ways out --------------------------------------------------------------------------------------
test("decline: Ctrl+D on the list lets the agent decide", () => {
  const e = press(engine(DB), K.ctrl("d"));
  assert.equal(e.outcome, "declined");
  assert.equal(details(e).status, "declined");
});

test("decline: in text entry Ctrl+D deletes forward while there is text and declines only on an empty field", () => {
  const e = press(engine(DB), "0");
  type(e, "ab");
  press(e, K.ctrl("d")); // cursor at the end: nothing to delete, and typed text is never thrown away
  assert.equal(e.done, false);
  press(e, K.home, K.ctrl("d"), K.ctrl("d"));
  assert.equal(e.done, false);
  press(e, K.ctrl("d"));
  assert.equal(e.outcome, "declined");
});

test("decline: keeps the answers already given in a multi-question call", () => {
  const e = press(engine(THREE), "2", K.ctrl("d"));
  assert.equal(e.outcome, "declined");
  assert.equal(answers(e)[0].value, "sqlite");
});

test("interrupt: ends at once with “interrupted”; later input does nothing", () => {
  const e = press(engine(THREE), "1");
  e.interrupt();
  assert.equal(e.done, true);
  assert.equal(e.outcome, "interrupted");
  press(e, K.enter);
  assert.equal(e.outcome, "interrupted");
});

test("long answer: over 2000 characters asks first; n returns to editing with the text kept", () => {
  const e = press(engine(DB), "0", K.paste("x".repeat(2500)), K.enter);
  assert.equal(e.done, false);
  assert.match(screen(e), /Answer is long \(2500 chars\)\. Submit anyway\? \(y\/n\)/);
  press(e, "n");
  assert.equal(e.done, false);
  press(e, K.backspace, K.enter, "y");
  assert.equal(e.outcome, "answered");
  assert.equal(answers(e)[0].value.length, 2499);
});

test("long answer: 2000 characters exactly go through without a question", () => {
  const e = press(engine(DB), "0", K.paste("y".repeat(2000)), K.enter);
  assert.equal(e.outcome, "answered");
});

// ---- pre-supplied answers ------------------------------------------------------------------------
test("presets: pre-supplied answers start as given", () => {
  const e = engine({ ...THREE, answers: { db: "sqlite", features: ["auth", "Rate limiting"] } });
  assert.match(screen(e), /What should we name this service\?/, "starts on the first open question");
  assert.match(e.render(80)[1], /✓ Database {2}■ Service Name {2}✓ Features/);
  type(e, "svc");
  press(e, K.enter);
  assert.match(screen(e), /Features: Authentication, Rate limiting \(typed\)/);
  press(e, K.enter);
  assert.deepEqual(
    answers(e).map((a) => a.value),
    ["sqlite", "svc", "auth, Rate limiting"],
  );
});

test("presets: Esc with only pre-supplied answers cancels at once", () => {
  const e = engine({ ...THREE, answers: { db: "sqlite" } });
  press(e, K.esc);
  assert.equal(e.outcome, "cancelled");
});

test("presets: a single question highlights its pre-supplied option", () => {
  const e = engine({ ...DB, answers: { db: "mongo" } });
  assert.match(screen(e), /> 3\. MongoDB ✓/);
  press(e, K.enter);
  assert.equal(answers(e)[0].value, "mongo");
});

// ---- keys and help ---------------------------------------------------------------------------------
test("help: the help line names the keys that work now, by their first bound key", () => {
  const e = engine(THREE);
  const s = screen(e, 200);
  for (const item of [
    "↑↓ move",
    "Enter select",
    "1-9 pick",
    "/ filter",
    "Tab next question",
    "Shift+Tab previous",
    "Ctrl+N note",
    "Ctrl+D let the agent decide",
    "Esc cancel",
  ])
    assert.ok(s.includes(item), `help has “${item}”`);
  press(e, "0");
  const entry = screen(e, 200);
  assert.ok(entry.includes("Enter submit"));
  assert.ok(entry.includes("Esc back to the options"));
  assert.ok(entry.includes("Ctrl+D let the agent decide"), "decline shows on an empty field");
  type(e, "x");
  assert.ok(!screen(e, 200).includes("let the agent decide"), "and not once there is text");
});

test("bind: rebinding an action changes its keys and the help line", () => {
  const e = engine(DB);
  assert.equal(e.bind("confirm", ["ctrl+s", "no-such-key"]), 1);
  assert.equal(e.bind("down", ["j"]), 0);
  assert.match(screen(e, 200), /Ctrl\+S select/);
  assert.match(screen(e, 200), /↑\/j move/);
  press(e, "j", K.enter);
  assert.equal(e.done, false, "Enter is no longer bound");
  press(e, K.ctrl("s"));
  assert.equal(answers(e)[0].value, "sqlite");
});

test("keys: a lone LF (Ctrl+J) is a new line in typed text, as in pi's editor, and Enter in a list", () => {
  // pi-tui reads "\n" as Enter (a legacy terminal) and as Ctrl+J; pi's own editor inserts a
  // line for it on every version, and pi from 0.87 binds Ctrl+J to its new-line action.
  for (const keys of [null, ["shift+enter", "ctrl+j"]]) {
    const e = engine(FREE);
    if (keys) e.bind("newLine", keys);
    type(e, "one");
    press(e, "\n");
    type(e, "two");
    assert.equal(e.done, false, "LF inserted a line, it did not submit");
    press(e, "\r");
    assert.equal(e.done, true);
    assert.equal(answers(e)[0].value, "one\ntwo");

    const list = engine(DB);
    if (keys) list.bind("newLine", keys);
    press(list, "\n");
    assert.equal(list.done, true, "in the list LF picks, as Enter does");
  }
});

test("bind: an unbound decline key is gone from the help line", () => {
  const e = engine(DB);
  e.bind("decline", []);
  assert.doesNotMatch(screen(e, 200), /let the agent decide/);
  press(e, K.ctrl("d"));
  assert.equal(e.done, false);
});

// ---- rendering ---------------------------------------------------------------------------------------
test("render: the same width and no change return the same frame; a key changes the revision", () => {
  const e = engine(DB);
  const a = e.render(80);
  const rev = e.revision;
  assert.deepEqual(e.render(80), a);
  press(e, K.down);
  assert.ok(e.revision > rev);
  assert.notDeepEqual(e.render(80), a);
});

test("render: model text is sanitized — no escape sequence or control reaches the terminal", () => {
  const e = engine(HOSTILE);
  for (const w of [40, 80, 120]) {
    for (const line of e.render(w)) {
      assert.ok(!/[\x00-\x08\x0a-\x1f\x7f\x80-\x9f\u202e\u2067]/.test(line), `clean line: ${JSON.stringify(line)}`);
    }
  }
  const s = screen(e, 120);
  assert.match(s, /␛\[2J/);
  assert.match(s, /Red ␛\[31mred␛\[0m/);
  assert.match(s, /next line/);
});

test("render: styles wrap text in the host's strings and never change widths", () => {
  const plain = engine(THREE);
  const styled = engine(THREE);
  const names = ["accent", "muted", "dim", "success", "warning", "error", "title", "border", "selected", "cursor"];
  names.forEach((n, i) => styled.setStyle(n, `\x1b[${31 + (i % 7)}m`, "\x1b[39m"));
  styled.setCursorMarker(PI_CURSOR);
  const steps = [[], ["2"], ["x", "y"], [K.left], [K.enter, " "], [K.enter]];
  for (const keys of steps) {
    press(plain, ...keys);
    press(styled, ...keys);
    for (const w of [20, 40, 80, 120]) {
      const p = plain.render(w),
        s = styled.render(w);
      assert.equal(s.length, p.length);
      s.forEach((line, i) => {
        assert.equal(visibleWidth(line), visibleWidth(p[i]), `line ${i} at ${w}`);
        assert.equal(line.replace(/\x1b\[\d+m/g, "").replace(PI_CURSOR, ""), p[i]);
      });
    }
  }
  assert.ok(
    styled.render(80).some((l) => l.includes("\x1b[")),
    "styles are applied",
  );
});

test("render: a style string that takes up columns is refused", () => {
  const e = engine(DB);
  assert.throws(() => e.setStyle("accent", "[", "]"));
  assert.throws(() => e.setCursorMarker("|"));
});

// ---- golden screens -------------------------------------------------------------------------------
const CASES = [
  { name: "single", args: DB, keys: [] },
  { name: "single-entry", args: DB, keys: ["0", ..."Cockroach", K.left] },
  { name: "single-empty-warning", args: DB, keys: ["0", K.enter] },
  { name: "tabs", args: THREE, keys: ["2"] },
  { name: "review", args: THREE, keys: ["2", ..."billing", K.enter, K.ctrl("n"), ..."soon", K.enter, "1", "3", K.enter] },
  { name: "review-missing", args: THREE, keys: ["1", K.tab, K.tab, K.enter] },
  { name: "multi-select", args: FEATURES, keys: ["1", "3", K.down] },
  { name: "free-text", args: FREE, keys: [..."order-processor"] },
  { name: "long-list", args: LONG_LIST, keys: [K.pageDown, K.down, K.down] },
  { name: "filter", args: LONG_LIST, keys: ["/", ..."js"] },
  { name: "filter-applied", args: FEATURES, keys: ["/", ..."a", K.enter, K.down] },
  { name: "filter-no-match", args: LONG_LIST, keys: ["/", ..."Deno", K.enter] },
  { name: "discuss", args: DB, keys: [K.ctrl("t"), ..."Why not both?"] },
  { name: "discuss.de", lang: "de", args: DB, keys: [K.ctrl("t"), ..."Warum nicht beide?"] },
  { name: "discuss.zh", lang: "zh", args: DB, keys: [K.ctrl("t"), ..."为什么不两个都用？"] },
  { name: "discuss-empty", args: DB, keys: [K.ctrl("t"), K.enter] },
  { name: "discuss-review", args: THREE, keys: ["1", K.tab, K.tab, K.ctrl("t"), ..."what is this for?"] },
  { name: "discuss-empty.de", lang: "de", args: DB, keys: [K.ctrl("t"), K.enter] },
  { name: "discuss-empty.zh", lang: "zh", args: DB, keys: [K.ctrl("t"), K.enter] },
  { name: "fit-prompt", rows: 16, args: LONG_PROMPT, keys: [] },
  { name: "fit-prompt-paged", rows: 16, args: LONG_PROMPT, keys: [K.pageDown, K.pageDown] },
  { name: "fit-prompt.de", lang: "de", rows: 16, args: LONG_PROMPT, keys: [K.pageDown] },
  { name: "fit-prompt.zh", lang: "zh", rows: 16, args: LONG_PROMPT, keys: [K.pageDown] },
  { name: "fit-list", rows: 12, args: LONG_LIST, keys: [K.down, K.down, K.down, K.down, K.down] },
  { name: "fit-list.de", lang: "de", rows: 12, args: LONG_LIST, keys: [K.up, K.up] },
  { name: "fit-list.zh", lang: "zh", rows: 12, args: LONG_LIST, keys: [K.up, K.up] },
  { name: "fit-entry", rows: 12, args: DB, keys: ["0", K.paste(Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n"))] },
  { name: "fit-review", rows: 10, args: THREE, keys: ["2", ..."billing", K.enter, K.ctrl("n"), ..."soon", K.enter, "1", "3", K.enter] },
  { name: "fit-discuss", rows: 12, args: LONG_PROMPT, keys: [K.ctrl("t"), ..."hold on"] },
  { name: "filter-typing.de", lang: "de", args: LONG_LIST, keys: ["/", ..."js"] },
  { name: "filter-typing.zh", lang: "zh", args: LONG_LIST, keys: ["/", ..."js"] },
  { name: "filter-applied.de", lang: "de", args: FEATURES, keys: ["/", ..."a", K.enter, K.down] },
  { name: "filter-applied.zh", lang: "zh", args: FEATURES, keys: ["/", ..."a", K.enter, K.down] },
  // fitting to the rows, talk first and the filter without a match in German and Chinese too
  { name: "fit-prompt-paged.de", lang: "de", rows: 16, args: LONG_PROMPT, keys: [K.pageDown, K.pageDown] },
  { name: "fit-prompt-paged.zh", lang: "zh", rows: 16, args: LONG_PROMPT, keys: [K.pageDown, K.pageDown] },
  {
    name: "fit-entry.de",
    lang: "de",
    rows: 12,
    args: DB,
    keys: ["0", K.paste(Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n"))],
  },
  {
    name: "fit-entry.zh",
    lang: "zh",
    rows: 12,
    args: DB,
    keys: ["0", K.paste(Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n"))],
  },
  {
    name: "fit-review.de",
    lang: "de",
    rows: 10,
    args: THREE,
    keys: ["2", ..."billing", K.enter, K.ctrl("n"), ..."soon", K.enter, "1", "3", K.enter],
  },
  {
    name: "fit-review.zh",
    lang: "zh",
    rows: 10,
    args: THREE,
    keys: ["2", ..."billing", K.enter, K.ctrl("n"), ..."soon", K.enter, "1", "3", K.enter],
  },
  { name: "fit-discuss.de", lang: "de", rows: 12, args: LONG_PROMPT, keys: [K.ctrl("t"), ..."hold on"] },
  { name: "fit-discuss.zh", lang: "zh", rows: 12, args: LONG_PROMPT, keys: [K.ctrl("t"), ..."hold on"] },
  { name: "discuss-review.de", lang: "de", args: THREE, keys: ["1", K.tab, K.tab, K.ctrl("t"), ..."what is this for?"] },
  { name: "discuss-review.zh", lang: "zh", args: THREE, keys: ["1", K.tab, K.tab, K.ctrl("t"), ..."what is this for?"] },
  { name: "filter-no-match.de", lang: "de", args: LONG_LIST, keys: ["/", ..."Deno", K.enter] },
  { name: "filter-no-match.zh", lang: "zh", args: LONG_LIST, keys: ["/", ..."Deno", K.enter] },
  { name: "preview", args: PREVIEW, keys: [] },
  // a preview taller than its share of the rows: "↓ N more lines", Shift+↓ reads on
  { name: "fit-preview", rows: 16, args: TALL_PREVIEW, keys: [] },
  { name: "fit-preview.de", lang: "de", rows: 16, args: TALL_PREVIEW, keys: [] },
  { name: "fit-preview.zh", lang: "zh", rows: 16, args: TALL_PREVIEW, keys: [] },
  { name: "fit-preview-read", rows: 16, args: TALL_PREVIEW, keys: ["\x1b[1;2B", "\x1b[1;2B"] },
  { name: "fit-preview-read.de", lang: "de", rows: 16, args: TALL_PREVIEW, keys: ["\x1b[1;2B", "\x1b[1;2B"] },
  { name: "fit-preview-read.zh", lang: "zh", rows: 16, args: TALL_PREVIEW, keys: ["\x1b[1;2B", "\x1b[1;2B"] },
  { name: "preview-tall", args: TALL_PREVIEW, keys: ["\x1b[1;2B"] },
  // who asks a relayed question, when the rows are few: kept on one line
  { name: "fit-asker", rows: 10, asker: ASKER, args: THREE, keys: [] },
  { name: "fit-asker.de", lang: "de", rows: 10, asker: ASKER, args: THREE, keys: [] },
  { name: "fit-asker.zh", lang: "zh", rows: 10, asker: ASKER, args: THREE, keys: [] },
  { name: "notes", args: DB, keys: [K.ctrl("n"), ..."keep the old backups"] },
  { name: "notes.de", lang: "de", args: DB, keys: [K.ctrl("n"), ..."alte Sicherungen behalten"] },
  { name: "notes.zh", lang: "zh", args: DB, keys: [K.ctrl("n"), ..."保留旧的备份"] },
  { name: "discard", args: THREE, keys: ["1", K.esc] },
  { name: "decline-typed", args: DB, keys: ["0", ..."Cockroach", K.esc, K.ctrl("d")] },
  { name: "long-answer", args: DB, keys: ["0", K.paste("z".repeat(2100)), K.enter] },
  { name: "long-text", args: LONG_TEXT, keys: [K.down, K.down] },
  { name: "hostile", args: HOSTILE, keys: [K.down] },
];

test("golden screens at 40, 80 and 120 columns", () => {
  if (UPDATE) mkdirSync(SCREENS, { recursive: true });
  const stale = [];
  for (const c of CASES) {
    const e = engine(c.args);
    if (c.lang) e.setLanguage(c.lang);
    if (c.asker) e.setAsker(...c.asker);
    for (const k of c.keys) {
      if (c.rows) e.render(80, c.rows); // as a host does: the person sees a frame before each key
      e.feed(k);
    }
    for (const w of [40, 80, 120]) {
      const file = new URL(`${c.name}.${w}.txt`, SCREENS);
      const got = (c.rows ? e.render(w, c.rows) : e.render(w)).join("\n") + "\n";
      if (UPDATE) {
        writeFileSync(file, got);
        continue;
      }
      if (!existsSync(file)) {
        stale.push(`${c.name}.${w}.txt is missing (run with UPDATE_GOLDEN=1)`);
        continue;
      }
      const want = readFileSync(file, "utf8");
      if (got !== want) stale.push(`${c.name}.${w}.txt differs:\n--- want\n${want}--- got\n${got}`);
    }
  }
  assert.equal(stale.length, 0, stale.join("\n"));
});

// ---- the width invariant ------------------------------------------------------------------------------
test("width: no line is wider than asked, at every width from 1 to 200, in every golden state", () => {
  for (const c of CASES) {
    const e = engine(c.args);
    if (c.lang) e.setLanguage(c.lang);
    if (c.asker) e.setAsker(...c.asker);
    assertFits(e, `${c.name} (start)`);
    for (const [i, k] of c.keys.entries()) {
      e.feed(k);
      if (i % 3 === 2 || i === c.keys.length - 1) assertFits(e, `${c.name} after key ${i}`);
    }
  }
});

test("width: no line is wider than asked while navigating, typing wide text and previewing", () => {
  const e = engine(LONG_TEXT);
  e.setCursorMarker(PI_CURSOR);
  const steps = [
    [K.down],
    [K.down],
    ["0"],
    [..."宽字符和表情 👩‍👩‍👧‍👦 and a long run of words that wraps around"],
    [K.home],
    [K.shiftEnter, ..."\tsecond"],
    [K.esc, K.ctrl("n"), ..."备注 note"],
    [K.enter, K.tab],
    [..."someone"],
    [K.enter],
    [K.enter],
  ];
  for (const keys of steps) {
    press(e, keys);
    assertFits(e, `long-text after ${JSON.stringify(keys).slice(0, 40)}`);
  }
  const p = engine(PREVIEW);
  for (const keys of [[], [K.down], [K.down], [K.down], ["/", "c"], [K.enter]]) {
    press(p, keys);
    assertFits(p, `preview after ${JSON.stringify(keys)}`);
  }
});

test("width: 50 questions with long labels keep the tab bar inside the width", () => {
  const args = {
    questions: Array.from({ length: 50 }, (_, i) => ({
      id: `q${i}`,
      label: `Question label ${i + 1} 问题`,
      prompt: `Prompt ${i + 1}`,
      options: [{ label: "Yes" }, { label: "No" }],
    })),
  };
  const e = engine(args);
  for (let i = 0; i < 52; i++) {
    if (i % 5 === 0) assertFits(e, `50 questions at tab ${i}`, 1, 120);
    press(e, i % 2 ? K.tab : "1");
  }
  assertFits(e, "50 questions, review", 1, 120);
});

// ---- many options: rendering follows the window, not the list ---------------------------------------
test("scale: 1000 options render only the window and stay fast", () => {
  const args = {
    questions: Array.from({ length: 10 }, (_, q) => ({
      id: `q${q}`,
      prompt: `Pick one of many (${q})`,
      options: Array.from({ length: 1000 }, (_, i) => `o${i + 1}`),
    })),
  };
  const e = engine(args);
  const lines = e.render(100);
  assert.ok(lines.length < 40, `${lines.length} lines`);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < 2000; i++) {
    e.feed(i % 50 === 49 ? K.tab : K.down);
    e.render(100);
  }
  const perKey = Number(process.hrtime.bigint() - t0) / 2000 / 1000;
  assert.ok(perKey < 500, `${perKey.toFixed(1)} µs per key and frame`);
});

// The help line is laid out once for each text and width and then drawn again from what was
// kept (laying it out was half of a keystroke's rendering). Whatever changes it must show at once:
// a style, a language, a key binding, a width, the state the keys belong to.
test("help line: what it was kept for changes, and the next frame shows the change", () => {
  const json = JSON.stringify({ questions: [{ id: "db", prompt: "Which database?", options: ["Postgres", "SQLite"] }] });
  // the help line: from the first line with "•" to the closing rule
  const help = (frame) => {
    const from = frame.findIndex((l) => l.includes("•"));
    return from < 0 ? "" : frame.slice(from, -1).join("\n");
  };
  const fresh = (setup, width = 80) => {
    const f = addon.createEngine(json);
    setup(f);
    const lines = f.render(width);
    f.dispose();
    return help(lines);
  };
  const e = addon.createEngine(json);
  const first = help(e.render(80));
  assert.ok(first, "a help line is drawn");
  assert.equal(help(e.render(80)), first);
  e.setStyle("dim", "\x1b[2m", "\x1b[22m");
  assert.match(help(e.render(80)), /\x1b\[2m/, "the new style");
  assert.equal(
    help(e.render(80)),
    fresh((f) => f.setStyle("dim", "\x1b[2m", "\x1b[22m")),
  );
  e.setLanguage("de");
  assert.equal(
    help(e.render(80)),
    fresh((f) => {
      f.setStyle("dim", "\x1b[2m", "\x1b[22m");
      f.setLanguage("de");
    }),
  );
  assert.notEqual(help(e.render(80)), first);
  e.setLanguage("en");
  e.setStyle("dim", "", "");
  assert.equal(help(e.render(80)), first, "back as it was");
  assert.equal(e.bind("confirm", ["ctrl+s"]), 0);
  assert.match(help(e.render(80)), /Ctrl\+S/, "the new key");
  assert.equal(
    help(e.render(30)),
    fresh((f) => f.bind("confirm", ["ctrl+s"]), 30),
    "another width",
  );
  e.feed(K.up);
  e.feed(K.enter); // typing into "Something else…": other keys, another help line
  assert.equal(
    help(e.render(30)),
    fresh((f) => {
      f.bind("confirm", ["ctrl+s"]);
      f.feed(K.up);
      f.feed(K.enter);
    }, 30),
  );
  e.dispose();
});

test('steps: a toggle may say the state wanted — "ticked" twice stays ticked (two faces agree), "unticked" unticks, anything else is refused; none flips', () => {
  const e = engine({ questions: [{ id: "f", prompt: "Which?", multiSelect: true, options: ["A", "B"] }] });
  const ticks = () => JSON.parse(e.view()).questions[0].options.map((o) => o.ticked);
  assert.deepEqual(e.act("toggle", 0, "ticked"), { ok: true });
  const revision = e.revision;
  assert.deepEqual(e.act("toggle", 0, "ticked"), { ok: true });
  assert.deepEqual(ticks(), [true, false], "the second “ticked” changes nothing");
  assert.equal(e.revision, revision, "not even the revision");
  assert.deepEqual(e.act("toggle", 0, "unticked"), { ok: true });
  assert.deepEqual(ticks(), [false, false]);
  const refused = e.act("toggle", 1, "on");
  assert.equal(refused.ok, false);
  assert.match(refused.error, /"ticked", "unticked" or none/);
  assert.deepEqual(ticks(), [false, false], "a refused step changes nothing");
  assert.deepEqual(e.act("toggle", 1), { ok: true });
  assert.deepEqual(e.act("toggle", 1), { ok: true });
  assert.deepEqual(ticks(), [false, false], "without a state, a flip each time");
  e.dispose();
});
