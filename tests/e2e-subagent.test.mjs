// e2e-subagent.test.mjs — questions from subagents, with the real pi and pi's own subagent
// example (children run as `pi --mode json -p --no-session`, stdin ignored, environment
// inherited), both extensions auto-discovered as a user installs them. A child's question must
// reach the person through the parent — once, saying who asks — and never be drawn by the
// child on the terminal the parent's TUI owns; every ending travels back to the child.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { startMockModel } from "./helpers/mock-model.mjs";
import { makeHome, piArgs, piCommand, piEnv, run } from "./helpers/pi.mjs";
import { startRpc } from "./helpers/rpc-client.mjs";
import { childQuestionResults, prepareSubagentHome, routedModel, subagentExample, subagentHomeFiles } from "./helpers/subagent.mjs";
import { listEndpoints, request } from "../extension/elsewhere/relay-wire.mjs";
import { framed, questionArea, startPi } from "./helpers/tmux.mjs";
import { features } from "./helpers/pi-line.mjs";

const question = (id, prompt, options = ["SQLite", "Postgres"]) => ({
  toolCalls: [{ name: "question", arguments: { questions: [{ id, prompt, options }] } }],
});
const subagent = (args) => ({ toolCalls: [{ name: "subagent", arguments: args }] });

const count = (s, needle) => s.split(needle).length - 1;

/** How long to wait for anything a child pi does: each one starts a whole pi (seconds on a
 * loaded 2-core machine). */
const CHILD_MS = 90000;

/** The questions waiting in the parent pi now (shown or queued), as its endpoint lists them to
 * `pi-question pending`: the parent's own state, not the screen. */
async function waitingInParent(pi) {
  const places = [{ HOME: pi.home }, ...(process.env.XDG_RUNTIME_DIR ? [{ XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR }] : [])];
  for (const env of places) {
    for (const entry of listEndpoints(env)) {
      if (entry.cwd !== pi.work) continue;
      const r = await request(entry.endpoint, { type: "list" }, { cap: 64 * 1024 * 1024 });
      if (r.type === "reply" && Array.isArray(r.message.questions)) return r.message.questions;
    }
  }
  return [];
}

/** Polls the parent until `check` holds for its waiting questions; returns them. */
async function pollParent(pi, check, what, ms = CHILD_MS) {
  const stop = Date.now() + ms;
  for (;;) {
    const waiting = await waitingInParent(pi);
    if (check(waiting)) return waiting;
    if (Date.now() > stop) throw new Error(`timed out: ${what} (waiting: ${JSON.stringify(waiting.map((w) => w.askedBy))})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runs fn with a parent pi (TUI) whose subagents ask; always cleans up. */
async function withParent(options, fn) {
  const pi = await startPi({
    session: true,
    loadPackage: false,
    ...options,
    homeFiles: { ...subagentHomeFiles, ...(options.homeFiles ?? {}) },
    prepareHome: (home) => prepareSubagentHome(home),
  });
  try {
    await fn(pi);
    assert.equal(pi.crashLog(), null, "pi-tui wrote a crash log");
  } catch (error) {
    let screen = "";
    try {
      screen = pi.screen();
    } catch {}
    error.message += `\n--- screen (${pi.name}) ---\n${screen}`;
    throw error;
  } finally {
    await pi.kill();
  }
}

test("subagent: its question appears once in the parent, says who asks, and typed text arrives whole", async () => {
  const replies = routedModel(subagent({ agent: "worker", task: "pick" }), { pick: question("db", "Which database for the worker?") });
  await withParent({ replies }, async (pi) => {
    await pi.prompt("go");
    const screen = await pi.waitForScreen((s) => /Which database for the worker\?/.test(questionArea(s)), CHILD_MS);
    const area = questionArea(screen);
    assert.match(area, /Asked by worker/);
    assert.equal(count(area, "Which database for the worker?"), 1, "drawn once");
    assert.equal(count(screen, "Asked by worker"), 1, "one question frame");
    // Typed slowly, key by key: every character reaches the one question on screen.
    for (const ch of "hello world typed slowly") await pi.text(ch);
    await pi.waitForScreen((s) => questionArea(s).includes("hello world typed slowly"));
    await pi.keys("Enter");
    const done = await pi.waitForScreen(/parent saw: child pick got: db: user wrote: hello world typed slowly/, CHILD_MS);
    // The parent's editor received nothing of what was typed.
    assert.doesNotMatch(questionArea(done), /\S/);
    const [child] = childQuestionResults(pi.sessionEntries());
    assert.equal(child.message.content[0].text, "db: user wrote: hello world typed slowly");
    assert.equal(child.message.details.mode, "relay");
    assert.equal(child.message.details.status, "answered");
    // The parent's /questions lists the subagent's question, saying who asked it.
    await pi.text("/questions");
    await pi.keys("Enter");
    await pi.waitForScreen(/Which database for the worker\? → hello world typed slowly \(Asked by worker\)/);
  });
});

test("subagent: a secret question travels as the parent's file — masked in the parent, the child's model reads only its path", async () => {
  const KEY = "sk-relay-0123456789";
  const secret = {
    toolCalls: [{ name: "question", arguments: { questions: [{ id: "token", prompt: "Deploy token for the worker?", secret: true }] } }],
  };
  const replies = routedModel(subagent({ agent: "worker", task: "key" }), { key: secret });
  await withParent({ replies }, async (pi) => {
    await pi.prompt("go");
    await pi.waitForScreen((s) => /Deploy token for the worker\?/.test(questionArea(s)) && /Asked by worker/.test(s), CHILD_MS);
    await pi.text(KEY);
    await pi.waitForScreen(new RegExp(`•{${KEY.length}}`));
    assert.doesNotMatch(pi.screen(), /sk-relay/);
    await pi.keys("Enter");
    await pi.waitForScreen(/parent saw: child key got/, CHILD_MS);
    const [child] = childQuestionResults(pi.sessionEntries());
    const text = child.message.content[0].text;
    const m = /^token: the user's secret answer is in the file (\S+) \(only this user can read it\)/.exec(text);
    assert.ok(m, text);
    assert.equal(readFileSync(m[1], "utf8"), KEY);
    assert.deepEqual(child.message.details.answers[0], { id: "token", secret: true, file: m[1] });
    assert.equal(child.message.details.mode, "relay");
    assert.doesNotMatch(JSON.stringify(pi.sessionEntries()), /sk-relay/, "neither session holds it");
  });
});

test("subagent: a parent in print mode on a terminal asks the child's question there", async () => {
  const replies = routedModel(subagent({ agent: "worker", task: "pick" }), { pick: question("db", "Which database for the worker?") });
  await withParent({ replies, extraArgs: ["-p", "go"] }, async (pi) => {
    const screen = await pi.waitForScreen(/Which database for the worker\?/, CHILD_MS);
    assert.match(screen, /Asked by worker/);
    assert.equal(count(screen, "Which database for the worker?"), 1);
    await pi.keys("2");
    await pi.waitForScreen(/parent saw: child pick got: db: user selected: 2\. Postgres/, CHILD_MS);
  });
});

test("subagent: two parallel subagents ask one at a time, and each answer goes to the child that asked", async () => {
  const replies = routedModel(
    subagent({
      tasks: [
        { agent: "worker", task: "alpha" },
        { agent: "worker", task: "beta" },
      ],
    }),
    { alpha: question("a", "Alpha question?", ["A1", "A2"]), beta: question("b", "Beta question?", ["B1", "B2"]) },
  );
  await withParent({ replies }, async (pi) => {
    await pi.prompt("go");
    await pi.waitForScreen((s) => /Alpha question\?|Beta question\?/.test(questionArea(s)), CHILD_MS);
    // Both children's questions have reached the parent (one shown, one queued)…
    const waiting = await pollParent(pi, (w) => w.length === 2, "both relayed questions in the parent");
    assert.deepEqual(
      waiting.map((w) => w.askedBy),
      ["Asked by worker", "Asked by worker"],
    );
    const prompts = waiting.map((w) => JSON.parse(w.args).questions[0].prompt).sort();
    assert.deepEqual(prompts, ["Alpha question?", "Beta question?"]);
    // …and exactly one question is on screen.
    // (read as waitForScreen reads: the same on a second look, not a frame half drawn)
    const both = await pi.waitForScreen((s) => /Alpha question\?|Beta question\?/.test(questionArea(s)));
    const shown = questionArea(both);
    assert.equal(count(shown, "Alpha question?") + count(shown, "Beta question?"), 1, "exactly one question on screen");
    assert.equal(count(both, "Asked by worker"), 1, "one question frame");
    const firstIsAlpha = /Alpha question\?/.test(shown);
    await pi.keys("2"); // the second option of whichever is shown
    const next = firstIsAlpha ? /Beta question\?/ : /Alpha question\?/;
    const second = await pi.waitForScreen((s) => next.test(questionArea(s)), CHILD_MS);
    assert.doesNotMatch(questionArea(second), firstIsAlpha ? /Alpha question\?/ : /Beta question\?/);
    await pi.keys("1");
    await pi.waitForScreen(/parent saw:/, CHILD_MS);
    const results = childQuestionResults(pi.sessionEntries());
    const byTask = Object.fromEntries(results.map((r) => [r.task, r.message.content[0].text]));
    assert.equal(byTask.alpha, firstIsAlpha ? "a: user selected: 2. A2" : "a: user selected: 1. A1");
    assert.equal(byTask.beta, firstIsAlpha ? "b: user selected: 1. B1" : "b: user selected: 2. B2");
  });
});

/** What the parent's model reads when the person cancels its worker's question (text.ts). */
const cancelledBelow = (prompt) =>
  `The user cancelled the question the subagent "worker" asked without answering: ${JSON.stringify(prompt)}. Do not guess an answer and do not continue the task: end your turn and wait for the user's next message.`;

/** What the parent's model reads from a worker that could not ask anyone (its last words). */
const neededBelow = (prompt) =>
  `The subagent "worker" needed an answer to ${JSON.stringify(prompt)} and could not ask the user (no terminal, and no pi above it to ask through), so it stopped without finishing its task. Ask the user, then run it again with their answer.`;

/** The parent's model requests (its children's name their task: "Task: …"). */
const parentRequests = (model) => model.requests.filter((r) => !JSON.stringify(r.messages).includes("Task: "));

/** routedModel, and the parent's reply to the person's next words ("let us talk"). */
const talkingModel = (parent, tasks) => {
  const routed = routedModel(parent, tasks);
  return (req) => (JSON.stringify(req.messages.at(-1)).includes("let us talk") ? { text: "parent listens" } : routed(req));
};

test("subagent: Esc on the worker's question ends the parent's turn too, and the parent's model reads which question the person cancelled", async () => {
  const replies = talkingModel(subagent({ agent: "worker", task: "pick" }), { pick: question("db", "Which database for the worker?") });
  await withParent({ replies }, async (pi) => {
    await pi.prompt("go");
    await pi.waitForScreen((s) => /Which database for the worker\?/.test(questionArea(s)), CHILD_MS);
    await pi.keys("Escape");
    // The parent's turn ends: the subagent's row says why (the note itself where pi's example
    // draws the result's text; its own abort line where it draws its details), the editor is
    // the person's again.
    const why = features.subagentAbortDrawnFromDetails ? "Subagent was aborted" : "The user cancelled the question";
    await pi.waitForScreen((s) => s.includes(why) && framed(s) && !/Asked by worker/.test(s), CHILD_MS);
    await pi.text("let us talk");
    await pi.waitForScreen((s) => questionArea(s).includes("let us talk"));
    await pi.keys("Enter");
    await pi.waitForScreen(/parent listens|parent saw:/, CHILD_MS);
    // The parent's model was asked once before the cancel and next only for the person's words.
    const asked = parentRequests(pi.model);
    assert.equal(asked.length, 2, "the parent never went on by itself after the cancel");
    const next = asked[1].messages;
    assert.match(JSON.stringify(next.at(-1).content), /let us talk/);
    const tool = next.filter((m) => m.role === "tool").at(-1);
    assert.ok(String(tool.content).startsWith(cancelledBelow("Which database for the worker?")), String(tool.content));
    // The child asked its model once: its turn ended at the cancel (it was stopped with the parent's).
    assert.equal(pi.model.requests.filter((r) => JSON.stringify(r.messages).includes("Task: pick")).length, 1);
  });
});

test("subagent: with escape \"continue\", Esc on the worker's question ends only the child's question; both agents go on", async () => {
  const replies = routedModel(subagent({ agent: "worker", task: "pick" }), { pick: question("db", "Which database for the worker?") });
  const settings = { ".pi/agent/question.json": JSON.stringify({ escape: "continue" }) };
  await withParent({ replies, homeFiles: settings }, async (pi) => {
    await pi.prompt("go");
    await pi.waitForScreen((s) => /Which database for the worker\?/.test(questionArea(s)), CHILD_MS);
    await pi.keys("Escape");
    await pi.waitForScreen(/parent saw: child pick got: /, CHILD_MS);
    const [child] = childQuestionResults(pi.sessionEntries());
    assert.equal(child.message.details.status, "cancelled");
    // The child's agent read the cancel and went on; so did the parent, with the child's words.
    assert.equal(parentRequests(pi.model).length, 2);
    assert.doesNotMatch(JSON.stringify(pi.model.requests), /The user cancelled the question the subagent/);
  });
});

const ABORT_EXTENSION = `
// Test-only: Ctrl+G aborts the agent run, as another extension (or a host) would.
export default function (pi) {
  pi.on("session_start", (_event, ctx) => {
    ctx.ui.onTerminalInput((data) => {
      if (data !== "\\x07") return undefined;
      ctx.abort();
      return { consume: true };
    });
  });
}
`;

test("subagent: aborting the subagent while its question is shown removes the question at once", async () => {
  const replies = routedModel(subagent({ agent: "worker", task: "pick" }), { pick: question("db", "Which database for the worker?") });
  await withParent({ replies, homeFiles: { "abort-ext.ts": ABORT_EXTENSION }, extensions: ["abort-ext.ts"] }, async (pi) => {
    await pi.prompt("go");
    await pi.waitForScreen((s) => /Which database for the worker\?/.test(questionArea(s)), CHILD_MS);
    await pi.text("half an answ");
    await pi.waitForScreen((s) => questionArea(s).includes("half an answ"));
    await pi.keys("C-g"); // the parent's run is aborted: the subagent tool kills its child
    await pi.waitForScreen(
      (s) => framed(s) && !/Which database for the worker\?/.test(questionArea(s)) && !/Asked by worker/.test(s),
      CHILD_MS,
    );
    // The parent's editor is back and empty: nothing typed for the question leaked into it.
    await pi.text("next");
    await pi.waitForScreen((s) => questionArea(s).trim() === "next");
  });
});

test("subagent: a nested subagent's question reaches the top pi, named by its path (worker › helper)", async () => {
  const replies = routedModel(subagent({ agent: "worker", task: "nest" }), {
    pick: question("db", "Deep question?"),
    nest: subagent({ agent: "helper", task: "pick" }),
  });
  const helper = { ".pi/agent/agents/helper.md": "---\nname: helper\ndescription: A test helper\n---\nYou are the helper.\n" };
  // The top pi's own launcher named it: a name for that pi only, never for its descendants.
  await withParent({ replies, homeFiles: helper, env: { PI_QUESTION_ASKER: "boss" } }, async (pi) => {
    await pi.prompt("go");
    const screen = await pi.waitForScreen(/Deep question\?/, CHILD_MS);
    assert.match(questionArea(screen), /Asked by worker › helper/);
    assert.doesNotMatch(screen, /boss/);
    await pi.keys("1");
    await pi.waitForScreen(/parent saw: child nest got: child pick got: db: user selected: 1\. SQLite/, CHILD_MS);
  });
});

test("subagent: a parent in RPC mode asks the child's question as RPC dialogs", async () => {
  const model = await startMockModel(
    routedModel(subagent({ agent: "worker", task: "pick" }), { pick: question("db", "Which database for the worker?") }),
  );
  const { home, work, cleanup } = makeHome(model.port);
  for (const [file, content] of Object.entries(subagentHomeFiles)) {
    mkdirSync(dirname(join(home, file)), { recursive: true });
    writeFileSync(join(home, file), content);
  }
  prepareSubagentHome(home);
  const rpc = startRpc(
    home,
    work,
    (req) => {
      if (req.method === "select" && /Which database for the worker\?/.test(req.title)) {
        return { value: req.options.find((o) => /Postgres/.test(o)) };
      }
      return { cancelled: true };
    },
    { loadPackage: false },
  );
  try {
    rpc.send({ type: "prompt", message: "go" });
    const dialog = await rpc.waitFor((e) => e.type === "extension_ui_request" && e.method === "select", CHILD_MS);
    assert.match(dialog.title, /^Asked by worker\n/);
    await rpc.waitFor((e) => e.type === "agent_end", CHILD_MS);
    const last = model.requests[model.requests.length - 1].messages.at(-1);
    assert.match(String(last.content), /child pick got: db: user selected: 2\. Postgres/);
  } finally {
    rpc.close();
    cleanup();
    await model.close();
  }
});

test("subagent: without pi-question in the parent, a child never draws on the terminal the parent's TUI owns", async () => {
  // The parent runs only the subagent example; its children still discover pi-question (it sits
  // in ~/.pi/agent/extensions, which the parent is told to skip).
  const replies = routedModel(subagent({ agent: "worker", task: "pick" }), { pick: question("db", "Which database for the worker?") });
  await withParent({ replies, extensions: [join(subagentExample, "index.ts")], extraArgs: ["--no-extensions"] }, async (pi) => {
    await pi.prompt("go");
    const done = await pi.waitForScreen(/parent saw:/, CHILD_MS);
    // Nothing of the question UI (its options, "Something else…") was drawn; the prompt is
    // shown only inside the child's last words, which quote it.
    assert.doesNotMatch(done, /Something else…|SQLite|Postgres/);
    const [child] = childQuestionResults(pi.sessionEntries());
    assert.equal(child.message.details.status, "unavailable");
    // The child's last words say what it needed (not "(no output)"), and no model wrote them:
    // the child asked its model once.
    const tool = parentRequests(pi.model)
      .at(-1)
      .messages.filter((m) => m.role === "tool")
      .at(-1);
    assert.equal(String(tool.content), neededBelow("Which database for the worker?"));
    assert.equal(pi.model.requests.filter((r) => JSON.stringify(r.messages).includes("Task: pick")).length, 1);
    // Every key still reaches the parent's editor, whole.
    await pi.text("every key reaches the parent");
    await pi.waitForScreen((s) => questionArea(s).trim() === "every key reaches the parent");
  });
});

test("subagent: a parent with no terminal (print mode, CI) runs a worker whose question nobody can answer; the parent's model reads what the worker needed", async () => {
  const model = await startMockModel(
    routedModel(subagent({ agent: "worker", task: "pick" }), { pick: question("db", "Which database for the worker?") }),
  );
  const { home, work, cleanup } = makeHome(model.port);
  try {
    for (const [file, content] of Object.entries(subagentHomeFiles)) {
      mkdirSync(dirname(join(home, file)), { recursive: true });
      writeFileSync(join(home, file), content);
    }
    prepareSubagentHome(home);
    const [cmd, args] = piCommand([...piArgs([], { loadPackage: false }), "-p", "go"]);
    const out = await run(cmd, args, { cwd: work, env: piEnv(home), timeoutMs: CHILD_MS });
    assert.equal(out.code, 0, out.output);
    // The parent's own output is its model's reply to what the worker said.
    assert.match(out.stdout, /parent saw: The subagent "worker" needed an answer to "Which database for the worker\?"/);
    const tool = parentRequests(model)
      .at(-1)
      .messages.filter((m) => m.role === "tool")
      .at(-1);
    assert.equal(String(tool.content), neededBelow("Which database for the worker?"));
    assert.equal(
      model.requests.filter((r) => JSON.stringify(r.messages).includes("Task: pick")).length,
      1,
      "the worker asked its model once",
    );
  } finally {
    cleanup();
    await model.close();
  }
});
