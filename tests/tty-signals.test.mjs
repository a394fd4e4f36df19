// tty-signals.test.mjs — the terminal runner's signal path and threads under ThreadSanitizer
// (issue 10 item 10): tests/native-tty.c stops and closes runners while their signal handler
// runs on another thread. Before the fix TSan reported the `volatile sig_atomic_t` flags shared
// between threads and the handler writing to the wake pipe of a runner being closed; now it
// must report nothing. Skipped without clang and its TSan runtime.
// The same driver built without a sanitizer, its pipe()/pipe2() calls wrapped (-Wl,--wrap), also
// proves the wake pipe is born close-on-exec (see the top of tests/native-tty.c).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { root } from "./helpers/addon.mjs";

const clang = process.env.CC || "clang";
/** Without a sanitizer preload of `npm run test:asan` (ASan's runtime and TSan's do not mix). */
const { LD_PRELOAD: _preload, ...env } = process.env;
const cjson = spawnSync("pkg-config", ["--cflags", "--libs", "libcjson"], { encoding: "utf8", env });
const probe = spawnSync(clang, ["-fsanitize=thread", "-x", "c", "-", "-o", "/dev/null"], { input: "int main(void){return 0;}", encoding: "utf8", env });
const skip = process.platform !== "linux" ? "Linux only" : probe.status !== 0 || cjson.status !== 0 ? "clang with -fsanitize=thread and libcjson are needed" : false;

function coreSources() {
  const text = readFileSync(join(root, "binding.gyp"), "utf8")
    .split("\n")
    .filter((l) => !l.trim().startsWith("#"))
    .join("\n");
  return JSON.parse(text)
    .targets.flatMap((t) => t.sources || [])
    .filter((s) => !s.endsWith("binding.c"))
    .map((s) => join(root, s));
}

test("runner: stop, close and signals on other threads race with nothing (ThreadSanitizer)", { skip, timeout: 300000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "pq-tty-tsan-"));
  try {
    const exe = join(dir, "native-tty");
    const flags = cjson.stdout.trim().split(/\s+/).filter(Boolean);
    const built = spawnSync(
      clang,
      ["-std=c11", "-D_POSIX_C_SOURCE=200809L", "-g", "-O1", "-fsanitize=thread", `-I${join(root, "native")}`,
        join(root, "tests", "native-tty.c"), ...coreSources(), "-o", exe, ...flags, "-lpthread"],
      { encoding: "utf8", env },
    );
    assert.equal(built.status, 0, built.stderr);
    const ran = spawnSync(exe, ["200"], { encoding: "utf8", env: { ...env, TSAN_OPTIONS: "halt_on_error=1" }, timeout: 120000 });
    assert.doesNotMatch(ran.stderr, /ThreadSanitizer/, ran.stderr);
    assert.equal(ran.status, 0, ran.stderr + ran.stdout);
    assert.match(ran.stdout, /200 cycles/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const cc = process.env.CC || "cc";
const plainProbe = spawnSync(cc, ["-x", "c", "-", "-o", "/dev/null"], { input: "int main(void){return 0;}", encoding: "utf8", env });
const plainSkip = process.platform !== "linux" ? "Linux only (pipe2, /proc/self/fd)" : plainProbe.status !== 0 || cjson.status !== 0 ? "a C compiler and libcjson are needed" : false;

test("runner: the wake pipe is born close-on-exec and non-blocking — one pipe2, and a fork+exec at its birth inherits nothing", { skip: plainSkip, timeout: 120000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "pq-tty-pipe-"));
  try {
    const exe = join(dir, "native-tty");
    const flags = cjson.stdout.trim().split(/\s+/).filter(Boolean);
    const built = spawnSync(
      cc,
      ["-std=c11", "-D_POSIX_C_SOURCE=200809L", "-DQT_WATCH_PIPES", "-Wall", "-Wextra", "-Werror", "-g", "-O1", `-I${join(root, "native")}`,
        join(root, "tests", "native-tty.c"), ...coreSources(), "-o", exe, "-Wl,--wrap=pipe,--wrap=pipe2", ...flags, "-lpthread"],
      { encoding: "utf8", env },
    );
    assert.equal(built.status, 0, built.stderr);
    const ran = spawnSync(exe, ["20"], { encoding: "utf8", env, timeout: 60000 });
    assert.equal(ran.status, 0, ran.stderr + ran.stdout);
    assert.match(ran.stdout, /the wake pipe \(fds \d+, \d+\) was born close-on-exec: one pipe2, no exec inherited it/);
    assert.match(ran.stdout, /20 cycles/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
