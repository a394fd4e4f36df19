// relay.ts — questions from subagents reach the person through the pi above them.
//
// A pi that can ask (pi's TUI, RPC dialogs, or its own terminal) offers a question endpoint:
// a Unix domain socket in a private directory (mkdtemp, mode 0700, removed on exit), announced
// to every child process through one environment variable, PI_QUESTION_RELAY, which holds a
// per-process secret and the socket path. A pi with no way to ask (print or JSON mode, as
// subagents run) that inherited the variable sends its question there instead of touching a
// terminal, and keeps the variable for its own children, so every question reaches the
// top-most pi with a person in front of it.
//
// The protocol, one JSON object per line (the shape of pi's RPC protocol), one question per
// connection:
//   child → parent  {"type":"ask","secret":"…","args":"<canonical arguments JSON>",
//                    "asker":{"name"?:"worker","pid":123,"cwd":"/home/me/proj"}}
//   parent → child  {"type":"answer","outcome":"answered|declined|cancelled|interrupted",
//                    "answers":{ id: {"selected":[values],"wrote"?,"note"?} } | null}
//                 | {"type":"unavailable"}           (the parent cannot ask after all)
//                 | {"type":"error","message":"…"}   (the parent refused the arguments)
// Closing the connection withdraws the question (the child was aborted or died); the parent
// closing it without an answer (it exited) reaches the child as `interrupted`. A line over the
// size cap, a wrong secret or anything malformed closes that one connection and nothing else.
// The server is unref'ed: it never keeps pi alive, and costs nothing until a child connects.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import type { Outcome } from "./native.ts";
import type { QuestionDetails } from "./schema.ts";

/** The variable that announces the endpoint to child processes. */
export const RELAY_ENV = "PI_QUESTION_RELAY";
/** A subagent launcher may name the agent a child runs as: "asked by <name>". */
export const ASKER_ENV = "PI_QUESTION_ASKER";
const VERSION = "v1";
/** Slack above the arguments' own limit for the rest of a message. */
const ENVELOPE_BYTES = 64 * 1024;

/** Who asks a relayed question, as the child says it (untrusted: shown only sanitized). */
export interface RelayAsker {
  name?: string;
  pid?: number;
  cwd?: string;
}

/** A structured answer: option values picked, typed text kept apart, the person's note. */
export type StructuredAnswer = { selected: string[]; wrote?: string; note?: string };
export type RelayAnswer =
  | { type: "answer"; outcome: Outcome; answers: Record<string, StructuredAnswer> | null }
  | { type: "unavailable" }
  | { type: "error"; message: string };

/** The variables of the endpoints this process offers itself (kept process-wide: pi's /reload
 * loads this module again in the same process). A pi never relays to itself. */
const OWN_KEY = Symbol.for("pi-question.relay.own");
const own: Set<string> = ((globalThis as Record<symbol, unknown>)[OWN_KEY] as Set<string> | undefined) ??
  ((globalThis as Record<symbol, unknown>)[OWN_KEY] = new Set<string>());

export function isOwnRelay(variable: string | undefined): boolean {
  return variable !== undefined && own.has(variable);
}

/** The endpoint a variable names. undefined when the variable is absent or malformed. */
export function parseRelayVariable(value: string | undefined): { secret: string; path: string } | undefined {
  if (!value) return undefined;
  const m = /^v1:([0-9a-f]{64}):(.+)$/s.exec(value);
  return m ? { secret: m[1], path: m[2] } : undefined;
}

/** The agent name of this process, when known: PI_QUESTION_ASKER, else the name pi's subagent
 * example gives its prompt file (`--append-system-prompt …/pi-subagent-*\/prompt-<name>.md`). */
export function ownAskerName(argv: readonly string[] = process.argv, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const named = env[ASKER_ENV]?.trim();
  if (named) return named;
  const at = argv.indexOf("--append-system-prompt");
  const file = at >= 0 ? argv[at + 1] : undefined;
  const m = file ? /pi-subagent-[^/\\]+[/\\]prompt-([^/\\]+)\.md$/.exec(file) : null;
  return m ? m[1] : undefined;
}

/** The directory shown for an unnamed asker: the home directory as "~". */
export function shortDirectory(dir: string): string {
  const home = homedir();
  if (home && (dir === home || dir.startsWith(home + "/"))) return "~" + dir.slice(home.length);
  return dir;
}

/** The details' answers in the structured form the C answer model reads back exactly: option
 * values (never re-matched by text), typed text apart, notes kept. */
export function structuredAnswers(details: QuestionDetails): Record<string, StructuredAnswer> {
  const out: Record<string, StructuredAnswer> = Object.create(null);
  for (const a of details.answers) {
    const q = details.questions.find((x) => x.id === a.id);
    if (!q) continue;
    const indices = a.indices ?? (a.index ? [a.index] : []);
    const selected = indices.map((i) => q.options?.[i - 1]?.value).filter((v): v is string => typeof v === "string");
    const entry: StructuredAnswer = { selected };
    if (a.wasCustom) entry.wrote = a.values ? a.values[a.values.length - 1] : a.value;
    if (a.note) entry.note = a.note;
    out[a.id] = entry;
  }
  return out;
}

/** Splits a byte stream into lines of at most `cap` bytes; `onLine` gets each line, `onTooLong`
 * fires (once) when a line goes over the cap. */
export function lineReader(cap: number, onLine: (line: string) => void, onTooLong: () => void): (chunk: Buffer) => void {
  let parts: Buffer[] = [];
  let size = 0;
  let broken = false;
  return (chunk: Buffer) => {
    if (broken) return;
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      const end = nl < 0 ? chunk.length : nl;
      size += end - start;
      if (size > cap) {
        broken = true;
        parts = [];
        onTooLong();
        return;
      }
      parts.push(chunk.subarray(start, end));
      if (nl < 0) return;
      const line = Buffer.concat(parts).toString("utf8");
      parts = [];
      size = 0;
      onLine(line);
      if (broken) return;
      start = nl + 1;
    }
  };
}

// ---- the parent: the endpoint ----------------------------------------------------------------

export interface RelayRequest {
  args: string;
  asker: RelayAsker;
  signal: AbortSignal;
}

export interface RelayServer {
  /** The value children find in PI_QUESTION_RELAY. */
  readonly variable: string;
  close(): void;
}

/**
 * Offers the endpoint. `handle` asks one relayed question and resolves with what goes back to
 * the child; its signal aborts when the child goes away. Returns undefined when no socket can
 * be made here (the tool then works as before, without a relay).
 */
export async function startRelayServer(
  argsCap: number,
  handle: (request: RelayRequest) => Promise<RelayAnswer>,
): Promise<RelayServer | undefined> {
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), "pi-question-")); // mkdtemp makes it mode 0700
  } catch {
    return undefined;
  }
  const path = join(dir, "relay.sock");
  const secret = randomBytes(32);
  const cap = argsCap + ENVELOPE_BYTES;
  const sockets = new Set<Socket>();

  const server: Server = createServer({ allowHalfOpen: false }, (socket) => {
    socket.unref();
    sockets.add(socket);
    const gone = new AbortController();
    let asked = false;
    const send = (message: RelayAnswer) => {
      if (!socket.destroyed) socket.end(JSON.stringify(message) + "\n");
    };
    socket.on("close", () => {
      sockets.delete(socket);
      gone.abort();
    });
    socket.on("error", () => socket.destroy());
    const read = lineReader(
      cap,
      (line) => {
        if (asked) return socket.destroy(); // one question per connection
        asked = true;
        let m: { type?: unknown; secret?: unknown; args?: unknown; asker?: unknown };
        try {
          m = JSON.parse(line);
        } catch {
          return socket.destroy();
        }
        if (!m || typeof m !== "object" || m.type !== "ask" || typeof m.secret !== "string" || typeof m.args !== "string") {
          return socket.destroy();
        }
        const given = Buffer.from(m.secret, "utf8");
        if (given.length !== 64 || !timingSafeEqual(given, Buffer.from(secret.toString("hex"), "utf8"))) return socket.destroy();
        const a = (m.asker && typeof m.asker === "object" ? m.asker : {}) as Record<string, unknown>;
        const asker: RelayAsker = {
          ...(typeof a.name === "string" && a.name.trim() ? { name: a.name } : {}),
          ...(typeof a.pid === "number" && Number.isInteger(a.pid) ? { pid: a.pid } : {}),
          ...(typeof a.cwd === "string" && a.cwd ? { cwd: a.cwd } : {}),
        };
        handle({ args: m.args, asker, signal: gone.signal }).then(send, (error: unknown) =>
          send({ type: "error", message: error instanceof Error ? error.message : String(error) }),
        );
      },
      () => socket.destroy(),
    );
    socket.on("data", read);
  });

  const listening = await new Promise<boolean>((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(path, () => resolve(true));
  });
  if (!listening) {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  server.unref();
  server.on("error", () => undefined);

  const remove = () => rmSync(dir, { recursive: true, force: true });
  process.once("exit", remove);
  let closed = false;
  const variable = `${VERSION}:${secret.toString("hex")}:${path}`;
  own.add(variable);
  return {
    variable,
    close() {
      if (closed) return;
      closed = true;
      own.delete(variable);
      process.removeListener("exit", remove);
      // The children waiting on this pi learn it is gone (their questions end as interrupted).
      for (const s of sockets) s.destroy();
      server.close();
      remove();
    },
  };
}

// ---- the child: asking through the endpoint ---------------------------------------------------

/** What asking through the relay gave: the parent's answer, `interrupted` (the connection
 * ended without one, or this run was aborted), or `unreachable` (no endpoint there: ask the
 * usual way). */
export type RelayOutcome = RelayAnswer | { type: "interrupted" } | { type: "unreachable"; reason: string };

export function askThroughRelay(
  endpoint: { secret: string; path: string },
  args: string,
  asker: RelayAsker,
  signal: AbortSignal | undefined,
  replyCap: number,
): Promise<RelayOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    let connected = false;
    const finish = (outcome: RelayOutcome) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onAbort);
      socket.destroy();
      resolve(outcome);
    };
    const onAbort = () => finish({ type: "interrupted" });
    const socket = createConnection(endpoint.path);
    if (signal?.aborted) return finish({ type: "interrupted" });
    signal?.addEventListener("abort", onAbort, { once: true });
    socket.on("connect", () => {
      connected = true;
      socket.write(JSON.stringify({ type: "ask", secret: endpoint.secret, args, asker }) + "\n");
    });
    socket.on(
      "data",
      lineReader(
        replyCap,
        (line) => {
          let m: RelayAnswer;
          try {
            m = JSON.parse(line) as RelayAnswer;
          } catch {
            return finish({ type: "interrupted" });
          }
          if (m?.type === "answer" || m?.type === "unavailable" || m?.type === "error") finish(m);
          else finish({ type: "interrupted" });
        },
        () => finish({ type: "interrupted" }),
      ),
    );
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (!connected) finish({ type: "unreachable", reason: error.code ?? error.message });
      else finish({ type: "interrupted" });
    });
    socket.on("close", () => finish(connected ? { type: "interrupted" } : { type: "unreachable", reason: "closed" }));
  });
}
