// native.ts — the typed surface of the C addon (loaded by load-addon.cjs from explicit paths).

export type Outcome = "answered" | "declined" | "cancelled" | "interrupted" | "unavailable";

/** Tool arguments for the core: JSON as the model sent it (the argument size limit applies), or
 * pi's prepared arguments — the core's own canonical JSON, which may be longer. */
export type ArgsJson = string | Buffer | { prepared: string };

/** Flags of the result builders: a cancel lets the agent continue (settings: escape "continue"). */
export const CANCEL_CONTINUES = 1;

export interface NativeEngine {
  /** Feeds raw input; returns true once the question is finished. */
  feed(data: string): boolean;
  render(width: number): string[];
  result(mode: string, answeredAt?: number, reason?: string | null, flags?: number): { details: string; text: string };
  interrupt(): void;
  setStyle(name: string, open: string, close: string): void;
  bind(action: string, keys: string[]): number;
  setCursorMarker(marker: string): void;
  setLanguage(tag: string): void;
  /** Who asks a relayed question: a subagent's name, else where it runs (null for none). */
  setAsker(name: string | null, where: string | null): void;
  /** Frees the native engine now (it is freed by the garbage collector otherwise). */
  dispose(): void;
  readonly done: boolean;
  readonly outcome: Outcome | null;
  readonly revision: number;
}

export interface NativeAddon {
  readonly limits: Readonly<Record<string, number>>;
  /** Canonical arguments JSON; throws an Error with `code` "QT_EINVALID" and `path` when invalid. */
  normalize(argsJson: ArgsJson): string;
  result(
    argsJson: ArgsJson,
    outcome: Outcome,
    mode: string,
    answeredAt: number,
    reason?: string | null,
    answersJson?: string | null,
    flags?: number,
  ): { details: string; text: string };
  createEngine(argsJson: ArgsJson): NativeEngine;
  visibleWidth(text: string): number;
  graphemes(text: string): string[];
  sanitize(text: string, keepNewlines: boolean): string;
  /** The escape sequence of a desktop notification (title and body sanitized; tmux: wrapped). */
  desktopNotice(kind: "osc777" | "osc9" | "osc99", title: string, body: string, tmux: boolean): string;
  decodeKeys(chunks: string[]): Array<{ name: string; text?: string; paste?: string; repeat?: boolean }>;
  parseKeyId(id: string): { key: number; mods: number } | null;
  ttyAvailable(path: string): boolean;
  /** An exclusive lock (flock) on `path`, created if missing, waiting at most timeoutMs (the
   * thread blocks meanwhile). Throws code "QT_ELOCKED" when another holder kept it past the
   * deadline, "QT_ELOCK" when the lock file cannot be opened (message says why). release(true)
   * removes the lock file first; the lock is also dropped if the handle is collected or the
   * process dies. */
  lockFile(path: string, timeoutMs: number): { release(remove?: boolean): void };
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
    },
  ): {
    done: Promise<{ details: string; text: string }>;
    stop(): void;
  };
}

/** The terminal to ask on; PI_QUESTION_TTY overrides it (tests point it nowhere). */
export const TTY_PATH = process.env.PI_QUESTION_TTY || "/dev/tty";

/** True when this process may ask on its terminal (one is reachable and no other program owns it). */
export function terminalReachable(native: NativeAddon): boolean {
  return native.ttyAvailable(TTY_PATH);
}
