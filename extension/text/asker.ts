// asker.ts — how every screen names who asked a relayed question (a subagent, or a program that
// is no pi): one place, so pi's TUI, the terminal, the RPC dialogs, /questions, the page and
// `pi-question pending` say the same.
import { addon } from "../addon.ts";
import type { RelayAsker } from "../question-types.ts";
import { fill, strings } from "./i18n.ts";
import { shortDirectory } from "./paths.mjs";

/** `text` cut to at most `max` bytes of UTF-8, at a character boundary (as the engine cuts it). */
function cutToBytes(text: string, max: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= max) return text;
  let n = max;
  while (n > 0 && (bytes[n] & 0xc0) === 0x80) n--;
  return bytes.subarray(0, n).toString("utf8");
}

/** How every screen names a relayed question's asker — pi's TUI, the terminal, RPC dialog titles,
 * /questions, the web page, `pi-question pending`: its name, else where it runs, each cut to
 * limits.askerBytes (the child chooses both; they are sanitized where shown). The one place. */
export function askerParts(from: RelayAsker, maxBytes: number = addon().limits.askerBytes): { name: string | null; where: string | null } {
  // no pi (relay.ts, peer.ts): named by the kernel's command line and pid, as such
  if (from.process) return { name: cutToBytes(fill(strings().ASKED_BY_PROCESS, { s: from.process }), maxBytes), where: null };
  if (from.name) return { name: cutToBytes(from.name, maxBytes), where: null };
  return { name: null, where: cutToBytes(from.cwd ? shortDirectory(from.cwd) : `pid ${from.pid ?? "?"}`, maxBytes) };
}
