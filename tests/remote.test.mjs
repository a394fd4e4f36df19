// remote.test.mjs — answering a waiting question from elsewhere (another terminal), exactly once:
// the real tool with a fake TUI, its endpoint reached through the wire module as
// `pi-question pending` / `answer` reach it. Whoever answers first wins; everyone later, however
// late, is told how the question ended ("already answered", "already cancelled", "withdrawn…")
// and changes nothing. The command itself: remote-cli.test.mjs; end to end with the real pi:
// e2e-remote.test.mjs.
import "./helpers/own-home.mjs"; // never the real ~/.pi/agent (remembered answers)
import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import {
  listEndpoints,
  parseRelayVariable,
  REGISTRY_TEMPORARY_STALE_MS,
  registerEndpoint,
  registryDirectory,
  request,
} from "../extension/elsewhere/relay-wire.mjs";
import { loadExtension, tuiContext } from "./helpers/fake-pi.mjs";
import { REMOTE_MODE, remoteText } from "./helpers/remote-text.mjs";
import { until } from "./helpers/until.mjs";

// The endpoint registry goes to a throw-away runtime directory.
const runtime = mkdtempSync(join(tmpdir(), "pi-question-runtime-"));
process.env.XDG_RUNTIME_DIR = runtime;
process.env.LOCALAPPDATA = runtime; // where the registry is on Windows
after(() => rmSync(runtime, { recursive: true, force: true }));

const handlers = new Map();
const { tools } = await loadExtension({ on: (name, fn) => handlers.set(name, fn) });
const tool = tools.get("question");
let shown = [];
const ctx = tuiContext((component) => shown.push(component));
await handlers.get("session_start")({ reason: "startup" }, ctx);
after(() => handlers.get("session_shutdown")({}, ctx));
// Other terminals list and answer through the registry's endpoint (the secret there may be one
// that children, who find PI_QUESTION_RELAY, are not given).
const endpoint = listEndpoints().find((e) => e.pid === process.pid)?.endpoint;

const ARGS = tool.prepareArguments({ questions: [{ id: "db", prompt: "Which database?", options: ["SQLite", "Postgres"] }] });

async function list() {
  const r = await request(endpoint, { type: "list" });
  assert.equal(r.type, "reply");
  return r.message.questions;
}

const ALREADY = { type: "result", ok: false, code: "already", reason: "already answered" };

const answerRemotely = async (qid, answers, outcome = "answered") =>
  (await request(endpoint, { type: "answer", qid, outcome, answers })).message;

test("remote: an asking pi registers its endpoint for other terminals", () => {
  const mine = listEndpoints().filter((e) => e.pid === process.pid);
  assert.equal(mine.length, 1);
  assert.equal(mine[0].endpoint.path, parseRelayVariable(process.env.PI_QUESTION_RELAY).path, "the socket children reach");
});

test("remote: a waiting question is listed, answered from elsewhere, and closes here with mode remote", async () => {
  shown = [];
  const asking = tool.execute("1", ARGS, undefined, undefined, ctx);
  await until(() => shown.length === 1, "the question on screen");
  const [q] = await list();
  assert.equal(JSON.parse(q.args).questions[0].prompt, "Which database?");
  assert.deepEqual(await answerRemotely(q.qid, { db: "Postgres" }), { type: "result", ok: true });
  const result = await asking;
  assert.equal(result.content[0].text, remoteText("db: user selected: 2. Postgres"));
  assert.equal(result.details.mode, REMOTE_MODE);
  assert.equal(result.details.status, "answered");
  // The question closed here: the view takes no more keys.
  shown[0].handleInput("1");
  assert.deepEqual(await list(), []);
  // Long after it stopped waiting, a later answer is told exactly that it was already answered.
  assert.deepEqual(await answerRemotely(q.qid, { db: "SQLite" }), ALREADY);
});

test(
  "remote: an answer from a process this pi started (the agent's own `pi-question answer`) is refused with why, and the question keeps waiting",
  {
    skip:
      process.platform !== "linux" &&
      process.platform !== "win32" &&
      "the peer's pid and parents are read on Linux and Windows only (macOS: on its CI)",
  },
  async () => {
    shown = [];
    const asking = tool.execute("1", ARGS, undefined, undefined, ctx);
    await until(() => shown.length === 1, "the question on screen");
    const [q] = await list();
    // A child of this process (here, the pi): what the agent's bash runs, with the control secret.
    const wire = new URL("../extension/elsewhere/relay-wire.mjs", import.meta.url).href;
    const source = `import { request } from ${JSON.stringify(wire)};
    const r = await request(JSON.parse(process.argv[1]), { type: "answer", qid: process.argv[2], outcome: "answered", answers: { db: "Postgres" } });
    process.stdout.write(JSON.stringify(r.message));`;
    const reply = await new Promise((resolve, reject) =>
      execFile(process.execPath, ["--input-type=module", "-e", source, JSON.stringify(endpoint), q.qid], (error, stdout) =>
        error ? reject(error) : resolve(JSON.parse(stdout)),
      ),
    );
    assert.equal(reply.type, "result");
    assert.equal(reply.ok, false);
    assert.equal(reply.code, "refused");
    assert.match(
      reply.reason,
      new RegExp(`^refused: this command was started by the pi whose questions it asks for \\(through .*, pid ${process.pid}\\)`),
    );
    assert.match(reply.reason, /Answer in pi itself, or run pi-question from a terminal pi did not start\.$/);
    assert.equal((await list()).length, 1, "still waiting");
    // The person's terminal (here: not a child of this pi) answers it.
    assert.deepEqual(await answerRemotely(q.qid, { db: "SQLite" }), { type: "result", ok: true });
    const result = await asking;
    assert.equal(result.details.mode, "remote");
    assert.equal(result.content[0].text, "db: user selected: 1. SQLite");
  },
);

test("remote: two answers at once — exactly one wins, the other is told", async () => {
  shown = [];
  const asking = tool.execute("2", ARGS, undefined, undefined, ctx);
  await until(() => shown.length === 1, "the question on screen");
  const [q] = await list();
  const verdicts = await Promise.all([answerRemotely(q.qid, { db: "SQLite" }), answerRemotely(q.qid, { db: "Postgres" })]);
  assert.deepEqual(verdicts.map((v) => v.ok).sort(), [false, true]);
  assert.deepEqual(
    verdicts.find((v) => !v.ok),
    ALREADY,
  );
  const winner = verdicts[0].ok ? "1. SQLite" : "2. Postgres";
  assert.equal((await asking).content[0].text, remoteText(`db: user selected: ${winner}`));
  // …and so is every answer after it, however late.
  assert.deepEqual(await answerRemotely(q.qid, { db: "SQLite" }), ALREADY);
});

test("remote: the person answering here first wins; a later answer from elsewhere is refused", async () => {
  shown = [];
  const asking = tool.execute("3", ARGS, undefined, undefined, ctx);
  await until(() => shown.length === 1, "the question on screen");
  const [q] = await list();
  shown[0].handleInput("1"); // the key that ends the question, before the other answer arrives
  assert.deepEqual(await answerRemotely(q.qid, { db: "Postgres" }), ALREADY);
  assert.equal((await asking).content[0].text, "db: user selected: 1. SQLite");
  assert.deepEqual(await answerRemotely(q.qid, { db: "Postgres" }), ALREADY, "and after it stopped waiting");
});

test("remote: an invalid answer from elsewhere is refused with the core's message and the question keeps waiting", async () => {
  shown = [];
  const asking = tool.execute("4", ARGS, undefined, undefined, ctx);
  await until(() => shown.length === 1, "the question on screen");
  const [q] = await list();
  const bad = await answerRemotely(q.qid, { nope: "x" });
  assert.equal(bad.ok, false);
  assert.equal(bad.code, "invalid");
  assert.match(bad.reason, /nope/);
  const weird = await answerRemotely(q.qid, null, "interrupted");
  assert.equal(weird.code, "invalid");
  assert.equal((await list()).length, 1, "still waiting");
  shown[0].handleInput("2");
  assert.equal((await asking).content[0].text, "db: user selected: 2. Postgres");
});

test("remote: a question queued behind another can be answered from elsewhere and is never shown", async () => {
  shown = [];
  const first = tool.execute("5", ARGS, undefined, undefined, ctx);
  const second = tool.execute("6", tool.prepareArguments({ questions: [{ id: "name", prompt: "Name?" }] }), undefined, undefined, ctx);
  await until(() => shown.length === 1, "the first question on screen");
  const waiting = await list();
  assert.equal(waiting.length, 2);
  const queued = waiting.find((w) => JSON.parse(w.args).questions[0].id === "name");
  assert.equal((await answerRemotely(queued.qid, { name: "orders" })).ok, true);
  shown[0].handleInput("1");
  assert.equal((await first).content[0].text, "db: user selected: 1. SQLite");
  assert.equal((await second).content[0].text, remoteText("name: user wrote: orders"));
  assert.equal(shown.length, 1, "the answered question was never shown");
});

test("remote: watching a question reports when it is answered anywhere", async () => {
  shown = [];
  const asking = tool.execute("7", ARGS, undefined, undefined, ctx);
  await until(() => shown.length === 1, "the question on screen");
  const [q] = await list();
  const watched = request(endpoint, { type: "watch", qid: q.qid });
  shown[0].handleInput("1");
  await asking;
  const r = await watched;
  assert.equal(r.type, "reply");
  assert.deepEqual(r.message, { type: "closed", qid: q.qid });
  // A question that is not waiting is reported closed at once.
  assert.deepEqual((await request(endpoint, { type: "watch", qid: "gone" })).message, { type: "closed", qid: "gone" });
});

test("remote: a terminal that disconnects mid-answer loses nothing — the question keeps waiting and is answered here", async () => {
  shown = [];
  const asking = tool.execute("8", ARGS, undefined, undefined, ctx);
  await until(() => shown.length === 1, "the question on screen");
  const [q] = await list();
  // Half a message, then the connection drops.
  const whole = JSON.stringify({ type: "answer", qid: q.qid, outcome: "answered", answers: { db: "SQLite" }, secret: endpoint.secret });
  await new Promise((resolve, reject) => {
    const socket = createConnection(endpoint.path, () => socket.write(whole.slice(0, whole.length >> 1), () => socket.destroy()));
    socket.on("close", resolve);
    socket.on("error", reject);
  });
  // A terminal watching the question (as `pi-question answer` does while it asks there) goes away.
  const gone = new AbortController();
  const watching = request(endpoint, { type: "watch", qid: q.qid }, { signal: gone.signal });
  gone.abort();
  assert.deepEqual(await watching, { type: "interrupted" });
  assert.equal((await list()).length, 1, "still waiting");
  shown[0].handleInput("2");
  const result = await asking;
  assert.equal(result.content[0].text, "db: user selected: 2. Postgres");
  assert.equal(result.details.mode, "interactive");
});

test("remote: the endpoint registry is private, and entries of dead processes are ignored and removed", () => {
  const dir = registryDirectory();
  assert.equal(dir, join(runtime, "pi-question"));
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  for (const name of readdirSync(dir)) assert.equal(statSync(join(dir, name)).mode & 0o777, 0o600, name);
  // A directory someone loosened is made private again.
  chmodSync(dir, 0o755);
  registryDirectory();
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  // A dead process's entry and a broken one.
  const dead = spawnSync(process.execPath, ["-e", ""]).pid;
  const stale = join(dir, `${dead}-deadbeef.json`);
  writeFileSync(stale, JSON.stringify({ variable: process.env.PI_QUESTION_RELAY, pid: dead, cwd: "/gone", startedAt: 1 }));
  const broken = join(dir, "1-broken.json");
  writeFileSync(broken, "{ not json");
  const live = listEndpoints();
  assert.deepEqual(
    live.map((e) => e.pid),
    [process.pid],
  );
  assert.equal(existsSync(stale), false, "the dead process's entry is removed");
  rmSync(broken);
});

test("remote: left-behind *.json.tmp files are removed when listing — a dead process's at once, a live one's once stale; links are never followed", () => {
  const dir = registryDirectory();
  const outside = mkdtempSync(join(tmpdir(), "pi-question-outside-"));
  try {
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    const deadTmp = join(dir, `${dead}-0badc0de.json.tmp`);
    writeFileSync(deadTmp, '{"half":');
    const liveTmp = join(dir, `${process.pid}-0badc0de.json.tmp`);
    writeFileSync(liveTmp, '{"being written":');
    const odd = join(dir, "not-a-pid.json.tmp");
    writeFileSync(odd, "");
    // Links in the registry: to a file outside (named like a dead process's temporary) and to a
    // valid entry outside. Neither is followed, read or removed.
    const target = join(outside, "precious");
    writeFileSync(target, "keep me");
    const linkTmp = join(dir, `${dead}-1badc0de.json.tmp`);
    symlinkSync(target, linkTmp);
    const entryOutside = join(outside, "entry.json");
    writeFileSync(
      entryOutside,
      JSON.stringify({ variable: process.env.PI_QUESTION_RELAY, pid: process.pid, cwd: "/through-a-link", startedAt: 1 }),
    );
    const linkEntry = join(dir, `${process.pid}-2badc0de.json`);
    symlinkSync(entryOutside, linkEntry);

    const now = Date.now();
    const listed = listEndpoints(process.env, now);
    assert.deepEqual(
      listed.map((e) => e.cwd).filter((c) => c === "/through-a-link"),
      [],
      "a linked entry is not read",
    );
    assert.equal(existsSync(deadTmp), false, "the dead process's temporary file is removed");
    assert.equal(existsSync(liveTmp), true, "a live process's fresh one is kept (it is being written)");
    assert.equal(existsSync(odd), true, "an unknown fresh one is kept");
    assert.ok(lstatSync(linkTmp).isSymbolicLink(), "the link is left alone");
    assert.equal(readFileSync(target, "utf8"), "keep me", "and what it points to is untouched");
    assert.ok(lstatSync(linkEntry).isSymbolicLink());
    // Older than the bound: removed whoever's they are.
    listEndpoints(process.env, now + REGISTRY_TEMPORARY_STALE_MS + 1000);
    assert.equal(existsSync(liveTmp), false, "a stale temporary file of a live process is removed");
    assert.equal(existsSync(odd), false);
    assert.ok(lstatSync(linkTmp).isSymbolicLink(), "a link, however old, is never removed");
    assert.equal(readFileSync(target, "utf8"), "keep me");
    rmSync(linkTmp);
    rmSync(linkEntry);
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
});

test("remote: a registry directory that is a symlink is refused, and registering never throws", () => {
  const elsewhere = mkdtempSync(join(tmpdir(), "pi-question-elsewhere-"));
  const fake = mkdtempSync(join(tmpdir(), "pi-question-fake-runtime-"));
  try {
    symlinkSync(elsewhere, join(fake, "pi-question"));
    const env = { XDG_RUNTIME_DIR: fake };
    assert.throws(() => registryDirectory(env), /is not a directory of this user's; remove it/);
    assert.deepEqual(listEndpoints(env), []);
    const remove = registerEndpoint({ variable: process.env.PI_QUESTION_RELAY, pid: process.pid, cwd: "/x", startedAt: 1 }, env);
    remove();
    assert.deepEqual(readdirSync(elsewhere), [], "nothing was written through the link");
  } finally {
    rmSync(fake, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  }
});

/** An RPC-like context (no custom components): each select() is recorded with a way to answer it;
 * like pi's RPC dialogs, an aborted dialog resolves with nothing. */
function rpcContext() {
  const dialogs = [];
  return {
    dialogs,
    ctx: {
      ...ctx,
      ui: {
        ...ctx.ui,
        custom: async () => undefined,
        select: (title, entries, opts) =>
          new Promise((resolve) => {
            dialogs.push({ title, entries, signal: opts?.signal, pick: (i) => resolve(entries[i]) });
            opts?.signal?.addEventListener("abort", () => resolve(undefined), { once: true });
          }),
      },
    },
  };
}

test("remote: a question in pi's RPC dialogs closes its dialog when answered elsewhere", async () => {
  const { ctx: rpc, dialogs } = rpcContext();
  const asking = tool.execute("9", ARGS, undefined, undefined, rpc);
  await until(() => dialogs.length === 1, "the RPC dialog");
  const [q] = await list();
  assert.deepEqual(await answerRemotely(q.qid, { db: "Postgres" }), { type: "result", ok: true });
  const result = await asking;
  assert.equal(result.content[0].text, remoteText("db: user selected: 2. Postgres"));
  assert.equal(result.details.mode, REMOTE_MODE);
  assert.equal(dialogs[0].signal?.aborted, true, "the dialog was told to close");
  assert.equal(dialogs.length, 1, "no further dialog opened");
});

test("remote: an RPC answer and one from elsewhere at once — exactly one is taken, the other is told", async () => {
  for (let round = 0; round < 16; round++) {
    const { ctx: rpc, dialogs } = rpcContext();
    const asking = tool.execute(`10-${round}`, ARGS, undefined, undefined, rpc);
    await until(() => dialogs.length === 1, "the RPC dialog");
    const [q] = await list();
    const elsewhere = answerRemotely(q.qid, { db: "Postgres" });
    // "1. SQLite" picked in the same turn as the answer from elsewhere leaves, or a little later:
    // the rounds sweep the moment across the other answer's arrival.
    if (round === 0) dialogs[0].pick(0);
    else setTimeout(() => dialogs[0].pick(0), round / 4);
    const verdict = await elsewhere;
    const result = await asking;
    if (verdict.ok) {
      assert.equal(result.details.mode, REMOTE_MODE);
      assert.equal(result.content[0].text, remoteText("db: user selected: 2. Postgres"));
    } else {
      assert.deepEqual(verdict, ALREADY);
      assert.equal(result.details.mode, "rpc");
      assert.equal(result.content[0].text, "db: user selected: 1. SQLite");
    }
    assert.deepEqual(await list(), [], "nothing left waiting");
    assert.deepEqual(await answerRemotely(q.qid, { db: "SQLite" }), ALREADY, "a later answer, whoever won");
  }
});

// ---- exactly once: every later answer is told how the question ended ---------------------------

test("remote: a later answer is told precisely how the question ended — cancelled here, or withdrawn when the agent stopped waiting", async () => {
  shown = [];
  let asking = tool.execute("e1", ARGS, undefined, undefined, ctx);
  await until(() => shown.length === 1, "the question on screen");
  let [q] = await list();
  shown[0].handleInput("\x1b"); // Esc: cancelled here
  assert.equal((await asking).details.status, "cancelled");
  assert.deepEqual(await answerRemotely(q.qid, { db: "SQLite" }), {
    type: "result",
    ok: false,
    code: "cancelled",
    reason: "already cancelled",
  });

  shown = [];
  const agent = new AbortController();
  asking = tool.execute("e2", ARGS, agent.signal, undefined, ctx);
  await until(() => shown.length === 1, "the question on screen");
  [q] = await list();
  agent.abort(); // the agent's turn was interrupted: the question is withdrawn
  assert.equal((await asking).details.status, "interrupted");
  assert.deepEqual(await answerRemotely(q.qid, { db: "SQLite" }), {
    type: "result",
    ok: false,
    code: "withdrawn",
    reason: "withdrawn: the agent that asked it stopped waiting",
  });
  // The list reports both endings, for `pi-question answer` to resolve an id or a position.
  const r = await request(endpoint, { type: "list" });
  const ended = r.message.ended.slice(-2).map(({ ending }) => ending);
  assert.deepEqual(ended, ["cancelled", "withdrawn"]);
  // An id no pi ever made is still "not waiting".
  assert.equal((await answerRemotely("q00000000", { db: "SQLite" })).code, "not_waiting");
});

test("remote: the memory of ended questions is bounded — the oldest is forgotten first", async () => {
  const { addon } = await import("./helpers/addon.mjs");
  const limit = addon.limits.endedRemembered;
  const qids = [];
  for (let i = 0; i <= limit; i++) {
    shown = [];
    const asking = tool.execute(`m${i}`, ARGS, undefined, undefined, ctx);
    const [q] = await list();
    qids.push(q.qid);
    assert.equal((await answerRemotely(q.qid, { db: "SQLite" })).ok, true);
    await asking;
  }
  const r = await request(endpoint, { type: "list" });
  assert.equal(r.message.ended.length, limit);
  assert.equal((await answerRemotely(qids[0], { db: "SQLite" })).code, "not_waiting", "the oldest was forgotten");
  assert.deepEqual(await answerRemotely(qids[1], { db: "SQLite" }), ALREADY);
  assert.deepEqual(await answerRemotely(qids.at(-1), { db: "SQLite" }), ALREADY);
});

test("remote: Ctrl+T's words from another terminal end the question here as discuss, with the words", async () => {
  shown = [];
  const asking = tool.execute("d1", ARGS, undefined, undefined, ctx);
  await until(() => shown.length === 1, "the question on screen");
  const [q] = await list();
  const noWords = (await request(endpoint, { type: "answer", qid: q.qid, outcome: "discuss", answers: null })).message;
  assert.equal(noWords.code, "invalid");
  assert.match(noWords.reason, /discuss needs the person's words/);
  const said = "Let's talk first: what about DuckDB?";
  const r = await request(endpoint, { type: "answer", qid: q.qid, outcome: "discuss", answers: {}, discussion: said });
  assert.deepEqual(r.message, { type: "result", ok: true });
  const result = await asking;
  assert.equal(result.details.status, "discuss");
  assert.equal(result.details.mode, REMOTE_MODE);
  assert.equal(result.details.discussion, said);
  assert.match(result.content[0].text, /what about DuckDB\?/);
  assert.deepEqual(await answerRemotely(q.qid, { db: "SQLite" }), ALREADY, "talking first is the person's answer");
});

test("remote: discuss words over the discuss limit are refused whole (the sender keeps them), at the limit taken whole", async () => {
  const { addon } = await import("./helpers/addon.mjs");
  const most = addon.limits.discussBytes;
  assert.equal(most, 4000, "native/core/qt_limits.h QT_MAX_DISCUSS_BYTES");
  shown = [];
  const asking = tool.execute("d2", ARGS, undefined, undefined, ctx);
  await until(() => shown.length === 1, "the question on screen");
  const [q] = await list();
  const over = "é".repeat(most / 2) + "x"; // most + 1 bytes in UTF-8 (fewer characters)
  const refused = (await request(endpoint, { type: "answer", qid: q.qid, outcome: "discuss", answers: {}, discussion: `  ${over}\n` }))
    .message;
  assert.equal(refused.ok, false);
  assert.equal(refused.code, "invalid");
  assert.equal(
    refused.reason,
    `what you wrote to the agent is ${most + 1} bytes; pi takes at most ${most} bytes. Nothing was sent; shorten it and send it again`,
  );
  assert.equal((await list()).length, 1, "still waiting: nothing was taken");
  const whole = "é".repeat(most / 2); // exactly the limit, padded with white space that is trimmed
  const r = await request(endpoint, { type: "answer", qid: q.qid, outcome: "discuss", answers: {}, discussion: `\n${whole}  ` });
  assert.deepEqual(r.message, { type: "result", ok: true });
  const result = await asking;
  assert.equal(result.details.status, "discuss");
  assert.equal(result.details.discussion, whole, "taken whole, not cut");
});
