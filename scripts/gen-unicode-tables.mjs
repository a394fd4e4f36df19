// gen-unicode-tables.mjs — writes native/core/text/unicode_tables.h, the code point property tables and
// the RGI emoji sequence list that native/core/text/width.c needs to count columns exactly as pi-tui's
// visibleWidth does. Run it with the Node that pi runs on: `node scripts/gen-unicode-tables.mjs`.
//
// Every fact comes from this Node itself, so the C core agrees with what pi-tui computes here:
//  - general categories and binary properties from the regex engine (\p{...});
//  - Grapheme_Cluster_Break and Indic_Conjunct_Break classes by probing Intl.Segmenter (ICU)
//    with each code point in a fixed set of contexts (JS regexes do not expose these two); and
//    a second time in the Bun that pi's release binary runs on (scripts/current-pi.mjs installs
//    it): Bun 1.3's segmenter is ICU 75 (Unicode 15.1), which leaves the marks of Unicode 16/17
//    as Other and joins conjuncts only across the six Indic viramas of Unicode 15.1, so it
//    splits clusters that this Node's ICU keeps whole; the code points whose classes differ
//    get their Bun classes in a side table, used under the rules that measure like pi in Bun;
//  - East Asian Width from node_modules/get-east-asian-width (what pi-tui imports), and a second
//    time from the get-east-asian-width of the current pi line's pi-tui (scripts/current-pi.mjs
//    installs it; pi-tui 0.87.1 pins 1.6.0, which counts the code points Unicode 17 made wide
//    as 1): native/core/text/width.c uses whichever the host's pi-tui uses;
//  - pi-tui ≥ 0.87's "terminal spacing marks" (Spacing_Mark less U+1734, U+302E, U+302F, plus a
//    few legacy wcwidth exceptions) from the same /v regex pi-tui compiles. \p{Spacing_Mark} is
//    this Node's ICU: the 475 code points of Node 20.20.2 (ICU 78.2) and of Node 24.21.0 (ICU
//    78.3), the current line's Node, are the same; tests/width.test.mjs checks every code point
//    against the Node it runs on, so a Node whose ICU differs shows up there;
//  - the multi-code-point RGI emoji strings from ICU's own emoji data (uemoji.icu, embedded in
//    the node binary): JS cannot enumerate a property of strings, so the string tries are
//    read and every string is re-checked with the /v regex \p{RGI_Emoji}; the enumerable
//    parts (keycaps, flags, modifier sequences, "X FE0F") are cross-checked by brute force.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { eastAsianWidth } from "get-east-asian-width";
import { currentLine, ensureBun } from "./current-pi.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "native", "core", "text", "unicode_tables.h");
const MAX = 0x110000;
const isSurrogate = (cp) => cp >= 0xd800 && cp <= 0xdfff;

function die(msg) {
  console.error(`gen-unicode-tables: ${msg}`);
  process.exit(1);
}

// ---- Grapheme_Cluster_Break / InCB classes by probing Intl.Segmenter --------------------
const GCB = ["OTHER", "CR", "LF", "CONTROL", "EXTEND", "ZWJ", "RI", "PREPEND", "SPACINGMARK", "L", "V", "T", "LV", "LVT"];
const G = Object.fromEntries(GCB.map((n, i) => [n, i]));
const INCB = ["NONE", "CONSONANT", "EXTEND", "LINKER"];
const I = Object.fromEntries(INCB.map((n, i) => [n, i]));

// Each probe is [before, after]: the probe string is before + X + after, and the bit is set
// when the segmenter puts no boundary inside it.
const PROBES = [
  ["a", ""], //               0: a × X          X is Extend, ZWJ or SpacingMark (GB9, GB9a)
  ["", "a"], //               1: X × a          X is Prepend (GB9b)
  ["", "\u0301"], //          2: X × mark       false only after Control/CR/LF (GB4)
  ["\u{1F600}", "\u200D\u{1F600}"], // 3: pict X ZWJ × pict    X is Extend (GB11)
  ["", "\u1100"], //          4: X × L          X is L (GB6)
  ["", "\u1161"], //          5: X × V          X is L, V or LV (GB6, GB7)
  ["", "\u11A8"], //          6: X × T          X is V, LV, T or LVT (GB7, GB8)
  ["\uAC00", ""], //          7: LV × X         X is V or T (GB7) or joins anyway (GB9)
  ["", "\u094D\u0915"], //    8: X virama × ka  X is InCB=Consonant (GB9c)
  ["\u0915", "\u0915"], //    9: ka X × ka      X is InCB=Linker (GB9c)
  ["\u0915", "\u094D\u0915"], // 10: ka X virama × ka  X is InCB=Extend or Linker (GB9c)
  ["", "\u200D\u{1F600}"], // 11: X ZWJ × pict   X is Extended_Pictographic (GB11) or Prepend
];

function probeClasses() {
  const seg = new Intl.Segmenter(undefined, { granularity: "grapheme" });
  const gcb = new Uint8Array(MAX);
  const incb = new Uint8Array(MAX);
  const pict = new Uint8Array(MAX); // Extended_Pictographic as the segmenter applies GB11
  for (let cp = 0; cp < MAX; cp++) {
    if (cp === 0x0d) {
      gcb[cp] = G.CR;
      continue;
    }
    if (cp === 0x0a) {
      gcb[cp] = G.LF;
      continue;
    }
    if (isSurrogate(cp)) {
      gcb[cp] = G.CONTROL;
      continue;
    } // never reaches the C side
    if (cp === 0x200d) {
      gcb[cp] = G.ZWJ;
    }
    const x = String.fromCodePoint(cp);
    let s = "";
    const spans = [];
    for (const [a, b] of PROBES) {
      const start = s.length;
      s += a + x + b;
      spans.push([start, s.length]);
      s += "\n"; // LF breaks on both sides (X is neither CR nor LF here)
    }
    const bounds = new Set();
    for (const { index } of seg.segment(s)) bounds.add(index);
    let bits = 0;
    spans.forEach(([st, en], i) => {
      for (let k = st + 1; k < en; k++) if (bounds.has(k)) return;
      bits |= 1 << i;
    });
    const j = (i) => (bits >> i) & 1;
    let c;
    if (cp === 0x200d) c = G.ZWJ;
    else if (!j(2)) c = G.CONTROL;
    else if (j(1)) c = G.PREPEND;
    else if (j(0)) c = j(3) ? G.EXTEND : G.SPACINGMARK;
    else if (j(4)) c = G.L;
    else if (j(5)) c = j(7) ? G.V : G.LV;
    else if (j(6)) c = j(7) ? G.T : G.LVT;
    else c = G.OTHER;
    gcb[cp] = c;
    incb[cp] = j(8) ? I.CONSONANT : j(9) ? I.LINKER : j(10) ? I.EXTEND : I.NONE;
    pict[cp] = j(11) && c !== G.PREPEND ? 1 : 0;
  }
  // Regional indicators segment as Other when alone; their class is the property.
  for (let cp = 0x1f1e6; cp <= 0x1f1ff; cp++) gcb[cp] = G.RI;
  return { gcb, incb, pict };
}

// ---- the RGI emoji strings of ICU's emoji data --------------------------------------------
// uemoji.icu: a udata header (…, magic 0xda 0x27, UDataInfo with dataFormat "Emoj"), then
// int32 indexes[16]; indexes[4..9] are the byte offsets of six UCharsTrie string tries:
// Basic_Emoji, Emoji_Keycap_Sequence, RGI_Emoji_Modifier_Sequence, RGI_Emoji_Flag_Sequence,
// RGI_Emoji_Tag_Sequence, RGI_Emoji_ZWJ_Sequence (each ends where the next one starts).
const STRING_PROPS = [
  "Basic_Emoji",
  "Emoji_Keycap_Sequence",
  "RGI_Emoji_Modifier_Sequence",
  "RGI_Emoji_Flag_Sequence",
  "RGI_Emoji_Tag_Sequence",
  "RGI_Emoji_ZWJ_Sequence",
];

function icuEmojiStrings() {
  const bin = readFileSync(process.execPath);
  let at = -1;
  for (let p = bin.indexOf("Emoj", 0, "latin1"); p >= 0; p = bin.indexOf("Emoj", p + 1, "latin1")) {
    if (
      p >= 12 &&
      bin[p - 10] === 0xda &&
      bin[p - 9] === 0x27 &&
      bin[p - 8] === 20 /* UDataInfo size */ &&
      bin[p - 4] === 0 /* little-endian */
    ) {
      at = p;
      break;
    }
  }
  if (at < 0) {
    die(`this node (${process.execPath}) has no embedded ICU emoji data (uemoji.icu); run the generator with a node built with full ICU`);
  }
  const base = at - 12 + bin.readUInt16LE(at - 12);
  const ix = [];
  for (let i = 0; i < 16; i++) ix.push(bin.readInt32LE(base + 4 * i));
  const sets = {};
  STRING_PROPS.forEach((name, k) => {
    const a = ix[4 + k],
      b = ix[5 + k];
    if (!(a > 0 && b >= a && (b - a) % 2 === 0)) die(`unexpected uemoji.icu layout (${ix.join(",")})`);
    const u = new Uint16Array((b - a) / 2);
    for (let i = 0; i < u.length; i++) u[i] = bin.readUInt16LE(base + a + 2 * i);
    sets[name] = charsTrieStrings(u);
  });
  return sets;
}

// All strings of a serialized ICU UCharsTrie (format of ucharstrie.h).
function charsTrieStrings(u) {
  const kMinLinearMatch = 0x30,
    kMaxBranchLinearSubNodeLength = 5,
    kMinValueLead = 0x40,
    kNodeTypeMask = 0x3f,
    kMinTwoUnitValueLead = 0x4000,
    kThreeUnitValueLead = 0x7fff,
    kMinTwoUnitNodeValueLead = 0x4040,
    kThreeUnitNodeValueLead = 0x7fc0,
    kMinTwoUnitDeltaLead = 0xfc00,
    kThreeUnitDeltaLead = 0xffff;
  const found = [];
  const at = (pos) => {
    if (pos < 0 || pos >= u.length) die("corrupt UCharsTrie in uemoji.icu");
    return u[pos];
  };
  const skipValue = (pos, lead) => (lead >= kMinTwoUnitValueLead ? (lead < kThreeUnitValueLead ? pos + 1 : pos + 2) : pos);
  const skipNodeValue = (pos, lead) => (lead >= kMinTwoUnitNodeValueLead ? (lead < kThreeUnitNodeValueLead ? pos + 1 : pos + 2) : pos);
  function node(pos, str, depth) {
    if (depth > 200) die("UCharsTrie too deep");
    for (;;) {
      let n = at(pos++);
      if (n >= kMinValueLead) {
        found.push(str);
        if (n & 0x8000) return; // final value
        pos = skipNodeValue(pos, n);
        n &= kNodeTypeMask;
      }
      if (n < kMinLinearMatch) {
        if (n === 0) n = at(pos++);
        branch(pos, n + 1, str, depth + 1);
        return;
      }
      const len = n - kMinLinearMatch + 1;
      for (let i = 0; i < len; i++) str += String.fromCharCode(at(pos + i));
      pos += len;
    }
  }
  function branch(pos, length, str, depth) {
    while (length > kMaxBranchLinearSubNodeLength) {
      pos++; // comparison unit
      let delta = at(pos++);
      if (delta >= kMinTwoUnitDeltaLead) {
        if (delta === kThreeUnitDeltaLead) {
          delta = (at(pos) << 16) | at(pos + 1);
          pos += 2;
        } else {
          delta = ((delta - kMinTwoUnitDeltaLead) << 16) | at(pos++);
        }
      }
      branch(pos, length - (length >> 1), str, depth + 1); // greater-or-equal edge
      length >>= 1;
      pos += delta; // less-than edge
    }
    for (let i = 0; i < length; i++) {
      const unit = String.fromCharCode(at(pos++));
      if (i === length - 1) {
        node(pos, str + unit, depth + 1);
        return;
      }
      let lead = at(pos++);
      const final = lead & 0x8000;
      lead &= 0x7fff;
      let value;
      if (lead < kMinTwoUnitValueLead) value = lead;
      else if (lead < kThreeUnitValueLead) value = ((lead - kMinTwoUnitValueLead) << 16) | at(pos);
      else value = (at(pos) << 16) | at(pos + 1);
      pos = skipValue(pos, lead);
      if (final) found.push(str + unit);
      else node(pos + value, str + unit, depth + 1);
    }
  }
  node(0, "", 0);
  return found;
}

function rgiSequences() {
  const sets = icuEmojiStrings();
  const all = new Set();
  const rgi = /^\p{RGI_Emoji}$/v;
  for (const name of STRING_PROPS) {
    const re = new RegExp(`^\\p{${name}}$`, "v");
    for (const s of sets[name]) {
      if (!re.test(s) || !rgi.test(s)) die(`ICU emoji string not in \\p{${name}}: ${hexs(s)}`);
      if ([...s].length < 2) die(`single code point in a string trie: ${hexs(s)}`);
      all.add(s);
    }
  }
  // Cross-check the parts that can be enumerated by brute force.
  const expect = (name, cands) => {
    const re = new RegExp(`^\\p{${name}}$`, "v");
    const want = new Set(cands.filter((s) => re.test(s)));
    const got = new Set(sets[name]);
    for (const s of want) if (!got.has(s)) die(`ICU data misses ${name} ${hexs(s)}`);
    if (want.size !== got.size) die(`${name}: ${got.size} strings read, ${want.size} expected`);
  };
  const cps = (test) => {
    const r = [];
    for (let cp = 0; cp < MAX; cp++) if (!isSurrogate(cp) && test(cp)) r.push(cp);
    return r;
  };
  const emoji = cps((cp) => /\p{Emoji}/u.test(String.fromCodePoint(cp)));
  expect(
    "Basic_Emoji",
    emoji.map((cp) => String.fromCodePoint(cp, 0xfe0f)),
  );
  const keycaps = [];
  for (let cp = 0x20; cp < 0x7f; cp++) keycaps.push(String.fromCodePoint(cp, 0xfe0f, 0x20e3));
  expect("Emoji_Keycap_Sequence", keycaps);
  const mods = [];
  for (const cp of cps((c) => /\p{Emoji_Modifier_Base}/u.test(String.fromCodePoint(c)))) {
    for (let m = 0x1f3fb; m <= 0x1f3ff; m++) mods.push(String.fromCodePoint(cp, m));
  }
  expect("RGI_Emoji_Modifier_Sequence", mods);
  const flags = [];
  for (let a = 0x1f1e6; a <= 0x1f1ff; a++) for (let b = 0x1f1e6; b <= 0x1f1ff; b++) flags.push(String.fromCodePoint(a, b));
  expect("RGI_Emoji_Flag_Sequence", flags);
  const seqs = [...all].map((s) => [...s].map((c) => c.codePointAt(0)));
  seqs.sort((a, b) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
    return a.length - b.length;
  });
  return { seqs, counts: Object.fromEntries(STRING_PROPS.map((n) => [n, sets[n].length])) };
}

function hexs(s) {
  return [...s].map((c) => c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")).join(" ");
}

// ---- per code point property word ----------------------------------------------------------
// bits 0-3 GCB class, 4-5 InCB, 6 Extended_Pictographic, 7 zero-width (pi-tui's zeroWidthRegex:
// Default_Ignorable | Cc | Mark | Surrogate), 8 leading non-printing (the same plus Cf),
// 9 a single-code-point RGI emoji, 10 East Asian Wide or Fullwidth, 11 a terminal spacing mark
// (pi-tui ≥ 0.87), 12 \p{Mark}, 13 East Asian Wide or Fullwidth by the current line's
// get-east-asian-width, 14 Bun's segmenter gives it other GCB/InCB/Extended_Pictographic classes
// (bits 0-6; the side table).
const TERMINAL_SPACING_MARK =
  /^(?:[\p{Spacing_Mark}--[\u1734\u302E\u302F]]|[\u065F\u0F7F\u102B\u102C\u1031\u1033-\u1035\u1038\u103A-\u103E])$/v;

// The current pi line's get-east-asian-width (the one its pi-tui resolves: hoisted next to it).
async function currentEastAsianWidth() {
  const line = currentLine();
  const dir = join(line.dir, "node_modules", "get-east-asian-width");
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  } catch {
    die(`the current pi line is not installed (no ${dir}): run \`node scripts/current-pi.mjs\` first`);
  }
  const mod = await import(pathToFileURL(join(dir, manifest.exports?.default ?? manifest.exports ?? "index.js")).href);
  return { eastAsianWidth: mod.eastAsianWidth, version: manifest.version, pi: line.piVersion };
}

function propertyWords(gcb, incb, currentEaw, altDiffers) {
  const re = (src) => new RegExp(src, "u");
  const reZero = re("^(?:\\p{Default_Ignorable_Code_Point}|\\p{Control}|\\p{Mark}|\\p{Surrogate})$");
  const reLead = re("^[\\p{Default_Ignorable_Code_Point}\\p{Control}\\p{Format}\\p{Mark}\\p{Surrogate}]$");
  const rePict = re("^\\p{Extended_Pictographic}$");
  const reRgi = /^\p{RGI_Emoji}$/v;
  const words = new Uint16Array(MAX);
  for (let cp = 0; cp < MAX; cp++) {
    // A lone surrogate cannot come from UTF-8; the C side never sees one.
    const x = isSurrogate(cp) ? "\uFFFD" : String.fromCodePoint(cp);
    let w = gcb[cp] | (incb[cp] << 4);
    if (rePict.test(x)) w |= 1 << 6;
    if (isSurrogate(cp) || reZero.test(x)) w |= 1 << 7;
    if (isSurrogate(cp) || reLead.test(x)) w |= 1 << 8;
    if (reRgi.test(x)) w |= 1 << 9;
    if (eastAsianWidth(cp) === 2) w |= 1 << 10;
    if (TERMINAL_SPACING_MARK.test(x)) w |= 1 << 11;
    if (/^\p{Mark}$/u.test(x)) w |= 1 << 12;
    if (currentEaw(cp) === 2) w |= 1 << 13;
    if (altDiffers(cp)) w |= 1 << 14;
    words[cp] = w;
  }
  return words;
}

// ---- Bun's segmenter classes -----------------------------------------------------------------
// `<bun> gen-unicode-tables.mjs --segmenter-classes <file>` writes the GCB, InCB and
// Extended_Pictographic bytes of every code point as that runtime's Intl.Segmenter gives them.
if (process.argv[2] === "--segmenter-classes") {
  const { gcb, incb, pict } = probeClasses();
  writeFileSync(process.argv[3], Buffer.concat([Buffer.from(gcb), Buffer.from(incb), Buffer.from(pict)]));
  process.exit(0);
}

function bunClasses() {
  const bun = ensureBun();
  const dir = mkdtempSync(join(tmpdir(), "pi-question-gen-"));
  try {
    const file = join(dir, "classes");
    const r = spawnSync(bun.bun, [fileURLToPath(import.meta.url), "--segmenter-classes", file], {
      stdio: ["ignore", "inherit", "inherit"],
    });
    if (r.status !== 0) die(`probing Bun ${bun.version}'s segmenter failed (${r.error?.message ?? `exit ${r.status}`})`);
    const both = readFileSync(file);
    if (both.length !== 3 * MAX) die(`Bun wrote ${both.length} bytes of classes, expected ${3 * MAX}`);
    const v = spawnSync(bun.bun, ["-e", "console.log(process.versions.icu + ' ' + process.versions.unicode)"], { encoding: "utf8" });
    const [icu, unicode] = (v.stdout ?? "").trim().split(" ");
    return { gcb: both.subarray(0, MAX), incb: both.subarray(MAX, 2 * MAX), pict: both.subarray(2 * MAX), bun: bun.version, icu, unicode };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- main ------------------------------------------------------------------------------------
const t0 = Date.now();
const { gcb, incb, pict } = probeClasses();
const rePict = /^\p{Extended_Pictographic}$/u;
for (let cp = 0; cp < MAX; cp++) {
  if (!isSurrogate(cp) && pict[cp] !== (rePict.test(String.fromCodePoint(cp)) ? 1 : 0)) {
    die(`this Node's segmenter and its \\p{Extended_Pictographic} disagree on U+${cp.toString(16)}`);
  }
}
// Bun's segmenter: GCB, InCB and Extended_Pictographic (the low 7 bits of the property word;
// Bun's ICU 75 still joins by ZWJ some symbols that Unicode 17 took out of the property).
const alt = bunClasses();
const altLow = (cp) => alt.gcb[cp] | (alt.incb[cp] << 4) | (alt.pict[cp] << 6);
const nodeLow = (cp) => gcb[cp] | (incb[cp] << 4) | (pict[cp] << 6);
const altDiffers = (cp) => !isSurrogate(cp) && altLow(cp) !== nodeLow(cp);
if (alt.incb[0x0915] !== I.CONSONANT || alt.incb[0x094d] !== I.LINKER || alt.gcb[0x0300] !== G.EXTEND) {
  die(`Bun ${alt.bun}'s segmenter does not implement GB9c as expected`);
}
// Runs of code points whose Bun classes differ, with the same Bun classes: [start, end) value.
const altRuns = [];
for (let cp = 0; cp < MAX; cp++) {
  if (!altDiffers(cp)) continue;
  const value = altLow(cp);
  const last = altRuns[altRuns.length - 1];
  if (last && last.end === cp && last.value === value) last.end++;
  else altRuns.push({ start: cp, end: cp + 1, value });
}
for (const [cp, want] of [
  [0x0300, G.EXTEND],
  [0x0903, G.SPACINGMARK],
  [0x0600, G.PREPEND],
  [0x1100, G.L],
  [0x1161, G.V],
  [0x11a8, G.T],
  [0xac00, G.LV],
  [0xac01, G.LVT],
  [0x0007, G.CONTROL],
  [0x0041, G.OTHER],
  [0x1f3fb, G.EXTEND],
  [0xe0100, G.EXTEND],
]) {
  if (gcb[cp] !== want) die(`probe gave U+${cp.toString(16)} class ${GCB[gcb[cp]]}, expected ${GCB[want]}`);
}
if (incb[0x0915] !== I.CONSONANT || incb[0x094d] !== I.LINKER || incb[0x0300] !== I.EXTEND) {
  die("the segmenter does not implement GB9c as expected");
}
const current = await currentEastAsianWidth();
const words = propertyWords(gcb, incb, current.eastAsianWidth, altDiffers);
const { seqs, counts } = rgiSequences();

// width.c treats a run of printable ASCII as one column per byte without looking it up.
for (let cp = 0x20; cp < 0x7f; cp++) if (words[cp] !== 0) die(`printable ASCII U+${cp.toString(16)} has properties ${words[cp]}`);

const starts = [],
  values = [];
for (let cp = 0; cp < MAX; cp++) {
  if (cp === 0 || words[cp] !== words[cp - 1]) {
    starts.push(cp);
    values.push(words[cp]);
  }
}
const seqCps = [],
  seqOff = [0];
for (const s of seqs) {
  seqCps.push(...s);
  seqOff.push(seqCps.length);
}
const maxSeq = Math.max(...seqs.map((s) => s.length));
if (seqCps.length > 0xffff) die("RGI sequence table too big for 16-bit offsets");

const hex = (n, w) => "0x" + n.toString(16).toUpperCase().padStart(w, "0");
function rows(list, w, per) {
  const lines = [];
  for (let i = 0; i < list.length; i += per)
    lines.push(
      "  " +
        list
          .slice(i, i + per)
          .map((n) => hex(n, w))
          .join(", ") +
        ",",
    );
  return lines.join("\n");
}
const gebDir = dirname(fileURLToPath(import.meta.resolve("get-east-asian-width")));
const gebVersion = JSON.parse(readFileSync(join(gebDir, "package.json"), "utf8")).version;
const text = `/* unicode_tables.h — GENERATED by \`node scripts/gen-unicode-tables.mjs\`; do not edit by hand.
 * Code point properties and RGI emoji sequences for native/core/text/width.c, taken from Node ${process.versions.node}
 * (Unicode ${process.versions.unicode}, ICU ${process.versions.icu}) and get-east-asian-width ${gebVersion} (that of
 * pi ${current.pi}'s pi-tui: ${current.version}), so that widths agree with pi-tui's visibleWidth.
 * Included by width.c only. */
#ifndef QT_UNICODE_TABLES_H
#define QT_UNICODE_TABLES_H

#include <stdint.h>

#define QT_UNICODE_VERSION "${process.versions.unicode}"

/* Grapheme_Cluster_Break classes (UAX #29), derived from Intl.Segmenter. */
enum {
${GCB.map((n, i) => `  QT_GCB_${n} = ${i},`).join("\n")}
};
/* Indic_Conjunct_Break values (GB9c). */
enum {
${INCB.map((n, i) => `  QT_INCB_${n} = ${i},`).join("\n")}
};

/* Property word bits. */
#define QT_P_GCB_MASK 0x000Fu
#define QT_P_INCB_SHIFT 4
#define QT_P_INCB_MASK 0x0030u
#define QT_P_PICT 0x0040u  /* Extended_Pictographic */
#define QT_P_ZERO 0x0080u  /* Default_Ignorable | Cc | Mark | Surrogate: zero width alone */
#define QT_P_LEAD 0x0100u  /* the same plus Cf: skipped before the base character */
#define QT_P_EMOJI 0x0200u /* the code point alone is \\p{RGI_Emoji} */
#define QT_P_WIDE 0x0400u  /* East Asian Wide or Fullwidth */
#define QT_P_TSM 0x0800u   /* a terminal spacing mark of pi-tui >= 0.87 */
#define QT_P_MARK 0x1000u  /* \\p{Mark} */
#define QT_P_WIDE_CURRENT 0x2000u /* East Asian Wide or Fullwidth by get-east-asian-width ${current.version} */
#define QT_P_ALT_CLUSTERS 0x4000u /* other bits 0-6 in Bun's segmenter: qt_alt_* */

/* Words of U+0000..U+007F, looked up directly. */
static const uint16_t qt_ascii_value[128] = {
${rows([...words.subarray(0, 128)], 4, 10)}
};

/* Code point ranges: range i is [qt_prop_start[i], qt_prop_start[i + 1]) with word
 * qt_prop_value[i]; the last one runs to U+10FFFF. */
#define QT_PROP_RANGES ${starts.length}
static const uint32_t qt_prop_start[QT_PROP_RANGES] = {
${rows(starts, 5, 8)}
};
static const uint16_t qt_prop_value[QT_PROP_RANGES] = {
${rows(values, 4, 10)}
};

/* The Grapheme_Cluster_Break, Indic_Conjunct_Break and Extended_Pictographic classes (value:
 * the word's bits 0-6, GCB | InCB << 4 | Extended_Pictographic << 6) that
 * Bun ${alt.bun}'s Intl.Segmenter (ICU ${alt.icu}, Unicode ${alt.unicode}) gives where they differ from the
 * ones above (${altRuns.reduce((n, r) => n + r.end - r.start, 0)} code points): range i is [qt_alt_start[i], qt_alt_end[i]). */
#define QT_ALT_RANGES ${altRuns.length}
static const uint32_t qt_alt_start[QT_ALT_RANGES] = {
${rows(
  altRuns.map((r) => r.start),
  5,
  8,
)}
};
static const uint32_t qt_alt_end[QT_ALT_RANGES] = {
${rows(
  altRuns.map((r) => r.end),
  5,
  8,
)}
};
static const uint8_t qt_alt_value[QT_ALT_RANGES] = {
${rows(
  altRuns.map((r) => r.value),
  2,
  12,
)}
};

/* Multi-code-point RGI emoji strings (${Object.entries(counts)
  .map(([k, v]) => `${k} ${v}`)
  .join(", ")}),
 * sorted by code point sequence: string i is qt_rgi_cps[qt_rgi_off[i] .. qt_rgi_off[i + 1]). */
#define QT_RGI_COUNT ${seqs.length}
#define QT_RGI_MAX_CPS ${maxSeq}
static const uint32_t qt_rgi_cps[${seqCps.length}] = {
${rows(seqCps, 4, 8)}
};
static const uint16_t qt_rgi_off[QT_RGI_COUNT + 1] = {
${rows(seqOff, 4, 10)}
};

#endif
`;
writeFileSync(out, text);
console.log(
  `wrote ${out}: ${starts.length} ranges, ${seqs.length} RGI sequences (max ${maxSeq} code points) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
);
