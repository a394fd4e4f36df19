// workflows.test.mjs — the GitHub workflows (.github/workflows/*.yml), which cannot run here,
// checked here: each file parses as YAML and has the shape GitHub requires (on, jobs, runs-on or
// a reusable workflow, steps each with run or uses, known keys, needs naming jobs, matrix values
// that exist); every platform package the loader knows (PREBUILT_TARGETS) is built by a job,
// uploaded as the artifact prebuilt-<target> after it is built, and tested on a runner of its
// platform (or by prebuild.mjs's emulated runs) — the very file uploaded, not one the testing job
// built itself (the macOS jobs test the darwin prebuilts built on Debian with Zig); npm test runs on every Linux and macOS runner;
// and the release, on a tag, runs CI, stages every platform package (no --partial) and publishes
// the platform packages before pi-question. Each check is also run on a broken copy of the real
// files, so each is seen to fail.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { parseDocument } from "yaml";
import { nativeRuns } from "../scripts/native-tests.mjs";
import { LOCAL_TARGETS, PREBUILT_TEST_FILES } from "../scripts/prebuild.mjs";
import { WINE_FILES } from "../scripts/wine-tests.mjs";

const require = createRequire(import.meta.url);
const { PREBUILT_TARGETS, packageName, targetKey } = require("../extension/platform-package.cjs");

const root = fileURLToPath(new URL("..", import.meta.url));
const dir = join(root, ".github", "workflows");
const KEYS = PREBUILT_TARGETS.map(targetKey);

/** The keys GitHub accepts at each level (a misspelt key is otherwise ignored or refused there). */
const WORKFLOW_KEYS = ["name", "run-name", "on", "permissions", "env", "defaults", "concurrency", "jobs"];
const JOB_KEYS = [
  "name",
  "permissions",
  "needs",
  "if",
  "runs-on",
  "environment",
  "concurrency",
  "outputs",
  "env",
  "defaults",
  "steps",
  "timeout-minutes",
  "strategy",
  "continue-on-error",
  "container",
  "services",
  "uses",
  "with",
  "secrets",
];
const STEP_KEYS = ["id", "if", "name", "uses", "run", "working-directory", "shell", "with", "env", "continue-on-error", "timeout-minutes"];
const EVENTS = ["push", "pull_request", "workflow_dispatch", "workflow_call", "schedule", "release", "pull_request_target", "merge_group"];

/** A runner label's platform, as a target's os and cpu (GitHub's hosted runners). */
export function runnerPlatform(label) {
  if (/^ubuntu-[\w.]+-arm$/.test(label)) return { os: "linux", cpu: "arm64" };
  if (/^ubuntu-(latest|\d+\.\d+)$/.test(label)) return { os: "linux", cpu: "x64" };
  if (/^macos-(13|\d+-intel)$/.test(label)) return { os: "darwin", cpu: "x64" };
  if (/^macos-(latest|1[4-9]|2\d)$/.test(label)) return { os: "darwin", cpu: "arm64" };
  if (/^windows-[\w.]+-arm$/.test(label)) return { os: "win32", cpu: "arm64" };
  if (/^windows-(latest|\d+)$/.test(label)) return { os: "win32", cpu: "x64" };
  return undefined;
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** Each combination of a job's matrix (its axes' product, then its include entries). */
function matrixRows(job) {
  const matrix = job.strategy?.matrix;
  if (matrix === undefined) return [{}];
  const { include = [], exclude, ...axes } = matrix;
  if (exclude) throw new Error("matrix exclude is not read by this check");
  let rows = [{}];
  for (const [k, values] of Object.entries(axes)) rows = rows.flatMap((r) => values.map((v) => ({ ...r, [k]: v })));
  if (!Object.keys(axes).length) rows = [];
  return [...rows, ...include.map((r) => ({ ...r }))];
}

/** `value` with ${{ matrix.x }} replaced from `row`; an unknown x is reported. */
function expand(value, row, problems, where) {
  if (typeof value === "string") {
    return value.replace(/\$\{\{\s*matrix\.([\w-]+)\s*\}\}/g, (_, k) => {
      if (!(k in row)) problems.push(`${where}: matrix.${k} is not set in every matrix row`);
      return String(row[k] ?? "");
    });
  }
  if (Array.isArray(value)) return value.map((v) => expand(v, row, problems, where));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v, row, problems, where)]));
  return value;
}

/** The commands of a run script: its lines, continuation lines joined. */
const commands = (run) =>
  run
    .replace(/\\\n/g, " ")
    .split(/\n|&&|;/)
    .map((c) => c.trim())
    .filter(Boolean);

/** What one expanded job does: the targets it builds, uploads, downloads and tests, in step order. */
function jobActions(steps) {
  const actions = [];
  steps.forEach((step, i) => {
    if (typeof step.run === "string") {
      for (const c of commands(step.run)) {
        const words = c.split(/\s+/);
        const at = words.indexOf("scripts/prebuild.mjs");
        if (words[0] === "node" && at === 1) {
          const args = words.slice(2);
          if (args[0] === "test") for (const k of args.slice(1)) actions.push({ i, kind: "test-emulated", key: k });
          else if (args[0] !== "cjson-source")
            for (const k of args.length ? args : LOCAL_TARGETS.map(targetKey)) actions.push({ i, kind: "build", key: k });
        }
        if (words[0] === "node" && words[1] === "scripts/native-tests.mjs") actions.push({ i, kind: "test-native", key: words[2] });
        if (/^npm (test|run test)$/.test(c)) actions.push({ i, kind: "npm-test" });
      }
    }
    if (typeof step.uses === "string" && /^actions\/upload-artifact@/.test(step.uses))
      actions.push({ i, kind: "upload", name: step.with?.name, path: step.with?.path });
    if (typeof step.uses === "string" && /^actions\/download-artifact@/.test(step.uses))
      actions.push({ i, kind: "download", name: step.with?.name, pattern: step.with?.pattern, path: step.with?.path });
  });
  return actions;
}

/** The workflow files as { file: text }. */
function realWorkflows() {
  return Object.fromEntries(
    readdirSync(dir)
      .filter((f) => /\.ya?ml$/.test(f))
      .sort()
      .map((f) => [f, readFileSync(join(dir, f), "utf8")]),
  );
}

/** Every problem with the workflows `files` ({ name: YAML text }); [] when all is well. */
export function workflowProblems(files) {
  const problems = [];
  const parsed = {};
  for (const [file, text] of Object.entries(files)) {
    const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
    if (doc.errors.length) {
      problems.push(`${file}: not YAML: ${doc.errors[0].message}`);
      continue;
    }
    const wf = doc.toJS();
    if (!isObject(wf)) {
      problems.push(`${file}: not a mapping`);
      continue;
    }
    parsed[file] = wf;
    for (const k of Object.keys(wf)) if (!WORKFLOW_KEYS.includes(k)) problems.push(`${file}: unknown top-level key "${k}"`);
    if (wf.on === undefined) problems.push(`${file}: no "on"`);
    const events = typeof wf.on === "string" ? [wf.on] : Array.isArray(wf.on) ? wf.on : isObject(wf.on) ? Object.keys(wf.on) : [];
    for (const e of events) if (!EVENTS.includes(e)) problems.push(`${file}: unknown event "${e}"`);
    if (!isObject(wf.jobs) || !Object.keys(wf.jobs).length) {
      problems.push(`${file}: no "jobs"`);
      continue;
    }
    for (const [id, job] of Object.entries(wf.jobs)) {
      const where = `${file}: job ${id}`;
      if (!isObject(job)) {
        problems.push(`${where}: not a mapping`);
        continue;
      }
      for (const k of Object.keys(job)) if (!JOB_KEYS.includes(k)) problems.push(`${where}: unknown key "${k}"`);
      for (const need of [].concat(job.needs ?? [])) if (!(need in wf.jobs)) problems.push(`${where}: needs "${need}", which is not a job`);
      if (job.uses !== undefined) {
        if (job.steps || job["runs-on"]) problems.push(`${where}: a reusable workflow call has no runs-on or steps`);
        const m = /^\.\/\.github\/workflows\/([\w.-]+\.ya?ml)$/.exec(job.uses);
        if (m && !(m[1] in files)) problems.push(`${where}: uses ${job.uses}, which does not exist`);
        else if (m && !/^\s*workflow_call:/m.test(files[m[1]]))
          problems.push(`${where}: uses ${job.uses}, which has no workflow_call trigger`);
        continue;
      }
      if (job["runs-on"] === undefined) problems.push(`${where}: no runs-on`);
      if (!Array.isArray(job.steps) || !job.steps.length) {
        problems.push(`${where}: no steps`);
        continue;
      }
      job.steps.forEach((step, i) => {
        const at = `${where}, step ${i + 1}`;
        if (!isObject(step)) return problems.push(`${at}: not a mapping`);
        for (const k of Object.keys(step)) if (!STEP_KEYS.includes(k)) problems.push(`${at}: unknown key "${k}"`);
        if ((step.run === undefined) === (step.uses === undefined)) problems.push(`${at}: needs exactly one of run and uses`);
        if (step.uses !== undefined && !/^(\.\/|docker:\/\/|[\w.-]+\/[\w./-]+@[\w.-]+$)/.test(step.uses))
          problems.push(`${at}: uses "${step.uses}" names no action at a version`);
        if (step.with !== undefined && step.uses === undefined) problems.push(`${at}: "with" without uses`);
        if (step.shell !== undefined && step.run === undefined) problems.push(`${at}: "shell" without run`);
      });
      for (const row of matrixRows(job)) expand(job, row, problems, where);
    }
  }

  // The jobs of CI (every workflow but the release's own publishing), each matrix row apart.
  const instances = [];
  for (const [file, wf] of Object.entries(parsed)) {
    for (const [id, job] of Object.entries(wf.jobs ?? {})) {
      if (!isObject(job) || !Array.isArray(job.steps)) continue;
      for (const row of matrixRows(job)) {
        const j = expand(job, row, [], "");
        const label = j["runs-on"];
        const name = `${file}: job ${id}${Object.keys(row).length ? ` (${Object.values(row)[0]})` : ""}`;
        instances.push({
          file,
          id,
          name,
          label,
          platform: runnerPlatform(label),
          needs: [].concat(job.needs ?? []),
          actions: jobActions(j.steps),
        });
      }
    }
  }
  for (const inst of instances)
    if (typeof inst.label === "string" && !inst.platform)
      problems.push(`${inst.name}: runs on "${inst.label}", a runner this check does not know`);

  const uploads = instances.flatMap((inst) => inst.actions.filter((a) => a.kind === "upload").map((a) => ({ ...a, inst })));
  const names = uploads.map((u) => u.name);
  for (const n of new Set(names))
    if (names.filter((x) => x === n).length > 1) problems.push(`the artifact ${n} is uploaded by more than one job`);

  for (const key of KEYS) {
    const builders = instances.filter((inst) => inst.actions.some((a) => a.kind === "build" && a.key === key));
    if (!builders.length) problems.push(`${key} (${packageName(PREBUILT_TARGETS[KEYS.indexOf(key)])}) is built by no job`);
    const upload = uploads.find((u) => u.name === `prebuilt-${key}`);
    if (!upload) problems.push(`${key} is not uploaded as the artifact prebuilt-${key}`);
    else {
      if (upload.path !== `dist/prebuilds/${key}/pi_question.node`)
        problems.push(`the artifact prebuilt-${key} uploads ${upload.path}, not dist/prebuilds/${key}/pi_question.node`);
      const built = upload.inst.actions.find((a) => a.kind === "build" && a.key === key);
      if (!built || built.i >= upload.i) problems.push(`${upload.inst.name} uploads prebuilt-${key} without building ${key} before`);
    }
    const target = PREBUILT_TARGETS[KEYS.indexOf(key)];
    const native = instances.filter((inst) => inst.actions.some((a) => a.kind === "test-native" && a.key === key));
    const emulated = instances.filter((inst) => inst.actions.some((a) => a.kind === "test-emulated" && a.key === key));
    if (!native.length && !emulated.length) problems.push(`${key} is tested by no job`);
    for (const inst of native) {
      if (inst.platform && (inst.platform.os !== target.os || inst.platform.cpu !== target.cpu))
        problems.push(`${inst.name} runs ${key}'s native tests on ${inst.label} (${inst.platform.os}-${inst.platform.cpu})`);
      const at = inst.actions.find((a) => a.kind === "test-native" && a.key === key).i;
      const built = inst.actions.some((a) => a.kind === "build" && a.key === key && a.i < at);
      const fetched = inst.actions.some(
        (a) => a.kind === "download" && a.name === `prebuilt-${key}` && a.path === `dist/prebuilds/${key}` && a.i < at,
      );
      if (!built && !fetched)
        problems.push(`${inst.name} tests ${key} without building it or downloading prebuilt-${key} into dist/prebuilds/${key} first`);
      if (built && upload && upload.inst !== inst)
        problems.push(`${inst.name} tests a ${key} it built itself, not the prebuilt-${key} that is published`);
      if (fetched && upload && !inst.needs.includes(upload.inst.id))
        problems.push(`${inst.name} downloads prebuilt-${key} without needing ${upload.inst.id}, which uploads it`);
    }
  }
  for (const platform of ["linux-x64", "linux-arm64", "darwin-arm64", "darwin-x64"]) {
    const ran = instances.some(
      (inst) => inst.platform && `${inst.platform.os}-${inst.platform.cpu}` === platform && inst.actions.some((a) => a.kind === "npm-test"),
    );
    if (!ran) problems.push(`npm test runs on no ${platform} runner`);
  }

  // The release: on a tag, CI first, then every platform package, then pi-question.
  const release = Object.entries(parsed).find(([, wf]) => isObject(wf.on) && wf.on.push?.tags);
  if (!release) problems.push("no workflow runs on a pushed tag (the release)");
  else {
    const [file, wf] = release;
    const jobs = Object.entries(wf.jobs ?? {});
    const ci = jobs.find(([, j]) => j?.uses === "./.github/workflows/ci.yml");
    if (!ci) problems.push(`${file}: no job runs ./.github/workflows/ci.yml`);
    const publish = jobs.find(([, j]) => Array.isArray(j?.steps) && j.steps.some((s) => /npm publish/.test(s.run ?? "")));
    if (!publish) problems.push(`${file}: no job runs npm publish`);
    else {
      const [id, job] = publish;
      if (ci && ![].concat(job.needs ?? []).includes(ci[0])) problems.push(`${file}: job ${id} publishes without needing ${ci[0]} (CI)`);
      if (job.permissions?.["id-token"] !== "write") problems.push(`${file}: job ${id} lacks permissions id-token: write (npm provenance)`);
      const steps = job.steps;
      const download = steps.findIndex((s) => /^actions\/download-artifact@/.test(s.uses ?? ""));
      const pattern = download >= 0 ? steps[download].with?.pattern : undefined;
      const glob = (p) =>
        new RegExp(
          `^${p
            .replace(/[.+^${}()|[\]\\]/g, "\\$&")
            .replace(/\*/g, ".*")
            .replace(/\?/g, ".")}$`,
        );
      for (const key of KEYS)
        if (!(pattern && glob(pattern).test(`prebuilt-${key}`))) problems.push(`${file}: job ${id} does not download prebuilt-${key}`);
      const stagingAt = steps.findIndex((s) => /node scripts\/packages\.mjs/.test(s.run ?? ""));
      if (stagingAt < 0) problems.push(`${file}: job ${id} does not stage with scripts/packages.mjs`);
      else {
        const staging = steps[stagingAt].run;
        if (/--partial/.test(staging))
          problems.push(`${file}: the release stages with --partial (it must refuse a missing platform package)`);
        if (stagingAt < download) problems.push(`${file}: the release stages before downloading the prebuilts`);
        const out = /--out\s+(\S+)/.exec(staging)?.[1] ?? "dist/packages";
        const publishes = [];
        steps.forEach((s, i) => {
          for (const m of (s.run ?? "").matchAll(/npm publish\s+("?)([^\s"]+)\1/g)) {
            const arg = m[2].replace(/\/$/, "");
            const kind = arg.startsWith(`${out}/pi-question-`) ? "platform" : arg === `${out}/pi-question` ? "main" : "other";
            publishes.push({ i, kind, arg, loop: /^\s*for\s+(\w+)\s+in\s+(\S+)/m.exec(s.run) });
            if (!/--provenance/.test(s.run)) problems.push(`${file}: npm publish ${arg} without --provenance`);
            if (!/secrets\.NPM_TOKEN/.test(JSON.stringify(s.env ?? {})))
              problems.push(`${file}: npm publish ${arg} without NODE_AUTH_TOKEN from secrets.NPM_TOKEN`);
            if (i < stagingAt) problems.push(`${file}: npm publish ${arg} before the staging`);
          }
        });
        // a loop variable stands for what the loop walks
        for (const p of publishes) {
          if (p.kind === "other" && p.loop && p.arg === `$${p.loop[1]}`)
            p.kind = p.loop[2].replace(/\/$/, "").startsWith(`${out}/pi-question-`)
              ? "platform"
              : p.loop[2].replace(/\/$/, "") === `${out}/pi-question`
                ? "main"
                : "other";
        }
        for (const p of publishes.filter((x) => x.kind === "other"))
          problems.push(`${file}: npm publish ${p.arg} publishes neither a staged platform package nor pi-question`);
        const mains = publishes.filter((p) => p.kind === "main");
        const platforms = publishes.filter((p) => p.kind === "platform");
        if (mains.length !== 1) problems.push(`${file}: pi-question is published ${mains.length} times`);
        if (!platforms.length) problems.push(`${file}: no platform package is published`);
        if (mains.length && platforms.some((p) => p.i >= mains[0].i))
          problems.push(
            `${file}: a platform package is published after pi-question (npm would install pi-question before its platform packages exist)`,
          );
      }
    }
  }
  return problems;
}

const real = realWorkflows();

/** The real workflows with `from` replaced by `to` in `file` (the text must be there). */
function broken(file, from, to) {
  assert.ok(real[file].includes(from), `${file} no longer contains ${JSON.stringify(from)}: update this test`);
  return { ...real, [file]: real[file].replace(from, to) };
}

test("workflows: the files parse, have GitHub's shape, build, upload and test every platform package, and publish in order", () => {
  assert.deepEqual(Object.keys(real), ["ci.yml", "release.yml"]);
  assert.deepEqual(workflowProblems(real), []);
});

test("workflows: the runners' platforms are the ones the jobs are named for", () => {
  assert.deepEqual(runnerPlatform("ubuntu-latest"), { os: "linux", cpu: "x64" });
  assert.deepEqual(runnerPlatform("ubuntu-24.04-arm"), { os: "linux", cpu: "arm64" });
  assert.deepEqual(runnerPlatform("macos-15"), { os: "darwin", cpu: "arm64" });
  assert.deepEqual(runnerPlatform("macos-15-intel"), { os: "darwin", cpu: "x64" });
  assert.deepEqual(runnerPlatform("macos-13"), { os: "darwin", cpu: "x64" });
  assert.deepEqual(runnerPlatform("windows-latest"), { os: "win32", cpu: "x64" });
  assert.equal(runnerPlatform("self-hosted"), undefined);
});

// Each check, seen to fail: [what, the broken copy, the problem it must report].
const BREAKAGES = [
  ["not YAML", () => broken("ci.yml", "jobs:\n", "jobs:\n  - [\n"), /^ci\.yml: not YAML/],
  [
    "a duplicate key",
    () => broken("ci.yml", "    name: prebuilts made on Debian\n", "    name: prebuilts made on Debian\n    name: again\n"),
    /^ci\.yml: not YAML: .*[Uu]nique/,
  ],
  ["no on", () => broken("ci.yml", "\non:\n", "\nwhen:\n"), /^ci\.yml: no "on"/m],
  ["an unknown event", () => broken("ci.yml", "  pull_request:\n", "  pull-request:\n"), /^ci\.yml: unknown event "pull-request"/],
  ["no jobs", () => broken("release.yml", "\njobs:\n", "\njobz:\n"), /^release\.yml: no "jobs"/m],
  ["no runs-on", () => broken("ci.yml", "    runs-on: windows-latest\n", ""), /^ci\.yml: job windows: no runs-on/],
  [
    "a misspelt job key",
    () => broken("ci.yml", "    runs-on: windows-latest\n", "    run-on: windows-latest\n"),
    /^ci\.yml: job windows: unknown key "run-on"/,
  ],
  [
    "a step with neither run nor uses",
    () =>
      broken(
        "ci.yml",
        "      - name: npm ci (no source build; the addon is the prebuilt)\n        run:",
        "      - name: npm ci (no source build; the addon is the prebuilt)\n        runs:",
      ),
    /^ci\.yml: job windows, step 3: unknown key "runs"[\s\S]*needs exactly one of run and uses/,
  ],
  [
    "an action without a version",
    () =>
      broken(
        "ci.yml",
        "      - uses: actions/checkout@v4\n      - uses: actions/setup-node@v4\n        with:\n          node-version: 22\n",
        "      - uses: actions/checkout\n      - uses: actions/setup-node@v4\n        with:\n          node-version: 22\n",
      ),
    /uses "actions\/checkout" names no action at a version/,
  ],
  [
    "needs naming no job",
    () => broken("ci.yml", "    name: windows win32-x64\n    needs: prebuilds\n", "    name: windows win32-x64\n    needs: prebuild\n"),
    /^ci\.yml: job windows: needs "prebuild", which is not a job/,
  ],
  [
    "an unset matrix value",
    () =>
      broken(
        "ci.yml",
        "        run: node scripts/native-tests.mjs ${{ matrix.target }}\n",
        "        run: node scripts/native-tests.mjs ${{ matrix.targets }}\n",
      ),
    /matrix\.targets is not set in every matrix row/,
  ],
  [
    "an unknown runner",
    () => broken("ci.yml", "runner: macos-15-intel", "runner: macos-intel"),
    /runs on "macos-intel", a runner this check does not know/,
  ],
  [
    "a platform package built by no job",
    () => broken("ci.yml", "linux-x64-musl win32-x64 darwin-arm64", "linux-x64-musl darwin-arm64"),
    /^win32-x64 \(pi-question-win32-x64\) is built by no job/m,
  ],
  [
    "a macOS package built by no job",
    () => broken("ci.yml", " win32-x64 darwin-arm64 darwin-x64\n", " win32-x64 darwin-arm64\n"),
    /^darwin-x64 \(pi-question-darwin-x64\) is built by no job[\s\S]*job prebuilds uploads prebuilt-darwin-x64 without building darwin-x64 before/m,
  ],
  [
    "a macOS package tested by no Mac",
    () => broken("ci.yml", "          - target: darwin-x64\n            runner: macos-15-intel\n", ""),
    /^darwin-x64 is tested by no job[\s\S]*npm test runs on no darwin-x64 runner/m,
  ],
  [
    "a Mac testing its own build, not the published one",
    () =>
      broken(
        "ci.yml",
        "      - name: The prebuilt (built on Debian with Zig) on this machine\n",
        "      - run: node scripts/prebuild.mjs ${{ matrix.target }}\n      - name: The prebuilt (built on Debian with Zig) on this machine\n",
      ),
    /job macos \(darwin-arm64\) tests a darwin-arm64 it built itself, not the prebuilt-darwin-arm64 that is published/,
  ],
  [
    "a Mac testing a prebuilt it did not download",
    () =>
      broken(
        "ci.yml",
        "          name: prebuilt-${{ matrix.target }}\n          path: dist/prebuilds/${{ matrix.target }}\n      - name: The prebuilt (built on Debian with Zig)",
        "          name: prebuilt-${{ matrix.target }}\n          path: prebuilds\n      - name: The prebuilt (built on Debian with Zig)",
      ),
    /job macos \(darwin-arm64\) tests darwin-arm64 without building it or downloading prebuilt-darwin-arm64 into dist\/prebuilds\/darwin-arm64 first/,
  ],
  [
    "a prebuilt not uploaded",
    () => broken("ci.yml", "          name: prebuilt-linux-x64-musl\n", "          name: prebuilt-linux-musl\n"),
    /^linux-x64-musl is not uploaded as the artifact prebuilt-linux-x64-musl/m,
  ],
  [
    "the wrong file uploaded",
    () =>
      broken(
        "ci.yml",
        "          path: dist/prebuilds/linux-arm64-gnu/pi_question.node\n",
        "          path: dist/prebuilds/linux-arm64-gnu/\n",
      ),
    /the artifact prebuilt-linux-arm64-gnu uploads dist\/prebuilds\/linux-arm64-gnu\/, not/,
  ],
  [
    "an upload before the build",
    () => {
      const build =
        "      - name: Build the prebuilts\n        run: node scripts/prebuild.mjs linux-x64-gnu linux-arm64-gnu linux-x64-musl win32-x64 darwin-arm64 darwin-x64\n";
      const upload = "          path: dist/prebuilds/darwin-x64/pi_question.node\n          if-no-files-found: error\n";
      return broken("ci.yml", `${build}`, "")["ci.yml"].includes(upload)
        ? { ...real, "ci.yml": broken("ci.yml", build, "")["ci.yml"].replace(upload, `${upload}${build}`) }
        : assert.fail("the darwin-x64 upload step moved: update this test");
    },
    /uploads prebuilt-linux-x64-gnu without building linux-x64-gnu before[\s\S]*uploads prebuilt-darwin-x64 without building darwin-x64 before/,
  ],
  [
    "one artifact uploaded twice",
    () => broken("ci.yml", "          name: prebuilt-linux-x64-musl\n", "          name: prebuilt-linux-x64-gnu\n"),
    /the artifact prebuilt-linux-x64-gnu is uploaded by more than one job/,
  ],
  [
    "native tests on another platform's runner",
    () => broken("ci.yml", "            runner: ubuntu-24.04-arm\n", "            runner: ubuntu-latest\n"),
    /job linux \(linux-arm64-gnu\) runs linux-arm64-gnu's native tests on ubuntu-latest \(linux-x64\)[\s\S]*npm test runs on no linux-arm64 runner/,
  ],
  [
    "a prebuilt tested by no job",
    () => broken("ci.yml", "        run: node scripts/native-tests.mjs win32-x64\n", "        run: node --version\n"),
    /^win32-x64 is tested by no job/m,
  ],
  [
    "native tests without the prebuilt",
    () =>
      broken(
        "ci.yml",
        "          name: prebuilt-win32-x64\n          path: dist/prebuilds/win32-x64\n",
        "          name: prebuilt-win32-x64\n          path: prebuilds\n",
      ),
    /job windows tests win32-x64 without building it or downloading prebuilt-win32-x64 into dist\/prebuilds\/win32-x64 first/,
  ],
  [
    "a download without needing its upload",
    () => broken("ci.yml", "    name: windows win32-x64\n    needs: prebuilds\n", "    name: windows win32-x64\n"),
    /job windows downloads prebuilt-win32-x64 without needing prebuilds, which uploads it/,
  ],
  [
    "no release",
    () => broken("release.yml", '    tags: ["v*"]\n', '    branches: ["release"]\n'),
    /^no workflow runs on a pushed tag \(the release\)$/m,
  ],
  [
    "a release without CI",
    () => broken("release.yml", "    uses: ./.github/workflows/ci.yml\n", "    uses: ./.github/workflows/cl.yml\n"),
    /uses \.\/\.github\/workflows\/cl\.yml, which does not exist[\s\S]*no job runs \.\/\.github\/workflows\/ci\.yml/,
  ],
  ["publishing without CI passing", () => broken("release.yml", "    needs: ci\n", ""), /job publish publishes without needing ci \(CI\)/],
  [
    "no provenance permission",
    () => broken("release.yml", "      id-token: write # npm's provenance statement\n", ""),
    /job publish lacks permissions id-token: write/,
  ],
  [
    "a prebuilt not downloaded",
    () => broken("release.yml", "pattern: prebuilt-*", "pattern: prebuilt-linux-*"),
    /job publish does not download prebuilt-win32-x64[\s\S]*does not download prebuilt-darwin-arm64/,
  ],
  [
    "a partial release",
    () => broken("release.yml", "node scripts/packages.mjs --out dist/packages", "node scripts/packages.mjs --partial --out dist/packages"),
    /the release stages with --partial/,
  ],
  [
    "no staging",
    () => broken("release.yml", "run: node scripts/packages.mjs --out", "run: node scripts/package.mjs --out"),
    /job publish does not stage with scripts\/packages\.mjs/,
  ],
  [
    "pi-question published first",
    () =>
      broken(
        "release.yml",
        "      - name: Publish the platform packages\n",
        "      - name: Publish pi-question\n        env:\n          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}\n        run: npm publish dist/packages/pi-question --provenance --access public\n      - name: Publish the platform packages\n",
      ),
    /pi-question is published 2 times[\s\S]*a platform package is published after pi-question/,
  ],
  [
    "pi-question published before the platform packages",
    () => {
      const files = broken(
        "release.yml",
        "      - name: Publish the platform packages\n",
        "      - name: Publish the platform packages later\n",
      );
      const text = files["release.yml"];
      const platformStep = text.slice(
        text.indexOf("      - name: Publish the platform packages later\n"),
        text.indexOf("      - name: Publish pi-question\n"),
      );
      return { ...files, "release.yml": `${text.replace(platformStep, "")}${platformStep}` };
    },
    /a platform package is published after pi-question/,
  ],
  [
    "platform packages never published",
    () => broken("release.yml", "for dir in dist/packages/pi-question-*/; do", "for dir in dist/other/*/; do"),
    /npm publish \$dir publishes neither a staged platform package nor pi-question[\s\S]*no platform package is published/,
  ],
  [
    "publishing without provenance or token",
    () =>
      broken(
        "release.yml",
        "        run: npm publish dist/packages/pi-question --provenance --access public",
        "        run: npm publish dist/packages/pi-question --access public",
      ),
    /npm publish dist\/packages\/pi-question without --provenance/,
  ],
  [
    "an unknown top-level key",
    () => broken("ci.yml", "\npermissions:\n", "\npermission:\n"),
    /^ci\.yml: unknown top-level key "permission"/m,
  ],
  [
    "with on a run step",
    () =>
      broken(
        "ci.yml",
        "        run: npm ci --ignore-scripts --no-audit --no-fund\n",
        "        run: npm ci --ignore-scripts --no-audit --no-fund\n        with:\n          x: 1\n",
      ),
    /job windows, step 3: "with" without uses/,
  ],
  [
    "shell on a uses step",
    () =>
      broken(
        "ci.yml",
        "      - uses: actions/checkout@v4\n      - uses: actions/setup-node@v4\n        with:\n          node-version: 22\n",
        "      - uses: actions/checkout@v4\n        shell: bash\n      - uses: actions/setup-node@v4\n        with:\n          node-version: 22\n",
      ),
    /job windows, step 1: "shell" without run/,
  ],
  [
    "a reusable workflow that cannot be called",
    () => broken("ci.yml", "  workflow_call:\n", ""),
    /uses \.\/\.github\/workflows\/ci\.yml, which has no workflow_call trigger/,
  ],
  [
    "a reusable workflow call with steps",
    () =>
      broken("release.yml", "    uses: ./.github/workflows/ci.yml\n", "    uses: ./.github/workflows/ci.yml\n    runs-on: ubuntu-latest\n"),
    /job ci: a reusable workflow call has no runs-on or steps/,
  ],
  [
    "publishing without the token",
    () =>
      broken(
        "release.yml",
        "      - name: Publish pi-question\n        env:\n          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}\n",
        "      - name: Publish pi-question\n        env:\n          NODE_AUTH_TOKEN: ${{ secrets.GITHUB_TOKEN }}\n",
      ),
    /npm publish dist\/packages\/pi-question without NODE_AUTH_TOKEN from secrets\.NPM_TOKEN/,
  ],
  [
    "staging before the download",
    () =>
      broken(
        "release.yml",
        "      - uses: actions/download-artifact@v4\n",
        "      - run: node scripts/packages.mjs --out dist/packages\n      - uses: actions/download-artifact@v4\n",
      ),
    /the release stages before downloading the prebuilts/,
  ],
  [
    "no npm test on macOS",
    () => broken("ci.yml", "      - name: npm test\n        run: npm test\n\n  windows:", "\n  windows:"),
    /npm test runs on no darwin-arm64 runner[\s\S]*npm test runs on no darwin-x64 runner/,
  ],
];

for (const [what, make, expected] of BREAKAGES) {
  test(`workflows: the check fails on ${what}`, () => {
    const files = make();
    if (typeof files === "function") return assert.fail("broken() did not return files");
    const problems = workflowProblems(files);
    assert.match(problems.join("\n"), expected, problems.join("\n") || "no problem reported");
  });
}

test("workflows: the files the jobs call exist", () => {
  for (const f of [
    "scripts/prebuild.mjs",
    "scripts/native-tests.mjs",
    "scripts/packages.mjs",
    "scripts/setup.mjs",
    "scripts/current-pi.mjs",
  ])
    assert.ok(existsSync(join(root, f)), f);
  for (const [file, text] of Object.entries(real))
    for (const m of text.matchAll(/\bnode (scripts\/[\w.-]+\.mjs)/g))
      assert.ok(existsSync(join(root, m[1])), `${file} runs ${m[1]}, which does not exist`);
});

test("native-tests: the smoke script and the unit tests on every platform; on Windows also the files run under Wine, with their skips", () => {
  const byKey = (k) => PREBUILT_TARGETS.find((t) => targetKey(t) === k);
  for (const key of ["linux-arm64-gnu", "darwin-arm64", "darwin-x64"]) {
    const runs = nativeRuns(byKey(key));
    assert.deepEqual(
      runs.map((r) => r.args),
      [
        ["scripts/prebuilt-smoke.mjs", byKey(key).cpu],
        ["--test", "--test-concurrency=1", ...PREBUILT_TEST_FILES],
      ],
    );
  }
  const win = nativeRuns(byKey("win32-x64"));
  assert.deepEqual(
    win.slice(2).map((r) => r.args.at(-1)),
    WINE_FILES.map((f) => f.file),
  );
  for (const [i, f] of WINE_FILES.entries()) {
    const pattern = win[i + 2].args.find((a) => a.startsWith("--test-skip-pattern="));
    if (!f.skip.length) assert.equal(pattern, undefined);
    else
      for (const s of f.skip)
        assert.ok(new RegExp(pattern.slice("--test-skip-pattern=".length)).test(s.name), `${f.file}: "${s.name}" not skipped`);
  }
  // only on the platform the prebuilt is for
  const other = KEYS.find((k) => k !== "linux-x64-gnu" && k !== "linux-x64-musl");
  const r = spawnSync(process.execPath, [join(root, "scripts", "native-tests.mjs"), other], { encoding: "utf8" });
  assert.equal(r.status, 1);
  assert.match(r.stderr, new RegExp(`^native-tests: ${other} runs only on ${other}; this machine is `));
});

// ---- the release rehearsal (scripts/rehearse.mjs) runs the Linux x64 jobs' steps ------------
const { plan, REHEARSED } = await import("../scripts/rehearse.mjs");

test("rehearsal: its plan holds every step of the Debian jobs, each `run:` exactly as the workflow says (matrix expanded)", async () => {
  const { parse } = await import("yaml");
  const ci = parse(real["ci.yml"]);
  const debianJobs = Object.entries(ci.jobs)
    .filter(([, j]) => j.container === "debian:bookworm")
    .map(([name]) => name);
  assert.deepEqual(
    REHEARSED.map((r) => r.job),
    debianJobs,
    "every job in the debian:bookworm container is rehearsed",
  );
  const jobs = await plan(real["ci.yml"]);
  for (const j of jobs) {
    const steps = ci.jobs[j.job].steps;
    assert.equal(j.steps.length, steps.length, `${j.job}: every step`);
    steps.forEach((s, i) => {
      if (s.run === undefined) return assert.equal(j.steps[i].kind, s.uses.split("@")[0].split("/")[1]);
      const want = String(s.run).replace(/\$\{\{\s*matrix\.(\w+)\s*\}\}/g, (_, k) => j.matrix[k]);
      assert.deepEqual([j.steps[i].kind, j.steps[i].run], ["run", want], `${j.job} step ${i + 1}`);
    });
  }
  const linux = jobs.find((j) => j.job === "linux");
  assert.match(linux.steps.map((s) => s.run ?? "").join("\n"), /^npm run setup -- --ci$/m, "the x64 entry's own setup line");
  assert.match(linux.steps.at(-1).run, /^npm test$/);
});

test("rehearsal: an action it cannot do, or an expression it cannot expand, stops the plan and says which", async () => {
  await assert.rejects(
    plan(broken("ci.yml", "      - uses: actions/checkout@v4\n", "      - uses: actions/checkout@v5\n")["ci.yml"]),
    /job "prebuilds": the rehearsal cannot do uses: actions\/checkout@v5/,
  );
  await assert.rejects(
    plan(broken("ci.yml", "        run: npm test\n", "        run: npm test ${{ secrets.TOKEN }}\n")["ci.yml"]),
    /cannot expand \$\{\{ secrets\.TOKEN \}\}/,
  );
  await assert.rejects(
    plan(broken("ci.yml", "    container: debian:bookworm\n", "    container: debian:trixie\n")["ci.yml"]),
    /does not run in debian:bookworm/,
  );
  await assert.rejects(
    plan(broken("ci.yml", "        run: npm test\n", "        run: npm test\n        env:\n          X: 1\n")["ci.yml"]),
    /the rehearsal cannot do env/,
  );
});
