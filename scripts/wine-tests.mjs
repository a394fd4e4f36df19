#!/usr/bin/env node
// wine-tests.mjs — the relay, remote and web modules and pi's RPC mode on Windows' Node, run
// here under Wine (scripts/wine.mjs) with the win32 prebuilt addon:
//
//   node scripts/wine-tests.mjs                 every file below (needs the win32 prebuilt)
//   node scripts/wine-tests.mjs --without-addon only the files that need no addon
//   node scripts/wine-tests.mjs --only=relay    only the files whose path holds that text
//
// Each test file runs in its own `node.exe --test` under Wine, bounded in time (FILE_TIMEOUT_MS),
// with PI_QUESTION_ADDON naming dist/prebuilds/win32-x64/pi_question.node. The tests that cannot
// run there are skipped by name (--test-skip-pattern), each with its reason, printed before the
// run. wine-rpc.test.mjs gets the current pi line (scripts/current-pi.mjs: pi is JavaScript, so
// the line installed for Linux runs on Windows' Node as it is). Prints one line per file (passed,
// failed, skipped, seconds) and the failures' TAP; exits 1 when anything failed or timed out.
// Last, tests/win32-tty.test.mjs (the terminal runner on Wine's console) runs on this Node, which
// drives Wine in a tmux pane, with the same addon; in a process group of its own that a timeout
// kills whole, and the tmux servers it leaves behind are ended after it.
import { randomBytes } from "node:crypto";
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { currentLine, ensureCurrentLine } from "./current-pi.mjs";
import { ensureWineNode, ensureWinePrefix, toWinePath, wineNode, WINE_NODE } from "./wine.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The win32 addon: the prebuilt, or another build that PI_QUESTION_WINE_ADDON names. */
const ADDON = process.env.PI_QUESTION_WINE_ADDON || join(root, "dist", "prebuilds", "win32-x64", "pi_question.node");
const FILE_TIMEOUT_MS = 300_000;
/** The console runner's test: run with this Node (it drives Wine in tmux), not inside Wine. */
const CONSOLE_FILE = "tests/win32-tty.test.mjs";
/** Its budget, above the sum of its own bounds: the harness (built with mingw as the file loads,
 * then up to 90 s for its end) and four tests of at most 240 s each. */
const CONSOLE_TIMEOUT_MS = 1_200_000;
/** The variable that marks the tmux servers a run of CONSOLE_FILE starts: a tmux server's global
 * environment is the one it was started with. */
const RUN_MARK = "PI_QUESTION_WINE_TESTS_RUN";

// Why tests are skipped under Wine (each one named below).
const NO_DIRECTORY =
  "checks the relay's 0700 directory and its socket file: on Windows the endpoint is a named pipe with no directory (wine-modules checks the pipe)";
const POSIX_MODES =
  "checks POSIX modes (0700/0600) and owners, which Windows does not have: the registry there is guarded by the profile's ACL";
const STOP_SIGNALS = "stops a pi with SIGSTOP / SIGCONT, which Windows does not have";
/** The console file's one test that skips itself under Wine, when Wine's console says it cannot
 * be tested (any other skip there is a failure). */
const CONSOLE_SKIPS = ["a resized console is redrawn at its new width"];

/**
 * The files run under Wine: `addon` says whether a file needs the addon; `skip` names the tests
 * that cannot run on Windows (a substring of the test's name) and why.
 */
export const WINE_FILES = [
  { file: "tests/windows-paths.test.mjs", addon: false, skip: [] },
  { file: "tests/wine-modules.test.mjs", addon: false, skip: [] },
  {
    file: "tests/relay.test.mjs",
    addon: true,
    skip: [
      { name: "the socket sits in a private directory (0700)", why: NO_DIRECTORY },
      { name: "once the process exits its directory is gone", why: NO_DIRECTORY },
      {
        name: "directories of killed pis are swept",
        why: "nothing is swept on Windows (a named pipe leaves nothing behind); the test also sends SIGKILL and makes symlinks",
      },
    ],
  },
  {
    file: "tests/relay-host.test.mjs",
    addon: true,
    skip: [{ name: "the variable children inherit only asks; listing, answering and watching", why: POSIX_MODES }],
  },
  {
    file: "tests/remote.test.mjs",
    addon: true,
    skip: [
      { name: "the endpoint registry is private", why: POSIX_MODES },
      {
        name: "left-behind *.json.tmp files are removed when listing",
        why: `${POSIX_MODES}; it also makes symlinks, which Wine 8 cannot (ENOTSUP)`,
      },
      {
        name: "a registry directory that is a symlink is refused",
        why: "makes a symlink, which Wine 8 cannot (ENOTSUP); lstat refuses a junction on Windows like a symlink",
      },
    ],
  },
  {
    file: "tests/remote-cli.test.mjs",
    addon: true,
    skip: [
      { name: "a reply that does not come in replyMs is a timeout", why: STOP_SIGNALS },
      { name: "pending: a stopped pi, a silent one", why: STOP_SIGNALS },
      { name: "pending: nothing listed but a pi did not answer exits 5", why: STOP_SIGNALS },
      { name: "a stopped pi is named and the live pi's question listed", why: STOP_SIGNALS },
      { name: "a pi that stops before confirming", why: STOP_SIGNALS },
      { name: "to a pi that does not confirm in time exits 5", why: STOP_SIGNALS },
    ],
  },
  {
    file: "tests/web.test.mjs",
    addon: true,
    skip: [],
  },
  { file: "tests/wine-rpc.test.mjs", addon: true, rpc: true, skip: [] },
];

/** A pattern for --test-skip-pattern matching exactly the names given (regex characters escaped). */
function skipPattern(names) {
  return names.map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|");
}

/** The TAP summary counts of a node --test run, and the lines of its failed tests. */
function summary(tap) {
  const count = (what) => Number(new RegExp(`^# ${what} (\\d+)$`, "m").exec(tap)?.[1] ?? NaN);
  const failures = [];
  const skips = [];
  const lines = tap.split(/\r?\n/);
  lines.forEach((line, i) => {
    if (/^\s*not ok \d+/.test(line)) failures.push(lines.slice(i, i + 30).join("\n"));
    const skip = /^\s*ok \d+ - (.*) # SKIP ?(.*)$/.exec(line);
    if (skip) skips.push(skip[2] ? `"${skip[1]}" — ${skip[2]}` : `"${skip[1]}"`);
  });
  return {
    tests: count("tests"),
    pass: count("pass"),
    fail: count("fail"),
    skipped: count("skipped"),
    cancelled: count("cancelled"),
    failures,
    skips,
  };
}

/** Runs `command args` in a process group of its own, stdout and stderr through temporary files
 * (nothing outside the group can hold them open): { status, signal, stdout, stderr, timedOut }.
 * On timeout the whole group is killed: node --test's child with the runner, not the runner
 * alone (its orphaned child would run on beside what comes next). */
export async function runGrouped(command, args, { timeout, ...options }) {
  const dir = mkdtempSync(join(tmpdir(), "pq-wine-tests-"));
  const out = openSync(join(dir, "stdout"), "w");
  const err = openSync(join(dir, "stderr"), "w");
  try {
    const result = await new Promise((done) => {
      const child = spawn(command, args, { ...options, stdio: ["ignore", out, err], detached: true });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {}
      }, timeout);
      child.on("error", (error) => {
        clearTimeout(timer);
        done({ status: null, signal: null, timedOut, error });
      });
      child.on("exit", (status, signal) => {
        clearTimeout(timer);
        done({ status, signal, timedOut });
      });
    });
    const stdout = readFileSync(join(dir, "stdout"), "utf8");
    let stderr = readFileSync(join(dir, "stderr"), "utf8");
    if (result.error) stderr += `${command}: ${result.error.message}\n`;
    if (result.timedOut) stderr += `wine-tests: ${args.join(" ")} did not end within ${timeout / 1000} s: its process group was killed\n`;
    return { ...result, stdout, stderr };
  } finally {
    closeSync(out);
    closeSync(err);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Ends the tmux servers on the console test's sockets (`pq-tty-<pid>`, tests/helpers/tty-tmux.mjs)
 * that were started with RUN_MARK=`mark`, ending their panes' programs with them (a Wine
 * pi-question waiting for keys, whose test was killed). A server without the mark is never
 * touched; every tmux call is bounded. Returns the sockets ended. */
export function endMarkedTmuxServers(mark) {
  const dir = join(process.env.TMUX_TMPDIR || "/tmp", `tmux-${process.getuid()}`);
  let names = [];
  try {
    names = readdirSync(dir).filter((n) => /^pq-tty-\d+$/.test(n));
  } catch {
    return []; // no tmux server has run
  }
  const ended = [];
  for (const name of names) {
    const tmux = (...args) => spawnSync("tmux", ["-L", name, ...args], { encoding: "utf8", timeout: 10_000 });
    if (tmux("show-environment", "-g", RUN_MARK).stdout?.trim() !== `${RUN_MARK}=${mark}`) continue;
    tmux("kill-server");
    rmSync(join(dir, name), { force: true });
    ended.push(name);
  }
  return ended;
}

/** A C source or header under native/ (the fuzzers aside) changed after `builtAt` (ms): its path. */
export function newerSource(builtAt, dir = join(root, "native")) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === "fuzz") continue;
      const found = newerSource(builtAt, path);
      if (found) return found;
    } else if (/\.[ch]$/.test(entry.name) && statSync(path).mtimeMs > builtAt) {
      return relative(root, path);
    }
  }
  return undefined;
}

async function main() {
  const withoutAddon = process.argv.includes("--without-addon");
  const started = Date.now();
  ensureWinePrefix();
  ensureWineNode();
  const only = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length);
  const files = WINE_FILES.filter((f) => (!withoutAddon || !f.addon) && (!only || f.file.includes(only)));
  if (!withoutAddon && !existsSync(ADDON)) {
    process.stderr.write(
      `wine-tests: ${ADDON} is missing; build it with "node scripts/prebuild.mjs win32-x64" (or run with --without-addon)\n`,
    );
    return 1;
  }
  const stale = !withoutAddon && !process.env.PI_QUESTION_WINE_ADDON ? newerSource(statSync(ADDON).mtimeMs) : undefined;
  if (stale) {
    // An old prebuilt would test old code: its strings and limits disagree with the tests.
    process.stderr.write(`wine-tests: ${ADDON} is older than ${stale}; rebuild it with "node scripts/prebuild.mjs win32-x64"\n`);
    return 1;
  }
  const env = withoutAddon ? {} : { PI_QUESTION_ADDON: toWinePath(ADDON) };
  if (files.some((f) => f.rpc)) {
    ensureCurrentLine();
    env.PI_QUESTION_WINE_PI_LINE = toWinePath(currentLine().dir);
  }
  process.stdout.write(`wine-tests: Node ${WINE_NODE} for Windows under Wine${withoutAddon ? ", no addon" : `, addon ${ADDON}`}\n`);
  for (const f of files) for (const s of f.skip) process.stdout.write(`  skipped in ${f.file}: "${s.name}" — ${s.why}\n`);
  if (withoutAddon) for (const f of WINE_FILES.filter((x) => x.addon)) process.stdout.write(`  not run: ${f.file} (needs the addon)\n`);
  let failed = false;
  for (const f of files) {
    const args = ["--test", "--test-reporter=tap"];
    if (f.skip.length) args.push(`--test-skip-pattern=${skipPattern(f.skip.map((s) => s.name))}`);
    args.push(f.file.replace(/\//g, "\\"));
    const r = await wineNode(args, { env, cwd: root, timeout: FILE_TIMEOUT_MS });
    const s = summary(r.stdout);
    const ok = r.status === 0 && !r.timedOut && s.fail === 0;
    failed ||= !ok;
    const counts = Number.isNaN(s.tests)
      ? "no TAP summary"
      : `${s.pass} passed, ${s.fail} failed, ${s.skipped} skipped${s.cancelled ? `, ${s.cancelled} cancelled` : ""}`;
    process.stdout.write(`${ok ? "ok  " : "FAIL"} ${f.file}: ${counts} (${r.seconds.toFixed(1)} s${r.timedOut ? ", timed out" : ""})\n`);
    // Skipped by the pattern above (named already), or by the test itself, which says why.
    for (const text of s.skips) if (!f.skip.some((x) => text.includes(x.name))) process.stdout.write(`  skipped: ${text}\n`);
    if (!ok) {
      for (const text of s.failures) process.stdout.write(`${text}\n`);
      if (!s.failures.length || r.timedOut) process.stdout.write(`${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}\n`);
    }
  }
  // The terminal runner on Wine's console: driven from here (this Node) in a tmux pane, with the
  // same addon; a skip there means something it needs is missing, which counts as a failure
  // (except CONSOLE_SKIPS, which skip themselves with what Wine's console reported).
  if (!withoutAddon && (!only || CONSOLE_FILE.includes(only))) {
    const t0 = Date.now();
    const mark = `${process.pid}-${randomBytes(8).toString("hex")}`;
    const r = await runGrouped(process.execPath, ["--test", "--test-reporter=tap", CONSOLE_FILE], {
      cwd: root,
      env: { ...process.env, PI_QUESTION_WINE_ADDON: ADDON, [RUN_MARK]: mark },
      timeout: CONSOLE_TIMEOUT_MS,
    });
    // Normally the file ends its own server; after a kill (or a crash) it could not.
    const left = endMarkedTmuxServers(mark);
    const s = summary(r.stdout);
    const unexpected = s.skips.filter((text) => !CONSOLE_SKIPS.some((name) => text.includes(name)));
    // Every skip is one the summary could read (and so check against CONSOLE_SKIPS).
    const ok = r.status === 0 && !r.timedOut && s.fail === 0 && unexpected.length === 0 && s.skipped === s.skips.length && s.pass > 0;
    failed ||= !ok;
    process.stdout.write(
      `${ok ? "ok  " : "FAIL"} ${CONSOLE_FILE} (on this Node, Wine in tmux): ${s.pass} passed, ${s.fail} failed, ${s.skipped} skipped (${((Date.now() - t0) / 1000).toFixed(1)} s${r.timedOut ? ", timed out" : ""})\n`,
    );
    for (const text of s.skips) process.stdout.write(`  skipped: ${text}\n`);
    if (left.length) process.stdout.write(`  ended the tmux server(s) it left: ${left.join(", ")}\n`);
    if (!ok)
      for (const text of s.failures.length && !r.timedOut ? s.failures : [`${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`])
        process.stdout.write(`${text}\n`);
  }
  process.stdout.write(`wine-tests: ${failed ? "FAILED" : "all passed"} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return failed ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(
    (code) => (process.exitCode = code),
    (error) => {
      process.stderr.write(`wine-tests: ${error.message}\n`);
      process.exitCode = 1;
    },
  );
}
