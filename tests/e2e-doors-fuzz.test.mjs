// e2e-doors-fuzz.test.mjs — the doors of a running pi (0.73.1 in RPC mode, with this extension)
// against hostile and broken clients: the relay socket (found through the per-user registry, as
// `pi-question pending` finds it) and the web page's server (turned on with `/questions web`).
// A question waits, its RPC dialog unanswered, while
//   - one relay `answer` whose answers nest 6,000 deep (12 KB, for an id that does not exist)
//     arrives with the right credential: pi must not exit;
//   - for a bounded time per door, seeded random cases (tests/helpers/door-fuzz.mjs) are thrown
//     at the relay, then at the web server, from several connections at once.
// Afterwards pi lives and answers RPC, the question still waits (relay list, and the page's live
// snapshot), the page still serves its token holder, the question is answered normally and the
// model reads the answer, and pi's stderr shows no uncaught exception. No generated message can
// legitimately answer the waiting question (door-fuzz.mjs says how); one that is taken anyway
// fails the test.
//
// DOORS_FUZZ_SECONDS (default 10) is the time per door; the seed is printed, and
// DOORS_FUZZ_SEED=<seed> replays the same cases.
import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import { request as httpRequest } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { alive, listEndpoints, request } from "../extension/elsewhere/relay-wire.mjs";
import { describe, prng, relayCase, runCase, tcp, webCase } from "./helpers/door-fuzz.mjs";
import { startMockModel } from "./helpers/mock-model.mjs";
import { makeHome } from "./helpers/pi.mjs";
import { startRpc } from "./helpers/rpc-client.mjs";

const SECONDS = Number(process.env.DOORS_FUZZ_SECONDS || 10);
if (!(SECONDS > 0)) throw new Error(`DOORS_FUZZ_SECONDS=${process.env.DOORS_FUZZ_SECONDS}: a number of seconds above 0, please`);
const SEED = process.env.DOORS_FUZZ_SEED ? Number(process.env.DOORS_FUZZ_SEED) : randomInt(2 ** 32);
if (!Number.isInteger(SEED) || SEED < 0 || SEED >= 2 ** 32)
  throw new Error(`DOORS_FUZZ_SEED=${process.env.DOORS_FUZZ_SEED}: a seed is an integer from 0 to 4294967295`);
const REPLAY = `seed ${SEED} (replay: DOORS_FUZZ_SEED=${SEED} DOORS_FUZZ_SECONDS=${SECONDS} node --test tests/e2e-doors-fuzz.test.mjs)`;
console.log(`# doors fuzz: ${REPLAY}`);

const DB = { id: "db", prompt: "Which database?", options: ["SQLite", "Postgres"] };
const URL_RE = /http:\/\/127\.0\.0\.1:\d+\/q\/[A-Za-z0-9_-]+/;
/** What pi prints when an exception escapes (it then exits, or limps on). */
const CRASH_RE =
  /Uncaught|RangeError|TypeError|ReferenceError|SyntaxError|Maximum call stack|unhandled|MaxListenersExceeded|^\s+at .+:\d+:\d+\)?$/im;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * A pi in RPC mode with the web page on and one question waiting (its dialog left unanswered),
 * its registry in a fresh XDG_RUNTIME_DIR. `fn(pi)` gets { rpc, model, pid, endpoint, url, port,
 * token, qid, dialog, live }: `live` is the set of sockets a test opened (destroyed at the end,
 * pass or fail). Everything started here is stopped and removed, pass or fail.
 */
async function withPi(fn) {
  const runtime = mkdtempSync(join(tmpdir(), "pq-doors-run-"));
  const live = new Set();
  let model;
  let home;
  let rpc;
  try {
    model = await startMockModel([{ toolCalls: [{ name: "question", arguments: { questions: [DB] } }] }, { text: "thanks" }]);
    home = makeHome(model.port);
    // pi's registry and its temporary files (the relay's socket directory, which a killed pi
    // leaves behind) go under `runtime`, removed at the end: pi inherits both from this process's
    // environment, set for the moment of the spawn.
    const saved = { XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR, TMPDIR: process.env.TMPDIR };
    Object.assign(process.env, { XDG_RUNTIME_DIR: runtime, TMPDIR: runtime });
    try {
      rpc = startRpc(home.home, home.work, () => undefined);
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    rpc.send({ id: "web", type: "prompt", message: "/questions web" });
    const note = await rpc.waitFor((e) => e.type === "extension_ui_request" && e.method === "notify" && URL_RE.test(e.message));
    const url = URL_RE.exec(note.message)[0];
    rpc.send({ id: "ask", type: "prompt", message: "ask me" });
    const dialog = await rpc.waitFor((e) => e.type === "extension_ui_request" && e.method === "select");
    assert.equal(dialog.title, "Which database?");
    const entries = listEndpoints({ XDG_RUNTIME_DIR: runtime });
    assert.equal(entries.length, 1, "one pi registered");
    const { pid, endpoint } = entries[0];
    const questions = await waitingIds({ endpoint });
    assert.equal(questions.length, 1, "one question waits");
    const { port, pathname } = new URL(url);
    const pi = { rpc, model, pid, endpoint, url, port: Number(port), token: pathname.split("/")[2], qid: questions[0], dialog, live };
    await fn(pi);
  } finally {
    for (const socket of live) socket.destroy();
    rpc?.close();
    await model?.close();
    home?.cleanup();
    rmSync(runtime, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

/** The ids of the questions waiting in pi, through a relay `list` with the registry's credential
 * (asked again for up to 5 s while the relay still closes the connections a test left). */
async function waitingIds(pi) {
  const until = Date.now() + 5000;
  let last;
  for (;;) {
    last = await request(pi.endpoint, { type: "list" }, { connectMs: 2000, replyMs: 2000 });
    if (last.type === "reply" && last.message.type === "pending") return last.message.questions.map((q) => q.qid);
    if (Date.now() > until) assert.fail(`relay list: no list came back: ${JSON.stringify(last)}`);
    await sleep(100);
  }
}

/** Whether pi's process is still there. */
const running = (pi) => !pi.rpc.exit && alive(pi.pid);

const gone = (pi) => `pi exited (${JSON.stringify(pi.rpc.exit ?? "gone")}); its stderr:\n${pi.rpc.stderr}`;

/** Waits (up to 5 s) until exactly the questions `ids` wait: a question a fuzzed connection asked
 * is withdrawn once pi has seen that connection close. */
async function onlyWaiting(pi, ids, what) {
  const until = Date.now() + 5000;
  let now;
  while (JSON.stringify((now = await waitingIds(pi))) !== JSON.stringify(ids) && Date.now() < until) await sleep(100);
  assert.deepEqual(now, ids, what);
}

let commandId = 0;
/** pi answers an RPC command (get_state) within 10 s: its process lives and its loop turns. */
async function answersRpc(pi) {
  const id = `state-${++commandId}`;
  pi.rpc.send({ id, type: "get_state" });
  const until = Date.now() + 10000;
  let reply;
  while (!(reply = pi.rpc.events.find((e) => e.type === "response" && e.id === id))) {
    assert.ok(running(pi), gone(pi));
    assert.ok(Date.now() < until, `pi did not answer get_state in 10 s; stderr:\n${pi.rpc.stderr}`);
    await sleep(50);
  }
  assert.equal(reply.success, true, JSON.stringify(reply));
}

/** One GET to the web server; resolves { status, type, body } (the body up to `firstEvent`: the
 * first server-sent event, then the stream is closed). */
function get(pi, path, { firstEvent = false } = {}) {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: pi.port, path, headers: { host: `127.0.0.1:${pi.port}` } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => {
        body += d;
        if (firstEvent && /^data: .*\n\n/m.test(body)) {
          req.destroy();
          resolve({ status: res.statusCode, type: res.headers["content-type"], body });
        }
      });
      res.on("end", () => resolve({ status: res.statusCode, type: res.headers["content-type"], body }));
      res.on("error", () => resolve({ status: res.statusCode, type: res.headers["content-type"], body }));
    });
    req.setTimeout(10000, () => req.destroy(new Error(`GET ${path}: no answer in 10 s`)));
    req.on("error", reject);
    req.end();
  });
}

/** The page serves its token holder, and its live snapshot lists the question still waiting. */
async function pageServes(pi) {
  const page = await get(pi, `/q/${pi.token}`);
  assert.equal(page.status, 200, `the page with its token: ${page.status} ${page.body.slice(0, 200)}`);
  assert.match(page.type, /^text\/html/);
  const events = await get(pi, `/q/${pi.token}/events`, { firstEvent: true });
  assert.equal(events.status, 200, `the page's live updates: ${events.status} ${events.body.slice(0, 200)}`);
  const state = JSON.parse(/^data: (.*)$/m.exec(events.body)[1]);
  assert.deepEqual(
    state.questions.map((q) => q.qid),
    [pi.qid],
    "the page shows the question still waiting",
  );
}

/** Answers the waiting RPC dialog as a person would; the model reads that answer. */
async function answerDialog(pi) {
  pi.rpc.send({ type: "extension_ui_response", id: pi.dialog.id, value: "2. Postgres" });
  await pi.model.waitForRequests(2, 20000);
  assert.equal(pi.model.toolMessages(1)[0]?.content, "db: user selected: 2. Postgres");
}

function assertNoCrash(pi) {
  assert.doesNotMatch(pi.rpc.stderr, CRASH_RE, `pi's stderr shows an exception:\n${pi.rpc.stderr}`);
}

/**
 * Throws cases at one door for SECONDS from `workers` connections at once. `next(r)` makes a
 * case, `taken(reply)` says whether a reply means the waiting question was answered; `probe()`,
 * when given, runs over and over meanwhile and returns a complaint (a string) or nothing. Resolves
 * { cases, accepted, complaints, died, recent } (descriptions of the cases taken as answers, the
 * probe's complaints, whether pi's process went, the last cases sent); it stops early when pi's
 * process is gone.
 */
async function fuzz(pi, r, workers, next, connect, { taken, replies, probe }) {
  const deadline = Date.now() + SECONDS * 1000;
  const recent = [];
  const accepted = [];
  const complaints = [];
  const seen = new Map();
  let cases = 0;
  let died = false;
  const watchdog = setInterval(() => {
    if (!running(pi)) died = true;
  }, 100);
  const probing = async () => {
    while (probe && Date.now() < deadline && !died) {
      const complaint = await probe();
      if (complaint) complaints.push(complaint);
      await sleep(500);
    }
  };
  try {
    await Promise.all([
      probing(),
      ...Array.from({ length: workers }, async (_, i) => {
        const w = r.fork(i);
        while (Date.now() < deadline && !died) {
          const c = next(w);
          const text = describe(c);
          recent.push(text);
          if (recent.length > 24) recent.shift();
          cases++;
          const reply = await runCase(c, connect, pi.live);
          const what = replies(reply);
          seen.set(what, (seen.get(what) ?? 0) + 1);
          if (taken(reply)) accepted.push(`${text}\n  → ${reply.toString("utf8", 0, 300)}`);
        }
      }),
    ]);
  } finally {
    clearInterval(watchdog);
    for (const socket of pi.live) socket.destroy();
  }
  if (!running(pi)) died = true;
  return { cases, accepted, complaints, died, recent, seen };
}

/** The fuzz's own verdict, then everything that must still hold afterwards. */
async function afterFuzz(t, pi, door, result) {
  const seen = [...result.seen].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ×${n}`);
  t.diagnostic(`${door}: ${result.cases} cases in ${SECONDS} s; ${REPLAY}`);
  t.diagnostic(`${door}: what came back: ${seen.join(", ")}`);
  const context = `(${door} door, ${REPLAY})`;
  if (result.died) {
    assert.fail(`pi died during the ${door} fuzz ${context}; the last cases sent:\n${result.recent.join("\n")}\n--- ${gone(pi)}`);
  }
  assert.deepEqual(result.accepted, [], `a fuzz message was taken as an answer ${context}`);
  assert.deepEqual(result.complaints, [], `while the ${door} door was under attack ${context}`);
  try {
    await answersRpc(pi);
    await onlyWaiting(pi, [pi.qid], "the question still waits, and nothing else does");
    await pageServes(pi);
    assertNoCrash(pi);
  } catch (error) {
    error.message += `\n${context}; the last cases sent:\n${result.recent.join("\n")}`;
    throw error;
  }
}

test("doors: a relay answer nested 6,000 deep for an unknown id leaves pi running and the question waiting", async () => {
  await withPi(async (pi) => {
    const deep = "[".repeat(6000) + "]".repeat(6000);
    const line = `{"secret":${JSON.stringify(pi.endpoint.secret)},"type":"answer","qid":"q00000000","outcome":"answered","answers":${deep}}\n`;
    assert.ok(line.length > 12000 && line.length < 12300, String(line.length));
    assert.notEqual(pi.qid, "q00000000");
    const reply = await new Promise((resolve) => {
      const socket = createConnection(pi.endpoint.path);
      pi.live.add(socket);
      let got = "";
      const timer = setTimeout(() => socket.destroy(), 5000);
      socket.on("data", (d) => (got += d));
      socket.on("error", () => undefined);
      socket.on("close", () => {
        clearTimeout(timer);
        pi.live.delete(socket);
        resolve(got);
      });
      socket.on("connect", () => socket.write(line));
    });
    // Refused (a reason, or the connection closed): never taken.
    assert.doesNotMatch(reply, /"ok":true/, reply);
    await answersRpc(pi);
    assert.deepEqual(await waitingIds(pi), [pi.qid], "the question still waits");
    await answerDialog(pi);
    assertNoCrash(pi);
  });
});

test("doors: random and malformed relay messages from many connections — pi lives and the question still waits", async (t) => {
  await withPi(async (pi) => {
    const r = prng(SEED ^ 0x52454c41);
    const ctx = { secret: pi.endpoint.secret, qid: pi.qid };
    const taken = (reply) =>
      reply
        .toString("utf8")
        .split("\n")
        .some((l) => /"type"\s*:\s*"result"/.test(l) && /"ok"\s*:\s*true/.test(l));
    // What came back, for the record: the first reply's type (and code), or nothing.
    const replies = (reply) => {
      const line = reply.toString("utf8").split("\n")[0];
      if (!line) return "closed";
      const m = /"type"\s*:\s*"(\w+)"(?:.*"code"\s*:\s*"(\w+)")?/.exec(line);
      return m ? [m[1], m[2]].filter(Boolean).join(":") : "other";
    };
    const result = await fuzz(
      pi,
      r,
      8,
      (w) => relayCase(w, ctx),
      () => createConnection(pi.endpoint.path),
      { taken, replies },
    );
    await afterFuzz(t, pi, "relay", result);
    // The relay still answers normally: a valid answer from another terminal is taken.
    const answered = await request(
      pi.endpoint,
      { type: "answer", qid: pi.qid, outcome: "answered", answers: { db: { selected: ["Postgres"] } } },
      { connectMs: 2000, replyMs: 5000 },
    );
    assert.deepEqual(answered.type === "reply" ? answered.message : answered, { type: "result", ok: true });
    await pi.model.waitForRequests(2, 20000);
    assert.equal(pi.model.toolMessages(1)[0]?.content, "db: user selected: 2. Postgres");
    assertNoCrash(pi);
  });
});

test("doors: random and malformed HTTP at the web page's server — pi lives, the page serves and the question still waits", async (t) => {
  await withPi(async (pi) => {
    const r = prng(SEED ^ 0x57454221);
    const ctx = { port: pi.port, token: pi.token, qid: pi.qid };
    const taken = (reply) => /"ok"\s*:\s*true/.test(reply.toString("latin1"));
    // The person's own page keeps working while others hammer the server.
    const owner = async () => {
      const page = await get(pi, `/q/${pi.token}`).catch((error) => ({ status: error.message, body: "" }));
      if (page.status !== 200) return `the page with its token answered ${page.status}: ${page.body.slice(0, 120)}`;
    };
    const replies = (reply) => /^HTTP\/1\.[01] (\d+)/.exec(reply.toString("latin1"))?.[1] ?? (reply.length ? "other" : "closed");
    const result = await fuzz(pi, r, 6, (w) => webCase(w, ctx), tcp(pi.port), { taken, replies, probe: owner });
    await afterFuzz(t, pi, "web", result);
    await answerDialog(pi);
    assertNoCrash(pi);
  });
});
