// external-editor.ts — Ctrl+G in pi's TUI: $VISUAL / $EDITOR on the draft in a temporary file
// (mode 0600, in a directory of mode 0700, both removed afterwards), run the way pi's own editor
// runs it (through the shell, so the command may carry arguments). On Windows the command runs
// through cmd.exe and, when neither variable is set, Notepad opens the file (a Windows machine
// always has it; both are named by their full path in System32; modes are not enforced there,
// the temporary directory lies in the user's profile). The caller stops pi's terminal around it.
// Nothing is lost: a missing editor, one that cannot start or exits non-zero gives a short
// reason and the draft stays.
//
// A draft may hold a password. pi killed while the editor is open (SIGKILL, a closed terminal)
// cannot remove it, so its name carries the process's pid (pi-question-draft-<pid>-…, the same
// for the terminal runner's C path, native/os/*/external_edit.c) and every later Ctrl+G first
// removes the drafts of this user whose process is gone (sweepStaleDrafts).
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, win32 } from "node:path";
import { fill } from "../text/i18n.ts";

export type EditorOutcome = { ok: true; text: string } | { ok: false; why: string };

/** The strings a reason is made of (the addon's string table in the person's language). */
export type EditorStrings = Readonly<Record<string, string>>;

/** The variable cmd.exe reads the file's name from: expanded inside double quotes, the name's
 * characters (& ^ % and the like) are never parsed as cmd syntax. */
const FILE_VARIABLE = "PI_QUESTION_EDIT_FILE";

/** How the editor is started on `platform` for `file`: the program, its arguments and options;
 * undefined when there is no editor to run (POSIX without $VISUAL / $EDITOR). */
export function editorInvocation(
  env: NodeJS.ProcessEnv,
  file: string,
  platform: string = process.platform,
): { program: string; args: string[]; options: SpawnSyncOptions; command: string } | undefined {
  const command = env.VISUAL || env.EDITOR;
  if (platform === "win32") {
    // Absolute paths: Windows looks for a bare program name in the current directory (the
    // project, maybe an untrusted clone) before System32. An empty variable counts as unset
    // (it would make the path relative again).
    const system32 = win32.join(env.SystemRoot || env.windir || "C:\\Windows", "System32");
    // Notepad started directly: spawnSync waits for it to close (through cmd it might not).
    if (!command) return { program: win32.join(system32, "notepad.exe"), args: [file], options: { env }, command: "notepad" };
    // As Node's shell option does it (cmd /d /s /c "<line>", verbatim), the file in quotes; /v:off
    // so a ! in the file's name is never expanded, and cmd does not look for the editor's program
    // in the current directory either.
    return {
      program: env.ComSpec || win32.join(system32, "cmd.exe"),
      args: ["/d", "/v:off", "/s", "/c", `"${command} "%${FILE_VARIABLE}%""`],
      options: { env: { ...env, [FILE_VARIABLE]: file, NoDefaultCurrentDirectoryInExePath: "1" }, windowsVerbatimArguments: true },
      command,
    };
  }
  if (!command) return undefined;
  return { program: "/bin/sh", args: ["-c", `${command} "$1"`, "sh", file], options: { env }, command };
}

/** A draft's name in the temporary folder: the owning process's pid, then random characters. */
export const DRAFT_PREFIX = "pi-question-draft-";
const DRAFT_NAME = /^pi-question-draft-(\d+)-/;

/** Whether process `pid` is running (as any user: EPERM says it exists). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes the drafts in `dir` left by processes that are gone (killed while their editor was
 * open): only this user's own (on POSIX; Windows keeps each user's temporary folder private),
 * never one of a running process, never through a link (lstat; a link is removed itself). Returns
 * the names removed. Errors are ignored: the sweep must never stop the editor. */
export function sweepStaleDrafts(dir: string = tmpdir()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  const uid = typeof process.geteuid === "function" ? process.geteuid() : undefined;
  for (const name of names) {
    const m = DRAFT_NAME.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || alive(pid)) continue;
    try {
      const st = lstatSync(join(dir, name));
      if (uid !== undefined && st.uid !== uid) continue;
      rmSync(join(dir, name), { recursive: true, force: true });
      removed.push(name);
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}

/** The exit status a shell gives a command it could not find: sh's 127, cmd.exe's 9009. */
const NOT_FOUND = new Set([127, 9009]);

export function runExternalEditor(draft: string, t: EditorStrings, env: NodeJS.ProcessEnv = process.env): EditorOutcome {
  if (!editorInvocation(env, "")) return { ok: false, why: t.EDITOR_NOT_SET };
  let dir: string | undefined;
  try {
    sweepStaleDrafts();
    dir = mkdtempSync(join(tmpdir(), `${DRAFT_PREFIX}${process.pid}-`));
    const file = join(dir, "answer.md");
    const how = editorInvocation(env, file)!;
    writeFileSync(file, draft, { encoding: "utf8", mode: 0o600, flag: "wx" });
    const run = spawnSync(how.program, how.args, { ...how.options, stdio: "inherit" });
    if (run.error) return { ok: false, why: fill(t.EDITOR_NOT_STARTED, { s: run.error.message }) };
    if (run.status !== null && NOT_FOUND.has(run.status)) return { ok: false, why: fill(t.EDITOR_NOT_STARTED, { s: how.command }) };
    if (run.status !== 0) return { ok: false, why: fill(t.EDITOR_EXIT, { n: run.status ?? 128 }) };
    return { ok: true, text: readFileSync(file, "utf8") };
  } catch (error) {
    return { ok: false, why: fill(t.EDITOR_NOT_STARTED, { s: (error as Error).message }) };
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
