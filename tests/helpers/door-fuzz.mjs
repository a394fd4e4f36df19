// door-fuzz.mjs — hostile clients for the doors of a running pi: a seeded generator of broken
// and malicious relay lines and HTTP requests, and the raw clients that throw them at the relay
// socket and the web page's server. Everything a case sends is decided by the PRNG, so a seed
// replays the same sequence of cases (the interleaving of concurrent workers is the machine's).
//
// One rule holds by construction: no generated message may legitimately answer the question that
// waits. Whatever names the real question's id (the id itself, or any string holding it) carries
// either an outcome that is not one of answered/declined/cancelled/discuss (not even by case or
// spacing), or — with a valid outcome — answers that the core refuses whatever else it accepts: a
// non-null, non-empty JSON value that is not an object, or an object with a key that names no
// question ("zz…"). Everything else goes to ids that do not exist.
import { createConnection } from "node:net";

/** A small, fast, seedable PRNG (mulberry32) and the choices the generators make with it. */
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const r = {
    next,
    int: (n) => Math.floor(next() * n),
    range: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: (list) => list[Math.floor(next() * list.length)],
    hex: (n) => Array.from({ length: n }, () => "0123456789abcdef"[Math.floor(next() * 16)]).join(""),
    bytes: (n) => {
      const b = Buffer.allocUnsafe(n);
      for (let i = 0; i < n; i++) b[i] = Math.floor(next() * 256);
      return b;
    },
    /** A child PRNG for worker `i`: its own sequence, still fixed by the seed. */
    fork: (i) => prng((Math.floor(next() * 4294967296) ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0),
  };
  return r;
}

const VALID_OUTCOMES = ["answered", "declined", "cancelled", "discuss"];
/** Outcome strings no reading of the protocol takes (never a valid one by case or spacing). */
const BAD_OUTCOMES = [
  "",
  "answer",
  "accepted",
  "yes",
  "nope",
  "timed_out",
  "interrupted",
  "withdrawn",
  "null",
  "0",
  "ok",
  "\u0000",
  "answered!",
  "decline d",
  "x".repeat(5000),
  "\ud800",
];

// ---- JSON text (built as text: nesting far deeper than this process's own JSON.stringify goes) --

const DEPTHS = [2, 33, 100, 1000, 6000, 6000, 20000, 100000];
const HUGE_NUMBERS = [
  "1e309",
  "-1e309",
  "1e-400",
  "9".repeat(400),
  "-0",
  "123456789012345678901234567890",
  `0.${"0".repeat(1000)}1`,
  "9007199254740993",
  "1E+999999999",
  "-9223372036854775809",
  "4294967296",
  "1.7976931348623157e308",
];
const ODD_STRINGS = [
  '""',
  '"\\u0000"',
  '"\\ud800"',
  '"\\udfff\\ud800"',
  '"\\n\\r\\t"',
  '"\\u001b[31mred"',
  '"__proto__"',
  '"constructor"',
  '"‮rtl"',
  '"😀"',
  '"中文"',
  '"\\"quoted\\""',
  '"\\\\"',
];
const KEYS = [
  "db",
  "selected",
  "wrote",
  "note",
  "__proto__",
  "constructor",
  "toString",
  "prototype",
  "",
  "qid",
  "type",
  "secret",
  "0",
  "length",
];

/** Nesting `n` deep of arrays, objects or both, as JSON text. */
export function deepJson(r, n = r.pick(DEPTHS)) {
  switch (r.int(3)) {
    case 0:
      return "[".repeat(n) + "]".repeat(n);
    case 1:
      return '{"a":'.repeat(n) + "0" + "}".repeat(n);
    default:
      return '[{"x":'.repeat(n >> 1) + "1" + "}]".repeat(n >> 1);
  }
}

/** Any JSON value, as text: deep, huge, odd, long, or a small tree of those. */
export function junkJson(r, depth = 0) {
  if (r.chance(0.25)) return deepJson(r);
  switch (r.int(depth > 2 ? 6 : 9)) {
    case 0:
      return deepJson(r);
    case 1:
      return r.pick(HUGE_NUMBERS);
    case 2:
      return r.pick(["true", "false", "null", "0", "-1", "3.5", "{}", "[]"]);
    case 3:
      return r.pick(ODD_STRINGS);
    case 4:
      return JSON.stringify("s".repeat(r.pick([1, 100, 5000, 70000])));
    case 5:
      return JSON.stringify(r.bytes(r.range(1, 64)).toString("latin1"));
    case 6:
      return `[${Array.from({ length: r.range(0, 5) }, () => junkJson(r, depth + 1)).join(",")}]`;
    case 7:
      return `{${Array.from({ length: r.range(0, 5) }, () => `${JSON.stringify(r.pick(KEYS))}:${junkJson(r, depth + 1)}`).join(",")}}`;
    default:
      return `{"db":${r.pick([`{"selected":${junkJson(r, depth + 1)}}`, `{"selected":["Postgres"],"wrote":${junkJson(r, depth + 1)}}`, junkJson(r, depth + 1)])}}`;
  }
}

/** Answers the core refuses for any question (see the rule at the top), as JSON text. */
export function refusedAnswers(r) {
  switch (r.int(4)) {
    case 0:
      return deepJson(r); // deep arrays and objects ({"a":…}: "a" names no question)
    case 1:
      return r.pick([
        "[]",
        "[1]",
        '["Postgres"]',
        '[{"selected":["Postgres"]}]',
        "5",
        "-1e309",
        '"Postgres"',
        "true",
        ...HUGE_NUMBERS.slice(0, 4),
      ]);
    case 2:
      return `{"zz${r.hex(4)}":${junkJson(r)}}`;
    default:
      return `{"db":${junkJson(r)},"zz${r.hex(4)}":${junkJson(r)}}`;
  }
}

/** Whether a value (as text) holds the real question's id anywhere. */
const naming = (text, qid) => text.includes(qid);

/**
 * The three fields of an answer (qid, outcome, answers) as JSON text fragments (undefined: the key
 * is left out), made safe by construction for the real question `qid`.
 */
export function answerFields(r, qid, sane = false) {
  const id = (
    sane
      ? r.pick([() => JSON.stringify(qid), () => JSON.stringify(`q${r.hex(8)}`)])
      : r.pick([
          () => JSON.stringify(qid),
          () => JSON.stringify(qid),
          () => JSON.stringify(`q${r.hex(8)}`),
          () => JSON.stringify(` ${qid}`),
          () => JSON.stringify(qid.toUpperCase()),
          () => JSON.stringify(qid + "\u0000"),
          () => `[${JSON.stringify(qid)}]`,
          () => junkJson(r),
          () => undefined,
          () => JSON.stringify("q".repeat(r.pick([0, 9, 100000]))),
        ])
  )();
  const real = id !== undefined && naming(id, qid);
  let outcome;
  let answers;
  if (real && r.chance(0.5)) {
    // The real question, with an outcome nothing takes; the answers anything at all.
    const bad = () => JSON.stringify(r.pick(BAD_OUTCOMES));
    outcome = (
      sane ? bad : r.pick([bad, bad, bad, () => r.pick(HUGE_NUMBERS), () => deepJson(r), () => "null", () => "{}", () => undefined])
    )();
    answers = r.chance(0.8) ? junkJson(r) : undefined;
  } else if (real) {
    // The real question, with a valid outcome and answers that the core refuses.
    outcome = JSON.stringify(r.pick(VALID_OUTCOMES));
    answers = refusedAnswers(r);
  } else {
    const good = () => JSON.stringify(r.pick(VALID_OUTCOMES));
    outcome = (sane ? good : r.pick([good, good, () => JSON.stringify(r.pick(BAD_OUTCOMES)), () => junkJson(r), () => undefined]))();
    answers = r.chance(0.9) ? junkJson(r) : undefined;
  }
  return { id, outcome, answers };
}

/** `{"k":v,…}` from [key, valueText] pairs (undefined values left out), in the order given. */
export function objectText(pairs) {
  return `{${pairs
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${JSON.stringify(k)}:${v}`)
    .join(",")}}`;
}

function shuffle(r, list) {
  for (let i = list.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

// ---- the relay ---------------------------------------------------------------------------------

const QUESTION_ARGS = JSON.stringify({ questions: [{ id: "zz", prompt: "A fuzzed question", options: ["a", "b"] }] });

/** One relay message as a line of JSON text (not yet framed). `secret`: the right credential. */
export function relayMessage(r, { secret, qid }) {
  if (r.chance(0.4)) {
    // Well-formed but for its content: the right secret first, an answer with string fields.
    const { id, outcome, answers } = answerFields(r, qid, true);
    const discussion = r.chance(0.3) ? junkJson(r) : undefined;
    return objectText([
      ["secret", JSON.stringify(secret)],
      ...shuffle(r, [
        ["type", '"answer"'],
        ["qid", id],
        ["outcome", outcome],
        ["answers", answers],
        ["discussion", discussion],
      ]),
    ]);
  }
  const secretValue = r.pick([
    ...Array(9).fill(() => JSON.stringify(secret)),
    () => JSON.stringify(r.hex(64)),
    () => JSON.stringify(secret.slice(0, 63)),
    () => JSON.stringify(secret + "0"),
    () => JSON.stringify(secret.toUpperCase()),
    () => JSON.stringify(""),
    () => junkJson(r),
    () => undefined,
  ])();
  const type = r.pick([
    ...Array(6).fill(() => '"answer"'),
    () => '"list"',
    () => '"watch"',
    () => '"ask"',
    () => '"ANSWER"',
    () => '""',
    () => JSON.stringify(r.bytes(8).toString("latin1")),
    () => junkJson(r),
    () => undefined,
  ])();
  const { id, outcome, answers } = answerFields(r, qid);
  const args = r.pick([
    () => junkJson(r),
    () => JSON.stringify(junkJson(r)),
    () => JSON.stringify(QUESTION_ARGS.slice(0, r.int(QUESTION_ARGS.length))),
    () => JSON.stringify(`{"questions":${deepJson(r)}}`),
    () => JSON.stringify(QUESTION_ARGS), // a well-formed question: it waits behind the real one until its connection goes
    () => undefined,
  ])();
  const asker = r.pick([
    () => junkJson(r),
    () =>
      objectText([
        ["name", junkJson(r)],
        ["pid", junkJson(r)],
        ["cwd", junkJson(r)],
      ]),
    () => undefined,
  ])();
  const discussion = r.pick([() => junkJson(r), () => JSON.stringify("words"), () => JSON.stringify("w".repeat(5000)), () => undefined])();
  const rest = shuffle(r, [
    ["type", type],
    ["qid", id],
    ["outcome", outcome],
    ["answers", answers],
    ["discussion", r.chance(0.5) ? discussion : undefined],
    ["args", r.chance(0.4) ? args : undefined],
    ["asker", r.chance(0.3) ? asker : undefined],
    ...(r.chance(0.1) ? [["__proto__", junkJson(r)]] : []),
  ]);
  // The secret first, as the protocol wants it, most of the time; else somewhere later, or twice.
  if (r.chance(0.8)) return objectText([["secret", secretValue], ...rest]);
  if (r.chance(0.5)) return objectText([...rest, ["secret", secretValue]]);
  return objectText([["secret", JSON.stringify(r.hex(64))], ...rest, ["secret", secretValue]]);
}

/**
 * One relay case: what to send on one connection, and how to behave. `send` is a list of chunks
 * (Buffers); `then` is "wait" (read until the server closes, up to `holdMs`), "end" (half-close
 * after sending, then wait), "destroy" (drop the connection at once) or "hold" (say nothing more
 * and keep it open for `holdMs`).
 */
export function relayCase(r, ctx) {
  const line = () => relayMessage(r, ctx);
  const kind = r.pick([
    "line",
    "line",
    "line",
    "line",
    "line",
    "two-lines",
    "truncated",
    "no-newline",
    "binary",
    "long",
    "long-unverified",
    "split",
    "idle",
    "crlf",
    "bom",
    "many",
  ]);
  const then = r.pick(["wait", "wait", "end", "destroy", "hold"]);
  const holdMs = r.pick([50, 200, 1000]);
  let send;
  switch (kind) {
    case "two-lines":
      send = [Buffer.from(`${line()}\n${line()}\n`)];
      break;
    case "truncated": {
      const text = line();
      send = [Buffer.from(text.slice(0, r.int(text.length)))];
      break;
    }
    case "no-newline":
      send = [Buffer.from(line())];
      break;
    case "binary":
      send = [r.bytes(r.pick([1, 16, 4096, 65536])), ...(r.chance(0.5) ? [Buffer.from("\n")] : [])];
      break;
    case "long": {
      // A long line after the right secret: one string field of up to 2 MB.
      const n = r.pick([5000, 70000, 1 << 20, 2 << 20]);
      send = [
        Buffer.from(`{"secret":${JSON.stringify(ctx.secret)},"type":"answer","qid":"q${r.hex(8)}","outcome":"answered","answers":{"zz":"`),
        Buffer.alloc(n, 0x78),
        Buffer.from(r.chance(0.7) ? '"}}\n' : ""),
      ];
      break;
    }
    case "long-unverified":
      // Kilobytes before any secret (or with none at all).
      send = [
        Buffer.alloc(r.pick([4097, 20000, 300000]), r.pick([0x20, 0x7b, 0x5b, 0x61])),
        Buffer.from(r.chance(0.5) ? `,"secret":${JSON.stringify(ctx.secret)}}\n` : "\n"),
      ];
      break;
    case "split": {
      // One line in many small writes (the secret itself cut across them).
      const text = Buffer.from(`${line()}\n`);
      send = [];
      for (let at = 0; at < text.length;) {
        const n = r.range(1, 64);
        send.push(text.subarray(at, at + n));
        at += n;
      }
      break;
    }
    case "idle":
      send = [];
      break;
    case "crlf":
      send = [Buffer.from(`${line()}\r\n`)];
      break;
    case "bom":
      send = [Buffer.from(`\ufeff${line()}\n`)];
      break;
    case "many":
      send = [Buffer.from(Array.from({ length: r.range(2, 50) }, line).join("\n") + "\n")];
      break;
    default:
      send = [Buffer.from(`${line()}\n`)];
  }
  return { door: "relay", kind, then, holdMs, send, count: kind === "idle" && r.chance(0.3) ? r.pick([20, 100, 300]) : 1 };
}

/** A short description of a case, for the record kept of the last ones sent. */
export function describe(c) {
  const first = Buffer.concat(c.send.slice(0, 2))
    .toString("utf8", 0, 160)
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, "·");
  const size = c.send.reduce((n, b) => n + b.length, 0);
  return `${c.door} ${c.kind}/${c.then}${c.count > 1 ? ` ×${c.count}` : ""} ${size} B: ${first}${size > 160 ? "…" : ""}`;
}

/** Writes chunks in order, each after the previous one was taken (false once the socket is gone). */
async function writeAll(socket, chunks) {
  for (const chunk of chunks) {
    if (socket.destroyed) return false;
    const ok = socket.write(chunk);
    if (!ok) {
      await new Promise((resolve) => {
        const done = () => {
          socket.off("drain", done);
          socket.off("close", done);
          resolve();
        };
        socket.on("drain", done);
        socket.on("close", done);
      });
    }
  }
  return !socket.destroyed;
}

/**
 * Runs one case against a stream endpoint (`connect()` opens a socket); resolves with the bytes
 * the server sent back. Every socket it opens is closed before it resolves; `live` holds the ones
 * open (the caller destroys them when the time is up).
 */
export function runCase(c, connect, live) {
  const one = () =>
    new Promise((resolve) => {
      const socket = connect();
      live.add(socket);
      const got = [];
      let timer;
      const finish = () => {
        clearTimeout(timer);
        live.delete(socket);
        socket.destroy();
        resolve(Buffer.concat(got));
      };
      socket.on("data", (d) => got.push(d));
      socket.on("error", () => undefined);
      socket.on("close", finish);
      socket.on("connect", async () => {
        if (!(await writeAll(socket, c.send))) return;
        if (c.then === "destroy") return finish();
        if (c.then === "end") socket.end();
        timer = setTimeout(finish, c.holdMs);
      });
    });
  return c.count > 1 ? Promise.all(Array.from({ length: c.count }, one)).then((all) => Buffer.concat(all)) : one();
}

// ---- the web page's server ---------------------------------------------------------------------

const METHODS = ["GET", "GET", "POST", "POST", "POST", "HEAD", "PUT", "OPTIONS", "DELETE", "CONNECT", "G\u0000T", "POS T", "get", ""];
const CONTENT_TYPES = [
  "application/json",
  "application/json",
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "text/plain",
  "multipart/form-data; boundary=x",
  "application/x-www-form-urlencoded",
  "application/json, text/plain",
  "",
  "application/jsonx",
  undefined,
];

/** One HTTP request to the page's server, as raw bytes, built for the server at `port` with `token`. */
export function webCase(r, { port, token, qid }) {
  // Half the requests are well-formed HTTP from the right Host (only the body or the token is
  // wrong), so the server's own checks and the answer path are reached, not just the HTTP parser.
  const sane = r.chance(0.5);
  const wrongToken = () =>
    r.pick([
      `${token}x`,
      token.slice(0, -1),
      "A".repeat(token.length),
      "",
      token.toLowerCase(),
      encodeURIComponent(`${token}/`),
      "%00",
      r.hex(43),
    ]);
  const pathToken = () => (r.chance(0.5) ? token : wrongToken());
  const path = (
    sane
      ? r.pick([
          () => `/q/${token}/answer`,
          () => `/q/${token}/answer`,
          () => "/answer",
          () => "/answer",
          () => `/q/${token}`,
          () => `/q/${token}/events`,
          () => `/q/${wrongToken()}/answer`,
        ])
      : r.pick([
          () => "/",
          () => "/q/",
          () => `/q/${pathToken()}`,
          () => `/q/${pathToken()}/events`,
          () => "/answer",
          () => "/answer",
          () => `/q/${pathToken()}/answer`,
          () => `/q/${pathToken()}/answer`,
          () => `/q/${token}/answer/x`,
          () => `/q/${token}?x=${r.hex(4)}`,
          () => `//q/${token}`,
          () => `/q/${token}%2Fevents`,
          () => `/q/${token}/../${token}/events`,
          () => `/${"x".repeat(r.pick([5000, 20000, 100000]))}`,
          () => "*",
          () => `http://evil.example/q/${token}`,
          () => `/q/${r.bytes(8).toString("latin1")}`,
        ])
  )();
  const method = sane ? r.pick(["GET", "POST", "POST"]) : r.pick(METHODS);
  const version = sane ? "HTTP/1.1" : r.pick(["HTTP/1.1", "HTTP/1.1", "HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/9.9", "HTP/1.1", ""]);
  const host = sane
    ? `127.0.0.1:${port}`
    : r.pick([
        `127.0.0.1:${port}`,
        `127.0.0.1:${port}`,
        `127.0.0.1:${port}`,
        `localhost:${port}`,
        `evil.example:${port}`,
        "127.0.0.1:1",
        `[::1]:${port}`,
        "",
        undefined,
      ]);

  // The body: an answer as the page sends it, or something else.
  let body = "";
  if (method !== "GET" || r.chance(0.1)) {
    const tokenValue = r.pick([
      () => JSON.stringify(token),
      () => JSON.stringify(token),
      () => JSON.stringify(wrongToken()),
      () => junkJson(r),
      () => undefined,
    ])();
    const { id, outcome, answers } = answerFields(r, qid, sane && r.chance(0.7));
    const pairs = shuffle(r, [
      ["qid", id],
      ["outcome", outcome],
      ["answers", answers],
      ...(r.chance(0.2) ? [["discussion", junkJson(r)]] : []),
    ]);
    body = (
      sane && r.chance(0.7)
        ? () => objectText([["token", tokenValue], ...pairs])
        : r.pick([
            () => objectText([["token", tokenValue], ...pairs]),
            () => objectText([["token", tokenValue], ...pairs]),
            () => objectText([...pairs, ["token", tokenValue]]),
            () => junkJson(r),
            () => deepJson(r),
            () => r.bytes(r.pick([1, 100, 5000])).toString("latin1"),
            () => objectText([["token", tokenValue], ...pairs]).slice(0, r.range(1, 40)),
            () =>
              `{"token":${JSON.stringify(token)},"qid":"q${r.hex(8)}","outcome":"answered","answers":{"zz":"${"x".repeat(r.pick([5000, 100000, 1 << 20]))}"}}`,
            () => `${" ".repeat(5000)}{"token":${JSON.stringify(token)}}`,
          ])
    )();
  }
  const bodyBytes = Buffer.from(body, "latin1");

  const headers = [];
  if (host !== undefined) headers.push(`Host: ${host}`);
  if (!sane && r.chance(0.05)) headers.push(`Host: evil.example:${port}`);
  const type = sane && r.chance(0.8) ? "application/json" : r.pick(CONTENT_TYPES);
  if (type !== undefined && (body || r.chance(0.2))) headers.push(`Content-Type: ${type}`);
  const lengthKind = sane
    ? r.pick(["right", "right", "right", "chunked"])
    : r.pick(["right", "right", "right", "right", "none", "huge", "negative", "junk", "twice", "short", "long", "chunked", "chunked-bad"]);
  let payload = bodyBytes;
  let abortAfterBody = false;
  switch (lengthKind) {
    case "right":
      if (body) headers.push(`Content-Length: ${bodyBytes.length}`);
      break;
    case "huge":
      headers.push(`Content-Length: ${r.pick(["99999999999", "61026497", "1e9", "18446744073709551616", "9007199254740993"])}`);
      abortAfterBody = true;
      break;
    case "negative":
      headers.push("Content-Length: -1");
      break;
    case "junk":
      headers.push(`Content-Length: ${r.pick(["abc", "", " 5", "0x10", "1,2", "\u0000"])}`);
      break;
    case "twice":
      headers.push(`Content-Length: ${bodyBytes.length}`, `Content-Length: ${bodyBytes.length + 1}`);
      break;
    case "short":
      headers.push(`Content-Length: ${Math.max(0, bodyBytes.length - r.range(1, 10))}`);
      break;
    case "long":
      headers.push(`Content-Length: ${bodyBytes.length + r.range(1, 1000)}`);
      abortAfterBody = r.chance(0.5);
      break;
    case "chunked":
      headers.push("Transfer-Encoding: chunked");
      payload = Buffer.concat([Buffer.from(`${bodyBytes.length.toString(16)}\r\n`), bodyBytes, Buffer.from("\r\n0\r\n\r\n")]);
      break;
    case "chunked-bad":
      headers.push("Transfer-Encoding: chunked");
      payload = Buffer.concat([
        Buffer.from(`${r.pick(["zz", "-1", "fffffffffffffffff", "10"])}\r\n`),
        bodyBytes,
        Buffer.from(r.chance(0.5) ? "\r\n0\r\n\r\n" : ""),
      ]);
      break;
    default:
      break;
  }
  if (r.chance(0.3)) headers.push(`Origin: ${r.pick([`http://127.0.0.1:${port}`, "http://evil.example", "null", ""])}`);
  if (r.chance(0.2)) headers.push(`Sec-Fetch-Site: ${r.pick(["same-origin", "cross-site", "none", ""])}`);
  if (r.chance(0.2))
    headers.push(`${r.pick(["Authorization: Bearer ", "X-Token: ", "X-Pi-Question-Token: "])}${r.chance(0.5) ? token : wrongToken()}`);
  if (r.chance(0.05)) headers.push(`X-Big: ${"b".repeat(r.pick([9000, 20000, 70000]))}`);
  if (r.chance(0.05)) for (let i = 0; i < 100; i++) headers.push(`X-H${i}: ${i}`);
  if (r.chance(0.05)) headers.push(`X-Bad: ${r.bytes(16).toString("latin1")}`);
  if (r.chance(0.1)) headers.push("Expect: 100-continue");
  if (r.chance(0.2)) headers.push(`Connection: ${r.pick(["close", "keep-alive", "upgrade"])}`);
  if (r.chance(0.05)) headers.push("Upgrade: websocket");
  const head = `${method} ${path} ${version}\r\n${headers.join("\r\n")}\r\n\r\n`;
  let request = Buffer.concat([Buffer.from(head, "latin1"), payload]);

  const kind = sane
    ? r.pick(["whole", "whole", "whole", "split", "pipelined"])
    : r.pick(["whole", "whole", "whole", "whole", "cut", "pipelined", "garbage", "split", "headers-only", "swarm"]);
  let send = [request];
  switch (kind) {
    case "cut":
      send = [request.subarray(0, r.int(request.length))];
      abortAfterBody = true;
      break;
    case "pipelined":
      send = [Buffer.concat([request, Buffer.from(`GET /q/${pathToken()} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`), request])];
      break;
    case "garbage":
      send = [
        r.pick([
          () => r.bytes(r.pick([1, 64, 4096, 70000])),
          () => Buffer.from("\r\n\r\n\r\n"),
          () => Buffer.from(`GET /q/${token}\r\n\r\n`),
          () => Buffer.from(`${deepJson(r)}\r\n\r\n`),
        ])(),
      ];
      break;
    case "split": {
      send = [];
      for (let at = 0; at < request.length;) {
        const n = r.range(1, 512);
        send.push(request.subarray(at, at + n));
        at += n;
      }
      break;
    }
    case "headers-only":
    case "swarm":
      send = [Buffer.from(head.slice(0, head.length - r.range(1, 4)), "latin1")];
      break;
    default:
      break;
  }
  const then =
    kind === "swarm" ? "hold" : abortAfterBody ? r.pick(["destroy", "wait"]) : r.pick(["wait", "wait", "wait", "end", "destroy"]);
  // A swarm: many connections at once, each stopping inside its headers until it is dropped.
  const count = kind === "swarm" ? r.pick([20, 100, 200]) : 1;
  return { door: "web", kind: `${kind}:${method || "-"}:${lengthKind}`, then, holdMs: r.pick([100, 300, 1000]), send, count };
}

/** Opens a TCP connection to the web server. */
export const tcp = (port) => () => createConnection({ host: "127.0.0.1", port });
