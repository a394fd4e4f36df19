// dialogs.ts — asking through pi's dialog methods (select / input / confirm) where custom
// components are unavailable: RPC mode, whose client shows each dialog its own way. Each
// question becomes a select of its option labels plus "Something else…" (then an input for
// the typed text); a free-text question an input; a multi-select question repeated selects
// with ticked labels and a "Done" entry; several questions end with a confirm of the review.
// The answers go through the C answer model like every other mode.
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { NativeAddon, Outcome } from "./native.ts";
import type { NormalizedQuestion } from "./schema.ts";
import { stringsFor } from "./i18n.ts";
import { DIALOG } from "./text.ts";

type Answers = Record<string, string | string[]>;

export interface DialogOutcome {
  outcome: Outcome;
  answers?: Answers;
}

class Stop extends Error {
  readonly outcome: Outcome;
  constructor(outcome: Outcome) {
    super(outcome);
    this.outcome = outcome;
  }
}

export async function askWithDialogs(
  native: NativeAddon,
  questions: NormalizedQuestion[],
  ctx: ExtensionContext,
  signal: AbortSignal | undefined,
): Promise<DialogOutcome> {
  const clean = (s: string) => native.sanitize(s, true);
  const t = stringsFor(native);
  const opts = signal ? { signal } : undefined;
  const check = <T>(value: T | undefined): T => {
    if (signal?.aborted) throw new Stop("interrupted");
    if (value === undefined) throw new Stop("cancelled");
    return value;
  };
  const answers: Answers = Object.create(null);
  try {
    for (let i = 0; i < questions.length; i++) {
      const q = questions[i];
      const title = clean(questions.length > 1 ? DIALOG.title(i + 1, questions.length, q.label, q.prompt) : q.prompt);
      const other = t.SOMETHING_ELSE;
      const labels = (q.options ?? []).map((o) => clean(o.label));
      if (!q.options?.length) {
        answers[q.id] = await askText(title);
        continue;
      }
      if (!q.multiSelect) {
        const picked = check(await ctx.ui.select(title, [...labels, other], opts));
        const index = labels.indexOf(picked);
        answers[q.id] = index >= 0 ? q.options[index].value : await askText(title);
        continue;
      }
      const ticked = new Set<number>();
      let typed = "";
      for (;;) {
        const entries = labels.map((l, k) => `${ticked.has(k) ? DIALOG.ticked : DIALOG.unticked} ${l}`);
        const otherEntry = typed ? `${DIALOG.ticked} ${other} ${typed}` : `${DIALOG.unticked} ${other}`;
        const picked = check(await ctx.ui.select(title, [...entries, otherEntry, t.DIALOG_DONE], opts));
        if (picked === t.DIALOG_DONE) {
          if (ticked.size || typed) break;
          continue; // nothing chosen yet: show the list again
        }
        const k = entries.indexOf(picked);
        if (k >= 0) {
          if (ticked.has(k)) ticked.delete(k);
          else ticked.add(k);
        } else {
          typed = typed ? "" : await askText(title);
        }
      }
      answers[q.id] = [...[...ticked].sort((a, b) => a - b).map((k) => q.options![k].value), ...(typed ? [typed] : [])];
    }
    if (questions.length > 1) {
      const review = questions
        .map((q) => {
          const a = answers[q.id];
          return `${clean(q.label)}: ${clean(Array.isArray(a) ? a.join(", ") : a)}`;
        })
        .join("\n");
      const ok = check(await ctx.ui.confirm(t.DIALOG_REVIEW, review, opts));
      if (!ok) return { outcome: "cancelled" };
    }
    return { outcome: "answered", answers };
  } catch (error) {
    if (error instanceof Stop) return { outcome: error.outcome };
    if (signal?.aborted) return { outcome: "interrupted" };
    throw error;
  }

  async function askText(title: string): Promise<string> {
    for (;;) {
      const text = check(await ctx.ui.input(title, t.DIALOG_PLACEHOLDER, opts));
      if (text.trim()) return text.trim();
    }
  }
}
