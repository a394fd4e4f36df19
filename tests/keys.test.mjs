// keys.test.mjs — tests of the key decoder (native/core/engine/keys.c) through the addon: every sequence of
// fixtures/key-sequences.json gets the name pi-tui's parseKey gives the same bytes (with the
// deliberate differences listed and checked there), sequences split anywhere or packed
// together decode the same, bracketed paste is exact and bounded, releases are dropped, lock
// bits ignored, garbage never crashes, and pi key ids parse (parseKeyId) as pi reads them.
//
// Addon API used (wired in native/node/text_keys.c):
//   addon.decodeKeys(chunks: Array<string | Buffer>)
//       -> Array<{ name: string, text?: string, paste?: string, repeat?: boolean }>
//     A fresh decoder is fed each chunk in turn (a string as its UTF-8 bytes, a Buffer as raw
//     bytes), then flushed. A key event is { name, text? (what it inserts), repeat? (Kitty
//     repeat, only when true) }; a paste event is { name: "paste", paste }.
//   addon.parseKeyId(id: string) -> { key: number, mods: number } | null
//     key: a code point, or a named key numbered from 0x110000 (see native/core/qt_keys.h);
//     mods: shift 1 | alt 2 | ctrl 4 | super 8.
import { test } from "node:test";
import assert from "node:assert/strict";
import { addon } from "./helpers/addon.mjs"; // the loader's addon: PI_QUESTION_ADDON when set
import { readFileSync } from "node:fs";
import { importPiTui, line, versionAtLeast } from "./helpers/pi-line.mjs";

// pi-tui of the pi line under test (PI_LINE; tests/helpers/pi-line.mjs).
const { parseKey, setKittyProtocolActive, matchesKey, decodeKittyPrintable } = await importPiTui();

const fixture = JSON.parse(readFileSync(new URL("./fixtures/key-sequences.json", import.meta.url), "utf8"));
// The fixture's pi/piKitty/piMatches/why describe the devDependency's pi-tui; an entry's `lines`
// replaces all four from the pi version it names on (the newest that applies to the line here).
const DIFFERENCE_FIELDS = ["pi", "piKitty", "piMatches", "why"];
function forLine(e, version) {
  const since = Object.keys(e.lines ?? {}).filter((v) => versionAtLeast(version, v));
  since.sort((a, b) => (versionAtLeast(a, b) ? 1 : -1));
  const { lines, ...base } = e;
  if (!since.length) return base;
  for (const f of DIFFERENCE_FIELDS) delete base[f];
  return { ...base, ...lines[since.at(-1)] };
}
const sequences = fixture.sequences.map((e) => forLine(e, line.version));

// pi-tui names a raw 0x08 "ctrl+backspace" inside Windows Terminal; the decoder follows the
// other terminals ("backspace"), so compare outside it.
delete process.env.WT_SESSION;

const decode = (...chunks) => addon.decodeKeys(chunks);
const names = (...chunks) => decode(...chunks).map((e) => e.name);
const ESC = 0x1b;
const MiB = 1024 * 1024;

function piName(bytes, kitty) {
  setKittyProtocolActive(kitty);
  try {
    return parseKey(bytes) ?? null;
  } finally {
    setKittyProtocolActive(false);
  }
}

function expectedEvents(e) {
  if (e.name === null) return [];
  const ev = { name: e.name };
  if (e.text !== undefined) ev.text = e.text;
  if (e.repeat) ev.repeat = true;
  return [ev];
}

test("the fixture covers every family with enough sequences", () => {
  assert.ok(sequences.length >= 150, `${sequences.length} sequences`);
  const families = new Set(sequences.map((e) => e.family));
  for (const f of ["text", "c0", "alt", "legacy", "xterm-mods", "modifyOtherKeys", "kitty-u", "kitty-functional"])
    assert.ok(families.has(f), `family ${f}`);
  for (const e of sequences) assert.ok(!("why" in e) || e.why in fixture._differences, `documented why for ${JSON.stringify(e.bytes)}`);
});

test("per-line differences name a pi version and only the difference fields", () => {
  let overrides = 0;
  for (const e of fixture.sequences) {
    for (const [version, fields] of Object.entries(e.lines ?? {})) {
      assert.match(version, /^\d+\.\d+\.\d+$/, JSON.stringify(e.bytes));
      for (const f of Object.keys(fields)) assert.ok(DIFFERENCE_FIELDS.includes(f), `${f} in lines of ${JSON.stringify(e.bytes)}`);
      assert.ok(!("why" in fields) || fields.why in fixture._differences, JSON.stringify(e.bytes));
      overrides++;
    }
  }
  assert.ok(overrides > 0);
  // An override replaces every difference field of the base entry, from its version on.
  const e = { bytes: "x", name: "y", pi: null, why: "undefined", lines: { "0.80.0": { piKitty: null, why: "kitty-state" } } };
  assert.deepEqual(forLine(e, "0.73.1"), { bytes: "x", name: "y", pi: null, why: "undefined" });
  assert.deepEqual(forLine(e, "0.87.1"), { bytes: "x", name: "y", piKitty: null, why: "kitty-state" });
});

test("each fixture sequence decodes to its one event", () => {
  for (const e of sequences) assert.deepEqual(decode(e.bytes), expectedEvents(e), JSON.stringify(e.bytes));
});

test("names equal pi-tui parseKey (Kitty protocol inactive), except the documented differences", (t) => {
  let agree = 0;
  for (const e of sequences) {
    const pi = piName(e.bytes, false);
    assert.equal(pi, "pi" in e ? e.pi : e.name, `parseKey(${JSON.stringify(e.bytes)})`);
    assert.equal("pi" in e, "why" in e && e.why !== "kitty-state", `difference documented for ${JSON.stringify(e.bytes)}`);
    if (pi === e.name) agree++;
  }
  t.diagnostic(`${agree}/${sequences.length} sequences named exactly as parseKey names them (${line.describe()})`);
});

test("names equal pi-tui parseKey (Kitty protocol active), except the documented differences", (t) => {
  let agree = 0;
  for (const e of sequences) {
    const legacy = "pi" in e ? e.pi : e.name;
    const pi = piName(e.bytes, true);
    assert.equal(pi, "piKitty" in e ? e.piKitty : legacy, `parseKey(${JSON.stringify(e.bytes)}) with Kitty active`);
    if ("piKitty" in e && e.piKitty !== e.name) assert.ok(e.why === "kitty-state" || e.why === "undefined", JSON.stringify(e.bytes));
    if (pi === e.name) agree++;
  }
  t.diagnostic(`${agree}/${sequences.length} sequences named exactly as parseKey names them with Kitty active`);
});

test("the deliberate differences are what the fixture says", () => {
  for (const e of sequences) {
    if (!("why" in e)) continue;
    const where = JSON.stringify(e.bytes);
    if (e.why === "shift-letter") {
      assert.match(e.name, /^[A-Z]$/, where);
      assert.deepEqual(addon.parseKeyId(e.name), addon.parseKeyId(e.pi), where);
      assert.ok(matchesKey(e.bytes, `shift+${e.name.toLowerCase()}`), where);
    } else if (e.why === "undefined") {
      assert.equal(e.pi, null, where);
      assert.notEqual(e.name, null, where);
      if (e.piMatches) assert.ok(matchesKey(e.bytes, e.name), where);
    } else if (e.why === "kitty-state") {
      assert.equal(piName(e.bytes, false), e.name, where);
      assert.notEqual(piName(e.bytes, true), e.name, where);
      // Such bytes are never Kitty escape codes: only ESC + one character, or LF.
      assert.ok(e.bytes === "\n" || (e.bytes.length === 2 && e.bytes[0] === "\x1b"), where);
    } else if (e.why === "shifted-symbol") {
      // Ours keeps Shift on the base key; pi's names the shifted character without Shift.
      assert.match(e.name, /^shift\+/, where);
      assert.doesNotMatch(e.pi, /shift\+/, where);
      assert.ok(matchesKey(e.bytes, e.name), `matchesKey(${where}, ${e.name})`);
      assert.ok(matchesKey(e.bytes, e.pi), `matchesKey(${where}, ${e.pi})`);
      const { text } = decode(e.bytes)[0];
      if (text !== undefined) assert.ok(e.pi.endsWith(text), where);
    } else {
      assert.fail(`unknown why ${e.why}`);
    }
  }
});

test("every decoded name is a pi key id that parseKeyId reads", () => {
  for (const e of sequences) {
    if (e.name === null) continue;
    assert.notEqual(addon.parseKeyId(e.name), null, e.name);
    // A shifted symbol is a different id on newer pi-tui (checked with matchesKey above).
    if (e.pi && e.why !== "shifted-symbol") assert.deepEqual(addon.parseKeyId(e.name), addon.parseKeyId(e.pi), `${e.name} vs ${e.pi}`);
  }
});

test("Kitty CSI-u text is what pi-tui would insert", () => {
  const piRegex = /^\x1b\[(\d+)(?::(\d*))?(?::(\d+))?(?:;(\d+))?(?::(\d+))?u$/;
  let checked = 0;
  for (const e of sequences) {
    if (!piRegex.test(e.bytes) || e.name === null) continue;
    const pi = decodeKittyPrintable(e.bytes);
    // pi-tui would "insert" DEL or a private-use functional-key code point; nothing is inserted here.
    if (pi !== undefined && (pi.codePointAt(0) < 0x20 || pi.codePointAt(0) === 0x7f || /[\uE000-\uF8FF]/u.test(pi))) {
      assert.equal(e.text, undefined, JSON.stringify(e.bytes));
      continue;
    }
    assert.equal(e.text, pi, JSON.stringify(e.bytes));
    checked++;
  }
  assert.ok(checked > 40, `${checked} checked`);
});

test("a sequence split at any byte boundary decodes the same", () => {
  // Contract: a lone ESC at the very end of a feed is Escape at once, so splits right after
  // an ESC are not expected to be the same.
  for (const e of sequences) {
    const b = Buffer.from(e.bytes, "utf8");
    const whole = decode(b);
    for (let i = 1; i < b.length; i++) {
      if (b[i - 1] === ESC) continue;
      assert.deepEqual(decode(b.subarray(0, i), b.subarray(i)), whole, `${JSON.stringify(e.bytes)} split at ${i}`);
      for (let j = i + 1; j < b.length; j++) {
        if (b[j - 1] === ESC) continue;
        assert.deepEqual(decode(b.subarray(0, i), b.subarray(i, j), b.subarray(j)), whole, `${JSON.stringify(e.bytes)} split at ${i},${j}`);
      }
    }
  }
});

test("a UTF-8 character split across feeds is held, and half a character at the end is U+FFFD", () => {
  const euro = Buffer.from("€", "utf8");
  assert.deepEqual(decode(euro.subarray(0, 1), euro.subarray(1, 2), euro.subarray(2)), [{ name: "€", text: "€" }]);
  assert.deepEqual(decode(euro.subarray(0, 2)), [{ name: "\uFFFD", text: "\uFFFD" }]);
  assert.deepEqual(decode(Buffer.from([0xff]), "a"), [
    { name: "\uFFFD", text: "\uFFFD" },
    { name: "a", text: "a" },
  ]);
});

test("a lone ESC at the end of a feed is Escape at once; flush delivers what is held", () => {
  assert.deepEqual(names("\x1b", "[A"), ["escape", "[", "A"]);
  assert.deepEqual(names("a\x1b"), ["a", "escape"]);
  assert.deepEqual(names("\x1b[1;", "5A"), ["ctrl+up"]);
  assert.deepEqual(names("\x1b[", "1;5A"), ["ctrl+up"]);
  assert.deepEqual(names("\x1b["), ["alt+["]);
  assert.deepEqual(names("\x1b\x1b"), ["ctrl+alt+["]);
  assert.deepEqual(names("\x1b\x1b[A"), ["alt+up"]);
  assert.deepEqual(names("\x1bO"), ["shift+alt+o"]);
  assert.deepEqual(names("\x1bP"), ["shift+alt+p"]);
  assert.deepEqual(names("\x1b[1;"), []);
});

test("several sequences in one feed decode as if fed one by one", () => {
  // Sequences whose length depends on what follows them are left out.
  const open = new Set(["\x1b", "\x1b[", "\x1bO", "\x1b\x1b"]);
  const usable = sequences.filter((e) => !open.has(e.bytes));
  const expected = usable.flatMap(expectedEvents);
  assert.deepEqual(decode(usable.map((e) => e.bytes).join("")), expected);
  assert.deepEqual(decode(...usable.map((e) => e.bytes)), expected);
  assert.deepEqual(names("abc\x1b[A\x1b[1;5B\r\x1bOP\x1b[97;5u\x7f"), [
    "a",
    "b",
    "c",
    "up",
    "ctrl+down",
    "enter",
    "f1",
    "ctrl+a",
    "backspace",
  ]);
  assert.deepEqual(names("\x1b[A\x1b"), ["up", "escape"]);
});

test("bracketed paste is one event with the exact bytes, never keys, even split anywhere", () => {
  const body = "line 1\nline 2\r\n\ttab \x1b[A \x1b[1;5B \x03 \x1b[200~ \x1b[201 \x1b[20 é 😀 \x1b";
  const input = `x\x1b[200~${body}\x1b[201~y\x1b[B`;
  const expected = [{ name: "x", text: "x" }, { name: "paste", paste: body }, { name: "y", text: "y" }, { name: "down" }];
  assert.deepEqual(decode(input), expected);
  const b = Buffer.from(input, "utf8");
  const pasteEsc = 1; // the ESC opening the paste: a split right after it is a lone ESC
  const afterEnd = b.length - 3; // the ESC of the trailing "\x1b[B"
  for (let i = 1; i < b.length; i++) {
    if (i === pasteEsc + 1 || i === afterEnd + 1) continue;
    assert.deepEqual(decode(b.subarray(0, i), b.subarray(i)), expected, `split at ${i}`);
  }
  for (let i = 3; i < b.length; i += 7)
    for (let j = i + 1; j < b.length; j += 3) {
      if (j === afterEnd + 1) continue;
      assert.deepEqual(decode(b.subarray(0, i), b.subarray(i, j), b.subarray(j)), expected, `split at ${i},${j}`);
    }
  assert.deepEqual(decode("\x1b[200~\x1b[201~"), [{ name: "paste", paste: "" }]);
  assert.deepEqual(decode("\x1b[200~a", "b", "\x1b[2", "01~"), [{ name: "paste", paste: "ab" }]);
  // An open paste stays open through a flush: its bytes are not keys.
  assert.deepEqual(decode("\x1b[200~abc\r"), []);
});

test("Kitty release events are dropped, repeats are delivered as repeats", () => {
  for (const s of [
    "\x1b[97;1:3u",
    "\x1b[97;5:3u",
    "\x1b[1;1:3A",
    "\x1b[1;5:3D",
    "\x1b[3;1:3~",
    "\x1b[13;1:3u",
    "\x1b[1;1:3H",
    "\x1b[97;69:3u",
    "\x1b[27;1:3u",
    "\x1b[57441;2:3u",
  ])
    assert.deepEqual(decode(s), [], JSON.stringify(s));
  assert.deepEqual(decode("a\x1b[97;1:3ub\x1b[98;1:3u"), [
    { name: "a", text: "a" },
    { name: "b", text: "b" },
  ]);
  assert.deepEqual(decode("\x1b[97;1:2u"), [{ name: "a", text: "a", repeat: true }]);
  assert.deepEqual(decode("\x1b[1;1:2B"), [{ name: "down", repeat: true }]);
  assert.deepEqual(decode("\x1b[3;5:2~"), [{ name: "ctrl+delete", repeat: true }]);
  assert.deepEqual(decode("\x1b[97;5:1u"), [{ name: "ctrl+a" }]);
});

test("Caps Lock and Num Lock bits are ignored", () => {
  const pairs = [
    ["\x1b[97;69u", "\x1b[97;5u"],
    ["\x1b[97;133u", "\x1b[97;5u"],
    ["\x1b[97;197u", "\x1b[97;5u"],
    ["\x1b[97;66u", "\x1b[97;2u"],
    ["\x1b[1;65A", "\x1b[A"],
    ["\x1b[1;70C", "\x1b[1;6C"],
    ["\x1b[3;69~", "\x1b[3;5~"],
    ["\x1b[13;130u", "\x1b[13;2u"],
    ["\x1b[27;69;97~", "\x1b[27;5;97~"],
    ["\x1b[97;65u", "a"],
  ];
  for (const [locked, plain] of pairs) assert.deepEqual(decode(locked), decode(plain), JSON.stringify(locked));
});

test("a 2 MiB paste is delivered in pieces of at most 1 MiB, nothing lost", () => {
  const content = "abcdefghij\n".repeat(Math.ceil((2 * MiB) / 11)).slice(0, 2 * MiB + 5);
  const framed = `\x1b[200~${content}\x1b[201~z`;
  const check = (events) => {
    const pastes = events.filter((e) => e.name === "paste");
    assert.ok(pastes.length >= 2, `${pastes.length} pieces`);
    for (const p of pastes) assert.ok(p.paste.length <= MiB, `piece of ${p.paste.length}`);
    assert.equal(pastes.map((p) => p.paste).join(""), content);
    assert.deepEqual(
      events.filter((e) => e.name !== "paste"),
      [{ name: "z", text: "z" }],
    );
  };
  check(decode(framed));
  const chunks = [];
  for (let i = 0; i < framed.length; i += 65531) chunks.push(framed.slice(i, i + 65531));
  check(decode(...chunks));
});

test("garbage bytes never crash, and every event is named with a parseable id", () => {
  let seed = 0x9e3779b9;
  const rand = (n) => {
    seed ^= seed << 13;
    seed >>>= 0;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    seed >>>= 0;
    return seed % n;
  };
  const alphabet = Buffer.from("\x1b\x1b\x1b[[[OOO;;;:::~~uuABCDHFPZM~$^@01234567899\x00\x07\x08\r\n\t\x7f\\]P_ ?<>=abcz", "latin1");
  const extra = [0x80, 0x9b, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xff, 0xfe, 0xc0, 0xed, 0xa0];
  const check = (events) => {
    for (const e of events) {
      if (e.name === "paste") {
        assert.equal(typeof e.paste, "string");
        continue;
      }
      assert.ok(e.name.length > 0, JSON.stringify(e));
      assert.notEqual(addon.parseKeyId(e.name), null, e.name);
    }
  };
  for (let round = 0; round < 3000; round++) {
    const n = rand(48);
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++)
      b[i] = rand(4) === 0 ? extra[rand(extra.length)] : rand(3) === 0 ? rand(256) : alphabet[rand(alphabet.length)];
    const cut = n ? rand(n) : 0;
    check(decode(b));
    check(decode(b.subarray(0, cut), b.subarray(cut)));
  }
  const big = Buffer.alloc(1 << 18);
  for (let i = 0; i < big.length; i++) big[i] = rand(256);
  check(decode(big));
  check(decode(Buffer.from(`\x1b[${"1;".repeat(5000)}A`), "q")); // an absurd sequence, then a key
  assert.deepEqual(names(`\x1b[${"9".repeat(300)}~x`), ["x"]);
  assert.deepEqual(names("\x1b]0;title\x07a\x1bP>|kitty\x1b\\b\x1b_Gi=1;OK\x1b\\c"), ["a", "b", "c"]);
  assert.deepEqual(names("\x1b[?1u\x1b[I\x1b[O\x1b[<35;20;5m\x1b[M !!d"), ["d"]);
  assert.deepEqual(names("\x1bPab\rc"), ["enter", "c"]); // a stray ESC P does not swallow Enter
});

test("parseKeyId reads pi key ids as pi does", () => {
  const p = (id) => addon.parseKeyId(id);
  const K = {
    enter: 0x110000,
    tab: 0x110001,
    escape: 0x110002,
    backspace: 0x110003,
    space: 0x110004,
    delete: 0x110005,
    insert: 0x110006,
    clear: 0x110007,
    home: 0x110008,
    end: 0x110009,
    pageUp: 0x11000a,
    pageDown: 0x11000b,
    up: 0x11000c,
    down: 0x11000d,
    left: 0x11000e,
    right: 0x11000f,
    f1: 0x110010,
  };
  const SHIFT = 1,
    ALT = 2,
    CTRL = 4,
    SUPER = 8;
  assert.deepEqual(p("esc"), p("escape"));
  assert.deepEqual(p("escape"), { key: K.escape, mods: 0 });
  assert.deepEqual(p("return"), p("enter"));
  assert.deepEqual(p("enter"), { key: K.enter, mods: 0 });
  assert.deepEqual(p("ctrl+shift+p"), { key: 0x70, mods: CTRL | SHIFT });
  assert.deepEqual(p("shift+ctrl+p"), p("ctrl+shift+p"));
  assert.deepEqual(p("ctrl+shift+alt+super+x"), { key: 0x78, mods: CTRL | SHIFT | ALT | SUPER });
  assert.deepEqual(p("Ctrl+C"), p("ctrl+c"));
  assert.deepEqual(p("pageUp"), { key: K.pageUp, mods: 0 });
  assert.deepEqual(p("pageup"), p("pageUp"));
  assert.deepEqual(p("shift+pageDown"), { key: K.pageDown, mods: SHIFT });
  for (let i = 1; i <= 12; i++) assert.deepEqual(p(`f${i}`), { key: K.f1 + i - 1, mods: 0 });
  for (const k of ["tab", "space", "backspace", "delete", "insert", "clear", "home", "end", "up", "down", "left", "right"])
    assert.deepEqual(p(k), { key: K[k], mods: 0 }, k);
  assert.deepEqual(p("alt+backspace"), { key: K.backspace, mods: ALT });
  assert.deepEqual(p("shift+tab"), { key: K.tab, mods: SHIFT });
  assert.deepEqual(p("ctrl+1"), { key: 0x31, mods: CTRL });
  for (const s of "`-=[]\\;',./!@#$%^&*()_|~{}:<>?") assert.deepEqual(p(s), { key: s.codePointAt(0), mods: 0 }, s);
  assert.deepEqual(p("ctrl+-"), { key: 0x2d, mods: CTRL });
  assert.deepEqual(p("ctrl+alt+]"), { key: 0x5d, mods: CTRL | ALT });
  assert.deepEqual(p("+"), { key: 0x2b, mods: 0 });
  assert.deepEqual(p("ctrl++"), { key: 0x2b, mods: CTRL });
  // A bare capital is parseKey's name for shift+letter; with modifiers ids are case-insensitive as in pi.
  assert.deepEqual(p("A"), { key: 0x61, mods: SHIFT });
  assert.deepEqual(p("A"), p("shift+a"));
  assert.deepEqual(p("ctrl+A"), p("ctrl+a"));
  for (const bad of ["", "ctrl+", "ctrl", "hyper+a", "meta+a", "f13", "f0", "foo", "ctrl+foo", " ", "a+", "++", "ctrl+ +a", "shift+\t"])
    assert.equal(p(bad), null, JSON.stringify(bad));
});

test("the keys pi binds by default decode to what those ids parse to", () => {
  const cases = [
    ["up", "\x1b[A"],
    ["down", "\x1bOB"],
    ["pageUp", "\x1b[5~"],
    ["pageDown", "\x1b[6~"],
    ["enter", "\r"],
    ["escape", "\x1b"],
    ["escape", "\x1b[27u"],
    ["ctrl+c", "\x03"],
    ["ctrl+c", "\x1b[99;5u"],
    ["tab", "\t"],
    ["shift+tab", "\x1b[Z"],
    ["left", "\x1b[D"],
    ["ctrl+b", "\x02"],
    ["alt+left", "\x1bb"],
    ["ctrl+left", "\x1b[1;5D"],
    ["home", "\x1b[H"],
    ["home", "\x1b[1~"],
    ["end", "\x1bOF"],
    ["backspace", "\x7f"],
    ["delete", "\x1b[3~"],
    ["ctrl+w", "\x17"],
    ["alt+backspace", "\x1b\x7f"],
    ["alt+d", "\x1bd"],
    ["alt+delete", "\x1b[3;3~"],
    ["ctrl+u", "\x15"],
    ["ctrl+k", "\x0b"],
    ["shift+enter", "\x1b[13;2u"],
    ["shift+enter", "\x1b[27;2;13~"],
    ["space", " "],
    ["ctrl+d", "\x04"],
    ["ctrl+-", "\x1f"],
    ["ctrl+]", "\x1d"],
    ["shift+ctrl+p", "\x1b[112;6u"],
    ["/", "/"],
    ["ctrl+c", "\x1b[1089::99;5u"],
  ];
  for (const [id, bytes] of cases) {
    const [ev, ...rest] = decode(bytes);
    assert.equal(rest.length, 0, JSON.stringify(bytes));
    assert.deepEqual(addon.parseKeyId(ev.name), addon.parseKeyId(id), `${JSON.stringify(bytes)} is ${ev.name}, bound as ${id}`);
    assert.ok(matchesKey(bytes, id), `pi-tui agrees that ${JSON.stringify(bytes)} is ${id}`);
  }
});

// ---- whole keys (pi's TUI): nothing is held across feeds ---------------------------------------
test('whole keys: Alt+] then typing arrives (pi hands "\\x1b]" over as one key)', () => {
  const chunks = ["\x1b]", "a", "b", "\x7f", "c"];
  // A raw terminal's bytes may split a reply anywhere: there, "\x1b]" starts one and is held.
  assert.deepEqual(names(...chunks), []);
  const whole = addon.decodeKeys(chunks, { wholeKeys: true });
  assert.deepEqual(
    whole.map((e) => e.name),
    ["alt+]", "a", "b", "backspace", "c"],
  );
  assert.deepEqual(
    whole
      .filter((e) => e.text)
      .map((e) => e.text)
      .join(""),
    "abc",
  );
});

test("whole keys: every unfinished sequence is decided at the end of its chunk", () => {
  const whole = (...chunks) => addon.decodeKeys(chunks, { wholeKeys: true }).map((e) => e.name);
  assert.deepEqual(whole("\x1bP", "x", "\x1b_", "y", "\x1b[", "z", "\x1bO", "w"), [
    "shift+alt+p",
    "x",
    "alt+_",
    "y",
    "alt+[",
    "z",
    "shift+alt+o",
    "w",
  ]);
  assert.deepEqual(whole("\x1b", "q"), ["escape", "q"]);
  // a whole terminal reply is still swallowed, and what follows it is not
  assert.deepEqual(whole("\x1b]11;rgb:0000/0000/0000\x07", "q", "\x1bP>|xterm(1)\x1b\\", "r"), ["q", "r"]);
  // an unterminated one ends with its chunk
  assert.deepEqual(whole("\x1b]11;rgb", "s"), ["s"]);
  // keys packed in one chunk decode as usual
  assert.deepEqual(whole("\x1b[A\x1b[Bab"), ["up", "down", "a", "b"]);
  // a bracketed paste still waits for its end marker
  const paste = addon.decodeKeys(["\x1b[200~one", " two\x1b[201~", "k"], { wholeKeys: true });
  assert.deepEqual(paste, [
    { name: "paste", paste: "one two" },
    { name: "k", text: "k" },
  ]);
});

test("whole keys: an engine set by the TUI adapter keeps the text typed after Alt+]", () => {
  const args = JSON.stringify({ questions: [{ id: "q", prompt: "Say something", options: ["a", "b"] }] });
  const run = (wholeKeys) => {
    const e = addon.createEngine(args);
    if (wholeKeys) e.setWholeKeys(true);
    for (const key of ["\x1b[A", "\r", "h", "i", "\x1b]", "t", "h", "e", "r", "e", "\r"]) e.feed(key);
    const out = { done: e.done, details: e.done ? JSON.parse(e.result("interactive").details) : null };
    e.dispose();
    return out;
  };
  // A raw terminal's decoder holds "\x1b]" as the start of a reply: "there" is swallowed, and
  // the Enter (a control key ends a reply) submits "hi".
  const raw = run(false);
  assert.equal(raw.done, true);
  assert.doesNotMatch(JSON.stringify(raw.details), /there/);
  const whole = run(true);
  assert.equal(whole.done, true);
  assert.match(JSON.stringify(whole.details), /hithere/);
});
