// rpc-client.mjs — a minimal client of `pi --mode rpc`: JSON lines on stdin/stdout, split on
// "\n" only (as the protocol requires), with a handler answering extension UI dialogs.
import { spawn } from "node:child_process";
import { piArgs, piCommand, piEnv } from "./pi.mjs";

/** answer(request) returns the response fields ({ value } | { confirmed } | { cancelled }) or undefined to ignore.
 * loadPackage false: this package is not passed with -e (the test installs it another way). */
export function startRpc(home, work, answer, { loadPackage = true } = {}) {
  const [cmd, args] = piCommand([...piArgs([], { loadPackage }), "--mode", "rpc"]);
  const child = spawn(cmd, args, {
    cwd: work,
    env: piEnv(home),
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  const events = [];
  const dialogs = [];
  let buffer = "";
  let stderr = "";
  let exit;
  child.stderr.on("data", (d) => (stderr += d));
  // A pi that died: its exit (and stderr) say so, not an EPIPE thrown at the test.
  child.stdin.on("error", () => undefined);
  child.on("exit", (code, signal) => (exit = { code, signal }));
  child.stdout.on("data", (d) => {
    buffer += d;
    let at;
    while ((at = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, at).replace(/\r$/, "");
      buffer = buffer.slice(at + 1);
      if (!line.trim()) continue;
      let msg;
      try {
        msg = JSON.parse(line);
      } catch {
        continue;
      }
      events.push(msg);
      if (msg.type === "extension_ui_request" && ["select", "input", "confirm", "editor"].includes(msg.method)) {
        dialogs.push(msg);
        const reply = answer(msg);
        if (reply) send({ type: "extension_ui_response", id: msg.id, ...reply });
      }
    }
  });
  function send(obj) {
    child.stdin.write(JSON.stringify(obj) + "\n");
  }
  return {
    events,
    dialogs,
    send,
    get stderr() {
      return stderr;
    },
    /** { code, signal } once pi's process has exited, else undefined. */
    get exit() {
      return exit;
    },
    async waitFor(pred, timeoutMs = 20000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const hit = events.find(pred);
        if (hit) return hit;
        if (Date.now() > until) throw new Error(`rpc: timed out; stderr: ${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close() {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    },
  };
}
