// platform-package.cjs — which npm package holds the prebuilt addon for this machine. One
// package per platform, named pi-question-<os>-<cpu>[-<libc>] (libc only on Linux: gnu or
// musl), published beside pi-question and listed in its optionalDependencies with matching
// `os`, `cpu` and `libc` fields, so npm installs only the one that fits. The table below is the
// one place that says which platforms get a prebuilt; scripts/prebuild.mjs builds them and
// scripts/packages.mjs stages them for publishing. locatePrebuilt() says where an installed one
// may be taken from, and refuses one another user could have put there.
"use strict";
const { readFileSync, statSync } = require("node:fs");
const { basename, dirname, join } = require("node:path");

const PACKAGE_PREFIX = "pi-question-";

/** The platforms with a prebuilt package: Node's process.platform / process.arch, on Linux the C
 * library the addon is linked against, and where the prebuilt is made: all on a Debian machine by
 * scripts/prebuild.mjs (cross-compilers for the others, Zig for macOS). */
const PREBUILT_TARGETS = [
  { os: "linux", cpu: "x64", libc: "gnu", builtOn: "debian" },
  { os: "linux", cpu: "arm64", libc: "gnu", builtOn: "debian" },
  { os: "linux", cpu: "x64", libc: "musl", builtOn: "debian" },
  { os: "win32", cpu: "x64", libc: "", builtOn: "debian" },
  { os: "darwin", cpu: "arm64", libc: "", builtOn: "debian" },
  { os: "darwin", cpu: "x64", libc: "", builtOn: "debian" },
];

/** "gnu" or "musl" on Linux (read from ldd, as musl's ldd is musl's loader and glibc's is a
 * script naming glibc; a machine with musl-tools installed still has glibc's ldd), else "". */
function detectLibc(platform = process.platform) {
  if (platform !== "linux") return "";
  try {
    const ldd = readFileSync("/usr/bin/ldd", { encoding: "latin1" }).slice(0, 65536);
    if (/musl/i.test(ldd)) return "musl";
    if (/GNU C Library|glibc|GLIBC/i.test(ldd)) return "gnu";
  } catch {}
  // No readable ldd (distroless images): glibc's runtime reports its version.
  try {
    const header = process.report && process.report.getReport().header;
    if (header && header.glibcVersionRuntime) return "gnu";
    return "musl";
  } catch {
    return "gnu";
  }
}

function targetKey(target) {
  return [target.os, target.cpu, target.libc].filter(Boolean).join("-");
}

function packageName(target) {
  return PACKAGE_PREFIX + targetKey(target);
}

/** This machine as a target: { os, cpu, libc }. */
function hostTarget() {
  return { os: process.platform, cpu: process.arch, libc: detectLibc() };
}

/** The packages to try on this machine, best first: the one for the detected C library, then
 * (on Linux) the other one, in case detection guessed wrong — a binary for the wrong libc only
 * fails to load. */
function candidatePackages(host = hostTarget()) {
  const first = packageName(host);
  if (host.os !== "linux") return [first];
  const other = packageName({ ...host, libc: host.libc === "musl" ? "gnu" : "musl" });
  return [first, other];
}

/** Whether a prebuilt package exists for `host` at all. */
function hasPrebuilt(host = hostTarget()) {
  return PREBUILT_TARGETS.some((t) => t.os === host.os && t.cpu === host.cpu && (t.libc || "") === (host.libc || ""));
}

// ---- where an installed platform package may be taken from ----

const ADDON_FILE = "pi_question.node";

/** The node_modules folders a platform package of the pi-question in `packageRoot` may be in:
 * its own node_modules, and the node_modules folder that directly holds pi-question (npm hoists
 * the package there; pnpm links it there), also when pi-question sits under a scope. Never a
 * folder above: Node's own resolution would search every parent's node_modules, so anyone who
 * can write a folder above the install (a checkout under /tmp) could plant an addon there. */
function prebuiltFolders(packageRoot) {
  const folders = [join(packageRoot, "node_modules")];
  let parent = dirname(packageRoot);
  if (basename(parent).startsWith("@")) parent = dirname(parent);
  if (basename(parent) === "node_modules") folders.push(parent);
  return folders;
}

/** Why a file or folder of an install must not be trusted, or "" when it may be: on POSIX it is
 * owned by this user or by root (a global install made with sudo) and nobody else can write it
 * (its group may, when the file is this user's and the group is this user's primary group).
 * Windows has no owner or mode bits Node can read this way; there the folder rule alone holds. */
function untrusted(path, stats) {
  if (typeof process.getuid !== "function") return "";
  const uid = process.getuid();
  if (stats.uid !== uid && stats.uid !== 0) {
    return `${path} is owned by another user (uid ${stats.uid}; you are uid ${uid}), so it may not be yours to run; reinstall pi-question as yourself`;
  }
  // Group-writable is fine when the group is the user's own (umask 002, as Ubuntu gives every
  // user a group of their own): npm installs every file that way there.
  const groupOk = typeof process.getgid === "function" && stats.gid === process.getgid() && stats.uid === uid;
  if (stats.mode & (groupOk ? 0o002 : 0o022)) {
    const mode = (stats.mode & 0o777).toString(8).padStart(4, "0");
    return `${path} is writable by ${stats.mode & 0o002 ? "every user" : "its group"} (mode ${mode}), so someone else could have replaced it; run "chmod go-w ${path}" if it is yours, or reinstall pi-question`;
  }
  return "";
}

/** The platform package `name` for the pi-question in `packageRoot` (whose package.json says
 * `version`): { file } when its addon may be loaded, { file, refused } (a sentence: what and why,
 * and how to fix) when one is there but must not be, undefined when there is none. One stat per
 * folder looked in; three more stats and one read only when an addon is there. */
function locatePrebuilt(packageRoot, name, version) {
  let refusal;
  for (const folder of prebuiltFolders(packageRoot)) {
    const dir = join(folder, name);
    const file = join(dir, ADDON_FILE);
    let fileStats;
    try {
      fileStats = statSync(file, { throwIfNoEntry: false });
    } catch {}
    if (!fileStats) continue;
    let why = untrusted(file, fileStats);
    for (const path of [dir, folder]) {
      if (why) break;
      try {
        why = untrusted(path, statSync(path));
      } catch (error) {
        why = `${path} cannot be read (${error instanceof Error ? error.message : String(error)})`;
      }
    }
    if (!why) {
      let theirs;
      try {
        theirs = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version;
      } catch {}
      if (theirs !== version) {
        why = `it is version ${theirs === undefined ? "(none: its package.json is missing or unreadable)" : String(theirs).slice(0, 40)}, while pi-question is ${version}; reinstall pi-question ("npm install") so npm installs the matching ${name}`;
      }
    }
    if (!why) return { file };
    refusal ??= { file, refused: `pi-question: refused the prebuilt addon ${file}: ${why}.` };
  }
  return refusal;
}

module.exports = {
  PACKAGE_PREFIX,
  PREBUILT_TARGETS,
  detectLibc,
  targetKey,
  packageName,
  hostTarget,
  candidatePackages,
  hasPrebuilt,
  prebuiltFolders,
  locatePrebuilt,
};
