// relay.ts — questions from subagents reach the person through the pi above them.
//
// A pi that can ask (pi's TUI, RPC dialogs, or its own terminal) offers a question endpoint:
// a Unix domain socket in a private directory (mkdtemp `pi-question-relay-<pid>-<6 random characters>`, mode
// 0700, removed on exit; one left by a pi that was killed is removed by the next relay that
// starts) — on Windows a named pipe `\\.\pipe\pi-question-<user>-<pid>-<random>` instead
// (relayEndpoint) — announced to every child process through one environment variable,
// PI_QUESTION_RELAY, which holds the endpoint's ask secret and the socket path. A pi with no way to
// ask (print or JSON mode, as subagents run) that inherited the variable sends its question there
// instead of touching a terminal, and keeps the variable for its own children, so every question
// reaches the top-most pi with a person in front of it. (askAbove, at the end, is that child's
// end: it asks the pi above and reads the reply as this pi's tool result.)
//
// Two secrets, two rights: the variable's secret lets its holder `ask` only; a second, control
// secret (written only into the per-user registry, relay-wire.mjs) also lets its holder `list`,
// `answer` and `watch`. A request of those three with the ask secret gets an error reply.
//
// The protocol, one JSON object per line (the shape of pi's RPC protocol), one request per
// connection (nothing may follow its line), every request carrying a secret:
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
// closing it without an answer (it exited) reaches the child as `interrupted`.
//
// Hostile or broken clients: before a connection has shown a secret the server reads at most
// RelayBounds.unverifiedBytes of its line (a longer line must begin `{"secret":"<64 hex>"` with a
// right secret) and waits at most unverifiedMs; only then may the line grow to messageBytes.
// Connections waiting to show a secret, connections in all and relayed questions waiting are
// capped (the newest past a cap is closed; an `ask` past the last gets an error reply). A wrong
// secret, an over-long line or anything malformed closes that one connection, and nothing a
// client sends (nor a handler that throws) reaches anything else.
// The server is unref'ed: it never keeps pi alive, and costs nothing until someone connects.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { closeSync, mkdtempSync, rmSync } from "node:fs";
import { lstat, readdir, rm } from "node:fs/promises";
import { createConnection, createServer, type Server, Socket } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join, posix } from "node:path";
import { addon } from "../addon.ts";
import { type ArgsJson, type Outcome, type TimeoutThen } from "../addon-types.ts";
import { escapeFlags, type QuestionResult, toToolResult } from "../board/result.ts";
import { alive, ASKER_CHAIN_ENV, ASKER_ENV, askThroughRelay, ASKER_SEPARATOR, parseRelayVariable, RELAY_ENV } from "./relay-wire.mjs";
import { notePipePeer, type Standing } from "./peer.ts";
import { print } from "../text/screen.ts";
import type { Settings } from "../text/settings.ts";
import type { RelayAsker } from "../question-types.ts";
import type { StructuredAnswer } from "./relay-wire.mjs";

export { askThroughRelay, lineReader, parseRelayVariable, RELAY_ENV, structuredAnswers } from "./relay-wire.mjs";
const VERSION = "v1";

export type { RelayAsker } from "../question-types.ts";

/** A structured answer: option values picked, typed text kept apart, the person's note; or a
 * question the person skipped. */
export type { StructuredAnswer };
export type RelayAnswer =
  | {
      type: "answer";
      outcome: Outcome;
      answers: Record<string, StructuredAnswer> | null;
      /** With outcome "timed_out": what the person's timeout applied. */
      timeout?: TimeoutThen;
      /** With outcome "discuss": what the person wrote to the agent. */
      discussion?: string;
    }
  | { type: "unavailable" }
  | { type: "error"; message: string };

/** The variables of the endpoints this process offers itself (kept process-wide: pi's /reload
 * loads this module again in the same process). A pi never relays to itself. */
const OWN_KEY = Symbol.for("pi-question.relay.own");
const own: Set<string> =
  ((globalThis as Record<symbol, unknown>)[OWN_KEY] as Set<string> | undefined) ??
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
const adopted: WeakMap<object, { name?: string }> =
  ((globalThis as Record<symbol, unknown>)[ADOPTED_KEY] as WeakMap<object, { name?: string }> | undefined) ??
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

/** What the endpoint serves; each request type has its handler. A handler may throw or reject:
 * that closes (or answers with an error) the one connection it was serving, nothing else. */
export interface RelayHandlers {
  /** A child's question: asked in the queue; `signal` aborts when the child goes away. */
  ask(request: RelayRequest): Promise<RelayAnswer>;
  /** The questions waiting now, for another terminal. */
  list(): Record<string, unknown>;
  /** An answer from another terminal (exactly once: a later one is refused with a reason).
   * `standing`: what standing() said of the connection (person when there is no standing()). */
  answer(
    qid: string,
    outcome: string,
    answers: unknown,
    discussion: unknown,
    standing: Standing,
  ): { ok: true } | { ok: false; code: string; reason: string };
  /** Who sent a request with the control secret may act as the person (peer.ts): asked once per
   * answer; a refused one gets a result with code "refused" and the reason. */
  standing?(socket: Socket): Standing;
  /** Who asks when it is not a pi (peer.ts): its command line and pid, else undefined (a pi, or
   * an OS that does not say: the name the asker gives itself stands). */
  caller?(socket: Socket): string | undefined;
  /** Calls `closed` once question `qid` ends (at once when it is not waiting); returns the way
   * to stop watching. */
  watch(qid: string, closed: () => void): () => void;
}

export interface RelayServer {
  /** The value children find in PI_QUESTION_RELAY: its secret lets them `ask`, nothing else. */
  readonly variable: string;
  /** The same socket with the control secret ("v1:<secret>:<path>"), which also lets its holder
   * `list`, `answer` and `watch`: written only into the per-user registry, never into the
   * environment. */
  readonly control: string;
  close(): void;
}

/** The bounds of the endpoint's doors (native/core/qt_limits.h; relayBounds reads them from the addon). */
export interface RelayBounds {
  /** The longest line taken once the control secret was seen (limits.relayMessageBytes: it
   * covers every legitimate question and answer). */
  messageBytes: number;
  /** The longest line taken with the ask secret (limits.relayAskMessageBytes: a question). */
  askMessageBytes: number;
  /** Connections holding the ask secret, at most (limits.relayMaxAskConnections). */
  maxAskConnections: number;
  /** Bytes of unfinished lines held at once: with the ask secret (limits.relayAskHeldBytes), and
   * in all (limits.relayHeldBytes). */
  askHeldBytes: number;
  heldBytes: number;
  /** How long a connection may take to send its whole line, in ms (limits.relayLineMs). */
  lineMs: number;
  /** What is read of a line before its secret is seen (limits.relayUnverifiedBytes); a longer line
   * must begin with its secret: `{"secret":"<64 hex>"`. */
  unverifiedBytes: number;
  /** How long a connection may take to show its secret, in ms (limits.relayUnverifiedMs). */
  unverifiedMs: number;
  /** Connections still to show their secret, at most (limits.relayMaxUnverified). */
  maxUnverified: number;
  /** Connections open, at most (limits.relayMaxConnections). */
  maxConnections: number;
  /** Relayed questions waiting at once, at most (limits.relayMaxWaiting). */
  maxWaiting: number;
  /** For tests: told when a connection closes how many bytes were read from it and how many the
   * server held at most while reading its line. */
  observe?: (seen: { bytesRead: number; held: number; verified: boolean }) => void;
}

/** The endpoint's bounds from the addon's limits. */
export function relayBounds(limits: Readonly<Record<string, number>>): RelayBounds {
  return {
    messageBytes: limits.relayMessageBytes,
    askMessageBytes: limits.relayAskMessageBytes,
    maxAskConnections: limits.relayMaxAskConnections,
    askHeldBytes: limits.relayAskHeldBytes,
    heldBytes: limits.relayHeldBytes,
    lineMs: limits.relayLineMs,
    unverifiedBytes: limits.relayUnverifiedBytes,
    unverifiedMs: limits.relayUnverifiedMs,
    maxUnverified: limits.relayMaxUnverified,
    maxConnections: limits.relayMaxConnections,
    maxWaiting: limits.relayMaxWaiting,
  };
}

/** The start a line longer than the unverified window must have: its secret, as the first key
 * (relay-wire's request() writes it so). */
const SECRET_FIRST = /^\{"secret":"([0-9a-f]{64})"/;
const SECRET_FIRST_BYTES = '{"secret":"'.length + 64 + 1;

/** What a secret lets its holder do: `ask` (the variable children inherit) or everything
 * (`control`, the registry's). */
type Right = "ask" | "control";

/** The relay's directory in the system's temp directory: the pid of the pi that made it, so a
 * directory whose pi was killed (no exit handler ran) can be found and removed later. */
const DIRECTORY_PREFIX = "pi-question-relay-";
const OWN_DIRECTORY = /^pi-question-relay-([1-9][0-9]{0,9})-[A-Za-z0-9]{6}$/;
const SOCKET_NAME = "relay.sock";

/** The endpoint's name on `platform`. POSIX: `relay.sock` in the private directory `dir` (mode
 * 0700 keeps other users out). Windows: a named pipe, `\\.\pipe\pi-question-<user>-<pid>-<random>`
 * (the user name reduced to [A-Za-z0-9._-], at most 64 characters), which the addon makes
 * (native/os/win32/pipe.c): an access list of this user's alone, other computers'
 * clients rejected, its first instance made with FILE_FLAG_FIRST_PIPE_INSTANCE (a name someone
 * made first fails instead of being joined), and each client's pid known. A client opens it at
 * identification level and sends nothing unless its server is the pid in its name running as this
 * user; and nothing to a name whose pid is gone (relay-wire.mjs's refusedEndpoint, openPipe).
 * Where the addon cannot (not loaded, a host that is not Node) net's pipe stands in, with the
 * default access list of a named pipe (everyone may read, only the owner write). */
export function relayEndpoint(
  platform: string,
  { dir, user, pid, random }: { dir: string; user: string; pid: number; random: string },
): string {
  if (platform !== "win32") return posix.join(dir, SOCKET_NAME);
  const who = user.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 64) || "user";
  return `\\\\.\\pipe\\pi-question-${who}-${pid}-${random}`;
}

/** The current user's name for the pipe's name (USERNAME when the system cannot say). */
function userName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USERNAME ?? "";
  }
}

/** Whether something listens on the socket at `path` (a pi of another pid namespace, say): only
 * a refused connection or a missing socket counts as nobody. */
function someoneListens(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    socket.unref();
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => {
      socket.destroy();
      resolve(!(error.code === "ENOENT" || error.code === "ECONNREFUSED" || error.code === "ENOTSOCK"));
    });
  });
}

/**
 * Removes the relay directories in `parent` that a pi left behind when it was killed: named
 * `pi-question-relay-<pid>-<6 random characters>`, a real directory (lstat: a symlink is never followed) of this
 * user's, its pid gone and nothing listening on its socket. Anything else is left alone, and so is
 * whatever cannot be looked at. Returns the directories removed.
 * On Windows there is nothing to sweep: the endpoint is a named pipe and no directory is made,
 * and the system removes a pipe with its last handle, when its process ends however it ends.
 */
export async function sweepRelayDirectories(parent: string = tmpdir(), platform: string = process.platform): Promise<string[]> {
  const removed: string[] = [];
  if (platform === "win32") return removed;
  let names: string[];
  try {
    names = await readdir(parent);
  } catch {
    return removed;
  }
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
  for (const name of names) {
    const pid = Number(OWN_DIRECTORY.exec(name)?.[1]);
    if (!pid || pid === process.pid || alive(pid)) continue;
    const dir = join(parent, name);
    try {
      const st = await lstat(dir);
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
      if (await someoneListens(join(dir, SOCKET_NAME))) continue;
      await rm(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}

const messageOf = (error: unknown): string => {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return "the question could not be asked";
  }
};

/**
 * Serves `path` with `onConnection` for each client; resolves how to stop, or undefined when it
 * cannot be served (the name is taken). On Windows the addon makes the pipe (qt_pipe.h: an access
 * list of this user's alone, other computers' clients rejected, each client's pid known); net's pipe is the
 * fallback only where the addon cannot (it is not loaded, or the host is not Node).
 */
async function serveEndpoint(path: string, onConnection: (socket: Socket) => void): Promise<(() => void) | undefined> {
  if (process.platform === "win32") {
    const served = servePipe(path, onConnection);
    if (served !== "net") return served;
  }
  const server: Server = createServer({ allowHalfOpen: false }, onConnection);
  const listening = await new Promise<boolean>((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(path, () => resolve(true));
  });
  if (!listening) return undefined;
  server.unref();
  server.on("error", () => undefined);
  return () => server.close();
}

/** The Windows pipe through the addon: how to stop, undefined when its name is taken, "net" when
 * the addon cannot serve it here. Each client comes as a descriptor, made a socket here, with the
 * pid Windows gives for it (peer.ts's peerOf reads it back). */
function servePipe(path: string, onConnection: (socket: Socket) => void): (() => void) | undefined | "net" {
  let stopped = false;
  let close: (() => void) | undefined;
  try {
    close = addon().pipeServe(path, (fd, pid) => {
      let socket: Socket;
      try {
        socket = new Socket({ fd, readable: true, writable: true, allowHalfOpen: false });
      } catch {
        try {
          closeSync(fd);
        } catch {
          // nothing more to let go
        }
        return;
      }
      if (stopped) return socket.destroy(); // handed over as the server closed
      notePipePeer(socket, { pid, uid: null });
      onConnection(socket);
    });
  } catch (error) {
    return (error as { code?: unknown }).code === "QT_EPIPE" ? undefined : "net";
  }
  if (!close) return "net";
  const stop = close;
  return () => {
    stopped = true;
    stop();
  };
}

/**
 * Offers the endpoint within `bounds` (relayBounds). Returns undefined when no socket can be made
 * here (the tool then works as before, without a relay).
 */
export async function startRelayServer(bounds: RelayBounds, handlers: RelayHandlers): Promise<RelayServer | undefined> {
  const pipe = process.platform === "win32";
  let dir: string | undefined;
  if (!pipe) {
    try {
      dir = mkdtempSync(join(tmpdir(), `${DIRECTORY_PREFIX}${process.pid}-`)); // mkdtemp makes it mode 0700
    } catch {
      return undefined;
    }
    // Directories of pis that were killed (SIGKILL, or SIGINT in print mode) go now, in the background.
    void sweepRelayDirectories().catch(() => undefined);
  }
  const path = relayEndpoint(process.platform, {
    dir: dir ?? "",
    user: userName(),
    pid: process.pid,
    random: randomBytes(8).toString("hex"),
  });
  const askSecret = Buffer.from(randomBytes(32).toString("hex"), "utf8");
  const controlSecret = Buffer.from(randomBytes(32).toString("hex"), "utf8");
  const window = Math.max(bounds.unverifiedBytes, SECRET_FIRST_BYTES);
  const sockets = new Set<Socket>();
  let waiting = 0;

  /** The right a secret gives, compared in constant time with both. */
  const rightOf = (given: string): Right | undefined => {
    const g = Buffer.from(given, "utf8");
    if (g.length !== askSecret.length) return undefined;
    const asks = timingSafeEqual(g, askSecret);
    const controls = timingSafeEqual(g, controlSecret);
    return controls ? "control" : asks ? "ask" : undefined;
  };

  const serve = (socket: Socket, m: Record<string, unknown>, right: Right, gone: AbortSignal) => {
    /** The one reply; never throws (a reply that cannot be written closes the connection). */
    const reply = (message: Record<string, unknown>) => {
      try {
        if (!socket.destroyed) socket.end(JSON.stringify(message) + "\n");
      } catch {
        socket.destroy();
      }
    };
    const refuse = (message: string) => reply({ type: "error", message });
    if (m.type !== "ask" && right !== "control") {
      if (m.type === "list" || m.type === "answer" || m.type === "watch") {
        return refuse(`${m.type} needs the endpoint's control secret (the per-user registry's); ${RELAY_ENV} only lets its holder ask`);
      }
      return socket.destroy();
    }
    switch (m.type) {
      case "ask": {
        if (typeof m.args !== "string") return socket.destroy();
        if (waiting >= bounds.maxWaiting) {
          const why = `this pi already has ${waiting} relayed questions waiting, the most it takes at once`;
          return refuse(`${why}; ask again once one of them is answered`);
        }
        const a = (m.asker && typeof m.asker === "object" ? m.asker : {}) as Record<string, unknown>;
        let caller: string | undefined;
        try {
          caller = handlers.caller?.(socket);
        } catch {
          caller = undefined;
        }
        // Anything but a pi is named by what the kernel says, never by the name it gives itself.
        const asker: RelayAsker = caller
          ? { process: caller }
          : {
              ...(typeof a.name === "string" && a.name.trim() ? { name: a.name } : {}),
              ...(typeof a.pid === "number" && Number.isSafeInteger(a.pid) && a.pid > 0 ? { pid: a.pid } : {}),
              ...(typeof a.cwd === "string" && a.cwd ? { cwd: a.cwd } : {}),
            };
        // Counted until it is answered or its child goes away, whichever comes first.
        waiting++;
        let counted = true;
        const release = () => {
          if (counted) waiting--;
          counted = false;
        };
        gone.addEventListener("abort", release, { once: true });
        let asked: Promise<RelayAnswer>;
        try {
          asked = Promise.resolve(handlers.ask({ args: m.args, asker, signal: gone }));
        } catch (error) {
          asked = Promise.reject(error);
        }
        asked.then(
          (answer) => {
            release();
            reply(answer);
          },
          (error: unknown) => {
            release();
            refuse(messageOf(error));
          },
        );
        return;
      }
      case "list":
        return reply(handlers.list());
      case "answer": {
        if (typeof m.qid !== "string" || typeof m.outcome !== "string") return socket.destroy();
        // The agent's own commands may not answer for the person (peer.ts); said back as a result.
        const standing: Standing = handlers.standing ? handlers.standing(socket) : { kind: "person" };
        if (standing.kind === "refused") return reply({ type: "result", ok: false, code: "refused", reason: standing.reason });
        return reply({ type: "result", ...handlers.answer(m.qid, m.outcome, m.answers, m.discussion, standing) });
      }
      case "watch": {
        if (typeof m.qid !== "string") return socket.destroy();
        const qid = m.qid;
        const stop = handlers.watch(qid, () => reply({ type: "closed", qid }));
        gone.addEventListener(
          "abort",
          () => {
            try {
              stop();
            } catch {
              // the watch is gone with its connection either way
            }
          },
          { once: true },
        );
        return;
      }
      default:
        return socket.destroy();
    }
  };

  /** Connections still to show a secret, oldest first: past maxUnverified the oldest goes, so a
   * client that sends its line at once always gets through a crowd of silent ones. */
  const unverified = new Set<Socket>();
  let askConnections = 0;
  /** Bytes of unfinished lines held now, by right (unverified lines hold at most the window). */
  const held = { ask: 0, control: 0 };

  const onConnection = (socket: Socket) => {
    socket.unref();
    socket.on("error", () => socket.destroy());
    const oldest = unverified.size >= bounds.maxUnverified ? unverified.values().next().value : undefined;
    if (oldest) {
      unverified.delete(oldest);
      oldest.destroy();
    }
    if (sockets.size >= bounds.maxConnections) {
      socket.destroy(); // every open connection has shown a secret: the newest is the one closed
      return;
    }
    sockets.add(socket);
    unverified.add(socket);
    const gone = new AbortController();
    let right: Right | undefined;
    let parts: Buffer[] = [];
    let size = 0;
    let most = 0;
    let read = false;
    // A connection that has not shown its secret in time is closed, and so is one whose line is
    // not complete in time: nothing holds a slot or memory for long without a whole request.
    const timer = setTimeout(() => socket.destroy(), bounds.unverifiedMs);
    timer.unref();
    const lineTimer = setTimeout(() => socket.destroy(), bounds.lineMs);
    lineTimer.unref();
    /** The connection showed `to`'s secret; false when it may not go on (too many ask connections). */
    const verify = (to: Right): boolean => {
      if (right) return true;
      unverified.delete(socket);
      clearTimeout(timer);
      if (to === "ask" && askConnections >= bounds.maxAskConnections) return false;
      right = to;
      if (to === "ask") askConnections++;
      held[to] += size;
      return true;
    };
    /** Gives back what this connection's unfinished line held. */
    const release = () => {
      if (right) held[right] -= size;
      parts = [];
      size = 0;
    };
    socket.on("close", () => {
      sockets.delete(socket);
      unverified.delete(socket);
      clearTimeout(timer);
      clearTimeout(lineTimer);
      const wasVerified = right !== undefined;
      release();
      if (right === "ask") askConnections--;
      try {
        bounds.observe?.({ bytesRead: socket.bytesRead, held: most, verified: wasVerified });
      } catch {
        // a test's observer: nothing of the endpoint's
      }
      gone.abort();
    });

    /** The one request's line: its secret decides what it may do. */
    const take = (line: string) => {
      let m: unknown;
      try {
        m = JSON.parse(line);
      } catch {
        return socket.destroy();
      }
      if (!m || typeof m !== "object" || Array.isArray(m)) return socket.destroy();
      const message = m as Record<string, unknown>;
      const given = typeof message.secret === "string" ? rightOf(message.secret) : undefined;
      // A line that showed one secret at its start may not carry another.
      if (!given || (right && given !== right) || !verify(given)) return socket.destroy();
      serve(socket, message, given, gone.signal);
    };

    socket.on("data", (chunk: Buffer) => {
      // Nothing a client sends may throw out of here: whatever goes wrong closes this connection.
      try {
        if (read) return socket.destroy(); // one request per connection: nothing may follow its line
        const nl = chunk.indexOf(10);
        const end = nl < 0 ? chunk.length : nl;
        if (!right && size + end > window) {
          // The line goes past what is read before its secret is seen: it must begin with it.
          const head = Buffer.concat([...parts, chunk.subarray(0, end)], SECRET_FIRST_BYTES).toString("latin1");
          const given = SECRET_FIRST.exec(head)?.[1];
          const to = given === undefined ? undefined : rightOf(given);
          if (!to || !verify(to)) return socket.destroy();
        }
        if (right) {
          // What this right may make pi hold: one line, and all unfinished lines together.
          const cap = right === "control" ? bounds.messageBytes : bounds.askMessageBytes;
          if (size + end > cap) return socket.destroy();
          if (right === "ask" && held.ask + end > bounds.askHeldBytes) return socket.destroy();
          if (held.ask + held.control + end > bounds.heldBytes) return socket.destroy();
          held[right] += end;
        }
        parts.push(chunk.subarray(0, end));
        size += end;
        most = Math.max(most, size);
        if (nl < 0) return;
        if (nl + 1 < chunk.length) return socket.destroy(); // a second request on the same connection
        read = true;
        clearTimeout(lineTimer); // the line is whole: its question may wait as long as it takes
        const line = Buffer.concat(parts, size).toString("utf8");
        release();
        take(line);
      } catch {
        socket.destroy();
      }
    });
  };

  const stopServing = await serveEndpoint(path, onConnection);
  // A directory goes with its socket; a pipe goes when the server closes (or the process ends).
  const remove = () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  if (!stopServing) {
    remove();
    return undefined;
  }

  process.once("exit", remove);
  let closed = false;
  const variable = `${VERSION}:${askSecret.toString("utf8")}:${path}`;
  const control = `${VERSION}:${controlSecret.toString("utf8")}:${path}`;
  own.add(variable);
  return {
    variable,
    control,
    close() {
      if (closed) return;
      closed = true;
      own.delete(variable);
      process.removeListener("exit", remove);
      // The children waiting on this pi learn it is gone (their questions end as interrupted).
      for (const s of sockets) s.destroy();
      stopServing();
      remove();
    },
  };
}

// ---- the child's end: a question asked through the pi above, its reply as this pi's result ----

/** Whether a pi above offers the relay: this process inherited an endpoint that is not its own. */
export function relayAbove(variable: string | undefined = process.env[RELAY_ENV]): boolean {
  return parseRelayVariable(variable) !== undefined && !isOwnRelay(variable);
}

/** Asks the pi above (no UI of this pi's own: a subagent) and reads its reply as this pi's tool
 * result; undefined when the pi above cannot ask either, or is not reachable (said on stderr):
 * then this pi asks the usual way. */
export async function askAbove(
  json: ArgsJson,
  cwd: string,
  signal: AbortSignal | undefined,
  s: Settings,
): Promise<QuestionResult | undefined> {
  const native = addon();
  const variable = process.env[RELAY_ENV];
  const endpoint = parseRelayVariable(variable);
  if (!endpoint || isOwnRelay(variable)) return undefined;
  const flags = escapeFlags(s);
  const asker: RelayAsker = { pid: process.pid, cwd };
  const name = adoptedAskerName();
  if (name) asker.name = name;
  // The reply can be far longer than the question (typed answers and notes at their limits):
  // its cap is the bound of every legitimate message, so no answer the person gave is refused.
  const reply = await askThroughRelay(endpoint, native.normalize(json), asker, signal, native.limits.relayMessageBytes, native);
  switch (reply.type) {
    case "answer":
      try {
        const answers = reply.answers ? JSON.stringify(reply.answers) : null;
        const said = reply.outcome === "discuss" ? String(reply.discussion ?? "") : null; // the person's words
        const timeoutFlags = reply.outcome === "timed_out" ? native.timeoutFlags((reply as { timeout?: unknown }).timeout) : 0;
        return toToolResult(native.result(json, reply.outcome as Outcome, "relay", Date.now(), said, answers, flags | timeoutFlags), s);
      } catch (error) {
        // An answer this pi cannot read (a different version above?): nothing was answered.
        print(process.stderr, `pi-question: the answer from the pi above could not be used: ${(error as Error).message}\n`);
        return toToolResult(native.result(json, "interrupted", "relay", Date.now(), null, null, flags), s);
      }
    case "interrupted":
      return toToolResult(native.result(json, "interrupted", "relay", Date.now(), null, null, flags), s);
    case "error":
      throw new Error(reply.message);
    case "unreachable":
      print(
        process.stderr,
        `pi-question: the question relay named by ${RELAY_ENV} is not reachable (${reply.reason}); asking here instead\n`,
      );
      return undefined;
    default:
      return undefined; // the pi above cannot ask either: the usual way
  }
}
