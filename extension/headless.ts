// headless.ts — print and JSON mode without a terminal: answers come from the --answers flag
// or from the pending-questions file a person filled in; otherwise the questions are written
// there and the result tells the model and the person how to answer.
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
import { PENDING } from "./text.ts";

export const ANSWERS_FLAG = "answers";

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

export function answerWithoutTerminal(
  native: NativeAddon,
  json: string,
  questions: NormalizedQuestion[],
  cwd: string,
  flag: unknown,
): Result {
  const path = pendingPath(cwd);
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
  if (set) {
    const written = completeAnswers(set);
    if (written) {
      const r = tryAnswers(native, json, written);
      if (typeof r !== "string") {
        forgetPending(path, key);
        return r;
      }
      process.stderr.write(`pi-question: the answers in ${shown} were not used: ${r}\n`);
    } else {
      const missing = set.questions.filter((q) => !completeAnswers({ ...set, questions: [q] })).map((q) => q.id);
      process.stderr.write(`pi-question: ${PENDING.incomplete(shown, missing)}\n`);
    }
  }

  if (!error) rememberPending(path, questions);
  process.stderr.write(PENDING.stderr(shown, example(questions)));
  return toResult(native.result(json, "unavailable", "print", Date.now(), PENDING.reason(shown, example(questions))), true);
}
