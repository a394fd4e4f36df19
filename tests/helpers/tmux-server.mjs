// tmux-server.mjs — a tmux server of the test process's own, on socket `-L <prefix>-<pid>`.
// Suites that run side by side never share a server, and the server does not exit between two
// tests: a server exits with its last session, and a session started in that moment died with it
// (seen in CI as a screen that stayed empty for 30 s). A person's own tmux, the default server,
// is never touched. The server is ended when the process exits; servers of test processes that
// are gone (a crashed run) are ended the next time a suite starts.
import { spawnSync } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { alive } from "../../extension/elsewhere/relay-wire.mjs";

/** Where tmux keeps its sockets (tmux's own rule: $TMUX_TMPDIR or /tmp, then tmux-<uid>). */
const socketDir = () => join(process.env.TMUX_TMPDIR || "/tmp", `tmux-${process.getuid()}`);

/** Ends the servers (and removes the sockets) that test processes now gone left behind. */
function endServersOfGoneProcesses(prefix) {
  let names = [];
  try {
    names = readdirSync(socketDir());
  } catch {
    return; // no tmux server has run yet
  }
  for (const name of names) {
    const m = name.match(/^(.+)-(\d+)$/);
    if (!m || m[1] !== prefix || Number(m[2]) === process.pid || alive(Number(m[2]))) continue;
    spawnSync("tmux", ["-L", name, "kill-server"], { stdio: "ignore" });
    rmSync(join(socketDir(), name), { force: true });
  }
}

/** This process's server for `prefix`: tmux(...args) on it, returning spawnSync's result. */
export function ownServer(prefix) {
  const socket = `${prefix}-${process.pid}`;
  endServersOfGoneProcesses(prefix);
  // It stays up without sessions (exit-empty off) until the process exits: a server exits with
  // its last session, and a session started in that moment, by the next test, died with it.
  spawnSync("tmux", ["-L", socket, "start-server", ";", "set-option", "-s", "exit-empty", "off"], { stdio: "ignore" });
  process.on("exit", () => {
    spawnSync("tmux", ["-L", socket, "kill-server"], { stdio: "ignore" });
    rmSync(join(socketDir(), socket), { force: true });
  });
  return (...args) => spawnSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
}
