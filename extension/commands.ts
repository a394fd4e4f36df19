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
import { fill, strings } from "./text/i18n.ts";
import { screenOf } from "./text/screen.ts";
import { PENDING, REOPEN } from "./text/text.ts";

/** The custom session entry that marks a reopened question as answered. */
const REOPENED = "pi-question-reopened";

/** The newest question in this branch that ended cancelled or interrupted and was not answered
 * through /answer since: its arguments and tool call id. undefined: none; null: no session. */
function unansweredFromSession(ctx: ExtensionCommandContext): { json: ArgsJson; toolCallId: string } | undefined | null {
  let entries: unknown[];
  try {
    entries = ctx.sessionManager.getBranch();
  } catch {
    return null;
  }
  if (!Array.isArray(entries) || entries.length === 0) return null;
  const reopened = new Set<string>();
  for (const e of entries as Array<{ type?: string; customType?: string; data?: { toolCallId?: string } }>) {
    if (e.type === "custom" && e.customType === REOPENED && e.data?.toolCallId) reopened.add(e.data.toolCallId);
  }
  for (let i = entries.length - 1; i >= 0; i--) {
    const m = (entries[i] as { message?: { role?: string; toolName?: string; toolCallId?: string; details?: QuestionDetails } }).message;
    if (m?.role !== "toolResult" || m.toolName !== "question" || !m.details?.questions) continue;
    const { status, questions, metadata } = m.details;
    if ((status !== "cancelled" && status !== "interrupted") || reopened.has(m.toolCallId ?? "")) return undefined;
    const json = JSON.stringify({ questions: questions.map(({ otherLabel: _other, ...q }) => q), ...(metadata ? { metadata } : {}) });
    return { json: { prepared: json }, toolCallId: m.toolCallId ?? "" };
  }
  return undefined;
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
        lines.push(`  ${clean(q.label)}: ${clean(q.prompt)} → ${a ? clean(a.label) : d.status}${by}`);
      }
    }
  }
  say(lines.join("\n"));
}

/** /answer: the last cancelled or interrupted question again; the answers go to the agent as
 * the user's next message. */
export async function reopenQuestion(pi: ExtensionAPI, asker: Asker, ctx: ExtensionCommandContext): Promise<void> {
  // The question the person stepped aside from comes back first (aside.ts); then a question
  // asked without waiting (async.ts): the oldest one is shown.
  if (asker.bringBack()) return;
  if (await (await import("./ask/async.ts")).asyncQuestions(pi, asker).openOldest(ctx)) return;
  const native = addon();
  // This session's branch decides; memory only serves runs without a session.
  const found = unansweredFromSession(ctx);
  const json = found === null ? asker.lastUnanswered() : found?.json;
  if (!json) {
    screenOf(ctx, process.stdout).notify(strings().CMD_NOTHING_TO_REOPEN, "info");
    return;
  }
  const canonical = JSON.parse(native.normalize(json)) as { questions: NormalizedQuestion[] };
  const result = await asker.ask(json, canonical.questions, ctx, undefined);
  const status = result.details.status;
  if (status !== "answered" && status !== "declined") return;
  const text = result.content[0]?.type === "text" ? result.content[0].text : "";
  if (found?.toolCallId) pi.appendEntry(REOPENED, { toolCallId: found.toolCallId });
  // pi shows this as the user's message, unfiltered: the labels in it are the model's text.
  const message = native.sanitize(REOPEN.message(text), true);
  if (ctx.isIdle()) pi.sendUserMessage(message);
  else pi.sendUserMessage(message, { deliverAs: "followUp" });
}
