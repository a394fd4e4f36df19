// remembered.mjs — the first frame of a 1 × 4 question in a project with no remembered answers
// against one with 10,000 (the person's file, ~/.pi/agent/question-answers/<project>.jsonl, the
// question's own answer the newest): the file is read once per change and looked up by key, so
// a question costs one stat and one Map lookup more; the first question after the file changed
// reads and parses it once (timed apart, "after a change"). A HOME and a project of its own,
// removed after. Used by run.mjs; runs alone too:
//   node bench/remembered.mjs [--quick]
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { firstFrameOnce, piValidation, timeFirstFrames } from "./first-frame.mjs";
import { median, piAliases, questionArgs } from "./harness.mjs";

export const REMEMBERED_COUNT = 10000;

/** memory.ts itself (its key and paths), loaded as the tool loads it. */
async function memoryModule() {
  const { createJiti } = await import("jiti/static");
  const jiti = createJiti(import.meta.url, { moduleCache: false, alias: piAliases(), tryNative: false });
  return jiti.import(join(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..", "extension", "ask", "memory.ts"));
}

/** The details of the person's answer `i` to the question `q` (option i mod n), as the core
 * builds them for a result. */
function personsAnswer(q, i) {
  const index = i % q.options.length;
  const options = q.options.map((o) => ({ value: o.value, label: o.label }));
  return {
    status: "answered",
    mode: "interactive",
    questions: [{ id: q.id, prompt: q.prompt, options }],
    answers: [{ id: q.id, index, value: options[index].value, label: options[index].label, wasCustom: false }],
  };
}

/** Rows: none, 10,000 (the file unchanged since read), and after a change (each run touches the
 * file first, so it is read and parsed again). */
export async function rememberedFirstFrames(tool, ui, { runs = 100 } = {}) {
  const memory = await memoryModule();
  const home = mkdtempSync(join(tmpdir(), "pq-bench-remembered-home-"));
  const savedHome = process.env.HOME;
  process.env.HOME = home;
  const call = { name: "1 × 4", small: true, args: questionArgs(1, 4) };
  try {
    const none = mkdtempSync(join(tmpdir(), "pq-bench-remembered-none-"));
    const many = mkdtempSync(join(tmpdir(), "pq-bench-remembered-many-"));
    const paths = memory.memoryPaths(many);
    mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
    const q = call.args.questions[0];
    const labels = q.options.map((o) => o.label);
    const lines = [];
    for (let i = 0; i < REMEMBERED_COUNT - 1; i++) {
      const prompt = `Remembered question number ${i}: which of these should the service use?`;
      lines.push(
        JSON.stringify({
          id: `b${i}`,
          at: "2026-11-20T10:00:00.000Z",
          by: "pi",
          prompt,
          options: labels,
          answer: { selected: [labels[i % labels.length]] },
          key: memory.normalizedKey({ prompt, options: labels }),
        }),
      );
    }
    lines.push(
      JSON.stringify({
        id: "this",
        at: "2026-11-21T10:00:00.000Z",
        by: "pi",
        prompt: q.prompt,
        options: labels,
        answer: { selected: [labels[1]] },
        key: memory.normalizedKey({ prompt: q.prompt, options: labels }),
      }),
    );
    writeFileSync(paths.jsonl, `${lines.join("\n")}\n`, { mode: 0o600 });
    const fileBytes = Buffer.byteLength(lines.join("\n")) + 1;
    const [plain] = await timeFirstFrames(tool, ui, [call], { runs, cwd: none });
    const [remembered] = await timeFirstFrames(tool, ui, [call], { runs, cwd: many });
    if (!remembered || !remembered.frameLines) throw new Error("no frame with 10,000 remembered answers");
    // the frame shows the remembered answer: the lookup really happened
    const validate = await piValidation(tool);
    const shown = await firstFrameOnce(tool, validate, call.args, ui, { cwd: many });
    if (!shown.lines.join("\n").includes("Enter keeps it")) throw new Error("the 10,000-answer project's question did not open remembered");
    const changed = [];
    const n = Math.max(5, Math.ceil(runs / 5));
    for (let i = 0; i < n; i++) {
      const t = new Date(Date.now() + (i + 1) * 1000);
      utimesSync(paths.jsonl, t, t); // changed: read and parsed again at the next question
      changed.push((await firstFrameOnce(tool, validate, call.args, ui, { cwd: many })).ms);
    }
    // An answer remembered: with none against with 10,000 (each run a new answer to the 1 × 4
    // question, as a person answering it again; the first of each untimed: it reads the file).
    const writes = {};
    for (const [name, cwd] of [
      ["none", none],
      ["many", many],
    ]) {
      const times = [];
      for (let i = 0; i <= runs; i++) {
        const answered = personsAnswer(q, i);
        const t0 = performance.now();
        const why = await memory.rememberAnswers(cwd, answered, "pi");
        const t = performance.now() - t0;
        if (why) throw new Error(`the answer was not remembered: ${why}`);
        if (i > 0) times.push(t);
      }
      writes[name] = median(times);
    }
    rmSync(none, { recursive: true, force: true });
    rmSync(many, { recursive: true, force: true });
    return { plain, remembered, changed: median(changed), changedRuns: n, fileBytes, writes, writeRuns: runs };
  } finally {
    process.env.HOME = savedHome;
    rmSync(home, { recursive: true, force: true });
  }
}

const ms = (v) => (v < 10 ? v.toFixed(3) : v.toFixed(1));

/** The most the 10,000 answers may add to the first frame's median (ms): a stat and a lookup. */
export const REMEMBERED_EXTRA_MS = 0.5;

/** Prints the rows; returns [what, ok] targets: 10,000 remembered answers add at most
 * REMEMBERED_EXTRA_MS to the first frame of a question asked without any. */
export function reportRemembered({ plain, remembered, changed, changedRuns, fileBytes, writes, writeRuns }, log = console.log) {
  log(
    `first frame of a 1 × 4 question with remembered answers (the person's file for the project; ms, median of ${plain.n}): none ${ms(plain.median)} (p90 ${ms(plain.p90)}); ${REMEMBERED_COUNT.toLocaleString("en")} (${(fileBytes / 1e6).toFixed(1)} MB, unchanged since read) ${ms(remembered.median)} (p90 ${ms(remembered.p90)}); the first question after the file changed by hand or by another pi (read and parsed again; median of ${changedRuns}, not judged) ${ms(changed)}`,
  );
  log(
    `an answer remembered (rememberAnswers: both files, under their lock; ms, median of ${writeRuns}): none remembered before ${ms(writes.none)}; ${REMEMBERED_COUNT.toLocaleString("en")} ${ms(writes.many)}`,
  );
  const extra = remembered.median - plain.median;
  return [
    [
      `an answer remembered with ${REMEMBERED_COUNT.toLocaleString("en")} remembered ≤ ${REMEMBERED_EXTRA_MS} ms more than with none (${ms(writes.many)} vs ${ms(writes.none)} ms)`,
      writes.many - writes.none <= REMEMBERED_EXTRA_MS,
    ],
    [
      `first frame, 1 × 4 with ${REMEMBERED_COUNT.toLocaleString("en")} remembered answers ≤ ${REMEMBERED_EXTRA_MS} ms more than with none (${ms(remembered.median)} vs ${ms(plain.median)} ms)`,
      extra <= REMEMBERED_EXTRA_MS,
    ],
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { fakePi, importExtension, loadPiUi, OUR_EXTENSION } = await import("./harness.mjs");
  const ui = await loadPiUi();
  const factory = await importExtension(OUR_EXTENSION);
  const { pi, registered } = fakePi();
  factory(pi);
  const rows = await rememberedFirstFrames(registered.tools.get("question"), ui, { runs: process.argv.includes("--quick") ? 20 : 100 });
  const targets = reportRemembered(rows);
  for (const [what, ok] of targets) console.log(`${ok ? "PASS" : "FAIL"} ${what}`);
  process.exitCode = targets.every(([, ok]) => ok) ? 0 : 1;
}
