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

function chromiumPresent() {
  return existsSync("/usr/bin/chromium") || has("chromium") || has("chromium-browser");
}

/**
 * What the build and the tests need: how to tell it is there, and its package per manager
 * (a function when the name depends on what is installed; null: this manager cannot provide
 * it, `note` says what to do instead).
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
    note: { brew: 'install Apple\'s command line tools: "xcode-select --install"' },
  },
  { id: "make", what: "make", present: () => has("make"), apt: ["make"], dnf: ["make"], pacman: ["make"], apk: ["make"], brew: ["make"] },
  { id: "python3", what: "Python 3 (node-gyp)", present: () => has("python3"), apt: ["python3"], dnf: ["python3"], pacman: ["python"], apk: ["python3"], brew: ["python"] },
  { id: "pkg-config", what: "pkg-config", present: () => has("pkg-config"), apt: ["pkg-config"], dnf: ["pkgconf"], pacman: ["pkgconf"], apk: ["pkgconf"], brew: ["pkg-config"] },
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
  { id: "tmux", test: true, what: "tmux", present: () => has("tmux", ["-V"]), apt: ["tmux"], dnf: ["tmux"], pacman: ["tmux"], apk: ["tmux"], brew: ["tmux"] },
  { id: "clang", test: true, what: "clang", present: () => has("clang"), apt: ["clang"], dnf: ["clang"], pacman: ["clang"], apk: ["clang"], brew: ["llvm"] },
  {
    id: "clang-rt",
    test: true,
    after: "clang", // its Debian package is named after the clang installed
    what: "clang's sanitizer and libFuzzer runtimes",
    present: clangRuntimesPresent,
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
    apt: ["chromium"],
    dnf: ["chromium"],
    pacman: ["chromium"],
    apk: ["chromium"],
    brew: null,
    note: { brew: "the browser tests look for /usr/bin/chromium (Linux); they are skipped here" },
  },
];

/** The package manager of this machine, or undefined. */
export function detectManager() {
  if (platform() === "darwin") return has("brew") ? "brew" : undefined;
  for (const [manager, cmd] of [["apt", "apt-get"], ["dnf", "dnf"], ["pacman", "pacman"], ["apk", "apk"], ["brew", "brew"]]) {
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
      return [[...sudo, "pacman", "-S", "--needed", "--noconfirm", ...packages]];
    case "apk":
      return [[...sudo, "apk", "add", ...packages]];
    case "brew":
      return [["env", "HOMEBREW_NO_AUTO_UPDATE=1", "NONINTERACTIVE=1", "brew", "install", ...packages]];
    default:
      throw new Error(`unknown package manager ${manager}`);
  }
}

/** Packages for the missing requirements; `notes` for those this manager cannot install. */
export function packagesFor(manager, missing) {
  const packages = [];
  const notes = [];
  for (const req of missing) {
    const spec = typeof req[manager] === "function" ? req[manager]() : req[manager];
    if (spec === null || spec === undefined) {
      notes.push(`${req.what}: ${req.note?.[manager] ?? `not installable with ${manager}; install it yourself`}`);
      continue;
    }
    for (const p of spec) if (!packages.includes(p)) packages.push(p);
  }
  return { packages, notes };
}

const say = (s) => process.stdout.write(`setup: ${s}\n`);
const quote = (a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

function runCommand(argv, dryRun) {
  say(`$ ${argv.map(quote).join(" ")}`);
  if (dryRun) return;
  const r = spawnSync(argv[0], argv.slice(1), { stdio: ["inherit", "inherit", "inherit"], cwd: root });
  if (r.error || r.status !== 0) {
    const hint = argv[0] === "sudo" && argv[1] === "-n" ? " (sudo -n: sudo wants a password and there is no terminal to ask on; run this from a terminal, or as root)" : "";
    throw new Error(`${argv[0]} ${r.error ? `could not run (${r.error.message})` : `exited ${r.status}`}${hint}`);
  }
}

function osName() {
  try {
    return readFileSync("/etc/os-release", "utf8").match(/^PRETTY_NAME="?([^"\n]*)/m)?.[1] ?? platform();
  } catch {
    return platform();
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
  say(`${osName()}; checking ${wanted.map((r) => r.what).join(", ")}`);
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
    for (const round of [first, second]) {
      const batch = round === second && !dryRun ? second.filter((r) => !r.present()) : round;
      if (!batch.length) continue;
      const { packages, notes } = packagesFor(manager, batch);
      for (const n of notes) say(n);
      for (const command of installCommands(manager, packages, { root: isRoot, tty, refresh: round === first || !first.length })) {
        runCommand(command, dryRun);
      }
    }
    if (!dryRun) {
      const still = missingNow().filter((r) => r[manager] !== null);
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
