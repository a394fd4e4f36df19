#!/usr/bin/env node
// current-pi.mjs — the current pi line for the end-to-end runs, and the tools of the registry
// test, installed from the npm registry into a cache directory (never the repo's node_modules):
//
//   node scripts/current-pi.mjs            install (idempotent) and print where things are
//   node scripts/current-pi.mjs e2e        … then run every tests/e2e-*.test.mjs on the current line
//   node scripts/current-pi.mjs unit       … then run the unit cross-checks against the current
//                                          line's pi-tui (every other test file that calls
//                                          importPiTui(): key parser, visibleWidth) on its Node
//   node scripts/current-pi.mjs registry   … then run the registry test (PI_LINE picks the line)
//   node scripts/current-pi.mjs typecheck  … then typecheck extension/ against the current line's
//                                          types (the old names mapped to it, as pi's loader does)
//
// What "current" means is the one setting below. The old line is the devDependency in
// package.json (run on the machine's Node by plain `npm test`); tests/helpers/pi-line.mjs
// decides per run which line a test uses (PI_LINE=current for this one).
//
// Cache: $PI_QUESTION_CACHE, else $XDG_CACHE_HOME/pi-question, else ~/.cache/pi-question. Each
// tool set lives in its own directory named after its versions, with a stamp of the manifest it
// was installed from: a second run with the same versions installs nothing.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { prebuiltFile } from "./packages.mjs";
import { REPORTER_ARGS } from "./test-failures-reporter.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { PREBUILT_TARGETS, targetKey } = createRequire(import.meta.url)("../extension/platform-package.cjs");

/** The current pi line: change these to move up (the newest the registry serves completely). */
export const CURRENT = {
  pi: { name: "@earendil-works/pi-coding-agent", version: "1.6.0" },
  /** pi ≥ 0.76 needs Node ≥ 22.19; the Node binary comes in the npm package node-<os>-<cpu>. */
  node: "24.21.0",
};

/** The local registry of the registry test (needs Node ≥ 22: it runs on the Node above). Its
 * dependency `node-fetch@cjs` (a dist-tag) is not resolvable from the registry here: pinned. */
export const VERDACCIO = { version: "6.10.4", overrides: { "node-fetch": "2.7.0" } };

/** Bun for pi's release binary and for the benchmark in Bun: the version line pi's own binary
 * bundles (1.3.x), from the npm package @oven/bun-<os>-<cpu>. */
export const BUN = { version: "1.3.14" };

export function cacheRoot() {
  if (process.env.PI_QUESTION_CACHE) return process.env.PI_QUESTION_CACHE;
  const base = process.env.XDG_CACHE_HOME || join(process.env.HOME || homedir(), ".cache");
  return join(base, "pi-question");
}

const nodePackage = `node-${process.platform}-${process.arch}`;

/** Where the current line is (or will be) installed, and the files that matter in it. */
export function currentLine() {
  const dir = join(cacheRoot(), `pi-${CURRENT.pi.version}-node-${CURRENT.node}`);
  const modules = join(dir, "node_modules");
  const nodeDir = join(modules, nodePackage);
  const piDir = join(modules, ...CURRENT.pi.name.split("/"));
  return {
    dir,
    manifest: {
      name: "pi-question-current-line",
      private: true,
      description: "The current pi line and its Node for pi-question's end-to-end runs (scripts/current-pi.mjs).",
      dependencies: { [nodePackage]: CURRENT.node, [CURRENT.pi.name]: CURRENT.pi.version },
    },
    nodeDir,
    node: join(nodeDir, "bin", "node"),
    /** A `pi` command for this line: runs pi's entry point on this Node (written on install). */
    bin: join(dir, "bin", "pi"),
    piDir,
    piPackage: CURRENT.pi.name,
    piVersion: CURRENT.pi.version,
    nodeVersion: CURRENT.node,
  };
}

/** Where Verdaccio is (or will be) installed. */
export function registryTools() {
  const dir = join(cacheRoot(), `verdaccio-${VERDACCIO.version}`);
  return {
    dir,
    manifest: {
      name: "pi-question-registry-tools",
      private: true,
      description: "Verdaccio for pi-question's registry test (scripts/current-pi.mjs).",
      dependencies: { verdaccio: VERDACCIO.version },
      overrides: VERDACCIO.overrides,
    },
    verdaccio: join(dir, "node_modules", "verdaccio", "bin", "verdaccio"),
  };
}

function log(message) {
  process.stderr.write(`current-pi: ${message}\n`);
}

/** Installs `set` (a { dir, manifest }) unless the same manifest is installed already. */
export function ensure(set, mustExist) {
  const manifest = `${JSON.stringify(set.manifest, null, 2)}\n`;
  const stamp = join(set.dir, ".installed");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === manifest && mustExist.every((f) => existsSync(f))) {
    return false;
  }
  log(
    `installing ${Object.entries(set.manifest.dependencies)
      .map(([n, v]) => `${n}@${v}`)
      .join(" ")} into ${set.dir}`,
  );
  rmSync(join(set.dir, "node_modules"), { recursive: true, force: true });
  rmSync(stamp, { force: true });
  mkdirSync(set.dir, { recursive: true });
  writeFileSync(join(set.dir, "package.json"), manifest);
  const started = Date.now();
  const args = ["install", "--no-audit", "--no-fund", "--no-package-lock", "--no-save", "--loglevel=error"];
  log(`npm ${args.join(" ")}   (in ${set.dir})`);
  // npm_config_* of an `npm run` parent (its prefix, global flag, …) must not steer this install.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  const r = spawnSync("npm", args, { cwd: set.dir, stdio: ["ignore", "inherit", "inherit"], env });
  if (r.status !== 0) throw new Error(`npm install in ${set.dir} failed (${r.error?.message ?? `exit ${r.status}`})`);
  for (const f of mustExist) if (!existsSync(f)) throw new Error(`npm install in ${set.dir} made no ${f}`);
  writeFileSync(stamp, manifest);
  log(`installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

/** Installs the current line (Node + pi) if needed; returns currentLine(). */
export function ensureCurrentLine() {
  const line = currentLine();
  ensure(line, [line.node, join(line.piDir, "package.json")]);
  const v = spawnSync(line.node, ["--version"], { encoding: "utf8" });
  if (v.status !== 0 || v.stdout.trim() !== `v${CURRENT.node}`) {
    throw new Error(`${line.node} does not run (${v.error?.message ?? (v.stderr || v.stdout).trim()})`);
  }
  const manifest = JSON.parse(readFileSync(join(line.piDir, "package.json"), "utf8"));
  const entry = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.pi;
  const quote = (p) => `'${p.replace(/'/g, `'\\''`)}'`;
  mkdirSync(dirname(line.bin), { recursive: true });
  writeFileSync(line.bin, `#!/bin/sh\nexec ${quote(line.node)} ${quote(join(line.piDir, entry))} "$@"\n`, { mode: 0o755 });
  return line;
}

/** Where Bun is (or will be) installed. */
export function bunTool() {
  const pkg = `@oven/bun-${process.platform}-${process.arch === "arm64" ? "aarch64" : process.arch}`;
  const dir = join(cacheRoot(), `bun-${BUN.version}`);
  return {
    dir,
    manifest: {
      name: "pi-question-bun",
      private: true,
      description: "Bun for pi-question's pi-binary and Bun benchmark runs (scripts/current-pi.mjs).",
      dependencies: { [pkg]: BUN.version },
    },
    bun: join(dir, "node_modules", ...pkg.split("/"), "bin", "bun"),
    version: BUN.version,
  };
}

/** Installs Bun if needed; returns bunTool(). */
export function ensureBun() {
  const tool = bunTool();
  ensure(tool, [tool.bun]);
  return tool;
}

/** pi-ai of pi 1.5.2: the line between the devDependency (0.73.1, TypeBox's validation) and the
 * current one that validates with pi-schema too; the benchmark times the largest call's
 * validation with it beside the others. Its own cache directory; pi-ai alone. */
export const PI_AI_BETWEEN = { name: "@earendil-works/pi-ai", version: "1.5.2" };

/** Where that pi-ai is (or will be) installed. */
export function betweenLine() {
  const dir = join(cacheRoot(), `pi-ai-${PI_AI_BETWEEN.version}`);
  return {
    dir,
    manifest: {
      name: "pi-question-pi-ai-between",
      private: true,
      description: "pi-ai of an earlier pi line, for pi-question's benchmark (scripts/current-pi.mjs).",
      dependencies: { [PI_AI_BETWEEN.name]: PI_AI_BETWEEN.version },
    },
    index: join(dir, "node_modules", ...PI_AI_BETWEEN.name.split("/"), "dist", "index.js"),
    version: PI_AI_BETWEEN.version,
  };
}

/** Installs that pi-ai if needed; returns betweenLine(). */
export function ensureBetweenLine() {
  const line = betweenLine();
  ensure(line, [line.index]);
  return line;
}

/** Installs Verdaccio if needed; returns registryTools(). */
export function ensureRegistryTools() {
  const tools = registryTools();
  ensure(tools, [tools.verdaccio]);
  return tools;
}

/** The end-to-end suites, by name, so a new tests/e2e-*.test.mjs is picked up. */
export function e2eSuites() {
  return readdirSync(join(root, "tests"))
    .filter((f) => /^e2e-.*\.test\.mjs$/.test(f))
    .sort()
    .map((f) => join("tests", f));
}

/** The unit tests that compare against pi's own code (pi-tui's parseKey, visibleWidth, …): every
 * tests/*.test.mjs outside the end-to-end suites that loads pi-tui through importPiTui(). */
export function crossCheckSuites() {
  return readdirSync(join(root, "tests"))
    .filter((f) => /\.test\.mjs$/.test(f) && !/^e2e-/.test(f))
    .filter((f) => /\bimportPiTui\(\)/.test(readFileSync(join(root, "tests", f), "utf8")))
    .sort()
    .map((f) => join("tests", f));
}

function runTests(files, env, node = process.execPath) {
  const args = ["--test", "--test-concurrency=2", ...REPORTER_ARGS, ...files];
  log(
    `${Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .join(" ")} ${node === process.execPath ? "node" : node} ${args.join(" ")}`,
  );
  const started = Date.now();
  const r = spawnSync(node, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  log(`finished in ${((Date.now() - started) / 1000).toFixed(0)} s (exit ${r.status})`);
  return r.status ?? 1;
}

/** The libcjson files and header directory the dynamic loader and a compiler would find. */
function cjsonFiles() {
  const r = spawnSync(
    "sh",
    ["-c", "ls -d /usr/lib/*/libcjson.so* /usr/lib/libcjson.so* /usr/lib64/libcjson.so* /usr/local/lib/libcjson.so* 2>/dev/null"],
    { encoding: "utf8" },
  );
  const libs = r.stdout.split("\n").filter(Boolean);
  const headers = ["/usr/include/cjson", "/usr/local/include/cjson"].filter((d) => existsSync(d));
  return { libs, headers };
}

/** [command, args] that run `command args` with cJSON hidden, in a mount namespace of its own
 * (root only): /dev/null bind-mounted over every libcjson file, an empty tmpfs over its headers.
 * Undefined when this machine cannot (not root, no unshare). */
function withCjsonHidden(command, args) {
  if (process.getuid?.() !== 0 || spawnSync("unshare", ["--mount", "--propagation", "private", "true"]).status !== 0) return undefined;
  const { libs, headers } = cjsonFiles();
  const quote = (p) => `'${p.replace(/'/g, `'\\''`)}'`;
  const mounts = [...libs.map((f) => `mount --bind /dev/null ${quote(f)}`), ...headers.map((d) => `mount -t tmpfs none ${quote(d)}`)];
  const script = `${[...mounts, 'exec "$@"'].join(" && ")}`;
  return ["unshare", ["--mount", "--propagation", "private", "sh", "-c", script, "sh", command, ...args]];
}

/** The registry tests: the prebuilt addons built if missing; then the install with nothing to
 * build with (cJSON hidden when this machine can), on PI_LINE's pi; then, on the devDependency's
 * line only, the source-build fallback (which needs cJSON). */
async function registry() {
  const { LOCAL_TARGETS } = await import("./prebuild.mjs");
  const missing = LOCAL_TARGETS.filter((t) => !existsSync(prebuiltFile(root, t))).map(targetKey);
  if (missing.length) {
    log(`building the prebuilt addons the registry publishes: node scripts/prebuild.mjs ${missing.join(" ")}`);
    const prebuild = spawnSync(process.execPath, [join(root, "scripts", "prebuild.mjs"), ...missing], { cwd: root, stdio: "inherit" });
    if (prebuild.status !== 0) return prebuild.status ?? 1;
  }
  if (process.env.PI_LINE === "binary") (await import("./pi-binary.mjs")).ensurePiBinary();
  const file = join("tests", "registry", "install-from-registry.mjs");
  const args = ["--test", "--test-concurrency=1", ...REPORTER_ARGS, file];
  const hidden = withCjsonHidden(process.execPath, args);
  let status;
  if (hidden) {
    log(`with cJSON hidden (${cjsonFiles().libs.join(", ")}): node ${args.join(" ")}`);
    const started = Date.now();
    const r = spawnSync(hidden[0], hidden[1], { cwd: root, stdio: "inherit", env: { ...process.env, PI_QUESTION_CJSON_HIDDEN: "1" } });
    log(`finished in ${((Date.now() - started) / 1000).toFixed(0)} s (exit ${r.status})`);
    status = r.status ?? 1;
  } else {
    log("cannot hide cJSON here (needs root and unshare): the prebuilt's readelf check stands in");
    status = runTests([file], {});
  }
  const line = process.env.PI_LINE;
  if (line && line !== "dev") return status;
  return runTests([join("tests", "registry", "source-fallback.mjs")], {}) || status;
}

/** tsc over extension/ with the names it imports resolved to the current line's packages. */
function typecheck(line) {
  const modules = join(line.dir, "node_modules");
  const scope = line.piPackage.split("/")[0];
  const types = (pkg) => {
    const dir = join(modules, ...pkg.split("/"));
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const entry = manifest.exports?.["."]?.types ?? manifest.exports?.["."]?.import?.types ?? manifest.types ?? manifest.typings;
    if (!entry) throw new Error(`${pkg} declares no types`);
    return join(dir, entry);
  };
  const config = join(line.dir, "tsconfig.extension.json");
  writeFileSync(
    config,
    `${JSON.stringify(
      {
        extends: join(root, "tsconfig.json"),
        compilerOptions: {
          typeRoots: [join(root, "node_modules", "@types")],
          paths: {
            "@mariozechner/pi-coding-agent": [types(line.piPackage)],
            "@mariozechner/pi-tui": [types(`${scope}/pi-tui`)],
            typebox: [types("typebox")],
          },
        },
        include: [join(root, "extension", "**", "*.ts")],
      },
      null,
      2,
    )}\n`,
  );
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  log(`tsc --noEmit -p ${config}`);
  const r = spawnSync(process.execPath, [tsc, "--noEmit", "-p", config], { cwd: root, stdio: "inherit" });
  return r.status ?? 1;
}

async function main(argv) {
  const what = argv[0] ?? "install";
  if (!["install", "e2e", "unit", "registry", "typecheck"].includes(what)) {
    log(`unknown command ${what}: use install, e2e, unit, registry or typecheck`);
    return 2;
  }
  const line = ensureCurrentLine();
  log(`pi ${line.piPackage}@${line.piVersion} in ${line.piDir}`);
  log(`node v${line.nodeVersion} at ${line.node}`);
  log(`pi on that node: ${line.bin}`);
  if (what === "registry" || (what === "install" && argv.includes("--registry"))) {
    const tools = ensureRegistryTools();
    log(`verdaccio ${VERDACCIO.version} at ${tools.verdaccio}`);
  }
  if (what === "e2e") return runTests([...e2eSuites(), ...argv.slice(1)], { PI_LINE: "current" });
  // On the line's own Node: pi-tui's measure rests on Intl.Segmenter and \p{…} regexes, whose
  // Unicode data is that Node's (the addon is Node-API, so the same build loads there).
  if (what === "unit") return runTests([...crossCheckSuites(), ...argv.slice(1)], { PI_LINE: "current" }, line.node);
  if (what === "typecheck") return typecheck(line);
  if (what === "registry") return await registry();
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // Not a top-level await: pi-binary.mjs (imported by `registry` on the binary line) imports this
  // module, whose evaluation must have finished for that import to settle.
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error) => {
      log(error.message);
      process.exitCode = 1;
    },
  );
}
