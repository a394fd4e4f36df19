#!/usr/bin/env node
// pi-binary.mjs — pi's release binary (what many pi users run: pi compiled with
// `bun build --compile`, no Node on the machine), built from the current pi line's npm package
// the way pi's own `build:binary` script builds it, into the cache:
//
//   node scripts/pi-binary.mjs                  build (idempotent) and print where it is
//   node scripts/pi-binary.mjs e2e [files…]     … then run every tests/e2e-*.test.mjs (or the
//                                               files named) with PI_LINE=binary
//                                               (tests/helpers/pi-line.mjs)
//
// pi's script (packages/coding-agent in pi's repository) runs
//   bun build --compile --no-compile-autoload-bunfig --no-compile-autoload-dotenv
//     ./dist/bun/cli.js ./src/utils/image-resize-worker.ts ./src/extensions/codemode/worker.ts
//     --outfile dist/pi
// and then copy-binary-assets puts package.json, README.md, CHANGELOG.md, docs/, examples/,
// photon's wasm, the themes, the interactive assets and the HTML export template beside the
// binary, where the compiled pi looks for them (dirname(process.execPath)).
//
// The npm package ships the compiled dist/ but not src/. The worker entries stay under the
// names pi's script gives them, because the compiled pi starts its workers by those strings
// (`new Worker("./src/utils/image-resize-worker.ts")`): each is a one-line shim importing the
// dist .js file it was compiled to. The build runs in a scratch copy of the package (never in
// the installed current line: a src/ directory there would make the Node pi look for its themes
// under src/), with the line's node_modules beside it for the imports.
//
// Cache: cacheRoot()/pi-binary-<pi version>-bun-<bun version>/ (scripts/current-pi.mjs), with a
// stamp of what was built and by which recipe (this file): a second run builds nothing.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { REPORTER_ARGS } from "./test-failures-reporter.mjs";
import { BUN, CURRENT, cacheRoot, e2eSuites, ensureBun, ensureCurrentLine } from "./current-pi.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const self = fileURLToPath(import.meta.url);

function log(message) {
  process.stderr.write(`pi-binary: ${message}\n`);
}

/** Where the binary of the current pi line is (or will be) built, and what it reports. */
export function piBinary() {
  const dir = join(cacheRoot(), `pi-binary-${CURRENT.pi.version}-bun-${BUN.version}`);
  return {
    dir,
    bin: join(dir, "pi"),
    stamp: join(dir, ".built"),
    /** Written with the stamp: { piVersion, bunVersion, nodeVersion (what Bun reports as process.version) }. */
    meta: join(dir, "built.json"),
    piPackage: CURRENT.pi.name,
    piVersion: CURRENT.pi.version,
    bunVersion: BUN.version,
  };
}

/** The worker entries pi's build:binary script compiles in beside dist/bun/cli.js. */
function workerEntries(piPkg) {
  const script = piPkg.scripts?.["build:binary"];
  if (!script) throw new Error(`${piPkg.name} ${piPkg.version} has no build:binary script to follow`);
  const compile = script
    .split("&&")
    .map((s) => s.trim())
    .find((s) => s.startsWith("bun build --compile"));
  if (!compile) throw new Error(`${piPkg.name}'s build:binary runs no \`bun build --compile\`: ${script}`);
  const words = compile.split(/\s+/);
  if (!words.includes("./dist/bun/cli.js")) throw new Error(`${piPkg.name}'s build:binary does not compile ./dist/bun/cli.js: ${compile}`);
  return words.filter((w) => w.startsWith("./src/"));
}

/** The dist/ file a src/ entry of pi's source tree was compiled to. */
function distOf(entry) {
  return entry.replace(/^\.\/src\//, "dist/").replace(/\.ts$/, ".js");
}

/** What is copied beside the binary: [from (in the line), to (in the binary's dir)]. */
function assets(line) {
  const p = (...parts) => join(line.piDir, ...parts);
  const list = [
    [p("package.json"), "package.json"],
    [p("README.md"), "README.md"],
    [p("CHANGELOG.md"), "CHANGELOG.md"],
    [p("docs"), "docs"],
    [p("examples"), "examples"],
    [join(line.dir, "node_modules", "@silvia-odwyer", "photon-node", "photon_rs_bg.wasm"), "photon_rs_bg.wasm"],
  ];
  const glob = (dir, ext, to) => {
    for (const f of readdirSync(dir)
      .filter((n) => n.endsWith(ext))
      .sort())
      list.push([join(dir, f), join(to, f)]);
  };
  glob(p("dist", "modes", "interactive", "theme"), ".json", "theme");
  glob(p("dist", "modes", "interactive", "assets"), ".png", "assets");
  // pi's script copies template.html only; the export reads template.css and template.js from
  // the same directory too, so all three go.
  for (const f of ["template.html", "template.css", "template.js"])
    list.push([p("dist", "core", "export-html", f), join("export-html", f)]);
  glob(p("dist", "core", "export-html", "vendor"), ".js", join("export-html", "vendor"));
  return list;
}

/** Builds the binary unless the same one is built already; returns { bin, dir, piVersion, bunVersion }. */
export function ensurePiBinary() {
  const line = ensureCurrentLine();
  const bun = ensureBun();
  const { dir, bin, stamp, meta } = piBinary();
  if (line.piVersion !== CURRENT.pi.version || bun.version !== BUN.version)
    throw new Error("the current line or Bun is not the one pinned");
  const piPkg = JSON.parse(readFileSync(join(line.piDir, "package.json"), "utf8"));
  const workers = workerEntries(piPkg);
  const recipe = `${JSON.stringify(
    {
      pi: `${line.piPackage}@${line.piVersion}`,
      bun: bun.version,
      workers,
      recipe: createHash("sha256").update(readFileSync(self)).digest("hex"),
    },
    null,
    2,
  )}\n`;
  const result = { bin, dir, piVersion: line.piVersion, bunVersion: bun.version };
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === recipe && existsSync(bin) && existsSync(meta)) {
    check(result);
    return result;
  }

  log(`building pi ${line.piVersion} with Bun ${bun.version} into ${dir}`);
  const started = Date.now();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // The scratch copy: the package's dist/ and package.json, the worker shims under src/, and the
  // line's node_modules one level up for the imports.
  const scratch = mkdtempSync(join(tmpdir(), "pi-question-pi-binary-"));
  try {
    const pkgDir = join(scratch, "pi-coding-agent");
    cpSync(join(line.piDir, "dist"), join(pkgDir, "dist"), { recursive: true });
    cpSync(join(line.piDir, "package.json"), join(pkgDir, "package.json"));
    symlinkSync(join(line.dir, "node_modules"), join(scratch, "node_modules"));
    for (const entry of workers) {
      const dist = distOf(entry);
      if (!existsSync(join(pkgDir, dist))) throw new Error(`pi's build:binary names ${entry}, but the npm package has no ${dist}`);
      const shim = join(pkgDir, entry);
      mkdirSync(dirname(shim), { recursive: true });
      writeFileSync(
        shim,
        `// The npm package ships no src/: this entry is ${dist}, compiled.\nimport ${JSON.stringify(relative(dirname(shim), join(pkgDir, dist)))};\n`,
      );
      log(`shim ${entry} → ${dist}`);
    }
    const args = [
      "build",
      "--compile",
      "--no-compile-autoload-bunfig",
      "--no-compile-autoload-dotenv",
      "./dist/bun/cli.js",
      ...workers,
      "--outfile",
      bin,
    ];
    log(`bun ${args.join(" ")}   (in a copy of ${line.piDir})`);
    const r = spawnSync(bun.bun, args, { cwd: pkgDir, stdio: ["ignore", "inherit", "inherit"] });
    if (r.status !== 0) throw new Error(`bun build --compile failed (${r.error?.message ?? `exit ${r.status}`})`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  for (const [from, to] of assets(line)) {
    if (!existsSync(from)) throw new Error(`pi's binary needs ${to} beside it, but ${from} does not exist`);
    mkdirSync(dirname(join(dir, to)), { recursive: true });
    cpSync(from, join(dir, to), { recursive: true });
  }
  check(result);
  // The Node version Bun presents (process.version inside the binary), for tests that record it.
  const v = spawnSync(bun.bun, ["-e", "process.stdout.write(process.version)"], { encoding: "utf8" });
  if (v.status !== 0 || !/^v\d+\./.test(v.stdout)) throw new Error(`${bun.bun} does not report a Node version (${v.stderr})`);
  writeFileSync(meta, `${JSON.stringify({ piVersion: line.piVersion, bunVersion: bun.version, nodeVersion: v.stdout }, null, 2)}\n`);
  writeFileSync(stamp, recipe);
  log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

/** The binary runs, on its own (no Node in PATH), and says it is the pi it was built from. */
function check({ bin, piVersion }) {
  const home = mkdtempSync(join(tmpdir(), "pi-question-pi-binary-home-"));
  try {
    const env = { HOME: home, PATH: "/usr/bin:/bin", PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", TERM: "dumb" };
    const r = spawnSync(bin, ["--version"], { cwd: home, env, encoding: "utf8", timeout: 60000 });
    const out = `${r.stdout ?? ""}${r.stderr ?? ""}`.trim();
    if (r.status !== 0 || out.split("\n").pop().trim() !== piVersion) {
      throw new Error(`${bin} --version did not print ${piVersion} (${r.error?.message ?? `exit ${r.status}: ${out}`})`);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function main(argv) {
  const what = argv[0] ?? "build";
  if (!["build", "e2e"].includes(what)) {
    log(`unknown command ${what}: use build (the default) or e2e [files…]`);
    return 2;
  }
  const started = Date.now();
  const b = ensurePiBinary();
  log(`pi ${b.piVersion} compiled with Bun ${b.bunVersion}: ${b.bin} (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (what !== "e2e") return 0;
  // Files named after `e2e` are run instead of every suite; options (--test-name-pattern=…) go
  // to node --test either way.
  const extra = argv.slice(1);
  const named = extra.filter((a) => !a.startsWith("-"));
  const args = [
    "--test",
    "--test-concurrency=2",
    ...REPORTER_ARGS,
    ...extra.filter((a) => a.startsWith("-")),
    ...(named.length ? named : e2eSuites()),
  ];
  log(`PI_LINE=binary node ${args.join(" ")}`);
  const t = Date.now();
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit", env: { ...process.env, PI_LINE: "binary" } });
  log(`finished in ${((Date.now() - t) / 1000).toFixed(0)} s (exit ${r.status})`);
  return r.status ?? 1;
}

if (process.argv[1] && self === process.argv[1]) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    log(error.message);
    process.exitCode = 1;
  }
}
