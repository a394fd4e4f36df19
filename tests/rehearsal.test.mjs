// rehearsal.test.mjs — the question pi's idle time draws off screen before a session's first
// question (extension/ask/interactive.ts rehearseTui, called by ask.ts prepare) leaves nothing
// behind: a question drawn after it looks exactly as one drawn before it, in the engine's own
// language, and the rehearsal itself never throws, whatever language it is given.
import assert from "node:assert/strict";
import test from "node:test";
import { addon } from "./helpers/addon.mjs";
import { importShim } from "./helpers/shim.mjs";
import { theme } from "./helpers/theme.mjs";

const { QuestionView, rehearseTui } = await importShim("ask/interactive.ts");

const ARGS = {
  questions: [
    { id: "db", label: "Database", prompt: "Which database?", options: ["PostgreSQL", "SQLite (Recommended)"] },
    { id: "why", prompt: "Why?" },
  ],
};

/** The frames of a fresh question at two widths, after a key. */
function frames() {
  const engine = addon.createEngine(JSON.stringify(ARGS));
  try {
    const view = new QuestionView(
      engine,
      theme,
      () => undefined,
      () => undefined,
    );
    view.focused = true;
    const out = [view.render(80), view.render(40)];
    view.handleInput("\x1b[B");
    out.push(view.render(80));
    return out.map((f) => [...f]);
  } finally {
    engine.dispose();
  }
}

test("rehearsal: a question drawn after the rehearsal is drawn as one before it (in English, after a German rehearsal too)", () => {
  const before = frames();
  assert.ok(
    before[0].some((l) => l.includes("Which database?")),
    "the question is drawn",
  );
  rehearseTui("en");
  assert.deepEqual(frames(), before);
  rehearseTui("de");
  assert.deepEqual(frames(), before, "the rehearsal's language stays its own engine's");
});

test("rehearsal: never throws, whatever language it is given", () => {
  for (const language of ["", "xx", "zh", "\u0000"]) assert.doesNotThrow(() => rehearseTui(language));
});
