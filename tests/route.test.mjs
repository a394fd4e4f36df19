// route.test.mjs — how to ask in each mode (extension/ask/route.ts, a pure function), and the one rule
// that decides whether a result ends the agent's turn (extension/board/result.ts), each on its own.
import "./helpers/own-home.mjs"; // never the real ~/.pi/agent (remembered answers)
import assert from "node:assert/strict";
import { test } from "node:test";
import { addon } from "./helpers/addon.mjs";
import { importShim } from "./helpers/shim.mjs";

const { route } = await importShim("ask/route.ts");
const { terminates, toToolResult } = await importShim("board/result.ts");
const timeoutResultFlags = (then) => addon.timeoutFlags(then);

const base = { hasUI: false, relayed: false, above: false, terminal: false };

test("route: pi's UI — the TUI where pi says it runs one, the dialogs in RPC; older pi (no mode) tries the TUI, then the dialogs", () => {
  assert.deepEqual(route({ ...base, hasUI: true, uiMode: "tui" }), ["tui"]);
  assert.deepEqual(route({ ...base, hasUI: true, uiMode: "rpc" }), ["dialogs"]);
  assert.deepEqual(route({ ...base, hasUI: true }), ["tui", "dialogs"]);
  // a subagent's question is shown the same way, whatever else is true
  assert.deepEqual(route({ hasUI: true, uiMode: "tui", relayed: true, above: true, terminal: true }), ["tui"]);
});

test("route: print and JSON mode — the pi above first when one offers the relay, else (and after it) print mode's own ways", () => {
  assert.deepEqual(route(base), ["print"]);
  assert.deepEqual(
    route({ ...base, terminal: true }),
    ["print"],
    "print mode asks on the terminal itself, after the flag and the pending file",
  );
  assert.deepEqual(route({ ...base, above: true }), ["above", "print"]);
});

test("route: a subagent's question relayed to a pi in print mode — its terminal, or nobody; never the pending file nor the pi above", () => {
  assert.deepEqual(route({ ...base, relayed: true, terminal: true, above: true }), ["terminal"]);
  assert.deepEqual(route({ ...base, relayed: true, above: true }), ["unavailable"]);
});

/** The result the C core builds for `outcome` in `mode` with `flags`. */
const built = (outcome, mode, flags = 0) =>
  addon.result(
    JSON.stringify({ questions: [{ id: "db", prompt: "Which?", options: ["A", "B"] }] }),
    outcome,
    mode,
    1,
    outcome === "discuss" ? "let us talk" : null,
    outcome === "answered" ? JSON.stringify({ db: "A" }) : null,
    flags,
  );

test("result: a cancel ends the turn unless Esc lets the agent continue; a timeout ends it when its 'then' is cancel; print mode's unavailable ends it", () => {
  assert.equal(toToolResult(built("cancelled", "interactive")).terminate, true, "no settings: Esc ends the turn");
  assert.equal(toToolResult(built("cancelled", "rpc"), { escape: "stop" }).terminate, true);
  assert.equal(toToolResult(built("cancelled", "tty", 1), { escape: "continue" }).terminate, undefined);
  assert.equal(toToolResult(built("timed_out", "rpc")).terminate, true);
  assert.equal(toToolResult(built("timed_out", "rpc", timeoutResultFlags("decline"))).terminate, undefined);
  assert.equal(toToolResult(built("timed_out", "rpc", timeoutResultFlags("recommended"))).terminate, undefined);
  assert.equal(toToolResult(built("unavailable", "print")).terminate, true, "the question waits in the pending file");
  for (const outcome of ["answered", "declined", "interrupted", "discuss"]) {
    assert.equal(toToolResult(built(outcome, "print")).terminate, undefined, outcome);
  }
  assert.equal(terminates({ status: "unavailable", mode: "relay" }), false);
  // the addon's one rule (qt_timeout_result_flags): anything but a known "then" reads as cancel
  assert.equal(timeoutResultFlags(undefined), 0);
  assert.equal(timeoutResultFlags("cancel"), 0);
  assert.equal(timeoutResultFlags("selected-someday"), 0, "a newer pi above's 'then'");
  assert.equal(timeoutResultFlags(42), 0);
  assert.notEqual(timeoutResultFlags("decline"), timeoutResultFlags("recommended"));
});
