// e2e-memory.test.mjs — the real pi (TUI, in tmux) remembers the person's answers per project:
// a first pi asks a question and the person answers it (.pi/answers.jsonl and .pi/answers.md are
// written); a new pi in the same project asked the same question (whitespace and case changed)
// opens it with the earlier answer chosen and the line "Answered on …"; Enter keeps it and the
// model reads that it is the earlier answer, confirmed; /questions history lists it, /questions
// forget 1 forgets it, and the next ask is plain.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { startPi } from "./helpers/tmux.mjs";

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
    const dir = join(first.work, ".pi");
    for (const name of ["answers.jsonl", "answers.md"]) {
      assert.ok(existsSync(join(dir, name)), `${name} written`);
      files[name] = readFileSync(join(dir, name), "utf8");
    }
    const [entry, ...more] = files["answers.jsonl"]
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.equal(more.length, 0);
    assert.equal(entry.prompt, FIRST.prompt);
    assert.deepEqual(entry.answer, { selected: ["SQLite"] });
    assert.equal(entry.by, "pi");
    assert.match(files["answers.md"], /\*\*Which database should the service use\?\*\*/);
    assert.match(files["answers.md"], /Answer: SQLite/);
  });

  // A new pi in the same project (its .pi as the first left it).
  const second = await startPi({
    replies: [ask(AGAIN), { text: "thanks" }, ask(AGAIN), { text: "thanks" }],
    namePrefix: "pq-memory-",
    session: true,
    prepareHome: (_home, work) => {
      mkdirSync(join(work, ".pi"), { recursive: true });
      for (const [name, text] of Object.entries(files)) writeFileSync(join(work, ".pi", name), text);
    },
  });
  await run(second, async () => {
    await second.prompt("ask me");
    const screen = await second.waitForScreen(/Answered on .*: SQLite — Enter keeps it/);
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
    assert.equal(readFileSync(join(second.work, ".pi", "answers.jsonl"), "utf8"), "");
    assert.doesNotMatch(readFileSync(join(second.work, ".pi", "answers.md"), "utf8"), /SQLITE|SQLite/);

    // Asked again: plain, nothing chosen.
    await second.text("again");
    await second.keys("Enter");
    await second.model.waitForRequests(3);
    const plain = await second.waitForScreen((s) => /which DATABASE/.test(s) && /> 1\. mysql/.test(s));
    assert.doesNotMatch(plain, /Answered on/);
  });
});
