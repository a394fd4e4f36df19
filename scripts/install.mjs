// install.mjs — builds the native addon from source: `npm run build`, and npm's install step
// with --prefer-prebuilt, which first looks for the prebuilt platform package npm installed
// beside pi-question (extension/platform-package.cjs) and, when one loads here, builds nothing.
// Before node-gyp runs it checks the things a fresh machine lacks most often — a C compiler, the
// C++ compiler node-gyp links with, and the cJSON library — and, if one is missing, says in one
// sentence what to install on which system.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const preferPrebuilt = args[0] === "--prefer-prebuilt";
if (preferPrebuilt) args.shift();

function has(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: "ignore" });
  return r.status === 0;
}

function fail(sentence) {
  console.error(`pi-question: ${sentence}`);
  process.exit(1);
}

/** npm's install step: exits when a prebuilt addon loads; else says why it builds from source. */
function usePrebuiltIfAny() {
  const { resolvePrebuilt } = require("../extension/load-addon.cjs");
  const { candidatePackages, hasPrebuilt, hostTarget, packageName, targetKey } = require("../extension/platform-package.cjs");
  const notLoading = [];
  for (const name of candidatePackages()) {
    // Only this installation's own package of pi-question's version, owned by this user
    // (platform-package.cjs locatePrebuilt): a refused one is named and built around.
    const found = resolvePrebuilt(name);
    if (!found) continue;
    if (found.refused) {
      console.error(found.refused);
      notLoading.push(`${name} was refused`);
      continue;
    }
    const file = found.file;
    try {
      require(file);
      console.log(`pi-question: using the prebuilt addon ${name}; nothing to build.`);
      process.exit(0);
    } catch (error) {
      notLoading.push(`${name} does not load here (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  const host = hostTarget();
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  // A checkout (or its npm pack) lists no platform packages: building from source is all it
  // ever does, so there is nothing to explain.
  if (!notLoading.length && !Object.keys(manifest.optionalDependencies ?? {}).length) return;
  const why = notLoading.length
    ? notLoading.join("; ")
    : !hasPrebuilt(host)
      ? `there is no prebuilt addon for ${targetKey(host)}`
      : `the prebuilt addon package ${packageName(host)} is not installed`;
  console.error(`pi-question: ${why}; building the addon from source.`);
}

if (preferPrebuilt) usePrebuiltIfAny();

// Windows: node-gyp finds Visual Studio itself, and cJSON comes from CJSON_DIR (binding.gyp).
const windows = process.platform === "win32";
if (windows) {
  const dir = process.env.CJSON_DIR;
  if (!dir || !existsSync(join(dir, "include", "cjson", "cJSON.h")) || !existsSync(join(dir, "lib", "cjson.lib"))) {
    fail(
      `the cJSON library was not found (${dir ? `CJSON_DIR=${dir} has no include\\cjson\\cJSON.h and lib\\cjson.lib` : "CJSON_DIR is not set"}); install it with vcpkg ("vcpkg install cjson:x64-windows-static") and set CJSON_DIR to that directory, e.g. "set CJSON_DIR=C:\\vcpkg\\installed\\x64-windows-static".`,
    );
  }
}
const compiler = process.env.CC || "cc";
if (!windows && !has(compiler, ["--version"])) {
  fail(
    `no C compiler found (${compiler}); install one: Debian/Ubuntu "sudo apt-get install build-essential pkg-config", Fedora "sudo dnf install gcc gcc-c++ make pkgconf", macOS "xcode-select --install".`,
  );
}
// node-gyp's Makefile links with $LINK, else $CXX, else make's default C++ compiler (GNU make:
// g++; macOS: c++) — the same rule as linker() in scripts/setup.mjs, which is not shipped.
const linker = process.env.LINK || process.env.CXX || (process.platform === "darwin" ? "c++" : "g++");
if (!windows && !has(linker, ["--version"])) {
  fail(
    `no C++ compiler found (${linker}), which node-gyp links the addon with; install one: Debian/Ubuntu "sudo apt-get install build-essential", Fedora "sudo dnf install gcc-c++", macOS "xcode-select --install".`,
  );
}
if (!windows && !has("pkg-config", ["--exists", "libcjson"])) {
  fail(
    `the cJSON library was not found (pkg-config libcjson); install it: Debian/Ubuntu "sudo apt-get install libcjson-dev pkg-config", Fedora "sudo dnf install cjson-devel pkgconf", macOS "brew install cjson pkg-config".`,
  );
}

// npm passes the path of its own node-gyp to lifecycle scripts; outside npm, use node-gyp from
// PATH, else the one bundled with the npm next to this node.
function findNodeGyp() {
  if (process.env.npm_config_node_gyp && existsSync(process.env.npm_config_node_gyp)) {
    return [process.execPath, [process.env.npm_config_node_gyp]];
  }
  if (has("node-gyp", ["--version"])) return ["node-gyp", []];
  const prefix = dirname(dirname(process.execPath));
  for (const lib of [join(prefix, "lib", "node_modules"), join(prefix, "node_modules"), "/usr/share/nodejs", "/usr/lib/node_modules"]) {
    const script = join(lib, "npm", "node_modules", "node-gyp", "bin", "node-gyp.js");
    if (existsSync(script)) return [process.execPath, [script]];
  }
  return undefined;
}

const gyp = findNodeGyp();
if (!gyp) {
  fail('node-gyp was not found; run "npm install" (npm brings its own node-gyp) or install it with "npm install -g node-gyp".');
}
const [command, prefixArgs] = gyp;
// Build against the headers installed with this node when there are some, so nothing is
// downloaded (npm passes its own nodedir setting, if any, through the environment).
const extra = [];
const nodePrefix = dirname(dirname(process.execPath));
if (!process.env.npm_config_nodedir && existsSync(join(nodePrefix, "include", "node", "node_api.h"))) {
  extra.push(`--nodedir=${nodePrefix}`);
}
const r = spawnSync(command, [...prefixArgs, "rebuild", ...extra, ...args], { cwd: root, stdio: "inherit" });
if (r.status !== 0) {
  fail(
    r.error ? `node-gyp could not be started (${r.error.message}).` : "building the native addon failed (see the compiler output above).",
  );
}
