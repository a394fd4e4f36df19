// commands.ts — the bodies of the /questions and /answer commands (registered in index.ts,
// loaded at a command's first use). /questions lists the questions waiting in the pending file (and, in an interactive session,
// those asked so far); `/questions clear` removes the file. /answer shows the last cancelled
// or interrupted question again and sends the answers to the agent as the user's next message.
import { existsSync } from "node:fs";
import { basename } from "node:path";
import type { ExtensionAPI, ExtensionCommandContext } from "@mariozechner/pi-coding-agent";
import type { Asker } from "./ask/ask.ts";
import { addon } from "./addon.ts";
import type { ArgsJson } from "./addon-types.ts";
import { clearPending, displayPath, foreignSet, PENDING_FILE, pendingPath, readPending } from "./ask/pending.ts";
import type { NormalizedQuestion, QuestionDetails } from "./question-types.ts";
import { fill, languageOf, strings } from "./text/i18n.ts";
import { screenOf } from "./text/screen.ts";
import { PENDING, REOPEN } from "./text/text.ts";
import { entryOf, isPersonsAnswer, type Remembered, rememberedFor } from "./ask/memory.ts";

/** The custom session entry that marks a reopened question as answered (with the answer's
 * details), and the one that keeps an answer the person changed since (/answer on the last
 * question answered): the newest of them is the answer given now. */
const REOPENED = "pi-question-reopened";
const CHANGED = "pi-question-changed";

/** The newest question in this branch, when /answer can take it up: ended cancelled or
 * interrupted and not answered through /answer since (`given` absent: it is answered now), or
 * answered — the person may change it (`given`: the answer given, as the newest of its result,
 * its /answer and its changes has it). Its arguments and tool call id; undefined: none; null: no
 * session. */
function lastFromSession(ctx: ExtensionCommandContext): { json: ArgsJson; toolCallId: string; given?: QuestionDetails } | undefined | null {
  let entries: unknown[];
  try {
    entries = ctx.sessionManager.getBranch();
  } catch {
    return null;
  }
  if (!Array.isArray(entries) || entries.length === 0) return null;
  const answered = new Map<string, QuestionDetails | undefined>(); // by /answer, or changed since
  for (const e of entries as Array<{ type?: string; customType?: string; data?: { toolCallId?: string; details?: QuestionDetails } }>) {
    if (e.type !== "custom" || (e.customType !== REOPENED && e.customType !== CHANGED) || !e.data?.toolCallId) continue;
    const d = e.data.details;
    answered.set(e.data.toolCallId, d && Array.isArray(d.answers) && Array.isArray(d.questions) ? d : undefined);
  }
  for (let i = entries.length - 1; i >= 0; i--) {
    const m = (entries[i] as { message?: { role?: string; toolName?: string; toolCallId?: string; details?: QuestionDetails } }).message;
    if (m?.role !== "toolResult" || m.toolName !== "question" || !m.details?.questions) continue;
    const { status, questions, metadata } = m.details;
    const id = m.toolCallId ?? "";
    const json = JSON.stringify({ questions: questions.map(({ otherLabel: _other, ...q }) => q), ...(metadata ? { metadata } : {}) });
    const found = { json: { prepared: json }, toolCallId: id };
    if (answered.has(id)) {
      const given = answered.get(id);
      return given ? { ...found, given } : undefined; // answered through /answer by an older pi: not known
    }
    if (status === "cancelled" || status === "interrupted") return found;
    if (status === "answered" && Array.isArray(m.details.answers) && isPersonsAnswer(m.details)) return { ...found, given: m.details };
    return undefined;
  }
  return undefined;
}

/** The answers of `given` (a result's details) as the engine opens them, per question of
 * `questions`: chosen, with the line "Answered on 28 Nov: … — Enter keeps it". */
function givenAnswers(questions: NormalizedQuestion[], given: QuestionDetails): Array<Remembered | undefined> {
  const at = new Date(Number.isFinite(given.answeredAt) ? given.answeredAt : Date.now());
  const language = languageOf(strings());
  return questions.map((q) => {
    const a = given.answers.find((x) => x.id === q.id);
    return a ? rememberedFor(q, entryOf(q, a, given.mode, at), language) : undefined;
  });
}

/** /questions [clear]: the pending file's questions, those waiting here and those asked so far;
 * `clear` removes the pending file. */
export async function listQuestions(asker: Asker, args: string, ctx: ExtensionCommandContext): Promise<void> {
  const native = addon();
  // Each answer on one line (its own newlines would break the list); the whole text is
  // sanitized once more on its way out (paths and file contents are quoted in it).
  const clean = (s: string) => native.sanitize(s, false);
  const t = strings();
  const settings = asker.settings(ctx);
  const path = pendingPath(ctx.cwd, settings.pendingFile);
  const shown = displayPath(ctx.cwd, path);
  const say = (text: string) => screenOf(ctx, process.stdout).notify(text, "info");
  // An untrusted project's pending file is neither read nor removed (settings.ts projectTrusted).
  const untrusted = settings.projectTrusted ? undefined : PENDING.untrusted(shown);
  if (args.trim() === "clear") {
    if (untrusted) return say(untrusted);
    // Only a pending-questions file is removed (the setting could name any file).
    const { error } = readPending(path, ctx.cwd);
    if (error && existsSync(path) && basename(path) !== basename(PENDING_FILE)) say(error);
    else {
      const failed = await clearPending(ctx.cwd, path);
      say(failed ?? fill(t.CMD_CLEARED, { s: shown }));
    }
    return;
  }
  const lines: string[] = [];
  const { file, error } = untrusted ? { file: { pending: [] }, error: untrusted } : readPending(path, ctx.cwd);
  if (error) lines.push(error);
  if (file.pending.length === 0) lines.push(fill(t.CMD_NONE_PENDING, { s: shown }));
  for (const set of file.pending) {
    lines.push(`${fill(t.CMD_PENDING, { s: shown })} (${clean(String(set.askedAt))})`);
    const foreign = foreignSet(set, shown);
    if (foreign) lines.push(`  ${clean(foreign)}`);
    for (const q of set.questions) {
      const a = q.answer === null ? t.CMD_NO_ANSWER : Array.isArray(q.answer) ? q.answer.join(", ") : q.answer;
      lines.push(`  ${clean(q.id)}: ${clean(q.prompt)} → ${clean(String(a))}`);
    }
  }
  if (asker.board.waiting.size) {
    lines.push(t.CMD_WAITING);
    for (const w of asker.board.waiting.values()) {
      const by = w.askedBy ? ` (${w.askedBy})` : "";
      for (const q of w.questions) lines.push(`  ${clean(q.label)}: ${clean(q.prompt)}${by}`);
    }
  }
  if (asker.history.length) {
    lines.push(t.CMD_HISTORY);
    for (const { details: d, askedBy } of asker.history) {
      const by = askedBy ? ` (${askedBy})` : "";
      for (const q of d.questions) {
        const a = d.answers.find((x) => x.id === q.id);
        // a secret: never its text (details hold none), and whether it was handed over
        const said = !a ? d.status : a.secret ? (a.file ? t.SECRET_ANSWER : t.SECRET_DROPPED) : clean(a.label);
        lines.push(`  ${clean(q.label)}: ${clean(q.prompt)} → ${said}${by}`);
      }
    }
  }
  say(lines.join("\n"));
}

/** /answer: the last cancelled or interrupted question again, or the last one answered, opened
 * with the answer given to change it; the answers go to the agent as the user's next message. */
export async function reopenQuestion(pi: ExtensionAPI, asker: Asker, ctx: ExtensionCommandContext): Promise<void> {
  // The question the person stepped aside from comes back first (aside.ts); then a question
  // asked without waiting (async.ts): the oldest one is shown.
  if (asker.bringBack()) return;
  if (await (await import("./ask/async.ts")).asyncQuestions(pi, asker).openOldest(ctx)) return;
  const native = addon();
  // This session's branch decides; memory only serves runs without a session.
  const found = lastFromSession(ctx);
  const json = found === null ? asker.lastUnanswered() : found?.json;
  if (!json) {
    screenOf(ctx, process.stdout).notify(strings().CMD_NOTHING_TO_REOPEN, "info");
    return;
  }
  const canonical = JSON.parse(native.normalize(json)) as { questions: NormalizedQuestion[] };
  const given = found?.given;
  // The last question answered opens with the answer given, to change it.
  const result = await asker.ask(
    json,
    canonical.questions,
    ctx,
    undefined,
    undefined,
    given ? givenAnswers(canonical.questions, given) : undefined,
  );
  const status = result.details.status;
  if (status !== "answered" && status !== "declined") return;
  const text = result.content[0]?.type === "text" ? result.content[0].text : "";
  if (given && found && status === "answered") {
    // Changed: said once, as the person's message; kept as it was (every answer the one given,
    // Enter on each): nothing to say.
    const details = result.details;
    const same =
      details.answers.length === given.answers.length &&
      details.answers.every(
        (a) => a.earlierAnswer !== undefined && (a.note ?? "") === (given.answers.find((g) => g.id === a.id)?.note ?? ""),
      ) &&
      JSON.stringify(details.skipped ?? []) === JSON.stringify(given.skipped ?? []) &&
      (details.note ?? "") === (given.note ?? "");
    if (same) {
      screenOf(ctx, process.stdout).notify(strings().CMD_ANSWER_UNCHANGED, "info");
      return;
    }
    pi.appendEntry(CHANGED, { toolCallId: found.toolCallId, details });
    const ids = canonical.questions.map((q) => q.id).join(", ");
    send(pi, ctx, native.sanitize(REOPEN.changed(ids, text), true));
    return;
  }
  if (given) return; // declined the change: what was answered stands
  if (found?.toolCallId)
    pi.appendEntry(REOPENED, { toolCallId: found.toolCallId, ...(status === "answered" ? { details: result.details } : {}) });
  // pi shows this as the user's message, unfiltered: the labels in it are the model's text.
  send(pi, ctx, native.sanitize(REOPEN.message(text), true));
}

/** The person's message to the agent: now when it is idle, else after the turn it is in. */
function send(pi: ExtensionAPI, ctx: ExtensionCommandContext, message: string): void {
  if (ctx.isIdle()) pi.sendUserMessage(message);
  else pi.sendUserMessage(message, { deliverAs: "followUp" });
}
