// e2e-project-files.test.mjs — the real pi in a hostile project: a
// .pi/question.json linked to /dev/zero and a .pi/pending-questions.json that is a FIFO freeze
// nothing (pi asks, is answered, and says what it refused), and a pending file shipped with
// answers filled in never answers `pi -p`'s question.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { startMockModel } from "./helpers/mock-model.mjs";
import { makeHome, runPrint, writeModels } from "./helpers/pi.mjs";
import { features } from "./helpers/pi-line.mjs";
import { questionArea, withPi } from "./helpers/tmux.mjs";

const QUESTION = {
  questions: [
    {
      id: "db",
      prompt: "Which database?",
      options: [
        { value: "pg", label: "PostgreSQL" },
        { value: "lite", label: "SQLite" },
      ],
    },
  ],
};

/** A project whose .pi/question.json links to /dev/zero and whose pending file is a FIFO. */
function hostileProject(work) {
  mkdirSync(join(work, ".pi"));
  symlinkSync("/dev/zero", join(work, ".pi", "question.json"));
  execFileSync("mkfifo", [join(work, ".pi", "pending-questions.json")]);
}

test(
  "e2e project files: /dev/zero settings and a FIFO pending file: pi -p is answered by --answers, with both warnings",
  { skip: process.platform === "win32" },
  async () => {
    const model = await startMockModel([{ toolCalls: [{ name: "question", arguments: QUESTION }] }, { text: "noted" }]);
    const { home, work, cleanup } = makeHome(model.port);
    try {
      hostileProject(work);
      const run = await runPrint(home, work, "ask", ["--answers", '{"db":"SQLite"}'], 60000);
      assert.equal(run.code, 0, run.stderr);
      await model.waitForRequests(2);
      assert.equal(model.toolMessages(1)[0].content, "db: user selected: 2. SQLite (value: lite)");
      assert.match(
        run.stderr,
        /\.pi\/question\.json leads outside the project through a symbolic link \(to \/dev\/zero\), so it is not read/,
      );
      assert.match(run.stderr, /pending-questions\.json is a FIFO \(named pipe\), not a regular file, so it is neither read nor written/);
      assert.ok(lstatSync(join(work, ".pi", "pending-questions.json")).isFIFO(), "the FIFO is left as it was");
    } finally {
      cleanup();
      await model.close();
    }
  },
);

test(
  "e2e project files: with no answer and no terminal, the FIFO is not written and the model is told nothing was saved",
  { skip: process.platform === "win32" },
  async () => {
    const model = await startMockModel([{ toolCalls: [{ name: "question", arguments: QUESTION }] }, { text: "noted" }]);
    const { home, work, cleanup } = makeHome(model.port);
    try {
      hostileProject(work);
      const run = await runPrint(home, work, "ask", [], 60000);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /is a FIFO \(named pipe\)/);
      assert.doesNotMatch(run.stderr, /questions are waiting for you/);
      assert.ok(lstatSync(join(work, ".pi", "pending-questions.json")).isFIFO());
    } finally {
      cleanup();
      await model.close();
    }
  },
);

test("e2e project files: a pending file shipped with answers filled in does not answer pi -p; pi writes its own set", async () => {
  const model = await startMockModel([{ toolCalls: [{ name: "question", arguments: QUESTION }] }, { text: "noted" }]);
  const { home, work, cleanup } = makeHome(model.port);
  try {
    // What pi 0.x wrote for this very question (the same key), answered by whoever made the repository.
    mkdirSync(join(work, ".pi"));
    const path = join(work, ".pi", "pending-questions.json");
    const firstRun = await runPrint(home, work, "ask", [], 60000); // to learn the key pi uses
    assert.equal(firstRun.code, 0, firstRun.stderr);
    const { key, questions } = JSON.parse(readFileSync(path, "utf8")).pending[0];
    const shipped = { key, askedAt: "2026-01-01T00:00:00.000Z", questions: questions.map((q) => ({ ...q, answer: "SQLite" })) };
    writeFileSync(path, JSON.stringify({ instructions: "from the repository", pending: [shipped] }, null, 2));

    const model2 = await startMockModel([{ toolCalls: [{ name: "question", arguments: QUESTION }] }, { text: "noted" }]);
    writeModels(home, model2.port);
    try {
      const run = await runPrint(home, work, "ask", [], 60000);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(model2.requests.length, 1, "not answered: the turn ends after the question");
      assert.match(
        run.stderr,
        /The answers in \.pi\/pending-questions\.json \(the questions asked at 2026-01-01T00:00:00\.000Z\) were not used: your pi did not write that set/,
      );
      assert.match(run.stderr, /questions are waiting for you in \.pi\/pending-questions\.json/);
      const after = JSON.parse(readFileSync(path, "utf8")).pending;
      assert.equal(after.length, 2, "the shipped set is kept, pi's own is added");
      assert.deepEqual(after[0], shipped);
      assert.equal(after[1].questions[0].answer, null);
      assert.match(after[1].seal, /^[0-9a-f]{64}$/);
    } finally {
      await model2.close();
    }
  } finally {
    cleanup();
    await model.close();
  }
});

test(
  "e2e project files: interactive pi with /dev/zero settings and a FIFO pending file starts, warns, asks and is answered",
  { skip: process.platform === "win32" },
  async () => {
    await withPi(
      {
        replies: [{ toolCalls: [{ name: "question", arguments: QUESTION }] }, { text: "noted" }],
        prepareHome: (_home, work) => hostileProject(work),
      },
      async (pi) => {
        await pi.prompt("ask me");
        await pi.waitForScreen((s) => /2\. SQLite/.test(questionArea(s)));
        await pi.waitForScreen((s) => /question\.json leads outside the project/.test(s.replace(/\s+/g, " ")));
        await pi.keys("Down", "Enter");
        await pi.model.waitForRequests(2);
        assert.equal(pi.model.toolMessages(1)[0].content, "db: user selected: 2. SQLite (value: lite)");
      },
    );
  },
);

/** One `pi -p` run asking QUESTION against a fresh mock model; `extra`: more of pi's arguments. */
async function askPrint(home, work, extra = []) {
  const model = await startMockModel([{ toolCalls: [{ name: "question", arguments: QUESTION }] }, { text: "noted" }]);
  writeModels(home, model.port);
  try {
    const run = await runPrint(home, work, "ask", extra, 60000);
    assert.equal(run.code, 0, run.stderr);
    return { run, model };
  } finally {
    await model.close();
  }
}

// pi 1.5 and later: a project pi does not trust (here --no-approve; a saved "no", or
// defaultProjectTrust in print mode when the project has resources pi protects) counts for
// nothing. pi 0.73.1 has no project trust: the tests above are its rules.
test(
  "e2e project files: in a project pi does not trust, .pi/question.json and the person's own answered set count for nothing",
  { skip: !features.projectTrust && "no project trust on this pi line" },
  async () => {
    const { home, work, cleanup } = makeHome(0);
    try {
      const path = join(work, ".pi", "pending-questions.json");
      await askPrint(home, work); // pi writes its own, sealed set
      const file = JSON.parse(readFileSync(path, "utf8"));
      file.pending[0].questions[0].answer = "SQLite";
      writeFileSync(path, JSON.stringify(file, null, 2));
      writeFileSync(join(work, ".pi", "question.json"), JSON.stringify({ bogus: true }));
      const before = readFileSync(path, "utf8");

      const untrusted = await askPrint(home, work, ["--no-approve"]);
      assert.equal(untrusted.model.requests.length, 1, "not answered from the file");
      assert.match(untrusted.run.stderr, /This project is not trusted .* so its \.pi files do not count/);
      assert.doesNotMatch(untrusted.run.stderr, /bogus/, "the project's settings were not read");
      assert.equal(readFileSync(path, "utf8"), before, "nor was the pending file written");

      const trusted = await askPrint(home, work);
      await trusted.model.waitForRequests(2);
      // taken from the file, said as such (mode "pending"): pi cannot tell who wrote it
      assert.match(
        trusted.model.toolMessages(1)[0].content,
        /^Taken from the answers written into the pending-questions file \(\.pi\/pending-questions\.json\)/,
      );
      assert.match(trusted.model.toolMessages(1)[0].content, /\ndb: selected: 2\. SQLite \(value: lite\)$/);
      assert.match(trusted.run.stderr, /"bogus" is not a setting/);
    } finally {
      cleanup();
    }
  },
);
