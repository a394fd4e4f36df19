// relay.test.mjs — the subagent relay's protocol on its own: the endpoint variable, framing and
// size caps, the two secrets and what each allows, every way a connection ends, and the
// structured answers that carry a person's answer back to the child exactly. Hostile and broken
// clients (and handlers that throw) must never touch anyone else's question nor throw out of the
// server: the secret is read first, silent connections are closed, connections and waiting
// questions are capped, and relay directories of killed pis are swept. (End to end with the
// real pi: e2e-subagent.test.mjs.)
import "./helpers/own-home.mjs"; // never the real ~/.pi/agent (remembered answers)
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createConnection, createServer, Socket } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { test } from "node:test";
import { addon } from "./helpers/addon.mjs";
import { importShim } from "./helpers/shim.mjs";
import { until } from "./helpers/until.mjs";

const relay = await importShim("elsewhere/relay.ts");
const peer = await importShim("elsewhere/peer.ts");
const { request } = await import("../extension/elsewhere/relay-wire.mjs");

const ARGS = JSON.stringify({ questions: [{ id: "db", prompt: "Which database?", options: ["SQLite", "Postgres"] }] });

/** A server whose handler records each request and answers when the test says so; `cap` is its
 * longest message line, `bounds` overrides the real limits' other bounds, `handlers` the
 * recording handlers. `endpoint` asks (the variable children get); `control` may do everything
 * (the registry's). */
async function serve(cap = 64 * 1024, bounds = {}, handlers = {}) {
  const requests = [];
  const calls = [];
  const server = await relay.startRelayServer(
    { ...relay.relayBounds(addon.limits), messageBytes: cap, ...bounds },
    {
      ask: (request) => new Promise((resolve) => requests.push({ ...request, resolve })),
      list: () => {
        calls.push("list");
        return { type: "pending", questions: [] };
      },
      answer: (qid) => {
        calls.push(`answer ${qid}`);
        return { ok: false, code: "not_waiting", reason: "no" };
      },
      watch: (qid, closed) => {
        calls.push(`watch ${qid}`);
        closed();
        return () => undefined;
      },
      ...handlers,
    },
  );
  assert.ok(server, "the relay could not listen");
  return {
    server,
    requests,
    calls,
    endpoint: relay.parseRelayVariable(server.variable),
    control: relay.parseRelayVariable(server.control),
  };
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
  const read = relay.lineReader(
    10,
    (l) => lines.push(l),
    () => tooLong++,
  );
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

test("relay: the socket sits in a private directory (0700) named after its pid, and is removed on close", async () => {
  const { server, endpoint, control } = await serve();
  const dir = dirname(endpoint.path);
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  assert.match(basename(dir), new RegExp(`^pi-question-relay-${process.pid}-[A-Za-z0-9]{6}$`));
  assert.equal(control.path, endpoint.path, "one socket, two secrets");
  assert.notEqual(control.secret, endpoint.secret);
  assert.ok(existsSync(endpoint.path));
  server.close();
  assert.equal(existsSync(dir), false);
});

test("relay: a question and its answer travel, with who asks", async () => {
  const { server, requests, endpoint } = await serve();
  try {
    const asking = relay.askThroughRelay(endpoint, ARGS, { name: "worker", pid: 42, cwd: "/p" }, undefined, 1000);
    await until(() => requests.length === 1, "the request", { every: 10 });
    assert.equal(requests[0].args, ARGS);
    assert.deepEqual(requests[0].asker, { name: "worker", pid: 42, cwd: "/p" });
    requests[0].resolve({ type: "answer", outcome: "answered", answers: { db: { selected: ["SQLite"] } } });
    assert.deepEqual(await asking, { type: "answer", outcome: "answered", answers: { db: { selected: ["SQLite"] } } });
  } finally {
    server.close();
  }
});

test(
  "relay: on Windows the addon serves the pipe: the server knows each client's pid, and a client sends nothing to a pipe another process than its name says serves",
  { skip: process.platform !== "win32" && "named pipes are Windows' (tests/win32-os.test.mjs checks pipe.c's access list under Wine)" },
  async () => {
    const seen = [];
    const { server, requests, endpoint } = await serve(
      64 * 1024,
      {},
      {
        caller: (socket) => {
          seen.push(peer.peerOf(socket));
          return undefined;
        },
      },
    );
    try {
      const asking = relay.askThroughRelay(endpoint, ARGS, { name: "worker" }, undefined, 1 << 20, addon);
      await until(() => requests.length === 1, "the request", { every: 10 });
      requests[0].resolve({ type: "answer", outcome: "answered", answers: { db: { selected: ["SQLite"] } } });
      assert.equal((await asking).type, "answer");
      assert.deepEqual(seen, [{ pid: process.pid, uid: null }], "Windows named the client's process");
    } finally {
      server.close();
    }
    // A pipe under the name of a live pid (this process's parent) that this process serves.
    const path = `\\\\.\\pipe\\pi-question-someone-${process.ppid}-${process.pid}ef`;
    let bytes = 0;
    const close = addon.pipeServe(path, (fd) => {
      const socket = new Socket({ fd, readable: true, writable: true });
      socket.on("data", (chunk) => (bytes += chunk.length));
      socket.on("error", () => undefined);
    });
    assert.equal(typeof close, "function", "the addon serves pipes on Windows' Node");
    try {
      const r = await request({ path, secret: "c".repeat(64) }, { type: "list" }, { connectMs: 5000, replyMs: 5000, pipes: addon });
      assert.equal(r.type, "unreachable");
      assert.match(r.reason, new RegExp(`served by process ${process.pid}, not by the pi its name says \\(pid ${process.ppid}\\)`));
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(bytes, 0, "not a byte (the secret least of all) went to the impostor");
    } finally {
      close();
    }
  },
);

test("relay: a discuss reply carries the person's words down to the child, which builds the discuss result", async () => {
  const { server, requests, endpoint } = await serve();
  try {
    const asking = relay.askThroughRelay(endpoint, ARGS, { pid: 42 }, undefined, 1000);
    await until(() => requests.length === 1, "the request", { every: 10 });
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
  const { server, requests, endpoint, control } = await serve();
  try {
    // A real question is waiting while the hostile clients come and go.
    const asking = relay.askThroughRelay(endpoint, ARGS, { pid: 1 }, undefined, 1000);
    await until(() => requests.length === 1, "the real request", { every: 10 });

    assert.equal(await rawClient(endpoint.path, "garbage\n"), "");
    assert.equal(await rawClient(endpoint.path, "x".repeat(10 * 1024 * 1024)), "");
    const wrong = JSON.stringify({ type: "ask", secret: "b".repeat(64), args: ARGS, asker: {} });
    assert.equal(await rawClient(endpoint.path, wrong + "\n"), "");
    const shortSecret = JSON.stringify({ type: "ask", secret: "b", args: ARGS, asker: {} });
    assert.equal(await rawClient(endpoint.path, shortSecret + "\n"), "");
    const notAnswer = JSON.stringify({ type: "answer", secret: control.secret, args: ARGS });
    assert.equal(await rawClient(endpoint.path, notAnswer + "\n"), "", "an answer without its qid and outcome");
    const twoLines = JSON.stringify({ secret: endpoint.secret, type: "ask", args: ARGS, asker: {} }) + "\n";
    assert.equal(await rawClient(endpoint.path, twoLines + twoLines), "", "one request per connection");
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
    await until(() => requests.length === 1, "the request", { every: 10 });
    abort.abort();
    assert.deepEqual(await asking, { type: "interrupted" });
    await until(() => requests[0].signal.aborted, "the parent to see the child leave", { every: 10 });
  } finally {
    server.close();
  }
});

test("relay: the parent going away reaches the child as interrupted; no endpoint is `unreachable`", async () => {
  const { server, requests, endpoint } = await serve();
  const asking = relay.askThroughRelay(endpoint, ARGS, { pid: 1 }, undefined, 1000);
  await until(() => requests.length === 1, "the request", { every: 10 });
  server.close();
  assert.deepEqual(await asking, { type: "interrupted" });
  const gone = await relay.askThroughRelay(endpoint, ARGS, { pid: 1 }, undefined, 1000);
  assert.equal(gone.type, "unreachable");
});

test("relay: an over-long or malformed reply ends the child's question as interrupted", async () => {
  const { server, requests, endpoint } = await serve();
  try {
    const asking = relay.askThroughRelay(endpoint, ARGS, { pid: 1 }, undefined, 50);
    await until(() => requests.length === 1, "the request", { every: 10 });
    requests[0].resolve({ type: "error", message: "x".repeat(100) });
    assert.deepEqual(await asking, { type: "interrupted" });
  } finally {
    server.close();
  }
});

test("relay: structured answers give the child exactly the parent's answers, typed text and notes included", () => {
  const args = JSON.stringify({
    questions: [
      {
        id: "db",
        prompt: "Which?",
        options: [
          { value: "lite", label: "SQLite" },
          { value: "pg", label: "Postgres" },
        ],
      },
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
    const relay = await importShim("elsewhere/relay.ts");
    const server = await relay.startRelayServer({ ...relay.relayBounds(${JSON.stringify(addon.limits)}), messageBytes: 64 * 1024 }, {
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
    await until(() => exit !== undefined, "the process to exit on its own", { ms: 20000, every: 10 });
    assert.deepEqual(exit, { code: 0, signal: null });
    assert.deepEqual(await asking, { type: "interrupted" }, "the waiting child learns its parent is gone");
    assert.equal(existsSync(dirname(endpoint.path)), false, "the socket's directory is removed at exit");
  } finally {
    if (exit === undefined) child.kill("SIGKILL");
  }
});

/** `promise`, or an error naming `what` once `ms` pass first. */
function within(promise, what, ms = 5000) {
  let timer;
  const late = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out: ${what}`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** A raw connection the test drives: `closed` resolves with what came back once it closes. */
function connection(path) {
  const socket = createConnection(path);
  let got = "";
  let isClosed = false;
  socket.on("data", (d) => (got += d));
  socket.on("error", () => undefined);
  const closed = new Promise((resolve) =>
    socket.on("close", () => {
      isClosed = true;
      resolve(got);
    }),
  );
  const connected = new Promise((resolve) => socket.once("connect", resolve));
  return { socket, closed, connected, isClosed: () => isClosed };
}

/** One request on its own connection, written as `line` (a string, sent as it is): what came back. */
const exchange = (path, line) => rawClient(path, line + "\n");
const secretFirst = (secret, message) => JSON.stringify({ secret, ...message });

test("relay: the variable's secret only asks; list, answer and watch need the control secret (an error reply says so)", async () => {
  const { server, requests, calls, endpoint, control } = await serve();
  try {
    for (const message of [
      { type: "list" },
      { type: "answer", qid: "q1", outcome: "answered", answers: {} },
      { type: "watch", qid: "q1" },
    ]) {
      const reply = JSON.parse(await exchange(endpoint.path, secretFirst(endpoint.secret, message)));
      assert.equal(reply.type, "error", message.type);
      assert.match(reply.message, new RegExp(`^${message.type} needs the endpoint's control secret`));
    }
    assert.deepEqual(calls, [], "no handler saw a request made with the ask secret");

    // The control secret does all four.
    assert.equal(JSON.parse(await exchange(endpoint.path, secretFirst(control.secret, { type: "list" }))).type, "pending");
    const answered = JSON.parse(
      await exchange(endpoint.path, secretFirst(control.secret, { type: "answer", qid: "q1", outcome: "answered" })),
    );
    assert.deepEqual(answered, { type: "result", ok: false, code: "not_waiting", reason: "no" });
    assert.deepEqual(JSON.parse(await exchange(endpoint.path, secretFirst(control.secret, { type: "watch", qid: "q1" }))), {
      type: "closed",
      qid: "q1",
    });
    assert.deepEqual(calls, ["list", "answer q1", "watch q1"]);
    const asking = relay.askThroughRelay(control, ARGS, { pid: 1 }, undefined, 1000);
    await until(() => requests.length === 1, "the question asked with the control secret", { every: 10 });
    requests[0].resolve({ type: "unavailable" });
    assert.deepEqual(await asking, { type: "unavailable" });
  } finally {
    server.close();
  }
});

test("relay: a handler that throws or rejects, or a reply that cannot be written, ends only its own connection", async () => {
  const cyclic = { type: "answer" };
  cyclic.self = cyclic;
  const asks = [];
  const watching = [];
  const { server, control } = await serve(
    64 * 1024,
    {},
    {
      ask: (request) => {
        const how = JSON.parse(request.args).how;
        if (how === "throw") throw new RangeError("thrown at once");
        if (how === "reject") return Promise.reject(new Error("rejected later"));
        if (how === "reject-odd")
          return Promise.reject({
            toString: () => {
              throw new Error("no string either");
            },
          });
        if (how === "bigint") return Promise.resolve({ type: "answer", outcome: "answered", answers: { n: 1n } });
        if (how === "cyclic") return Promise.resolve(cyclic);
        return new Promise((resolve) => asks.push({ ...request, resolve }));
      },
      list: () => {
        throw new Error("list broke");
      },
      answer: () => {
        throw new RangeError("Maximum call stack size exceeded");
      },
      watch: (qid, closed) => {
        if (qid === "throws") throw new Error("watch broke");
        watching.push(qid);
        return () => {
          closed(); // the reply goes to a closing connection
          throw new Error("stop broke");
        };
      },
    },
  );
  const ask = (how, secret = control.secret) =>
    exchange(control.path, secretFirst(secret, { type: "ask", args: JSON.stringify({ how }), asker: {} }));
  try {
    // A real question waits while the broken handlers run.
    const waitingOne = relay.askThroughRelay(control, JSON.stringify({ how: "wait" }), { pid: 1 }, undefined, 1000);
    await until(() => asks.length === 1, "the waiting question", { every: 10 });

    assert.deepEqual(JSON.parse(await ask("throw")), { type: "error", message: "thrown at once" });
    assert.deepEqual(JSON.parse(await ask("reject")), { type: "error", message: "rejected later" });
    assert.deepEqual(JSON.parse(await ask("reject-odd")), { type: "error", message: "the question could not be asked" });
    assert.equal(await ask("bigint"), "", "a reply JSON cannot write closes the connection");
    assert.equal(await ask("cyclic"), "");
    assert.equal(await exchange(control.path, secretFirst(control.secret, { type: "list" })), "");
    assert.equal(
      await exchange(control.path, secretFirst(control.secret, { type: "answer", qid: "q1", outcome: "answered", answers: {} })),
      "",
    );
    assert.equal(await exchange(control.path, secretFirst(control.secret, { type: "watch", qid: "throws" })), "");
    const watcher = connection(control.path);
    await watcher.connected;
    watcher.socket.write(secretFirst(control.secret, { type: "watch", qid: "stays" }) + "\n");
    await until(() => watching.length === 1, "the watch registered (its reply comes only when it stops)", { every: 10 });
    watcher.socket.destroy(); // its stop throws: nothing escapes
    await watcher.closed;

    assert.equal(asks[0].signal.aborted, false, "the waiting question still waits");
    asks[0].resolve({ type: "answer", outcome: "declined", answers: {} });
    assert.deepEqual(await waitingOne, { type: "answer", outcome: "declined", answers: {} });
  } finally {
    server.close();
  }
});

test("relay: deep nesting, huge numbers and wrong types in every field close that one connection (or reach the handler as they came); nothing throws", async () => {
  const { server, requests, calls, endpoint, control } = await serve(256 * 1024);
  const deep = (n) => "[".repeat(n) + "]".repeat(n);
  // Every JSON type but the string each of these fields takes.
  const values = [
    deep(6000),
    deep(50000),
    "1e999999",
    "-1e400",
    "123456789012345678901234567890",
    "null",
    "true",
    "[]",
    "{}",
    `{"a":${deep(6000)}}`,
  ];
  try {
    const asking = relay.askThroughRelay(endpoint, ARGS, { pid: 1 }, undefined, 1000);
    await until(() => requests.length === 1, "the real question", { every: 10 });
    const replies = [];
    const secret = JSON.stringify(control.secret);
    for (const v of values) {
      // Every field of every request type, wrongly typed (raw JSON text: numbers JSON cannot hold).
      const lines = [
        `{"secret":${secret},"type":${v}}`,
        `{"secret":${secret},"type":"ask","args":${v},"asker":{}}`,
        `{"secret":${secret},"type":"answer","qid":${v},"outcome":"answered","answers":{}}`,
        `{"secret":${secret},"type":"answer","qid":"q1","outcome":${v},"answers":{}}`,
        `{"secret":${secret},"type":"watch","qid":${v}}`,
        `{"secret":${v},"type":"list"}`,
        v,
      ];
      for (const line of lines) {
        const got = await exchange(endpoint.path, line);
        if (got) replies.push(JSON.parse(got));
      }
      // Fields the handlers are given as they came (answers, discussion) or cleaned (asker) reach
      // them, but never throw out of the server.
      const answer = await exchange(
        endpoint.path,
        `{"secret":${secret},"type":"answer","qid":"q1","outcome":"answered","answers":${v},"discussion":${v}}`,
      );
      assert.deepEqual(JSON.parse(answer), { type: "result", ok: false, code: "not_waiting", reason: "no" });
    }
    assert.equal(await exchange(endpoint.path, `{"secret":${secret},"type":"${"x".repeat(100_000)}"}`), "", "an unknown type");
    assert.deepEqual(replies, [], "every malformed request closed its connection without a reply");
    assert.deepEqual(
      calls,
      values.map(() => "answer q1"),
      "only the well-formed answers reached the handler",
    );

    // Who asks, wrongly typed or out of range, is dropped field by field.
    for (const asker of [
      `{"name":1e999,"pid":1e400,"cwd":${deep(6000)}}`,
      `{"name":"","pid":-5,"cwd":""}`,
      `{"pid":1.5}`,
      `${deep(6000)}`,
      "7",
    ]) {
      const got = connection(endpoint.path);
      got.socket.write(`{"secret":${JSON.stringify(endpoint.secret)},"type":"ask","args":"{}","asker":${asker}}\n`);
      await until(() => requests.length === 2, `the ask with asker ${asker.slice(0, 20)}`, { every: 10 });
      assert.deepEqual(requests[1].asker, {});
      requests.pop().resolve({ type: "unavailable" });
      assert.equal(await got.closed, '{"type":"unavailable"}\n');
    }
    assert.equal(requests[0].signal.aborted, false, "the real question still waits");
    requests[0].resolve({ type: "answer", outcome: "cancelled", answers: null });
    assert.deepEqual(await asking, { type: "answer", outcome: "cancelled", answers: null });
  } finally {
    server.close();
  }
});

test("relay: a silent connection, and one that sends part of a line, are closed once the unverified time runs out", async () => {
  const { server, requests, endpoint } = await serve(64 * 1024, { unverifiedMs: 150 });
  try {
    const silent = connection(endpoint.path);
    const partial = connection(endpoint.path);
    await partial.connected;
    partial.socket.write(`{"secret":"${endpoint.secret}","type":"ask"`); // no end of line, ever
    // A client that showed its secret in time stays, however long its question waits.
    const asking = relay.askThroughRelay(endpoint, ARGS, { pid: 1 }, undefined, 1000);
    await until(() => requests.length === 1, "the question", { every: 10 });
    assert.equal(await within(silent.closed, "the silent connection closed"), "");
    assert.equal(await within(partial.closed, "the partial one closed"), "");
    await new Promise((r) => setTimeout(r, 300)); // twice the unverified time
    assert.equal(requests[0].signal.aborted, false, "the question that showed its secret still waits");
    requests[0].resolve({ type: "unavailable" });
    assert.deepEqual(await asking, { type: "unavailable" });
  } finally {
    server.close();
  }
});

test("relay: a line longer than the unverified window must begin with a right secret; a wrong one is closed having read a few KB", async () => {
  const seen = [];
  const window = addon.limits.relayUnverifiedBytes;
  const { server, requests, endpoint } = await serve(addon.limits.relayMessageBytes, { observe: (s) => seen.push(s) });
  const long = "x".repeat(4 * 1024 * 1024);
  try {
    // A wrong secret first, then 4 MB without an end of line: closed before the client is done.
    const wrong = connection(endpoint.path);
    await wrong.connected;
    wrong.socket.write(`{"secret":"${"b".repeat(64)}","type":"ask","args":"${long}`, () => undefined);
    assert.equal(await within(wrong.closed, "the wrong secret's connection closed"), "");
    await until(() => seen.length === 1, "the server's account of the connection", { every: 10 });
    assert.equal(seen[0].verified, false);
    assert.ok(seen[0].held <= window, `the server held ${seen[0].held} bytes of an unverified line`);
    assert.ok(seen[0].bytesRead < 1024 * 1024, `the server read ${seen[0].bytesRead} bytes of a 4 MB line`);

    // Garbage, and the right secret that does not come first: the same.
    for (const start of ["x", `{"type":"ask","secret":"${endpoint.secret}","args":"`]) {
      const c = connection(endpoint.path);
      await c.connected;
      c.socket.write(start + long, () => undefined);
      assert.equal(await within(c.closed, `the connection starting ${start.slice(0, 12)} closed`), "");
    }
    await until(() => seen.length === 3, "the other two accounts", { every: 10 });
    for (const s of seen) assert.ok(s.held <= window && !s.verified, JSON.stringify(s));

    // Short lines within the window are parsed whole, the secret anywhere in them.
    const anywhere = JSON.stringify({ type: "ask", args: ARGS, asker: {}, secret: endpoint.secret });
    assert.ok(anywhere.length < window);
    const short = rawClient(endpoint.path, anywhere + "\n");
    await until(() => requests.length === 1, "the short question", { every: 10 });
    requests[0].resolve({ type: "unavailable" });
    assert.equal(await short, '{"type":"unavailable"}\n');

    // The right secret first: the line may grow past the window, to its right's cap.
    const bigArgs = JSON.stringify({ questions: [{ id: "db", prompt: "p".repeat(1536 * 1024) }] });
    const asking = relay.askThroughRelay(endpoint, bigArgs, { pid: 1 }, undefined, 1000);
    await until(() => requests.length === 2, "the long question", { every: 10 });
    assert.equal(requests[1].args, bigArgs);
    requests[1].resolve({ type: "unavailable" });
    assert.deepEqual(await asking, { type: "unavailable" });
    await until(() => seen.length === 5, "the last accounts", { every: 10 });
    assert.ok(seen[4].verified && seen[4].held > 1536 * 1024);
  } finally {
    server.close();
  }
});

test("relay: connections waiting to show a secret, connections in all and waiting questions are capped", async () => {
  const seen = [];
  const bounds = { maxUnverified: 2, maxConnections: 3, maxWaiting: 2, unverifiedMs: 60_000, observe: (s) => seen.push(s) };
  const { server, requests, endpoint, control } = await serve(64 * 1024, bounds);
  const open = [];
  try {
    // Two silent connections are allowed; a third closes the oldest of them, so a client that
    // sends its line at once always gets through a crowd of silent ones.
    for (let i = 0; i < 2; i++) {
      open.push(connection(endpoint.path));
      await open[i].connected;
    }
    open.push(connection(endpoint.path));
    assert.equal(await within(open[0].closed, "the oldest silent connection closed"), "");
    await open[2].connected;
    assert.equal(open[1].isClosed() || open[2].isClosed(), false, "the newer ones stay");
    assert.deepEqual(JSON.parse(await exchange(control.path, secretFirst(control.secret, { type: "list" }))).type, "pending");
    await within(open[1].closed, "the next oldest made room for the list");
    for (const c of open.splice(0)) {
      c.socket.destroy();
      await c.closed;
    }

    // Two questions wait; a third ask is refused with the reason, the others untouched.
    const one = relay.askThroughRelay(endpoint, ARGS, { pid: 1 }, undefined, 1000);
    const leaving = new AbortController();
    const two = relay.askThroughRelay(endpoint, ARGS, { pid: 2 }, leaving.signal, 1000);
    await until(() => requests.length === 2, "two questions", { every: 10 });
    const refused = await relay.askThroughRelay(endpoint, ARGS, { pid: 3 }, undefined, 1000);
    assert.equal(refused.type, "error");
    assert.match(refused.message, /already has 2 relayed questions waiting, the most it takes at once/);
    assert.equal(requests.length, 2);
    await until(() => seen.length === 5, "the server to see the refused ask's connection close (and the silent ones and the list)", {
      every: 10,
    });

    // Three connections are open (two questions waiting, one still sending its line after its
    // secret): a fourth is closed at once.
    const holder = connection(endpoint.path);
    await holder.connected;
    holder.socket.write(`{"secret":"${control.secret}","type":"list","pad":"${"x".repeat(8192)}`);
    assert.equal(await within(exchange(endpoint.path, secretFirst(control.secret, { type: "list" })), "the fourth connection closed"), "");
    holder.socket.destroy();
    await holder.closed;
    await pollList(control);

    // A question answered, or withdrawn by its child, makes room at once.
    leaving.abort();
    assert.deepEqual(await two, { type: "interrupted" });
    await until(() => requests[1].signal.aborted, "the withdrawal", { every: 10 });
    const three = relay.askThroughRelay(endpoint, ARGS, { pid: 3 }, undefined, 1000);
    await until(() => requests.length === 3, "the question after the withdrawn one", { every: 10 });
    requests[0].resolve({ type: "unavailable" });
    assert.deepEqual(await one, { type: "unavailable" });
    const four = relay.askThroughRelay(endpoint, ARGS, { pid: 4 }, undefined, 1000);
    await until(() => requests.length === 4, "the question after the answered one", { every: 10 });
    for (const r of requests.slice(2)) r.resolve({ type: "unavailable" });
    assert.deepEqual([await three, await four], [{ type: "unavailable" }, { type: "unavailable" }]);
  } finally {
    for (const c of open) c.socket.destroy();
    server.close();
  }
});

test("relay: what the ask secret may make pi hold is bounded: its line, its connections, all unfinished lines, and the time a line takes", async () => {
  const seen = [];
  const bounds = {
    askMessageBytes: 256 * 1024,
    maxAskConnections: 2,
    askHeldBytes: 384 * 1024,
    heldBytes: 640 * 1024,
    lineMs: 1500,
    observe: (s) => seen.push(s),
  };
  const { server, requests, endpoint, control, calls } = await serve(1024 * 1024, bounds);
  const open = [];
  const start = (secret, pad) => {
    const c = connection(endpoint.path);
    open.push(c);
    c.connected.then(() => c.socket.write(`{"secret":"${secret}","type":"ask","args":"${"x".repeat(pad)}`, () => undefined));
    return c;
  };
  try {
    // One ask line longer than its cap is closed (the control secret's cap is higher).
    const tooLong = start(endpoint.secret, 300 * 1024);
    assert.equal(await within(tooLong.closed, "the ask line over its cap closed"), "");
    assert.ok(seen.at(-1).held <= 256 * 1024, JSON.stringify(seen.at(-1)));

    // Two unfinished ask lines may be held; a third connection with the ask secret is closed at once.
    const a = start(endpoint.secret, 150 * 1024);
    const b = start(endpoint.secret, 150 * 1024);
    await until(() => open.slice(1).every((c) => !c.isClosed()) && seen.length === 1, "two ask lines held", { every: 10 });
    await new Promise((r) => setImmediate(r));
    const third = start(endpoint.secret, 8 * 1024);
    assert.equal(await within(third.closed, "the third ask connection closed"), "");
    // The control secret still gets in, and its line may be longer than an ask line.
    const big = JSON.stringify({
      secret: control.secret,
      type: "answer",
      qid: "q00000001",
      outcome: "answered",
      answers: { pad: "y".repeat(300 * 1024) },
    });
    assert.match(await within(exchange(control.path, big), "the control answer"), /"type":"result"/);
    assert.deepEqual(calls, ["answer q00000001"]);

    // No line may take longer than lineMs to complete, secret shown or not; a whole one then waits.
    assert.equal(await within(a.closed, "an unfinished ask line closed after lineMs"), "");
    assert.equal(await within(b.closed, "the other one too"), "");
    // Two ask lines within their caps but past what all ask lines may hold together: the second
    // is closed while the first goes on.
    const c = start(endpoint.secret, 200 * 1024);
    const d = start(endpoint.secret, 200 * 1024);
    assert.equal(await within(d.closed, "the line past the ask lines' budget closed"), "");
    assert.equal(c.isClosed(), false, "the first line goes on");
    c.socket.destroy();
    const asking = relay.askThroughRelay(endpoint, ARGS, { pid: 1 }, undefined, 1000);
    await until(() => requests.length === 1, "a whole question", { every: 10 });
    await new Promise((r) => setTimeout(r, 2000)); // past lineMs
    assert.equal(requests[0].signal.aborted, false, "a whole question waits past lineMs");
    requests[0].resolve({ type: "unavailable" });
    assert.deepEqual(await asking, { type: "unavailable" });
  } finally {
    for (const c of open) c.socket.destroy();
    server.close();
  }
});

/** Lists through `control` until a reply comes (the server has seen a connection close). */
async function pollList(control) {
  const stop = Date.now() + 5000;
  for (;;) {
    const got = await exchange(control.path, secretFirst(control.secret, { type: "list" }));
    if (got) return JSON.parse(got);
    if (Date.now() > stop) throw new Error("timed out: a list reply");
    await new Promise((r) => setTimeout(r, 10));
  }
}

test("relay: directories of killed pis are swept; a live pid's, a listening socket's, a symlink and other names are left", async () => {
  const parent = mkdtempSync(join(tmpdir(), "pq-sweep-"));
  const listener = createServer();
  const shim = new URL("./helpers/shim.mjs", import.meta.url).href;
  try {
    // A relay whose process is killed: SIGKILL runs no exit handler, its directory stays.
    const script = `
      const { importShim } = await import(${JSON.stringify(shim)});
      const relay = await importShim("elsewhere/relay.ts");
      const server = await relay.startRelayServer(relay.relayBounds(${JSON.stringify(addon.limits)}), {});
      process.stdout.write(server.variable + "\\n");
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, TMPDIR: parent },
    });
    const endpoint = relay.parseRelayVariable(
      await new Promise((resolve) => createInterface({ input: child.stdout }).once("line", resolve)),
    );
    const killed = dirname(endpoint.path);
    assert.equal(dirname(killed), parent);
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    assert.ok(existsSync(endpoint.path), "SIGKILL left the socket behind");
    const deadPid = child.pid;

    const make = (name) => {
      const dir = join(parent, name);
      mkdirSync(dir, { mode: 0o700 });
      writeFileSync(join(dir, "kept"), "");
      return dir;
    };
    const dead = make(`pi-question-relay-${deadPid}-AbC123`); // no socket at all
    const live = make(`pi-question-relay-${process.ppid}-AbC123`);
    const old = make("pi-question-AbC123");
    const otherShape = make(`pi-question-relay-${deadPid}-AbC1234`);
    const editor = make(`pi-question-${deadPid}-AbC123`);
    const listening = make(`pi-question-relay-${deadPid}-Lstn12`); // a pi of another pid namespace
    await new Promise((resolve) => listener.listen(join(listening, "relay.sock"), resolve));
    const target = make("target");
    const link = join(parent, `pi-question-relay-${deadPid}-Link12`);
    symlinkSync(target, link);

    const removed = await relay.sweepRelayDirectories(parent);
    assert.deepEqual(removed.sort(), [killed, dead].sort());
    assert.equal(existsSync(killed), false);
    assert.equal(existsSync(dead), false);
    for (const dir of [live, old, otherShape, editor, listening, target]) assert.ok(existsSync(join(dir, "kept")), dir);
    assert.ok(lstatSync(link).isSymbolicLink(), "the symlink is neither followed nor removed");
  } finally {
    listener.close();
    rmSync(parent, { recursive: true, force: true });
  }
});
