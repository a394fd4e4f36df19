// pending.ts — answering without a terminal (CI, cron, pipes): the questions go to a pending
// file a person edits (or answers come through the --answers flag), and the next call with the
// same questions picks the answers up. The file is written atomically (temporary file, then
// rename) and never loses answers a person already wrote in it. Several pi processes may share
// it (parallel CI jobs, subagents): every read-modify-write holds an exclusive lock on the lock
// file beside it (flock through the addon; the kernel drops it if the holder dies), so no
// update overwrites another; readers need no lock (a rename is atomic).
// Every write or removal (the file, its temporary file, its lock file, the directories made for
// them) first resolves the real path at that moment and refuses one outside the project: a
// cloned repository may commit `.pi` as a symbolic link to anywhere, and a link may be swapped
// in after the settings were read. The work is then done on the real path.
// The file is read as hostile input (project-file.ts): a regular file inside the project, owned by
// this user, bounded (limits.pendingFileBytes); a file refused is reported and never overwritten.
// Its answers count only in a set this person's pi wrote: each set carries a seal (an HMAC with a
// key kept in the person's own ~/.pi/agent, see seal below), so a file shipped in a repository
// with answers filled in answers nothing.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  linkSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { addon } from "../addon.ts";
import { type NormalizedQuestion, optionLabel, optionValue } from "../question-types.ts";
import { placeInProject, readBoundedFile } from "../text/project-file.ts";
import { PENDING } from "../text/text.ts";

export const PENDING_FILE = join(".pi", "pending-questions.json");

export interface PendingQuestion {
  id: string;
  prompt: string;
  options?: string[];
  multiSelect?: boolean;
  /** What the person writes: an option's label or value, their own words, or (multiSelect) a list. */
  answer: string | number | Array<string | number> | null;
}

export interface PendingSet {
  key: string;
  askedAt: string;
  questions: PendingQuestion[];
  /** This person's pi wrote the set: HMAC-SHA256 (hex) of the set without its answers, keyed
   * with the key in ~/.pi/agent (sealKeyPath). Absent or wrong: the set's answers never count. */
  seal?: string;
}

export interface PendingFile {
  instructions: string;
  pending: PendingSet[];
}

/** A stable key for "the same questions": ids, prompts and option values. */
export function questionsKey(questions: NormalizedQuestion[]): string {
  const essence = questions.map((q) => [q.id, q.prompt, (q.options ?? []).map(optionValue), !!q.multiSelect]);
  return createHash("sha256").update(JSON.stringify(essence)).digest("hex").slice(0, 16);
}

export function pendingPath(cwd: string, file = PENDING_FILE): string {
  return join(cwd, file);
}

/** Why a set from the file cannot be used, or undefined when it is well-formed. */
function badSet(set: unknown, index: number): string | undefined {
  const where = `pending[${index}]`;
  if (!set || typeof set !== "object") return `${where} is not an object`;
  const s = set as Partial<PendingSet>;
  if (typeof s.key !== "string") return `${where}.key is not a string`;
  if (!Array.isArray(s.questions)) return `${where}.questions is not a list`;
  for (const [k, q] of s.questions.entries()) {
    if (!q || typeof q !== "object" || typeof (q as PendingQuestion).id !== "string") return `${where}.questions[${k}] has no string "id"`;
  }
  return undefined;
}

/** Reads the pending file of the project `root` as hostile input (project-file.ts): a missing
 * file is empty; a refused or unreadable one is reported (`refused`: it is not a file pi-question
 * may rewrite — a FIFO, a link out of the project, another user's — so nothing writes over it). */
export function readPending(path: string, root: string): { file: PendingFile; error?: string; refused?: boolean; changedAtMs?: number } {
  const empty: PendingFile = { instructions: PENDING.fileInstructions, pending: [] };
  const read = readBoundedFile(path, { maxBytes: addon().limits.pendingFileBytes, root, ownedByMe: true });
  if ("missing" in read) return { file: empty };
  if ("refused" in read) return { file: empty, error: PENDING.refused(path, read.refused), refused: true };
  let parsed: Partial<PendingFile>;
  try {
    parsed = JSON.parse(read.text) as Partial<PendingFile>;
  } catch {
    return { file: empty, error: PENDING.unreadable(path, "is not valid JSON") };
  }
  if (!parsed || typeof parsed !== "object" || !Array.isArray(parsed.pending)) {
    return { file: empty, error: PENDING.unreadable(path, 'has no "pending" list') };
  }
  for (const [i, set] of parsed.pending.entries()) {
    const why = badSet(set, i);
    if (why) return { file: empty, error: PENDING.unreadable(path, why) };
  }
  return { file: { instructions: PENDING.fileInstructions, pending: parsed.pending }, changedAtMs: read.changedAtMs };
}

// ---- the seal: only sets this person's pi wrote answer ---------------------------------------

/** Where the seal key lives: the person's own directory, never the project's. */
export function sealKeyPath(home = homedir()): string {
  return join(home, ".pi", "agent", "pi-question.key");
}

const KEY_TEXT = /^[0-9a-f]{64}\n?$/;

/** The seal key (32 random bytes, hex), made on first use (mode 0600; on Windows the profile's
 * own permissions). A string: why there is none. */
export function sealKey(home = homedir()): Buffer | string {
  const path = sealKeyPath(home);
  for (let attempt = 0; attempt < 2; attempt++) {
    const read = readBoundedFile(path, { maxBytes: addon().limits.settingsFileBytes, ownedByMe: true });
    if ("text" in read) {
      if (KEY_TEXT.test(read.text)) return Buffer.from(read.text.slice(0, 64), "hex");
      return PENDING.badKey(path, "does not hold a key pi-question wrote");
    }
    if ("refused" in read) return PENDING.badKey(path, read.refused);
    // Missing: made whole beside it, then linked in place (two pis starting together agree on one).
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writeFileSync(tmp, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600, flag: "wx" });
      try {
        linkSync(tmp, path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") renameSync(tmp, path);
      }
    } catch (error) {
      return PENDING.badKey(path, `cannot be made (${(error as Error).message})`);
    } finally {
      rmSync(tmp, { force: true });
    }
  }
  return PENDING.badKey(path, "cannot be made");
}

/** The seal of a set: over its key, askedAt and questions without their answers. */
function sealOf(set: PendingSet, key: Buffer): string {
  const questions = set.questions.map((q) => [q.id, q.prompt, q.options ?? null, !!q.multiSelect]);
  return createHmac("sha256", key)
    .update(JSON.stringify(["pi-question pending set 1", set.key, set.askedAt, questions]))
    .digest("hex");
}

/** Why the set's answers may not be used (it names the set and the file), or undefined when this
 * person's pi wrote it. */
export function foreignSet(set: PendingSet, path: string, home = homedir()): string | undefined {
  const key = sealKey(home);
  if (typeof key === "string") return key;
  const want = Buffer.from(sealOf(set, key), "hex");
  const got = typeof set.seal === "string" && /^[0-9a-f]{64}$/.test(set.seal) ? Buffer.from(set.seal, "hex") : undefined;
  if (got && timingSafeEqual(got, want)) return undefined;
  return PENDING.foreign(path, String(set.askedAt));
}

/** What a file kept in the project says when it cannot be written: the pending file's words by
 * default; the memory of answers (memory.ts) has its own. */
export interface ProjectFileText {
  outside(path: string, why: string, root: string): string;
  unwritable(path: string, why: string): string;
  locked(path: string, waitedMs: number): string;
}

/** The real path `path` names now, when it lies inside the project `root`; `why` (naming the
 * path) otherwise. Resolved at each use, never trusted from an earlier check. */
export function placeNow(root: string, path: string, text: ProjectFileText = PENDING): { real: string } | { why: string } {
  const place = placeInProject(root, path);
  return typeof place === "string" ? { why: text.outside(path, place, root) } : { real: place.real };
}

/** placeNow, with the directory the file goes in made first (inside the project only) and the
 * place resolved again once it exists. */
function placeWithDirectory(root: string, path: string, text: ProjectFileText = PENDING): { real: string } | { why: string } {
  const before = placeNow(root, path, text);
  if ("why" in before) return before;
  try {
    mkdirSync(dirname(before.real), { recursive: true });
  } catch (error) {
    return { why: text.unwritable(path, (error as Error).message) };
  }
  return placeNow(root, path, text);
}

/** Writes `content` atomically (temporary file, then rename) on the real path of `path` inside
 * the project `root`; returns why it failed, if it did. */
export function writeInProject(root: string, path: string, content: string, text: ProjectFileText = PENDING): string | undefined {
  const place = placeWithDirectory(root, path, text);
  if ("why" in place) return place.why;
  const tmp = `${place.real}.${process.pid}.${Date.now()}.tmp`;
  try {
    // "wx": a fresh file, never through a link someone put at the temporary name.
    writeFileSync(tmp, content, { mode: 0o600, flag: "wx" });
    const again = placeNow(root, path, text);
    if ("why" in again) {
      rmSync(tmp, { force: true });
      return again.why;
    }
    renameSync(tmp, again.real);
    return undefined;
  } catch (error) {
    rmSync(tmp, { force: true });
    return text.unwritable(path, (error as Error).message);
  }
}

/** Appends `content` to the file at the real path of `path` inside `root` (O(1): the file is
 * never read or rewritten): opened without following a link, only when it is a regular file of
 * this user's with one name; a last line a crash left unfinished is ended first, so the new lines
 * stay lines of their own. `{ whole: true }` when the caller should write the file whole instead
 * (writeInProject): there is none yet; it has another name (a hard link an append would write
 * through, where a rename leaves the other name as it was); or it would grow past `maxBytes`.
 * `{ why }` when it could not be appended to. */
export function appendInProject(
  root: string,
  path: string,
  content: string,
  text: ProjectFileText = PENDING,
  maxBytes = Infinity,
): { whole: true } | { why: string } | undefined {
  const place = placeNow(root, path, text);
  if ("why" in place) return place;
  let fd: number | undefined;
  try {
    fd = openSync(place.real, constants.O_RDWR | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? { whole: true } : { why: text.unwritable(path, (error as Error).message) };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { why: text.unwritable(path, "it is not a regular file") };
    if (st.nlink > 1) return { whole: true };
    if (typeof process.getuid === "function" && st.uid !== process.getuid()) {
      return { why: text.unwritable(path, `it belongs to another user (uid ${st.uid})`) };
    }
    let lead = "";
    if (st.size > 0) {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, st.size - 1);
      if (last[0] !== 0x0a) lead = "\n";
    }
    const bytes = Buffer.from(lead + content, "utf8");
    if (st.size + bytes.length > maxBytes) return { whole: true };
    for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done);
    return undefined;
  } catch (error) {
    return { why: text.unwritable(path, (error as Error).message) };
  } finally {
    closeSync(fd);
  }
}

/** Writes the pending file atomically on its real path inside the project `root`; returns why it
 * failed, if it did. */
export function writePending(root: string, path: string, file: PendingFile): string | undefined {
  return writeInProject(root, path, JSON.stringify(file, null, 2) + "\n");
}

// ---- the lock: one read-modify-write at a time, across processes ----------------------------

/** The lock file of a pending file: beside it, removed with it. */
export function lockPath(path: string): string {
  return `${path}.lock`;
}

/**
 * Runs `update` holding the pending file's lock (beside the file's real path, inside the
 * project `root`; any file kept in the project the same way, with its own `text`). `update` returns its result and whether it removed the pending file (the
 * lock file then goes too). `why`: the lock could not be had, or the file leads outside.
 *
 * This runs on pi's main thread, so it never waits there: each attempt takes the lock without
 * waiting, and while another process holds it the next attempt comes on a timer
 * (limits.pendingLockRetryMs), until `waitMs` (limits.pendingLockGiveUpMs) has passed.
 */
export async function withPendingLock<T>(
  root: string,
  path: string,
  update: () => { value: T; removed?: boolean },
  waitMs = addon().limits.pendingLockGiveUpMs,
  text: ProjectFileText = PENDING,
): Promise<{ value: T } | { why: string }> {
  const native = addon();
  const giveUpAt = Date.now() + waitMs;
  let lock: { release(remove?: boolean): void } | undefined;
  while (!lock) {
    try {
      const place = placeWithDirectory(root, path, text);
      if ("why" in place) return place;
      lock = native.lockFile(lockPath(place.real), 0);
    } catch (error) {
      const e = error as { code?: string; message?: string };
      if (e.code !== "QT_ELOCKED") return { why: text.unwritable(path, e.message ?? String(error)) };
      const left = giveUpAt - Date.now();
      if (left <= 0) return { why: text.locked(path, waitMs) };
      await delay(Math.min(left, native.limits.pendingLockRetryMs));
    }
  }
  let removed = false;
  try {
    const out = update();
    removed = !!out.removed;
    return { value: out.value };
  } finally {
    lock.release(removed);
  }
}

/** Removes the pending file (its real path, inside the project `root`), for an update running
 * under its lock. */
function removeFile(root: string, path: string): { value: string | undefined; removed?: boolean } {
  const place = placeNow(root, path);
  if ("why" in place) return { value: place.why };
  try {
    rmSync(place.real, { force: true });
    return { value: undefined, removed: true };
  } catch (error) {
    return { value: PENDING.unwritable(path, (error as Error).message) };
  }
}

function hasAnswer(q: PendingQuestion): boolean {
  const given = (a: unknown) => (typeof a === "string" && a.trim() !== "") || typeof a === "number";
  if (q.answer === null || q.answer === undefined) return false;
  if (Array.isArray(q.answer)) return q.answer.some(given);
  return given(q.answer);
}

/** The answers a person wrote for this set, as `{ id: answer }`, once every question has one. */
export function completeAnswers(set: PendingSet): Record<string, string | string[]> | undefined {
  if (!set.questions.every(hasAnswer)) return undefined;
  const out: Record<string, string | string[]> = Object.create(null);
  for (const q of set.questions) out[q.id] = q.answer as string | string[];
  return out;
}

/** Turns the --answers flag into `{ id: answer }`: an object by id, or — only for questions
 * that are pending (a person saw them in order) — a list in question order. A string is the
 * reason the flag cannot be used. */
export function answersFromFlag(
  raw: unknown,
  questions: NormalizedQuestion[],
  pending: boolean,
): Record<string, unknown> | string | undefined {
  if (typeof raw !== "string" || raw.trim() === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return PENDING.flagNotJson;
  }
  if (Array.isArray(parsed)) {
    if (!pending) return PENDING.flagListNeedsPending;
    const out: Record<string, unknown> = Object.create(null);
    questions.forEach((q, i) => {
      if (i < parsed.length && parsed[i] !== null) out[q.id] = parsed[i];
    });
    return out;
  }
  if (parsed && typeof parsed === "object") return parsed as Record<string, unknown>;
  return PENDING.flagNotJson;
}

/** Adds (or keeps) the set for these questions, never touching answers already written.
 * Returns why the file could not be written, if it could not. */
export async function rememberPending(root: string, path: string, questions: NormalizedQuestion[]): Promise<PendingSet | string> {
  const done = await withPendingLock(root, path, () => ({ value: addSet(root, path, questions) }));
  return "why" in done ? done.why : done.value;
}

/** rememberPending's update, run under the lock. */
function addSet(root: string, path: string, questions: NormalizedQuestion[]): PendingSet | string {
  const { file, error } = readPending(path, root);
  if (error) return error;
  const key = questionsKey(questions);
  // Ours already: kept as it is (the person may be writing answers in it). A set with the same
  // key that this pi did not write stays untouched beside ours; it answers nothing.
  let set = file.pending.find((s) => s.key === key && !foreignSet(s, path));
  if (set) return set;
  set = {
    key,
    askedAt: new Date().toISOString(),
    questions: questions.map((q) => ({
      id: q.id,
      prompt: q.prompt,
      ...(q.options ? { options: q.options.map(optionLabel) } : {}),
      ...(q.multiSelect ? { multiSelect: true } : {}),
      answer: null,
    })),
  };
  const sealKeyNow = sealKey();
  // Without a key the set is still written (it shows what is asked); --answers answers it.
  if (typeof sealKeyNow !== "string") set.seal = sealOf(set, sealKeyNow);
  file.pending.push(set);
  return writePending(root, path, file) ?? set;
}

/** The answers the pending file held before this run began (first read of the run, per path:
 * run key → the answers' JSON), or none when it had been changed since. Answers written into
 * the file while the run goes on come from something running now — the agent's own commands,
 * most likely — never from a person answering between runs: they count only in a later run. */
const answeredBeforeRun = new Map<string, Map<string, string>>();
const runKey = (set: PendingSet) => `${set.key}\0${set.askedAt}`;

/** Takes, at the run's first read of the pending file at `path` (last changed at `changedAtMs`:
 * its modification or status change, whichever is later — a status change cannot be set back),
 * the answered sets it holds, if it was last changed before this process started; later calls
 * change nothing. Called at every read, whatever the question, so the run's own rewrites of the
 * file (an answered set removed, a new set saved) never come first. */
export function noteAnswersBeforeRun(path: string, file: { pending: PendingSet[] }, changedAtMs: number | undefined): void {
  if (answeredBeforeRun.has(path)) return;
  const before = new Map<string, string>();
  if (changedAtMs !== undefined && changedAtMs < performance.timeOrigin) {
    for (const s of file.pending) {
      const answers = completeAnswers(s);
      if (answers) before.set(runKey(s), JSON.stringify(answers));
    }
  }
  answeredBeforeRun.set(path, before);
}

/** Whether `set`'s answers (read from the file at `path`) were there, the same, before this run
 * began (noteAnswersBeforeRun took them). */
export function answeredBeforeThisRun(path: string, set: PendingSet): boolean {
  const answers = completeAnswers(set);
  return answers !== undefined && answeredBeforeRun.get(path)?.get(runKey(set)) === JSON.stringify(answers);
}

/** Removes one answered set; removes the file when nothing is left. Returns why the set is
 * still in the file, if it is (the questions were answered anyway: a stale entry is harmless
 * and shows in /questions). */
export async function forgetPending(root: string, path: string, key: string): Promise<string | undefined> {
  if (!existsSync(path)) return undefined;
  const done = await withPendingLock(root, path, () => {
    const { file, error } = readPending(path, root);
    if (error) return { value: error };
    const left = file.pending.filter((s) => s.key !== key);
    if (left.length === file.pending.length) return { value: undefined };
    if (left.length === 0) return removeFile(root, path);
    return { value: writePending(root, path, { ...file, pending: left }) };
  });
  return "why" in done ? done.why : done.value;
}

/** Removes the pending file (`/questions clear`) under its lock, so an update running now
 * ends first. Returns why it could not, if it could not. */
export async function clearPending(root: string, path: string): Promise<string | undefined> {
  if (!existsSync(path)) return undefined;
  const done = await withPendingLock(root, path, () => removeFile(root, path));
  return "why" in done ? done.why : done.value;
}

export function displayPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel.startsWith("..") ? path : rel;
}
