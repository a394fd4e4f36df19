// flow.ts — one question flow per waiting question: the engine every face of this pi drives
// (pi's TUI feeds it keys, the RPC dialogs and the page apply steps to it), made once by the
// board when a face first needs it and freed when the question stops waiting. A face that
// changes the flow says so (`moved`); every other face that follows it hears that and shows the
// flow as it is now, so what the person typed or ticked on the page is in the TUI too, and a
// step anywhere stops the engine's clock for all. The terminal runner, another process's
// thread, keeps an engine of its own.
import type { FlowView, NativeEngine, Outcome } from "../addon-types.ts";
import { keptEarlier } from "./result.ts";

/** Which face moved the flow (a listener ignores its own moves). */
export type Face = object;

export interface Flow {
  /** The engine (the board frees it when the question stops waiting: do not dispose it). */
  readonly engine: NativeEngine;
  /** Face `by` changed the flow (a key, a step): every other face following it hears it. */
  moved(by: Face): void;
  /** Calls `heard` after each move of another face than `me`; returns the way to stop. */
  follow(me: Face, heard: () => void): () => void;
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
  const followers = new Map<() => void, Face>();
  let disposed = false;
  let ended = false;
  let holders = 0;
  const dispose = () => {
    if (disposed) return;
    disposed = true;
    followers.clear();
    engine.dispose();
  };
  return {
    engine,
    moved(by) {
      if (disposed) return;
      for (const [heard, face] of [...followers]) {
        if (face === by) continue;
        try {
          heard();
        } catch {
          // a face's failure is its own
        }
      }
      anyMove(by);
    },
    follow(me, heard) {
      followers.set(heard, me);
      return () => followers.delete(heard);
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
      if (holders === 0 && !lastRelease) dispose();
    },
  };
}
