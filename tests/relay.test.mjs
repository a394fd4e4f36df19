// relay.test.mjs — the subagent relay's protocol on its own: the endpoint variable, framing and
// size caps, the secret, every way a connection ends, and the structured answers that carry a
// person's answer back to the child exactly. Hostile clients must never touch anyone else's
// question. (End to end with the real pi: e2e-subagent.test.mjs.)
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { createConnection } from "node:net";
import { dirname } from "node:path";
import { createInterface } from "node:readline";
import { test } from "node:test";
import { addon } from "./helpers/addon.mjs";
import { importShim } from "./helpers/shim.mjs";

const relay = await importShim("relay.ts");

const ARGS = JSON.stringify({ questions: [{ id: "db", prompt: "Which database?", options: ["SQLite", "Postgres"] }] });

/** A server whose handler records each request and answers when the test says so; `cap` is its
 * longest message line. */
async function serve(cap = 64 * 1024) {
  const requests = [];
  const server = await relay.startRelayServer(cap, {
    ask: (request) => new Promise((resolve) => requests.push({ ...request, resolve })),
    list: () => ({ type: "pending", questions: [] }),
    answer: () => ({ ok: false, code: "not_waiting", reason: "no" }),
    watch: (_qid, closed) => {
      closed();
      return () => undefined;
    },
  });
  assert.ok(server, "the relay could not listen");
  return { server, requests, endpoint: relay.parseRelayVariable(server.variable) };
}

/** A raw client: sends `data`, resolves with what came back once the server closes it. */
function rawClient(path, data, { end = false } = {}) {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    let got = "";
    socket.on("data", (d) => (got += d));
    socket.on("error", () => undefined);
    socket.on("close", () => resolve(got));
    socket.on("connect", () => {
      socket.write(data, () => {
        if (end) socket.end();
      });
    });
  });
}

const until = async (check, what, ms = 5000) => {
  const stop = Date.now() + ms;
  while (!check()) {
    if (Date.now() > stop) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

test("relay: the variable holds a 64-hex secret and the socket path; anything else is ignored", () => {
  const secret = "a".repeat(64);
  assert.deepEqual(relay.parseRelayVariable(`v1:${secret}:/tmp/x/relay.sock`), { secret, path: "/tmp/x/relay.sock" });
  for (const bad of [undefined, "", "/tmp/x.sock", `v1:${"a".repeat(63)}:/x`, `v2:${secret}:/x`, `v1:${secret}:`]) {
    assert.equal(relay.parseRelayVariable(bad), undefined, String(bad));
  }
});

test("relay: the asker's name comes from PI_QUESTION_ASKER, else from pi's subagent example's prompt file", () => {
  assert.equal(relay.ownAskerName([], { PI_QUESTION_ASKER: " reviewer " }), "reviewer");
  const argv = ["node", "pi", "--mode", "json", "--append-system-prompt", "/tmp/pi-subagent-Ab12/prompt-scout.md", "Task: x"];
  assert.equal(relay.ownAskerName(argv, {}), "scout");
  assert.equal(relay.ownAskerName(["node", "pi", "--append-system-prompt", "/home/me/prompt.md"], {}), undefined);
  assert.equal(relay.ownAskerName(["node", "pi"], {}), undefined);
  // Below a named subagent: the names above it first; with no name of its own, none.
  assert.equal(relay.ownAskerName(argv, { PI_QUESTION_ASKER_CHAIN: "worker" }), "worker › scout");
  assert.equal(relay.ownAskerName(["node", "pi"], { PI_QUESTION_ASKER_CHAIN: "worker" }), undefined);
});

test("relay: a process takes its name once; its children get the chain, never its PI_QUESTION_ASKER", () => {
  const env = { PI_QUESTION_ASKER: "worker", PI_QUESTION_ASKER_CHAIN: "lead" };
  relay.passAskerNames(false, ["node", "pi"], env);
  assert.deepEqual(env, { PI_QUESTION_ASKER_CHAIN: "lead › worker" });
  assert.equal(relay.adoptedAskerName(["node", "pi"], env), "lead › worker", "taken once (pi's /reload finds it again)");
  const top = { PI_QUESTION_ASKER: "boss", PI_QUESTION_ASKER_CHAIN: "x" };
  relay.passAskerNames(true, ["node", "pi"], top);
  assert.deepEqual(top, {}, "a pi that asks the person names its children from itself");
});

test("relay: lines are split across chunks, and a line over the cap is refused once, without buffering it", () => {
  const lines = [];
  let tooLong = 0;
  const read = relay.lineReader(10, (l) => lines.push(l), () => tooLong++);
  read(Buffer.from("ab"));
  read(Buffer.from("c\nde\n\nf"));
  read(Buffer.from("g\n"));
  assert.deepEqual(lines, ["abc", "de", "", "fg"]);
  read(Buffer.from("0123456789"));
  assert.equal(tooLong, 0, "exactly the cap is allowed");
  read(Buffer.from("x"));
  read(Buffer.from("more\nand more\n"));
  assert.equal(tooLong, 1);
  assert.deepEqual(lines, ["abc", "de", "", "fg"], "nothing after an over-long line is read");
});

test("relay: the socket sits in a private directory (0700) and is removed on close", async () => {
  const { server, endpoint } = await serve();
  const dir = dirname(endpoint.path);
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  assert.ok(existsSync(endpoint.path));
  server.close();
  assert.equal(existsSync(dir), false);
});

test("relay: a question and its answer travel, with who asks", async () => {
  const { server, requests, endpoint } = await serve();
  try {
    const asking = relay.askThroughRelay(endpoint, ARGS, { name: "worker", pid: 42, cwd: "/p" }, undefined, 1000);
    await until(() => requests.length === 1, "the request");
    assert.equal(requests[0].args, ARGS);
    assert.deepEqual(requests[0].asker, { name: "worker", pid: 42, cwd: "/p" });
    requests[0].resolve({ type: "answer", outcome: "answered", answers: { db: { selected: ["SQLite"] } } });
    assert.deepEqual(await asking, { type: "answer", outcome: "answered", answers: { db: { selected: ["SQLite"] } } });
  } finally {
    server.close();
  }
});

test("relay: a discuss reply carries the person's words down to the child, which builds the discuss result", async () => {
  const { server, requests, endpoint } = await serve();
  try {
    const asking = relay.askThroughRelay(endpoint, ARGS, { pid: 42 }, undefined, 1000);
    await until(() => requests.length === 1, "the request");
    const reply = { type: "answer", outcome: "discuss", answers: {}, discussion: "why Postgres?\nand cost" };
    requests[0].resolve(reply);
    const got = await asking;
    assert.deepEqual(got, reply);
    const built = addon.result(ARGS, got.outcome, "relay", 1, got.discussion, JSON.stringify(got.answers));
    assert.equal(JSON.parse(built.details).status, "discuss");
    assert.equal(JSON.parse(built.details).discussion, "why Postgres?\nand cost");
    assert.match(built.text, /wrote to you:\n  why Postgres\?\n  and cost\nReply to what they wrote/);
  } finally {
    server.close();
  }
});

test("relay: hostile clients (garbage, a 10 MB line, a wrong secret, half a message) never touch another question", async () => {
  const { server, requests, endpoint } = await serve();
  try {
    // A real question is waiting while the hostile clients come and go.
    const asking = relay.askThroughRelay(endpoint, ARGS, { pid: 1 }, undefined, 1000);
    await until(() => requests.length === 1, "the real request");

    assert.equal(await rawClient(endpoint.path, "garbage\n"), "");
    assert.equal(await rawClient(endpoint.path, "x".repeat(10 * 1024 * 1024)), "");
    const wrong = JSON.stringify({ type: "ask", secret: "b".repeat(64), args: ARGS, asker: {} });
    assert.equal(await rawClient(endpoint.path, wrong + "\n"), "");
    const shortSecret = JSON.stringify({ type: "ask", secret: "b", args: ARGS, asker: {} });
    assert.equal(await rawClient(endpoint.path, shortSecret + "\n"), "");
    const notAsk = JSON.stringify({ type: "answer", secret: endpoint.secret, args: ARGS });
    assert.equal(await rawClient(endpoint.path, notAsk + "\n"), "");
    const good = JSON.stringify({ type: "ask", secret: endpoint.secret, args: ARGS, asker: {} });
    assert.equal(await rawClient(endpoint.path, good.slice(0, 40), { end: true }), "");

    assert.equal(requests.length, 1, "no hostile client reached the handler");
    assert.equal(requests[0].signal.aborted, false, "the real question is still waiting");
    requests[0].resolve({ type: "answer", outcome: "declined", answers: {} });
    assert.deepEqual(await asking, { type: "answer", outcome: "declined", answers: {} });
  } finally {
    server.close();
  }
});

test("relay: a child that goes away withdraws its question (the handler's signal aborts)", async () => {
  const { server, requests, endpoint } = await serve();
  try {
    const abort = new AbortController();
    const asking = relay.askThroughRelay(endpoint, ARGS, { pid: 1 }, abort.signal, 1000);
    await until(() => requests.length === 1, "the request");
    abort.abort();
    assert.deepEqual(await asking, { type: "interrupted" });
    await until(() => requests[0].signal.aborted, "the parent to see the child leave");
  } finally {
    server.close();
  }
});

test("relay: the parent going away reaches the child as interrupted; no endpoint is `unreachable`", async () => {
  const { server, requests, endpoint } = await serve();
  const asking = relay.askThroughRelay(endpoint, ARGS, { pid: 1 }, undefined, 1000);
  await until(() => requests.length === 1, "the request");
  server.close();
  assert.deepEqual(await asking, { type: "interrupted" });
  const gone = await relay.askThroughRelay(endpoint, ARGS, { pid: 1 }, undefined, 1000);
  assert.equal(gone.type, "unreachable");
});

test("relay: an over-long or malformed reply ends the child's question as interrupted", async () => {
  const { server, requests, endpoint } = await serve();
  try {
    const asking = relay.askThroughRelay(endpoint, ARGS, { pid: 1 }, undefined, 50);
    await until(() => requests.length === 1, "the request");
    requests[0].resolve({ type: "error", message: "x".repeat(100) });
    assert.deepEqual(await asking, { type: "interrupted" });
  } finally {
    server.close();
  }
});

test("relay: structured answers give the child exactly the parent's answers, typed text and notes included", () => {
  const args = JSON.stringify({
    questions: [
      { id: "db", prompt: "Which?", options: [{ value: "lite", label: "SQLite" }, { value: "pg", label: "Postgres" }] },
      { id: "f", prompt: "Features?", multiSelect: true, options: ["A", "B", "C"] },
      { id: "name", prompt: "Name?" },
      // Typed text that equals an option's label stays typed text.
      { id: "t", prompt: "Typed?", options: ["SQLite"] },
    ],
  });
  const given = {
    db: { selected: ["pg"], note: "the team knows it" },
    f: { selected: ["A", "C"], wrote: "audit log" },
    name: { selected: [], wrote: "orders" },
    t: { selected: [], wrote: "SQLite" },
  };
  const built = addon.result(args, "answered", "interactive", 1, null, JSON.stringify(given));
  const details = JSON.parse(built.details);
  const structured = relay.structuredAnswers(details);
  const again = addon.result(args, "answered", "relay", 1, null, JSON.stringify(structured));
  assert.equal(again.text, built.text);
  assert.deepEqual(JSON.parse(again.details).answers, details.answers);
  assert.match(again.text, /note: the team knows it/);
  assert.match(again.text, /t: user wrote: SQLite/);
});

test("relay: the parent re-validates a child's arguments with the C core and says what is wrong", async () => {
  const { loadExtension } = await import("./helpers/fake-pi.mjs");
  const handlers = new Map();
  const saved = process.env.PI_QUESTION_RELAY;
  const { pi } = await loadExtension({ on: (name, fn) => handlers.set(name, fn) });
  try {
    await handlers.get("session_start")({ reason: "startup" }, { hasUI: true, cwd: process.cwd(), ui: {} });
    const endpoint = relay.parseRelayVariable(process.env.PI_QUESTION_RELAY);
    assert.ok(endpoint, "an interactive pi offers the relay");
    assert.ok(pi);
    const bad = JSON.stringify({ questions: [{ id: "db", prompt: "" }] });
    const reply = await relay.askThroughRelay(endpoint, bad, { pid: 1 }, undefined, 100000);
    assert.equal(reply.type, "error");
    assert.match(reply.message, /questions\[0\]\.prompt/);
    // Arguments over the prepared limit reach the C core (the message is within the relay's cap)
    // and come back as its error.
    const nul = JSON.stringify({ questions: [{ id: "db", prompt: "a\u001b]52;c;x\u0007" }], junk: "x".repeat(2_000_000) });
    const big = await relay.askThroughRelay(endpoint, nul, { pid: 1 }, undefined, 100000);
    assert.equal(big.type, "error");
    assert.match(big.message, /limit is 1000000/);
  } finally {
    await handlers.get("session_shutdown")?.({}, {});
    if (saved === undefined) delete process.env.PI_QUESTION_RELAY;
    else process.env.PI_QUESTION_RELAY = saved;
  }
});

test("relay: the server never keeps its process alive; once the process exits its directory is gone and a waiting child gets interrupted", async () => {
  // A process whose only work is the endpoint and its stdin: it prints the variable, then "asked"
  // when a question arrives (never answered); when the test closes its stdin nothing should be
  // left to keep it running.
  const shim = new URL("./helpers/shim.mjs", import.meta.url).href;
  const script = `
    const { importShim } = await import(${JSON.stringify(shim)});
    const relay = await importShim("relay.ts");
    const server = await relay.startRelayServer(64 * 1024, {
      ask: () => { process.stdout.write("asked\\n"); return new Promise(() => {}); },
      list: () => ({ type: "pending", questions: [] }),
      answer: () => ({ ok: false, code: "not_waiting", reason: "no" }),
      watch: () => () => undefined,
    });
    process.stdout.write(server.variable + "\\n");
    process.stdin.resume();
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["pipe", "pipe", "inherit"] });
  let exit;
  child.on("exit", (code, signal) => (exit = { code, signal }));
  try {
    const lines = createInterface({ input: child.stdout });
    const next = () => new Promise((resolve) => lines.once("line", resolve));
    const endpoint = relay.parseRelayVariable(await next());
    assert.ok(endpoint, "the child offered an endpoint");
    const asked = next();
    const asking = relay.askThroughRelay(endpoint, ARGS, { pid: 1 }, undefined, 1000);
    assert.equal(await asked, "asked");
    assert.ok(existsSync(endpoint.path));
    child.stdin.end(); // nothing but the endpoint (and a waiting child) is left
    await until(() => exit !== undefined, "the process to exit on its own", 20000);
    assert.deepEqual(exit, { code: 0, signal: null });
    assert.deepEqual(await asking, { type: "interrupted" }, "the waiting child learns its parent is gone");
    assert.equal(existsSync(dirname(endpoint.path)), false, "the socket's directory is removed at exit");
  } finally {
    if (exit === undefined) child.kill("SIGKILL");
  }
});
