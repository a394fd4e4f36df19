// index.ts — the pi extension entry point (package.json "pi.extensions"): loads the native
// core and registers the `question` tool, the /questions and /answer commands, the --answers
// flag, the relay that brings subagents' questions to this pi, and the web page.
//
// pi loads every extension at start, through jiti, one file at a time, and each file costs
// about as much as its content. So this one file holds all that registering needs
// (the tool's description, guidelines and parameter schema, the commands' descriptions) and a
// look for the addon's file (addonPlaces: a few stats; another file here would cost pi's start
// about a millisecond); the addon itself is loaded at first use, through the same loader as
// addon.ts (load-addon.cjs, Node's own require: one copy per process); everything else too: asking
// (ask.ts, then the TUI, RPC dialogs or print mode's modules), the commands' bodies, the relay
// and the transcript renderers once a session starts, the web page when it is turned on.
import type { ExtensionAPI, ExtensionCommandContext, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { type Static, Type } from "typebox";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { NativeAddon } from "./addon-types.ts";
import type { Asker } from "./ask/ask.ts";
import type { RelayHost } from "./elsewhere/relay-host.ts";
import type { SubagentOutcomes } from "./elsewhere/subagent-outcome.ts";
import type { WebControl } from "./elsewhere/web-host.ts";
import type { QuestionArgs, QuestionDetails, QuestionType } from "./question-types.ts";

// ---- what the model is told -------------------------------------------------------------------
const TOOL_LABEL = "Question";

const TOOL_DESCRIPTION = [
  "Ask the user one or more questions and wait for the answers (or, with wait: false, keep working until they arrive).",
  "Use it when you need a decision or a fact only the user has:",
  "a choice between valid approaches, a preference, a missing requirement, or confirmation before a significant change.",
  "Each question has a prompt and, usually, a few options ({ value, label, description? }); the user can always type",
  "their own answer instead ('Something else…' is added automatically), tick several options when multiSelect is true,",
  "or answer a question without options in free text.",
  "The result lists each answer as `<id>: user selected: <n>. <label>` or `<id>: user wrote: <text>`, and says when it is an earlier answer the user confirmed.",
  "If the user cancels, stop and wait for them; if they decline, decide yourself and state your assumptions.",
].join(" ");

const PROMPT_SNIPPET = "Ask the user structured questions: options, multi-select or free text";

const PROMPT_GUIDELINES = [
  "Use the question tool only for what you cannot infer from the conversation, the code or earlier answers; never re-ask what was answered (answers are remembered per project).",
  "Set wait: false on a question call only when your next steps do not need the answer; it arrives later as a message: never assume it.",
  "Batch related questions into one question call instead of asking one at a time; keep each prompt short and specific.",
  'In question options, put the option you recommend first and end its label with "(Recommended)".',
  'Never add an "Other" or "None of the above" option to a question call: the user can always type their own.',
  "A question call must be the only tool call of its message: call it alone, after any others have finished.",
  "Ask for a password or API key only in a question with secret: true; use its file, never print it.",
];

/** An option given as an object (the schema as the model reads it: plain JSON). */
interface OptionObject {
  value: string;
  label: string;
  description?: string;
  preview?: string;
}

const QuestionSchema = Type.Object({
  id: Type.String({ description: "Unique id of the answer in this call" }),
  label: Type.Optional(Type.String({ description: "Short tab title" })),
  prompt: Type.String({ description: "The full question" }),
  options: Type.Optional(
    // Choices as labels (each its own value), or as objects: a union of two arrays, not an array
    // of a union, so that pi checks a question's options against one branch once instead of each
    // option against both (the canonical form writes a question's options all as labels when it
    // can: prepareArguments). Plain JSON Schema (Type.Unsafe), written out: pi 0.73's argument
    // conversion then does not walk each of thousands of options either, and pi's start builds
    // nothing for it.
    Type.Unsafe<string[] | OptionObject[]>({
      anyOf: [
        { type: "array", items: { type: "string" }, description: "Choices, each its own value; omit for free text" },
        {
          type: "array",
          items: {
            type: "object",
            required: ["value", "label"],
            properties: {
              value: { type: "string", description: "Returned when chosen" },
              label: { type: "string", description: "What the user reads" },
              description: { type: "string", description: "One line of help under the label" },
              preview: { type: "string", description: "Multi-line text shown while highlighted" },
            },
          },
        },
      ],
    }),
  ),
  multiSelect: Type.Optional(Type.Boolean({ description: "Let the user tick several options" })),
  // a plain string enum (not a union of literals): the most portable schema across providers
  type: Type.Optional(
    Type.Unsafe<QuestionType>({
      type: "string",
      enum: ["number", "integer", "boolean", "date", "email", "url"],
      description: "Typed answer (no options but boolean's Yes/No); omit for text",
    }),
  ),
  min: Type.Optional(Type.Number()),
  max: Type.Optional(Type.Number()),
  secret: Type.Optional(Type.Boolean({ description: "Masked text; you get a file path" })),
});

export const QuestionParams = Type.Object({
  questions: Type.Array(QuestionSchema, { description: "One or more questions, asked together", minItems: 1 }),
  metadata: Type.Optional(Type.Object({ source: Type.Optional(Type.String()) })),
  wait: Type.Optional(Type.Boolean({ description: "false: ask without waiting; the answer arrives later as a message" })),
  answers: Type.Optional(
    // An open object (not a Record/Union) keeps the schema portable across providers; the C
    // core validates each entry: a string, or an array of strings for a multi-select question.
    Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          "Pre-supplied answers by question id (a string, or an array of strings for multiSelect); when every question has one, no UI is shown",
      },
    ),
  ),
});

// pi 0.73 runs its own JSON Schema coercion over every argument, each option of a union cloned
// per branch (15 ms for 25,000 options), unless the schema carries the mark of a TypeBox schema
// it knows: TypeBox 0.3x's symbol (this TypeBox marks its schemas another way). The arguments it
// checks are the core's canonical ones, typed already, so that coercion has nothing to change;
// pi's TypeBox conversion and its check still run. Later pi lines ignore the symbol.
Object.defineProperty(QuestionParams, Symbol.for("TypeBox.Kind"), { value: "Object" });

// The schema's type is question-types.ts's QuestionArgs, both ways (a compile-time check only).
type SchemaArgs = Static<typeof QuestionParams>;
type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const schemaIsQuestionArgs: SameType<SchemaArgs, QuestionArgs> = true;
void schemaIsQuestionArgs;

/** The custom message that brings the answer to a question asked without waiting (async.ts
 * MESSAGE_TYPE; here too, so pi's events about it are told apart without loading async.ts). */
const ANSWER_MESSAGE = "pi-question-answer";

// ---- the commands and the flag --------------------------------------------------------------------
/** The flag that answers pending questions in print mode (`pi -c --answers '{…}'`). */
const ANSWERS_FLAG = "answers";

const SUBCOMMANDS = ["clear", "history", "forget", "web", "web on", "web off", "secrets", "secrets keep"];

const COMMANDS = {
  description:
    "Show the questions waiting for answers (and those asked in this session); `/questions clear` removes them; `/questions history [words]` lists the answers this project remembers, `/questions forget N` forgets one; `/questions web` turns the web page on or off",
  flagDescription: 'Answers for pending questions, as JSON: {"id": "answer"} or a list in question order',
};

// ---- loaded at first use --------------------------------------------------------------------------
type Renderers = typeof import("./ask/transcript.ts");
let renderers: Renderers | undefined;
let loadingRenderers: Promise<Renderers> | undefined;

/** Loads the transcript renderers (transcript.ts); pi's TUI needs them, print and JSON mode never. */
export function loadRenderers(): Promise<Renderers> {
  return (loadingRenderers ??= import("./ask/transcript.ts").then((m) => (renderers = m)));
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

// ---- the addon: looked for at the start, loaded at first use -------------------------------------
/** The addon files the loader (load-addon.cjs) may take, by name and folder only: PI_QUESTION_ADDON;
 * the local build; the platform packages pi-question-<os>-<cpu>[-gnu|-musl] in pi-question's own
 * node_modules or in the node_modules folder that holds it (platform-package.cjs prebuiltFolders).
 * tests/platform-package.test.mjs checks these are the loader's places. */
export function addonPlaces(
  packageRoot: string = join(dirname(fileURLToPath(import.meta.url)), ".."),
  platform: string = process.platform,
  arch: string = process.arch,
  override: string | undefined = process.env.PI_QUESTION_ADDON,
): string[] {
  if (override) return [override];
  const names =
    platform === "linux" ? ["gnu", "musl"].map((libc) => `pi-question-${platform}-${arch}-${libc}`) : [`pi-question-${platform}-${arch}`];
  const folders = [join(packageRoot, "node_modules")];
  let parent = dirname(packageRoot);
  if (basename(parent).startsWith("@")) parent = dirname(parent);
  if (basename(parent) === "node_modules") folders.push(parent);
  const local = [join(packageRoot, "build", "Release", "pi_question.node"), join(packageRoot, "build", "Debug", "pi_question.node")];
  return [...local, ...folders.flatMap((folder) => names.map((name) => join(folder, name, "pi_question.node")))];
}

/** The addon (the one addon.ts gives: the loader keeps what it loaded); throws the loader's
 * sentence when none loads. `say`: where what the first load says goes (a refused prebuilt). */
function addon(say?: (text: string) => void): NativeAddon {
  // kept once loaded: making a require and asking the loader again cost 0.05 ms a call
  return (loadedAddon ??= (createRequire(import.meta.url)("./load-addon.cjs") as typeof import("./load-addon.cjs")).loadAddon(
    say,
  ) as NativeAddon);
}
let loadedAddon: NativeAddon | undefined;

// ---- the canonical text of a call, made once ----------------------------------------------------
/** The calls prepared last, with the core's canonical text of each: pi validates a copy of what
 * prepareArguments returned and hands it to execute, where a call nobody changed meanwhile (pi's
 * `tool_call` handlers may patch it, and pi does not validate it again) is taken as prepared
 * instead of written, validated and parsed a second time. Bounded: pi prepares each call of a
 * message, then runs them. */
const PREPARED_KEPT = 8;
const prepared: Array<{ canonical: unknown; text: string }> = [];

function keepPrepared(canonical: unknown, text: string): void {
  prepared.push({ canonical, text });
  if (prepared.length > PREPARED_KEPT) prepared.shift();
}

/** Whether two JSON values are the same (objects: the same keys, in any order). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let n = 0;
  for (const key in x) {
    if (!Object.prototype.hasOwnProperty.call(y, key) || !sameJson(x[key], y[key])) return false;
    n++;
  }
  for (const _ in y) n--;
  return n === 0;
}

/** The call prepared here that `params` are, unchanged — its canonical text and this module's
 * own copy of it, which no handler holds (taken: each call is run once); undefined otherwise, and
 * execute makes it again from `params`. pi validates and hands on a copy: the very object
 * prepared counts as not prepared (a host that handed it on could have patched it in place). */
function preparedCall(params: unknown): { text: string; canonical: unknown } | undefined {
  const i = prepared.findIndex((p) => p.canonical !== params && sameJson(p.canonical, params));
  if (i < 0) return undefined;
  const [found] = prepared.splice(i, 1);
  return found;
}

/** After a session with a person starts, what its first question loads and decides is prepared
 * this long later (pi draws its screen first), in the idle time before the agent can ask. */
const IDLE_PREPARE_MS = 200;

export default function piQuestion(pi: ExtensionAPI): void {
  // The addon is loaded once per process at its first use (addon.ts): pi's start only looks that
  // one is there, so a checkout never built or a platform package not installed is said at once
  // (the loader's sentence; the tool is not offered).
  if (!addonPlaces().some((file) => existsSync(file))) addon();

  // One asker (one queue, one history) per extension instance, made at first use.
  let asker: Promise<Asker> | undefined;
  // tool.ts, loaded once: the loader resolves a dynamic import() again at every call (0.2 ms a
  // question, half of a small question's first frame)
  let toolModule: Promise<typeof import("./tool.ts")> | undefined;
  const getTool = () =>
    (toolModule ??= import("./tool.ts").catch((error: unknown) => {
      toolModule = undefined; // the next call tries again
      throw error;
    }));
  const getAsker = (): Promise<Asker> => (asker ??= import("./ask/ask.ts").then((m) => m.createAsker(pi, () => pi.getFlag(ANSWERS_FLAG))));

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
      const text = addon().normalize(JSON.stringify(args ?? {}));
      const canonical = JSON.parse(text) as QuestionArgs;
      keepPrepared(canonical, text);
      return canonical;
    },

    async execute(toolCallId, params, signal, _onUpdate, ctx) {
      const known = preparedCall(params);
      const [{ executeQuestion }, a] = await Promise.all([getTool(), getAsker()]);
      return executeQuestion(a, toolCallId, (known?.canonical as QuestionArgs | undefined) ?? params, signal, ctx, pi, known?.text);
    },

    renderCall(args, theme, context) {
      if (!renderers) {
        const title = theme.fg("toolTitle", theme.bold("question"));
        return placeholder((width) => (width >= 8 ? [title] : []), context);
      }
      return renderers.renderQuestionCall(args, theme, context.lastComponent);
    },

    renderResult(result, options, theme, context) {
      if (!renderers) return placeholder(() => [], context);
      const first = result.content?.[0];
      const text = first && first.type === "text" ? first.text : "";
      return renderers.renderQuestionResult(
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
    getArgumentCompletions: (prefix: string) => {
      const found = SUBCOMMANDS.filter((c) => c.startsWith(prefix)).map((c) => ({ value: c, label: c }));
      return found.length ? found : null;
    },
    handler: async (args: string, ctx: ExtensionCommandContext) => {
      const words = args.trim().split(/\s+/);
      if (words[0] === "web" && words.length <= 2 && (words[1] === undefined || words[1] === "on" || words[1] === "off")) {
        return (await getWeb()).toggle(ctx, words[1] === undefined ? undefined : words[1] === "on");
      }
      if (words[0] === "secrets" && (words[1] === undefined || words[1] === "keep") && words.length <= 2) {
        const [{ keepSecrets, secretFiles }, { SECRET }] = await Promise.all([import("./board/secrets.ts"), import("./text/text.ts")]);
        const files = secretFiles();
        const kept = words[1] === "keep" ? keepSecrets() : undefined;
        const text = kept ? SECRET.kept(kept, files.length) : !files.length ? SECRET.none : SECRET.listed(files);
        if (ctx.hasUI) ctx.ui.notify(text, "info");
        else process.stdout.write(`${text}\n`);
        return;
      }
      if (words[0] === "history" || words[0] === "forget") {
        const [m, a] = await Promise.all([import("./memory-commands.ts"), getAsker()]);
        const rest = words.slice(1).join(" ");
        return words[0] === "history" ? m.showHistory(a, rest, ctx) : m.forget(a, rest, ctx);
      }
      const [{ listQuestions }, a] = await Promise.all([import("./commands.ts"), getAsker()]);
      return listQuestions(a, args, ctx);
    },
  });

  pi.registerCommand("answer", {
    description:
      "Show the last cancelled or interrupted question again, or change your answer to the last one answered; your answers go to the agent as your next message",
    handler: async (_args: string, ctx: ExtensionCommandContext) => {
      const [{ reopenQuestion }, a] = await Promise.all([import("./commands.ts"), getAsker()]);
      return reopenQuestion(pi, a, ctx);
    },
  });

  // The message that brings such a question's answer (async.ts): drawn sanitized, as a result is
  // (pi's own drawing would print the model's labels as they are).
  pi.registerMessageRenderer?.(ANSWER_MESSAGE, (message, options, theme) => {
    if (!renderers) return placeholder(() => [], {});
    return renderers.renderAnswerMessage(message, options.expanded, theme);
  });

  // The question stepped aside from comes back with this key (aside.ts ANSWER_KEY); else it opens
  // the oldest question asked without waiting (wait: false, async.ts); pi binds no alt+a.
  pi.registerShortcut?.("alt+a", {
    description: "Show the question you stepped aside from, or the oldest one the agent asked without waiting",
    handler: async (ctx: ExtensionContext) => {
      const a = await getAsker();
      if (a.bringBack()) return; // the question the person stepped aside from (aside.ts)
      const { asyncQuestions } = await import("./ask/async.ts");
      void asyncQuestions(pi, a).openOldest(ctx); // shown while pi goes on; never awaited here
    },
  });
  /** Session start: the questions of this branch asked without waiting that never ended wait
   * again (after /reload, on resume); async.ts is loaded only when the branch has one. */
  const restoreAsync = async (ctx: ExtensionContext) => {
    let branch: unknown[] = [];
    try {
      branch = ctx.sessionManager.getBranch();
    } catch {
      return;
    }
    if (!branch.some((e) => (e as { customType?: string }).customType === "pi-question-async")) return;
    const [{ asyncQuestions }, a] = await Promise.all([import("./ask/async.ts"), getAsker()]);
    asyncQuestions(pi, a).restore(ctx);
  };

  // The web page (web-host.ts): loaded when /questions web or the setting turns it on.
  let web: Promise<WebControl> | undefined;
  const getWeb = (): Promise<WebControl> =>
    (web ??= Promise.all([import("./elsewhere/web-host.ts"), getAsker()]).then(([m, a]) => m.hostWeb(pi, a)));

  // What a subagent's unanswered question does to the turns above it (subagent-outcome.ts):
  // loaded when a session starts, before any tool runs.
  let outcomes: Promise<SubagentOutcomes> | undefined;
  const getOutcomes = (): Promise<SubagentOutcomes> =>
    (outcomes ??= import("./elsewhere/subagent-outcome.ts").then((m) => m.subagentOutcomes(pi)));
  pi.on("tool_execution_start", async (event) => (await outcomes)?.started(event.toolCallId));
  pi.on("tool_execution_end", async (event) => (await outcomes)?.ended(event.toolCallId));
  pi.on("tool_result", async (event, ctx) => (await outcomes)?.toolResult(event, ctx));
  pi.on("message_end", async (event) => (await outcomes)?.messageEnd(event.message));

  // The relay: offered once a session starts (when this pi can ask someone), closed at its end.
  let relay: Promise<RelayHost> | undefined;
  pi.on("session_start", async (_event, ctx) => {
    shut = false;
    // The addon is loaded here at the latest (the relay needs it): one that is there but does not
    // load (refused, another version, broken) takes the tool away from the model, saying why.
    try {
      addon((text) => (ctx.hasUI ? ctx.ui.notify(text.trim(), "warning") : process.stderr.write(text)));
    } catch (error) {
      pi.setActiveTools?.(pi.getActiveTools().filter((name) => name !== "question"));
      const why = error instanceof Error ? error.message : String(error);
      if (ctx.hasUI) ctx.ui.notify(why, "error");
      else process.stderr.write(`${why}\n`);
      return;
    }
    relay ??= import("./elsewhere/relay-host.ts").then((m) => m.relayHost(pi, getAsker, getOutcomes));
    // Where this session's secret answers are handed over (a directory made at the first one).
    const secrets = await import("./board/secrets.ts");
    let sessionId: string | undefined;
    try {
      sessionId = (ctx.sessionManager as { getSessionId?: () => string } | undefined)?.getSessionId?.();
    } catch {
      // an older pi: a fresh name does
    }
    secrets.startSecrets(() => secrets.secretDirFor(ctx.cwd, sessionId));
    await Promise.all([
      ctx.hasUI ? loadRenderers() : undefined,
      relay.then((r) => r.start(ctx)),
      ctx.hasUI ? startWebIfSet(ctx) : undefined,
    ]);
    if (ctx.hasUI) await restoreAsync(ctx);
    // After the others: pi 0.87's loader can hand a module that two imports load at once to one
    // of them unfinished (subagent-outcome.ts shares text.ts with ask.ts).
    await getOutcomes();
    if (!shut && ctx.hasUI) prepareWhenIdle(ctx); // not on a context the shutdown made stale
  });
  /** What the first question loads and decides (the asking modules, the width rules, the
   * settings and remembered answers: ask.ts prepare) is done once pi has drawn its screen, in
   * the idle time before the agent can ask: a session with a person only (a subagent's pi or a
   * print run rarely asks, and pays nothing for it). */
  let preparing: ReturnType<typeof setTimeout> | undefined;
  let shut = false; // session_shutdown came: nothing more is prepared for this instance
  const prepareWhenIdle = (ctx: ExtensionContext) => {
    clearTimeout(preparing);
    if (shut) return;
    preparing = setTimeout(() => {
      preparing = undefined;
      if (shut) return;
      void Promise.all([getTool(), getAsker()])
        .then(([, a]) => a.prepare(ctx))
        .catch(() => undefined); // the first question does it then
    }, IDLE_PREPARE_MS);
    preparing.unref?.();
  };
  /** The setting "web": { "enabled": true } starts the page with every session that has a UI;
   * the setting "accessible" is remembered for the transcript. */
  const startWebIfSet = async (ctx: ExtensionContext) => {
    const [a, { useAccessible }, { accessibleMode }] = await Promise.all([
      getAsker(),
      import("./text/i18n.ts"),
      import("./text/settings.ts"),
    ]);
    const s = a.settings(ctx);
    useAccessible(accessibleMode(s)); // the transcript follows the setting (transcript.ts)
    if (s.web.enabled) await (await getWeb()).sessionStart(ctx);
  };
  // Every answer to a question asked without waiting reaches the agent exactly once (async.ts):
  // its end is recorded when pi delivers the message (message_end), a message pi dropped (Esc
  // clears the steering queue) is sent again at the next idle moment, and a copy that still
  // arrives twice (sent again while pi held the first) is hidden and left out of what the model
  // reads. /tree: the questions and answers of the branch left stop waiting, those of the
  // branch reached wait or are sent.
  const asyncOf = async () => (asker ? (await asker).asyncQuestions : undefined);
  pi.on("message_end", async (event, ctx) => {
    const message = event.message as { role?: string; customType?: string; details?: { qid?: unknown } };
    const qid = message.role === "custom" && message.customType === ANSWER_MESSAGE ? message.details?.qid : undefined;
    if (typeof qid !== "string") return undefined;
    // pi persists the message after message_end: one already on the branch makes this a copy
    const { answerInBranch } = await import("./ask/async.ts");
    let branch: unknown[] = [];
    try {
      branch = ctx.sessionManager.getBranch();
    } catch {
      return undefined;
    }
    if (answerInBranch(branch as Parameters<typeof answerInBranch>[0], qid)) return { message: { ...event.message, display: false } };
    (await asyncOf())?.delivered(qid);
    return undefined;
  });
  pi.on("context", (event) => {
    const seen = new Set<string>();
    let copies = false;
    const messages = event.messages.filter((m) => {
      const message = m as { role?: string; customType?: string; details?: { qid?: unknown } };
      const qid = message.role === "custom" && message.customType === ANSWER_MESSAGE ? message.details?.qid : undefined;
      if (typeof qid !== "string") return true;
      if (seen.has(qid)) return !(copies = true);
      seen.add(qid);
      return true;
    });
    return copies ? { messages } : undefined;
  });
  const settled = async (_event: unknown, ctx: ExtensionContext) => (await asyncOf())?.settled(ctx);
  pi.on("agent_end", settled);
  // pi ≥ 1.5: the run is over for good (agent_end may be followed by more runs); 0.73 has no such event
  (pi.on as (event: string, handler: typeof settled) => void)("agent_settled", settled);
  pi.on("session_tree", async (_event, ctx) => {
    if (!ctx.hasUI) return;
    (await asyncOf())?.leaveBranch(ctx);
    await restoreAsync(ctx);
  });

  pi.on("session_shutdown", async (event) => {
    shut = true;
    clearTimeout(preparing);
    // Off pi's event bus (it outlives this instance: after /reload a stale board would refuse
    // the next one's answers); the questions asked without waiting leave unended.
    (await asyncOf())?.stop();
    if (asker) (await asker).close();
    if (relay) (await relay).stop();
    if (web) (await web).stop();
    // removed unless the person kept them; a reload or fork goes on with them (its context names them)
    (await import("./board/secrets.ts")).endSecrets((event as { reason?: string } | undefined)?.reason);
  });
}
