// peer.ts — who is at the other end of a relay connection, from what the kernel says
// (addon.peerCredentials: Linux and macOS give the pid and uid, the BSDs the uid only; Windows'
// named pipe gives the client's pid as it connects, noted on the socket) and the chain of parent
// processes with their command lines (Linux: /proc; macOS: one `ps` snapshot — written for
// macOS, run only on its CI; Windows: the addon). The relay lets a connection with the control secret list, answer or watch only
// when it comes from this user and from no process a pi started — the agent's own commands
// (its bash, a repository's `npm test`) may not act as the person. Where the OS cannot tell, an
// answer is taken but said to be unverified, never as the person's (docs/elsewhere.md).
import { execFileSync } from "node:child_process";
import { closeSync, openSync, readSync } from "node:fs";
import type { Socket } from "node:net";
import { addon } from "../addon.ts";
import type { NativeAddon } from "../addon-types.ts";
import { PEER_TEXT } from "../text/text.ts";
import { RELAY_ENV } from "./relay-wire.mjs";

/** What the kernel says of a connection's peer; null where this OS does not tell. */
export interface Peer {
  pid: number | null;
  uid: number | null;
}

/** What a connection with the control secret may do: act as the person (`person`), act but be
 * said to be unverified (`unverified`: the OS cannot tell who it is), or nothing (`refused`). */
export type Standing = { kind: "person" } | { kind: "unverified"; why: string } | { kind: "refused"; reason: string };

/** How to read the process tree (tests give their own). */
export interface ProcessTree {
  parentOf(pid: number): number | undefined;
  commandLine(pid: number): string[] | undefined;
  /** Whether the process's environment holds the relay's variable (every process a pi starts
   * inherits it, even one that left its parents since: `nohup … &`, setsid); undefined where the
   * environment cannot be read (macOS, another user's process). */
  inheritsRelay?(pid: number): boolean | undefined;
  /** Where a walk that ends without meeting a pi proves nothing (Windows: a command the agent left
   * running looks like the person's there), why: the peer is then unverified, not the person. */
  rootUnverified?: string;
}

/** Where a Windows relay pipe's client carries what Windows said of its peer when it connected
 * (a registered symbol: every load of this module, jiti's included, reads the same one). */
const PIPE_PEER = Symbol.for("pi-question.pipePeer");

/** Notes what Windows said of a pipe client's peer (relay.ts), for peerOf. */
export function notePipePeer(socket: Socket, peer: Peer): void {
  Object.defineProperty(socket, PIPE_PEER, { value: Object.freeze({ ...peer }) });
}

/** The peer of a connected Unix socket (Node keeps its descriptor at socket._handle.fd), or of a
 * Windows pipe client (noted as it connected). */
export function peerOf(socket: Socket): Peer {
  const noted = (socket as unknown as { [PIPE_PEER]?: Peer })[PIPE_PEER];
  if (noted) return { ...noted };
  const fd = (socket as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  if (typeof fd !== "number" || fd < 0) return { pid: null, uid: null };
  try {
    return addon().peerCredentials(fd);
  } catch {
    return { pid: null, uid: null };
  }
}

/** At most `most` bytes of a /proc file; undefined when it cannot be read. */
function readProc(path: string, most: number): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const buffer = Buffer.alloc(most);
    let length = 0;
    while (length < most) {
      const n = readSync(fd, buffer, length, most - length, null);
      if (n <= 0) break;
      length += n;
    }
    return buffer.toString("utf8", 0, length);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Linux's /proc: a process's parent and its command line. */
export const procTree: ProcessTree = {
  parentOf(pid) {
    const stat = readProc(`/proc/${pid}/stat`, 4096); // "pid (comm) state ppid …"; comm may hold ")"
    if (!stat) return undefined;
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ppid = Number(fields[1]);
    return Number.isSafeInteger(ppid) && ppid >= 0 ? ppid : undefined;
  },
  commandLine(pid) {
    const line = readProc(`/proc/${pid}/cmdline`, addon().limits.peerCommandLineBytes);
    return line === undefined ? undefined : line.split("\0").filter((a) => a !== "");
  },
  inheritsRelay(pid) {
    // The environment as the process started (what a pi gave it); bounded: a process may carry
    // a large one, and the variable is looked for in what was read.
    const environ = readProc(`/proc/${pid}/environ`, addon().limits.peerEnvironBytes);
    if (environ === undefined) return undefined;
    return `\0${environ}`.includes(`\0${RELAY_ENV}=`);
  },
};

/** macOS (no /proc): one snapshot of every process from `ps` (its parent and command line,
 * the words split at spaces); undefined when ps cannot be run. */
export function psTree(
  run: () => string = () =>
    execFileSync("/bin/ps", ["-A", "-o", "pid=,ppid=,command="], { encoding: "utf8", timeout: 2000, maxBuffer: 16 * 1024 * 1024 }),
): ProcessTree | undefined {
  let out: string;
  try {
    out = run();
  } catch {
    return undefined;
  }
  const procs = new Map<number, [number, string[]]>();
  for (const line of out.split("\n")) {
    const m = /^\s*(\d+)\s+(\d+)\s?(.*)$/.exec(line);
    if (m) procs.set(Number(m[1]), [Number(m[2]), m[3].split(" ").filter((w) => w !== "")]);
  }
  return { parentOf: (pid) => procs.get(pid)?.[0], commandLine: (pid) => procs.get(pid)?.[1] };
}

/** A Windows command line's words, as the C runtime splits them: blanks apart outside quotes, a
 * quote toggles ("" inside quotes is a quote), backslashes before a quote escape it (2n: n and a
 * toggle; 2n+1: n and a quote). */
export function splitWindowsCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let quoted = false;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "\\") {
      let n = 0;
      while (line[i + n] === "\\") n++;
      if (line[i + n] === '"') {
        word += "\\".repeat(Math.floor(n / 2));
        if (n % 2) word += '"';
        else quoted = !quoted;
        i += n;
      } else {
        word += "\\".repeat(n);
        i += n - 1;
      }
      started = true;
    } else if (c === '"') {
      if (quoted && line[i + 1] === '"') {
        word += '"'; // "" inside quotes: a quote (the C runtime since 2008)
        i++;
      } else quoted = !quoted;
      started = true;
    } else if ((c === " " || c === "\t") && !quoted) {
      if (started) words.push(word);
      word = "";
      started = false;
    } else {
      word += c;
      started = true;
    }
  }
  if (started) words.push(word);
  return words;
}

/** Windows, through the addon: a process's parent from the system's process list (its start time
 * checked: Windows keeps a gone parent's pid, which a later process may get) and its command
 * line from its own memory. A walk that ends at a gone parent proves nothing there (no
 * environment to read), so a peer no pi is found above is unverified, never the person. */
export function windowsTree(native: Pick<NativeAddon, "processParent" | "processCommandLine"> = addon()): ProcessTree {
  return {
    parentOf(pid) {
      const parent = native.processParent(pid);
      return parent === null ? undefined : parent;
    },
    commandLine(pid) {
      const line = native.processCommandLine(pid);
      return line === null ? undefined : splitWindowsCommandLine(line);
    },
    rootUnverified: PEER_TEXT.windowsRoot,
  };
}

/** How this OS shows the process tree: /proc on Linux, ps on macOS, the addon on Windows;
 * undefined elsewhere. */
export function processTree(platform: string = process.platform): ProcessTree | undefined {
  return platform === "linux" ? procTree : platform === "darwin" ? psTree() : platform === "win32" ? windowsTree() : undefined;
}

/** Whether a command line is a pi's: the command or its script named `pi` (`pi.exe`, `pi.cmd` on
 * Windows), or pi's cli.js. */
export function isPiCommand(argv: readonly string[]): boolean {
  return argv
    .slice(0, 2)
    .some((a) => /^pi(\.exe|\.cmd)?$/i.test(a.split(/[\\/]/).pop() ?? "") || /pi-coding-agent[\\/]dist[\\/]cli\.[cm]?js$/.test(a));
}

/** A command line as said in a refusal: its first words (the program by its file name: the pid
 * names the process exactly), sanitized and cut. */
export function commandWords(argv: readonly string[] | undefined): string {
  if (!argv || !argv.length) return "a process";
  const words = [argv[0].split(/[\\/]/).pop() || argv[0], ...argv.slice(1, 4)].join(" ");
  const cut = words.length > 80 ? `${words.slice(0, 79)}…` : words;
  return `\`${addon().sanitize(cut, false)}\``;
}

/**
 * Who asks through the relay when it is not a pi: its command line and pid ("`node evil.js` (pid
 * 1234)"), from the kernel and /proc; undefined for a pi (its command line is pi's: a subagent; or
 * this pi itself) and where the OS does not say (the name the asker gives itself then stands).
 */
export function callerOf(peer: Peer, tree: ProcessTree = procTree, self: number = process.pid): string | undefined {
  if (peer.pid === null || peer.pid === self) return undefined; // this pi's own code counts as this pi
  const argv = tree.commandLine(peer.pid);
  if (argv && isPiCommand(argv)) return undefined;
  return `${commandWords(argv)} (pid ${peer.pid})`;
}

/**
 * What the peer of a connection with the control secret may do. `self`: this pi's pid and uid;
 * `pis`: the pids of the other live pis (the registry). Refused: another user; a process this pi
 * or another pi started (a pi among its parents: this pid, a registered pi's, or a command line
 * that is pi's); a chain deeper than limits.peerAncestors. The peer this pi itself (code loaded
 * in it, an extension) is not a process the agent started.
 */
export function standingOf(
  peer: Peer,
  self: { pid: number; uid: number | null },
  pis: ReadonlySet<number>,
  tree: ProcessTree = procTree,
  platform: string = process.platform,
): Standing {
  if (peer.uid !== null && self.uid !== null && peer.uid !== self.uid) return { kind: "refused", reason: PEER_TEXT.otherUser(peer.uid) };
  if (peer.pid === null) return { kind: "unverified", why: PEER_TEXT.cannotTell(platform) };
  if (peer.pid === self.pid) return { kind: "person" };
  // The peer itself a pi (another pi's code, an extension there): not the person either.
  const own = tree.commandLine(peer.pid);
  if (pis.has(peer.pid) || (own && isPiCommand(own))) return { kind: "refused", reason: PEER_TEXT.isAPi(commandWords(own), peer.pid) };
  const most = addon().limits.peerAncestors;
  let pid = peer.pid;
  for (let depth = 0; depth < most; depth++) {
    const parent = tree.parentOf(pid);
    // Gone before it could be checked (it wrote its answer and exited), or a parent gone while
    // walking: nothing says a pi did not start it, so it may not answer for the person.
    if (parent === undefined) return { kind: "refused", reason: PEER_TEXT.gone(pid) };
    if (parent <= 1) {
      // Reached init (or a reaper) without meeting a pi: unless it inherited a pi's relay variable
      // (a command the agent left running in the background: nohup … &, setsid).
      if (tree.inheritsRelay?.(peer.pid)) return { kind: "refused", reason: PEER_TEXT.inheritsRelay(commandWords(own), peer.pid) };
      return tree.rootUnverified ? { kind: "unverified", why: tree.rootUnverified } : { kind: "person" };
    }
    const argv = tree.commandLine(parent);
    if (parent === self.pid) return { kind: "refused", reason: PEER_TEXT.startedByThisPi(commandWords(argv), parent) };
    if (pis.has(parent) || (argv && isPiCommand(argv)))
      return { kind: "refused", reason: PEER_TEXT.startedByAnotherPi(commandWords(argv), parent) };
    pid = parent;
  }
  return { kind: "refused", reason: PEER_TEXT.tooDeep(most) };
}
