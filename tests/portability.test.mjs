// portability.test.mjs — the C sources stay buildable beyond Linux: the core (native/core/) and
// the binding (native/node/) include no OS header, and what touches the OS lives in
// native/os/<family>/; everything
// compiles as strict C11 + POSIX 2008 with no _GNU_SOURCE from the command line; feature macros
// (_GNU_SOURCE, _DARWIN_C_SOURCE, _DEFAULT_SOURCE) are defined only under an OS guard; the
// macOS branches of the POSIX files compile without GNU extensions; and with mingw-w64 present
// the core and the Windows family compile for Windows. binding.gyp, read for each OS by
// scripts/prebuild.mjs's gypBuildInputs, builds exactly these files, and the install step asks
// a Windows builder for what binding.gyp needs there (CJSON_DIR), not for POSIX tools.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gypBuildInputs } from "../scripts/prebuild.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const native = join(root, "native");
const coreDir = join(native, "core");
const nodeDir = join(native, "node");
const rel = (f) =>
  f
    .slice(root.length + 1)
    .split("\\")
    .join("/");
const listC = (dir) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(".c"))
        .sort()
        .map((f) => join(dir, f))
    : [];

const listH = (dir) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(".h"))
        .sort()
        .map((f) => join(dir, f))
    : [];
/** A directory and the folders under it, itself first, each sorted. */
const withFolders = (dir) =>
  existsSync(dir)
    ? [
        dir,
        ...readdirSync(dir, { withFileTypes: true })
          .filter((e) => e.isDirectory())
          .map((e) => e.name)
          .sort()
          .flatMap((d) => withFolders(join(dir, d))),
      ]
    : [];
/** The core, native/core/<folder>/*.c and *.h (its public headers at the top, the rest in folders by
 * concern); the Node-API binding, native/node/*.c and *.h, is checked with them. */
const coreC = [...withFolders(coreDir).flatMap(listC), ...listC(nodeDir)];
const coreH = [...withFolders(coreDir).flatMap(listH), ...listH(nodeDir)];
const posixC = listC(join(native, "os", "posix"));
const win32C = listC(join(native, "os", "win32"));
const FAMILY_FILES = ["external_edit.c", "filelock.c", "peer.c", "pipe.c", "thread.c", "tty.c"];

const CC = process.env.CC || "cc";
const MINGW = process.env.MINGW_CC || "x86_64-w64-mingw32-gcc";
const has = (cmd, args = ["--version"]) => spawnSync(cmd, args, { stdio: "ignore" }).status === 0;
const nodeApiInclude = createRequire(import.meta.url)("node-api-headers").include_dir;
const cjsonInclude = (() => {
  const r = spawnSync("pkg-config", ["--cflags-only-I", "libcjson"], { encoding: "utf8" });
  return r.status === 0
    ? r.stdout
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map((f) => f.replace(/^-I/, ""))
    : null;
})();
const hostSkip =
  process.platform === "win32"
    ? "POSIX hosts only"
    : !has(CC)
      ? `no C compiler (${CC})`
      : !cjsonInclude
        ? "libcjson (pkg-config) is needed"
        : false;

/** The flags of the strict compile: C11, POSIX 2008, every warning an error, no _GNU_SOURCE. */
const STRICT = ["-std=c11", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-Wextra", "-Werror", "-fsyntax-only"];

function compile(cc, flags, files) {
  assert.ok(files.length > 0, "nothing to compile");
  for (const f of flags) assert.doesNotMatch(f, /_GNU_SOURCE/, "the check itself must not define _GNU_SOURCE");
  // LC_ALL=C: plain quotes in the diagnostics; no CPATH or C_INCLUDE_PATH from the environment
  const { CPATH: _a, C_INCLUDE_PATH: _b, ...env } = process.env;
  return spawnSync(cc, [...flags, `-I${coreDir}`, ...files], { encoding: "utf8", env: { ...env, LC_ALL: "C" } });
}

// ── binding.gyp per OS ──────────────────────────────────────────────────────────────────────

test("binding.gyp: every OS builds all of the core and the five files of its own family — POSIX on Linux and macOS, Win32 on Windows", () => {
  const core = coreC.map(rel);
  for (const [os, family] of [
    ["linux", "posix"],
    ["mac", "posix"],
    ["win", "win32"],
  ]) {
    const { sources, cflags, includeDirs } = gypBuildInputs(undefined, { os });
    assert.deepEqual(
      sources.filter((s) => !s.startsWith("native/os/")).sort(),
      [...core].sort(),
      `${os}: the core is native/core/<folder>/*.c and the binding native/node/*.c, every one of them`,
    );
    assert.deepEqual(
      sources.filter((s) => s.startsWith("native/os/")).sort(),
      FAMILY_FILES.map((f) => `native/os/${family}/${f}`),
      `${os}: native/os/${family}/`,
    );
    assert.ok(includeDirs.includes("native/core"), `${os}: the binding and the OS files include the core's headers from native/core/`);
    assert.ok(cflags.includes("-std=c11"), `${os}: C11`);
    assert.equal(cflags.includes("-D_POSIX_C_SOURCE=200809L"), os !== "win", `${os}: _POSIX_C_SOURCE only where there is POSIX`);
    assert.ok(
      !cflags.some((f) => /_GNU_SOURCE|_DEFAULT_SOURCE|_DARWIN_C_SOURCE/.test(f)),
      `${os}: no feature macro beyond _POSIX_C_SOURCE on the command line`,
    );
  }
  assert.deepEqual(
    posixC.map((f) => f.split(/[\\/]/).pop()),
    FAMILY_FILES,
    "native/os/posix holds the five files, no more",
  );
});

test("gypBuildInputs: OS conditions pick their branch (==, !=, else), merge lists in gyp's order, and an unknown condition is refused", () => {
  const gyp = JSON.stringify({
    variables: { "dir%": "<!(node -p 1)", v: ["-DV"] },
    target_defaults: {
      cflags_c: ["<@(v)"],
      xcode_settings: { OTHER_CFLAGS: ["-DMAC_ONLY"] },
      conditions: [
        ['OS!="win"', { cflags_c: ["-DPOSIX"] }],
        ['OS=="win"', { defines: ["WIN"] }],
      ],
    },
    targets: [
      {
        sources: ["core.c"],
        include_dirs: ["inc"],
        conditions: [
          ['OS=="mac"', { sources: ["mac.c"] }, { sources: ["other.c"] }],
          ['OS=="win"', { sources: ["win.c"], include_dirs: ["<(dir)/include"] }],
        ],
      },
    ],
  });
  assert.deepEqual(gypBuildInputs(gyp, { os: "linux" }), {
    sources: ["core.c", "other.c"],
    cflags: ["-DV", "-DPOSIX"],
    includeDirs: ["inc"],
  });
  assert.deepEqual(gypBuildInputs(gyp), gypBuildInputs(gyp, { os: "linux" }), "Linux when no OS is given");
  assert.deepEqual(gypBuildInputs(gyp, { os: "mac" }), { sources: ["core.c", "mac.c"], cflags: ["-DMAC_ONLY"], includeDirs: ["inc"] });
  // the command expansion behind <(dir) names the builder's cJSON: left out, like pkg-config's
  assert.deepEqual(gypBuildInputs(gyp, { os: "win" }), {
    sources: ["core.c", "other.c", "win.c"],
    cflags: ["-DV", "-DWIN"],
    includeDirs: ["inc"],
  });
  const odd = JSON.stringify({ targets: [{ sources: ["a.c"], conditions: [['target_arch=="x64"', { sources: ["b.c"] }]] }] });
  assert.throws(() => gypBuildInputs(odd), /condition target_arch=="x64" is not one gypBuildInputs reads/);
});

// ── the compile checks ──────────────────────────────────────────────────────────────────────

test(
  "strict C11 + POSIX 2008, no _GNU_SOURCE: every core file, the binding (native/node/) and every native/os/posix file compile with -Wall -Wextra -Werror",
  { skip: hostSkip },
  () => {
    const flags = [...STRICT, `-I${nodeApiInclude}`, ...cjsonInclude.map((d) => `-I${d}`)];
    const r = compile(CC, flags, [...coreC, ...posixC]);
    assert.equal(r.status, 0, `${CC} ${flags.join(" ")}:\n${r.stderr}`);
  },
);

test(
  "macOS branches of native/os/posix: they compile with the Linux macros undefined and __APPLE__ defined, against POSIX + BSD declarations only (no GNU extensions such as pipe2)",
  { skip: hostSkip },
  () => {
    // glibc ignores _DARWIN_C_SOURCE; _DEFAULT_SOURCE stands in for it (POSIX and the BSD calls
    // macOS has — flock, SIGWINCH, TIOCGWINSZ — but nothing GNU-only).
    const flags = [
      ...STRICT,
      "-U__linux__",
      "-U__linux",
      "-Ulinux",
      "-U__gnu_linux__",
      "-D__APPLE__",
      "-D_DEFAULT_SOURCE",
      ...cjsonInclude.map((d) => `-I${d}`),
    ];
    const r = compile(CC, flags, posixC);
    assert.equal(r.status, 0, `${CC} ${flags.join(" ")}:\n${r.stderr}`);
  },
);

const mingwSkip = !has(MINGW)
  ? `mingw-w64 (${MINGW}) is not installed`
  : !cjsonInclude
    ? "libcjson (pkg-config) is needed for cJSON's header"
    : false;

test(
  "Windows (mingw-w64): the core, the binding (native/node/) and the native/os/win32 files that exist compile with binding.gyp's Windows flags, -Werror",
  { skip: mingwSkip },
  () => {
    // cJSON's header alone, in a directory of its own: the host's include directory would bring
    // the host's system headers into a Windows compile.
    const header =
      cjsonInclude.map((d) => join(d, "cJSON.h")).find(existsSync) ?? cjsonInclude.map((d) => join(d, "cjson", "cJSON.h")).find(existsSync);
    assert.ok(header, `cJSON.h is not in ${cjsonInclude.join(", ")}`);
    const dir = mkdtempSync(join(tmpdir(), "pq-portability-"));
    try {
      mkdirSync(join(dir, "cjson"));
      copyFileSync(header, join(dir, "cjson", "cJSON.h"));
      const win = gypBuildInputs(undefined, { os: "win" });
      const flags = [
        ...win.cflags.filter((f) => f !== "-fvisibility=hidden"),
        "-D__USE_MINGW_ANSI_STDIO=1",
        "-fsyntax-only",
        `-I${nodeApiInclude}`,
        `-I${dir}`,
      ];
      assert.ok(!flags.some((f) => /_POSIX_C_SOURCE/.test(f)));
      const family = win.sources
        .filter((s) => s.startsWith("native/os/win32/"))
        .map((s) => join(root, s))
        .filter(existsSync);
      const r = compile(MINGW, flags, [...coreC, ...family]);
      assert.equal(r.status, 0, `${MINGW} ${flags.join(" ")} (${family.length} of the win32 files exist):\n${r.stderr}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

const selectSkip =
  process.platform !== "linux"
    ? "runs macOS's select() path on Linux"
    : hostSkip || (!has("nm", ["--version"]) ? "nm (binutils) is needed" : false);

test(
  "the terminal runner's select() wait (macOS's) passes tests/tty-runner.test.mjs on Linux: an addon built with -DQT_TTY_WAIT_SELECT",
  { skip: selectSkip, timeout: 240_000 },
  () => {
    const dir = mkdtempSync(join(tmpdir(), "pq-portability-select-"));
    try {
      const addon = join(dir, "pi_question.node");
      const { sources, cflags, includeDirs } = gypBuildInputs(undefined, { os: "linux" });
      const libs = spawnSync("pkg-config", ["--libs", "libcjson"], { encoding: "utf8" }).stdout.trim().split(/\s+/).filter(Boolean);
      const built = spawnSync(
        CC,
        [
          ...cflags,
          "-DQT_TTY_WAIT_SELECT",
          "-O1",
          "-fPIC",
          "-shared",
          "-pthread",
          `-I${nodeApiInclude}`,
          ...cjsonInclude.map((d) => `-I${d}`),
          ...includeDirs.map((d) => `-I${join(root, d)}`),
          ...sources.map((s) => join(root, s)),
          "-o",
          addon,
          ...libs,
        ],
        { encoding: "utf8" },
      );
      assert.equal(built.status, 0, built.stderr);
      const imports = spawnSync("nm", ["-D", "--undefined-only", addon], { encoding: "utf8" }).stdout;
      assert.match(imports, /\bselect\b/, "the runner waits with select()");
      assert.doesNotMatch(imports, /\bpoll\b/, "and never with poll()");
      // a test run of its own (NODE_TEST_CONTEXT would make it report to this one), in TAP
      const { NODE_TEST_CONTEXT: _context, ...env } = process.env;
      const ran = spawnSync(process.execPath, ["--test", "--test-reporter=tap", join(root, "tests", "tty-runner.test.mjs")], {
        encoding: "utf8",
        env: { ...env, PI_QUESTION_ADDON: addon },
        timeout: 200_000,
        killSignal: "SIGKILL",
      });
      const count = (what) => Number(new RegExp(`^# ${what} (\\d+)$`, "m").exec(ran.stdout)?.[1] ?? NaN);
      assert.equal(
        ran.status,
        0,
        ran.stdout
          .split("\n")
          .filter((l) => /^not ok|error|expected|actual/.test(l))
          .join("\n") + ran.stderr,
      );
      assert.equal(count("fail"), 0);
      assert.ok(count("pass") >= 10, `tty-runner ran ${count("pass")} tests (${count("skipped")} skipped)`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test("install step on Windows: no cc, c++ or pkg-config is asked for; without CJSON_DIR (or with one lacking cJSON) one sentence names vcpkg and CJSON_DIR", () => {
  const dir = mkdtempSync(join(tmpdir(), "pq-portability-win-install-"));
  try {
    // process.platform as on Windows, and no PATH: the POSIX checks would say "no C compiler found (cc)"
    const fake = join(dir, "as-windows.mjs");
    writeFileSync(fake, 'Object.defineProperty(process, "platform", { value: "win32" });\n');
    const install = (extra) => {
      const { CJSON_DIR: _d, CC: _c, ...env } = process.env;
      return spawnSync(process.execPath, ["--import", pathToFileURL(fake).href, join(root, "scripts", "install.mjs")], {
        encoding: "utf8",
        cwd: dir,
        env: { ...env, PATH: "", ...extra },
      });
    };
    const unset = install({});
    assert.equal(unset.status, 1, unset.stderr);
    assert.equal(
      unset.stderr.trim(),
      'pi-question: the cJSON library was not found (CJSON_DIR is not set); install it with vcpkg ("vcpkg install cjson:x64-windows-static") and set CJSON_DIR to that directory, e.g. "set CJSON_DIR=C:\\vcpkg\\installed\\x64-windows-static".',
    );
    mkdirSync(join(dir, "vcpkg", "include", "cjson"), { recursive: true });
    writeFileSync(join(dir, "vcpkg", "include", "cjson", "cJSON.h"), "");
    const noLib = install({ CJSON_DIR: join(dir, "vcpkg") });
    assert.equal(noLib.status, 1, noLib.stderr);
    assert.match(
      noLib.stderr,
      /^pi-question: the cJSON library was not found \(CJSON_DIR=.*vcpkg has no include\\cjson\\cJSON\.h and lib\\cjson\.lib\)/,
    );
    assert.equal(noLib.stderr.trim().split("\n").length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ── the source rules ────────────────────────────────────────────────────────────────────────

/** The text without its comments (line breaks kept, so line numbers stay) and string contents. */
function code(file) {
  return readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " "))
    .replace(/\/\/.*$/gm, "")
    .replace(/"(?:[^"\\\n]|\\.)*"/g, '""');
}

const OS_MACRO =
  /\b(__linux__|__linux|__gnu_linux__|__APPLE__|__MACH__|_WIN32|_WIN64|__MINGW32__|__CYGWIN__|__FreeBSD__|__NetBSD__|__OpenBSD__|__DragonFly__|__sun)\b/;
const FEATURE_MACRO = /\b(_GNU_SOURCE|_DARWIN_C_SOURCE|_DEFAULT_SOURCE)\b/;

/** Every line of `file` that names a feature macro outside a conditional that tests an OS.
 * The conditionals are tracked as a stack of chains: #if/#ifdef/#ifndef open one, #elif adds
 * its condition to it, #else keeps it (the else of an OS test is one too), #endif closes it. */
function unguardedFeatureMacros(file) {
  const bad = [];
  const stack = [];
  code(file)
    .split("\n")
    .forEach((line, i) => {
      const d = /^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$/.exec(line);
      if (d) {
        if (d[1].startsWith("if")) stack.push([d[2]]);
        else if (d[1] === "elif" && stack.length) stack[stack.length - 1].push(d[2]);
        else if (d[1] === "endif") stack.pop();
      }
      if (FEATURE_MACRO.test(line) && !stack.some((chain) => chain.some((c) => OS_MACRO.test(c))))
        bad.push(`${rel(file)}:${i + 1}: ${line.trim()}`);
    });
  return bad;
}

function allNativeSources(dir = native) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? allNativeSources(join(dir, e.name)) : /\.[ch]$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

test("feature macros: _GNU_SOURCE, _DARWIN_C_SOURCE and _DEFAULT_SOURCE appear in native/ only inside an #if that tests the OS", () => {
  const files = allNativeSources();
  assert.ok(files.some((f) => f.endsWith("tty.c")) && files.length > 30);
  const bad = files.flatMap(unguardedFeatureMacros);
  assert.deepEqual(bad, [], "guard each with the OS it is for, e.g. #if defined(__linux__) && !defined(_GNU_SOURCE)");
  // the rule itself, on the POSIX terminal runner: its guarded definitions are seen and allowed
  const tty = code(join(native, "os", "posix", "tty.c"));
  assert.match(tty, /#if defined\(__linux__\)[^\n]*\n#define _GNU_SOURCE/);
  assert.match(tty, /#if defined\(__APPLE__\)[^\n]*\n#define _DARWIN_C_SOURCE/);
});

/** OS headers: POSIX, Win32 and the C11 threads header (their place is native/os/<family>/). */
const OS_HEADER =
  /^(unistd|pthread|threads|sched|semaphore|spawn|termios|poll|fcntl|signal|dirent|dlfcn|time|windows|winsock2|ws2tcpip|winbase|io|process|conio|direct|sys\/.+|netinet\/.+|arpa\/.+|mach\/.+)\.h$/;

test("the core includes no OS header: native/core/ and native/node/ (.c and .h) leave unistd, pthread, windows.h, termios, poll, sys/*, fcntl, signal, time … to native/os/<family>/", () => {
  const bad = [];
  for (const file of [...coreC, ...coreH]) {
    for (const m of code(file).matchAll(/^\s*#\s*include\s*<([^>]+)>/gm))
      if (OS_HEADER.test(m[1].trim())) bad.push(`${rel(file)}: <${m[1].trim()}>`);
  }
  assert.deepEqual(bad, []);
  assert.ok(OS_HEADER.test("sys/stat.h") && OS_HEADER.test("windows.h") && !OS_HEADER.test("stdatomic.h") && !OS_HEADER.test("stdio.h"));
  // the families do include them: the rule is about where, not whether (pipe.c there has no pipes to make)
  const working = posixC.filter((f) => basename(f) !== "pipe.c");
  assert.ok(working.length >= 5 && working.every((f) => /#\s*include\s*<(unistd|pthread)\.h>/.test(readFileSync(f, "utf8"))));
});

test("Node-API only in native/node/: no other file under native/ includes node_api.h or calls napi_*, and binding.gyp builds every file of native/node/", () => {
  const NODE_API = /^\s*#\s*include\s*[<"](node_api|node_api_types|js_native_api|js_native_api_types)\.h[>"]/m;
  const bad = allNativeSources()
    .filter((f) => !rel(f).startsWith("native/node/"))
    .filter((f) => NODE_API.test(readFileSync(f, "utf8")) || /\bnapi_\w+/.test(code(f)))
    .map(rel);
  assert.deepEqual(bad, [], "the core, the OS layer and the fuzzers know no Node: move this to native/node/");
  // the binding's files do speak it (marshal.h brings node_api.h to them)
  const nodeC = listC(nodeDir);
  assert.ok(nodeC.length > 1 && nodeC.every((f) => /\bnapi_\w+/.test(code(f))), nodeC.map(rel).join(" "));
  assert.ok(NODE_API.test(readFileSync(join(nodeDir, "marshal.h"), "utf8")));
  for (const os of ["linux", "mac", "win"]) {
    const { sources } = gypBuildInputs(undefined, { os });
    assert.deepEqual(
      sources.filter((s) => s.startsWith("native/node/")).sort(),
      nodeC.map(rel),
      `${os}: the binding is native/node/*.c, every one of them`,
    );
  }
});
