// events.ts — the questions on pi's event bus (pi.events), for other extensions (a chat bridge,
// a bot, a test harness): every question that starts waiting is announced on "question:asked",
// and its end on "question:ended". Another extension answers one with "question:answer"; the
// answer goes through the board like every answer from elsewhere (validated by the C core, taken
// only if the question still waits and nobody answered first: exactly once) and its result says
// details.mode "extension": the model and the transcript are told another extension answered,
// not the person (under the name it gives itself, `source`, said as unverified), and such an
// answer is never remembered as the person's (memory.ts). An answer that is not taken is said
// back on "question:refused".
// What the model wrote reaches the bus as it is (other extensions are code, not a terminal: they
// sanitize what they show); nothing an extension sends can throw out of here.
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { addon } from "../addon.ts";
import { withOptionObjects } from "../question-types.ts";
import type { Board, Waiting } from "./board.ts";

/** The channels, as other extensions name them. */
export const CHANNELS = {
  asked: "question:asked",
  ended: "question:ended",
  answer: "question:answer",
  refused: "question:refused",
} as const;

/** What "question:asked" carries. */
export interface AskedEvent {
  id: string;
  questions: Waiting["questions"];
  /** The subagent that asked through the relay ("worker"), or null for this pi's own agent. */
  asker: string | null;
  cwd: string;
  /** False: the agent waits for the answer; true: it was asked without waiting (wait: false) and
   * the answer reaches the agent as a message. */
  async: boolean;
}

/** What "question:ended" carries: how the question stopped waiting. */
export interface EndedEvent {
  id: string;
  outcome: "answered" | "cancelled" | "timed_out" | "withdrawn";
}

/** What another extension sends on "question:answer": `answers` in the form `pi-question answer`
 * takes (by question id: a label or value, a list for multi-select, or { selected, wrote, note },
 * or { skipped: "skipped" | "chat" } in a call of several; under "" a note on the whole call),
 * or an `outcome` without answers ("declined", "cancelled", "discuss" with `discussion`). */
export interface AnswerEvent {
  id: string;
  answers?: unknown;
  outcome?: string;
  discussion?: string;
  /** The name this extension gives itself ("autopilot"): said to the model and in the
   * transcript as its own, unverified claim (sanitized; at most limits.answerSourceBytes). */
  source?: string;
}

/** What "question:refused" carries. */
export interface RefusedEvent {
  id: string | null;
  code: string;
  reason: string;
}

/** What was thrown, as words: anything may be thrown (null, a string, an object whose getters throw). */
function messageOf(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message);
    return error === null || error === undefined ? String(error) : `${typeof error} thrown`;
  } catch {
    return "something was thrown";
  }
}

/** Says `data` on pi's bus; a listener of another extension that throws is its own problem,
 * never the question's (and a stand-in for pi without a bus, in some tests, hears nothing). */
export function emitOnBus(pi: ExtensionAPI, channel: string, data: unknown): void {
  try {
    pi.events?.emit(channel, data);
  } catch {
    // a listener of another extension threw
  }
}

/** Announces `board`'s questions on pi's bus and takes answers from it; returns the way to stop. */
export function hostEvents(pi: ExtensionAPI, board: Board, cwd: () => string): () => void {
  if (!pi.events) return () => undefined; // a stand-in for pi without a bus (some tests)
  const announced = new Set<string>();
  const emit = (channel: string, data: unknown) => emitOnBus(pi, channel, data);
  /** Said after the board's change is over: a listener that answers at once (an autopilot)
   * reaches a board that is not in the middle of telling its watchers. */
  const announce = (channel: string, data: unknown) => queueMicrotask(() => emit(channel, data));
  const changed = () => {
    for (const w of board.waiting.values()) {
      if (announced.has(w.qid) || w.settled) continue;
      announced.add(w.qid);
      const questions = w.questions;
      let given: AskedEvent["questions"] | undefined;
      const asked: AskedEvent = {
        id: w.qid,
        // every option an object, made when a listener first reads them (none may be listening);
        // a listener may still set it, as it could a plain property
        get questions() {
          return (given ??= withOptionObjects(questions));
        },
        set questions(value) {
          given = value;
        },
        asker: w.askedBy ?? null,
        cwd: cwd(),
        async: w.async === true,
      };
      announce(CHANNELS.asked, asked);
    }
    for (const qid of [...announced]) {
      const w = board.waiting.get(qid);
      if (w && !w.settled) continue;
      const ending = board.ended.get(qid)?.ending;
      if (!ending && w) continue; // settled but not ended yet: the end comes with the next change
      announced.delete(qid);
      const ended: EndedEvent = { id: qid, outcome: ending ?? "withdrawn" };
      announce(CHANNELS.ended, ended);
    }
  };
  const refuse = (id: unknown, code: string, reason: string) => {
    const refused: RefusedEvent = { id: typeof id === "string" ? id : null, code, reason };
    emit(CHANNELS.refused, refused);
  };
  const answer = (data: unknown) => {
    let id: string | null = null;
    try {
      if (!data || typeof data !== "object" || Array.isArray(data))
        return refuse(null, "invalid", "question:answer takes an object: { id, answers } or { id, outcome }");
      const m = data as Record<string, unknown>;
      // Each field read once: a getter may throw anything (null too) or answer differently twice.
      const given = m.id;
      if (typeof given !== "string") return refuse(null, "invalid", "id must be the question's id, a string (from question:asked)");
      id = given;
      const outcomeGiven = m.outcome;
      if (outcomeGiven !== undefined && typeof outcomeGiven !== "string") return refuse(id, "invalid", "outcome must be a string");
      const outcome = outcomeGiven ?? "answered";
      const source = m.source;
      if (source !== undefined && typeof source !== "string")
        return refuse(id, "invalid", 'source must be a string: the name this extension gives itself, e.g. "autopilot"');
      const most = addon().limits.answerSourceBytes;
      if (typeof source === "string" && Buffer.byteLength(source, "utf8") > most)
        return refuse(id, "invalid", `source is ${Buffer.byteLength(source, "utf8")} bytes; a name of at most ${most} bytes, please`);
      const answers = m.answers;
      let answersJson: string | null = null;
      if (answers !== undefined && answers !== null) {
        try {
          answersJson = JSON.stringify(answers);
        } catch (error) {
          return refuse(id, "invalid", `the answers cannot be read: ${messageOf(error)}`);
        }
      }
      const verdict = board.answer(id, outcome, answersJson, "extension", m.discussion, undefined, source);
      if (!verdict.ok) refuse(id, verdict.code, verdict.reason);
    } catch (error) {
      refuse(id, "invalid", `the answer could not be handled: ${messageOf(error)}`);
    }
  };
  const stops = [board.subscribe(changed), pi.events.on(CHANNELS.answer, answer)];
  changed();
  return () => {
    for (const stop of stops) stop();
  };
}
