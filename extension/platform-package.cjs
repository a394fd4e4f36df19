// platform-package.cjs — which npm package holds the prebuilt addon for this machine. One
// package per platform, named pi-question-<os>-<cpu>[-<libc>] (libc only on Linux: gnu or
// musl), published beside pi-question and listed in its optionalDependencies with matching
// `os`, `cpu` and `libc` fields, so npm installs only the one that fits. The table below is the
// one place that says which platforms get a prebuilt; scripts/prebuild.mjs builds them and
// scripts/packages.mjs stages them for publishing.
"use strict";
const { readFileSync } = require("node:fs");

const PACKAGE_PREFIX = "pi-question-";

/** The platforms with a prebuilt package: Node's process.platform / process.arch, on Linux the C
 * library the addon is linked against, and where the prebuilt is made: "debian" targets are
 * compiled by scripts/prebuild.mjs on a Debian machine (cross-compilers for the others), "macos"
 * targets only on a Mac (the workflow under .github/workflows does it; no SDK exists here). */
const PREBUILT_TARGETS = [
  { os: "linux", cpu: "x64", libc: "gnu", builtOn: "debian" },
  { os: "linux", cpu: "arm64", libc: "gnu", builtOn: "debian" },
  { os: "linux", cpu: "x64", libc: "musl", builtOn: "debian" },
  { os: "win32", cpu: "x64", libc: "", builtOn: "debian" },
  { os: "darwin", cpu: "arm64", libc: "", builtOn: "macos" },
  { os: "darwin", cpu: "x64", libc: "", builtOn: "macos" },
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

module.exports = { PACKAGE_PREFIX, PREBUILT_TARGETS, detectLibc, targetKey, packageName, hostTarget, candidatePackages, hasPrebuilt };
