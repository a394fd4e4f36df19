// qr.ts — a small QR code encoder (ISO/IEC 18004) for the web page's URL, drawn in the terminal
// so a phone can open it: byte mode only, error correction L or M, versions 1 to 40, the mask
// with the lowest penalty. Drawn with half-block characters, two module rows per text line.
// Follows the structure of Project Nayuki's QR Code generator (MIT), written anew here; tests
// decode the result with an independent reader (tests/qr.test.mjs).
//
// Why not a library: `uqr` (a port of the same Nayuki code) draws the same half blocks and, for
// the same mask, the very same matrix, so it would add nothing the page needs; but every install
// would then fetch a package besides pi-question and its own platform package (the install
// tests run npm offline with only those), for a page that is off by default. Its other modes,
// levels and renderers make it twice this file. `qrcode-generator` is larger still and turns
// text into bytes as Latin-1 unless an extra UTF-8 module is wired in.

export type EccLevel = "L" | "M";

export interface QrCode {
  version: number;
  size: number;
  ecc: EccLevel;
  mask: number;
  /** modules[y][x]: true is dark. */
  modules: boolean[][];
}

// ---- tables (index: version; 0 unused) --------------------------------------------------------

/** Error-correction codewords per block. */
const ECC_PER_BLOCK: Record<EccLevel, number[]> = {
  L: [
    -1, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30,
    30, 30, 30, 30, 30, 30, 30,
  ],
  M: [
    -1, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
    28, 28, 28, 28, 28, 28, 28,
  ],
};
/** Error-correction blocks. */
const BLOCKS: Record<EccLevel, number[]> = {
  L: [
    -1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24,
    25,
  ],
  M: [
    -1, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40,
    43, 45, 47, 49,
  ],
};
/** The two bits of each level in the format information. */
const FORMAT_BITS: Record<EccLevel, number> = { L: 1, M: 0 };

/** Modules that carry data and error correction (all but the function patterns). */
export function rawDataModules(version: number): number {
  let n = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const align = Math.floor(version / 7) + 2;
    n -= (25 * align - 10) * align - 55;
    if (version >= 7) n -= 36;
  }
  return n;
}

/** Data codewords a version holds at a level. */
export function dataCodewords(version: number, ecc: EccLevel): number {
  return Math.floor(rawDataModules(version) / 8) - ECC_PER_BLOCK[ecc][version] * BLOCKS[ecc][version];
}

/** Centre coordinates of the alignment patterns (both axes). */
export function alignmentPositions(version: number): number[] {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const step = Math.floor((version * 8 + count * 3 + 5) / (count * 4 - 4)) * 2;
  const out = [6];
  for (let pos = version * 4 + 17 - 7; out.length < count; pos -= step) out.splice(1, 0, pos);
  return out;
}

// ---- Reed–Solomon over GF(256), polynomial 0x11d -----------------------------------------------

export function gfMultiply(x: number, y: number): number {
  let z = 0;
  for (let i = 7; i >= 0; i--) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }
  return z;
}

function rsDivisor(degree: number): number[] {
  const result = new Array<number>(degree).fill(0);
  result[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      result[j] = gfMultiply(result[j], root);
      if (j + 1 < degree) result[j] ^= result[j + 1];
    }
    root = gfMultiply(root, 0x02);
  }
  return result;
}

/** The `degree` error-correction codewords of `data`. */
export function reedSolomon(data: readonly number[], degree: number): number[] {
  const divisor = rsDivisor(degree);
  const result = new Array<number>(degree).fill(0);
  for (const b of data) {
    const factor = b ^ (result.shift() as number);
    result.push(0);
    divisor.forEach((coef, i) => (result[i] ^= gfMultiply(coef, factor)));
  }
  return result;
}

// ---- codewords ---------------------------------------------------------------------------------

/** The data codewords for `bytes` in byte mode at a version and level (padded), or null when
 * they do not fit. */
export function encodeData(bytes: Uint8Array, version: number, ecc: EccLevel): number[] | null {
  const capacityBits = dataCodewords(version, ecc) * 8;
  const countBits = version <= 9 ? 8 : 16;
  const bits: number[] = [];
  const put = (value: number, n: number) => {
    for (let i = n - 1; i >= 0; i--) bits.push((value >>> i) & 1);
  };
  if (bytes.length >= 1 << countBits) return null;
  put(0b0100, 4);
  put(bytes.length, countBits);
  for (const b of bytes) put(b, 8);
  if (bits.length > capacityBits) return null;
  put(0, Math.min(4, capacityBits - bits.length));
  put(0, (8 - (bits.length % 8)) % 8);
  const out: number[] = [];
  for (let i = 0; i < bits.length; i += 8) out.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
  for (let pad = 0xec; out.length < capacityBits / 8; pad ^= 0xec ^ 0x11) out.push(pad);
  return out;
}

/** Data split into blocks, each with its error correction, interleaved as the symbol holds them. */
export function interleave(data: readonly number[], version: number, ecc: EccLevel): number[] {
  const blocks = BLOCKS[ecc][version];
  const eccLen = ECC_PER_BLOCK[ecc][version];
  const raw = Math.floor(rawDataModules(version) / 8);
  const short = blocks - (raw % blocks);
  const shortLen = Math.floor(raw / blocks);
  const all: number[][] = [];
  for (let i = 0, at = 0; i < blocks; i++) {
    const len = shortLen - eccLen + (i < short ? 0 : 1);
    const dat = data.slice(at, at + len);
    at += len;
    const block = [...dat, ...(i < short ? [0] : []), ...reedSolomon(dat, eccLen)];
    all.push(block);
  }
  const out: number[] = [];
  for (let i = 0; i < all[0].length; i++) {
    all.forEach((block, j) => {
      if (i !== shortLen - eccLen || j >= short) out.push(block[i]);
    });
  }
  return out;
}

// ---- the symbol --------------------------------------------------------------------------------

/** The 15 format bits (level, mask, BCH, XOR mask) in the order they are placed, bit 0 first. */
export function formatBits(ecc: EccLevel, mask: number): number {
  const data = (FORMAT_BITS[ecc] << 3) | mask;
  let rem = data;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  return ((data << 10) | rem) ^ 0x5412;
}

/** The 18 version bits (versions 7 and up). */
export function versionBits(version: number): number {
  let rem = version;
  for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
  return (version << 12) | rem;
}

const MASKS: Array<(x: number, y: number) => boolean> = [
  (x, y) => (x + y) % 2 === 0,
  (_x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

class QrSymbol {
  readonly size: number;
  readonly modules: boolean[][];
  readonly fixed: boolean[][];
  readonly version: number;

  constructor(version: number) {
    this.version = version;
    this.size = version * 4 + 17;
    this.modules = Array.from({ length: this.size }, () => new Array<boolean>(this.size).fill(false));
    this.fixed = Array.from({ length: this.size }, () => new Array<boolean>(this.size).fill(false));
  }

  set(x: number, y: number, dark: boolean): void {
    this.modules[y][x] = dark;
    this.fixed[y][x] = true;
  }

  functionPatterns(ecc: EccLevel): void {
    const n = this.size;
    for (let i = 0; i < n; i++) {
      this.set(6, i, i % 2 === 0);
      this.set(i, 6, i % 2 === 0);
    }
    for (const [cx, cy] of [
      [3, 3],
      [n - 4, 3],
      [3, n - 4],
    ]) {
      for (let dy = -4; dy <= 4; dy++) {
        for (let dx = -4; dx <= 4; dx++) {
          const x = cx + dx,
            y = cy + dy;
          if (x < 0 || y < 0 || x >= n || y >= n) continue;
          const d = Math.max(Math.abs(dx), Math.abs(dy));
          this.set(x, y, d !== 2 && d !== 4);
        }
      }
    }
    const pos = alignmentPositions(this.version);
    const last = pos.length - 1;
    pos.forEach((cx, i) =>
      pos.forEach((cy, j) => {
        if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return; // finders
        for (let dy = -2; dy <= 2; dy++)
          for (let dx = -2; dx <= 2; dx++) this.set(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
      }),
    );
    this.format(ecc, 0); // reserves the area; drawn for real once the mask is chosen
    if (this.version >= 7) {
      const bits = versionBits(this.version);
      for (let i = 0; i < 18; i++) {
        const dark = ((bits >>> i) & 1) === 1;
        const a = n - 11 + (i % 3),
          b = Math.floor(i / 3);
        this.set(a, b, dark);
        this.set(b, a, dark);
      }
    }
  }

  format(ecc: EccLevel, mask: number): void {
    const bits = formatBits(ecc, mask);
    const bit = (i: number) => ((bits >>> i) & 1) === 1;
    const n = this.size;
    for (let i = 0; i <= 5; i++) this.set(8, i, bit(i));
    this.set(8, 7, bit(6));
    this.set(8, 8, bit(7));
    this.set(7, 8, bit(8));
    for (let i = 9; i < 15; i++) this.set(14 - i, 8, bit(i));
    for (let i = 0; i < 8; i++) this.set(n - 1 - i, 8, bit(i));
    for (let i = 8; i < 15; i++) this.set(8, n - 15 + i, bit(i));
    this.set(8, n - 8, true); // the dark module
  }

  codewords(data: readonly number[]): void {
    const n = this.size;
    let i = 0;
    for (let right = n - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      for (let vert = 0; vert < n; vert++) {
        for (let j = 0; j < 2; j++) {
          const x = right - j;
          const upward = ((right + 1) & 2) === 0;
          const y = upward ? n - 1 - vert : vert;
          if (this.fixed[y][x]) continue;
          if (i < data.length * 8) this.modules[y][x] = ((data[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
          i++;
        }
      }
    }
  }

  applyMask(mask: number): void {
    const f = MASKS[mask];
    for (let y = 0; y < this.size; y++)
      for (let x = 0; x < this.size; x++) if (!this.fixed[y][x] && f(x, y)) this.modules[y][x] = !this.modules[y][x];
  }

  /** ISO 18004's penalty score: lower reads more reliably. */
  penalty(): number {
    const n = this.size,
      m = this.modules;
    let score = 0;
    const line = (get: (i: number) => boolean) => {
      let run = 1;
      for (let i = 1; i <= n; i++) {
        if (i < n && get(i) === get(i - 1)) run++;
        else {
          if (run >= 5) score += 3 + run - 5;
          run = 1;
        }
      }
      // finder-like 1:1:3:1:1 with four light modules on one side
      for (let i = 0; i + 11 <= n; i++) {
        const p = [...Array(11)].map((_, k) => get(i + k));
        const core = p[0] && !p[1] && p[2] && p[3] && p[4] && !p[5] && p[6];
        const a = core && !p[7] && !p[8] && !p[9] && !p[10];
        const b = !p[0] && !p[1] && !p[2] && !p[3] && p[4] && !p[5] && p[6] && p[7] && p[8] && !p[9] && p[10];
        if (a || b) score += 40;
      }
    };
    for (let y = 0; y < n; y++) line((x) => m[y][x]);
    for (let x = 0; x < n; x++) line((y) => m[y][x]);
    for (let y = 0; y + 1 < n; y++) {
      for (let x = 0; x + 1 < n; x++) {
        const c = m[y][x];
        if (c === m[y][x + 1] && c === m[y + 1][x] && c === m[y + 1][x + 1]) score += 3;
      }
    }
    const dark = m.reduce((s, row) => s + row.filter(Boolean).length, 0);
    const total = n * n;
    score += (Math.ceil(Math.abs(dark * 20 - total * 10) / total) - 1) * 10;
    return score;
  }
}

/** The QR code of `text` (UTF-8, byte mode) at the smallest version that holds it at `ecc`.
 * `mask` forces a mask (tests); otherwise the one with the lowest penalty. Throws when the text
 * is too long for any version. */
export function encodeQr(text: string, ecc: EccLevel = "M", mask?: number): QrCode {
  const bytes = new TextEncoder().encode(text);
  for (let version = 1; version <= 40; version++) {
    const data = encodeData(bytes, version, ecc);
    if (!data) continue;
    const all = interleave(data, version, ecc);
    const build = (k: number) => {
      const s = new QrSymbol(version);
      s.functionPatterns(ecc);
      s.codewords(all);
      s.applyMask(k);
      s.format(ecc, k);
      return s;
    };
    let best: { s: QrSymbol; k: number; score: number } | undefined;
    for (const k of mask === undefined ? [0, 1, 2, 3, 4, 5, 6, 7] : [mask]) {
      const s = build(k);
      const score = mask === undefined ? s.penalty() : 0;
      if (!best || score < best.score) best = { s, k, score };
    }
    return { version, size: best!.s.size, ecc, mask: best!.k, modules: best!.s.modules };
  }
  throw new RangeError(`${bytes.length} bytes are too many for a QR code at level ${ecc}`);
}

/** The code as text lines of half blocks, `quiet` light modules around it. Light modules are
 * drawn (█ ▀ ▄) and dark ones left blank, so it reads right on a dark terminal background; on a
 * light one it is inverted, which phone cameras read too. */
export function qrToHalfBlocks(qr: QrCode, quiet = 2): string[] {
  const n = qr.size + quiet * 2;
  const light = (x: number, y: number) => {
    const mx = x - quiet,
      my = y - quiet;
    if (mx < 0 || my < 0 || mx >= qr.size || my >= qr.size) return true;
    return !qr.modules[my][mx];
  };
  const lines: string[] = [];
  for (let y = 0; y < n; y += 2) {
    let line = "";
    for (let x = 0; x < n; x++) {
      const top = light(x, y);
      const bottom = y + 1 < n ? light(x, y + 1) : false;
      line += top && bottom ? "█" : top ? "▀" : bottom ? "▄" : " ";
    }
    lines.push(line);
  }
  return lines;
}
