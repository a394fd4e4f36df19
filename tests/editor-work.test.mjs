// editor-work.test.mjs — every editing key costs work in proportion to what it moves over or
// changes, never to the length of the whole text (the bound: "any single key
// ≤ 1 ms at the limits"). Work is counted, not timed: the addon's test-only _textWork() is the
// number of code points the segmenter has looked at (native/core/text/width.c), so a key's work is the
// difference across one feed. Also: stepping back by grapheme (decided locally, without
// rescanning from the start of the text) splits text exactly as stepping forward does.
import assert from "node:assert/strict";
import test from "node:test";
import { addon } from "./helpers/addon.mjs"; // PI_QUESTION_ADDON (the sanitizer build) when set

const K = {
  up: "\x1b[A",
  enter: "\r",
  left: "\x1b[D",
  right: "\x1b[C",
  home: "\x1b[H",
  end: "\x1b[F",
  del: "\x1b[3~",
  backspace: "\x7f",
  altB: "\x1bb",
  altF: "\x1bf",
  altD: "\x1bd",
  ctrlW: "\x17",
  ctrlU: "\x15",
  ctrlK: "\x0b",
  paste: (s) => `\x1b[200~${s}\x1b[201~`,
};

const ARGS = JSON.stringify({ questions: [{ id: "q", prompt: "Say something", options: ["a", "b"] }] });

/** An engine with `text` pasted into its typed answer ("Something else…"), cursor at the end. */
function typed(text) {
  const e = addon.createEngine(ARGS);
  e.feed(K.up); // wraps to "Something else…"
  e.feed(K.enter); // opens the typed answer
  e.feed(K.paste(text));
  return e;
}

function work(e, key) {
  const before = addon._textWork();
  e.feed(key);
  return addon._textWork() - before;
}

// Text with no spaces that the old backward walk could not restart from nearby.
const UNITS = {
  "e + U+0301": "e\u0301",
  Cyrillic: "ж",
  "flags (regional indicators)": "\u{1F1E9}\u{1F1EA}",
  "ZWJ family": "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}",
  "Devanagari conjunct": "\u0915\u094D\u0937",
  Hangul: "\u1100\u1161\u11A8",
  "ASCII letters": "x",
};
const byteLength = (s) => Buffer.byteLength(s);

test("_textWork is a test-only counter, not part of the enumerable API", () => {
  assert.equal(typeof addon._textWork, "function");
  assert.ok(!Object.keys(addon).includes("_textWork"));
});

test("one key at the end of a short word costs the same, however long the text before it", () => {
  for (const [name, unit] of Object.entries(UNITS)) {
    const costs = [];
    for (const n of [1000, 2000, 4000]) {
      const text = unit.repeat(n) + " ab";
      const e = typed(text);
      const c = {};
      c.altB = work(e, K.altB);
      e.feed(K.end);
      c.left = work(e, K.left);
      e.feed(K.end);
      c.backspace = work(e, K.backspace);
      c.ctrlW = work(e, K.ctrlW); // "a" and nothing more
      c.ctrlW2 = work(e, K.ctrlW); // the space, then the whole run of units: O(run), below
      e.dispose();
      costs.push(c);
    }
    for (const key of ["altB", "left", "backspace", "ctrlW"]) {
      const w = costs.map((c) => c[key]);
      assert.ok(
        w.every((x) => x <= 64),
        `${name}: ${key} looked at ${w.join(", ")} code points for texts of 1,000/2,000/4,000 units`,
      );
      assert.ok(w[2] <= w[0] + 8, `${name}: ${key} grew with the text before the word: ${w.join(", ")}`);
    }
  }
});

test("a key that moves over or deletes the whole text costs work in proportion to it", () => {
  for (const [name, unit] of Object.entries(UNITS)) {
    const at = {};
    for (const n of [2000, 4000]) {
      const text = unit.repeat(n);
      const cps = [...text].length;
      const e = typed(text);
      const w = {};
      w.altB = work(e, K.altB);
      w.altF = work(e, K.altF);
      e.feed(K.home);
      w.altD = work(e, K.altD);
      e.feed(K.paste(text));
      w.ctrlW = work(e, K.ctrlW);
      e.feed(K.paste(text));
      w.home = work(e, K.home);
      w.end = work(e, K.end);
      w.ctrlU = work(e, K.ctrlU);
      e.feed(K.paste(text));
      e.feed(K.home);
      w.ctrlK = work(e, K.ctrlK);
      e.dispose();
      for (const [key, x] of Object.entries(w)) assert.ok(x <= 6 * cps + 16, `${name}: ${key} over ${cps} code points looked at ${x}`);
      at[n] = w;
    }
    for (const key of Object.keys(at[2000])) {
      const a = at[2000][key];
      const b = at[4000][key];
      assert.ok(b <= 2.2 * a + 16, `${name}: ${key} is not linear: ${a} code points for 2,000 units, ${b} for 4,000`);
    }
  }
});

test("stepping one grapheme costs the same anywhere in a long text", () => {
  for (const [name, unit] of Object.entries(UNITS)) {
    const costs = [];
    for (const n of [1000, 4000]) {
      const e = typed(unit.repeat(n));
      // The first step back into a run of regional indicators counts the run (flags pair up
      // from its start); the editor remembers that count until the run itself changes.
      e.feed(K.left);
      let back = 0;
      for (let i = 0; i < 50; i++) back += work(e, K.left);
      for (let i = 0; i < 25; i++) back += work(e, K.backspace);
      let fwd = 0;
      e.feed(K.home);
      for (let i = 0; i < 50; i++) fwd += work(e, K.right);
      for (let i = 0; i < 25; i++) fwd += work(e, K.del);
      e.feed(K.paste("y")); // typing in the middle
      e.dispose();
      costs.push({ back, fwd });
    }
    for (const key of ["back", "fwd"]) {
      const [a, b] = costs.map((c) => c[key]);
      assert.ok(b <= a + 8, `${name}: 75 single steps (${key}) looked at ${a} code points in a text of 1,000 units, ${b} in one of 4,000`);
    }
  }
});

// ---- stepping back splits text as stepping forward does ---------------------------------------
const TRICKY = [
  "",
  "a",
  "ab\r\nc\n\rd",
  "e\u0301\u0302x",
  "\u0301\u0301a",
  "\u{1F1E9}\u{1F1EA}\u{1F1EB}\u{1F1F7}\u{1F1EE}",
  "x\u{1F1E9}\u{1F1EA}\u{1F1EB}",
  "\u{1F1E9}\u0301\u{1F1EA}\u{1F1EB}",
  "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u{1F3FB}\u200D\u{1F468}",
  "a\u200D\u{1F469}",
  "\u{1F469}\u0301\u0301\u200D\u{1F469}",
  "\u{1F469}\u200D\u200D\u{1F469}",
  "\u0915\u094D\u0937\u093F \u0915\u093C\u094D\u200D\u0937 \u0915\u094D\u094D\u0915 \u0915\u0301\u094D\u0915",
  "\u0915\u094D\u0301\u0937\u094D",
  "\u0600\u0661 \u0600",
  "\u1100\u1161\u11A8\u1100\u1100\u1161\uAC00\u11A8\uAC01\u11A8\u11A8",
  "\u0E01\u0E33\u0E33",
  "\t\u0301 \u200B\u0301",
  "\uFFFD\u0301",
  "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}x",
  "a\u0903\u0903b\u0308",
];

test("stepping back by grapheme finds the boundaries the forward step finds", () => {
  const cases = [...TRICKY];
  // every triple (and a longer mix) of a few code points the break rules look back on
  const atoms = [
    "a",
    "\u0301",
    "\u200D",
    "\u{1F469}",
    "\u{1F1E9}",
    "\u0915",
    "\u094D",
    "\u1100",
    "\u1161",
    "\u11A8",
    "\r",
    "\n",
    "\u0600",
    "\u0903",
    " ",
  ];
  for (const x of atoms) for (const y of atoms) for (const z of atoms) cases.push(x + y + z, `${x}${y}${z}${x}${y}${z}${y}`);
  for (const s of cases) {
    const forward = addon.graphemes(s);
    assert.equal(forward.join(""), s);
    assert.deepEqual(addon._graphemesBackward(s), forward, `backward: ${JSON.stringify(s)}`);
  }
});

test("what stepping back remembers about a run of flags follows edits inside the run", () => {
  const ri = (i) => String.fromCodePoint(0x1f1e6 + i);
  const run = (from, to) => Array.from({ length: to - from }, (_, k) => ri(from + k)).join("");
  const e = typed(`a${run(0, 9)}`); // [A B][C D][E F][G H][I]
  e.feed(K.left); // before [I]
  e.feed(K.left); // before [G H]
  e.feed(K.backspace); // removes [E F]: a [A B][C D][G H][I]
  assert.ok(
    e.render(400).some((line) => line.includes(`a${run(0, 4)}${run(6, 9)}`)),
    "after removing E F",
  );
  e.feed(K.right); // over [G H]
  e.feed(K.backspace); // removes [G H]
  assert.ok(
    e.render(400).some((line) => line.includes(`a${run(0, 4)}${ri(8)}`)),
    "after removing G H",
  );
  e.feed(K.end);
  e.feed(K.paste(run(10, 13))); // a [A B][C D][I K][L M]
  e.feed(K.backspace);
  assert.ok(
    e.render(400).some((line) => line.includes(`a${run(0, 4)}${ri(8)}${ri(10)} `)),
    "after removing L M",
  );
  e.feed(K.backspace);
  e.feed(K.backspace);
  assert.ok(
    e.render(400).some((line) => line.includes(`a${run(0, 2)} `)),
    "after removing I K and C D",
  );
  e.dispose();
});

// ---- the renderer lays out again only what changed ---------------------------------------------
test("a frame drawn from the layout cache equals one laid out from scratch, after any key", () => {
  let seed = 12345;
  const rand = (n) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const words = [
    "alpha",
    "ж",
    "e\u0301e\u0301",
    "\u4e2d\u6587\u5b57",
    "\u{1F468}\u200D\u{1F469}",
    "x".repeat(30),
    "\t",
    "\u202E",
    "a,b;c",
    "\u{1F1E9}\u{1F1EA}",
  ];
  const keys = [
    K.left,
    K.right,
    K.home,
    K.end,
    K.backspace,
    K.del,
    K.altB,
    K.altF,
    K.altD,
    K.ctrlW,
    K.ctrlU,
    K.ctrlK,
    "\x1b[13;2u",
    " ",
    "q",
  ];
  for (const width of [13, 40, 80]) {
    const e = typed("start of the answer with some words " + words.join(" ").repeat(3));
    e.render(width);
    for (let step = 0; step < 400; step++) {
      const r = rand(10);
      if (r < 4) e.feed(K.paste(words[rand(words.length)] + (rand(2) ? " " : "")));
      else e.feed(keys[rand(keys.length)]);
      const cached = e.render(width).slice();
      e.render(width + 1); // other columns: the next frame at `width` is laid out from scratch
      assert.deepEqual(cached, e.render(width), `width ${width}, step ${step}`);
    }
    e.dispose();
  }
});

test("after a cursor move or an edit at the end, a frame lays out only the lines in view", () => {
  const e = typed("ж".repeat(40000));
  e.render(80);
  let before = addon._textWork();
  e.feed(K.altB); // to the start: 40,000 steps back (the key's own work)
  const moved = addon._textWork() - before;
  before = addon._textWork();
  e.render(80);
  const drawn = addon._textWork() - before;
  assert.ok(drawn < 4000, `a frame after a cursor move looked at ${drawn} code points (the key itself ${moved})`);
  e.feed(K.end);
  e.render(80);
  e.feed("ы");
  before = addon._textWork();
  e.render(80);
  const afterTyping = addon._textWork() - before;
  assert.ok(afterTyping < 4000, `a frame after typing at the end looked at ${afterTyping} code points`);
  e.dispose();
});

test("an edit inside a long text of words lays out only the lines until they break where they broke before", () => {
  const words = "съешь же ещё этих мягких французских булок да выпей чаю ";
  const e = typed(words.repeat(600)); // about 60 KB, no line the same as the next
  e.render(80);
  const edits = [
    [K.home, "ж"], // typing at the start
    ["ы"],
    [K.backspace],
    [K.altF, K.altF, K.altF, "щ"], // in the middle of the first lines
    [K.altD],
    [K.paste("один два ")],
    [K.end, K.altB, K.altB, K.ctrlW], // near the end
  ];
  for (const keys of edits) {
    for (const k of keys) e.feed(k);
    const before = addon._textWork();
    const frame = e.render(80).slice();
    const laidOut = addon._textWork() - before;
    assert.ok(laidOut < 4000, `after ${JSON.stringify(keys)} a frame looked at ${laidOut} code points`);
    e.render(81); // other columns: the next frame at 80 is laid out from scratch
    const whole = addon._textWork();
    assert.deepEqual(e.render(80), frame, `after ${JSON.stringify(keys)}`);
    assert.ok(addon._textWork() - whole > 20000, "laid out from scratch, the text costs more than the check allows");
  }
  e.dispose();
});
