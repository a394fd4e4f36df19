// memory.ts — the project's memory of answers: every question the person answers is written to
// .pi/answers.jsonl (what the tool reads: one JSON entry a line) and .pi/answers.md (the same
// entries for a person to read), and a question asked again in the project — the same prompt
// and the same options, compared as normalizedPrompt / optionSet say — opens with the earlier
// answer chosen and a line saying when it was given (the engine's qt_engine_remember). Only the
// person's own answers are written (REMEMBERED_MODES, status "answered"): never pre-supplied
// answers, timeouts, declines, cancels or another extension's answer. The files are written
// like the pending file (pending.ts): on their real path inside the project only, atomically,
// under the lock beside the JSONL file, so two pis never lose each other's entries. One entry
// per question: a newer answer to the same question replaces the older one.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { addon } from "../addon.ts";
import type { AnswerDetails, NormalizedQuestion, QuestionDetails } from "../question-types.ts";
import { fill, strings } from "../text/i18n.ts";
import { MEMORY_TEXT } from "../text/text.ts";
import { withPendingLock, writeInProject } from "./pending.ts";

export const MEMORY_FILE = join(".pi", "answers.jsonl");
export const MEMORY_NOTES = join(".pi", "answers.md");

/** Where an answer given counts as the person's: pi's TUI, the RPC dialogs, the terminal,
 * another terminal, the page. Not "presupplied", "print" (the pending file or --answers),
 * "relay" (the pi above remembers it), "extension" (another extension chose it). */
export const REMEMBERED_MODES: ReadonlySet<string> = new Set(["interactive", "rpc", "tty", "remote", "web"]);

/** One remembered answer (a line of answers.jsonl). */
export interface MemoryEntry {
  /** Random, to forget exactly this entry. */
  id: string;
  /** When it was answered (ISO 8601). */
  at: string;
  /** Who asked: "pi" (this pi's agent) or the subagent, as the question's screen named it. */
  by: string;
  prompt: string;
  /** The option labels, as asked; absent for a free-text question. */
  options?: string[];
  multiSelect?: boolean;
  /** The answer, in the shape `answers` takes: the options chosen (labels) and the typed text. */
  answer: { selected?: string[]; wrote?: string };
  /** The answer as the person reads it ("SQLite", "Postgres, my own words"). */
  label: string;
  note?: string;
  /** normalizedKey of the question: what a new question is matched on. */
  key: string;
}

/** A prompt or label as matching compares it: Unicode NFC, whitespace runs as one space, trimmed,
 * lower case. */
export function normalizedText(text: string): string {
  return text.normalize("NFC").replace(/\s+/gu, " ").trim().toLowerCase();
}

/** An option label as matching compares it: normalizedText without a trailing "(Recommended)". */
export function normalizedOption(label: string): string {
  return normalizedText(label)
    .replace(/\s*\(recommended\)$/u, "")
    .trim();
}

/** The set of options as matching compares it: normalized labels, sorted, duplicates once. */
export function optionSet(labels: readonly string[]): string[] {
  return [...new Set(labels.map(normalizedOption))].sort();
}

/** "The same question": the normalized prompt, the option set, and whether several may be chosen.
 * Ids, labels (tab titles), option values, descriptions and previews do not count. */
export function normalizedKey(q: { prompt: string; options?: ReadonlyArray<{ label: string } | string>; multiSelect?: boolean }): string {
  const labels = (q.options ?? []).map((o) => (typeof o === "string" ? o : o.label));
  return JSON.stringify([normalizedText(q.prompt), optionSet(labels), !!q.multiSelect]);
}

export function memoryPaths(cwd: string): { jsonl: string; md: string } {
  return { jsonl: join(cwd, MEMORY_FILE), md: join(cwd, MEMORY_NOTES) };
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

/** An entry as this version writes it, every field of the right type (a hand-edited line may hold
 * anything): what is not one is skipped, never read in part. */
function isEntry(v: unknown): v is MemoryEntry {
  const e = v as Partial<MemoryEntry> | null;
  if (!e || typeof e !== "object" || Array.isArray(e)) return false;
  if (typeof e.id !== "string" || typeof e.prompt !== "string" || typeof e.key !== "string") return false;
  if (typeof e.label !== "string" || typeof e.by !== "string") return false;
  if (typeof e.at !== "string" || Number.isNaN(Date.parse(e.at))) return false;
  if (e.options !== undefined && !isStrings(e.options)) return false;
  if (e.multiSelect !== undefined && typeof e.multiSelect !== "boolean") return false;
  if (e.note !== undefined && typeof e.note !== "string") return false;
  const a = e.answer as MemoryEntry["answer"] | undefined;
  if (!a || typeof a !== "object" || Array.isArray(a)) return false;
  if (a.selected !== undefined && !isStrings(a.selected)) return false;
  return a.wrote === undefined || typeof a.wrote === "string";
}

/** The entries of answers.jsonl, oldest first; a missing file is empty, a line that is not an
 * entry is skipped (a person may have edited the file). */
export function readMemory(cwd: string): MemoryEntry[] {
  return readLines(cwd).entries;
}

/** answers.jsonl's entries, and its other lines as they are (a person's edit, a newer version's
 * entry): those are written back untouched, never dropped. */
function readLines(cwd: string): { entries: MemoryEntry[]; others: string[] } {
  const { jsonl } = memoryPaths(cwd);
  const out = { entries: [] as MemoryEntry[], others: [] as string[] };
  if (!existsSync(jsonl)) return out;
  let text: string;
  try {
    text = readFileSync(jsonl, "utf8");
  } catch {
    return out;
  }
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      v = undefined;
    }
    if (isEntry(v)) out.entries.push(v);
    else out.others.push(line);
  }
  return out;
}

/** The entry of one answer the person gave, or undefined when it is none of theirs (applied by a
 * timeout). */
export function entryOf(q: NormalizedQuestion, a: AnswerDetails, by: string, at: Date): MemoryEntry | undefined {
  if (a.appliedByTimeout) return undefined;
  const chosen = q.multiSelect ? (a.indices ?? []).length : a.index !== undefined ? 1 : 0;
  const labels = q.multiSelect ? (a.labels ?? []) : a.index !== undefined ? [a.label] : [];
  const selected = labels.slice(0, chosen);
  const wrote = a.wasCustom ? (q.multiSelect ? (a.labels ?? [])[chosen] : a.label) : undefined;
  return {
    id: randomBytes(6).toString("hex"),
    at: at.toISOString(),
    by,
    prompt: q.prompt,
    ...(q.options ? { options: q.options.map((o) => o.label) } : {}),
    ...(q.multiSelect ? { multiSelect: true } : {}),
    answer: { ...(selected.length ? { selected } : {}), ...(wrote ? { wrote } : {}) },
    label: a.label,
    ...(a.note ? { note: a.note } : {}),
    key: normalizedKey(q),
  };
}

/** Whether a result's answers are the person's own, to be remembered. */
export function isPersonsAnswer(details: Pick<QuestionDetails, "status" | "mode">): boolean {
  return details.status === "answered" && REMEMBERED_MODES.has(details.mode);
}

/** One line of a file a person reads: no control characters, no line breaks. */
function oneLine(text: string): string {
  return addon().sanitize(text, false).replace(/\s+/gu, " ").trim();
}

/** answers.md: the entries newest first, for a person to read. */
export function notesText(entries: readonly MemoryEntry[]): string {
  const out = [
    "# Answers remembered in this project",
    "",
    "Written by pi-question: each question answered here, newest first. The tool reads answers.jsonl",
    "beside this file; `/questions history` lists the answers and `/questions forget N` removes one.",
    "",
  ];
  for (const e of [...entries].reverse()) {
    out.push(`## ${oneLine(new Date(e.at).toISOString().slice(0, 16).replace("T", " "))} UTC — asked by ${oneLine(e.by)}`, "");
    out.push(`**${oneLine(e.prompt)}**`, "");
    if (e.options?.length) out.push(`Options${e.multiSelect ? " (several)" : ""}: ${e.options.map(oneLine).join(" · ")}`, "");
    out.push(`Answer: ${oneLine(e.label)}`);
    if (e.note) out.push(`Note: ${oneLine(e.note)}`);
    out.push("");
  }
  return out.join("\n");
}

/** Writes both files from `entries` (under the lock): the JSONL first, the file the tool reads. */
function writeBoth(cwd: string, entries: readonly MemoryEntry[], others: readonly string[]): string | undefined {
  const { jsonl, md } = memoryPaths(cwd);
  const lines = [...others, ...entries.map((e) => JSON.stringify(e))].join("\n");
  return writeInProject(cwd, jsonl, lines ? `${lines}\n` : "", MEMORY_TEXT) ?? writeInProject(cwd, md, notesText(entries), MEMORY_TEXT);
}

/** Remembers the person's answers of a result in the project `cwd` (nothing when they are not the
 * person's: isPersonsAnswer). Returns why they were not written, if they were not. */
export async function rememberAnswers(cwd: string, details: QuestionDetails, by: string, now = new Date()): Promise<string | undefined> {
  if (!isPersonsAnswer(details)) return undefined;
  if (!existsSync(cwd)) return undefined; // no project directory: nowhere inside it to write
  const fresh: MemoryEntry[] = [];
  for (const a of details.answers) {
    const q = details.questions.find((x) => x.id === a.id);
    const entry = q && entryOf(q, a, by, now);
    if (entry) fresh.push(entry);
  }
  if (!fresh.length) return undefined;
  const { jsonl } = memoryPaths(cwd);
  const done = await withPendingLock(
    cwd,
    jsonl,
    () => {
      const keys = new Set(fresh.map((e) => e.key));
      const { entries, others } = readLines(cwd);
      return { value: writeBoth(cwd, [...entries.filter((e) => !keys.has(e.key)), ...fresh], others) };
    },
    undefined,
    MEMORY_TEXT,
  );
  return "why" in done ? done.why : done.value;
}

/** What a question opens with when this project remembers an answer to it. */
export interface Remembered {
  /** The answer for qt_engine_remember: `{ [id]: { selected, wrote } }`, labels as asked now. */
  answersJson: string;
  /** "Answered on 21 Nov: SQLite — Enter keeps it", in the person's language. */
  line: string;
  /** The date as the model's result gives it ("21 Nov 2026"). */
  when: string;
  entry: MemoryEntry;
}

/** The date a person reads ("21 Nov", "21. Nov.", "11月21日"; the year when it is not this one). */
export function personDate(at: string, language: string, now = new Date()): string {
  const d = new Date(at);
  const sameYear = d.getFullYear() === now.getFullYear();
  try {
    return new Intl.DateTimeFormat(language === "en" ? "en-GB" : language, {
      day: "numeric",
      month: "short",
      ...(sameYear ? {} : { year: "numeric" }),
    }).format(d);
  } catch {
    return at.slice(0, 10);
  }
}

/** The date the model reads, always English: "21 Nov 2026". */
export function modelDate(at: string): string {
  return new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(at));
}

/** The remembered answer of question `q` (the newest entry with its key), as it opens now; undefined
 * when none, or when an option it chose is no longer among the question's options. */
export function rememberedFor(q: NormalizedQuestion, entries: readonly MemoryEntry[], language: string): Remembered | undefined {
  const key = normalizedKey(q);
  const entry = [...entries].reverse().find((e) => e.key === key);
  if (!entry) return undefined;
  const selected: string[] = [];
  for (const label of entry.answer.selected ?? []) {
    const now = (q.options ?? []).find((o) => normalizedOption(o.label) === normalizedOption(label));
    if (!now) return undefined;
    selected.push(now.label);
  }
  const wrote = typeof entry.answer.wrote === "string" && entry.answer.wrote.trim() ? entry.answer.wrote : undefined;
  if (!selected.length && !wrote) return undefined;
  if (!q.options && !wrote) return undefined;
  const answersJson = JSON.stringify({ [q.id]: { ...(selected.length ? { selected } : {}), ...(wrote ? { wrote } : {}) } });
  const shown = Array.from(oneLine(entry.label));
  const short = shown.length > 60 ? `${shown.slice(0, 59).join("")}…` : shown.join("");
  const line = fill(
    strings().MEMORY_EARLIER.replace("{d}", () => personDate(entry.at, language)),
    { s: short },
  );
  return { answersJson, line, when: modelDate(entry.at), entry };
}

/** The history list: entries newest first, each with its number (1: the newest), those whose
 * prompt or answer holds every one of `words` (case ignored). */
export function historyOf(entries: readonly MemoryEntry[], words: string): Array<{ n: number; entry: MemoryEntry }> {
  const wanted = normalizedText(words).split(" ").filter(Boolean);
  return [...entries]
    .reverse()
    .map((entry, i) => ({ n: i + 1, entry }))
    .filter(({ entry }) => {
      const text = normalizedText(`${entry.prompt}\n${entry.label}\n${entry.note ?? ""}`);
      return wanted.every((w) => text.includes(w));
    });
}

/** Forgets entry number `n` of the history (1: the newest) from both files. Returns the entry
 * forgotten, undefined when there is no such number, or why the files could not be written. */
export async function forgetAnswer(cwd: string, n: number, id?: string): Promise<MemoryEntry | undefined | { why: string }> {
  const { jsonl } = memoryPaths(cwd);
  if (!existsSync(jsonl)) return undefined;
  const done = await withPendingLock(
    cwd,
    jsonl,
    () => {
      const { entries, others } = readLines(cwd);
      const at = entries.length - n; // newest first: number 1 is the last line
      const gone = id ? entries.find((e) => e.id === id) : at >= 0 && at < entries.length ? entries[at] : undefined;
      if (!gone) return { value: undefined };
      const why = writeBoth(
        cwd,
        entries.filter((e) => e !== gone),
        others,
      );
      return { value: why ? { why } : gone };
    },
    undefined,
    MEMORY_TEXT,
  );
  return "why" in done ? { why: done.why } : done.value;
}

/** A remembered entry on one line of /questions history: "3. 21 Nov · Which database? → SQLite". */
export function historyLine(n: number, entry: MemoryEntry, language: string): string {
  const by = entry.by === "pi" ? "" : ` (${oneLine(entry.by)})`;
  return `${n}. ${personDate(entry.at, language)} · ${oneLine(entry.prompt)} → ${oneLine(entry.label)}${entry.note ? ` · ${oneLine(entry.note)}` : ""}${by}`;
}

/** The answer's remembered entries of the questions asked now, one per question (undefined: none). */
export function rememberedAll(cwd: string, questions: readonly NormalizedQuestion[], language: string): Array<Remembered | undefined> {
  const entries = readMemory(cwd);
  if (!entries.length) return questions.map(() => undefined);
  return questions.map((q) => {
    try {
      return rememberedFor(q, entries, language);
    } catch {
      return undefined; // nothing this version can open: the question opens plain
    }
  });
}
