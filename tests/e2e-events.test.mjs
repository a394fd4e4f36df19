// e2e-events.test.mjs — the real pi (TUI, in tmux) with this package and the example extension
// examples/recommended-autopilot.ts: pi-question announces the question on pi's event bus, the
// other extension answers it there with the recommended options, and the model reads the same
// text as for a local answer; the transcript says another extension answered. A question
// without a recommendation is left to the person, who answers it with a key.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { root } from "./helpers/addon.mjs";
import { startPi } from "./helpers/tmux.mjs";

const AUTOPILOT = join(root, "examples", "recommended-autopilot.ts");
const script = (args) => [{ toolCalls: [{ name: "question", arguments: args }] }, { text: "thanks" }];

async function withPi(args, fn) {
  const pi = await startPi({ replies: script(args), session: true, extensions: [AUTOPILOT], namePrefix: "pq-events-" });
  try {
    await pi.prompt("ask me");
    await fn(pi);
  } catch (error) {
    error.message += `\n--- screen (${pi.name}) ---\n${pi.screen()}`;
    throw error;
  } finally {
    await pi.kill();
  }
}

test("events e2e: another extension answers through pi.events (question:asked → question:answer); the model reads it, mode extension", async () => {
  const DB = {
    id: "db",
    prompt: "Which database?",
    options: [
      { value: "sqlite", label: "SQLite (Recommended)" },
      { value: "pg", label: "Postgres" },
    ],
  };
  await withPi({ questions: [DB] }, async (pi) => {
    await pi.model.waitForRequests(2);
    assert.equal(pi.model.toolMessages(1)[0].content, "db: user selected: 1. SQLite (Recommended) (value: sqlite)");
    const result = await pi.waitForQuestionResult();
    assert.equal(result.details.mode, "extension");
    assert.equal(result.details.status, "answered");
    await pi.waitForScreen(/answered by another extension/);
  });
});

test("events e2e: a question the other extension leaves alone is answered in the TUI as always", async () => {
  const DB = { id: "db", prompt: "Which database?", options: ["SQLite", "Postgres"] };
  await withPi({ questions: [DB] }, async (pi) => {
    await pi.waitForScreen(/Which database\?/);
    await pi.keys("2");
    await pi.model.waitForRequests(2);
    assert.equal(pi.model.toolMessages(1)[0].content, "db: user selected: 2. Postgres");
    assert.equal((await pi.waitForQuestionResult()).details.mode, "interactive");
  });
});
