// prebuild-darwin.test.mjs — the macOS prebuilts' build (scripts/prebuild.mjs): the commands it
// plans (binding.gyp's macOS sources and flags, for clang on a Mac and for Zig here), where cJSON
// comes from on a Mac, a real darwin-arm64 build with Zig checked from its bytes (skipped, with
// the reason, when Zig is not in the cache), and the checks of a Mach-O against each way a build
// can be unfit. Nothing here runs the addon: only the workflow's macOS jobs do.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import {
  ADDON_EXPORTS,
  DARWIN_ARCHS,
  LOCAL_TARGETS,
  TESTED_HERE,
  ZIG,
  buildPrebuilt,
  cjsonFromDir,
  darwinBuildPlan,
  gypBuildInputs,
  machOProblems,
  parseMachO,
  root,
  zigPath,
} from "../scripts/prebuild.mjs";

const tmp = mkdtempSync(join(tmpdir(), "pq-darwin-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

const arm64 = { os: "darwin", cpu: "arm64", libc: "" };
const x64 = { os: "darwin", cpu: "x64", libc: "" };
const cjson = { source: "/cjson/cJSON.c", header: "/cjson/cJSON.h", version: "1.7.15" };
const outputOf = (cmd, name) => cmd.args[cmd.args.indexOf(name) + 1];

/** What is common to both compilers' plans: every macOS source with binding.gyp's flags, cJSON
 * as C89 and hidden, each object linked once. */
function checkSources(plan, target) {
  const mac = gypBuildInputs(undefined, { os: "mac" });
  const sources = plan.compile.map((c) => outputOf(c, "-c"));
  assert.deepEqual(sources, [...mac.sources.map((s) => join(root, s)), cjson.source]);
  assert.ok(mac.sources.includes("native/os/posix/tty.c") && !mac.sources.some((s) => s.includes("/win32/")), mac.sources.join(" "));
  assert.ok(mac.cflags.includes("-Wall") && mac.cflags.includes("-Werror"), mac.cflags.join(" "));
  for (const c of plan.compile) assert.ok(c.args.includes("-fvisibility=hidden"), c.args.join(" "));
  for (const c of plan.compile.slice(0, -1)) {
    for (const flag of mac.cflags) assert.ok(c.args.includes(flag), `${flag} missing: ${c.args.join(" ")}`);
    // the sources include <cjson/cJSON.h>: the header is staged under objDir/include/cjson
    assert.ok(c.args.includes(`-I${join("/obj", "include")}`), c.args.join(" "));
  }
  assert.ok(plan.compile.at(-1).args.includes("-std=c89"), plan.compile.at(-1).args.join(" "));
  const objects = plan.compile.map((c) => outputOf(c, "-o"));
  assert.equal(new Set(objects).size, objects.length);
  for (const o of objects) assert.ok(plan.link.args.includes(o), `${o} not linked`);
  assert.equal(outputOf(plan.link, "-o"), plan.linked);
  assert.ok(DARWIN_ARCHS[target.cpu]);
}

test("darwin plan (clang, on a Mac): binding.gyp's macOS sources and flags, the target's architecture and oldest macOS", () => {
  for (const target of [arm64, x64]) {
    const { arch, min } = DARWIN_ARCHS[target.cpu];
    const plan = darwinBuildPlan(target, { cjson, objDir: "/obj" });
    checkSources(plan, target);
    for (const c of [...plan.compile, plan.link]) {
      assert.equal(c.cmd, "clang");
      assert.equal(outputOf(c, "-arch"), arch);
      assert.ok(c.args.includes(`-mmacosx-version-min=${min}`), c.args.join(" "));
    }
    // one bundle that Node resolves Node-API in at load time, exporting only the entry points
    assert.ok(plan.link.args.join(" ").includes("-bundle -undefined dynamic_lookup"), plan.link.args.join(" "));
    assert.deepEqual(
      plan.link.args.filter((a) => a.startsWith("-Wl,-exported_symbol,")),
      ADDON_EXPORTS.map((s) => `-Wl,-exported_symbol,_${s}`),
    );
  }
  assert.throws(
    () => darwinBuildPlan({ os: "linux", cpu: "x64", libc: "gnu" }, { cjson, objDir: "/obj" }),
    /linux-x64-gnu is not a macOS prebuilt/,
  );
});

test("darwin plan (Zig, here): the same sources and flags through `zig cc -target <cpu>-macos.<oldest>`, linked as a dylib", () => {
  for (const target of [arm64, x64]) {
    const { zig, min } = DARWIN_ARCHS[target.cpu];
    const plan = darwinBuildPlan(target, { cjson, objDir: "/obj", zig: "/zig/zig" });
    checkSources(plan, target);
    for (const c of [...plan.compile, plan.link]) {
      assert.equal(c.cmd, "/zig/zig");
      assert.deepEqual(c.args.slice(0, 3), ["cc", "-target", `${zig}-macos.${min}`]);
      assert.ok(!c.args.includes("-arch"), c.args.join(" "));
    }
    for (const flag of ["-shared", "-Wl,-undefined,dynamic_lookup", "-Wl,-install_name,@rpath/pi_question.node", "-s"])
      assert.ok(plan.link.args.includes(flag), `${flag} missing: ${plan.link.args.join(" ")}`);
    // Zig's linker refuses these; hidden visibility does their work and machOProblems checks it
    assert.ok(!plan.link.args.some((a) => a.startsWith("-Wl,-exported_symbol") || a === "-Wl,-x"), plan.link.args.join(" "));
  }
});

test("darwin targets: built by default here (node scripts/prebuild.mjs), never run here", () => {
  const keys = (ts) => ts.map((t) => `${t.os}-${t.cpu}`);
  assert.ok(keys(LOCAL_TARGETS).includes("darwin-arm64") && keys(LOCAL_TARGETS).includes("darwin-x64"));
  assert.ok(!TESTED_HERE.some((t) => t.os === "darwin"));
});

test("darwin cJSON on a Mac: from the directory CJSON_SRC names, each missing piece named", () => {
  assert.throws(
    () => cjsonFromDir(""),
    /set CJSON_SRC to a directory holding cJSON\.c and cJSON\.h \(made on Debian by: node scripts\/prebuild\.mjs cjson-source DIR\)/,
  );
  const dir = join(tmp, "cjson");
  mkdirSync(dir);
  writeFileSync(join(dir, "cJSON.c"), "/* c */\n");
  assert.throws(() => cjsonFromDir(dir), new RegExp(`CJSON_SRC=${dir} has no cJSON\\.h`));
  writeFileSync(join(dir, "cJSON.h"), "/* h */\n");
  assert.deepEqual(cjsonFromDir(dir), { dir, source: join(dir, "cJSON.c"), header: join(dir, "cJSON.h"), version: "of unknown version" });
  writeFileSync(join(dir, "VERSION"), "1.7.15-1+deb12u4\n");
  assert.equal(cjsonFromDir(dir).version, "1.7.15-1+deb12u4");
});

const zigHere = process.platform === "linux" && process.arch === "x64" && existsSync(zigPath());
let built = null; // the darwin-arm64 addon this file builds, when Zig is here

test(
  "darwin-arm64 built with Zig: a signed arm64 Mach-O for macOS 11 that loads only libSystem and exports only Node-API's entry points",
  {
    skip: zigHere
      ? false
      : process.platform !== "linux" || process.arch !== "x64"
        ? `Zig from npm (${ZIG.package}) exists for Linux x64 only`
        : `Zig ${ZIG.version} is not in the cache (${zigPath()}): node scripts/prebuild.mjs darwin-arm64 installs it`,
  },
  async () => {
    const out = join(tmp, "darwin-arm64");
    const r = await buildPrebuilt(arm64, out);
    assert.equal(r.file, join(out, "pi_question.node"));
    built = readFileSync(r.file);
    const macho = parseMachO(built);
    assert.deepEqual(machOProblems(arm64, macho), []);
    assert.deepEqual(macho.archs, ["arm64"]);
    assert.equal(macho.filetype, "dylib");
    assert.deepEqual(macho.dylibs, ["/usr/lib/libSystem.B.dylib"]);
    assert.equal(macho.minos, "11.0");
    assert.equal(macho.signed, true);
    assert.equal(macho.signatureProblem, "");
    for (const s of ADDON_EXPORTS) assert.ok(macho.exported.includes(s), macho.exported.join(" "));
    assert.ok(macho.exported.length <= 4, macho.exported.join(" "));
    // stripped: no debug map naming the checkout or the temporary objects (the same sources give
    // the same bytes wherever they are built)
    assert.ok(
      !built.includes(Buffer.from(root.replace(/\/$/, ""))) && !built.includes(Buffer.from("pq-prebuild-")),
      "the addon names its build paths",
    );
  },
);

test("darwin bytes: a changed byte breaks the signature; a cut file, an ELF and a universal file are named", (t) => {
  if (!built) return t.skip("needs the darwin-arm64 build above (Zig)");
  const changed = Buffer.from(built);
  changed[0x4000] ^= 0xff; // in __text, after the signature was made: the second 16 KiB page
  assert.match(
    machOProblems(arm64, parseMachO(changed)).join("\n"),
    /its code signature does not match its bytes \(page 1 changed after signing\)/,
  );
  assert.throws(() => parseMachO(built.subarray(0, 100)), /its load command \d+ has a bad size|run past the end of the file/);
  assert.throws(() => parseMachO(readFileSync(join(root, "build", "Release", "pi_question.node"))), /it is not a 64-bit Mach-O file/);
  const fat = Buffer.alloc(48);
  fat.writeUInt32BE(0xcafebabe, 0);
  fat.writeUInt32BE(2, 4);
  fat.writeUInt32BE(0x01000007, 8);
  fat.writeUInt32BE(0x0100000c, 28);
  const universal = parseMachO(fat);
  assert.deepEqual(universal.archs, ["x86_64", "arm64"]);
  assert.match(machOProblems(arm64, universal).join("\n"), /architectures are x86_64 arm64, not arm64 alone/);
});

/** A minimal thin Mach-O as Apple's linker writes one for macOS 12 and later (exports in
 * LC_DYLD_EXPORTS_TRIE, minimum in LC_BUILD_VERSION): `exports` in a one-level trie, or a trie
 * whose child points back at its root when `loop`. */
function machO({ cpu = 0x0100000c, exports = [], dylibs = [], minos = 0x000b0000, loop = false }) {
  const cmds = [];
  const build = Buffer.alloc(24);
  build.writeUInt32LE(0x32, 0);
  build.writeUInt32LE(24, 4);
  build.writeUInt32LE(1, 8); // macOS
  build.writeUInt32LE(minos, 12);
  cmds.push(build);
  for (const name of dylibs) {
    const size = Math.ceil((24 + name.length + 1) / 8) * 8;
    const c = Buffer.alloc(size);
    c.writeUInt32LE(0xc, 0);
    c.writeUInt32LE(size, 4);
    c.writeUInt32LE(24, 8);
    c.write(name, 24, "latin1");
    cmds.push(c);
  }
  const trieCmd = Buffer.alloc(16);
  trieCmd.writeUInt32LE(0x80000033, 0);
  trieCmd.writeUInt32LE(16, 4);
  cmds.push(trieCmd);
  const header = Buffer.alloc(32);
  header.writeUInt32LE(0xfeedfacf, 0);
  header.writeUInt32LE(cpu, 4);
  header.writeUInt32LE(8, 12); // a bundle
  header.writeUInt32LE(cmds.length, 16);
  header.writeUInt32LE(
    cmds.reduce((n, c) => n + c.length, 0),
    20,
  );
  // root: not terminal, one edge per export to a terminal leaf (flags 0, address 0x10)
  const edges = exports.map((e) => Buffer.from(`_${e}\0`, "latin1"));
  const rootSize = 2 + edges.reduce((n, e) => n + e.length + 1, 0);
  const parts = [Buffer.from([0, edges.length])];
  edges.forEach((e, i) => parts.push(e, Buffer.from([loop ? 0 : rootSize + i * 4])));
  for (const _ of edges) parts.push(Buffer.from([2, 0, 0x10, 0]));
  const trie = Buffer.concat(parts);
  const at = 32 + header.readUInt32LE(20);
  trieCmd.writeUInt32LE(at, 8);
  trieCmd.writeUInt32LE(trie.length, 12);
  return Buffer.concat([header, ...cmds, trie]);
}

test("darwin bytes: Apple's newer layout (LC_DYLD_EXPORTS_TRIE, LC_BUILD_VERSION) is read as well", () => {
  const fit = parseMachO(machO({ exports: ADDON_EXPORTS, dylibs: ["/usr/lib/libSystem.B.dylib"] }));
  assert.deepEqual(fit, {
    archs: ["arm64"],
    filetype: "bundle",
    dylibs: ["/usr/lib/libSystem.B.dylib"],
    exported: [...ADDON_EXPORTS].sort(),
    minos: "11.0",
    signed: false,
    signatureProblem: "",
  });
  assert.deepEqual(machOProblems(arm64, { ...fit, signed: true }), []);
  const intel = parseMachO(machO({ cpu: 0x01000007, exports: ["napi_register_module_v1", "qt_engine_new"], minos: 0x000a0f00 }));
  assert.deepEqual([intel.archs, intel.minos], [["x86_64"], "10.15"]);
  assert.match(machOProblems(x64, intel).join("\n"), /exports 1 symbol\(s\) beyond Node-API's entry points \(qt_engine_new…\)/);
  assert.throws(() => parseMachO(machO({ exports: ADDON_EXPORTS, loop: true })), /its export trie loops/);
});

// A fit arm64 addon as parseMachO reads one.
const FIT = {
  archs: ["arm64"],
  filetype: "bundle",
  dylibs: ["/usr/lib/libSystem.B.dylib"],
  exported: ["napi_register_module_v1", "node_api_module_get_api_version_v1"],
  minos: "11.0",
  signed: true,
  signatureProblem: "",
};

test("darwin checks: a fit addon passes; each way a build can be unfit is named", () => {
  assert.deepEqual(machOProblems(arm64, FIT), []);
  // Intel: macOS 10.15, and unsigned is allowed (macOS runs unsigned x86_64 code)
  assert.deepEqual(machOProblems(x64, { ...FIT, archs: ["x86_64"], minos: "10.15", signed: false }), []);

  const problems = (over) => machOProblems(arm64, { ...FIT, ...over }).join("\n");
  assert.match(problems({ archs: ["x86_64"] }), /architectures are x86_64, not arm64 alone/);
  assert.match(problems({ filetype: "executable" }), /is a executable, not a bundle or dylib Node can load/);
  assert.match(
    problems({ dylibs: [...FIT.dylibs, "/opt/homebrew/opt/cjson/lib/libcjson.1.dylib"] }),
    /loads \/opt\/homebrew\/opt\/cjson\/lib\/libcjson\.1\.dylib: cJSON must be linked in statically/,
  );
  assert.match(
    problems({ dylibs: [...FIT.dylibs, "/usr/lib/libc++.1.dylib"] }),
    /loads \/usr\/lib\/libc\+\+\.1\.dylib \(only \/usr\/lib\/libSystem\.B\.dylib may be\)/,
  );
  assert.match(problems({ exported: ["node_api_module_get_api_version_v1"] }), /does not export napi_register_module_v1/);
  // what Zig 0.11's linker made: every hidden symbol and its compiler-rt in the export trie
  assert.match(
    problems({ exported: [...FIT.exported, "qt_engine_new", "cJSON_Parse", "__absvdi2"] }),
    /exports 3 symbol\(s\) beyond Node-API's entry points \(qt_engine_new, cJSON_Parse, __absvdi2…\): they must be hidden/,
  );
  assert.deepEqual(machOProblems(arm64, { ...FIT, exported: [...FIT.exported, "_mh_dylib_header", "__dso_handle"] }), []);
  assert.match(problems({ minos: "14.0" }), /needs macOS 14\.0, newer than 11\.0/);
  assert.match(problems({ minos: "" }), /names no minimum macOS version/);
  assert.match(problems({ signed: false }), /is not signed \(no LC_CODE_SIGNATURE\): macOS runs no unsigned arm64 code/);
  assert.match(problems({ signatureProblem: "its code signature has no CodeDirectory" }), /its code signature has no CodeDirectory/);
});
