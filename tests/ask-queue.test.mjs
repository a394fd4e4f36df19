// ask-queue.test.mjs — the asker's one-at-a-time queue (extension/ask/ask.ts, the real module with a
// fake TUI): a subagent's question withdrawn while it waits behind the question on screen leaves
// the queue at once — its caller is told (interrupted) then, and nothing of it (its arguments,
// its questions) stays reachable while the question ahead still waits. The queue goes on in order.
import "./helpers/own-home.mjs"; // never the real ~/.pi/agent (remembered answers)
import assert from "node:assert/strict";
import { test } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { addon } from "./helpers/addon.mjs";
import { tuiContext } from "./helpers/fake-pi.mjs";
import { importShim } from "./helpers/shim.mjs";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc");

const { createAsker } = await importShim("ask/ask.ts");
/** A TUI context whose questions stay on screen (in `shown`) until a key ends them. */
function onScreen() {
  const shown = [];
  return { ctx: tuiContext((c) => shown.push(c)), shown };
}

/** Fresh arguments for one question (a long prompt). */
function question(id, prompt) {
  const args = { prepared: addon.normalize(JSON.stringify({ questions: [{ id, prompt, options: ["Yes", "No"] }] })) };
  return { args, questions: JSON.parse(args.prepared).questions };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
/** Turns of the event loop until `n` questions were shown; a failure, never a hang, when they are not. */
async function untilShown(shown, n) {
  for (let turns = 0; shown.length < n; turns++) {
    if (turns > 20000) throw new Error(`${n} question(s) never shown (${shown.length} were)`);
    await turn();
  }
}

/** Collects garbage until every WeakRef in `refs` is empty or `rounds` tries passed; the count left. */
async function collected(refs, rounds = 20) {
  for (let i = 0; i < rounds; i++) {
    await turn(); // WeakRef targets are kept until the current job ends
    gc();
    if (refs.every((r) => r.deref() === undefined)) return 0;
  }
  return refs.filter((r) => r.deref() !== undefined).length;
}

test("queue: withdrawn questions behind a waiting one are released at once — told interrupted, nothing of them kept", async () => {
  const asker = createAsker({ getSessionName: () => undefined });
  const { ctx, shown } = onScreen();
  const first = question("first", "The question on screen?");
  const asking = asker.ask(first.args, first.questions, ctx, undefined);
  await untilShown(shown, 1);

  const N = 30;
  const refs = [];
  const leaving = [];
  const settled = [];
  /** A subagent's question queued behind the first; only a WeakRef to its arguments is kept here. */
  const queue = (i) => {
    const q = question(`w${i}`, `Withdrawn question ${i}? ${"x".repeat(3000)}`);
    refs.push(new WeakRef(q.args), new WeakRef(q.questions));
    const controller = new AbortController();
    leaving.push(controller);
    asker
      .ask(q.args, q.questions, ctx, controller.signal, { name: `worker ${i}`, pid: 1000 + i })
      .then((r) => settled.push(r.details.status));
  };
  for (let i = 0; i < N; i++) queue(i);
  const after = question("after", "Asked after them?");
  const next = asker.ask(after.args, after.questions, ctx, undefined);
  assert.equal(asker.board.waiting.size, N + 2, "all waiting: one shown, the rest queued");

  for (const c of leaving.splice(0)) c.abort(); // every worker goes away
  await turn();
  assert.equal(await collected(refs), 0, "no withdrawn question's arguments or questions are reachable while the first still waits");
  assert.deepEqual(settled, Array(N).fill("interrupted"), "each withdrawn question's caller was told at once");
  assert.deepEqual(
    [...asker.board.waiting.values()].map((w) => w.questions[0].id),
    ["first", "after"],
  );
  assert.equal(shown.length, 1, "the first is still the one on screen");
  assert.equal([...asker.board.ended.values()].filter((e) => e.ending === "withdrawn").length, N, "each remembered as withdrawn");

  // The queue goes on in order: the first is answered, then the one asked after the withdrawn ones.
  shown[0].handleInput("\r");
  assert.equal((await asking).details.status, "answered");
  await untilShown(shown, 2);
  assert.match(shown[1].render(80).join("\n"), /Asked after them\?/);
  shown[1].handleInput("\r");
  assert.equal((await next).details.status, "answered");
  assert.equal(shown.length, 2, "no withdrawn question was ever shown");
  assert.equal(asker.board.waiting.size, 0);
});

test("queue: a question whose asker had already gone is never queued; the one on screen is withdrawn at once and closes", async () => {
  const asker = createAsker({ getSessionName: () => undefined });
  const { ctx, shown } = onScreen();
  const gone = new AbortController();
  gone.abort();
  const q = question("gone", "Nobody waits for this?");
  const r = await asker.ask(q.args, q.questions, ctx, gone.signal, { name: "worker", pid: 1 });
  assert.equal(r.details.status, "interrupted");
  assert.equal(shown.length, 0);
  assert.equal(asker.board.waiting.size, 0);

  const leaving = new AbortController();
  const s = question("shown", "On screen when its asker leaves?");
  const asking = asker.ask(s.args, s.questions, ctx, leaving.signal, { name: "worker", pid: 2 });
  await untilShown(shown, 1);
  leaving.abort();
  assert.equal(asker.board.waiting.size, 0, "withdrawn from the list at once");
  assert.equal((await asking).details.status, "interrupted");
  const o = question("own", "The next one is shown?");
  const own = asker.ask(o.args, o.questions, ctx, undefined);
  await untilShown(shown, 2);
  shown[1].handleInput("\r");
  assert.equal((await own).details.status, "answered");
});
