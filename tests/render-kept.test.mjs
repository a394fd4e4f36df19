// render-kept.test.mjs — what the renderer keeps between frames (the option rows, the help line:
// engine_internal.h qt_draw) is no state: after every key, and after a change of style, keys,
// language, width or width rules, the frame of an engine that kept them is the frame a new
// engine draws from nothing after the same keys. (native/fuzz/fuzz_session.c checks the same
// over random sessions.)
import assert from "node:assert/strict";
import test from "node:test";
import { addon } from "./helpers/addon.mjs";

const K = { up: "\x1b[A", down: "\x1b[B", space: " ", tab: "\t", enter: "\r", backTab: "\x1b[Z", esc: "\x1b" };
const STYLES = [
  ["accent", "\x1b[36m", "\x1b[39m"],
  ["selected", "\x1b[1m", "\x1b[22m"],
  ["success", "\x1b[32m", "\x1b[39m"],
  ["muted", "\x1b[90m", "\x1b[39m"],
  ["dim", "\x1b[2m", "\x1b[22m"],
];
const CALL = JSON.stringify({
  questions: [
    {
      id: "db",
      question: "Which database?",
      options: [
        { label: "Postgres", description: "A server, with the extensions we already use and a long description that wraps" },
        { label: "SQLite", description: "A file" },
        "MySQL",
      ],
    },
    {
      id: "tools",
      question: "Which tools?",
      multiSelect: true,
      options: Array.from({ length: 14 }, (_, i) => `Tool number ${i + 1} with a label long enough to wrap at forty`),
    },
  ],
});

/** A new engine in these styles, fed `keys` one by one, with nothing drawn before. */
function replay(keys, setup) {
  const e = addon.createEngine(CALL);
  for (const [name, open, close] of STYLES) e.setStyle(name, open, close);
  setup?.(e);
  for (const k of keys) e.feed(k);
  return e;
}

test("kept rows and help line: after every key, at changing widths, the frame is the one drawn from nothing", () => {
  const e = replay([]);
  const keys = [];
  const steps = [K.down, K.down, K.up, K.enter, K.down, K.space, K.down, K.down, K.space, K.up, K.space];
  steps.push(...Array(12).fill(K.down), K.space, K.backTab, K.up, K.enter, K.tab);
  let i = 0;
  for (const key of steps) {
    e.feed(key);
    keys.push(key);
    for (const width of [100, 40, 100, 17]) {
      const fresh = replay(keys);
      assert.deepEqual(e.render(width, 0), fresh.render(width, 0), `after key ${i} at width ${width}`);
      fresh.dispose();
    }
    i++;
  }
});

test("kept rows and help line: a new style, new keys, a new language or new width rules are drawn at once", () => {
  const e = replay([]);
  const keys = [K.down];
  e.feed(K.down);
  e.render(60, 0); // fills what is kept
  const changes = [
    ["a new accent", (x) => x.setStyle("accent", "\x1b[35m", "\x1b[39m")],
    ["a new muted style", (x) => x.setStyle("muted", "\x1b[37m", "\x1b[39m")],
    ["Enter rebound", (x) => x.bind("confirm", ["ctrl+o"])],
    ["German", (x) => x.setLanguage("de")],
  ];
  const done = [];
  for (const [what, change] of changes) {
    change(e);
    done.push(change);
    const fresh = replay(keys, (x) => done.forEach((c) => c(x)));
    assert.deepEqual(e.render(60, 0), fresh.render(60, 0), what);
    fresh.dispose();
  }
  const rules = addon.widthRules();
  try {
    addon.setWidthRules({ ...rules, currentEastAsianWidth: !rules.currentEastAsianWidth });
    const fresh = replay(keys, (x) => done.forEach((c) => c(x)));
    assert.deepEqual(e.render(60, 0), fresh.render(60, 0), "other width rules");
    fresh.dispose();
  } finally {
    addon.setWidthRules(rules);
  }
});

test("copied styles and keys: an engine given another's (copyStyles, copyKeys) acts and draws as if they were set on it", () => {
  const look = addon.createEngine(CALL);
  look.setStyle("accent", "\x1b[35m", "\x1b[39m");
  look.setStyle("title", "\x1b[4m", "\x1b[24m");
  look.bind("down", ["j"]);
  look.bind("confirm", ["ctrl+o"]);
  const set = (x) => {
    x.setStyle("accent", "\x1b[35m", "\x1b[39m");
    x.setStyle("title", "\x1b[4m", "\x1b[24m");
    x.bind("down", ["j"]);
    x.bind("confirm", ["ctrl+o"]);
  };
  // every style and key replaced, those the other engine never changed included
  const e = replay([]);
  e.bind("up", ["k"]);
  e.feed(K.down);
  e.render(60, 0); // fills what is kept: drawn in the old styles, the help line naming the old keys
  e.copyStyles(look);
  e.copyKeys(look);
  const fresh = addon.createEngine(CALL);
  fresh.feed(K.down); // under the default keys, as e was
  set(fresh);
  assert.deepEqual(e.render(60, 0), fresh.render(60, 0), "drawn in the copied styles, the copied keys named");
  for (const k of ["j", "k", K.up]) {
    e.feed(k);
    fresh.feed(k);
    assert.deepEqual(e.render(60, 0), fresh.render(60, 0), `after ${JSON.stringify(k)}: the copied keys act`);
  }
  // the copy is the other engine's at that moment: a later change there is not seen here
  look.setStyle("accent", "\x1b[31m", "\x1b[39m");
  look.bind("down", ["n"]);
  assert.deepEqual(e.render(60, 0), fresh.render(60, 0), "a later change of the other engine");
  e.copyStyles(e); // itself: nothing changes
  e.copyKeys(e);
  assert.deepEqual(e.render(60, 0), fresh.render(60, 0), "copied from itself");
  // only an engine, and a live one, can be copied from
  for (const bad of [{}, null, 42, Object.create(Object.getPrototypeOf(e))])
    assert.throws(() => e.copyStyles(bad), { code: "QT_ETYPE" }, `copyStyles(${String(bad)})`);
  assert.throws(() => e.copyKeys({}), { code: "QT_ETYPE" });
  const gone = addon.createEngine(CALL);
  gone.dispose();
  assert.throws(() => e.copyKeys(gone), { code: "QT_ESTATE" });
  assert.throws(() => e.copyStyles(gone), { code: "QT_ESTATE" });
  for (const x of [e, fresh, look]) x.dispose();
});
