// ask.ts — asking, in whatever way the mode allows, with the user's settings: pi's TUI
// (interactive), pi's dialogs (RPC), or answers from the flag / pending file / terminal (print
// and JSON mode). One queue per extension instance: two questions are never shown at once.
import { basename } from "node:path";
import type { AgentToolResult, ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { askWithDialogs } from "./dialogs.ts";
import { ANSWERS_FLAG, answerWithoutTui } from "./headless.ts";
import { askInTui } from "./interactive.ts";
import { type ArgsJson, CANCEL_CONTINUES, type NativeAddon } from "./native.ts";
import type { NormalizedQuestion, QuestionDetails } from "./schema.ts";
import { loadSettings, resolveLanguage, type Settings } from "./settings.ts";
import { fill, stringsFor, useLanguage } from "./i18n.ts";
import { screenOf } from "./screen.ts";
import { SETTINGS_TEXT } from "./text.ts";

export type QuestionResult = AgentToolResult<QuestionDetails> & { terminate?: boolean };

/** The tool result from the C core's { details, text }. A cancel ends the agent's turn unless
 * the user's settings say Esc should let the agent continue. */
export function toToolResult(built: { details: string; text: string }, settings?: Settings): QuestionResult {
  const details = JSON.parse(built.details) as QuestionDetails;
  const terminate = details.status === "cancelled" && settings?.escape !== "continue";
  return { content: [{ type: "text", text: built.text }], details, ...(terminate ? { terminate: true } : {}) };
}

export interface Asker {
  /** Questions asked through this instance, newest last. */
  readonly history: QuestionDetails[];
  /** The arguments of the last question that ended cancelled or interrupted, if any. */
  lastUnanswered(): ArgsJson | undefined;
  settings(ctx: ExtensionContext): Settings;
  /** Throws when the call exceeds the user's own (lower) limits. */
  checkLimits(questions: NormalizedQuestion[], settings: Settings): void;
  ask(json: ArgsJson, questions: NormalizedQuestion[], ctx: ExtensionContext, signal: AbortSignal | undefined): Promise<QuestionResult>;
}

export function createAsker(pi: ExtensionAPI, native: NativeAddon): Asker {
  const history: QuestionDetails[] = [];
  const warned = new Set<string>();
  let unanswered: ArgsJson | undefined;
  let tail: Promise<unknown> = Promise.resolve();

  const enqueue = <T>(run: () => Promise<T>): Promise<T> => {
    const next = tail.then(run, run);
    tail = next.catch(() => undefined);
    return next;
  };

  const settings = (ctx: ExtensionContext): Settings =>
    loadSettings(ctx.cwd, (message) => {
      if (warned.has(message)) return;
      warned.add(message);
      screenOf(native, ctx).notify(message, "warning"); // quotes the settings file: sanitized there
    });

  /** Gets the person's attention while a question waits; returns the way to undo it. */
  const notice = (ctx: ExtensionContext, s: Settings, prompt: string): (() => void) => {
    const short = Array.from(native.sanitize(prompt, false)).slice(0, 60).join("");
    const t = stringsFor(native);
    const screen = screenOf(native, ctx);
    if (s.notice.title) screen.title(fill(t.NOTICE_TITLE, { s: short }));
    if (s.notice.bell && process.stdout.isTTY) process.stdout.write("\x07"); // the bell itself, nothing quoted
    if (s.notice.notify) screen.notify(fill(t.NOTICE_NOTIFY, { s: short }), "info");
    return () => {
      if (!s.notice.title) return;
      const name = pi.getSessionName();
      const dir = basename(ctx.cwd);
      screen.title(name ? `π - ${name} - ${dir}` : `π - ${dir}`);
    };
  };

  const askNow = async (
    json: ArgsJson,
    questions: NormalizedQuestion[],
    ctx: ExtensionContext,
    signal: AbortSignal | undefined,
    s: Settings,
  ): Promise<QuestionResult> => {
    const language = resolveLanguage(s.language);
    useLanguage(language);
    if (!ctx.hasUI) return answerWithoutTui(native, json, questions, ctx.cwd, pi.getFlag(ANSWERS_FLAG), signal, s);
    const restore = notice(ctx, s, questions[0]?.prompt ?? "");
    try {
      const flags = s.escape === "continue" ? CANCEL_CONTINUES : 0;
      const engine = native.createEngine(json);
      let outcome;
      try {
        engine.setLanguage(language);
        outcome = await askInTui(native, engine, ctx, signal);
        if (outcome !== undefined) return toToolResult(engine.result("interactive", Date.now(), null, flags), s);
      } finally {
        engine.dispose();
      }
      // No custom components here (RPC mode): the same questions through pi's dialogs.
      const preset = (JSON.parse(native.normalize(json)) as { answers?: Record<string, unknown> }).answers ?? {};
      const asked = await askWithDialogs(native, questions, ctx, signal, preset);
      const answers = asked.answers ? JSON.stringify(asked.answers) : null;
      return toToolResult(native.result(json, asked.outcome, "rpc", Date.now(), null, answers, flags), s);
    } finally {
      restore();
    }
  };

  return {
    history,
    lastUnanswered: () => unanswered,
    settings,
    checkLimits(questions, s) {
      const maxQ = s.limits.questions;
      if (maxQ !== undefined && questions.length > maxQ) throw new Error(SETTINGS_TEXT.overLimit("questions", questions.length, maxQ));
      const maxO = s.limits.options;
      const most = Math.max(0, ...questions.map((q) => q.options?.length ?? 0));
      if (maxO !== undefined && most > maxO) throw new Error(SETTINGS_TEXT.overLimit("options in one question", most, maxO));
    },
    ask(json, questions, ctx, signal) {
      return enqueue(async () => {
        const result = await askNow(json, questions, ctx, signal, settings(ctx));
        history.push(result.details);
        const status = result.details.status;
        if (status === "cancelled" || status === "interrupted") unanswered = json;
        else if (status === "answered" || status === "declined") unanswered = undefined;
        return result;
      });
    },
  };
}
