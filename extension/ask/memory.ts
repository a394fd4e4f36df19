// memory.ts — the person's memory of answers: every question the person answers is written to
// ~/.pi/agent/question-answers/<project key>.jsonl (what the tool reads: one JSON entry a line)
// and the .md beside it (the same entries for a person to read), one pair of files per project
// (the key: a hash of the project's real path, which each entry records too), and a question
// asked again in that project — the same prompt and the same options, compared as
// normalizedPrompt / optionSet say — opens with the earlier answer chosen and a line saying when
// it was given (the engine's qt_engine_remember). The files are the person's own: a project's
// .pi/answers.jsonl or .pi/answers.md (a repository may ship them) is never read or written, so
// nothing another person wrote pre-chooses or confirms an answer, and typed answers never land
// in a repository. Only the person's own answers are written (REMEMBERED_MODES, status
// "answered"): never pre-supplied answers, timeouts, declines, cancels or another extension's
// answer. The file is read bounded (project-file.ts), at most once per change (a cache checked
// with one stat), its entries indexed by key. An answer is appended to both files (its cost does
// not grow with what is remembered); one entry per question counts, the newest, and once the
// file holds more replaced answers than live ones it is compacted (written whole). Writes are
// pending.ts's: on the real path inside the answers directory only, whole ones atomic, under the
// lock beside the JSONL file, so two pis never lose each other's entries.
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, lstatSync, mkdirSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { addon } from "../addon.ts";
import { type AnswerDetails, type NormalizedQuestion, optionLabel, type QuestionDetails } from "../question-types.ts";
import { fill, strings } from "../text/i18n.ts";
import { readBoundedFile } from "../text/project-file.ts";
import { MEMORY_TEXT } from "../text/text.ts";
import { appendInProject, withPendingLock, writeInProject } from "./pending.ts";

/** Where an answer given counts as the person's: pi's TUI, the RPC dialogs, the terminal,
 * another terminal, the page. Not "presupplied", "print" (--answers), "pending" (the pending file),
 * "relay" (the pi above remembers it), "extension" (another extension chose it). */
export const REMEMBERED_MODES: ReadonlySet<string> = new Set(["interactive", "rpc", "tty", "remote", "web"]);

/** One remembered answer (a line of the JSONL file). */
export interface MemoryEntry {
  /** Random, to forget exactly this entry. */
  id: string;
  /** When it was answered (ISO 8601). */
  at: string;
  /** Who asked: "pi" (this pi's agent) or the subagent, as the question's screen named it. */
  by: string;
  /** The project's real path, as it was when answered (the file's name is its hash). */
  project?: string;
  prompt: string;
  /** The option labels, as asked; absent for a free-text question. */
  options?: string[];
  multiSelect?: boolean;
  /** The answer, in the shape `answers` takes: the options chosen (labels) and the typed text.
   * The only source of what a question opens with and what is read back (answerText). */
  answer: { selected?: string[]; wrote?: string };
  /** Older versions wrote the answer as read here too; never read any more (answerText). */
  label?: string;
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

/** The person's directory of remembered answers: ~/.pi/agent/question-answers. */
export function memoryDirectory(home = homedir()): string {
  return join(home, ".pi", "agent", "question-answers");
}

/** The project's real path (its path as given when it has none: it does not exist), kept per
 * path for the process: a question should not walk the path's folders again. */
const realProjects = new Map<string, string>();
export function projectPath(cwd: string): string {
  const known = realProjects.get(cwd);
  if (known !== undefined) return known;
  let real: string;
  try {
    real = realpathSync(cwd);
  } catch {
    return resolve(cwd); // not kept: it may exist later
  }
  if (realProjects.size >= 64) realProjects.clear();
  realProjects.set(cwd, real);
  return real;
}

/** The files of the project `cwd`'s remembered answers, in the person's own directory: named by
 * a hash of the project's real path (the same project through a link is the same project). */
export function memoryPaths(cwd: string, home = homedir()): { dir: string; jsonl: string; md: string; project: string } {
  const project = projectPath(cwd);
  const key = `${home}\0${project}`;
  const known = pathsOf.get(key);
  if (known) return known;
  const name = createHash("sha256").update(project).digest("hex").slice(0, 32);
  const dir = memoryDirectory(home);
  const paths = Object.freeze({ dir, jsonl: join(dir, `${name}.jsonl`), md: join(dir, `${name}.md`), project });
  if (pathsOf.size >= 64) pathsOf.clear();
  pathsOf.set(key, paths);
  return paths;
}
/** memoryPaths by home and project: a question hashes no path it hashed before. */
const pathsOf = new Map<string, { dir: string; jsonl: string; md: string; project: string }>();

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

/** An entry as this version writes it, every field of the right type (a hand-edited line may hold
 * anything): what is not one is skipped, never read in part. */
function isEntry(v: unknown): v is MemoryEntry {
  const e = v as Partial<MemoryEntry> | null;
  if (!e || typeof e !== "object" || Array.isArray(e)) return false;
  if (typeof e.id !== "string" || typeof e.prompt !== "string" || typeof e.key !== "string") return false;
  if (typeof e.by !== "string") return false;
  if (e.label !== undefined && typeof e.label !== "string") return false;
  if (e.project !== undefined && typeof e.project !== "string") return false;
  if (typeof e.at !== "string" || Number.isNaN(Date.parse(e.at))) return false;
  if (e.options !== undefined && !isStrings(e.options)) return false;
  if (e.multiSelect !== undefined && typeof e.multiSelect !== "boolean") return false;
  if (e.note !== undefined && typeof e.note !== "string") return false;
  const a = e.answer as MemoryEntry["answer"] | undefined;
  if (!a || typeof a !== "object" || Array.isArray(a)) return false;
  if (a.selected !== undefined && !isStrings(a.selected)) return false;
  return a.wrote === undefined || typeof a.wrote === "string";
}

/** The JSONL file as read: the newest entry of each key, in the order they were answered (a
 * newer answer to a question moves it last: the live entries, oldest first); its other lines as
 * they are (a person's edit, a newer version's entry: written back untouched, never dropped); how
 * many entry lines the file holds (answers appended since replaced, or forgotten, count until the
 * file is compacted); or why the file was refused (too large, not a regular file, another
 * user's). */
interface Loaded {
  byKey: Map<string, MemoryEntry>;
  others: string[];
  lines: number;
  refused?: string;
}

/** An empty file's reading: a new object each time (the cache updates a reading in place). */
const empty = (): Loaded => ({ byKey: new Map(), others: [], lines: 0 });

/** An entry answered again: the older answer goes, the newer one is last. */
function keep(byKey: Map<string, MemoryEntry>, entry: MemoryEntry): void {
  byKey.delete(entry.key);
  byKey.set(entry.key, entry);
}

/** The last read of each file, with the stat it was read at: read again only when the file
 * changed (size, mtime, ctime or inode: a write renames a new file in). */
const cache = new Map<string, { stamp: string; loaded: Loaded; told?: boolean }>();

function stampOf(path: string): string | undefined {
  try {
    // no file is the common case (a project nothing was remembered for): said without an
    // exception, which cost a question's first frame 10 µs
    const st = statSync(path, { throwIfNoEntry: false });
    return st && `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch {
    return undefined; // unreadable: as no file
  }
}

/** The JSONL file of `jsonl`, from the cache when it has not changed. `untold`: a refusal not
 * told yet since the file last changed (the caller that tells it calls `told()`), so a refusal is
 * told once per change of the file, not at every question — and not lost to a read ahead of the
 * first question (warmMemory). */
function load(jsonl: string): { loaded: Loaded; untold: boolean; told(): void } {
  const stamp = stampOf(jsonl);
  if (stamp === undefined) {
    cache.delete(jsonl);
    return { loaded: empty(), untold: false, told() {} };
  }
  let hit = cache.get(jsonl);
  if (!hit || hit.stamp !== stamp) {
    hit = { stamp, loaded: parseFile(jsonl) };
    cache.set(jsonl, hit);
  }
  const entry = hit;
  return {
    loaded: entry.loaded,
    untold: Boolean(entry.loaded.refused) && !entry.told,
    told: () => {
      entry.told = true;
    },
  };
}

/** The file at `jsonl` read (bounded, refused when not the person's own) and its lines parsed. */
function parseFile(jsonl: string): Loaded {
  const read = readBoundedFile(jsonl, { maxBytes: addon().limits.memoryFileBytes, ownedByMe: true });
  if ("refused" in read) return { ...empty(), refused: MEMORY_TEXT.refused(jsonl, read.refused) };
  if ("missing" in read) return empty();
  const loaded: Loaded = empty();
  for (const line of read.text.split("\n")) {
    if (!line.trim()) continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      v = undefined;
    }
    if (isEntry(v)) {
      loaded.lines++;
      keep(loaded.byKey, v); // oldest first: the newest of a key stays
    } else loaded.others.push(line);
  }
  return loaded;
}

/** Reads the project's remembered answers into the cache ahead of its first question (pi's idle
 * time after a session starts, index.ts); tells nothing, so a refusal is still told then. */
export function warmMemory(cwd: string): void {
  load(memoryPaths(cwd).jsonl);
}

/** The remembered entries of the project `cwd` (one per question, its newest answer), oldest
 * first; a missing file is empty, a line that is not an entry is skipped, a refused file is empty
 * (its warning to `warn`, every time: /questions history asks, and "nothing remembered" alone
 * would not be true). */
export function readMemory(cwd: string, warn?: (message: string) => void): MemoryEntry[] {
  const { loaded } = load(memoryPaths(cwd).jsonl);
  if (loaded.refused) warn?.(loaded.refused);
  return [...loaded.byKey.values()];
}

/** The answer as read: the options chosen, then the typed text ("Postgres, my own words"), from
 * `answer` only — never the stored `label`, which a hand edit may make say anything. */
export function answerText(entry: Pick<MemoryEntry, "answer">): string {
  return [...(entry.answer.selected ?? []), ...(entry.answer.wrote ? [entry.answer.wrote] : [])].join(", ");
}

/** The entry of one answer the person gave, or undefined when it is none of theirs (applied by a
 * timeout). */
export function entryOf(q: NormalizedQuestion, a: AnswerDetails, by: string, at: Date, project?: string): MemoryEntry | undefined {
  if (a.appliedByTimeout || a.secret || q.secret) return undefined; // a secret is never remembered
  const chosen = q.multiSelect ? (a.indices ?? []).length : a.index !== undefined ? 1 : 0;
  const labels = q.multiSelect ? (a.labels ?? []) : a.index !== undefined ? [a.label] : [];
  const selected = labels.slice(0, chosen);
  const wrote = a.wasCustom ? (q.multiSelect ? (a.labels ?? [])[chosen] : a.label) : undefined;
  return {
    id: randomBytes(6).toString("hex"),
    at: at.toISOString(),
    by,
    ...(project !== undefined ? { project } : {}),
    prompt: q.prompt,
    ...(q.options ? { options: q.options.map(optionLabel) } : {}),
    ...(q.multiSelect ? { multiSelect: true } : {}),
    answer: { ...(selected.length ? { selected } : {}), ...(wrote ? { wrote } : {}) },
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

/** `text` as one line of at most `max` characters, "…" where it was cut. */
function cut(text: string, max: number): string {
  const chars = Array.from(oneLine(text));
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : chars.join("");
}

/** One answer's section of the .md file. */
function notesSection(e: MemoryEntry): string {
  const out = [`## ${oneLine(new Date(e.at).toISOString().slice(0, 16).replace("T", " "))} UTC — asked by ${oneLine(e.by)}`, ""];
  out.push(`**${oneLine(e.prompt)}**`, "");
  if (e.options?.length) out.push(`Options${e.multiSelect ? " (several)" : ""}: ${e.options.map(oneLine).join(" · ")}`, "");
  out.push(`Answer: ${oneLine(answerText(e))}`);
  if (e.note) out.push(`Note: ${oneLine(e.note)}`);
  out.push("", "");
  return out.join("\n");
}

/** The .md file: the entries oldest first (a new answer is appended at the end), for a person to
 * read. */
export function notesText(entries: readonly MemoryEntry[], project: string): string {
  const out = [
    `# Answers remembered in ${oneLine(project)}`,
    "",
    "Written by pi-question: each question answered in this project, the newest last. A question",
    "answered again is read with its latest answer. The tool reads the .jsonl file beside this one;",
    "`/questions history` lists the answers and `/questions forget N` removes one.",
    "",
    "",
  ].join("\n");
  return out + entries.map(notesSection).join("");
}

/** The person's answers directory, made private (0700) when it is not; why not, if it cannot be. */
function ownDirectory(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory()) return MEMORY_TEXT.unwritable(dir, "it is not a directory");
    if (typeof process.getuid === "function") {
      if (st.uid !== process.getuid()) return MEMORY_TEXT.unwritable(dir, `it belongs to another user (uid ${st.uid})`);
      if (st.mode & 0o077) chmodSync(dir, 0o700);
    }
    return undefined;
  } catch (error) {
    return MEMORY_TEXT.unwritable(dir, (error as Error).message);
  }
}

type Paths = ReturnType<typeof memoryPaths>;

/** What was just written is what the next question reads: cached with the file's new stat (no
 * other pi writes while the lock is held), so an answer given costs no second parse. */
function cacheWritten(paths: Paths, loaded: Loaded): void {
  const stamp = stampOf(paths.jsonl);
  if (stamp !== undefined) cache.set(paths.jsonl, { stamp, loaded });
}

/** Writes both files whole from `entries` (under the lock), the file compacted: one line per
 * question, the lines that are not entries kept. The JSONL first, the file the tool reads. */
function writeBoth(paths: Paths, entries: readonly MemoryEntry[], others: readonly string[]): string | undefined {
  const lines = [...others, ...entries.map((e) => JSON.stringify(e))].join("\n");
  // never a file the next read would refuse (and with it everything remembered): this answer is
  // not remembered instead, and the file stays as it was
  const most = addon().limits.memoryFileBytes;
  if (Buffer.byteLength(lines, "utf8") + 1 > most)
    return MEMORY_TEXT.unwritable(paths.jsonl, `it would be more than the ${most} bytes read`);
  const why = writeInProject(paths.dir, paths.jsonl, lines ? `${lines}\n` : "", MEMORY_TEXT);
  if (why) return why;
  const byKey = new Map<string, MemoryEntry>();
  for (const e of entries) keep(byKey, e);
  cacheWritten(paths, { byKey, others: [...others], lines: entries.length });
  return writeInProject(paths.dir, paths.md, notesText([...byKey.values()], paths.project), MEMORY_TEXT);
}

/** Whether the file is rewritten at this answer instead of appended to: it holds more replaced
 * answers than live ones (and enough to matter), so it never grows past about twice what it
 * remembers. */
function compactNow(loaded: Loaded, fresh: readonly MemoryEntry[]): boolean {
  const keys = new Set(fresh.map((e) => e.key));
  let live = loaded.byKey.size;
  for (const key of keys) if (!loaded.byKey.has(key)) live++;
  const replaced = loaded.lines + fresh.length - live;
  return replaced > addon().limits.memoryCompactSlack && replaced > live;
}

/** Adds the person's new entries (under the lock): appended to both files — an answer costs the
 * same however many are remembered — or both written whole (compacted) when the file is due a
 * compaction, is not there yet, has a second name, or would grow past the bytes a read takes. */
function addEntries(paths: Paths, loaded: Loaded, fresh: readonly MemoryEntry[]): string | undefined {
  const all = (): MemoryEntry[] => {
    const byKey = new Map(loaded.byKey);
    for (const e of fresh) keep(byKey, e);
    return [...byKey.values()];
  };
  if (compactNow(loaded, fresh)) return writeBoth(paths, all(), loaded.others);
  // past the bytes a read takes, it is compacted instead: never a file the next read refuses
  const appended = appendInProject(
    paths.dir,
    paths.jsonl,
    fresh.map((e) => `${JSON.stringify(e)}\n`).join(""),
    MEMORY_TEXT,
    addon().limits.memoryFileBytes,
  );
  if (appended && "whole" in appended) return writeBoth(paths, all(), loaded.others);
  if (appended) return appended.why;
  // The cached entries are this file's: updated in place (a copy would cost what appending saves).
  for (const e of fresh) keep(loaded.byKey, e);
  loaded.lines += fresh.length;
  cacheWritten(paths, loaded);
  const notes = appendInProject(paths.dir, paths.md, fresh.map(notesSection).join(""), MEMORY_TEXT);
  if (notes && "whole" in notes)
    return writeInProject(paths.dir, paths.md, notesText([...loaded.byKey.values()], paths.project), MEMORY_TEXT);
  return notes?.why;
}

/** Runs `update` on the loaded file under its lock (pending.ts's, in the person's directory). */
async function underLock<T>(paths: Paths, update: (loaded: Loaded) => T): Promise<T | { why: string }> {
  const why = ownDirectory(paths.dir);
  if (why) return { why };
  const done = await withPendingLock(paths.dir, paths.jsonl, () => ({ value: update(load(paths.jsonl).loaded) }), undefined, MEMORY_TEXT);
  return "why" in done ? { why: done.why } : done.value;
}

/** Remembers the person's answers of a result for the project `cwd` (nothing when they are not the
 * person's: isPersonsAnswer). Returns why they were not written, if they were not. */
export async function rememberAnswers(cwd: string, details: QuestionDetails, by: string, now = new Date()): Promise<string | undefined> {
  if (!isPersonsAnswer(details)) return undefined;
  if (!existsSync(cwd)) return undefined; // no project directory: no project to remember for
  const paths = memoryPaths(cwd);
  const fresh: MemoryEntry[] = [];
  for (const a of details.answers) {
    const q = details.questions.find((x) => x.id === a.id);
    const entry = q && entryOf(q, a, by, now, paths.project);
    if (entry) fresh.push(entry);
  }
  if (!fresh.length) return undefined;
  const done = await underLock(paths, (loaded) => {
    if (loaded.refused) return loaded.refused; // never written over: the person's file stays as it is
    return addEntries(paths, loaded, fresh);
  });
  return typeof done === "object" ? done.why : done;
}

/** What a question opens with when the person remembers an answer to it. */
export interface Remembered {
  /** The answer for qt_engine_remember: `{ [id]: { selected, wrote } }`, labels as asked now. */
  answersJson: string;
  /** "Answered on 21 Nov: SQLite — Enter keeps it", in the person's language: made from
   * answersJson, so it names exactly what Enter submits. */
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
    const key = `${language}\0${sameYear}`;
    let format = dateFormats.get(key);
    if (!format) {
      format = new Intl.DateTimeFormat(language === "en" ? "en-GB" : language, {
        day: "numeric",
        month: "short",
        ...(sameYear ? {} : { year: "numeric" }),
      });
      if (dateFormats.size >= 16) dateFormats.clear(); // a language or two per pi: bounded
      dateFormats.set(key, format);
    }
    return format.format(d);
  } catch {
    return at.slice(0, 10);
  }
}
/** personDate's formats, made once each: making one cost a question with a remembered answer
 * 0.13-0.18 ms, formatting with one 2 µs. */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The date the model reads, always English: "21 Nov 2026". */
export function modelDate(at: string): string {
  return new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(at));
}

/** The most characters of a remembered answer the line shows (the field or the ticks hold it all). */
const LINE_CHARS = 60;

/** The remembered answer of question `q` (`entry`: the newest with its key), as it opens now;
 * undefined when none, or when an option it chose is no longer among the question's options. */
export function rememberedFor(q: NormalizedQuestion, entry: MemoryEntry | undefined, language: string): Remembered | undefined {
  if (!entry || entry.key !== normalizedKey(q) || q.secret) return undefined;
  const selected: string[] = [];
  for (const label of entry.answer.selected ?? []) {
    const now = (q.options ?? []).map(optionLabel).find((o) => normalizedOption(o) === normalizedOption(label));
    if (now === undefined) return undefined;
    if (!selected.includes(now)) selected.push(now);
  }
  const wrote = typeof entry.answer.wrote === "string" && entry.answer.wrote.trim() ? entry.answer.wrote : undefined;
  if (!selected.length && !wrote) return undefined;
  if (!q.options && !wrote) return undefined;
  if (!q.multiSelect && selected.length + (wrote ? 1 : 0) !== 1) return undefined; // a hand edit: one thing, or none
  const answersJson = JSON.stringify({ [q.id]: { ...(selected.length ? { selected } : {}), ...(wrote ? { wrote } : {}) } });
  // What Enter submits, said from the answer given to the engine: the options as asked now, in
  // their order, then the typed text, marked as typed.
  const t = strings();
  const chosen = (q.options ?? [])
    .map(optionLabel)
    .filter((o) => selected.includes(o))
    .map(oneLine);
  const typed = wrote ? [fill(t.MEMORY_TYPED, { s: cut(wrote, LINE_CHARS / 2) })] : [];
  const line = fill(
    t.MEMORY_EARLIER.replace("{d}", () => personDate(entry.at, language)),
    { s: cut(chosen.join(", "), LINE_CHARS) + (chosen.length && typed.length ? ", " : "") + typed.join("") },
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
      const text = normalizedText(`${entry.prompt}\n${answerText(entry)}\n${entry.note ?? ""}`);
      return wanted.every((w) => text.includes(w));
    });
}

/** Forgets entry number `n` of the history (1: the newest) from both files. Returns the entry
 * forgotten, undefined when there is no such number, or why the files could not be written. */
export async function forgetAnswer(cwd: string, n: number, id?: string): Promise<MemoryEntry | undefined | { why: string }> {
  const paths = memoryPaths(cwd);
  if (!existsSync(paths.jsonl)) return undefined;
  return underLock(paths, ({ byKey, others, refused }): MemoryEntry | undefined | { why: string } => {
    if (refused) return { why: refused };
    const entries = [...byKey.values()];
    const at = entries.length - n; // newest first: number 1 is the last line
    const gone = id ? entries.find((e) => e.id === id) : at >= 0 && at < entries.length ? entries[at] : undefined;
    if (!gone) return undefined;
    const why = writeBoth(
      paths,
      entries.filter((e) => e !== gone),
      others,
    );
    return why ? { why } : gone;
  });
}

/** A remembered entry on one line of /questions history: "3. 21 Nov · Which database? → SQLite". */
export function historyLine(n: number, entry: MemoryEntry, language: string): string {
  const by = entry.by === "pi" ? "" : ` (${oneLine(entry.by)})`;
  return `${n}. ${personDate(entry.at, language)} · ${oneLine(entry.prompt)} → ${oneLine(answerText(entry))}${entry.note ? ` · ${oneLine(entry.note)}` : ""}${by}`;
}

/** The answer's remembered entries of the questions asked now, one per question (undefined: none).
 * One stat when the file has not changed since it was read, then one Map lookup per question. A
 * refused file is said to `warn` once per change, and nothing opens remembered. */
export function rememberedAll(
  cwd: string,
  questions: readonly NormalizedQuestion[],
  language: string,
  warn?: (message: string) => void,
): Array<Remembered | undefined> {
  const { loaded, untold, told } = load(memoryPaths(cwd).jsonl);
  if (untold && warn) {
    told();
    warn(loaded.refused as string);
  }
  if (!loaded.byKey.size) return questions.map(() => undefined);
  return questions.map((q) => {
    try {
      return rememberedFor(q, loaded.byKey.get(normalizedKey(q)), language);
    } catch {
      return undefined; // nothing this version can open: the question opens plain
    }
  });
}
