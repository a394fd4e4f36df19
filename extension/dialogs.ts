// dialogs.ts — asking through pi's dialog methods (select / input / confirm) where custom
// components are unavailable: RPC mode, whose client shows each dialog its own way. Each
// question becomes a select of its numbered option labels plus "Something else…" (then an
// input for the typed text); a free-text question an input; a multi-select question repeated
// selects with ticked labels and a "Done" entry; several questions end with a confirm of the
// review. Every select also offers "Let the agent decide" (declined, keeping the answers given
// so far) and "Discuss first…" (an input for what the person wants to tell the agent: status
// "discuss", the answers given so far kept; an empty or dismissed input asks the question again). A reply is identified by its position among the entries offered, never by what it
// says: options are numbered as in the TUI, so no two entries read the same (two labels that
// sanitize alike, a label that reads "Let the agent decide" or "Something else…").
// Nothing typed or ticked is dropped unasked: leaving a multi-select question that holds ticks or
// typed text (decline, discuss, or a dismissed select: cancel) first asks the engine's own
// "Discard what you typed?"; no keeps everything and shows the list again. A dismissed dialog
// while earlier questions hold the person's answers asks the engine's "Discard N answers?" first.
// A dismissed "Something else…" input goes back to the list with everything kept; picking the
// typed entry again asks for new text (an empty reply asks before clearing it).
// The answers go through the C answer model like every other mode.
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { NativeAddon, Outcome } from "./native.ts";
import type { NormalizedQuestion } from "./schema.ts";
import { fill, stringsFor } from "./i18n.ts";
import { DIALOG } from "./text.ts";

/** Answers in the core's structured form: option values picked, and typed text kept apart so it
 * is never mistaken for an option. */
type Answer = { selected: string[]; wrote?: string } | unknown;
type Answers = Record<string, Answer>;

export interface DialogOutcome {
  outcome: Outcome;
  answers?: Answers;
  /** outcome "discuss": what the person wants to tell the agent. */
  discussion?: string;
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
  timeout?: { ms: number },
  claim?: (outcome: string) => boolean,
): Promise<DialogOutcome> {
  const clean = (s: string) => native.sanitize(s, true);
  const line = (s: string) => native.sanitize(s, false); // one select entry, one line
  const t = stringsFor(native);
  // The person's timeout, the nearest RPC equivalent: pi's dialog `timeout`
  // (the client shows its own countdown) on the first dialog only; answering it stops the clock.
  let deadline = timeout ? Date.now() + timeout.ms : undefined;
  const opts = (): { signal?: AbortSignal; timeout?: number } | undefined => {
    const o: { signal?: AbortSignal; timeout?: number } = {};
    if (signal) o.signal = signal;
    if (deadline !== undefined) o.timeout = Math.max(1, deadline - Date.now());
    return signal || deadline !== undefined ? o : undefined;
  };
  const timedOut = () => deadline !== undefined && Date.now() >= deadline - 250;
  /** The person's final reply takes the question at once, where it arrives, before anything
   * else is awaited (as the TUI claims at the final key): an answer from elsewhere arriving
   * later is refused. One that came first already closed the dialogs: interrupted. */
  let taken = false;
  const settle = (ended: DialogOutcome): DialogOutcome => {
    if (ended.outcome === "interrupted" || taken) return ended;
    if (claim && !claim(ended.outcome)) return { outcome: "interrupted" };
    taken = true;
    return ended;
  };
  /** settle() where a helper reads the final reply (its caller ends the call after an await). */
  const take = (outcome: Outcome): void => {
    if (settle({ outcome }).outcome === "interrupted") throw new Stop("interrupted");
  };
  const check = <T>(value: T | undefined): T => {
    if (signal?.aborted) throw new Stop("interrupted");
    if (value === undefined && timedOut()) {
      take("timed_out");
      throw new Stop("timed_out");
    }
    deadline = undefined; // the person answered: the clock stops for good
    if (value === undefined) {
      take("cancelled");
      throw new Stop("cancelled");
    }
    return value;
  };
  const answers: Answers = Object.create(null);
  const given: string[] = []; // ids of the questions the person answered in this call (not presets)
  /** Whether a reply is the person dismissing the dialog (not an abort or the clock running out). */
  const dismissed = (value: unknown) => value === undefined && !signal?.aborted && !timedOut();
  /** The person dismissed a dialog: whether cancelling the call may drop the answers given so far
   * and `here` (what the current question holds, as shown): asks first when there is any, with
   * the engine's own wording ("Discard N answers?", or "Discard what you typed?" for the current
   * question alone). A dismissed confirm discards nothing. True (the call is cancelled) takes
   * the question at once: with nothing to discard, synchronously, before the caller's await. */
  const mayCancel = async (here: string[]): Promise<boolean> => {
    deadline = undefined; // the person dismissed it: the clock stops, as for any reply
    const count = given.length + (here.length ? 1 : 0);
    if (!count) {
      take("cancelled");
      return true;
    }
    const earlier = given.map((id) => {
      const q = questions.find((x) => x.id === id)!;
      return `${clean(q.label)}: ${clean(describe(q, answers[id]))}`;
    });
    const title = !given.length ? t.CONFIRM_DISCARD_TEXT : count === 1 ? t.CONFIRM_DISCARD_ONE : fill(t.CONFIRM_DISCARD_MANY, { n: count });
    const yes = await ctx.ui.confirm(title, [...earlier, ...here].join("\n"), opts());
    if (signal?.aborted) throw new Stop("interrupted");
    if (yes === true) take("cancelled");
    return yes === true;
  };
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
      const labels = (q.options ?? []).map((o) => line(o.label));
      if (!q.options?.length) {
        const text = await askText(title, undefined, false, questions.length === 1);
        if (text === undefined) {
          if (await mayCancel([])) throw new Stop("cancelled");
          i--; // kept: the same question again
          continue;
        }
        answers[q.id] = { selected: [], wrote: text };
        given.push(q.id);
        continue;
      }
      const n = labels.length; // entries: options 0..n-1, "Something else…" n, then the plain ones
      if (!q.multiSelect) {
        const entries = menu([...labels, other], [t.DIALOG_DECLINE, t.DIALOG_DISCUSS]);
        const reply = await ctx.ui.select(title, entries, opts());
        if (dismissed(reply)) {
          if (await mayCancel([])) throw new Stop("cancelled");
          i--; // kept: the same question again
          continue;
        }
        const at = entries.indexOf(check(reply));
        if (at === n + 1) return settle({ outcome: "declined", answers });
        if (at === n + 2) {
          const said = await askDiscussion();
          if (said) return settle({ outcome: "discuss", answers, discussion: said });
          i--; // nothing written: the same question again
          continue;
        }
        // Not an entry offered (a client that rewrote it): asked as typed text, like "Something else…".
        if (at >= 0 && at < n) answers[q.id] = { selected: [q.options[at].value] };
        else {
          const text = await askText(title, undefined, true, questions.length === 1);
          if (text === undefined || !text) {
            i--; // the text box dismissed or left empty: the list again
            continue;
          }
          answers[q.id] = { selected: [], wrote: text };
        }
        given.push(q.id);
        continue;
      }
      const ticked = new Set<number>();
      let typed = "";
      /** Whether leaving now may drop what is ticked or typed: asks first when there is any.
       * `ending`: leaving ends the call so (decline), and true takes the question at once. */
      const mayLeave = async (withTicks = true, ending?: Outcome): Promise<boolean> => {
        if (!(withTicks && ticked.size) && !typed) {
          if (ending) take(ending);
          return true;
        }
        const held = [...(withTicks ? [...ticked].sort((a, b) => a - b).map((k) => labels[k]) : []), ...(typed ? [clean(typed)] : [])];
        const yes = await ctx.ui.confirm(t.CONFIRM_DISCARD_TEXT, held.join("\n"), opts());
        if (signal?.aborted) throw new Stop("interrupted");
        if (yes === true && ending) take(ending);
        return yes === true; // dismissed: nothing is discarded
      };
      for (;;) {
        const marked = labels.map((l, k) => `${ticked.has(k) ? DIALOG.ticked : DIALOG.unticked} ${k + 1}. ${l}`);
        marked.push(typed ? `${DIALOG.ticked} ${n + 1}. ${other} ${line(typed)}` : `${DIALOG.unticked} ${n + 1}. ${other}`);
        const entries = menu(marked, [t.DIALOG_DONE, t.DIALOG_DECLINE, t.DIALOG_DISCUSS], false);
        const reply = await ctx.ui.select(title, entries, opts());
        if (dismissed(reply)) {
          const here = [...[...ticked].sort((a, b) => a - b).map((k) => labels[k]), ...(typed ? [clean(typed)] : [])];
          if (await mayCancel(here)) throw new Stop("cancelled");
          continue;
        }
        const at = entries.indexOf(check(reply));
        if (at === n + 2) {
          if (await mayLeave(true, "declined")) return settle({ outcome: "declined", answers });
          continue;
        }
        if (at === n + 3) {
          if (!(await mayLeave())) continue;
          const said = await askDiscussion();
          if (said) return settle({ outcome: "discuss", answers, discussion: said });
          continue; // nothing written: the list again
        }
        if (at === n + 1) {
          if (ticked.size || typed) break;
          continue; // nothing chosen yet: show the list again
        }
        if (at >= 0 && at < n) {
          if (ticked.has(at)) ticked.delete(at);
          else ticked.add(at);
        } else {
          // "Something else…" (or a reply that is no entry): new text replaces the typed text; a
          // dismissed box keeps everything; an empty reply clears typed text only once agreed to.
          const text = await askText(title, typed ? line(typed) : undefined);
          if (text) typed = text;
          else if (text === "" && typed && (await mayLeave(false))) typed = "";
        }
      }
      const selected = [...ticked].sort((a, b) => a - b).map((k) => q.options![k].value);
      answers[q.id] = typed ? { selected, wrote: typed } : { selected };
      given.push(q.id);
    }
    if (questions.length > 1) {
      const review = questions
        .map((q) => `${clean(q.label)}: ${clean(describe(q, answers[q.id]))}`)
        .join("\n");
      // Not submitted (no, or dismissed): cancelling drops the answers, so the engine's "Discard N
      // answers?" comes first, as Esc on the TUI's review; no shows the review again.
      for (;;) {
        const ok = await ctx.ui.confirm(t.DIALOG_REVIEW, review, opts());
        if (ok === true) break;
        if (signal?.aborted) throw new Stop("interrupted");
        if (timedOut()) throw new Stop("timed_out");
        if (await mayCancel([])) return settle({ outcome: "cancelled" });
      }
    }
    return settle({ outcome: "answered", answers });
  } catch (error) {
    if (error instanceof Stop) return settle(error.outcome === "timed_out" ? { outcome: error.outcome, answers } : { outcome: error.outcome });
    if (signal?.aborted) return { outcome: "interrupted" };
    throw error;
  }

  /** "Discuss first…": what the person wants to tell the agent (which ends the call: taken at
   * once); "" when they wrote nothing. */
  async function askDiscussion(): Promise<string> {
    const text = await ctx.ui.input(t.DISCUSS_PROMPT, "", opts()); // the clock stopped when they picked the entry
    if (signal?.aborted) throw new Stop("interrupted");
    const said = (text ?? "").trim();
    if (said) take("discuss");
    return said;
  }

  /** Typed text for `title`, trimmed; undefined when the person dismissed the box. Without a
   * list to go back to (`list` false) an empty reply asks again; with one it gives "". `last`:
   * text given answers the call's only question, which ends it (taken at once). */
  async function askText(title: string, placeholder = t.DIALOG_PLACEHOLDER, list = true, last = false): Promise<string | undefined> {
    for (;;) {
      const text = await ctx.ui.input(title, placeholder, opts());
      if (dismissed(text)) {
        deadline = undefined;
        return undefined;
      }
      const got = check(text).trim();
      if (got && last) take("answered");
      if (got || list) return got;
    }
  }
}

/** A select's entries, all different texts: `numbered` ("1. PostgreSQL", or as given when
 * `number` is false, the caller numbering them itself) then `plain` ("Let the agent decide"),
 * each plain one numbered too should it read like an entry before it. */
export function menu(numbered: string[], plain: string[], number = true): string[] {
  const entries = number ? numbered.map((text, k) => `${k + 1}. ${text}`) : [...numbered];
  for (const text of plain) {
    let entry = text;
    for (let k = entries.length + 1; entries.includes(entry); k++) entry = `${k}. ${text}`;
    entries.push(entry);
  }
  return entries;
}

/** An answer as the person reads it in the review: option labels, then typed text. */
function describe(q: NormalizedQuestion, answer: unknown): string {
  const label = (value: string) => q.options?.find((o) => o.value === value)?.label ?? value;
  if (typeof answer === "string") return label(answer);
  if (Array.isArray(answer)) return answer.map((a) => label(String(a))).join(", ");
  const a = answer as { selected?: string[]; wrote?: string };
  return [...(a.selected ?? []).map(label), ...(a.wrote ? [a.wrote] : [])].join(", ");
}
