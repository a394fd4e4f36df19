// tool.ts — the `question` tool: parameters, model instructions, argument preparation (every
// accepted shape normalized and validated by the C core) and execute, which picks the way to
// ask for the mode pi runs in and returns the one answer model the C core builds.
import type { AgentToolResult, ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { askWithDialogs } from "./dialogs.ts";
import { askInTui } from "./interactive.ts";
import { ANSWERS_FLAG, answerWithoutTui } from "./headless.ts";
import type { NativeAddon, Outcome } from "./native.ts";
import { renderQuestionCall, renderQuestionResult } from "./render.ts";
import { type NormalizedQuestion, type QuestionArgs, type QuestionDetails, QuestionParams } from "./schema.ts";
import { ERRORS, PROMPT_GUIDELINES, PROMPT_SNIPPET, TOOL_DESCRIPTION, TOOL_LABEL } from "./text.ts";

export type QuestionResult = AgentToolResult<QuestionDetails> & { terminate?: boolean };

/** Builds the tool result from the C core's { details, text }. A cancel ends the agent's turn. */
export function toToolResult(built: { details: string; text: string }): QuestionResult {
  const details = JSON.parse(built.details) as QuestionDetails;
  return {
    content: [{ type: "text", text: built.text }],
    details,
    ...(details.status === "cancelled" ? { terminate: true } : {}),
  };
}

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

/** Serializes questions: two can never be on screen at once; a second call waits its turn. */
function createQueue() {
  let tail: Promise<unknown> = Promise.resolve();
  return function enqueue<T>(run: () => Promise<T>): Promise<T> {
    const next = tail.then(run, run);
    tail = next.catch(() => undefined);
    return next;
  };
}

function allPresupplied(canonical: { questions: Array<{ id: string }>; answers?: object }): boolean {
  const answers = canonical.answers;
  return !!answers && canonical.questions.every((q) => Object.prototype.hasOwnProperty.call(answers, q.id));
}

/** Asks in the way the mode allows: pi's TUI, pi's dialogs (RPC), or the pending file. */
async function ask(
  native: NativeAddon,
  pi: ExtensionAPI,
  json: string,
  questions: NormalizedQuestion[],
  ctx: ExtensionContext,
  signal: AbortSignal | undefined,
): Promise<QuestionResult> {
  if (ctx.hasUI) {
    const engine = native.createEngine(json);
    const outcome: Outcome | undefined = await askInTui(engine, ctx, signal);
    if (outcome !== undefined) return toToolResult(engine.result("interactive", Date.now()));
    // No custom components here (RPC mode): the same questions through pi's dialogs.
    const asked = await askWithDialogs(native, questions, ctx, signal);
    return toToolResult(
      native.result(json, asked.outcome, "rpc", Date.now(), null, asked.answers ? JSON.stringify(asked.answers) : null),
    );
  }
  return answerWithoutTui(native, json, questions, ctx.cwd, pi.getFlag(ANSWERS_FLAG), signal);
}

/** Registers the tool; returns the questions asked through it, newest last (for /questions). */
export function registerQuestionTool(pi: ExtensionAPI, native: NativeAddon): { history: QuestionDetails[] } {
  const enqueue = createQueue();
  const history: QuestionDetails[] = [];

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
      const json = JSON.stringify(params);
      const canonical = JSON.parse(native.normalize(json)) as QuestionArgs & { questions: NormalizedQuestion[] };
      if (!isOnlyToolCall(ctx, toolCallId)) throw new Error(ERRORS.notAlone);
      if (allPresupplied(canonical)) return toToolResult(native.result(json, "answered", "presupplied", Date.now()));
      return enqueue(async () => {
        const result = await ask(native, pi, json, canonical.questions, ctx, signal);
        history.push(result.details);
        return result;
      });
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
  return { history };
}
