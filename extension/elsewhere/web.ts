// web.ts — the waiting questions on a page in a browser (a phone is the point): a small HTTP
// server in the pi process, off until `/questions web` or the setting `"web": { "enabled": true }`
// turns it on. It listens on 127.0.0.1 (another address only when the settings name one) on a
// random port, and is unref'ed: it never keeps pi alive and stops when pi exits or is turned off.
//
//   GET  /q/<token>          the page (extension/elsewhere/web/page.html with page.js inlined: one response, no external assets;
//                            a fresh CSP nonce per response for its one script and one style)
//   GET  /q/<token>/events   server-sent events: the waiting questions, each with the state of
//                            its question flow, again on every change
//   POST /q/<token>/step     {"qid","step","index","text","question","ticked"}: one step of the
//                            question flow (the page); "question", the one the page showed, refuses
//                            a step the flow has moved away from (409 "moved", with the flow's
//                            view); "ticked" makes a toggle set that state (a no-op when it holds)
//   POST /q/<token>/answer   {"qid","outcome","answers"} as application/json (whole answers: scripts)
//   POST /answer             the same with the token as the body's first key (older form; kept
//                            for scripts, but it waits in the rate limit like any tokenless request)
//
// The token (QT_WEB_TOKEN_BYTES random bytes) is the only credential, and it is checked first:
// in the path, before anything else is done or a body is read, so a request that carries it is
// never held back by what other clients do (every local client and every SSH tunnel shares the
// address 127.0.0.1). Only requests without a valid token in their path meet the rate limit: a
// bucket of QT_WEB_RATE_BURST requests per client address, refilled at QT_WEB_RATE_PER_MINUTE.
// No cookie exists that another site could make a browser send. A POST must come from the page's
// own origin (Origin and Sec-Fetch-Site checked), be application/json and at most
// QT_WEB_MAX_BODY_BYTES (derived: every answer a person can give fits; the older form reads past
// QT_WEB_UNVERIFIED_BODY_BYTES only once the body has begun with the token). Every request must
// name the server in Host by an IP address, "localhost" or the configured host, with any port
// (an SSH tunnel listens on another one; a DNS name chosen by someone else is how rebinding works).
// At most QT_WEB_MAX_CONNECTIONS connections are open at once: at the cap a new one closes the
// oldest that has not carried a request with the token (so clients without it cannot push out a
// live page, and cannot hold pi's descriptors), or is closed itself; a connection idle for
// QT_WEB_IDLE_MS (nothing read or written; a live page is pinged every 20 s) is closed.
// At most QT_WEB_MAX_EVENT_STREAMS pages follow the live updates: a new one ends the oldest (the
// page someone just opened is the one in front of them), and a stream with more than
// QT_WEB_STREAM_BACKLOG_BYTES unsent (a page that stopped reading) is dropped; a page reconnects
// and gets a fresh snapshot. An answer goes through the board (board.ts) exactly as one from
// another terminal does (the C core validates it; the first answer from anywhere wins, a later
// one is told "already answered").
//
// The page is one more face of the question's one flow (board/flow.ts; qt_engine.h "the question
// flow as steps"), as pi's TUI and RPC dialogs are: each step a page posts is applied to the
// board's flow of that question — the very engine pi's TUI shows — and every page is sent its
// view, again whenever any face moves it. So all open pages and pi's own screen show one state
// (text typed here is in the TUI, a tick there is on the page), and the rules (what ends the
// call, what asks "Discard N answers?" first, the review, talk first, the filter) are the
// engine's alone. Once a step ends the flow, its outcome and answers go to the board as a page
// answer.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { isIP, type Socket } from "node:net";
import { networkInterfaces } from "node:os";
import { addon } from "../addon.ts";
import { withOptionObjects } from "../question-types.ts";
import type { FlowStep, FlowView, NativeEngine } from "../addon-types.ts";
import { type Board, secretGiven, type Waiting } from "../board/board.ts";
import { handOff } from "../board/flow.ts";
import { languageOf, strings } from "../text/i18n.ts";
import { SECRET } from "../text/text.ts";

/** The strings the page shows (the rest of the table stays home). */
const PAGE_STRINGS = [
  "WEB_TITLE",
  "WEB_SESSION",
  "WEB_NONE",
  "WEB_SUBMIT",
  "WEB_CANCEL",
  "WEB_NOTE",
  "WEB_PREVIEW",
  "WEB_CLOSED",
  "WEB_OFFLINE",
  "WEB_DISPLACED",
  "WEB_OFF",
  "SOMETHING_ELSE",
  "DIALOG_PLACEHOLDER",
  "DIALOG_DECLINE",
  "DIALOG_DISCUSS",
  "DIALOG_SKIP",
  "DIALOG_SKIP_CHAT",
  "DIALOG_UNSKIP",
  "CALL_NOTE_PROMPT",
  "DISCUSS_PROMPT",
  "ELSEWHERE_TAKEN",
  "ELSEWHERE_ALREADY",
  "ELSEWHERE_NOT_WAITING",
  "WEB_TOO_LARGE",
  "WEB_NOT_SENT",
  "HELP_FILTER",
  "NO_MATCHES",
  "TAB_REVIEW",
  "REVIEW_TITLE",
  "NOTE_PREFIX",
  "HELP_YES",
  "HELP_NO",
  "HELP_SEND",
  "HELP_BACK_TO_QUESTION",
];

const PAGE_FILE = new URL("./web/page.html", import.meta.url);
const PAGE_SCRIPT = new URL("./web/page.js", import.meta.url);

/** The page: page.html around its script (page.js, a checked file of its own), which goes in
 * where {{SCRIPT}} stands once the page's own placeholders are filled, so it stays one response
 * under one nonce and nothing in the script is ever taken for a placeholder. The script may not
 * close its element early. */
function pageParts(): { before: string; script: string; after: string } {
  const script = readFileSync(PAGE_SCRIPT, "utf8");
  if (/<\/script/i.test(script)) throw new Error("web/page.js may not contain </script");
  const parts = readFileSync(PAGE_FILE, "utf8").split("{{SCRIPT}}");
  if (parts.length !== 2) throw new Error("web/page.html must hold {{SCRIPT}} exactly once");
  return { before: parts[0], script, after: parts[1] };
}

/** A flow's view as the page gets it: a secret answer's text (which the view's answers object
 * carries for the hand-off in this process) left out — the page may be on another device. */
function pageView(engine: { view(): string }): FlowView {
  const v = JSON.parse(engine.view()) as FlowView & {
    questions: Array<{ id: string; secret?: boolean }>;
    answers?: Record<string, unknown>;
  };
  for (const q of v.questions) if (q.secret && v.answers && v.answers[q.id] != null) v.answers[q.id] = { secret: true };
  return v;
}

export interface WebServerOptions {
  /** The waiting questions: listed, followed, and answered through it. */
  board: Pick<Board, "waiting" | "subscribe" | "answer" | "open" | "touch" | "flow" | "followFlows">;
  /** The address to listen on (settings: web.host); 127.0.0.1 unless said. */
  host: string;
  /** The page's language tag, asked on every update. */
  language: () => string;
  /** Which pi the questions belong to (the project's folder and path, the session), asked on
   * every update: a person with several pis open sees which one is asking. */
  where?: () => { project: string; path: string; session: string };
  /** Tests only: the idle time after which a connection is closed (limits.webIdleMs). */
  idleMs?: number;
}

export interface WebServer {
  /** The one URL to open (it holds the token). */
  readonly url: string;
  readonly port: number;
  close(): void;
}

/** Whether the Host header names this server: an IP address, "localhost" or the configured host,
 * with any port or none. The name is what stops DNS rebinding (a page of a DNS name someone else
 * controls); the port is not checked, since an SSH tunnel (`ssh -L 8080:127.0.0.1:<port>`) or a
 * forwarder makes the browser name its own. */
export function hostAllowed(header: string | undefined, configured: string): boolean {
  if (!header) return false;
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::\d{1,5})?$/.exec(header);
  if (!m) return false;
  const name = m[1].toLowerCase();
  const bare = name.startsWith("[") ? name.slice(1, -1) : name;
  return name === "localhost" || isIP(bare) !== 0 || name === configured.toLowerCase();
}

/** The address put in the URL: the bound one, or for a wildcard the first external IPv4. */
function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") {
    for (const list of Object.values(networkInterfaces())) {
      for (const a of list ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
    }
    return "127.0.0.1";
  }
  return isIP(host) === 6 ? `[${host}]` : host;
}

/** A token bucket per client address. */
function rateLimiter(burst: number, perMinute: number) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return (address: string): boolean => {
    const now = Date.now();
    const b = buckets.get(address) ?? { tokens: burst, at: now };
    b.tokens = Math.min(burst, b.tokens + ((now - b.at) * perMinute) / 60000);
    b.at = now;
    buckets.set(address, b);
    if (buckets.size > 1024) {
      // Forget the addresses whose bucket has filled up again; past 4096, the oldest.
      for (const [k, v] of buckets) if (v.tokens + ((now - v.at) * perMinute) / 60000 >= burst) buckets.delete(k);
      for (const k of buckets.keys()) {
        if (buckets.size <= 4096) break;
        buckets.delete(k);
      }
    }
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  };
}

/** Text made safe inside a double-quoted HTML attribute. */
function escapeAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const BASE_HEADERS = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-resource-policy": "same-origin",
};

function sendJson(res: ServerResponse, status: number, body: Record<string, unknown>, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...BASE_HEADERS,
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    ...extra,
  });
  res.end(text);
}

function refuse(res: ServerResponse, status: number, reason: string, extra: Record<string, string> = {}): void {
  sendJson(res, status, { ok: false, code: "refused", reason }, { connection: "close", ...extra });
}

/** Runs a request's handler; whatever it throws becomes a refusal (or a dropped connection once
 * the answer has begun), never an exception in pi. */
function guarded(res: ServerResponse, handle: () => void): void {
  try {
    handle();
  } catch {
    try {
      if (!res.headersSent) refuse(res, 400, "the request could not be handled");
      else res.destroy();
    } catch {
      res.destroy();
    }
  }
}

/** Starts the server; rejects when it cannot listen (the message says why). */
export async function startWebServer({ board, host, language, where, idleMs }: WebServerOptions): Promise<WebServer> {
  const limits = addon().limits;
  // A step carries at most one field's text: the longest (an answer), each byte escaped in JSON
  // at most six times over, and the rest of the body. Not a whole answer set's size.
  const stepBodyBytes = 6 * limits.answerBytes + limits.webUnverifiedBodyBytes;
  const template = pageParts();
  const token = randomBytes(limits.webTokenBytes).toString("base64url");
  const tokenBytes = Buffer.from(token, "utf8");
  const allow = rateLimiter(limits.webRateBurst, limits.webRatePerMinute);
  const streams = new Set<ServerResponse>();
  let port = 0;

  const tokenMatches = (given: unknown): boolean => {
    if (typeof given !== "string") return false;
    const b = Buffer.from(given, "utf8");
    return b.length === tokenBytes.length && timingSafeEqual(b, tokenBytes);
  };

  /** One line of display text: sanitized (a folder or session name may hold anything). */
  const line = (text: string) => addon().sanitize(text, false);

  /** The strings the page shows, in the language of the settings now. */
  const pageStrings = () => {
    const t = strings(language());
    return { language: languageOf(t), strings: Object.fromEntries(PAGE_STRINGS.map((id) => [id, t[id] ?? ""])) };
  };

  /** The pages' face of the flows (a move the page made is not told back to the pages). */
  const face = {};
  /** A question's flow as the pages show it; null when no engine can hold it. */
  const viewOf = (w: Waiting): unknown => {
    try {
      const engine = board.flow(w.qid)?.engine;
      return engine ? pageView(engine) : null;
    } catch {
      return null;
    }
  };

  /** What the page shows: the questions still open, each with its flow's view, and the strings
   * to show them with. */
  const snapshot = (): string => {
    const { language: lang, strings } = pageStrings();
    const questions = [...board.waiting.values()]
      .filter((w) => !w.settled)
      .map((w) => ({
        qid: w.qid,
        askedAt: w.askedAt,
        ...(w.askedBy ? { askedBy: w.askedBy } : {}),
        questions: withOptionObjects(w.questions),
        view: viewOf(w),
      }));
    let here: ReturnType<NonNullable<typeof where>> | undefined;
    try {
      here = where?.();
    } catch {
      here = undefined; // the host cannot say (a context pi has retired): the page names no pi, and still works
    }
    const pi = here ? { project: line(here.project), path: line(here.path), session: line(here.session) } : undefined;
    return JSON.stringify({ type: "state", language: lang, strings, bodyBytes: limits.webBodyBytes, ...(pi ? { pi } : {}), questions });
  };

  /** Stops following a stream: with `farewell` (an event telling the page why) when nothing is
   * queued for it, else at once (a page that is not reading would never get it). */
  const drop = (res: ServerResponse, farewell?: string) => {
    streams.delete(res);
    if (farewell !== undefined && res.writableLength === 0 && !res.destroyed) res.end(farewell);
    else res.destroy();
  };

  /** Writes to a stream, unless more than QT_WEB_STREAM_BACKLOG_BYTES are still unsent there (a
   * phone asleep, a page that stopped reading): then it is dropped rather than queue more in pi.
   * Each message is a whole snapshot, so nothing is lost: the page reconnects and gets a fresh one. */
  const send = (res: ServerResponse, data: string) => {
    if (res.destroyed || res.writableLength > limits.webStreamBacklogBytes) return drop(res);
    res.write(data);
  };

  let pending = false;
  const broadcast = () => {
    if (pending) return;
    pending = true;
    setImmediate(() => {
      pending = false;
      if (!streams.size) return;
      let data: string;
      try {
        data = `data: ${snapshot()}\n\n`;
      } catch {
        return; // nothing to send this time; the pages keep the last state
      }
      for (const res of [...streams]) {
        try {
          send(res, data);
        } catch {
          drop(res);
        }
      }
    });
  };
  const unsubscribe = board.subscribe(broadcast);
  // pi's TUI or the RPC dialogs moved a flow: the pages show it as it is now.
  const unfollow = board.followFlows((_qid, by) => {
    if (by !== face) broadcast();
  });

  const page = (res: ServerResponse) => {
    const nonce = randomBytes(16).toString("base64");
    const shown = pageStrings();
    // The strings go in with the page, so it can say that it is offline before its first update.
    const fill = (text: string) =>
      text
        .replaceAll("{{NONCE}}", nonce)
        .replaceAll("{{LANG}}", escapeAttribute(shown.language))
        .replaceAll("{{STRINGS}}", escapeAttribute(JSON.stringify(shown.strings)));
    const html = fill(template.before) + template.script + fill(template.after);
    const csp = [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src 'nonce-${nonce}'`,
      "connect-src 'self'",
      "img-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join("; ");
    res.writeHead(200, { ...BASE_HEADERS, "content-type": "text/html; charset=utf-8", "content-security-policy": csp });
    res.end(html);
  };

  const events = (req: IncomingMessage, res: ServerResponse) => {
    const first = `retry: 2000\n\ndata: ${snapshot()}\n\n`;
    // Full: the oldest page makes room (told so, it waits before it tries again), not the newest.
    for (const oldest of streams) {
      if (streams.size < limits.webEventStreams) break;
      drop(oldest, "event: displaced\ndata: {}\n\n");
    }
    res.writeHead(200, { ...BASE_HEADERS, "content-type": "text/event-stream; charset=utf-8", connection: "keep-alive" });
    res.write(first);
    streams.add(res);
    const ping = setInterval(() => {
      try {
        send(res, ": ping\n\n");
      } catch {
        drop(res);
      }
    }, 20000);
    ping.unref();
    const gone = () => {
      clearInterval(ping);
      streams.delete(res);
    };
    req.on("close", gone);
    res.on("close", gone);
    res.on("error", gone);
  };

  /** Reads a POST's JSON object under the rules every POST meets (the page's own origin,
   * application/json, at most QT_WEB_MAX_BODY_BYTES) and hands it to `handle`. `authorized`: the
   * token was in the path (checked); else the body must begin with it. */
  const readPost = (
    req: IncomingMessage,
    res: ServerResponse,
    authorized: boolean,
    handle: (m: Record<string, unknown>) => void,
    max = limits.webBodyBytes,
  ) => {
    // Only the page itself may answer: a browser names the origin of every POST it sends.
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== `http://${req.headers.host}`) return refuse(res, 403, "cross-origin request");
    const site = req.headers["sec-fetch-site"];
    if (site !== undefined && site !== "same-origin") return refuse(res, 403, "cross-site request");
    const type = String(req.headers["content-type"] ?? "")
      .split(";")[0]
      .trim()
      .toLowerCase();
    if (type !== "application/json") return refuse(res, 415, "the answer must be application/json");
    const declared = Number(req.headers["content-length"] ?? NaN);
    if (declared > max) return refuse(res, 413, `the request is larger than ${max} bytes`);
    const parts: Buffer[] = [];
    let size = 0;
    let over = false;
    let verified = authorized;
    const tooLarge = (reason: string) => {
      over = true;
      refuse(res, 413, reason);
      req.destroy();
    };
    req.setTimeout(15000, () => req.destroy());
    req.on("data", (chunk: Buffer) =>
      guarded(res, () => {
        if (over) return;
        size += chunk.length;
        if (size > max) return tooLarge(`the request is larger than ${max} bytes`);
        parts.push(chunk);
        // A long body is read on only once it has shown the token (its first key, as the page
        // sends it), so a request without the token never makes pi hold more than a few KB.
        if (!verified && size > limits.webUnverifiedBodyBytes) {
          const head = /^\s*\{\s*"token"\s*:\s*"([A-Za-z0-9_-]*)"/.exec(
            Buffer.concat(parts).toString("latin1", 0, limits.webUnverifiedBodyBytes),
          );
          if (!head || !tokenMatches(head[1])) {
            return tooLarge(`a request longer than ${limits.webUnverifiedBodyBytes} bytes must begin with its token: {"token":…}`);
          }
          verified = true;
        }
      }),
    );
    req.on("end", () =>
      guarded(res, () => {
        if (over) return;
        let m: Record<string, unknown>;
        try {
          m = JSON.parse(Buffer.concat(parts).toString("utf8"));
        } catch {
          return refuse(res, 400, "the request is not JSON");
        }
        if (!m || typeof m !== "object" || Array.isArray(m)) return refuse(res, 400, "the request must be a JSON object");
        // In the path form a token key in the body is not needed (and not read).
        if (!authorized && !tokenMatches(m.token)) return refuse(res, 403, "wrong or missing token");
        handle(m);
      }),
    );
  };

  /** A whole answer, validated by the C core (scripts; the page answers in steps). */
  const answer = (res: ServerResponse, m: Record<string, unknown>) => {
    if (typeof m.qid !== "string" || typeof m.outcome !== "string") return refuse(res, 400, "qid and outcome must be strings");
    let answers: string | null = null;
    try {
      if (m.answers !== undefined && m.answers !== null) answers = JSON.stringify(m.answers);
    } catch {
      return refuse(res, 400, "the answers cannot be read (nested too deeply)");
    }
    // A secret is typed into the page's own field (its steps), never sent whole by a script,
    // whose command line or file would hold it.
    const secret = secretGiven(board.waiting.get(m.qid)?.questions ?? [], m.answers);
    if (secret) return sendJson(res, 400, { ok: false, code: "invalid", reason: SECRET.elsewhere(secret.id) });
    const verdict = board.answer(m.qid, m.outcome, answers, "web");
    if (verdict.ok) return sendJson(res, 200, { ok: true });
    return sendJson(res, verdict.code === "invalid" ? 400 : 409, { ok: false, code: verdict.code, reason: verdict.reason });
  };

  /** One step of a question's flow, applied to the pages' engine of it: answered with the new
   * view, or — once the step ended the flow — the board's verdict on the outcome it gave. */
  const step = (res: ServerResponse, m: Record<string, unknown>) => {
    const { qid, step: name } = m;
    const index = m.index ?? null;
    const text = m.text ?? null;
    if (typeof qid !== "string" || typeof name !== "string") return refuse(res, 400, "qid and step must be strings");
    if (index !== null && typeof index !== "number") return refuse(res, 400, "index must be a number or null");
    if (text !== null && typeof text !== "string") return refuse(res, 400, "text must be a string or null");
    const open = board.open(qid);
    const flow = open.ok ? board.flow(qid) : undefined;
    if (!open.ok || !flow) {
      const why = open.ok ? { code: "not_waiting", reason: strings().ELSEWHERE_NOT_WAITING } : open;
      return sendJson(res, 409, { ok: false, code: why.code, reason: why.reason });
    }
    const engine = flow.engine; // in the language of the settings it was made with, as pi's TUI shows it
    // Any step — and "touch", the page's word for the person's first keystroke or click in a
    // question, which changes nothing in the flow — says the person is answering here.
    board.touch(qid);
    if (name === "touch") return sendJson(res, 200, { ok: true, view: pageView(engine) });
    // `question`: the question the page showed when the person acted. Another page (or this
    // one, a moment before) may have moved the flow to another question since: a step meant
    // for one question never lands on another — the page gets the flow as it is now instead.
    const question = m.question ?? null;
    if (question !== null && typeof question !== "number") return refuse(res, 400, "question must be a number or null");
    if (question !== null) {
      const now = pageView(engine);
      if (now.current !== question)
        return sendJson(res, 409, { ok: false, code: "moved", reason: "another question is shown now", view: now });
    }
    // A tick says the state the page shows (`ticked`), not "flip": the engine's toggle takes the
    // state wanted, so two pages ticking the same option at once both mean ticked.
    const ticked = m.ticked ?? null;
    if (ticked !== null && typeof ticked !== "boolean") return refuse(res, 400, "ticked must be true, false or null");
    const wanted = name === "toggle" && ticked !== null ? (ticked ? "ticked" : "unticked") : text;
    const before = engine.revision;
    const applied = engine.act(name as FlowStep, index, wanted as string | null);
    if (!applied.ok) return sendJson(res, 400, { ok: false, code: "invalid", reason: applied.error });
    if (engine.revision !== before) flow.moved(face); // pi's TUI draws it again (the pages hear of it just below)
    if (!engine.done) {
      broadcast();
      return sendJson(res, 200, { ok: true, view: pageView(engine) });
    }
    const waiting = board.waiting.get(qid) as Waiting;
    const { outcome, answers, discussion, earlier } = handOff(engine, waiting.questions, "web", true);
    const verdict = board.answer(qid, outcome, answers ? JSON.stringify(answers) : null, "web", discussion, earlier);
    broadcast();
    if (verdict.ok) return sendJson(res, 200, { ok: true, done: true, outcome });
    return sendJson(res, verdict.code === "invalid" ? 400 : 409, { ok: false, code: verdict.code, reason: verdict.reason });
  };

  const server: Server = createServer((req, res) =>
    guarded(res, () => {
      req.socket.unref();
      let url: URL | undefined;
      try {
        url = new URL(req.url ?? "/", "http://x");
      } catch {
        // refused below, once the rate limit has counted it
      }
      // The token first: a request that carries it in its path is never rate-limited, so other
      // clients at the same address (every local user, every SSH tunnel is 127.0.0.1) cannot lock
      // the owner out. Only requests without it spend their address's bucket.
      const m = url ? /^\/q\/([^/]*)(\/events|\/answer|\/step)?$/.exec(url.pathname) : null;
      const authorized = m !== null && tokenMatches(m[1]);
      if (authorized) tokenSockets.add(req.socket);
      if (!authorized && !allow(req.socket.remoteAddress ?? "?")) return refuse(res, 429, "too many requests", { "retry-after": "5" });
      if (!hostAllowed(req.headers.host, host)) return refuse(res, 421, "unexpected Host header");
      if (!url) return refuse(res, 400, "malformed request target");
      if (req.method === "POST" && url.pathname === "/answer") return readPost(req, res, false, (body) => answer(res, body));
      if (!m) return refuse(res, 404, "not found");
      const want = m[2] === "/answer" || m[2] === "/step" ? "POST" : "GET";
      if (req.method !== want) return refuse(res, 404, "not found");
      if (!authorized) return refuse(res, 403, "wrong or missing token");
      if (m[2] === "/answer") return readPost(req, res, true, (body) => answer(res, body));
      if (m[2] === "/step") return readPost(req, res, true, (body) => step(res, body), stepBodyBytes);
      return m[2] ? events(req, res) : page(res);
    }),
  );
  // Connections at once (QT_WEB_MAX_CONNECTIONS), oldest first; those that carried the token.
  const sockets = new Set<Socket>();
  const tokenSockets = new WeakSet<Socket>();
  server.on("connection", (socket: Socket) => {
    if (sockets.size >= limits.webConnections) {
      let oldest: Socket | undefined;
      for (const s of sockets) {
        if (!tokenSockets.has(s)) {
          oldest = s;
          break;
        }
      }
      if (!oldest) return void socket.destroy();
      sockets.delete(oldest);
      oldest.destroy();
    }
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  // Idle connections are closed: without a 'timeout' listener, Node destroys the socket.
  server.setTimeout(idleMs ?? limits.webIdleMs);
  server.requestTimeout = 30000;
  server.headersTimeout = 15000;
  server.maxHeadersCount = 64;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => {
      server.removeListener("error", reject);
      resolve();
    });
  });
  server.unref();
  server.on("error", () => undefined);
  const address = server.address();
  port = typeof address === "object" && address ? address.port : 0;

  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    unfollow();
    process.removeListener("exit", close);
    for (const res of streams) res.end("event: off\ndata: {}\n\n");
    streams.clear();
    server.close();
    server.closeAllConnections();
  };
  process.once("exit", close);
  return { url: `http://${urlHost(host)}:${port}/q/${token}`, port, close };
}
