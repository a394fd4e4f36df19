// leaks.mjs — the addon half of `npm run test:leaks` (not part of `npm test`: it takes a
// while). 100,000 cycles through the real addon in one process — an engine created,
// configured, fed a key script, rendered, its result taken, then dropped for its finalizer;
// normalize (valid and rejected), result, decodeKeys — forcing GC as it goes. RSS after
// warm-up and at the end is printed; growth must stay under LEAKS_MAX_GROWTH_MB (20 MB).
// Run: node --expose-gc tests/leaks.mjs   (LEAKS_CYCLES overrides the 100,000)
import assert from "node:assert/strict";
import { test } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { addon } from "./helpers/addon.mjs";

if (typeof globalThis.gc !== "function") setFlagsFromString("--expose-gc");
const gc = globalThis.gc ?? runInNewContext("gc");

const CYCLES = Number(process.env.LEAKS_CYCLES ?? 100_000);
const WARM_UP = Math.min(10_000, Math.floor(CYCLES / 5));
const MAX_GROWTH_MB = Number(process.env.LEAKS_MAX_GROWTH_MB ?? 20);

const REQUESTS = [
  {
    questions: [
      {
        id: "db",
        prompt: "Which database?",
        options: [
          { value: "pg", label: "PostgreSQL", description: "Solid", preview: "CREATE TABLE t (\n  id serial\n);" },
          { value: "lite", label: "SQLite" },
        ],
      },
    ],
  },
  {
    questions: [
      { id: "f", prompt: "Features?", multiSelect: true, options: ["Auth", "Billing", "Search"] },
      { id: "name", prompt: "Service name?" },
      { question: "Deploy where?", header: "Target", options: [{ label: "staging" }, { label: "prod" }] },
    ],
    metadata: { source: "setup" },
  },
  { question: "\u001b]0;evil\u0007 Pick 中文 👍", options: ["a\u202eb", "c\td", "e\u0301"], answers: { q1: "c\td" } },
].map((r) => JSON.stringify(r));

const INVALID = [
  JSON.stringify({
    questions: [
      { id: "a", prompt: "x" },
      { id: "a", prompt: "y" },
    ],
  }),
  JSON.stringify({ questions: [] }),
  "[".repeat(40) + "]".repeat(40),
  "not json",
];

const SCRIPTS = [
  "\x1b[B\r",
  "\x1b[B\x1b[B\rmy own answer 中\x1b[D\x7f\r",
  " \x1b[B \r\tsvc\r\t\x1b[B\r\r\r",
  "\x0enote text\r\x1b[B\r",
  "/sq\x1b[B\r",
  "\x04",
  "\x1b[B\x1b",
  "\x1b[Bx\x1by",
  "\x1b[200~pasted\r\nlines\x1b[201~",
  "\x1b[13;2u\x1b[1;5D\x17\x15\x0b",
];

// a host's look, set once and copied into every engine (as interactive.ts does)
const look = addon.createEngine(REQUESTS[0]);
look.setStyle("muted", "\x1b[90m", "\x1b[39m");
look.bind("up", ["k", "up"]);

function cycle(i) {
  const args = REQUESTS[i % REQUESTS.length];
  let engine = addon.createEngine(args);
  engine.copyStyles(look);
  engine.copyKeys(look);
  engine.setStyle("accent", "\x1b[36m", "\x1b[39m");
  engine.setStyle("title", "\x1b[1m", "\x1b[22m");
  engine.setCursorMarker("\x1b_pi:c\x07");
  engine.bind("down", ["j", "down"]);
  engine.render(80);
  const script = SCRIPTS[i % SCRIPTS.length];
  const half = script.length >> 1;
  engine.feed(script.slice(0, half));
  engine.render(1 + (i % 200));
  engine.feed(script.slice(half));
  engine.render(120);
  if (!engine.done) engine.interrupt();
  engine.result("interactive", 1, null);
  engine = null; // dropped: its finalizer frees the native side

  addon.normalize(args);
  try {
    addon.normalize(INVALID[i % INVALID.length]);
    assert.fail("an invalid request was accepted");
  } catch (error) {
    assert.equal(error.code, "QT_EINVALID");
  }
  addon.result(args, "declined", "print", 2, "why");
  addon.decodeKeys(["\x1b[A\x1b[200~abc", "def\x1b[201~x"]);
}

const rssMb = () => process.memoryUsage().rss / 1048576;

/* Node-API finalizers of dropped objects run from the event loop after a GC (not inside it):
 * collect, let the loop turn, collect what they released. */
async function settle() {
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
}

test(`leaks: ${CYCLES} engine and request cycles through the addon keep RSS flat`, async (t) => {
  for (let i = 0; i < WARM_UP; i++) {
    cycle(i);
    if (i % 1000 === 999) await settle();
  }
  await settle();
  const warmed = rssMb();
  const samples = [];
  for (let i = WARM_UP; i < CYCLES; i++) {
    cycle(i);
    if (i % 1000 === 999) await settle();
    if (i % 10_000 === 9999) samples.push(rssMb().toFixed(1));
  }
  await settle();
  const end = rssMb();
  const growth = end - warmed;
  t.diagnostic(
    `leaks: ${CYCLES} cycles; RSS ${warmed.toFixed(1)} MB after ${WARM_UP} warm-up cycles, ${end.toFixed(1)} MB at the end ` +
      `(${growth >= 0 ? "+" : ""}${growth.toFixed(1)} MB); every 10,000 cycles: ${samples.join(" ")} MB`,
  );
  assert.ok(growth < MAX_GROWTH_MB, `RSS grew ${growth.toFixed(1)} MB after warm-up (limit ${MAX_GROWTH_MB} MB)`);
});
