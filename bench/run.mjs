// run.mjs — `npm run bench`: this project's question tool against pi's questionnaire example,
// both loaded and driven the way pi does (see harness.mjs), then cold load, validation of a
// 100 KB call and memory over 100,000 engine lifetimes; PASS/FAIL against issue 6's targets.
//   node --expose-gc bench/run.mjs [--quick]
// Environment: BENCH_KEYS (timed keystrokes per case, default 2000), BENCH_BUDGET_MS (time the
// example may take per case, default 6000).
// pi runs on a colour terminal: styled frames, as in real use. Set before pi's theme (and chalk)
// are imported, which harness.mjs does lazily.
process.env.FORCE_COLOR ??= "3";
process.env.COLORTERM ??= "truecolor";

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import {
  ADDON_PATH,
  EXAMPLE_EXTENSION,
  OUR_EXTENSION,
  K,
  closeComponent,
  fakePi,
  importExtension,
  loadPiUi,
  median,
  navigationKeys,
  openComponent,
  percentile,
  questionArgs,
  root,
  toExampleArgs,
  typedText,
} from "./harness.mjs";
import { editingWorstCase, reportEditing } from "./editing.mjs";

const quick = process.argv.includes("--quick");
const TIMED_KEYS = Number(process.env.BENCH_KEYS ?? (quick ? 500 : 2000));
const WARMUP_KEYS = quick ? 100 : 300;
const EXAMPLE_BUDGET_MS = Number(process.env.BENCH_BUDGET_MS ?? (quick ? 2000 : 6000));
const MIN_SAMPLES = 100; // fewer than this in the budget: the example's row is n/a
const WIDTH = 100;
const gc = typeof global.gc === "function" ? global.gc : () => {};

// ---- the two tools ----------------------------------------------------------------------------
const ui = await loadPiUi();
async function loadTool(path, name) {
  const factory = await importExtension(path);
  const { pi, registered } = fakePi();
  factory(pi);
  const tool = registered.tools.get(name);
  if (!tool) throw new Error(`${path} registered no "${name}" tool`);
  return tool;
}
const ours = await loadTool(OUR_EXTENSION, "question");
const example = await loadTool(EXAMPLE_EXTENSION, "questionnaire");

// ---- keystroke timing -------------------------------------------------------------------------
/** Opens the tool's component, feeds `setup` untimed, `warmup` untimed, then times `timed`
 * one keystroke at a time (handleInput + render(WIDTH)). Stops early after budgetMs. */
async function timeKeystrokes(tool, params, { setup = [], warmup = [], timed = [], budgetMs = Infinity }) {
  gc();
  const opened = await openComponent(tool, params, ui);
  const c = opened.component;
  c.render(WIDTH);
  const start = performance.now();
  for (const key of [...setup, ...warmup]) {
    c.handleInput(key);
    c.render(WIDTH);
    if (opened.isDone()) throw new Error("the component closed during warm-up");
    if (performance.now() - start > budgetMs) break;
  }
  const samples = [];
  const timedStart = performance.now();
  for (const key of timed) {
    const t0 = process.hrtime.bigint();
    c.handleInput(key);
    c.render(WIDTH);
    const t1 = process.hrtime.bigint();
    samples.push(Number(t1 - t0) / 1000);
    if (opened.isDone()) throw new Error("the component closed during the timed keys");
    if (performance.now() - timedStart > budgetMs) break;
  }
  await closeComponent(opened);
  samples.sort((a, b) => a - b);
  return { n: samples.length, median: percentile(samples, 50), p99: percentile(samples, 99) };
}

const cases = [
  { name: "1 × 4", q: 1, o: 4 },
  { name: "4 × 4", q: 4, o: 4 },
  { name: "10 × 200", q: 10, o: 200 },
  // 20 × 1,000 fits the 100 KB argument limit only with bare numbers as options (80 KB). The
  // calls go to execute as written: in pi, prepareArguments would first expand this one to a
  // 600 KB canonical form, which execute's own check then rejects (see the report).
  { name: "20 × 1,000", q: 20, o: 1000, compact: true },
  { name: "typed 500 chars", q: 1, o: 4, typed: true },
];

const rows = [];
for (const cs of cases) {
  const args = questionArgs(cs.q, cs.o, { compact: cs.compact });
  const exampleArgs = toExampleArgs(args);
  let plan;
  if (cs.typed) {
    const text = typedText(500);
    plan = {
      ours: { setup: [K.up, K.enter], timed: text }, // ↑ wraps to "Something else…"; Enter opens it
      example: { setup: [...Array(cs.o).fill(K.down), K.enter], timed: text }, // down to "Type something."
    };
  } else {
    const keys = navigationKeys(cs.q, cs.o, WARMUP_KEYS + TIMED_KEYS);
    const split = { warmup: keys.slice(0, WARMUP_KEYS), timed: keys.slice(WARMUP_KEYS) };
    plan = { ours: split, example: split };
  }
  // The typed case is one 500-key pass on a fresh component: a throwaway pass first warms
  // each tool's typing path (JIT), as the navigation cases' warm-up keys do.
  if (cs.typed) await timeKeystrokes(ours, args, plan.ours);
  const a = await timeKeystrokes(ours, args, plan.ours);
  if (cs.typed) await timeKeystrokes(example, exampleArgs, { ...plan.example, budgetMs: EXAMPLE_BUDGET_MS });
  const b = await timeKeystrokes(example, exampleArgs, { ...plan.example, budgetMs: EXAMPLE_BUDGET_MS });
  rows.push({ ...cs, ours: a, example: b.n >= Math.min(MIN_SAMPLES, plan.example.timed.length) ? b : null, exampleRaw: b });
}

// ---- worst-case editing (bench/editing.mjs): a 100 KB typed answer, one key at a time ------------
const editing = await editingWorstCase(ours, ui, { quick });

// ---- validation of a 100 KB call ----------------------------------------------------------------
const addon = createRequire(import.meta.url)(ADDON_PATH);

/** A call just under the argument limit: questions of 1,000 { value, label } options each. */
function payload100k(limit) {
  const questions = [];
  let length = JSON.stringify({ questions }).length;
  for (let q = 0; ; q++) {
    const question = { id: `q${q + 1}`, prompt: `Question ${q + 1}: which one?`, options: [] };
    length += JSON.stringify(question).length + (q ? 1 : 0);
    questions.push(question);
    for (let o = 0; o < 1000; o++) {
      const option = { value: `value-${q}-${o}`, label: `Option ${q}.${o}` };
      length += JSON.stringify(option).length + (o ? 1 : 0);
      if (length > limit) return JSON.stringify({ questions });
      question.options.push(option);
    }
  }
}

function timeNormalize(json, runs) {
  for (let i = 0; i < Math.min(20, runs); i++) addon.normalize(json);
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    addon.normalize(json);
    samples.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  return median(samples);
}

const limit = addon.limits.argumentBytes;
const bigJson = payload100k(limit - 100);
const bigOptions = JSON.parse(bigJson).questions.reduce((n, q) => n + q.options.length, 0);
const normalizeRuns = quick ? 30 : 200;
const normalizeUs = timeNormalize(bigJson, normalizeRuns);
const compactJson = JSON.stringify(questionArgs(20, 1000, { compact: true }));
const compactUs = timeNormalize(compactJson, normalizeRuns);

// ---- cold load (fresh processes) ---------------------------------------------------------------
function coldLoad(which, cacheArg, runs) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    const args = [join(root, "bench", "cold-load.mjs"), which, ...(cacheArg !== undefined ? [cacheArg] : [])];
    const r = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`cold-load ${which} failed:\n${r.stderr}`);
    results.push(JSON.parse(r.stdout.trim().split("\n").pop()));
  }
  const pick = (k) => median(results.map((x) => x[k]));
  return {
    importMs: pick("importMs"),
    factoryMs: pick("factoryMs"),
    totalMs: pick("totalMs"),
    cpuMs: pick("cpuMs"),
    minMs: Math.min(...results.map((x) => x.totalMs)),
  };
}
const coldRuns = quick ? 3 : 9;
coldLoad("ours", undefined, 1); // fills pi's (jiti's) transpile cache, as any earlier pi start has
coldLoad("example", undefined, 1);
const coldOurs = coldLoad("ours", undefined, coldRuns);
const coldExample = coldLoad("example", undefined, coldRuns);
const emptyCache = mkdtempSync(join(tmpdir(), "pi-question-jiti-"));
let firstOurs;
try {
  firstOurs = coldLoad("ours", emptyCache, 1); // very first load: nothing transpiled yet
} finally {
  rmSync(emptyCache, { recursive: true, force: true });
}

// ---- memory ------------------------------------------------------------------------------------
const memCycles = 100000;
const mem = (() => {
  const r = spawnSync(process.execPath, ["--expose-gc", join(root, "bench", "memory.mjs"), String(memCycles)], {
    cwd: root,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`memory run failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop());
})();

// ---- report -------------------------------------------------------------------------------------
const us = (v) => (v == null || Number.isNaN(v) ? "n/a" : v < 10 ? v.toFixed(2) : v < 1000 ? v.toFixed(1) : v.toFixed(0));
const pad = (s, n) => String(s).padStart(n);
const mb = (b) => `${(b / 1048576).toFixed(1)} MB`;

const load = loadavg().map((x) => x.toFixed(1)).join(" ");
console.log(`pi-question benchmark — node ${process.version}, width ${WIDTH}, ${TIMED_KEYS} timed keystrokes per case (after ${WARMUP_KEYS} warm-up), load average ${load}`);
console.log(`µs per keystroke (handleInput + render(${WIDTH})); example limited to ${EXAMPLE_BUDGET_MS} ms per case`);
console.log("");
console.log(`${"case".padEnd(17)}${pad("keys", 6)}${pad("ours med", 10)}${pad("ours p99", 10)}${pad("ex. keys", 10)}${pad("ex. med", 10)}${pad("ex. p99", 10)}${pad("ratio", 9)}`);
for (const r of rows) {
  const e = r.example;
  const ratio = e ? `${(e.median / r.ours.median).toFixed(1)}×` : "n/a";
  console.log(
    `${r.name.padEnd(17)}${pad(r.ours.n, 6)}${pad(us(r.ours.median), 10)}${pad(us(r.ours.p99), 10)}${pad(e ? e.n : r.exampleRaw.n, 10)}${pad(e ? us(e.median) : "n/a", 10)}${pad(e ? us(e.p99) : "n/a", 10)}${pad(ratio, 9)}`,
  );
}
console.log("");
console.log(
  `cold load (fresh process, jiti transpile cache warm, median of ${coldRuns}): ours ${coldOurs.totalMs.toFixed(2)} ms (import ${coldOurs.importMs.toFixed(2)} + factory/addon ${coldOurs.factoryMs.toFixed(2)}; fastest ${coldOurs.minMs.toFixed(2)}; CPU ${coldOurs.cpuMs.toFixed(2)}), example ${coldExample.totalMs.toFixed(2)} ms (fastest ${coldExample.minMs.toFixed(2)}; CPU ${coldExample.cpuMs.toFixed(2)})`,
);
console.log(`first load ever (empty jiti transpile cache): ours ${firstOurs.totalMs.toFixed(1)} ms`);
console.log(`validate + normalize (addon.normalize, median of ${normalizeRuns}): ${bigJson.length} B, ${JSON.parse(bigJson).questions.length} questions, ${bigOptions} options: ${us(normalizeUs)} µs`);
console.log(`validate + normalize, the 20 × 1,000 case's call (${compactJson.length} B, numeric options): ${us(compactUs)} µs`);
const cyclesText = memCycles.toLocaleString("en");
console.log(
  `memory (create/feed/render/destroy, destroy = ${mem.dispose ? "engine.dispose()" : "drop + GC every 1,000 cycles"}): RSS at start ${mb(mem.start)}, after ${cyclesText} cycles (warm-up) ${mb(mem.warm)}, after ${cyclesText} more ${mb(mem.middle)}, after ${cyclesText} more ${mb(mem.end)}; V8 heap ${mb(mem.heapWarm)} → ${mb(mem.heapEnd)}`,
);
console.log(
  `memory, engines only dropped (no forced GC, as in pi): peak RSS ${mb(mem.droppedPeak)} over ${memCycles.toLocaleString("en")} cycles, ${mb(mem.droppedEnd)} after GC`,
);
console.log("");

const editingTargets = reportEditing(editing);
console.log("");

const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
const growth = mem.end - mem.warm;
const targets = [
  [`median < 20 µs per keystroke, 1 × 4 (${us(byName["1 × 4"].ours.median)} µs)`, byName["1 × 4"].ours.median < 20],
  [`median < 50 µs per keystroke, 20 × 1,000 (${us(byName["20 × 1,000"].ours.median)} µs)`, byName["20 × 1,000"].ours.median < 50],
  ...rows
    .filter((r) => r.example)
    .map((r) => [`≥ 10× faster than the example, ${r.name} (${(r.example.median / r.ours.median).toFixed(1)}×)`, r.example.median / r.ours.median >= 10]),
  [`cold load < 15 ms (${coldOurs.totalMs.toFixed(2)} ms)`, coldOurs.totalMs < 15],
  [`100 KB validation < 1 ms (${us(normalizeUs)} µs)`, normalizeUs < 1000],
  ...editingTargets,
  [`no memory growth over ${(2 * memCycles).toLocaleString("en")} cycles after warm-up (RSS ${growth >= 0 ? "+" : ""}${mb(growth)}; limit +4 MB, 20 B a cycle)`, growth < 4 * 1048576],
];
for (const [what, ok] of targets) console.log(`${ok ? "PASS" : "FAIL"}  ${what}`);
const skipped = rows.filter((r) => !r.example).map((r) => r.name);
if (skipped.length) console.log(`n/a   example too slow to sample ${MIN_SAMPLES} keystrokes within ${EXAMPLE_BUDGET_MS} ms: ${skipped.join(", ")}`);
process.exitCode = targets.every(([, ok]) => ok) ? 0 : 1;
