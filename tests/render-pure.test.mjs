// render-pure.test.mjs — drawing a frame writes nothing into the question's state: a frame is a
// function of the state, the width and the rows. What a key needs from the last frame (where a
// cut prompt, list, preview or review window was shown, and how many lines) comes back from the
// renderer beside the frame and is kept by the engine (qt_layout); the renderers get the engine
// as `const`. Checked two ways:
//   - a frame drawn at another width (or height) in between changes neither the next frame at
//     the first width nor what the next key does;
//   - the renderers' sources hold no cast that drops the const of the engine's state.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import test from "node:test";
import { LONG_LIST, LONG_PROMPT, TALL_PREVIEW } from "./helpers/question-sets.mjs";
import { addon, root } from "./helpers/addon.mjs";

// Each test has a bound of its own: the whole file runs in well under a second here, so a test that
// runs 30 s is stuck, and it is reported by name rather than by the run's own time limit.
const BOUND = { timeout: 30_000 };

const K = {
  up: "\x1b[A",
  down: "\x1b[B",
  pageUp: "\x1b[5~",
  pageDown: "\x1b[6~",
  shiftUp: "\x1b[1;2A",
  shiftDown: "\x1b[1;2B",
  shiftTab: "\x1b[Z",
};

const MANY_QUESTIONS = {
  questions: Array.from({ length: 14 }, (_, i) => ({
    id: `q${i + 1}`,
    label: `Question number ${i + 1} about the migration plan`,
    prompt: `Question ${i + 1}?`,
    options: ["Yes", "No"],
  })),
};

// Each: the session's keys (a frame at width a before each, as a host draws one before every
// key), the other size drawn in between, and keys pressed after.
const CASES = [
  {
    name: "a list cut to the rows (de)",
    args: LONG_LIST,
    lang: "de",
    rows: 12,
    a: 80,
    b: [40, 12],
    keys: [K.up, K.up],
    after: [K.up, K.up, K.down],
  },
  {
    name: "a list cut to the rows (zh)",
    args: LONG_LIST,
    lang: "zh",
    rows: 12,
    a: 120,
    b: [40, 12],
    keys: [K.up, K.up],
    after: [K.up, K.down, K.down],
  },
  {
    name: "a prompt read with PageDown",
    args: LONG_PROMPT,
    rows: 16,
    a: 80,
    b: [30, 16],
    keys: [K.pageDown, K.pageDown],
    after: [K.pageDown, K.pageUp, K.pageDown],
  },
  {
    name: "a prompt read to its end, then drawn taller",
    args: LONG_PROMPT,
    rows: 14,
    a: 60,
    b: [60, 80],
    keys: [K.pageDown, K.pageDown, K.pageDown, K.pageDown, K.pageDown, K.pageDown, K.pageDown],
    after: [K.pageUp, K.pageUp],
  },
  {
    name: "a preview read with Shift+Down, drawn beside in between",
    args: TALL_PREVIEW,
    rows: 16,
    a: 80,
    b: [120, 16],
    keys: [K.shiftDown, K.shiftDown],
    after: [K.shiftDown, K.shiftUp, K.down, K.up, K.shiftDown],
  },
  {
    name: "the review scrolled",
    args: MANY_QUESTIONS,
    rows: 10,
    a: 50,
    b: [24, 10],
    keys: [K.shiftTab, K.pageDown],
    after: [K.pageDown, K.pageUp],
  },
  {
    name: "accessible: a prompt read with PageDown",
    args: LONG_PROMPT,
    accessible: true,
    rows: 8,
    a: 40,
    b: [90, 8],
    keys: [K.pageDown],
    after: [K.pageDown, K.pageUp],
  },
];

function session(c) {
  const e = addon.createEngine(JSON.stringify(c.args));
  if (c.lang) e.setLanguage(c.lang);
  if (c.accessible) e.setAccessible(true);
  for (const k of c.keys) {
    e.render(c.a, c.rows);
    e.feed(k);
  }
  return e;
}

for (const c of CASES) {
  test(
    `render is pure: ${c.name} — a frame at ${c.b[0]}×${c.b[1]} in between changes neither the frame at ${c.a}×${c.rows} nor the next keys`,
    BOUND,
    () => {
      const only = session(c);
      const mixed = session(c);
      const want = only.render(c.a, c.rows);
      assert.deepEqual(mixed.render(c.a, c.rows), want);
      const between = mixed.render(c.b[0], c.b[1]);
      assert.ok(between.length > 0);
      assert.deepEqual(mixed.render(c.a, c.rows), want, "the frame drawn after another size differs");
      for (const k of c.after) {
        only.feed(k);
        mixed.feed(k);
        const got = mixed.render(c.a, c.rows);
        assert.deepEqual(got, only.render(c.a, c.rows), `after ${JSON.stringify(k)} the key did something else`);
        mixed.render(c.b[0], c.b[1]); // and again a frame at the other size before the next key
        assert.deepEqual(mixed.render(c.a, c.rows), got);
      }
    },
  );
}

// ---- the keys act on the host's screen ------------------------------------------------------
// `render(width, rows)` draws the frame the host shows: it names the screen's size, and the keys
// that depend on what a frame showed (PageUp/PageDown, Shift+↑/Shift+↓, a list cut to the rows)
// act on the frame at that size. `renderAside(width, rows)` draws a frame at any other size and
// changes nothing, even when it is the last frame drawn before the key (the host need not draw
// again first).
for (const c of CASES) {
  test(
    `render is pure: ${c.name} — a frame drawn aside at ${c.b[0]}×${c.b[1]} just before each key changes nothing the key does`,
    BOUND,
    () => {
      const only = session(c);
      const mixed = session(c);
      for (const k of c.after) {
        const shown = only.render(c.a, c.rows);
        assert.deepEqual(mixed.render(c.a, c.rows), shown);
        const aside = mixed.renderAside(c.b[0], c.b[1]);
        assert.ok(aside.length > 0);
        only.feed(k);
        mixed.feed(k);
        assert.deepEqual(mixed.render(c.a, c.rows), only.render(c.a, c.rows), `after ${JSON.stringify(k)} the key did something else`);
      }
      // and the frames drawn aside were of the same state
      assert.deepEqual(mixed.renderAside(c.b[0], c.b[1]), only.renderAside(c.b[0], c.b[1]));
    },
  );
  test(
    `render is pure: ${c.name} — after the host resizes to ${c.b[0]}×${c.b[1]}, the keys act on the frame at the new size`,
    BOUND,
    () => {
      // from the top (nothing scrolled yet), a host that drew at a and then resized acts like one
      // that only ever drew at b
      const resized = fresh(c, []);
      const atB = fresh(c, []);
      resized.render(c.a, c.rows);
      for (const k of [...c.keys, ...c.after]) {
        resized.render(c.b[0], c.b[1]);
        atB.render(c.b[0], c.b[1]);
        resized.feed(k);
        atB.feed(k);
        assert.deepEqual(resized.render(c.b[0], c.b[1]), atB.render(c.b[0], c.b[1]), `after ${JSON.stringify(k)} at the new size`);
      }
      // and a frame drawn aside at the old size changes nothing there either
      for (const k of c.after) {
        resized.render(c.b[0], c.b[1]);
        atB.render(c.b[0], c.b[1]);
        resized.renderAside(c.a, c.rows);
        resized.feed(k);
        atB.feed(k);
        assert.deepEqual(resized.render(c.b[0], c.b[1]), atB.render(c.b[0], c.b[1]));
      }
    },
  );
}

/** An engine for case c given `keys`, each after a frame drawn aside at a (nothing on screen). */
function fresh(c, keys) {
  const e = addon.createEngine(JSON.stringify(c.args));
  if (c.lang) e.setLanguage(c.lang);
  if (c.accessible) e.setAccessible(true);
  for (const k of keys) e.feed(k);
  return e;
}

test(
  "render is pure: a frame drawn aside before the key changes how far PageDown reads (the issue's case, at 80×16 and 30×16)",
  BOUND,
  () => {
    const PD = K.pageDown;
    const host = addon.createEngine(JSON.stringify(LONG_PROMPT));
    const mixed = addon.createEngine(JSON.stringify(LONG_PROMPT));
    host.render(80, 16);
    mixed.render(80, 16);
    mixed.renderAside(30, 16);
    host.feed(PD);
    mixed.feed(PD);
    const want = host.render(80, 16);
    assert.deepEqual(mixed.render(80, 16), want);
    assert.ok(!want.join("\n").includes("FIRST-LINE"), "PageDown read on");
  },
);

test("render is pure: the cases reach windows that are cut (the frames change as the keys move them)", BOUND, () => {
  for (const c of CASES) {
    const e = session(c);
    const before = e.render(c.a, c.rows).join("\n");
    let moved = false;
    for (const k of c.after) {
      e.feed(k);
      if (e.render(c.a, c.rows).join("\n") !== before) moved = true;
    }
    assert.ok(moved, `${c.name}: no key after the session changed the frame`);
  }
});

// The rule, in the sources: no cast may drop the const of the engine or of anything in it
// (`(qt_engine *)`, `(qt_qstate *)`, `(qt_editor *)` …); the renderers take `const qt_engine *`.
const STATE_TYPES = ["qt_engine", "qt_qstate", "qt_editor", "qt_answer", "qt_opt_text", "qt_request", "qt_question"];
const CAST = new RegExp(`\\(\\s*(?:struct\\s+)?(${STATE_TYPES.join("|")})\\s*\\*\\s*\\)`);

/** The lines of a C source that cast to a non-const pointer to one of the state's types. */
function constDroppingCasts(source) {
  const found = [];
  const text = source.replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, " ")); // comments do not count
  text.split("\n").forEach((line, i) => {
    const m = CAST.exec(line);
    if (m) found.push(`${i + 1}: ${line.trim()}`);
  });
  return found;
}

test("render is pure: the renderers' sources hold no cast that drops const from the engine's state", BOUND, () => {
  const renderers = readdirSync(new URL("native/core/render/", `file://${root}/`)).filter((f) => /^render.*\.[ch]$/.test(f));
  assert.ok(renderers.length >= 6, `the renderers' files: ${renderers}`);
  for (const file of [...renderers.map((f) => `native/core/render/${f}`), "native/core/text/lines.c"]) {
    const source = readFileSync(new URL(file, `file://${root}/`), "utf8");
    assert.deepEqual(constDroppingCasts(source), [], `${file} casts the const of the state away`);
  }
  // the check finds what it looks for
  assert.equal(constDroppingCasts("  qt_qstate *s = (qt_qstate *)cs;").length, 1);
  assert.equal(constDroppingCasts("  qt_editor *ed = (qt_editor *) ced;").length, 1);
  assert.equal(constDroppingCasts("  /* (qt_engine *) in a comment */").length, 0);
  assert.equal(constDroppingCasts("  const qt_engine *e = (const qt_engine *)p;").length, 0);
});

test("render is pure: the renderers take the engine as const", BOUND, () => {
  const header = readFileSync(new URL("native/core/render/render_internal.h", `file://${root}/`), "utf8");
  for (const fn of ["qt_render_frame", "qt_render_plain_frame"]) {
    const m = new RegExp(`qt_status ${fn}\\(([^)]*)\\)`).exec(header);
    assert.ok(m, `${fn} is declared in render_internal.h`);
    assert.match(m[1], /^const qt_engine \*e\b/, `${fn} takes the engine as const`);
  }
});

// ---- editors: where their text wraps is the renderer's own memory ------------------------------
// A frame lays out an editor's text from a copy it keeps of the text it laid out last (the editor
// holds only its text and cursor). Typing with frames at two sizes in between draws, at every
// step, what an engine given the same keys and never drawn before draws.
const PASTE = (s) => `\x1b[200~${s}\x1b[201~`;
const E = {
  home: "\x1b[H",
  end: "\x1b[F",
  left: "\x1b[D",
  right: "\x1b[C",
  backspace: "\x7f",
  del: "\x1b[3~",
  altB: "\x1bb",
  altD: "\x1bd",
  ctrlW: "\x17",
  ctrlK: "\x0b",
  ctrlU: "\x15",
};
const PROSE = "the quick brown fox jumps over the lazy dog and keeps on running ";
const EDITS = [
  PASTE(PROSE.repeat(5)),
  E.home,
  "ж",
  PASTE("e\u0301e\u0301 中文字 "),
  E.altB,
  E.altB,
  PASTE("x".repeat(70)),
  E.end,
  E.backspace,
  E.ctrlW,
  PASTE(`\n${"\u{1F468}\u200D\u{1F469} ".repeat(12)}\n`),
  E.left,
  E.left,
  E.del,
  E.altD,
  E.home,
  E.right,
  E.ctrlK,
  PASTE(PROSE.repeat(3)),
  E.home,
  E.ctrlU,
  "q",
];
const SHORT = { questions: [{ id: "db", prompt: "Which database?", options: ["SQLite", "Postgres"] }] };
const EDITOR_CASES = [
  { name: "a typed answer", args: SHORT, open: [K.up, "\r"] },
  { name: "a note", args: SHORT, open: ["\x0e"] },
  { name: "the filter", args: LONG_LIST, open: ["/"] },
  { name: "the discussion field", args: LONG_PROMPT, open: ["\x14"] },
];
const PI_CURSOR = "\x1b_pi:c\x07";

function editing(c, keys) {
  const e = addon.createEngine(JSON.stringify(c.args));
  e.setCursorMarker(PI_CURSOR);
  for (const k of [...c.open, ...keys]) e.feed(k);
  return e;
}

for (const c of EDITOR_CASES) {
  for (const [a, b] of [
    [
      [80, 0],
      [33, 0],
    ],
    [
      [47, 14],
      [120, 9],
    ],
  ]) {
    test(
      `render is pure: typing in ${c.name} with frames at ${a.join("×")} and ${b.join("×")} draws what an engine given the same keys draws`,
      BOUND,
      () => {
        const mixed = editing(c, []);
        let seen = new Set();
        EDITS.forEach((key, i) => {
          mixed.feed(key);
          const atA = mixed.render(...a).slice();
          const atB = mixed.render(...b).slice();
          const again = mixed.render(...a).slice();
          const fresh = editing(c, EDITS.slice(0, i + 1));
          const want = fresh.render(...a).slice();
          assert.deepEqual(atA, want, `step ${i} (${JSON.stringify(key)}): the frame at ${a.join("×")}`);
          assert.deepEqual(again, want, `step ${i}: the frame at ${a.join("×")} after one at ${b.join("×")}`);
          assert.deepEqual(atB, fresh.render(...b), `step ${i}: the frame at ${b.join("×")}`);
          assert.equal(atA.filter((l) => l.includes(PI_CURSOR)).length, 1, `step ${i}: the cursor is shown`);
          seen.add(want.join("\n"));
          fresh.dispose();
        });
        assert.ok(seen.size > EDITS.length / 2, "the keys change what the frames show");
        mixed.dispose();
      },
    );
  }
}

/** A C struct's body with its comments blanked, or null. */
function structBody(source, name) {
  const text = source.replace(/\/\*[\s\S]*?\*\//g, " ");
  const m = new RegExp(`typedef struct ${name} \\{([\\s\\S]*?)\\n\\} ${name};`).exec(text);
  return m ? m[1] : null;
}
/** Members of a struct body that point to the engine's state without const. */
function mutableStatePointers(body) {
  const found = [];
  for (const m of body.matchAll(new RegExp(`(^|[^\\w])(const\\s+)?(${STATE_TYPES.join("|")})\\s*\\*`, "g")))
    if (!m[2]) found.push(m[0].trim());
  return found;
}
/** The names of a struct's members. */
function memberNames(body) {
  return body
    .split(";")
    .map((d) => d.trim())
    .filter(Boolean)
    .flatMap((d) =>
      d
        .replace(/\[[^\]]*\]/g, "")
        .split(",")
        .map((n) => /(\w+)\s*$/.exec(n)?.[1]),
    );
}

test("render is pure: an editor holds its text and cursor only; the renderer's memory points to no state it could write", BOUND, () => {
  const read = (file) => readFileSync(new URL(file, `file://${root}/`), "utf8");
  const editor = structBody(read("native/core/engine/editor.h"), "qt_editor");
  assert.ok(editor, "qt_editor is declared in editor.h");
  assert.deepEqual(memberNames(editor).sort(), ["cursor", "limit", "masked", "memo", "multiline", "text"]);
  const internal = read("native/core/engine/engine_internal.h");
  for (const name of ["qt_draw", "qt_wrap_cache"]) {
    const body = structBody(internal, name);
    assert.ok(body, `${name} is declared in engine_internal.h`);
    assert.deepEqual(mutableStatePointers(body), [], `${name} points to the state without const`);
  }
  // the checks find what they look for
  assert.deepEqual(mutableStatePointers("  qt_editor *editors[4];\n  const qt_editor *editor;"), ["qt_editor *"]);
  assert.deepEqual(memberNames("  qt_buf text;\n  size_t a, b;\n  qt_editor_wrap wrap;"), ["text", "a", "b", "wrap"]);
});
