// board.test.mjs — the board of waiting questions (extension/board/board.ts) on its own: ids, first
// answer wins exactly once (the person's key here, the terminal runner's claim on its thread, an
// answer from elsewhere), endings remembered for late answers, withdrawals, the queue and its
// signals. And the structure around it: the board is the only module that decides who answered,
// it and the relay do not import each other, and the whole extension has no import cycle.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { test } from "node:test";
import { addon, root } from "./helpers/addon.mjs";
import { importShim } from "./helpers/shim.mjs";

const { createBoard } = await importShim("board/board.ts");

const QUESTIONS = [{ id: "db", label: "DB", prompt: "Which database?", multiSelect: false }];
/** Posts a question whose answers from elsewhere build `{ outcome, answersJson, mode, said }`. */
function post(board, extra = {}) {
  const built = [];
  const ticket = board.post({ questions: QUESTIONS, args: "{}", ...extra }, (outcome, answersJson, mode, said) => {
    const r = { outcome, answersJson, mode, said };
    built.push(r);
    return r;
  });
  return { ticket, built };
}
const en = addon.strings("en");

test("board: a posted question waits under a fresh id ('q' + 8 hex digits) until it ends; then it is remembered with how it ended", () => {
  const board = createBoard();
  const { ticket } = post(board, { askedBy: "Asked by worker" });
  assert.match(ticket.qid, /^q[0-9a-f]{8}$/);
  const w = board.waiting.get(ticket.qid);
  assert.equal(w.askedBy, "Asked by worker");
  assert.deepEqual(w.questions, QUESTIONS);
  assert.equal(w.settled, false);
  assert.equal(ticket.claim("answered"), true, "the person's key takes it");
  assert.equal(board.waiting.get(ticket.qid).settled, true, "still listed until its asker ends it, but settled");
  ticket.end();
  assert.equal(board.waiting.size, 0);
  assert.deepEqual(
    [...board.ended.values()].map((e) => [e.qid, e.ending]),
    [[ticket.qid, "answered"]],
  );
});

test("board: touch — the person works on a waiting question on another face — stops its flow's clock once (the faces hear it); not after it was taken, nor for an unknown id", () => {
  const board = createBoard();
  const build = () => ({});
  const args = addon.normalize(
    JSON.stringify({ questions: [{ id: "db", label: "DB", prompt: "Which?", options: [{ label: "A" }, { label: "B" }] }] }),
  );
  const ticket = board.post({ questions: [], args }, build);
  const flow = ticket.flow();
  flow.startClock({ ms: 60_000, then: "cancel" });
  assert.ok(flow.clockLeft() > 0);
  let heard = 0;
  flow.follow({}, () => heard++);
  board.touch("q00000000"); // no such question
  assert.ok(flow.clockLeft() > 0);
  board.touch(ticket.qid);
  board.touch(ticket.qid);
  assert.equal(flow.clockLeft(), undefined, "stopped for good");
  assert.equal(flow.engine.nextTick(Date.now()), -1);
  assert.equal(heard, 1, "the faces heard it once");
  const other = board.post({ questions: [], args }, build);
  const otherFlow = other.flow();
  otherFlow.startClock({ ms: 60_000, then: "cancel" });
  assert.equal(other.claim("answered"), true);
  board.touch(other.qid); // taken: nothing more to stop (and nothing thrown)
  ticket.end();
  other.end();
});

test("board: the first answer wins exactly once — from elsewhere, then the person's key and every later answer are refused with how it ended", () => {
  const board = createBoard();
  const { ticket, built } = post(board);
  assert.deepEqual(board.answer(ticket.qid, "answered", '{"db":"Postgres"}', "web"), { ok: true });
  assert.equal(ticket.stopped.aborted, true, "the question closes wherever it is shown here");
  assert.deepEqual(ticket.taken, { outcome: "answered", answersJson: '{"db":"Postgres"}', mode: "web", said: null });
  assert.equal(ticket.claim("cancelled"), false, "the person's late key changes nothing");
  assert.deepEqual(board.answer(ticket.qid, "answered", '{"db":"SQLite"}', "remote"), {
    ok: false,
    code: "already",
    reason: en.ELSEWHERE_ALREADY,
  });
  assert.equal(built.length, 1, "a refused answer builds nothing");
  ticket.settle("answered");
  ticket.end();
  assert.deepEqual(
    board.answer(ticket.qid, "declined", null, "remote"),
    { ok: false, code: "already", reason: en.ELSEWHERE_ALREADY },
    "remembered after it ended",
  );
});

test("board: the person's key first — an answer from elsewhere is refused; an ending says precisely how (cancelled, timed out, withdrawn)", () => {
  const board = createBoard();
  const { ticket } = post(board);
  assert.equal(ticket.claim("cancelled"), true);
  assert.deepEqual(board.answer(ticket.qid, "answered", "{}", "remote"), { ok: false, code: "cancelled", reason: en.ELSEWHERE_CANCELLED });
  ticket.end();
  const timed = post(board).ticket;
  timed.settle("timed_out");
  timed.end();
  assert.deepEqual(board.answer(timed.qid, "answered", "{}", "remote"), { ok: false, code: "timed_out", reason: en.ELSEWHERE_TIMED_OUT });
  const gone = post(board).ticket;
  gone.end(); // its asker went away: nothing settled it
  assert.deepEqual(board.answer(gone.qid, "answered", "{}", "remote"), { ok: false, code: "withdrawn", reason: en.ELSEWHERE_WITHDRAWN });
  assert.deepEqual(board.answer("q00000000", "answered", "{}", "remote"), {
    ok: false,
    code: "not_waiting",
    reason: en.ELSEWHERE_NOT_WAITING,
  });
});

test("board: the terminal runner's claim decides against an answer from elsewhere — its key first refuses the answer; the answer first wins it", () => {
  const board = createBoard();
  const first = post(board);
  first.ticket.claimAtKey(() => "declined");
  assert.deepEqual(board.answer(first.ticket.qid, "answered", "{}", "remote"), {
    ok: false,
    code: "already",
    reason: en.ELSEWHERE_ALREADY,
  });
  assert.equal(board.waiting.get(first.ticket.qid).settled, true);
  assert.equal(first.ticket.taken, undefined);
  const second = post(board);
  second.ticket.claimAtKey(() => true);
  assert.deepEqual(board.answer(second.ticket.qid, "cancelled", null, "remote"), { ok: true });
  assert.equal(second.ticket.taken.outcome, "cancelled");
  second.ticket.settle("interrupted"); // what the runner reports once it closed
  second.ticket.end();
  assert.equal(board.ended.get(second.ticket.qid).ending, "cancelled", "the answer that won says how it ended");
});

test("board: a wrong answer from elsewhere is refused with a reason and loses nothing — the question still waits for the right one", () => {
  const board = createBoard();
  const { ticket } = post(board);
  assert.match(board.answer(ticket.qid, "interrupted", null, "remote").reason, /outcome must be answered, declined, cancelled or discuss/);
  assert.match(board.answer(ticket.qid, "discuss", null, "remote").reason, /discussion/);
  const long = "é".repeat(addon.limits.discussBytes);
  const tooLong = board.answer(ticket.qid, "discuss", null, "remote", long);
  assert.equal(tooLong.code, "invalid");
  assert.ok(tooLong.reason.includes(String(addon.limits.discussBytes)), tooLong.reason);
  const broken = createBoard();
  const t2 = broken.post({ questions: QUESTIONS, args: "{}" }, () => {
    throw new Error("db: no such option");
  });
  assert.deepEqual(broken.answer(t2.qid, "answered", "{}"), { ok: false, code: "invalid", reason: "db: no such option" });
  assert.equal(broken.waiting.get(t2.qid).settled, false);
  assert.deepEqual(board.answer(ticket.qid, "discuss", null, "remote", "  let us talk  "), { ok: true });
  assert.equal(ticket.taken.said, "let us talk", "the words trimmed, as the dialogs take them");
});

test("board: watchers hear the end (at once for a question not waiting); subscribers hear every change, and a failing one stops nobody", () => {
  const board = createBoard();
  let changes = 0;
  board.subscribe(() => {
    throw new Error("a broken listener");
  });
  const stop = board.subscribe(() => changes++);
  const { ticket } = post(board);
  assert.equal(changes, 1, "posted");
  let closed = 0;
  board.watch(ticket.qid, () => closed++);
  ticket.claim("answered");
  assert.equal(changes, 2, "claimed");
  assert.equal(closed, 0);
  ticket.end();
  assert.equal(closed, 1);
  assert.equal(changes, 3, "ended");
  board.watch(ticket.qid, () => closed++);
  assert.equal(closed, 2, "not waiting: told at once");
  stop();
  post(board);
  assert.equal(changes, 3, "unsubscribed");
});

test("board: only the last limits.endedRemembered endings are kept, oldest first", () => {
  const board = createBoard();
  const most = addon.limits.endedRemembered;
  const qids = [];
  for (let i = 0; i < most + 3; i++) {
    const { ticket } = post(board);
    qids.push(ticket.qid);
    ticket.end();
  }
  assert.deepEqual([...board.ended.keys()], qids.slice(3));
  assert.equal(board.answer(qids[0], "answered", "{}", "remote").code, "not_waiting", "forgotten");
});

test("board: the queue shows one question at a time, in the order asked; one that leaves before its turn never runs", async () => {
  const board = createBoard();
  const ran = [];
  const gates = new Map();
  const turn = (name) => () => {
    ran.push(name);
    return new Promise((resolve) => gates.set(name, resolve));
  };
  assert.equal(board.line(turn("a"))(), false, "a started at once: it cannot leave the queue");
  const leaveB = board.line(turn("b"));
  board.line(turn("c"));
  assert.deepEqual(ran, ["a"]);
  assert.equal(leaveB(), true);
  assert.equal(leaveB(), false, "it left once");
  gates.get("a")();
  while (ran.length < 2) await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(ran, ["a", "c"]);
  gates.get("c")();
  await new Promise((resolve) => setImmediate(resolve));
  board.line(turn("d"));
  assert.deepEqual(ran, ["a", "c", "d"], "nothing in front: at once");
  gates.get("d")();
});

// ---- the structure -------------------------------------------------------------------------

/** extension/*.ts, *.mjs, *.cjs: each file's local imports — those that run (static and
 * first-use imports, require) and, with `types`, the type-only ones too. */
/** Every file under extension/, as a path relative to it ("board/board.ts"). */
function extensionFiles() {
  return readdirSync(join(root, "extension"), { recursive: true }).map((f) => f.split("\\").join("/"));
}

function importGraph({ types }) {
  const dir = join(root, "extension");
  const graph = new Map();
  for (const file of extensionFiles().filter((f) => /\.(ts|mjs|cjs)$/.test(f) && !f.endsWith(".d.mts") && !f.endsWith(".d.cts"))) {
    const source = readFileSync(join(dir, file), "utf8");
    const deps = new Set();
    const at = (spec) => posix.normalize(posix.join(posix.dirname(file), spec)); // the path under extension/
    for (const m of source.matchAll(/^(?:import|export)\s+(type\s+)?[^;]*?\bfrom\s+["'](\.{1,2}\/[^"']+)["']/gms))
      if (types || !m[1]) deps.add(at(m[2]));
    for (const m of source.matchAll(/\b(?:import|require)\s*(?:\)\s*)?\(\s*["'](\.{1,2}\/[^"']+)["']/g)) deps.add(at(m[1]));
    graph.set(file, deps);
  }
  return graph;
}

test("structure: no module of the extension imports, directly or through others, a module that imports it (first-use imports counted)", () => {
  const graph = importGraph({ types: false });
  const cycles = [];
  const state = new Map(); // 1: on the path, 2: done
  const visit = (file, path) => {
    if (state.get(file) === 2 || !graph.has(file)) return;
    if (state.get(file) === 1) {
      cycles.push([...path.slice(path.indexOf(file)), file].join(" → "));
      return;
    }
    state.set(file, 1);
    for (const dep of graph.get(file)) visit(dep, [...path, file]);
    state.set(file, 2);
  };
  for (const file of graph.keys()) visit(file, []);
  assert.deepEqual(cycles, []);
});

test("structure: the board and the relay do not import each other (not even types); the answering surfaces reach the board, not the asker", () => {
  const graph = importGraph({ types: true });
  assert.ok(graph.get("board/board.ts").size > 0, "the board's imports were read");
  // The board knows no surface: neither the relay (either end), the web page, nor the asker.
  for (const dep of graph.get("board/board.ts"))
    assert.ok(
      !/^(elsewhere\/(relay|relay-host|web|web-host)|ask\/(ask|print-mode|interactive|dialogs))\.ts$/.test(dep),
      `board.ts imports ${dep}`,
    );
  // The surfaces that answer from elsewhere reach the board's interface, never the asker's insides.
  for (const file of ["elsewhere/web.ts", "elsewhere/relay.ts"])
    assert.ok(!graph.get(file).has("ask/ask.ts"), `${file} imports ask/ask.ts`);
});

test("structure: the board is the only module that decides who answered — no other keeps a question's settled/claimed state or refuses a late answer", () => {
  const dir = join(root, "extension");
  const offenders = [];
  for (const file of extensionFiles().filter((f) => f.endsWith(".ts") && f !== "board/board.ts")) {
    readFileSync(join(dir, file), "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
        // a question's own "answered/settled" record, or a refusal of a late answer built here
        if (
          /\.(settled|claimed|elsewhere)\s*=[^=]|\bsettled\s*:\s*(false|true)\b|\bENDING_STRINGS\[|\bendingOf\(|\bnew Map<string,\s*Live>/.test(
            line,
          )
        ) {
          offenders.push(`extension/${file}:${i + 1}: ${line.trim()}`);
        }
      });
  }
  assert.deepEqual(offenders, []);
});

test("structure: `terminate` is decided in one place (result.ts) — no other module sets it on a result", () => {
  const dir = join(root, "extension");
  const offenders = [];
  for (const file of extensionFiles().filter((f) => f.endsWith(".ts") && f !== "board/result.ts")) {
    readFileSync(join(dir, file), "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
        if (/\bterminate\s*:|\bterminate\s*=[^=]|const terminate\b/.test(line))
          offenders.push(`extension/${file}:${i + 1}: ${line.trim()}`);
      });
  }
  assert.deepEqual(offenders, []);
});

test("structure: the addon is a module others import — no extension module takes it as a `native: NativeAddon` parameter", () => {
  // addon-types.ts's terminalReachable(native) reads a fact of the addon it is given: a function
  // of an addon, not a module holding one. Every module of the extension imports addon.ts.
  const allowed = new Set(["addon-types.ts"]);
  const dir = join(root, "extension");
  const offenders = [];
  for (const file of extensionFiles().filter((f) => f.endsWith(".ts") && !allowed.has(f))) {
    const source = readFileSync(join(dir, file), "utf8");
    if (/\bnative\??\s*:\s*NativeAddon\b/.test(source)) offenders.push(file);
  }
  assert.deepEqual(offenders, []);
});
