// flow.ts — one question flow per waiting question: the engine every face of this pi drives
// (pi's TUI feeds it keys, the RPC dialogs and the page apply steps to it), made once by the
// board when a face first needs it and freed when the question stops waiting. A face that
// changes the flow says so (`moved`); every other face that follows it hears that and shows the
// flow as it is now, so what the person typed or ticked on the page is in the TUI too. The flow
// owns the person's timeout: the first face that shows the question to the person starts it,
// the flow ticks the engine, every face hears the countdown and the end, and a key or step in
// any face stops it for all (the engine's rule). The terminal runner, another process's thread,
// keeps an engine (and a clock) of its own.
import type { FlowView, NativeEngine, Outcome, TimeoutThen } from "../addon-types.ts";
import { keptEarlier } from "./result.ts";

/** Which face moved the flow (a listener ignores its own moves). */
export type Face = object;

/** What a follower hears: "moved" — the flow changed (a step or key of another face, which hands
 * on the answer itself should it end the flow; the clock stopped): show it as it is now;
 * "countdown" — only the countdown shown changed (a face that draws it draws again); "ended" —
 * the person's clock ran out and ended the flow (its "then" applied): the face showing it ends
 * with it and hands it on. */
export type Heard = "moved" | "countdown" | "ended";

/** The person's timeout (settings.ts `timeout`). */
export interface FlowTimeout {
  ms: number;
  then: TimeoutThen;
}

export interface Flow {
  /** The engine (the board frees it when the question stops waiting: do not dispose it). */
  readonly engine: NativeEngine;
  /** Face `by` changed the flow (a key, a step): every other face following it hears it. */
  moved(by: Face): void;
  /** Calls `heard` after each move of another face than `me`, and at each change of the clock;
   * returns the way to stop. */
  follow(me: Face, heard: (what: Heard) => void): () => void;
  /** A face shows the question to the person: the person's timeout starts now, once per flow
   * (later calls change nothing). The flow ticks the engine; when it runs out, the engine ends
   * (timed_out, its "then" applied) and every follower hears "ended". */
  startClock(timeout: FlowTimeout): void;
  /** The person works on the question on a face without a step (the page's first keystroke, a
   * reply to a dialog that leads to another): the clock stops for good, as at a key; every face
   * but `by` hears "moved". */
  stopClock(by?: Face): void;
  /** Milliseconds left on the person's clock, or undefined when none runs (stopped, run out, or
   * never started): what a face that hands the countdown to someone else (pi's RPC dialogs) gives. */
  clockLeft(): number | undefined;
  /** A face shows it (until the returned release): the engine outlives the question's end until
   * every face that shows it has let go (a withdrawal ends the question while the TUI still
   * closes over it). */
  hold(): () => void;
}

/** What a finished flow hands on, whichever face finished it: the outcome; the answers (none
 * when cancelled); for "discuss", the person's words; when "answered" and the flow opened with
 * the project's remembered answers, per question the date of one the person kept, else null. */
export interface FlowEnding {
  outcome: Outcome;
  answers?: Record<string, unknown>;
  discussion?: string;
  earlier?: Array<string | null>;
}

/** The hand-off of the finished flow on `engine`: its ending (`mode`: the face, as details.mode says it). */
export function handOff(engine: NativeEngine, questions: ReadonlyArray<{ id: string }>, mode: string, remembered: boolean): FlowEnding {
  const v = JSON.parse(engine.view()) as FlowView;
  const outcome = v.outcome ?? "cancelled";
  if (outcome === "cancelled") return { outcome };
  if (outcome === "discuss") return { outcome, answers: v.answers, discussion: v.discussionSent ?? "" };
  if (outcome === "answered" && remembered) return { outcome, answers: v.answers, earlier: keptEarlier(engine, questions, mode) };
  return { outcome, answers: v.answers };
}

/** The board's side of a flow: its making and its end. */
export interface OwnedFlow extends Flow {
  /** The question stopped waiting: the engine is freed once no face holds it — at once when
   * none does, unless `lastRelease` (made after the end: freed at its last release, or by the
   * garbage collector when nothing ever holds it). */
  end(lastRelease?: boolean): void;
}

/** A flow over `engine`; `moved` also tells `anyMove` (the board's followers of every flow). */
export function createFlow(engine: NativeEngine, anyMove: (by: Face) => void): OwnedFlow {
  const followers = new Map<(what: Heard) => void, Face>();
  let disposed = false;
  let ended = false;
  let holders = 0;
  let started = false; // the person's clock was started (once per flow)
  let touchedEarly = false; // the person worked on it elsewhere before any face showed it
  let timer: ReturnType<typeof setTimeout> | undefined;
  const clockFace: Face = {}; // the clock's moves are heard by every face
  const stopTimer = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  const dispose = () => {
    if (disposed) return;
    disposed = true;
    stopTimer();
    followers.clear();
    engine.dispose();
  };
  const tell = (by: Face, what: Heard) => {
    // Only the face that moved follows (a question in the TUI alone, at each key): nobody to tell.
    if (followers.size === 0 || (followers.size === 1 && followers.values().next().value === by)) return;
    for (const [heard, face] of [...followers]) {
      if (face === by) continue;
      try {
        heard(what);
      } catch {
        // a face's failure is its own
      }
    }
  };
  // The engine counts; this unref'ed timer tells it the time at each change of the countdown.
  // A key or step anywhere stops the engine's clock (nextTick -1): the timer is not set again.
  const tick = () => {
    timer = undefined;
    if (disposed || ended || engine.done) return stopTimer();
    const revision = engine.revision;
    engine.tick(Date.now());
    if (engine.done) {
      stopTimer();
      tell(clockFace, "ended");
      anyMove(clockFace);
      return;
    }
    const wait = engine.nextTick(Date.now());
    if (wait < 0) {
      stopTimer();
      return;
    }
    if (engine.revision !== revision) tell(clockFace, "countdown");
    timer = setTimeout(tick, Math.max(wait, 5));
    timer.unref?.();
  };
  return {
    engine,
    moved(by) {
      if (disposed) return;
      // A key or step stopped the engine's clock (its rule), or started an idle clock ("then":
      // "selected") again: the timer follows it now.
      if (timer) {
        stopTimer();
        tick();
      }
      tell(by, "moved");
      anyMove(by);
    },
    follow(me, heard) {
      followers.set(heard, me);
      return () => followers.delete(heard);
    },
    startClock(timeout) {
      if (started || disposed || ended || engine.done) return;
      started = true;
      // worked on elsewhere already: a clock any key stops never starts ("selected" restarts)
      if (touchedEarly && timeout.then !== "selected") return;
      engine.setTimeout(timeout.ms, timeout.then);
      tick();
    },
    stopClock(by = clockFace) {
      if (!started) {
        touchedEarly = true; // the person answers elsewhere already (startClock decides)
        return;
      }
      if (disposed || ended || engine.done || engine.nextTick(Date.now()) < 0) return;
      engine.stopClock(); // for good, or ("selected") started again
      stopTimer();
      tick();
      tell(by, "moved");
      anyMove(by);
    },
    clockLeft() {
      if (disposed || !started) return undefined;
      const left = engine.clockLeft(Date.now());
      return left < 0 ? undefined : left;
    },
    hold() {
      holders++;
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        if (--holders === 0 && ended) dispose();
      };
    },
    end(lastRelease = false) {
      ended = true;
      stopTimer();
      if (holders === 0 && !lastRelease) dispose();
    },
  };
}
