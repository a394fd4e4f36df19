// external-memory.test.mjs — engines that pi drops without dispose() (as it drops components)
// are collected before their native memory piles up: every engine tells V8 what it holds
// (napi_adjust_external_memory in native/binding.c). Without that, V8 saw a small object per
// engine and let 3,000 dropped engines of a ~93 KB request take RSS from ~45 MB past 300 MB.
//
// A child node — no --expose-gc, nothing forces a collection: V8 decides alone — creates the
// engines one after another, renders and types into each, drops it, and lets the event loop
// turn every ten engines (Node-API finalizers run from the loop, as they do in pi between two
// keys). It reports RSS at the start and at its peak; the growth must stay well below that.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";

const ENGINES = 3000;
const MAX_GROWTH_MB = 180; // measured: ~105 MB with the reports, ~270 MB without

const CHILD = `
import { addon } from ${JSON.stringify(new URL("./helpers/addon.mjs", import.meta.url).href)};
const big = JSON.stringify({ questions: Array.from({ length: 50 }, (_, i) => ({
  id: "q" + i, prompt: "Question " + i + "? " + "lorem ipsum ".repeat(150), options: ["a" + i, "b" + i] })) });
const start = process.memoryUsage().rss;
let peak = start;
for (let i = 0; i < ${ENGINES}; i++) {
  const engine = addon.createEngine(big); // dropped at the end of the iteration, never disposed
  engine.render(80);
  engine.feed("\\x1b[200~" + "x".repeat(1000) + "\\x1b[201~");
  engine.render(80);
  if (i % 10 === 9) await new Promise((resolve) => setImmediate(resolve));
  peak = Math.max(peak, process.memoryUsage().rss);
}
console.log(JSON.stringify({ requestBytes: big.length, start, peak }));
`;

test(`external memory: ${ENGINES} dropped engines of a large request are collected before RSS piles up`, (t) => {
  if (/asan/.test(process.env.LD_PRELOAD ?? "")) {
    t.skip("under AddressSanitizer freed memory is held in quarantine: RSS says nothing here");
    return;
  }
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", CHILD], { encoding: "utf8", timeout: 300_000 });
  assert.equal(r.status, 0, r.stderr);
  const { requestBytes, start, peak } = JSON.parse(r.stdout.trim().split("\n").pop());
  const mb = (b) => b / 1048576;
  const growth = mb(peak - start);
  t.diagnostic(`${ENGINES} engines of a ${requestBytes}-byte request: RSS ${mb(start).toFixed(0)} MB at the start, ${mb(peak).toFixed(0)} MB at the peak (+${growth.toFixed(0)} MB)`);
  assert.ok(growth < MAX_GROWTH_MB, `RSS grew ${growth.toFixed(0)} MB (limit ${MAX_GROWTH_MB} MB): dropped engines are not collected`);
});
