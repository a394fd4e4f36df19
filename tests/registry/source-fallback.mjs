// source-fallback.mjs — pi-question from the registry on a platform with no prebuilt addon: the
// install step builds the addon from source and says so, and the extension then loads that
// build. The platform is simulated with npm's own `--cpu` setting (`--cpu=riscv64`: npm then
// takes no platform package, as on a machine none fits); the person has a toolchain and npm runs
// install scripts (the default). Also: an install with the prebuilt present runs the install
// step and builds nothing.
//
// Run once (on the devDependency's line; it is npm's behaviour, not pi's) by
// `node scripts/current-pi.mjs registry`, outside the namespace that hides cJSON: the source
// build needs it. Not part of `npm test` (not a test file name).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { freshUser, startRegistry } from "./registry.mjs";

const require = createRequire(import.meta.url);
const { hostTarget, packageName } = require("../../extension/platform-package.cjs");

const tmp = mkdtempSync(join(tmpdir(), "pi-question-fallback-"));
const INSTALL_MS = 600000;
let registry;

before(async () => {
  registry = await startRegistry(tmp);
});

after(() => {
  registry?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

function npmInstallGlobal(user, extra) {
  const r = spawnSync("npm", ["install", "-g", "pi-question", "--foreground-scripts", ...extra], {
    cwd: user.home,
    env: user.env,
    encoding: "utf8",
    timeout: INSTALL_MS,
  });
  const output = `${r.stdout ?? ""}${r.stderr ?? ""}`;
  assert.equal(r.status, 0, `npm install -g failed\n${output}`);
  return { output, dir: join(user.prefix, "lib", "node_modules", "pi-question") };
}

/** Loads the installed package's addon in a fresh Node and returns where it came from. */
function loadedSource(dir) {
  const script = `const l = require(${JSON.stringify(join(dir, "extension", "load-addon.cjs"))});
const a = l.loadAddon();
console.log(JSON.stringify({ source: l.addonSource(), limits: typeof a.limits }));`;
  const r = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

test(
  "registry: no prebuilt fits (npm --cpu=riscv64) — the install step says so, builds from source, and the extension loads that build",
  { timeout: INSTALL_MS },
  () => {
    const user = freshUser(tmp, "no-prebuilt", { registry: registry.url });
    const { output, dir } = npmInstallGlobal(user, ["--cpu=riscv64"]);
    assert.match(
      output,
      new RegExp(
        `pi-question: the prebuilt addon package ${packageName(hostTarget())} is not installed; building the addon from source\\.`,
      ),
    );
    const modules = join(user.prefix, "lib", "node_modules");
    const platformPackages = [
      ...readdirSync(modules),
      ...(existsSync(join(dir, "node_modules")) ? readdirSync(join(dir, "node_modules")) : []),
    ].filter((n) => n.startsWith("pi-question-"));
    assert.deepEqual(platformPackages, [], "npm installed a platform package for another CPU");
    assert.ok(existsSync(join(dir, "build", "Release", "pi_question.node")), `no source build in ${dir}\n${output}`);
    const { source, limits } = loadedSource(dir);
    assert.equal(source.kind, "local", JSON.stringify(source));
    assert.equal(limits, "object");
  },
);

test(
  "registry: with the prebuilt installed, the install step (scripts enabled) builds nothing and says which addon it uses",
  { timeout: INSTALL_MS },
  () => {
    const user = freshUser(tmp, "with-prebuilt", { registry: registry.url });
    const { output, dir } = npmInstallGlobal(user, []);
    assert.match(output, new RegExp(`pi-question: using the prebuilt addon ${packageName(hostTarget())}; nothing to build\\.`));
    assert.ok(!existsSync(join(dir, "build")), `something was built in ${dir}\n${output}`);
    const { source } = loadedSource(dir);
    assert.equal(source.kind, "prebuilt", JSON.stringify(source));
    assert.equal(source.name, packageName(hostTarget()));
  },
);
