// prebuilt.test.mjs — the fast checks of scripts/prebuild.mjs that belong in `npm test` (the
// builds and the runs under qemu and musl are the script's own, called by .ci/run): binding.gyp
// read as node-gyp reads it, the checks that reject a binary not fit to ship, the glibc-compat
// header's old-version wrappers doing what the functions they replace do, and every unit test
// the prebuilts are run with loading the addon the loader picks (so PI_QUESTION_ADDON reaches it).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import {
  ADDON_EXPORTS,
  GLIBC_FLOOR,
  PREBUILT_TEST_FILES,
  QEMU_SKIPPED_TESTS,
  elfProblems,
  glibcNeeded,
  gypBuildInputs,
  inspectElf,
  parseGyp,
  root,
} from "../scripts/prebuild.mjs";

const has = (cmd, args = ["--version"]) => spawnSync(cmd, args, { stdio: "ignore" }).status === 0;
const gnuX64 = { os: "linux", cpu: "x64", libc: "gnu" };
const musl = { os: "linux", cpu: "x64", libc: "musl" };

test("parseGyp: # starts a comment outside strings only; trailing commas are allowed", () => {
  const text = '# head\n{\n  "a": "x#y", # tail\n  "b": [1, 2,],\n  \'c\': "q\\"#",\n}\n';
  assert.deepEqual(parseGyp(text), { a: "x#y", b: [1, 2], c: 'q"#' });
});

test("binding.gyp read by the prebuild gives the sources and C flags node-gyp builds with", (t) => {
  const mk = (name) => join(root, "build", `${name}.target.mk`);
  if (!existsSync(mk("qt_core")) || !existsSync(mk("pi_question"))) return t.skip("no node-gyp build here (npm run build)");
  const fromMake = [];
  let cflags;
  for (const name of ["qt_core", "pi_question"]) {
    const text = readFileSync(mk(name), "utf8");
    const objs = /^OBJS := \\\n((?:\t.*\\?\n)+)/m.exec(text)[1];
    for (const m of objs.matchAll(/\$\(TARGET\)\/(\S+)\.o/g)) fromMake.push(`${m[1]}.c`);
    const c = /^CFLAGS_C_Release := \\\n((?:\t.*\\?\n)+)/m.exec(text)[1];
    const flags = c.split("\n").map((l) => l.replace(/\\$/, "").trim()).filter(Boolean);
    if (cflags) assert.deepEqual(flags, cflags, `${name}'s C flags differ from qt_core's`);
    cflags = flags;
  }
  const inputs = gypBuildInputs();
  assert.deepEqual(inputs.sources, fromMake);
  assert.deepEqual(inputs.cflags, cflags);
  assert.deepEqual(inputs.includeDirs, ["native"]);
});

test("gypBuildInputs: variables expand, cflags! removes, Release's defines become -D, pkg-config expansions are left out", () => {
  const gyp = JSON.stringify({
    variables: { v: ["-DA", "-DB"] },
    target_defaults: { cflags_c: ["<@(v)", "-DC"], "cflags!": ["-DB"], configurations: { Release: { defines: ["NDEBUG"] } } },
    targets: [{ sources: ["x.c", "y.h"], include_dirs: ["<!@(pkg-config --cflags-only-I x)", "inc"] }, { sources: ["z.c"] }],
  });
  assert.deepEqual(gypBuildInputs(gyp), { sources: ["x.c", "z.c"], cflags: ["-DA", "-DC", "-DNDEBUG"], includeDirs: ["inc"] });
  assert.throws(() => gypBuildInputs(JSON.stringify({ targets: [{ sources: ["a.h"] }] })), /no C sources/);
});

test("elfProblems: a fit binary passes; libcjson, an extra export, a newer glibc or the wrong machine are each named", () => {
  const fit = { machine: "Advanced Micro Devices X86-64", needed: ["libc.so.6"], exported: [...ADDON_EXPORTS], glibc: [{ symbol: "memcpy", version: "2.14" }] };
  assert.deepEqual(elfProblems(gnuX64, fit), []);
  assert.match(elfProblems(gnuX64, { ...fit, needed: ["libcjson.so.1", "libc.so.6"] }).join("\n"), /libcjson\.so\.1: cJSON must be linked in statically/);
  assert.match(elfProblems(gnuX64, { ...fit, needed: ["libstdc++.so.6", "libc.so.6"] }).join("\n"), /needs libstdc\+\+\.so\.6/);
  assert.match(elfProblems(gnuX64, { ...fit, exported: [...ADDON_EXPORTS, "cJSON_Parse"] }).join("\n"), /cJSON_Parse.*must be hidden/);
  assert.match(elfProblems(gnuX64, { ...fit, exported: [] }).join("\n"), /does not export napi_register_module_v1/);
  const newer = { ...fit, glibc: [...fit.glibc, { symbol: "pthread_create", version: "2.34" }] };
  assert.equal(glibcNeeded(newer.glibc), "2.34");
  assert.match(elfProblems(gnuX64, newer).join("\n"), new RegExp(`newer than ${GLIBC_FLOOR.replace(".", "\\.")}: pthread_create@GLIBC_2\\.34.*glibc-compat\\.h`));
  assert.match(elfProblems(gnuX64, { ...fit, machine: "AArch64" }).join("\n"), /machine is AArch64/);
  assert.deepEqual(elfProblems(musl, { ...fit, needed: ["libc.so"], glibc: [] }), []);
  assert.match(elfProblems(musl, fit).join("\n"), /needs libc\.so\.6/);
});

test("inspectElf on the source build finds what the prebuilt checks reject: its NEEDED libcjson", (t) => {
  const built = join(root, "build", "Release", "pi_question.node");
  if (process.platform !== "linux" || process.arch !== "x64") return t.skip("x64 Linux only");
  if (!existsSync(built) || !has("readelf")) return t.skip("needs the source build and readelf");
  const elf = inspectElf(built);
  assert.ok(elf.needed.includes("libcjson.so.1"), elf.needed.join(", "));
  assert.ok(elf.exported.includes("napi_register_module_v1"), elf.exported.join(", "));
  assert.match(elfProblems(gnuX64, elf).join("\n"), /libcjson\.so\.1: cJSON must be linked in statically/);
});

// The wrappers replace calls whose results the core relies on (filelock.c compares fstat and
// lstat): built with the header, they must agree with the system's own stat and bind to the
// baseline versions. Natively, and for arm64 under qemu when the cross tools are here.
const COMPAT_PROGRAM = `
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_key_t key;
static int onced;
static void init(void) { onced++; pthread_key_create(&key, NULL); }
static void *worker(void *arg) { pthread_once(&once, init); pthread_setspecific(key, arg); return pthread_getspecific(key); }
int main(int argc, char **argv) {
  if (argc != 3) return 2;
  struct stat a, b, l;
  int fd = open(argv[1], O_RDONLY);
  if (fd < 0 || fstat(fd, &a) != 0 || stat(argv[1], &b) != 0) { perror("fstat"); return 1; }
  if (lstat(argv[2], &l) != 0) { perror("lstat"); return 1; }
  pthread_t t;
  void *got = NULL;
  if (pthread_create(&t, NULL, worker, (void *)&a) != 0 || pthread_join(t, &got) != 0) return 1;
  printf("%d %d %d %d %d\\n", a.st_size == b.st_size && a.st_ino == b.st_ino && a.st_mode == b.st_mode,
         (int)a.st_size, S_ISLNK(l.st_mode) ? 1 : 0, got == (void *)&a, onced);
  close(fd);
  return 0;
}
`;

for (const arch of ["x64", "arm64"]) {
  test(`glibc-compat.h (${arch}): fstat, lstat and pthread_* bound to the baseline versions act as the system's`, (t) => {
    if (process.platform !== "linux" || process.arch !== "x64") return t.skip("x64 Linux only");
    const cc = arch === "x64" ? "cc" : "aarch64-linux-gnu-gcc";
    const runner = arch === "x64" ? [] : ["qemu-aarch64-static"];
    if (!has(cc)) return t.skip(`${cc} is not installed`);
    if (runner.length && !has(runner[0])) return t.skip(`${runner[0]} is not installed`);
    if (!has("readelf")) return t.skip("readelf is not installed");
    const dir = mkdtempSync(join(tmpdir(), "pq-glibc-compat-"));
    try {
      writeFileSync(join(dir, "p.c"), COMPAT_PROGRAM);
      writeFileSync(join(dir, "data"), "x".repeat(1234));
      symlinkSync(join(dir, "data"), join(dir, "link"));
      const exe = join(dir, "p");
      const header = join(root, "scripts", "glibc-compat.h");
      const built = spawnSync(cc, ["-std=c11", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-Wextra", "-Werror", "-O2", "-pthread", "-include", header, join(dir, "p.c"), "-o", exe], { encoding: "utf8" });
      assert.equal(built.status, 0, built.stderr);
      const versions = inspectElf(exe).glibc;
      const want = arch === "x64" ? "2.2.5" : "2.17";
      for (const name of ["fstat", "lstat"]) assert.ok(!versions.some((s) => s.symbol === name), `${name} still imported: ${JSON.stringify(versions)}`);
      for (const name of ["__fxstat", "__lxstat", "pthread_create", "pthread_join", "pthread_once", "pthread_key_create", "pthread_setspecific", "pthread_getspecific"]) {
        assert.deepEqual(
          versions.filter((s) => s.symbol === name).map((s) => s.version),
          [want],
          name,
        );
      }
      const ran = spawnSync(runner[0] ?? exe, [...(runner.length ? [exe] : []), join(dir, "data"), join(dir, "link")], {
        encoding: "utf8",
        env: { ...process.env, QEMU_LD_PREFIX: "/usr/aarch64-linux-gnu" },
      });
      assert.equal(ran.status, 0, ran.stderr + ran.stdout);
      assert.equal(ran.stdout.trim(), "1 1234 1 1 1");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test("the unit tests run against the prebuilts load the addon through the loader (PI_QUESTION_ADDON reaches them)", () => {
  for (const file of PREBUILT_TEST_FILES) {
    const text = readFileSync(join(root, file), "utf8");
    assert.match(text, /from ["']\.\/helpers\/addon\.mjs["']/, `${file} does not load the addon through tests/helpers/addon.mjs`);
    assert.doesNotMatch(text, /pi_question\.node|build\/Release/, `${file} names a build of the addon directly`);
  }
});

test("the tests skipped under qemu exist under those names (a renamed test would silently run and fail there)", () => {
  for (const { file, name } of QEMU_SKIPPED_TESTS) {
    assert.ok(PREBUILT_TEST_FILES.includes(file), file);
    const text = readFileSync(join(root, file), "utf8");
    assert.ok(text.includes(`test("${name}"`) || text.includes(`test('${name}'`), `${file} has no test named "${name}"`);
  }
});
