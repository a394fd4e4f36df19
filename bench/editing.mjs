// editing.mjs — the worst case of editing a typed answer (the bound: "any single
// key ≤ 1 ms at the limits"): an answer at the byte limit with no spaces, made of combining
// sequences (e + U+0301) or Cyrillic letters, edited through pi's component exactly as a
// keystroke is (handleInput, then render at 80 columns). Used by run.mjs (its own section, so
// that other benchmark work merges cleanly); runs alone too:
//   node --expose-gc bench/editing.mjs [--quick]
// Environment: BENCH_EDIT_BYTES (answer size, default: the answer limit less 1,000 bytes, so
// that typing rows have room), BENCH_EDIT_BUDGET_MS (time per row, default 4000; at least one
// key is always timed).
process.env.FORCE_COLOR ??= "3"; // as run.mjs: pi runs on a colour terminal
process.env.COLORTERM ??= "truecolor";

import { pathToFileURL } from "node:url";
import { K, closeComponent, openComponent, percentile } from "./harness.mjs";

const EDIT_WIDTH = 80;
export const EDIT_TARGET_US = 1000;

const KEY = {
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

/** The rows: `keys(i)` gives the i-th timed sample as [untimed keys..., timed key]. A timed key
 * of { render: width } times a render alone at that width. */
function rowsFor(text) {
  const whole = KEY.paste(text);
  return [
    { key: "Alt+B over the whole answer", keys: () => [KEY.end, KEY.altB] },
    { key: "Alt+F over the whole answer", keys: () => [KEY.home, KEY.altF] },
    { key: "Ctrl+W of the whole answer", keys: () => [KEY.ctrlU, whole, KEY.ctrlW] },
    { key: "Alt+D of the whole answer", keys: () => [KEY.ctrlU, whole, KEY.home, KEY.altD] },
    { key: "Backspace at the end", keys: (i) => (i ? [KEY.backspace] : [KEY.end, KEY.backspace]) },
    { key: "Delete at the start", keys: (i) => (i ? [KEY.del] : [KEY.home, KEY.del]) },
    { key: "Left / Right at the end", keys: (i) => (i ? [i % 2 ? KEY.left : KEY.right] : [KEY.end, KEY.left]) },
    { key: "Home / End", keys: (i) => [i % 2 ? KEY.end : KEY.home] },
    { key: "typing at the start", keys: (i) => (i ? ["ж"] : [KEY.home, "ж"]) },
    { key: "paste of the whole answer", keys: () => [KEY.ctrlU, whole] },
    { key: "Ctrl+K of the whole answer", keys: () => [KEY.ctrlU, whole, KEY.home, KEY.ctrlK] },
    { key: `render at ${EDIT_WIDTH} columns`, keys: () => [{ render: EDIT_WIDTH - 1 }, { render: EDIT_WIDTH }] },
  ];
}

/** Times every row for one kind of text; a fresh component per row, the answer pasted first. */
async function timeRows(tool, ui, text, { budgetMs, maxSamples }) {
  const args = { questions: [{ id: "q", prompt: "Say something", options: ["a", "b"] }] };
  const out = [];
  for (const row of rowsFor(text)) {
    const opened = await openComponent(tool, args, ui);
    const c = opened.component;
    const press = (k) => {
      if (typeof k === "object") c.render(k.render);
      else {
        c.handleInput(k);
        c.render(EDIT_WIDTH);
      }
    };
    for (const k of [K.up, K.enter, KEY.paste(text)]) press(k); // "Something else…", the answer
    const samples = [];
    const cpu = [];
    const start = performance.now();
    for (let i = 0; i < maxSamples && (i === 0 || performance.now() - start < budgetMs); i++) {
      const keys = row.keys(i);
      for (const k of keys.slice(0, -1)) press(k);
      const c0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      press(keys.at(-1));
      samples.push(Number(process.hrtime.bigint() - t0) / 1000);
      const c = process.cpuUsage(c0);
      cpu.push(c.user + c.system);
      if (opened.isDone()) throw new Error(`the component closed during "${row.key}"`);
    }
    await closeComponent(opened);
    samples.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    out.push({ key: row.key, n: samples.length, median: percentile(samples, 50), max: samples.at(-1), cpu: percentile(cpu, 50) });
  }
  return out;
}

/** The worst-case editing rows for both kinds of text: [{ text, bytes, rows }]. */
export async function editingWorstCase(tool, ui, { quick = false, answerBytes = 100000 } = {}) {
  const bytes = Number(process.env.BENCH_EDIT_BYTES ?? answerBytes - 1000);
  const budgetMs = Number(process.env.BENCH_EDIT_BUDGET_MS ?? (quick ? 1500 : 4000));
  const maxSamples = quick ? 20 : 60;
  const texts = [
    { text: "e + U+0301", unit: "e\u0301" },
    { text: "Cyrillic", unit: "ж" },
  ];
  const results = [];
  for (const t of texts) {
    const s = t.unit.repeat(Math.floor(bytes / Buffer.byteLength(t.unit)));
    results.push({ text: t.text, bytes: Buffer.byteLength(s), rows: await timeRows(tool, ui, s, { budgetMs, maxSamples }) });
  }
  return results;
}

const fmt = (v) => (v < 10 ? v.toFixed(2) : v < 1000 ? v.toFixed(1) : v.toFixed(0));

/** Prints the rows; returns [what, ok] targets (median ≤ 1 ms per key). */
export function reportEditing(results, log = console.log) {
  log(
    `worst-case editing: a typed answer with no spaces, µs per key (handleInput + render(${EDIT_WIDTH})); cpu: the process's CPU time, which a busy machine inflates less`,
  );
  log(`${"key".padEnd(30)}${results.map((r) => `${r.text} (${r.bytes} B)`.padStart(42)).join("")}`);
  log(
    `${"".padEnd(30)}${results.map(() => `${"keys".padStart(6)}${"median".padStart(12)}${"cpu med".padStart(12)}${"max".padStart(12)}`).join("")}`,
  );
  const targets = [];
  results[0].rows.forEach((row, i) => {
    const cells = results.map((r) => r.rows[i]);
    log(
      `${row.key.padEnd(30)}${cells.map((c) => `${String(c.n).padStart(6)}${fmt(c.median).padStart(12)}${fmt(c.cpu).padStart(12)}${fmt(c.max).padStart(12)}`).join("")}`,
    );
    const worst = Math.max(...cells.map((c) => c.median));
    targets.push([`≤ 1 ms per key at the limit: ${row.key} (median ${fmt(worst)} µs, worst text)`, worst <= EDIT_TARGET_US]);
  });
  return targets;
}

// Alone: node --expose-gc bench/editing.mjs [--quick]
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { fakePi, importExtension, loadPiUi, OUR_EXTENSION } = await import("./harness.mjs");
  const ui = await loadPiUi();
  const factory = await importExtension(OUR_EXTENSION);
  const { pi, registered } = fakePi();
  factory(pi);
  const results = await editingWorstCase(registered.tools.get("question"), ui, { quick: process.argv.includes("--quick") });
  const targets = reportEditing(results);
  for (const [what, ok] of targets) console.log(`${ok ? "PASS" : "FAIL"}  ${what}`);
  process.exitCode = targets.every(([, ok]) => ok) ? 0 : 1;
}
