// e2e-tty-timeout-access-editor.test.mjs — the person's timeout, Ctrl+G and accessible mode in
// the terminal runner
// (tty.c): `pi -p` from a terminal with a timeout (the runner's poll wakes for the clock), Ctrl+G
// with an EDITOR script (raw mode left around the editor, the terminal settings the same after),
// and the standalone command under TERM=dumb drawing plain lines. Sessions are named pq-uxb-….
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { root } from "./helpers/addon.mjs";
import { finished, read, screen, startInTmux, tmux, waitScreen } from "./helpers/tty-tmux.mjs";
import { startMockModel } from "./helpers/mock-model.mjs";
import { line, makeHome, piArgs, piArgv } from "./helpers/pi.mjs";

const DB = {
  questions: [
    {
      id: "db",
      prompt: "Which database?",
      options: [
        { value: "pg", label: "PostgreSQL" },
        { value: "lite", label: "SQLite (Recommended)" },
      ],
    },
  ],
};

async function printMode(name, { settings, env = {}, prepare }, fn) {
  const model = await startMockModel([{ toolCalls: [{ name: "question", arguments: DB }] }, { text: "FINAL-ANSWER" }]);
  const { home, work, cleanup } = makeHome(model.port);
  try {
    if (settings) writeFileSync(join(home, ".pi", "agent", "question.json"), JSON.stringify(settings));
    if (prepare) prepare(home);
    const cmd = piArgv([...piArgs(), "-p", "ask"])
      .map((a) => `'${a}'`)
      .join(" ");
    startInTmux(name, work, cmd, { HOME: home, PI_OFFLINE: "1", ...env });
    await fn({ model, home, work });
  } finally {
    tmux("kill-session", "-t", name);
    cleanup();
    await model.close();
  }
}

test("tty: a 5-second timeout with then recommended answers itself; the model is told; the terminal is restored", async () => {
  const name = "pq-uxb-tty-timeout";
  await printMode(name, { settings: { timeout: { after: "5s", then: "recommended" } } }, async ({ model, work }) => {
    await waitScreen(name, /Answers itself in 0:0\d with the recommended option/);
    await finished(work);
    await model.waitForRequests(2);
    assert.match(
      model.toolMessages(1)[0].content,
      /^db: not answered in time; the timeout applied the recommended option: 2\. SQLite \(Recommended\)/,
    );
    assert.equal(read(work, "stdout").trim(), "FINAL-ANSWER");
    assert.equal(read(work, "stty-after"), read(work, "stty-before"));
  });
});

test("tty: then selected — a key starts the runner's clock again instead of stopping it; with nothing selected the agent is told so; the terminal is restored", async () => {
  const name = "pq-uxb-tty-selected";
  await printMode(name, { settings: { timeout: { after: "4s", then: "selected" } } }, async ({ model, work }) => {
    await waitScreen(name, /Sends what you selected in 0:0\d/);
    tmux("send-keys", "-t", name, "Up"); // only a highlight: no selection, and the clock runs on
    await waitScreen(name, /> 1\. PostgreSQL/);
    assert.match(screen(name), /Sends what you selected in 0:0[34]/, "the countdown still runs, started again");
    await finished(work);
    await model.waitForRequests(2);
    assert.match(model.toolMessages(1)[0].content, /\("then": "selected"\) would send what they had selected, and nothing was selected/);
    assert.equal(read(work, "stty-after"), read(work, "stty-before"));
  });
});

test("tty: Ctrl+G runs $EDITOR outside raw mode; its text comes back; the terminal is restored", async () => {
  const name = "pq-uxb-tty-editor";
  await printMode(
    name,
    {
      prepare: (home) => {
        const editor = join(home, "editor.sh");
        // the editor sees a cooked terminal (icanon on) and the draft
        writeFileSync(
          editor,
          `#!/bin/sh\nstty -a < /dev/tty | grep -o -- '-\\?icanon' > "${join(home, "icanon.txt")}"\ncp "$1" "${join(home, "seen.txt")}"\nprintf 'from the editor\\n' > "$1"\n`,
        );
        chmodSync(editor, 0o755);
      },
      env: { EDITOR: "$HOME/editor.sh" }, // expanded by the shell that runs it, where HOME is the test's
    },
    async ({ model, home, work }) => {
      await waitScreen(name, /Which database\?/);
      tmux("send-keys", "-t", name, "-l", "draft");
      await waitScreen(name, /Ctrl\+G editor/);
      tmux("send-keys", "-t", name, "C-g");
      await waitScreen(name, /(from the editor|Editor: )/);
      assert.match(screen(name), /from the editor/);
      assert.equal(read(home, "seen.txt"), "draft");
      assert.equal(read(home, "icanon.txt").trim(), "icanon");
      tmux("send-keys", "-t", name, "Enter");
      await finished(work);
      await model.waitForRequests(2);
      assert.equal(model.toolMessages(1)[0].content, "db: user wrote: from the editor");
      assert.equal(read(work, "stty-after"), read(work, "stty-before"));
    },
  );
});

test("tty: Ctrl+G in the terminal runner (C) first removes the drafts a killed process left in TMPDIR; its own goes after use", async () => {
  const name = "pq-uxb-tty-drafts";
  const dir = mkdtempSync(join(tmpdir(), "pq-uxb-tty-"));
  try {
    const tmp = join(dir, "tmp");
    mkdirSync(tmp);
    const dead = Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout);
    // a folder as pi's TUI leaves it, a file as the runner leaves it
    mkdirSync(join(tmp, `pi-question-draft-${dead}-aB3dE9`));
    writeFileSync(join(tmp, `pi-question-draft-${dead}-aB3dE9`, "answer.md"), "a secret");
    writeFileSync(join(tmp, `pi-question-draft-${dead}-Zx81Qw`), "another secret", { mode: 0o600 });
    writeFileSync(join(tmp, `pi-question-draft-${process.pid}-LiVe01`), "a running process's draft");
    const editor = join(dir, "editor.sh");
    writeFileSync(editor, `#!/bin/sh\nls "${tmp}" > "${join(dir, "seen.txt")}"\nprintf 'from the editor\\n' > "$1"\n`);
    chmodSync(editor, 0o755);
    writeFileSync(join(dir, "q.json"), JSON.stringify(DB));
    startInTmux(name, dir, `'${line.node}' ${join(root, "bin", "pi-question.mjs")} ${join(dir, "q.json")}`, {
      EDITOR: editor,
      TMPDIR: tmp,
    });
    await waitScreen(name, /Which database\?/);
    tmux("send-keys", "-t", name, "-l", "draft");
    await waitScreen(name, /Ctrl\+G editor/);
    tmux("send-keys", "-t", name, "C-g");
    await waitScreen(name, /(from the editor|Editor: )/);
    // While the editor ran: the dead process's drafts gone, the live one's and this draft there.
    const seen = read(dir, "seen.txt").trim().split("\n").sort();
    assert.equal(seen.length, 2, seen.join(", "));
    const live = `pi-question-draft-${process.pid}-LiVe01`;
    assert.ok(seen.includes(live), seen.join(", "));
    assert.match(
      seen.find((f) => f !== live),
      /^pi-question-draft-\d+-[A-Za-z0-9]{6}$/,
    );
    tmux("send-keys", "-t", name, "Enter");
    await finished(dir);
    assert.deepEqual(readdirSync(tmp), [`pi-question-draft-${process.pid}-LiVe01`]);
  } finally {
    tmux("kill-session", "-t", name);
    rmSync(dir, { recursive: true, force: true });
  }
});

test("tty: the standalone command under TERM=dumb draws plain lines and announces the focus", async () => {
  const name = "pq-uxb-tty-dumb";
  const dir = mkdtempSync(join(tmpdir(), "pq-uxb-tty-"));
  try {
    writeFileSync(join(dir, "q.json"), JSON.stringify(DB));
    startInTmux(name, dir, `'${line.node}' ${join(root, "bin", "pi-question.mjs")} ${join(dir, "q.json")}`, { TERM: "dumb" });
    await waitScreen(name, /Option 2 of 3: SQLite \(Recommended\)/); // the highlight starts on the recommended option
    tmux("send-keys", "-t", name, "Up");
    await waitScreen(name, /Option 1 of 3: PostgreSQL/);
    const captured = tmux("capture-pane", "-e", "-p", "-t", name).stdout;
    assert.doesNotMatch(captured, /[\u2500-\u257f■□✓›‹│↑↓]/);
    assert.doesNotMatch(captured, /\x1b\[[0-9;]*m/);
    tmux("send-keys", "-t", name, "Enter");
    await finished(dir);
    assert.equal(JSON.parse(read(dir, "stdout")).status, "answered");
    assert.equal(read(dir, "stty-after"), read(dir, "stty-before"));
  } finally {
    tmux("kill-session", "-t", name);
    rmSync(dir, { recursive: true, force: true });
  }
});
