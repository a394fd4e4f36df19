// endings.mjs — how a question that stopped waiting ended, as the board records it and as a
// later answer is told it (the relay's wire carries the same words: relay-wire.mjs re-exports
// these). Plain JavaScript: the pi-question command (bin/) reads it without a TypeScript loader.
/** The ending of a question that stopped waiting, from the status that ended it: answered
 * (answered, declined — "let the agent decide" — or discuss), cancelled, timed_out, or
 * withdrawn (the agent stopped waiting: interrupted, unavailable, a subagent that went away). */
export function endingOf(status) {
  if (status === "cancelled" || status === "timed_out") return status;
  if (status === "answered" || status === "declined" || status === "discuss") return "answered";
  return "withdrawn";
}

/** The string (native/core/text/strings.c) that tells a later answer how the question ended. */
export const ENDING_STRINGS = Object.freeze({
  answered: "ELSEWHERE_ALREADY",
  cancelled: "ELSEWHERE_CANCELLED",
  timed_out: "ELSEWHERE_TIMED_OUT",
  withdrawn: "ELSEWHERE_WITHDRAWN",
});
