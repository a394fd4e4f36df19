// tool.ts — the `question` tool: parameters, model instructions, argument preparation (every
// accepted shape normalized and validated by the C core) and execute, which picks the way to
// ask (ask.ts) and returns the one answer model the C core builds.
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { type Asker, type QuestionResult, toToolResult } from "./ask.ts";
import type { NativeAddon } from "./native.ts";
import { renderQuestionCall, renderQuestionResult } from "./render.ts";
import { type NormalizedQuestion, type QuestionArgs, type QuestionDetails, QuestionParams } from "./schema.ts";
import { ERRORS, PROMPT_GUIDELINES, PROMPT_SNIPPET, TOOL_DESCRIPTION, TOOL_LABEL } from "./text.ts";

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

function allPresupplied(canonical: { questions: Array<{ id: string }>; answers?: object }): boolean {
  const answers = canonical.answers;
  return !!answers && canonical.questions.every((q) => Object.prototype.hasOwnProperty.call(answers, q.id));
}

/** Registers the tool, asking through `asker`. */
export function registerQuestionTool(pi: ExtensionAPI, native: NativeAddon, asker: Asker): void {

  pi.registerTool({
    name: "question",
    label: TOOL_LABEL,
    description: TOOL_DESCRIPTION,
    promptSnippet: PROMPT_SNIPPET,
    promptGuidelines: PROMPT_GUIDELINES,
    parameters: QuestionParams,
    executionMode: "sequential",

    // Every accepted shape becomes the canonical one here, normalized and validated in C. An
    // invalid call throws the core's message (path, problem, fix), which pi reports to the
    // model as an error result.
    prepareArguments(args: unknown): QuestionArgs {
      return JSON.parse(native.normalize(JSON.stringify(args ?? {}))) as QuestionArgs;
    },

    async execute(toolCallId, params, signal, _onUpdate, ctx): Promise<QuestionResult> {
      // pi hands back what prepareArguments returned: the core's canonical JSON (it may be longer
      // than what the model sent, whose size was checked there).
      const json = { prepared: JSON.stringify(params) };
      const canonical = JSON.parse(native.normalize(json)) as QuestionArgs & { questions: NormalizedQuestion[] };
      if (!isOnlyToolCall(ctx, toolCallId)) throw new Error(ERRORS.notAlone);
      const settings = asker.settings(ctx);
      asker.checkLimits(canonical.questions, settings);
      if (allPresupplied(canonical)) return toToolResult(native.result(json, "answered", "presupplied", Date.now()), settings);
      return asker.ask(json, canonical.questions, ctx, signal);
    },

    renderCall(args, theme, context) {
      return renderQuestionCall(native, args, theme, context.lastComponent);
    },

    renderResult(result, options, theme, context) {
      const first = result.content?.[0];
      const text = first && first.type === "text" ? first.text : "";
      return renderQuestionResult(
        native,
        result.details as QuestionDetails | undefined,
        text,
        options.expanded,
        context.isError,
        theme,
        context.lastComponent,
      );
    },
  });
}
