// render-changes.test.mjs — the engine's one-call key path for pi's TUI (native/node/engine_class.c
// press, renderChanges): what press(key) says the key did, as bits, and renderChanges handing
// out only the lines that changed since its last frame, which put back together are exactly
// render()'s frame; and that a script's setter on Array.prototype cannot reach the engine
// while renderChanges fills its array; press reading a key exactly as feed does.
import assert from "node:assert/strict";
import test from "node:test";
import { addon } from "./helpers/addon.mjs";

const K = { up: "\x1b[A", down: "\x1b[B", enter: "\r", ctrlG: "\x07", altA: "\x1ba" };
const ONE = JSON.stringify({
  questions: [{ id: "db", question: "Which database?", options: ["Postgres", "SQLite", "MySQL"] }],
});
const TWO = JSON.stringify({
  questions: [
    { id: "db", question: "Which database?", options: ["Postgres", "SQLite"] },
    { id: "why", question: "Why?", options: ["Speed", "Cost"] },
  ],
});
const PRESS = { done: 1, changed: 2, aside: 4, editor: 8 };

/** The frame put together from renderChanges' lines and the last frame, as the TUI view does. */
function merge(before, changes) {
  return Array.from({ length: changes.length }, (_, i) => (i in changes ? changes[i] : before[i]));
}

test("renderChanges: every line when fresh, nothing when nothing changed, then only the lines that differ — put together, render()'s frame", () => {
  const e = addon.createEngine(TWO);
  const first = e.renderChanges(80, 0, true);
  assert.deepEqual([...first], e.render(80, 0), "fresh: every line");
  assert.equal(Object.keys(first).length, first.length, "no holes in a fresh frame");
  assert.equal(e.renderChanges(80, 0, false), undefined, "nothing changed: undefined");
  let shown = [...first];
  for (const [what, key, width] of [
    ["down", K.down, 80],
    ["up", K.up, 80],
    ["a narrower screen", null, 50],
    ["down at 50", K.down, 50],
    ["the next question", K.enter, 50],
    ["rows limited", null, 50],
  ]) {
    if (key) assert.equal(e.press(key) & PRESS.changed, PRESS.changed, `${what}: the state changed`);
    const rows = what === "rows limited" ? 6 : 0;
    const changes = e.renderChanges(width, rows, false);
    assert.ok(Array.isArray(changes), `${what}: a frame`);
    const frame = e.render(width, rows);
    const merged = merge(shown, changes);
    assert.deepEqual(merged, frame, `${what}: put together, the frame`);
    for (let i = 0; i < changes.length; i++) {
      if (i in changes) assert.ok(i >= shown.length || shown[i] !== changes[i], `${what}: line ${i} handed out unchanged`);
      else assert.equal(shown[i], frame[i], `${what}: line ${i} left out but changed`);
    }
    assert.ok(Object.keys(changes).length < changes.length || what !== "down", `${what}: not every line crossed`);
    shown = merged;
    assert.equal(e.renderChanges(width, rows, false), undefined, `${what}: asked again, nothing changed`);
  }
  const again = e.renderChanges(50, 6, true);
  assert.deepEqual([...again], e.render(50, 6), "fresh again: every line, though nothing changed");
});

test("press: what the key did, as bits — moved, ended, an editor asked for, a step aside taken once", () => {
  const e = addon.createEngine(ONE);
  e.render(80);
  assert.equal(e.press(K.down), PRESS.changed);
  assert.equal(e.press("\x1b[24~"), 0, "an unbound key (F12) changes nothing");
  assert.equal(e.press(K.up) & PRESS.done, 0);

  const a = addon.createEngine(ONE);
  assert.equal(a.bind("aside", ["alt+a"]), 0);
  assert.equal(a.press(K.altA) & PRESS.aside, PRESS.aside, "the aside key: asked");
  assert.equal(a.takeAside(), false, "press took it");

  const g = addon.createEngine(ONE);
  g.press(K.up); // onto "Something else…"
  for (const ch of "0draft") g.press(ch);
  assert.equal(g.press("x") & PRESS.editor, 0, "typing asks for no editor");
  const bits = g.press(K.ctrlG);
  assert.equal(bits & PRESS.editor, PRESS.editor, "Ctrl+G while typing: the editor is asked for");
  assert.equal(g.editorRequest(), "draftx", "its text is there to read");

  const d = addon.createEngine(ONE);
  assert.equal(d.press(K.enter) & PRESS.done, PRESS.done, "Enter on the first option ends it");
  assert.equal(d.done, true);
});

test("press reads what feed reads: strings about its short buffer's size in 1- to 4-byte characters, a lone surrogate, NUL, a Buffer; and refuses what feed refuses", () => {
  const typedBy = (input, how) => {
    const e = addon.createEngine(ONE);
    e.press(K.up); // onto "Something else…"
    e[how](input);
    const out = { typed: e.typed(), frame: e.render(300) };
    e.dispose();
    return out;
  };
  const inputs = [];
  for (const ch of ["a", "é", "€", "😀"])
    for (let bytes = 240; bytes <= 262; bytes++) {
      const n = Buffer.byteLength(ch);
      inputs.push("x".repeat(bytes % n) + ch.repeat(Math.floor(bytes / n)));
    }
  inputs.push("y".repeat(250) + "\ud83d", "\ud83d" + "z".repeat(252), "a\0b".repeat(84), "q".repeat(5000));
  for (const input of inputs) {
    const what = `${Buffer.byteLength(input)} bytes of ${JSON.stringify(input.slice(-2))}`;
    assert.deepEqual(typedBy(input, "press"), typedBy(input, "feed"), what);
  }
  const bytes = Buffer.from("raw \xff bytes");
  assert.deepEqual(typedBy(bytes, "press"), typedBy(bytes, "feed"), "a Buffer's bytes as they are");
  const e = addon.createEngine(ONE);
  for (const bad of [42, null, undefined, {}]) {
    assert.throws(() => e.press(bad), { code: "QT_ETYPE" }, `press(${String(bad)})`);
    assert.throws(() => e.feed(bad), { code: "QT_ETYPE" }, `feed(${String(bad)})`);
  }
  assert.equal(e.press(K.down), PRESS.changed, "the engine goes on after a refused input");
});

test("renderChanges: a setter a script put on Array.prototype cannot dispose of the engine while its array is filled", () => {
  const e = addon.createEngine(ONE);
  e.renderChanges(80, 0, true);
  e.press(K.down);
  // Nothing between defining and deleting the setters may fill an array (the setters would run).
  let ran = 0;
  let thrown;
  for (let i = 0; i < 12; i++) {
    Object.defineProperty(Array.prototype, i, {
      configurable: true,
      set() {
        ran++;
        e.dispose();
      },
    });
  }
  try {
    e.renderChanges(80, 0, false);
  } catch (err) {
    thrown = err;
  } finally {
    for (let i = 0; i < 12; i++) delete Array.prototype[i];
  }
  assert.ok(ran > 0, "the setter ran");
  assert.equal(thrown?.code, "QT_ESTATE", `the engine refused: ${thrown}`);
  const after = e.renderChanges(80, 0, true);
  assert.deepEqual([...after], e.render(80, 0), "the engine is whole; fresh, every line again");
  e.dispose();
});

test("renderChanges: render() and renderAside() at other sizes in between change nothing it compares with", () => {
  const e = addon.createEngine(TWO);
  let shown = [...e.renderChanges(80, 0, true)];
  e.render(40, 5);
  e.renderAside(120);
  assert.equal(e.renderChanges(80, 0, false), undefined, "still the frame it handed out");
  e.press(K.down);
  e.render(30);
  const changes = e.renderChanges(80, 0, false);
  shown = merge(shown, changes);
  assert.deepEqual(shown, e.render(80, 0));
});

test("renderChanges: a frame taller than what it keeps on the stack (128 lines) is handed out as one of a few lines is", () => {
  const long = JSON.stringify({
    questions: [{ id: "db", question: Array.from({ length: 300 }, (_, i) => `L${i}`).join("\n"), options: ["A", "B"] }],
  });
  const e = addon.createEngine(long);
  const first = e.renderChanges(60, 0, true);
  assert.ok(first.length > 300, `a tall frame (${first.length} lines)`);
  assert.deepEqual([...first], e.render(60, 0));
  e.press(K.down);
  const changes = e.renderChanges(60, 0, false);
  assert.deepEqual(merge(first, changes), e.render(60, 0), "after a key: put together, the frame");
  assert.ok(Object.keys(changes).length < 10, "only the lines that changed");
  e.dispose();
});
