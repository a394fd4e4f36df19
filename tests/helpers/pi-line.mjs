// pi-line.mjs — the one place that decides which pi, and which Node runs it, a test uses.
//
//   PI_LINE unset (or "dev")  the devDependency (@mariozechner/pi-coding-agent 0.73.1) from
//                             node_modules, on the Node running the tests — plain `npm test`.
//   PI_LINE=current           the current line (scripts/current-pi.mjs: @earendil-works/
//                             pi-coding-agent on Node 24), from the cache directory that script
//                             installs into; run `node scripts/current-pi.mjs` first.
//   PI_LINE=binary            pi's release binary: the current line compiled with Bun
//                             (scripts/pi-binary.mjs builds it into the cache, run it first). pi
//                             runs with no Node at all; a test's own commands (pi-question's
//                             CLI, npm) run on the Node running the tests, as for the
//                             devDependency. pi's files (package.json, docs/, examples/) are the
//                             ones beside the binary; pi-tui, for the width a test measures with,
//                             comes from the package the binary was compiled from.
//
// Tests never name pi's package or its path: they start pi with piCommand(), give it lineEnv()
// (Node's directory first in PATH, so whatever pi starts — npm, subagents — runs on the same
// Node), and find pi's own files (its examples) under line.packageDir.
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { packageRoot as root } from "../../extension/load-addon.cjs";
import { currentLine } from "../../scripts/current-pi.mjs";
import { piBinary } from "../../scripts/pi-binary.mjs";

const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

function devLine() {
  const name = Object.keys(pkg.devDependencies ?? {}).find((n) => n.endsWith("/pi-coding-agent"));
  if (!name) throw new Error("package.json has no pi-coding-agent devDependency");
  const packageDir = join(root, "node_modules", ...name.split("/"));
  return { id: "dev", packageName: name, packageDir, node: process.execPath, nodeDir: null, bin: join(root, "node_modules", ".bin", "pi") };
}

function current() {
  const c = currentLine();
  if (!existsSync(c.node) || !existsSync(c.bin) || !existsSync(join(c.piDir, "package.json"))) {
    throw new Error(`PI_LINE=current: the current pi line is not installed in ${c.dir}; run "node scripts/current-pi.mjs" first`);
  }
  return { id: "current", packageName: c.piPackage, packageDir: c.piDir, node: c.node, nodeDir: c.nodeDir, bin: c.bin };
}

function binary() {
  const b = piBinary();
  if (!existsSync(b.bin) || !existsSync(b.meta)) {
    throw new Error(`PI_LINE=binary: pi's binary is not built in ${b.dir}; run "node scripts/pi-binary.mjs" first`);
  }
  const built = JSON.parse(readFileSync(b.meta, "utf8"));
  return {
    id: "binary",
    packageName: b.piPackage,
    packageDir: b.dir,
    /** The npm package the binary was compiled from (its node_modules hold what it bundles). */
    sourceDir: currentLine().piDir,
    node: process.execPath,
    nodeDir: null,
    bin: b.bin,
    bunVersion: built.bunVersion,
    /** The Node version Bun presents inside the binary (process.version). */
    runtimeNodeVersion: built.nodeVersion,
  };
}

function resolveLine(id) {
  if (!id || id === "dev" || id === "0.73") return devLine();
  if (id === "current") return current();
  if (id === "binary") return binary();
  throw new Error(`PI_LINE=${id}: unknown pi line (use "current", "binary", or leave it unset for the devDependency)`);
}

const chosen = resolveLine(process.env.PI_LINE);
const piPkg = JSON.parse(readFileSync(join(chosen.packageDir, "package.json"), "utf8"));
const binEntry = typeof piPkg.bin === "string" ? piPkg.bin : piPkg.bin?.pi;
if (!binEntry) throw new Error(`${chosen.packageName} declares no "pi" bin`);

/** The pi a test runs: which package, which version, where, and on which Node. */
export const line = Object.freeze({
  ...chosen,
  version: piPkg.version,
  /** pi's command-line entry point (its package's "pi" bin); none in pi's binary. */
  cli: chosen.id === "binary" ? null : join(chosen.packageDir, binEntry),
  /** The Node version pi's code sees (process.version; in the binary, the one Bun presents). */
  nodeVersion: chosen.runtimeNodeVersion ?? (chosen.node === process.execPath ? process.version : `v${currentLine().nodeVersion}`),
  /** "pi 0.73.1 (@mariozechner/pi-coding-agent) on Node v20.20.2", for messages. */
  describe() {
    if (this.id === "binary") return `pi ${this.version} (${this.packageName}) compiled with Bun ${this.bunVersion} (pi's binary, no Node)`;
    return `pi ${this.version} (${this.packageName}) on Node ${this.nodeVersion}`;
  },
});

/** Whether pi version `version` (e.g. "0.87.1") is `min` or newer. */
export function versionAtLeast(version, min) {
  const a = version.split(/[.-]/).map(Number);
  const b = min.split(".").map(Number);
  for (let i = 0; i < 3; i++) if ((a[i] || 0) !== b[i]) return (a[i] || 0) > b[i];
  return true;
}

/**
 * What differs between the lines in ways a test sees (pi's behaviour, not ours). Each flag names
 * the oldest version it was seen in; it may have started earlier (the versions between 0.73.1
 * and 0.87.1 are not run).
 */
export const features = Object.freeze({
  /** Project-local resources (.pi/settings.json packages, .pi/extensions) load only in a trusted
   * project (~/.pi/agent/trust.json, `/trust`, --approve); print and RPC mode skip them otherwise. */
  projectTrust: versionAtLeast(line.version, "0.87.1"),
  /** The working indicator ("Working…", or what ctx.ui.setWorkingMessage says) lives in the
   * editor's frame, which a ctx.ui.custom() component replaces: not on screen while a question is. */
  workingIndicatorInEditor: versionAtLeast(line.version, "0.87.1"),
  /** pi's subagent example returns an aborted run as a result with details, drawn from them
   * ("Error: Subagent was aborted"), instead of throwing: a note added to the result's content
   * reaches the model but is not on screen (its CHANGELOG: 1.5.1). */
  subagentAbortDrawnFromDetails: versionAtLeast(line.version, "1.5.1"),
});

/** A `pi` executable of the line (for a test that needs one command; piCommand() is preferred). */
export const piBin = line.bin;

/** [command, args] that start pi with `args`, on the line's Node (pi's binary: itself). */
export function piCommand(args = []) {
  if (!line.cli) return [line.bin, [...args]];
  return [line.node, [line.cli, ...args]];
}

/** The words of a shell command line starting pi (unquoted; quote each for a shell). */
export function piArgv(args = []) {
  if (!line.cli) return [line.bin, ...args];
  return [line.node, line.cli, ...args];
}

/** `env` for a process of this line: the line's Node first in PATH (npm, node-gyp and any child
 * pi run on it, as on a machine where it is the installed Node) and, for the current line,
 * node-gyp building against that Node's own headers. */
export function lineEnv(env = process.env) {
  const out = { ...env };
  if (!line.nodeDir) return out; // the devDependency: the environment as it is
  const binDir = dirname(line.node);
  out.PATH = [binDir, ...(env.PATH ?? "").split(":").filter((p) => p && p !== binDir)].join(":");
  out.npm_config_nodedir = line.nodeDir;
  return out;
}

/** A file shipped with pi's package (docs/, examples/), by its path inside the package. */
export function piPackageFile(...parts) {
  return join(line.packageDir, ...parts);
}

/** Package names of both lines, for tests asserting that installing pi-question pulls no pi. */
export const PI_PACKAGE_NAMES = [...new Set([devLine().packageName, currentLine().piPackage])];

/** The directory of a package that pi's package depends on (its own node_modules, or a parent's). */
function dependencyDir(name) {
  for (let dir = line.sourceDir ?? line.packageDir; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", ...name.split("/"));
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(dir) === dir) throw new Error(`${name} (a dependency of ${line.packageName}) not found`);
  }
}

/** The file `specifier` (a bare name, maybe with a subpath) resolves to from inside pi's package,
 * as pi's own loader resolves it (ESM conditions first: "import", then "default"). */
function resolveFromPi(specifier) {
  const parts = specifier.split("/");
  const name = parts.slice(0, specifier.startsWith("@") ? 2 : 1).join("/");
  return packageEntry(dependencyDir(name), parts.slice(name.split("/").length).join("/"));
}

/** The file of package directory `dir` that subpath `sub` ("" for the package itself) names. */
function packageEntry(dir, sub) {
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const pick = (target) => {
    if (typeof target === "string") return target;
    if (Array.isArray(target)) return target.map(pick).find(Boolean);
    if (target && typeof target === "object") {
      for (const c of ["import", "node", "default"]) if (c in target) return pick(target[c]);
    }
    return undefined;
  };
  const exportsMap = manifest.exports;
  let entry;
  if (exportsMap !== undefined) {
    const key = sub ? `./${sub}` : ".";
    const keyed = typeof exportsMap === "object" && !Array.isArray(exportsMap) && Object.keys(exportsMap).some((k) => k.startsWith("."));
    entry = pick(keyed ? exportsMap[key] : key === "." ? exportsMap : undefined);
  } else {
    entry = sub || manifest.main || "index.js";
  }
  if (!entry) throw new Error(`${manifest.name} ${manifest.version} exports no "./${sub}"`);
  return join(dir, entry);
}

/**
 * What this line's extension loader maps the bare names our extension imports to (both lines
 * alias the old @mariozechner names to their own modules, and typebox to theirs): jiti's
 * `alias` option, so a test loads the extension against the very modules pi would give it.
 */
export function extensionAliases() {
  const scope = line.packageName.split("/")[0];
  return {
    "@mariozechner/pi-coding-agent": packageEntry(line.sourceDir ?? line.packageDir, ""),
    "@mariozechner/pi-tui": resolveFromPi(`${scope}/pi-tui`),
    typebox: resolveFromPi("typebox"),
  };
}

/** The jiti this line's pi loads extensions with (its own dependency). */
export async function importLineJiti() {
  return import(pathToFileURL(resolveFromPi("jiti")).href);
}

/** pi-tui of this line (the same scope as its pi package): its key parser and visibleWidth, the
 * references the unit cross-checks (keys, width, the width invariant) compare against. */
export async function importPiTui() {
  return import(pathToFileURL(resolveFromPi(`${line.packageName.split("/")[0]}/pi-tui`)).href);
}

/**
 * The person trusts project `dir` in HOME `home`, as pi's `/trust` records it
 * (~/.pi/agent/trust.json, keyed by the real path). Lines with project trust (the current one)
 * load a project's .pi/settings.json packages and .pi/extensions only then — in print and RPC
 * mode there is nobody to ask, so an untrusted project's resources are skipped; lines before it
 * ignore the file.
 */
export function trustProject(home, dir) {
  const file = join(home, ".pi", "agent", "trust.json");
  const data = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  data[realpathSync(dir)] = true;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
}
