// e2e-rpc-notice.test.mjs — a ping where the person is, in `pi --mode rpc`: the person's own
// notice.command runs once when the question starts waiting for an RPC client's dialogs, with the
// question in PI_QUESTION_PROMPT (and on standard input) and its id in PI_QUESTION_ID, never
// through a shell string of ours; the answer from the client's dialog is taken as usual.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { startMockModel } from "./helpers/mock-model.mjs";
import { makeHome } from "./helpers/pi.mjs";
import { startRpc } from "./helpers/rpc-client.mjs";
import { until } from "./helpers/until.mjs";

const DB = { id: "db", prompt: "Which database? $(touch pwned)", options: ["SQLite", "Postgres"] };

test("rpc notice: notice.command runs once when the question waits for the client's dialogs — the prompt as data, its id — and the client's answer is taken", async () => {
  const model = await startMockModel([{ toolCalls: [{ name: "question", arguments: { questions: [DB] } }] }, { text: "ok" }]);
  const { home, work, cleanup } = makeHome(model.port);
  mkdirSync(join(home, ".pi", "agent"), { recursive: true });
  // the command is an argv: the prompt reaches it only as the variable's value and as stdin
  const record = 'printf "%s|%s|" "$PI_QUESTION_PROMPT" "$PI_QUESTION_ID" >> "$HOME/notice.log"; cat >> "$HOME/notice.log"';
  writeFileSync(join(home, ".pi", "agent", "question.json"), JSON.stringify({ notice: { command: ["sh", "-c", record] } }));
  const log = join(home, "notice.log");
  const rpc = startRpc(home, work, (d) => (d.method === "select" ? { value: "2. Postgres" } : undefined));
  try {
    rpc.send({ type: "prompt", message: "ask me" });
    const end = await rpc.waitFor((e) => e.type === "tool_execution_end" && e.toolName === "question");
    assert.equal(end.result.details.status, "answered");
    assert.equal(end.result.details.mode, "rpc");
    await until(() => existsSync(log) && readFileSync(log, "utf8").endsWith("\n"), "the command ran", { ms: 15000, every: 50 });
    const [prompt, qid, stdin] = readFileSync(log, "utf8").split("|");
    assert.equal(prompt, "Which database? $(touch pwned)");
    assert.match(qid, /^q[0-9a-f]{8}$/);
    assert.equal(stdin, "Which database? $(touch pwned)\n");
    assert.equal(existsSync(join(work, "pwned")), false, "nothing in the prompt ran");
    await rpc.waitFor((e) => e.type === "agent_end");
    assert.equal(readFileSync(log, "utf8").split("\n").length, 2, "once per question");
  } finally {
    rpc.close();
    cleanup();
    await model.close();
  }
});
