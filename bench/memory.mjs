// memory.mjs — run by run.mjs as `node --expose-gc bench/memory.mjs [cycles]`: resident
// memory over create/feed/render/destroy cycles of addon.createEngine.
//
// "Destroy" is engine.dispose() when the binding has one; otherwise the last reference is
// dropped and, so that the engine really is destroyed within its cycle budget, garbage is
// collected every 1,000 cycles (the Node-API finalizer frees the engine). A first phase of
// `cycles` brings the allocator and V8's heap to their working size; the growth over a second
// phase of `cycles` is what a leak would show as (20 bytes a cycle is 2 MB).
//
// A third phase drops engines without collecting garbage, as pi would: its peak RSS shows how
// many dead engines V8 lets pile up before it collects them (it does not see their native
// memory). Prints one line of JSON (bytes).
import { createRequire } from "node:module";
import { ADDON_PATH, K, questionArgs } from "./harness.mjs";

if (typeof global.gc !== "function") throw new Error("run with --expose-gc");
const addon = createRequire(import.meta.url)(ADDON_PATH);
const json = JSON.stringify(questionArgs(4, 4));
const cycles = Number(process.argv[2] ?? 100000);
const tick = () => new Promise((resolve) => setImmediate(resolve));
const hasDispose = typeof addon.createEngine(json).dispose === "function";

async function settle() {
  for (let i = 0; i < 4; i++) {
    global.gc();
    await tick();
  }
  return process.memoryUsage();
}

async function run(n, { destroy }) {
  let peak = 0;
  for (let i = 0; i < n; i++) {
    const engine = addon.createEngine(json);
    engine.feed(K.down);
    engine.feed(K.tab);
    engine.feed("x");
    engine.render(100);
    if (destroy && hasDispose) engine.dispose();
    if (i % 1000 === 999) {
      if (destroy && !hasDispose) global.gc();
      peak = Math.max(peak, process.memoryUsage.rss());
      await tick();
    }
  }
  const after = await settle();
  return { rss: after.rss, heap: after.heapUsed, peak };
}

const start = await settle();
const warm = await run(cycles, { destroy: true });
const middle = await run(cycles, { destroy: true });
const end = await run(cycles, { destroy: true });
const dropped = await run(cycles, { destroy: false });
process.stdout.write(
  `${JSON.stringify({
    cycles,
    dispose: hasDispose,
    start: start.rss,
    warm: warm.rss,
    middle: middle.rss,
    end: end.rss,
    heapWarm: warm.heap,
    heapEnd: end.heap,
    droppedPeak: dropped.peak,
    droppedEnd: dropped.rss,
  })}\n`,
);
