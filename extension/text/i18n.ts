// i18n.ts — the user-visible strings of the extension's own screens, taken from the C core's
// string table (native/core/text/strings.c: one table per language, shared with the engine), and the
// language currently in use.
import { addon } from "../addon.ts";

export type Strings = Readonly<Record<string, string>>;

const tables = new Map<string, Strings>();
let current = "en";

/** The table of a language tag ("en", "de", "zh"); unknown tags give English. */
export function strings(language = current): Strings {
  let table = tables.get(language);
  if (!table) {
    table = addon().strings(language);
    tables.set(language, table);
  }
  return table;
}

/** The language tag a table is in ("en", "de", "zh"): what an engine is told to speak, so its own
 * sentences match the screen's. */
export function languageOf(table: Strings): string {
  return table.$language ?? "en";
}

/** Remembers the language of the latest question, for screens drawn without a context. */
export function useLanguage(language: string): void {
  current = language;
}

let accessibleSetting = false;

/** Remembers whether the "accessible" setting is on (read when a session starts and with every
 * question), for the transcript, which pi draws without a context. */
export function useAccessible(on: boolean): void {
  accessibleSetting = on;
}

/** Whether the transcript is drawn in accessible mode: the setting, or TERM=dumb (the rule of
 * settings.ts accessibleMode, with the terminal read when drawing). */
export function transcriptAccessible(env: NodeJS.ProcessEnv = process.env): boolean {
  return accessibleSetting || env.TERM === "dumb";
}

/** Fills "{n}" and "{s}" placeholders. */
export function fill(template: string, values: { n?: number; s?: string }): string {
  // Replacer functions: a "$" in the values (model text) is text, not a replacement pattern.
  return template.replace("{n}", () => String(values.n ?? "")).replace("{s}", () => values.s ?? "");
}
