#!/usr/bin/env node
// packages.mjs — the npm packages a release publishes, staged from a checkout into one directory:
//
//   <out>/pi-question-<os>-<cpu>[-<libc>]/   one per prebuilt addon (scripts/prebuild.mjs built
//       it into dist/prebuilds/<key>/): the addon, a package.json whose `os`, `cpu` and `libc`
//       fields let npm install it only where it fits, a README and the licence;
//   <out>/pi-question/                        the main package exactly as `npm pack` publishes
//       it, its package.json given `optionalDependencies` naming every platform package at the
//       same version (a checkout's package.json lists none: they are not on the registry while
//       one develops, and `npm ci` would fail on them).
//
//   node scripts/packages.mjs [--out DIR] [--partial] [--repository URL]
//
// Two modes:
//   release (the default): every target of extension/platform-package.cjs must have its
//       prebuilt in dist/prebuilds/ — all made on Debian by node scripts/prebuild.mjs (the macOS
//       ones with Zig; the workflow's macOS jobs test those very files; release.yml gathers them
//       all). A missing one stops the staging with nothing staged, naming each missing target and
//       how it is made: a release must not list a package it does not publish, nor leave a
//       platform without its package.
//   --partial: stages the prebuilts that are built and lists only those in optionalDependencies;
//       the others are named on stderr. For trying a release on one machine (the registry test
//       publishes such a stage to a local registry); never for publishing to npm.
// --repository URL: the repository field of every staged package.json (npm's provenance
// statement must name the repository the workflow runs in).
//
// Publishing is `npm publish` of each platform directory, then of pi-question.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const { PREBUILT_TARGETS, packageName, targetKey } = require("../extension/platform-package.cjs");

const here = join(dirname(fileURLToPath(import.meta.url)), "..");
const ADDON_FILE = "pi_question.node";

/** Where scripts/prebuild.mjs puts the addon of `target` in checkout `root`. */
export function prebuiltFile(root, target) {
  return join(root, "dist", "prebuilds", targetKey(target), ADDON_FILE);
}

/** npm's names for the C libraries (its `libc` field), from ours. */
const NPM_LIBC = { gnu: "glibc", musl: "musl" };

/** The package.json of the platform package for `target`, beside main package `main`. */
export function platformManifest(main, target) {
  const manifest = {
    name: packageName(target),
    version: main.version,
    description: `The prebuilt native addon of pi-question for ${targetKey(target)}. npm installs it as an optional dependency of pi-question; it is not used on its own.`,
    license: main.license,
    os: [target.os],
    cpu: [target.cpu],
  };
  if (target.libc) manifest.libc = [NPM_LIBC[target.libc]];
  Object.assign(manifest, {
    main: ADDON_FILE,
    files: [ADDON_FILE],
    engines: main.engines,
    preferUnplugged: true,
  });
  if (main.repository) manifest.repository = main.repository;
  return manifest;
}

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (r.status !== 0)
    throw new Error(`${cmd} ${args.join(" ")} failed in ${cwd} (${r.error?.message ?? `exit ${r.status}`})\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

/**
 * Stages the packages of checkout `root` into `out` (emptied first). Returns
 * { main: dir, platforms: [{ name, dir, target }], missing: [key] }.
 */
export function stagePackages({ root = here, out = join(root, "dist", "packages"), partial = false, repository } = {}) {
  const main = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  if (repository) main.repository = { type: "git", url: `git+${repository.replace(/\.git$/, "")}.git` };
  const built = PREBUILT_TARGETS.filter((t) => existsSync(prebuiltFile(root, t)));
  const missing = PREBUILT_TARGETS.filter((t) => !built.includes(t)).map(targetKey);
  const prebuilds = join(root, "dist", "prebuilds");
  if (missing.length && !partial) {
    const where = (key) => `${key} (node scripts/prebuild.mjs ${key})`;
    throw new Error(
      `a release needs every platform package; no prebuilt addon in ${prebuilds} for ${missing.map(where).join(", ")}. Nothing was staged (pass --partial to stage only what is built, for a local registry)`,
    );
  }
  if (!built.length) throw new Error(`no prebuilt addon at all in ${prebuilds}: run "node scripts/prebuild.mjs" first`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });

  const platforms = built.map((target) => {
    const name = packageName(target);
    const dir = join(out, name);
    mkdirSync(dir);
    copyFileSync(prebuiltFile(root, target), join(dir, ADDON_FILE));
    writeFileSync(join(dir, "package.json"), `${JSON.stringify(platformManifest(main, target), null, 2)}\n`);
    writeFileSync(
      join(dir, "README.md"),
      `# ${name}\n\nThe prebuilt native addon (Node-API 8, cJSON linked in) of [pi-question](https://www.npmjs.com/package/pi-question) for ${targetKey(target)}.\nnpm installs it with pi-question where it fits; install pi-question, not this.\n`,
    );
    if (existsSync(join(root, "LICENSE"))) copyFileSync(join(root, "LICENSE"), join(dir, "LICENSE"));
    return { name, dir, target };
  });

  // The main package: what `npm pack` takes from the checkout (its `files`), unpacked.
  const packDir = join(out, ".pack");
  mkdirSync(packDir);
  const tgz = run("npm", ["pack", "--ignore-scripts", "--pack-destination", packDir, "--loglevel=error"], root)
    .trim()
    .split("\n")
    .pop()
    .trim();
  run("tar", ["-xzf", join(packDir, tgz), "-C", packDir], root);
  const mainDir = join(out, main.name);
  run("mv", [join(packDir, "package"), mainDir], root);
  rmSync(packDir, { recursive: true, force: true });
  const staged = JSON.parse(readFileSync(join(mainDir, "package.json"), "utf8"));
  if (main.repository) staged.repository = main.repository;
  staged.optionalDependencies = Object.fromEntries(platforms.map((p) => [p.name, main.version]));
  writeFileSync(join(mainDir, "package.json"), `${JSON.stringify(staged, null, 2)}\n`);
  return { main: mainDir, platforms, missing };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const argv = process.argv.slice(2);
  const value = (flag) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  try {
    const unknown = argv.filter(
      (a, i) =>
        a.startsWith("-") && !["--out", "--partial", "--repository"].includes(a) && !["--out", "--repository"].includes(argv[i - 1]),
    );
    if (unknown.length) throw new Error(`unknown option ${unknown[0]} (use --out DIR, --partial, --repository URL)`);
    for (const flag of ["--out", "--repository"]) if (argv.includes(flag) && !value(flag)) throw new Error(`${flag} needs a value`);
    const out = value("--out");
    const staged = stagePackages({
      out: out ? resolve(out) : undefined,
      partial: argv.includes("--partial"),
      repository: value("--repository"),
    });
    for (const p of staged.platforms) console.log(p.dir);
    console.log(staged.main);
    if (staged.missing.length)
      console.error(`packages: a partial stage, not a release: left out (not built): ${staged.missing.join(", ")}`);
  } catch (error) {
    console.error(`packages: ${error.message}`);
    process.exitCode = 1;
  }
}
