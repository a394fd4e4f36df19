// e2e-timeout-access-editor.test.mjs — the person's timeout, Ctrl+G and accessible mode with the
// real pi in tmux and a
// scripted model: a 6-second timeout with each `then` (the countdown on screen, the tool result
// the model reads), Ctrl+G with an EDITOR script that writes a known text, and accessible mode
// (setting, and TERM=dumb) with no box drawing and no colour escapes in the question
// (`tmux capture-pane -e -p`), and the transcript after the answer in words. Sessions are named pq-uxb-….
import assert from "node:assert/strict";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { tmux, withPi as withPiIn } from "./helpers/tmux.mjs";

const DB = {
  id: "db",
  label: "Database",
  prompt: "Which database?",
  options: [
    { value: "pg", label: "PostgreSQL" },
    { value: "lite", label: "SQLite (Recommended)" },
  ],
};
const script = (args) => [{ toolCalls: [{ name: "question", arguments: args }] }, { text: "thanks" }];
const settings = (value) => ({ ".pi/agent/question.json": JSON.stringify(value) });

const withPi = (options, fn) => withPiIn({ namePrefix: "pq-uxb-", ...options }, fn);

/** The tool message the model reads in its second request. */
async function toolResultText(pi) {
  await pi.model.waitForRequests(2, 30000);
  const tools = pi.model.toolMessages(1);
  assert.equal(tools.length, 1);
  return tools[0].content;
}

// ---- the person's timeout: 6 seconds with each `then` (long enough for a loaded machine to see the
// countdown before it ends) ----------------------------------------------------
test("e2e timeout: then recommended — the countdown runs, and the model reads that the recommended option was applied", async () => {
  await withPi(
    { replies: script({ questions: [DB] }), homeFiles: settings({ timeout: { after: "6s", then: "recommended" } }) },
    async (pi) => {
      await pi.prompt();
      await pi.waitForScreen(/Answers itself in 0:0\d with the recommended option — any key stops the clock/);
      const text = await toolResultText(pi);
      assert.equal(
        text,
        "db: not answered in time; the timeout applied the recommended option: 2. SQLite (Recommended) (value: lite)\n" +
          'The user did not answer within the time limit they set; their timeout setting ("then": "recommended") applied the recommended option shown above. The user did not choose it: treat it as a default, say in your reply that it was applied because nobody answered in time, and continue.',
      );
      const result = await pi.waitForQuestionResult();
      assert.equal(result.details.status, "timed_out");
      assert.equal(result.details.timeout, "recommended");
      assert.equal(result.details.answers[0].appliedByTimeout, true);
      await pi.waitForScreen(/thanks/);
    },
  );
});

test("e2e timeout: then decline — the agent decides, and the model reads that nobody answered", async () => {
  await withPi({ replies: script({ questions: [DB] }), homeFiles: settings({ timeout: { after: "6s", then: "decline" } }) }, async (pi) => {
    await pi.prompt();
    await pi.waitForScreen(/Leaves it to the agent in 0:0\d/);
    const text = await toolResultText(pi);
    assert.match(
      text,
      /^The user did not answer within the time limit they set; their timeout setting \("then": "decline"\) leaves the decision to you\./,
    );
    assert.doesNotMatch(text, /user selected/);
    assert.equal((await pi.waitForQuestionResult()).details.status, "timed_out");
  });
});

test("e2e timeout: then cancel — the question closes, the turn ends, the result says nobody answered in time", async () => {
  await withPi({ replies: script({ questions: [DB] }), homeFiles: settings({ timeout: { after: "6s", then: "cancel" } }) }, async (pi) => {
    await pi.prompt();
    await pi.waitForScreen(/Closes itself in 0:0\d — any key stops the clock/);
    const result = await pi.waitForQuestionResult(30000);
    assert.equal(result.details.status, "timed_out");
    assert.equal(result.details.timeout, "cancel");
    assert.match(result.content[0].text, /^The user did not answer within the time limit they set, so the question closed itself/);
    await pi.waitForScreen((s) => !/Working|Waiting for your answer/.test(s));
    assert.equal(pi.model.requests.length, 1, "the turn ended: the model was not called again");
  });
});

test("e2e timeout: any key stops the clock; the person answers later", async () => {
  await withPi({ replies: script({ questions: [DB] }), homeFiles: settings({ timeout: { after: "6s", then: "cancel" } }) }, async (pi) => {
    await pi.prompt();
    await pi.waitForScreen(/Closes itself in/);
    const seen = Date.now(); // the clock started before this: it would have fired 6 s from now at the latest
    await pi.keys("Up");
    await pi.waitForScreen((s) => !/Closes itself in/.test(s) && /> 1\. PostgreSQL/.test(s));
    await new Promise((r) => setTimeout(r, Math.max(0, seen + 7000 - Date.now())));
    assert.equal(pi.model.requests.length, 1, "nothing answered itself");
    await pi.keys("Enter");
    assert.equal(await toolResultText(pi), "db: user selected: 1. PostgreSQL (value: pg)");
  });
});

test("e2e timeout: then selected — an idle clock: a key starts it again, and when the person stops part-way their pick reaches the model as theirs", async () => {
  const NAME = { id: "name", label: "Name", prompt: "Called?", options: ["api", "core"] };
  await withPi(
    { replies: script({ questions: [DB, NAME] }), homeFiles: settings({ timeout: { after: "6s", then: "selected" } }) },
    async (pi) => {
      await pi.prompt();
      await pi.waitForScreen(/Sends what you selected in 0:0\d/);
      await pi.keys("Enter"); // the highlighted recommendation, question 1: the clock starts again
      await pi.waitForScreen((s) => /Called\?/.test(s) && /Sends what you selected in 0:0[56]/.test(s));
      const text = await toolResultText(pi);
      assert.match(text, /^db: user selected: 2\. SQLite \(Recommended\) \(value: lite\)$/m);
      assert.match(text, /\("then": "selected"\) sent the answers they had selected/);
      assert.match(text, /questions not listed were not answered: decide those yourself/);
      const result = await pi.waitForQuestionResult();
      assert.equal(result.details.status, "timed_out");
      assert.equal(result.details.timeout, "selected");
      assert.equal(result.details.answers.length, 1);
      assert.equal(result.details.answers[0].appliedByTimeout, undefined, "the person's pick, not the timeout's");
    },
  );
});

// ---- the external editor: Ctrl+G with an EDITOR script --------------------------------------------
test("e2e editor: Ctrl+G opens $EDITOR on the draft; the text it writes comes back and is submitted", async () => {
  await withPi(
    {
      replies: script({ questions: [DB] }),
      prepareHome: (home) => {
        const editor = join(home, "editor.sh");
        writeFileSync(editor, `#!/bin/sh\ncp "$1" "${join(home, "seen.txt")}"\nprintf 'written by the editor\\n' > "$1"\n`);
        chmodSync(editor, 0o755);
      },
      env: { EDITOR: "$HOME/editor.sh" },
    },
    async (pi) => {
      await pi.prompt();
      await pi.waitForScreen(/3\. Something else…/);
      await pi.text("my draft");
      await pi.waitForScreen(/Ctrl\+G editor/);
      await pi.keys("C-g");
      await pi.waitForScreen(/written by the editor/);
      assert.equal(readFileSync(join(pi.home, "seen.txt"), "utf8"), "my draft");
      await pi.keys("Enter");
      assert.equal(await toolResultText(pi), "db: user wrote: written by the editor");
    },
  );
});

test("e2e editor: an editor that fails keeps the draft and says so", async () => {
  await withPi({ replies: script({ questions: [DB] }), env: { EDITOR: "false" } }, async (pi) => {
    await pi.prompt();
    await pi.waitForScreen(/3\. Something else…/);
    await pi.text("keep me");
    await pi.waitForScreen(/Ctrl\+G editor/);
    await pi.keys("C-g");
    await pi.waitForScreen(/Editor: exited with status 1\. Your text is kept\./);
    await pi.keys("Enter");
    assert.equal(await toolResultText(pi), "db: user wrote: keep me");
  });
});

// ---- accessible mode -------------------------------------------------------------------------------
/** The question's lines of a screen captured with its escapes: from the prompt to the keys line. */
function questionLines(screen) {
  const lines = screen.split("\n");
  const start = lines.findIndex((l) => l.includes("Which database?"));
  let end = lines.findIndex((l, i) => i > start && /Escape cancels\./.test(l));
  assert.ok(start >= 0 && end >= start, screen);
  return lines.slice(start, end + 1).join("\n");
}

for (const [how, options] of [
  ["the accessible setting", { homeFiles: settings({ accessible: true }) }],
  ["TERM=dumb", { env: { TERM: "dumb" } }],
]) {
  test(`e2e accessible (${how}): plain lines, no box drawing, no colour; focus announced, words for markers`, async () => {
    await withPi({ replies: script({ questions: [DB] }), ...options, env: { ...(options.env ?? {}), NO_COLOR: "" } }, async (pi) => {
      await pi.prompt();
      await pi.waitForScreen(/Option 2 of 3: SQLite \(Recommended\)/); // the highlight starts on the recommended option
      await pi.keys("Up");
      await pi.waitForScreen(/Option 1 of 3: PostgreSQL/);
      await pi.keys("Down");
      await pi.waitForScreen(/Option 2 of 3: SQLite \(Recommended\)/);
      const captured = tmux("capture-pane", "-e", "-p", "-t", pi.name).stdout;
      const question = questionLines(captured);
      assert.doesNotMatch(question, /[\u2500-\u257f■□✓›‹│↑↓]/, "no box drawing or symbols");
      // tmux writes the attribute change from the line above (pi 0.87 draws its user message on
      // a background): a reset to the defaults is not colour; any other SGR sequence is.
      const sgr = question.match(/\x1b\[[0-9;]*m/g) ?? [];
      const colours = sgr.filter((e) => !/^\x1b\[(?:0|39|49|39;49|49;39)?m$/.test(e));
      assert.deepEqual(colours, [], "no colour escapes");
      assert.match(question, /^Choose one of 2 options\.$/m);
      assert.match(question, /^2\. SQLite \(Recommended\)$/m);
      await pi.keys("Enter");
      assert.equal(await toolResultText(pi), "db: user selected: 2. SQLite (Recommended) (value: lite)");
      // The transcript (transcript.ts): the status and the answer in words, then expanded (pi's
      // Ctrl+O) every option said selected or not selected — no marks, no colour of ours.
      await pi.waitForScreen((s) => /Status: Answered\./.test(s) && /Database: SQLite \(Recommended\)/.test(s));
      await pi.keys("C-o");
      await pi.waitForScreen(/Option 2 of 2: SQLite \(Recommended\), selected/);
      const transcript = tmux("capture-pane", "-e", "-p", "-t", pi.name).stdout;
      const ours = transcript.split("\n").filter((l) => /Status: Answered|Database: Which database\?|Option [12] of 2:/.test(l));
      assert.equal(ours.length, 4, transcript);
      assert.match(ours.join("\n"), /Option 1 of 2: PostgreSQL, not selected/);
      assert.doesNotMatch(transcript, /[●○]/, "no symbol-only marks in the transcript");
      // pi draws the tool row on its own background (chrome); the words carry no foreground colour
      const fg = ours.join("\n").match(/\x1b\[(?:3[0-7]|38;[0-9;]+|9[0-7])m/g) ?? [];
      assert.deepEqual(fg, [], "no colour on the answer's words");
    });
  });
}
