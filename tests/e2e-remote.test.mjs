// e2e-remote.test.mjs — a question waiting in the real pi (TUI, in tmux) answered from another
// terminal: `pi-question answer` in a second tmux session asks it there with the same engine,
// `pi-question answer 1 '{…}'` answers without a UI, and two answers at once give exactly one
// winner. The question in pi closes saying it was answered from another terminal; the model
// reads the same text as for a local answer. Both sides are given the same registry directory
// (XDG_RUNTIME_DIR, a fresh one per test), whatever the environment around the test holds.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { root } from "./helpers/addon.mjs";
import { line, lineEnv, run } from "./helpers/pi.mjs";
import { startPi, tmux } from "./helpers/tmux.mjs";

const CLI = join(root, "bin", "pi-question.mjs");
const DB = { id: "db", prompt: "Which database?", options: ["SQLite", "Postgres"] };
const script = (args) => [{ toolCalls: [{ name: "question", arguments: args }] }, { text: "thanks" }];

/** Runs the standalone command (on the pi line's Node) with pi's HOME and registry directory. */
const cli = (pi, ...args) =>
  run(line.node, [CLI, ...args], {
    cwd: pi.work,
    env: { PATH: lineEnv().PATH, HOME: pi.home, XDG_RUNTIME_DIR: pi.runtime, NO_COLOR: "1" },
    timeoutMs: 30000,
  });

/** The command line that runs `pi-question answer` in another tmux session, as a person would. */
// PI_QUESTION_ADDON as this process has it (unset: the worktree's build): a tmux server started
// by another run keeps that run's value in its global environment, which every session inherits.
const remoteCommand = (pi) =>
  `cd '${pi.work}' && HOME='${pi.home}' XDG_RUNTIME_DIR='${pi.runtime}' PI_QUESTION_ADDON='${process.env.PI_QUESTION_ADDON ?? ""}' NO_COLOR=1 '${line.node}' '${CLI}' answer; echo "exit=$?"; sleep 600`;

async function withPi(fn) {
  // The registry directory, named explicitly to pi and to every command (mode 0700, as a
  // runtime directory is).
  const runtime = mkdtempSync(join(tmpdir(), "pq-remote-run-"));
  let pi;
  try {
    pi = await startPi({ replies: script({ questions: [DB] }), session: true, env: { XDG_RUNTIME_DIR: runtime } });
  } catch (error) {
    rmSync(runtime, { recursive: true, force: true });
    throw error;
  }
  pi.runtime = runtime;
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
    rmSync(runtime, { recursive: true, force: true });
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
    // Which question (its id), which project, which session (unnamed: its id's start), who, how long.
    const m = /^1\. Which database\?\n {3}id (q[0-9a-f]{8}) · (.+) · session ([0-9a-f]{8}) · Asked by the agent · waiting \d+s\n$/.exec(
      listed.stdout,
    );
    assert.ok(m, listed.stdout);
    assert.equal(m[2].replace(/^~/, pi.home), pi.work);
    const qid = m[1];
    const answered = await cli(pi, "answer", "1", '{"db":"Postgres"}');
    assert.equal(answered.code, 0, answered.output);
    assert.match(answered.stdout, /Answer taken/);
    await pi.waitForScreen(/answered from another terminal/);
    assert.equal(await toolText(pi), "db: user selected: 2. Postgres");
    const result = await pi.waitForQuestionResult();
    assert.equal(result.details.mode, "remote");
    const header = pi.sessionEntries().find((e) => e.type === "session");
    assert.equal(m[3], header?.id?.slice(0, 8), "pending named this session by its id");
    // Later answers: by its id, told exactly how it ended; by position, nothing waits any more.
    const late = await cli(pi, "answer", qid, '{"db":"SQLite"}');
    assert.deepEqual([late.code, late.stdout, late.stderr], [1, "", "pi-question: already answered\n"]);
    const lateByPosition = await cli(pi, "answer", "1", '{"db":"SQLite"}');
    assert.equal(lateByPosition.code, 4);
    assert.equal(
      lateByPosition.stderr.replace(/\(\d+s ago\)/, "(…)"),
      `pi-question: No question is waiting in any pi.\npi-question: the latest question to stop waiting: ${qid} (…), already answered\n`,
    );
  });
});

/**
 * A second terminal (its own tmux session, 80×24, ended with pi's) running `pi-question answer`
 * against this pi; `until(re)` polls its screen for 20 s.
 */
function secondTerminal(pi, extra) {
  const name = `${pi.name}-remote`;
  extra.push(name);
  tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", remoteCommand(pi));
  const screen = () => tmux("capture-pane", "-p", "-t", name).stdout;
  const until = async (re) => {
    const stop = Date.now() + 20000;
    while (!re.test(screen())) {
      if (Date.now() > stop) throw new Error(`remote terminal: timed out waiting for ${re}\n${screen()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { name, until };
}

test("remote: pi-question answer asks the question on another terminal with the same engine", async () => {
  await withPi(async (pi, extra) => {
    const { name, until } = secondTerminal(pi, extra);
    await until(/Which database\?[\s\S]*2\. Postgres/);
    tmux("send-keys", "-t", name, "-l", "typed far away");
    await until(/typed far away/);
    tmux("send-keys", "-t", name, "Enter");
    await until(/Answer taken[\s\S]*exit=0/);
    await pi.waitForScreen(/answered from another terminal/);
    assert.equal(await toolText(pi), "db: user wrote: typed far away");
  });
});

test("remote: a question shown on another terminal closes there when it is answered in pi, printing what was typed there", async () => {
  await withPi(async (pi, extra) => {
    const { name, until } = secondTerminal(pi, extra);
    await until(/Which database\?/);
    tmux("send-keys", "-t", name, "-l", "half typed here");
    await until(/half typed here/);
    await pi.keys("1");
    await until(/answered elsewhere[\s\S]*so it is not lost:\s+\S+: half typed here[\s\S]*exit=1/);
    assert.equal(await toolText(pi), "db: user selected: 1. SQLite");
  });
});

test("remote: two answers at once — exactly one wins, the other is told", async () => {
  await withPi(async (pi) => {
    const qid = /id (q[0-9a-f]{8})/.exec((await cli(pi, "pending")).stdout)?.[1];
    assert.ok(qid);
    const [a, b] = await Promise.all([cli(pi, "answer", qid, '{"db":"SQLite"}'), cli(pi, "answer", qid, '{"db":"Postgres"}')]);
    const codes = [a.code, b.code].sort();
    assert.deepEqual(codes, [0, 1], `${a.output}\n${b.output}`);
    const loser = a.code === 0 ? b : a;
    assert.deepEqual([loser.stdout, loser.stderr], ["", "pi-question: already answered\n"]);
    const winner = a.code === 0 ? "1. SQLite" : "2. Postgres";
    assert.equal(await toolText(pi), `db: user selected: ${winner}`);
  });
});

test("remote: Ctrl+T on another terminal — the question in pi ends as discuss with the person's words", async () => {
  await withPi(async (pi, extra) => {
    const { name, until } = secondTerminal(pi, extra);
    await until(/Which database\?[\s\S]*Ctrl\+T/);
    tmux("send-keys", "-t", name, "C-t");
    await until(/What do you want to tell the agent\?/);
    tmux("send-keys", "-t", name, "-l", "which is cheaper to run?");
    await until(/which is cheaper to run\?/);
    tmux("send-keys", "-t", name, "Enter");
    await until(/Answer taken[\s\S]*exit=0/);
    assert.equal(
      await toolText(pi),
      "The user wants to talk about this question before answering it, and wrote to you:\n  which is cheaper to run?\nReply to what they wrote. Do not answer the question for them and do not act on it yet; ask the question again later if you still need the answer.",
    );
    const result = await pi.waitForQuestionResult();
    assert.deepEqual(
      [result.details.status, result.details.mode, result.details.discussion],
      ["discuss", "remote", "which is cheaper to run?"],
    );
  });
});

test(
  "remote: the agent's own `pi-question answer` (its bash) is refused with why; the question keeps waiting and the person's terminal answers it",
  { skip: process.platform !== "linux" && "the peer's pid is known on Linux only" },
  async () => {
    const runtime = mkdtempSync(join(tmpdir(), "pq-remote-run-"));
    // The model asks without waiting, then runs `pi-question answer` in its own bash, then ends its turn.
    const own = `'${line.node}' '${CLI}' answer 1 '{"db":"Postgres"}'; echo "exit=$?"`;
    const replies = (_body, i) =>
      i === 0
        ? { toolCalls: [{ name: "question", arguments: { questions: [DB], wait: false } }] }
        : i === 1
          ? { toolCalls: [{ name: "bash", arguments: { command: own } }] }
          : { text: i === 2 ? "tried it myself" : "thanks" };
    let pi;
    try {
      pi = await startPi({ replies, session: true, env: { XDG_RUNTIME_DIR: runtime }, namePrefix: "pq-remote-own-" });
    } catch (error) {
      rmSync(runtime, { recursive: true, force: true });
      throw error;
    }
    pi.runtime = runtime;
    try {
      await pi.prompt("ask me");
      await pi.model.waitForRequests(3);
      const bash = pi.model.toolMessages(2).at(-1).content;
      assert.match(bash, /refused: this command was started by the pi whose questions it asks for \(through `.*`, pid \d+\)/);
      assert.match(bash, /Answer in pi itself, or run pi-question from a terminal pi did not start\./);
      assert.match(bash, /exit=1/);
      // still waiting; the person's terminal (not started by pi) answers it
      const listed = await cli(pi, "pending");
      assert.match(listed.stdout, /^1\. Which database\?/);
      const answered = await cli(pi, "answer", "1", '{"db":"SQLite"}');
      assert.equal(answered.code, 0, answered.output);
      await pi.model.waitForRequests(4);
      const read = (pi.model.requests[3]?.messages ?? []).map((m) => JSON.stringify(m.content ?? "")).join("\n");
      assert.match(read, /db: user selected: 1\. SQLite/);
      assert.doesNotMatch(read, /Postgres"?\s*$/);
    } catch (error) {
      error.message += `\n--- screen (${pi.name}) ---\n${pi.screen()}`;
      throw error;
    } finally {
      await pi.kill();
      rmSync(runtime, { recursive: true, force: true });
    }
  },
);

test(
  "remote: the agent's `pi-question answer` left running in the background (it outlives its bash, its parent is init) is refused by the relay variable it inherited; the question keeps waiting",
  { skip: process.platform !== "linux" && "the peer's pid and environment are known on Linux only" },
  async () => {
    const runtime = mkdtempSync(join(tmpdir(), "pq-remote-run-"));
    const out = join(runtime, "background.out");
    // bash returns at once; a second later the orphaned subshell (now a child of init) answers.
    const own = `(sleep 1; '${line.node}' '${CLI}' answer 1 '{"db":"Postgres"}'; echo "exit=$?") > '${out}' 2>&1 < /dev/null & echo started`;
    const replies = (_body, i) =>
      i === 0
        ? { toolCalls: [{ name: "question", arguments: { questions: [DB], wait: false } }] }
        : i === 1
          ? { toolCalls: [{ name: "bash", arguments: { command: own } }] }
          : { text: i === 2 ? "left it running" : "thanks" };
    let pi;
    try {
      pi = await startPi({ replies, session: true, env: { XDG_RUNTIME_DIR: runtime }, namePrefix: "pq-remote-bg-" });
    } catch (error) {
      rmSync(runtime, { recursive: true, force: true });
      throw error;
    }
    pi.runtime = runtime;
    try {
      await pi.prompt("ask me");
      await pi.model.waitForRequests(3);
      const said = () => (existsSync(out) ? readFileSync(out, "utf8") : "");
      for (const stop = Date.now() + 30000; !/exit=\d/.test(said());) {
        if (Date.now() > stop) throw new Error(`timed out: the background answer's output (${JSON.stringify(said())})`);
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.match(said(), /refused: this command \(`.*`, pid \d+\) carries the relay variable every process a pi starts inherits/);
      assert.match(said(), /exit=1/);
      // still waiting; the person's terminal answers it
      const answered = await cli(pi, "answer", "1", '{"db":"SQLite"}');
      assert.equal(answered.code, 0, answered.output);
      await pi.model.waitForRequests(4);
      const read = (pi.model.requests[3]?.messages ?? []).map((m) => JSON.stringify(m.content ?? "")).join("\n");
      assert.match(read, /db: user selected: 1\. SQLite/);
    } catch (error) {
      error.message += `\n--- screen (${pi.name}) ---\n${pi.screen()}`;
      throw error;
    } finally {
      await pi.kill();
      rmSync(runtime, { recursive: true, force: true });
    }
  },
);

test(
  "remote: a program the agent runs that asks through the relay (it inherited the ask secret) is named by its command line and pid on the question's screen, never as the name it gives itself",
  { skip: process.platform !== "linux" && "the peer's pid is known on Linux only" },
  async () => {
    const runtime = mkdtempSync(join(tmpdir(), "pq-remote-run-"));
    const replies = (_body, i) =>
      i === 0 ? { toolCalls: [{ name: "bash", arguments: { command: `'${line.node}' ask.mjs` } }] } : { text: "done" };
    let pi;
    try {
      pi = await startPi({ replies, session: true, env: { XDG_RUNTIME_DIR: runtime }, namePrefix: "pq-remote-program-" });
    } catch (error) {
      rmSync(runtime, { recursive: true, force: true });
      throw error;
    }
    try {
      // What a repository's test suite could do with the PI_QUESTION_RELAY it inherits.
      const wire = pathToFileURL(join(root, "extension", "elsewhere", "relay-wire.mjs")).href;
      const args = JSON.stringify({ questions: [{ id: "pw", prompt: "Type your password", options: ["ok", "no"] }] });
      writeFileSync(
        join(pi.work, "ask.mjs"),
        `import { askThroughRelay, parseRelayVariable } from ${JSON.stringify(wire)};
const r = await askThroughRelay(parseRelayVariable(process.env.PI_QUESTION_RELAY), ${JSON.stringify(args)}, { name: "the agent" }, undefined, 1 << 20);
console.log("reply:", JSON.stringify(r));\n`,
      );
      await pi.prompt("run the tests");
      await pi.waitForScreen(/Type your password/);
      const screen = pi.screen();
      assert.match(screen, /Asked by a program, not a subagent: `\S*node ask\.mjs` \(pid \d+\)/);
      assert.doesNotMatch(screen, /Asked by the agent/);
      await pi.keys("2");
      await pi.model.waitForRequests(2);
      assert.match(pi.model.toolMessages(1).at(-1).content, /reply: \{"type":"answer","outcome":"answered"/);
    } catch (error) {
      error.message += `\n--- screen (${pi.name}) ---\n${pi.screen()}`;
      throw error;
    } finally {
      await pi.kill();
      rmSync(runtime, { recursive: true, force: true });
    }
  },
);
