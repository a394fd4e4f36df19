// settings.ts — the settings a user owns: ~/.pi/agent/question.json, overridden key by key by
// the project's .pi/question.json. Every key is optional; a bad file or value is reported once
// (what, where, which default is used instead) and never stops a question.
import { lstatSync, statSync } from "node:fs";
import { isIP } from "node:net";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { addon } from "../addon.ts";
import type { TimeoutThen } from "../addon-types.ts";
import { placeInProject, readBoundedFile } from "./project-file.ts";
import { SETTINGS_TEXT } from "./text.ts";

/** A desktop notification through the terminal: off, the protocol the terminal is known to
 * speak (true), or one named. */
export type DesktopNotice = boolean | "osc777" | "osc9" | "osc99";
export const DESKTOP_KINDS: readonly string[] = ["osc777", "osc9", "osc99"];

/** What the person's own timeout applies when it runs out. */
export type { TimeoutThen };
export const TIMEOUT_THENS: readonly TimeoutThen[] = ["cancel", "decline", "recommended", "selected"];
/** The longest timeout accepted: a day. */
export const MAX_TIMEOUT_MS = 24 * 60 * 60 * 1000;

export interface Settings {
  /** What Esc on a question does: "cancel" ends the agent's turn; "continue" lets it go on. */
  escape: "cancel" | "continue";
  /** How a waiting question gets attention: terminal title (restored after), bell, pi notification. */
  notice: {
    title: boolean;
    bell: boolean;
    notify: boolean;
    desktop: DesktopNotice;
    /** A command run once per waiting question (your own settings only): its argv, no shell. */
    command?: readonly string[];
  };
  /** "auto" (from LC_ALL / LC_MESSAGES / LANG) or a language tag: "en", "de", "zh". */
  language: string;
  /** Lower limits than the built-in ones, if you want them. */
  limits: { questions?: number; options?: number };
  /** Where the pending-questions file goes, relative to the working directory. */
  pendingFile: string;
  /** The web page (/questions web): on from the start, and the address it listens on. */
  web: { enabled: boolean; host: string };
  /** The person's own timeout: off (undefined) by default. `after` as written ("5m"), `ms` parsed. */
  timeout?: { after: string; ms: number; then: TimeoutThen };
  /** Plain lines for screen readers (also on with TERM=dumb). */
  accessible: boolean;
  /** Every answer the person gives is remembered for the project, in their own directory
   * (~/.pi/agent/question-answers/), and a question asked again opens with it (docs/memory.md). */
  memory: boolean;
  /** pi ≥ 1.5 trusts the project (ctx.isProjectTrusted(); always true on a pi without project
   * trust). Not a setting: when false, none of the project's .pi files counts — its
   * question.json is skipped, the pending file neither read nor written. */
  projectTrusted: boolean;
}

export const DEFAULT_SETTINGS: Settings = {
  escape: "cancel",
  notice: { title: true, bell: false, notify: false, desktop: false },
  language: "auto",
  limits: {},
  pendingFile: join(".pi", "pending-questions.json"),
  web: { enabled: false, host: "127.0.0.1" },
  accessible: false,
  memory: true,
  projectTrusted: true,
};

/** Why `value` cannot be the web page's listening address, or undefined when it can: an IP
 * address or a host name (letters, digits, dots, hyphens). */
export function webHostProblem(value: unknown): string | undefined {
  if (typeof value !== "string" || value.trim() === "") return "is not a non-empty string";
  const v = value.trim();
  if (isIP(v) !== 0) return undefined;
  if (v.length > 253 || !/^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/.test(v)) {
    return "is neither an IP address nor a host name";
  }
  return undefined;
}

/** Milliseconds of a duration like "5m", "90s", "1h30m", "2m30s" (units h, m, s, ms; at least
 * one), or a string saying why not. */
export function parseDuration(value: unknown): number | string {
  if (typeof value !== "string") return `is ${JSON.stringify(value) ?? String(value)}, not a string`;
  const text = value.trim();
  const match = /^(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+)s)?(?:(\d+)ms)?$/.exec(text);
  if (!text || !match || match.slice(1).every((part) => part === undefined)) {
    return `${JSON.stringify(value)} is not a duration`;
  }
  const [h, m, sec, ms] = match.slice(1).map((part) => Number(part ?? 0));
  const total = ((h * 60 + m) * 60 + sec) * 1000 + ms;
  if (total < 1000) return `${JSON.stringify(value)} is shorter than a second`;
  if (total > MAX_TIMEOUT_MS) return `${JSON.stringify(value)} is longer than a day (24h)`;
  return total;
}

/** Whether questions are shown in accessible mode: the setting, or TERM=dumb. */
export function accessibleMode(settings: Settings, env: NodeJS.ProcessEnv = process.env): boolean {
  return settings.accessible || env.TERM === "dumb";
}

export const SUPPORTED_LANGUAGES = ["en", "de", "zh"];

export function settingsPaths(cwd: string, home = homedir()): string[] {
  return [join(home, ".pi", "agent", "question.json"), join(cwd, ".pi", "question.json")];
}

type Warn = (message: string) => void;

/** Why `value` cannot be the pending file of the project in `cwd`, or undefined when it can: it
 * must name a file (not a directory) whose real path, symbolic links resolved, lies inside the
 * project's real directory (`/questions clear` removes it). */
export function pendingFileProblem(cwd: string, value: string): string | undefined {
  if (value === "") return "is empty";
  if (isAbsolute(value)) return "is an absolute path";
  if (/[\\/]$/.test(value)) return "ends with a path separator, so it names a directory";
  const target = placeInProject(cwd, value);
  if (typeof target === "string") return target;
  try {
    if (target.exists && statSync(target.real).isDirectory()) return `is a directory (${target.real})`;
  } catch {
    // gone since: it is no directory
  }
  return undefined;
}

/** A settings file's object, read as project-file.ts reads hostile files: bounded
 * (limits.settingsFileBytes), a regular file only, and for the project's own file (`root`) only on
 * its real path inside the project. Anything else is one warning and the defaults. */
function readJson(path: string, warn: Warn, root?: string): Record<string, unknown> | undefined {
  const read = readBoundedFile(path, { maxBytes: addon().limits.settingsFileBytes, root });
  if ("missing" in read) return undefined;
  if ("refused" in read) {
    warn(SETTINGS_TEXT.refused(path, read.refused));
    return undefined;
  }
  try {
    const parsed = JSON.parse(read.text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    warn(SETTINGS_TEXT.notObject(path));
  } catch (error) {
    if (error instanceof SyntaxError) warn(SETTINGS_TEXT.badJson(path, error.message));
    else warn(SETTINGS_TEXT.unreadable(path, error instanceof Error ? error.message : String(error)));
  }
  return undefined;
}

/** `project`: the file is the project's (.pi/question.json), which whoever made the repository
 * wrote. It may set only what changes how questions look and where they wait inside the project
 * (language, accessible, notice, lower limits, pendingFile, memory off); USER_ONLY keys are the person's alone:
 * `web` opens a door to the questions, `timeout` answers for the person when no key is pressed,
 * `escape` decides whether Esc stops the agent. */
const USER_ONLY: Record<string, (path: string) => string> = {
  web: SETTINGS_TEXT.webFromProject,
  timeout: SETTINGS_TEXT.timeoutFromProject,
  escape: SETTINGS_TEXT.escapeFromProject,
};

/** notice.command's value: 1 to limits.noticeCommandWords non-empty strings of at most
 * limits.noticeCommandWordBytes bytes each, no NUL (an argv, never a shell string). */
function commandOk(v: unknown): boolean {
  const l = addon().limits;
  return (
    Array.isArray(v) &&
    v.length >= 1 &&
    v.length <= l.noticeCommandWords &&
    v.every((w) => typeof w === "string" && w.length > 0 && !w.includes("\0") && Buffer.byteLength(w, "utf8") <= l.noticeCommandWordBytes)
  );
}

/** Applies one settings file; `project`: it is the project's own, where USER_ONLY keys are refused. */
function apply(into: Settings, raw: Record<string, unknown>, path: string, cwd: string, warn: Warn, project: boolean): void {
  const bad = (key: string, expected: string) => warn(SETTINGS_TEXT.badValue(path, key, expected));
  for (const [key, value] of Object.entries(raw)) {
    if (project && Object.hasOwn(USER_ONLY, key)) {
      warn(USER_ONLY[key](path));
      continue;
    }
    switch (key) {
      case "escape":
        if (value === "cancel" || value === "continue") into.escape = value;
        else bad(key, '"cancel" or "continue"');
        break;
      case "notice":
        if (value && typeof value === "object" && !Array.isArray(value)) {
          for (const [k, v] of Object.entries(value)) {
            if (k === "command") {
              // run by pi when a question waits: the person's own settings alone may name one
              if (project) warn(SETTINGS_TEXT.commandFromProject(path));
              else if (commandOk(v)) into.notice = { ...into.notice, command: Object.freeze([...(v as string[])]) };
              else {
                const l = addon().limits;
                warn(SETTINGS_TEXT.badCommand(path, l.noticeCommandWords, l.noticeCommandWordBytes));
              }
            } else if ((k === "title" || k === "bell" || k === "notify") && typeof v === "boolean")
              into.notice = { ...into.notice, [k]: v };
            else if (k === "desktop" && (typeof v === "boolean" || DESKTOP_KINDS.includes(v as string))) {
              into.notice = { ...into.notice, desktop: v as DesktopNotice };
            } else if (k === "desktop") bad("notice.desktop", 'true, false, "osc777", "osc9" or "osc99"');
            else bad(`notice.${k}`, "title, bell, notify or desktop set to true or false, or command");
          }
        } else bad(key, 'an object like { "title": true, "bell": false, "notify": false }');
        break;
      case "language":
        if (typeof value === "string" && (value === "auto" || SUPPORTED_LANGUAGES.includes(value))) into.language = value;
        else bad(key, `"auto" or one of ${SUPPORTED_LANGUAGES.map((l) => `"${l}"`).join(", ")}`);
        break;
      case "limits":
        if (value && typeof value === "object" && !Array.isArray(value)) {
          for (const [k, v] of Object.entries(value)) {
            if ((k === "questions" || k === "options") && Number.isInteger(v) && (v as number) >= 1) {
              // A project may only lower the person's own caps, never raise them.
              const own = into.limits[k];
              into.limits = { ...into.limits, [k]: project && own !== undefined ? Math.min(own, v as number) : v };
            } else bad(`limits.${k}`, "questions or options set to a whole number of at least 1");
          }
        } else bad(key, 'an object like { "questions": 10, "options": 50 }');
        break;
      case "pendingFile": {
        // A file inside the project, decided on real paths: `/questions clear` removes it.
        if (typeof value !== "string") {
          bad(key, "a path relative to the working directory, inside it");
          break;
        }
        const problem = pendingFileProblem(cwd, value.trim());
        if (problem) warn(SETTINGS_TEXT.badPendingFile(path, value, problem, cwd));
        else into.pendingFile = value.trim();
        break;
      }
      case "web":
        if (value && typeof value === "object" && !Array.isArray(value)) {
          for (const [k, v] of Object.entries(value)) {
            if (k === "enabled" && typeof v === "boolean") into.web = { ...into.web, enabled: v };
            else if (k === "enabled") bad("web.enabled", "true or false");
            else if (k === "host" && !webHostProblem(v)) into.web = { ...into.web, host: (v as string).trim() };
            else if (k === "host")
              bad("web.host", `an IP address or host name to listen on, like "127.0.0.1" (${JSON.stringify(v)} ${webHostProblem(v)})`);
            else bad(`web.${k}`, "enabled (true or false) or host (an address to listen on)");
          }
        } else bad(key, 'an object like { "enabled": true, "host": "127.0.0.1" }');
        break;
      case "timeout": {
        // { "after": "5m", "then": "cancel" | "decline" | "recommended" | "selected" }; false or null: off.
        if (value === false || value === null) {
          delete into.timeout;
          break;
        }
        if (!value || typeof value !== "object" || Array.isArray(value)) {
          warn(SETTINGS_TEXT.badTimeout(path, "is not an object"));
          break;
        }
        const raw = value as Record<string, unknown>;
        const extra = Object.keys(raw).filter((k) => k !== "after" && k !== "then");
        if (extra.length) {
          warn(SETTINGS_TEXT.badTimeout(path, `has ${extra.map((k) => JSON.stringify(k)).join(", ")}, which is not "after" or "then"`));
          break;
        }
        const ms = parseDuration(raw.after);
        if (typeof ms === "string") {
          warn(SETTINGS_TEXT.badTimeout(path, `"after" ${ms}`));
          break;
        }
        const then = raw.then ?? "cancel";
        if (!TIMEOUT_THENS.includes(then as TimeoutThen)) {
          warn(SETTINGS_TEXT.badTimeout(path, `"then" is ${JSON.stringify(then)}`));
          break;
        }
        into.timeout = { after: String(raw.after).trim(), ms, then: then as TimeoutThen };
        break;
      }
      case "accessible":
        if (typeof value === "boolean") into.accessible = value;
        else bad(key, "true or false");
        break;
      case "memory":
        // A project may turn it off, never on against the person's own false.
        if (typeof value !== "boolean") bad(key, "true or false");
        else into.memory = project ? into.memory && value : value;
        break;
      default:
        warn(SETTINGS_TEXT.unknownKey(path, key));
    }
  }
}

/** What a path is now, cheaply: its own entry (lstat) and, for a symbolic link, what it leads to;
 * "-" for nothing there. A path that cannot be looked at gets a stamp that never matches. */
function pathStamp(path: string): string {
  try {
    const own = lstatSync(path, { throwIfNoEntry: false });
    if (!own) return "-";
    const to = own.isSymbolicLink() ? statSync(path, { throwIfNoEntry: false }) : own;
    // A file's clock moves in ticks (a few ms on ext4): one rewritten in place, to the same size,
    // within a tick of the last read would keep its stamp. Changed within the last two seconds,
    // it is not trusted (git's rule for its index): no cached read matches it.
    const recent = [own, to].some((st) => st && Date.now() - Math.max(st.mtimeMs, st.ctimeMs) < 2000);
    if (recent) return `?${Math.random()}`;
    const one = (st: typeof own | undefined) => (st ? `${st.dev}:${st.ino}:${st.mode}:${st.size}:${st.mtimeMs}:${st.ctimeMs}` : "-");
    return `${one(own)}>${one(to)}`;
  } catch {
    return `?${Math.random()}`;
  }
}

/** loadSettings' last results, by home, project and trust: the settings (frozen: shared by every
 * caller until a file changes), the warnings they gave, and the stamps of what they were read
 * from (both files and the project's .pi folder), so a question reads nothing unchanged. */
const settingsCache = new Map<string, { stamp: string; settings: Settings; warnings: string[] }>();

/** The effective settings for `cwd`, with every problem passed to warn; `trusted`: pi trusts the
 * project (false: its .pi/question.json is skipped). Read again only when a file (or the
 * project's .pi folder) changed since the last call for this project; the warnings of a cached
 * read are passed to warn again (callers say each once). The result is frozen. */
export function loadSettings(cwd: string, warn: Warn, home = homedir(), trusted = true): Settings {
  const [user, project] = settingsPaths(cwd, home);
  // The project's .pi first: without it there is no project file to look at.
  const dotPi = pathStamp(dirname(project));
  const stamp = `${pathStamp(user)}|${dotPi}|${dotPi === "-" ? "-" : pathStamp(project)}`;
  const key = `${home}\0${cwd}\0${trusted}`;
  const hit = settingsCache.get(key);
  if (hit && hit.stamp === stamp) {
    for (const w of hit.warnings) warn(w);
    return hit.settings;
  }
  const warnings: string[] = [];
  const settings = deepFreeze(
    readSettings(
      cwd,
      (message) => {
        warnings.push(message);
        warn(message);
      },
      home,
      trusted,
    ),
  );
  if (settingsCache.size >= 16) settingsCache.clear(); // a handful of projects per pi: bounded
  settingsCache.set(key, { stamp, settings, warnings });
  return settings;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** loadSettings' read itself: both files, every problem to warn. */
function readSettings(cwd: string, warn: Warn, home: string, trusted: boolean): Settings {
  const settings: Settings = {
    ...DEFAULT_SETTINGS,
    notice: { ...DEFAULT_SETTINGS.notice },
    limits: {},
    web: { ...DEFAULT_SETTINGS.web },
    projectTrusted: trusted,
  };
  const [user, project] = settingsPaths(cwd, home);
  for (const path of [user, project]) {
    const isProject = path === project && project !== user;
    if (isProject && !trusted) continue; // an untrusted project's .pi counts for nothing
    const raw = readJson(path, warn, isProject ? cwd : undefined);
    if (raw) apply(settings, raw, path, cwd, warn, isProject);
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
