// prebuilt.test.mjs — the fast checks of scripts/prebuild.mjs that belong in `npm test` (the
// builds and the runs under qemu and musl are the script's own, called by .ci/run): binding.gyp
// read as node-gyp reads it, the checks that reject a binary not fit to ship, the glibc-compat
// header's old-version wrappers doing what the functions they replace do, every unit test
// the prebuilts are run with loading the addon the loader picks (so PI_QUESTION_ADDON reaches it),
// and for the win32 prebuilt: the PE checks on DLLs mingw-w64 builds, and scripts/wine.mjs's
// runs of Node for Windows (exit status, output, the timeout that ends the run's processes), and
// how scripts/wine-tests.mjs bounds the console test (its process group, its tmux servers).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import {
  ADDON_EXPORTS,
  GLIBC_FLOOR,
  PREBUILT_TEST_FILES,
  QEMU_SKIPPED_TESTS,
  WINE_SKIPPED_TESTS,
  elfProblems,
  glibcNeeded,
  gypBuildInputs,
  inspectElf,
  inspectPe,
  parseGyp,
  peProblems,
  root,
  windowsBuildInputs,
} from "../scripts/prebuild.mjs";
import { wineCommand, wineNode } from "../scripts/wine.mjs";
import { endMarkedTmuxServers, newerSource, runGrouped } from "../scripts/wine-tests.mjs";

const has = (cmd, args = ["--version"]) => spawnSync(cmd, args, { stdio: "ignore" }).status === 0;
const gnuX64 = { os: "linux", cpu: "x64", libc: "gnu" };
const musl = { os: "linux", cpu: "x64", libc: "musl" };
const win32 = { os: "win32", cpu: "x64", libc: "" };

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
    const flags = c
      .split("\n")
      .map((l) => l.replace(/\\$/, "").trim())
      .filter(Boolean);
    if (cflags) assert.deepEqual(flags, cflags, `${name}'s C flags differ from qt_core's`);
    cflags = flags;
  }
  const inputs = gypBuildInputs();
  assert.deepEqual(inputs.sources, fromMake);
  assert.deepEqual(inputs.cflags, cflags);
  assert.deepEqual(inputs.includeDirs, ["native/core"]);
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
  const fit = {
    machine: "Advanced Micro Devices X86-64",
    needed: ["libc.so.6"],
    exported: [...ADDON_EXPORTS],
    glibc: [{ symbol: "memcpy", version: "2.14" }],
  };
  assert.deepEqual(elfProblems(gnuX64, fit), []);
  assert.match(
    elfProblems(gnuX64, { ...fit, needed: ["libcjson.so.1", "libc.so.6"] }).join("\n"),
    /libcjson\.so\.1: cJSON must be linked in statically/,
  );
  assert.match(elfProblems(gnuX64, { ...fit, needed: ["libstdc++.so.6", "libc.so.6"] }).join("\n"), /needs libstdc\+\+\.so\.6/);
  assert.match(elfProblems(gnuX64, { ...fit, exported: [...ADDON_EXPORTS, "cJSON_Parse"] }).join("\n"), /cJSON_Parse.*must be hidden/);
  assert.match(elfProblems(gnuX64, { ...fit, exported: [] }).join("\n"), /does not export napi_register_module_v1/);
  const newer = { ...fit, glibc: [...fit.glibc, { symbol: "pthread_create", version: "2.34" }] };
  assert.equal(glibcNeeded(newer.glibc), "2.34");
  assert.match(
    elfProblems(gnuX64, newer).join("\n"),
    new RegExp(`newer than ${GLIBC_FLOOR.replace(".", "\\.")}: pthread_create@GLIBC_2\\.34.*glibc-compat\\.h`),
  );
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
  struct stat a, b, l, at;
  int fd = open(argv[1], O_RDONLY);
  if (fd < 0 || fstat(fd, &a) != 0 || stat(argv[1], &b) != 0) { perror("fstat"); return 1; }
  if (lstat(argv[2], &l) != 0) { perror("lstat"); return 1; }
  if (fstatat(AT_FDCWD, argv[2], &at, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISLNK(at.st_mode) || at.st_ino != l.st_ino) { perror("fstatat"); return 1; }
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
  test(`glibc-compat.h (${arch}): fstat, lstat, fstatat and pthread_* bound to the baseline versions act as the system's`, (t) => {
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
      const built = spawnSync(
        cc,
        [
          "-std=c11",
          "-D_POSIX_C_SOURCE=200809L",
          "-Wall",
          "-Wextra",
          "-Werror",
          "-O2",
          "-pthread",
          "-include",
          header,
          join(dir, "p.c"),
          "-o",
          exe,
        ],
        { encoding: "utf8" },
      );
      assert.equal(built.status, 0, built.stderr);
      const versions = inspectElf(exe).glibc;
      const want = arch === "x64" ? "2.2.5" : "2.17";
      for (const name of ["fstat", "lstat", "fstatat"])
        assert.ok(!versions.some((s) => s.symbol === name), `${name} still imported: ${JSON.stringify(versions)}`);
      for (const name of [
        "__fxstat",
        "__lxstat",
        "pthread_create",
        "pthread_join",
        "pthread_once",
        "pthread_key_create",
        "pthread_setspecific",
        "pthread_getspecific",
      ]) {
        assert.deepEqual(
          versions.filter((s) => s.symbol === name).map((s) => s.version),
          [want],
          name,
        );
      }
      // in x86-64's glibc since 2.4 (still below the floor), in aarch64's since its first
      assert.deepEqual(
        versions.filter((s) => s.symbol === "__fxstatat").map((s) => s.version),
        [arch === "x64" ? "2.4" : "2.17"],
        "__fxstatat",
      );
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
  for (const { file, name } of [...QEMU_SKIPPED_TESTS, ...WINE_SKIPPED_TESTS]) {
    assert.ok(PREBUILT_TEST_FILES.includes(file), file);
    const text = readFileSync(join(root, file), "utf8");
    // the name may start on the line after `test(` (as the formatter writes a long one)
    const named = new RegExp(`test\\(\\s*["']${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}["']`);
    assert.match(text, named, `${file} has no test named "${name}"`);
  }
});

test("windowsBuildInputs: binding.gyp's Windows branch: the native/os/win32 sources, none of native/os/posix, no POSIX feature macro", () => {
  const inputs = windowsBuildInputs();
  const os = inputs.sources.filter((f) => f.startsWith("native/os/"));
  assert.deepEqual(os.map((f) => f.replace(/^native\/os\/win32\//, "")).sort(), [
    "external_edit.c",
    "filelock.c",
    "peer.c",
    "pipe.c",
    "thread.c",
    "tty.c",
  ]);
  assert.ok(inputs.sources.includes("native/node/binding.c"));
  assert.ok(!inputs.cflags.some((f) => f.startsWith("-D_POSIX_C_SOURCE")), inputs.cflags.join(" "));
  assert.deepEqual(
    inputs.sources.filter((f) => !f.startsWith("native/os/")),
    gypBuildInputs().sources.filter((f) => !f.startsWith("native/os/")),
  );
});

test("peProblems: a fit DLL passes; a direct NODE.EXE import, libcjson, libwinpthread, an extra export, the wrong format or an EXE are each named", () => {
  const fit = { format: "pei-x86-64", dll: true, imports: ["KERNEL32.dll", "msvcrt.dll"], exported: [...ADDON_EXPORTS] };
  assert.deepEqual(peProblems(win32, fit), []);
  assert.deepEqual(peProblems(win32, { ...fit, imports: ["KERNEL32.dll", "api-ms-win-crt-runtime-l1-1-0.dll", "ucrtbase.dll"] }), []);
  const named = (pe) => peProblems(win32, { ...fit, ...pe }).join("\n");
  assert.match(named({ imports: [...fit.imports, "NODE.EXE"] }), /imports NODE\.EXE directly: Node-API must be delay-loaded/);
  assert.match(named({ imports: [...fit.imports, "libcjson-1.dll"] }), /imports libcjson-1\.dll: cJSON must be linked in statically/);
  assert.match(
    named({ imports: [...fit.imports, "libwinpthread-1.dll"] }),
    /imports libwinpthread-1\.dll \(only KERNEL32\.dll, ADVAPI32\.dll and the C runtime/,
  );
  assert.match(
    named({ exported: [...ADDON_EXPORTS, "cJSON_Parse"] }),
    /exports 1 symbol\(s\) beyond Node-API's entry points \(cJSON_Parse…\)/,
  );
  assert.match(named({ exported: [] }), /does not export napi_register_module_v1/);
  assert.match(named({ format: "pei-i386" }), /format is pei-i386/);
  assert.match(named({ dll: false }), /is not a DLL/);
});

test("inspectPe on DLLs mingw-w64 builds: imports, exports and the DLL flag as the prebuilt check reads them", (t) => {
  const cc = "x86_64-w64-mingw32-gcc";
  for (const tool of [cc, "x86_64-w64-mingw32-dlltool", "x86_64-w64-mingw32-objdump"])
    if (!has(tool)) return t.skip(`${tool} is not installed`);
  const dir = mkdtempSync(join(tmpdir(), "pq-pe-"));
  try {
    // An addon as a careless build makes it: Node-API bound to NODE.EXE directly, a helper dllexported.
    writeFileSync(
      join(dir, "a.c"),
      "#include <node_api.h>\n__declspec(dllexport) int cJSON_Parse(void) { return 1; }\n" +
        "NAPI_MODULE_INIT() { napi_value o; napi_create_object(env, &o); return exports; }\n",
    );
    writeFileSync(join(dir, "node.def"), "NAME NODE.EXE\nEXPORTS\nnapi_create_object\nnapi_module_register\n");
    const nodeApi = join(root, "node_modules", "node-api-headers", "include");
    const run = (cmd, args) => {
      const r = spawnSync(cmd, args, { cwd: dir, encoding: "utf8" });
      assert.equal(r.status, 0, `${cmd}: ${r.stderr}`);
    };
    run("x86_64-w64-mingw32-dlltool", ["-d", "node.def", "-l", "libnode.a"]);
    run(cc, ["-shared", "-O2", `-I${nodeApi}`, "-o", "a.node", "a.c", "libnode.a"]);
    const pe = inspectPe(join(dir, "a.node"));
    assert.equal(pe.format, "pei-x86-64");
    assert.equal(pe.dll, true);
    assert.ok(pe.imports.includes("NODE.EXE") && pe.imports.includes("KERNEL32.dll"), pe.imports.join(", "));
    assert.deepEqual([...pe.exported].sort(), ["cJSON_Parse", "napi_register_module_v1", "node_api_module_get_api_version_v1"]);
    const problems = peProblems(win32, pe).join("\n");
    assert.match(problems, /imports NODE\.EXE directly/);
    assert.match(problems, /cJSON_Parse/);
    // The same code as an EXE is not a DLL.
    writeFileSync(join(dir, "m.c"), "int main(void) { return 0; }\n");
    run(cc, ["-o", "m.exe", "m.c"]);
    assert.equal(inspectPe(join(dir, "m.exe")).dll, false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const wine = (() => {
  try {
    return wineCommand();
  } catch {
    return "";
  }
})();

test(
  "wineNode: Node for Windows' exit status, stdout and stderr come back; Linux paths reach it as Z: paths",
  { skip: !wine && "wine64 is not installed" },
  async () => {
    const r = await wineNode(["-e", "console.log(process.platform, process.cwd()); console.error('to stderr'); process.exit(7)"], {
      cwd: join(root, "tests"),
      timeout: 120_000,
    });
    assert.equal(r.status, 7, r.stderr);
    assert.equal(r.stdout, `win32 Z:${join(root, "tests").replace(/\//g, "\\")}\n`);
    assert.match(r.stderr, /to stderr/);
    assert.equal(r.timedOut, false);
  },
);

test(
  "wineNode: a run past its timeout is killed with its child processes and says so",
  { skip: !wine && "wine64 is not installed", timeout: 60_000 },
  async () => {
    const marker = `pq-wine-timeout-${process.pid}-${Date.now()}`;
    const script = `require("child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", "${marker}"], { stdio: "ignore" }); console.log("started"); setInterval(() => {}, 1000);`;
    const r = await wineNode(["-e", script, marker], { timeout: 4000 });
    assert.equal(r.timedOut, true);
    assert.equal(r.status, null);
    assert.match(r.stderr, /did not end within 4 s: killed/);
    assert.equal(r.stdout, "started\n");
    // Every process of the run (node.exe and its child) ends: polled, as Wine reaps them itself.
    const alive = () =>
      spawnSync("ps", ["-eo", "stat=,args="], { encoding: "utf8" })
        .stdout.split("\n")
        .filter((l) => l.includes(marker) && !/^Z/.test(l.trim()));
    const deadline = Date.now() + 20_000;
    while (alive().length && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
    assert.deepEqual(alive(), []);
  },
);

/** The command lines of live (not zombie) processes that carry `marker`, tmux's own left out. */
const carrying = (marker) =>
  spawnSync("ps", ["-eo", "stat=,args="], { encoding: "utf8" })
    .stdout.split("\n")
    .filter((l) => l.includes(marker) && !/^Z/.test(l.trim()) && !/\btmux\b/.test(l));

test(
  "wine-tests: the console file's timeout kills its whole process group, node --test's child with the runner",
  { timeout: 60_000 },
  async () => {
    const marker = `pq-grouped-timeout-${process.pid}-${Date.now()}`;
    const script = `require("child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", "${marker}"], { stdio: "ignore" }); console.log("started"); setInterval(() => {}, 1000);`;
    const r = await runGrouped(process.execPath, ["-e", script, marker], { timeout: 3000 });
    assert.equal(r.timedOut, true);
    assert.equal(r.signal, "SIGKILL");
    assert.equal(r.stdout, "started\n");
    assert.match(r.stderr, /did not end within 3 s: its process group was killed/);
    const deadline = Date.now() + 20_000;
    while (carrying(marker).length && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
    assert.deepEqual(carrying(marker), [], "the child outlived the run");
  },
);

test(
  "wine-tests: after the console file, the tmux servers its run started are ended with their panes; no other server is touched",
  { skip: !has("tmux", ["-V"]) && "tmux is missing", timeout: 60_000 },
  async () => {
    // Sockets named as the console test names them; live pids, so that no suite's sweep of servers
    // whose owner is gone (tests/helpers/tmux-server.mjs) ends them meanwhile.
    const mine = `pq-tty-${process.pid}`;
    const other = `pq-tty-${process.ppid}`;
    const mark = `${process.pid}-${Date.now()}`;
    const marker = `pq-leftover-pane-${process.pid}-${Date.now()}`;
    const tmux = (socket, env, ...args) =>
      spawnSync("tmux", ["-L", socket, ...args], { encoding: "utf8", env: { ...process.env, ...env } });
    try {
      for (const [socket, env] of [
        [mine, { PI_QUESTION_WINE_TESTS_RUN: mark }],
        [other, { PI_QUESTION_WINE_TESTS_RUN: "another-run" }],
      ]) {
        const r = tmux(
          socket,
          env,
          "new-session",
          "-d",
          "-s",
          "x",
          `exec '${process.execPath}' -e 'setInterval(() => {}, 1000)' ${marker}`,
        );
        assert.equal(r.status, 0, r.stderr);
      }
      const started = Date.now() + 20_000;
      while (carrying(marker).length < 2 && Date.now() < started) await new Promise((done) => setTimeout(done, 50));
      assert.equal(carrying(marker).length, 2, "both panes' programs run");
      assert.deepEqual(endMarkedTmuxServers(mark), [mine]);
      const deadline = Date.now() + 20_000;
      while (carrying(marker).length > 1 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
      assert.equal(carrying(marker).length, 1, "the marked server's pane program ended, the other's runs on");
      assert.notEqual(tmux(mine, {}, "has-session", "-t", "x").status, 0);
      assert.equal(tmux(other, {}, "has-session", "-t", "x").status, 0, "the unmarked server is untouched");
    } finally {
      for (const socket of [mine, other]) tmux(socket, {}, "kill-server");
      const dir = join(process.env.TMUX_TMPDIR || "/tmp", `tmux-${process.getuid()}`);
      for (const socket of [mine, other]) rmSync(join(dir, socket), { force: true });
    }
  },
);

test("wine-tests: a win32 prebuilt older than a C source under native/ is named stale (it would test old code), the fuzzers aside", () => {
  const dir = mkdtempSync(join(tmpdir(), "pq-stale-"));
  try {
    for (const sub of ["core", "fuzz"]) mkdirSync(join(dir, sub));
    writeFileSync(join(dir, "core", "engine.c"), "");
    writeFileSync(join(dir, "fuzz", "fuzz_session.c"), "");
    writeFileSync(join(dir, "core", "notes.txt"), "");
    const t = Date.now() / 1000;
    utimesSync(join(dir, "core", "engine.c"), t - 100, t - 100);
    utimesSync(join(dir, "fuzz", "fuzz_session.c"), t, t);
    utimesSync(join(dir, "core", "notes.txt"), t, t);
    assert.equal(newerSource((t - 50) * 1000, dir), undefined, "only the fuzzer and a text file are newer");
    utimesSync(join(dir, "core", "engine.c"), t, t);
    assert.match(newerSource((t - 50) * 1000, dir), /engine\.c$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
