// e2e-tty.test.mjs — the engine on a real terminal (tmux): the standalone pi-question command
// and `pi -p` run from a terminal. The terminal settings (`stty -g`) are the same before and
// after an answer, a cancel, and a SIGTERM in the middle of a question; nothing but the answer
// reaches stdout.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { root } from "./helpers/addon.mjs";
import { finished, read, screen, startInTmux, tmux, waitFor, waitScreen } from "./helpers/tty-tmux.mjs";
import { startMockModel } from "./helpers/mock-model.mjs";
import { line, lineEnv, makeHome, piArgs, piArgv } from "./helpers/pi.mjs";

const QUESTIONS = {
  questions: [
    {
      id: "db",
      prompt: "Which database?",
      options: [
        { value: "pg", label: "PostgreSQL" },
        { value: "lite", label: "SQLite" },
      ],
    },
    { id: "name", prompt: "Service name?" },
  ],
};

function standalone(name, questions = QUESTIONS, size = undefined, env = {}) {
  const dir = mkdtempSync(join(tmpdir(), "pi-question-tty-"));
  writeFileSync(join(dir, "q.json"), JSON.stringify(questions));
  startInTmux(name, dir, `'${line.node}' ${join(root, "bin", "pi-question.mjs")} ${join(dir, "q.json")}`, env, size);
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
    await waitScreen("pq-tty-answer", /Review your answers/);
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

test("standalone: Esc cancels and the terminal is restored on a loaded machine (stty slow to answer)", async () => {
  // The flake in CI: the result files were read while the shell had created stty-after but stty
  // (slow under load) had not written it yet. A stty that takes 0.5 s makes that window certain.
  const slow = mkdtempSync(join(tmpdir(), "pi-question-slow-"));
  const real = spawnSync("sh", ["-c", "command -v stty"], { encoding: "utf8" }).stdout.trim();
  writeFileSync(join(slow, "stty"), `#!/bin/sh\nsleep 0.5\nexec ${real} "$@"\n`, { mode: 0o755 });
  const { dir, cleanup } = standalone("pq-tty-slow", QUESTIONS, undefined, { PATH: `${slow}:${process.env.PATH}` });
  try {
    await waitScreen("pq-tty-slow", /Which database\?/);
    tmux("send-keys", "-t", "pq-tty-slow", "Escape");
    await finished(dir);
    assert.equal(read(dir, "code").trim(), "1");
    assert.equal(JSON.parse(read(dir, "stdout")).status, "cancelled");
    assert.notEqual(read(dir, "stty-after"), "");
    assert.equal(read(dir, "stty-after"), read(dir, "stty-before"));
  } finally {
    cleanup();
    rmSync(slow, { recursive: true, force: true });
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

test("standalone 80x24: after /opt on 12 options with descriptions, the filter line and the prompt stay on screen, cursor on the filter; the highlighted option too", async () => {
  // Descriptions that wrap at 80 columns make the frame far taller than 24 rows.
  const options = Array.from({ length: 12 }, (_, i) => ({
    value: `o${i + 1}`,
    label: `Option ${i + 1}`,
    description: `Option ${i + 1} has a description long enough to take two rows of an eighty-column terminal by itself`,
  }));
  const questions = { questions: [{ id: "pick", prompt: "Which option should the build use?", options }] };
  const name = "pq-tty-window";
  const { dir, cleanup } = standalone(name, questions, { cols: 80, rows: 24 });
  try {
    await waitScreen(name, /Option \d+/);
    tmux("send-keys", "-t", name, "-l", "/opt");
    await waitScreen(name, /Filter: opt/);
    const shown = screen(name);
    assert.match(shown, /Which option should the build use\?/, `the prompt's first line is on screen:\n${shown}`);
    const rows = shown.split("\n");
    const filterRow = rows.findIndex((l) => l.includes("Filter: opt"));
    const [x, y] = tmux("display-message", "-p", "-t", name, "#{cursor_x},#{cursor_y}").stdout.trim().split(",").map(Number);
    assert.equal(y, filterRow, `the cursor is on the edited line:\n${shown}`);
    assert.equal(x, rows[filterRow].indexOf("Filter: opt") + "Filter: opt".length, "the cursor sits after the typed text");
    tmux("send-keys", "-t", name, "Escape"); // clears the filter
    await waitFor(() => !screen(name).includes("Filter:"), "the filter to close");
    // Down to the 8th option, too far below the prompt for one window: the prompt's first line
    // stays pinned on top and the highlighted option is on screen too.
    for (let i = 0; i < 7; i++) tmux("send-keys", "-t", name, "Down");
    await waitScreen(name, /> 8\. Option 8/);
    assert.match(screen(name), /Which option should the build use\?/, `the prompt stays:\n${screen(name)}`);
    tmux("send-keys", "-t", name, "Escape"); // cancels
    await finished(dir);
    assert.equal(read(dir, "stty-after"), read(dir, "stty-before"));
  } finally {
    cleanup();
  }
});

test("pi -p from a terminal: the question is asked on the terminal, stdout carries only pi's answer", async () => {
  const model = await startMockModel([{ toolCalls: [{ name: "question", arguments: QUESTIONS }] }, { text: "FINAL-ANSWER" }]);
  const { home, work, cleanup } = makeHome(model.port);
  const name = "pq-tty-print";
  try {
    const cmd = piArgv([...piArgs(), "-p", "ask"])
      .map((a) => `'${a}'`)
      .join(" ");
    startInTmux(name, work, cmd, { HOME: home, PI_OFFLINE: "1", PATH: lineEnv().PATH });
    await waitScreen(name, /Which database\?/);
    tmux("send-keys", "-t", name, "Enter");
    await waitScreen(name, /Service name\?/);
    tmux("send-keys", "-t", name, "-l", "svc");
    tmux("send-keys", "-t", name, "Enter");
    await waitScreen(name, /Review your answers/);
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

// ---- the frame fits the terminal, talk first -----------------------------------------------------------
test("standalone: a 2,000-character prompt on a 20-row terminal keeps its first line and the help line; PageDown reads on", async () => {
  const name = "pq-uxa-tty-rows";
  const dir = mkdtempSync(join(tmpdir(), "pi-question-tty-"));
  const words = Array.from({ length: 400 }, (_, i) => `w${String(i + 1).padStart(3, "0")}`);
  const prompt = `FIRST-LINE-MARK ${words.join(" ")} LAST-WORD-MARK`;
  writeFileSync(join(dir, "q.json"), JSON.stringify({ questions: [{ id: "pick", prompt, options: ["Alpha", "Beta", "Gamma"] }] }));
  startInTmux(name, dir, `node ${join(root, "bin", "pi-question.mjs")} ${join(dir, "q.json")}`, {}, { cols: 80, rows: 20 });
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
    const cmd = piArgv([...piArgs(), "-p", "ask"])
      .map((a) => `'${a}'`)
      .join(" ");
    startInTmux(name, work, cmd, { HOME: home, PI_OFFLINE: "1", PATH: lineEnv().PATH });
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
