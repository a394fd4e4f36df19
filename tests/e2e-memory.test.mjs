// e2e-memory.test.mjs — the real pi (TUI, in tmux) remembers the person's answers per project,
// in the person's own directory (~/.pi/agent/question-answers/<project>.jsonl and .md): a first
// pi asks a question and the person answers it (nothing is written under the project); a new pi
// with those files asked the same question (whitespace and case changed) opens it with the
// earlier answer chosen and the line "Answered on …"; Enter keeps it and the model reads that it
// is the earlier answer, confirmed; /questions history lists it, /questions forget 1 forgets it,
// and the next ask is plain. A repository that ships .pi/answers.jsonl decides nothing (the
// question opens plain; a typed answer lands in the person's directory only), and the line under
// a question names what Enter submits, whatever a hand-edited entry's label says.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { importShim } from "./helpers/shim.mjs";
import { startPi } from "./helpers/tmux.mjs";

const { memoryPaths, normalizedKey } = await importShim("ask/memory.ts");

const ask = (question) => ({ toolCalls: [{ name: "question", arguments: { questions: [question] } }] });
const FIRST = { id: "db", prompt: "Which database should the service use?", options: ["Postgres", "SQLite", "MySQL"] };
// the same question: other whitespace and case, the options in another order, another id
const AGAIN = { id: "store", prompt: "  which DATABASE   should the\nservice use? ", options: ["mysql", "SQLITE", "postgres"] };

async function run(pi, fn) {
  try {
    await fn();
  } catch (error) {
    error.message += `\n--- screen (${pi.name}) ---\n${pi.screen()}`;
    throw error;
  } finally {
    await pi.kill();
  }
}

test("memory e2e: an answer given in one pi opens chosen in a new pi of the project; Enter keeps it; history and forget", async () => {
  // The first pi: the person answers with a key.
  const first = await startPi({ replies: [ask(FIRST), { text: "thanks" }], namePrefix: "pq-memory-" });
  let files = {};
  await run(first, async () => {
    await first.prompt("ask me");
    await first.waitForScreen(/Which database should the service use\?/);
    assert.doesNotMatch(first.screen(), /Answered on/); // nothing remembered yet
    await first.keys("2");
    await first.model.waitForRequests(2);
    assert.equal(first.model.toolMessages(1)[0].content, "db: user selected: 2. SQLite");
    assert.equal(existsSync(join(first.work, ".pi")), false, "nothing under the project");
    const paths = memoryPaths(first.work, first.home);
    for (const name of ["jsonl", "md"]) {
      assert.ok(existsSync(paths[name]), `${name} written`);
      files[name] = readFileSync(paths[name], "utf8");
    }
    const [entry, ...more] = files.jsonl
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.equal(more.length, 0);
    assert.equal(entry.prompt, FIRST.prompt);
    assert.deepEqual(entry.answer, { selected: ["SQLite"] });
    assert.equal(entry.by, "pi");
    assert.match(files.md, /\*\*Which database should the service use\?\*\*/);
    assert.match(files.md, /Answer: SQLite/);
  });

  // A new pi with the person's files as the first left them (for its own project directory).
  const second = await startPi({
    replies: [ask(AGAIN), { text: "thanks" }, ask(AGAIN), { text: "thanks" }],
    namePrefix: "pq-memory-",
    session: true,
    prepareHome: (home, work) => {
      const paths = memoryPaths(work, home);
      mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
      for (const [name, text] of Object.entries(files)) writeFileSync(paths[name], text, { mode: 0o600 });
    },
  });
  await run(second, async () => {
    await second.prompt("ask me");
    // the line names the option as it reads now, the one Enter submits
    const screen = await second.waitForScreen(/Answered on .*: SQLITE — Enter keeps it/);
    assert.match(screen, /> 2\. SQLITE/); // the earlier answer highlighted, as the option reads now
    await second.keys("Enter");
    await second.model.waitForRequests(2);
    assert.match(
      second.model.toolMessages(1)[0].content,
      /^store: user selected: 2\. SQLITE \(the earlier answer \(\d{1,2} \w{3} \d{4}\), confirmed\)$/,
    );
    const result = await second.waitForQuestionResult();
    assert.equal(result.details.mode, "interactive");
    assert.match(result.details.answers[0].earlierAnswer, /^\d{1,2} \w{3} \d{4}$/);

    await second.text("/questions history sqlite");
    await second.keys("Enter");
    await second.waitForScreen(/Answered in this project, newest first:[\s\S]*1\. .* · which DATABASE should the service use\? → SQLITE/);

    await second.text("/questions forget 1");
    await second.keys("Enter");
    await second.waitForScreen(/Forgot answer 1: /);
    const paths = memoryPaths(second.work, second.home);
    assert.equal(readFileSync(paths.jsonl, "utf8"), "");
    assert.doesNotMatch(readFileSync(paths.md, "utf8"), /SQLITE|SQLite/);

    // Asked again: plain, nothing chosen.
    await second.text("again");
    await second.keys("Enter");
    await second.model.waitForRequests(3);
    const plain = await second.waitForScreen((s) => /which DATABASE/.test(s) && /> 1\. mysql/.test(s));
    assert.doesNotMatch(plain, /Answered on/);
  });
});

/** An entry of a remembered-answers file, as a hand edit (or a repository) may write it. */
const entryFor = (q, answer, label) => ({
  id: "e1",
  at: "2026-11-20T10:00:00.000Z",
  by: "pi",
  prompt: q.prompt,
  ...(q.options ? { options: q.options } : {}),
  answer,
  label,
  key: normalizedKey(q),
});

/** The files under `dir` whose text holds `needle`. */
function filesHolding(dir, needle) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) found.push(...filesHolding(p, needle));
    else if (readFileSync(p, "utf8").includes(needle)) found.push(p);
  }
  return found;
}

const DEPLOY = { id: "go", prompt: "Deploy now?", options: ["Yes, run it against production", "No, wait for the review"] };
const PASSWORD = { id: "pw", prompt: "The staging password?" };

test("memory e2e: a repository that ships .pi/answers.jsonl decides nothing — the question opens plain; a typed answer lands only in the person's own directory", async () => {
  const shipped = JSON.stringify(entryFor(PASSWORD, { wrote: "shipped-answer" }, "shipped-answer")) + "\n";
  const pi = await startPi({
    replies: [ask(PASSWORD), { text: "thanks" }],
    namePrefix: "pq-memory-",
    prepareHome: (_home, work) => {
      mkdirSync(join(work, ".pi"), { recursive: true });
      writeFileSync(join(work, ".pi", "answers.jsonl"), shipped);
    },
  });
  await run(pi, async () => {
    await pi.prompt("ask me");
    const screen = await pi.waitForScreen(/The staging password\?/);
    assert.doesNotMatch(screen, /Answered on|shipped-answer/);
    await pi.text("s3cret-typed-42");
    await pi.keys("Enter");
    await pi.model.waitForRequests(2);
    assert.equal(pi.model.toolMessages(1)[0].content, "pw: user wrote: s3cret-typed-42");
    assert.deepEqual(filesHolding(pi.work, "s3cret-typed-42"), [], "no file under the project holds the typed answer");
    assert.equal(readFileSync(join(pi.work, ".pi", "answers.jsonl"), "utf8"), shipped, "the shipped file untouched");
    const own = memoryPaths(pi.work, pi.home);
    assert.match(readFileSync(own.jsonl, "utf8"), /s3cret-typed-42/);
    assert.equal(statSync(own.jsonl).mode & 0o777, 0o600);
    assert.equal(statSync(own.dir).mode & 0o777, 0o700);
  });
});

test("memory e2e: the line under the question names what Enter submits, whatever a hand-edited entry's label says", async () => {
  const pi = await startPi({
    replies: [ask(DEPLOY), { text: "thanks" }],
    namePrefix: "pq-memory-",
    prepareHome: (home, work) => {
      const paths = memoryPaths(work, home);
      mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
      const edited = entryFor(DEPLOY, { selected: ["Yes, run it against production"] }, "No, wait for the review");
      writeFileSync(paths.jsonl, JSON.stringify(edited) + "\n", { mode: 0o600 });
    },
  });
  await run(pi, async () => {
    await pi.prompt("ask me");
    const screen = await pi.waitForScreen(/Answered on .*: Yes, run it against production — Enter keeps it/);
    assert.doesNotMatch(screen, /Answered on .*No, wait/);
    await pi.keys("Enter");
    await pi.model.waitForRequests(2);
    assert.match(
      pi.model.toolMessages(1)[0].content,
      /^go: user selected: 1\. Yes, run it against production \(the earlier answer \(20 Nov 2026\), confirmed\)$/,
    );
  });
});
