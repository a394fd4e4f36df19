// ask.ts — asking, in whatever way the mode allows (route.ts chooses), with the user's settings:
// pi's TUI (interactive), pi's dialogs (RPC), the pi above through the relay, or answers from the
// flag / pending file / terminal (print and JSON mode). Each question is posted on the board
// (board.ts: ids, claims, endings, the queue), which decides who answered it; two questions are
// never shown at once. Each way of asking is imported when it is first used (the TUI loads
// neither the RPC dialogs nor print mode's pending file, terminal or relay client), as is the
// desktop notification.
import { emitOnBus, hostEvents } from "../board/events.ts";
import { askerParts } from "../text/asker.ts";
import { basename } from "node:path";
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { addon, canonicalText } from "../addon.ts";
import { type AskersBoard, type Board, createBoard, type Ticket } from "../board/board.ts";
import { type ArgsJson, type NativeEngine, type Outcome, terminalReachable, TTY_PATH } from "../addon-types.ts";
import { type Aside, createAside } from "./aside.ts";
import type { AnswersFlag } from "./print-mode.ts";
import type { RelayAsker } from "../question-types.ts";
import { escapeFlags, type QuestionResult, secretRefusal, toToolResult } from "../board/result.ts";
import { isPersonsAnswer, type Remembered, rememberAnswers, rememberedAll, warmMemory } from "./memory.ts";
import { route, type Way } from "./route.ts";
import type { NormalizedQuestion, QuestionDetails } from "../question-types.ts";
import { accessibleMode, loadSettings, resolveLanguage, type Settings } from "../text/settings.ts";
import { fill, strings, useAccessible, useLanguage } from "../text/i18n.ts";
import { screenOf } from "../text/screen.ts";
import { SECRET, SETTINGS_TEXT } from "../text/text.ts";

/** A module loaded at its first use and kept: jiti resolves the path again at every import(),
 * a file-system walk a question should not pay each time. A load that fails is tried again. */
function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
/** A signal aborted when either is: AbortSignal.any's work (weak references kept for signals
 * that live long) is a measurable part of a question's first frame, and these two live only as
 * long as the question. */
function eitherAborts(a: AbortSignal, b: AbortSignal): AbortSignal {
  if (a.aborted) return a;
  if (b.aborted) return b;
  const both = new AbortController();
  const stop = (from: AbortSignal) => () => both.abort(from.reason);
  a.addEventListener("abort", stop(a), { once: true });
  b.addEventListener("abort", stop(b), { once: true });
  return both.signal;
}

const interactiveModule = lazy(() => import("./interactive.ts"));
const dialogsModule = lazy(() => import("./dialogs.ts"));
const relayModule = lazy(() => import("../elsewhere/relay.ts"));
const printModeModule = lazy(() => import("./print-mode.ts"));
const desktopModule = lazy(() => import("../text/desktop.ts"));
const noticeCommandModule = lazy(() => import("./notice-command.ts"));
const sessionModule = lazy(() => import("../elsewhere/session.ts"));

/** herdr's event on pi's bus: { active: true, label } while a question waits for the person,
 * { active: false } once it does not. */
const HERDR_BLOCKED = "herdr:blocked";

export type { QuestionResult } from "../board/result.ts";

/** A question asked through this instance: its details, and who asked it when a subagent did. */
export interface Asked {
  details: QuestionDetails;
  askedBy?: string;
}

/** A question asked without waiting (wait: false, async.ts): on the board from the start, shown
 * only when the person opens it, through the same queue as every question. */
export interface Later {
  readonly qid: string;
  /** Resolves once, with how it ended: answered here or elsewhere, declined, cancelled, timed out. */
  readonly ended: Promise<QuestionResult>;
  /** Whether it ended (or was dropped). */
  readonly done: boolean;
  /** Shows it when no other question is shown (never over one); resolves once it is not shown. */
  open(ctx: ExtensionContext): Promise<void>;
  /** Takes it off this board without ending it for the agent (this instance stops: /reload, exit);
   * `ended` never resolves. */
  drop(): void;
}

export interface Asker {
  /** The board of this instance's waiting questions: what waits, how the last ones ended, and
   * answers from elsewhere (the relay endpoint, the web page). */
  readonly board: Board;
  /** Questions asked through this instance, newest last. */
  readonly history: Asked[];
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
    /** Opens each question with this answer chosen instead of the project's remembered one
     * (/answer changing the last answer: the answer given then). */
    given?: Array<Remembered | undefined>,
  ): Promise<QuestionResult>;
  /** Alt+A, /answer: the question the person stepped aside from (aside.ts) comes back as it was;
   * false when none is aside. */
  bringBack(): boolean;
  /** Loads and decides ahead what the first question of a session with a person (`ctx.hasUI`)
   * needs in its mode (its modules, the width rules, the settings, the project's remembered
   * answers): called in pi's idle time after such a session starts (index.ts), each step its own
   * turn of the event loop; never throws. */
  prepare(ctx: ExtensionContext): Promise<void>;
  /** This instance stops (session_shutdown: /reload, a new session, exit): its board leaves pi's
   * event bus, which outlives it (the next instance answers there), and its questions asked
   * without waiting are dropped, unended (the session's entries bring them back). */
  close(): void;
  /** Posts a question asked without waiting; `qid`: its id when it was posted before. */
  later(json: ArgsJson, questions: NormalizedQuestion[], ctx: ExtensionContext, qid?: string): Later;
  /** The page's link while it is on (web-host.ts sets it): notice.command passes it on. */
  pageUrl?: () => string | undefined;
  /** The manager of the questions asked without waiting (async.ts), once made: pi's events
   * (message_end, agent_end, /tree) reach it through index.ts without loading it. */
  asyncQuestions?: AsyncQuestions;
}

/** The manager of the questions asked without waiting (async.ts makes it, at the first such
 * question). */
export interface AsyncQuestions {
  /** The call of a question with wait: false, in a session with a UI: posted, remembered, the
   * line shown; returns the tool's result at once. */
  ask(json: ArgsJson, questions: NormalizedQuestion[], ctx: ExtensionContext): QuestionResult;
  /** Opens the oldest waiting one (the shortcut, /answer); false when none waits. */
  openOldest(ctx: ExtensionContext): Promise<boolean>;
  /** Session start (/reload, resume): posts again every question of the branch asked without
   * waiting that has not ended, with its id, and shows the line. */
  restore(ctx: ExtensionContext): void;
  /** pi's message_end for an answer's message of this branch (index.ts): it is delivered. */
  delivered(qid: string): void;
  /** A run ended (agent_end, agent_settled): answers not delivered yet are sent again at the
   * next idle moment (pi dropped the steering message: Esc). */
  settled(ctx: ExtensionContext): void;
  /** /tree moved the session to another branch: what this branch does not hold stops waiting
   * here (nothing is delivered, nothing ended); restore() then takes what it holds. */
  leaveBranch(ctx: ExtensionContext): void;
  /** This instance stops (session_shutdown): no more sending; the session holds the rest. */
  stop(): void;
  /** Those waiting now, oldest first. */
  readonly waiting: readonly Later[];
}

/** "Asked by worker" / "Asked by a subagent in ~/proj", sanitized, in the current language. */
function askedBy(from: RelayAsker): string {
  const { name, where } = askerParts(from);
  const t = strings();
  return addon().sanitize(name ? fill(t.ASKED_BY, { s: name }) : fill(t.ASKED_BY_SUBAGENT, { s: where ?? "" }), false);
}

/** The result flags every result of a question asked with these settings carries. */
/** Whether pi trusts the session's project (pi ≥ 1.5: ctx.isProjectTrusted(), which counts
 * temporary and command-line decisions too); a pi without project trust (0.73) trusts every
 * project, and then only the rules for hostile project files hold (project-file.ts). */
export function projectTrusted(ctx: ExtensionContext): boolean {
  const check = (ctx as { isProjectTrusted?: () => boolean }).isProjectTrusted;
  if (typeof check !== "function") return true;
  try {
    return check.call(ctx) !== false;
  } catch {
    return false; // pi could not say: the project's files do not count
  }
}

/** What draws the person to a waiting question besides the settings: the page's link when it
 * is on, and the kinds of notice.command failure already told (once per session each). */
interface Attention {
  pageUrl: () => string | undefined;
  told: Set<string>;
}

/** The person's own notice.command for question `qid` (notice-command.ts), when their settings
 * name one; its failures said once per session and kind. Never throws. */
async function pingPerson(
  pi: ExtensionAPI,
  ctx: ExtensionContext,
  s: Settings,
  prompt: string,
  qid: string,
  extra: Attention,
): Promise<void> {
  const command = s.notice.command;
  if (!command) return;
  try {
    const [{ runNoticeCommand }, { whereOf }] = await Promise.all([noticeCommandModule(), sessionModule()]);
    const { path, session } = whereOf(pi, ctx);
    const url = extra.pageUrl();
    const project = ctx.cwd;
    const screen = screenOf(ctx);
    runNoticeCommand(command, { qid, prompt, project, session: session || path, ...(url ? { url } : {}) }, (message, kind) => {
      const key = `${JSON.stringify(command)} ${kind}`;
      if (extra.told.has(key)) return;
      extra.told.add(key);
      screen.notify(message, "warning");
    });
  } catch {
    // a context pi retired meanwhile: nobody to ping for
  }
}

/** Gets the person's attention while question `qid` waits in pi's UI (title, bell, notification,
 * desktop notification, the person's own notice.command unless `pinged` already, as the settings
 * say; herdr's waiting marker on pi's event bus); returns the way to undo it. */
async function attention(
  pi: ExtensionAPI,
  ctx: ExtensionContext,
  s: Settings,
  prompt: string,
  qid: string,
  extra: Attention,
  pinged: boolean,
): Promise<() => void> {
  const native = addon();
  const short = Array.from(native.sanitize(prompt, false)).slice(0, 60).join("");
  const t = strings();
  const screen = screenOf(ctx);
  if (s.notice.title) screen.title(fill(t.NOTICE_TITLE, { s: short }));
  if (s.notice.bell && process.stdout.isTTY) process.stdout.write("\x07"); // the bell itself, nothing quoted
  if (s.notice.notify) screen.notify(fill(t.NOTICE_NOTIFY, { s: short }), "info");
  if (s.notice.desktop) {
    const { desktopNotice, sendDesktopNotice } = await desktopModule();
    sendDesktopNotice(desktopNotice(s.notice.desktop, prompt), false, TTY_PATH); // built in C from sanitized text
  }
  if (!pinged) await pingPerson(pi, ctx, s, prompt, qid, extra);
  // herdr (a terminal multiplexer for agents) marks the pane as waiting for the person
  emitOnBus(pi, HERDR_BLOCKED, { active: true, label: short });
  return () => {
    emitOnBus(pi, HERDR_BLOCKED, { active: false });
    if (!s.notice.title) return;
    const name = pi.getSessionName();
    const dir = basename(ctx.cwd);
    screen.title(name ? `π - ${name} - ${dir}` : `π - ${dir}`);
  };
}

/** One call of the tool, as it is being asked. */
interface Call {
  json: ArgsJson;
  questions: NormalizedQuestion[];
  ctx: ExtensionContext;
  /** Aborted when the call stops waiting (the agent stopped, or an answer from elsewhere). */
  signal: AbortSignal | undefined;
  s: Settings;
  /** The subagent that asked through the relay, if one did. */
  from: RelayAsker | undefined;
  ticket: Ticket<QuestionResult>;
  /** The person's notice.command ran when it was posted (a question asked without waiting). */
  pinged?: boolean;
}

/** Opens each question this project remembers an answer to with that answer (memory.ts); a
 * remembered answer the engine refuses (the file was edited by hand) is left out. */
function openRemembered(engine: NativeEngine, remembered: Array<Remembered | undefined>): void {
  remembered.forEach((r, i) => {
    if (!r) return;
    try {
      engine.remember(i, r.answersJson, r.line, r.when);
    } catch {
      // not an answer to this question any more: it opens plain
    }
  });
}

/** The engine of a question's one flow (board/flow.ts), made by the board when the first face
 * needs it (the TUI showing it, the dialogs, the page): in the person's language, opened with
 * the answers this project remembers (nothing with "memory": false), naming the subagent that
 * asks. `ctx`: the context to read the project's memory with, asked when it is made. */
function flowEngine(
  json: ArgsJson,
  questions: NormalizedQuestion[],
  ctx: () => ExtensionContext,
  settings: () => Settings,
  from?: RelayAsker,
  given?: Array<Remembered | undefined>,
): NativeEngine {
  const s = settings();
  const engine = addon().createEngine(json);
  const language = resolveLanguage(s.language);
  engine.setLanguage(language);
  if (given) openRemembered(engine, given);
  else if (s.memory) {
    const here = ctx();
    openRemembered(engine, rememberedAll(here.cwd, questions, language, memoryWarning(here)));
  }
  if (from) {
    const { name, where } = askerParts(from);
    engine.setAsker(name, where);
  }
  return engine;
}

/** One question asked one way; undefined when that way cannot ask after all (the next is tried). */
async function askOneWay(way: Way, call: Call, flag: AnswersFlag, aside: Aside): Promise<QuestionResult | undefined> {
  const { json, questions, ctx, signal, s, from, ticket } = call;
  const native = addon();
  const flags = escapeFlags(s);
  switch (way) {
    case "tui": {
      const { askInTui } = await interactiveModule();
      const flow = ticket.flow();
      const release = flow.hold(); // the result is read from it after the question may have ended
      try {
        for (;;) {
          const outcome = await askInTui(flow, ctx, signal, ticket.claim, {
            accessible: accessibleMode(s),
            ...(s.timeout ? { timeout: { ms: s.timeout.ms, then: s.timeout.then } } : {}),
            blocked: Array.from(native.sanitize(questions[0]?.prompt ?? "", false))
              .slice(0, 60)
              .join(""),
          });
          if (outcome === undefined) return undefined;
          if (outcome !== "aside") return toToolResult(flow.engine.result("interactive", Date.now(), null, flags), s);
          // Stepped aside: a line above pi's editor until the same key or /answer brings the
          // question back as its flow is then (or it ends elsewhere: askInTui sees the abort).
          await aside.wait(ctx, flow, signal);
        }
      } finally {
        release();
      }
    }
    case "dialogs": {
      // No custom components here (RPC mode): the same questions through pi's dialogs.
      const refused = secretRefusal(json, questions, SECRET.rpc, "rpc", s);
      if (refused) return refused;
      const { askWithDialogs } = await dialogsModule();
      const flow = ticket.flow();
      const release = flow.hold(); // the result is read from it after the question may have ended
      try {
        const asked = await askWithDialogs(flow, questions, ctx, signal, {
          presupplied: native.allPresupplied(json),
          ...(from ? { askedBy: askedBy(from) } : {}),
          ...(s.timeout ? { timeout: { ms: s.timeout.ms, then: s.timeout.then } } : {}),
          claim: ticket.claim,
          remembered: s.memory,
        });
        // The person ended the flow here (a reply, or the clock): its engine's result, as the TUI's.
        if (asked.outcome !== "interrupted" && flow.engine.done) return toToolResult(flow.engine.result("rpc", Date.now(), null, flags), s);
        const answers = asked.answers ? JSON.stringify(asked.answers) : null;
        return toToolResult(native.result(json, asked.outcome, "rpc", Date.now(), null, answers, flags), s);
      } finally {
        release();
      }
    }
    case "above": {
      const { askAbove } = await relayModule();
      return askAbove(json, ctx.cwd, signal, s);
    }
    case "terminal": {
      const { askOnTerminal } = await printModeModule();
      // the notification goes with the question: written by the runner once it has the terminal
      const notice = s.notice.desktop ? (await desktopModule()).desktopNotice(s.notice.desktop, questions[0]?.prompt ?? "") : "";
      return askOnTerminal(json, signal, s, askerParts(from ?? {}), notice, ticket.claimAtKey);
    }
    case "print": {
      const { answerWithoutTui } = await printModeModule();
      return answerWithoutTui(json, questions, ctx.cwd, flag, signal, s, ticket.claimAtKey);
    }
    case "unavailable":
      return toToolResult(native.result(json, "unavailable", "print", Date.now(), null, null, flags), s);
  }
}

/** Writes the person's answers of a result to their memory for the project (memory.ts); a file that
 * could not be written is said on screen, and the question's result stands. */
async function remember(ctx: ExtensionContext, result: QuestionResult, from: RelayAsker | undefined): Promise<void> {
  if (!isPersonsAnswer(result.details)) return;
  let by = "pi";
  if (from) {
    const { name, where } = askerParts(from);
    by = name ?? `a subagent in ${where ?? "?"}`;
  }
  let why: string | undefined;
  try {
    why = (await rememberAnswers(ctx.cwd, result.details, by)) ?? undefined;
  } catch (error) {
    why = `pi-question: the answer was not remembered: ${(error as Error).message}`; // it still reaches the agent
  }
  if (why) screenOf(ctx).notify(addon().sanitize(why, false), "warning");
}

/** Where a refused answers file is told (memory.ts tells it once per change of the file). */
export function memoryWarning(ctx: ExtensionContext): (message: string) => void {
  return (message) => screenOf(ctx).notify(addon().sanitize(message, false), "warning");
}

/** What the parts of one asker share (createAsker makes it; the functions below take it). */
interface AskerCore {
  readonly board: AskersBoard<QuestionResult>;
  /** Questions asked through this instance, newest last. */
  readonly history: Asked[];
  /** Asked without waiting, not ended yet. */
  readonly laters: Set<Later>;
  /** The arguments of this pi's own last question that ended unanswered (Asker.lastUnanswered). */
  unanswered: ArgsJson | undefined;
  settings(ctx: ExtensionContext): Settings;
  /** The question asked in the ways route.ts chooses for this moment, until one can ask. */
  askNow(call: Call): Promise<QuestionResult>;
  /** The person's notice.command for a question that starts waiting without being shown. */
  ping(ctx: ExtensionContext, s: Settings, prompt: string, qid: string): void;
}

/** Asker.prepare: what the first question of a session with a person needs, each step its own
 * turn of the event loop; never throws. */
async function prepareFirst(core: AskerCore, ctx: ExtensionContext): Promise<void> {
  const step = () => new Promise<void>((resolve) => setImmediate(resolve));
  try {
    const mode = (ctx as { mode?: string }).mode;
    const tui = mode === undefined || mode === "tui";
    if (tui) {
      const m = await interactiveModule();
      await step();
      m.prepareTui();
    } else {
      await dialogsModule(); // RPC: pi's dialogs
    }
    await step();
    const s = core.settings(ctx);
    await step();
    if (s.memory) warmMemory(ctx.cwd);
    if (tui) {
      await step();
      (await interactiveModule()).rehearseTui(resolveLanguage(s.language));
    }
  } catch {
    // nothing prepared is lost: the first question does what is left
  }
}

/** Asker.checkLimits: throws when the call exceeds the user's own (lower) limits. */
function checkLimits(questions: NormalizedQuestion[], s: Settings): void {
  const maxQ = s.limits.questions;
  if (maxQ !== undefined && questions.length > maxQ) throw new Error(SETTINGS_TEXT.overLimit("questions", questions.length, maxQ));
  const maxO = s.limits.options;
  const most = Math.max(0, ...questions.map((q) => q.options?.length ?? 0));
  if (maxO !== undefined && most > maxO) throw new Error(SETTINGS_TEXT.overLimit("options in one question", most, maxO));
}

/** A question asked without waiting (Asker.later): posted on the board, shown when the person
 * opens it, ended once, remembered. */
function askLater(core: AskerCore, json: ArgsJson, questions: NormalizedQuestion[], ctx: ExtensionContext, qid?: string): Later {
  const native = addon();
  // Asked without waiting, the agent works on: a cancel lets it go on (never "end your turn")
  const going = (here: ExtensionContext): Settings => ({ ...core.settings(here), escape: "continue" });
  const s = going(ctx);
  const flags = escapeFlags(s);
  let latest = ctx; // the context it was last opened in (the posting turn's may be gone)
  const ticket = core.board.post(
    { questions, args: canonicalText(json), async: true, ...(qid ? { qid } : {}) },
    (outcome, answersJson, mode, said, earlier, source) =>
      toToolResult(native.result(json, outcome as Outcome, mode, Date.now(), said, answersJson, flags, earlier ?? null, source ?? null), s),
    () =>
      flowEngine(
        json,
        questions,
        () => latest,
        () => going(latest),
      ), // the settings when a face first shows it
  );
  // A new question (not one posted again after /reload) pings the person at once: they open it
  // when they choose, and may be away now.
  if (!qid && ctx.hasUI) core.ping(ctx, s, questions[0]?.prompt ?? "", ticket.qid);
  let finish: (result: QuestionResult) => void = () => undefined;
  const ended = new Promise<QuestionResult>((resolve) => (finish = resolve));
  let shown = false;
  let over = false;
  const end = (result: QuestionResult) => {
    if (over) return;
    over = true;
    core.laters.delete(later);
    ticket.settle(result.details.status);
    ticket.end();
    core.history.push({ details: result.details });
    finish(result);
    // the person's answer (here or elsewhere), for the next time it is asked; after the
    // answer went on its way, so a slow lock delays nothing
    if (s.memory) remember(ctx, result, undefined).catch(() => undefined);
  };
  // Answered elsewhere while not shown here: it ends at once (while shown, showing ends it).
  ticket.stopped.addEventListener("abort", () => {
    if (!shown && ticket.taken) end(ticket.taken);
  });
  // Dropped while shown (the session ends: /reload, quitting): the question closes on screen
  // too, and nothing of it is delivered (the next session posts it again).
  const gone = new AbortController();
  const later: Later = {
    qid: ticket.qid,
    ended,
    get done() {
      return over;
    },
    open(here) {
      return new Promise<void>((resolve) => {
        core.board.line(async () => {
          try {
            if (over) return;
            shown = true;
            latest = here;
            const now = going(here);
            const local =
              ticket.taken ??
              (await core.askNow({
                json,
                questions,
                ctx: here,
                signal: AbortSignal.any([ticket.stopped, gone.signal]),
                s: now,
                from: undefined,
                ticket,
                pinged: true,
              }));
            end(ticket.taken ?? local);
          } catch (error) {
            if (ticket.taken) end(ticket.taken);
            else if (!over) screenOf(here).notify(`pi-question: ${(error as Error).message}`, "error");
          } finally {
            shown = false;
            resolve();
          }
        });
      });
    },
    drop() {
      if (over) return;
      over = true;
      core.laters.delete(later);
      gone.abort();
      ticket.end();
    },
  };
  core.laters.add(later);
  return later;
}

/** A question asked and waited for (Asker.ask): posted on the board, asked in its turn of the
 * queue, its answer remembered; a subagent's is withdrawn when the subagent goes away. */
function askInTurn(
  core: AskerCore,
  json: ArgsJson,
  questions: NormalizedQuestion[],
  ctx: ExtensionContext,
  signal: AbortSignal | undefined,
  from?: RelayAsker,
  given?: Array<Remembered | undefined>,
): Promise<QuestionResult> {
  const native = addon();
  const s = core.settings(ctx);
  const flags = escapeFlags(s);
  const by = from ? askedBy(from) : undefined;
  // An answer from elsewhere becomes this question's result, built as the person's would be.
  const ticket = core.board.post(
    {
      ...(by ? { askedBy: by } : {}),
      questions,
      args: canonicalText(json),
    },
    (outcome, answersJson, mode, said, earlier, source) =>
      toToolResult(native.result(json, outcome as Outcome, mode, Date.now(), said, answersJson, flags, earlier ?? null, source ?? null), s),
    () =>
      flowEngine(
        json,
        questions,
        () => ctx,
        () => s,
        from,
        given,
      ),
  );
  const withdrawn = () => toToolResult(native.result(json, "interrupted", "relay", Date.now(), null, null, 0));
  return new Promise<QuestionResult>((resolve, reject) => {
    const work = async (): Promise<QuestionResult> => {
      if (from && signal?.aborted) return withdrawn();
      // Answered elsewhere while it waited in the queue: never shown here.
      const stops = signal ? eitherAborts(signal, ticket.stopped) : ticket.stopped;
      const local = ticket.taken ?? (await core.askNow({ json, questions, ctx, signal: stops, s, from, ticket }));
      const result = ticket.taken ?? local;
      ticket.settle(result.details.status);
      core.history.push({ details: result.details, ...(by ? { askedBy: by } : {}) });
      if (s.memory) await remember(ctx, result, from); // the person's answer, for the next time it is asked
      // /answer reopens this pi's own questions only: a subagent's answer goes back to it.
      if (!from) {
        const status = result.details.status;
        if (status === "cancelled" || status === "interrupted" || status === "timed_out") core.unanswered = json;
        else if (status === "answered" || status === "declined") core.unanswered = undefined;
      }
      return result;
    };
    // A subagent that goes away withdraws its question at once, shown or still queued; a
    // queued one leaves the queue then, and its caller is told at once (interrupted).
    let leave: () => boolean = () => false;
    const withdraw = () => {
      if (leave()) resolve(withdrawn());
      ticket.end();
    };
    if (from && signal?.aborted) {
      ticket.end();
      resolve(withdrawn());
      return;
    }
    if (from) signal?.addEventListener("abort", withdraw, { once: true });
    leave = core.board.line(() =>
      work()
        .finally(() => ticket.end())
        .then(resolve, reject)
        .finally(() => {
          if (from) signal?.removeEventListener("abort", withdraw);
        }),
    );
  });
}

/** The settings of a context, each warning about them told once (asker.settings). `sawCwd`:
 * the project of the last context read. */
function settingsReader(sawCwd: (cwd: string) => void): (ctx: ExtensionContext) => Settings {
  const warned = new Set<string>();
  return (ctx) => {
    sawCwd(ctx.cwd);
    return loadSettings(
      ctx.cwd,
      (message) => {
        if (warned.has(message)) return;
        warned.add(message);
        screenOf(ctx).notify(message, "warning"); // quotes the settings file: sanitized there
      },
      undefined,
      projectTrusted(ctx),
    );
  };
}

/** Asking in this mode's ways (route.ts), with the person's attention drawn meanwhile. */
function askerOfWays(pi: ExtensionAPI, flag: AnswersFlag, extra: Attention, aside: Aside): (call: Call) => Promise<QuestionResult> {
  return async (call) => {
    const { questions, ctx, s, from } = call;
    useLanguage(resolveLanguage(s.language));
    useAccessible(accessibleMode(s)); // the transcript of this answer follows the setting too
    const ways = route({
      hasUI: ctx.hasUI,
      uiMode: (ctx as { mode?: string }).mode,
      relayed: from !== undefined,
      above: !ctx.hasUI && !from && (await relayModule()).relayAbove(),
      terminal: !ctx.hasUI && !!from && terminalReachable(addon()),
    });
    const restore = ctx.hasUI
      ? await attention(pi, ctx, s, questions[0]?.prompt ?? "", call.ticket.qid, extra, !!call.pinged)
      : () => undefined;
    try {
      for (const way of ways) {
        const result = await askOneWay(way, call, flag, aside);
        if (result) return result;
      }
      throw new Error(`pi-question: no way to ask was left (${ways.join(", ")})`);
    } finally {
      restore();
    }
  };
}

/** The --answers flag of print mode, read until its answers were used once. */
function flagOnce(answersFlag: () => unknown): AnswersFlag {
  let used = false;
  return {
    read: () => (used ? undefined : answersFlag()),
    use: () => {
      used = true;
    },
  };
}

/** `answersFlag` reads the --answers flag (print mode's answers). */
export function createAsker(pi: ExtensionAPI, answersFlag: () => unknown = () => undefined): Asker {
  const board = createBoard<QuestionResult>();
  let cwd = process.cwd(); // the session's, once a question brings its context
  let unhost = hostEvents(pi, board, () => cwd);
  const extra: Attention = { pageUrl: () => asker.pageUrl?.(), told: new Set() };
  const aside = createAside();
  const core: AskerCore = {
    board,
    history: [],
    laters: new Set(),
    unanswered: undefined,
    settings: settingsReader((seen) => (cwd = seen)),
    askNow: askerOfWays(pi, flagOnce(answersFlag), extra, aside),
    ping: (ctx, s, prompt, qid) => void pingPerson(pi, ctx, s, prompt, qid, extra),
  };
  const asker: Asker = {
    board,
    history: core.history,
    lastUnanswered: () => core.unanswered,
    settings: core.settings,
    checkLimits,
    prepare: (ctx) => prepareFirst(core, ctx),
    bringBack: () => aside.bringBack(),
    later: (json, questions, ctx, qid) => askLater(core, json, questions, ctx, qid),
    ask: (json, questions, ctx, signal, from, given) => askInTurn(core, json, questions, ctx, signal, from, given),
    close() {
      unhost(); // first: the bus hears nothing of the questions dropped next
      unhost = () => undefined;
      for (const later of [...core.laters]) later.drop();
    },
  };
  return asker;
}
