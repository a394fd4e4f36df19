// board.ts — the board of waiting questions: the one place that decides who answered. Every
// surface uses it the same way: the asker posts each question it asks (pi's TUI, RPC dialogs,
// the terminal runner, print mode, a subagent's question through the relay) and claims it at the
// person's final key; the relay endpoint, `pi-question answer` and the web page list what waits,
// watch it and answer it from elsewhere. It keeps:
//   - ids ("q" + 8 hex digits) and the questions waiting now, in the order asked;
//   - claims: first answer wins, exactly once — the person's key (on this thread, or the terminal
//     runner's atomic claim on its own), an answer from another terminal or the page, a relay reply;
//   - endings: the last limits.endedRemembered questions that stopped waiting and how, so a
//     late answer is told exactly that ("already answered", "cancelled", … or "not waiting");
//   - withdrawals (the asker went away before anyone answered);
//   - the queue: which question is in front (one shown at a time), and the signals that tell
//     watchers (the page's live list, a relay `watch`) that something changed;
//   - each waiting question's one flow (flow.ts): the engine every face here drives, made at the
//     first face's need, freed when the question stops waiting.
// It knows nothing of how a question is shown or of the relay: the asker hands each posted
// question the way to build the result of an answer from elsewhere.
import { randomFillSync } from "node:crypto";
import { addon } from "../addon.ts";
import { fill, strings } from "../text/i18n.ts";
import { SECRET } from "../text/text.ts";
import { ENDING_STRINGS, type Ending, endingOf } from "./endings.mjs";
import { createFlow, type Face, type Flow, type OwnedFlow } from "./flow.ts";
import type { NativeEngine } from "../addon-types.ts";
import type { NormalizedQuestion } from "../question-types.ts";

/** The first secret question of `questions` that an answers object (parsed, or its JSON) gives an
 * answer (not null); unreadable JSON gives none. What only the person's own field may give. */
export function secretGiven(questions: readonly NormalizedQuestion[], answers: unknown): NormalizedQuestion | undefined {
  let o = answers;
  if (typeof o === "string") {
    try {
      o = JSON.parse(o);
    } catch {
      return undefined;
    }
  }
  if (!o || typeof o !== "object") return undefined;
  const given = o as Record<string, unknown>;
  return questions.find((q) => q.secret && given[q.id] !== undefined && given[q.id] !== null);
}

/** Where an answer from elsewhere came from, as details.mode says it: another terminal, the web
 * page, another extension (pi's event bus), or `pi-question answer` from a process the OS does
 * not let pi check (never taken for the person's: peer.ts). */
export type ElsewhereMode = "remote" | "web" | "extension" | "unverified";

/** What became of an answer from elsewhere: taken, or refused with a code and a sentence. The
 * codes of a question that ended: "already" (answered), "cancelled", "timed_out", "withdrawn";
 * "not_waiting": no such question (never here, or forgotten); "invalid": the answer is wrong. */
export type Verdict = { ok: true } | { ok: false; code: "not_waiting" | "invalid" | EndedCode; reason: string };
export type EndedCode = "already" | "cancelled" | "timed_out" | "withdrawn";

/** A question that stopped waiting: how it ended, and when. */
export interface Ended {
  qid: string;
  askedAt: number;
  endedAt: number;
  ending: Ending;
}

/** A question waiting for its answer, shown or queued. */
export interface Waiting {
  qid: string;
  askedAt: number;
  /** "Asked by worker" for a subagent's question (sanitized); undefined for this pi's own. */
  askedBy?: string;
  questions: NormalizedQuestion[];
  /** The canonical arguments. */
  args: string;
  /** Asked without waiting (wait: false): the agent goes on working meanwhile. */
  async?: boolean;
  /** Answered (here or elsewhere) or ended: nothing else may answer it. */
  readonly settled: boolean;
}

/** What every surface that answers from elsewhere, lists or watches uses. */
export interface Board {
  /** The questions waiting now (shown or queued), oldest first. */
  readonly waiting: ReadonlyMap<string, Waiting>;
  /** The questions that stopped waiting lately, and how each ended (oldest first). */
  readonly ended: ReadonlyMap<string, Ended>;
  /** An answer from elsewhere (another terminal, the relay's `answer`, the web page): taken only
   * if the question is still waiting and nobody answered it first — exactly once. `discussion`:
   * the person's words when the outcome is `discuss` ("talk first"). `earlier`: per question, the
   * date of a remembered answer the person kept (memory.ts), else null — from a face that opened
   * the question with the project's remembered answers (the page). `source`: with mode
   * "extension", the name the answering extension gives itself (unverified; said as such). */
  answer(
    qid: string,
    outcome: string,
    answersJson: string | null,
    mode: ElsewhereMode,
    discussion?: unknown,
    earlier?: Array<string | null>,
    source?: string,
  ): Verdict;
  /** Whether question `qid` may still be answered from elsewhere: { ok: true }, else the refusal
   * an answer to it would get now (a face that works towards an answer in steps asks first). */
  open(qid: string): Verdict;
  /** Calls `closed` once question `qid` ends (at once if it is not waiting); returns the way to stop. */
  watch(qid: string, closed: () => void): () => void;
  /** The person is answering question `qid` on this face (the page's first keystroke, which is
   * no step): its flow's clock (the person's timeout) stops for good, as at a key. */
  touch(qid: string): void;
  /** Calls `changed` whenever a question starts waiting, is answered or ends; returns the way to stop. */
  subscribe(changed: () => void): () => void;
  /** The one flow of waiting question `qid` (flow.ts), made at the first call; undefined once it
   * is answered or not waiting. */
  flow(qid: string): Flow | undefined;
  /** Calls `heard(qid, by)` after any face moves any question's flow; returns the way to stop. */
  followFlows(heard: (qid: string, by: Face) => void): () => void;
}

/** The claim of the terminal runner showing a question: it reads the person's final key on a
 * thread of its own and takes the question there, atomically. An answer from elsewhere must win
 * it first: true when it did (the question closes on the terminal), else the outcome the
 * person's key took the question with. */
export type RunnerClaim = () => true | string;

/** Builds the result of an answer from elsewhere (throws when the answers do not fit the question). */
export type BuildElsewhere<R> = (
  outcome: string,
  answersJson: string | null,
  mode: ElsewhereMode,
  said: string | null,
  earlier?: Array<string | null>,
  source?: string,
) => R;

/** One posted question, as its asker holds it. */
export interface Ticket<R> {
  readonly qid: string;
  /** Aborted when an answer from elsewhere takes the question: wherever it is shown here closes. */
  readonly stopped: AbortSignal;
  /** The result of the answer from elsewhere that took it, once one did. */
  readonly taken: R | undefined;
  /** Its one flow (made at the first call; shared with every other face showing it). */
  flow(): Flow;
  /** The person's final key here, or the question ending (`outcome`: its status): nothing else may
   * answer it after. False when something took it first. */
  claim(outcome?: string): boolean;
  /** The terminal runner hands over its claim while it shows the question (undefined: no longer). */
  claimAtKey(runner: RunnerClaim | undefined): void;
  /** The question was asked to its end with this status (claimed by it unless taken before). */
  settle(status: string): void;
  /** It stops waiting: remembered with how it ended — withdrawn when nothing settled it. */
  end(): void;
}

/** The board as the asker uses it: the surfaces' interface, plus posting and the queue. */
export interface AskersBoard<R> extends Board {
  /** A question starts waiting (it is listed and may be answered from elsewhere at once). `qid`:
   * its id when it was posted before (a question asked without waiting, posted again after
   * /reload or on resume); a new one otherwise. `open` makes its engine when a face first needs
   * it (the language, the remembered answers, who asks); by default a plain one of `args`. */
  post(
    question: { askedBy?: string; questions: NormalizedQuestion[]; args: string; qid?: string; async?: boolean },
    build: BuildElsewhere<R>,
    open?: () => NativeEngine,
  ): Ticket<R>;
  /** Runs `turn` once every turn before it ended (at once when none is in front); the next runs
   * when its promise settles. Returns the way to leave the queue before its turn comes: true
   * when it left (it will never run), false once it has started. */
  line(turn: () => Promise<unknown>): () => boolean;
}

interface Entry<R> extends Waiting {
  settled: boolean;
  ending?: Ending;
  build: BuildElsewhere<R>;
  taken?: R;
  runner?: RunnerClaim;
  stop: AbortController;
  watchers: Set<() => void>;
  open: () => NativeEngine;
  flow?: OwnedFlow;
}

const ENDED_CODE: Record<Ending, EndedCode> = {
  answered: "already",
  cancelled: "cancelled",
  timed_out: "timed_out",
  withdrawn: "withdrawn",
};

/** A question's id: "q" and 8 hex digits, never all digits, so `pi-question answer` tells an id
 * from a position. */
function newQid(): string {
  if (qidBytesUsed + QID_BYTES > qidBytes.length) {
    randomFillSync(qidBytes);
    qidBytesUsed = 0;
  }
  const qid = `q${qidBytes.toString("hex", qidBytesUsed, qidBytesUsed + QID_BYTES)}`;
  qidBytesUsed += QID_BYTES;
  return qid;
}
/** Random bytes for ids, drawn 64 ids at a time: one draw per id cost a question's first frame
 * 5-25 µs. Each byte is used once. */
const QID_BYTES = 4;
const qidBytes = Buffer.alloc(64 * QID_BYTES);
let qidBytesUsed = qidBytes.length;

export function createBoard<R>(): AskersBoard<R> {
  const waiting = new Map<string, Entry<R>>();
  const ended = new Map<string, Ended>();
  const subscribers = new Set<() => void>();
  const flowFollowers = new Set<(qid: string, by: Face) => void>();
  const flowOf = (entry: Entry<R>): OwnedFlow => {
    if (entry.flow) return entry.flow;
    const flow = createFlow(entry.open(), (by) => {
      if (flowFollowers.size === 0) return; // no page open: nothing to copy at each key
      for (const heard of [...flowFollowers]) {
        try {
          heard(entry.qid, by);
        } catch {
          // a listener's failure is its own
        }
      }
    });
    // Asked for after the question ended (a withdrawal while its face was on the way): the face
    // gets one to close over, freed when it lets go; the board keeps none.
    if (waiting.get(entry.qid) !== entry) flow.end(true);
    else entry.flow = flow;
    return flow;
  };
  const changed = () => {
    for (const s of [...subscribers]) {
      try {
        s();
      } catch {
        // a listener's failure is its own
      }
    }
  };
  const remember = (entry: Entry<R>, ending: Ending) => {
    ended.delete(entry.qid);
    ended.set(entry.qid, { qid: entry.qid, askedAt: entry.askedAt, endedAt: Date.now(), ending });
    const most = addon().limits.endedRemembered;
    for (const qid of ended.keys()) {
      if (ended.size <= most) break;
      ended.delete(qid);
    }
  };
  /** Why a later answer to a question that is not waiting is refused: precisely how it ended. */
  const refusal = (ending: Ending): Verdict => ({ ok: false, code: ENDED_CODE[ending], reason: strings()[ENDING_STRINGS[ending]] });
  /** Taken by the person here or as it ends: false when something took it first. */
  const claimAs = (entry: Entry<R>, outcome?: string): boolean => {
    if (entry.settled) return false;
    entry.settled = true;
    if (outcome) entry.ending = endingOf(outcome);
    changed();
    return true;
  };

  /** The queue: the turns waiting to be shown, in the order asked; `busy` while one is shown. A
   * turn that leaves the queue is deleted from it at once: nothing of it stays reachable. */
  const turns = new Set<() => void>();
  let busy = false;
  const advance = () => {
    const [first] = turns;
    if (!first) {
      busy = false;
      return;
    }
    turns.delete(first);
    first();
  };

  return {
    waiting,
    ended,
    answer(qid, outcome, answersJson, mode, discussion, earlier, source) {
      const entry = waiting.get(qid);
      const t = strings();
      if (!entry) {
        const was = ended.get(qid);
        return was ? refusal(was.ending) : { ok: false, code: "not_waiting", reason: t.ELSEWHERE_NOT_WAITING };
      }
      if (entry.settled) return refusal(entry.ending ?? "answered");
      if (outcome !== "answered" && outcome !== "declined" && outcome !== "cancelled" && outcome !== "discuss") {
        return {
          ok: false,
          code: "invalid",
          reason: `outcome must be answered, declined, cancelled or discuss, not ${JSON.stringify(outcome)}`,
        };
      }
      if (outcome === "discuss" && typeof discussion !== "string") {
        return { ok: false, code: "invalid", reason: "outcome discuss needs the person's words as a string in discussion" };
      }
      // The words trimmed, as the dialogs take them. The engine's editor caps them at
      // limits.discussBytes; words from elsewhere over it are refused, never cut, so the sender
      // still holds them.
      const said = outcome === "discuss" ? (discussion as string).trim() : null;
      const most = addon().limits.discussBytes;
      if (said !== null && Buffer.byteLength(said, "utf8") > most) {
        return {
          ok: false,
          code: "invalid",
          reason: fill(t.ELSEWHERE_DISCUSS_LONG, { n: Buffer.byteLength(said, "utf8"), s: String(most) }),
        };
      }
      // A secret is the person's alone to give, here or on the page: never another terminal's
      // command line, a file or another extension.
      const secret = mode === "web" ? undefined : secretGiven(entry.questions, answersJson);
      if (secret) return { ok: false, code: "invalid", reason: SECRET.elsewhere(secret.id) };
      let built: R;
      try {
        built = entry.build(outcome, answersJson, mode, said, earlier, source);
      } catch (error) {
        return { ok: false, code: "invalid", reason: (error as Error).message };
      }
      // The terminal runner claims at the person's final key on a thread of its own: its claim,
      // atomic, decides who was first (the TUI and the dialogs claim on this thread).
      const here = entry.runner?.();
      if (typeof here === "string") {
        claimAs(entry, here);
        return refusal(entry.ending ?? "answered");
      }
      entry.settled = true;
      entry.ending = endingOf(outcome);
      entry.taken = built;
      entry.stop.abort();
      changed();
      return { ok: true };
    },
    open(qid) {
      const entry = waiting.get(qid);
      if (entry && !entry.settled) return { ok: true };
      if (entry) return refusal(entry.ending ?? "answered");
      const was = ended.get(qid);
      return was ? refusal(was.ending) : { ok: false, code: "not_waiting", reason: strings().ELSEWHERE_NOT_WAITING };
    },
    watch(qid, closed) {
      const entry = waiting.get(qid);
      if (!entry) {
        closed();
        return () => undefined;
      }
      entry.watchers.add(closed);
      return () => entry.watchers.delete(closed);
    },
    touch(qid) {
      const entry = waiting.get(qid);
      if (entry && !entry.settled) flowOf(entry).stopClock();
    },
    subscribe(listener) {
      subscribers.add(listener);
      return () => subscribers.delete(listener);
    },
    flow(qid) {
      const entry = waiting.get(qid);
      return entry && !entry.settled ? flowOf(entry) : undefined;
    },
    followFlows(heard) {
      flowFollowers.add(heard);
      return () => flowFollowers.delete(heard);
    },
    post(question, build, open) {
      const entry: Entry<R> = {
        qid: question.qid && !waiting.has(question.qid) ? question.qid : newQid(),
        askedAt: Date.now(),
        ...(question.askedBy ? { askedBy: question.askedBy } : {}),
        ...(question.async ? { async: true } : {}),
        questions: question.questions,
        args: question.args,
        settled: false,
        build,
        stop: new AbortController(),
        watchers: new Set(),
        open: open ?? (() => addon().createEngine({ prepared: question.args })),
      };
      ended.delete(entry.qid); // posted again with its id: it waits again
      waiting.set(entry.qid, entry);
      changed();
      return {
        qid: entry.qid,
        stopped: entry.stop.signal,
        get taken() {
          return entry.taken;
        },
        flow: () => flowOf(entry),
        claim: (outcome) => claimAs(entry, outcome),
        claimAtKey(runner) {
          entry.runner = runner;
        },
        settle(status) {
          entry.runner = undefined;
          if (!claimAs(entry, status)) entry.ending ??= endingOf(status);
        },
        end() {
          if (waiting.get(entry.qid) !== entry) return;
          entry.settled = true;
          entry.runner = undefined;
          remember(entry, entry.ending ?? "withdrawn");
          waiting.delete(entry.qid);
          entry.flow?.end(); // freed once every face showing it has let go
          entry.flow = undefined;
          for (const w of entry.watchers) w();
          changed();
        },
      };
    },
    line(turn) {
      const run = () => {
        turn().then(advance, advance);
      };
      if (!busy) {
        busy = true;
        run();
        return () => false;
      }
      turns.add(run);
      return () => turns.delete(run);
    },
  };
}
