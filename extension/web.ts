// web.ts — the waiting questions on a page in a browser (a phone is the point): a small HTTP
// server in the pi process, off until `/questions web` or the setting `"web": { "enabled": true }`
// turns it on. It listens on 127.0.0.1 (another address only when the settings name one) on a
// random port, and is unref'ed: it never keeps pi alive and stops when pi exits or is turned off.
//
//   GET  /q/<token>          the page (extension/web/page.html, one file, no external assets;
//                            a fresh CSP nonce per response for its one script and one style)
//   GET  /q/<token>/events   server-sent events: the waiting questions, again on every change
//   POST /answer             {"token","qid","outcome","answers"} as application/json
//
// The token (QT_WEB_TOKEN_BYTES random bytes) is the only credential: GETs carry it in the path,
// the answer carries it in its body, so no cookie exists that another site could make a browser
// send. A POST must come from the page's own origin (Origin and Sec-Fetch-Site checked), name
// the server by an address or "localhost" in Host (no DNS rebinding), be application/json and
// at most QT_WEB_MAX_BODY_BYTES (derived: every answer a person can give fits; past the first
// QT_WEB_UNVERIFIED_BODY_BYTES only once the body has begun with the token); every client address has a bucket of QT_WEB_RATE_BURST requests
// refilled at QT_WEB_RATE_PER_MINUTE. An answer goes through the Asker exactly as one from
// another terminal does (the C core validates it; the first answer from anywhere wins, a later
// one is told "already answered").
import { randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { isIP } from "node:net";
import { networkInterfaces } from "node:os";
import type { Asker } from "./ask.ts";
import type { NativeAddon } from "./native.ts";
import { stringsFor } from "./i18n.ts";

/** The strings the page shows (the rest of the table stays home). */
const PAGE_STRINGS = [
  "WEB_TITLE", "WEB_NONE", "WEB_SUBMIT", "WEB_CANCEL", "WEB_NOTE", "WEB_PREVIEW", "WEB_CLOSED", "WEB_OFFLINE", "WEB_OFF",
  "SOMETHING_ELSE", "DIALOG_PLACEHOLDER", "DIALOG_DECLINE", "WARN_MISSING", "WARN_EMPTY", "WARN_NOTHING_CHOSEN",
  "REMOTE_TAKEN", "REMOTE_ALREADY", "REMOTE_NOT_WAITING", "WEB_TOO_LARGE", "WEB_NOT_SENT",
];

const PAGE_FILE = new URL("./web/page.html", import.meta.url);

export interface WebServerOptions {
  native: NativeAddon;
  asker: Asker;
  /** The address to listen on (settings: web.host); 127.0.0.1 unless said. */
  host: string;
  /** The page's language tag, asked on every update. */
  language: () => string;
}

export interface WebServer {
  /** The one URL to open (it holds the token). */
  readonly url: string;
  readonly port: number;
  close(): void;
}

/** Whether the Host header names this server: its port, and an IP address, "localhost" or the
 * configured host as the name (a DNS name chosen by someone else is how rebinding works). */
export function hostAllowed(header: string | undefined, port: number, configured: string): boolean {
  if (!header) return false;
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:]+):(\d+)$/.exec(header);
  if (!m || Number(m[2]) !== port) return false;
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

const BASE_HEADERS = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-resource-policy": "same-origin",
};

function sendJson(res: ServerResponse, status: number, body: Record<string, unknown>, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...BASE_HEADERS, "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), ...extra });
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
    if (!res.headersSent) refuse(res, 400, "the request could not be handled");
    else res.destroy();
  }
}

/** Starts the server; rejects when it cannot listen (the message says why). */
export async function startWebServer({ native, asker, host, language }: WebServerOptions): Promise<WebServer> {
  const limits = native.limits;
  const template = readFileSync(PAGE_FILE, "utf8");
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

  /** What the page shows: the questions still open, and the strings to show them with. */
  const snapshot = (): string => {
    const t = stringsFor(native, language());
    const strings = Object.fromEntries(PAGE_STRINGS.map((id) => [id, t[id] ?? ""]));
    const questions = [...asker.waiting.values()]
      .filter((w) => !w.settled)
      .map((w) => ({ qid: w.qid, askedAt: w.askedAt, ...(w.askedBy ? { askedBy: w.askedBy } : {}), questions: w.questions }));
    return JSON.stringify({ type: "state", language: t.$language ?? "en", strings, bodyBytes: limits.webBodyBytes, questions });
  };

  let pending = false;
  const broadcast = () => {
    if (pending) return;
    pending = true;
    setImmediate(() => {
      pending = false;
      if (!streams.size) return;
      const data = `data: ${snapshot()}\n\n`;
      for (const res of streams) res.write(data);
    });
  };
  const unsubscribe = asker.subscribe(broadcast);

  const page = (res: ServerResponse) => {
    const nonce = randomBytes(16).toString("base64");
    const html = template.replaceAll("{{NONCE}}", nonce).replaceAll("{{LANG}}", stringsFor(native, language()).$language ?? "en");
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
    if (streams.size >= limits.webEventStreams) return refuse(res, 503, "too many open pages", { "retry-after": "10" });
    res.writeHead(200, { ...BASE_HEADERS, "content-type": "text/event-stream; charset=utf-8", connection: "keep-alive" });
    res.write(`retry: 2000\n\ndata: ${snapshot()}\n\n`);
    streams.add(res);
    const ping = setInterval(() => res.write(": ping\n\n"), 20000);
    ping.unref();
    const gone = () => {
      clearInterval(ping);
      streams.delete(res);
    };
    req.on("close", gone);
    res.on("error", gone);
  };

  const answer = (req: IncomingMessage, res: ServerResponse) => {
    // Only the page itself may answer: a browser names the origin of every POST it sends.
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== `http://${req.headers.host}`) return refuse(res, 403, "cross-origin request");
    const site = req.headers["sec-fetch-site"];
    if (site !== undefined && site !== "same-origin") return refuse(res, 403, "cross-site request");
    const type = String(req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
    if (type !== "application/json") return refuse(res, 415, "the answer must be application/json");
    const declared = Number(req.headers["content-length"] ?? NaN);
    if (declared > limits.webBodyBytes) return refuse(res, 413, `the request is larger than ${limits.webBodyBytes} bytes`);
    const parts: Buffer[] = [];
    let size = 0;
    let over = false;
    let verified = false;
    const tooLarge = (reason: string) => {
      over = true;
      refuse(res, 413, reason);
      req.destroy();
    };
    req.setTimeout(15000, () => req.destroy());
    req.on("data", (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > limits.webBodyBytes) return tooLarge(`the request is larger than ${limits.webBodyBytes} bytes`);
      parts.push(chunk);
      // A long body is read on only once it has shown the token (its first key, as the page
      // sends it), so a request without the token never makes pi hold more than a few KB.
      if (!verified && size > limits.webUnverifiedBodyBytes) {
        const head = /^\s*\{\s*"token"\s*:\s*"([A-Za-z0-9_-]*)"/.exec(Buffer.concat(parts).toString("latin1", 0, limits.webUnverifiedBodyBytes));
        if (!head || !tokenMatches(head[1])) {
          return tooLarge(`a request longer than ${limits.webUnverifiedBodyBytes} bytes must begin with its token: {"token":…}`);
        }
        verified = true;
      }
    });
    req.on("end", () => guarded(res, () => {
      if (over) return;
      let m: Record<string, unknown>;
      try {
        m = JSON.parse(Buffer.concat(parts).toString("utf8"));
      } catch {
        return refuse(res, 400, "the request is not JSON");
      }
      if (!m || typeof m !== "object" || Array.isArray(m)) return refuse(res, 400, "the request must be a JSON object");
      if (!tokenMatches(m.token)) return refuse(res, 403, "wrong or missing token");
      if (typeof m.qid !== "string" || typeof m.outcome !== "string") return refuse(res, 400, "qid and outcome must be strings");
      let answers: string | null = null;
      try {
        if (m.answers !== undefined && m.answers !== null) answers = JSON.stringify(m.answers);
      } catch {
        return refuse(res, 400, "the answers cannot be read (nested too deeply)");
      }
      const verdict = asker.answerFromElsewhere(m.qid, m.outcome, answers, "web");
      if (verdict.ok) return sendJson(res, 200, { ok: true });
      return sendJson(res, verdict.code === "invalid" ? 400 : 409, { ok: false, code: verdict.code, reason: verdict.reason });
    }));
  };

  const server: Server = createServer((req, res) => guarded(res, () => {
    req.socket.unref();
    if (!allow(req.socket.remoteAddress ?? "?")) return refuse(res, 429, "too many requests", { "retry-after": "5" });
    if (!hostAllowed(req.headers.host, port, host)) return refuse(res, 421, "unexpected Host header");
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://x");
    } catch {
      return refuse(res, 400, "malformed request target");
    }
    if (req.method === "POST" && url.pathname === "/answer") return answer(req, res);
    const m = /^\/q\/([^/]*)(\/events)?$/.exec(url.pathname);
    if (req.method !== "GET" || !m) return refuse(res, 404, "not found");
    if (!tokenMatches(m[1])) return refuse(res, 403, "wrong or missing token");
    return m[2] ? events(req, res) : page(res);
  }));
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
    process.removeListener("exit", close);
    for (const res of streams) res.end("event: off\ndata: {}\n\n");
    streams.clear();
    server.close();
    server.closeAllConnections();
  };
  process.once("exit", close);
  return { url: `http://${urlHost(host)}:${port}/q/${token}`, port, close };
}
