// tool.ts — the `question` tool's execute: checks the call (alone in its message, within the
// user's limits), answers pre-supplied answers at once, else asks through ask.ts. The tool
// itself (parameters, model instructions, argument preparation, renderers) is registered in
// index.ts; this module is loaded at the first call.
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { addon } from "./addon.ts";
import type { Asker } from "./ask/ask.ts";
import { type QuestionResult, toToolResult } from "./board/result.ts";
import type { NormalizedQuestion, QuestionArgs } from "./question-types.ts";
import { ERRORS } from "./text/text.ts";

/** True when the assistant message holding this call has no other tool call. Unknown (no
 * session, call not found) counts as alone: the check exists to protect the person's turn. */
export function isOnlyToolCall(ctx: ExtensionContext, toolCallId: string): boolean {
  let entries: unknown[] = [];
  try {
    entries = ctx.sessionManager?.getBranch?.() ?? [];
  } catch {
    return true;
  }
  for (let i = entries.length - 1; i >= 0; i--) {
    const message = (entries[i] as { type?: string; message?: { role?: string; content?: unknown } }).message;
    if (!message || message.role !== "assistant" || !Array.isArray(message.content)) continue;
    const calls = message.content.filter((c: { type?: string }) => c?.type === "toolCall") as Array<{ id?: string }>;
    if (!calls.some((c) => c.id === toolCallId)) continue;
    return calls.length === 1;
  }
  return true;
}

/** The tool's execute (registered in index.ts, loaded at the first call): picks the way to ask
 * (ask.ts) and returns the one answer model the C core builds. With `wait: false` in a session
 * with a UI, asks without waiting (async.ts: the result says "asked", the answer comes later as a
 * message); without a UI (print and JSON mode, a subagent's question) `wait` changes nothing. */
export async function executeQuestion(
  asker: Asker,
  toolCallId: string,
  params: QuestionArgs,
  signal: AbortSignal | undefined,
  ctx: ExtensionContext,
  pi?: ExtensionAPI,
  preparedText?: string,
): Promise<QuestionResult> {
  const native = addon();
  // pi hands back what prepareArguments returned: the core's canonical JSON (it may be longer
  // than what the model sent, whose size was checked there). Unchanged since (preparedCall,
  // index.ts), its text is the one made there; else what pi's handlers left is validated again.
  const text = preparedText ?? native.normalize({ prepared: JSON.stringify(params) });
  const json = { prepared: text, canonical: true } as const;
  const canonical = (preparedText !== undefined ? params : JSON.parse(text)) as QuestionArgs & {
    questions: NormalizedQuestion[];
  };
  if (!isOnlyToolCall(ctx, toolCallId)) throw new Error(ERRORS.notAlone);
  const settings = asker.settings(ctx);
  asker.checkLimits(canonical.questions, settings);
  // the canonical form carries `answers` only when some were given: without, the core is not asked
  if (canonical.answers !== undefined && native.allPresupplied(json))
    return toToolResult(native.result(json, "answered", "presupplied", Date.now()), settings);
  if (canonical.wait === false && ctx.hasUI && pi) {
    const { asyncQuestions } = await import("./ask/async.ts");
    return asyncQuestions(pi, asker).ask(json, canonical.questions, ctx);
  }
  return asker.ask(json, canonical.questions, ctx, signal);
}
