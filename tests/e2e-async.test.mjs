// e2e-async.test.mjs — the real pi (TUI, in tmux) with a question asked without waiting (wait:
// false): the scripted model asks, gets "asked" at once and runs a command while the question
// waits; the line above the editor says so; the person opens it with Alt+A (or /answer) and
// answers with a key; the model's next request carries the answer as a message. After /reload,
// and in the session resumed by another pi (pi -c), the line comes back and the answer arrives.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { test } from "node:test";
import { questionArea, startPi } from "./helpers/tmux.mjs";

const DB = { id: "db", prompt: "Which database?", options: ["SQLite", "Postgres"] };
const LINE = /1 question waiting — \/answer or Alt\+A to answer/;

/** The model: asks without waiting, then works (bash), then ends its turn; later replies say thanks. */
const replies = (_body, i) =>
  i === 0
    ? { toolCalls: [{ name: "question", arguments: { questions: [DB], wait: false } }] }
    : i === 1
      ? { toolCalls: [{ name: "bash", arguments: { command: "echo working" } }] }
      : { text: i === 2 ? "carrying on meanwhile" : "thanks" };

/** Every text the model read in request i, whatever its role and shape. */
const texts = (request) =>
  (request?.messages ?? []).map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? ""))).join("\n");

async function withPi(fn) {
  const pi = await startPi({ replies, session: true, namePrefix: "pq-async-" });
  try {
    await pi.prompt("ask me");
    // the call returned at once: the model worked on (bash) and ended its turn, the question waits
    await pi.model.waitForRequests(3);
    const asked = pi.model.toolMessages(1)[0].content;
    assert.match(asked, /^Asked \(question q[0-9a-f]{8}\): the person's answer will arrive later as a message/);
    assert.match(texts(pi.model.requests[2]), /working/);
    await pi.waitForScreen(/carrying on meanwhile/);
    await pi.waitForScreen(LINE);
    await fn(pi, asked.match(/q[0-9a-f]{8}/)[0]);
  } catch (error) {
    error.message += `\n--- screen (${pi.name}) ---\n${pi.screen()}`;
    throw error;
  } finally {
    await pi.kill();
  }
}

/** Opens the waiting question with `open`, answers "2" and checks the model's next request. */
async function answer(pi, qid, open) {
  await open();
  await pi.waitForScreen(/Which database\?/);
  await pi.keys("2");
  await pi.model.waitForRequests(4);
  const read = texts(pi.model.requests[3]);
  assert.match(read, new RegExp(`The answer to question ${qid}, which you asked without waiting:`));
  assert.match(read, /db: user selected: 2\. Postgres/);
  await pi.waitForScreen((screen) => !LINE.test(screen));
  // the message is in the transcript too (display: true)
  await pi.waitForScreen(new RegExp(`the answer to a question asked without waiting \\(${qid}\\)`));
}

test("async e2e: wait:false returns at once, the model works on, the line waits; Alt+A opens it, a key answers, the model reads it as a message", async () => {
  await withPi(async (pi, qid) => {
    await answer(pi, qid, () => pi.keys("M-a"));
    const ended = pi.sessionEntries().filter((e) => e.type === "custom" && e.customType === "pi-question-async-end");
    assert.deepEqual(
      ended.map((e) => e.data),
      [{ qid, status: "answered" }],
    );
  });
});

test("async e2e: /reload while it waits — the line comes back, /answer opens it, the answer still arrives", async () => {
  await withPi(async (pi, qid) => {
    await pi.text("/reload");
    await pi.keys("Enter");
    await pi.waitForScreen(/[Rr]eloaded/);
    await pi.waitForScreen(LINE);
    await answer(pi, qid, async () => {
      await pi.text("/answer");
      await pi.waitForScreen(/\/answer/);
      await pi.keys("Enter");
    });
  });
});

test("async e2e: a resumed session (pi -c) shows its unanswered question again; a key answers it and the model reads it", async () => {
  let entries;
  await withPi(async (pi) => {
    entries = pi.sessionEntries();
  });
  const qid = entries.find((e) => e.customType === "pi-question-async").data.qid;
  // the same session, continued by a new pi in a new home: its header names the new project
  const resumed = await startPi({
    replies: () => ({ text: "thanks" }),
    session: true,
    namePrefix: "pq-async-",
    extraArgs: ["-c"],
    prepareHome: (home, work) => {
      const dir = join(home, "sessions");
      mkdirSync(dir, { recursive: true });
      const lines = entries.map((e) => JSON.stringify(e.type === "session" ? { ...e, cwd: work } : e));
      writeFileSync(join(dir, basename(entries[0].id ?? "s") + ".jsonl"), lines.join("\n") + "\n");
    },
  });
  try {
    await resumed.waitForScreen(LINE);
    await resumed.keys("M-a");
    await resumed.waitForScreen(/Which database\?/);
    await resumed.keys("2");
    await resumed.model.waitForRequests(1);
    const read = texts(resumed.model.requests[0]);
    assert.match(read, new RegExp(`The answer to question ${qid}, which you asked without waiting:`));
    assert.match(read, /db: user selected: 2\. Postgres/);
  } catch (error) {
    error.message += `\n--- screen (${resumed.name}) ---\n${resumed.screen()}`;
    throw error;
  } finally {
    await resumed.kill();
  }
});

// ---- exactly once: Esc, /reload, quitting, /tree ---------------------------------------------

/** How many times request `request` tells the model question `qid`'s answer. */
const timesRead = (request, qid) => texts(request).split(`The answer to question ${qid}, which you asked without waiting:`).length - 1;

/** Polls the saved session until `check(entries)` holds. */
async function untilSession(pi, check, what) {
  for (const until = Date.now() + 20000; !check(pi.sessionEntries()); await new Promise((r) => setTimeout(r, 50)))
    if (Date.now() > until) throw new Error(`timed out waiting for ${what} in the session`);
}
const answerEntries = (entries, qid) => entries.filter((e) => e.type === "custom_message" && e.details?.qid === qid);
const endEntries = (entries, qid) => entries.filter((e) => e.customType === "pi-question-async-end" && e.data?.qid === qid);

/** The model: asks without waiting, then runs a command that never ends by itself (the agent is
 * busy until the person stops it), then answers every later prompt with text. */
const busyReplies = (_body, i) =>
  i === 0
    ? { toolCalls: [{ name: "question", arguments: { questions: [DB], wait: false } }] }
    : i === 1
      ? { toolCalls: [{ name: "bash", arguments: { command: "sleep 600" } }] }
      : { text: `reply ${i}` };

/** Starts pi with busyReplies, prompts, and answers "2" while the command runs; resolves the qid
 * once the question is answered (pi holds the answer as a steering message). */
async function answerWhileBusy(pi) {
  await pi.prompt("ask me");
  await pi.model.waitForRequests(2);
  const qid = pi.model.toolMessages(1)[0].content.match(/q[0-9a-f]{8}/)[0];
  await pi.waitForScreen(LINE);
  await pi.waitForScreen(/sleep 600/);
  await pi.keys("M-a");
  await pi.waitForScreen(/Which database\?/);
  await pi.keys("2");
  await pi.waitForScreen((screen) => !LINE.test(screen) && !/Which database\?/.test(questionArea(screen)));
  return qid;
}

/** Types a prompt in pi's editor and waits for the model's request it makes (the n-th). */
async function promptAgain(pi, text, n) {
  await pi.waitForScreen(/mock-1/);
  await pi.text(text);
  await pi.waitForScreen((screen) => screen.includes(text));
  await pi.keys("Enter");
  await pi.model.waitForRequests(n);
}

test("async e2e: answered while the agent works, Esc right after — the answer still reaches the model, exactly once; /reload sends nothing again", async () => {
  const pi = await startPi({ replies: busyReplies, session: true, namePrefix: "pq-async-" });
  try {
    const qid = await answerWhileBusy(pi);
    await pi.keys("Escape"); // stops the agent: pi drops its queued steering messages
    await untilSession(pi, (entries) => answerEntries(entries, qid).length === 1, "the answer's message");
    await untilSession(pi, (entries) => endEntries(entries, qid).length === 1, "the end entry");
    await pi.waitForScreen(new RegExp(`the answer to a question asked without waiting \\(${qid}\\)`));
    assert.equal(pi.model.requests.length, 2, "added to the conversation: the stopped agent was not started again");
    await promptAgain(pi, "go on", 3);
    assert.equal(timesRead(pi.model.requests[2], qid), 1, "read once");
    assert.match(texts(pi.model.requests[2]), /db: user selected: 2\. Postgres/);
    await pi.waitForScreen(/reply 2/);
    await pi.text("/reload");
    await pi.keys("Enter");
    await pi.waitForScreen(/[Rr]eloaded/);
    await promptAgain(pi, "and now", 4);
    assert.equal(timesRead(pi.model.requests[3], qid), 1, "still once after /reload");
    const entries = pi.sessionEntries();
    assert.equal(answerEntries(entries, qid).length, 1);
    assert.equal(endEntries(entries, qid).length, 1);
  } catch (error) {
    error.message += `\n--- screen (${pi.name}) ---\n${pi.screen()}`;
    throw error;
  } finally {
    await pi.kill();
  }
});

test("async e2e: answered while the agent works, then pi quits before the answer arrived — the resumed session (pi -c) delivers it, exactly once, without asking again", async () => {
  let entries;
  let qid;
  const pi = await startPi({ replies: busyReplies, session: true, namePrefix: "pq-async-" });
  try {
    qid = await answerWhileBusy(pi);
    // the session has the answer (an older pi-question wrote its end entry at once instead)
    const kept = (x) => ["pi-question-async-answer", "pi-question-async-end"].includes(x.customType) && x.data?.qid === qid;
    await untilSession(pi, (e) => e.some(kept), "the answer");
    entries = pi.sessionEntries();
  } catch (error) {
    error.message += `\n--- screen (${pi.name}) ---\n${pi.screen()}`;
    throw error;
  } finally {
    await pi.kill(); // quits while the command runs: the steering message never reached the agent
  }
  assert.equal(answerEntries(entries, qid).length, 0, "not delivered before quitting");
  const resumed = await startPi({
    replies: (_body, i) => ({ text: `resumed ${i}` }),
    session: true,
    namePrefix: "pq-async-",
    extraArgs: ["-c"],
    prepareHome: (home, work) => {
      const dir = join(home, "sessions");
      mkdirSync(dir, { recursive: true });
      const lines = entries.map((e) => JSON.stringify(e.type === "session" ? { ...e, cwd: work } : e));
      writeFileSync(join(dir, basename(entries[0].id ?? "s") + ".jsonl"), lines.join("\n") + "\n");
    },
  });
  try {
    await untilSession(resumed, (e) => answerEntries(e, qid).length === 1, "the answer's message");
    await resumed.waitForScreen(new RegExp(`the answer to a question asked without waiting \\(${qid}\\)`));
    assert.doesNotMatch(resumed.screen(), LINE, "answered: nothing waits");
    assert.equal(resumed.model.requests.length, 0, "a recovered answer does not start the agent");
    await promptAgain(resumed, "go on", 1);
    assert.equal(timesRead(resumed.model.requests[0], qid), 1, "read once");
    assert.match(texts(resumed.model.requests[0]), /db: user selected: 2\. Postgres/);
    assert.equal(endEntries(resumed.sessionEntries(), qid).length, 1);
  } catch (error) {
    error.message += `\n--- screen (${resumed.name}) ---\n${resumed.screen()}`;
    throw error;
  } finally {
    await resumed.kill();
  }
});

/** /tree, moves the highlight to the entry `label` ("user: ask me", "assistant: reply 1") with
 * the arrow keys, picks it (no summary of the branch left); clears the editor when a prompt was
 * picked. */
async function treeTo(pi, label) {
  await pi.waitForScreen(/mock-1/);
  await pi.text("/tree");
  await pi.waitForScreen(/\/tree/);
  await pi.keys("Enter");
  await pi.waitForScreen(/Session Tree/);
  const picked = (screen) => screen.split("\n").some((l) => /^\s*›/.test(l) && l.includes(label));
  for (const key of ["Up", "Down"]) {
    for (let n = 0; n < 20 && !picked(pi.screen()); n++) await pi.keys(key);
  }
  await pi.waitForScreen(picked);
  await pi.keys("Enter");
  await pi.waitForScreen((screen) => /Summarize branch\?/.test(screen) || !/Session Tree/.test(screen));
  if (/Summarize branch\?/.test(pi.screen())) {
    await pi.keys("Enter"); // → No summary
    await pi.waitForScreen((screen) => !/Summarize branch\?/.test(screen));
  }
  // Picking a prompt puts its text in the editor: one Ctrl+C clears it. Never on an empty
  // editor — there Ctrl+C arms pi's exit, and the next treeTo's would quit pi.
  if (label.startsWith("user: ")) {
    await pi.keys("C-c");
    await pi.waitForScreen((screen) => !questionArea(screen).includes(label.slice("user: ".length)));
  }
}

test("async e2e: /tree away from the question — no stale question; back — it waits again, its answer arrives once; away and back again — never a second delivery", async () => {
  const replies = (_body, i) =>
    i === 0 ? { toolCalls: [{ name: "question", arguments: { questions: [DB], wait: false } }] } : { text: `reply ${i}` };
  const pi = await startPi({ replies, session: true, namePrefix: "pq-async-" });
  try {
    await pi.prompt("ask me");
    await pi.model.waitForRequests(2);
    const qid = pi.model.toolMessages(1)[0].content.match(/q[0-9a-f]{8}/)[0];
    await pi.waitForScreen(/reply 1/);
    await pi.waitForScreen(LINE);
    await treeTo(pi, "user: ask me"); // before the question was asked
    await pi.waitForScreen((screen) => !LINE.test(screen));
    await treeTo(pi, "assistant: reply 1"); // back
    await pi.waitForScreen(LINE);
    await pi.keys("M-a");
    await pi.waitForScreen(/Which database\?/);
    await pi.keys("2");
    await pi.model.waitForRequests(3); // the idle agent's turn reads it
    assert.equal(timesRead(pi.model.requests[2], qid), 1);
    await pi.waitForScreen(/reply 2/);
    await treeTo(pi, "user: ask me");
    await treeTo(pi, "assistant: reply 2");
    await promptAgain(pi, "go on", 4);
    assert.equal(timesRead(pi.model.requests[3], qid), 1, "read once");
    assert.doesNotMatch(pi.screen(), LINE);
    const entries = pi.sessionEntries();
    assert.equal(answerEntries(entries, qid).length, 1, "delivered once");
    assert.equal(endEntries(entries, qid).length, 1);
  } catch (error) {
    error.message += `\n--- screen (${pi.name}) ---\n${pi.screen()}`;
    throw error;
  } finally {
    await pi.kill();
  }
});
