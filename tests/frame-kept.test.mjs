// frame-kept.test.mjs — a frame the question's component (extension/ask/interactive.ts,
// QuestionView) hands to pi is never changed afterwards. Since pi 1.6.0, render() returns a
// read-only array that pi keeps and reuses: pi-tui's Container compares a child's new frame with
// the one it kept (the same array, or equal lines) and reuses its own lines when they match, so a
// frame changed in place after it was returned would leave a stale question on screen. Each
// frame is kept with a copy; after keys, resizes, focus, theme and row changes, every kept frame
// must still equal its copy, and a frame whose content changed must be a new array. Runs on the
// pi line PI_LINE picks (its pi-tui's Container, its jiti), like the other shim tests.
import assert from "node:assert/strict";
import test from "node:test";
import { addon } from "./helpers/addon.mjs";
import { importPiTui } from "./helpers/pi-line.mjs";
import { importShim } from "./helpers/shim.mjs";
import { theme } from "./helpers/theme.mjs";

const { QuestionView } = await importShim("ask/interactive.ts");
const { Container, truncateToWidth, visibleWidth } = await importPiTui();

const K = { up: "\x1b[A", down: "\x1b[B", enter: "\r", esc: "\x1b", tab: "\t", space: " ", backspace: "\x7f", pageDown: "\x1b[6~" };
const ARGS = {
  questions: [
    {
      id: "db",
      label: "Database",
      prompt: `Which database should we use for the service? ${"It has to keep working when the network is slow. ".repeat(6)}`,
      options: ["PostgreSQL", "SQLite (Recommended)", "MongoDB", "Redis", "DuckDB"],
    },
    { id: "features", label: "Features", prompt: "Which features?", multiSelect: true, options: ["Auth", "Billing", "Search"] },
  ],
};

/** Every frame handed out, with a copy taken at once; check() says which one changed since. */
function keeper() {
  const kept = [];
  return {
    keep(frame, what) {
      assert.ok(Array.isArray(frame), `${what}: render() returned ${typeof frame}`);
      kept.push({ frame, copy: [...frame], what });
      return frame;
    },
    check(after) {
      for (const k of kept) {
        assert.deepEqual(k.frame, k.copy, `the frame handed out at "${k.what}" was changed afterwards (after "${after}")`);
      }
    },
    get count() {
      return kept.length;
    },
  };
}

/** A view on a real engine: `rows` is what the rows function returns (changeable). */
function makeView(args = ARGS) {
  const engine = addon.createEngine(JSON.stringify(args));
  const state = { rows: 0, outcome: undefined, renders: 0 };
  const view = new QuestionView(
    engine,
    theme,
    () => state.renders++,
    (outcome) => (state.outcome = outcome),
    () => state.rows,
  );
  return { engine, view, state };
}

const same = (a, b) => a.length === b.length && a.every((line, i) => line === b[i]);

test("frame kept: keys, resizes, focus, theme, rows and the end never change a frame already handed out; a changed frame is a new array", () => {
  const { engine, view, state } = makeView();
  const k = keeper();
  let width = 60;
  let last = k.keep(view.render(width), "first render");
  /** Renders, keeps the frame, checks every frame kept so far, and that new content is a new array. */
  const step = (what) => {
    const frame = k.keep(view.render(width), what);
    k.check(what);
    if (!same(frame, last)) assert.notEqual(frame, last, `"${what}" changed the frame's content but returned the same array`);
    for (const line of frame) assert.ok(visibleWidth(line) <= width, `"${what}": a line wider than ${width}: ${JSON.stringify(line)}`);
    last = frame;
    return frame;
  };
  step("the same render again");
  view.focused = true;
  step("focused (cursor marker)");
  for (const key of [K.down, K.down, K.up, K.pageDown, K.space]) {
    view.handleInput(key);
    step(`key ${JSON.stringify(key)}`);
  }
  for (const w of [30, 12, 100, 60, 60]) {
    width = w;
    step(`resized to ${w}`);
  }
  state.rows = 6;
  step("rows limited to 6");
  view.handleInput(K.down);
  step("key down with 6 rows");
  state.rows = 0;
  step("rows unlimited again");
  view.invalidate();
  step("invalidate (theme applied again)");
  view.focused = false;
  step("unfocused");
  view.focused = true;
  view.handleInput(K.enter);
  step("enter: the first question answered, the second shown");
  view.handleInput(K.down);
  view.handleInput(K.space);
  step("a feature picked");
  view.handleInput(K.tab);
  step("tab to the review");
  assert.equal(state.outcome, undefined, "the question is still open");
  // Submit: the view keeps showing its last frame, which pi may still keep and draw again.
  view.handleInput(K.enter);
  assert.equal(state.outcome, "answered", "the question ended answered");
  engine.dispose?.();
  step("after the end");
  width = 20;
  step("after the end, resized to 20");
  width = 60;
  step("after the end, resized back to 60");
  assert.ok(k.count >= 24, `frames kept: ${k.count}`);
});

test("frame kept: a line cut to the width (the view's own copy) never changes the engine's frame nor one handed out", () => {
  // A stand-in engine that, like the real one, hands out the same array while nothing changed and
  // a new one otherwise; one of its lines is wider than asked, so the view cuts it (a copy).
  const frames = new Map();
  let revision = 1;
  const wide = "x".repeat(200);
  const fake = {
    setWholeKeys() {},
    setStyle() {},
    copyStyles() {},
    setCursorMarker() {
      revision++;
    },
    press() {
      revision++;
      return 2; // changed
    },
    editorRequest: () => null,
    render(width) {
      const key = `${revision}/${width}`;
      if (!frames.has(key)) frames.set(key, { frame: [`rev ${revision}`, wide, "end"], copy: null });
      const f = frames.get(key);
      f.copy ??= [...f.frame];
      return f.frame;
    },
    // As the real one: only what changed since the frame it handed out last (holes elsewhere).
    shown: null,
    renderChanges(width, rows, fresh) {
      const key = `${revision}/${width}`;
      if (!fresh && this.shown?.key === key) return undefined;
      const frame = this.render(width);
      const changes = new Array(frame.length);
      frame.forEach((line, i) => {
        if (fresh || this.shown?.frame[i] !== line) changes[i] = line;
      });
      this.shown = { key, frame };
      return changes;
    },
  };
  const view = new QuestionView(
    fake,
    theme,
    () => {},
    () => {},
  );
  const k = keeper();
  let last = k.keep(view.render(40), "first");
  assert.equal(visibleWidth(last[1]), 40, "the wide line is cut to 40");
  for (const [what, act, width] of [
    ["again", () => {}, 40],
    ["a key", () => view.handleInput("a"), 40],
    ["resized", () => {}, 30],
    ["focused", () => (view.focused = true), 30],
    ["invalidate", () => view.invalidate(), 30],
    ["another key", () => view.handleInput("b"), 30],
  ]) {
    act();
    const frame = k.keep(view.render(width), what);
    k.check(what);
    if (!same(frame, last)) assert.notEqual(frame, last, `"${what}" changed the frame's content but returned the same array`);
    last = frame;
  }
  for (const [key, f] of frames) assert.deepEqual(f.frame, f.copy, `the engine's own frame ${key} was changed by the view`);
});

test("frame kept: a line that comes and goes wider than the width is cut in every frame handed out, and no frame changes after", () => {
  // While no line needs cutting, the view hands out its own frame; the key that brings a wide
  // line makes the frame handed out a copy from then on, and one that takes it away again goes
  // back. A stand-in engine whose line 1 is wide at odd revisions, short at even ones.
  let revision = 0;
  const wide = "w".repeat(90);
  const frameAt = (rev) => [`rev ${rev}`, rev % 2 ? wide : "short", "end"];
  let shown = null;
  const fake = {
    setWholeKeys() {},
    copyStyles() {},
    setCursorMarker() {},
    press() {
      revision++;
      return 2; // changed
    },
    editorRequest: () => null,
    renderChanges(width, rows, fresh) {
      // as the real one: nothing when nothing changed; else the lines unlike the last frame's
      // (at any width)
      if (!fresh && shown?.revision === revision && shown.width === width) return undefined;
      const frame = frameAt(revision);
      const changes = frame.map((line, i) => (fresh || shown?.frame[i] !== line ? line : undefined));
      shown = { revision, width, frame };
      return changes;
    },
  };
  const view = new QuestionView(
    fake,
    theme,
    () => {},
    () => {},
  );
  const k = keeper();
  for (let key = 0; key < 7; key++) {
    if (key) view.handleInput("a");
    const frame = k.keep(view.render(40), `revision ${revision}`);
    k.check(`revision ${revision}`);
    const expected = frameAt(revision).map((line) => (visibleWidth(line) > 40 ? truncateToWidth(line, 40, "") : line));
    assert.deepEqual(frame, expected, `revision ${revision}: the lines, the wide one cut to 40`);
    // the view's own frame is handed out exactly while nothing is cut (its one copy a key)
    assert.equal(frame === view.lastFrame, revision % 2 === 0, `revision ${revision}: handed out its own frame`);
  }
  // What was cut was only the copy handed out: at a width it fits, the wide line is whole.
  view.handleInput("a");
  k.keep(view.render(40), `revision ${revision} at 40`);
  assert.deepEqual(k.keep(view.render(100), `revision ${revision} at 100`), frameAt(revision), "the wide line whole at 100");
  k.check("resized to 100");
});

test("frame kept: in the line's pi-tui Container, the screen follows every change (a frame changed in place would look unchanged)", () => {
  const { view, state } = makeView();
  const box = new Container();
  box.addChild(view);
  view.focused = true;
  let shown = [...box.render(60)];
  const k = keeper();
  k.keep(box.render(60), "container, first");
  for (const key of [K.down, K.down, K.space, K.tab, K.down]) {
    const expected = [...view.render(60)];
    view.handleInput(key);
    const now = view.render(60);
    const lines = k.keep(box.render(60), `container, key ${JSON.stringify(key)}`);
    k.check(`container, key ${JSON.stringify(key)}`);
    assert.deepEqual([...lines], [...now], `the Container shows the view's latest frame after ${JSON.stringify(key)}`);
    if (!same(now, expected)) assert.notDeepEqual([...lines], shown, `the screen changed after ${JSON.stringify(key)}`);
    shown = [...lines];
  }
  assert.equal(state.outcome, undefined);
});

test("frame kept: after keys, at the same width and at another, the view's frame is the one a new view draws after the same keys", () => {
  const { view } = makeView();
  view.focused = true;
  const keys = [];
  const fresh = (width) => {
    const other = makeView();
    other.view.focused = true;
    for (const key of keys) other.view.handleInput(key);
    return other.view.render(width);
  };
  view.render(100);
  for (const key of [K.down, K.down, K.up, K.pageDown, K.down, K.enter, K.space, K.down, K.space, K.tab, "x", K.backspace]) {
    view.handleInput(key);
    keys.push(key);
    // a key redraws at the same width from the last frame and the lines that changed; a new width
    // takes the lines that did not change there from the last frame too
    for (const width of [100, 100, 71, 71, 100])
      assert.deepEqual(view.render(width), fresh(width), `after ${keys.length} keys, at width ${width}`);
  }
});
