// prebuilt-smoke.mjs — run by scripts/prebuild.mjs inside each target's runtime (Node, Node for
// arm64 under qemu, Bun for musl) before that target's unit tests: loads the addon through
// extension/load-addon.cjs (PI_QUESTION_ADDON names the prebuilt), checks it is that file and
// the runtime's architecture, validates a request and refuses a bad one, drives the engine with
// keys to an answer, renders frames within their width, checks the answers and the text the
// model would get, and takes and releases a file lock (the C library's fstat, lstat, flock).
// Prints one JSON line; exits non-zero (with the reason) on any mismatch.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

const require = createRequire(import.meta.url);
const { loadAddon, addonSource } = require("../extension/load-addon.cjs");

const expectArch = process.argv[2];
const addon = loadAddon();
assert.equal(addonSource().kind, "override", "the addon did not come from PI_QUESTION_ADDON");
assert.equal(addonSource().file, process.env.PI_QUESTION_ADDON);
if (expectArch) assert.equal(process.arch, expectArch, `process.arch is ${process.arch}, not ${expectArch}`);

// Validation: the canonical form, and a specific error for a bad call.
const args = {
  questions: [
    { id: "db", prompt: "Which database?", options: ["Postgres", "SQLite"] },
    { id: "why", prompt: "Why?" },
  ],
};
const normalized = JSON.parse(addon.normalize(JSON.stringify(args)));
assert.deepEqual(
  normalized.questions.map((q) => [q.id, q.label]),
  [
    ["db", "Q1"],
    ["why", "Q2"],
  ],
);
assert.throws(() => addon.normalize(JSON.stringify({ questions: [] })), /question/i);

// The engine: ↓ Enter picks SQLite, "fast" Enter answers the second, Enter submits the review.
const e = addon.createEngine(JSON.stringify(args));
const first = e.render(40);
assert.ok(
  first.some((l) => l.includes("Which database?")),
  first.join("\n"),
);
e.feed("\x1b[B\r");
e.feed("fast\r");
const review = e.render(40);
assert.ok(
  review.some((l) => l.includes("SQLite")),
  review.join("\n"),
);
for (const l of [...first, ...review]) assert.ok(addon.visibleWidth(l) <= 40, `wider than 40: ${l}`);
assert.equal(e.done, false);
e.feed("\r");
assert.equal(e.done, true);
assert.equal(e.outcome, "answered");
const result = e.result("interactive");
assert.equal(result.text, "db: user selected: 2. SQLite\nwhy: user wrote: fast");
const details = typeof result.details === "string" ? JSON.parse(result.details) : result.details;
assert.deepEqual(
  details.answers.map((a) => [a.id, a.value, a.wasCustom]),
  [
    ["db", "SQLite", false],
    ["why", "fast", true],
  ],
);
// Keys and width through their own entry points.
assert.deepEqual(
  addon.decodeKeys(["\x1b[A"]).map((k) => k.name),
  ["up"],
);
assert.equal(addon.visibleWidth("日本"), 4);

// A file lock: held, refused to a second taker, released and removed.
const dir = mkdtempSync(join(tmpdir(), "pq-prebuilt-smoke-"));
try {
  const path = join(dir, "f.lock");
  const lock = addon.lockFile(path, 0);
  assert.throws(
    () => addon.lockFile(path, 0),
    (e) => e.code === "QT_ELOCKED",
  );
  lock.release(true);
  assert.equal(existsSync(path), false);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log(
  JSON.stringify({
    ok: true,
    arch: process.arch,
    runtime: process.versions.bun ? `bun ${process.versions.bun}` : `node ${process.version}`,
    addon: addonSource().file,
  }),
);
