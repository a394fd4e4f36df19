// result.ts — the tool result as pi receives it, from what the C core's result builder made
// ({ details, text }: native/core/result/result.c), and the one rule that decides whether it ends the
// agent's turn. Every way of asking (TUI, RPC dialogs, the terminal, print mode's pending file,
// the pi above through the relay, an answer from elsewhere, pre-supplied answers) goes through
// toToolResult, so no path decides `terminate` on its own.
import type { AgentToolResult } from "@mariozechner/pi-coding-agent";
import { type ArgsJson, CANCEL_CONTINUES, type NativeEngine } from "../addon-types.ts";
import type { NormalizedQuestion, QuestionDetails } from "../question-types.ts";
import { addon } from "../addon.ts";
import type { Settings } from "../text/settings.ts";
import { SECRET } from "../text/text.ts";
import { type SecretFile, writeSecrets } from "./secrets.ts";

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
export function toToolResult(
  built: { details: string; text: string; secrets?: SecretFile[] },
  settings?: Pick<Settings, "escape">,
): QuestionResult {
  const details = JSON.parse(built.details) as QuestionDetails;
  const terminate = terminates(details, settings);
  const text = built.secrets ? handOverSecrets(built.secrets, details, built.text) : built.text;
  return { content: [{ type: "text", text }], details, ...(terminate ? { terminate: true } : {}) };
}

/** The person's secret answers written to the files the text and details name (secrets.ts);
 * one that could not be written is said as dropped, with why, and its file left out: the text. */
function handOverSecrets(secrets: readonly SecretFile[], details: QuestionDetails, text: string): string {
  const failed = writeSecrets(secrets);
  for (const [id, why] of failed) {
    const file = secrets.find((f) => f.id === id)?.path;
    const answer = details.answers.find((a) => a.id === id);
    if (answer) delete answer.file;
    text = text
      .split("\n")
      .map((line) => (file && line.startsWith(`${id}: `) && line.includes(file) ? `${id}: ${SECRET.dropped(why)}` : line))
      .join("\n");
  }
  return text;
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

/** A call with secret questions asked where nothing can keep the secret (`why`: SECRET.rpc or
 * SECRET.noTerminal): not asked, the model told why and what to do instead; undefined when
 * the call has none. */
export function secretRefusal(
  json: ArgsJson,
  questions: readonly NormalizedQuestion[],
  why: string,
  mode: string,
  settings?: Pick<Settings, "escape">,
): QuestionResult | undefined {
  const ids = questions.filter((q) => q.secret).map((q) => q.id);
  if (!ids.length) return undefined;
  return toToolResult(addon().result(json, "unavailable", mode, Date.now(), SECRET.refused(ids.join(", "), why)), settings);
}
