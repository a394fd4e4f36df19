// tty-tmux.mjs — a command run in a tmux window on a real terminal, for the terminal-runner
// suites (e2e-tty*): the screen polled, `stty -g` recorded before and after the command, its
// exit code, stdout and stderr kept in a directory. `finished` appears only once everything is
// written (stty-after exists as soon as the shell opens it, before stty has written a byte:
// waiting for it raced with stty under load).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const tmux = (...args) => spawnSync("tmux", args, { encoding: "utf8" });
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

/** Runs `command` in a tmux window, recording stty -g before and after it and its exit code. */
export function startInTmux(name, dir, command, env = {}, { cols = 100, rows = 40 } = {}) {
  tmux("kill-session", "-t", name);
  const script = join(dir, "run.sh");
  const exports = Object.entries(env)
    .map(([k, v]) => `export ${k}='${String(v).replace(/'/g, "'\\''")}'`)
    .join("\n");
  writeFileSync(
    script,
    `${exports}\nstty -g > ${dir}/stty-before\n${command} > ${dir}/stdout 2> ${dir}/stderr\necho $? > ${dir}/code\nstty -g > ${dir}/stty-after\n: > ${dir}/finished\nsleep 60\n`,
  );
  // The default tmux server is shared with the other terminal suites running at the same time:
  // when one of them kills the server's last session the server exits, and a session started in
  // that moment dies with it (seen in CI: an empty screen for 30 s). Start again until it is there.
  for (let attempt = 1; ; attempt++) {
    const r = tmux("new-session", "-d", "-s", name, "-x", String(cols), "-y", String(rows), `bash ${script}`);
    if (r.status === 0 && tmux("has-session", "-t", `=${name}`).status === 0) return;
    if (attempt === 20) throw new Error(`tmux could not start the session ${name}: ${r.stderr}`);
    spawnSync("sleep", ["0.1"]);
  }
}

export const finished = (dir) => waitFor(() => existsSync(join(dir, "finished")), "the command to finish");
export const read = (dir, f) => readFileSync(join(dir, f), "utf8");
