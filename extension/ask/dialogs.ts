// dialogs.ts — asking through pi's dialog methods (select / input / confirm) where custom
// components are unavailable: RPC mode, whose client shows each dialog its own way. The dialogs
// are one more face of the question's one flow (board/flow.ts; qt_engine.h "the question flow as
// steps"), the engine the page drives too: each turn reads its view, shows the dialog that fits,
// and turns the reply into a step; a step on the page closes the open dialog and shows the flow
// as it is then. The rules (what ends the call, what asks "Discard N answers?" or "Discard what
// you typed?" first, what decline and discuss keep, the review) are the engine's, as in the TUI.
// Each question becomes a select of its numbered option labels plus "Something else…" (then an
// input for the typed text); a free-text question an input; a multi-select question repeated
// selects with ticked labels and a "Done" entry; several questions end with a confirm of the
// review. Every select also offers "Let the agent decide" and "Discuss first…" (the engine's
// talk-first mode: an input for what the person wants to tell the agent; a dismissed input asks
// the question again, an empty one is the engine's to refuse), and where no select is shown (a free-text input dismissed, the review
// answered no) a select offers those ways on, and cancelling (`otherWays`); and
// an option question's "Add a note…" (pi's editor, filled in with the note so far; the long answer
// the engine asked about goes there too). The engine's one-shot warnings come as notices. A
// dismissed dialog cancels (the engine asks first when that would drop something); a dismissed
// "Something else…" input shows the list again. A reply is identified by its position among the
// entries offered, never by what it says: options are numbered as in the TUI, so no two entries
// read the same (two labels that sanitize alike, a label that reads "Let the agent decide").
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { addon } from "../addon.ts";
import type { FlowStep, FlowView, NativeEngine, Outcome } from "../addon-types.ts";
import { type Flow, type FlowEnding, type FlowTimeout, handOff } from "../board/flow.ts";
import type { NormalizedQuestion } from "../question-types.ts";
import { strings } from "../text/i18n.ts";
import { DIALOG, MARKS } from "../text/text.ts";

/** How the dialogs ended (board/flow.ts FlowEnding): the outcome, the answers, the words of
 * "discuss", the remembered answers kept. */
export type DialogOutcome = FlowEnding;

/** The flow moved on another face (or the clock ended it) while a dialog was open: the flow is
 * shown as it is now. */
class Again extends Error {}

/** The client's countdown closed the dialog a moment before the flow's clock runs out: wait for
 * it (`ms`), then the flow as it is then. */
class Due extends Error {
  readonly ms: number;
  constructor(ms: number) {
    super("due");
    this.ms = ms;
  }
}

class Stop extends Error {
  readonly outcome: Outcome;
  constructor(outcome: Outcome) {
    super(outcome);
    this.outcome = outcome;
  }
}

/** What the settings and the board add to the dialogs of one question. */
export interface DialogOptions {
  /** Every answer was given by the model (addon.allPresupplied): nothing is asked. */
  presupplied?: boolean;
  /** "Asked by worker" (sanitized), for a subagent's question. */
  askedBy?: string;
  /** The person's timeout: the flow's clock, started with the first dialog (pi's dialog
   * `timeout` shows the client's countdown of it). */
  timeout?: FlowTimeout;
  /** The person's final reply takes the question (the board's Ticket.claim). */
  claim?: (outcome: string) => boolean;
  /** The flow opened with the project's remembered answers: the result says which were kept. */
  remembered?: boolean;
}

/** Asks the question of `flow` (the board's one flow of it, which another face, the page, may
 * move meanwhile: the dialog open then is shown again as the flow is now). */
export async function askWithDialogs(
  flow: Flow,
  questions: NormalizedQuestion[],
  ctx: ExtensionContext,
  signal: AbortSignal | undefined,
  { presupplied, askedBy, timeout, claim, remembered }: DialogOptions = {},
): Promise<DialogOutcome> {
  const native = addon();
  const engine = flow.engine;
  const clean = (s: string) => native.sanitize(s, true);
  const line = (s: string) => native.sanitize(s, false); // one select entry, one line
  const t = strings();
  // The person's timeout is the flow's clock; each dialog opened while it runs carries pi's
  // dialog `timeout` (the client shows its own countdown and closes the dialog at the end).
  const opts = (): { signal: AbortSignal; timeout?: number } => {
    if (shift.signal.aborted) shift = new AbortController();
    const o: { signal: AbortSignal; timeout?: number } = { signal: signal ? AbortSignal.any([signal, shift.signal]) : shift.signal };
    const left = flow.clockLeft();
    if (left !== undefined) o.timeout = Math.max(1, left);
    return o;
  };
  /** pi's multi-line editor, filled in with `prefill`. It takes no signal, so it is raced
   * against the dialogs' signal, as pi settles its other dialogs (the client's dialog stays open
   * either way; pi drops a reply that comes after); the clock running out moves the flow, which
   * aborts it too. */
  const editText = (title: string, prefill: string): Promise<string | undefined> => {
    const o = opts();
    return new Promise((resolve, reject) => {
      const done = (value: string | undefined) => {
        o.signal.removeEventListener("abort", stop);
        resolve(value);
      };
      const stop = () => done(undefined);
      if (o.signal.aborted) return stop();
      o.signal.addEventListener("abort", stop, { once: true });
      ctx.ui.editor(title, prefill).then(done, reject);
    });
  };
  /** The person's final reply takes the question at once, where it arrives, before anything
   * else is awaited (as the TUI claims at the final key): an answer from elsewhere arriving
   * later is refused. One that came first already closed the dialogs: interrupted. */
  let taken = false;
  const listed = new Set<number>(); // questions whose remembered typed answer showed the list first
  const settle = (ended: DialogOutcome): DialogOutcome => {
    if (ended.outcome === "interrupted" || taken) return ended;
    if (claim && !claim(ended.outcome)) return { outcome: "interrupted" };
    taken = true;
    return ended;
  };
  /** A reply came: an abort wins; a flow moved meanwhile (another face, the clock) is shown as it
   * is now; a dialog the client's countdown closed waits for the flow's clock; any other reply
   * stops the clock for good, as a key does. undefined: the person dismissed the dialog. */
  const replied = <T>(value: T | undefined): T | undefined => {
    if (signal?.aborted) throw new Stop("interrupted");
    if (shift.signal.aborted || engine.done) throw new Again();
    const left = flow.clockLeft();
    // closed by the client's countdown (pi's confirm resolves false then, the others undefined)
    if ((value === undefined || value === false) && left !== undefined && left <= 250) throw new Due(left);
    if (value !== undefined) flow.stopClock(face);
    return value;
  };
  const release = flow.hold(); // until the dialogs end, even when the question ends first
  // (the engine speaks the language its flow was made with: ask.ts flowEngine, once)
  const view = (): FlowView => JSON.parse(engine.view()) as FlowView;
  // Another face (the page) moved the flow while a dialog was open: that dialog closes and the
  // flow is shown as it is now; a reply to the old dialog is not applied.
  const face = {};
  let shift = new AbortController(); // aborted when another face moves the flow
  const unfollow = flow.follow(face, (what) => {
    if (what !== "countdown") shift.abort(); // the client counts down itself
  });
  /** Applies a step; once it ended the call, the outcome is claimed at once (no await between). */
  const act = (step: FlowStep, index?: number, text?: string): DialogOutcome | undefined => {
    const r = engine.act(step, index ?? null, text ?? null);
    if (r.ok) flow.moved(face);
    // A refused step changes nothing: the same dialog again, and the person is told why (the
    // engine's reason, e.g. an answer over its limit) rather than seeing their text vanish.
    if (!r.ok) ctx.ui.notify?.(line(r.error), "warning");
    return engine.done ? settle(handOff(engine, questions, "rpc", !!remembered)) : undefined;
  };

  try {
    if (presupplied) return settle({ outcome: "answered", answers: view().answers }); // pre-supplied by the model: not asked
    if (timeout) flow.startClock(timeout);
    let told = -1; // the revision whose one-shot message was shown
    for (;;) {
      try {
        // ended elsewhere than by a reply here: the clock ran out (its "then" applied)
        if (engine.done) return settle(handOff(engine, questions, "rpc", !!remembered));
        const v = view();
        if (v.message && engine.revision !== told) {
          // the engine's one-shot warning ("Not answered yet: …"), shown once as the TUI flashes it
          ctx.ui.notify?.(line(v.message), "warning");
          told = engine.revision;
        }
        let ended: DialogOutcome | undefined;
        if (v.state === "confirm" && v.confirm) {
          // The engine's own question ("Discard N answers?", "Discard what you typed?", "Answer is
          // long…"): a dismissed confirm answers no, discarding nothing.
          const body = v.confirm.items.map((it) => (it.question === v.current || !it.label ? it.text : `${it.label}: ${it.text}`));
          const yes = replied(await ctx.ui.confirm(v.confirm.title, body.join("\n"), opts()));
          ended = act(yes === true ? "yes" : "no");
        } else if (v.state === "review") {
          const noted = v.callNote.trim() ? [`${t.CALL_NOTE_PREFIX}${line(v.callNote.trim())}`] : []; // one note on all
          const review = [...v.questions.map((q) => `${q.label}: ${q.reading}`), ...noted].join("\n");
          const ok = replied(await ctx.ui.confirm(t.DIALOG_REVIEW, review, opts()));
          // Submitted; dismissed: cancelling (the engine asks first); no: the other ways on.
          if (ok === true) ended = act("submit");
          else if (ok === undefined) ended = act("cancel");
          else ended = await otherWays(t.DIALOG_REVIEW, t.DIALOG_BACK, () => act("go", 0), v);
        } else if (v.state === "discuss") {
          ended = await discussing();
        } else if (v.state === "callNote") {
          ended = await callNote(v); // opened on another face (the TUI's note key on the review)
        } else {
          ended = await askQuestion(v);
        }
        if (ended) return ended;
      } catch (error) {
        if (error instanceof Again) continue; // the flow as it is now: the person answers on the page
        if (error instanceof Due) {
          await new Promise((resolve) => setTimeout(resolve, error.ms + 5));
          continue;
        }
        throw error;
      }
    }
  } catch (error) {
    if (error instanceof Stop) return settle({ outcome: error.outcome });
    if (signal?.aborted) return { outcome: "interrupted" };
    throw error;
  } finally {
    unfollow();
    release(); // the board frees the engine when the question stops waiting
  }

  /** pi's editor filled in with `text` until step `step` takes what was written (its result,
   * when that ended the call) or the editor is dismissed. A text the engine refuses (over its
   * field's limit) comes back in the editor, the reason told: nothing written is thrown away. */
  async function edited(title: string, text: string, step: "note" | "type"): Promise<DialogOutcome | undefined | "dismissed"> {
    for (;;) {
      const written = replied(await editText(title, text));
      if (written === undefined) return "dismissed";
      const before = engine.revision;
      const ended = act(step, undefined, written);
      if (ended || engine.revision !== before) return ended; // taken (a refused step changes nothing)
      text = written;
    }
  }

  /** A typed answer from an input: taken, or — refused, over its limit — given back in pi's
   * editor to shorten (an input cannot be filled in again); `dismissed` when it is closed. */
  async function typedAnswer(title: string, text: string, dismissed: () => DialogOutcome | undefined): Promise<DialogOutcome | undefined> {
    const before = engine.revision;
    const ended = act("type", undefined, text);
    if (ended || engine.revision !== before) return ended;
    const again = await edited(title, text, "type");
    return again === "dismissed" ? dismissed() : again;
  }

  /** "Discuss first…": the engine's talk-first mode (a step, as Ctrl+T in the TUI and the page's
   * button open it), shown as `discussing` shows it. */
  function talkFirst(): DialogOutcome | undefined {
    return act("discuss");
  }

  /** Talk first: an input for what the person wants to tell the agent. Their words end the call;
   * nothing written is the engine's to refuse (its reason told); refused or dismissed: the
   * question again. */
  async function discussing(): Promise<DialogOutcome | undefined> {
    const said = replied(await ctx.ui.input(t.DISCUSS_PROMPT, "", opts()));
    if (said === undefined) return act("back");
    const before = engine.revision;
    const ended = act("discuss", undefined, said);
    return ended || engine.revision !== before ? ended : act("back");
  }

  /** Where no select offers them (a free-text question's input, the review's confirm): the
   * ways on that the TUI's keys give — `back` (the input again, the questions), "Let the agent
   * decide", "Discuss first…" and cancelling; a dismissed select cancels (the engine asks first
   * when that would drop answers or typed text). */
  async function otherWays(
    title: string,
    back: string,
    goBack: () => DialogOutcome | undefined,
    v?: FlowView,
  ): Promise<DialogOutcome | undefined> {
    const skips = v ? skipEntries(v) : [];
    // on the review: one note on the whole call
    const noting = v && v.state === "review" && v.actions.includes("note") ? [t.DIALOG_CALL_NOTE] : [];
    const entries = menu([], [back, t.DIALOG_DECLINE, t.DIALOG_DISCUSS, t.WEB_CANCEL, ...noting, ...skips.map((s) => s.entry)]);
    const reply = replied(await ctx.ui.select(title, entries, opts()));
    const at = reply === undefined ? 3 : entries.indexOf(reply);
    if (at === 1) return act("decline");
    if (at === 2) return talkFirst();
    if (at === 3) return act("cancel");
    if (at === 4 && noting.length && v) return callNote(v);
    const s = skips[at - 4 - noting.length];
    if (s && v) return skip(v, s.why);
    return goBack();
  }

  /** One note on the whole call, in pi's editor filled in with it so far: what is saved is the
   * note (emptied: none); dismissed keeps it. Then the review again. */
  async function callNote(v: FlowView): Promise<DialogOutcome | undefined> {
    const ended = await edited(t.CALL_NOTE_PROMPT, v.callNote, "note");
    if (ended && ended !== "dismissed") return ended;
    return view().state === "callNote" ? act("back") : undefined;
  }

  /** The entries that skip the question shown (a call of several; the engine's skip step): skip
   * it, "I'll answer this in the chat", and on a skipped one, answering it after all. */
  function skipEntries(v: FlowView): Array<{ entry: string; why: "skipped" | "chat" | "none" }> {
    if (!v.actions.includes("skip")) return [];
    const was = v.questions[v.current].skipped ?? "none";
    const all = [
      { entry: t.DIALOG_SKIP, why: "skipped" as const },
      { entry: t.DIALOG_SKIP_CHAT, why: "chat" as const },
      { entry: t.DIALOG_UNSKIP, why: "none" as const },
    ];
    return all.filter((s) => s.why !== was);
  }

  /** Skips the question shown with `why`, then goes on to the next question without an answer
   * (the review after the last), as an answer goes on; answering it after all shows it again. */
  function skip(v: FlowView, why: "skipped" | "chat" | "none"): DialogOutcome | undefined {
    const ended = act("skip", undefined, why);
    if (ended || why === "none") return ended;
    const after = view();
    let next = v.current + 1;
    while (next < after.questions.length && after.questions[next].answered) next++;
    return act("go", next);
  }

  /** One turn on the question shown: its dialog, and the step the reply means. */
  async function askQuestion(v: FlowView): Promise<DialogOutcome | undefined> {
    const i = v.current;
    const q = v.questions[i];
    const raw = questions[i];
    const asked = clean(questions.length > 1 ? DIALOG.title(i + 1, questions.length, raw.label, raw.prompt) : raw.prompt);
    const earlier = v.earlierLine ? `\n${line(v.earlierLine)}` : ""; // "Answered on 21 Nov: SQLite — Enter keeps it"
    const skipLine = q.skipped ? `\n${line(q.reading)}` : ""; // skipped: "you'll say it in the chat"
    const hint = q.hint ? `\n${line(q.hint)}` : ""; // a typed question: "A whole number (1–10)"
    const title = (askedBy ? `${askedBy}\n${asked}` : asked) + hint + earlier + skipLine; // askedBy comes sanitized
    const other = t.SOMETHING_ELSE;
    const labels = q.options.map((o) => line(o.label));
    const n = labels.length; // entries: options 0..n-1, "Something else…" n, then the plain ones
    if (v.state === "typing" && q.typed && n && v.earlierLine && !listed.has(i)) {
      // A remembered typed answer opens in its field; here the list comes first, its
      // "Something else…" entry marked with the text (the field keeps it).
      listed.add(i);
      return act("back");
    }
    if (v.state === "typing" && q.typed) {
      // Back from "Answer is long… Submit anyway?": the long text, in pi's editor to change it.
      // Dismissed: the list again (the engine keeps the draft), or for a free-text question,
      // which has no list, a cancel (the engine asks first: the draft would be lost).
      const ended = await edited(title, q.typed, "type");
      return ended === "dismissed" ? act(n ? "back" : "cancel") : ended;
    }
    if (!n) {
      for (;;) {
        const text = replied(await ctx.ui.input(title, q.typed ? line(q.typed) : t.DIALOG_PLACEHOLDER, opts()));
        if (text === undefined) return otherWays(title, t.DIALOG_TYPE, () => undefined, v);
        if (text.trim()) return typedAnswer(title, text, () => act("cancel"));
        if (v.earlierLine && q.typed) return act("type", undefined, q.typed); // empty: the remembered answer, kept
      }
    }
    const note = q.note.trim(); // what the result will carry
    const noteEntry = v.actions.includes("note") ? [note ? t.DIALOG_NOTE_EDIT : t.DIALOG_NOTE] : [];
    const skips = skipEntries(v);
    const plain = [...(q.multi ? [t.DIALOG_DONE] : []), ...noteEntry, ...skips.map((s) => s.entry), t.DIALOG_DECLINE, t.DIALOG_DISCUSS];
    const typed = q.wrote ?? "";
    const entries = q.multi
      ? menu(
          [
            ...labels.map((l, k) => `${q.options[k].ticked ? DIALOG.ticked : DIALOG.unticked} ${k + 1}. ${l}`),
            typed ? `${DIALOG.ticked} ${n + 1}. ${other} ${line(typed)}` : `${DIALOG.unticked} ${n + 1}. ${other}`,
          ],
          plain,
          false,
        )
      : menu(
          [
            ...labels.map((l, k) => (v.earlierLine && q.options[k].ticked ? `${l} ${MARKS.chosen}` : l)),
            v.earlierLine && q.typed ? `${other} ${line(q.typed)} ${MARKS.chosen}` : other,
          ],
          plain,
        ); // the remembered answer marked
    const noted = note ? `${title}\n${t.NOTE_PREFIX}${line(note)}` : title; // the note goes with the answer
    const reply = replied(await ctx.ui.select(noted, entries, opts()));
    if (reply === undefined) return act("cancel");
    const at = entries.indexOf(reply);
    const special = at > n ? plain[at - n - 1] : undefined;
    if (special === t.DIALOG_DONE) return act("submit");
    if (special === t.DIALOG_DECLINE) return act("decline");
    if (special === t.DIALOG_NOTE || special === t.DIALOG_NOTE_EDIT) {
      // In pi's editor, the note so far filled in: dismissed keeps it, emptied removes it.
      const ended = await edited(`${t.DIALOG_NOTE_TITLE}\n${title}`, q.note, "note");
      return ended === "dismissed" ? undefined : ended;
    }
    if (special === t.DIALOG_DISCUSS) return talkFirst();
    const skipped = skips.find((s) => s.entry === special);
    if (skipped) return skip(v, skipped.why);
    if (at >= 0 && at < n) return act(q.multi ? "toggle" : "pick", at);
    // "Something else…" (or a reply that is no entry): typed text; a dismissed box shows the list
    // again. In a multi-select question it replaces the typed part ("" removes it).
    const remembered = !q.multi && v.earlierLine && q.typed ? q.typed : ""; // an empty reply keeps it
    const text = replied(await ctx.ui.input(title, typed || remembered ? line(typed || remembered) : t.DIALOG_PLACEHOLDER, opts()));
    if (text !== undefined && !text.trim() && remembered) return typedAnswer(title, remembered, () => undefined);
    if (text === undefined || (!q.multi && !text.trim())) return undefined;
    if (!text.trim() && typed) {
      // The input cannot show the typed part as text to edit (only as its placeholder): an empty
      // reply may mean "keep it", so it goes only once the person agrees.
      const drop = replied(await ctx.ui.confirm(t.CONFIRM_DISCARD_TEXT, clean(typed), opts()));
      if (drop !== true) return undefined;
    }
    return typedAnswer(title, text, () => undefined);
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
