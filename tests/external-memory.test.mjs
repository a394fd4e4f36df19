// external-memory.test.mjs — engines that pi drops without dispose() (as it drops components)
// are collected before their native memory piles up: every engine tells V8 what it holds
// (napi_adjust_external_memory in native/node/engine_class.c). Without that, V8 saw a small
// object per engine and let 3,000 dropped engines of a ~93 KB request take RSS from ~45 MB past 300 MB.
//
// A child node — no --expose-gc, nothing forces a collection: V8 decides alone — creates the
// engines one after another, renders and types into each, drops it, and lets the event loop
// turn every ten engines (Node-API finalizers run from the loop, as they do in pi between two
// keys). It reports RSS at the start and at its peak; the growth must stay well below that.
import assert from "node:assert/strict";
import { test } from "node:test";
import { runAddonChild } from "./helpers/addon-child.mjs";

const ENGINES = 3000;
const MAX_GROWTH_MB = 60; // measured: ~270 MB without the reports, ~90 MB with them, ~23 MB with the engine's JS arrays held weakly

const CHILD = `
const big = JSON.stringify({ questions: Array.from({ length: 50 }, (_, i) => ({
  id: "q" + i, prompt: "Question " + i + "? " + "lorem ipsum ".repeat(150), options: ["a" + i, "b" + i] })) });
const start = process.memoryUsage().rss;
let peak = start;
for (let i = 0; i < ${ENGINES}; i++) {
  const engine = addon.createEngine(big); // dropped at the end of the iteration, never disposed
  engine.render(80);
  engine.feed("\\x1b[200~" + "x".repeat(1000) + "\\x1b[201~");
  engine.render(80);
  if (i % 10 === 9) await tick();
  peak = Math.max(peak, process.memoryUsage().rss);
}
console.log(JSON.stringify({ requestBytes: big.length, start, peak }));
`;

test(`external memory: ${ENGINES} dropped engines of a large request are collected before RSS piles up`, (t) => {
  if (/asan/.test(process.env.LD_PRELOAD ?? "")) {
    t.skip("under AddressSanitizer freed memory is held in quarantine: RSS says nothing here");
    return;
  }
  const { requestBytes, start, peak } = runAddonChild(CHILD, { timeout: 300_000 });
  const mb = (b) => b / 1048576;
  const growth = mb(peak - start);
  t.diagnostic(
    `${ENGINES} engines of a ${requestBytes}-byte request: RSS ${mb(start).toFixed(0)} MB at the start, ${mb(peak).toFixed(0)} MB at the peak (+${growth.toFixed(0)} MB)`,
  );
  assert.ok(growth < MAX_GROWTH_MB, `RSS grew ${growth.toFixed(0)} MB (limit ${MAX_GROWTH_MB} MB): dropped engines are not collected`);
});

// The frame a render hands out, and the strings the engine keeps to hand out again, are held by
// the engine weakly. Held strongly, they outlived every engine dropped with them
// until its finalizer ran (from the event loop, after the collection that found the engine
// dead): they survived young-generation collections, V8 grew its new space to the maximum, and
// thousands of dead engines waited between two collections — 100,000 dropped 4×4 engines peaked
// at 153 MB with the loop turning after each, 188 MB every 1,000 (now 57 and 74 MB).
test("external memory: a dropped engine's frame is collected with it, in the same collection", () => {
  const result = runAddonChild(
    `
function make() {
  const engine = addon.createEngine(JSON.stringify({ questions: [{ id: "a", prompt: "Which?", options: ["x", "y"] }] }));
  engine.feed("\\x1b[B");
  return [new WeakRef(engine), new WeakRef(engine.render(80))];
}
const [engine, frame] = make();
await tick(); // WeakRef targets are kept to the end of the job that made them
globalThis.gc(); // one collection, and no turn of the loop: no finalizer has run yet
console.log(JSON.stringify({ engine: engine.deref() === undefined, frame: frame.deref() === undefined }));
`,
    { gc: true },
  );
  assert.deepEqual(result, { engine: true, frame: true });
});

// Dropped 4×4 engines, the loop turning after each (as a host that makes one engine per tool
// call): what is left alive between two young-generation collections stays small.
test("external memory: 20,000 dropped small engines keep RSS within 24 MB of the start", (t) => {
  if (/asan/.test(process.env.LD_PRELOAD ?? "")) {
    t.skip("under AddressSanitizer freed memory is held in quarantine: RSS says nothing here");
    return;
  }
  const child = `
const json = JSON.stringify({ questions: Array.from({ length: 4 }, (_, i) => ({ id: "q" + i, label: "Topic " + i,
  prompt: "Question " + i + ": which one should we use?",
  options: Array.from({ length: 4 }, (_, k) => ({ value: "choice-" + k, label: "Choice " + k, description: "What choosing " + k + " means, in one line" })) })) });
const start = process.memoryUsage().rss;
let peak = start;
for (let i = 0; i < 20000; i++) {
  const engine = addon.createEngine(json); // dropped, never disposed
  engine.feed("\\x1b[B");
  engine.feed("\\t");
  engine.feed("x");
  engine.render(100);
  await tick();
  peak = Math.max(peak, process.memoryUsage.rss());
}
console.log(JSON.stringify({ start, peak }));
`;
  const { start, peak } = runAddonChild(child, { timeout: 300_000 });
  const growth = (peak - start) / 1048576;
  t.diagnostic(
    `RSS ${(start / 1048576).toFixed(0)} MB at the start, ${(peak / 1048576).toFixed(0)} MB at the peak (+${growth.toFixed(1)} MB)`,
  );
  assert.ok(growth < 24, `RSS grew ${growth.toFixed(1)} MB: dropped engines pile up`);
});
