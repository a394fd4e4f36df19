// e2e-remote.test.mjs — a question waiting in the real pi (TUI, in tmux) answered from another
// terminal: `pi-question answer` in a second tmux session asks it there with the same engine,
// `pi-question answer 1 '{…}'` answers without a UI, and two answers at once give exactly one
// winner. The question in pi closes saying it was answered from another terminal; the model
// reads the same text as for a local answer.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { root } from "./helpers/addon.mjs";
import { line, lineEnv, run } from "./helpers/pi.mjs";
import { killStaleSessions, startPi, tmux } from "./helpers/tmux.mjs";

before(() => killStaleSessions());
after(() => killStaleSessions());

const CLI = join(root, "bin", "pi-question.mjs");
const DB = { id: "db", prompt: "Which database?", options: ["SQLite", "Postgres"] };
const script = (args) => [{ toolCalls: [{ name: "question", arguments: args }] }, { text: "thanks" }];

/** Runs the standalone command (on the pi line's Node) with pi's HOME (where the endpoint
 * registry is). */
const cli = (pi, ...args) =>
  run(line.node, [CLI, ...args], { cwd: pi.work, env: { PATH: lineEnv().PATH, HOME: pi.home, NO_COLOR: "1" }, timeoutMs: 30000 });

async function withPi(fn) {
  const pi = await startPi({ replies: script({ questions: [DB] }), session: true });
  const extra = [];
  try {
    await pi.prompt("ask me");
    await pi.waitForScreen(/Which database\?/);
    await fn(pi, extra);
  } catch (error) {
    error.message += `\n--- screen (${pi.name}) ---\n${pi.screen()}`;
    throw error;
  } finally {
    for (const name of extra) tmux("kill-session", "-t", `=${name}`);
    await pi.kill();
  }
}

async function toolText(pi) {
  await pi.model.waitForRequests(2);
  return pi.model.toolMessages(1)[0].content;
}

test("remote: pi-question pending lists the waiting question; answer 1 '{…}' answers it without a UI", async () => {
  await withPi(async (pi) => {
    const listed = await cli(pi, "pending");
    assert.equal(listed.code, 0, listed.output);
    assert.match(listed.stdout, /^1\. Which database\?\n {3}.*work/m);
    const answered = await cli(pi, "answer", "1", '{"db":"Postgres"}');
    assert.equal(answered.code, 0, answered.output);
    assert.match(answered.stdout, /Answer taken/);
    await pi.waitForScreen(/answered from another terminal/);
    assert.equal(await toolText(pi), "db: user selected: 2. Postgres");
    const result = await pi.waitForQuestionResult();
    assert.equal(result.details.mode, "remote");
    const late = await cli(pi, "answer", "1", '{"db":"SQLite"}');
    assert.equal(late.code, 4, "nothing waits any more");
  });
});

test("remote: pi-question answer asks the question on another terminal with the same engine", async () => {
  await withPi(async (pi, extra) => {
    const name = `${pi.name}-remote`;
    extra.push(name);
    const command = `cd '${pi.work}' && HOME='${pi.home}' NO_COLOR=1 '${line.node}' '${CLI}' answer; echo "exit=$?"; sleep 600`;
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", command);
    const screen = () => tmux("capture-pane", "-p", "-t", name).stdout;
    const until = async (re) => {
      const stop = Date.now() + 20000;
      while (!re.test(screen())) {
        if (Date.now() > stop) throw new Error(`remote terminal: timed out waiting for ${re}\n${screen()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await until(/Which database\?[\s\S]*2\. Postgres/);
    tmux("send-keys", "-t", name, "-l", "typed far away");
    await until(/typed far away/);
    tmux("send-keys", "-t", name, "Enter");
    await until(/Answer taken[\s\S]*exit=0/);
    await pi.waitForScreen(/answered from another terminal/);
    assert.equal(await toolText(pi), "db: user wrote: typed far away");
  });
});

test("remote: a question shown on another terminal closes there when it is answered in pi", async () => {
  await withPi(async (pi, extra) => {
    const name = `${pi.name}-remote`;
    extra.push(name);
    const command = `cd '${pi.work}' && HOME='${pi.home}' NO_COLOR=1 '${line.node}' '${CLI}' answer; echo "exit=$?"; sleep 600`;
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", command);
    const screen = () => tmux("capture-pane", "-p", "-t", name).stdout;
    const until = async (re) => {
      const stop = Date.now() + 20000;
      while (!re.test(screen())) {
        if (Date.now() > stop) throw new Error(`remote terminal: timed out waiting for ${re}\n${screen()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await until(/Which database\?/);
    await pi.keys("1");
    await until(/answered elsewhere[\s\S]*exit=1/);
    assert.equal(await toolText(pi), "db: user selected: 1. SQLite");
  });
});

test("remote: two answers at once — exactly one wins, the other is told", async () => {
  await withPi(async (pi) => {
    const [a, b] = await Promise.all([cli(pi, "answer", "1", '{"db":"SQLite"}'), cli(pi, "answer", "1", '{"db":"Postgres"}')]);
    const codes = [a.code, b.code].sort();
    assert.equal(codes[0], 0, `${a.output}\n${b.output}`);
    assert.notEqual(codes[1], 0, "both answers were taken");
    const loser = a.code === 0 ? b : a;
    assert.match(loser.stderr, /already answered|no longer waiting|no question|No question/);
    const winner = a.code === 0 ? "1. SQLite" : "2. Postgres";
    assert.equal(await toolText(pi), `db: user selected: ${winner}`);
  });
});
