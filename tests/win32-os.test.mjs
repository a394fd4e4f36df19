// win32-os.test.mjs — the Windows OS layer (native/os/win32/) run here: tests/native-win32.c is
// built with mingw-w64 together with thread.c, filelock.c, external_edit.c and tty.c, and run
// once under Wine (wine64, the shared prefix of scripts/wine.mjs). Every line the harness prints
// becomes a test here: "ok" passes, "not ok" fails with the harness's detail, "skip" is skipped
// with its reason (only the symbolic-link checks may skip: Wine 8 cannot make or show a reparse
// point). A last test asserts that the harness ran to its end and that every service was checked.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { ensureWinePrefix, toWinePath, wineCommand, wineEnv } from "../scripts/wine.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

const MINGW = process.env.MINGW_CC || "x86_64-w64-mingw32-gcc";
const MAY_SKIP = /^filelock: a (dangling )?symbolic link|^pipe: a second server under a taken name fails -- Wine does not enforce/;
/** Check names (their start) each service must have passed. */
const SERVICES = ["clock:", "thread:", "gate:", "keep:", "filelock:", "external_edit:", "tty:", "pipe:", "process:"];

function why() {
  if (process.platform !== "linux") return "builds with mingw-w64 and runs under Wine on Linux";
  if (spawnSync(MINGW, ["--version"], { stdio: "ignore" }).status !== 0)
    return `mingw-w64 (${MINGW}) is missing: apt-get install gcc-mingw-w64-x86-64`;
  try {
    wineCommand();
  } catch (error) {
    return error.message;
  }
  return false;
}

/** Builds and runs the harness: { lines, status, stdout, stderr } or { error }. */
function runHarness() {
  const dir = mkdtempSync(join(tmpdir(), "pq-win32-os-"));
  try {
    const exe = join(dir, "native-win32.exe");
    const native = join(root, "native");
    const built = spawnSync(
      MINGW,
      [
        "-std=c11",
        "-Wall",
        "-Wextra",
        "-Werror",
        `-I${join(native, "core")}`,
        join(root, "tests", "native-win32.c"),
        ...["thread", "filelock", "external_edit", "tty", "pipe", "peer"].map((f) => join(native, "os", "win32", `${f}.c`)),
        join(native, "core", "text", "strings.c"),
        join(native, "core", "text", "buf.c"),
        "-o",
        exe,
        "-lshell32",
        "-ladvapi32",
      ],
      { encoding: "utf8" },
    );
    if (built.status !== 0) return { error: `${MINGW} failed:\n${built.stderr}` };
    const work = join(dir, "work");
    mkdirSync(work);
    writeFileSync(join(work, "target.txt"), "target\n");
    symlinkSync("target.txt", join(work, "unix-link.lock"));
    symlinkSync("dangling-target.txt", join(work, "dangling.lock"));
    ensureWinePrefix();
    const ran = spawnSync(
      wineCommand(),
      [exe, toWinePath(work), toWinePath(join(work, "unix-link.lock")), toWinePath(join(work, "dangling.lock"))],
      { encoding: "utf8", env: wineEnv(), timeout: 120_000, killSignal: "SIGKILL" },
    );
    if (ran.error) return { error: `wine: ${ran.error.message}` };
    return { lines: ran.stdout.split(/\r?\n/).filter(Boolean), status: ran.status, stdout: ran.stdout, stderr: ran.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const skip = why();
const result = skip ? null : runHarness();

if (result?.lines) {
  for (const line of result.lines) {
    const m = /^(ok|not ok|skip) (.*?)(?: -- (.*))?$/.exec(line);
    if (!m) continue;
    const [, verdict, name, detail] = m;
    if (verdict === "skip") {
      test(`win32 ${name}`, { skip: detail }, () => {});
      continue;
    }
    test(`win32 ${name}`, () => {
      assert.equal(verdict, "ok", detail);
    });
  }
}

test("win32: the harness builds, runs to its end under Wine, and checks every service", { skip }, () => {
  assert.ok(!result.error, result.error);
  assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
  assert.match(result.stdout, /^done 0 failure\(s\)$/m);
  for (const service of SERVICES) {
    assert.ok(
      result.lines.some((l) => l.startsWith(`ok ${service}`)),
      `no passing check of ${service}\n${result.stdout}`,
    );
  }
  for (const line of result.lines.filter((l) => l.startsWith("skip "))) {
    assert.match(line.slice(5), MAY_SKIP, `only the symbolic-link checks and (under Wine) the taken pipe name may be skipped: ${line}`);
  }
});
