// commands.ts — the /questions and /answer commands and the --answers flag.
// /questions lists the questions waiting in the pending file (and, in an interactive session,
// those asked so far); `/questions clear` removes the file. /answer shows the last cancelled
// or interrupted question again and sends the answers to the agent as the user's next message.
import { rmSync } from "node:fs";
import type { ExtensionAPI, ExtensionCommandContext } from "@mariozechner/pi-coding-agent";
import type { Asker } from "./ask.ts";
import { ANSWERS_FLAG } from "./headless.ts";
import type { NativeAddon } from "./native.ts";
import { displayPath, pendingPath, readPending } from "./pending.ts";
import type { NormalizedQuestion, QuestionDetails } from "./schema.ts";
import { fill, stringsFor } from "./i18n.ts";
import { COMMANDS, REOPEN } from "./text.ts";

/** The arguments of the newest question in this branch that ended cancelled or interrupted. */
function unansweredFromSession(ctx: ExtensionCommandContext): string | undefined {
  let entries: unknown[] = [];
  try {
    entries = ctx.sessionManager.getBranch();
  } catch {
    return undefined;
  }
  for (let i = entries.length - 1; i >= 0; i--) {
    const m = (entries[i] as { message?: { role?: string; toolName?: string; details?: QuestionDetails } }).message;
    if (m?.role !== "toolResult" || m.toolName !== "question" || !m.details?.questions) continue;
    const { status, questions, metadata } = m.details;
    if (status !== "cancelled" && status !== "interrupted") return undefined;
    return JSON.stringify({ questions: questions.map(({ otherLabel: _other, ...q }) => q), ...(metadata ? { metadata } : {}) });
  }
  return undefined;
}

export function registerCommands(pi: ExtensionAPI, native: NativeAddon, asker: Asker): void {
  pi.registerFlag(ANSWERS_FLAG, { description: COMMANDS.flagDescription, type: "string" });

  pi.registerCommand("questions", {
    description: COMMANDS.description,
    getArgumentCompletions: (prefix: string) => ("clear".startsWith(prefix) ? [{ value: "clear", label: "clear" }] : null),
    handler: async (args: string, ctx: ExtensionCommandContext) => {
      const clean = (s: string) => native.sanitize(s, false);
      const t = stringsFor(native);
      const path = pendingPath(ctx.cwd, asker.settings(ctx).pendingFile);
      const shown = displayPath(ctx.cwd, path);
      const say = (text: string) => (ctx.hasUI ? ctx.ui.notify(text, "info") : process.stdout.write(text + "\n"));
      if (args.trim() === "clear") {
        rmSync(path, { force: true });
        say(fill(t.CMD_CLEARED, { s: shown }));
        return;
      }
      const lines: string[] = [];
      const { file, error } = readPending(path);
      if (error) lines.push(error);
      if (file.pending.length === 0) lines.push(fill(t.CMD_NONE_PENDING, { s: shown }));
      for (const set of file.pending) {
        lines.push(`${fill(t.CMD_PENDING, { s: shown })} (${set.askedAt})`);
        for (const q of set.questions) {
          const a = q.answer === null ? t.CMD_NO_ANSWER : Array.isArray(q.answer) ? q.answer.join(", ") : q.answer;
          lines.push(`  ${clean(q.id)}: ${clean(q.prompt)} → ${clean(String(a))}`);
        }
      }
      if (asker.history.length) {
        lines.push(t.CMD_HISTORY);
        for (const d of asker.history) {
          for (const q of d.questions) {
            const a = d.answers.find((x) => x.id === q.id);
            lines.push(`  ${clean(q.label)}: ${clean(q.prompt)} → ${a ? clean(a.label) : d.status}`);
          }
        }
      }
      say(lines.join("\n"));
    },
  });

  pi.registerCommand("answer", {
    description: REOPEN.description,
    handler: async (_args: string, ctx: ExtensionCommandContext) => {
      const json = asker.lastUnanswered() ?? unansweredFromSession(ctx);
      if (!json) {
        const nothing = stringsFor(native).CMD_NOTHING_TO_REOPEN;
        if (ctx.hasUI) ctx.ui.notify(nothing, "info");
        else process.stdout.write(nothing + "\n");
        return;
      }
      const canonical = JSON.parse(native.normalize(json)) as { questions: NormalizedQuestion[] };
      const result = await asker.ask(json, canonical.questions, ctx, undefined);
      const status = result.details.status;
      if (status !== "answered" && status !== "declined") return;
      const text = result.content[0]?.type === "text" ? result.content[0].text : "";
      if (ctx.isIdle()) pi.sendUserMessage(REOPEN.message(text));
      else pi.sendUserMessage(REOPEN.message(text), { deliverAs: "followUp" });
    },
  });
}
