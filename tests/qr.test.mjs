// qr.test.mjs — the QR encoder of the web page's URL (extension/elsewhere/qr.ts), checked against the
// standard's published values (format and version information, Reed–Solomon codewords,
// capacities, alignment positions) and read back by an independent decoder written here from
// ISO/IEC 18004 (its own block table, its own GF(256) with exp/log tables, syndromes instead of
// re-encoding): the structure is right, every block's error correction checks, and the text
// comes back. No scanner is available offline, so this reader stands in for one.
import assert from "node:assert/strict";
import { test } from "node:test";
import { importShim } from "./helpers/shim.mjs";

const qr = await importShim("elsewhere/qr.ts");

// ---- published values ------------------------------------------------------------------------

/** Format information strings (ISO/IEC 18004 table C.1), MSB first, by level and mask. */
const FORMAT = {
  L: [
    "111011111000100",
    "111001011110011",
    "111110110101010",
    "111100010011101",
    "110011000101111",
    "110001100011000",
    "110110001000001",
    "110100101110110",
  ],
  M: [
    "101010000010010",
    "101000100100101",
    "101111001111100",
    "101101101001011",
    "100010111111001",
    "100000011001110",
    "100111110010111",
    "100101010100000",
  ],
};
/** Version information (table D.1). */
const VERSION_INFO = { 7: "000111110010010100", 8: "001000010110111100", 9: "001001101010011001", 10: "001010010011010011" };
/** Byte-mode capacity in characters (table 7), versions 1 to 10. */
const CAPACITY = { L: [17, 32, 53, 78, 106, 134, 154, 192, 230, 271], M: [14, 26, 42, 62, 84, 106, 122, 152, 180, 213] };
/** Alignment pattern centres (annex E). */
const ALIGN = {
  1: [],
  2: [6, 18],
  3: [6, 22],
  4: [6, 26],
  5: [6, 30],
  6: [6, 34],
  7: [6, 22, 38],
  8: [6, 24, 42],
  9: [6, 26, 46],
  10: [6, 28, 50],
  15: [6, 26, 48, 70],
  32: [6, 34, 60, 86, 112, 138],
  40: [6, 30, 58, 86, 114, 142, 170],
};
/** Error correction blocks (table 9): [count, total codewords, data codewords] groups. */
const BLOCKS = {
  "1L": [[1, 26, 19]],
  "1M": [[1, 26, 16]],
  "2L": [[1, 44, 34]],
  "2M": [[1, 44, 28]],
  "3L": [[1, 70, 55]],
  "3M": [[1, 70, 44]],
  "4L": [[1, 100, 80]],
  "4M": [[2, 50, 32]],
  "5L": [[1, 134, 108]],
  "5M": [[2, 67, 43]],
  "6L": [[2, 86, 68]],
  "6M": [[4, 43, 27]],
  "7L": [[2, 98, 78]],
  "7M": [[4, 49, 31]],
  "8L": [[2, 121, 97]],
  "8M": [
    [2, 60, 38],
    [2, 61, 39],
  ],
  "9L": [[2, 146, 116]],
  "9M": [
    [3, 58, 36],
    [2, 59, 37],
  ],
  "10L": [
    [2, 86, 68],
    [2, 87, 69],
  ],
  "10M": [
    [4, 69, 43],
    [1, 70, 44],
  ],
};

// ---- an independent reader ---------------------------------------------------------------------

const EXP = new Array(512);
const LOG = new Array(256);
for (let i = 0, x = 1; i < 255; i++) {
  EXP[i] = x;
  LOG[x] = i;
  x <<= 1;
  if (x & 0x100) x ^= 0x11d;
}
for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255];
const mul = (a, b) => (a === 0 || b === 0 ? 0 : EXP[LOG[a] + LOG[b]]);

/** The codeword polynomial evaluated at α^j for j < ecc: all zero for a valid block. */
function syndromes(block, ecc) {
  const out = [];
  for (let j = 0; j < ecc; j++) {
    let s = 0;
    for (const c of block) s = mul(s, EXP[j]) ^ c;
    out.push(s);
  }
  return out;
}

const MASK = [
  (i, j) => (i + j) % 2 === 0,
  (i) => i % 2 === 0,
  (_i, j) => j % 3 === 0,
  (i, j) => (i + j) % 3 === 0,
  (i, j) => (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0,
  (i, j) => ((i * j) % 2) + ((i * j) % 3) === 0,
  (i, j) => (((i * j) % 2) + ((i * j) % 3)) % 2 === 0,
  (i, j) => (((i * j) % 3) + ((i + j) % 2)) % 2 === 0,
]; // i: row, j: column, as the standard writes them

function decode(m) {
  const n = m.length;
  const version = (n - 17) / 4;
  assert.ok(Number.isInteger(version) && version >= 1, `size ${n}`);
  const dark = (row, col) => m[row][col];

  // Finder patterns with their separators, timing patterns, the dark module.
  for (const [r0, c0] of [
    [0, 0],
    [0, n - 7],
    [n - 7, 0],
  ]) {
    for (let r = -1; r <= 7; r++) {
      for (let c = -1; c <= 7; c++) {
        const row = r0 + r,
          col = c0 + c;
        if (row < 0 || col < 0 || row >= n || col >= n) continue;
        const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3));
        assert.equal(dark(row, col), ring !== 2 && ring <= 3, `finder at ${r0},${c0}: ${row},${col}`);
      }
    }
  }
  for (let k = 8; k < n - 8; k++) {
    assert.equal(dark(6, k), k % 2 === 0, `timing row at ${k}`);
    assert.equal(dark(k, 6), k % 2 === 0, `timing column at ${k}`);
  }
  assert.equal(dark(n - 8, 8), true, "the dark module");

  // Format information, both copies (bit 14 first).
  const first = [
    [8, 0],
    [8, 1],
    [8, 2],
    [8, 3],
    [8, 4],
    [8, 5],
    [8, 7],
    [8, 8],
    [7, 8],
    [5, 8],
    [4, 8],
    [3, 8],
    [2, 8],
    [1, 8],
    [0, 8],
  ];
  const second = [
    [n - 1, 8],
    [n - 2, 8],
    [n - 3, 8],
    [n - 4, 8],
    [n - 5, 8],
    [n - 6, 8],
    [n - 7, 8],
    [8, n - 8],
    [8, n - 7],
    [8, n - 6],
    [8, n - 5],
    [8, n - 4],
    [8, n - 3],
    [8, n - 2],
    [8, n - 1],
  ];
  const read = (cells) => cells.map(([r, c]) => (dark(r, c) ? "1" : "0")).join("");
  const format = read(first);
  assert.equal(read(second), format, "both format copies agree");
  const level = Object.keys(FORMAT).find((l) => FORMAT[l].includes(format));
  assert.ok(level, `a valid format string: ${format}`);
  const mask = FORMAT[level].indexOf(format);

  // Version information (7 and up): the 6x3 block above the bottom-left finder, and its mirror.
  if (version >= 7) {
    let a = "",
      b = "";
    for (let k = 17; k >= 0; k--) {
      a += dark(Math.floor(k / 3), n - 11 + (k % 3)) ? "1" : "0";
      b += dark(n - 11 + (k % 3), Math.floor(k / 3)) ? "1" : "0";
    }
    assert.equal(a, VERSION_INFO[version], "version information, top right");
    assert.equal(b, VERSION_INFO[version], "version information, bottom left");
  }

  // Which modules hold data.
  const align = ALIGN[version];
  const isFunction = (r, c) => {
    if (r === 6 || c === 6) return true;
    if ((r < 9 && c < 9) || (r < 9 && c >= n - 8) || (r >= n - 8 && c < 9)) return true;
    if (version >= 7 && ((r < 6 && c >= n - 11 && c < n - 8) || (c < 6 && r >= n - 11 && r < n - 8))) return true;
    for (const ar of align) {
      for (const ac of align) {
        if ((ar === 6 && ac === 6) || (ar === 6 && ac === n - 7) || (ar === n - 7 && ac === 6)) continue;
        if (Math.abs(r - ar) <= 2 && Math.abs(c - ac) <= 2) return true;
      }
    }
    return false;
  };
  for (const ar of align) {
    for (const ac of align) {
      if ((ar === 6 && ac === 6) || (ar === 6 && ac === n - 7) || (ar === n - 7 && ac === 6)) continue;
      for (let r = -2; r <= 2; r++)
        for (let c = -2; c <= 2; c++)
          assert.equal(dark(ar + r, ac + c), Math.max(Math.abs(r), Math.abs(c)) !== 1, `alignment at ${ar},${ac}`);
    }
  }

  // Codewords: two-column strips from the right, up then down, column 6 skipped.
  const bits = [];
  let upward = true;
  for (let col = n - 1; col > 0; col -= 2) {
    if (col === 6) col = 5;
    for (let k = 0; k < n; k++) {
      const r = upward ? n - 1 - k : k;
      for (const c of [col, col - 1]) {
        if (isFunction(r, c)) continue;
        bits.push(dark(r, c) !== MASK[mask](r, c) ? 1 : 0);
      }
    }
    upward = !upward;
  }
  const words = [];
  for (let k = 0; k + 8 <= bits.length; k += 8) words.push(bits.slice(k, k + 8).reduce((a, b) => (a << 1) | b, 0));

  // De-interleave into blocks; check each block's error correction.
  const groups = BLOCKS[`${version}${level}`];
  assert.ok(groups, `a block table for ${version}-${level}`);
  const blocks = groups.flatMap(([count, total, data]) => Array.from({ length: count }, () => ({ total, data, words: [] })));
  assert.equal(
    words.length,
    blocks.reduce((s, b) => s + b.total, 0),
    "codeword count",
  );
  let at = 0;
  const maxData = Math.max(...blocks.map((b) => b.data));
  for (let k = 0; k < maxData; k++) for (const b of blocks) if (k < b.data) b.words.push(words[at++]);
  const ecc = blocks[0].total - blocks[0].data;
  for (let k = 0; k < ecc; k++) for (const b of blocks) b.words.push(words[at++]);
  for (const b of blocks) assert.deepEqual(syndromes(b.words, ecc), new Array(ecc).fill(0), "a block's error correction checks");

  // The data: byte mode, a count, the bytes, then the terminator and pad codewords.
  const data = blocks.flatMap((b) => b.words.slice(0, b.data));
  const stream = data.flatMap((w) => [7, 6, 5, 4, 3, 2, 1, 0].map((s) => (w >> s) & 1));
  let pos = 0;
  const take = (k) => {
    let v = 0;
    for (let q = 0; q < k; q++) v = (v << 1) | stream[pos++];
    return v;
  };
  assert.equal(take(4), 0b0100, "byte mode");
  const count = take(version <= 9 ? 8 : 16);
  const bytes = Uint8Array.from({ length: count }, () => take(8));
  assert.equal(take(Math.min(4, stream.length - pos)), 0, "terminator");
  pos = Math.ceil(pos / 8) * 8;
  for (let k = 0; pos < stream.length; k++) assert.equal(take(8), k % 2 === 0 ? 0xec : 0x11, "pad codewords");
  return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes), version, level, mask };
}

// ---- tests -------------------------------------------------------------------------------------

test("qr: Reed–Solomon codewords match the standard's worked example (1-M, HELLO WORLD)", () => {
  const data = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17];
  assert.deepEqual(qr.reedSolomon(data, 10), [196, 35, 39, 119, 235, 215, 231, 226, 93, 23]);
  assert.deepEqual(syndromes([...data, ...qr.reedSolomon(data, 10)], 10), new Array(10).fill(0));
  // Any length and degree the symbol uses: the syndromes of data + ECC vanish.
  for (const degree of [7, 10, 18, 26, 30]) {
    const d = Array.from({ length: 40 }, (_, i) => (i * 37 + degree) & 0xff);
    assert.deepEqual(syndromes([...d, ...qr.reedSolomon(d, degree)], degree), new Array(degree).fill(0), `degree ${degree}`);
  }
  assert.equal(qr.gfMultiply(0x80, 2), 0x1d, "x^8 reduces by 0x11d");
});

test("qr: format and version information match the standard's tables", () => {
  for (const level of ["L", "M"]) {
    for (let mask = 0; mask < 8; mask++)
      assert.equal(qr.formatBits(level, mask).toString(2).padStart(15, "0"), FORMAT[level][mask], `${level} mask ${mask}`);
  }
  for (const [v, bits] of Object.entries(VERSION_INFO))
    assert.equal(qr.versionBits(Number(v)).toString(2).padStart(18, "0"), bits, `version ${v}`);
});

test("qr: alignment positions and byte capacities match the standard's tables", () => {
  for (const [v, pos] of Object.entries(ALIGN)) assert.deepEqual(qr.alignmentPositions(Number(v)), pos, `version ${v}`);
  for (const level of ["L", "M"]) {
    CAPACITY[level].forEach((chars, i) => {
      const v = i + 1;
      assert.equal(qr.encodeQr("a".repeat(chars), level).version, v, `${chars} bytes fit ${v}-${level}`);
      assert.equal(qr.encodeQr("a".repeat(chars + 1), level).version, v + 1, `${chars + 1} bytes need ${v + 1}-${level}`);
    });
  }
  assert.throws(() => qr.encodeQr("a".repeat(3000), "L"), RangeError);
});

test("qr: every mask and both levels read back to the text, with valid error correction", () => {
  const text = "http://127.0.0.1:45678/q/" + "Zq9_-".repeat(9);
  for (const level of ["L", "M"]) {
    for (let mask = 0; mask < 8; mask++) {
      const code = qr.encodeQr(text, level, mask);
      const got = decode(code.modules);
      assert.deepEqual(got, { text, version: code.version, level, mask }, `${level} mask ${mask}`);
    }
  }
});

test("qr: texts of many lengths (versions 1 to 10, 8- and 16-bit counts, UTF-8) read back", () => {
  const texts = ["", "a", "http://[::1]:1/", "数据库 ✓ — Größe", ...[20, 40, 60, 90, 120, 150, 180, 200, 213].map((k) => "x".repeat(k))];
  const versions = new Set();
  for (const text of texts) {
    const code = qr.encodeQr(text, "M");
    versions.add(code.version);
    assert.equal(decode(code.modules).text, text, `${text.length} characters`);
  }
  assert.ok(versions.has(7) && versions.has(10), [...versions].join());
});

test("qr: without a forced mask, the one chosen is the one the format information names", () => {
  const text = "http://127.0.0.1:40000/q/abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ";
  const chosen = qr.encodeQr(text, "M");
  assert.equal(decode(chosen.modules).mask, chosen.mask);
  assert.ok(chosen.mask >= 0 && chosen.mask < 8);
});

test("qr: the half-block drawing holds every module, light ones drawn, with a quiet zone", () => {
  const code = qr.encodeQr("http://127.0.0.1:45678/q/" + "t".repeat(43), "M");
  const quiet = 2;
  const lines = qr.qrToHalfBlocks(code, quiet);
  const width = code.size + 2 * quiet;
  assert.equal(lines.length, Math.ceil(width / 2));
  for (const line of lines) assert.equal([...line].length, width);
  assert.match(lines.join(""), /^[█▀▄ ]+$/);
  // Read the modules back: top half and bottom half of each character (drawn = light).
  const rows = [];
  for (const line of lines) {
    const chars = [...line];
    rows.push(chars.map((c) => c === "█" || c === "▀"));
    rows.push(chars.map((c) => c === "█" || c === "▄"));
  }
  for (let y = 0; y < width; y++) {
    for (let x = 0; x < width; x++) {
      const inside = x >= quiet && y >= quiet && x < quiet + code.size && y < quiet + code.size;
      const light = inside ? !code.modules[y - quiet][x - quiet] : true;
      assert.equal(rows[y][x], light, `${x},${y}`);
    }
  }
  assert.equal(
    decode(rows.slice(quiet, quiet + code.size).map((r) => r.slice(quiet, quiet + code.size).map((l) => !l))).text,
    "http://127.0.0.1:45678/q/" + "t".repeat(43),
  );
});

test("qr: the web page's URL fits a small terminal (version 5 at most, 41 columns)", async () => {
  const { announcement } = await importShim("elsewhere/web-host.ts");
  const { addon } = await import("./helpers/addon.mjs");
  const url = `http://127.0.0.1:65535/q/${"A".repeat(Math.ceil((addon.limits.webTokenBytes * 4) / 3))}`;
  const code = qr.encodeQr(url, "M");
  assert.ok(code.version <= 5, `version ${code.version}`);
  const text = announcement(url);
  assert.ok(text.includes(url));
  const drawn = text.split("\n").filter((l) => /[█▀▄]/.test(l));
  assert.ok(drawn.length > 10 && drawn.every((l) => [...l].length <= 41), drawn.map((l) => [...l].length).join());
});

test("qr: a terminal too narrow for the code gets a sentence saying how wide it must be, never a wrapped code", async () => {
  const { announcement } = await importShim("elsewhere/web-host.ts");
  const { addon } = await import("./helpers/addon.mjs");
  const url = `http://127.0.0.1:65535/q/${"A".repeat(Math.ceil((addon.limits.webTokenBytes * 4) / 3))}`;
  const blocks = (text) => text.split("\n").filter((l) => /[█▀▄]/.test(l));
  const width = [...blocks(announcement(url))[0]].length;
  // pi draws a notice one column in from each side: the code fits in width + 2 columns
  const fits = announcement(url, { columns: width + 2 });
  assert.ok(blocks(fits).length > 10, fits);
  for (const [language, words] of [
    ["en", /needs (\d+) columns/],
    ["de", /braucht (\d+) Spalten/],
    ["zh", /需要 (\d+) 列宽/],
  ]) {
    const narrow = announcement(url, { columns: width + 1, language });
    assert.equal(blocks(narrow).length, 0, narrow);
    assert.ok(narrow.includes(url), "the link is still there");
    assert.equal(Number(narrow.match(words)?.[1]), width + 2, narrow);
    assert.match(narrow, /\/questions web on/);
  }
  // columns unknown (RPC, print): the code as before
  assert.ok(blocks(announcement(url, { columns: undefined })).length > 10);
});
