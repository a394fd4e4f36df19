// wine-rpc.test.mjs — pi's RPC mode on Windows' Node (run under Wine by scripts/wine-tests.mjs):
// pi with this extension and the win32 addon, a scripted model in pi's own process
// (fixtures/scripted-provider.ts: fetch does not work under Wine), one question asked by the
// model, answered by the RPC client's extension_ui_response, and the tool result checked as pi
// reports it and as the model read it. It needs the pi line the runner names
// (PI_QUESTION_WINE_PI_LINE: the directory holding its node_modules), and is skipped without it;
// given it, it runs on Linux's Node too.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const line = process.env.PI_QUESTION_WINE_PI_LINE;
const root = fileURLToPath(new URL("..", import.meta.url));
const skip = line ? false : "needs PI_QUESTION_WINE_PI_LINE, the pi line to run (scripts/wine-tests.mjs sets it)";

const DB = {
  id: "db",
  prompt: "Which database?",
  options: [
    { value: "pg", label: "PostgreSQL" },
    { value: "lite", label: "SQLite" },
  ],
};

test("wine rpc: a question from the scripted model is answered through extension_ui_response", { skip, timeout: 120000 }, async () => {
  const modules = join(line, "node_modules", "@earendil-works");
  const dir = mkdtempSync(join(tmpdir(), "pq-wine-rpc-"));
  const agent = join(dir, "agent");
  const work = join(dir, "work");
  mkdirSync(agent);
  mkdirSync(work);
  writeFileSync(join(agent, "settings.json"), "{}\n");
  const env = {
    ...process.env,
    PI_CODING_AGENT_DIR: agent,
    PI_OFFLINE: "1",
    PI_SKIP_VERSION_CHECK: "1",
    NO_COLOR: "1",
    PI_QUESTION_FAUX_MODULE: join(modules, "pi-ai", "dist", "providers", "faux.js"),
    PI_QUESTION_SCRIPTED_ARGS: JSON.stringify({ questions: [DB] }),
  };
  delete env.PI_QUESTION_RELAY;
  const cli = join(modules, "pi-coding-agent", "dist", "bundle", "cli.js");
  const args = [
    cli,
    "--mode",
    "rpc",
    "--offline",
    "--no-session",
    "-e",
    join(root, "tests", "fixtures", "scripted-provider.ts"),
    "-e",
    root,
    "--provider",
    "scripted",
    "--model",
    "scripted-1",
  ];
  const child = spawn(process.execPath, args, { cwd: work, env, stdio: ["pipe", "pipe", "pipe"] });
  const events = [];
  let stderr = "";
  let buffer = "";
  child.stderr.on("data", (d) => (stderr += d));
  child.stdin.on("error", () => undefined);
  child.stdout.on("data", (d) => {
    buffer += d;
    for (let at; (at = buffer.indexOf("\n")) >= 0;) {
      const text = buffer.slice(0, at).replace(/\r$/, "");
      buffer = buffer.slice(at + 1);
      let m;
      try {
        m = JSON.parse(text);
      } catch {
        continue;
      }
      events.push(m);
      if (m.type === "extension_ui_request" && m.method === "select") {
        child.stdin.write(JSON.stringify({ type: "extension_ui_response", id: m.id, value: "2. SQLite" }) + "\n");
      }
    }
  });
  const waitFor = async (pred, what) => {
    const until = Date.now() + 90000;
    for (;;) {
      const hit = events.find(pred);
      if (hit) return hit;
      if (child.exitCode !== null || Date.now() > until)
        throw new Error(`no ${what}; pi ${child.exitCode === null ? "still runs" : `exited ${child.exitCode}`}; stderr: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  try {
    child.stdin.write(JSON.stringify({ type: "prompt", message: "ask me" }) + "\n");
    const dialog = await waitFor((e) => e.type === "extension_ui_request" && e.method === "select", "question dialog");
    assert.equal(dialog.title, "Which database?");
    assert.deepEqual(dialog.options.slice(0, 3), ["1. PostgreSQL", "2. SQLite", "3. Something else…"]);
    const end = await waitFor((e) => e.type === "tool_execution_end" && e.toolName === "question", "tool result");
    assert.equal(end.isError, false);
    assert.equal(end.result.details.mode, "rpc");
    assert.equal(end.result.details.status, "answered");
    const said = await waitFor(
      (e) => e.type === "message_end" && e.message?.role === "assistant" && /^tool result:/.test(e.message.content?.[0]?.text ?? ""),
      "model's second turn",
    );
    assert.equal(said.message.content[0].text, "tool result: db: user selected: 2. SQLite (value: lite)");
    await waitFor((e) => e.type === "agent_end", "agent_end");
  } finally {
    child.kill();
    await new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
    rmSync(dir, { recursive: true, force: true });
  }
});
