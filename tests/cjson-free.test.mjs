// cjson-free.test.mjs — builds and runs tests/native-cjson-free.c: with cJSON's hooks set to an
// allocator whose pointers plain free() rejects, every string the core prints with cJSON must
// go back through cJSON_free (a free() is an AddressSanitizer report, or an abort in glibc).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { buildDriver, cjsonFlags, compiles, driverEnv as env } from "./helpers/native-driver.mjs";

const cc = process.env.CC || "clang";
const ASAN = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"];
const asan = compiles(cc, ASAN);
const skip =
  process.platform === "win32" ? "POSIX only" : !compiles(cc) || !cjsonFlags ? `a C compiler (${cc}) and libcjson are needed` : false;

test(
  `cJSON: every printed string is released with cJSON_free (hooks whose blocks free() rejects${asan ? ", AddressSanitizer" : ""})`,
  { skip, timeout: 180000 },
  () => {
    const dir = mkdtempSync(join(tmpdir(), "pq-cjson-free-"));
    try {
      const exe = join(dir, "native-cjson-free");
      const built = buildDriver(cc, "native-cjson-free", exe, { flags: ["-Wall", "-Wextra", "-Werror", ...(asan ? ASAN : [])] });
      assert.equal(built.status, 0, built.stderr);
      const ran = spawnSync(exe, ["100"], { encoding: "utf8", env: { ...env, ASAN_OPTIONS: "detect_leaks=1" }, timeout: 120000 });
      assert.equal(ran.signal, null, `killed by ${ran.signal}: a cJSON string went to free()? ${ran.stderr}`);
      assert.doesNotMatch(ran.stderr, /AddressSanitizer|LeakSanitizer/, ran.stderr);
      assert.equal(ran.status, 0, ran.stderr + ran.stdout);
      assert.match(ran.stdout, /100 rounds, \d+ cJSON blocks, all released through the hooks/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
