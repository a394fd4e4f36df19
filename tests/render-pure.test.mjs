// render-pure.test.mjs — drawing a frame writes nothing into the question's state: a frame is a
// function of the state, the width and the rows. What a key needs from the last frame (where a
// cut prompt, list, preview or review window was shown, and how many lines) comes back from the
// renderer beside the frame and is kept by the engine (qt_layout); the renderers get the engine
// as `const`. Checked two ways:
//   - a frame drawn at another width (or height) in between changes neither the next frame at
//     the first width nor what the next key does;
//   - the renderers' sources hold no cast that drops the const of the engine's state.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";
import { LONG_LIST, LONG_PROMPT, TALL_PREVIEW } from "./helpers/question-sets.mjs";
import { addon, root } from "./helpers/addon.mjs";

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
  test(`render is pure: ${c.name} — a frame at ${c.b[0]}×${c.b[1]} in between changes neither the frame at ${c.a}×${c.rows} nor the next keys`, () => {
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
  });
}

test("render is pure: the cases reach windows that are cut (the frames change as the keys move them)", () => {
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
const STATE_TYPES = ["qt_engine", "qt_qstate", "qt_editor", "qt_editor_wrap", "qt_answer", "qt_opt_text", "qt_request", "qt_question"];
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

test("render is pure: the renderers' sources hold no cast that drops const from the engine's state", () => {
  for (const file of ["native/core/render.c", "native/core/render_plain.c", "native/core/lines.c"]) {
    const source = readFileSync(new URL(file, `file://${root}/`), "utf8");
    assert.deepEqual(constDroppingCasts(source), [], `${file} casts the const of the state away`);
  }
  // the check finds what it looks for
  assert.equal(constDroppingCasts("  qt_qstate *s = (qt_qstate *)cs;").length, 1);
  assert.equal(constDroppingCasts("  qt_editor *ed = (qt_editor *) ced;").length, 1);
  assert.equal(constDroppingCasts("  /* (qt_engine *) in a comment */").length, 0);
  assert.equal(constDroppingCasts("  const qt_engine *e = (const qt_engine *)p;").length, 0);
});

test("render is pure: the renderers take the engine as const", () => {
  const header = readFileSync(new URL("native/core/engine_internal.h", `file://${root}/`), "utf8");
  for (const fn of ["qt_render_frame", "qt_render_plain_frame"]) {
    const m = new RegExp(`qt_status ${fn}\\(([^)]*)\\)`).exec(header);
    assert.ok(m, `${fn} is declared in engine_internal.h`);
    assert.match(m[1], /^const qt_engine \*e\b/, `${fn} takes the engine as const`);
  }
});
