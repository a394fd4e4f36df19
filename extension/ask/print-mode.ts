// print-mode.ts — print and JSON mode (no pi TUI): answers come from the --answers flag, from
// the pending-questions file a person filled in, or from the terminal when one is reachable;
// with no terminal the questions are written to the pending file and the result tells the
// model and the person how to answer.
import { addon } from "../addon.ts";
import type { RunnerClaim } from "../board/board.ts";
import { desktopNotice } from "../text/desktop.ts";
import { strings } from "../text/i18n.ts";
import { type ArgsJson, CANCEL_CONTINUES, terminalReachable, TTY_PATH, type Typed } from "../addon-types.ts";
import {
  answeredBeforeThisRun,
  noteAnswersBeforeRun,
  answersFromFlag,
  completeAnswers,
  displayPath,
  foreignSet,
  forgetPending,
  pendingPath,
  type PendingSet,
  questionsKey,
  readPending,
  rememberPending,
} from "./pending.ts";
import { escapeFlags, type QuestionResult, secretRefusal, toToolResult } from "../board/result.ts";
import { type NormalizedQuestion, optionLabel } from "../question-types.ts";
import { print } from "../text/screen.ts";
import { accessibleMode, resolveLanguage, type Settings } from "../text/settings.ts";
import { PENDING, SECRET } from "../text/text.ts";

export { terminalReachable, TTY_PATH } from "../addon-types.ts";
/** The code runTty's promise rejects with when another program owns the terminal. */
const TTY_OWNED = "QT_ETTYOWNED";

type Result = QuestionResult;

/** Claim at the key with the terminal runner: the runner's claim is handed to the board while the
 * runner shows the question (board.ts RunnerClaim), and taken back once it no longer does. */
export type ClaimAtKey = (claim: RunnerClaim | undefined) => void;

/** The --answers flag as the asker holds it: it answers one call per run, the first it fits, so
 * `read` gives nothing once `use` was called. */
export interface AnswersFlag {
  read(): unknown;
  use(): void;
}

/** Tries answers: returns the result, or the reason they could not be used. */
/** The result of `answers`; `file`: they come from the pending file of that name (mode
 * "pending": the model is told where they come from, never that the user selected them). */
function tryAnswers(json: ArgsJson, answers: unknown, settings: Settings, file?: string): Result | string {
  try {
    const native = addon();
    const answersJson = JSON.stringify(answers);
    const built = file
      ? native.result(json, "answered", "pending", Date.now(), null, answersJson, 0, null, file)
      : native.result(json, "answered", "print", Date.now(), null, answersJson);
    return toToolResult(built, settings);
  } catch (error) {
    const e = error as { code?: string; message?: string };
    return e.message ?? String(error);
  }
}

function example(questions: NormalizedQuestion[]): string {
  const sample: Record<string, string> = {};
  for (const q of questions) sample[q.id] = q.options?.length ? optionLabel(q.options[0]) : "your answer";
  return JSON.stringify(sample).replace(/'/g, "'\\''");
}

/** Print and JSON mode: answers from the --answers flag, then from the pending file, then on
 * the terminal when one is reachable, else the questions are left in the pending file. */
export async function answerWithoutTui(
  json: ArgsJson,
  questions: NormalizedQuestion[],
  cwd: string,
  flag: AnswersFlag,
  signal: AbortSignal | undefined,
  settings: Settings,
  claimedHere?: ClaimAtKey,
): Promise<Result> {
  const native = addon();
  // Everything said on stderr may quote model text, paths and files: sanitized in print().
  const say = (message: string) => print(process.stderr, `pi-question: ${message}\n`);
  if (questions.some((q) => q.secret)) {
    // A secret is typed on the terminal only: never --answers (the command line) or the pending file.
    const asked = terminalReachable(native) ? await runOnTerminal(json, signal, settings, undefined, "", claimedHere) : undefined;
    return asked ?? secretRefusal(json, questions, SECRET.noTerminal, "print", settings)!;
  }
  const path = pendingPath(cwd, settings.pendingFile);
  const shown = displayPath(cwd, path);
  const key = questionsKey(questions);
  // An untrusted project's .pi counts for nothing (pi ≥ 1.5 asks; settings.ts): the file is
  // neither read nor written, and answers come from --answers or the terminal.
  const useFile = settings.projectTrusted;
  const { file, error, changedAtMs } = useFile
    ? readPending(path, cwd)
    : { file: { pending: [] as PendingSet[] }, error: undefined, changedAtMs: undefined };
  if (useFile && !error) noteAnswersBeforeRun(path, file, changedAtMs);
  const sets = file.pending.filter((s) => s.key === key);
  // Only a set this person's pi wrote answers; another with the same questions is named, unused.
  const set: PendingSet | undefined = sets.find((s) => !foreignSet(s, shown));
  const foreign = set ? undefined : sets.find((s) => completeAnswers(s));

  // A refused or foreign file is said whichever way the question is answered.
  if (error) say(error);
  if (foreign) say(foreignSet(foreign, shown) ?? "");

  // The flag answers the pending questions it was given for (a list needs them: it is only
  // positional), or, given by id, the first call it fits; never a later, different question.
  const fromFlag = answersFromFlag(flag.read(), questions, sets.length > 0);
  if (typeof fromFlag === "string") {
    say(fromFlag);
  } else if (fromFlag) {
    const r = tryAnswers(json, fromFlag, settings);
    if (typeof r !== "string") {
      flag.use();
      if (set) await forgetPending(cwd, path, key);
      return r;
    }
    say(`the --answers flag was not used for this question: ${r}`);
  }

  // Answers written while this run goes on come from a command running now, the agent's own
  // most likely, not from the person between runs: they wait for a later run.
  const filledNow = set !== undefined && completeAnswers(set) !== undefined && !answeredBeforeThisRun(path, set);
  if (filledNow) say(PENDING.filledDuringRun(shown));
  const written = set && !filledNow && completeAnswers(set);
  if (written) {
    const r = tryAnswers(json, written, settings, shown);
    if (typeof r !== "string") {
      const stale = await forgetPending(cwd, path, key);
      if (stale) say(stale);
      return r;
    }
    say(`the answers in ${shown} were not used: ${r}`);
  }

  if (terminalReachable(native)) {
    // The notification goes out with the question: only once the runner has the terminal.
    const notice = desktopNotice(settings.notice.desktop, questions[0]?.prompt ?? "");
    const asked = await runOnTerminal(json, signal, settings, undefined, notice, claimedHere);
    if (asked) return asked;
    // Another program took the terminal in the meantime: as if there were none, unless the
    // question ended meanwhile (answered elsewhere, or the agent stopped): nothing to save then.
    if (signal?.aborted) {
      return toToolResult(native.result(json, "interrupted", "print", Date.now(), null, null, escapeFlags(settings)), settings);
    }
  }

  if (!useFile) {
    say(PENDING.untrusted(shown));
    return toToolResult(
      native.result(json, "unavailable", "print", Date.now(), PENDING.untrustedReason(shown, example(questions))),
      settings,
    );
  }
  if (error) {
    // The file is there but unreadable: do not pretend the questions were saved.
    return toToolResult(native.result(json, "unavailable", "print", Date.now(), PENDING.unsaved(shown, example(questions))), settings);
  }
  if (set && !written && !filledNow) {
    const missing = set.questions.filter((q) => !completeAnswers({ ...set, questions: [q] })).map((q) => q.id);
    say(PENDING.incomplete(shown, missing));
  }
  const saved = await rememberPending(cwd, path, questions);
  if (typeof saved === "string") {
    say(saved);
    return toToolResult(native.result(json, "unavailable", "print", Date.now(), PENDING.unsaved(shown, example(questions))), settings);
  }
  print(process.stderr, PENDING.stderr(shown, example(questions)));
  return toToolResult(native.result(json, "unavailable", "print", Date.now(), PENDING.reason(shown, example(questions))), settings);
}

/** The question on the terminal itself (print mode run from a terminal): the C engine draws on
 * /dev/tty in raw mode and never touches stdout, so `pi -p` output can still be piped. `asker`
 * names the subagent whose question this is, for a relayed one. When another program owns the
 * terminal the result is `unavailable` (nothing was drawn). */
export async function askOnTerminal(
  json: ArgsJson,
  signal: AbortSignal | undefined,
  settings: Settings,
  asker?: { name: string | null; where: string | null },
  notice = "",
  claimedHere?: ClaimAtKey,
): Promise<Result> {
  const asked = await runOnTerminal(json, signal, settings, asker, notice, claimedHere);
  if (asked) return asked;
  const flags = escapeFlags(settings);
  return toToolResult(addon().result(json, "unavailable", "print", Date.now(), null, null, flags), settings);
}

/** askOnTerminal, or undefined when the C side refused the terminal (QT_ETTYOWNED: another
 * program owns it; the terminal was not touched). The runner needs no stop() at exit: it never
 * keeps the process alive (see native/core/qt_tty.h). */
async function runOnTerminal(
  json: ArgsJson,
  signal: AbortSignal | undefined,
  settings: Settings,
  asker?: { name: string | null; where: string | null },
  notice = "",
  claimedHere?: ClaimAtKey,
): Promise<Result | undefined> {
  const native = addon();
  const cancelContinues = (escapeFlags(settings) & CANCEL_CONTINUES) !== 0; // the one reading of `escape`
  if (signal?.aborted) {
    return toToolResult(native.result(json, "interrupted", "tty", Date.now(), null, null, escapeFlags(settings)), settings);
  }
  const run = native.runTty(json, {
    path: TTY_PATH,
    color: !process.env.NO_COLOR,
    mode: "tty",
    language: resolveLanguage(settings.language),
    cancelContinues,
    askerName: asker?.name ?? null,
    askerWhere: asker?.where ?? null,
    accessible: accessibleMode(settings),
    ...(settings.timeout ? { timeoutMs: settings.timeout.ms, timeoutThen: settings.timeout.then } : {}),
    ...(notice ? { notice } : {}),
  });
  const stop = () => run.stop();
  signal?.addEventListener("abort", stop, { once: true });
  claimedHere?.(() => run.claim());
  try {
    let built;
    try {
      built = await run.done;
    } catch (error) {
      if ((error as { code?: string }).code === TTY_OWNED) {
        claimedHere?.(undefined); // nothing was shown: nothing to claim against
        return undefined;
      }
      throw error;
    }
    // Answered elsewhere, before the person's final key or after it but first: the person is
    // told, and what they wrote is shown so it is not lost.
    if (built.elsewhere) toldElsewhere(json, built);
    return toToolResult(built, settings);
  } finally {
    signal?.removeEventListener("abort", stop);
  }
}

/** The question on the terminal closed because an answer from elsewhere took it: says so on
 * stderr (as `pi-question answer` does when it loses), then, after the words that say it was
 * not delivered, every typed answer and note and Ctrl+T's words, sanitized. */
function toldElsewhere(json: ArgsJson, built: { typed: Typed[]; discussion?: string }): void {
  const native = addon();
  const t = strings();
  const questions = (JSON.parse(native.normalize(json)) as { questions: NormalizedQuestion[] }).questions;
  const lines: string[] = [];
  for (const { id, wrote, note } of built.typed) {
    const label = questions.find((q) => q.id === id)?.label ?? id;
    if (wrote) lines.push(`${label}: ${wrote}`);
    if (note) lines.push(`${label}: ${t.NOTE_PREFIX}${note}`);
  }
  if (built.discussion) lines.push(built.discussion);
  const kept = lines.length ? `${t.ELSEWHERE_WORDS_KEPT}\n${lines.join("\n")}\n` : "";
  print(process.stderr, `${t.ELSEWHERE_CLOSED}\n${kept}`);
}
