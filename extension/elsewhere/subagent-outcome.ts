// subagent-outcome.ts — what a subagent's unanswered question does to the agents above it.
//
// Above (the pi the person talks to): Esc on a question a subagent asked through the relay means
// what it means for this pi's own questions — stop, the person wants to talk. With `escape:
// "cancel"` this pi's turn ends (its run is aborted, which also stops the subagents its tools
// started), and the result of every tool call running at that moment says which question the
// person cancelled, so the model reads why it stopped instead of a subagent's empty output.
//
// Below (a subagent: print or JSON mode, no session to continue): a question nobody could be
// asked (no relay, no terminal) ends the run with a last assistant message saying what the run
// needed — the final output its launcher reads (pi's subagent example takes the last assistant
// text of a `--mode json` child; `pi -p` prints it) — instead of nothing. pi gives an extension no
// way to write an assistant message itself, and the question's result has already ended the
// turn: a steering message keeps the run going one more step, the run is aborted so no model is
// asked, and the aborted reply is replaced (message_end) by that sentence.
//
// Loaded when a session starts (index.ts registers the handlers that call it).
import type { ExtensionAPI, ExtensionContext, ToolResultEvent } from "@mariozechner/pi-coding-agent";
import { addon } from "../addon.ts";
import type { RelayAsker } from "../question-types.ts";
import { askerParts } from "../text/asker.ts";
import type { NormalizedQuestion, QuestionDetails } from "../question-types.ts";
import { SUBAGENT } from "../text/text.ts";

export interface SubagentOutcomes {
  /** A tool call started / ended (pi's tool_execution_start / _end). */
  started(toolCallId: string): void;
  ended(toolCallId: string): void;
  /** The person cancelled a question `from` asked through the relay, and this pi's settings say
   * Esc ends the turn: end it, and tell the model through the tool calls running now. */
  cancelledBelow(ctx: ExtensionContext, questions: NormalizedQuestion[], from: RelayAsker): Promise<void>;
  /** pi's tool_result: the patch for that result, if any. */
  toolResult(event: ToolResultEvent, ctx: ExtensionContext): Promise<{ content: ToolResultEvent["content"] } | undefined>;
  /** pi's message_end: the replacement of that message, if any (the same role). */
  messageEnd<M extends { role: string }>(message: M): { message: M } | undefined;
}

/** The prompts of a call, as the model reads them: each JSON-quoted. */
function quotedPrompts(questions: readonly NormalizedQuestion[]): string {
  return questions.map((q) => JSON.stringify(q.prompt)).join(", ");
}

/** A sentence quoting the model's prompts and a subagent's name reaches terminals too (pi's
 * transcript, `pi -p`'s output): through the C sanitizer, on one line. */
function shown(sentence: string): string {
  return addon().sanitize(sentence, false);
}

/** A run whose session is not kept (`--no-session`, as subagents run): nobody can continue it,
 * so its output is all its launcher gets. */
function sessionless(ctx: ExtensionContext): boolean {
  const manager = ctx.sessionManager as { getSessionFile?: () => string | undefined } | undefined;
  try {
    return !manager?.getSessionFile?.();
  } catch {
    return false; // unknown: leave the run as it is
  }
}

export function subagentOutcomes(pi: ExtensionAPI): SubagentOutcomes {
  /** Tool calls running now, in the order they started. */
  const running = new Set<string>();
  /** What the model must read first in a running tool call's result. */
  const notes = new Map<string, string>();
  /** The sentence the next assistant message of this run is replaced by (below). */
  let lastWords: string | undefined;

  return {
    started(toolCallId) {
      running.add(toolCallId);
    },
    ended(toolCallId) {
      running.delete(toolCallId);
      notes.delete(toolCallId);
    },

    async cancelledBelow(ctx, questions, from) {
      const { name, where } = askerParts(from);
      const who = from.process ? SUBAGENT.program(from.process) : name ? SUBAGENT.named(name) : SUBAGENT.somewhere(where ?? "");
      const note = shown(SUBAGENT.cancelled(who, quotedPrompts(questions)));
      for (const id of running) notes.set(id, note);
      if (!ctx.isIdle()) ctx.abort();
    },

    async toolResult(event, ctx) {
      const note = notes.get(event.toolCallId);
      if (note !== undefined) {
        notes.delete(event.toolCallId);
        return { content: [{ type: "text" as const, text: note }, ...event.content] };
      }
      if (event.toolName !== "question" || ctx.hasUI) return undefined;
      const details = event.details as QuestionDetails | undefined;
      if (details?.status !== "unavailable" || !Array.isArray(details.questions) || !sessionless(ctx)) return undefined;
      const { adoptedAskerName } = await import("./relay.ts"); // loaded already: the question looked for a relay
      const name = adoptedAskerName();
      const sentence = shown(SUBAGENT.needed(name ? SUBAGENT.namedSubject(name) : SUBAGENT.thisAgent, quotedPrompts(details.questions)));
      lastWords = sentence;
      // The question's result ended the turn; a steering message is taken even so, and the run
      // is aborted before any model is asked (messageEnd below then writes the reply).
      pi.sendMessage({ customType: "pi-question", content: sentence, display: false }, { deliverAs: "steer" });
      ctx.abort();
      return undefined;
    },

    messageEnd<M extends { role: string }>(message: M) {
      if (message.role === "user") lastWords = undefined; // a new prompt: that run is over
      if (lastWords === undefined || message.role !== "assistant") return undefined;
      const text = lastWords;
      lastWords = undefined;
      // An aborted reply as pi's providers build it, made a finished one: its error goes.
      const { errorMessage: _aborted, ...rest } = message as M & { errorMessage?: string };
      return { message: { ...rest, content: [{ type: "text", text }], stopReason: "stop" } as unknown as M };
    },
  };
}
