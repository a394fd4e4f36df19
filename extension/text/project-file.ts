// project-file.ts — reading a file that a project (whoever made the repository) or the person
// keeps, as hostile input: a project's file only on its real path inside the project (never
// through a symbolic link out of it, to /dev/zero say), only a regular file (never a FIFO that
// blocks or a device that never ends), opened without following a link swapped in since the
// check, and read up to a bound (qt_limits.h: settingsFileBytes, pendingFileBytes,
// memoryFileBytes) even when it grows while read. What is refused says why, for a warning that
// names the file and what to do; nothing here throws, hangs or allocates past the bound.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** The real path of an existing path. On Windows the system's own (GetFinalPathNameByHandle):
 * it resolves junctions, mount points and substituted drives as well as symbolic links, so none
 * of them leads the pending file out of the project. */
const realPath = process.platform === "win32" ? realpathSync.native : realpathSync;

/** The real path `path` names: the real path of its deepest existing ancestor plus the rest.
 * A string: why it cannot be decided (a broken symbolic link, a file where a directory must
 * be, an unreadable directory). */
function realTarget(path: string): { real: string; exists: boolean } | string {
  const rest: string[] = [];
  let head = path;
  for (;;) {
    try {
      const real = realPath(head);
      if (rest.length && !statSync(real).isDirectory()) return `goes through ${real}, which is a file, not a directory`;
      return { real: join(real, ...rest.reverse()), exists: rest.length === 0 };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") return `cannot be checked (${(error as Error).message})`;
      let entry = false;
      try {
        entry = lstatSync(head).isSymbolicLink();
      } catch {
        // no entry at all: look at its parent
      }
      if (entry) return `is or goes through the broken symbolic link ${head}`;
      const parent = dirname(head);
      if (parent === head) return `cannot be checked (${(error as Error).message})`;
      rest.push(basename(head));
      head = parent;
    }
  }
}

/** Where `path` (relative to the project `cwd`, or absolute) really leads at this moment, symbolic
 * links resolved: its real path when that lies inside the project's real directory (and is not
 * the directory itself), else why not. Called when the setting is read and again at every write
 * or removal of the pending file (pending.ts), since links can change in between. */
export function placeInProject(cwd: string, path: string): { real: string; exists: boolean } | string {
  let root: string;
  try {
    root = realPath(cwd);
  } catch {
    root = resolve(cwd);
  }
  const lexical = resolve(cwd, path);
  const target = realTarget(lexical);
  if (typeof target === "string") return target;
  const rel = relative(root, target.real);
  if (rel === "") return "names the project directory itself, not a file in it";
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    const inside = relative(resolve(cwd), lexical);
    const viaLink = inside !== "" && inside !== ".." && !inside.startsWith(`..${sep}`);
    return viaLink
      ? `leads outside the project through a symbolic link (to ${target.real})`
      : `leads outside the project (to ${target.real})`;
  }
  return target;
}

/** A file read: its text, missing (no file: the default applies silently), or refused (why, in
 * words that follow the file's path: "is a FIFO, not a regular file"). */
/** `changedAtMs`: when the file last changed as it was opened — its modification or its status
 * change, whichever is later (a status change cannot be set back, as `touch -d` sets mtime). */
export type FileRead = { text: string; changedAtMs: number } | { missing: true } | { refused: string };

export interface ReadRules {
  /** The most bytes read; a larger file is refused. */
  maxBytes: number;
  /** The project's directory: the file's real path must lie inside it (links resolved). */
  root?: string;
  /** Refuse a file another user owns (POSIX): what someone else wrote never counts as ours. */
  ownedByMe?: boolean;
}

/** The kind of a file that is not a regular one, as a warning names it. */
function kindOf(st: import("node:fs").Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isSocket()) return "a socket";
  if (st.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

/** Flags that open without blocking (a FIFO opens at once, then fstat refuses it) and without
 * following a link at the last step (one swapped in after the real path was decided). Windows
 * has neither: its reparse points are resolved by placeInProject's real path. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/** Whether anything is at `path` itself: a file, or a link even when broken or looping (which
 * is refused with a warning, not taken for a missing file). */
function entryAt(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code !== "ENOENT" && code !== "ENOTDIR";
  }
}

/** Reads `path` by `rules`; never throws. */
export function readBoundedFile(path: string, rules: ReadRules): FileRead {
  let real = path;
  if (rules.root !== undefined) {
    const place = placeInProject(rules.root, path);
    // Nothing there (a .pi linked out of the project without this file, a broken link): nothing
    // to read, as for a missing file; something there on the wrong side is refused.
    if (typeof place === "string") return entryAt(path) ? { refused: place } : { missing: true };
    if (!place.exists) return { missing: true };
    real = place.real;
  }
  let fd: number;
  try {
    // A project's file was resolved to its real path above: a link there now was swapped in
    // since. The person's own file (no root) may be a link (dotfiles: stow, home-manager).
    fd = openSync(real, rules.root !== undefined ? OPEN_FLAGS | NO_FOLLOW : OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { missing: true };
    if (code === "ELOOP") return { refused: "is a symbolic link (it was replaced while being checked)" };
    return { refused: `cannot be opened (${(error as Error).message})` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { refused: `is ${kindOf(st)}, not a regular file` };
    if (rules.ownedByMe && typeof process.getuid === "function" && st.uid !== process.getuid()) {
      return { refused: `belongs to another user (uid ${st.uid}), not to you (uid ${process.getuid()})` };
    }
    if (st.size > rules.maxBytes) return { refused: `is ${st.size} bytes, more than the ${rules.maxBytes} read` };
    // At most maxBytes + 1, whatever the file does meanwhile: one more says it grew past the bound.
    let buffer = Buffer.allocUnsafe(Math.min(rules.maxBytes + 1, st.size + 4096));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        const larger = Buffer.allocUnsafe(Math.min(rules.maxBytes + 1, buffer.length * 2));
        buffer.copy(larger, 0, 0, length);
        buffer = larger;
      }
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > rules.maxBytes) return { refused: `grew past ${rules.maxBytes} bytes while being read` };
    }
    return { text: buffer.toString("utf8", 0, length), changedAtMs: Math.max(st.mtimeMs, st.ctimeMs) };
  } catch (error) {
    return { refused: `cannot be read (${(error as Error).message})` };
  } finally {
    try {
      closeSync(fd);
    } catch {
      // closed is closed
    }
  }
}
