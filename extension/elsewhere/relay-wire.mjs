// relay-wire.mjs — the wire side of the question endpoint every asking pi offers (relay.ts has
// the server): the endpoint variable, JSON-line framing with a size cap, one request and its
// reply, and the per-user registry of endpoints that `pi-question pending` / `answer` read (each
// entry holds its endpoint's control secret, which lists and answers; children get only the one
// that asks).
// Plain JavaScript, so the extension (through jiti) and the standalone command share it.
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createConnection, Socket } from "node:net";
import { homedir } from "node:os";
import { basename, join, posix, win32 } from "node:path";

/** The variable that announces an endpoint to child processes. */
export const RELAY_ENV = "PI_QUESTION_RELAY";
/** A subagent launcher may name the agent a child runs as: "asked by <name>". It names that one
 * process: pi-question takes it out of the environment its own children inherit. */
export const ASKER_ENV = "PI_QUESTION_ASKER";
/** Left by pi-question for its children: the names of the subagents between the pi that asks the
 * person and them, joined by ASKER_SEPARATOR ("worker › helper" for a worker's helper). */
export const ASKER_CHAIN_ENV = "PI_QUESTION_ASKER_CHAIN";
export const ASKER_SEPARATOR = " › ";

/** The endpoint a variable names ("v1:<64 hex secret>:<socket path>"); undefined when absent or
 * malformed. */
export function parseRelayVariable(value) {
  if (!value) return undefined;
  const m = /^v1:([0-9a-f]{64}):(.+)$/s.exec(value);
  return m ? { secret: m[1], path: m[2] } : undefined;
}

/** Splits a byte stream into lines of at most `cap` bytes: `onLine` gets each line, `onTooLong`
 * fires once when a line goes over the cap (nothing more is read after it). */
export function lineReader(cap, onLine, onTooLong) {
  let parts = [];
  let size = 0;
  let broken = false;
  return (chunk) => {
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

/** The pid in a relay pipe's name (`\\.\pipe\pi-question-<user>-<pid>-<random>`, relay.ts). */
const PIPE_OWNER = /^\\\\\.\\pipe\\pi-question-[A-Za-z0-9._-]*-([1-9][0-9]{0,9})-[0-9a-f]+$/i;

/** Why nothing may be sent to the endpoint at `path` on `platform`, or undefined. On Windows a
 * named pipe's name is free again once its server closed it, and any user may then make a pipe
 * under it: a pipe whose pi (the pid in its name) is gone, or a name with no pid, is refused
 * before the secret goes out. A POSIX socket lies in a directory only its owner can write to. */
export function refusedEndpoint(path, platform = process.platform, isAlive = alive) {
  if (platform !== "win32") return undefined;
  const m = PIPE_OWNER.exec(path);
  if (!m) return `${path} is not a pi-question pipe (\\\\.\\pipe\\pi-question-<user>-<pid>-<random>): nothing is sent to it`;
  if (!isAlive(Number(m[1])))
    return `the pi that made ${path} (pid ${m[1]}) is gone and anyone may have taken the pipe's name since: nothing is sent to it`;
  return undefined;
}

/** Why a relay pipe's client end was refused (the addon's pipeConnect), said as a reason. */
function pipeRefusal(path, r, ownerPid) {
  switch (r.refused) {
    case "no-such-pipe":
      return "ENOENT";
    case "busy":
      return "EAGAIN";
    case "other-process":
      return `${path} is served by ${r.serverPid === null ? "a process Windows does not name" : `process ${r.serverPid}`}, not by the pi its name says (pid ${ownerPid}): someone took the name, and nothing is sent to it`;
    case "other-user":
      return `${path} is served by a process that does not run as this user (pid ${r.serverPid ?? "?"}): nothing is sent to it`;
    default:
      return `${path} could not be opened (Windows error ${r.errno})`;
  }
}

/**
 * The client's end of a relay pipe on Windows, through the addon (`pipes`: its pipeConnect and
 * limits): opened at identification level once its server is the pi the name says, running as
 * this user. Resolves { socket } (connected), { reason } (refused: nothing was sent), or
 * undefined when the addon cannot open pipes here (the caller then uses net). While every
 * instance is taken (busy) it tries again every 25 ms, for `waitMs` at most.
 */
export function openPipe(pipes, path, { waitMs, signal } = {}) {
  const ownerPid = Number(PIPE_OWNER.exec(path)?.[1] ?? -1);
  const until = Date.now() + (waitMs ?? pipes.limits.pipeBusyWaitMs);
  return new Promise((resolve) => {
    const attempt = () => {
      if (signal?.aborted) return resolve({ reason: "aborted" });
      let r;
      try {
        r = pipes.pipeConnect(path, ownerPid);
      } catch (error) {
        return resolve({ reason: error.message });
      }
      if (r === undefined) return resolve(undefined);
      if (typeof r.fd === "number") {
        try {
          return resolve({ socket: new Socket({ fd: r.fd, readable: true, writable: true }) });
        } catch (error) {
          try {
            closeSync(r.fd); // the pipe's end goes, so its server sees the client leave
          } catch {}
          return resolve({ reason: error.message });
        }
      }
      // kept referenced: a child's question may be all that holds its process (bounded by waitMs)
      if (r.refused === "busy" && Date.now() < until) return void setTimeout(attempt, 25);
      resolve({ reason: pipeRefusal(path, r, ownerPid) });
    };
    attempt();
  });
}

/**
 * Sends one message to an endpoint and waits for one reply line.
 * Resolves { type: "reply", message } | { type: "interrupted" } (the connection ended without a
 * reply, the reply was malformed or over `cap`, or `signal` aborted) | { type: "unreachable",
 * reason } (nothing listens there, or — reason EAGAIN — its queue of connections not yet
 * accepted is full, or refusedEndpoint's or openPipe's reason: no connection is made) | { type:
 * "timeout", stage: "connect" | "reply" } (the endpoint did not accept the connection within
 * `connectMs`, or did not reply within `replyMs` of accepting it).
 * Without `connectMs` / `replyMs` it waits as long as it takes (a child's question waits for the
 * person). A process stopped with Ctrl+Z, or whose event loop is blocked (pi inside its external
 * editor), still gets its connections accepted by the kernel, into the socket's backlog: only the
 * reply timeout catches it. `pipes`: the addon, which opens a Windows pipe checking who serves it
 * (openPipe); without it, or where it cannot, net connects.
 */
export function request(endpoint, message, { cap, signal, connectMs, replyMs, pipes } = {}) {
  const refused = refusedEndpoint(endpoint.path);
  if (refused) return Promise.resolve({ type: "unreachable", reason: refused });
  return new Promise((resolve) => {
    let settled = false;
    let connected = false;
    let timer;
    let socket;
    const finish = (outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      socket?.destroy();
      resolve(outcome);
    };
    const within = (ms, stage) => {
      clearTimeout(timer);
      if (ms !== undefined) timer = setTimeout(() => finish({ type: "timeout", stage }), ms);
    };
    const onAbort = () => finish({ type: "interrupted" });
    if (signal?.aborted) return finish({ type: "interrupted" });
    signal?.addEventListener("abort", onAbort, { once: true });
    within(connectMs, "connect");
    const onConnect = () => {
      connected = true;
      within(replyMs, "reply");
      // The secret goes first: the endpoint reads no more than a few KB before it has seen it.
      socket.write(JSON.stringify({ secret: endpoint.secret, ...message }) + "\n");
    };
    const start = (s, already) => {
      if (settled) return s.destroy();
      socket = s;
      socket.on("connect", onConnect);
      socket.on(
        "data",
        lineReader(
          cap ?? 1024 * 1024,
          (line) => {
            let m;
            try {
              m = JSON.parse(line);
            } catch {
              return finish({ type: "interrupted" });
            }
            finish(m && typeof m === "object" && typeof m.type === "string" ? { type: "reply", message: m } : { type: "interrupted" });
          },
          () => finish({ type: "interrupted" }),
        ),
      );
      socket.on("error", (error) =>
        finish(connected ? { type: "interrupted" } : { type: "unreachable", reason: error.code ?? error.message }),
      );
      socket.on("close", () => finish(connected ? { type: "interrupted" } : { type: "unreachable", reason: "closed" }));
      if (already) onConnect();
    };
    if (pipes && process.platform === "win32") {
      openPipe(pipes, endpoint.path, { waitMs: connectMs, signal }).then((r) => {
        if (r === undefined) start(createConnection(endpoint.path), false);
        else if (r.socket) start(r.socket, true);
        else finish({ type: "unreachable", reason: r.reason });
      });
    } else {
      start(createConnection(endpoint.path), false);
    }
  });
}

/** A child's question through the endpoint: the parent's answer, `interrupted`, or `unreachable`. */
export async function askThroughRelay(endpoint, args, asker, signal, cap, pipes) {
  const r = await request(endpoint, { type: "ask", args, asker }, { cap, signal, pipes });
  if (r.type !== "reply") return r;
  const m = r.message;
  return m.type === "answer" || m.type === "unavailable" || m.type === "error" ? m : { type: "interrupted" };
}

/** The details' answers in the structured form the C answer model reads back exactly: option
 * values (never re-matched by text), typed text apart, notes kept, skipped questions as such, a
 * secret as its file. */
export function structuredAnswers(details) {
  const out = Object.create(null);
  for (const a of details.answers) {
    const q = details.questions.find((x) => x.id === a.id);
    if (!q) continue;
    if (a.secret) {
      // a secret goes down as the file this pi wrote it to ("" when it could not), never its text
      out[a.id] = { secretFile: typeof a.file === "string" ? a.file : "", ...(a.note ? { note: a.note } : {}) };
      continue;
    }
    const indices = a.indices ?? (a.index ? [a.index] : []);
    // an option is an object, or a bare string that is its own value (the canonical form)
    const selected = indices
      .map((i) => q.options?.[i - 1])
      .map((o) => (typeof o === "string" ? o : o?.value))
      .filter((v) => typeof v === "string");
    const entry = { selected };
    if (a.wasCustom) entry.wrote = a.values ? a.values[a.values.length - 1] : a.value;
    if (a.note) entry.note = a.note;
    out[a.id] = entry;
  }
  // the questions the person skipped on purpose (details.skipped): { skipped: reason, note? }
  for (const s of Array.isArray(details.skipped) ? details.skipped : []) {
    if (!s || typeof s.id !== "string" || !details.questions.some((x) => x.id === s.id)) continue;
    out[s.id] = s.note ? { skipped: s.reason, note: s.note } : { skipped: s.reason };
  }
  // the person's one note on the whole call (details.note): "" is no question's id
  if (typeof details.note === "string" && details.note) out[""] = details.note;
  return out;
}

// ---- how a question ended: the board's (board/endings.mjs), on the wire too ----------------------
export { ENDING_STRINGS, endingOf } from "../board/endings.mjs";

// ---- the registry: every asking pi's endpoint, for other terminals ---------------------------

/** Where the per-user directory of endpoints is on `platform`, from `env` alone (no file is
 * touched). POSIX: $XDG_RUNTIME_DIR/pi-question, else ~/.pi/agent/run. Windows:
 * %LOCALAPPDATA%\pi-question (else <profile>\AppData\Local\pi-question): inside the user's profile. */
export function registryLocation(env = process.env, platform = process.platform, home = homedir()) {
  if (platform === "win32") {
    const local = env.LOCALAPPDATA || win32.join(env.USERPROFILE || home, "AppData", "Local");
    return win32.join(local, "pi-question");
  }
  return env.XDG_RUNTIME_DIR ? posix.join(env.XDG_RUNTIME_DIR, "pi-question") : posix.join(env.HOME || home, ".pi", "agent", "run");
}

/** The per-user directory of endpoints (registryLocation), made when missing and refused when it
 * is a symlink (or a junction) or not a directory. What keeps other users out: on POSIX the
 * directory's mode 0700 and owner (checked here, the mode put back when it was widened); on
 * Windows, where modes are not enforced and files carry no uid, the ACL of the user's profile
 * that %LOCALAPPDATA% lies in (only the user, SYSTEM and Administrators), which a directory made
 * there inherits. */
export function registryDirectory(env = process.env, platform = process.platform) {
  const base = registryLocation(env, platform);
  mkdirSync(base, { recursive: true, mode: 0o700 });
  const st = lstatSync(base);
  const posixOwner = platform !== "win32" && typeof process.getuid === "function";
  if (!st.isDirectory() || (posixOwner && st.uid !== process.getuid())) {
    throw new Error(`${base} is not a directory of this user's; remove it`);
  }
  if (posixOwner && (st.mode & 0o077) !== 0) chmodSync(base, 0o700);
  return base;
}

/** A registry entry being written (`<pid>-<hex>.json.tmp`, renamed into place at once) that is
 * older than this, in ms, was left behind (a crash or a failed rename) and is removed. */
export const REGISTRY_TEMPORARY_STALE_MS = 60_000;

/** Whether process `pid` exists (one of another user's counts). Signal 0 only asks: on Windows
 * libuv opens the process and reads its exit code (a process of another user's that cannot be
 * opened is EPERM, alive). */
export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/** Registers an endpoint ({ variable, pid, cwd, session?, startedAt }: `variable` names the
 * socket with its control secret, so the entry is written mode 0600 and only ever here — on
 * Windows, where the mode is not enforced, the registry directory's ACL guards it); returns
 * the way to remove it. Never throws: without a registry, other terminals just cannot see this pi. */
export function registerEndpoint(entry, env = process.env) {
  try {
    const dir = registryDirectory(env);
    const file = join(dir, `${entry.pid}-${randomBytes(4).toString("hex")}.json`);
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, JSON.stringify(entry), { mode: 0o600, flag: "wx" }); // never through an existing name
    renameSync(tmp, file);
    const remove = () => rmSync(file, { force: true });
    process.once("exit", remove);
    return () => {
      process.removeListener("exit", remove);
      remove();
    };
  } catch {
    return () => undefined;
  }
}

/** Removes a left-behind `*.json.tmp`: one of a dead process, or older than
 * REGISTRY_TEMPORARY_STALE_MS. Only a regular file of this user's (looked at with lstat: a
 * symlink is never followed, nor removed). */
function removeStaleTemporary(file, name, now) {
  try {
    const st = lstatSync(file);
    if (!st.isFile() || (typeof process.getuid === "function" && st.uid !== process.getuid())) return;
    const pid = /^([0-9]+)-[0-9a-f]+\.json\.tmp$/.exec(name)?.[1];
    const dead = pid !== undefined && Number(pid) > 0 && !alive(Number(pid));
    if (dead || now - st.mtimeMs > REGISTRY_TEMPORARY_STALE_MS) unlinkSync(file);
  } catch {
    // gone already, or not ours to remove: the next listing looks again
  }
}

/** The registered endpoints of live processes. Entries of dead processes are removed, and so
 * are left-behind temporary files (removeStaleTemporary); an entry that is not a regular file
 * (a symlink) is neither read nor removed. */
export function listEndpoints(env = process.env, now = Date.now()) {
  let dir;
  try {
    dir = registryDirectory(env);
  } catch {
    return [];
  }
  const out = [];
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (name.endsWith(".json.tmp")) {
      removeStaleTemporary(file, name, now);
      continue;
    }
    if (!name.endsWith(".json")) continue;
    try {
      if (!lstatSync(file).isFile()) continue;
    } catch {
      continue;
    }
    let entry;
    try {
      entry = JSON.parse(readFileSync(file, "utf8"));
    } catch {
      continue;
    }
    const endpoint = parseRelayVariable(entry?.variable);
    if (!endpoint || !Number.isInteger(entry.pid)) continue;
    if (!alive(entry.pid)) {
      rmSync(file, { force: true });
      continue;
    }
    out.push({ ...entry, endpoint });
  }
  return out;
}

/** How a person is told which session of pi is meant (`pi-question pending`, the page): its
 * name, else a short id, else its file, else its pid. */
export function sessionLabel(session, pid) {
  if (session && typeof session === "object") {
    if (typeof session.name === "string" && session.name) return JSON.stringify(session.name);
    if (typeof session.id === "string" && session.id) return session.id.slice(0, 8);
    if (typeof session.file === "string" && session.file) return basename(session.file);
  }
  if (typeof session === "string" && session) return JSON.stringify(session); // an older pi: its name
  return `pid ${pid}`;
}

export { shortDirectory } from "../text/paths.mjs";
