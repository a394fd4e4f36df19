// commands.ts — the /questions command and the --answers flag. /questions lists the questions
// waiting in the pending file (and, in an interactive session, those asked and answered so
// far); `/questions clear` removes the pending file.
import type { ExtensionAPI, ExtensionCommandContext } from "@mariozechner/pi-coding-agent";
import { ANSWERS_FLAG } from "./headless.ts";
import type { NativeAddon } from "./native.ts";
import { displayPath, pendingPath, readPending } from "./pending.ts";
import type { QuestionDetails } from "./schema.ts";
import { COMMANDS } from "./text.ts";
import { rmSync } from "node:fs";

export function registerCommands(pi: ExtensionAPI, native: NativeAddon, history: readonly QuestionDetails[]): void {
  pi.registerFlag(ANSWERS_FLAG, { description: COMMANDS.flagDescription, type: "string" });

  pi.registerCommand("questions", {
    description: COMMANDS.description,
    getArgumentCompletions: (prefix: string) => ("clear".startsWith(prefix) ? [{ value: "clear", label: "clear" }] : null),
    handler: async (args: string, ctx: ExtensionCommandContext) => {
      const clean = (s: string) => native.sanitize(s, false);
      const path = pendingPath(ctx.cwd);
      const shown = displayPath(ctx.cwd, path);
      const say = (text: string) => (ctx.hasUI ? ctx.ui.notify(text, "info") : process.stdout.write(text + "\n"));
      if (args.trim() === "clear") {
        rmSync(path, { force: true });
        say(COMMANDS.cleared(shown));
        return;
      }
      const lines: string[] = [];
      const { file, error } = readPending(path);
      if (error) lines.push(error);
      if (file.pending.length === 0) lines.push(COMMANDS.nonePending(shown));
      for (const set of file.pending) {
        lines.push(COMMANDS.pendingHeader(shown, set.askedAt));
        for (const q of set.questions) {
          const a = q.answer === null ? COMMANDS.unanswered : Array.isArray(q.answer) ? q.answer.join(", ") : q.answer;
          lines.push(`  ${clean(q.id)}: ${clean(q.prompt)} → ${clean(String(a))}`);
        }
      }
      if (history.length) {
        lines.push(COMMANDS.historyHeader);
        for (const d of history) {
          for (const q of d.questions) {
            const a = d.answers.find((x) => x.id === q.id);
            lines.push(`  ${clean(q.label)}: ${clean(q.prompt)} → ${a ? clean(a.label) : d.status}`);
          }
        }
      }
      say(lines.join("\n"));
    },
  });
}
