// screen.ts — the one way the extension's own messages reach a person: pi's notifications and
// terminal title, or a line on stdout / stderr when there is no UI. Every text passes the C
// sanitizer here, whatever it quotes (settings files, paths, the environment, the model), so
// no escape sequence, bell or C1 control from outside can act on the terminal, and no caller
// has to remember it. (The question itself is drawn by the C engine, which sanitizes too; RPC
// dialogs sanitize their texts in dialogs.ts.)
import { addon } from "../addon.ts";

type Level = "info" | "warning" | "error";

/** What a context offers for showing text (ExtensionContext and ExtensionCommandContext both). */
interface Surface {
  hasUI: boolean;
  ui: { notify(message: string, type?: Level): void; setTitle(title: string): void };
}

export interface Screen {
  /** A notification in pi's UI; without a UI a line on the fallback stream. */
  notify(text: string, level?: Level): void;
  /** The terminal title (one line). */
  title(text: string): void;
}

/** `text` made harmless on a terminal (newlines kept unless `oneLine`). */
export function safe(text: string, oneLine = false): string {
  return addon().sanitize(String(text), !oneLine);
}

/** Writes `text` as it is (the caller ends lines) to a stream, sanitized. */
export function print(stream: NodeJS.WritableStream, text: string): void {
  stream.write(safe(text));
}

/** The screen of a context; without a UI, notifications go to `fallback` (stderr unless said). */
export function screenOf(ctx: Surface, fallback: NodeJS.WritableStream = process.stderr): Screen {
  return {
    notify(text, level = "info") {
      if (ctx.hasUI) ctx.ui.notify(safe(text), level);
      else print(fallback, text + "\n");
    },
    title(text) {
      if (ctx.hasUI) ctx.ui.setTitle(safe(text, true));
    },
  };
}
