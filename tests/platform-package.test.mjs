// platform-package.test.mjs — the prebuilt addon's packaging without a registry: which platform
// package a machine takes (extension/platform-package.cjs), the manifests a release stages
// (scripts/packages.mjs), and what the loader and npm's install step do with a platform package
// present, broken or missing. Each case runs in a throw-away copy of the package's loader files
// with a fake node_modules beside it: the platform package holds a copy of this checkout's
// addon (the same bytes a prebuilt package ships), or a file that is not one.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { platformManifest } from "../scripts/packages.mjs";
import { root as packageRoot } from "./helpers/addon.mjs";

const require = createRequire(import.meta.url);
const platform = require("../extension/platform-package.cjs");
const { PREBUILT_TARGETS, candidatePackages, detectLibc, hasPrebuilt, hostTarget, packageName, targetKey } = platform;

const built = join(packageRoot, "build", "Release", "pi_question.node");
const tmp = mkdtempSync(join(tmpdir(), "pi-question-platform-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
let counter = 0;

/** A platform package for `host` in the node_modules folder `folder`: a copy of this checkout's
 * addon ("addon") or a file that is not one ("broken"), with a package.json of `version`.
 * Returns the addon's path. Modes are given (not left to the umask): the loader refuses a file
 * its group can write. */
function platformPackage(folder, prebuilt, { host = hostTarget(), version = "0.0.0-test" } = {}) {
  const platformDir = join(folder, packageName(host));
  mkdirSync(platformDir, { recursive: true, mode: 0o755 });
  writeFileSync(join(platformDir, "package.json"), JSON.stringify({ name: packageName(host), version, main: "pi_question.node" }), {
    mode: 0o644,
  });
  const file = join(platformDir, "pi_question.node");
  if (prebuilt === "addon") copyFileSync(built, file);
  else writeFileSync(file, "not an ELF file\n");
  chmodSync(file, 0o755);
  return file;
}

/** A throw-away install: <dir>/node_modules/pi-question (loader, platform table, install script,
 * package.json with `optionalDependencies` when `published`), plus the given platform package
 * contents (the package of `host`) and an optional local build. Returns the package directory;
 * `pkgPath` puts pi-question elsewhere under the install's directory (a checkout, say). */
function fakeInstall({ published = true, prebuilt, localBuild = false, host = hostTarget(), pkgPath = "node_modules/pi-question" } = {}) {
  const dir = join(tmp, `install-${++counter}`);
  const pkg = join(dir, pkgPath);
  mkdirSync(join(pkg, "extension"), { recursive: true, mode: 0o755 });
  mkdirSync(join(pkg, "scripts"), { recursive: true, mode: 0o755 });
  for (const f of ["load-addon.cjs", "platform-package.cjs"]) copyFileSync(join(packageRoot, "extension", f), join(pkg, "extension", f));
  copyFileSync(join(packageRoot, "scripts", "install.mjs"), join(pkg, "scripts", "install.mjs"));
  const manifest = { name: "pi-question", version: "0.0.0-test" };
  if (published) manifest.optionalDependencies = Object.fromEntries(PREBUILT_TARGETS.map((t) => [packageName(t), "0.0.0-test"]));
  writeFileSync(join(pkg, "package.json"), JSON.stringify(manifest));
  if (prebuilt) platformPackage(join(dir, "node_modules"), prebuilt, { host });
  if (localBuild) {
    mkdirSync(join(pkg, "build", "Release"), { recursive: true });
    copyFileSync(built, join(pkg, "build", "Release", "pi_question.node"));
  }
  return pkg;
}

/** Loads the fake install's addon in a fresh Node (before: code run first, e.g. to fake the
 * platform); returns { source } or { error }. */
function load(pkg, before = "") {
  const script = `${before}
const l = require(${JSON.stringify(join(pkg, "extension", "load-addon.cjs"))});
try { const a = l.loadAddon(); console.log(JSON.stringify({ source: l.addonSource(), limits: typeof a.limits })); }
catch (e) { console.log(JSON.stringify({ error: e.message })); }`;
  const r = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", env: { ...process.env, PI_QUESTION_ADDON: "" } });
  assert.equal(r.status, 0, r.stderr);
  return { ...JSON.parse(r.stdout.trim().split("\n").pop()), stderr: r.stderr };
}

const firstLine = (message) => message.split("\n")[0];

test("platform: this machine's target, its package name, and the packages tried (the detected C library first)", () => {
  const host = hostTarget();
  assert.equal(host.os, process.platform);
  assert.equal(host.cpu, process.arch);
  if (process.platform === "linux") {
    // glibc's runtime reports its version; musl's does not.
    const glibc = Boolean(process.report.getReport().header.glibcVersionRuntime);
    assert.equal(detectLibc(), glibc ? "gnu" : "musl");
    assert.deepEqual(candidatePackages(), [packageName(host), packageName({ ...host, libc: glibc ? "musl" : "gnu" })]);
  }
  assert.equal(packageName({ os: "linux", cpu: "arm64", libc: "gnu" }), "pi-question-linux-arm64-gnu");
  assert.equal(packageName({ os: "win32", cpu: "x64", libc: "" }), "pi-question-win32-x64");
  assert.deepEqual(candidatePackages({ os: "darwin", cpu: "arm64", libc: "" }), ["pi-question-darwin-arm64"]);
  assert.equal(hasPrebuilt({ os: "linux", cpu: "x64", libc: "gnu" }), true);
  assert.equal(hasPrebuilt({ os: "android", cpu: "arm64", libc: "" }), false);
  assert.equal(hasPrebuilt({ os: "linux", cpu: "riscv64", libc: "gnu" }), false);
});

test("platform: a staged platform package's manifest lets npm install it only where it fits", () => {
  const main = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8"));
  for (const target of PREBUILT_TARGETS) {
    const m = platformManifest(main, target);
    assert.equal(m.name, `pi-question-${targetKey(target)}`);
    assert.equal(m.version, main.version);
    assert.deepEqual(m.os, [target.os]);
    assert.deepEqual(m.cpu, [target.cpu]);
    // npm's names for the C library (what npm compares with process.report's glibc field)
    if (target.os === "linux") assert.deepEqual(m.libc, [{ gnu: "glibc", musl: "musl" }[target.libc]]);
    else assert.equal(m.libc, undefined);
    assert.equal(m.main, "pi_question.node");
    assert.deepEqual(m.files, ["pi_question.node"]);
  }
  // A checkout lists no platform package (they are added when a release is staged), so `npm ci`
  // here never asks the registry for packages that are not published yet.
  assert.equal(main.optionalDependencies, undefined);
});

test("loader: the platform package beside pi-question is loaded first, before a local build", () => {
  const r = load(fakeInstall({ prebuilt: "addon", localBuild: true }));
  assert.equal(r.error, undefined, r.error);
  assert.equal(r.source.kind, "prebuilt");
  assert.equal(r.source.name, packageName(hostTarget()));
  assert.equal(r.limits, "object");
});

test("loader: on Windows and macOS the package without a C library in its name is the one taken", () => {
  // Node there reports win32 / darwin; the addon in the package is this machine's (it only has to load).
  for (const host of PREBUILT_TARGETS.filter((t) => t.os !== "linux")) {
    const fake = `Object.defineProperty(process, "platform", { value: ${JSON.stringify(host.os)} }); Object.defineProperty(process, "arch", { value: ${JSON.stringify(host.cpu)} });`;
    assert.deepEqual(candidatePackages(host), [`pi-question-${host.os}-${host.cpu}`]);
    let r = load(fakeInstall({ prebuilt: "addon", host }), fake);
    assert.equal(r.error, undefined, r.error);
    assert.equal(r.source.kind, "prebuilt");
    assert.equal(r.source.name, `pi-question-${host.os}-${host.cpu}`);
    // installed without it (--omit=optional): the sentence names that package
    r = load(fakeInstall({ published: true }), fake);
    assert.match(
      firstLine(r.error),
      new RegExp(`^pi-question: the prebuilt addon package pi-question-${host.os}-${host.cpu} is not installed `),
    );
  }
});

test("loader: a platform package that does not load here falls back to the local build", () => {
  const r = load(fakeInstall({ prebuilt: "broken", localBuild: true }));
  assert.equal(r.error, undefined, r.error);
  assert.equal(r.source.kind, "local");
});

// ---- only what this installation holds ----

test("loader: a platform package planted in a folder above the install is never loaded, for a checkout or an installed package", () => {
  // A checkout under a folder anyone can write (/tmp): <dir>/node_modules/<platform package>
  // planted above <dir>/work/pi-question. Node's resolution searched every parent folder.
  let pkg = fakeInstall({ published: false, localBuild: true, pkgPath: "work/pi-question" });
  platformPackage(join(dirname(dirname(pkg)), "node_modules"), "addon");
  let r = load(pkg);
  assert.equal(r.error, undefined, r.error);
  assert.equal(r.source.kind, "local");
  assert.equal(r.stderr, "");
  // Installed in a project under such a folder: <dir>/project/node_modules/pi-question, the
  // planted package in <dir>/node_modules (not the folder that holds pi-question).
  pkg = fakeInstall({ published: true, localBuild: true, pkgPath: "project/node_modules/pi-question" });
  platformPackage(join(dirname(dirname(dirname(pkg))), "node_modules"), "addon");
  r = load(pkg);
  assert.equal(r.source.kind, "local");
  // Without a local build, nothing is loaded and the sentence says the package is not installed.
  pkg = fakeInstall({ published: true, pkgPath: "project/node_modules/pi-question" });
  platformPackage(join(dirname(dirname(dirname(pkg))), "node_modules"), "addon");
  r = load(pkg);
  assert.match(firstLine(r.error), /the prebuilt addon package .+ is not installed/);
  // Inside pi-question's own node_modules, and in the folder holding pi-question, it is taken.
  pkg = fakeInstall({ published: true, localBuild: true });
  platformPackage(join(pkg, "node_modules"), "addon");
  r = load(pkg);
  assert.equal(r.source.kind, "prebuilt");
  assert.equal(r.source.file, join(pkg, "node_modules", packageName(hostTarget()), "pi_question.node"));
  // Under a scope (node_modules/@scope/pi-question), the node_modules folder is the scope's parent.
  pkg = fakeInstall({ published: true, localBuild: true, pkgPath: "node_modules/@me/pi-question" });
  platformPackage(dirname(dirname(pkg)), "addon");
  assert.equal(load(pkg).source.kind, "prebuilt");
});

test(
  "loader: a prebuilt its group or others can write is refused, named with why, and the local build is used",
  { skip: process.platform === "win32" },
  () => {
    const pkg = fakeInstall({ published: true, localBuild: true, prebuilt: "addon" });
    const file = join(dirname(pkg), packageName(hostTarget()), "pi_question.node");
    // Writable by the user's own primary group (umask 002, Ubuntu's per-user groups): taken.
    chmodSync(file, 0o775);
    let r = load(pkg);
    assert.equal(r.source.kind, "prebuilt", r.stderr);
    if (process.getuid() !== 0) return; // a group of someone else's needs chown: root only
    // Writable by a group that is not the user's own: refused.
    chownSync(file, 0, 65534);
    r = load(pkg);
    assert.equal(r.source.kind, "local");
    assert.equal(
      r.stderr,
      `pi-question: refused the prebuilt addon ${file}: ${file} is writable by its group (mode 0775), so someone else could have replaced it; run "chmod go-w ${file}" if it is yours, or reinstall pi-question. Using ${join(pkg, "build", "Release", "pi_question.node")} instead.\n`,
    );
    // The package's folder writable by everyone: refused too.
    chmodSync(file, 0o755);
    chmodSync(dirname(file), 0o777);
    r = load(pkg);
    assert.equal(r.source.kind, "local");
    assert.match(
      r.stderr,
      new RegExp(`^pi-question: refused the prebuilt addon .+: ${dirname(file)} is writable by every user \\(mode 0777\\)`),
    );
    // Nothing else loads: the error starts with the refusal.
    rmSync(join(pkg, "build"), { recursive: true });
    r = load(pkg);
    assert.match(
      firstLine(r.error),
      /^pi-question: refused the prebuilt addon .+ Nothing else loads either; build the addon from source with "npm run build" in /,
    );
    assert.match(r.error, /Tried:\n {2}.+pi_question\.node \(refused\)/);
  },
);

test(
  "loader: a prebuilt owned by another user is refused (root's is taken: a global install made with sudo)",
  { skip: typeof process.getuid !== "function" || process.getuid() !== 0 ? "needs root to give a file to another user" : false },
  () => {
    const pkg = fakeInstall({ published: true, localBuild: true, prebuilt: "addon" });
    const file = join(dirname(pkg), packageName(hostTarget()), "pi_question.node");
    chownSync(file, 65534, 65534);
    let r = load(pkg);
    assert.equal(r.source.kind, "local");
    assert.match(
      r.stderr,
      new RegExp(`^pi-question: refused the prebuilt addon ${file}: ${file} is owned by another user \\(uid 65534; you are uid 0\\)`),
    );
    chownSync(file, 0, 0);
    chownSync(dirname(file), 65534, 65534);
    r = load(pkg);
    assert.equal(r.source.kind, "local");
    assert.match(r.stderr, /is owned by another user \(uid 65534/);
  },
);

test("loader: a prebuilt of another version is refused with both versions named, and the local build is used", () => {
  const pkg = fakeInstall({ published: true, localBuild: true });
  const file = platformPackage(dirname(pkg), "addon", { version: "0.0.0-stale" });
  const r = load(pkg);
  assert.equal(r.source.kind, "local");
  assert.equal(
    r.stderr,
    `pi-question: refused the prebuilt addon ${file}: it is version 0.0.0-stale, while pi-question is 0.0.0-test; reinstall pi-question ("npm install") so npm installs the matching ${packageName(hostTarget())}. Using ${join(pkg, "build", "Release", "pi_question.node")} instead.\n`,
  );
});

test("install step: a refused prebuilt (another version) is named and the addon is built from source", () => {
  const pkg = fakeInstall({ published: true });
  const file = platformPackage(dirname(pkg), "addon", { version: "0.0.0-stale" });
  const r = spawnSync(process.execPath, [join(pkg, "scripts", "install.mjs"), "--prefer-prebuilt"], {
    encoding: "utf8",
    env: { PATH: "/nonexistent", HOME: tmp, CC: "no-such-cc" },
  });
  assert.equal(r.status, 1, `${r.stdout}${r.stderr}`);
  assert.match(
    r.stderr,
    new RegExp(
      `^pi-question: refused the prebuilt addon ${file}: it is version 0\\.0\\.0-stale, while pi-question is 0\\.0\\.0-test;.+\\npi-question: ${packageName(hostTarget())} was refused; building the addon from source\\.\\npi-question: no C compiler found`,
    ),
  );
});

test("loader: nothing loads — one sentence for each situation", () => {
  const name = packageName(hostTarget());
  // A published package whose platform package npm skipped (--omit=optional).
  let r = load(fakeInstall({ published: true }));
  assert.match(
    firstLine(r.error),
    new RegExp(
      `^pi-question: the prebuilt addon package ${name} is not installed \\(npm skips optional dependencies with --omit=optional or --no-optional\\); reinstall pi-question with its optional dependencies, or build from source with "npm run build" in .+\\.$`,
    ),
  );
  // A checkout never built.
  r = load(fakeInstall({ published: false }));
  assert.match(firstLine(r.error), /^pi-question: the native addon is not built\. Run "npm install" in .+\.$/);
  // A prebuilt that does not load, and no local build.
  r = load(fakeInstall({ prebuilt: "broken" }));
  assert.match(
    firstLine(r.error),
    new RegExp(`^pi-question: the prebuilt addon \\(${name}\\) does not load on this machine; build it from source with "npm run build"`),
  );
  assert.match(r.error, /Tried:\n {2}.+pi_question\.node \(.+\)/);
  // Termux: Node says android, and no Linux package fits.
  r = load(fakeInstall({ published: true }), 'Object.defineProperty(process, "platform", { value: "android" });');
  assert.match(
    firstLine(r.error),
    /^pi-question: there is no prebuilt addon for Android \(Termux\); build it from source: "pkg install clang make python pkg-config cjson", then "npm run build" in .+\.$/,
  );
  // FreeBSD: named unsupported, not sent to a build that cannot compile.
  r = load(fakeInstall({ published: true }), 'Object.defineProperty(process, "platform", { value: "freebsd" });');
  assert.match(
    firstLine(r.error),
    /^pi-question: freebsd is not supported: there is no prebuilt addon for it, and the C sources are built and tested only on Linux, macOS and Windows/,
  );
  // A CPU without a prebuilt.
  r = load(fakeInstall({ published: true }), 'Object.defineProperty(process, "arch", { value: "riscv64" });');
  assert.match(
    firstLine(r.error),
    /^pi-question: there is no prebuilt addon for linux-riscv64-(gnu|musl); build it from source with "npm run build"/,
  );
});

test("install step: with a platform package that loads, `install.mjs --prefer-prebuilt` builds nothing and says which it uses", () => {
  const pkg = fakeInstall({ prebuilt: "addon" });
  const r = spawnSync(process.execPath, [join(pkg, "scripts", "install.mjs"), "--prefer-prebuilt"], {
    encoding: "utf8",
    // No compiler reachable: had it tried to build, it would say so and fail.
    env: { PATH: "/nonexistent", HOME: tmp },
  });
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  assert.equal(r.stdout.trim(), `pi-question: using the prebuilt addon ${packageName(hostTarget())}; nothing to build.`);
  assert.ok(!existsSync(join(pkg, "build")));
});

test("install step: without one, a published package says why it builds from source (here: no compiler, so it stops with that sentence); a checkout just builds", () => {
  for (const [options, why] of [
    [{ published: true }, `the prebuilt addon package ${packageName(hostTarget())} is not installed`],
    [{ published: true, prebuilt: "broken" }, `${packageName(hostTarget())} does not load here \\(`],
  ]) {
    const pkg = fakeInstall(options);
    const r = spawnSync(process.execPath, [join(pkg, "scripts", "install.mjs"), "--prefer-prebuilt"], {
      encoding: "utf8",
      env: { PATH: "/nonexistent", HOME: tmp, CC: "no-such-cc" },
    });
    assert.equal(r.status, 1, `${r.stdout}${r.stderr}`);
    assert.match(
      r.stderr,
      new RegExp(`^pi-question: ${why}.*; building the addon from source\\.\\npi-question: no C compiler found \\(no-such-cc\\)`),
    );
  }
  // A checkout (or its npm pack) says nothing about prebuilts: its one line is the build's.
  const pkg = fakeInstall({ published: false });
  const r = spawnSync(process.execPath, [join(pkg, "scripts", "install.mjs"), "--prefer-prebuilt"], {
    encoding: "utf8",
    env: { PATH: "/nonexistent", HOME: tmp, CC: "no-such-cc" },
  });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^pi-question: no C compiler found \(no-such-cc\)[^\n]*\n$/);
});

test("loader: the places pi's start looks at for an addon (index.ts addonPlaces) are the loader's, for every platform and install layout", async () => {
  const { importShim } = await import("./helpers/shim.mjs");
  const { addonPlaces } = await importShim("index.ts");
  const loaderPlaces = (root, host) => [
    ...[join(root, "build", "Release", "pi_question.node"), join(root, "build", "Debug", "pi_question.node")],
    ...platform.prebuiltFolders(root).flatMap((folder) => candidatePackages(host).map((name) => join(folder, name, "pi_question.node"))),
  ];
  for (const root of ["/home/u/src/pi-question", "/p/node_modules/pi-question", "/p/node_modules/@scope/pi-question", "/p/lib/x"]) {
    for (const host of [
      { os: "linux", cpu: "x64", libc: "gnu" },
      { os: "linux", cpu: "arm64", libc: "musl" },
      { os: "darwin", cpu: "arm64", libc: "" },
      { os: "win32", cpu: "x64", libc: "" },
    ]) {
      assert.deepEqual(
        new Set(addonPlaces(root, host.os, host.cpu, "")),
        new Set(loaderPlaces(root, host)),
        `${root} on ${targetKey(host)}`,
      );
    }
  }
  assert.deepEqual(addonPlaces("/x", "linux", "x64", "/my/build.node"), ["/my/build.node"], "PI_QUESTION_ADDON alone");
  // the loader's own list (load-addon.cjs) for this checkout: every file it may take is looked at
  const { addonCandidates } = require("../extension/load-addon.cjs");
  for (const file of addonCandidates) assert.ok(addonPlaces(packageRoot, process.platform, process.arch, "").includes(file), file);
});
