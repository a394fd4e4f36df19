// pi.mjs — runs the real pi around this package with a scripted model: a throw-away HOME with
// models.json pointing at the mock model, and helpers for print mode, RPC mode and tmux. Which
// pi and which Node: pi-line.mjs (PI_LINE).
import "./isolate.mjs";
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageRoot as root } from "../../extension/load-addon.cjs"; // the path only: loading the addon is not needed here
import { line, lineEnv, piArgv, piBin, piCommand } from "./pi-line.mjs";

export { line, lineEnv, piArgv, piBin, piCommand };

/** Points the mock provider of HOME's models.json at `port`. */
export function writeModels(home, port) {
  mkdirSync(join(home, ".pi", "agent"), { recursive: true });
  writeFileSync(
    join(home, ".pi", "agent", "models.json"),
    JSON.stringify({
      providers: {
        mock: {
          baseUrl: `http://127.0.0.1:${port}/v1`,
          api: "openai-completions",
          apiKey: "x",
          compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
          models: [{ id: "mock-1" }],
        },
      },
    }),
  );
}

/** A temporary HOME (and working directory) wired to the mock model on `port`. */
export function makeHome(port) {
  const home = mkdtempSync(join(tmpdir(), "pi-question-home-"));
  writeModels(home, port);
  const work = join(home, "work");
  mkdirSync(work);
  return { home, work, cleanup: () => rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }) };
}

/** pi's arguments for the mock model; `--session-dir DIR` in extra replaces --no-session;
 * `loadPackage` false leaves this package out (a test that installs it another way). */
export function piArgs(extra = [], { loadPackage = true } = {}) {
  const session = extra.includes("--session-dir") ? [] : ["--no-session"];
  return ["--offline", "--provider", "mock", "--model", "mock-1", ...session, ...(loadPackage ? ["-e", root] : []), ...extra];
}

export function piEnv(home, extra = {}) {
  return lineEnv({ ...process.env, HOME: home, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", NO_COLOR: "1", ...extra });
}

/** Runs a command to completion with no terminal (stdin /dev/null, its own process group and
 * session, killed on timeout) and collects its output. */
export function run(cmd, args, { cwd, env, timeoutMs = 180000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
      reject(new Error(`${cmd} ${args.join(" ")} timed out after ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, output: `${stdout}${stderr}` });
    });
  });
}

/** Runs `pi -p` with no terminal against the mock model of `home`. */
export function runPrint(home, work, prompt, extraArgs = [], timeoutMs = 60000) {
  const [cmd, args] = piCommand([...piArgs(extraArgs), "-p", prompt]);
  return run(cmd, args, { cwd: work, env: piEnv(home), timeoutMs });
}
