// load-addon.cjs — finds and loads the native addon by explicit path. Plain CommonJS so the
// extension loads it with Node's own require (no transpiling, no ES module loader) and the
// standalone command, the install script and the tests import it too.
//
// Order: PI_QUESTION_ADDON (a specific build, e.g. the sanitizer build; nothing else is tried);
// else the prebuilt platform package npm installed beside pi-question (platform-package.cjs);
// else a local build from source (build/Release, build/Debug). When none loads, the error says
// in one sentence what to do on this machine.
//
// The platform package is taken only from pi-question's own node_modules or the node_modules
// folder that holds pi-question, never from a folder above (Node's require.resolve would search
// them all), never when another user owns or can write it, and never of another version
// (locatePrebuilt in platform-package.cjs). A refused one is named on stderr, with why, and the
// local build is tried.
//
// Why not `node-gyp-build`: it looks for prebuildify's layout, every platform's binary inside
// the package itself (prebuilds/<platform>-<arch>/), not one npm package per platform that npm
// picks by os, cpu and libc, so it cannot find ours. It prefers build/Release to a prebuild,
// its override (<NAME>_PREBUILD) names a directory to search rather than the one file to load,
// it requires the first file it finds and stops at that file's load error (a prebuilt for the
// wrong C library, say), its error names the directory, not the files tried and why each
// failed, and it detects musl only by /etc/alpine-release (elsewhere LIBC must be set). Using
// it would also add a runtime dependency that every install fetches.
"use strict";
const { existsSync, readFileSync } = require("node:fs");
const { join } = require("node:path");
const { candidatePackages, hasPrebuilt, hostTarget, locatePrebuilt, packageName, targetKey } = require("./platform-package.cjs");

const packageRoot = join(__dirname, "..");
const ADDON_FILE = "pi_question.node";
const addonCandidates = [join(packageRoot, "build", "Release", ADDON_FILE), join(packageRoot, "build", "Debug", ADDON_FILE)];

let loaded;
let loadedFrom;

/** pi-question's own version (its package.json), which a platform package must have too. */
let version;
function ownVersion() {
  try {
    version ??= JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")).version;
  } catch {}
  return version;
}

/** The platform package `name`'s addon in this installation (nested in pi-question/node_modules
 * or hoisted beside it): { file }, { file, refused } when it is there but must not be loaded
 * (the sentence says why), or undefined. */
function resolvePrebuilt(name) {
  return locatePrebuilt(packageRoot, name, ownVersion());
}

/** The addon files to try, best first: [{ file, kind: "override" | "prebuilt" | "local", name?,
 * refused? }] (a refused prebuilt is listed, to be named, never loaded). */
function addonSources() {
  if (process.env.PI_QUESTION_ADDON) return [{ file: process.env.PI_QUESTION_ADDON, kind: "override" }];
  const sources = [];
  for (const name of candidatePackages()) {
    const found = resolvePrebuilt(name);
    if (found) sources.push({ ...found, kind: "prebuilt", name });
  }
  for (const file of addonCandidates) sources.push({ file, kind: "local" });
  return sources;
}

/** Whether pi-question's own package.json lists `name` (true of a published package, whose
 * optionalDependencies name every platform package; a checkout lists none). */
function listsPrebuilt(name) {
  try {
    const manifest = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8"));
    return Boolean(manifest.optionalDependencies && manifest.optionalDependencies[name]);
  } catch {
    return false;
  }
}

const message = (error) => (error instanceof Error ? error.message : String(error));

/** Systems Node runs on where the native sources are not built or tested (docs/platforms.md). */
const UNSUPPORTED_SYSTEMS = new Set(["freebsd", "openbsd", "netbsd", "sunos", "aix"]);

/** One sentence saying what to do when no addon loads, for this machine. */
function nothingLoadedSentence(tried) {
  const host = hostTarget();
  const build = `"npm run build" in ${packageRoot}`;
  const failed = tried.filter((t) => t.error !== "missing");
  if (process.env.PI_QUESTION_ADDON) {
    return `pi-question: the addon named by PI_QUESTION_ADDON could not be loaded (${failed[0]?.error ?? "missing"}); fix or unset PI_QUESTION_ADDON.`;
  }
  const refused = tried.find((t) => t.refused);
  if (refused) {
    return `${refused.refused} Nothing else loads either; build the addon from source with ${build}.`;
  }
  if (failed.some((t) => t.kind === "prebuilt")) {
    return `pi-question: the prebuilt addon (${failed.find((t) => t.kind === "prebuilt").name}) does not load on this machine; build it from source with ${build} (needs a C compiler, make, Python and the cJSON library: see the README's "Building from source").`;
  }
  if (failed.some((t) => t.kind === "local")) {
    return `pi-question: the native addon built from source could not be loaded; rebuild it with ${build} (if libcjson is missing, install libcjson1 / cjson).`;
  }
  if (host.os === "android") {
    return `pi-question: there is no prebuilt addon for Android (Termux); build it from source: "pkg install clang make python pkg-config cjson", then ${build}.`;
  }
  if (UNSUPPORTED_SYSTEMS.has(host.os)) {
    return `pi-question: ${host.os} is not supported: there is no prebuilt addon for it, and the C sources are built and tested only on Linux, macOS and Windows (on the BSDs the POSIX feature macros they are compiled with hide flock and SIGWINCH). See docs/platforms.md.`;
  }
  if (hasPrebuilt(host) && listsPrebuilt(packageName(host))) {
    return `pi-question: the prebuilt addon package ${packageName(host)} is not installed (npm skips optional dependencies with --omit=optional or --no-optional); reinstall pi-question with its optional dependencies, or build from source with ${build}.`;
  }
  if (hasPrebuilt(host)) {
    // A checkout (its package.json lists no platform packages: they are added when publishing).
    return `pi-question: the native addon is not built. Run "npm install" in ${packageRoot}.`;
  }
  return `pi-question: there is no prebuilt addon for ${targetKey(host)}; build it from source with ${build} (needs a C compiler, make, Python and the cJSON library: see the README's "Building from source").`;
}

/** The addon, loaded at the first call (the next calls give the same one); throws the sentence
 * of nothingLoadedSentence when nothing loads. `say` gets what a refused prebuilt's use of another
 * file says (default: stderr; pi's TUI gives its own notice instead, so its screen is not written
 * over). */
function loadAddon(say = (text) => process.stderr.write(text)) {
  if (loaded) return loaded;
  const tried = [];
  for (const source of addonSources()) {
    if (source.refused) {
      tried.push({ ...source, error: "refused" });
      continue;
    }
    if (!existsSync(source.file)) {
      tried.push({ ...source, error: "missing" });
      continue;
    }
    try {
      loaded = require(source.file);
      loadedFrom = source;
    } catch (error) {
      tried.push({ ...source, error: message(error) });
      continue;
    }
    // Said once, when the addon is first loaded (at the session's start at the latest: index.ts);
    // whatever `say` does, the addon is loaded.
    for (const t of tried) {
      try {
        if (t.refused) say(`${t.refused} Using ${source.file} instead.\n`);
      } catch {}
    }
    return loaded;
  }
  const lines = tried.map((t) => `${t.file} (${t.error})`);
  throw new Error(`${nothingLoadedSentence(tried)}\nTried:\n  ${lines.join("\n  ")}`);
}

/** Which addon loadAddon() loaded: { file, kind, name? }, or undefined before it has. */
function addonSource() {
  return loadedFrom;
}

module.exports = { packageRoot, addonCandidates, addonSources, loadAddon, addonSource, resolvePrebuilt };
