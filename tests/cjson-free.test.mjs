// cjson-free.test.mjs — builds and runs tests/native-cjson-free.c: with cJSON's hooks set to an
// allocator whose pointers plain free() rejects, every string the core prints with cJSON must
// go back through cJSON_free (a free() is an AddressSanitizer report, or an abort in glibc).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { root } from "./helpers/addon.mjs";

/** Without a sanitizer preload of `npm run test:asan` (a driver brings its own runtime). */
const { LD_PRELOAD: _preload, ...env } = process.env;
const cc = process.env.CC || "clang";
const cjson = spawnSync("pkg-config", ["--cflags", "--libs", "libcjson"], { encoding: "utf8", env });
const probe = (flags) => spawnSync(cc, [...flags, "-x", "c", "-", "-o", "/dev/null"], { input: "int main(void){return 0;}", encoding: "utf8", env }).status === 0;
const ASAN = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"];
const asan = probe(ASAN);
const skip = process.platform === "win32" ? "POSIX only" : !probe([]) || cjson.status !== 0 ? `a C compiler (${cc}) and libcjson are needed` : false;

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

test(`cJSON: every printed string is released with cJSON_free (hooks whose blocks free() rejects${asan ? ", AddressSanitizer" : ""})`, { skip, timeout: 180000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "pq-cjson-free-"));
  try {
    const exe = join(dir, "native-cjson-free");
    const flags = cjson.stdout.trim().split(/\s+/).filter(Boolean);
    const built = spawnSync(
      cc,
      ["-std=c11", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-Wextra", "-Werror", "-g", "-O1", ...(asan ? ASAN : []), `-I${join(root, "native")}`,
        join(root, "tests", "native-cjson-free.c"), ...coreSources(), "-o", exe, ...flags],
      { encoding: "utf8", env },
    );
    assert.equal(built.status, 0, built.stderr);
    const ran = spawnSync(exe, ["100"], { encoding: "utf8", env: { ...env, ASAN_OPTIONS: "detect_leaks=1" }, timeout: 120000 });
    assert.equal(ran.signal, null, `killed by ${ran.signal}: a cJSON string went to free()? ${ran.stderr}`);
    assert.doesNotMatch(ran.stderr, /AddressSanitizer|LeakSanitizer/, ran.stderr);
    assert.equal(ran.status, 0, ran.stderr + ran.stdout);
    assert.match(ran.stdout, /100 rounds, \d+ cJSON blocks, all released through the hooks/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
