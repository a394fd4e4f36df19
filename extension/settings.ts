// settings.ts — the settings a user owns: ~/.pi/agent/question.json, overridden key by key by
// the project's .pi/question.json. Every key is optional; a bad file or value is reported once
// (what, where, which default is used instead) and never stops a question.
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, normalize } from "node:path";
import { SETTINGS_TEXT } from "./text.ts";

/** A desktop notification through the terminal: off, the protocol the terminal is known to
 * speak (true), or one named. */
export type DesktopNotice = boolean | "osc777" | "osc9" | "osc99";
export const DESKTOP_KINDS: readonly string[] = ["osc777", "osc9", "osc99"];

export interface Settings {
  /** What Esc on a question does: "cancel" ends the agent's turn; "continue" lets it go on. */
  escape: "cancel" | "continue";
  /** How a waiting question gets attention: terminal title (restored after), bell, pi notification. */
  notice: { title: boolean; bell: boolean; notify: boolean; desktop: DesktopNotice };
  /** "auto" (from LC_ALL / LC_MESSAGES / LANG) or a language tag: "en", "de", "zh". */
  language: string;
  /** Lower limits than the built-in ones, if you want them. */
  limits: { questions?: number; options?: number };
  /** Where the pending-questions file goes, relative to the working directory. */
  pendingFile: string;
}

export const DEFAULT_SETTINGS: Settings = {
  escape: "cancel",
  notice: { title: true, bell: false, notify: false, desktop: false },
  language: "auto",
  limits: {},
  pendingFile: join(".pi", "pending-questions.json"),
};

export const SUPPORTED_LANGUAGES = ["en", "de", "zh"];

export function settingsPaths(cwd: string, home = homedir()): string[] {
  return [join(home, ".pi", "agent", "question.json"), join(cwd, ".pi", "question.json")];
}

type Warn = (message: string) => void;

function readJson(path: string, warn: Warn): Record<string, unknown> | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8"));
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    warn(SETTINGS_TEXT.notObject(path));
  } catch (error) {
    if (error instanceof SyntaxError) warn(SETTINGS_TEXT.badJson(path, error.message));
    else warn(SETTINGS_TEXT.unreadable(path, error instanceof Error ? error.message : String(error)));
  }
  return undefined;
}

function apply(into: Settings, raw: Record<string, unknown>, path: string, warn: Warn): void {
  const bad = (key: string, expected: string) => warn(SETTINGS_TEXT.badValue(path, key, expected));
  for (const [key, value] of Object.entries(raw)) {
    switch (key) {
      case "escape":
        if (value === "cancel" || value === "continue") into.escape = value;
        else bad(key, '"cancel" or "continue"');
        break;
      case "notice":
        if (value && typeof value === "object" && !Array.isArray(value)) {
          for (const [k, v] of Object.entries(value)) {
            if ((k === "title" || k === "bell" || k === "notify") && typeof v === "boolean") into.notice = { ...into.notice, [k]: v };
            else if (k === "desktop" && (typeof v === "boolean" || DESKTOP_KINDS.includes(v as string))) {
              into.notice = { ...into.notice, desktop: v as DesktopNotice };
            } else if (k === "desktop") bad("notice.desktop", 'true, false, "osc777", "osc9" or "osc99"');
            else bad(`notice.${k}`, "title, bell, notify or desktop set to true or false");
          }
        } else bad(key, "an object like { \"title\": true, \"bell\": false, \"notify\": false }");
        break;
      case "language":
        if (typeof value === "string" && (value === "auto" || SUPPORTED_LANGUAGES.includes(value))) into.language = value;
        else bad(key, `"auto" or one of ${SUPPORTED_LANGUAGES.map((l) => `"${l}"`).join(", ")}`);
        break;
      case "limits":
        if (value && typeof value === "object" && !Array.isArray(value)) {
          for (const [k, v] of Object.entries(value)) {
            if ((k === "questions" || k === "options") && Number.isInteger(v) && (v as number) >= 1) into.limits = { ...into.limits, [k]: v };
            else bad(`limits.${k}`, "questions or options set to a whole number of at least 1");
          }
        } else bad(key, "an object like { \"questions\": 10, \"options\": 50 }");
        break;
      case "pendingFile":
        // Relative and inside the project: `/questions clear` removes this file.
        if (typeof value === "string" && value.trim() !== "" && !isAbsolute(value.trim()) && !normalize(value.trim()).startsWith(".."))
          into.pendingFile = value.trim();
        else bad(key, "a path relative to the working directory, inside it");
        break;
      default:
        warn(SETTINGS_TEXT.unknownKey(path, key));
    }
  }
}

/** The effective settings for `cwd`, with every problem passed to warn. */
export function loadSettings(cwd: string, warn: Warn, home = homedir()): Settings {
  const settings: Settings = { ...DEFAULT_SETTINGS, notice: { ...DEFAULT_SETTINGS.notice }, limits: {} };
  for (const path of settingsPaths(cwd, home)) {
    const raw = readJson(path, warn);
    if (raw) apply(settings, raw, path, warn);
  }
  return settings;
}

/** The UI language: the setting, else the locale environment, else English. */
export function resolveLanguage(setting: string, env: NodeJS.ProcessEnv = process.env): string {
  if (setting !== "auto") return setting;
  for (const name of ["LC_ALL", "LC_MESSAGES", "LANG"]) {
    const value = env[name];
    if (!value) continue;
    const tag = value.toLowerCase().split(/[_.@-]/)[0];
    return SUPPORTED_LANGUAGES.includes(tag) ? tag : "en";
  }
  return "en";
}
