// async.ts — questions asked without waiting (`wait: false`): the call returns at once (status
// "asked", the question's id), the question waits on the board where every face reaches it (the
// page, `pi-question answer`, /questions, the event bus) and in a line above pi's editor ("1
// question waiting — /answer or Alt+A to answer"); the shortcut and /answer open the oldest one
// through the same queue as every question. When it ends, however it ends, its result text
// reaches the agent as a message, exactly once: steering the work when the agent is busy,
// starting a turn when it is idle. The session remembers each one on its branch: an entry when
// asked, one with the answer when it ends, and one more once the message is really in the
// session (pi's message_end for it, or its entry on the branch). pi can drop a steering message
// (Esc stops the agent and clears its queue): an answer not delivered by the next idle moment is
// sent again, added to the conversation without starting a turn. /reload, a resumed session and
// /tree take everything from the branch: unanswered questions wait again with their ids,
// undelivered answers are sent, delivered ones never again; what the branch does not hold stops
// waiting. Loaded at the first such question, or at a session start whose branch has one.
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { addon, canonicalText } from "../addon.ts";
import type { ArgsJson } from "../addon-types.ts";
import { type QuestionResult, toToolResult } from "../board/result.ts";
import type { NormalizedQuestion, QuestionDetails } from "../question-types.ts";
import { fill, strings } from "../text/i18n.ts";
import type { Asker, AsyncQuestions, Later } from "./ask.ts";
import { ANSWER_KEY, keyName } from "./aside.ts";

/** The session entry of a question asked without waiting: { qid, args, askedAt }. */
export const ASKED_ENTRY = "pi-question-async";
/** The session entry of its answer, written when it ends, before the message is delivered:
 * { qid, status, content, details } (the message's text and details, to send it again). */
export const ANSWERED_ENTRY = "pi-question-async-answer";
/** The session entry written once its message is in the session: { qid, status }. */
export const ENDED_ENTRY = "pi-question-async-end";
/** The custom message that brings the answer to the agent. */
export const MESSAGE_TYPE = "pi-question-answer";
/** How often pi is asked whether it is idle while an answer waits to be sent again (ms). */
const IDLE_POLL_MS = 100;
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

/** An answer on its way to the agent: the message, and how it was last sent. */
interface Outgoing {
  qid: string;
  status: string;
  content: string;
  details: AnswerMessageDetails;
  /** "steer": queued in pi (pi may drop it); "turn": it started a turn (pi may refuse if busy);
   * "added": added to the conversation at once (nothing better to try in this instance). */
  sent?: "steer" | "turn" | "added";
}

type Entry = { type?: string; customType?: string; data?: Record<string, unknown>; details?: { qid?: unknown } };

/** The branch of the session `ctx` shows, [] when pi retired the context. */
function branchOf(ctx: ExtensionContext | undefined): Entry[] {
  try {
    return (ctx?.sessionManager.getBranch() ?? []) as Entry[];
  } catch {
    return [];
  }
}

/** Whether the branch holds the message that brings question `qid`'s answer (pi persists the
 * message when it is in the agent's context). */
export function answerInBranch(branch: readonly Entry[], qid: string): boolean {
  return branch.some((e) => e?.type === "custom_message" && e.customType === MESSAGE_TYPE && e.details?.qid === qid);
}

const instances = new WeakMap<Asker, AsyncQuestions>();

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

  const outbox = new Map<string, Outgoing>(); // answers not in the session yet, by qid
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const isIdle = (here: ExtensionContext | undefined): boolean => {
    try {
      return here ? here.isIdle() : true;
    } catch {
      return true;
    }
  };

  /** It is in the session: the end is recorded, once. */
  const delivered = (qid: string) => {
    const out = outbox.get(qid);
    if (!out) return;
    outbox.delete(qid);
    pi.appendEntry(ENDED_ENTRY, { qid, status: out.status });
  };

  /** Sends `out`: steering a busy agent; to an idle one, starting a turn the first time (`turn`),
   * else added to the conversation only (the person stopped the agent, or left: a recovered
   * answer never starts it). Checks the branch first and after: pi adds a message sent to an
   * idle agent without a turn at once, with no message_end for extensions. */
  const send = (out: Outgoing, here: ExtensionContext | undefined, turn: boolean) => {
    if (stopped) return;
    if (answerInBranch(branchOf(here), out.qid)) return delivered(out.qid);
    const idle = isIdle(here);
    out.sent = !idle ? "steer" : turn ? "turn" : "added";
    pi.sendMessage(
      { customType: MESSAGE_TYPE, content: out.content, display: true, details: out.details },
      !idle ? { deliverAs: "steer" } : turn ? { triggerTurn: true } : {},
    );
    if (answerInBranch(branchOf(here), out.qid)) delivered(out.qid);
  };

  /** At the next idle moment, answers pi did not deliver are sent again (once more in this
   * instance when added at once; the next instance tries from the session). pi is idle once
   * its run's end is handled (right after agent_end), or later: a retry, a compaction. */
  const resendWhenIdle = (here: ExtensionContext, delay = 0) => {
    if (retry) clearTimeout(retry);
    retry = setTimeout(() => {
      retry = undefined;
      if (stopped || !outbox.size) return;
      if (!isIdle(here)) return resendWhenIdle(here, IDLE_POLL_MS); // a run goes on: look again
      try {
        for (const out of [...outbox.values()]) if (out.sent !== "added") send(out, here, false);
      } catch {
        // a pi that went away (its session replaced): the session holds the answer for the next
      }
    }, delay);
    retry.unref?.();
  };

  const deliver = (later: Later, result: QuestionResult) => {
    const at = waiting.indexOf(later);
    if (at >= 0) waiting.splice(at, 1);
    showLine();
    const text = result.content[0]?.type === "text" ? result.content[0].text : "";
    const out: Outgoing = {
      qid: later.qid,
      status: result.details.status,
      content: answerMessage(later.qid, text),
      details: { qid: later.qid, result: result.details },
    };
    // the answer first, in the session: if pi drops the message or the session ends before it
    // arrives, the next idle moment or the next instance sends it from here
    pi.appendEntry(ANSWERED_ENTRY, { qid: out.qid, status: out.status, content: out.content, details: out.details });
    outbox.set(out.qid, out);
    send(out, ctx, true);
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
      const args = canonicalText(json);
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
      const branch = branchOf(here);
      const asked = new Map<string, { args: string }>();
      const answered = new Map<string, Outgoing>();
      const done = new Set<string>();
      for (const e of branch) {
        if (e?.type === "custom_message" && e.customType === MESSAGE_TYPE && typeof e.details?.qid === "string") done.add(e.details.qid);
        if (e?.type !== "custom" || typeof e.data?.qid !== "string") continue;
        const qid = e.data.qid;
        if (e.customType === ASKED_ENTRY && typeof e.data.args === "string") asked.set(qid, { args: e.data.args });
        else if (e.customType === ENDED_ENTRY) done.add(qid);
        else if (e.customType === ANSWERED_ENTRY && typeof e.data.content === "string" && typeof e.data.status === "string")
          answered.set(qid, {
            qid,
            status: e.data.status,
            content: e.data.content,
            details: (e.data.details ?? { qid }) as AnswerMessageDetails,
          });
      }
      // answered, not delivered: sent again (no turn when idle), once
      for (const [qid, out] of answered) {
        if (done.has(qid)) continue;
        const known = outbox.get(qid);
        if (known?.sent) continue; // this instance sent it already: settled() takes care of it
        outbox.set(qid, out);
        send(out, here, false);
      }
      const native = addon();
      for (const [qid, { args }] of asked) {
        if (done.has(qid) || answered.has(qid) || waiting.some((w) => w.qid === qid)) continue;
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
    delivered,
    settled(here) {
      if (outbox.size) resendWhenIdle(here);
    },
    leaveBranch(here) {
      ctx = here;
      const branch = branchOf(here);
      const asked = new Set<string>();
      const answered = new Set<string>();
      for (const e of branch) {
        if (e?.type !== "custom" || typeof e.data?.qid !== "string") continue;
        if (e.customType === ASKED_ENTRY) asked.add(e.data.qid);
        else if (e.customType === ANSWERED_ENTRY) answered.add(e.data.qid);
      }
      for (const later of [...waiting]) {
        if (asked.has(later.qid) && !answered.has(later.qid)) continue;
        waiting.splice(waiting.indexOf(later), 1);
        later.drop(); // off the board and off the screen; its branch still holds it
      }
      for (const qid of [...outbox.keys()]) if (!answered.has(qid)) outbox.delete(qid); // sent when the branch is back
      showLine();
    },
    stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      retry = undefined;
    },
  };
  instances.set(asker, manager);
  asker.asyncQuestions = manager; // pi's events reach it through index.ts
  return manager;
}
