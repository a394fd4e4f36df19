// prebuild-darwin.test.mjs — the macOS prebuilts' build (scripts/prebuild.mjs), checked here
// where no Mac is: the clang commands it plans (binding.gyp's macOS sources and flags, the
// architecture and oldest macOS, cJSON from CJSON_SRC, a bundle exporting only Node-API's entry
// points), where cJSON comes from, and the checks of a built Mach-O against the outputs of
// lipo, otool and nm as a Mac prints them. Only the workflow's macOS jobs run the build itself.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import {
  ADDON_EXPORTS,
  DARWIN_ARCHS,
  buildPrebuilt,
  cjsonFromDir,
  darwinBuildPlan,
  gypBuildInputs,
  machOProblems,
  parseMachO,
  root,
} from "../scripts/prebuild.mjs";

const tmp = mkdtempSync(join(tmpdir(), "pq-darwin-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

const arm64 = { os: "darwin", cpu: "arm64", libc: "" };
const x64 = { os: "darwin", cpu: "x64", libc: "" };
const cjson = { source: "/cjson/cJSON.c", header: "/cjson/cJSON.h", version: "1.7.15" };
const outputOf = (cmd, name) => cmd.args[cmd.args.indexOf(name) + 1];

test("darwin plan: binding.gyp's macOS sources and flags, for the target's architecture and oldest macOS", () => {
  for (const target of [arm64, x64]) {
    const { arch, min } = DARWIN_ARCHS[target.cpu];
    const plan = darwinBuildPlan(target, { cjson, objDir: "/obj" });
    const mac = gypBuildInputs(undefined, { os: "mac" });
    const sources = plan.compile.map((c) => outputOf(c, "-c"));
    assert.deepEqual(sources, [...mac.sources.map((s) => join(root, s)), cjson.source]);
    assert.ok(mac.sources.includes("native/os/posix/tty.c") && !mac.sources.some((s) => s.includes("/win32/")), mac.sources.join(" "));
    for (const c of plan.compile) {
      assert.equal(c.cmd, "clang");
      assert.equal(outputOf(c, "-arch"), arch);
      assert.ok(c.args.includes(`-mmacosx-version-min=${min}`), c.args.join(" "));
      assert.ok(c.args.includes("-fvisibility=hidden"), c.args.join(" "));
    }
    for (const c of plan.compile.slice(0, -1)) {
      for (const flag of mac.cflags) assert.ok(c.args.includes(flag), `${flag} missing: ${c.args.join(" ")}`);
      // the sources include <cjson/cJSON.h>: the header is staged under objDir/include/cjson
      assert.ok(c.args.includes(`-I${join("/obj", "include")}`), c.args.join(" "));
    }
    assert.equal(plan.compile.at(-1).args[0], "-std=c89");
    // every object is linked, into one bundle that Node resolves Node-API in at load time
    const objects = plan.compile.map((c) => outputOf(c, "-o"));
    assert.equal(new Set(objects).size, objects.length);
    for (const o of objects) assert.ok(plan.link.args.includes(o), `${o} not linked`);
    assert.deepEqual(plan.link.args.slice(0, 3), ["-bundle", "-undefined", "dynamic_lookup"]);
    assert.equal(outputOf(plan.link, "-arch"), arch);
    assert.equal(outputOf(plan.link, "-o"), plan.linked);
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

test("darwin cJSON: from the directory CJSON_SRC names, each missing piece named", () => {
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

test("darwin build: refused off a Mac with the reason", async () => {
  if (process.platform === "darwin") return;
  await assert.rejects(
    buildPrebuilt(arm64, join(tmp, "out")),
    /^Error: darwin-arm64 is built on a Mac \(the workflow's macOS jobs\): there is no macOS SDK here$/,
  );
});

// What lipo -archs, otool -L, nm -gU and otool -l print for a fit arm64 addon.
const FIT = {
  lipo: "arm64\n",
  otoolL: "/tmp/x/pi_question.node:\n\t/usr/lib/libSystem.B.dylib (compatibility version 1.0.0, current version 1345.100.2)\n",
  nm: "0000000000003f1c T _napi_register_module_v1\n0000000000003f50 T _node_api_module_get_api_version_v1\n",
  otoolLoad: "Load command 9\n      cmd LC_BUILD_VERSION\n  cmdsize 32\n platform 1\n    minos 11.0\n      sdk 14.2\n   ntools 1\n",
};

test("darwin checks: a fit addon passes; each way a build can be unfit is named", () => {
  const fit = parseMachO(FIT);
  assert.deepEqual(fit, {
    archs: ["arm64"],
    dylibs: ["/usr/lib/libSystem.B.dylib"],
    exported: ["napi_register_module_v1", "node_api_module_get_api_version_v1"],
    minos: "11.0",
  });
  assert.deepEqual(machOProblems(arm64, fit), []);
  // x64 on an old-style load command (LC_VERSION_MIN_MACOSX)
  const intel = parseMachO({
    ...FIT,
    lipo: "x86_64\n",
    otoolLoad: "Load command 8\n      cmd LC_VERSION_MIN_MACOSX\n  cmdsize 16\n  version 10.15\n      sdk 14.2\n",
  });
  assert.equal(intel.minos, "10.15");
  assert.deepEqual(machOProblems(x64, intel), []);

  const problems = (over) => machOProblems(arm64, parseMachO({ ...FIT, ...over })).join("\n");
  assert.match(problems({ lipo: "x86_64\n" }), /architectures are x86_64, not arm64 alone/);
  assert.match(problems({ lipo: "x86_64 arm64\n" }), /architectures are x86_64 arm64, not arm64 alone/);
  assert.match(
    problems({
      otoolL: `${FIT.otoolL}\t/opt/homebrew/opt/cjson/lib/libcjson.1.dylib (compatibility version 1.0.0, current version 1.7.18)\n`,
    }),
    /loads \/opt\/homebrew\/opt\/cjson\/lib\/libcjson\.1\.dylib: cJSON must be linked in statically/,
  );
  assert.match(
    problems({ otoolL: `${FIT.otoolL}\t/usr/lib/libc++.1.dylib (compatibility version 1.0.0, current version 1700.255.0)\n` }),
    /loads \/usr\/lib\/libc\+\+\.1\.dylib \(only \/usr\/lib\/libSystem\.B\.dylib may be\)/,
  );
  assert.match(problems({ nm: "0000000000003f50 T _node_api_module_get_api_version_v1\n" }), /does not export napi_register_module_v1/);
  assert.match(
    problems({ nm: `${FIT.nm}0000000000001000 T _qt_engine_new\n0000000000002000 T _cJSON_Parse\n` }),
    /exports 2 symbol\(s\) beyond Node-API's entry points \(qt_engine_new, cJSON_Parse…\): they must be hidden/,
  );
  assert.match(problems({ otoolLoad: FIT.otoolLoad.replace("minos 11.0", "minos 14.0") }), /needs macOS 14\.0, newer than 11\.0/);
  assert.match(problems({ otoolLoad: "" }), /names no minimum macOS version/);
});
