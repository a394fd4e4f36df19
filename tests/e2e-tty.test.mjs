// e2e-tty.test.mjs — the engine on a real terminal (tmux): the standalone pi-question command
// and `pi -p` run from a terminal. The terminal settings (`stty -g`) are the same before and
// after an answer, a cancel, and a SIGTERM in the middle of a question; nothing but the answer
// reaches stdout.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { root } from "./helpers/addon.mjs";
import { startMockModel } from "./helpers/mock-model.mjs";
import { makeHome, piArgs, piBin } from "./helpers/pi.mjs";

const tmux = (...args) => spawnSync("tmux", args, { encoding: "utf8" });
const screen = (name) => tmux("capture-pane", "-p", "-t", name).stdout ?? "";

async function waitFor(pred, what, timeoutMs = 20000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = pred();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const waitScreen = (name, re) => waitFor(() => re.test(screen(name)), `${re} on screen:\n${screen(name)}`);

/** Runs `command` in a tmux window, recording stty -g before and after it and its exit code. */
function startInTmux(name, dir, command, env = {}, size = ["100", "40"]) {
  tmux("kill-session", "-t", name);
  const script = join(dir, "run.sh");
  const exports = Object.entries(env)
    .map(([k, v]) => `export ${k}='${String(v).replace(/'/g, "'\\''")}'`)
    .join("\n");
  writeFileSync(
    script,
    `${exports}\nstty -g > ${dir}/stty-before\n${command} > ${dir}/stdout 2> ${dir}/stderr\necho $? > ${dir}/code\nstty -g > ${dir}/stty-after\nsleep 60\n`,
  );
  tmux("new-session", "-d", "-s", name, "-x", size[0], "-y", size[1], `bash ${script}`);
}

const finished = (dir) => waitFor(() => existsSync(join(dir, "stty-after")), "the command to finish");
const read = (dir, f) => readFileSync(join(dir, f), "utf8");

const QUESTIONS = {
  questions: [
    { id: "db", prompt: "Which database?", options: [{ value: "pg", label: "PostgreSQL" }, { value: "lite", label: "SQLite" }] },
    { id: "name", prompt: "Service name?" },
  ],
};

function standalone(name) {
  const dir = mkdtempSync(join(tmpdir(), "pi-question-tty-"));
  writeFileSync(join(dir, "q.json"), JSON.stringify(QUESTIONS));
  startInTmux(name, dir, `node ${join(root, "bin", "pi-question.mjs")} ${join(dir, "q.json")}`);
  return { dir, cleanup: () => (tmux("kill-session", "-t", name), rmSync(dir, { recursive: true, force: true })) };
}

test("standalone: answering prints the result JSON on stdout and restores the terminal", async () => {
  const { dir, cleanup } = standalone("pq-tty-answer");
  try {
    await waitScreen("pq-tty-answer", /Which database\?/);
    tmux("send-keys", "-t", "pq-tty-answer", "2");
    await waitScreen("pq-tty-answer", /Service name\?/);
    tmux("send-keys", "-t", "pq-tty-answer", "-l", "orders");
    tmux("send-keys", "-t", "pq-tty-answer", "Enter");
    await waitScreen("pq-tty-answer", /Review/);
    tmux("send-keys", "-t", "pq-tty-answer", "Enter");
    await finished(dir);
    assert.equal(read(dir, "code").trim(), "0", read(dir, "stderr"));
    const out = JSON.parse(read(dir, "stdout"));
    assert.equal(out.status, "answered");
    assert.equal(out.mode, "standalone");
    assert.equal(out.text, "db: user selected: 2. SQLite (value: lite)\nname: user wrote: orders");
    assert.equal(read(dir, "stty-after"), read(dir, "stty-before"));
  } finally {
    cleanup();
  }
});

test("standalone: Esc cancels, exits 1, and restores the terminal", async () => {
  const { dir, cleanup } = standalone("pq-tty-cancel");
  try {
    await waitScreen("pq-tty-cancel", /Which database\?/);
    tmux("send-keys", "-t", "pq-tty-cancel", "Escape");
    await finished(dir);
    assert.equal(read(dir, "code").trim(), "1");
    assert.equal(JSON.parse(read(dir, "stdout")).status, "cancelled");
    assert.equal(read(dir, "stty-after"), read(dir, "stty-before"));
  } finally {
    cleanup();
  }
});

test("standalone: SIGTERM in the middle of a question restores the terminal", async () => {
  const { dir, cleanup } = standalone("pq-tty-term");
  try {
    await waitScreen("pq-tty-term", /Which database\?/);
    tmux("send-keys", "-t", "pq-tty-term", "0"); // into text entry: the most "raw" state
    tmux("send-keys", "-t", "pq-tty-term", "-l", "half-typed");
    await waitScreen("pq-tty-term", /half-typed/);
    spawnSync("pkill", ["-TERM", "-f", `pi-question.mjs ${join(dir, "q.json")}`]);
    await finished(dir);
    assert.equal(read(dir, "stty-after"), read(dir, "stty-before"));
    assert.equal(JSON.parse(read(dir, "stdout")).status, "interrupted");
  } finally {
    cleanup();
  }
});

test("pi -p from a terminal: the question is asked on the terminal, stdout carries only pi's answer", async () => {
  const model = await startMockModel([{ toolCalls: [{ name: "question", arguments: QUESTIONS }] }, { text: "FINAL-ANSWER" }]);
  const { home, work, cleanup } = makeHome(model.port);
  const name = "pq-tty-print";
  try {
    const cmd = [piBin, ...piArgs(), "-p", "ask"].map((a) => `'${a}'`).join(" ");
    startInTmux(name, work, cmd, { HOME: home, PI_OFFLINE: "1" });
    await waitScreen(name, /Which database\?/);
    tmux("send-keys", "-t", name, "Enter");
    await waitScreen(name, /Service name\?/);
    tmux("send-keys", "-t", name, "-l", "svc");
    tmux("send-keys", "-t", name, "Enter");
    await waitScreen(name, /Review/);
    tmux("send-keys", "-t", name, "Enter");
    await finished(work);
    await model.waitForRequests(2);
    assert.equal(model.toolMessages(1)[0].content, "db: user selected: 1. PostgreSQL (value: pg)\nname: user wrote: svc");
    assert.equal(read(work, "stdout").trim(), "FINAL-ANSWER", "stdout holds pi's answer and nothing of the UI");
    assert.equal(read(work, "stty-after"), read(work, "stty-before"));
  } finally {
    tmux("kill-session", "-t", name);
    cleanup();
    await model.close();
  }
});

// ---- issue 14: the frame fits the terminal (item 2), talk first (item 5) -----------------------------
test("standalone: a 2,000-character prompt on a 20-row terminal keeps its first line and the help line; PageDown reads on", async () => {
  const name = "pq-uxa-tty-rows";
  const dir = mkdtempSync(join(tmpdir(), "pi-question-tty-"));
  const words = Array.from({ length: 400 }, (_, i) => `w${String(i + 1).padStart(3, "0")}`);
  const prompt = `FIRST-LINE-MARK ${words.join(" ")} LAST-WORD-MARK`;
  writeFileSync(join(dir, "q.json"), JSON.stringify({ questions: [{ id: "pick", prompt, options: ["Alpha", "Beta", "Gamma"] }] }));
  startInTmux(name, dir, `node ${join(root, "bin", "pi-question.mjs")} ${join(dir, "q.json")}`, {}, ["80", "20"]);
  try {
    await waitScreen(name, /FIRST-LINE-MARK/);
    let s = screen(name);
    assert.match(s, /PgUp\/PgDn read the question/);
    assert.match(s, /Esc cancel/);
    assert.match(s, /> 1\. Alpha/);
    assert.doesNotMatch(s, /LAST-WORD-MARK/);
    for (let i = 0; i < 40 && !/LAST-WORD-MARK/.test(s); i++) {
      tmux("send-keys", "-t", name, "PageDown");
      await waitFor(() => screen(name) !== s, "the prompt to move on");
      s = screen(name);
      assert.doesNotMatch(s, /FIRST-LINE-MARK/);
      assert.match(s, /Esc cancel/, `the help line stays:\n${s}`);
    }
    assert.match(s, /LAST-WORD-MARK/);
    tmux("send-keys", "-t", name, "Down");
    tmux("send-keys", "-t", name, "Enter");
    await finished(dir);
    assert.equal(JSON.parse(read(dir, "stdout")).text, "pick: user selected: 2. Beta");
    assert.equal(read(dir, "stty-after"), read(dir, "stty-before"));
  } finally {
    tmux("kill-session", "-t", name);
    rmSync(dir, { recursive: true, force: true });
  }
});

test("pi -p from a terminal: Ctrl+T talks first, the model reads the words and replies", async () => {
  const model = await startMockModel([{ toolCalls: [{ name: "question", arguments: QUESTIONS }] }, { text: "FINAL-ANSWER" }]);
  const { home, work, cleanup } = makeHome(model.port);
  const name = "pq-uxa-tty-discuss";
  try {
    const cmd = [piBin, ...piArgs(), "-p", "ask"].map((a) => `'${a}'`).join(" ");
    startInTmux(name, work, cmd, { HOME: home, PI_OFFLINE: "1" });
    await waitScreen(name, /Which database\?/);
    tmux("send-keys", "-t", name, "C-t");
    await waitScreen(name, /What do you want to tell the agent\?/);
    tmux("send-keys", "-t", name, "-l", "which is cheaper?");
    await waitScreen(name, /which is cheaper\?/);
    tmux("send-keys", "-t", name, "Enter");
    await finished(work);
    await model.waitForRequests(2);
    assert.equal(
      model.toolMessages(1)[0].content,
      "The user wants to talk about this question before answering it, and wrote to you:\n  which is cheaper?\nReply to what they wrote. Do not answer the question for them and do not act on it yet; ask the question again later if you still need the answer.",
    );
    assert.equal(read(work, "stdout").trim(), "FINAL-ANSWER");
    assert.equal(read(work, "stty-after"), read(work, "stty-before"));
  } finally {
    tmux("kill-session", "-t", name);
    cleanup();
    await model.close();
  }
});
