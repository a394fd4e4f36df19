// e2e-events.test.mjs — the real pi (TUI, in tmux) with this package and the example extension
// examples/recommended-autopilot.ts: pi-question announces the question on pi's event bus, the
// other extension answers it there with the recommended options, and the model and the
// transcript are told it was that extension (under the name it gives itself), not the person;
// it is not remembered as the person's answer. A question
// without a recommendation is left to the person, who answers it with a key.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { root } from "./helpers/addon.mjs";
import { importShim } from "./helpers/shim.mjs";
import { startPi, withPi as withPiIn } from "./helpers/tmux.mjs";
import { until } from "./helpers/until.mjs";

const { memoryPaths } = await importShim("ask/memory.ts");

const AUTOPILOT = join(root, "examples", "recommended-autopilot.ts");
/** Polls `check` until it holds (the file is written after the answer went on its way). */
const script = (args) => [{ toolCalls: [{ name: "question", arguments: args }] }, { text: "thanks" }];

/** pi (tmux.mjs withPi: the screen added to a failure, always killed) with the autopilot, asked. */
const withPi = (args, fn) =>
  withPiIn({ replies: script(args), extensions: [AUTOPILOT], namePrefix: "pq-events-" }, async (pi) => {
    await pi.prompt("ask me");
    await fn(pi);
  });

test("events e2e: another extension answers through pi.events (question:asked → question:answer); the model and the transcript are told it was the autopilot, not the person, and it is not remembered", async () => {
  const DB = {
    id: "db",
    prompt: "Which database?",
    options: [
      { value: "sqlite", label: "SQLite (Recommended)" },
      { value: "pg", label: "Postgres" },
    ],
  };
  const PORT = { id: "port", prompt: "Which port?", options: ["8080", "9090"] };
  const replies = [
    { toolCalls: [{ name: "question", arguments: { questions: [DB] } }] },
    { toolCalls: [{ name: "question", arguments: { questions: [PORT] } }] },
    { text: "thanks" },
  ];
  const pi = await startPi({ replies, session: true, extensions: [AUTOPILOT], namePrefix: "pq-events-" });
  try {
    await pi.prompt("ask me");
    await pi.model.waitForRequests(2);
    const text = pi.model.toolMessages(1)[0].content;
    assert.doesNotMatch(text, /user selected/);
    assert.match(
      text,
      /^Answered by another pi extension, not by the person \(it calls itself "autopilot"; the name is its own claim, not verified\)\./,
    );
    assert.match(text, /\ndb: selected: 1\. SQLite \(Recommended\) \(value: sqlite\)$/);
    const result = await pi.waitForQuestionResult();
    assert.equal(result.details.mode, "extension");
    assert.equal(result.details.source, "autopilot");
    assert.equal(result.details.status, "answered");
    await pi.waitForScreen(/answered by another extension \(it calls itself “autopilot”\), not by you/);
    // The person answers the next one (no recommendation): only that answer is remembered.
    await pi.waitForScreen(/Which port\?/);
    await pi.keys("2");
    await pi.model.waitForRequests(3);
    assert.equal(pi.model.toolMessages(2).at(-1).content, "port: user selected: 2. 9090");
    const file = memoryPaths(pi.work, pi.home).jsonl; // the person's own directory (docs/memory.md)
    await until(() => existsSync(file) && readFileSync(file, "utf8").includes("9090"), "the person's answer remembered", {
      ms: 20000,
      every: 50,
    });
    const entries = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      entries.map((e) => e.prompt),
      ["Which port?"],
      "the autopilot's answer is not remembered",
    );
  } catch (error) {
    error.message += `\n--- screen (${pi.name}) ---\n${pi.screen()}`;
    throw error;
  } finally {
    await pi.kill();
  }
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
