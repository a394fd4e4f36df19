// aside.ts — stepping aside from the question shown in pi's TUI, to read and scroll the
// transcript: the question shrinks to one line above pi's editor ("The question waits for you —
// Alt+A or /answer to show it again") and its flow keeps every draft, tick and scroll; the same
// key, or /answer, brings it back as it was. One per asker: one question is shown at a time.
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { Flow } from "../board/flow.ts";
import { fill, strings } from "../text/i18n.ts";

/** The key that steps aside and brings the question back, and opens the oldest question asked
 * without waiting (index.ts registers it as a shortcut: pi binds no alt+a). */
export const ANSWER_KEY = "alt+a";

/** "alt+a" → "Alt+A", as the lines name the key. */
export function keyName(key: string): string {
  return key
    .split("+")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("+");
}

/** The line above the editor. */
const WIDGET = "pi-question-aside";

export interface Aside {
  /** The question of `flow` stepped aside: its line shows until it is brought back (true), its
   * flow's clock ends it ("selected" runs on while aside: true, to hand it on), or `signal`
   * aborts — answered elsewhere, the call stopped — (false). */
  wait(ctx: ExtensionContext, flow: Flow, signal: AbortSignal | undefined): Promise<boolean>;
  /** Alt+A, /answer: the question stepped aside comes back; false when none is aside. */
  bringBack(): boolean;
}

export function createAside(): Aside {
  let back: (() => void) | undefined;
  return {
    wait(ctx, flow, signal) {
      return new Promise<boolean>((resolve) => {
        if (signal?.aborted) return resolve(false);
        if (flow.engine.done) return resolve(true);
        const t = strings();
        const show = (line: string | undefined, working: string | undefined) => {
          try {
            ctx.ui.setWidget(WIDGET, line === undefined ? undefined : [line]);
            ctx.ui.setWorkingMessage(working);
          } catch {
            // a context pi has retired (the session moved on)
          }
        };
        const end = (shown: boolean) => {
          if (back !== bringBack) return;
          back = undefined;
          unfollow();
          signal?.removeEventListener("abort", aborted);
          show(undefined, undefined);
          resolve(shown);
        };
        const bringBack = () => end(true);
        const aborted = () => end(false);
        back = bringBack;
        const unfollow = flow.follow({}, (what) => {
          if (what === "ended") end(true); // the clock ran out: shown as ended, handed on
        });
        signal?.addEventListener("abort", aborted, { once: true });
        show(fill(t.ASIDE_LINE, { s: keyName(ANSWER_KEY) }), t.WAITING);
      });
    },
    bringBack() {
      if (!back) return false;
      back();
      return true;
    },
  };
}
