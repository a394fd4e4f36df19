#!/usr/bin/env node
// native-tests.mjs — a prebuilt addon's tests on the machine it is made for, on this machine's
// Node: what the workflow (.github/workflows/ci.yml) runs on arm64 Linux, macOS and Windows,
// where `node scripts/prebuild.mjs test` (qemu, Bun's musl build, Wine on a Debian machine) does
// not apply.
//
//   node scripts/native-tests.mjs <target>     e.g. linux-arm64-gnu, darwin-arm64, win32-x64
//
// With PI_QUESTION_ADDON naming dist/prebuilds/<target>/pi_question.node: the smoke script
// (scripts/prebuilt-smoke.mjs) and the unit test files run against every prebuilt
// (PREBUILT_TEST_FILES: validation, answer model, keys, width, engine, editor bounds, strings);
// on Windows also the files scripts/wine-tests.mjs runs under Wine (Windows paths, the relay on
// a named pipe, remote answering, the web page, pi's RPC mode when PI_QUESTION_WINE_PI_LINE
// names a pi line), each with the tests Wine skips skipped here too, for the same reasons.
// Refuses a target that is not this machine's. Exits 1 when anything failed.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { PREBUILT_TEST_FILES, prebuiltPath, root } from "./prebuild.mjs";
import { WINE_FILES } from "./wine-tests.mjs";

const require = createRequire(import.meta.url);
const { PREBUILT_TARGETS, hostTarget, targetKey } = require("../extension/platform-package.cjs");

function log(message) {
  process.stderr.write(`native-tests: ${message}\n`);
}

/** A --test-skip-pattern matching the test names given (regex characters escaped). */
export function skipPattern(names) {
  return names.map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|");
}

/** The node runs for `target` on this machine: [{ what, args }], each `node <args>`. */
export function nativeRuns(target) {
  const runs = [
    { what: "smoke test", args: ["scripts/prebuilt-smoke.mjs", target.cpu] },
    { what: "unit tests", args: ["--test", "--test-concurrency=1", ...PREBUILT_TEST_FILES] },
  ];
  if (target.os === "win32") {
    for (const f of WINE_FILES) {
      const args = ["--test"];
      if (f.skip.length) args.push(`--test-skip-pattern=${skipPattern(f.skip.map((s) => s.name))}`);
      runs.push({ what: f.file, args: [...args, f.file], skipped: f.skip });
    }
  }
  return runs;
}

function main(argv) {
  if (argv.length !== 1) throw new Error("usage: node scripts/native-tests.mjs <target>");
  const target = PREBUILT_TARGETS.find((t) => targetKey(t) === argv[0]);
  if (!target) throw new Error(`unknown target ${argv[0]}: use one of ${PREBUILT_TARGETS.map(targetKey).join(", ")}`);
  const here = targetKey(hostTarget());
  if (targetKey(target) !== here) throw new Error(`${argv[0]} runs only on ${argv[0]}; this machine is ${here}`);
  const file = prebuiltPath(target);
  if (!existsSync(file)) throw new Error(`no prebuilt at ${file}`);
  const env = { ...process.env, PI_QUESTION_ADDON: file };
  let failed = 0;
  for (const run of nativeRuns(target)) {
    for (const s of run.skipped ?? []) log(`skipped in ${run.what}: "${s.name}" — ${s.why}`);
    log(`${run.what}: node ${run.args.join(" ")}   (Node ${process.version}, ${here}, addon ${file})`);
    const r = spawnSync(process.execPath, run.args, { cwd: root, env, stdio: "inherit" });
    const ok = r.status === 0;
    if (!ok) failed++;
    log(`${run.what}: ${ok ? "passed" : `FAILED (${r.error?.message ?? `exit ${r.status ?? r.signal}`})`}`);
  }
  return failed ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    log(error.message);
    process.exitCode = 1;
  }
}
