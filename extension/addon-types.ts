// addon-types.ts — the typed surface of the C addon (loaded by load-addon.cjs from explicit paths).

/** "discuss": the person wants to talk first (Ctrl+T); the result carries what they wrote.
 * "timed_out": the person's own timeout ran out before they pressed a key. */
export type Outcome = "answered" | "declined" | "cancelled" | "interrupted" | "unavailable" | "timed_out" | "discuss" | "asked";

/** Tool arguments for the core: JSON as the model sent it (the argument size limit applies), or
 * pi's prepared arguments — the core's own canonical JSON, which may be longer. `canonical`: the
 * text is the core's own output for the call, unchanged since (normalizing it again gives it
 * back), so a host need not make it again. */
export type ArgsJson = string | Buffer | { prepared: string; canonical?: true };

/** Flags of the result builders: a cancel lets the agent continue (settings: escape "continue"). */
export const CANCEL_CONTINUES = 1;

/** What the person's timeout does when it runs out (settings `timeout.then`): close the question,
 * leave it to the agent, apply the recommended option, or send what was selected so far (an idle
 * clock: every key starts it again). */
export type TimeoutThen = "cancel" | "decline" | "recommended" | "selected";

/** What pipeConnect gives: a descriptor, or why none (busy: every instance taken just now). */
export type PipeConnection =
  | { fd: number; serverPid: number | null }
  | { refused: "no-such-pipe" | "busy" | "other-process" | "other-user" | "failed"; serverPid: number | null; errno: number };

/** What the C result builder makes: the details JSON and the model's text; with `secrets`, the
 * person's secret answers, each to be written to the file the text names (result.ts) — never
 * anywhere else. */
export interface BuiltResult {
  details: string;
  text: string;
  secrets?: Array<{ id: string; path: string; text: string }>;
}

export interface NativeEngine {
  /** Feeds raw input; returns true once the question is finished. */
  feed(data: string): boolean;
  /** Feeds a key for a host that draws frames, in one call: what it did, as bits (1: the
   * question ended, 2: the state changed, 4: the person asked to step aside — taken, as by
   * takeAside, 8: an external editor is asked for — editorRequest() has its text). */
  press(data: string): number;
  /** The frame the host shows, at most `rows` lines when given (0 or none: no limit): the
   * question fits the screen. It names the screen: the keys that depend on what a frame showed
   * (PageUp/PageDown, Shift+↑/Shift+↓, a list cut to the rows) act on the frame at this size. */
  render(width: number, rows?: number): string[];
  /** The frame render(width, rows) draws, as what changed since the frame this method handed out
   * last: undefined when nothing did, else an array as long as the frame holding each line that
   * differs from the same row of that frame and a hole where it is the same. `fresh`: the caller
   * holds no frame, every line is handed out. */
  renderChanges(width: number, rows?: number, fresh?: boolean): Array<string | undefined> | undefined;
  /** A frame at any size, drawn aside: it changes nothing, not what the keys act on. */
  renderAside(width: number, rows?: number): string[];
  result(mode: string, answeredAt?: number, reason?: string | null, flags?: number): BuiltResult;
  interrupt(): void;
  setStyle(name: string, open: string, close: string): void;
  bind(action: string, keys: string[]): number;
  /** The styles (setStyle), or every action's keys (bind), that another engine has. */
  copyStyles(from: NativeEngine): void;
  copyKeys(from: NativeEngine): void;
  setCursorMarker(marker: string): void;
  /** Every feed is whole key sequences, as pi's TUI hands them: nothing is held across feeds
   * (a raw terminal's bytes, the default, may split a sequence anywhere). */
  setWholeKeys(on: boolean): void;
  setLanguage(tag: string): void;
  /** Who asks a relayed question: a subagent's name, else where it runs (null for none). */
  setAsker(name: string | null, where: string | null): void;
  /** The answer this project remembers for question `index` (answers-object JSON), shown chosen
   * with `line` under it; `when`: the date the result gives when the person keeps it. */
  remember(index: number, answersJson: string, line: string, when: string): void;
  /** Frees the native engine now (it is freed by the garbage collector otherwise). */
  dispose(): void;
  /** The person's timeout: armed here, started by the first tick. */
  setTimeout(afterMs: number, then: TimeoutThen): void;
  /** The time now (any steady clock, ms); true once the question has ended (timed out). */
  tick(nowMs: number): boolean;
  /** Milliseconds until the clock runs out (its whole time before the first tick), -1 when no
   * clock runs. */
  clockLeft(nowMs: number): number;
  /** Milliseconds until the countdown shown changes, -1 when no clock runs. */
  nextTick(nowMs: number): number;
  /** The person answers this question on another face (the page): the clock stops for good, as
   * at a key here. */
  stopClock(): void;
  /** Accessible mode: plain lines for screen readers. */
  setAccessible(on: boolean): void;
  /** Whether the person asked to step aside (the "aside" action's key) since the last call: the
   * host shrinks the question to a line and brings it back as it was. */
  takeAside(): boolean;
  /** The text Ctrl+G wants opened in the external editor, or null. */
  editorRequest(): string | null;
  /** The editor's outcome: ok with the new text, or not ok with a short reason (text kept). */
  editorDone(ok: boolean, text: string | null, why: string | null): void;
  /** What the person typed, question by question, answered or not (raw: sanitize before showing). */
  typed(): Typed[];
  /** The question flow as steps, for a face that draws no frame (qt_engine.h "the question flow
   * as steps"): applies one step as the person's reply. A step not live now, an index out of
   * range or text over its field's limit is refused (ok false, error says why) and changes nothing. */
  act(step: FlowStep, index?: number | null, text?: string | null): { ok: true } | { ok: false; error: string };
  /** The steps live now. */
  actions(): FlowStep[];
  /** The state as a JSON string of a FlowView (parse it with JSON.parse). */
  view(): string;
  readonly done: boolean;
  readonly outcome: Outcome | null;
  readonly revision: number;
}

/** The steps of the question flow (qt_engine.h qt_step): pick/toggle take an option index,
 * go a question index (the question count: the review), type/note/discuss/filter a text. */
export type FlowStep =
  | "pick"
  | "toggle"
  | "type"
  | "note"
  | "discuss"
  | "decline"
  | "cancel"
  | "back"
  | "go"
  | "submit"
  | "filter"
  | "yes"
  | "no"
  | "draft"
  | "skip";

/** engine.view(), parsed: display text sanitized; `answers` and option `value`s are data. */
export interface FlowView {
  /** callNote: the review's field of one note on the whole call has the keyboard. */
  state: "choosing" | "typing" | "note" | "filter" | "discuss" | "confirm" | "review" | "callNote" | "done";
  /** The question shown (questions.length: the review). */
  current: number;
  questions: Array<{
    id: string;
    label: string;
    prompt: string;
    multi: boolean;
    answered: boolean;
    /** Left unanswered on purpose (the skip step): the agent decides it, or the person says it
     * in the chat; null when not skipped. */
    skipped: "skipped" | "chat" | null;
    /** A typed question (qt_typed.h): its type and the hint every face shows ("A whole number (1–10)"). */
    type?: "number" | "integer" | "boolean" | "date" | "email" | "url";
    hint?: string;
    /** ticked: a multi-select tick, or the single-select answer. */
    options: Array<{ label: string; description?: string; value: string; ticked: boolean }>;
    /** The answer as the review reads it, in the engine's language: the options chosen, then the
     * typed text and "(typed)"; "not answered" when there is none. Every face's review shows it. */
    reading: string;
    /** The typed answer's field, the typed answer given (null: none), the note, the filter. */
    typed: string;
    wrote: string | null;
    note: string;
    filter: string;
    /** Option indices the filter lets through, in order. */
    shown: number[];
  }>;
  discussion: string;
  /** The person's one note on the whole call (the review's field; the answers object carries it as ""). */
  callNote: string;
  /** The engine's own question; items: what "yes" would discard. */
  confirm: {
    which: "discard" | "long";
    title: string;
    count: number;
    items: Array<{ question: number; label: string; text: string }>;
  } | null;
  /** A one-shot warning ("" for none). */
  message: string;
  /** The question shown opens with the answer this project remembers: the line saying so. */
  earlierLine?: string;
  actions: FlowStep[];
  /** The answers object the result builder takes (native.result's answersJson). */
  answers: Record<string, unknown>;
  outcome?: Outcome;
  /** outcome "discuss": the words sent. */
  discussionSent?: string;
}

/** One question's typed text (the answer's and the note's, trimmed), as the engine keeps it. */
export type Typed = { id: string; wrote?: string; note?: string };

export interface NativeAddon {
  readonly limits: Readonly<Record<string, number>>;
  /** Canonical arguments JSON; throws an Error with `code` "QT_EINVALID" and `path` when invalid. */
  normalize(argsJson: ArgsJson): string;
  /** Whether every question of the call has a pre-supplied answer: then it is answered at once
   * and no face shows it (the one rule: the tool, the RPC dialogs, the standalone command). */
  allPresupplied(argsJson: ArgsJson): boolean;
  /** The result flags of a "timed_out" result built outside an engine (the pi above's answer):
   * what its timeout's `then` applied; anything but a known one reads as "cancel" (0). An
   * engine adds its own (the one rule: qt_timeout_result_flags). */
  timeoutFlags(then: unknown): number;
  /** "Option 2 of 3: SQLite, selected": how accessible mode says an option, in `language` — the
   * one composition (qt_plain_option), shared with the question's plain frame. `label` as given
   * (sanitize it first). */
  plainOption(language: string, n: number, of: number, label: string, state: "selected" | "notSelected" | "checked" | "notChecked"): string;
  /** reason: appended to the sentence of a non-answered outcome; for "discuss", what the person wrote. */
  result(
    argsJson: ArgsJson,
    outcome: Outcome,
    mode: string,
    answeredAt: number,
    reason?: string | null,
    answersJson?: string | null,
    flags?: number,
    /** Per question, the date of a remembered answer the person kept unchanged, else null. */
    earlier?: Array<string | null> | null,
    /** Mode "extension": the name the answering extension gives itself (sanitized, cut, said as
     * its own claim; details.source). */
    source?: string | null,
  ): BuiltResult;
  /** Where the person's secret answers are handed over from now on (secrets.ts; null: nowhere,
   * and one is dropped, said as such). */
  secretDir(dir: string | null): void;
  createEngine(argsJson: ArgsJson): NativeEngine;
  visibleWidth(text: string): number;
  /** Which pi-tui's widths every width and engine follow, process-wide (width-rules.mjs). */
  setWidthRules(rules: { spacingMarks: boolean; currentEastAsianWidth: boolean; unicode15Clusters: boolean }): void;
  widthRules(): { spacingMarks: boolean; currentEastAsianWidth: boolean; unicode15Clusters: boolean };
  graphemes(text: string): string[];
  sanitize(text: string, keepNewlines: boolean): string;
  /** The escape sequence of a desktop notification (title and body sanitized; tmux: wrapped). */
  desktopNotice(kind: "osc777" | "osc9" | "osc99", title: string, body: string, tmux: boolean): string;
  decodeKeys(chunks: string[]): Array<{ name: string; text?: string; paste?: string; repeat?: boolean }>;
  parseKeyId(id: string): { key: number; mods: number } | null;
  /** True when ttyStatus(path) is "free". */
  ttyAvailable(path: string): boolean;
  /** May this process take the terminal: "absent" (none), "owned" (another program owns it:
   * raw mode already, or this process is not in its foreground process group), "free". */
  ttyStatus(path: string): "free" | "absent" | "owned";
  /** An exclusive lock (flock) on `path`, created if missing, waiting at most timeoutMs (the
   * thread blocks meanwhile). Throws code "QT_ELOCKED" when another holder kept it past the
   * deadline, "QT_ELOCK" when the lock file cannot be opened (message says why). release(true)
   * removes the lock file first; the lock is also dropped if the handle is collected or the
   * process dies. */
  lockFile(path: string, timeoutMs: number): { release(remove?: boolean): void };
  /** Who is at the other end of a connected local socket (qt_peer.h): null where the OS does not tell. */
  peerCredentials(fd: number): { pid: number | null; uid: number | null };
  /** Windows: the parent of a running process (0: gone, or not to be told: the walk ends there);
   * null when `pid` is not running, or on another OS (the extension reads /proc or ps there). */
  processParent(pid: number): number | null;
  /** Windows: a running process's command line (cut at limits.peerCommandLineBytes); null when it
   * cannot be read, or on another OS. */
  processCommandLine(pid: number): string | null;
  /** Windows: serves the relay's named pipe with an access list of this user's alone, rejecting
   * clients from other computers (qt_pipe.h); each client comes as a descriptor for net.Socket({ fd }) with its
   * pid. Returns close(), or undefined where there are no such pipes (POSIX) or the host is not
   * Node. Throws code "QT_EPIPE" (with `errno`) when the pipe cannot be made (its name taken). */
  pipeServe(name: string, onClient: (fd: number, pid: number | null) => void): (() => void) | undefined;
  /** Windows: the client's end of a relay pipe, once its server is the process `serverPid` (-1:
   * any) running as this user; undefined where there are no such pipes or the host is not Node. */
  pipeConnect(name: string, serverPid: number): PipeConnection | undefined;
  strings(language: string): Readonly<Record<string, string>>;
  runTty(
    argsJson: ArgsJson,
    options: {
      path?: string;
      color?: boolean;
      mode?: string;
      language?: string;
      cancelContinues?: boolean;
      askerName?: string | null;
      askerWhere?: string | null;
      accessible?: boolean;
      timeoutMs?: number | null;
      timeoutThen?: TimeoutThen;
      /** A desktop notification, written only once the runner has taken the terminal. */
      notice?: string;
    },
  ): {
    /** Rejects with code "QT_ETTYOWNED" when another program owns the terminal (not touched).
     * `elsewhere`: claim() took the question (the result is interrupted); `discussion`: then,
     * the person's words to the agent when their key was Ctrl+T's. */
    done: Promise<{ details: string; text: string; typed: Typed[]; elsewhere: boolean; discussion?: string }>;
    stop(): void;
    /** An answer from elsewhere takes the question (claim at the key): true when it did (the run
     * closes), else the outcome the person's final key took it with. */
    claim(): true | Outcome;
  };
}

/** The terminal to ask on: the controlling terminal, on Windows the console's input (the addon
 * opens CONIN$ / CONOUT$); PI_QUESTION_TTY overrides it (tests point it nowhere). */
export const TTY_PATH = process.env.PI_QUESTION_TTY || (process.platform === "win32" ? "CONIN$" : "/dev/tty");

/** True when this process may ask on its terminal (one is reachable and no other program owns it). */
export function terminalReachable(native: NativeAddon): boolean {
  return native.ttyAvailable(TTY_PATH);
}
