// install.mjs — helpers for the installation end-to-end tests: copies of this checkout, npm and
// pi run in a throw-away HOME (with the environment npm needs to build the addon offline), the
// scripted model, and the real pi in print mode with no package flag of its own (the package
// must come from wherever the case installed it).
import "./isolate.mjs";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { packageRoot as root } from "../../extension/load-addon.cjs";
import { checkoutFiles } from "./checkout.mjs";
import { startMockModel } from "./mock-model.mjs";
import { PI_PACKAGE_NAMES, trustProject } from "./pi-line.mjs";
import { lineEnv, piArgv, piBin, piCommand, run, writeModels } from "./pi.mjs";

export { lineEnv, piArgv, piBin, run, trustProject, writeModels };

export { root };
export const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

/** The question every case asks, with pre-supplied answers (no UI), and the exact tool result. */
export const QUESTION_CALL = {
  name: "question",
  arguments: {
    questions: [
      {
        id: "db",
        prompt: "Which database?",
        options: [
          { value: "pg", label: "PostgreSQL" },
          { value: "lite", label: "SQLite" },
        ],
      },
    ],
    answers: { db: "lite" },
  },
};
/** The model's text for PRINT_ARGS: pre-supplied answers, which nobody chose (result.c). */
export const EXPECTED_RESULT =
  "Taken from the answers given in this call's `answers`; the user was not asked and chose none of it.\ndb: selected: 2. SQLite (value: lite)";

// What the machine's npm is configured with, read before any child gets a throw-away HOME: the
// user config (registry, proxy, nodedir for offline node-gyp) and node-gyp's header cache.
const realHome = process.env.HOME || homedir();
const realUserConfig = process.env.npm_config_userconfig || join(realHome, ".npmrc");
const realGypDir = process.env.npm_config_devdir || join(realHome, ".cache", "node-gyp");

/** process.env without npm's lifecycle variables (an `npm test` parent would leak its config). */
function cleanEnv() {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && k !== "INIT_CWD") env[k] = v;
  return env;
}

/**
 * pi's optional peer dependencies (the package of each pi line, PI_PACKAGE_NAMES): when
 * package.json does not mark them optional, npm 7+ installs a second pi (≈190 packages) with
 * every install of this package, from the network. The tests then install like
 * `--legacy-peer-deps` so they stay offline; once the peers are optional they install exactly as
 * users do.
 */
export const peerIsOptional = PI_PACKAGE_NAMES.every((n) => pkg.peerDependencies?.[n] && pkg.peerDependenciesMeta?.[n]?.optional === true);
export { PI_PACKAGE_NAMES };

/** Environment for npm and pi in a throw-away HOME; npm's global prefix is `prefix`. */
export function installEnv(home, { prefix, cache, extra = {} } = {}) {
  const env = {
    ...cleanEnv(),
    HOME: home,
    PI_OFFLINE: "1",
    PI_SKIP_VERSION_CHECK: "1",
    NO_COLOR: "1",
    npm_config_cache: cache ?? join(home, ".npm"),
    npm_config_prefix: prefix ?? join(home, ".npm-global"),
    npm_config_offline: "true",
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_loglevel: "warn",
  };
  if (existsSync(realUserConfig)) env.npm_config_userconfig = realUserConfig;
  if (existsSync(realGypDir)) env.npm_config_devdir = realGypDir;
  if (!peerIsOptional) env.npm_config_legacy_peer_deps = "true";
  // npm, node-gyp and pi on the pi line's Node (pi-line.mjs).
  return lineEnv({ ...env, ...extra });
}

/** Throws with the command's output unless it exited 0. */
export async function mustRun(cmd, args, options) {
  const r = await run(cmd, args, options);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(" ")} (in ${options?.cwd}) exited ${r.code}\n${r.output}`);
  return r;
}

/**
 * Copies this checkout as a user would get it from git: the tracked files, plus new files under
 * native/, extension/, bin/ and scripts/ not committed yet (never build/ or node_modules/).
 */
export function copyCheckout(dest) {
  mkdirSync(dest, { recursive: true });
  for (const f of checkoutFiles()) {
    const from = join(root, f);
    if (!existsSync(from)) continue; // deleted in the working tree
    mkdirSync(dirname(join(dest, f)), { recursive: true });
    cpSync(from, join(dest, f));
  }
  return dest;
}

/** A throw-away HOME (models.json is written per run) with an empty project directory. */
export function newHome(base, name, envExtra) {
  const home = mkdtempSync(join(base, `${name}-`));
  mkdirSync(join(home, ".pi", "agent"), { recursive: true });
  const project = join(home, "project");
  mkdirSync(project);
  return { home, project, env: installEnv(home, envExtra) };
}

export const PI_MODEL_ARGS = ["--offline", "--provider", "mock", "--model", "mock-1"];

/** Runs `pi <args>` (install, list, …) in `cwd` with the throw-away HOME's environment. */
export function pi(args, { cwd, env }) {
  const [cmd, argv] = piCommand(args);
  return run(cmd, argv, { cwd, env, timeoutMs: 60000 });
}

/**
 * The real pi in print mode (no terminal, no -e unless `extraArgs` says so) with a scripted
 * model that calls `question` once: pi's exit and output, the tool names the model was offered
 * at start-up, and the tool messages the model read back.
 */
export async function askPrint({ home, cwd, env, extraArgs = [] }) {
  const model = await startMockModel([{ toolCalls: [QUESTION_CALL] }, { text: "thanks" }]);
  try {
    writeModels(home, model.port);
    const [cmd, args] = piCommand([...PI_MODEL_ARGS, "--no-session", ...extraArgs, "-p", "ask me"]);
    const r = await run(cmd, args, { cwd, env, timeoutMs: 60000 });
    const offered = (model.requests[0]?.tools ?? []).map((t) => t.function?.name);
    return { ...r, offered, tools: model.toolMessages(1), requests: model.requests.length };
  } finally {
    await model.close();
  }
}

/** A tmp root for one test file; remove() deletes it. */
export function makeTmpRoot(prefix = "pi-question-install-") {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
