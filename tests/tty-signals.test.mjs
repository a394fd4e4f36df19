// tty-signals.test.mjs — the terminal runner's signal path and threads under ThreadSanitizer
// (a signal arriving while another thread stops or closes the runner): tests/native-tty.c stops
// and closes runners while their signal handler
// runs on another thread. Before the fix TSan reported the `volatile sig_atomic_t` flags shared
// between threads and the handler writing to the wake pipe of a runner being closed; now it
// must report nothing. Skipped without clang and its TSan runtime.
// The same driver built without a sanitizer, its pipe()/pipe2() calls wrapped (-Wl,--wrap), also
// proves the wake pipe is born close-on-exec (see the top of tests/native-tty.c).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { buildDriver, cjsonFlags, compiles, driverEnv as env } from "./helpers/native-driver.mjs";

const clang = process.env.CC || "clang";
// (ASan's runtime and TSan's do not mix: driverEnv has no sanitizer preload)
const skip =
  process.platform !== "linux"
    ? "Linux only"
    : !compiles(clang, ["-fsanitize=thread"]) || !cjsonFlags
      ? "clang with -fsanitize=thread and libcjson are needed"
      : false;

test("runner: stop, close and signals on other threads race with nothing (ThreadSanitizer)", { skip, timeout: 300000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "pq-tty-tsan-"));
  try {
    const exe = join(dir, "native-tty");
    const built = buildDriver(clang, "native-tty", exe, { flags: ["-fsanitize=thread"], linkFlags: ["-lpthread"] });
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
const plainSkip =
  process.platform !== "linux"
    ? "Linux only (pipe2, /proc/self/fd)"
    : !compiles(cc) || !cjsonFlags
      ? "a C compiler and libcjson are needed"
      : false;

test(
  "runner: the wake pipe is born close-on-exec and non-blocking — one pipe2, and a fork+exec at its birth inherits nothing",
  { skip: plainSkip, timeout: 120000 },
  () => {
    const dir = mkdtempSync(join(tmpdir(), "pq-tty-pipe-"));
    try {
      const exe = join(dir, "native-tty");
      const built = buildDriver(cc, "native-tty", exe, {
        flags: ["-DQT_WATCH_PIPES", "-Wall", "-Wextra", "-Werror"],
        linkFlags: ["-Wl,--wrap=pipe,--wrap=pipe2", "-lpthread"],
      });
      assert.equal(built.status, 0, built.stderr);
      const ran = spawnSync(exe, ["20"], { encoding: "utf8", env, timeout: 60000 });
      assert.equal(ran.status, 0, ran.stderr + ran.stdout);
      assert.match(ran.stdout, /the wake pipe \(fds \d+, \d+\) was born close-on-exec: one pipe2, no exec inherited it/);
      assert.match(ran.stdout, /20 cycles/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
