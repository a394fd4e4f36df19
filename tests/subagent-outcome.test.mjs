// subagent-outcome.test.mjs — the sentences that tell the agents above a subagent what became of
// its question quote the model's prompts and the subagent's name: they reach terminals (pi's
// transcript, `pi -p`'s output) only through the C sanitizer. (The behaviour itself, with the real
// pi and pi's subagent example: e2e-subagent.test.mjs.)
import "./helpers/own-home.mjs"; // never the real ~/.pi/agent (remembered answers)
import assert from "node:assert/strict";
import { test } from "node:test";
import { importShim } from "./helpers/shim.mjs";

const { subagentOutcomes } = await importShim("elsewhere/subagent-outcome.ts");
/** C0 controls, DEL, C1 controls, bidirectional overrides and isolates. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

test("subagent outcome: a cancelled worker's question is quoted sanitized in the running tool's result", async () => {
  const outcomes = subagentOutcomes({});
  outcomes.started("call-1");
  const questions = [{ id: "db", prompt: "Which\u009b2J database\u202e? \u001b]0;x\u0007" }];
  await outcomes.cancelledBelow({ isIdle: () => true, abort: () => assert.fail("an idle pi is not aborted") }, questions, {
    name: "work\u0085er\u001b[31m",
  });
  const patched = await outcomes.toolResult(
    { toolCallId: "call-1", toolName: "subagent", content: [{ type: "text", text: "(no output)" }] },
    { hasUI: true },
  );
  const note = patched.content[0].text;
  assert.match(note, /^The user cancelled the question the subagent "work.*er.*" asked without answering: "Which.*database/);
  assert.ok(!UNSAFE.test(note), JSON.stringify(note));
  assert.equal(patched.content[1].text, "(no output)");
});
