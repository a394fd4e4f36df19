// tty-tmux.mjs — a command run in a tmux window on a real terminal, for the terminal-runner
// suites (e2e-tty*): the screen polled, `stty -g` recorded before and after the command, its
// exit code, stdout and stderr kept in a directory. `finished` appears only once everything is
// written (stty-after exists as soon as the shell opens it, before stty has written a byte:
// waiting for it raced with stty under load). Sessions live on a tmux server of the test
// process's own (socket `-L pq-tty-<pid>`, tmux-server.mjs), never a person's or another suite's.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ownServer } from "./tmux-server.mjs";

export const tmux = ownServer("pq-tty");
export const screen = (name) => tmux("capture-pane", "-p", "-t", name).stdout ?? "";

export async function waitFor(pred, what, timeoutMs = 30000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = pred();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${typeof what === "function" ? what() : what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const waitScreen = (name, re) =>
  waitFor(
    () => re.test(screen(name)),
    // said at the timeout: the screen then (not when the wait began), and whether the session lives
    () => `${re} on screen (session ${tmux("has-session", "-t", `=${name}`).status === 0 ? "alive" : "gone"}):\n${screen(name)}`,
  );

/** Runs `command` in a tmux window, recording stty -g before and after it and its exit code.
 * $VISUAL (it outranks $EDITOR for Ctrl+G) is unset unless `env` sets it. */
export function startInTmux(name, dir, command, env = {}, { cols = 100, rows = 40 } = {}) {
  tmux("kill-session", "-t", name);
  const script = join(dir, "run.sh");
  const exports = Object.entries(env)
    .map(([k, v]) => `export ${k}='${String(v).replace(/'/g, "'\\''")}'`)
    .join("\n");
  writeFileSync(
    script,
    `unset VISUAL\n${exports}\nstty -g > ${dir}/stty-before\n${command} > ${dir}/stdout 2> ${dir}/stderr\necho $? > ${dir}/code\nstty -g > ${dir}/stty-after\n: > ${dir}/finished\nsleep 60\n`,
  );
  // -c: the command runs in `dir`, never in the checkout (pi writes the project's .pi/ there)
  const r = tmux("new-session", "-d", "-s", name, "-c", dir, "-x", String(cols), "-y", String(rows), `bash ${script}`);
  if (r.status !== 0) throw new Error(`tmux could not start the session ${name}: ${r.stderr}`);
}

export const finished = (dir) => waitFor(() => existsSync(join(dir, "finished")), "the command to finish");
export const read = (dir, f) => readFileSync(join(dir, f), "utf8");
