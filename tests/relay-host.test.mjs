// relay-host.test.mjs — the relay's parent side with the real extension (the asker queue, the
// user's settings, pi's dialogs and TUI faked at pi's API) and real child processes
// (helpers/relay-child.mjs runs the extension in print mode, as a subagent does): a long answer
// arrives whole, the user's own limits apply, who asks is cut to its limit everywhere, decline
// and withdrawal travel, nesting names honestly, and the server never keeps a process alive.
// The endpoint's two secrets: what children inherit only asks; the registry's control secret
// lists and answers, and nothing another terminal sends through it (answers nested too deep to
// write back, numbers JSON cannot hold, wrong types) reaches past its own connection.
// (The protocol on its own: relay.test.mjs; with the real pi: e2e-subagent.test.mjs.)
import "./helpers/own-home.mjs"; // never the real ~/.pi/agent (remembered answers)
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { addon } from "./helpers/addon.mjs";
import { loadExtension } from "./helpers/fake-pi.mjs";
import { importShim } from "./helpers/shim.mjs";
import { after, test } from "node:test";
import { listEndpoints, request } from "../extension/elsewhere/relay-wire.mjs";
import { until } from "./helpers/until.mjs";

const relay = await importShim("elsewhere/relay.ts");
// The endpoint registry goes to a throw-away runtime directory (the children inherit it).
const runtime = mkdtempSync(join(tmpdir(), "pq-relay-host-runtime-"));
process.env.XDG_RUNTIME_DIR = runtime;
process.env.LOCALAPPDATA = runtime; // where the registry is on Windows
after(() => rmSync(runtime, { recursive: true, force: true }));
const here = dirname(fileURLToPath(import.meta.url));
const limits = addon.limits;

/** Polls the async `read` until `check` holds for its value; returns that value. */
const pollFor = async (read, check, what, ms = 20000) => {
  const stop = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > stop) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** A project directory (its .pi/question.json when `settings` is given); removed by `cleanup`. */
function project(settings) {
  const cwd = mkdtempSync(join(tmpdir(), "pq-relay-host-"));
  if (settings) {
    mkdirSync(join(cwd, ".pi"));
    writeFileSync(join(cwd, ".pi", "question.json"), JSON.stringify(settings));
  }
  return { cwd, cleanup: () => rmSync(cwd, { recursive: true, force: true }) };
}

/** pi in RPC mode at pi's API: custom() gives undefined, every dialog is answered by `pick`. */
function rpcContext(cwd, pick) {
  const dialogs = [];
  const answer = (method) => async (title, second) => {
    dialogs.push({ method, title, options: second });
    return pick(method, title, second, dialogs.length - 1);
  };
  const notes = [];
  const ui = {
    custom: async () => undefined,
    select: answer("select"),
    input: answer("input"),
    confirm: answer("confirm"),
    notify: (m) => notes.push(m),
    setTitle: () => {},
    setWorkingMessage: () => {},
  };
  return { dialogs, notes, ctx: { hasUI: true, cwd, sessionManager: { getBranch: () => [] }, isIdle: () => true, ui } };
}

/** pi's TUI at pi's API: every question component shown is kept in `shown`, driven by the test. */
function tuiContext(cwd) {
  const shown = [];
  const theme = { fg: (_c, s) => s, bold: (s) => s, inverse: (s) => s, italic: (s) => s };
  const ui = {
    setWorkingMessage: () => {},
    setTitle: () => {},
    notify: () => {},
    custom: (factory) =>
      new Promise((resolve) => {
        const component = factory({ requestRender: () => {} }, theme, { getKeys: () => [] }, resolve);
        component.focused = true;
        shown.push(component);
      }),
  };
  return { shown, ctx: { hasUI: true, cwd, sessionManager: { getBranch: () => [] }, isIdle: () => true, ui } };
}

/** The extension as the parent pi runs it, its session started with `ctx`: the endpoint it offers. */
async function parentPi(ctx) {
  const handlers = new Map();
  const ext = await loadExtension({ on: (name, fn) => handlers.set(name, fn) });
  await handlers.get("session_start")({ reason: "startup" }, ctx);
  const variable = process.env.PI_QUESTION_RELAY;
  const endpoint = relay.parseRelayVariable(variable);
  assert.ok(endpoint, "a pi with a UI offers the relay");
  return { ...ext, variable, endpoint, stop: () => handlers.get("session_shutdown")({}, {}) };
}

/** A child process (a subagent's pi in print mode) asking `args` through `variable`; resolves with
 * what it wrote: { result, env } or { error, env }. Its command line says `pi` (argv[0]), as a
 * subagent's does; `program: true` leaves it `node …/relay-child.mjs`, a program that is no pi. */
function runChild(variable, args, { env = {}, argv = [], cwd, program = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "pq-relay-child-"));
  const argsFile = join(dir, "args.json");
  const outFile = join(dir, "out.json");
  writeFileSync(argsFile, JSON.stringify(args));
  const child = spawn(process.execPath, [join(here, "helpers", "relay-child.mjs"), argsFile, outFile, ...argv], {
    cwd: cwd ?? dir,
    env: { ...process.env, CHILD_PI_QUESTION_RELAY: variable, ...env },
    stdio: ["ignore", "ignore", "pipe"],
    ...(program ? {} : { argv0: "pi" }),
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      try {
        if (code !== 0) throw new Error(`the child exited with ${code}: ${stderr}`);
        resolve(JSON.parse(readFileSync(outFile, "utf8")));
      } catch (error) {
        reject(error);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

test("relay host: a long answer (every question typed to the limit, each byte a quote JSON doubles) arrives whole in the child", async () => {
  const n = limits.questions;
  const typed = (i) => `${i}:` + '"'.repeat(limits.answerBytes - `${i}:`.length);
  const args = { questions: Array.from({ length: n }, (_, i) => ({ id: `q${i}`, prompt: `Question ${i}?` })) };
  const { cwd, cleanup } = project();
  let inputs = 0;
  const { ctx, dialogs } = rpcContext(cwd, (method) => (method === "input" ? typed(inputs++) : method === "confirm"));
  const parent = await parentPi(ctx);
  try {
    const { result, error } = await runChild(parent.variable, args);
    assert.equal(error, undefined);
    assert.equal(inputs, n, "every question was asked");
    assert.match(dialogs[0].title, /^Asked by a subagent in /);
    const d = result.details;
    assert.equal(d.status, "answered");
    assert.equal(d.mode, "relay");
    assert.equal(d.answers.length, n);
    // The reply was far over the old 1 MB cap (and the answers over the old 100 KB one).
    assert.ok(JSON.stringify(relay.structuredAnswers(d)).length > 9_000_000);
    for (let i = 0; i < n; i++) {
      const a = d.answers.find((x) => x.id === `q${i}`);
      assert.equal(a.wasCustom, true);
      assert.equal(a.value === typed(i), true, `q${i} arrived whole (${a.value.length} of ${typed(i).length})`);
    }
  } finally {
    await parent.stop();
    cleanup();
  }
});

test("relay host: the user's own limits (settings) refuse a relayed question with the error a local call gets", async () => {
  const { cwd, cleanup } = project({ limits: { questions: 1, options: 2 } });
  const { ctx, dialogs } = rpcContext(cwd, () => undefined);
  const parent = await parentPi(ctx);
  const tool = parent.tools.get("question");
  try {
    for (const questions of [
      [
        { id: "a", prompt: "A?" },
        { id: "b", prompt: "B?" },
      ],
      [{ id: "a", prompt: "A?", options: ["1", "2", "3"] }],
    ]) {
      const args = JSON.stringify({ questions });
      const local = await tool.execute("c", tool.prepareArguments({ questions }), undefined, undefined, ctx).then(
        () => assert.fail("the local call was asked"),
        (error) => error.message,
      );
      assert.match(local, /the user's settings allow at most/);
      const reply = await relay.askThroughRelay(parent.endpoint, addon.normalize(args), { pid: 1 }, undefined, limits.relayMessageBytes);
      assert.deepEqual(reply, { type: "error", message: local });
    }
    assert.equal(dialogs.length, 0, "nothing was asked");
  } finally {
    await parent.stop();
    cleanup();
  }
});

test("relay host: who asks is cut to its limit (and sanitized) in RPC dialog titles, /questions and the endpoint's list", async () => {
  const { cwd, cleanup } = project();
  let release;
  const held = new Promise((r) => (release = r));
  const { ctx, dialogs, notes } = rpcContext(cwd, async (_m, _t, options) => {
    await held;
    return options[0];
  });
  const parent = await parentPi(ctx);
  const name = "\u001b[31m" + "n".repeat(limits.askerBytes) + "TAIL";
  try {
    const args = addon.normalize(JSON.stringify({ questions: [{ id: "db", prompt: "Which?", options: ["A", "B"] }] }));
    const named = relay.askThroughRelay(parent.endpoint, args, { name, pid: 1 }, undefined, limits.relayMessageBytes);
    const deep = "/" + "d".repeat(limits.askerBytes) + "/TAIL";
    const unnamed = relay.askThroughRelay(parent.endpoint, args, { pid: 2, cwd: deep }, undefined, limits.relayMessageBytes);
    await until(() => dialogs.length === 1, "the first dialog", { ms: 20000, every: 10 });
    const list = async () => (await request(registered().endpoint, { type: "list" }, { cap: limits.relayMessageBytes })).message.questions;
    await pollFor(list, (q) => q.length === 2, "the second question in the queue");

    const [who] = dialogs[0].title.split("\n");
    assert.doesNotMatch(who, /TAIL|\u001b/);
    // Cut to askerBytes of the child's text, then sanitized (ESC is shown as ␛).
    assert.equal(who, `Asked by ${"␛[31m" + "n".repeat(limits.askerBytes - "\u001b[31m".length)}`);

    await parent.commands.get("questions").handler("", ctx);
    const listed = notes.at(-1);
    assert.doesNotMatch(listed, /TAIL|\u001b/);
    assert.match(listed, new RegExp(`\\(Asked by ␛\\[31mn{${limits.askerBytes - 5}}\\)`));
    assert.match(listed, new RegExp(`\\(Asked by a subagent in /d{${limits.askerBytes - 1}}\\)`));

    const bys = (await list()).map((q) => q.askedBy);
    assert.equal(bys.length, 2);
    for (const by of bys) {
      assert.doesNotMatch(by, /TAIL|\u001b/);
      assert.ok(Buffer.byteLength(by) <= "Asked by a subagent in ".length + 3 * limits.askerBytes, by);
    }
    release();
    assert.equal((await named).outcome, "answered");
    assert.equal((await unnamed).outcome, "answered");
  } finally {
    release();
    await parent.stop();
    cleanup();
  }
});

test("relay host: decline in the parent's dialogs reaches the child, which builds the declined result; the child's text is shown sanitized", async () => {
  const { cwd, cleanup } = project();
  const { ctx, dialogs } = rpcContext(cwd, (method, _t, options) =>
    method === "select" ? options.find((o) => /decide/i.test(o)) : undefined,
  );
  const parent = await parentPi(ctx);
  try {
    // An untrusted child: terminal sequences in its prompt, option label and name.
    const args = { questions: [{ id: "db", prompt: "Which database?\u001b]52;c;eA==\u0007", options: ["SQLite\u001b[2J", "Postgres"] }] };
    const { result, error } = await runChild(parent.variable, args, { env: { CHILD_PI_QUESTION_ASKER: "work\u001b[31mer" } });
    assert.equal(error, undefined);
    assert.match(dialogs[0].title, /^Asked by work␛\[31mer\nWhich database\?␛\]52;c;eA==␇/);
    for (const text of [dialogs[0].title, ...dialogs[0].options]) assert.doesNotMatch(text, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/u);
    assert.equal(result.details.status, "declined");
    assert.equal(result.details.mode, "relay");
    assert.match(result.content[0].text, /state the assumptions/);
    assert.equal(result.terminate, undefined, "the child's agent continues");
  } finally {
    await parent.stop();
    cleanup();
  }
});

test("relay host: a queued question whose child disconnects is withdrawn; the shown question keeps what was typed", async () => {
  const { cwd, cleanup } = project();
  const { ctx, shown } = tuiContext(cwd);
  const parent = await parentPi(ctx);
  try {
    const first = addon.normalize(JSON.stringify({ questions: [{ id: "say", prompt: "First question?" }] }));
    const second = addon.normalize(JSON.stringify({ questions: [{ id: "other", prompt: "Second question?" }] }));
    const one = relay.askThroughRelay(parent.endpoint, first, { name: "one", pid: 1 }, undefined, limits.relayMessageBytes);
    await until(() => shown.length === 1, "the first question on screen", { ms: 20000, every: 10 });
    for (const ch of "typed before the other left") shown[0].handleInput(ch);
    assert.match(shown[0].render(80).join("\n"), /typed before the other left/);

    const leaving = new AbortController();
    const two = relay.askThroughRelay(parent.endpoint, second, { name: "two", pid: 2 }, leaving.signal, limits.relayMessageBytes);
    const listed = async () =>
      (await request(registered().endpoint, { type: "list" }, { cap: limits.relayMessageBytes })).message.questions;
    // Both are waiting: one shown, one queued behind it.
    await pollFor(listed, (q) => q.length === 2, "both questions waiting");
    leaving.abort(); // the second child goes away (killed, crashed, aborted)
    assert.deepEqual(await two, { type: "interrupted" });
    const left = await pollFor(listed, (q) => q.length === 1, "the queued question withdrawn");
    assert.match(left[0].askedBy, /Asked by one/);

    // The shown question is untouched: its typed text is still there and is what the child gets.
    const frame = shown[0].render(80).join("\n");
    assert.match(frame, /First question\?/);
    assert.match(frame, /typed before the other left/);
    shown[0].handleInput("\r");
    assert.deepEqual(await one, {
      type: "answer",
      outcome: "answered",
      answers: { say: { selected: [], wrote: "typed before the other left" } },
    });
    // The withdrawn question was never shown.
    assert.equal(shown.length, 1);
    assert.equal((await listed()).length, 0);
  } finally {
    await parent.stop();
    cleanup();
  }
});

test("relay host: a launcher's name is its child's only; a grandchild reads “worker › helper”, an unnamed one claims no name", async () => {
  const { cwd, cleanup } = project();
  const { ctx, dialogs } = rpcContext(cwd, (method, _t, options) => (method === "select" ? options[0] : undefined));
  process.env.PI_QUESTION_ASKER_CHAIN = "above"; // left by a pi above this one: not for its children
  const parent = await parentPi(ctx);
  try {
    assert.equal(process.env.PI_QUESTION_ASKER_CHAIN, undefined, "a pi that asks the person names its children from itself");
    const args = { questions: [{ id: "db", prompt: "Which?", options: ["A", "B"] }] };
    // A child its launcher named "worker".
    const child = await runChild(parent.variable, args, { env: { CHILD_PI_QUESTION_ASKER: "worker" } });
    assert.equal(child.result.details.status, "answered");
    assert.match(dialogs[0].title, /^Asked by worker\n/);
    // What the worker's own children inherit: not its name as theirs, but the chain.
    assert.deepEqual(child.env, { asker: null, chain: "worker" });
    // Its child, started by pi's subagent example (its name comes from the prompt file).
    const helper = ["--append-system-prompt", join(tmpdir(), "pi-subagent-Xy12", "prompt-helper.md")];
    const grandchild = await runChild(parent.variable, args, { env: { CHILD_PI_QUESTION_ASKER_CHAIN: child.env.chain }, argv: helper });
    assert.equal(grandchild.result.details.status, "answered");
    assert.match(dialogs[1].title, /^Asked by worker › helper\n/);
    assert.deepEqual(grandchild.env, { asker: null, chain: "worker › helper" });
    // A grandchild with no name of its own is not shown with the worker's.
    const unnamed = await runChild(parent.variable, args, { env: { CHILD_PI_QUESTION_ASKER_CHAIN: child.env.chain } });
    assert.equal(unnamed.result.details.status, "answered");
    assert.match(dialogs[2].title, /^Asked by a subagent in /);
    assert.deepEqual(unnamed.env, { asker: null, chain: null });
  } finally {
    delete process.env.PI_QUESTION_ASKER_CHAIN;
    await parent.stop();
    cleanup();
  }
});

test(
  "relay host: a question from a program that is no pi (a repository's `npm test` holding the ask secret) names its command line and pid, never the name it gives itself",
  {
    skip:
      process.platform !== "linux" &&
      process.platform !== "win32" &&
      "the peer's pid and parents are read on Linux and Windows only (macOS: on its CI)",
  },
  async () => {
    const { cwd, cleanup } = project();
    const { ctx, dialogs } = rpcContext(cwd, (method, _t, options) => (method === "select" ? options[0] : undefined));
    const parent = await parentPi(ctx);
    try {
      const args = { questions: [{ id: "db", prompt: "Which?", options: ["A", "B"] }] };
      // It calls itself "the agent"; its command line is node's, running relay-child.mjs.
      const program = await runChild(parent.variable, args, { env: { CHILD_PI_QUESTION_ASKER: "the agent" }, program: true });
      assert.equal(program.result.details.status, "answered");
      const title = dialogs[0].title.split("\n")[0];
      assert.match(title, /^Asked by a program, not a subagent: `.*node[^`]* .*relay-child\.mjs[^`]*` \(pid \d+\)$/);
      assert.doesNotMatch(title, /the agent/);
      // A subagent pi (its command line is pi's) keeps the name its launcher gave it.
      const sub = await runChild(parent.variable, args, { env: { CHILD_PI_QUESTION_ASKER: "worker" } });
      assert.equal(sub.result.details.status, "answered");
      assert.match(dialogs[1].title, /^Asked by worker\n/);
    } finally {
      await parent.stop();
      cleanup();
    }
  },
);

test(
  "relay host: a program's question is named so in the board's list that /questions and `pi-question pending` read, sanitized and cut",
  {
    skip:
      process.platform !== "linux" &&
      process.platform !== "win32" &&
      "the peer's pid and parents are read on Linux and Windows only (macOS: on its CI)",
  },
  async () => {
    const { cwd, cleanup } = project();
    let release;
    const hold = new Promise((r) => (release = r));
    const { ctx } = rpcContext(cwd, async (method, _t, options) => (await hold, method === "select" ? options[0] : undefined));
    const parent = await parentPi(ctx);
    try {
      const args = { questions: [{ id: "db", prompt: "Which?", options: ["A", "B"] }] };
      // A long, hostile command line: an escape in its arguments, many of them.
      const argv = ["\u001b[31mred", "x".repeat(400)];
      const asking = runChild(parent.variable, args, { program: true, argv });
      const { request } = await import("../extension/elsewhere/relay-wire.mjs");
      let listed;
      const stop = Date.now() + 10000;
      while (!(listed = (await request(registered().endpoint, { type: "list" })).message.questions).length) {
        if (Date.now() > stop) throw new Error("timed out: the question listed");
        await new Promise((r) => setTimeout(r, 10));
      }
      const by = listed[0].askedBy;
      assert.match(by, /^Asked by a program, not a subagent: `.*relay-child\.mjs/);
      assert.doesNotMatch(by, /\u001b/, "sanitized");
      assert.ok(Buffer.byteLength(by) <= "Asked by a program, not a subagent: ".length + 3 * limits.askerBytes, by);
      release();
      assert.equal((await asking).result.details.status, "answered");
    } finally {
      release?.();
      await parent.stop();
      cleanup();
    }
  },
);

/** The parent's registry entry: its endpoint is the control secret's. */
function registered() {
  const mine = listEndpoints().filter((e) => e.pid === process.pid);
  assert.equal(mine.length, 1, "one registry entry for this pi");
  return mine[0];
}

test("relay host: the variable children inherit only asks; listing, answering and watching take the registry's control secret", async () => {
  const { cwd, cleanup } = project();
  let release;
  const held = new Promise((r) => (release = r));
  const { ctx, dialogs } = rpcContext(cwd, async (_m, _t, options) => {
    await held;
    return options[0];
  });
  const parent = await parentPi(ctx);
  try {
    const entry = registered();
    assert.notEqual(entry.variable, parent.variable, "the registry does not hold the variable children get");
    assert.equal(entry.endpoint.path, parent.endpoint.path, "one socket");
    assert.notEqual(entry.endpoint.secret, parent.endpoint.secret);
    const registry = join(runtime, "pi-question");
    assert.equal(statSync(registry).mode & 0o777, 0o700);
    for (const name of readdirSync(registry)) assert.equal(statSync(join(registry, name)).mode & 0o777, 0o600, name);

    // A child asks with the variable it inherited.
    const args = { questions: [{ id: "db", prompt: "Which?", options: ["A", "B"] }] };
    const child = runChild(parent.variable, args);
    await until(() => dialogs.length === 1, "the child's question", { ms: 20000, every: 10 });

    // The same variable cannot list, answer or watch it.
    const qid = (await request(entry.endpoint, { type: "list" })).message.questions[0].qid;
    for (const message of [{ type: "list" }, { type: "answer", qid, outcome: "answered", answers: { db: "B" } }, { type: "watch", qid }]) {
      const r = await request(parent.endpoint, message);
      assert.equal(r.type, "reply");
      assert.equal(r.message.type, "error", message.type);
      assert.match(r.message.message, /needs the endpoint's control secret/);
    }
    assert.equal((await request(entry.endpoint, { type: "list" })).message.questions.length, 1, "still waiting");

    // The registry's secret answers it.
    const closed = request(entry.endpoint, { type: "watch", qid });
    assert.deepEqual((await request(entry.endpoint, { type: "answer", qid, outcome: "answered", answers: { db: "B" } })).message, {
      type: "result",
      ok: true,
    });
    release(); // the fake dialog returns now (it does not follow the abort); the answer from elsewhere was first
    assert.deepEqual((await closed).message, { type: "closed", qid });
    const { result } = await child;
    assert.equal(result.details.status, "answered");
    assert.equal(result.details.answers[0].value, "B");
  } finally {
    release();
    await parent.stop();
    cleanup();
  }
});

test("relay host: answers nested 6,000 deep, numbers JSON cannot hold and wrong types from another terminal end their own connection; the question still waits", async () => {
  const { cwd, cleanup } = project();
  let release;
  const held = new Promise((r) => (release = r));
  const { ctx, dialogs } = rpcContext(cwd, async (_m, _t, options) => {
    await held;
    return options[0];
  });
  const parent = await parentPi(ctx);
  try {
    const { endpoint } = registered();
    const args = addon.normalize(JSON.stringify({ questions: [{ id: "db", prompt: "Which?", options: ["A", "B"] }] }));
    const asking = relay.askThroughRelay(parent.endpoint, args, { pid: 1 }, undefined, limits.relayMessageBytes);
    await until(() => dialogs.length === 1, "the question", { ms: 20000, every: 10 });
    const list = async () => (await request(endpoint, { type: "list" })).message.questions;
    const [{ qid }] = await list();

    /** One raw line to the endpoint (the secret first, as every client writes it): the reply, or "" when closed. */
    const raw = (rest) => rawExchange(endpoint.path, `{"secret":${JSON.stringify(endpoint.secret)},${rest}}\n`);
    const deep = (n) => "[".repeat(n) + "]".repeat(n);
    const q = JSON.stringify(qid);
    // The message that made pi exit with a RangeError: 12 KB of nested arrays.
    const nested = JSON.parse(await raw(`"type":"answer","qid":${q},"outcome":"answered","answers":${deep(6000)}`));
    assert.equal(nested.ok, false);
    assert.equal(nested.code, "invalid");
    assert.match(nested.reason, /the answers cannot be read/);
    // Deeper still, inside an object, and as the discussion.
    for (const rest of [
      `"type":"answer","qid":${q},"outcome":"answered","answers":{"db":${deep(60000)}}`,
      `"type":"answer","qid":${q},"outcome":"discuss","answers":{},"discussion":${deep(6000)}`,
      `"type":"answer","qid":${q},"outcome":"answered","answers":{"db":1e999999}`,
      `"type":"answer","qid":${q},"outcome":"answered","answers":-1e400`,
    ]) {
      const r = JSON.parse(await raw(rest));
      assert.deepEqual([r.type, r.ok, r.code], ["result", false, "invalid"], rest.slice(0, 60));
    }
    // Wrong types in every field: closed, nothing answered.
    for (const rest of [
      `"type":"answer","qid":1e400,"outcome":"answered","answers":{"db":"A"}`,
      `"type":"answer","qid":${deep(6000)},"outcome":"answered","answers":{"db":"A"}`,
      `"type":"answer","qid":${q},"outcome":{"a":1},"answers":{"db":"A"}`,
      `"type":"answer","qid":${q},"answers":{"db":"A"}`,
      `"type":"watch","qid":[${q}]`,
      `"type":${deep(6000)}`,
      `"type":"ask","args":${deep(6000)}`,
      `"type":"ask","args":1e400,"asker":{}`,
    ]) {
      assert.equal(await raw(rest), "", rest.slice(0, 60));
    }
    // Who asks, wrongly typed, is dropped: the question is asked "by a subagent".
    const oddAsker = relay.askThroughRelay(parent.endpoint, args, { name: 7, pid: 1e400, cwd: ["x"] }, undefined, limits.relayMessageBytes);
    await pollFor(list, (l) => l.length === 2, "the question with an odd asker");
    assert.match((await list())[1].askedBy, /^Asked by a subagent in pid \?$/);

    assert.equal(dialogs.length, 1, "nothing else was asked");
    assert.equal((await list())[0].qid, qid, "the question still waits");
    release();
    assert.deepEqual(await asking, { type: "answer", outcome: "answered", answers: { db: { selected: ["A"] } } });
    assert.equal((await oddAsker).outcome, "answered");
  } finally {
    release();
    await parent.stop();
    cleanup();
  }
});

/** Sends `line` on its own connection; resolves with what came back once the endpoint closes it. */
function rawExchange(path, line) {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    let got = "";
    socket.on("data", (d) => (got += d));
    socket.on("error", () => undefined);
    socket.on("close", () => resolve(got));
    socket.on("connect", () => socket.write(line));
  });
}
