// web.test.mjs — the web page's server (extension/elsewhere/web.ts) around the real tool with a fake TUI:
// off by default, turned on by `/questions web`, one URL with a long token; requests without the
// token, from another origin or Host, not JSON, too large or too many are refused, while a flood
// of them never holds back one with the token; the events stream sends the waiting questions and
// every change, a new page pushes out the oldest, and a page that stops reading is dropped; an
// SSH tunnel's Host (another port) works; answers are taken exactly once, shared with other
// terminals (the relay) and the person at the TUI. End to end with the real pi and a real
// browser: e2e-web.test.mjs.
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { homedir, tmpdir } from "node:os";
import { dirname, join, sep } from "node:path";
import { after, beforeEach, test } from "node:test";
import { listEndpoints, request, structuredAnswers } from "../extension/elsewhere/relay-wire.mjs";
import { addon } from "./helpers/addon.mjs";
import { REMOTE_MODE, remoteText } from "./helpers/remote-text.mjs";
import { loadExtension } from "./helpers/fake-pi.mjs";
import { importShim } from "./helpers/shim.mjs";
import { until } from "./helpers/until.mjs";

const runtime = mkdtempSync(join(tmpdir(), "pi-question-web-"));
process.env.XDG_RUNTIME_DIR = runtime;
// The user's own settings (~/.pi/agent/question.json) go to a throw-away home too.
const home = join(runtime, "home");
const userSettings = join(home, ".pi", "agent", "question.json");
mkdirSync(dirname(userSettings), { recursive: true });
process.env.HOME = home;
process.env.USERPROFILE = home; // os.homedir() on Windows
after(() => rmSync(runtime, { recursive: true, force: true }));

// Every handler of an event, in order (the relay and the web page both listen to the session).
const handlers = new Map();
const on = (name, fn) => handlers.set(name, [...(handlers.get(name) ?? []), fn]);
const fire = async (name, event) => {
  for (const fn of handlers.get(name) ?? []) await fn(event, ctx);
};
const { tools, commands } = await loadExtension({ on });
const tool = tools.get("question");
const theme = { fg: (_c, s) => s, bold: (s) => s, inverse: (s) => s, italic: (s) => s };

let shown = [];
let redraws = 0; // the fake TUI's requestRender calls
const notes = [];
const ctx = {
  hasUI: true,
  cwd: join(runtime, "project"),
  sessionManager: { getBranch: () => [] },
  isIdle: () => true,
  ui: {
    setWorkingMessage: () => undefined,
    setTitle: () => undefined,
    notify: (message, level) => notes.push({ message, level }),
    custom: (factory) =>
      new Promise((resolve) => {
        const component = factory({ requestRender: () => void redraws++ }, theme, { getKeys: () => [] }, resolve);
        component.focused = true;
        shown.push(component);
      }),
  },
};
mkdirSync(ctx.cwd);
// The same questions are asked again and again here: none opens with an earlier answer
// (remembered answers: docs/memory.md; memory.test.mjs).
const forgetful = () => {
  mkdirSync(join(ctx.cwd, ".pi"), { recursive: true });
  writeFileSync(join(ctx.cwd, ".pi", "question.json"), JSON.stringify({ memory: false }));
};
forgetful();
await fire("session_start", { reason: "startup" });
after(() => fire("session_shutdown", {}));
// This pi's endpoint as another terminal finds it (the registry's entry may list and answer).
const endpoint = () => {
  const mine = listEndpoints().filter((e) => e.pid === process.pid);
  assert.equal(mine.length, 1, "this pi registered once");
  return mine[0].endpoint;
};

const ARGS = tool.prepareArguments({ questions: [{ id: "db", prompt: "Which database?", options: ["SQLite", "Postgres"] }] });

/** Runs `/questions <args>` and returns what it said. */
async function questions(args) {
  const before = notes.length;
  await commands.get("questions").handler(args, ctx);
  return notes
    .slice(before)
    .map((n) => n.message)
    .join("\n");
}

let url;
let base;
let token;
// Each test talks from its own loopback source address (127.0.0.2, .3, …), so each has its own
// rate-limit bucket; the rate-limit test spends one whole.
let source = "127.0.0.1";
let sources = 1;
beforeEach(() => {
  source = `127.0.0.${++sources}`;
});
async function turnOn() {
  const said = await questions("web on");
  const m = /(http:\/\/127\.0\.0\.1:\d+)\/q\/([A-Za-z0-9_-]+)/.exec(said);
  assert.ok(m, said);
  [url, base, token] = m;
  return said;
}

/** One HTTP request with full control of the headers; resolves { status, headers, body }.
 * `port`: another port to send it to (a forwarder's). */
function http(method, path, { headers = {}, body, port } = {}) {
  const target = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        method,
        host: target.hostname,
        port: port ?? target.port,
        localAddress: source,
        path: target.pathname + target.search,
        headers: { connection: "close", ...headers },
        agent: false,
      },
      (res) => {
        const parts = [];
        res.on("data", (d) => parts.push(d));
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(parts).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** An answer as the page sends it: the token in the path (`path` "/answer": the older form, the
 * token in the body). */
const post = (payload, headers = {}, path = `/q/${token}/answer`) =>
  http("POST", path, {
    headers: { "content-type": "application/json", origin: base, "sec-fetch-site": "same-origin", ...headers },
    body: typeof payload === "string" ? payload : JSON.stringify(payload),
  });
const answerOnPage = async (qid, answers, outcome = "answered") => {
  const r = await post({ qid, outcome, answers });
  return { status: r.status, ...JSON.parse(r.body) };
};

/** The events stream: every `data:` message parsed, and the named events seen. */
function events() {
  const seen = [];
  const named = [];
  let res;
  let ended = false;
  let buffer = "";
  const req = httpRequest(
    { host: "127.0.0.1", port: new URL(base).port, localAddress: source, path: `/q/${token}/events`, agent: false },
    (r) => {
      res = r;
      r.setEncoding("utf8");
      r.on("end", () => (ended = true));
      r.on("data", (chunk) => {
        buffer += chunk;
        let at;
        while ((at = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event) named.push(event);
          else if (data) seen.push(JSON.parse(data));
        }
      });
    },
  );
  req.end();
  return {
    seen,
    named,
    get status() {
      return res?.statusCode;
    },
    /** pi ended the stream. */
    get ended() {
      return ended;
    },
    async until(check, what) {
      await until(() => seen.length && check(seen[seen.length - 1]), what);
      return seen[seen.length - 1];
    },
    close: () => req.destroy(),
  };
}

const waitingQid = async () => {
  const r = await request(endpoint(), { type: "list" });
  return r.message.questions.map((q) => q.qid);
};

/** Starts the call `id` and waits until its question is on the (fake) TUI and waiting for the
 * page; resolves { asking: the call's result, qid }. The two happen in either order: the tool
 * loads the TUI's module on first use, after the question is offered to the page. */
const ask = async (id, args = ARGS) => {
  const count = shown.length;
  const before = new Set(await waitingQid());
  const asking = tool.execute(id, args, undefined, undefined, ctx);
  await until(() => shown.length === count + 1, "the question on screen");
  for (const stop = Date.now() + 5000; ; await new Promise((r) => setTimeout(r, 5))) {
    const qid = (await waitingQid()).find((q) => !before.has(q));
    if (qid) return { asking, qid };
    if (Date.now() > stop) throw new Error(`timed out: the question ${id} waiting for the page`);
  }
};

test("web: off by default; /questions web turns it on and shows one URL with a long random token and its QR code", async () => {
  assert.equal(notes.filter((n) => /http:\/\//.test(n.message)).length, 0, "nothing started by itself");
  const said = await turnOn();
  assert.equal((said.match(/http:\/\//g) ?? []).length, 1, "one URL");
  assert.ok(Buffer.from(token, "base64url").length >= 16, "at least 128 bits");
  assert.equal(Buffer.from(token, "base64url").length, addon.limits.webTokenBytes);
  assert.match(said, /[█▀▄]{10}/, "a QR code in half blocks");
  const again = await questions("web on");
  assert.ok(again.includes(url), "on again: the same page");
});

test("web: requests without the token, or with a wrong one, are refused", async () => {
  for (const path of ["/", "/q/", "/q", `/q/${token.slice(0, -1)}`, `/q/${token}x`, `/q/x/events`, `/q//events`, `/q/${token}/other`]) {
    const r = await http("GET", path);
    assert.ok(r.status === 403 || r.status === 404, `${path}: ${r.status}`);
    assert.doesNotMatch(r.body, /<html/i);
  }
  const qid = "00000000";
  // The answer's token in its path: a wrong one is refused whatever the body says.
  for (const wrong of ["", "x", token.slice(0, -1), `${token}x`, token.toUpperCase()]) {
    const r = await post({ token, qid, outcome: "cancelled" }, {}, `/q/${wrong}/answer`);
    assert.equal(r.status, 403, wrong);
  }
  // The older form, the token in the body: missing or wrong is refused.
  for (const body of [
    { qid, outcome: "cancelled", answers: null },
    { token: "", qid, outcome: "cancelled" },
    { token: token.toUpperCase(), qid, outcome: "cancelled" },
  ]) {
    const r = await post(body, {}, "/answer");
    assert.equal(r.status, 403, JSON.stringify(body));
  }
  // Each path with its own method only.
  assert.equal((await http("GET", `/q/${token}/answer`)).status, 404);
  assert.equal((await post({ qid, outcome: "cancelled" }, {}, `/q/${token}`)).status, 404);
  assert.equal((await post({ qid, outcome: "cancelled" }, {}, `/q/${token}/events`)).status, 404);
  const page = await http("GET", `/q/${token}`);
  assert.equal(page.status, 200);
});

test("web: the page has a strict CSP with a fresh nonce, no external assets, no inline handlers", async () => {
  const a = await http("GET", `/q/${token}`);
  const b = await http("GET", `/q/${token}`);
  const csp = a.headers["content-security-policy"];
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /connect-src 'self'/);
  const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
  assert.ok(nonce && nonce.length >= 16);
  assert.match(csp, new RegExp(`style-src 'nonce-${nonce.replace(/[+/]/g, "\\$&")}'`));
  assert.notEqual(nonce, /script-src 'nonce-([^']+)'/.exec(b.headers["content-security-policy"])?.[1], "a new nonce per response");
  assert.equal(a.headers["cache-control"], "no-store");
  assert.equal(a.headers["referrer-policy"], "no-referrer");
  assert.equal(a.headers["x-content-type-options"], "nosniff");
  assert.doesNotMatch(a.body, /\b(src|href)=/i, "no external assets");
  assert.doesNotMatch(a.body, /\son[a-z]+=/i, "no inline event handlers");
  assert.doesNotMatch(a.body, /innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  assert.equal((a.body.match(new RegExp(`nonce="${nonce.replace(/[+/]/g, "\\$&")}"`, "g")) ?? []).length, 2);
  // Its strings come with it (escaped for the attribute), so it can say it is offline before
  // its first live update.
  const given = /<meta name="pi-strings" content="([^"]*)">/.exec(a.body)?.[1];
  assert.ok(given, "the strings in the page");
  const strings = JSON.parse(given.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))));
  assert.equal(strings.WEB_OFFLINE, "Connection to pi lost; trying again…");
  assert.equal(strings.WEB_TITLE, "pi is asking");
});

test("web: the events stream sends the waiting questions at once and again when one arrives or ends", async () => {
  const stream = events();
  try {
    const first = await stream.until(() => true, "the first state");
    assert.deepEqual(first.questions, []);
    assert.equal(first.strings.WEB_SUBMIT, "Submit");
    shown = [];
    const { asking } = await ask("e1");
    const arrived = await stream.until((s) => s.questions.length === 1, "the question arrives");
    assert.equal(arrived.questions[0].questions[0].prompt, "Which database?");
    assert.deepEqual(
      arrived.questions[0].questions[0].options.map((o) => o.value),
      ["SQLite", "Postgres"],
    );
    shown[0].handleInput("1"); // answered at the TUI
    await stream.until((s) => s.questions.length === 0, "the question leaves the page");
    assert.equal((await asking).content[0].text, "db: user selected: 1. SQLite");
    assert.equal(stream.status, 200);
  } finally {
    stream.close();
  }
});

test("web: at most QT_WEB_MAX_EVENT_STREAMS pages follow at once: a new page gets the updates, the oldest is told and ended", async () => {
  const open = [];
  try {
    for (let i = 0; i < addon.limits.webEventStreams; i++) {
      const stream = events();
      open.push(stream);
      await stream.until(() => true, `stream ${i}`);
    }
    // One more than pi follows: it is served (the page in front of someone), the oldest makes room.
    for (const n of [0, 1]) {
      const newest = events();
      open.push(newest);
      const first = await newest.until(() => true, "the newest page's first state");
      assert.equal(newest.status, 200);
      assert.deepEqual(first.questions, []);
      await until(() => open[n].ended, `the oldest stream (${n}) ended`);
      assert.deepEqual(open[n].named, ["displaced"], "told why, so it waits before it follows again");
    }
    assert.ok(
      open.slice(2).every((stream) => !stream.ended && stream.named.length === 0),
      "the others still follow",
    );
    // A change reaches every page that follows, the newest ones included.
    shown = [];
    const { asking, qid } = await ask("s1");
    for (const stream of open.slice(2))
      await stream.until((m) => m.questions.some((q) => q.qid === qid), "the question on every following page");
    shown[0].handleInput("1");
    await asking;
  } finally {
    for (const stream of open) stream.close();
  }
});

test("web: an answer from the page closes the question here with mode web; a second is told already answered", async () => {
  shown = [];
  const { asking, qid } = await ask(
    "w1",
    tool.prepareArguments({
      questions: [
        { id: "db", prompt: "Which database?", options: ["SQLite", "Postgres"] },
        { id: "f", prompt: "Features?", multiSelect: true, options: ["Auth", "API", "Jobs"] },
      ],
    }),
  );
  const first = await answerOnPage(qid, { db: { selected: [], wrote: "DuckDB", note: "embedded" }, f: { selected: ["Auth", "Jobs"] } });
  assert.deepEqual(first, { status: 200, ok: true });
  const second = await answerOnPage(qid, { db: { selected: ["SQLite"] }, f: { selected: ["API"] } });
  assert.deepEqual(second, { status: 409, ok: false, code: "already", reason: "already answered" });
  const result = await asking;
  assert.equal(result.details.mode, "web");
  assert.equal(result.details.status, "answered");
  assert.match(result.content[0].text, /^db: user wrote: DuckDB/m);
  assert.match(result.content[0].text, /embedded/);
  assert.match(result.content[0].text, /f: user selected: 1\. Auth, 3\. Jobs/);
  // The TUI question closed: it takes no more keys.
  shown[0].handleInput("1");
  const rendered = tool.renderResult(result, { expanded: false }, theme, { isError: false }).render(80).join("\n");
  assert.match(rendered, /answered from the web page/);
});

test("web: the page, another terminal and the TUI race — exactly one answer is taken", async () => {
  shown = [];
  const { asking, qid } = await ask("w2");
  const verdicts = await Promise.all([
    answerOnPage(qid, { db: "SQLite" }),
    request(endpoint(), { type: "answer", qid, outcome: "answered", answers: { db: "Postgres" } }).then((r) => r.message),
    answerOnPage(qid, null, "declined"),
  ]);
  assert.equal(verdicts.filter((v) => v.ok).length, 1, JSON.stringify(verdicts));
  for (const v of verdicts.filter((x) => !x.ok))
    assert.deepEqual([v.code, v.reason], ["already", "already answered"], JSON.stringify(verdicts));
  shown[0].handleInput("1"); // too late as well
  const result = await asking;
  const winner = verdicts.findIndex((v) => v.ok);
  const expected = [
    ["web", "db: user selected: 1. SQLite"],
    [REMOTE_MODE, remoteText("db: user selected: 2. Postgres")],
    ["web", null],
  ][winner];
  assert.equal(result.details.mode, expected[0]);
  if (expected[1]) assert.equal(result.content[0].text, expected[1]);
  else assert.equal(result.details.status, "declined");
});

test("web: a page that disconnects mid-answer loses nothing — the question keeps waiting and the next answer is taken", async () => {
  shown = [];
  const { asking, qid } = await ask("w-cut");
  const stream = events();
  await stream.until((m) => m.questions?.some((q) => q.qid === qid), "the question on the events stream");
  // Half of a declared body, then the connection drops: no answer is taken from it.
  const whole = JSON.stringify({ token, qid, outcome: "answered", answers: { db: "SQLite" } });
  await new Promise((resolve) => {
    const req = httpRequest({
      method: "POST",
      host: "127.0.0.1",
      port: new URL(base).port,
      localAddress: source,
      path: "/answer",
      agent: false,
      headers: {
        "content-type": "application/json",
        "content-length": String(whole.length),
        origin: base,
        "sec-fetch-site": "same-origin",
      },
    });
    req.on("error", () => resolve());
    req.on("close", () => resolve());
    req.write(whole.slice(0, whole.length >> 1), () => setTimeout(() => req.destroy(), 20));
  });
  stream.close(); // the page's live updates drop too
  assert.deepEqual(await waitingQid(), [qid], "still waiting after the page went away");
  assert.deepEqual(await answerOnPage(qid, { db: "Postgres" }), { status: 200, ok: true });
  const result = await asking;
  assert.equal(result.content[0].text, "db: user selected: 2. Postgres");
  assert.equal(result.details.mode, "web");
});

test("web: cancel and 'let the agent decide' from the page", async () => {
  shown = [];
  let { asking, qid } = await ask("w3");
  assert.equal((await answerOnPage(qid, null, "cancelled")).ok, true);
  let result = await asking;
  assert.equal(result.details.status, "cancelled");
  assert.equal(result.terminate, true);
  assert.deepEqual(await answerOnPage(qid, { db: "SQLite" }), { status: 409, ok: false, code: "cancelled", reason: "already cancelled" });
  ({ asking, qid } = await ask("w4"));
  assert.equal((await answerOnPage(qid, {}, "declined")).ok, true);
  result = await asking;
  assert.equal(result.details.status, "declined");
  assert.equal(result.details.mode, "web");
});

test("web: an invalid answer is refused with the C core's message and the question keeps waiting", async () => {
  shown = [];
  const { asking, qid } = await ask("w5");
  const bad = await answerOnPage(qid, { nope: "x" });
  assert.equal(bad.status, 400);
  assert.equal(bad.code, "invalid");
  assert.match(bad.reason, /nope/);
  const notOption = await answerOnPage(qid, { db: { selected: ["MySQL"] } });
  assert.equal(notOption.code, "invalid");
  assert.match(notOption.reason, /not an option/);
  assert.equal((await answerOnPage(qid, null, "interrupted")).code, "invalid");
  for (const body of ["not json", "[1]", JSON.stringify({ token, qid: 5, outcome: "answered" })]) {
    assert.equal((await post(body)).status, 400, body);
  }
  assert.deepEqual(await waitingQid(), [qid], "still waiting");
  shown[0].handleInput("2");
  assert.equal((await asking).content[0].text, "db: user selected: 2. Postgres");
  assert.deepEqual(await answerOnPage(qid, { db: "SQLite" }), { status: 409, ok: false, code: "already", reason: "already answered" });
});

test("web: a cross-origin or cross-site POST is refused and changes nothing", async () => {
  shown = [];
  const { asking, qid } = await ask("w6");
  const payload = { token, qid, outcome: "answered", answers: { db: "SQLite" } };
  for (const headers of [
    { origin: "http://evil.example" },
    { origin: "null" },
    { origin: base.replace("127.0.0.1", "localhost") },
    { origin: base, "sec-fetch-site": "cross-site" },
    { origin: base, "sec-fetch-site": "same-site" },
  ]) {
    const r = await post(payload, headers);
    assert.equal(r.status, 403, JSON.stringify(headers));
  }
  // A form post (what a foreign page can send without asking) is not JSON.
  for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""]) {
    const r = await post(payload, { "content-type": type });
    assert.equal(r.status, 415, type);
  }
  assert.deepEqual(await waitingQid(), [qid], "nothing was answered");
  shown[0].handleInput("1");
  assert.equal((await asking).details.mode, "interactive");
});

test("web: a Host header must name an address, localhost or the configured host (DNS rebinding); its port may be any", async () => {
  const port = new URL(base).port;
  for (const host of [
    `evil.example:${port}`,
    "evil.example",
    `127.0.0.1.nip.io:${port}`,
    `localhost.:${port}`,
    `localhost:${port}@evil.example`,
    `127.0.0.1:${port}:1`,
    "[::1",
    `127.0.0.1:x`,
  ]) {
    const r = await http("GET", `/q/${token}`, { headers: { host } });
    assert.equal(r.status, 421, host);
  }
  for (const host of [`localhost:${port}`, "127.0.0.1:1", "127.0.0.1", "LOCALHOST:8080", "[::1]:8080"]) {
    assert.equal((await http("GET", `/q/${token}`, { headers: { host } })).status, 200, host);
  }
});

test("web: the SSH tunnel of docs/elsewhere.md works: through a forwarder on another port the page, its updates and an answer are served", async () => {
  const { createServer: createTcpServer, connect } = await import("node:net");
  const target = Number(new URL(base).port);
  // What `ssh -L <other>:127.0.0.1:<port>` does: another local port, piped byte for byte.
  const sockets = new Set();
  const forwarder = createTcpServer((client) => {
    const upstream = connect({ host: "127.0.0.1", port: target, localAddress: source });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => undefined);
      s.on("close", () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise((resolve) => forwarder.listen(0, "127.0.0.1", resolve));
  const via = forwarder.address().port;
  const host = `127.0.0.1:${via}`;
  const origin = `http://${host}`;
  try {
    assert.notEqual(via, target);
    const page = await http("GET", `/q/${token}`, { port: via, headers: { host } });
    assert.equal(page.status, 200);
    assert.match(page.body, /<html/);
    // A DNS name is refused through the tunnel too.
    assert.equal((await http("GET", `/q/${token}`, { port: via, headers: { host: `evil.example:${via}` } })).status, 421);
    // The live updates, read through the forwarder.
    const first = await new Promise((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port: via, path: `/q/${token}/events`, headers: { host }, agent: false }, (res) => {
        res.setEncoding("utf8");
        let got = "";
        res.on("data", (d) => {
          got += d;
          const m = /^data: (.*)$/m.exec(got);
          if (m) {
            resolve({ status: res.statusCode, state: JSON.parse(m[1]) });
            req.destroy();
          }
        });
      });
      req.on("error", reject);
      req.end();
    });
    assert.equal(first.status, 200);
    assert.equal(first.state.type, "state");
    // An answer from the page as the browser sends it there: its Origin is the tunnel's.
    shown = [];
    const { asking, qid } = await ask("tunnel");
    const r = await http("POST", `/q/${token}/answer`, {
      port: via,
      headers: { host, origin, "sec-fetch-site": "same-origin", "content-type": "application/json" },
      body: JSON.stringify({ qid, outcome: "answered", answers: { db: "Postgres" } }),
    });
    assert.equal(r.status, 200, r.body);
    const result = await asking;
    assert.equal(result.details.mode, "web");
    assert.equal(result.content[0].text, "db: user selected: 2. Postgres");
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => forwarder.close(resolve));
  }
});

test("web: hostile requests (absolute targets, deep nesting, odd methods, a bad token of any length) are refused and the server lives on", async () => {
  const { connect } = await import("node:net");
  const port = Number(new URL(base).port);
  const raw = (text) =>
    new Promise((resolve) => {
      const socket = connect({ host: "127.0.0.1", port, localAddress: source }, () => socket.end(text));
      let out = "";
      socket.on("data", (d) => (out += d));
      socket.on("close", () => resolve(out));
      socket.on("error", () => resolve(out));
    });
  for (const target of ["http://[", "http://x/%", "*", "/q/%E0%A4%A"]) {
    const out = await raw(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    assert.match(out, /^HTTP\/1\.1 4\d\d/, target);
  }
  const deep = "[".repeat(100000) + "]".repeat(100000);
  const r = await post(`{"token":"${token}","qid":"x","outcome":"answered","answers":${deep}}`);
  assert.equal(r.status, 400);
  for (const method of ["PUT", "DELETE", "OPTIONS", "HEAD"])
    assert.ok([403, 404].includes((await http(method, `/q/${token}`)).status), method);
  assert.equal((await http("GET", `/q/${"x".repeat(5000)}`)).status, 403);
  assert.equal((await http("GET", `/q/${token}`)).status, 200, "still serving");
});

/** A POST body of exactly `bytes` bytes that begins with the token, as the page sends it. */
function bodyOfSize(bytes, tokenGiven = token) {
  const head = JSON.stringify({ token: tokenGiven, qid: "qffffffff", outcome: "answered", answers: { db: "" } });
  const at = head.length - 3; // inside the answer's empty string
  return head.slice(0, at) + "a".repeat(bytes - head.length) + head.slice(at);
}

/** Sends `parts` in chunks without a length; resolves { status, body }, or { error } when pi
 * closed the connection before its reply could be read. */
function postChunked(parts) {
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        method: "POST",
        host: "127.0.0.1",
        port: new URL(base).port,
        localAddress: source,
        path: `/q/${token}/answer`,
        agent: false,
        headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
      },
      (res) => {
        const got = [];
        res.on("data", (d) => got.push(d));
        res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(got).toString("utf8") }));
        res.on("error", (error) => resolve({ error }));
      },
    );
    req.on("error", (error) => resolve({ error }));
    (async () => {
      for (const part of parts) if (!req.write(part)) await new Promise((r) => req.once("drain", r));
      req.end();
    })();
  });
}

test("web: the body cap is derived from the answer limits: a maximal answer to a question, typed and noted and escaped at worst, is taken", async () => {
  const { answerBytes, answersJsonBytes, webBodyBytes } = addon.limits;
  assert.ok(webBodyBytes >= answersJsonBytes + 1024, "every answer a person can give, plus the token, the id and the keys");
  shown = [];
  const args = tool.prepareArguments({ questions: [{ id: "essay", prompt: "Tell me everything." }] });
  const { asking, qid } = await ask("big", args);
  // A control character is the worst case: 1 byte typed, 6 bytes in JSON (\u0001).
  const worst = "\u0001".repeat(answerBytes - 2);
  const answers = { essay: { selected: [], wrote: `a${worst}z`, note: `n${worst}e` } };
  const body = JSON.stringify({ token, qid, outcome: "answered", answers });
  assert.ok(body.length > 6 * 2 * (answerBytes - 2), `escaped at worst: ${body.length} bytes`);
  const r = await post(body);
  assert.equal(r.status, 200, r.body.slice(0, 300));
  const result = await asking;
  assert.equal(result.details.status, "answered");
  assert.equal(result.details.mode, "web");
  const taken = structuredAnswers(result.details).essay;
  assert.equal(taken.wrote, `a${worst}z`, "the typed answer whole");
  assert.equal(taken.note, `n${worst}e`, "the note whole");
});

test("web: a body one byte over the derived cap is refused with 413, declared or not; at the cap it is read", async () => {
  const cap = addon.limits.webBodyBytes;
  // At the cap: read whole, then refused for what it says (no such question), not for its size.
  const at = await post(bodyOfSize(cap));
  assert.equal(at.status, 409, at.body.slice(0, 200));
  const over = await post(bodyOfSize(cap + 1));
  assert.equal(over.status, 413);
  assert.match(JSON.parse(over.body).reason, new RegExp(`larger than ${cap} bytes`));
  // Sent in chunks without a length: counted as it arrives.
  const body = bodyOfSize(cap + 1);
  const chunks = [];
  for (let i = 0; i < body.length; i += 1 << 20) chunks.push(body.slice(i, i + (1 << 20)));
  const chunked = await postChunked(chunks);
  assert.ok(chunked.status === 413 || chunked.error, String(chunked.status));
  if (chunked.status) assert.match(JSON.parse(chunked.body).reason, /larger than/);
});

test("web: the older form (the token in the body): a long body that does not begin with the token is refused after a few KB", async () => {
  const { webUnverifiedBodyBytes } = addon.limits;
  for (const body of [bodyOfSize(webUnverifiedBodyBytes * 4, "x".repeat(token.length)), "x".repeat(webUnverifiedBodyBytes * 4)]) {
    const r = await post(body, {}, "/answer");
    assert.equal(r.status, 413);
    assert.match(JSON.parse(r.body).reason, /must begin with its token/);
  }
  // A short body without the token is read and refused for that (403), not for its size.
  assert.equal((await post({ qid: "x", outcome: "cancelled", token: "nope" }, {}, "/answer")).status, 403);
  // The token first, with white space as any JSON writer may put it: read on.
  const spaced = ` { "token" : "${token}", "qid": "qffffffff", "outcome": "cancelled", "pad": "${"a".repeat(webUnverifiedBodyBytes * 2)}" }`;
  assert.equal((await post(spaced, {}, "/answer")).status, 409);
  // And it is answered that way.
  shown = [];
  const { asking, qid } = await ask("older");
  assert.equal((await post({ token, qid, outcome: "answered", answers: { db: "SQLite" } }, {}, "/answer")).status, 200);
  assert.equal((await asking).details.mode, "web");
});

test("web: an answer's token is checked in its path before its body is read: a wrong one is refused at once", async () => {
  // Headers that promise 10 MB, then only the first bytes: the refusal comes without the rest.
  const r = await new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        method: "POST",
        host: "127.0.0.1",
        port: new URL(base).port,
        localAddress: source,
        path: `/q/${"A".repeat(token.length)}/answer`,
        agent: false,
        headers: { "content-type": "application/json", "content-length": String(10 << 20), origin: base, "sec-fetch-site": "same-origin" },
      },
      (res) => {
        const got = [];
        res.on("data", (d) => got.push(d));
        res.on("end", () => {
          resolve({ status: res.statusCode, body: Buffer.concat(got).toString("utf8") });
          req.destroy();
        });
      },
    );
    req.on("error", reject);
    req.write('{"qid":"x",');
    // The request stays open (never ended): only pi's reply can settle this.
  });
  assert.equal(r.status, 403);
  assert.match(JSON.parse(r.body).reason, /wrong or missing token/);
});

test("web: requests without the token are rate-limited per address (429); a flood of them never holds back the page, its updates or an answer with the token", async () => {
  // Another local user at the same address (127.0.0.1 is every local client and every SSH
  // tunnel), without the token: the burst, then 429.
  const statuses = [];
  for (let i = 0; i < addon.limits.webRateBurst + 5; i++)
    statuses.push((await http("GET", i % 2 ? "/" : `/q/${"B".repeat(token.length)}`)).status);
  assert.equal(statuses.filter((s) => s === 429).length, 5, statuses.join(" "));
  assert.equal(statuses.at(-1), 429);
  assert.equal((await post({ qid: "x", outcome: "cancelled" }, {}, `/q/${"B".repeat(token.length)}/answer`)).status, 429);
  // The older form cannot show its token before its body is read: it waits in the same bucket.
  assert.equal((await post({ token, qid: "x", outcome: "cancelled" }, {}, "/answer")).status, 429);
  // The owner, from that very address, while the flood goes on.
  shown = [];
  const { asking, qid } = await ask("flooded");
  const flood = Array.from({ length: 20 }, () => http("GET", "/"));
  const page = await http("GET", `/q/${token}`);
  assert.equal(page.status, 200);
  const stream = events();
  try {
    const state = await stream.until((m) => m.questions.some((q) => q.qid === qid), "the question on the flooded address's page");
    assert.equal(stream.status, 200);
    assert.equal(state.type, "state");
    assert.deepEqual(await answerOnPage(qid, { db: "Postgres" }), { status: 200, ok: true });
  } finally {
    stream.close();
  }
  assert.ok(
    (await Promise.all(flood)).every((r) => r.status === 429),
    "the flood itself is still refused",
  );
  assert.equal((await asking).details.mode, "web");
  // Another address has its own bucket.
  source = `127.0.0.${++sources}`;
  assert.equal((await http("GET", "/")).status, 404);
});

test("web: turning it off ends the events stream with 'off' and closes the port", async () => {
  await questions("web off");
  await turnOn();
  const stream = events();
  await stream.until(() => true, "the first state");
  const said = await questions("web");
  assert.match(said, /off/);
  await until(() => stream.named.includes("off"), "the off event");
  await assert.rejects(http("GET", `/q/${token}`), /ECONNREFUSED/);
  stream.close();
});

test("web: with the setting on, the session starts the page and its end stops it", async () => {
  await questions("web off");
  await fire("session_shutdown", {});
  writeFileSync(userSettings, JSON.stringify({ web: { enabled: true } }));
  try {
    const before = notes.length;
    await fire("session_start", { reason: "startup" });
    const said = notes
      .slice(before)
      .map((n) => n.message)
      .join("\n");
    const m = /(http:\/\/127\.0\.0\.1:\d+)\/q\/([A-Za-z0-9_-]+)/.exec(said);
    assert.ok(m, said);
    [url, base, token] = m;
    assert.equal((await http("GET", `/q/${token}`)).status, 200);
    await fire("session_shutdown", {});
    await assert.rejects(http("GET", `/q/${token}`), /ECONNREFUSED/);
  } finally {
    rmSync(userSettings, { force: true });
    await fire("session_start", { reason: "startup" });
  }
});

test("web: a project's .pi/question.json cannot turn the page on or choose its address — warned, ignored", async () => {
  await questions("web off");
  await fire("session_shutdown", {});
  mkdirSync(join(ctx.cwd, ".pi"), { recursive: true });
  writeFileSync(join(ctx.cwd, ".pi", "question.json"), JSON.stringify({ web: { enabled: true, host: "0.0.0.0" }, memory: false }));
  try {
    const before = notes.length;
    await fire("session_start", { reason: "startup" });
    const said = notes.slice(before);
    assert.ok(!said.some((n) => /http:\/\//.test(n.message)), "the page did not start");
    const warning = said.find((n) => n.level === "warning");
    assert.ok(warning, JSON.stringify(said));
    assert.match(
      warning.message,
      /question\.json sets "web", which a project's settings may not: only your own settings \(~\/\.pi\/agent\/question\.json\) or \/questions web/,
    );
    // Turned on by the person, it still listens on 127.0.0.1, not on the project's address.
    const shown = await questions("web on");
    assert.match(shown, /http:\/\/127\.0\.0\.1:\d+\/q\//);
  } finally {
    await questions("web off");
    rmSync(join(ctx.cwd, ".pi"), { recursive: true, force: true });
    forgetful();
  }
});

test("web: the setting web.host names the address it listens on, and the URL shows it", async () => {
  writeFileSync(userSettings, JSON.stringify({ web: { host: "127.0.0.3" } }));
  try {
    await questions("web off");
    const said = await questions("web on");
    const m = /(http:\/\/127\.0\.0\.3:\d+)\/q\/([A-Za-z0-9_-]+)/.exec(said);
    assert.ok(m, said);
    const page = await new Promise((resolve, reject) => {
      const u = new URL(m[0]);
      httpRequest({ host: u.hostname, port: u.port, path: u.pathname, agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode);
      })
        .on("error", reject)
        .end();
    });
    assert.equal(page, 200);
    await assert.rejects(
      new Promise((resolve, reject) =>
        httpRequest({ host: "127.0.0.1", port: new URL(m[0]).port, path: "/", agent: false }, resolve)
          .on("error", reject)
          .end(),
      ),
      /ECONNREFUSED/,
      "not on 127.0.0.1 then",
    );
  } finally {
    await questions("web off");
    rmSync(userSettings, { force: true });
  }
});

// ---- the page's steps (POST /q/<token>/step): the engine's question flow ---------------------

/** One step as the page posts it; resolves { status, ...the reply }. */
const stepOnPage = async (qid, step, arg, headers = {}, path = `/q/${token}/step`) => {
  const body = { qid, step, index: typeof arg === "number" ? arg : null, text: typeof arg === "string" ? arg : null };
  const r = await post(body, headers, path);
  return { status: r.status, ...JSON.parse(r.body) };
};
const MULTI = tool.prepareArguments({ questions: [{ id: "f", prompt: "Features?", multiSelect: true, options: ["Auth", "API", "Jobs"] }] });
/** The question `qid` as the latest snapshot of `stream` shows it. */
const onStream = (stream, qid) => stream.seen.at(-1)?.questions.find((q) => q.qid === qid);

test("web: the page answers in steps — a filter, a pick; the events carry the flow's view and the end is a page answer", async () => {
  await questions("web off");
  await turnOn();
  shown = [];
  const { asking, qid } = await ask("st1");
  const stream = events();
  try {
    const first = await stream.until((m) => m.questions.some((q) => q.qid === qid), "the question with its view");
    const view = onStream(stream, qid).view;
    assert.equal(first.type, "state");
    assert.equal(view.state, "choosing");
    assert.deepEqual(
      view.questions[0].options.map((o) => o.label),
      ["SQLite", "Postgres"],
    );
    assert.ok(view.actions.includes("filter") && view.actions.includes("discuss"), view.actions.join(" "));
    const filtered = await stepOnPage(qid, "filter", "post");
    assert.equal(filtered.status, 200, JSON.stringify(filtered));
    assert.deepEqual(filtered.view.questions[0].shown, [1]);
    await stream.until(() => onStream(stream, qid)?.view.questions[0].filter === "post", "the filter on the events stream");
    assert.deepEqual(await stepOnPage(qid, "pick", 1), { status: 200, ok: true, done: true, outcome: "answered" });
    const result = await asking;
    assert.equal(result.content[0].text, "db: user selected: 2. Postgres");
    assert.equal(result.details.mode, "web");
    await stream.until((m) => !m.questions.some((q) => q.qid === qid), "the question leaves the page");
    assert.deepEqual(await stepOnPage(qid, "pick", 0), { status: 409, ok: false, code: "already", reason: "already answered" });
  } finally {
    stream.close();
  }
});

test("web: the person's first keystroke on the page stops their timeout in pi's TUI too — the countdown goes, the question outlives its deadline, and the page's answer is taken", async () => {
  writeFileSync(userSettings, JSON.stringify({ timeout: { after: "1s", then: "cancel" } }));
  try {
    await questions("web off");
    await turnOn();
    shown = [];
    const { asking, qid } = await ask("clock1");
    const tui = shown.at(-1);
    assert.match(tui.render(100).join("\n"), /Closes itself in 0:01/, "the countdown runs in the TUI");
    let ended = false;
    asking.then(() => (ended = true));
    const touched = await stepOnPage(qid, "touch");
    assert.equal(touched.status, 200, JSON.stringify(touched));
    assert.equal(touched.view.state, "choosing", "a touch changes nothing in the flow");
    assert.doesNotMatch(tui.render(100).join("\n"), /Closes itself/, "the countdown is gone from the TUI");
    // the deadline passes: the real clock, past the 1 s the person set
    await new Promise((r) => setTimeout(r, 1300));
    assert.equal(ended, false, "not timed out");
    assert.deepEqual(await stepOnPage(qid, "pick", 1), { status: 200, ok: true, done: true, outcome: "answered" });
    const result = await asking;
    assert.equal(result.details.status, "answered");
    assert.equal(result.details.mode, "web");
  } finally {
    rmSync(userSettings, { force: true });
  }
});

test("web: a question the person answered before in this project opens on the page with its line; submitting it unchanged confirms it (mode web)", async () => {
  const memory = await importShim("ask/memory.ts");
  writeFileSync(join(ctx.cwd, ".pi", "question.json"), "{}"); // remembered answers on, for this test
  try {
    const at = new Date("2026-11-21T10:00:00Z");
    const given = addon.result(JSON.stringify(ARGS), "answered", "interactive", at.getTime(), null, JSON.stringify({ db: "Postgres" }), 0);
    assert.equal(await memory.rememberAnswers(ctx.cwd, JSON.parse(given.details), "pi", at), undefined);
    shown = [];
    const { asking, qid } = await ask("mem1");
    const stream = events();
    try {
      await stream.until(() => onStream(stream, qid)?.view, "the question with its view");
      assert.match(onStream(stream, qid).view.earlierLine, /^Answered on 21 Nov.*: Postgres/);
      assert.deepEqual(await stepOnPage(qid, "pick", 1), { status: 200, ok: true, done: true, outcome: "answered" });
      const result = await asking;
      assert.equal(result.details.mode, "web");
      assert.equal(result.content[0].text, "db: user selected: 2. Postgres (the earlier answer (21 Nov 2026), confirmed)");
    } finally {
      stream.close();
    }
  } finally {
    rmSync(memory.memoryPaths(ctx.cwd).jsonl, { force: true });
    rmSync(memory.memoryPaths(ctx.cwd).md, { force: true });
    forgetful();
  }
});

test("web: two pages acting on one question see one state: each one's tick is on both, and either may finish", async () => {
  shown = [];
  const { asking, qid } = await ask("st2", MULTI);
  const pages = [events(), events()];
  try {
    for (const p of pages) await p.until((m) => m.questions.some((q) => q.qid === qid), "the question on both pages");
    assert.equal((await stepOnPage(qid, "toggle", 0)).status, 200); // the first page
    const second = await stepOnPage(qid, "toggle", 2); // the second page, not knowing of the first
    assert.deepEqual(
      second.view.questions[0].options.map((o) => o.ticked),
      [true, false, true],
      "one engine: both ticks",
    );
    for (const p of pages) {
      await p.until(
        () =>
          onStream(p, qid)
            ?.view.questions[0].options.map((o) => o.ticked)
            .join() === "true,false,true",
        "both ticks on every page",
      );
    }
    assert.deepEqual(await stepOnPage(qid, "submit"), { status: 200, ok: true, done: true, outcome: "answered" });
    const result = await asking;
    assert.equal(result.content[0].text, "f: user selected: 1. Auth, 3. Jobs");
    assert.equal(result.details.mode, "web");
  } finally {
    for (const p of pages) p.close();
  }
});

test("web: a tick from the page sets the state it shows: two pages ticking one option at once leave it ticked; unticking and a bad value", async () => {
  shown = [];
  const { asking, qid } = await ask("st2t", MULTI);
  const tick = async (k, ticked) => {
    const r = await post({ qid, step: "toggle", index: k, text: null, ticked }, {}, `/q/${token}/step`);
    return { status: r.status, ...JSON.parse(r.body) };
  };
  const ticks = (r) => r.view.questions[0].options.map((o) => o.ticked).join();
  assert.equal(ticks(await tick(1, true)), "false,true,false", "the first page ticks API");
  assert.equal(ticks(await tick(1, true)), "false,true,false", "the second page, at the same moment, also means ticked");
  assert.equal(ticks(await tick(1, false)), "false,false,false", "unticked when a page says so");
  assert.equal(ticks(await tick(1, false)), "false,false,false");
  assert.equal(ticks(await tick(2, null)), "false,false,true", "without ticked: a flip, for scripts");
  const bad = await tick(0, "yes");
  assert.equal(bad.status, 400);
  assert.match(bad.reason, /ticked must be true, false or null/);
  assert.equal((await stepOnPage(qid, "submit")).done, true);
  assert.equal((await asking).content[0].text, "f: user selected: 3. Jobs");
});

test("web: talk first and cancel from the page go through the engine: its words reach the model; a cancel after an answer asks first", async () => {
  shown = [];
  let { asking, qid } = await ask("st3", MULTI);
  assert.equal((await stepOnPage(qid, "toggle", 1)).status, 200);
  // "Discuss first…" on the page opens the engine's talk-first mode: pi's TUI shows the field too
  const talking = await stepOnPage(qid, "discuss");
  assert.equal(talking.status, 200, JSON.stringify(talking));
  assert.equal(talking.view.state, "discuss");
  assert.deepEqual(talking.view.actions, ["discuss", "back"]);
  assert.match(shown.at(-1).render(80).join("\n"), /tell the agent/i, "the field, in pi's TUI");
  assert.equal((await stepOnPage(qid, "back")).view.state, "choosing", "back: the question again");
  assert.equal((await stepOnPage(qid, "discuss")).view.state, "discuss");
  assert.deepEqual(await stepOnPage(qid, "discuss", "  why Jobs?  "), { status: 200, ok: true, done: true, outcome: "discuss" });
  let result = await asking;
  assert.equal(result.details.status, "discuss");
  assert.equal(result.details.mode, "web");
  assert.match(result.content[0].text, /why Jobs\?/);
  ({ asking, qid } = await ask("st4", MULTI));
  assert.equal((await stepOnPage(qid, "toggle", 0)).status, 200);
  assert.equal((await stepOnPage(qid, "submit")).done, true);
  result = await asking;
  assert.equal(result.content[0].text, "f: user selected: 1. Auth");
  ({ asking, qid } = await ask(
    "st5",
    tool.prepareArguments({
      questions: [
        { id: "a", prompt: "A?", options: ["x", "y"] },
        { id: "b", prompt: "B?" },
      ],
    }),
  ));
  assert.equal((await stepOnPage(qid, "pick", 0)).view.current, 1);
  const asked = await stepOnPage(qid, "cancel");
  assert.equal(asked.view.state, "confirm");
  assert.equal(asked.view.confirm.title, "Discard 1 answer?");
  assert.equal((await stepOnPage(qid, "no")).view.state, "typing");
  assert.equal((await stepOnPage(qid, "cancel")).view.state, "confirm");
  assert.deepEqual(await stepOnPage(qid, "yes"), { status: 200, ok: true, done: true, outcome: "cancelled" });
  result = await asking;
  assert.equal(result.details.status, "cancelled");
  assert.equal(result.details.mode, "web");
});

test("web: a bad step is refused with a clear reason and changes nothing: no such step, not possible now, out of range, wrong types, not waiting", async () => {
  shown = [];
  const { asking, qid } = await ask("st6");
  const refused = [
    [await stepOnPage(qid, "jump"), 400, /no such step/],
    [await stepOnPage(qid, "submit"), 400, /^That is not possible now$/],
    [await stepOnPage(qid, "yes"), 400, /not possible now/],
    [await stepOnPage(qid, "pick", 7), 400, /^There is no option 8$/],
    [await stepOnPage(qid, "pick", -1), 400, /index/],
    [await stepOnPage(qid, "type", ""), 400, /^Type an answer first$/],
    [await stepOnPage(qid, "filter", "x".repeat(addon.limits.filterBytes + 1)), 400, /^Too long: at most \d+ bytes$/],
    [await stepOnPage("qffffffff", "pick", 0), 409, /no longer waiting/],
  ];
  for (const [reply, status, reason] of refused) {
    assert.equal(reply.status, status, JSON.stringify(reply));
    assert.equal(reply.ok, false);
    assert.match(reply.reason, reason);
  }
  for (const body of [
    { qid, step: 5 },
    { qid: 5, step: "pick" },
    { qid, step: "pick", index: "1" },
    { qid, step: "type", text: 5 },
    [1],
    "not json",
  ]) {
    const r = await post(typeof body === "string" ? body : JSON.stringify(body), {}, `/q/${token}/step`);
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.match(JSON.parse(r.body).reason, /must be|not JSON|JSON object/);
  }
  // Nothing changed: the flow is where it was, and a good step still ends it.
  const stream = events();
  try {
    const view = (await stream.until((m) => m.questions.some((q) => q.qid === qid), "the question")).questions.find(
      (q) => q.qid === qid,
    ).view;
    assert.equal(view.state, "choosing");
    assert.deepEqual([view.questions[0].filter, view.questions[0].answered, view.message], ["", false, ""]);
  } finally {
    stream.close();
  }
  assert.equal((await stepOnPage(qid, "pick", 0)).done, true);
  assert.equal((await asking).content[0].text, "db: user selected: 1. SQLite");
});

test("web: a step meets the rules of every POST: the token in its path, the page's own origin, JSON, the size cap", async () => {
  shown = [];
  const { asking, qid } = await ask("st7");
  const wrong = await stepOnPage(qid, "pick", 0, {}, `/q/${"A".repeat(token.length)}/step`);
  assert.equal(wrong.status, 403);
  assert.match(wrong.reason, /wrong or missing token/);
  assert.equal((await stepOnPage(qid, "pick", 0, { origin: "http://evil.example" })).status, 403);
  assert.equal((await stepOnPage(qid, "pick", 0, { "sec-fetch-site": "cross-site" })).status, 403);
  assert.equal((await stepOnPage(qid, "pick", 0, { "content-type": "text/plain" })).status, 415);
  assert.equal((await http("GET", `/q/${token}/step`)).status, 404);
  // A step holds one field's text: its cap is an answer's, escaped, not a whole answer set's.
  const cap = 6 * addon.limits.answerBytes + addon.limits.webUnverifiedBodyBytes;
  assert.ok(cap < addon.limits.webBodyBytes / 10);
  const over = await post(JSON.stringify({ qid, step: "type", text: "a".repeat(cap) }), {}, `/q/${token}/step`);
  assert.equal(over.status, 413);
  assert.match(JSON.parse(over.body).reason, new RegExp(`larger than ${cap} bytes`));
  // The older tokenless path takes whole answers only.
  assert.equal((await post({ token, qid, step: "pick", index: 0 }, {}, "/step")).status, 404);
  assert.deepEqual(await waitingQid(), [qid], "none of them answered it");
  shown[0].handleInput("2");
  assert.equal((await asking).content[0].text, "db: user selected: 2. Postgres");
});

test("web: a question answered elsewhere in the middle of the page's flow: the page's next step is told so, and the TUI's answer stands", async () => {
  shown = [];
  let { asking, qid } = await ask("st8", MULTI);
  assert.equal((await stepOnPage(qid, "toggle", 0)).status, 200);
  shown[0].handleInput("2");
  shown[0].handleInput("\r"); // the person at the TUI answers first, with the page's tick (one flow)
  const result = await asking;
  assert.equal(result.content[0].text, "f: user selected: 1. Auth, 2. API");
  assert.equal(result.details.mode, "interactive");
  assert.deepEqual(await stepOnPage(qid, "submit"), { status: 409, ok: false, code: "already", reason: "already answered" });
  // Another terminal first, then the page.
  ({ asking, qid } = await ask("st9", MULTI));
  assert.equal((await stepOnPage(qid, "toggle", 2)).status, 200);
  const other = await request(endpoint(), { type: "answer", qid, outcome: "declined", answers: {} });
  assert.equal(other.message.ok, true);
  assert.deepEqual(await stepOnPage(qid, "toggle", 1), { status: 409, ok: false, code: "already", reason: "already answered" });
  assert.equal((await asking).details.mode, REMOTE_MODE);
});

test("web: one flow per question — text typed on the page is in pi's TUI (drawn again at once), a key in the TUI is in the page's next update, and the answer is the TUI's", async () => {
  shown = [];
  const { asking, qid } = await ask("st10", ARGS);
  const stream = events();
  try {
    await stream.until((m) => m.questions.some((q) => q.qid === qid), "the question on the page");
    const before = redraws;
    assert.equal((await stepOnPage(qid, "draft", "MariaDB")).status, 200);
    assert.ok(redraws > before, "the TUI is drawn again when the page moves the flow");
    assert.match(shown[0].render(80).join("\n"), /MariaDB/, "the page's text, on pi's screen");
    shown[0].handleInput("!"); // typed at the TUI, after the page's text
    const seen = await stream.until((m) => onStream(stream, qid)?.view?.questions[0].typed === "MariaDB!", "the TUI's key on the page");
    assert.equal(onStream(stream, qid).view.state, "typing", JSON.stringify(seen));
    shown[0].handleInput("\r");
    const result = await asking;
    assert.equal(result.details.mode, "interactive");
    assert.deepEqual(result.details.answers, [{ id: "db", value: "MariaDB!", label: "MariaDB!", wasCustom: true }]);
  } finally {
    stream.close();
  }
});

test("web: every update names the pi its questions belong to — the project's folder and path, the session — for a person with several pis open", async () => {
  const stream = events();
  try {
    await stream.until((m) => m.pi, "an update naming this pi");
    const { pi } = stream.seen.at(-1);
    assert.equal(pi.project, "project");
    const home = homedir();
    assert.equal(pi.path, ctx.cwd.startsWith(home + sep) ? `~${ctx.cwd.slice(home.length)}` : ctx.cwd);
    assert.equal(pi.session, `pid ${process.pid}`, "no name or id known here: the pid, as pi-question pending says");
    assert.equal(stream.seen.at(-1).strings.WEB_SESSION, "session {s}");
  } finally {
    stream.close();
  }
});

// ---- the server alone, around a stand-in for the board -------------------------------------

/** startWebServer with a board whose waiting questions the test sets; `changed()` tells the
 * server (as a question arriving or ending would). */
async function standalone(where, idleMs) {
  const { startWebServer } = await importShim("elsewhere/web.ts");
  const subscribers = new Set();
  const board = {
    waiting: new Map(),
    subscribe(fn) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
    answer: () => ({ ok: false, code: "not_waiting", reason: "no such question" }),
    flow: () => undefined, // no flow: each question shows without one (view null)
    followFlows: () => () => undefined,
  };
  const server = await startWebServer({ board, host: "127.0.0.1", language: () => "en", where, idleMs });
  const key = new URL(server.url).pathname.split("/")[2];
  return { server, board, key, changed: () => [...subscribers].forEach((fn) => fn()) };
}

/** A raw connection asking for the events stream; `read` false: it never reads a byte. */
async function rawStream(port, key, read) {
  const { connect } = await import("node:net");
  const socket = connect({ host: "127.0.0.1", port });
  socket.on("error", () => undefined);
  const got = { bytes: 0, text: "", ended: false, socket };
  socket.on("end", () => (got.ended = true));
  socket.on("close", () => (got.ended = true));
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.write(`GET /q/${key}/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  const take = (d) => {
    got.bytes += d.length;
    if (got.text.length < 4096) got.text += d.toString("latin1", 0, 4096);
  };
  if (read) socket.on("data", take);
  else socket.pause();
  got.resume = () => {
    socket.on("data", take);
    socket.resume();
  };
  return got;
}

/** How much the kernel may hold for one loopback connection at most, both ends (Linux says; 64 MB
 * where it does not). */
function kernelSocketBytes() {
  try {
    const max = (name) => Number(readFileSync(`/proc/sys/net/ipv4/${name}`, "utf8").trim().split(/\s+/)[2]);
    const total = max("tcp_rmem") + max("tcp_wmem");
    if (Number.isFinite(total) && total > 0) return total;
  } catch {
    // not Linux
  }
  return 64 << 20;
}

test("web: a page that stops reading (a phone asleep) is dropped once its backlog passes webStreamBacklogBytes; a page that reads keeps following", async () => {
  const { server, board, key, changed } = await standalone();
  const streams = [];
  try {
    const size = 512 * 1024;
    const question = (n) => ({
      qid: `q${String(n).padStart(8, "0")}`,
      askedAt: n,
      settled: false,
      questions: [{ id: "big", prompt: "x".repeat(size) }],
    });
    board.waiting.set("q", question(0));
    const stalled = await rawStream(server.port, key, false);
    const reading = await rawStream(server.port, key, true);
    streams.push(stalled, reading);
    await until(() => reading.bytes > size, "the reading page's first snapshot");
    // Without the drop, everything written to the stalled page would wait in pi: make that far
    // more than the kernel's socket buffers, pi's allowance and a snapshot in flight together.
    const bound = addon.limits.webStreamBacklogBytes + kernelSocketBytes() + 2 * (size + 4096);
    const changes = Math.ceil((2 * bound) / size);
    for (let n = 1; n <= changes; n++) {
      const before = reading.bytes;
      board.waiting.set("q", question(n));
      changed();
      // Each change once the reading page has its snapshot: that page keeps up by construction.
      await until(() => reading.bytes >= before + size, `the reading page's snapshot ${n}`);
    }
    assert.equal(reading.ended, false, "the page that reads still follows");
    // The stalled page wakes up: it gets what was already on its way, then the end.
    stalled.resume();
    await until(() => stalled.ended, "pi ended the stalled stream");
    assert.ok(
      stalled.bytes < bound,
      `the stalled page got ${stalled.bytes} bytes of ${changes * size} written; at most ${bound} may have been held`,
    );
    assert.match(stalled.text, /^HTTP\/1\.1 200/);
  } finally {
    for (const s of streams) s.socket.destroy();
    server.close();
  }
});

test("web: a failure while building a live update (the board throws) reaches no client and ends nothing: pi serves on", async () => {
  const { server, board, key, changed } = await standalone();
  const reading = await rawStream(server.port, key, true);
  try {
    await until(() => /data: /.test(reading.text), "the first snapshot");
    const waiting = board.waiting;
    Object.defineProperty(board, "waiting", {
      configurable: true,
      get: () => {
        throw new Error("broken");
      },
    });
    changed();
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    Object.defineProperty(board, "waiting", { configurable: true, value: waiting });
    board.answer = () => {
      throw new Error("broken too");
    };
    const port = server.port;
    const answered = await new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          method: "POST",
          host: "127.0.0.1",
          port,
          path: `/q/${key}/answer`,
          agent: false,
          headers: { "content-type": "application/json" },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode));
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify({ qid: "q00000000", outcome: "cancelled" }));
    });
    assert.equal(answered, 400);
    const before = reading.bytes;
    waiting.set("q", { qid: "q00000001", askedAt: 1, settled: false, questions: [{ id: "a", prompt: "still here" }] });
    changed();
    await until(() => reading.bytes > before && reading.ended === false, "the next snapshot");
  } finally {
    reading.socket.destroy();
    server.close();
  }
});

// ---- connections: another local user must not hold pi's descriptors ---------------------------

/** A raw connection that sends nothing; `closed` turns true when the server closes it. */
async function idleConnection(port) {
  const { connect } = await import("node:net");
  const socket = connect({ host: "127.0.0.1", port });
  const got = { closed: false, socket };
  socket.on("error", () => undefined);
  socket.on("close", () => (got.closed = true));
  await new Promise((resolve) => socket.once("connect", resolve));
  return got;
}

test("web: at most webConnections at once — a flood without the token closes its own oldest, never the live page; the token still gets in", async () => {
  const { server, key } = await standalone();
  const cap = addon.limits.webConnections;
  assert.equal(cap, 256);
  const page = await rawStream(server.port, key, true);
  const flood = [];
  try {
    await until(() => /data: /.test(page.text), "the page's first snapshot");
    for (let i = 0; i < cap + 10; i++) flood.push(await idleConnection(server.port));
    // The page holds one place: cap - 1 of the flood fit, the 11 oldest were closed.
    await until(() => flood.filter((c) => c.closed).length >= 11, "the server closing connections past its cap");
    assert.deepEqual(
      flood.map((c, i) => (c.closed ? i : -1)).filter((i) => i >= 0),
      Array.from({ length: 11 }, (_, i) => i),
      "the oldest connections without the token are the ones closed",
    );
    assert.equal(page.ended, false, "the live page is never pushed out by connections without the token");
    // With the server full, a request with the token still gets its answer (it closes one more).
    const second = await rawStream(server.port, key, true);
    await until(() => /data: /.test(second.text), "a second page's first snapshot with the server full");
    second.socket.destroy();
    await until(() => flood[11].closed, "the next oldest connection without the token closed to let it in");
  } finally {
    for (const c of flood) c.socket.destroy();
    page.socket.destroy();
    server.close();
  }
});

test("web: a connection that sends nothing is closed once idle (webIdleMs; shortened here)", async () => {
  assert.ok(addon.limits.webIdleMs > 20000, "longer than the live page's 20 s ping");
  const { server } = await standalone(undefined, 200);
  const idle = await idleConnection(server.port);
  try {
    await until(() => idle.closed, "the idle connection closed by the server");
  } finally {
    idle.socket.destroy();
    server.close();
  }
});

// ---- settings --------------------------------------------------------------------------------

test("settings: web.enabled and web.host are read and bad values reported clearly", async () => {
  const { loadSettings } = await importShim("text/settings.ts");
  const home = mkdtempSync(join(tmpdir(), "pi-question-web-home-"));
  try {
    const file = join(home, ".pi", "agent", "question.json");
    mkdirSync(join(home, ".pi", "agent"), { recursive: true });
    const load = (value) => {
      writeFileSync(file, JSON.stringify({ web: value }));
      const warnings = [];
      return { s: loadSettings(home, (w) => warnings.push(w), home), warnings };
    };
    assert.deepEqual(load({}).s.web, { enabled: false, host: "127.0.0.1" });
    assert.deepEqual(load({ enabled: true, host: "192.168.1.20" }).s.web, { enabled: true, host: "192.168.1.20" });
    assert.deepEqual(load({ host: "::1" }).s.web.host, "::1");
    assert.deepEqual(load({ host: "my-laptop.local" }).s.web.host, "my-laptop.local");
    for (const [value, re] of [
      [{ enabled: "yes" }, /"web\.enabled" must be true or false/],
      [{ host: "" }, /"web\.host" must be an IP address or host name/],
      [{ host: "http://x" }, /"web\.host" must be .*neither an IP address nor a host name/],
      [{ port: 80 }, /"web\.port" must be enabled .* or host/],
      [true, /"web" must be an object like/],
    ]) {
      const { s, warnings } = load(value);
      assert.deepEqual(s.web, { enabled: false, host: "127.0.0.1" }, JSON.stringify(value));
      assert.equal(warnings.length, 1, JSON.stringify(value));
      assert.match(warnings[0], re);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test("settings: web.enabled and web.host in a project's .pi/question.json are ignored with a warning; the user's own count", async () => {
  const { loadSettings } = await importShim("text/settings.ts");
  const home = mkdtempSync(join(tmpdir(), "pi-question-web-home-"));
  const project = join(home, "repo");
  try {
    mkdirSync(join(home, ".pi", "agent"), { recursive: true });
    mkdirSync(join(project, ".pi"), { recursive: true });
    writeFileSync(join(project, ".pi", "question.json"), JSON.stringify({ web: { enabled: true, host: "0.0.0.0" }, language: "de" }));
    let warnings = [];
    let s = loadSettings(project, (w) => warnings.push(w), home);
    assert.deepEqual(s.web, { enabled: false, host: "127.0.0.1" });
    assert.equal(s.language, "de", "the project's other settings still count");
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /repo[\\/]\.pi[\\/]question\.json sets "web", which a project's settings may not.*ignored\.$/);
    // The user's own file turns it on; the project can neither widen nor switch it off again.
    writeFileSync(join(home, ".pi", "agent", "question.json"), JSON.stringify({ web: { enabled: true, host: "127.0.0.2" } }));
    writeFileSync(join(project, ".pi", "question.json"), JSON.stringify({ web: { host: "0.0.0.0" } }));
    warnings = [];
    s = loadSettings(project, (w) => warnings.push(w), home);
    assert.deepEqual(s.web, { enabled: true, host: "127.0.0.2" });
    assert.equal(warnings.length, 1);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test("web: a step names the question the page showed; once the flow moved on (another page took a tab), it lands nowhere and the page gets the flow as it is", async () => {
  shown = [];
  const two = tool.prepareArguments({
    questions: [
      { id: "db", label: "DB", prompt: "Which database?", options: ["SQLite", "Postgres"] },
      { id: "os", label: "OS", prompt: "Which OS?", options: ["Linux", "macOS"] },
    ],
  });
  const { asking, qid } = await ask("st-moved", two);
  const onPage = async (step, arg, question) => {
    const r = await post({ qid, step, index: typeof arg === "number" ? arg : null, text: null, question }, {}, `/q/${token}/step`);
    return { status: r.status, ...JSON.parse(r.body) };
  };
  // Page B goes to the second question; page A, still showing the first, picks its option 2.
  assert.equal((await onPage("go", 1, 0)).status, 200);
  const late = await onPage("pick", 1, 0);
  assert.equal(late.status, 409, JSON.stringify(late));
  assert.equal(late.code, "moved");
  assert.equal(late.view.current, 1, "the page is given the flow as it is now");
  assert.equal(late.view.questions[1].answered, false, "the pick did not land on the second question");
  assert.equal((await onPage("pick", 0, "one")).status, 400, "question must be a number");
  // Steps for the question shown are taken.
  assert.equal((await onPage("pick", 0, 1)).status, 200);
  assert.equal((await onPage("go", 0, 2)).status, 200);
  assert.equal((await onPage("pick", 1, 0)).status, 200);
  const done = await onPage("submit", null, 2);
  assert.equal(done.done, true, JSON.stringify(done));
  assert.equal((await asking).details.answers.map((a) => a.value).join(","), "Postgres,Linux");
});

test("web: the pi's folder and session names reach the page sanitized, one line each", async () => {
  const hostile = "\u001b]0;owned\u0007proj\nect\u202e";
  const { server, key } = await standalone(() => ({ project: hostile, path: `/tmp/${hostile}`, session: JSON.stringify(hostile) }));
  try {
    const { port } = new URL(server.url);
    const state = await new Promise((resolve, reject) => {
      let got = "";
      const req = httpRequest({ host: "127.0.0.1", port, path: `/q/${key}/events`, agent: false }, (res) => {
        res.setEncoding("utf8");
        res.on("data", (d) => {
          got += d;
          const m = /^data: (.*)$/m.exec(got);
          if (m) {
            resolve(JSON.parse(m[1]));
            req.destroy();
          }
        });
      });
      req.on("error", reject);
      req.end();
    });
    for (const text of [state.pi.project, state.pi.path, state.pi.session]) {
      assert.ok(!/[\u0000-\u001f\u007f-\u009f\u202e]/.test(text), JSON.stringify(text));
      assert.match(text, /proj/);
    }
  } finally {
    server.close();
  }
});

test("web: a host that cannot say which pi it is (its callback throws) still serves the page's updates, naming no pi", async () => {
  const { server, key } = await standalone(() => {
    throw new Error("this context is stale");
  });
  try {
    const { port } = new URL(server.url);
    const state = await new Promise((resolve, reject) => {
      let got = "";
      const req = httpRequest({ host: "127.0.0.1", port, path: `/q/${key}/events`, agent: false }, (res) => {
        res.setEncoding("utf8");
        res.on("data", (d) => {
          got += d;
          const m = /^data: (.*)$/m.exec(got);
          if (m) {
            resolve({ status: res.statusCode, state: JSON.parse(m[1]) });
            req.destroy();
          }
        });
        res.on("end", () => reject(new Error(`no update: ${res.statusCode} ${got}`)));
      });
      req.on("error", reject);
      req.end();
    });
    assert.equal(state.status, 200);
    assert.equal(state.state.type, "state");
    assert.equal(state.state.pi, undefined);
  } finally {
    server.close();
  }
});

test("web: the page skips a question and writes one note on the whole call, in steps; the model reads both", async () => {
  await questions("web off");
  await turnOn();
  shown = [];
  const TWO = tool.prepareArguments({
    questions: [
      { id: "db", prompt: "Which database?", options: ["SQLite", "Postgres"] },
      { id: "name", prompt: "What is it called?" },
    ],
  });
  const { asking, qid } = await ask("skip1", TWO);
  const skipped = await stepOnPage(qid, "skip", "chat");
  assert.equal(skipped.status, 200, JSON.stringify(skipped));
  assert.equal(skipped.view.questions[0].skipped, "chat");
  assert.equal((await stepOnPage(qid, "go", 1)).status, 200);
  assert.equal((await stepOnPage(qid, "type", "Orbit")).view.state, "review");
  assert.equal((await stepOnPage(qid, "skip", "skipped")).status, 400, "not on the review");
  assert.equal((await stepOnPage(qid, "note", "decide the db with ops")).view.callNote, "decide the db with ops");
  assert.deepEqual(await stepOnPage(qid, "submit"), { status: 200, ok: true, done: true, outcome: "answered" });
  const result = await asking;
  assert.equal(
    result.content[0].text.split("\n").slice(0, 3).join("\n"),
    "db: the user will answer this one in the chat\nname: user wrote: Orbit\nnote on all the answers: decide the db with ops",
  );
  assert.deepEqual(result.details.skipped, [{ id: "db", reason: "chat" }]);
  assert.equal(result.details.note, "decide the db with ops");
  assert.equal(result.details.mode, "web");
});
