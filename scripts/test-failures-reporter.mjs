// test-failures-reporter.mjs — a node:test reporter that prints nothing while tests run and, at
// the end, one block per failed test (its file and line, its name, the first lines of its
// error), so the end of a long log says what failed even when only that end is read. Tests
// marked as expected to fail (node:test's todo option) are left out. `npm test` adds it after the TAP reporter.
const ERROR_LINES = 12;

export default async function* failures(source) {
  const failed = [];
  for await (const event of source) {
    if (event.type !== "test:fail") continue;
    const { name, file, line, details } = event.data;
    const expectedToFail = event.data.todo;
    if (expectedToFail !== undefined && expectedToFail !== false) continue;
    const error = details?.error;
    // A failure of a subtest also fails its parent: keep the innermost (the parent's error
    // only says "1 subtest failed").
    if (error?.failureType === "subtestsFailed") continue;
    const cause = error?.cause ?? error;
    const message = String(cause?.stack ?? cause?.message ?? cause ?? "")
      .split("\n")
      .filter((l) => !/^\s+at .*\(?node:/.test(l)) // node's own frames say nothing here
      .slice(0, ERROR_LINES)
      .join("\n    ");
    failed.push(`✖ ${file ?? "?"}:${line ?? "?"} ${name}\n    ${message}`);
  }
  if (failed.length === 0) return;
  yield `\n# ${failed.length} failed test${failed.length === 1 ? "" : "s"} (not counting those expected to fail):\n`;
  for (const f of failed) yield `${f}\n`;
}

/** The arguments that add this reporter after the TAP one, for scripts that run node --test. */
export const REPORTER_ARGS = [
  "--test-reporter=tap",
  "--test-reporter-destination=stdout",
  `--test-reporter=${new URL(import.meta.url).pathname}`,
  "--test-reporter-destination=stdout",
];
