// paths.mjs — a path as a person reads it: the home folder as "~". Plain JavaScript: the relay's
// wire (relay-wire.mjs) and the pi-question command use it without a TypeScript loader.
import { homedir } from "node:os";

/** `dir` with the home directory shown as "~". On Windows either separator follows it and case
 * does not matter (C:\Users\Me is c:\users\me there). */
export function shortDirectory(dir, home = homedir(), platform = process.platform) {
  if (!home) return dir;
  if (platform !== "win32") return dir === home || dir.startsWith(home + "/") ? "~" + dir.slice(home.length) : dir;
  const base = home.replace(/[\\/]+$/, "");
  const head = dir.slice(0, base.length).toLowerCase();
  const next = dir[base.length];
  return head === base.toLowerCase() && (next === undefined || next === "\\" || next === "/") ? "~" + dir.slice(base.length) : dir;
}
