// headless.ts — print and JSON mode (no pi TUI): answers come from the --answers flag, from
// the pending-questions file a person filled in, or from the terminal when one is reachable;
// with no terminal the questions are written to the pending file and the result tells the
// model and the person how to answer.
import type { NativeAddon } from "./native.ts";
import {
  answersFromFlag,
  completeAnswers,
  displayPath,
  forgetPending,
  pendingPath,
  questionsKey,
  readPending,
  rememberPending,
} from "./pending.ts";
import type { NormalizedQuestion, QuestionDetails } from "./schema.ts";
import { resolveLanguage, type Settings } from "./settings.ts";
import { PENDING } from "./text.ts";

export const ANSWERS_FLAG = "answers";
/** The terminal to ask on; PI_QUESTION_TTY overrides it (tests point it nowhere). */
const TTY_PATH = process.env.PI_QUESTION_TTY || "/dev/tty";

type Result = { content: Array<{ type: "text"; text: string }>; details: QuestionDetails; terminate?: boolean };

function toResult(built: { details: string; text: string }, terminate = false): Result {
  return {
    content: [{ type: "text", text: built.text }],
    details: JSON.parse(built.details) as QuestionDetails,
    ...(terminate ? { terminate: true } : {}),
  };
}

/** Tries answers: returns the result, or the reason they could not be used. */
function tryAnswers(native: NativeAddon, json: string, answers: unknown): Result | string {
  try {
    return toResult(native.result(json, "answered", "print", Date.now(), null, JSON.stringify(answers)));
  } catch (error) {
    const e = error as { code?: string; message?: string };
    return e.code === "QT_ESTATE" ? "not every question has an answer" : (e.message ?? String(error));
  }
}

function example(questions: NormalizedQuestion[]): string {
  const sample: Record<string, string> = {};
  for (const q of questions) sample[q.id] = q.options?.[0]?.label ?? "your answer";
  return JSON.stringify(sample).replace(/'/g, "'\\''");
}

/** Print and JSON mode: answers from the --answers flag, then from the pending file, then on
 * the terminal when one is reachable, else the questions are left in the pending file. */
export async function answerWithoutTui(
  native: NativeAddon,
  json: string,
  questions: NormalizedQuestion[],
  cwd: string,
  flag: unknown,
  signal: AbortSignal | undefined,
  settings: Settings,
): Promise<Result> {
  const path = pendingPath(cwd, settings.pendingFile);
  const shown = displayPath(cwd, path);
  const key = questionsKey(questions);

  const fromFlag = answersFromFlag(flag, questions);
  if (typeof fromFlag === "string") {
    process.stderr.write(`pi-question: ${fromFlag}\n`);
  } else if (fromFlag) {
    const r = tryAnswers(native, json, fromFlag);
    if (typeof r !== "string") {
      forgetPending(path, key);
      return r;
    }
    process.stderr.write(`pi-question: the --answers flag was not used: ${r}\n`);
  }

  const { file, error } = readPending(path);
  if (error) process.stderr.write(`pi-question: ${error}\n`);
  const set = file.pending.find((s) => s.key === key);
  const written = set && completeAnswers(set);
  if (written) {
    const r = tryAnswers(native, json, written);
    if (typeof r !== "string") {
      forgetPending(path, key);
      return r;
    }
    process.stderr.write(`pi-question: the answers in ${shown} were not used: ${r}\n`);
  }

  if (native.ttyAvailable(TTY_PATH)) return askOnTerminal(native, json, signal, settings);

  if (set && !written) {
    const missing = set.questions.filter((q) => !completeAnswers({ ...set, questions: [q] })).map((q) => q.id);
    process.stderr.write(`pi-question: ${PENDING.incomplete(shown, missing)}\n`);
  }
  if (!error) rememberPending(path, questions);
  process.stderr.write(PENDING.stderr(shown, example(questions)));
  return toResult(native.result(json, "unavailable", "print", Date.now(), PENDING.reason(shown, example(questions))), true);
}

/** The question on the terminal itself (print mode run from a terminal): the C engine draws on
 * /dev/tty in raw mode and never touches stdout, so `pi -p` output can still be piped. */
async function askOnTerminal(
  native: NativeAddon,
  json: string,
  signal: AbortSignal | undefined,
  settings: Settings,
): Promise<Result> {
  const run = native.runTty(json, {
    path: TTY_PATH,
    color: !process.env.NO_COLOR,
    mode: "tty",
    language: resolveLanguage(settings.language),
  });
  const stop = () => run.stop();
  signal?.addEventListener("abort", stop, { once: true });
  try {
    const built = await run.done;
    const result = toResult(built);
    return result.details.status === "cancelled" && settings.escape !== "continue" ? { ...result, terminate: true } : result;
  } finally {
    signal?.removeEventListener("abort", stop);
  }
}
