// dialogs.ts — asking through pi's dialog methods (select / input / confirm) where custom
// components are unavailable: RPC mode, whose client shows each dialog its own way. Each
// question becomes a select of its option labels plus "Something else…" (then an input for
// the typed text); a free-text question an input; a multi-select question repeated selects
// with ticked labels and a "Done" entry; several questions end with a confirm of the review.
// Every select also offers "Let the agent decide" (declined, keeping the answers given so far).
// The answers go through the C answer model like every other mode.
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { NativeAddon, Outcome } from "./native.ts";
import type { NormalizedQuestion } from "./schema.ts";
import { stringsFor } from "./i18n.ts";
import { DIALOG } from "./text.ts";

/** Answers in the core's structured form: option values picked, and typed text kept apart so it
 * is never mistaken for an option. */
type Answer = { selected: string[]; wrote?: string } | unknown;
type Answers = Record<string, Answer>;

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
  preset: Readonly<Record<string, unknown>> = {},
  askedBy?: string,
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
      if (Object.prototype.hasOwnProperty.call(preset, q.id)) {
        answers[q.id] = preset[q.id]; // pre-supplied by the model: not asked again
        continue;
      }
      const asked = clean(questions.length > 1 ? DIALOG.title(i + 1, questions.length, q.label, q.prompt) : q.prompt);
      const title = askedBy ? `${askedBy}\n${asked}` : asked; // askedBy comes sanitized
      const other = t.SOMETHING_ELSE;
      const labels = (q.options ?? []).map((o) => clean(o.label));
      if (!q.options?.length) {
        answers[q.id] = { selected: [], wrote: await askText(title) };
        continue;
      }
      if (!q.multiSelect) {
        const picked = check(await ctx.ui.select(title, [...labels, other, t.DIALOG_DECLINE], opts));
        if (picked === t.DIALOG_DECLINE) return { outcome: "declined", answers };
        const index = labels.indexOf(picked);
        answers[q.id] = index >= 0 ? { selected: [q.options[index].value] } : { selected: [], wrote: await askText(title) };
        continue;
      }
      const ticked = new Set<number>();
      let typed = "";
      for (;;) {
        const entries = labels.map((l, k) => `${ticked.has(k) ? DIALOG.ticked : DIALOG.unticked} ${l}`);
        const otherEntry = typed ? `${DIALOG.ticked} ${other} ${typed}` : `${DIALOG.unticked} ${other}`;
        const picked = check(await ctx.ui.select(title, [...entries, otherEntry, t.DIALOG_DONE, t.DIALOG_DECLINE], opts));
        if (picked === t.DIALOG_DECLINE) return { outcome: "declined", answers };
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
      const selected = [...ticked].sort((a, b) => a - b).map((k) => q.options![k].value);
      answers[q.id] = typed ? { selected, wrote: typed } : { selected };
    }
    if (questions.length > 1) {
      const review = questions
        .map((q) => `${clean(q.label)}: ${clean(describe(q, answers[q.id]))}`)
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

/** An answer as the person reads it in the review: option labels, then typed text. */
function describe(q: NormalizedQuestion, answer: unknown): string {
  const label = (value: string) => q.options?.find((o) => o.value === value)?.label ?? value;
  if (typeof answer === "string") return label(answer);
  if (Array.isArray(answer)) return answer.map((a) => label(String(a))).join(", ");
  const a = answer as { selected?: string[]; wrote?: string };
  return [...(a.selected ?? []).map(label), ...(a.wrote ? [a.wrote] : [])].join(", ");
}
