// packages.test.mjs — staging a release (scripts/packages.mjs) from a throw-away checkout: a
// release needs the prebuilt of every platform package and stages nothing without one; a partial
// stage (a local registry's) lists only what is built; --repository reaches every manifest.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { prebuiltFile, stagePackages } from "../scripts/packages.mjs";

const require = createRequire(import.meta.url);
const { PREBUILT_TARGETS, packageName, targetKey } = require("../extension/platform-package.cjs");
const here = fileURLToPath(new URL("..", import.meta.url));

const tmp = mkdtempSync(join(tmpdir(), "pq-packages-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
let counter = 0;

/** A checkout with the prebuilts of `targets` (fake bytes: staging copies, never loads them) and
 * its own copy of the staging script, which stages the checkout it sits in. */
function checkout(targets) {
  const root = join(tmp, `checkout-${++counter}`);
  for (const f of ["scripts/packages.mjs", "extension/platform-package.cjs"]) {
    mkdirSync(join(root, dirname(f)), { recursive: true });
    copyFileSync(join(here, f), join(root, f));
  }
  writeFileSync(
    join(root, "package.json"),
    JSON.stringify({ name: "pi-question", version: "0.0.0-test", license: "MIT", files: ["index.js"], engines: { node: ">=20" } }),
  );
  writeFileSync(join(root, "index.js"), "export {};\n");
  writeFileSync(join(root, "LICENSE"), "MIT\n");
  for (const t of targets) {
    mkdirSync(dirname(prebuiltFile(root, t)), { recursive: true });
    writeFileSync(prebuiltFile(root, t), `addon for ${targetKey(t)}\n`);
  }
  return root;
}

const manifest = (dir) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
// the partial stage below leaves out the macOS ones (built here too, with Zig)
const debianMade = PREBUILT_TARGETS.filter((t) => t.os !== "darwin");
const macMade = PREBUILT_TARGETS.filter((t) => t.os === "darwin");

test("release: with any platform package's prebuilt missing, nothing is staged and each missing one is named with where it is made", () => {
  assert.ok(macMade.length && debianMade.length);
  const root = checkout(debianMade.slice(1));
  const out = join(root, "out");
  assert.throws(
    () => stagePackages({ root, out }),
    (error) => {
      assert.match(error.message, /^a release needs every platform package; no prebuilt addon in /);
      assert.ok(
        error.message.includes(`${targetKey(debianMade[0])} (node scripts/prebuild.mjs ${targetKey(debianMade[0])})`),
        error.message,
      );
      for (const t of macMade)
        assert.ok(error.message.includes(`${targetKey(t)} (node scripts/prebuild.mjs ${targetKey(t)})`), error.message);
      for (const t of debianMade.slice(1)) assert.ok(!error.message.includes(targetKey(t)), error.message);
      return true;
    },
  );
  assert.equal(existsSync(out), false);
  // the command says the same and fails
  const r = spawnSync(process.execPath, [join(root, "scripts", "packages.mjs"), "--out", out], { cwd: root, encoding: "utf8" });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^packages: a release needs every platform package/);
});

test("release: with every prebuilt, each platform package is staged and pi-question lists them all, at its version", () => {
  const root = checkout(PREBUILT_TARGETS);
  const staged = stagePackages({ root, out: join(root, "out"), repository: "https://github.com/someone/pi-question" });
  assert.deepEqual(staged.missing, []);
  assert.deepEqual(
    staged.platforms.map((p) => p.name),
    PREBUILT_TARGETS.map(packageName),
  );
  const main = manifest(staged.main);
  assert.deepEqual(main.optionalDependencies, Object.fromEntries(PREBUILT_TARGETS.map((t) => [packageName(t), "0.0.0-test"])));
  for (const p of staged.platforms) {
    assert.deepEqual(readdirSync(p.dir).sort(), ["LICENSE", "README.md", "package.json", "pi_question.node"]);
    assert.equal(readFileSync(join(p.dir, "pi_question.node"), "utf8"), `addon for ${targetKey(p.target)}\n`);
    assert.deepEqual(manifest(p.dir).repository, { type: "git", url: "git+https://github.com/someone/pi-question.git" });
  }
  assert.deepEqual(main.repository, { type: "git", url: "git+https://github.com/someone/pi-question.git" });
});

test("partial: only what is built is staged and listed; nothing built at all is refused", () => {
  const root = checkout(debianMade);
  const staged = stagePackages({ root, out: join(root, "out"), partial: true });
  assert.deepEqual(staged.missing, macMade.map(targetKey));
  assert.deepEqual(Object.keys(manifest(staged.main).optionalDependencies), debianMade.map(packageName));
  assert.deepEqual(readdirSync(join(root, "out")).sort(), [...debianMade.map(packageName), "pi-question"].sort());
  assert.equal(manifest(staged.main).repository, undefined);
  const r = spawnSync(process.execPath, [join(root, "scripts", "packages.mjs"), "--partial", "--out", join(root, "out2")], {
    cwd: root,
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, `packages: a partial stage, not a release: left out (not built): ${macMade.map(targetKey).join(", ")}\n`);
  // the directories to publish, platform packages first
  assert.deepEqual(r.stdout.trim().split("\n"), [
    ...debianMade.map((t) => join(root, "out2", packageName(t))),
    join(root, "out2", "pi-question"),
  ]);

  const empty = checkout([]);
  assert.throws(
    () => stagePackages({ root: empty, out: join(empty, "out"), partial: true }),
    /^Error: no prebuilt addon at all in .+: run "node scripts\/prebuild\.mjs" first$/,
  );
});

test("command line: an unknown option or a missing value is refused", () => {
  const root = checkout(PREBUILT_TARGETS);
  for (const [args, message] of [
    [["--parital"], "packages: unknown option --parital (use --out DIR, --partial, --repository URL)\n"],
    [["--out"], "packages: --out needs a value\n"],
    [["--repository"], "packages: --repository needs a value\n"],
  ]) {
    const r = spawnSync(process.execPath, [join(root, "scripts", "packages.mjs"), ...args], { cwd: root, encoding: "utf8" });
    assert.equal(r.status, 1);
    assert.equal(r.stderr, message);
  }
});
