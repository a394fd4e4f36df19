// secrets.ts — the person's secret answers (a question with `secret: true`): the C core never
// lets their text into the model's context, the transcript, the session file or remembered
// answers; it names a file instead (addon secretDir, marshal.c), and this file writes it. Where:
// one directory per session, only this user's — $XDG_RUNTIME_DIR/pi-question/<session> (memory,
// never disk, where the system has one) or ~/.pi/agent/question-secrets/<session> — never inside
// the project; each file mode 0600, created new (never through a link). Removed when the session
// ends, unless the person keeps them (`/questions secrets keep`).
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative } from "node:path";
import { addon } from "../addon.ts";

/** A secret answer as the result builder hands it over: where it goes and what it is. */
export interface SecretFile {
  id: string;
  path: string;
  text: string;
}

/** The session's directory, once named (secretDir was given it), and whether it stays: one for
 * the process (the addon's secretDir is), whichever copy of this module a loader made. */
const SLOT = Symbol.for("pi-question.secrets");
const state = ((globalThis as Record<symbol, unknown>)[SLOT] ??= {}) as {
  current?: { dir: string; kept: boolean; carried?: boolean };
  swept?: string; // the directory whose orphans were swept last
};
/** A kept directory's mark: the sweep leaves it. */
const KEPT = ".kept";

/** A directory this user alone may use: ours, a real directory (not a link), nobody else's
 * permissions; a fresh one made so. Throws saying what is wrong. */
function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (!st.isDirectory()) throw new Error(`${dir} is not a directory (a link?)`);
  if (process.platform === "win32") return; // the user's profile: only theirs by its ACL
  if (typeof process.getuid === "function" && st.uid !== process.getuid()) throw new Error(`${dir} belongs to another user`);
  if (st.mode & 0o077) chmodSync(dir, 0o700);
}

/** $XDG_RUNTIME_DIR as the system makes it: an absolute path to a directory of this user's. */
function ownRuntimeDir(run: string): boolean {
  try {
    const st = lstatSync(run);
    return isAbsolute(run) && st.isDirectory() && (typeof process.getuid !== "function" || st.uid === process.getuid());
  } catch {
    return false;
  }
}

/** Where this session's secret answers go, outside `cwd` (the project); undefined when every
 * candidate is inside it. */
export function secretDirFor(cwd: string, sessionId: string | undefined): string | undefined {
  const run = process.env.XDG_RUNTIME_DIR;
  const bases = [run && ownRuntimeDir(run) ? join(run, "pi-question") : undefined, join(homedir(), ".pi", "agent", "question-secrets")];
  // the pid in the name: a directory whose pi is gone (it crashed) is swept (sweepOrphans)
  const name = `${(sessionId ?? "session").replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64)}-p${process.pid}-${randomBytes(4).toString("hex")}`;
  for (const base of bases) {
    if (!base) continue;
    const rel = relative(cwd, base);
    if (rel === "" || (!rel.startsWith("..") && !isAbsolute(rel))) continue; // inside the project
    return join(base, name);
  }
  return undefined;
}

/** A session starts: its secret answers go to the directory `dir()` names (undefined: nowhere,
 * and one is dropped, said as such) — or, after a reload or a fork of this one, where they went. */
export function startSecrets(dir: () => string | undefined): void {
  if (state.current?.carried) {
    state.current.carried = false;
    addon().secretDir(state.current.dir);
    return;
  }
  const named = dir();
  state.current = named ? { dir: named, kept: false } : undefined;
  addon().secretDir(named ?? null);
}

/** Removes the secret directories of pis that are gone (a crash, a kill) beside `dir`, unless kept:
 * once per place, at its first secret. */
function sweepOrphans(dir: string): void {
  const base = dirname(dir);
  if (state.swept === base) return;
  state.swept = base;
  let names: string[] = [];
  try {
    names = readdirSync(base);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/-p(\d+)-[0-9a-f]+$/.exec(name)?.[1]);
    if (!pid || pid === process.pid || alive(pid) || existsSync(join(base, name, KEPT))) continue;
    rmSync(join(base, name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // another user's: not ours to judge
  }
}

/** Writes the secret answers of a result; the ids of those that could not be written, with why. */
export function writeSecrets(files: readonly SecretFile[]): Map<string, string> {
  const failed = new Map<string, string>();
  for (const f of files) {
    try {
      if (!state.current || dirname(f.path) !== state.current.dir) throw new Error("no place for secrets in this session");
      privateDir(state.current.dir);
      sweepOrphans(state.current.dir);
      const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
      const fd = openSync(f.path, flags, 0o600);
      try {
        writeSync(fd, f.text);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      failed.set(f.id, error instanceof Error ? error.message : String(error));
      rmSync(f.path, { force: true });
    }
  }
  return failed;
}

/** The files this session handed over so far. */
export function secretFiles(): string[] {
  const dir = state.current?.dir;
  if (!dir) return [];
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith(".secret"))
      .sort()
      .map((n) => join(dir, n));
  } catch {
    return [];
  }
}

/** The person keeps this session's files after it ends (marked, so no sweep takes them). */
export function keepSecrets(): string | undefined {
  if (!state.current) return undefined;
  state.current.kept = true;
  try {
    privateDir(state.current.dir);
    writeFileSync(join(state.current.dir, KEPT), "");
  } catch {
    // said when a secret cannot be written there
  }
  return state.current.dir;
}

/** The session ends (`reason`: pi's, when it says one): its files are removed, unless kept; a
 * reload or a fork goes on with them, since the conversation that names them goes on. */
export function endSecrets(reason?: string): void {
  if (state.current && (reason === "reload" || reason === "fork")) {
    state.current.carried = true;
    return;
  }
  if (state.current && !state.current.kept) rmSync(state.current.dir, { recursive: true, force: true });
  state.current = undefined;
  try {
    addon().secretDir(null);
  } catch {
    // no addon: nothing was handed over
  }
}
