// result.ts — the tool result as pi receives it, from what the C core's result builder made
// ({ details, text }: native/core/result/result.c), and the one rule that decides whether it ends the
// agent's turn. Every way of asking (TUI, RPC dialogs, the terminal, print mode's pending file,
// the pi above through the relay, an answer from elsewhere, pre-supplied answers) goes through
// toToolResult, so no path decides `terminate` on its own.
import type { AgentToolResult } from "@mariozechner/pi-coding-agent";
import { CANCEL_CONTINUES, type NativeEngine } from "../addon-types.ts";
import type { QuestionDetails } from "../question-types.ts";
import type { Settings } from "../text/settings.ts";

export type QuestionResult = AgentToolResult<QuestionDetails> & { terminate?: boolean };

/** Whether a result ends the agent's turn: a cancel (unless the person's settings let Esc
 * continue), a timeout whose "then" is cancel, and a question print mode could not show (it waits
 * in the pending file for `pi -c --answers`). Without settings, Esc ends the turn, the default. */
export function terminates(details: Pick<QuestionDetails, "status" | "timeout" | "mode">, settings?: Pick<Settings, "escape">): boolean {
  switch (details.status) {
    case "cancelled":
      return settings?.escape !== "continue";
    case "timed_out":
      return (details.timeout ?? "cancel") === "cancel";
    case "unavailable":
      return details.mode === "print";
    default:
      return false;
  }
}

/** The tool result from the C core's { details, text }, with `terminate` when it ends the turn. */
export function toToolResult(built: { details: string; text: string }, settings?: Pick<Settings, "escape">): QuestionResult {
  const details = JSON.parse(built.details) as QuestionDetails;
  const terminate = terminates(details, settings);
  return { content: [{ type: "text", text: built.text }], details, ...(terminate ? { terminate: true } : {}) };
}

/** The remembered answers the person kept, one per question (the date of each, else null), by
 * the engine's own result (details.earlierAnswer): what a face that opened the question with the
 * project's remembered answers (the RPC dialogs, the page) hands on with the answer. The one
 * place this is read. */
export function keptEarlier(
  engine: Pick<NativeEngine, "result">,
  questions: ReadonlyArray<{ id: string }>,
  mode: string,
): Array<string | null> {
  const details = JSON.parse(engine.result(mode, Date.now(), null, 0).details) as {
    answers: Array<{ id: string; earlierAnswer?: string }>;
  };
  const byId = new Map(details.answers.map((a) => [a.id, a.earlierAnswer ?? null]));
  return questions.map((q) => byId.get(q.id) ?? null);
}

/** The result flags the person's `escape` setting asks for: with "continue", a cancel lets the
 * agent go on. The one place this setting becomes flags (every way of asking builds with it). */
export function escapeFlags(s: Pick<Settings, "escape">): number {
  return s.escape === "continue" ? CANCEL_CONTINUES : 0;
}
