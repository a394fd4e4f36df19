// ask.ts — asking, in whatever way the mode allows, with the user's settings: pi's TUI
// (interactive), pi's dialogs (RPC), or answers from the flag / pending file / terminal (print
// and JSON mode). One queue per extension instance: two questions are never shown at once.
// Each way of asking is imported when it is first used (the TUI loads neither the RPC dialogs
// nor print mode's pending file, terminal or relay client), as is the desktop notification.
import { randomBytes } from "node:crypto";
import { homedir } from "node:os";
import { basename } from "node:path";
import type { AgentToolResult, ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { type ArgsJson, CANCEL_CONTINUES, type NativeAddon, type Outcome, terminalReachable, TIMEOUT_DECLINE, TIMEOUT_RECOMMENDED, TTY_PATH } from "./native.ts";
import type { ClaimAtKey } from "./headless.ts";
import type { RelayAsker } from "./relay.ts";
import { ENDING_STRINGS, type Ending, endingOf } from "./relay-wire.mjs";
import type { NormalizedQuestion, QuestionDetails } from "./schema.ts";
import { accessibleMode, loadSettings, resolveLanguage, type Settings } from "./settings.ts";
import { fill, stringsFor, useAccessible, useLanguage } from "./i18n.ts";
import { print, screenOf } from "./screen.ts";
import { SETTINGS_TEXT } from "./text.ts";

export type QuestionResult = AgentToolResult<QuestionDetails> & { terminate?: boolean };

/** The tool result from the C core's { details, text }. A cancel ends the agent's turn unless
 * the user's settings say Esc should let the agent continue. */
export function toToolResult(built: { details: string; text: string }, settings?: Settings): QuestionResult {
  const details = JSON.parse(built.details) as QuestionDetails;
  const terminate =
    (details.status === "cancelled" && settings?.escape !== "continue") ||
    (details.status === "timed_out" && (details.timeout ?? "cancel") === "cancel");
  return { content: [{ type: "text", text: built.text }], details, ...(terminate ? { terminate: true } : {}) };
}

/** The result flags of a "timed_out" built outside an engine: the timeout's "then". */
export function timeoutResultFlags(settings: Settings): number {
  const then = settings.timeout?.then;
  return then === "recommended" ? TIMEOUT_RECOMMENDED : then === "decline" ? TIMEOUT_DECLINE : 0;
}

/** A question asked through this instance: its details, and who asked it when a subagent did. */
export interface Asked {
  details: QuestionDetails;
  askedBy?: string;
}

export interface Asker {
  /** Questions asked through this instance, newest last. */
  readonly history: Asked[];
  /** The questions waiting now (shown or queued), oldest first. */
  readonly waiting: ReadonlyMap<string, Waiting>;
  /** The last QT_REMOTE_ENDED_REMEMBERED questions that stopped waiting, and how each ended
   * (oldest first), so a later answer is told exactly that. */
  readonly ended: ReadonlyMap<string, Ended>;
  /** An answer from elsewhere (another terminal, the relay's `answer`): taken only if the question
   * is still waiting and nobody answered it first — exactly once. `discussion`: the person's words
   * when the outcome is `discuss` (Ctrl+T, "talk first"). */
  answerFromElsewhere(qid: string, outcome: string, answersJson: string | null, mode?: ElsewhereMode, discussion?: unknown): RemoteVerdict;
  /** Calls `closed` once question `qid` ends (at once if it is not waiting); returns the way to stop. */
  watch(qid: string, closed: () => void): () => void;
  /** Calls `changed` whenever a question starts waiting, is answered or ends (the web page's live
   * updates); returns the way to stop. */
  subscribe(changed: () => void): () => void;
  /** The arguments of the last question that ended cancelled or interrupted, if any. */
  lastUnanswered(): ArgsJson | undefined;
  settings(ctx: ExtensionContext): Settings;
  /** Throws when the call exceeds the user's own (lower) limits. */
  checkLimits(questions: NormalizedQuestion[], settings: Settings): void;
  /** Asks in the queue, one question at a time. `from`: a subagent asks through the relay. */
  ask(
    json: ArgsJson,
    questions: NormalizedQuestion[],
    ctx: ExtensionContext,
    signal: AbortSignal | undefined,
    from?: RelayAsker,
  ): Promise<QuestionResult>;
}

/** Where an answer from elsewhere came from, as details.mode says it: another terminal, the web page. */
export type ElsewhereMode = "remote" | "web";

/** What became of an answer from elsewhere: taken, or refused with a code and a sentence. The
 * codes of a question that ended: "already" (answered), "cancelled", "timed_out", "withdrawn";
 * "not_waiting": no such question (never here, or forgotten); "invalid": the answer is wrong. */
export type RemoteVerdict = { ok: true } | { ok: false; code: "not_waiting" | "invalid" | RemoteEndedCode; reason: string };
export type RemoteEndedCode = "already" | "cancelled" | "timed_out" | "withdrawn";

/** A question that stopped waiting: how it ended, and when. */
export interface Ended {
  qid: string;
  askedAt: number;
  endedAt: number;
  ending: Ending;
}

const ENDED_CODE: Record<Ending, RemoteEndedCode> = { answered: "already", cancelled: "cancelled", timed_out: "timed_out", withdrawn: "withdrawn" };

/** A question waiting for its answer, shown or queued. */
export interface Waiting {
  qid: string;
  askedAt: number;
  /** "Asked by worker" for a subagent's question (sanitized); undefined for this pi's own. */
  askedBy?: string;
  questions: NormalizedQuestion[];
  /** The canonical arguments. */
  args: string;
  /** Answered (here or elsewhere) or ended: nothing else may answer it. */
  readonly settled: boolean;
}

interface Live extends Waiting {
  json: ArgsJson;
  flags: number;
  settings: Settings;
  settled: boolean;
  /** The result of an answer from elsewhere, when one won. */
  elsewhere?: QuestionResult;
  /** How it ended, once known (the outcome that settled it). */
  ending?: Ending;
  /** The claim of the terminal runner showing it, which reads the person's final key on a
   * thread of its own: an answer from elsewhere must win it first (true), else it returns the
   * outcome the person's key took the question with. */
  claimHere?: () => true | string;
  /** Aborted when an answer from elsewhere wins: the local UI closes. */
  stop: AbortController;
  watchers: Set<() => void>;
}

/** A question's id: "q" and 8 hex digits, never all digits, so `pi-question answer` tells an id
 * from a position. */
function newQid(): string {
  return `q${randomBytes(4).toString("hex")}`;
}

/** The directory shown for an unnamed asker: the home directory as "~". */
export function shortDirectory(dir: string): string {
  const home = homedir();
  if (home && (dir === home || dir.startsWith(home + "/"))) return "~" + dir.slice(home.length);
  return dir;
}

/** Sends the desktop notification for `prompt` when the setting asks for one (loaded only then). */
async function desktopNoticeFor(native: NativeAddon, s: Settings, prompt: string, toTty: boolean): Promise<void> {
  if (!s.notice.desktop) return;
  const { desktopNotice, sendDesktopNotice } = await import("./desktop.ts");
  sendDesktopNotice(desktopNotice(native, s.notice.desktop, prompt), toTty, TTY_PATH); // built in C from sanitized text
}

/** `text` cut to at most `max` bytes of UTF-8, at a character boundary (as the engine cuts it). */
function cutToBytes(text: string, max: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= max) return text;
  let n = max;
  while (n > 0 && (bytes[n] & 0xc0) === 0x80) n--;
  return bytes.subarray(0, n).toString("utf8");
}

/** How every screen names a relayed question's asker — pi's TUI, the terminal, RPC dialog titles,
 * /questions, the web page, `pi-question pending`: its name, else where it runs, each cut to
 * limits.askerBytes (the child chooses both; they are sanitized where shown). The one place. */
export function askerParts(from: RelayAsker, maxBytes: number): { name: string | null; where: string | null } {
  if (from.name) return { name: cutToBytes(from.name, maxBytes), where: null };
  return { name: null, where: cutToBytes(from.cwd ? shortDirectory(from.cwd) : `pid ${from.pid ?? "?"}`, maxBytes) };
}

/** `answersFlag` reads the --answers flag (print mode's answers). */
export function createAsker(pi: ExtensionAPI, native: NativeAddon, answersFlag: () => unknown = () => undefined): Asker {
  const history: Asked[] = [];
  const waiting = new Map<string, Live>();
  const ended = new Map<string, Ended>();
  const remember = (live: Live, ending: Ending) => {
    ended.delete(live.qid);
    ended.set(live.qid, { qid: live.qid, askedAt: live.askedAt, endedAt: Date.now(), ending });
    for (const qid of ended.keys()) {
      if (ended.size <= native.limits.remoteEndedRemembered) break;
      ended.delete(qid);
    }
  };
  /** Why a later answer to a question that is not waiting is refused: precisely how it ended. */
  const refusal = (ending: Ending): RemoteVerdict => ({ ok: false, code: ENDED_CODE[ending], reason: stringsFor(native)[ENDING_STRINGS[ending]] });
  const warned = new Set<string>();
  let unanswered: ArgsJson | undefined;
  /** The queue: the turns waiting to be shown, in the order asked; `busy` while one is shown.
   * A turn is a closure holding its question's whole work (arguments, context, asker), so a
   * turn that leaves the queue (its asker went away) is deleted from it at once: nothing of it
   * stays reachable until the turns ahead of it end. */
  const turns = new Set<() => void>();
  let busy = false;
  const subscribers = new Set<() => void>();
  const changed = () => {
    for (const s of [...subscribers]) {
      try {
        s();
      } catch {
        // a listener's failure is its own
      }
    }
  };

  /** The question is taken, by the person's final key here or as it ends: nothing else may
   * answer it. False when something took it first. */
  const claimAs = (live: Live, outcome?: string): boolean => {
    if (live.settled) return false;
    live.settled = true;
    if (outcome) live.ending = endingOf(outcome);
    changed();
    return true;
  };
  /** Starts the next turn, if any: called once the shown question ended. */
  const advance = () => {
    const [first] = turns;
    if (!first) {
      busy = false;
      return;
    }
    turns.delete(first);
    first();
  };
  /** Runs `turn` once every turn before it ended. */
  const enqueue = (turn: () => void) => {
    if (busy) {
      turns.add(turn);
      return;
    }
    busy = true;
    turn();
  };

  const settings = (ctx: ExtensionContext): Settings =>
    loadSettings(ctx.cwd, (message) => {
      if (warned.has(message)) return;
      warned.add(message);
      screenOf(native, ctx).notify(message, "warning"); // quotes the settings file: sanitized there
    });

  /** Gets the person's attention while a question waits; returns the way to undo it. */
  const notice = async (ctx: ExtensionContext, s: Settings, prompt: string): Promise<() => void> => {
    const short = Array.from(native.sanitize(prompt, false)).slice(0, 60).join("");
    const t = stringsFor(native);
    const screen = screenOf(native, ctx);
    if (s.notice.title) screen.title(fill(t.NOTICE_TITLE, { s: short }));
    if (s.notice.bell && process.stdout.isTTY) process.stdout.write("\x07"); // the bell itself, nothing quoted
    if (s.notice.notify) screen.notify(fill(t.NOTICE_NOTIFY, { s: short }), "info");
    await desktopNoticeFor(native, s, prompt, false);
    return () => {
      if (!s.notice.title) return;
      const name = pi.getSessionName();
      const dir = basename(ctx.cwd);
      screen.title(name ? `π - ${name} - ${dir}` : `π - ${dir}`);
    };
  };

  /** "Asked by worker" / "Asked by a subagent in ~/proj", sanitized, in the current language. */
  const askedBy = (from: RelayAsker): string => {
    const { name, where } = askerParts(from, native.limits.askerBytes);
    const t = stringsFor(native);
    return native.sanitize(name ? fill(t.ASKED_BY, { s: name }) : fill(t.ASKED_BY_SUBAGENT, { s: where ?? "" }), false);
  };

  /** No UI of this pi's own: a subagent asks through the pi above it, when there is one. */
  const askAbove = async (json: ArgsJson, ctx: ExtensionContext, signal: AbortSignal | undefined, s: Settings) => {
    const { adoptedAskerName, askThroughRelay, isOwnRelay, parseRelayVariable, RELAY_ENV } = await import("./relay.ts");
    const variable = process.env[RELAY_ENV];
    const endpoint = parseRelayVariable(variable);
    if (!endpoint || isOwnRelay(variable)) return undefined;
    const flags = s.escape === "continue" ? CANCEL_CONTINUES : 0;
    const asker: RelayAsker = { pid: process.pid, cwd: ctx.cwd };
    const name = adoptedAskerName();
    if (name) asker.name = name;
    // The reply can be far longer than the question (typed answers and notes at their limits):
    // its cap is the bound of every legitimate message, so no answer the person gave is refused.
    const reply = await askThroughRelay(endpoint, native.normalize(json), asker, signal, native.limits.relayMessageBytes);
    switch (reply.type) {
      case "answer":
        try {
          const answers = reply.answers ? JSON.stringify(reply.answers) : null;
          const said = reply.outcome === "discuss" ? String(reply.discussion ?? "") : null; // the person's words
          const then = (reply as { timeout?: unknown }).timeout;
          const timeoutFlags = reply.outcome !== "timed_out" ? 0 : then === "recommended" ? TIMEOUT_RECOMMENDED : then === "decline" ? TIMEOUT_DECLINE : 0;
          return toToolResult(native.result(json, reply.outcome as Outcome, "relay", Date.now(), said, answers, flags | timeoutFlags), s);
        } catch (error) {
          // An answer this pi cannot read (a different version above?): nothing was answered.
          print(native, process.stderr, `pi-question: the answer from the pi above could not be used: ${(error as Error).message}\n`);
          return toToolResult(native.result(json, "interrupted", "relay", Date.now(), null, null, flags), s);
        }
      case "interrupted":
        return toToolResult(native.result(json, "interrupted", "relay", Date.now(), null, null, flags), s);
      case "error":
        throw new Error(reply.message);
      case "unreachable":
        print(native, process.stderr, `pi-question: the question relay named by ${RELAY_ENV} is not reachable (${reply.reason}); asking here instead\n`);
        return undefined;
      default:
        return undefined; // the pi above cannot ask either: the usual way
    }
  };

  const askNow = async (
    json: ArgsJson,
    questions: NormalizedQuestion[],
    ctx: ExtensionContext,
    signal: AbortSignal | undefined,
    s: Settings,
    from: RelayAsker | undefined,
    claim: (outcome?: string) => boolean,
    claimedHere: ClaimAtKey,
  ): Promise<QuestionResult> => {
    const language = resolveLanguage(s.language);
    useLanguage(language);
    useAccessible(accessibleMode(s)); // the transcript of this answer follows the setting too
    const flags = s.escape === "continue" ? CANCEL_CONTINUES : 0;
    if (!ctx.hasUI) {
      if (from) {
        // A subagent's question in print mode: this pi's own terminal, or nobody.
        if (terminalReachable(native)) {
          const { askOnTerminal } = await import("./headless.ts");
          // the notification goes with the question: written by the runner once it has the terminal
          const notice = s.notice.desktop ? (await import("./desktop.ts")).desktopNotice(native, s.notice.desktop, questions[0]?.prompt ?? "") : "";
          return askOnTerminal(native, json, signal, s, askerParts(from, native.limits.askerBytes), notice, claimedHere);
        }
        return toToolResult(native.result(json, "unavailable", "print", Date.now(), null, null, flags), s);
      }
      const relayed = await askAbove(json, ctx, signal, s);
      if (relayed) return relayed;
      const { answerWithoutTui } = await import("./headless.ts");
      return answerWithoutTui(native, json, questions, ctx.cwd, answersFlag(), signal, s, claimedHere);
    }
    const restore = await notice(ctx, s, questions[0]?.prompt ?? "");
    try {
      const { askInTui } = await import("./interactive.ts");
      const engine = native.createEngine(json);
      let outcome;
      try {
        engine.setLanguage(language);
        if (from) {
          const { name, where } = askerParts(from, native.limits.askerBytes);
          engine.setAsker(name, where);
        }
        outcome = await askInTui(native, engine, ctx, signal, claim, {
          accessible: accessibleMode(s),
          ...(s.timeout ? { timeout: { ms: s.timeout.ms, then: s.timeout.then } } : {}),
        });
        if (outcome !== undefined) return toToolResult(engine.result("interactive", Date.now(), null, flags), s);
      } finally {
        engine.dispose();
      }
      // No custom components here (RPC mode): the same questions through pi's dialogs.
      const { askWithDialogs } = await import("./dialogs.ts");
      const preset = (JSON.parse(native.normalize(json)) as { answers?: Record<string, unknown> }).answers ?? {};
      const asked = await askWithDialogs(native, questions, ctx, signal, preset, from ? askedBy(from) : undefined, s.timeout, claim);
      const answers = asked.answers ? JSON.stringify(asked.answers) : null;
      const said = asked.outcome === "discuss" ? (asked.discussion ?? "") : null; // "Discuss first…": their words
      const timeoutFlags = asked.outcome === "timed_out" ? timeoutResultFlags(s) : 0;
      return toToolResult(native.result(json, asked.outcome, "rpc", Date.now(), said, answers, flags | timeoutFlags), s);
    } finally {
      restore();
    }
  };

  return {
    history,
    waiting,
    ended,
    lastUnanswered: () => unanswered,
    settings,
    checkLimits(questions, s) {
      const maxQ = s.limits.questions;
      if (maxQ !== undefined && questions.length > maxQ) throw new Error(SETTINGS_TEXT.overLimit("questions", questions.length, maxQ));
      const maxO = s.limits.options;
      const most = Math.max(0, ...questions.map((q) => q.options?.length ?? 0));
      if (maxO !== undefined && most > maxO) throw new Error(SETTINGS_TEXT.overLimit("options in one question", most, maxO));
    },
    answerFromElsewhere(qid, outcome, answersJson, mode = "remote", discussion) {
      const live = waiting.get(qid);
      const t = stringsFor(native);
      if (!live) {
        const was = ended.get(qid);
        return was ? refusal(was.ending) : { ok: false, code: "not_waiting", reason: t.REMOTE_NOT_WAITING };
      }
      if (live.settled) return refusal(live.ending ?? "answered");
      if (outcome !== "answered" && outcome !== "declined" && outcome !== "cancelled" && outcome !== "discuss") {
        return { ok: false, code: "invalid", reason: `outcome must be answered, declined, cancelled or discuss, not ${JSON.stringify(outcome)}` };
      }
      if (outcome === "discuss" && typeof discussion !== "string") {
        return { ok: false, code: "invalid", reason: "outcome discuss needs the person's words as a string in discussion" };
      }
      // The words trimmed, as the dialogs take them. The engine's editor caps them at
      // limits.discussBytes; words from elsewhere over it are refused, never cut, so the sender
      // still holds them.
      const said = outcome === "discuss" ? (discussion as string).trim() : null;
      if (said !== null && Buffer.byteLength(said, "utf8") > native.limits.discussBytes) {
        const reason = fill(t.REMOTE_DISCUSS_LONG, { n: Buffer.byteLength(said, "utf8"), s: String(native.limits.discussBytes) });
        return { ok: false, code: "invalid", reason };
      }
      let built;
      try {
        built = native.result(live.json, outcome as Outcome, mode, Date.now(), said, answersJson, live.flags);
      } catch (error) {
        return { ok: false, code: "invalid", reason: (error as Error).message };
      }
      // The terminal runner claims at the person's final key on a thread of its own: its claim,
      // atomic, decides who was first (the TUI and the dialogs claim on this thread, by claim()).
      const here = live.claimHere?.();
      if (typeof here === "string") {
        claimAs(live, here);
        return refusal(live.ending ?? "answered");
      }
      live.settled = true;
      live.ending = endingOf(outcome);
      live.elsewhere = toToolResult(built, live.settings);
      live.stop.abort(); // the question closes wherever it is shown here
      changed();
      return { ok: true };
    },
    subscribe(listener) {
      subscribers.add(listener);
      return () => subscribers.delete(listener);
    },
    watch(qid, closed) {
      const live = waiting.get(qid);
      if (!live) {
        closed();
        return () => undefined;
      }
      live.watchers.add(closed);
      return () => live.watchers.delete(closed);
    },
    ask(json, questions, ctx, signal, from) {
      const s = settings(ctx);
      const live: Live = {
        qid: newQid(),
        askedAt: Date.now(),
        ...(from ? { askedBy: askedBy(from) } : {}),
        questions,
        args: native.normalize(json),
        json,
        flags: s.escape === "continue" ? CANCEL_CONTINUES : 0,
        settings: s,
        settled: false,
        stop: new AbortController(),
        watchers: new Set(),
      };
      /** It stops waiting: remembered with how it ended (a subagent that went away: withdrawn). */
      const end = () => {
        if (waiting.get(live.qid) !== live) return;
        live.settled = true;
        remember(live, live.ending ?? "withdrawn");
        waiting.delete(live.qid);
        for (const w of live.watchers) w();
        changed();
      };
      waiting.set(live.qid, live);
      changed();
      const claim = (outcome?: string) => claimAs(live, outcome);
      /** The terminal runner reads the final key on a thread of its own: it hands over its claim. */
      const claimedHere = (runner: (() => true | string) | undefined) => {
        live.claimHere = runner;
      };
      const withdrawn = () => toToolResult(native.result(json, "interrupted", "relay", Date.now(), null, null, 0));
      return new Promise<QuestionResult>((resolve, reject) => {
        const work = async (): Promise<QuestionResult> => {
          if (from && signal?.aborted) return withdrawn();
          // Answered elsewhere while it waited in the queue: never shown here.
          const stops = signal ? AbortSignal.any([signal, live.stop.signal]) : live.stop.signal;
          const local = live.elsewhere ?? (await askNow(json, questions, ctx, stops, s, from, claim, claimedHere));
          live.claimHere = undefined;
          const result = live.elsewhere ?? local;
          if (!claim(result.details.status)) live.ending ??= endingOf(result.details.status);
          history.push({ details: result.details, ...(live.askedBy ? { askedBy: live.askedBy } : {}) });
          // /answer reopens this pi's own questions only: a subagent's answer goes back to it.
          if (!from) {
            const status = result.details.status;
            if (status === "cancelled" || status === "interrupted" || status === "timed_out") unanswered = json;
            else if (status === "answered" || status === "declined") unanswered = undefined;
          }
          return result;
        };
        const turn = () => {
          work()
            .finally(end)
            .then(resolve, reject)
            .finally(() => {
              if (from) signal?.removeEventListener("abort", withdraw);
              advance();
            });
        };
        // A subagent that goes away withdraws its question at once, shown or still queued; a
        // queued one leaves the queue then, and its caller is told at once (interrupted).
        const withdraw = () => {
          if (turns.delete(turn)) resolve(withdrawn());
          end();
        };
        if (from && signal?.aborted) {
          end();
          resolve(withdrawn());
          return;
        }
        if (from) signal?.addEventListener("abort", withdraw, { once: true });
        enqueue(turn);
      });
    },
  };
}
