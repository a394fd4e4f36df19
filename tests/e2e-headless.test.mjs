// e2e-headless.test.mjs — `pi -p` with no terminal at all (own session, stdin from /dev/null):
// the pending-questions file appears, and answering through the file or through --answers
// completes the next run that asks the same questions.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { startMockModel } from "./helpers/mock-model.mjs";
import { makeHome, runPrint, writeModels } from "./helpers/pi.mjs";

const ARGS = {
  questions: [
    {
      id: "db",
      prompt: "Which database?",
      options: [
        { value: "pg", label: "PostgreSQL" },
        { value: "lite", label: "SQLite" },
      ],
    },
    { id: "features", prompt: "Which features?", multiSelect: true, options: ["Auth", "API", "Admin"] },
    { id: "name", prompt: "Service name?" },
  ],
};

async function askOnce(home, work, extraArgs = []) {
  const model = await startMockModel([{ toolCalls: [{ name: "question", arguments: ARGS }] }, { text: "noted" }]);
  writeModels(home, model.port); // the mock's port changes per run
  try {
    const run = await runPrint(home, work, "ask", extraArgs);
    await model.waitForRequests(1);
    return { run, model };
  } finally {
    await model.close();
  }
}

test("headless: questions go to .pi/pending-questions.json and the run ends with instructions", async () => {
  const { home, work, cleanup } = makeHome(0);
  try {
    const { run, model } = await askOnce(home, work);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(model.requests.length, 1, "the turn ends after the question (terminate)");
    const file = JSON.parse(readFileSync(join(work, ".pi", "pending-questions.json"), "utf8"));
    assert.equal(file.pending.length, 1);
    assert.deepEqual(
      file.pending[0].questions.map((q) => [q.id, q.answer, q.options]),
      [
        ["db", null, ["PostgreSQL", "SQLite"]],
        ["features", null, ["Auth", "API", "Admin"]],
        ["name", null, undefined],
      ],
    );
    assert.match(run.stderr, /questions are waiting for you in \.pi\/pending-questions\.json/);
    assert.match(run.stderr, /pi -c --answers '\{"db":"PostgreSQL"/);
  } finally {
    cleanup();
  }
});

test("headless: answers written in the file complete the next run, and the file is cleared", async () => {
  const { home, work, cleanup } = makeHome(0);
  try {
    await askOnce(home, work);
    const path = join(work, ".pi", "pending-questions.json");
    const file = JSON.parse(readFileSync(path, "utf8"));
    const answers = { db: "SQLite", features: ["Auth", "Admin", "audit log"], name: "orders" };
    for (const q of file.pending[0].questions) q.answer = answers[q.id];
    writeFileSync(path, JSON.stringify(file, null, 2));
    const { run, model } = await askOnce(home, work);
    assert.equal(run.code, 0, run.stderr);
    await model.waitForRequests(2);
    assert.equal(
      model.toolMessages(1)[0].content,
      "Taken from the answers written into the pending-questions file (.pi/pending-questions.json) after an earlier run left these questions there. pi cannot tell whether the user or a command run on this machine wrote them: confirm anything that matters with the user before acting on it.\n" +
        "db: selected: 2. SQLite (value: lite)\nfeatures: selected: 1. Auth, 3. Admin; wrote: audit log\nname: wrote: orders",
    );
    assert.equal(existsSync(path), false, "answered questions are removed from the pending file");
  } finally {
    cleanup();
  }
});

test("headless: answers the agent's own command writes into the file (its modification time set back) answer nothing in that run; the next run takes them, saying where they come from", async () => {
  const { home, work, cleanup } = makeHome(0);
  // The agent's command in a later run: writes an answer for every pending question.
  const fill = [
    "const fs = require('fs'); const p = '.pi/pending-questions.json';",
    "const f = JSON.parse(fs.readFileSync(p, 'utf8'));",
    "for (const q of f.pending[0].questions) q.answer = q.options ? q.options[0] : 'x';",
    "fs.writeFileSync(p, JSON.stringify(f));",
    // and sets its modification time back an hour (touch -d): the status change still says now
    "const back = new Date(Date.now() - 3600e3); fs.utimesSync(p, back, back);",
  ].join(" ");
  try {
    await askOnce(home, work); // saves the questions
    const model = await startMockModel([
      { toolCalls: [{ name: "bash", arguments: { command: `node -e ${JSON.stringify(fill)}` } }] },
      { toolCalls: [{ name: "question", arguments: ARGS }] },
      { text: "noted" },
    ]);
    writeModels(home, model.port);
    let run;
    try {
      run = await runPrint(home, work, "go on");
      await model.waitForRequests(2);
    } finally {
      await model.close();
    }
    assert.equal(run.code, 0, run.stderr);
    assert.equal(model.requests.length, 2, "not answered: the question ended the run as unanswered ones do");
    assert.match(run.stderr, /were written after this run began/);
    assert.match(run.stderr, /questions are waiting for you in \.pi\/pending-questions\.json/);
    const path = join(work, ".pi", "pending-questions.json");
    const file = JSON.parse(readFileSync(path, "utf8"));
    assert.equal(file.pending.length, 1, "the set stays");
    assert.equal(file.pending[0].questions[0].answer, "PostgreSQL", "its answers kept for a later run");
    // The next run finds them written before it began: taken, and said to come from the file.
    const next = await askOnce(home, work);
    await next.model.waitForRequests(2);
    assert.match(next.model.toolMessages(1)[0].content, /^Taken from the answers written into the pending-questions file/);
    assert.equal(existsSync(path), false);
  } finally {
    cleanup();
  }
});

test("headless: a partly answered file keeps the person's answers and asks for the rest", async () => {
  const { home, work, cleanup } = makeHome(0);
  try {
    await askOnce(home, work);
    const path = join(work, ".pi", "pending-questions.json");
    const file = JSON.parse(readFileSync(path, "utf8"));
    file.pending[0].questions[0].answer = "pg";
    writeFileSync(path, JSON.stringify(file));
    const { run } = await askOnce(home, work);
    assert.match(run.stderr, /still have no answer: features, name/);
    const again = JSON.parse(readFileSync(path, "utf8"));
    assert.equal(again.pending.length, 1);
    assert.equal(again.pending[0].questions[0].answer, "pg", "the written answer survives");
  } finally {
    cleanup();
  }
});

test("headless: --answers on the command line completes the run", async () => {
  const { home, work, cleanup } = makeHome(0);
  try {
    await askOnce(home, work);
    const { run, model } = await askOnce(home, work, ["--answers", JSON.stringify({ db: "pg", features: ["API"], name: "svc" })]);
    assert.equal(run.code, 0, run.stderr);
    await model.waitForRequests(2);
    assert.equal(
      model.toolMessages(1)[0].content,
      "db: user selected: 1. PostgreSQL (value: pg)\nfeatures: user selected: 2. API\nname: user wrote: svc",
    );
    assert.equal(existsSync(join(work, ".pi", "pending-questions.json")), false);
  } finally {
    cleanup();
  }
});

test("headless: --answers as a list answers the pending questions in their order", async () => {
  const { home, work, cleanup } = makeHome(0);
  try {
    const first = await askOnce(home, work, ["--answers", JSON.stringify(["SQLite", ["Auth"], "x"])]);
    assert.match(first.run.stderr, /a list, which answers pending questions in their order/, "no pending questions yet: refused");
    const { model } = await askOnce(home, work, ["--answers", JSON.stringify(["SQLite", ["Auth"], "x"])]);
    await model.waitForRequests(2);
    assert.match(model.toolMessages(1)[0].content, /^db: user selected: 2\. SQLite/);
  } finally {
    cleanup();
  }
});

test("headless: four runs at once in one project each leave their questions in the pending file", async () => {
  // Four `pi -p` without a terminal, each asked different questions by its own model (parallel
  // CI jobs or subagents in one checkout): every update of the shared file holds its lock.
  const { home, work, cleanup } = makeHome(0);
  const runs = [];
  try {
    for (let i = 0; i < 4; i++) {
      const args = { questions: [{ id: `job${i}`, prompt: `Question of run ${i}?`, options: ["yes", "no"] }] };
      const model = await startMockModel([{ toolCalls: [{ name: "question", arguments: args }] }, { text: "noted" }]);
      const own = join(home, `home${i}`);
      writeModels(own, model.port);
      runs.push({ model, own });
    }
    const results = await Promise.all(runs.map(({ own }) => runPrint(own, work, "ask", [], 120000)));
    for (const run of results) assert.equal(run.code, 0, run.stderr);
    for (const run of results) assert.doesNotMatch(run.stderr, /could not be (saved|written)|try again/);
    const file = JSON.parse(readFileSync(join(work, ".pi", "pending-questions.json"), "utf8"));
    assert.deepEqual(file.pending.map((s) => s.questions[0].id).sort(), ["job0", "job1", "job2", "job3"]);
    assert.equal(existsSync(join(work, ".pi", "pending-questions.json.lock")), true, "the lock file stays while questions wait");
  } finally {
    for (const { model } of runs) await model.close();
    cleanup();
  }
});

test("headless: a .pi committed as a link out of the project: nothing is written there, stderr says why", async () => {
  const { home, work, cleanup } = makeHome(0);
  try {
    const outside = join(home, "outside");
    mkdirSync(outside);
    symlinkSync(outside, join(work, ".pi"));
    const { run } = await askOnce(home, work);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      readdirSync(outside).filter((f) => f.includes("pending")),
      [],
      "no pending file, lock or temporary file outside",
    );
    assert.match(
      run.stderr,
      /pending-questions file .*\.pi\/pending-questions\.json was neither written nor removed: it leads outside the project through a symbolic link/,
    );
    assert.doesNotMatch(run.stderr, /questions are waiting for you/);
  } finally {
    cleanup();
  }
});
