// engine-identity.test.mjs — an Engine's methods act only on the engines this addon made and
// has not freed (native/node/engine_class.c: the thread's set of live engines, which a method's
// object must be in): any other object is refused — by V8 for one the Engine class did not make
// (another object this addon wraps, a file lock, included), with QT_ETYPE for one it made with no
// engine behind it — a disposed engine with QT_ESTATE; and the set follows engines made and
// collected by the thousand.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test from "node:test";
import { addon } from "./helpers/addon.mjs";
import { runAddonChild } from "./helpers/addon-child.mjs";

const CALL = JSON.stringify({ questions: [{ id: "db", prompt: "Which database?", options: ["Postgres", "SQLite"] }] });

function codeOf(fn) {
  try {
    fn();
  } catch (error) {
    return error.code;
  }
  return "no error";
}

/** A TypeError: V8's "Illegal invocation" for an object the Engine class did not make, the
 * addon's QT_ETYPE for one it made but no engine is behind. */
function refused(fn, what) {
  assert.throws(fn, (error) => error instanceof TypeError && (error.code === undefined || error.code === "QT_ETYPE"), what);
}

test("engine identity: methods called on anything but a live engine are refused, never read", () => {
  const engine = addon.createEngine(CALL);
  const proto = Object.getPrototypeOf(engine);
  const dir = mkdtempSync(join(tmpdir(), "piq-identity-"));
  const lock = addon.lockFile(join(dir, "x.lock"), 0); // wrapped by this addon too, as another type
  try {
    const strangers = [{}, null, undefined, 42, "engine", Object.create(proto), lock, [engine], new proto.constructor()];
    const calls = [
      ["press", ["\x1b[B"]],
      ["feed", ["\x1b[B"]],
      ["render", [80]],
      ["renderChanges", [80, 0, true]],
      ["copyKeys", [engine]],
      ["dispose", []],
    ];
    for (const who of strangers) for (const [name, args] of calls) refused(() => proto[name].apply(who, args), `${name} on ${String(who)}`);
    refused(() => Object.getOwnPropertyDescriptor(proto, "revision").get.call(lock), "a getter on a file lock");
    // an object of the Engine class with no engine behind it reaches the addon, which refuses it
    const hollow = new proto.constructor();
    for (const [name, args] of calls)
      assert.equal(
        codeOf(() => hollow[name](...args)),
        "QT_ETYPE",
        `${name} on a hollow Engine`,
      );
    assert.equal(
      codeOf(() => engine.copyStyles(hollow)),
      "QT_ETYPE",
      "copied from a hollow Engine",
    );
    // what a method is given (no V8 check there): another object this addon wraps is not an engine
    assert.equal(
      codeOf(() => engine.copyKeys(lock)),
      "QT_ETYPE",
      "keys copied from a file lock",
    );
    assert.equal(
      codeOf(() => engine.copyStyles(lock)),
      "QT_ETYPE",
      "styles copied from a file lock",
    );
    assert.deepEqual(engine.render(80), addon.createEngine(CALL).render(80), "the engine itself still works");
    engine.dispose();
    assert.equal(
      codeOf(() => engine.render(80)),
      "QT_ESTATE",
      "disposed",
    );
  } finally {
    lock.release(true);
    rmSync(dir, { recursive: true, force: true });
  }
});

test("engine identity: engines made and collected by the thousand leave every live one found", () => {
  // The set of live engines doubles from 64 slots whenever it is half full, and drops each freed
  // engine with a backward shift: 4 rounds of 1,200 made (a third kept, a third disposed, a third
  // dropped), up to ~2,400 in the set at once, grow it to 8,192 slots and remove 800 a round from
  // a set that still holds the kept ones.
  // What a collected engine left in the set cannot be seen from here (nothing can reference it);
  // a removal that lost a kept engine's entry fails the presses below.
  const result = runAddonChild(
    `
const call = ${JSON.stringify(CALL)};
const kept = [];
let made = 0;
for (let round = 0; round < 4; round++) {
  for (let i = 0; i < 1200; i++, made++) {
    const engine = addon.createEngine(call);
    if (made % 3 === 0) kept.push(engine); // the rest dropped, collected below
    else if (made % 3 === 1) engine.dispose();
  }
  globalThis.gc();
  await tick(); // the finalizers of the engines collected run from the loop
  for (const engine of kept) engine.press("\\x1b[B"); // every live one is found
}
const disposed = addon.createEngine(call);
disposed.dispose();
let code;
try { disposed.render(80); } catch (error) { code = error.code; }
console.log(JSON.stringify({ kept: kept.length, works: kept.every((e) => e.render(40).length > 0), code }));
`,
    { gc: true, timeout: 120_000 },
  );
  assert.deepEqual(result, { kept: 1600, works: true, code: "QT_ESTATE" });
});
