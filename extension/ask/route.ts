// route.ts — how to ask in this mode: from the facts of the moment (does pi have a UI, and which;
// is the question a subagent's, relayed here; is there a pi above to ask through the relay; is a
// terminal reachable), the ways to try, in order. A pure function: the asker (ask.ts) gathers the
// facts and runs the ways; this file holds only the choice, so it is tested on its own.

/** A way of asking:
 * - "tui": pi's TUI draws the question (a custom component);
 * - "dialogs": pi's dialogs (select / input / confirm: RPC mode, whose client shows them);
 * - "above": the pi above, through the relay (this pi is a subagent without a UI);
 * - "terminal": the terminal runner on this pi's own terminal (a subagent's question in print mode);
 * - "print": print and JSON mode — the --answers flag, the pending file, the terminal, else the
 *   question is left in the pending file;
 * - "unavailable": nobody can be asked (a subagent's question in print mode without a terminal). */
export type Way = "tui" | "dialogs" | "above" | "terminal" | "print" | "unavailable";

export interface Situation {
  /** pi has a UI (TUI or RPC). */
  hasUI: boolean;
  /** pi's own word for its mode (ctx.mode: "tui", "rpc", …), when it says one (older pi does not). */
  uiMode?: string;
  /** The question is a subagent's, brought here by the relay. */
  relayed: boolean;
  /** A pi above offers the relay (this pi inherited an endpoint that is not its own). */
  above: boolean;
  /** This process may ask on its terminal. */
  terminal: boolean;
}

/** The ways to try, best first; each later one is used only when the one before it cannot ask
 * after all (older pi's TUI way finds out only then that it runs in RPC mode; the pi above may
 * be unreachable or unable to ask either). */
export function route(s: Situation): Way[] {
  if (s.hasUI) {
    if (s.uiMode === undefined) return ["tui", "dialogs"];
    return s.uiMode === "tui" ? ["tui"] : ["dialogs"];
  }
  // A subagent's question in print mode: this pi's own terminal, or nobody (never the pending
  // file, which is this pi's own, nor the pi above, which asked it).
  if (s.relayed) return s.terminal ? ["terminal"] : ["unavailable"];
  return s.above ? ["above", "print"] : ["print"];
}
