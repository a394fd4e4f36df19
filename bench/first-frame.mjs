// first-frame.mjs — what the person waits for when the model asks: from the model's call (the
// tool's prepareArguments on the arguments pi parsed, as pi's agent loop calls it) through pi's
// own argument validation and the tool's execute to the first frame of the question (the
// component's first render(width), which pi's TUI draws at its next frame: pi's frame pacing is
// pi's, not counted). Two calls: 1 question × 4 options, and the largest calls the tool accepts,
// built from the addon's limits. Also an instrumented pass that splits a call's time into the
// core's part (C), V8's (JSON.stringify/JSON.parse and the JavaScript strings made of the core's
// text), pi's validation and the rest, and, in a fresh process, the first call of a session
// (the modules the tool loads at its first call). Used by run.mjs; runs alone too:
//   node bench/first-frame.mjs [--quick]            the rows and targets
//   node bench/first-frame.mjs --first-call [name] [--after-idle]  one fresh process's first call
//                                                   (JSON), right at the session's start or after
//                                                   pi's idle time
// Works in Node and in Bun.
process.env.FORCE_COLOR ??= "3"; // as run.mjs: pi runs on a colour terminal
process.env.COLORTERM ??= "truecolor";

import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { K, OUR_EXTENSION, fakePi, importExtension, importPi, median, percentile, questionArgs, root } from "./harness.mjs";

export const FIRST_FRAME_WIDTH = 100;
/** Targets (ms): the small call within half a millisecond, the largest within one 60 Hz frame. */
export const FIRST_FRAME_TARGET_MS = { small: 0.5, largest: 16 };
/** The first question of a session, asked after pi's idle time: within one 60 Hz frame. */
export const FIRST_QUESTION_TARGET_MS = 16;
/** The call whose first question of a session is judged (the typical one). */
const FIRST_QUESTION_JUDGED = "1 × 4";
/** How long after the session starts the first question comes in the idle-time row: past the
 * extension's preparation (IDLE_PREPARE_MS after the start, then its few steps), and still far
 * less than a model takes to call the tool. */
export const FIRST_QUESTION_IDLE_MS = 1000;
const PREPARE_DELAY = "200 ms (index.ts IDLE_PREPARE_MS)";

const now = () => Number(process.hrtime.bigint()) / 1e6; // ms

/** The addon object the extension itself uses (load-addon.cjs keeps the one it loaded). */
export function extensionAddon() {
  return createRequire(import.meta.url)(join(root, "extension", "load-addon.cjs")).loadAddon();
}

// ---- the calls --------------------------------------------------------------------------------
const WORDS = "the quick brown fox jumps over the lazy dog while seven wizards quietly judge boxing matches".split(" ");
/** ASCII prose of exactly `bytes` bytes (ASCII: the most characters, so the most to lay out). */
function prose(bytes, seed = 0) {
  let s = "";
  for (let i = seed; s.length < bytes; i++) s += (s ? " " : "") + WORDS[i % WORDS.length];
  return s.slice(0, bytes).replace(/ $/, ".");
}
/** Multi-line prose of exactly `bytes` bytes, lines of about 70 characters. */
function proseLines(bytes, seed = 0) {
  return prose(bytes, seed).replace(/(.{69}) /g, "$1\n");
}
const size = (v) => Buffer.byteLength(JSON.stringify(v));

/** The calls of the first-frame rows: 1 × 4, and the largest the tool accepts (argument size,
 * question count, options per question and text lengths all at the addon's limits):
 * - "most options": every question the limit allows, the first (the one on the first frame)
 *   with the most options one question may have, the others filled round-robin with bare
 *   numbers up to the argument limit — the call whose canonical form is the largest;
 * - "longest texts": the first question with every text at its length limit (id, label,
 *   prompt; options with label, value, description and preview at theirs, as many as fit),
 *   every other question with the longest label and prompt that leave room for all of them,
 *   and the metadata's source at its limit. */
export function firstFrameCalls(limits) {
  const budget = limits.argumentBytes;
  const calls = [{ name: "1 × 4", small: true, args: questionArgs(1, 4) }];

  // most options
  const questions = [];
  for (let q = 0; q < limits.questions; q++) questions.push({ id: `q${q + 1}`, prompt: `Question ${q + 1}?`, options: [] });
  for (let o = 0; o < limits.options; o++) questions[0].options.push(o);
  let length = size({ questions });
  for (let o = 0, added = true; added && o < limits.options; o++) {
    added = false;
    for (let q = 1; q < questions.length; q++) {
      const add = String(o).length + (o ? 1 : 0);
      if (length + add > budget) break;
      questions[q].options.push(o);
      length += add;
      added = true;
    }
  }
  calls.push({ name: "largest: most options", args: { questions } });

  // longest texts
  const others = limits.questions - 1;
  const rest = (labelBytes, promptBytes) =>
    Array.from({ length: others }, (_, i) => ({
      id: `q${i + 2}`,
      label: prose(labelBytes, i),
      prompt: prose(promptBytes, i + 1),
      options: ["yes", "no"],
    }));
  const idBytes = limits.idBytes;
  const first = {
    id: `first-${"x".repeat(idBytes - 6)}`,
    label: prose(limits.labelBytes, 3),
    prompt: prose(limits.promptBytes, 5),
    options: [],
  };
  const metadata = { source: prose(limits.metadataSourceBytes, 7) };
  // Room for the other questions first: the longest label and prompt with which the first
  // question keeps its prompt and at least one option with every text at its limit.
  const fullOption = (i) => ({
    value: `${i}-${prose(limits.optionValueBytes - String(i).length - 1, i)}`,
    label: prose(limits.optionLabelBytes, i + 2),
    description: prose(limits.descriptionBytes, i + 4),
    preview: proseLines(limits.previewBytes, i + 6),
  });
  let others_ = rest(0, 1);
  for (let b = limits.labelBytes; b > 0; b--) {
    const candidate = rest(b, Math.min(limits.promptBytes, b));
    if (size({ questions: [{ ...first, options: [fullOption(0)] }, ...candidate], metadata }) <= budget) {
      others_ = candidate;
      break;
    }
  }
  const fits = () => size({ questions: [first, ...others_], metadata }) <= budget;
  for (let i = 0; first.options.length < limits.options; i++) {
    first.options.push(fullOption(i));
    if (!fits()) {
      first.options.pop();
      break;
    }
  }
  // then options without a preview (label, value and description at their limits) while they fit
  for (let i = first.options.length; first.options.length < limits.options; i++) {
    const { preview: _, ...option } = fullOption(i);
    first.options.push(option);
    if (!fits()) {
      first.options.pop();
      break;
    }
  }
  calls.push({ name: "largest: longest texts", args: { questions: [first, ...others_], metadata } });
  return calls;
}

// ---- one call, as pi makes it -------------------------------------------------------------------
/** pi's argument validation (pi-ai's validateToolArguments, as pi's agent loop calls it after
 * prepareArguments). */
export async function piValidation(tool) {
  const { validateToolArguments } = await importPi("pi-ai");
  return (prepared) => validateToolArguments({ name: tool.name, parameters: tool.parameters }, { name: tool.name, arguments: prepared });
}

/** pi's argument validation as other pi lines do it: the current line's (its pi-ai, from the
 * cache that scripts/current-pi.mjs installs; the line pi's release binary is built from) and
 * pi 1.5.2's (its pi-ai alone, from the same cache: run.mjs installs it), each where it is
 * installed here: [{ version, validate }]. */
export async function otherLinesValidation(tool) {
  const { currentLine, betweenLine } = await import("../scripts/current-pi.mjs");
  const line = currentLine();
  const between = betweenLine();
  const files = [
    { version: between.version, file: between.index },
    { version: line.piVersion, file: join(line.dir, "node_modules", line.piPackage.split("/")[0], "pi-ai", "dist", "index.js") },
  ];
  const out = [];
  for (const { version, file } of files) {
    try {
      const { validateToolArguments } = await import(pathToFileURL(file).href);
      const validate = (prepared) =>
        validateToolArguments({ name: tool.name, parameters: tool.parameters }, { name: tool.name, arguments: prepared });
      out.push({ version, validate });
    } catch {
      // that line is not installed here
    }
  }
  return out;
}

let callNumber = 0;
/** One call from the model's arguments to the first frame: prepareArguments, pi's validation,
 * execute with an interactive context whose ui.custom builds the component as pi's interactive
 * mode does (factory(tui, theme, keybindings, done), the component focused) and renders it at
 * `width`. `marks` (optional) gets the time of each step. Resolves { ms, lines } once the
 * component is closed again (Esc; untimed) and execute has returned. */
export async function firstFrameOnce(
  tool,
  validate,
  raw,
  { theme, keybindings },
  { width = FIRST_FRAME_WIDTH, marks, onFrame, cwd = root } = {},
) {
  let shown;
  const shownPromise = new Promise((resolve) => (shown = resolve));
  let done = false;
  const tui = { requestRender() {}, terminal: { rows: 40, columns: width }, setFocus() {}, stop() {}, start() {} };
  const noOp = () => undefined;
  const ctx = {
    hasUI: true,
    mode: "tui",
    cwd,
    sessionManager: { getBranch: () => [] },
    isIdle: () => true,
    ui: new Proxy(
      {
        custom: (factory) => {
          if (marks) marks.custom = now();
          return new Promise((resolve, reject) => {
            const close = (result) => {
              done = true;
              resolve(result);
            };
            Promise.resolve(factory(tui, theme, keybindings, close)).then((c) => {
              if (marks) marks.component = now();
              if (c && "focused" in c) c.focused = true; // pi-tui's TUI.setFocus
              const lines = c.render(width);
              const t = now();
              onFrame?.();
              shown({ component: c, lines, t });
            }, reject);
          });
        },
      },
      { get: (target, key) => (key in target ? target[key] : noOp) }, // setWorkingMessage, setTitle, notify …
    ),
  };
  const t0 = now();
  const prepared = tool.prepareArguments(raw);
  if (marks) marks.prepared = now();
  const args = validate(prepared);
  if (marks) marks.validated = now();
  const controller = new AbortController();
  const finished = tool.execute(`first-frame-${++callNumber}`, args, controller.signal, () => {}, ctx);
  const early = finished.then((r) => {
    throw new Error(`execute returned before showing the question: ${JSON.stringify(r).slice(0, 300)}`);
  });
  early.catch(() => {});
  const { component, lines, t } = await Promise.race([shownPromise, early]);
  if (marks) marks.frame = t;
  for (let i = 0; i < 10 && !done; i++) component.handleInput(K.esc);
  if (!done) controller.abort();
  await finished;
  return { ms: t - t0, lines, t0 };
}

// ---- the rows -----------------------------------------------------------------------------------
/** Times every call `runs` times (after `warmup` untimed calls each; the largest calls a third
 * as often: the tool keeps every call's questions in its session history, as in pi):
 * [{ name, small, bytes, canonicalBytes, questions, options, n, median, p90, max }]. `cwd`: the
 * project the questions are asked in (default this checkout). */
export async function timeFirstFrames(tool, ui, calls, { runs = 100, warmup = 10, cwd = root } = {}) {
  const validate = await piValidation(tool);
  const out = [];
  for (const call of calls) {
    const prepared = tool.prepareArguments(call.args); // the tool accepts it (throws otherwise)
    validate(prepared);
    const samples = [];
    let lines = [];
    const n = call.small ? runs : Math.ceil(runs / 3);
    for (let i = 0; i < warmup + n; i++) {
      const r = await firstFrameOnce(tool, validate, call.args, ui, { cwd });
      if (i >= warmup) samples.push(r.ms);
      lines = r.lines;
    }
    if (!lines.length) throw new Error(`${call.name}: the first frame has no lines`);
    samples.sort((a, b) => a - b);
    out.push({
      name: call.name,
      small: !!call.small,
      bytes: size(call.args),
      canonicalBytes: size(prepared),
      questions: call.args.questions.length,
      options: call.args.questions.reduce((n, q) => n + (q.options?.length ?? 0), 0),
      firstOptions: call.args.questions[0].options?.length ?? 0,
      frameLines: lines.length,
      n: samples.length,
      median: percentile(samples, 50),
      p90: percentile(samples, 90),
      max: samples.at(-1),
    });
  }
  return out;
}

// ---- what a call is made of ---------------------------------------------------------------------
/** One instrumented pass per run over a call, on a second instance of the tool (its modules
 * imported afresh) whose addon is the real one with normalize and createEngine wrapped to add up
 * their time (the addon's own properties are read-only, so the wrapper is an object whose
 * prototype is the addon, handed out by load-addon.cjs meanwhile); JSON.stringify and
 * JSON.parse (anyone's) are wrapped alike, and each step is marked. Then every normalize input
 * seen is timed again as the core alone (addon._normalizeInC: the same validation and canonical
 * text, its length returned instead of a string) and whole, so that normalize splits into the
 * core's part and V8's (the JavaScript string of the canonical text). Medians over `runs` (ms).
 * The wrappers add a little to every figure. */
export async function splitFirstFrame(ui, call, { runs = 30 } = {}) {
  const addon = extensionAddon();
  const acc = { json: 0, normalize: 0, createEngine: 0 };
  const inputs = [];
  const timed = (key, fn) =>
    function (...a) {
      const t = now();
      try {
        return fn.apply(this, a);
      } finally {
        acc[key] += now() - t;
      }
    };
  const wrapped = Object.create(addon, {
    normalize: { value: timed("normalize", (input) => (inputs.push(input), addon.normalize(input))) },
    createEngine: { value: timed("createEngine", (input) => addon.createEngine(input)) },
  });
  // The extension's modules keep the addon they were first given: a fresh instance of them,
  // with the loader handing out the wrapper until the last pass is over (the tool the other
  // rows use got the real addon long before).
  const restore = loaderGives(wrapped);
  try {
    return await splitPasses(await freshTool(), { addon, acc, inputs, timed }, ui, call, runs);
  } finally {
    restore();
  }
}

async function splitPasses(tool, { addon, acc, inputs, timed }, ui, call, runs) {
  const validate = await piValidation(tool);
  const fields = [
    "total",
    "prepare",
    "validate",
    "toCustom",
    "component",
    "render",
    "json",
    "normalize",
    "createEngine",
    "normalizeCore",
    "normalizeString",
  ];
  const per = Object.fromEntries(fields.map((f) => [f, []]));
  const original = { stringify: JSON.stringify, parse: JSON.parse };
  let normalizeCalls = 0;
  for (let i = 0; i < runs + 3; i++) {
    Object.assign(acc, { json: 0, normalize: 0, createEngine: 0 });
    inputs.length = 0;
    const marks = {};
    JSON.stringify = timed("json", original.stringify);
    JSON.parse = timed("json", original.parse);
    let r;
    try {
      // the sums are taken at the first frame: closing the question afterwards adds more
      const onFrame = () => {
        Object.assign(JSON, original);
        Object.assign(marks, {
          jsonMs: acc.json,
          normalizeMs: acc.normalize,
          createEngineMs: acc.createEngine,
          normalizeCalls: inputs.length,
        });
      };
      r = await firstFrameOnce(tool, validate, call.args, ui, { marks, onFrame });
    } finally {
      Object.assign(JSON, original);
    }
    const seen = inputs.slice(0, marks.normalizeCalls);
    let core = 0;
    let whole = 0;
    for (const input of seen) {
      core += median(Array.from({ length: 5 }, () => timeOf(() => addon._normalizeInC(input))));
      whole += median(Array.from({ length: 5 }, () => timeOf(() => addon.normalize(input))));
    }
    if (i < 3) continue; // warm-up passes
    const share = whole > 0 ? marks.normalizeMs / whole : 1; // the replay scaled to this pass's own time
    per.total.push(r.ms);
    per.prepare.push(marks.prepared - r.t0);
    per.validate.push(marks.validated - marks.prepared);
    per.toCustom.push(marks.custom - marks.validated);
    per.component.push(marks.component - marks.custom);
    per.render.push(marks.frame - marks.component);
    per.json.push(marks.jsonMs);
    per.normalize.push(marks.normalizeMs);
    per.createEngine.push(marks.createEngineMs);
    per.normalizeCore.push(core * share);
    per.normalizeString.push((whole - core) * share);
    normalizeCalls = seen.length;
  }
  const m = Object.fromEntries(fields.map((f) => [f, median(per[f])]));
  // the same call's validation as other pi lines do it, for comparison
  const others = [];
  const prepared = tool.prepareArguments(call.args);
  for (const other of await otherLinesValidation(tool)) {
    for (let i = 0; i < 3; i++) other.validate(prepared);
    others.push({
      version: other.version,
      ms: median(Array.from({ length: Math.max(5, Math.ceil(runs / 3)) }, () => timeOf(() => other.validate(prepared)))),
    });
  }
  return { ...m, normalizeCalls, runs, otherValidations: others };
}

/** Makes load-addon.cjs hand out `addon` until the returned function is called. */
function loaderGives(addon) {
  const require = createRequire(import.meta.url);
  const path = require.resolve(join(root, "extension", "load-addon.cjs"));
  require(path);
  const entry = require.cache[path];
  const real = entry.exports;
  entry.exports = { ...real, loadAddon: () => addon };
  return () => {
    entry.exports = real;
  };
}

/** A second instance of the tool, its modules imported afresh by jiti as pi does (their addon
 * not yet asked for). */
async function freshTool() {
  const { pi, registered } = fakePi();
  (await importExtension(OUR_EXTENSION))(pi);
  const tool = registered.tools.get("question");
  if (!tool) throw new Error("the factory registered no question tool");
  return tool;
}

function timeOf(fn) {
  const t = now();
  fn();
  return now() - t;
}

// ---- report -------------------------------------------------------------------------------------
/** The JavaScript engine, as the rows name it. */
const ENGINE = typeof globalThis.Bun !== "undefined" ? "JavaScriptCore" : "V8";
const ms = (v) => (v == null || Number.isNaN(v) ? "n/a" : v < 10 ? v.toFixed(3) : v.toFixed(1));
const kb = (b) => `${(b / 1000).toFixed(b < 10000 ? 1 : 0)} KB`;

/** Prints the rows, the split and the first call of a session; returns [what, ok] targets. */
export function reportFirstFrame({ rows, splits, firstCalls }, log = console.log) {
  log(
    `first frame: from the model's call (prepareArguments) through pi's validation and execute to the question's first render(${FIRST_FRAME_WIDTH}), ms, wall clock, the tool's modules already loaded (a session's second question on)`,
  );
  log(
    `${"call".padEnd(24)}${"size".padStart(9)}${"canonical".padStart(11)}${"questions".padStart(11)}${"options".padStart(9)}${"runs".padStart(6)}${"median".padStart(9)}${"p90".padStart(9)}${"max".padStart(9)}${"target".padStart(9)}`,
  );
  const targets = [];
  for (const r of rows) {
    const target = r.small ? FIRST_FRAME_TARGET_MS.small : FIRST_FRAME_TARGET_MS.largest;
    log(
      `${r.name.padEnd(24)}${kb(r.bytes).padStart(9)}${kb(r.canonicalBytes).padStart(11)}${String(r.questions).padStart(11)}${r.options.toLocaleString("en").padStart(9)}${String(r.n).padStart(6)}${ms(r.median).padStart(9)}${ms(r.p90).padStart(9)}${ms(r.max).padStart(9)}${`≤ ${target}`.padStart(9)}`,
    );
    targets.push([`first frame ≤ ${target} ms, ${r.name} (median ${ms(r.median)} ms of ${r.n})`, r.median <= target]);
  }
  for (const [name, s] of Object.entries(splits)) {
    const v8 = s.json + s.normalizeString;
    const rest = s.total - s.json - s.normalize - s.createEngine - s.validate;
    log(
      `  ${name}, one instrumented pass per run (median of ${s.runs}; the wrappers add a little): ${ms(s.total)} ms = prepareArguments ${ms(s.prepare)} + pi's validation ${ms(s.validate)} + execute up to ui.custom ${ms(s.toCustom)} + the component made ${ms(s.component)} + its first render ${ms(s.render)}`,
    );
    log(
      `    by who does the work: the core (C: addon.normalize ×${s.normalizeCalls} less its strings ${ms(s.normalizeCore)}, createEngine ${ms(s.createEngine)}) ${ms(s.normalizeCore + s.createEngine)} ms; ${ENGINE} ${ms(v8)} ms (JSON.stringify/JSON.parse ${ms(s.json)}, strings of the core's canonical text ${ms(s.normalizeString)}); pi's validation ${ms(s.validate)} ms${s.otherValidations?.length ? ` (${s.otherValidations.map((o) => `pi ${o.version}'s: ${ms(o.ms)} ms`).join(", ")})` : ""}; the rest (the extension's and pi-tui's JavaScript) ${ms(rest)} ms; all but pi's validation ${ms(s.total - s.validate)} ms`,
    );
  }
  if (firstCalls?.length) {
    const runs = firstCalls[0].runs;
    const way = (f) => `${f.name} ${ms(f.ms)} ms (pi's validation ${ms(f.validate)}, execute up to ui.custom ${ms(f.toCustom)})`;
    const asked = (idle) => firstCalls.filter((f) => Boolean(f.idle) === idle);
    log(
      `first question of a session, asked right as the session started (a fresh process each, jiti's transpile cache warm; median of ${runs} processes; not judged: the modules for asking are loaded and the width rules chosen at this question): ${asked(false).map(way).join("; ")}`,
    );
    const idle = asked(true);
    if (idle.length) {
      log(
        `first question of a session, asked after pi's idle time (${FIRST_QUESTION_IDLE_MS} ms: the extension prepared what it needs ${PREPARE_DELAY} after the session started; a model takes longer to call the tool): ${idle.map(way).join("; ")}`,
      );
      // judged for the typical question; the largest call's first question is shown: pi compiles
      // its validator for the schema and walks 25,000 options with code not yet compiled, and
      // the first large allocations of a process touch fresh memory (its steady frame is judged
      // in the rows above)
      for (const f of idle.filter((x) => x.name === FIRST_QUESTION_JUDGED)) {
        const target = FIRST_QUESTION_TARGET_MS;
        targets.push([
          `first question of a session after pi's idle time ≤ ${target} ms, ${f.name} (median ${ms(f.ms)} ms of ${runs} processes)`,
          f.ms <= target,
        ]);
      }
    }
  }
  return targets;
}

// ---- alone ----------------------------------------------------------------------------------------
async function loadOurs() {
  const { loadPiUi } = await import("./harness.mjs");
  const ui = await loadPiUi();
  const factory = await importExtension(OUR_EXTENSION);
  const { pi, registered } = fakePi();
  factory(pi);
  return { tool: registered.tools.get("question"), registered, ui };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { tool, registered, ui } = await loadOurs();
  const calls = firstFrameCalls(extensionAddon().limits);
  if (process.argv.includes("--first-call")) {
    // this process's first call: the one named (default 1 × 4)
    const name = process.argv[process.argv.indexOf("--first-call") + 1] ?? "1 × 4";
    const call = calls.find((c) => c.name === name) ?? calls[0];
    // As when pi starts a session: the session_start handlers run first (they load the
    // renderers and the asking modules, and offer the relay), untimed; session_shutdown after.
    const session = {
      hasUI: true,
      mode: "tui",
      cwd: root,
      sessionManager: { getBranch: () => [], getSessionId: () => "bench", getSessionFile: () => undefined },
      isIdle: () => true,
      ui: new Proxy({}, { get: () => () => undefined }),
    };
    const run = async (event) => {
      for (const [name, handler] of registered.handlers) if (name === event) await handler({ type: event }, session);
    };
    await run("session_start");
    // --after-idle: the question comes after pi's idle time, as a model's call does
    const idle = process.argv.includes("--after-idle");
    if (idle) await new Promise((resolve) => setTimeout(resolve, FIRST_QUESTION_IDLE_MS));
    const validation = await piValidation(tool);
    const marks = {};
    const r = await firstFrameOnce(tool, validation, call.args, ui, { marks });
    const steps = {
      prepare: marks.prepared - r.t0,
      validate: marks.validated - marks.prepared,
      toCustom: marks.custom - marks.validated,
      component: marks.component - marks.custom,
      render: marks.frame - marks.component,
    };
    process.stdout.write(`${JSON.stringify({ name: call.name, idle, ms: r.ms, ...steps })}\n`);
    await run("session_shutdown");
  } else {
    const quick = process.argv.includes("--quick");
    const rows = await timeFirstFrames(tool, ui, calls, { runs: quick ? 20 : 100 });
    const splits = {};
    for (const call of calls) splits[call.name] = await splitFirstFrame(ui, call, { runs: quick ? 10 : 30 });
    const targets = reportFirstFrame({ rows, splits });
    for (const [what, ok] of targets) console.log(`${ok ? "PASS" : "FAIL"}  ${what}`);
    process.exitCode = targets.every(([, ok]) => ok) ? 0 : 1;
  }
}
