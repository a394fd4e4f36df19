// shim.test.mjs — the TypeScript shim loaded the way pi loads it (jiti), driven through the
// registered tool's own prepareArguments / execute / renderCall / renderResult.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { importPiTui } from "./helpers/pi-line.mjs";
import { headlessContext, loadExtension } from "./helpers/fake-pi.mjs";

// pi-tui of the pi line under test (PI_LINE; tests/helpers/pi-line.mjs).
const { visibleWidth } = await importPiTui();

process.env.PI_QUESTION_TTY = "/nonexistent/tty"; // never ask on the terminal running the tests
const ext = await loadExtension();
const tool = ext.tools.get("question");
const theme = { fg: (_c, s) => s, bold: (s) => s, italic: (s) => s };

test("shim: registers one tool named question, the commands and the --answers flag", () => {
  assert.deepEqual([...ext.tools.keys()], ["question"]);
  assert.equal(tool.executionMode, "sequential");
  assert.deepEqual([...ext.commands.keys()].sort(), ["answer", "questions"]);
  assert.equal(ext.flags.get("answers").type, "string");
  assert.match(tool.description, /Something else/);
  assert.ok(tool.promptGuidelines.some((g) => g.includes("(Recommended)")));
  assert.ok(tool.promptGuidelines.some((g) => /Never add an "Other"/.test(g)));
  assert.ok(
    tool.promptGuidelines.every((g) => g.includes("question")),
    "each guideline names the tool",
  );
});

test("shim: prepareArguments turns other agents' shapes into the canonical one", () => {
  const out = tool.prepareArguments({ question: "Deploy where?", header: "Target", options: ["staging", "prod"] });
  assert.deepEqual(out, {
    questions: [
      {
        id: "target",
        label: "Target",
        prompt: "Deploy where?",
        options: ["staging", "prod"],
        multiSelect: false,
      },
    ],
  });
});

test("shim: prepareArguments throws the core's precise error for an invalid call", () => {
  assert.throws(() => tool.prepareArguments({ questions: [] }), /^Error: No questions provided/);
  assert.throws(() => tool.prepareArguments(undefined), /No questions provided/);
});

test("shim: execute answers pre-supplied answers without any UI", async () => {
  const args = tool.prepareArguments({ questions: [{ id: "a", prompt: "Pick", options: ["X", "Y"] }], answers: { a: "Y" } });
  const r = await tool.execute("call-1", args, undefined, undefined, headlessContext("/nonexistent"));
  assert.equal(
    r.content[0].text,
    "Taken from the answers given in this call's `answers`; the user was not asked and chose none of it.\na: selected: 2. Y",
  );
  assert.equal(r.details.status, "answered");
  assert.equal(r.details.mode, "presupplied");
  assert.equal(r.terminate, undefined);
});

test("shim: execute takes a prepared call as prepared, and validates again what pi's tool_call handlers changed (pi does not)", async () => {
  const cwd = "/nonexistent";
  const args = tool.prepareArguments({ questions: [{ id: "a", prompt: "Pick", options: ["X", "Y"] }], answers: { a: "Y" } });
  // pi validates a copy and hands that copy to execute: unchanged, the prepared text is used
  const same = await tool.execute("call-1", structuredClone(args), undefined, undefined, headlessContext(cwd));
  assert.match(same.content[0].text, /a: selected: 2\. Y$/);
  // a handler patched the answer in place: the patch counts
  const patched = structuredClone(args);
  patched.answers.a = "X";
  const r = await tool.execute("call-2", patched, undefined, undefined, headlessContext(cwd));
  assert.match(r.content[0].text, /a: selected: 1\. X$/);
  // a handler made it invalid: the core says so, as for a call the model sent
  const broken = structuredClone(
    tool.prepareArguments({ questions: [{ id: "a", prompt: "Pick", options: ["X", "Y"] }], answers: { a: "Y" } }),
  );
  broken.questions.push(structuredClone(broken.questions[0]));
  await assert.rejects(tool.execute("call-3", broken, undefined, undefined, headlessContext(cwd)), /"a" repeats questions\[0\]\.id/);
});

test("shim: execute refuses a question that shares its message with other tool calls", async () => {
  const branch = [
    {
      type: "message",
      message: {
        role: "assistant",
        content: [
          { type: "toolCall", id: "x" },
          { type: "toolCall", id: "q" },
        ],
      },
    },
  ];
  const args = tool.prepareArguments({ questions: [{ id: "a", prompt: "p" }], answers: { a: "z" } });
  await assert.rejects(tool.execute("q", args, undefined, undefined, headlessContext("/", branch)), /only tool call/);
});

test("shim: without a terminal, execute writes the pending file and ends the turn", async () => {
  const cwd = mkdtempSync(join(tmpdir(), "pq-shim-"));
  try {
    const args = tool.prepareArguments({ questions: [{ id: "a", prompt: "p", options: ["X"] }] });
    const r = await tool.execute("c", args, undefined, undefined, headlessContext(cwd));
    assert.equal(r.details.status, "unavailable");
    assert.equal(r.terminate, true);
    assert.match(r.content[0].text, /saved to \.pi\/pending-questions\.json/);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

test("shim: only what registering needs is loaded with the extension; the rest at first use", async () => {
  // A fresh instance, as pi loads it: the renderers are not loaded until a session starts (or
  // a row is drawn), and a row drawn before shows the tool's name, then asks to be redrawn.
  const fresh = await loadExtension({}, { lazyRenderers: true });
  const t = fresh.tools.get("question");
  let redraw;
  const redrawn = new Promise((resolve) => (redraw = resolve));
  const early = t.renderCall({ questions: [{ id: "a", prompt: "p" }] }, theme, { lastComponent: undefined, invalidate: redraw });
  assert.deepEqual(early.render(40), ["question"]);
  assert.deepEqual(early.render(4), []);
  assert.deepEqual(t.renderResult({ content: [] }, { expanded: false }, theme, { isError: false, invalidate() {} }).render(40), []);
  await redrawn;
  const late = t.renderCall({ questions: [{ id: "a", label: "Tab", prompt: "p" }] }, theme, { lastComponent: undefined });
  assert.match(late.render(40).join("\n"), /question.*Tab/);
});

test("shim: renderCall and renderResult sanitize model text and fit the width", () => {
  const hostile = { questions: [{ id: "a", label: "\u001b]0;PWNED\u0007Tab\u001b[2J", prompt: "p\u202e", options: ["X\u0007"] }] };
  const call = tool.renderCall(hostile, theme, { lastComponent: undefined });
  const args = tool.prepareArguments({ ...hostile, answers: { a: "X\u0007" } });
  for (const width of [20, 40, 80]) {
    for (const line of call.render(width)) {
      assert.ok(visibleWidth(line) <= width);
      assert.ok(!line.includes("\u001b]") && !line.includes("\u0007") && !line.includes("\u001b[2J"), JSON.stringify(line));
    }
  }
  return tool.execute("c", args, undefined, undefined, headlessContext("/")).then((result) => {
    for (const expanded of [false, true]) {
      const view = tool.renderResult(result, { expanded, isPartial: false }, theme, { isError: false, lastComponent: undefined });
      const lines = view.render(40);
      assert.ok(lines.join("\n").includes("X"), lines.join("\n"));
      for (const line of lines) assert.ok(!line.includes("\u0007") && !line.includes("\u202e"), JSON.stringify(line));
    }
  });
});
