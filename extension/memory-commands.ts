// memory-commands.ts — `/questions history [words]` and `/questions forget [n]`: the answers the
// person gave in this project (extension/ask/memory.ts), newest first, filtered by words;
// forgetting one removes it from both files in ~/.pi/agent/question-answers. Registered through /questions in index.ts,
// loaded at its first use.
import type { ExtensionCommandContext } from "@mariozechner/pi-coding-agent";
import type { Asker } from "./ask/ask.ts";
import { answerText, forgetAnswer, historyLine, historyOf, readMemory } from "./ask/memory.ts";
import { addon } from "./addon.ts";
import { fill, strings } from "./text/i18n.ts";
import { screenOf } from "./text/screen.ts";
import { resolveLanguage } from "./text/settings.ts";

/** The numbers the last `/questions history` showed, and the entries they named: `forget N` forgets
 * the entry the person saw as N, even when another pi remembered an answer since (which moves the
 * numbers). */
let listed: { cwd: string; ids: Map<number, string> } | undefined;

/** `/questions history [words]`: the remembered answers, newest first, numbered for forget. */
export function showHistory(asker: Asker, words: string, ctx: ExtensionCommandContext): void {
  const t = strings();
  const say = (text: string, level: "info" | "warning" = "info") =>
    screenOf(ctx, process.stdout).notify(addon().sanitize(text, true), level);
  const s = asker.settings(ctx);
  if (!s.memory) return say(t.MEMORY_OFF);
  const found = historyOf(
    readMemory(ctx.cwd, (why) => say(why, "warning")),
    words,
  );
  if (!found.length) return say(t.MEMORY_NONE);
  const language = resolveLanguage(s.language);
  listed = { cwd: ctx.cwd, ids: new Map(found.map(({ n, entry }) => [n, entry.id])) };
  say([t.MEMORY_HISTORY, ...found.map(({ n, entry }) => `  ${historyLine(n, entry, language)}`)].join("\n"));
}

/** `/questions forget [n]`: forgets answer n of the history; without n, a select of them when
 * there is a UI. */
export async function forget(asker: Asker, arg: string, ctx: ExtensionCommandContext): Promise<void> {
  const t = strings();
  const say = (text: string, level: "info" | "warning" = "info") =>
    screenOf(ctx, process.stdout).notify(addon().sanitize(text, true), level);
  const s = asker.settings(ctx);
  if (!s.memory) return say(t.MEMORY_OFF);
  const language = resolveLanguage(s.language);
  let n = /^\d+$/.test(arg) ? Number(arg) : NaN;
  let id: string | undefined;
  if (!arg && ctx.hasUI) {
    const found = historyOf(
      readMemory(ctx.cwd, (why) => say(why, "warning")),
      "",
    );
    if (!found.length) return say(t.MEMORY_NONE);
    const entries = found.map(({ n, entry }) => historyLine(n, entry, language));
    const picked = await ctx.ui.select(
      t.MEMORY_FORGET_PICK,
      entries.map((e) => addon().sanitize(e, false)),
    );
    if (picked === undefined) return;
    const at = entries.map((e) => addon().sanitize(e, false)).indexOf(picked);
    if (at < 0) return;
    n = found[at].n;
    id = found[at].entry.id; // the one chosen, even should another pi write meanwhile
  }
  if (!Number.isInteger(n) || n < 1) return say(fill(t.MEMORY_NO_SUCH, { s: arg }), "warning");
  if (id === undefined && listed?.cwd === ctx.cwd) id = listed.ids.get(n); // the entry shown as n
  const gone = await forgetAnswer(ctx.cwd, n, id);
  if (!gone) return say(fill(t.MEMORY_NO_SUCH, { s: String(n) }), "warning");
  if ("why" in gone) return say(gone.why, "warning");
  say(fill(t.MEMORY_FORGOTTEN, { n, s: `${gone.prompt} → ${answerText(gone)}` }));
}
