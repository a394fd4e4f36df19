// memory.mjs — run by run.mjs as `node --expose-gc bench/memory.mjs [cycles]`: resident
// memory over create/feed/render/destroy cycles of addon.createEngine.
//
// "Destroy" is engine.dispose() when the binding has one; otherwise the last reference is
// dropped and, so that the engine really is destroyed within its cycle budget, garbage is
// collected every 1,000 cycles (the Node-API finalizer frees the engine). A warm-up of four
// times `cycles` brings the allocator and V8's heap to their working size: V8 doubles its new
// space once (2 MB → 4 MB committed, seen between 100,000 and 300,000 cycles, then flat up to a
// million) while the heap in use stays at 3 MB. The growth over the next two phases of
// `cycles` is what a leak would show as (10 bytes a cycle is 2 MB).
//
// `node --expose-gc bench/memory.mjs [cycles] dropped [every]` instead drops engines without
// collecting garbage, as a host that never calls dispose() would, in a process of its own (so
// nothing the other phases left counts), and reports its peak RSS (sampled after every engine)
// and the RSS it started with. The event loop turns after every `every` engines (default 1).
// That matters on Node 20: a Node-API wrap finalizer does not run in the collection that finds
// the engine dead but from a SetImmediate callback, so dead engines keep their native memory
// until the loop turns. A host makes one engine per tool call, and the loop turns many times
// between two (every key is an event of its own; pi's own tool disposes its engine at the end
// of the call anyway) — so 1 is the host's case, and `every` = 1000 a burst no host makes.
// Prints one line of JSON (bytes).
import { createRequire } from "node:module";
import { ADDON_PATH, K, questionArgs } from "./payloads.mjs";

// --expose-gc gives global.gc in Node and in Bun; Bun.gc(true) is Bun's own full collection.
const collect =
  typeof global.gc === "function" ? global.gc : typeof globalThis.Bun !== "undefined" ? () => globalThis.Bun.gc(true) : undefined;
if (!collect) throw new Error("run with --expose-gc");
const addon = createRequire(import.meta.url)(ADDON_PATH);
const json = JSON.stringify(questionArgs(4, 4));
const cycles = Number(process.argv[2] ?? 100000);
const dropped = process.argv[3] === "dropped";
const every = dropped ? Number(process.argv[4] ?? 1) : 1000; // engines between two turns of the loop
const tick = () => new Promise((resolve) => setImmediate(resolve));
const hasDispose = typeof addon.createEngine(json).dispose === "function";

async function settle() {
  for (let i = 0; i < 4; i++) {
    collect();
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
    if (!destroy) peak = Math.max(peak, process.memoryUsage.rss());
    if (i % every === every - 1) {
      if (destroy && !hasDispose) collect();
      peak = Math.max(peak, process.memoryUsage.rss());
      await tick();
    }
  }
  const after = await settle();
  return { rss: after.rss, heap: after.heapUsed, heapTotal: after.heapTotal, peak };
}

const start = await settle();
if (dropped) {
  const r = await run(cycles, { destroy: false });
  process.stdout.write(`${JSON.stringify({ cycles, every, droppedStart: start.rss, droppedPeak: r.peak, droppedEnd: r.rss })}\n`);
} else {
  for (let i = 0; i < 3; i++) await run(cycles, { destroy: true });
  const warm = await run(cycles, { destroy: true });
  const middle = await run(cycles, { destroy: true });
  const end = await run(cycles, { destroy: true });
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
      heapTotalWarm: warm.heapTotal,
      heapTotalEnd: end.heapTotal,
    })}\n`,
  );
}
