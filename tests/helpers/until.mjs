// until.mjs — the one polling helper of the tests: waits until a condition holds, checking it
// every few milliseconds, and fails with what it waited for when it does not hold in time.
// Tests wait on what they can observe, never on a fixed sleep.

/**
 * Resolves with `check()`'s first truthy value (`check` may be async); throws "timed out: <what>"
 * after `ms`, or "the process ended before: <what>" once `gone` (a promise: a child that exited)
 * has settled.
 * @param {() => unknown} check
 * @param {string} what
 * @param {{ ms?: number, every?: number, gone?: Promise<unknown> }} [options]
 */
export async function until(check, what, { ms = 5000, every = 5, gone } = {}) {
  let ended = false;
  gone?.then(
    () => (ended = true),
    () => (ended = true),
  );
  const stop = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (ended) throw new Error(`the process ended before: ${what}`);
    if (Date.now() > stop) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}
