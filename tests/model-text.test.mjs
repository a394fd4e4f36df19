// model-text.test.mjs — what the model reads about the tool (description, prompt snippet,
// guidelines, parameter schema) stays short: within 10% of its size before `wait: false` and
// remembered answers were added (measured at commit e888bf7 with this file's measure()), and it
// tells the model about both. Every character here is in every request pi sends.
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadExtension } from "./helpers/fake-pi.mjs";

/** The sizes at e888bf7: description 786, snippet 95, guidelines 737 (joined by newlines), the
 * parameters' JSON 1503. */
const BEFORE = { description: 786, total: 786 + 95 + 737 + 1503 };
const ALLOWED = 1.1;

const { tools } = await loadExtension();
const tool = tools.get("question");

function measure(t) {
  const description = t.description.length;
  const total = description + t.promptSnippet.length + t.promptGuidelines.join("\n").length + JSON.stringify(t.parameters).length;
  return { description, total };
}

test("model text: the description, and everything the model reads about the tool, are within 10% of their size before", () => {
  const now = measure(tool);
  assert.ok(
    now.description <= BEFORE.description * ALLOWED,
    `description: ${now.description} characters, at most ${BEFORE.description * ALLOWED}`,
  );
  assert.ok(
    now.total <= BEFORE.total * ALLOWED,
    `description, snippet, guidelines and schema: ${now.total} characters, at most ${BEFORE.total * ALLOWED}`,
  );
});

test("model text: the model is told when to ask without waiting, that the answer arrives as a message, and that answers are remembered", () => {
  assert.match(tool.description, /wait: false/);
  assert.match(tool.description, /earlier answer the user confirmed/);
  const wait = tool.promptGuidelines.find((g) => g.includes("wait: false"));
  assert.ok(wait, "a guideline says when to use wait: false");
  assert.match(wait, /do not need the answer/);
  assert.match(wait, /message/);
  assert.match(wait, /never assume it/);
  assert.ok(tool.promptGuidelines.some((g) => /remembered/.test(g) && /never re-ask/.test(g)));
  assert.equal(tool.parameters.properties.wait.type, "boolean");
  assert.match(tool.parameters.properties.wait.description, /later as a message/);
});
