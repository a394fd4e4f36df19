// session.ts — which pi session this is, as the relay's listing and the page tell a person (a
// person with three pis open must know which one is asking): its name, id and file as far as
// the running pi knows them, and the project directory, the home directory shown as "~".
import { basename } from "node:path";
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { sessionLabel, shortDirectory } from "./relay-wire.mjs";

export interface SessionOf {
  name?: string;
  id?: string;
  file?: string;
}

/** The session's name, id and file, as far as this pi knows them. */
export function sessionOf(pi: ExtensionAPI, ctx: ExtensionContext | undefined): SessionOf {
  const out: SessionOf = {};
  const name = pi.getSessionName();
  if (name) out.name = name;
  const manager = ctx?.sessionManager as { getSessionId?: () => string; getSessionFile?: () => string | undefined } | undefined;
  try {
    const id = manager?.getSessionId?.();
    if (typeof id === "string" && id) out.id = id;
    const file = manager?.getSessionFile?.();
    if (typeof file === "string" && file) out.file = file;
  } catch {
    // an older pi without these: the name (or the pid) has to do
  }
  return out;
}

/** Where the questions of this pi come from, in words: the project's folder name, its path
 * (home as "~") and the session's label. Display text: the page puts it in as text. */
export function whereOf(pi: ExtensionAPI, ctx: ExtensionContext): { project: string; path: string; session: string } {
  const cwd = ctx.cwd;
  return { project: basename(cwd) || cwd, path: shortDirectory(cwd), session: sessionLabel(sessionOf(pi, ctx), process.pid) };
}
