// project-file-child.mjs — the reader side of the project-files fuzz
// (tests/project-files-fuzz.test.mjs): loads settings.ts and pending.ts through jiti as pi does,
// then for each JSON line on stdin ({ project, home }) reads the project's settings and pending
// file, asks to save and forget a set, and prints one JSON line: the warnings, the pending file's
// error, whether anything threw, and this process's resident memory. The parent times each case.
import { createInterface } from "node:readline";
import { join } from "node:path";
import { importShim } from "./shim.mjs";

const { loadSettings } = await importShim("text/settings.ts");
const pending = await importShim("ask/pending.ts");
const Q = [{ id: "a", prompt: "a?", options: [{ value: "y", label: "Yes" }] }];

process.stdout.write("ready\n");
for await (const line of createInterface({ input: process.stdin })) {
  const { project, home } = JSON.parse(line);
  const out = { warnings: [], threw: null, pendingError: null, saved: null, foreign: [] };
  try {
    const settings = loadSettings(project, (w) => out.warnings.push(w), home);
    const path = join(project, settings.pendingFile);
    const read = pending.readPending(path, project);
    out.pendingError = read.error ?? null;
    out.refused = !!read.refused;
    for (const set of read.file.pending) out.foreign.push(pending.foreignSet(set, path, home) ?? null);
    const saved = await pending.rememberPending(project, path, Q);
    out.saved = typeof saved === "string" ? saved : "set";
    await pending.forgetPending(project, path, pending.questionsKey(Q));
  } catch (error) {
    out.threw = String(error?.stack ?? error);
  }
  out.rss = process.memoryUsage().rss;
  process.stdout.write(`${JSON.stringify(out)}\n`);
}
