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
// The protocol, one JSON object per line (the shape of pi's RPC protocol), one request per
// connection, every request carrying the secret:
//   {"type":"ask","args":"<canonical arguments JSON>","asker":{"name"?,"pid","cwd"}}   (a child)
//     → {"type":"answer","outcome":"answered|declined|cancelled|interrupted",
//        "answers":{ id: {"selected":[values],"wrote"?,"note"?} } | null}
//     | {"type":"unavailable"} (the parent cannot ask after all) | {"type":"error","message"}
//   {"type":"list"}                         (another terminal: pi-question pending)
//     → {"type":"pending","cwd","pid","session":{"name"?,"id"?,"file"?},
//        "questions":[{"qid","askedAt","askedBy"?,"args"}],
//        "ended":[{"qid","askedAt","endedAt","ending"}]}   (the last questions that stopped waiting)
//   {"type":"answer","qid","outcome","answers","discussion"?}   (another terminal: pi-question
//                                            answer; outcome answered|declined|cancelled|discuss)
//     → {"type":"result","ok":true}
//     | {"type":"result","ok":false,"code":"already|cancelled|timed_out|withdrawn|not_waiting|invalid",
//        "reason"}   (exactly once: a question that ended says how)
//   {"type":"watch","qid"}  → {"type":"closed","qid"} once that question ends, wherever.
// Closing an `ask` connection withdraws the question (the child was aborted or died); the parent
// closing it without an answer (it exited) reaches the child as `interrupted`. A line over the
// size cap, a wrong secret or anything malformed closes that one connection and nothing else.
// The server is unref'ed: it never keeps pi alive, and costs nothing until someone connects.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Outcome } from "./native.ts";
import { ASKER_CHAIN_ENV, ASKER_ENV, ASKER_SEPARATOR, lineReader } from "./relay-wire.mjs";

export { askThroughRelay, lineReader, parseRelayVariable, RELAY_ENV, structuredAnswers } from "./relay-wire.mjs";
const VERSION = "v1";

/** Who asks a relayed question, as the child says it (untrusted: shown only sanitized). */
export interface RelayAsker {
  name?: string;
  pid?: number;
  cwd?: string;
}

/** A structured answer: option values picked, typed text kept apart, the person's note. */
export type StructuredAnswer = { selected: string[]; wrote?: string; note?: string };
export type RelayAnswer =
  | {
      type: "answer";
      outcome: Outcome;
      answers: Record<string, StructuredAnswer> | null;
      /** With outcome "timed_out": what the person's timeout applied (issue 14 item 3). */
      timeout?: "cancel" | "decline" | "recommended";
      /** With outcome "discuss": what the person wrote to the agent (issue 14 item 5). */
      discussion?: string;
    }
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

/** The agent name of this process, when known, after the names of the subagents above it up to
 * the pi that asks the person ("worker › helper"): its own name is PI_QUESTION_ASKER, else the
 * name pi's subagent example gives its prompt file (`--append-system-prompt
 * …/pi-subagent-*\/prompt-<name>.md`); the names above come from PI_QUESTION_ASKER_CHAIN. A
 * process with no name of its own has none (the chain above is not claimed for it). */
export function ownAskerName(argv: readonly string[] = process.argv, env: NodeJS.ProcessEnv = process.env): string | undefined {
  let own = env[ASKER_ENV]?.trim();
  if (!own) {
    const at = argv.indexOf("--append-system-prompt");
    const file = at >= 0 ? argv[at + 1] : undefined;
    own = (file ? /pi-subagent-[^/\\]+[/\\]prompt-([^/\\]+)\.md$/.exec(file) : null)?.[1];
  }
  if (!own) return undefined;
  const chain = env[ASKER_CHAIN_ENV]?.trim();
  return chain ? `${chain}${ASKER_SEPARATOR}${own}` : own;
}

/** The name each environment's process took (kept process-wide: pi's /reload loads this module
 * again in the same process, after the variable is gone). */
const ADOPTED_KEY = Symbol.for("pi-question.relay.asker");
const adopted: WeakMap<object, { name?: string }> = ((globalThis as Record<symbol, unknown>)[ADOPTED_KEY] as
  | WeakMap<object, { name?: string }>
  | undefined) ??
  ((globalThis as Record<symbol, unknown>)[ADOPTED_KEY] = new WeakMap<object, { name?: string }>());

/** This process's asker name (ownAskerName), taken once: PI_QUESTION_ASKER named this process,
 * not its children, so it leaves the environment they inherit. */
export function adoptedAskerName(argv: readonly string[] = process.argv, env: NodeJS.ProcessEnv = process.env): string | undefined {
  let entry = adopted.get(env);
  if (!entry) {
    const name = ownAskerName(argv, env);
    entry = name ? { name } : {};
    adopted.set(env, entry);
    delete env[ASKER_ENV];
  }
  return entry.name;
}

/** What names this process's children: a pi that asks the person itself names them from here
 * (no chain); any other passes its own name down as PI_QUESTION_ASKER_CHAIN, so a child's
 * question says "worker › helper", never the parent's name alone. */
export function passAskerNames(asksPerson: boolean, argv: readonly string[] = process.argv, env: NodeJS.ProcessEnv = process.env): void {
  const name = adoptedAskerName(argv, env);
  if (asksPerson || !name) delete env[ASKER_CHAIN_ENV];
  else env[ASKER_CHAIN_ENV] = name;
}

// ---- the parent: the endpoint ----------------------------------------------------------------

export interface RelayRequest {
  args: string;
  asker: RelayAsker;
  signal: AbortSignal;
}

/** What the endpoint serves; each request type has its handler. */
export interface RelayHandlers {
  /** A child's question: asked in the queue; `signal` aborts when the child goes away. */
  ask(request: RelayRequest): Promise<RelayAnswer>;
  /** The questions waiting now, for another terminal. */
  list(): Record<string, unknown>;
  /** An answer from another terminal (exactly once: a later one is refused with a reason). */
  answer(qid: string, outcome: string, answers: unknown, discussion: unknown): { ok: true } | { ok: false; code: string; reason: string };
  /** Calls `closed` once question `qid` ends (at once when it is not waiting); returns the way
   * to stop watching. */
  watch(qid: string, closed: () => void): () => void;
}

export interface RelayServer {
  /** The value children find in PI_QUESTION_RELAY. */
  readonly variable: string;
  close(): void;
}

/**
 * Offers the endpoint; `cap` is the longest message line taken (limits.relayMessageBytes, which
 * covers every legitimate question and answer). Returns undefined when no socket can be made
 * here (the tool then works as before, without a relay).
 */
export async function startRelayServer(cap: number, handlers: RelayHandlers): Promise<RelayServer | undefined> {
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), "pi-question-")); // mkdtemp makes it mode 0700
  } catch {
    return undefined;
  }
  const path = join(dir, "relay.sock");
  const secret = Buffer.from(randomBytes(32).toString("hex"), "utf8");
  const sockets = new Set<Socket>();

  const serve = (socket: Socket, m: Record<string, unknown>, gone: AbortSignal) => {
    const reply = (message: Record<string, unknown>) => {
      if (!socket.destroyed) socket.end(JSON.stringify(message) + "\n");
    };
    switch (m.type) {
      case "ask": {
        if (typeof m.args !== "string") return socket.destroy();
        const a = (m.asker && typeof m.asker === "object" ? m.asker : {}) as Record<string, unknown>;
        const asker: RelayAsker = {
          ...(typeof a.name === "string" && a.name.trim() ? { name: a.name } : {}),
          ...(typeof a.pid === "number" && Number.isInteger(a.pid) ? { pid: a.pid } : {}),
          ...(typeof a.cwd === "string" && a.cwd ? { cwd: a.cwd } : {}),
        };
        handlers.ask({ args: m.args, asker, signal: gone }).then(
          (answer) => reply(answer),
          (error: unknown) => reply({ type: "error", message: error instanceof Error ? error.message : String(error) }),
        );
        return;
      }
      case "list":
        return reply(handlers.list());
      case "answer":
        if (typeof m.qid !== "string" || typeof m.outcome !== "string") return socket.destroy();
        return reply({ type: "result", ...handlers.answer(m.qid, m.outcome, m.answers, m.discussion) });
      case "watch": {
        if (typeof m.qid !== "string") return socket.destroy();
        const qid = m.qid;
        const stop = handlers.watch(qid, () => reply({ type: "closed", qid }));
        gone.addEventListener("abort", stop, { once: true });
        return;
      }
      default:
        return socket.destroy();
    }
  };

  const server: Server = createServer({ allowHalfOpen: false }, (socket) => {
    socket.unref();
    sockets.add(socket);
    const gone = new AbortController();
    let seen = false;
    socket.on("close", () => {
      sockets.delete(socket);
      gone.abort();
    });
    socket.on("error", () => socket.destroy());
    const read = lineReader(
      cap,
      (line) => {
        if (seen) return socket.destroy(); // one request per connection
        seen = true;
        let m: Record<string, unknown>;
        try {
          m = JSON.parse(line);
        } catch {
          return socket.destroy();
        }
        if (!m || typeof m !== "object" || typeof m.secret !== "string") return socket.destroy();
        const given = Buffer.from(m.secret, "utf8");
        if (given.length !== secret.length || !timingSafeEqual(given, secret)) return socket.destroy();
        serve(socket, m, gone.signal);
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
  const variable = `${VERSION}:${secret.toString("utf8")}:${path}`;
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
