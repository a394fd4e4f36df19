// remote-text.mjs — what an answer sent from the test's own process (as `pi-question answer`
// sends it) reads as on this OS: where the OS says who connected (Linux, macOS: the socket's
// credentials; Windows: the relay pipe's client pid, extension/elsewhere/peer.ts), the person's
// answer (details.mode "remote", "user selected: …"); elsewhere (the BSDs) an answer pi could
// not verify (mode "unverified", the head of native/core/result/result.c, lines without "user").

/** Whether this OS tells the relay who connected (peer.ts processTree). */
export const PEER_KNOWN = process.platform === "linux" || process.platform === "darwin" || process.platform === "win32";

/** details.mode of an answer given with `pi-question answer` here. */
export const REMOTE_MODE = PEER_KNOWN ? "remote" : "unverified";

/** The model's text of an answer given with `pi-question answer` here, from the text the
 * person's own answer would read (`db: user selected: 2. Postgres`). */
export function remoteText(text) {
  if (PEER_KNOWN) return text;
  const head =
    `Answered with \`pi-question answer\` by a process pi could not identify (this OS (${process.platform}) does not say who connected): ` +
    "it may be the user in another terminal, or a command run on this machine (yours included). It is not verified as the user's " +
    'choice: where the text below says "the user", read "that process". Confirm anything that matters with the user before acting on it.\n';
  return head + text.replace(/(^|\n)([^:\n]+): user (selected|wrote): /g, "$1$2: $3: ").replace(/; user wrote: /g, "; wrote: ");
}
