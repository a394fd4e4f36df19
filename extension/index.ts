// index.ts — the pi extension entry point (package.json "pi.extensions"): loads the native
// core and registers the `question` tool, the /questions and /answer commands, the --answers
// flag, and the relay that brings subagents' questions to this pi.
//
// Only what registering needs is loaded here (the addon, the tool's schema and texts): pi loads
// every extension at start, through jiti, one file at a time. Everything else is imported at
// first use — asking (ask.ts, then the TUI, RPC dialogs or print mode's modules), the commands'
// bodies, the relay and the transcript renderers once a session starts (issue 13).
import type { ExtensionAPI, ExtensionCommandContext } from "@mariozechner/pi-coding-agent";
import type { Asker } from "./ask.ts";
import { loadAddon } from "./load-addon.mjs";
import type { NativeAddon } from "./native.ts";
import type { RelayHost } from "./relay-host.ts";
import { type QuestionArgs, type QuestionDetails, QuestionParams } from "./schema.ts";
import { ANSWERS_FLAG, COMMANDS, PROMPT_GUIDELINES, PROMPT_SNIPPET, REOPEN, TOOL_DESCRIPTION, TOOL_LABEL } from "./text.ts";

type Renderers = typeof import("./render.ts");
let renderers: Renderers | undefined;
let loadingRenderers: Promise<Renderers> | undefined;

/** Loads the transcript renderers (render.ts); pi's TUI needs them, print and JSON mode never. */
export function loadRenderers(): Promise<Renderers> {
  return (loadingRenderers ??= import("./render.ts").then((m) => (renderers = m)));
}

/** What a tool row shows until the renderers are loaded (normally they are: a session start
 * loads them): the tool's name, as pi's own fallback does, then the row is drawn again. */
function placeholder(lines: (width: number) => string[], context: { invalidate?: () => void }) {
  loadRenderers().then(
    () => context.invalidate?.(),
    () => undefined, // cannot happen short of a broken install; the row keeps the tool's name
  );
  return { render: lines, invalidate() {} };
}

export default function piQuestion(pi: ExtensionAPI): void {
  // The addon, loaded once per process (pi's /reload gets a fresh module, and Node returns the
  // already-loaded shared object for the same path, so nothing loads twice).
  const native = loadAddon() as NativeAddon;

  // One asker (one queue, one history) per extension instance, made at first use.
  let asker: Promise<Asker> | undefined;
  const getAsker = (): Promise<Asker> => (asker ??= import("./ask.ts").then((m) => m.createAsker(pi, native)));

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

    async execute(toolCallId, params, signal, _onUpdate, ctx) {
      const [{ executeQuestion }, a] = await Promise.all([import("./tool.ts"), getAsker()]);
      return executeQuestion(native, a, toolCallId, params, signal, ctx);
    },

    renderCall(args, theme, context) {
      if (!renderers) {
        const title = theme.fg("toolTitle", theme.bold("question"));
        return placeholder((width) => (width >= 8 ? [title] : []), context);
      }
      return renderers.renderQuestionCall(native, args, theme, context.lastComponent);
    },

    renderResult(result, options, theme, context) {
      if (!renderers) return placeholder(() => [], context);
      const first = result.content?.[0];
      const text = first && first.type === "text" ? first.text : "";
      return renderers.renderQuestionResult(
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

  pi.registerFlag(ANSWERS_FLAG, { description: COMMANDS.flagDescription, type: "string" });

  pi.registerCommand("questions", {
    description: COMMANDS.description,
    getArgumentCompletions: (prefix: string) => ("clear".startsWith(prefix) ? [{ value: "clear", label: "clear" }] : null),
    handler: async (args: string, ctx: ExtensionCommandContext) => {
      const [{ listQuestions }, a] = await Promise.all([import("./commands.ts"), getAsker()]);
      return listQuestions(native, a, args, ctx);
    },
  });

  pi.registerCommand("answer", {
    description: REOPEN.description,
    handler: async (_args: string, ctx: ExtensionCommandContext) => {
      const [{ reopenQuestion }, a] = await Promise.all([import("./commands.ts"), getAsker()]);
      return reopenQuestion(pi, native, a, ctx);
    },
  });

  // The relay: offered once a session starts (when this pi can ask someone), closed at its end.
  let relay: Promise<RelayHost> | undefined;
  pi.on("session_start", async (_event, ctx) => {
    relay ??= import("./relay-host.ts").then((m) => m.relayHost(pi, native, getAsker));
    await Promise.all([ctx.hasUI ? loadRenderers() : undefined, relay.then((r) => r.start(ctx))]);
  });
  pi.on("session_shutdown", async () => {
    if (relay) (await relay).stop();
  });
}
