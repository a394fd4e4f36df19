// interactive.ts — adapts the C engine to pi's TUI: a Component whose handleInput feeds raw
// bytes to the engine (one crossing per keystroke) and whose render returns the engine's frame
// (one crossing per frame, cached by the engine's revision). Styles come from pi's theme and
// keys from pi's keybindings manager; nothing here decides behaviour.
import type { ExtensionContext, Theme } from "@mariozechner/pi-coding-agent";
import { CURSOR_MARKER, type Component, type Focusable, truncateToWidth, visibleWidth } from "@mariozechner/pi-tui";
import { addon } from "../addon.ts";
import type { NativeEngine, Outcome } from "../addon-types.ts";
import type { Flow, FlowTimeout } from "../board/flow.ts";
import { selectWidthRules } from "../width-rules.mjs";
import { strings } from "../text/i18n.ts";
import { runExternalEditor } from "./external-editor.ts";
import { ANSWER_KEY } from "./aside.ts";

/** The engine's semantic styles, each with how pi's theme draws it around a NUL (split there).
 * The first seven are pi theme colours of the same name. */
const THEME_STYLES: ReadonlyArray<readonly [string, (theme: Theme) => string]> = [
  ...(["accent", "muted", "dim", "success", "warning", "error", "border"] as const).map(
    (colour) => [colour, (theme: Theme) => theme.fg(colour, "\u0000")] as const,
  ),
  ["title", (theme) => theme.bold("\u0000")],
  ["selected", (theme) => theme.fg("accent", theme.bold("\u0000"))],
  ["cursor", (theme) => theme.inverse("\u0000")],
];

/** Engine actions and the pi keybinding ids that cover them (the rest keep the engine's defaults). */
const ACTION_KEYBINDINGS: Record<string, string> = {
  up: "tui.select.up",
  down: "tui.select.down",
  pageUp: "tui.select.pageUp",
  pageDown: "tui.select.pageDown",
  confirm: "tui.select.confirm",
  cancel: "tui.select.cancel",
  cursorLeft: "tui.editor.cursorLeft",
  cursorRight: "tui.editor.cursorRight",
  wordLeft: "tui.editor.cursorWordLeft",
  wordRight: "tui.editor.cursorWordRight",
  lineStart: "tui.editor.cursorLineStart",
  lineEnd: "tui.editor.cursorLineEnd",
  deleteBack: "tui.editor.deleteCharBackward",
  deleteForward: "tui.editor.deleteCharForward",
  deleteWordBack: "tui.editor.deleteWordBackward",
  deleteWordForward: "tui.editor.deleteWordForward",
  deleteToStart: "tui.editor.deleteToLineStart",
  deleteToEnd: "tui.editor.deleteToLineEnd",
  newLine: "tui.input.newLine",
  externalEditor: "app.editor.external",
};

function split(styled: string): [string, string] {
  const at = styled.indexOf("\u0000");
  return at < 0 ? ["", ""] : [styled.slice(0, at), styled.slice(at + 1)];
}

/** Hands pi's theme to the engine as open/close byte strings per semantic style. A style the
 * engine refuses (one that would take up columns) falls back to plain text. */
export function applyTheme(engine: NativeEngine, theme: Theme): void {
  const styled = THEME_STYLES.map(([, draw]) => draw(theme));
  const look = lookEngine();
  const key = styled.join("\u0001");
  if (key !== look.theme) {
    look.theme = undefined; // until every style is set
    for (let i = 0; i < THEME_STYLES.length; i++) {
      const [open, close] = split(styled[i]);
      try {
        look.engine.setStyle(THEME_STYLES[i][0], open, close);
      } catch {
        look.engine.setStyle(THEME_STYLES[i][0], "", "");
      }
    }
    look.theme = key;
  }
  engine.copyStyles(look.engine);
}

interface KeyLookup {
  getKeys(id: string): string[];
}

/** Hands the user's pi keybindings to the engine for the actions they cover. */
export function applyKeybindings(engine: NativeEngine, keybindings: unknown): void {
  const kb = keybindings as Partial<KeyLookup> | undefined;
  if (!kb || typeof kb.getKeys !== "function") return;
  const bound: Array<[string, string[]]> = [];
  for (const [action, id] of ACTION_ENTRIES) {
    let keys: string[] = [];
    try {
      keys = kb.getKeys(id) ?? [];
    } catch {
      continue; // an id this pi version does not know: keep the engine's default keys
    }
    if (keys.length) bound.push([action, keys]);
  }
  const look = lookEngine();
  if (!look.keys || !sameBindings(look.keys, bound)) {
    look.keys = undefined; // until every action is bound
    // a fresh one, made before the old one goes (a failure leaves the old one working): the
    // actions no longer bound go back to their defaults
    const fresh = addon().createEngine(LOOK_CALL);
    look.engine.dispose();
    look.engine = fresh;
    look.theme = undefined;
    for (const [action, keys] of bound) fresh.bind(action, keys); // refuses what is not a list of key ids
    look.keys = bound.map(([action, keys]) => [action, [...keys]]);
  }
  engine.copyKeys(look.engine);
}

const ACTION_ENTRIES = Object.entries(ACTION_KEYBINDINGS);

function sameBindings(a: Array<[string, string[]]>, b: Array<[string, string[]]>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i][1], b[i][1]];
    if (a[i][0] !== b[i][0] || x.length !== y.length) return false;
    for (let k = 0; k < x.length; k++) if (x[k] !== y[k]) return false;
  }
  return true;
}

/** The look pi gives questions (its theme's styles, its keybindings), set once on an engine of
 * its own and copied into each question's: setting them one by one on every question cost a
 * quarter of a small question's first frame. Set again when pi's theme or keybindings change:
 * each question compares what they give now with what was set (`theme`: the styles' texts;
 * `keys`: the actions and their keys). */
const LOOK_CALL = JSON.stringify({ questions: [{ id: "look", prompt: "look" }] });
interface Look {
  engine: NativeEngine;
  theme?: string;
  keys?: Array<[string, string[]]>;
}
let look: Look | undefined;
function lookEngine(): Look {
  return (look ??= { engine: addon().createEngine(LOOK_CALL) });
}

// pi loads this file through jiti, which turns each use of an imported binding into a read
// through a Proxy of the module namespace (a trap and an invariant check per call): the
// render path reads the two functions it calls for every line once, here.
const piWidth = visibleWidth;
const cutToWidth = truncateToWidth;

/** pi-tui's measure of the lines measured lately: a key changes two or three lines of a frame,
 * and moving the highlight back and forth makes the same ones again (new strings, equal text);
 * measuring one was a sixth of a keystroke. Cleared when full, and when a question closes. */
const measuredLately = new Map<string, number>();
const MEASURED_LATELY = 256;
function measureWidth(line: string): number {
  let width = measuredLately.get(line);
  if (width === undefined) {
    width = piWidth(line);
    if (measuredLately.size >= MEASURED_LATELY) measuredLately.clear();
    measuredLately.set(line, width);
  }
  return width;
}

/** The addon measures like this pi's pi-tui once this module has probed it (width-rules.mjs):
 * before the first question is shown, so no engine lays out a frame under other rules here
 * (an engine's layout caches are keyed by the rules anyway). */
let widthRulesSelected = false;
function selectWidthRulesOnce(): void {
  if (widthRulesSelected) return;
  widthRulesSelected = true;
  selectWidthRules(addon(), piWidth);
}

/** Decides ahead what the first question in pi's TUI decides (the width rules), in pi's idle
 * time after a session starts (ask.ts prepare). */
export function prepareTui(): void {
  selectWidthRulesOnce();
}

/** A question drawn off screen, so that the first one the person sees runs warm code: a fresh
 * pi's first frame measured 3–4 ms in the width measure alone and as much again in making the
 * view (the code is compiled as it first runs). Made, drawn at two widths, moved through and
 * dropped; nothing reaches pi's screen, the board or the bus. */
const REHEARSAL = {
  questions: [
    {
      id: "rehearsal",
      label: "Rehearsal",
      prompt: "Which one?\nA second line of the prompt, long enough to wrap at the narrower of the widths drawn.",
      options: [{ value: "a", label: "One (Recommended)", description: "The first, with a description" }, "Two", "Three", "Four"],
    },
    { id: "more", prompt: "And which of these?", options: ["Five", "Six"], multiSelect: true },
  ],
};

/** A stand-in for pi's theme (the real one is handed to ui.custom only): colours as escape
 * sequences, so the measure meets styled lines as it will. */
const REHEARSAL_THEME = {
  fg: (_colour: string, text: string) => `\x1b[38;5;6m${text}\x1b[39m`,
  bold: (text: string) => `\x1b[1m${text}\x1b[22m`,
  inverse: (text: string) => `\x1b[7m${text}\x1b[27m`,
} as unknown as Theme;

/** Runs the rehearsal (ask.ts prepare, in pi's idle time); never throws. */
export function rehearseTui(language: string): void {
  let engine: NativeEngine | undefined;
  try {
    selectWidthRulesOnce();
    engine = addon().createEngine(JSON.stringify(REHEARSAL));
    engine.setLanguage(language);
    const view = new QuestionView(
      engine,
      REHEARSAL_THEME,
      () => undefined,
      () => undefined,
    );
    view.focused = true;
    for (const key of ["", "\x1b[B", "\x1b[A", "\t", "x"]) {
      if (key) view.handleInput(key);
      view.render(100);
      view.render(60);
    }
    view.close();
  } catch {
    // nothing is lost: the first question compiles what it runs
  }
  try {
    engine?.dispose();
  } catch {
    // the garbage collector frees it then
  }
}

/** What pi shows below the question when the structure is not the one expected (the footer). */
const ROWS_BELOW_FALLBACK = 3;
/** The rows pi's fullscreen layout keeps for the transcript however tall the editor is. */
const FULLSCREEN_TRANSCRIPT_ROWS = 1;

/** The rows the question may take: the terminal's rows (pi-tui's `terminal.rows`) less the
 * lines pi draws with it — the components after the one holding it (widgets under the editor,
 * the footer), measured at this width. In pi's fullscreen mode (a TUI whose `mode` is
 * "fullscreen": the default since pi 1.0) the first component, the transcript, scrolls in a
 * viewport that keeps at least one row, and every other component is docked on screen with the
 * editor, those above it (pending messages, status, widgets above the editor) too: a frame
 * taller than what is left is cut at its bottom there. 0: unknown, no limit. */
export function rowsFor(tui: unknown, view: Component, width: number): number {
  const t = tui as { terminal?: { rows?: unknown }; children?: unknown; mode?: unknown } | undefined;
  const total = t?.terminal?.rows;
  if (typeof total !== "number" || !Number.isFinite(total) || total < 1) return 0;
  const children = Array.isArray(t?.children) ? (t.children as Component[]) : [];
  const holds = (c: Component): boolean => {
    const inner = (c as unknown as { children?: unknown }).children;
    return c === view || (Array.isArray(inner) && inner.includes(view));
  };
  const at = children.findIndex(holds);
  const fullscreen = t?.mode === "fullscreen";
  let others = 0;
  if (at < 0) others = ROWS_BELOW_FALLBACK + (fullscreen ? FULLSCREEN_TRANSCRIPT_ROWS : 0);
  else {
    const docked = fullscreen ? [...children.slice(1, Math.max(1, at)), ...children.slice(at + 1)] : children.slice(at + 1);
    if (fullscreen) others += FULLSCREEN_TRANSCRIPT_ROWS;
    for (const c of docked) {
      try {
        others += c.render(width).length;
      } catch {
        others += 1; // a component that cannot be measured here: keep a row for it
      }
    }
  }
  return Math.max(1, Math.floor(total) - others);
}

/** What one key did (NativeEngine.press), as bits: the engine's PRESS_* (engine_class.c). */
const PRESS = { done: 1, changed: 2, aside: 4, editor: 8 } as const;

/** The question as a pi-tui component. */
export class QuestionView implements Component, Focusable {
  private focusedState = false;
  private highSurrogate = "";
  private lastFrame: string[] | undefined;
  private safeFrame: string[] = [];
  private lastWidth = -1;
  /** The question ended: the engine may be disposed, the view only shows its last frame. */
  private closed = false;

  private readonly engine: NativeEngine;
  private readonly theme: Theme;
  private readonly requestRender: () => void;
  private readonly finish: (outcome: Outcome) => void;
  /** The rows the frame may take at a width (0: no limit). */
  private readonly rows: (width: number) => number;
  /** Ctrl+G: runs the external editor on the text and hands the outcome to the engine. */
  private readonly openEditor?: (text: string) => void;
  /** A key changed the engine: the question's other faces (the page) show it too. */
  private readonly moved?: () => void;
  /** The step-aside key: the question closes here, its flow kept as it is, to come back. */
  private readonly stepAside?: () => void;

  constructor(
    engine: NativeEngine,
    theme: Theme,
    requestRender: () => void,
    finish: (outcome: Outcome) => void,
    rows: (width: number) => number = () => 0,
    openEditor?: (text: string) => void,
    moved?: () => void,
    stepAside?: () => void,
  ) {
    this.engine = engine;
    this.theme = theme;
    this.requestRender = requestRender;
    this.finish = finish;
    this.rows = rows;
    this.openEditor = openEditor;
    this.moved = moved;
    this.stepAside = stepAside;
    // pi's TUI has already waited for the rest of each escape sequence and hands over whole
    // keys: a "\x1b]" (Alt+]) must not be held as the start of a terminal reply that swallows
    // the typing after it. (A lone high surrogate is still held below, in handleInput.)
    engine.setWholeKeys(true);
    applyTheme(engine, theme);
  }

  /** pi's fullscreen mode (pi ≥ 1.0) scrolls its transcript with PageUp/PageDown and its other
   * viewport keys before the focused component sees them, unless the component captures them,
   * as pi's own lists do: the question pages its prompt and list with those keys. */
  get capturesViewportInput(): boolean {
    return !this.closed;
  }

  get focused(): boolean {
    return this.focusedState;
  }

  set focused(value: boolean) {
    if (value === this.focusedState) return;
    this.focusedState = value;
    if (!this.closed) this.engine.setCursorMarker(value ? CURSOR_MARKER : "");
  }

  /** Called once the question ends (answered, cancelled, interrupted): nothing reaches the
   * engine any more, which lets the caller dispose of it at once. */
  close(): void {
    this.closed = true;
    measuredLately.clear(); // what the person typed is not kept past the question
  }

  handleInput(data: string): void {
    if (this.closed) return;
    // pi-tui hands typed text over one UTF-16 unit at a time, so a character outside the BMP
    // (an emoji) arrives as two calls: hold a trailing high surrogate until its other half.
    let input = this.highSurrogate + data;
    this.highSurrogate = "";
    const last = input.charCodeAt(input.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.highSurrogate = input.slice(-1);
      input = input.slice(0, -1);
      if (!input) return;
    }
    const did = this.engine.press(input);
    if (did & PRESS.done) {
      this.close();
      this.finish(this.engine.outcome ?? "cancelled");
      return;
    }
    if (did & PRESS.changed && this.moved) this.moved();
    if (did & PRESS.aside && this.stepAside) {
      this.close();
      this.stepAside();
      return;
    }
    if (did & PRESS.editor) {
      const draft = this.engine.editorRequest();
      if (draft !== null && this.openEditor) this.openEditor(draft);
      else if (draft !== null) this.engine.editorDone(false, null, "-");
    }
    this.requestRender();
  }

  /** A frame handed out is never changed afterwards, and new content is a new array: pi ≥ 1.6
   * keeps the array (read-only) and reuses it while it is the same (tests/frame-kept.test.mjs). */
  render(width: number): string[] {
    if (this.closed) return this.safeFrame.map((line) => (measureWidth(line) > width ? cutToWidth(line, width, "") : line));
    let rows = 0;
    try {
      rows = this.rows(width);
    } catch {
      rows = 0; // unknown: the whole frame, as before
    }
    // Only the lines that changed since the last frame cross from the engine (renderChanges);
    // the others are this frame's strings again. Belt and braces: the engine guarantees the
    // width, but an overwide line crashes pi, so a line that would overflow by pi-tui's own
    // measure is cut rather than handed over — measured when it is new, or at a new width.
    const before = this.lastFrame;
    const beforeSafe = this.safeFrame;
    // Forgotten until this frame is whole: should anything below throw, the next frame is asked
    // for fresh (every line), since the engine counts this one as handed out.
    this.lastFrame = undefined;
    const changes = this.engine.renderChanges(width, rows, before === undefined);
    if (changes === undefined && before !== undefined) {
      this.lastFrame = before;
      return beforeSafe;
    }
    const lines = changes ?? [];
    const n = lines.length;
    const sameWidth = width === this.lastWidth;
    let frame: string[];
    let safe: string[];
    if (before !== undefined && sameWidth && before.length === n && beforeSafe.length === n) {
      // a key: the last frame's copies with the changed lines put in (copying an array is cheaper
      // than building one line by line); while no line is cut, the frame handed out is the
      // frame itself (neither is changed once made)
      frame = before.slice();
      safe = beforeSafe === before ? frame : beforeSafe.slice();
      for (let i = 0; i < n; i++) {
        const fresh = lines[i];
        if (fresh === undefined) continue;
        frame[i] = fresh;
        if (measureWidth(fresh) > width) {
          if (safe === frame) safe = frame.slice();
          safe[i] = cutToWidth(fresh, width, "");
        } else if (safe !== frame) safe[i] = fresh;
      }
      if (safe !== frame && safe.every((line, i) => line === frame[i])) safe = frame; // nothing cut now
    } else {
      frame = [];
      safe = [];
      for (let i = 0; i < n; i++) {
        const fresh = lines[i];
        const line = fresh === undefined ? before?.[i] : fresh;
        if (line === undefined) return before === undefined ? [] : this.render(width); // out of step: whole again
        frame.push(line);
        safe.push(fresh === undefined && sameWidth ? beforeSafe[i] : measureWidth(line) > width ? cutToWidth(line, width, "") : line);
      }
      if (safe.every((line, i) => line === frame[i])) safe = frame;
    }
    this.lastFrame = frame;
    this.lastWidth = width;
    this.safeFrame = safe;
    return safe;
  }

  invalidate(): void {
    if (this.closed) return;
    applyTheme(this.engine, this.theme);
    this.lastFrame = undefined;
  }
}

/** What the person's settings add to a question shown in the TUI. */
export interface TuiOptions {
  /** The person's timeout: the flow's clock, started when the question shows. */
  timeout?: FlowTimeout;
  accessible?: boolean;
  /** The question's first line (sanitized): pi ≥ 1.6 reports itself blocked on the person with
   * it while the question is shown (its program status, for terminals and agent dashboards). */
  blocked?: string;
}

/** Shows the question of `flow` (the board's one flow of it, which another face, the page, may
 * move meanwhile: the frame is drawn again then) in pi's TUI and resolves with its outcome,
 * "aside" when the person stepped aside (the step-aside key: the flow is kept as it is, to show
 * again), or undefined when this pi cannot show custom components (RPC mode). `claim` is called
 * when the person ends it. */
export async function askInTui(
  flow: Flow,
  ctx: ExtensionContext,
  signal: AbortSignal | undefined,
  claim?: (outcome: string) => boolean,
  options: TuiOptions = {},
): Promise<Outcome | "aside" | undefined> {
  const engine = flow.engine;
  if (signal?.aborted) {
    engine.interrupt();
    return "interrupted";
  }
  if (engine.done) {
    // ended while stepped aside (the clock ran out): handed on as it ended
    const outcome = engine.outcome ?? "timed_out";
    claim?.(outcome);
    return outcome;
  }
  // pi ≥ the current line says which mode it runs in (ctx.mode); custom components are for
  // "tui" only. Older pi has no ctx.mode, and its ctx.ui.custom() resolves undefined in RPC mode.
  const mode = (ctx as { mode?: string }).mode;
  if (mode !== undefined && mode !== "tui") return undefined;
  selectWidthRulesOnce();
  ctx.ui.setWorkingMessage(strings().WAITING);
  let onAbort: (() => void) | undefined;
  let unfollow: (() => void) | undefined;
  const face = {};
  if (options.accessible) engine.setAccessible(true);
  const release = flow.hold(); // until the component closes, even when the question ends first
  // pi ≥ 1.6 reads `blocked` (older pi ignores it): pi waits for the person, not for a loader.
  type Showing = Parameters<ExtensionContext["ui"]["custom"]>[1];
  const showing = (options.blocked ? { blocked: { kind: "question", message: options.blocked } } : undefined) as Showing;
  try {
    return await ctx.ui.custom<Outcome | "aside">((tui, theme, keybindings, done) => {
      applyKeybindings(engine, keybindings);
      engine.bind("aside", [ANSWER_KEY]); // the help line names it; the same key brings it back
      let finished = false;
      let view: QuestionView | undefined;
      const finish = (outcome: Outcome) => {
        if (finished) return;
        finished = true;
        // The person's answer takes the question at the very key that ends it: an answer from
        // elsewhere arriving later is refused (exactly once).
        if (outcome !== "interrupted") claim?.(outcome);
        view?.close();
        done(outcome);
      };
      onAbort = () => {
        engine.interrupt();
        finish("interrupted");
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      // Ctrl+G: pi's terminal is stopped around the editor and fully redrawn after, as pi's own
      // editor does it; the editor's outcome goes back to the engine (the draft stays on failure).
      const openEditor = (text: string) => {
        let outcome: ReturnType<typeof runExternalEditor>;
        tui.stop();
        try {
          outcome = runExternalEditor(text, strings());
        } finally {
          tui.start();
          tui.requestRender(true);
        }
        if (finished) return;
        engine.editorDone(outcome.ok, outcome.ok ? outcome.text : null, outcome.ok ? null : outcome.why);
        flow.moved(face);
      };
      const self = (): QuestionView | undefined => view;
      const rows = (width: number) => {
        const v = self();
        return v ? rowsFor(tui, v, width) : 0;
      };
      view = new QuestionView(
        engine,
        theme,
        () => tui.requestRender(),
        finish,
        rows,
        openEditor,
        () => flow.moved(face),
        () => {
          if (finished) return;
          finished = true;
          done("aside"); // not an end: nothing is claimed, the flow stays as it is
        },
      );
      // A step on another face (the page) or the countdown: drawn again as it is now (a page that
      // ends the flow hands it on itself: this closes when the board says so); the flow's clock
      // running out ends it here.
      unfollow = flow.follow(face, (what) => {
        if (finished) return;
        if (what === "ended") finish(engine.outcome ?? "timed_out");
        else tui.requestRender();
      });
      if (options.timeout) flow.startClock(options.timeout);
      return view;
    }, showing);
  } finally {
    if (onAbort) signal?.removeEventListener("abort", onAbort);
    unfollow?.();
    release();
    ctx.ui.setWorkingMessage();
  }
}
