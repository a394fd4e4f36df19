// e2e-secret.test.mjs — secret answers in the real pi: in the TUI (tmux, sessions pq-secret-…)
// what is typed shows as bullets, the model reads a file's path and never the text, the file is
// this user's alone, no other file pi or we write holds the secret (the session file, remembered
// answers, the project), and the session's end removes it; in `pi --mode rpc`, whose input
// dialog cannot hide what is typed, the question is refused without showing a dialog.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { startMockModel } from "./helpers/mock-model.mjs";
import { makeHome } from "./helpers/pi.mjs";
import { startRpc } from "./helpers/rpc-client.mjs";
import { withPi } from "./helpers/tmux.mjs";

const KEY = "sk-test-9f8e7d6c5b4a";
const TOKEN = { id: "token", prompt: "Paste the deploy token", secret: true };
const script = (args) => [{ toolCalls: [{ name: "question", arguments: args }] }, { text: "token received" }];

/** Every regular file under `dir` whose bytes hold `needle`. */
function filesHolding(dir, needle) {
  const found = [];
  const walk = (d) => {
    let names = [];
    try {
      names = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(d, n.name);
      if (n.isDirectory()) walk(p);
      else if (n.isFile() && statSync(p).size < 8 << 20 && readFileSync(p).includes(needle)) found.push(p);
    }
  };
  walk(dir);
  return found;
}

test("e2e secret: typed as bullets, the model reads only the file's path, the file is 0600 and the only one holding it, and /new removes it", async () => {
  await withPi({ namePrefix: "pq-secret-", replies: script({ questions: [TOKEN] }) }, async (pi) => {
    await pi.prompt();
    await pi.waitForScreen((s) => /Paste the deploy token/.test(s) && /Secret: hidden as you type/.test(s));
    await pi.text(KEY);
    await pi.waitForScreen(new RegExp(`•{${KEY.length}}`));
    assert.doesNotMatch(pi.screen(), /sk-test/);
    await pi.keys("Enter");
    await pi.model.waitForRequests(2);
    const said = pi.model.toolMessages(1)[0].content;
    assert.doesNotMatch(JSON.stringify(pi.model.requests), /sk-test/, "never in what the model is sent");
    const m = /^token: the user's secret answer is in the file (\S+) \(only this user can read it\)/.exec(said);
    assert.ok(m, said);
    const file = m[1];
    assert.equal(readFileSync(file, "utf8"), KEY);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    await pi.waitForScreen(/token received/);
    assert.doesNotMatch(pi.screen(), /sk-test/);
    // the session file, remembered answers, the project: none holds it
    const holders = [...filesHolding(pi.home, KEY), ...filesHolding(pi.work, KEY)].filter((p) => p !== file);
    assert.deepEqual(holders, []);
    // /questions lists it as given, never its text
    await pi.text("/questions");
    await pi.keys("Enter");
    await pi.waitForScreen(/Paste the deploy token → •••• \(secret, given\)/);
    assert.doesNotMatch(pi.screen(), /sk-test/);
    // a new session ends this one: its secrets go with it
    await pi.text("/new");
    await pi.keys("Enter");
    const until = Date.now() + 15_000;
    while (existsSync(file) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    assert.equal(existsSync(file), false, "removed at the session's end");
  });
});

test("e2e secret (rpc): refused without a dialog — pi's input cannot hide what is typed — and the model is told where to ask instead", async () => {
  const model = await startMockModel(script({ questions: [TOKEN] }));
  const { home, work, cleanup } = makeHome(model.port);
  const asked = [];
  const rpc = startRpc(home, work, (d) => {
    if (d.method === "input" || d.method === "editor" || d.method === "select") asked.push(d.method);
    return undefined;
  });
  try {
    rpc.send({ type: "prompt", message: "ask me" });
    const end = await rpc.waitFor((e) => e.type === "tool_execution_end" && e.toolName === "question");
    assert.equal(end.result.details.status, "unavailable");
    assert.deepEqual(asked, [], "no dialog shown");
    await model.waitForRequests(2);
    assert.match(model.toolMessages(1)[0].content, /Not asked: token is a secret question, and pi's RPC dialogs cannot hide what is typed/);
  } finally {
    rpc.close();
    cleanup();
    await model.close();
  }
});
