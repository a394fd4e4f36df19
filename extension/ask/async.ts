// async.ts — questions asked without waiting (`wait: false`): the call returns at once (status
// "asked", the question's id), the question waits on the board where every face reaches it (the
// page, `pi-question answer`, /questions, the event bus) and in a line above pi's editor ("1
// question waiting — /answer or Alt+A to answer"); the shortcut and /answer open the oldest one
// through the same queue as every question. When it ends, however it ends, its result text
// reaches the agent as a message, exactly once: steering the work when the agent is busy,
// starting a turn when it is idle. The session remembers each one (an entry when asked, another
// when it ends), so /reload and a resumed session post the unanswered ones again with their ids.
// Loaded at the first such question, or at a session start whose branch has one.
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { addon } from "../addon.ts";
import type { ArgsJson } from "../addon-types.ts";
import { type QuestionResult, toToolResult } from "../board/result.ts";
import type { NormalizedQuestion, QuestionDetails } from "../question-types.ts";
import { fill, strings } from "../text/i18n.ts";
import type { Asker, Later } from "./ask.ts";

/** The key that opens the oldest waiting question (index.ts registers it: pi binds no alt+a). */
export const ANSWER_KEY = "alt+a";
/** The session entry of a question asked without waiting: { qid, args, askedAt }. */
export const ASKED_ENTRY = "pi-question-async";
/** The session entry of its end: { qid, status }. */
export const ENDED_ENTRY = "pi-question-async-end";
/** The custom message that brings the answer to the agent. */
export const MESSAGE_TYPE = "pi-question-answer";
/** The line above the editor. */
const WIDGET = "pi-question-async";

/** What the model reads before the answer's text: which question it answers (it asked earlier
 * and went on). English, like every model-facing sentence. */
export const answerMessage = (qid: string, text: string): string =>
  `The answer to question ${qid}, which you asked without waiting:\n${text}`;

/** What the message carries besides its text. */
export interface AnswerMessageDetails {
  qid: string;
  result: QuestionDetails;
}

export interface AsyncQuestions {
  /** The call of a question with wait: false, in a session with a UI: posted, remembered, the
   * line shown; returns the tool's result at once. */
  ask(json: ArgsJson, questions: NormalizedQuestion[], ctx: ExtensionContext): QuestionResult;
  /** Opens the oldest waiting one (the shortcut, /answer); false when none waits. */
  openOldest(ctx: ExtensionContext): Promise<boolean>;
  /** Session start (/reload, resume): posts again every question of the branch asked without
   * waiting that has not ended, with its id, and shows the line. */
  restore(ctx: ExtensionContext): void;
  /** Those waiting now, oldest first. */
  readonly waiting: readonly Later[];
}

const instances = new WeakMap<Asker, AsyncQuestions>();

/** "alt+a" → "Alt+A", as the line names the key. */
export function keyName(key: string): string {
  return key
    .split("+")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("+");
}

/** The one manager of `asker`'s questions asked without waiting. */
export function asyncQuestions(pi: ExtensionAPI, asker: Asker): AsyncQuestions {
  const known = instances.get(asker);
  if (known) return known;
  const waiting: Later[] = [];
  let ctx: ExtensionContext | undefined; // the latest context with a UI: the line, isIdle

  const showLine = () => {
    if (!ctx?.hasUI) return;
    const t = strings();
    const n = waiting.length;
    const line =
      n === 1 ? fill(t.ASYNC_WAITING_ONE, { s: keyName(ANSWER_KEY) }) : fill(t.ASYNC_WAITING_MANY, { n, s: keyName(ANSWER_KEY) });
    try {
      ctx.ui.setWidget(WIDGET, n ? [line] : undefined);
    } catch {
      // a context pi has retired (the session moved on): the next one shows it
    }
  };

  const deliver = (later: Later, result: QuestionResult) => {
    const at = waiting.indexOf(later);
    if (at >= 0) waiting.splice(at, 1);
    showLine();
    const text = result.content[0]?.type === "text" ? result.content[0].text : "";
    pi.appendEntry(ENDED_ENTRY, { qid: later.qid, status: result.details.status });
    let idle = true;
    try {
      idle = ctx ? ctx.isIdle() : true;
    } catch {
      idle = true;
    }
    const details: AnswerMessageDetails = { qid: later.qid, result: result.details };
    pi.sendMessage(
      { customType: MESSAGE_TYPE, content: answerMessage(later.qid, text), display: true, details },
      idle ? { triggerTurn: true } : { deliverAs: "steer" },
    );
  };

  const post = (json: ArgsJson, questions: NormalizedQuestion[], here: ExtensionContext, qid?: string): Later => {
    const later = asker.later(json, questions, here, qid);
    waiting.push(later);
    later.ended.then(
      (result) => {
        try {
          deliver(later, result);
        } catch {
          // a pi that went away (its session replaced): an unhandled rejection would end pi itself
        }
      },
      () => undefined, // `ended` only resolves
    );
    return later;
  };

  const manager: AsyncQuestions = {
    get waiting() {
      return waiting;
    },
    ask(json, questions, here) {
      ctx = here;
      const native = addon();
      const later = post(json, questions, here);
      const args = native.normalize(json);
      pi.appendEntry(ASKED_ENTRY, { qid: later.qid, args, askedAt: Date.now() });
      showLine();
      const mode = (here as { mode?: string }).mode === "rpc" ? "rpc" : "interactive";
      return toToolResult(native.result(json, "asked", mode, Date.now(), later.qid, null, 0));
    },
    async openOldest(here) {
      ctx = here;
      const oldest = waiting.find((w) => !w.done);
      if (!oldest) return false;
      await oldest.open(here);
      return true;
    },
    restore(here) {
      ctx = here;
      let branch: unknown[] = [];
      try {
        branch = here.sessionManager.getBranch();
      } catch {
        return;
      }
      const asked = new Map<string, { args: string }>();
      for (const e of branch as Array<{ type?: string; customType?: string; data?: { qid?: unknown; args?: unknown } }>) {
        if (e?.type !== "custom" || typeof e.data?.qid !== "string") continue;
        if (e.customType === ASKED_ENTRY && typeof e.data.args === "string") asked.set(e.data.qid, { args: e.data.args });
        else if (e.customType === ENDED_ENTRY) asked.delete(e.data.qid);
      }
      const native = addon();
      for (const [qid, { args }] of asked) {
        if (waiting.some((w) => w.qid === qid)) continue;
        const json = { prepared: args };
        let questions: NormalizedQuestion[];
        try {
          questions = (JSON.parse(native.normalize(json)) as { questions: NormalizedQuestion[] }).questions;
        } catch {
          continue; // an entry this version cannot read: nothing to show
        }
        post(json, questions, here, qid);
      }
      showLine();
    },
  };
  instances.set(asker, manager);
  return manager;
}
