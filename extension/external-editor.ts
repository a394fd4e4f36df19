// external-editor.ts — Ctrl+G in pi's TUI (issue 14 item 6): $VISUAL / $EDITOR on the draft in a
// temporary file (mode 0600, in a directory of mode 0700, both removed afterwards), run the way
// pi's own editor runs it. The caller stops pi's terminal around it. Nothing is lost: a missing
// editor, one that cannot start or exits non-zero gives a short reason and the draft stays.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fill } from "./i18n.ts";

export type EditorOutcome = { ok: true; text: string } | { ok: false; why: string };

/** The strings a reason is made of (the addon's string table in the person's language). */
export type EditorStrings = Readonly<Record<string, string>>;

export function runExternalEditor(draft: string, t: EditorStrings, env: NodeJS.ProcessEnv = process.env): EditorOutcome {
  const command = env.VISUAL || env.EDITOR;
  if (!command) return { ok: false, why: t.EDITOR_NOT_SET };
  let dir: string | undefined;
  try {
    dir = mkdtempSync(join(tmpdir(), "pi-question-"));
    const file = join(dir, "answer.md");
    writeFileSync(file, draft, { encoding: "utf8", mode: 0o600, flag: "wx" });
    // Through the shell like pi does with "code --wait": the command may carry arguments.
    const run = spawnSync("/bin/sh", ["-c", `${command} "$1"`, "sh", file], { stdio: "inherit", env });
    if (run.error) return { ok: false, why: fill(t.EDITOR_NOT_STARTED, { s: run.error.message }) };
    if (run.status === 127) return { ok: false, why: fill(t.EDITOR_NOT_STARTED, { s: command }) };
    if (run.status !== 0) return { ok: false, why: fill(t.EDITOR_EXIT, { n: run.status ?? 128 }) };
    return { ok: true, text: readFileSync(file, "utf8") };
  } catch (error) {
    return { ok: false, why: fill(t.EDITOR_NOT_STARTED, { s: (error as Error).message }) };
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
