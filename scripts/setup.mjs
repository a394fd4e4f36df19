#!/usr/bin/env node
// setup.mjs — `npm run setup`: everything a fresh machine lacks to build pi-question, then
// `npm install`. Needs nothing but Node (no node_modules): it checks what is missing and installs
// only that, with the system's package manager — apt (Debian/Ubuntu), dnf (Fedora), brew
// (macOS), pacman (Arch), apk (Alpine) — through sudo only when not root, never prompting when
// there is no terminal (-y, noninteractive, `sudo -n`), and prints every command before it runs.
//
//   npm run setup                  build prerequisites, then npm install
//   npm run setup -- --test        also what the tests need (tmux, clang with its sanitizer and
//                                  libFuzzer runtimes, Chromium for the browser tests)
//   npm run setup -- --ci          --test, then `npm ci` instead of `npm install` (.ci/run)
//   npm run setup -- --dry-run     say what would run, run nothing
//   npm run setup -- --no-npm      system packages only
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { arch, platform } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

function has(cmd, args = ["--version"]) {
  const r = spawnSync(cmd, args, { stdio: "ignore" });
  return !r.error && r.status === 0;
}

/** Whether `cmd` is an executable file on PATH, found without running it (curl, run under the
 * sanitizers' preloaded runtime by the asan step's setup test, never returns from --version). */
function onPath(cmd) {
  const dirs = (process.env.PATH || "").split(platform() === "win32" ? ";" : ":").filter(Boolean);
  const names = platform() === "win32" ? [`${cmd}.exe`, cmd] : [cmd];
  return dirs.some((d) => names.some((n) => existsSync(join(d, n))));
}

function output(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: "utf8" });
  return r.error || r.status !== 0 ? "" : r.stdout.trim();
}

/** clang's runtime library file names for this machine's CPU (x86_64, aarch64, …). */
const rtArch = { x64: "x86_64", arm64: "aarch64", ia32: "i386" }[arch()] ?? arch();

function clangMajor() {
  const v = output("clang", ["-dumpversion"]);
  return v ? v.split(".")[0] : "";
}

function clangRuntimesPresent() {
  if (!has("clang")) return false;
  if (platform() === "darwin") return true; // Apple's and brew's clang ship their runtimes
  return ["asan", "fuzzer"].every((lib) => {
    const file = output("clang", [`-print-file-name=libclang_rt.${lib}-${rtArch}.${lib === "asan" ? "so" : "a"}`]);
    return file.startsWith("/") && existsSync(file);
  });
}

/** What /etc/os-release says (ID, ID_LIKE, VERSION_ID, PRETTY_NAME, …); {} when there is none. */
export function osRelease(text) {
  if (text === undefined) {
    try {
      text = readFileSync("/etc/os-release", "utf8");
    } catch {
      return {};
    }
  }
  const out = {};
  for (const m of text.matchAll(/^([A-Z_]+)=(?:"([^"]*)"|'([^']*)'|(.*))$/gm)) out[m[1]] = m[2] ?? m[3] ?? m[4];
  return out;
}

/** The command node-gyp's Makefile links the addon with: $LINK, else $CXX, else make's default
 * C++ compiler (GNU make: g++; macOS: c++). A machine with cc but without it compiles every
 * file and then fails at the link. */
export function linker(env = process.env, os = platform()) {
  return env.LINK || env.CXX || (os === "darwin" ? "c++" : "g++");
}

function chromiumPresent() {
  return existsSync("/usr/bin/chromium") || has("chromium") || has("chromium-browser");
}

const XCODE_TOOLS = 'install Apple\'s command line tools: "xcode-select --install"';

/**
 * What the build and the tests need: how to tell it is there, and its package per manager
 * (a function of { os: osRelease() } when the name depends on the system or on what is
 * installed; null: this manager cannot provide it, `note` says what to do instead).
 */
export const REQUIREMENTS = [
  {
    id: "cc",
    what: "a C compiler",
    present: () => has(process.env.CC || "cc"),
    apt: ["build-essential"],
    dnf: ["gcc"],
    pacman: ["gcc"],
    apk: ["build-base"],
    brew: null,
    note: { brew: XCODE_TOOLS },
  },
  {
    id: "c++",
    what: "a C++ compiler (node-gyp links the addon with it)",
    present: () => has(linker()),
    apt: ["build-essential"],
    dnf: ["gcc-c++"],
    pacman: ["gcc"],
    apk: ["build-base"],
    brew: null,
    note: { brew: XCODE_TOOLS },
  },
  // brew's make is GNU make installed as `gmake`, so it would not make `make` appear; the
  // command line tools bring /usr/bin/make.
  {
    id: "make",
    what: "make",
    present: () => has("make"),
    apt: ["make"],
    dnf: ["make"],
    pacman: ["make"],
    apk: ["make"],
    brew: null,
    note: { brew: XCODE_TOOLS },
  },
  {
    id: "python3",
    what: "Python 3 (node-gyp)",
    present: () => has("python3"),
    apt: ["python3"],
    dnf: ["python3"],
    pacman: ["python"],
    apk: ["python3"],
    brew: ["python"],
  },
  {
    id: "pkg-config",
    what: "pkg-config",
    present: () => has("pkg-config"),
    apt: ["pkg-config"],
    dnf: ["pkgconf"],
    pacman: ["pkgconf"],
    apk: ["pkgconf"],
    brew: ["pkg-config"],
  },
  {
    id: "cjson",
    what: "the cJSON library",
    present: () => has("pkg-config", ["--exists", "libcjson"]),
    apt: ["libcjson-dev"],
    dnf: ["cjson-devel"],
    pacman: ["cjson"],
    apk: ["cjson-dev"],
    brew: ["cjson"],
  },
  // The tests copy the checkout with `git ls-files` (tests/helpers/install.mjs) and check names
  // with it: a checkout downloaded as an archive on a machine without git would fail 23 of them.
  {
    id: "git",
    test: true,
    what: "git",
    present: () => has("git"),
    apt: ["git"],
    dnf: ["git"],
    pacman: ["git"],
    apk: ["git"],
    brew: ["git"],
  },
  {
    id: "tmux",
    test: true,
    what: "tmux",
    present: () => has("tmux", ["-V"]),
    apt: ["tmux"],
    dnf: ["tmux"],
    pacman: ["tmux"],
    apk: ["tmux"],
    brew: ["tmux"],
  },
  // notice.command's documented push example (curl posting the question) is run by a test.
  {
    id: "curl",
    test: true,
    what: "curl",
    present: () => onPath("curl"),
    apt: ["curl"],
    dnf: ["curl"],
    pacman: ["curl"],
    apk: ["curl"],
    brew: ["curl"],
  },
  {
    id: "clang",
    test: true,
    what: "clang",
    present: () => has("clang"),
    apt: ["clang"],
    dnf: ["clang"],
    pacman: ["clang"],
    apk: ["clang"],
    brew: ["llvm"],
  },
  // The format check pins clang-format's major version (each release formats a little differently).
  {
    id: "clang-format",
    test: true,
    what: "clang-format 14 (the C format check)",
    present: () => has("clang-format-14", ["--version"]) || /version 14\./.test(output("clang-format", ["--version"]) ?? ""),
    apt: ["clang-format-14"],
    dnf: null,
    pacman: null,
    apk: null,
    brew: null,
    note: Object.fromEntries(
      ["dnf", "pacman", "apk", "brew"].map((m) => [m, "the format check needs clang-format 14 exactly (LLVM 14's)"]),
    ),
  },
  {
    id: "clang-rt",
    test: true,
    after: "clang", // its Debian package is named after the clang installed
    what: "clang's sanitizer and libFuzzer runtimes",
    present: clangRuntimesPresent,
    // Debian 12 and Ubuntu ≥ 23.04 package them apart; where clang's own dependencies carry
    // them (Ubuntu 22.04's libclang-common-14-dev), the re-check after clang finds them present.
    apt: () => [`libclang-rt-${clangMajor() || "14"}-dev`],
    dnf: ["compiler-rt"],
    pacman: ["compiler-rt"],
    apk: ["compiler-rt"],
    brew: [],
  },
  {
    id: "chromium",
    test: true,
    what: "Chromium (browser tests)",
    present: chromiumPresent,
    // Ubuntu's apt package (chromium-browser) only installs the snap, which needs snapd (absent
    // in containers, where the install then fails) and puts nothing at /usr/bin/chromium.
    apt: ({ os }) => (os.ID === "ubuntu" ? null : ["chromium"]),
    dnf: ["chromium"],
    pacman: ["chromium"],
    apk: ["chromium"],
    brew: null,
    note: {
      brew: "the browser tests look for /usr/bin/chromium (Linux); they are skipped here",
      apt: "Ubuntu ships Chromium only as a snap (not at /usr/bin/chromium, and snapd is missing in containers): the browser tests are skipped unless you put a Chromium there yourself",
    },
  },
  // The prebuilt addons (scripts/prebuild.mjs): cross-compiled for Linux arm64, musl and Windows
  // x64 and run under qemu and Wine, with Debian's cross toolchains; cJSON comes from Debian's source package
  // (dpkg-source applies its patches). Only apt has all of them.
  ...[
    ["aarch64-gcc", "a C cross compiler for Linux arm64", () => has("aarch64-linux-gnu-gcc"), ["gcc-aarch64-linux-gnu"]],
    // Only a recommendation of the compiler's package, so --no-install-recommends leaves it out:
    // without it no arm64 C file compiles (bits/wordsize.h missing).
    [
      "arm64-libc-dev",
      "the arm64 C library's headers (cross-compiling for Linux arm64)",
      () => existsSync("/usr/aarch64-linux-gnu/include/stdio.h"),
      ["libc6-dev-arm64-cross"],
    ],
    [
      "arm64-libstdc++",
      "the arm64 C++ runtime (Node for arm64 under qemu)",
      () => existsSync("/usr/aarch64-linux-gnu/lib/libstdc++.so.6"),
      ["libstdc++6-arm64-cross"],
    ],
    ["qemu-aarch64", "qemu for arm64 programs", () => has("qemu-aarch64-static", ["--version"]), ["qemu-user-static"]],
    ["musl-gcc", "musl's C compiler wrapper", () => has("musl-gcc", ["--version"]), ["musl-tools"]],
    ["dpkg-source", "dpkg-source (cJSON's Debian source package)", () => has("dpkg-source", ["--version"]), ["dpkg-dev"]],
    [
      "mingw-gcc",
      "a C cross compiler for Windows x64 (mingw-w64)",
      () => has("x86_64-w64-mingw32-gcc", ["--version"]),
      ["gcc-mingw-w64-x86-64"],
    ],
    [
      "wine64",
      "Wine, to run Node for Windows and the win32 prebuilt",
      () => existsSync("/usr/lib/wine/wine64") || has("wine64", ["--version"]),
      ["wine64"],
    ], // Debian puts it in /usr/lib/wine
  ].map(([id, what, present, apt]) => ({
    id,
    test: true,
    what,
    present,
    apt,
    dnf: null,
    pacman: null,
    apk: null,
    brew: null,
    note: Object.fromEntries(
      ["dnf", "pacman", "apk", "brew"].map((m) => [
        m,
        "the prebuilt addons are built on Debian only (scripts/prebuild.mjs: cJSON from Debian's source package)",
      ]),
    ),
  })),
];

/** The package manager of this machine, or undefined. */
export function detectManager() {
  if (platform() === "darwin") return has("brew") ? "brew" : undefined;
  for (const [manager, cmd] of [
    ["apt", "apt-get"],
    ["dnf", "dnf"],
    ["pacman", "pacman"],
    ["apk", "apk"],
    ["brew", "brew"],
  ]) {
    if (has(cmd, ["--version"])) return manager;
  }
  return undefined;
}

/**
 * The commands that install `packages` with `manager`: [argv, …]. `root` (uid 0) runs them
 * directly, otherwise through sudo — `sudo -n` when there is no terminal to ask a password on.
 * brew never runs as root or through sudo. `refresh` false: the package lists were just updated.
 */
export function installCommands(manager, packages, { root, tty, refresh = true }) {
  if (!packages.length) return [];
  const sudo = root || manager === "brew" ? [] : tty ? ["sudo"] : ["sudo", "-n"];
  switch (manager) {
    case "apt": {
      const env = ["env", "DEBIAN_FRONTEND=noninteractive"];
      return [
        ...(refresh ? [[...sudo, ...env, "apt-get", "update", "-q"]] : []),
        [...sudo, ...env, "apt-get", "install", "-y", "-q", "--no-install-recommends", ...packages],
      ];
    }
    case "dnf":
      return [[...sudo, "dnf", "install", "-y", ...packages]];
    case "pacman":
      // A fresh system (a container) has empty sync databases: -S alone finds nothing. -Sy alone
      // would be a partial upgrade (new packages against old libraries), which Arch does not
      // support; -Syu syncs and upgrades the system with them. That upgrade is the person's to
      // approve: with a terminal pacman asks (it lists what it upgrades); without one nobody can.
      return [[...sudo, "pacman", refresh ? "-Syu" : "-S", "--needed", ...(tty ? [] : ["--noconfirm"]), ...packages]];
    case "apk":
      // A fresh Alpine has no package index: fetch it first (as apt-get update).
      return [...(refresh ? [[...sudo, "apk", "update"]] : []), [...sudo, "apk", "add", ...packages]];
    case "brew":
      return [["env", "HOMEBREW_NO_AUTO_UPDATE=1", "NONINTERACTIVE=1", "brew", "install", ...packages]];
    default:
      throw new Error(`unknown package manager ${manager}`);
  }
}

/** The packages of `req` with `manager` on system `os`; null when this manager cannot install it. */
export function packagesOf(req, manager, os = osRelease()) {
  const spec = typeof req[manager] === "function" ? req[manager]({ os }) : req[manager];
  return spec ?? null;
}

/** Packages for the missing requirements; `notes` (one per advice, naming what it is for) for
 * those this manager cannot install. */
export function packagesFor(manager, missing, os = osRelease()) {
  const packages = [];
  const advice = new Map();
  for (const req of missing) {
    const spec = packagesOf(req, manager, os);
    if (spec === null) {
      const note = req.note?.[manager] ?? `not installable with ${manager}; install it yourself`;
      advice.set(note, [...(advice.get(note) ?? []), req.what]);
      continue;
    }
    for (const p of spec) if (!packages.includes(p)) packages.push(p);
  }
  const notes = [...advice].map(([note, whats]) => `${whats.join(", ")}: ${note}`);
  return { packages, notes };
}

const say = (s) => process.stdout.write(`setup: ${s}\n`);
const quote = (a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

function runCommand(argv, dryRun) {
  say(`$ ${argv.map(quote).join(" ")}`);
  if (dryRun) return;
  const r = spawnSync(argv[0], argv.slice(1), { stdio: ["inherit", "inherit", "inherit"], cwd: root });
  if (r.error || r.status !== 0) {
    const hint =
      argv[0] === "sudo" && argv[1] === "-n"
        ? " (sudo -n: sudo wants a password and there is no terminal to ask on; run this from a terminal, or as root)"
        : "";
    throw new Error(`${argv[0]} ${r.error ? `could not run (${r.error.message})` : `exited ${r.status}`}${hint}`);
  }
}

function main(argv) {
  const flags = new Set(argv);
  for (const f of flags) {
    if (!["--test", "--ci", "--dry-run", "--no-npm"].includes(f)) {
      say(`unknown option ${f} (use --test, --ci, --dry-run, --no-npm)`);
      return 2;
    }
  }
  const ci = flags.has("--ci");
  const withTests = ci || flags.has("--test");
  const dryRun = flags.has("--dry-run");
  const isRoot = process.getuid?.() === 0;
  const tty = Boolean(process.stdin.isTTY);

  const wanted = REQUIREMENTS.filter((r) => withTests || !r.test);
  const os = osRelease();
  say(`${os.PRETTY_NAME ?? platform()}; checking ${wanted.map((r) => r.what).join(", ")}`);
  const missingNow = () => wanted.filter((r) => !r.present());
  let missing = missingNow();
  if (!missing.length) say("all present, nothing to install");
  else {
    const manager = detectManager();
    say(`missing: ${missing.map((r) => r.what).join(", ")}`);
    if (!manager) {
      say("no supported package manager found (apt, dnf, brew, pacman, apk): install the above yourself, then run this again");
      return 1;
    }
    if (!isRoot && manager !== "brew" && !has("sudo", ["-V"])) {
      say(`not root and no sudo: run this as root, or install the above with ${manager} yourself`);
      return 1;
    }
    // Two rounds: what depends on another requirement (clang's runtimes on clang's version)
    // is named once that one is installed.
    const waits = (r) => r.after && missing.some((m) => m.id === r.after);
    const first = missing.filter((r) => !waits(r));
    const second = missing.filter(waits);
    let refreshed = false; // the package lists were updated by an earlier command of this run
    for (const round of [first, second]) {
      const batch = round === second && !dryRun ? second.filter((r) => !r.present()) : round;
      if (!batch.length) continue;
      const { packages, notes } = packagesFor(manager, batch, os);
      for (const n of notes) say(n);
      const commands = installCommands(manager, packages, { root: isRoot, tty, refresh: !refreshed });
      for (const command of commands) runCommand(command, dryRun);
      if (commands.length) refreshed = true;
    }
    if (!dryRun) {
      const still = missingNow().filter((r) => packagesOf(r, manager, os) !== null);
      if (still.length) {
        say(`still missing after installing: ${still.map((r) => r.what).join(", ")}`);
        return 1;
      }
    }
  }

  if (flags.has("--no-npm")) return 0;
  runCommand(ci ? ["npm", "ci", "--no-audit", "--no-fund"] : ["npm", "install", "--no-audit", "--no-fund"], dryRun);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    say(error.message);
    process.exitCode = 1;
  }
}
