// width.test.mjs — checks the native grapheme/width/sanitize code (native/core/text/width.c,
// native/core/text/sanitize.c) against what pi itself computes: pi-tui's visibleWidth and
// Intl.Segmenter. Evidence: a hand-made corpus (tests/fixtures/width-corpus.json), every code
// point of planes 0–3 and 14 alone, and of planes 0-3 next to one code point of each grapheme
// class and in runs, every RGI emoji sequence of native/core/text/unicode_tables.h with its near misses,
// and seeded random mixes. Surrogates are left out: UTF-8 cannot carry them.
//
// pi's release binary runs pi-tui in Bun, whose Intl.Segmenter is not Node's: with
// PI_LINE=binary, `node --test tests/width.test.mjs` runs this file again in Bun (`bun test`,
// the Bun pi's binary is compiled with) and passes when that run passes; in Bun the sweep of
// every code point next to each class is left out (a minute there; the runs and the random
// mixes cover the same classes).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { addon } from "./helpers/addon.mjs"; // the loader's addon: PI_QUESTION_ADDON when set
import nodeTest from "node:test";
import { selectWidthRules } from "../extension/width-rules.mjs";
import { bunTool } from "../scripts/current-pi.mjs";
import { importPiTui, line } from "./helpers/pi-line.mjs";

const IN_BUN = typeof process.versions.bun === "string";
// pi's binary measures in Bun: on that line, under Node, the one test below runs this file in Bun.
const IN_BUN_INSTEAD = line.id === "binary" && !IN_BUN;
const test = IN_BUN_INSTEAD
  ? (name) => nodeTest(name, { skip: "runs in Bun (pi's binary's runtime): see the test above" }, () => {})
  : nodeTest;

if (IN_BUN_INSTEAD) {
  nodeTest("in Bun, as pi's binary runs pi-tui: every test of this file but the slowest sweep", () => {
    const { bun, version } = bunTool();
    assert.ok(existsSync(bun), `Bun ${version} is not installed (${bun}); run "node scripts/pi-binary.mjs" first`);
    const r = spawnSync(bun, ["test", "--timeout", "60000", fileURLToPath(import.meta.url)], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      env: { ...process.env, PI_LINE: "binary" },
      encoding: "utf8",
      timeout: 300_000,
      killSignal: "SIGKILL",
    });
    const out = `${r.stdout ?? ""}${r.stderr ?? ""}`;
    assert.equal(
      r.status,
      0,
      `bun test tests/width.test.mjs (Bun ${version}) failed (${r.error?.message ?? `exit ${r.status}, ${r.signal ?? "no signal"}`}):\n${out.slice(-8000)}`,
    );
    assert.match(out, / 0 fail/, out.slice(-2000));
  });
}

// pi-tui of the pi line under test (PI_LINE; tests/helpers/pi-line.mjs).
const { visibleWidth } = await importPiTui();

// The rules the extension selects for this pi-tui (extension/ask/interactive.ts does the same probe).
const selected = selectWidthRules(addon, visibleWidth);
const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const corpus = JSON.parse(readFileSync(new URL("./fixtures/width-corpus.json", import.meta.url), "utf8"));

const graphemes = (s) => Array.from(segmenter.segment(s), (x) => x.segment);
const hex = (s) => [...s].map((c) => "U+" + c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")).join(" ");
const isSurrogate = (cp) => cp >= 0xd800 && cp <= 0xdfff;

// Compares one string; returns a description of the difference or null.
function differs(s) {
  const want = visibleWidth(s);
  const got = addon.visibleWidth(s);
  if (got !== want) return `width ${got}, pi-tui ${want}: ${JSON.stringify(s)} (${hex(s)})`;
  const wantG = graphemes(s);
  const gotG = addon.graphemes(s);
  if (gotG.length !== wantG.length || gotG.some((g, i) => g !== wantG[i])) {
    return `clusters ${JSON.stringify(gotG.map(hex))}, Intl.Segmenter ${JSON.stringify(wantG.map(hex))}`;
  }
  return null;
}

function expectNoMismatch(label, mismatches, compared) {
  assert.equal(mismatches.length, 0, `${label}: ${mismatches.length} of ${compared} differ:\n${mismatches.slice(0, 25).join("\n")}`);
}

// Deterministic PRNG (mulberry32).
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test("corpus: width and clusters match pi-tui and Intl.Segmenter", () => {
  const bad = [];
  let n = 0;
  for (const { group, text } of corpus.cases) {
    n++;
    const d = differs(text);
    if (d) bad.push(`[${group}] ${d}`);
    // Each cluster measured alone, too (pi-tui's graphemeWidth).
    if (!text.includes("\x1b") && !text.includes("\t")) {
      for (const g of graphemes(text)) {
        n++;
        const w = addon.visibleWidth(g);
        if (w !== visibleWidth(g)) bad.push(`[${group}] cluster ${hex(g)}: ${w}, pi-tui ${visibleWidth(g)}`);
      }
    }
  }
  expectNoMismatch("corpus", bad, n);
  assert.ok(corpus.cases.length > 300);
});

// Planes 0-3 and 14 (tags, variation selectors supplement); the other planes hold nothing
// but unassigned and private-use code points.
const ALL_CPS = [
  [0, 0x40000],
  [0xe0000, 0xf0000],
];
const everyCodePoint = function* (ranges = ALL_CPS) {
  for (const [a, b] of ranges) for (let cp = a; cp < b; cp++) if (!isSurrogate(cp)) yield cp; // surrogates are not UTF-8
};

test("every code point of planes 0-3 and 14 alone has pi-tui's width", () => {
  const bad = [];
  let n = 0;
  for (const cp of everyCodePoint()) {
    const s = String.fromCodePoint(cp);
    n++;
    const got = addon.visibleWidth(s);
    const want = visibleWidth(s);
    if (got !== want) bad.push(`${hex(s)}: ${got}, pi-tui ${want}`);
  }
  expectNoMismatch("single code points", bad, n);
});

// One code point of every Grapheme_Cluster_Break / InCB class: Other, Extend, ZWJ, SpacingMark, Prepend, L, V, T, LV, LVT, Regional_Indicator,
// Extended_Pictographic, InCB Consonant and Linker, CR, LF, Control.
const PARTNERS = [
  "a",
  "\u0301",
  "\u200d",
  "\u0903",
  "\u0600",
  "\u1100",
  "\u1161",
  "\u11a8",
  "\uac00",
  "\uac01",
  "\u{1f1e6}",
  "\u{1f600}",
  "\u0915",
  "\u094d",
  "\r",
  "\n",
  "\u0007",
];

// Width in context depends on the cluster's make-up (base after leading format characters,
// trailing halfwidth forms and AM vowels, emoji sequences); these partners exercise it.
const WIDTH_PARTNERS = ["a", "\u0301", "\ufe0f", "\u{1f3fb}", "\u200d", "\u0e33", "\uff9e", "\u094d", "\u{1f1e6}", "\u{e0067}"];

test(
  "every code point of planes 0-3 and U+E0000..U+E0FFF next to each grapheme class segments and measures like pi-tui",
  { skip: IN_BUN && "a minute in Bun" },
  () => {
    const bad = [];
    let n = 0;
    for (const cp of everyCodePoint([
      [0, 0x40000],
      [0xe0000, 0xe1000],
    ])) {
      const x = String.fromCodePoint(cp);
      n++;
      // x P1 x P2 x ... x: every partner once before and once after x.
      const s = x + PARTNERS.map((p) => p + x).join("");
      const want = graphemes(s);
      const got = addon.graphemes(s);
      if (got.length !== want.length || got.some((g, i) => g !== want[i])) {
        bad.push(`${hex(x)}: clusters ${JSON.stringify(got.map(hex))}, Intl.Segmenter ${JSON.stringify(want.map(hex))}`);
        continue;
      }
      const w = x + WIDTH_PARTNERS.map((p) => p + x).join("");
      if (addon.visibleWidth(w) !== visibleWidth(w))
        bad.push(`${hex(x)}: width ${addon.visibleWidth(w)}, pi-tui ${visibleWidth(w)} of ${hex(w)}`);
    }
    expectNoMismatch("code points in context", bad, n);
  },
);

test("planes 0-3 in runs of consecutive code points", () => {
  const bad = [];
  let n = 0;
  for (let start = 0; start < 0x40000; start += 64) {
    let s = "";
    for (let cp = start; cp < start + 64; cp++) if (!isSurrogate(cp)) s += String.fromCodePoint(cp);
    if (!s) continue;
    n++;
    const d = differs(s);
    if (d) bad.push(`run from U+${start.toString(16)}: ${d}`);
  }
  expectNoMismatch("runs", bad, n);
});

function rgiSequencesOfHeader() {
  const h = readFileSync(new URL("../native/core/text/unicode_tables.h", import.meta.url), "utf8");
  const arr = (name) => {
    const m = h.match(new RegExp(`${name}\\[[^\\]]*\\] = \\{([^}]*)\\}`));
    assert.ok(m, `${name} in unicode_tables.h`);
    return m[1]
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean)
      .map(Number);
  };
  const cps = arr("qt_rgi_cps");
  const off = arr("qt_rgi_off");
  const seqs = [];
  for (let i = 0; i + 1 < off.length; i++) seqs.push(String.fromCodePoint(...cps.slice(off[i], off[i + 1])));
  return seqs;
}

test("every RGI emoji sequence of the tables, and its near misses", () => {
  const seqs = rgiSequencesOfHeader();
  assert.ok(seqs.length > 2500, `${seqs.length} sequences`);
  const rgi = /^\p{RGI_Emoji}$/v;
  const bad = [];
  let n = 0;
  for (const s of seqs) {
    if (!rgi.test(s)) bad.push(`not RGI in this Node: ${hex(s)}`);
    const cps = [...s];
    const variants = [
      s,
      s.replaceAll("\ufe0f", ""), // fully qualified minus FE0F: usually not RGI
      s + "\ufe0f",
      s + "\u{1f3fb}",
      s + "\u200d",
      s + "\u200d\u{1f600}",
      cps.slice(0, -1).join(""),
      cps.slice(1).join(""),
      "a" + s + "b",
      s + s,
    ];
    for (const v of variants) {
      n++;
      const d = differs(v);
      if (d) bad.push(d);
    }
  }
  expectNoMismatch("RGI sequences", bad, n);
});

// Material for random mixes: code points of every class plus escapes, tabs and ASCII.
function pool() {
  const items = [];
  const add = (...xs) => items.push(...xs);
  add(
    ...PARTNERS,
    "\ufe0f",
    "\u{1f3fb}",
    "\u0e33",
    "\uff9e",
    "\u2764",
    "\u00ad",
    "\u{e0067}",
    " ",
    "x",
    "Z",
    "#",
    "1",
    "\t",
    "\x1b",
    "[",
    "m",
    "]",
    "_",
    "\x07",
    "\\",
  );
  add("\x1b[31m", "\x1b[0m", "\x1b[1;2", "\x1b]8;;u\x07", "\x1b]8;;u\x1b\\", "\x1b_c\x07", "\x1b_", "\x1b]", "\x1b[");
  add("日", "ｶ", "Ａ", "\uffe8", "\u0eb3", "\u0e01", "\u0e48", "\u0eb0", "\u0937", "\u093f", "\u0951", "\u0995", "\u09cd");
  add("\u20e3", "\u2640", "\u2642", "\u27a1", "\u{1f468}", "\u{1f469}", "\u{1f466}", "\u{1f9d1}", "\u{1f48b}", "\u{1f525}");
  add("\u{1f3f3}", "\u{1f3f4}", "\u{e0062}", "\u{e007f}", "\u{1f1ea}", "\u{1f1f8}", "\u{1f1fa}", "\u2b50", "\u231a", "\u00a9");
  add("\ufe0e", "\u200b", "\u200c", "\u2060", "\u{e0001}", "\u0605", "\u{110bd}", "\u0d4e", "\u0e33", "\u115f", "\u1160");
  add("\u3099", "\u302a", "\u{1f3ff}", "\u{1faf1}", "\u{1faf2}", "\u{1f91d}", "\u2695", "\u{1f9af}", "\u{1f308}", "\u26a7");
  return items;
}

test("seeded random mixes segment and measure like pi-tui", () => {
  const items = pool();
  const rand = rng(0x5eed);
  const bad = [];
  const N = 40000;
  for (let i = 0; i < N; i++) {
    const k = 1 + Math.floor(rand() * 12);
    let s = "";
    for (let j = 0; j < k; j++) {
      // mostly pool items, sometimes any code point of planes 0-3 or 14
      const r = rand();
      if (r < 0.85) s += items[Math.floor(rand() * items.length)];
      else {
        let cp = Math.floor(rand() * (r < 0.97 ? 0x40000 : 0x110000));
        if (isSurrogate(cp)) cp = 0xfffd;
        s += String.fromCodePoint(cp);
      }
    }
    const d = differs(s);
    if (d) bad.push(d);
  }
  expectNoMismatch("random mixes", bad, N);
});

test("long strings: ASCII fast path, many escapes, unterminated escapes", () => {
  // Compared with pi-tui at moderate length: Intl.Segmenter copies the whole input into every
  // segment object, so the reference itself is quadratic in the length.
  const cases = [
    "x".repeat(4000),
    "ab\u0301".repeat(1000),
    "\x1b[31mred\x1b[0m ".repeat(200),
    "\x1b[".repeat(1000) + "tail",
    "\x1b]".repeat(1000) + "tail",
    "\x1b_x".repeat(1000),
    "\u{1f1e9}".repeat(1001),
    "\u{1f468}\u200d\u{1f469}\u200d\u{1f467}\u200d\u{1f466}".repeat(100),
    "e" + "\u0301".repeat(2000),
    "\u0e01" + "\u0e33".repeat(1000),
    "\u0915\u094d".repeat(1000),
  ];
  for (const s of cases) assert.equal(differs(s), null);
  // The addon alone at sizes where only it is fast.
  const t1 = Date.now();
  assert.equal(addon.visibleWidth("x".repeat(1000000)), 1000000);
  assert.equal(addon.visibleWidth("ab\u0301".repeat(100000)), 200000);
  assert.equal(addon.visibleWidth("e" + "\u0301".repeat(100000)), 1);
  assert.equal(addon.graphemes("e" + "\u0301".repeat(100000)).length, 1);
  assert.equal(addon.graphemes("\u{1f1e9}".repeat(100001)).length, 50001);
  // Unterminated escapes would be quadratic without the stream's memory of them.
  assert.equal(addon.visibleWidth("\x1b[".repeat(200000)), 200000);
  assert.equal(addon.visibleWidth("\x1b]".repeat(200000)), 200000);
  assert.equal(addon.visibleWidth("\x1b_".repeat(200000)), 200000);
  assert.ok(Date.now() - t1 < 3000, `took ${Date.now() - t1} ms`);
});

// ---- sanitizer ---------------------------------------------------------------------------

const pic = (c) => String.fromCodePoint(0x2400 + c);

test("sanitize: each mapping", () => {
  const s = (x, nl = false) => addon.sanitize(x, nl);
  assert.equal(s("plain text 日本 👨‍👩‍👧"), "plain text 日本 👨‍👩‍👧");
  assert.equal(s("\x1b[31mred\x1b[0m"), "␛[31mred␛[0m");
  assert.equal(s("\x1b]8;;http://x\x07y"), "␛]8;;http://x␇y");
  for (let c = 0; c < 0x20; c++) {
    if (c === 0x0a || c === 0x0d || c === 0x09) continue;
    assert.equal(s("a" + String.fromCharCode(c) + "b"), "a" + pic(c) + "b", `C0 ${c}`);
  }
  assert.equal(s("\x1b"), "␛");
  assert.equal(s("\x00"), "␀");
  assert.equal(s("\x7f"), "␡");
  assert.equal(s("a\tb"), "a   b");
  assert.equal(s("a\nb", true), "a\nb");
  assert.equal(s("a\nb", false), "a b");
  assert.equal(s("a\r\nb", true), "a\nb");
  assert.equal(s("a\r\nb", false), "a b");
  assert.equal(s("a\rb", true), "a␍b");
  assert.equal(s("a\rb", false), "a␍b");
  assert.equal(s("\r\r\n\n", true), "␍\n\n");
  for (let c = 0x80; c <= 0x9f; c++) {
    assert.equal(s(String.fromCharCode(c)), `<U+${c.toString(16).toUpperCase().padStart(4, "0")}>`);
  }
  for (const c of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c]) {
    assert.equal(s("x" + String.fromCharCode(c) + "y"), `x<U+${c.toString(16).toUpperCase().padStart(4, "0")}>y`);
  }
  // Joiners, variation selectors and other format characters stay: emoji need them.
  for (const keep of ["\u200d", "\u200c", "\ufe0f", "\ufe0e", "\u{e0100}", "\u{e0067}", "\u00ad", "\u2028", "\u0301", "\ufffd"]) {
    assert.equal(s("a" + keep), "a" + keep, hex(keep));
  }
  assert.equal(s("❤️‍🔥 🏴󠁧󠁢󠁳󠁣󠁴󠁿 #️⃣"), "❤️‍🔥 🏴󠁧󠁢󠁳󠁣󠁴󠁿 #️⃣");
  // A lone surrogate reaches C as U+FFFD (Node-API's UTF-8 conversion) and stays U+FFFD.
  assert.equal(s("a\ud800b"), "a\ufffdb");
  assert.equal(s(""), "");
});

test("sanitize: nothing that acts on a terminal survives; width is what visibleWidth says", () => {
  const items = pool();
  const rand = rng(0xc0ffee);
  const bidi = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u0080-\u009f]/u;
  let n = 0;
  const bad = [];
  const inputs = [...corpus.cases.map((c) => c.text)];
  let all = "";
  for (let c = 0; c < 0x100; c++) all += String.fromCharCode(c);
  inputs.push(all, all + "\u202e\u2066\u200f\u061c");
  for (let i = 0; i < 5000; i++) {
    let x = "";
    const k = 1 + Math.floor(rand() * 16);
    for (let j = 0; j < k; j++) {
      const r = rand();
      x += r < 0.6 ? items[Math.floor(rand() * items.length)] : String.fromCharCode(Math.floor(rand() * 0xa0));
    }
    inputs.push(x);
  }
  for (const x of inputs) {
    for (const nl of [false, true]) {
      n++;
      const out = addon.sanitize(x, nl);
      const bytes = Buffer.from(out, "utf8");
      for (const b of bytes) {
        if ((b < 0x20 && !(nl && b === 0x0a)) || b === 0x7f) {
          bad.push(`byte 0x${b.toString(16)} survives in ${hex(out)} from ${hex(x)}`);
          break;
        }
      }
      if (bidi.test(out)) bad.push(`bidi/C1 control survives: ${hex(out)}`);
      if (Buffer.from(out, "utf8").toString("utf8") !== out || out.includes("\ud800")) bad.push(`invalid output ${hex(out)}`);
      const line = nl ? out.split("\n") : [out];
      for (const l of line) {
        if (addon.visibleWidth(l) !== visibleWidth(l))
          bad.push(`width of sanitized ${hex(l)}: ${addon.visibleWidth(l)}, pi-tui ${visibleWidth(l)}`);
      }
      if (addon.sanitize(out, nl) !== out) bad.push(`not idempotent: ${hex(x)}`);
    }
  }
  expectNoMismatch("sanitize", bad, n);
});

// ---- the discussion field, the filter's Enter and frames fitted to rows keep the width invariant --
test("frames: the discussion field, the filter's Enter and frames fitted to rows fit every width 1–200 in en, de and zh", () => {
  const prompt = `宽 FIRST ${"long words of a prompt 👩‍👩‍👧 ".repeat(60)}`;
  const args = {
    questions: [
      {
        id: "a",
        label: "Lange Frage 长",
        prompt,
        options: [{ value: "x", label: "Option 两个字 x", description: "描述 description" }, "Zweite", "Third"],
      },
      { id: "b", label: "Multi", prompt: "Pick some", multiSelect: true, options: ["Auth 认证", "API", "Admin"] },
    ],
  };
  const paths = [
    [],
    ["\x14", ..."我想先问一下 why not 👍"], // Ctrl+T and words for the agent
    ["\x14", "\r"], // the empty-field warning
    ["/", ..."zw", "\r"], // filter, Enter picks; then the multi-select question
    ["\t", "/", "a", "\r"], // multi-select: Enter leaves the filter, list stays filtered
    ["\x1b[6~", "\x1b[6~"], // PageDown through a cut prompt
    ["0", "\x1b[200~" + "line 行\n".repeat(40) + "\x1b[201~"], // a long draft
  ];
  for (const lang of ["en", "de", "zh"]) {
    for (const keys of paths) {
      const e = addon.createEngine(JSON.stringify(args));
      e.setLanguage(lang);
      for (const k of keys) {
        e.render(80, 14);
        e.feed(k);
      }
      for (let width = 1; width <= 200; width++) {
        for (const rows of [0, 6, 14, 30]) {
          const lines = e.render(width, rows);
          if (rows)
            assert.ok(lines.length <= rows, `${lang} ${JSON.stringify(keys).slice(0, 30)} @${width}x${rows}: ${lines.length} lines`);
          for (const line of lines) {
            const w = visibleWidth(line);
            if (w > width)
              assert.fail(`${lang} ${JSON.stringify(keys).slice(0, 30)} @${width}x${rows}: ${w} columns: ${JSON.stringify(line)}`);
          }
        }
      }
    }
  }
});

// ---- the width rules of the host's pi-tui (pi-tui 0.87 counts Indic spacing marks) -------------
// What the probe must pick on each line whose pi-tui is known.
const EXPECTED_RULES = {
  "0.73.1": { spacingMarks: false, currentEastAsianWidth: false, unicode15Clusters: false },
  "0.87.1": { spacingMarks: true, currentEastAsianWidth: true, unicode15Clusters: false },
  "1.5.2": { spacingMarks: true, currentEastAsianWidth: true, unicode15Clusters: false },
  "1.6.0": { spacingMarks: true, currentEastAsianWidth: true, unicode15Clusters: false },
};
const INDIC = [
  "क्षत्रिय राष्ट्रीय विद्यार्थी हिन्दी", // Devanagari: conjuncts and vowel signs
  "বাংলা ভাষা কোথায়", // Bengali (U+09BE is a spacing mark that extends)
  "မြန်မာစာ ကြိုဆိုပါတယ်", // Myanmar (the legacy wcwidth exceptions)
  "தமிழ் கொண்டு", // Tamil
  "ಕನ್ನಡ ಭಾಷೆ", // Kannada
  "ทำนา ລຳ", // Thai and Lao AM
];

test("width rules: the probe picks the rules that measure like this line's pi-tui", () => {
  assert.equal(selected.exact, true, `no rule set measures the probes like ${line.describe()}`);
  const { exact, ...rules } = selected;
  assert.deepEqual(addon.widthRules(), rules);
  const want = EXPECTED_RULES[line.version];
  // In Bun (pi's binary) pi-tui splits clusters as ICU 75 does.
  if (want)
    assert.deepEqual(rules, { ...want, unicode15Clusters: IN_BUN }, `${line.describe()}${IN_BUN ? ` in Bun ${process.versions.bun}` : ""}`);
  // The probe strings are not the only ones: the Indic samples, whole and cluster by cluster.
  for (const s of INDIC) {
    assert.equal(addon.visibleWidth(s), visibleWidth(s), hex(s));
    for (const g of graphemes(s)) assert.equal(addon.visibleWidth(g), visibleWidth(g), hex(g));
  }
});

test("width rules: the two rule sets differ where pi-tui 0.73.1 and 0.87.1 differ", () => {
  const widths = (rules) => {
    addon.setWidthRules(rules);
    return ["\u093F", "क्षि", "\u0600\uFF01", "\u{18E00}", "e\u0301", "日本", "👩‍👩‍👧", "\u102B", "\u1B13\u1B44\u1B31"].map((s) =>
      addon.visibleWidth(s),
    );
  };
  const inBun = (rules) => ({ ...rules, unicode15Clusters: true });
  try {
    assert.deepEqual(widths(EXPECTED_RULES["0.73.1"]), [0, 1, 4, 2, 1, 4, 2, 0, 1]);
    assert.deepEqual(widths(EXPECTED_RULES["0.87.1"]), [1, 3, 2, 1, 1, 4, 2, 1, 2]);
    // Bun splits the Balinese conjunct (its ICU 75 knows no Balinese linker), nothing else here.
    assert.deepEqual(widths(inBun(EXPECTED_RULES["0.73.1"])), [0, 1, 4, 2, 1, 4, 2, 0, 2]);
    assert.deepEqual(widths(inBun(EXPECTED_RULES["0.87.1"])), [1, 3, 2, 1, 1, 4, 2, 1, 3]);
  } finally {
    addon.setWidthRules(selected);
  }
});

test("width rules: a bad rule set is refused with a clear error", () => {
  for (const bad of [
    undefined,
    null,
    "0.87",
    1,
    { spacingMarks: true },
    { spacingMarks: 1, currentEastAsianWidth: false, unicode15Clusters: false },
    { spacingMarks: true, currentEastAsianWidth: false },
  ]) {
    assert.throws(
      () => addon.setWidthRules(bad),
      (e) =>
        e instanceof TypeError &&
        e.code === "QT_ETYPE" &&
        /setWidthRules takes \{ spacingMarks: boolean, currentEastAsianWidth: boolean, unicode15Clusters: boolean \}/.test(e.message),
      String(bad),
    );
  }
  const { exact, ...rules } = selected;
  assert.deepEqual(addon.widthRules(), rules);
});

test("width rules: a probe no rule set agrees with is reported as inexact", () => {
  try {
    const r = selectWidthRules(addon, (s) => visibleWidth(s) + 7);
    assert.equal(r.exact, false);
  } finally {
    addon.setWidthRules(selected);
  }
});

// Indic prompt, options and a typed answer: every frame line fits the width by this line's own
// pi-tui measure (an overwide line would be cut by the adapter, losing text) and is measured
// the same by the addon.
function indicEngine() {
  const prompt = INDIC.join(" ").repeat(4);
  const e = addon.createEngine(
    JSON.stringify({
      questions: [
        {
          id: "a",
          label: "क्षत्रिय",
          prompt,
          options: INDIC.map((label, i) => ({ value: `v${i}`, label, description: INDIC[(i + 1) % INDIC.length] })),
        },
        { id: "b", label: "বাংলা", prompt: INDIC[0] },
      ],
    }),
  );
  return e;
}
const INDIC_PATHS = [[], ["\t", ...INDIC.join(" ").repeat(3)], ["\x14", ...INDIC.join(" ")]];

test("width rules: an engine's frames in Indic text fit every width 1–120 by this pi-tui's measure", () => {
  const bad = [];
  for (const keys of INDIC_PATHS) {
    const e = indicEngine();
    for (const k of keys) e.feed(k);
    for (let width = 1; width <= 120; width++) {
      for (const l of e.render(width, 0)) {
        const w = visibleWidth(l);
        if (w > width) bad.push(`@${width}: ${w} columns: ${JSON.stringify(l)}`);
        else if (addon.visibleWidth(l) !== w) bad.push(`@${width}: addon ${addon.visibleWidth(l)}, pi-tui ${w}: ${JSON.stringify(l)}`);
      }
    }
    e.dispose();
  }
  assert.deepEqual(bad.slice(0, 10), []);
});

test("width rules: changing them lays frames, editors and help lines out again (no stale cache)", () => {
  const narrow = { spacingMarks: false, currentEastAsianWidth: false, unicode15Clusters: selected.unicode15Clusters };
  const wide = { spacingMarks: true, currentEastAsianWidth: false, unicode15Clusters: selected.unicode15Clusters };
  try {
    for (const keys of INDIC_PATHS) {
      const e = indicEngine();
      for (const k of keys) e.feed(k);
      for (const width of [17, 40, 81]) {
        addon.setWidthRules(narrow);
        e.render(width, 0); // laid out and kept under the rules that measure Indic text narrower
        addon.setWidthRules(wide);
        const fresh = indicEngine(); // one that never saw the narrower rules
        for (const k of keys) fresh.feed(k);
        const label = `@${width} ${JSON.stringify(keys).slice(0, 20)}`;
        assert.deepEqual(e.render(width, 0), fresh.render(width, 0), label);
        for (const l of e.render(width, 0))
          assert.ok(addon.visibleWidth(l) <= width, `${label}: ${addon.visibleWidth(l)} columns: ${JSON.stringify(l)}`);
        fresh.dispose();
      }
      e.dispose();
    }
  } finally {
    addon.setWidthRules(selected);
  }
});

// A stale preview layout: the preview's layout (render.c preview_layout) was kept per option and width
// only, so after the rules changed it kept the line breaks and widths measured under the old ones.
test("width rules: changing them lays an option's preview out again (no stale preview cache)", () => {
  const narrow = { spacingMarks: false, currentEastAsianWidth: false, unicode15Clusters: selected.unicode15Clusters };
  const wide = { spacingMarks: true, currentEastAsianWidth: false, unicode15Clusters: selected.unicode15Clusters };
  const preview = Array.from({ length: 6 }, () => INDIC.join(" ")).join("\n");
  const make = () =>
    addon.createEngine(
      JSON.stringify({
        questions: [
          {
            id: "a",
            prompt: "Which?",
            options: [
              { value: "x", label: "x", preview },
              { value: "y", label: "y", preview: INDIC[0] },
            ],
          },
        ],
      }),
    );
  try {
    let differs = 0;
    for (const width of [40, 60, 81, 120]) {
      for (const rows of [0, 14]) {
        addon.setWidthRules(narrow);
        const e = make();
        const before = e.render(width, rows); // the preview laid out under the narrower rules
        addon.setWidthRules(wide);
        const fresh = make(); // one that never saw the narrower rules
        const label = `@${width}x${rows}`;
        const got = e.render(width, rows),
          want = fresh.render(width, rows);
        if (JSON.stringify(before) !== JSON.stringify(want)) differs++;
        assert.deepEqual(got, want, label);
        for (const l of got) assert.ok(addon.visibleWidth(l) <= width, `${label}: ${addon.visibleWidth(l)} columns: ${JSON.stringify(l)}`);
        e.dispose();
        fresh.dispose();
      }
    }
    assert.ok(differs > 0, "the two rule sets lay this preview out differently somewhere (else the test proves nothing)");
  } finally {
    addon.setWidthRules(selected);
  }
});

// pi's binary: Bun 1.3.14's Intl.Segmenter (ICU 75, Unicode 15.1) splits these where Node's
// (ICU 78) does not — conjuncts across viramas Unicode 16 made linkers, marks Unicode 16 and 17
// added — and pi-tui there counts each piece (the last one it joins instead). Recorded in Bun; under the rules that split as it
// does the addon must split and measure them the same, or a line it lays out to the width is
// wider by pi's measure (pi's TUI stops on a line wider than the terminal).
const BUN_CLUSTERS = [
  { text: "\u1B13\u1B44\u1B31", clusters: ["\u1B13\u1B44", "\u1B31"], width: [2, 3] }, // Balinese ka adeg-adeg ssa
  { text: "\u1004\u103A\u1039\u1000", clusters: ["\u1004\u103A\u1039", "\u1000"], width: [2, 3] }, // Myanmar kinzi
  { text: "\u0995\u094D\u1A42", clusters: ["\u0995\u094D", "\u1A42"], width: [2, 2] }, // Bengali virama, Tai Tham
  { text: "2\u{1611E}", clusters: ["2", "\u{1611E}"], width: [1, 1] }, // a Gurung Khema vowel sign (Unicode 16)
  { text: "a\u{11F5A}", clusters: ["a", "\u{11F5A}"], width: [1, 1] }, // a Kawi mark (Unicode 16)
  // and joins what Node splits: HELM SYMBOL, which Unicode 17 took out of Extended_Pictographic (GB11)
  { text: "\u2388\u200D\u2388", clusters: ["\u2388\u200D\u2388"], width: [1, 1] },
];

test("width rules: with unicode15Clusters the addon splits and measures as Bun's segmenter and pi-tui there do", () => {
  try {
    for (const [i, spacingMarks] of [false, true].entries()) {
      addon.setWidthRules({ spacingMarks, currentEastAsianWidth: spacingMarks, unicode15Clusters: true });
      for (const { text, clusters, width } of BUN_CLUSTERS) {
        assert.deepEqual(addon.graphemes(text).map(hex), clusters.map(hex), hex(text));
        assert.equal(addon.visibleWidth(text), width[i], `${hex(text)} with spacingMarks ${spacingMarks}`);
        // At exactly the width: a question line holding the text is laid out no wider than pi measures it.
        const e = addon.createEngine(JSON.stringify({ questions: [{ id: "q", prompt: `${text} `.repeat(12), options: ["x"] }] }));
        for (let w = 1; w <= 40; w++) for (const l of e.render(w, 0)) assert.ok(addon.visibleWidth(l) <= w, `@${w}: ${JSON.stringify(l)}`);
        e.dispose();
      }
      if (IN_BUN)
        for (const { text, clusters } of BUN_CLUSTERS)
          assert.deepEqual(graphemes(text).map(hex), clusters.map(hex), `Bun ${process.versions.bun}: ${hex(text)}`);
    }
    // Node's clusters are unchanged without the flag.
    addon.setWidthRules({ spacingMarks: false, currentEastAsianWidth: false, unicode15Clusters: false });
    assert.deepEqual(addon.graphemes("\u1B13\u1B44\u1B31"), ["\u1B13\u1B44\u1B31"]);
  } finally {
    addon.setWidthRules(selected);
  }
});
