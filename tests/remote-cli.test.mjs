// remote-cli.test.mjs — bin/remote.mjs (`pi-question pending` / `answer`) against fake pis: real
// endpoints (the relay server) in a throw-away registry, each answering `list` with what the
// test says and recording every answer sent to it. The listing's fields, the answer forms
// (object, list, by position, by id, on standard input), every refusal and each exit status;
// pis in child processes that do not answer (stopped with SIGSTOP, silent, a full queue) are
// named and hide nothing else. End to end with the real pi: e2e-remote.test.mjs.
import assert from "node:assert/strict";
import { execFile, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { after, test } from "node:test";
import { answer, EXIT, pending } from "../bin/remote.mjs";
import { listEndpoints, registerEndpoint, request } from "../extension/elsewhere/relay-wire.mjs";
import { addon, root } from "./helpers/addon.mjs";
import { importShim } from "./helpers/shim.mjs";
import { until } from "./helpers/until.mjs";

// Each test without a bound of its own has this one: a command or a pi that never answers
// fails its test by name instead of hanging the file (on a loaded machine one test takes seconds).
const BOUND = { timeout: 60_000 };

const { relayBounds, startRelayServer } = await importShim("elsewhere/relay.ts");
/** The relay's bounds as pi passes them (an older relay.ts took the line cap alone). */
const BOUNDS = relayBounds ? relayBounds(addon.limits) : addon.limits.relayMessageBytes;

const runtime = mkdtempSync(join(tmpdir(), "pi-question-cli-"));
const home = join(runtime, "home");
const env = { XDG_RUNTIME_DIR: runtime, LOCALAPPDATA: runtime, HOME: home, USERPROFILE: home, NO_COLOR: "1" }; // USERPROFILE: the home on Windows // LOCALAPPDATA: the registry on Windows
after(() => rmSync(runtime, { recursive: true, force: true }));

const args = (questions) => addon.normalize(JSON.stringify({ questions }));
const DB = { id: "db", prompt: "Which database?", options: ["SQLite", "Postgres"] };
const NAME = { id: "name", prompt: "Service name?" };

/** A fake pi: `state` is what `list` reports ({ cwd, session, questions, ended }); `verdict`
 * decides each answer (taken unless it says otherwise). */
async function fakePi(state, verdict = () => ({ ok: true })) {
  const sent = [];
  const server = await startRelayServer(BOUNDS, {
    ask: async () => ({ type: "unavailable" }),
    list: () => ({ type: "pending", pid: process.pid, ended: [], ...state }),
    answer: (qid, outcome, answers, discussion) => {
      sent.push({ qid, outcome, answers, ...(discussion === undefined ? {} : { discussion }) });
      return verdict(qid);
    },
    watch: () => () => undefined,
  });
  // The registry gets the secret that lists and answers (`control`; an older relay had one secret).
  const unregister = registerEndpoint(
    { variable: server.control ?? server.variable, pid: process.pid, cwd: state.cwd, startedAt: Date.now() },
    env,
  );
  return {
    sent,
    close() {
      unregister();
      server.close();
    },
  };
}

/** Runs `fn` with fake pis made from `states`, closing them after. */
async function withPis(states, fn) {
  const pis = [];
  try {
    for (const s of states) pis.push(await fakePi(...(Array.isArray(s) ? s : [s])));
    return await fn(pis);
  } finally {
    for (const p of pis) p.close();
  }
}

/** A stream that keeps what is written. */
const sink = () => {
  const chunks = [];
  return {
    write: (s) => chunks.push(String(s)),
    get text() {
      return chunks.join("");
    },
  };
};

async function runAnswer(argv, options = {}) {
  const out = sink();
  const err = sink();
  const code = await answer(addon, argv, { out, err, env, tty: "/nonexistent/tty", started: 0, ...options });
  return { code, out: out.text, err: err.text };
}

async function runPending(now = Date.now) {
  const out = sink();
  const code = await pending(addon, { out, env, now });
  return { code, out: out.text };
}

const T0 = 1_700_000_000_000;
const q = (qid, askedAt, questions, extra = {}) => ({ qid, askedAt, args: args(questions), ...extra });

// ---- pending ---------------------------------------------------------------------------------

test("pending: each waiting question with its position, id, project, session, asker and time waited", BOUND, async () => {
  await withPis(
    [
      {
        cwd: join(home, "shop"),
        session: { name: "fix login", id: "0195f3a2-aaaa-bbbb", file: "/s/a.jsonl" },
        questions: [q("qaaaaaaa1", T0, [DB, NAME])],
      },
      {
        cwd: "/srv/api",
        session: { id: "7c1e9d40-1234-5678" },
        questions: [q("qbbbbbbb2", T0 + 5_000, [NAME], { askedBy: "Asked by worker" })],
      },
      { cwd: "/srv/web", session: { file: "/home/x/.pi/sessions/2026-11-25_web.jsonl" }, questions: [q("qccccccc3", T0 + 9_000, [DB])] },
      { cwd: "/srv/old", questions: [q("qddddddd4", T0 + 10_000, [DB])] }, // a pi that says nothing of its session
    ],
    async () => {
      const { code, out } = await runPending(() => T0 + 65_000);
      assert.equal(code, EXIT.taken);
      assert.equal(
        out,
        [
          "1. Which database? (+1)",
          `   id qaaaaaaa1 · ~${sep}shop · session "fix login" · Asked by the agent · waiting 1m 5s`, // the home's own separator
          "2. Service name?",
          "   id qbbbbbbb2 · /srv/api · session 7c1e9d40 · Asked by worker · waiting 1m 0s",
          "3. Which database?",
          "   id qccccccc3 · /srv/web · session 2026-11-25_web.jsonl · Asked by the agent · waiting 56s",
          "4. Which database?",
          `   id qddddddd4 · /srv/old · session pid ${process.pid} · Asked by the agent · waiting 55s`,
          "",
        ].join("\n"),
      );
    },
  );
});

test("pending: what a pi reports is sanitized before it is printed; nothing waiting exits 4", BOUND, async () => {
  await withPis(
    [
      {
        cwd: "/srv/\x1b]0;pwned\x07x",
        session: { name: "s\x1b[2J" },
        questions: [q("qeeeeeee5", T0, [{ id: "a", prompt: "Evil\x1b[31m?" }], { askedBy: "Asked by \x1b[1mw" })],
      },
    ],
    async () => {
      const { code, out } = await runPending(() => T0);
      assert.equal(code, EXIT.taken);
      assert.doesNotMatch(out, /\x1b|\x07/);
      assert.match(out, /^1\. Evil.*\?\n {3}id qeeeeeee5 · \/srv\/.*x · session "s.*" · Asked by .*w · waiting 0s\n$/);
    },
  );
  const none = await runPending();
  assert.deepEqual(none, { code: EXIT.nothingWaiting, out: "No question is waiting in any pi.\n" });
});

// ---- answer n / id with answers --------------------------------------------------------------

test("answer n '{…}': the object form goes to question n and is taken (exit 0)", BOUND, async () => {
  await withPis([{ cwd: "/p", questions: [q("q00000001", T0, [DB]), q("q00000002", T0 + 1, [NAME])] }], async ([pi]) => {
    const r = await runAnswer(["2", '{"name":"orders"}']);
    assert.deepEqual(r, { code: EXIT.taken, out: "Answer taken.\n", err: "" });
    assert.deepEqual(pi.sent, [{ qid: "q00000002", outcome: "answered", answers: { name: "orders" } }]);
  });
});

test("answer n '[…]': the list form answers the parts in order; a list of the wrong length is refused (exit 2)", BOUND, async () => {
  await withPis([{ cwd: "/p", questions: [q("q00000001", T0, [DB, NAME])] }], async ([pi]) => {
    const r = await runAnswer(["1", '["Postgres","orders"]']);
    assert.equal(r.code, EXIT.taken, r.err);
    assert.deepEqual(pi.sent, [{ qid: "q00000001", outcome: "answered", answers: { db: "Postgres", name: "orders" } }]);
    const short = await runAnswer(["1", '["Postgres"]']);
    assert.deepEqual(short, {
      code: EXIT.invalid,
      out: "",
      err: "pi-question: the list has 1 answers but the question has 2 parts; give one per question, in order\n",
    });
    const scalar = await runAnswer(["1", "42"]);
    assert.equal(scalar.code, EXIT.invalid);
    assert.match(scalar.err, /answers must be an object like \{"db":"SQLite"\} or a list in question order/);
    assert.equal(pi.sent.length, 1, "nothing refused was sent");
  });
});

test("answer: answers that are not JSON are refused (exit 2) before anything is asked or sent", BOUND, async () => {
  await withPis([{ cwd: "/p", questions: [q("q00000001", T0, [DB])] }], async ([pi]) => {
    const r = await runAnswer(["1", "{db:SQLite}"]);
    assert.equal(r.code, EXIT.invalid);
    assert.match(r.err, /^pi-question: the answers are not valid JSON \(.+\); write them like '\{"db":"SQLite"\}' or '\["SQLite"\]'\n$/);
    assert.deepEqual(pi.sent, []);
  });
  // Not JSON is exit 2 even when nothing waits.
  assert.equal((await runAnswer(["1", "nope"])).code, EXIT.invalid);
});

test("answer: a wrong position or id says what to give instead (exit 4); nothing waiting exits 4", BOUND, async () => {
  await withPis([{ cwd: "/p", questions: [q("q00000001", T0, [DB]), q("q00000002", T0 + 1, [NAME])] }], async ([pi]) => {
    for (const n of ["0", "3", "-1", "1.5", "one"]) {
      const r = await runAnswer([n, '{"db":"SQLite"}']);
      assert.equal(r.code, EXIT.nothingWaiting, n);
      assert.equal(
        r.err,
        `pi-question: there is no question ${n}; give its position (1 to 2) or its id (like q00000001) from "pi-question pending"\n`,
      );
    }
    const unknown = await runAnswer(["q0000abcd", '{"db":"SQLite"}']);
    assert.deepEqual(unknown, {
      code: EXIT.nothingWaiting,
      out: "",
      err: 'pi-question: no question with the id q0000abcd is waiting in any pi; run "pi-question pending"\n',
    });
    assert.deepEqual(pi.sent, []);
  });
  assert.deepEqual(await runAnswer(["1", '{"db":"SQLite"}']), {
    code: EXIT.nothingWaiting,
    out: "",
    err: "pi-question: No question is waiting in any pi.\n",
  });
});

test("answer <id>: the answer goes to that question, wherever the list has moved it", BOUND, async () => {
  const state = { cwd: "/p", questions: [q("q00000001", T0, [DB]), q("q00000002", T0 + 1, [DB])] };
  await withPis([state], async ([pi]) => {
    // `pending` showed q00000002 as 2; then question 1 ended and a newer one arrived.
    state.questions = [q("q00000002", T0 + 1, [DB]), q("q00000003", T0 + 2, [DB])];
    assert.equal((await runAnswer(["q00000002", '{"db":"Postgres"}'])).code, EXIT.taken);
    assert.deepEqual(
      pi.sent.map((s) => s.qid),
      ["q00000002"],
    );
  });
});

test("answer: the same id in two pis is refused as ambiguous (exit 4)", BOUND, async () => {
  const same = { questions: [q("q00000009", T0, [DB])] };
  await withPis(
    [
      { cwd: "/a", ...same },
      { cwd: "/b", ...same },
    ],
    async (pis) => {
      const r = await runAnswer(["q00000009", '{"db":"SQLite"}']);
      assert.equal(r.code, EXIT.nothingWaiting);
      assert.match(r.err, /the id q00000009 names questions in 2 pis; answer by position/);
      assert.deepEqual(
        pis.flatMap((p) => p.sent),
        [],
      );
    },
  );
});

// ---- refusals: exactly once ------------------------------------------------------------------

test("answer: a question that ended is told how (exit 1) — by id, and by a position it held when the command started", BOUND, async () => {
  const started = T0 + 100;
  const ended = [
    { qid: "q0000000a", askedAt: T0, endedAt: T0 + 50, ending: "answered" }, // before the command: not counted
    { qid: "q0000000b", askedAt: T0 + 1, endedAt: T0 + 150, ending: "answered" }, // while it started
    { qid: "q0000000c", askedAt: T0 + 2, endedAt: T0 + 160, ending: "cancelled" },
  ];
  await withPis([{ cwd: "/p", questions: [q("q0000000d", T0 + 3, [DB])], ended }], async ([pi]) => {
    const byPosition = await runAnswer(["1", '{"db":"SQLite"}'], { started });
    assert.deepEqual(byPosition, { code: EXIT.notTaken, out: "", err: "pi-question: already answered\n" });
    assert.deepEqual(await runAnswer(["2", '{"db":"SQLite"}'], { started }), {
      code: EXIT.notTaken,
      out: "",
      err: "pi-question: already cancelled\n",
    });
    assert.equal((await runAnswer(["3", '{"db":"SQLite"}'], { started })).code, EXIT.taken, "3 is the question still waiting");
    assert.deepEqual(
      pi.sent.map((s) => s.qid),
      ["q0000000d"],
    );
    assert.deepEqual(await runAnswer(["q0000000a", '{"db":"SQLite"}']), {
      code: EXIT.notTaken,
      out: "",
      err: "pi-question: already answered\n",
    });
    // Without answers too (it would otherwise be asked here).
    assert.deepEqual(await runAnswer(["q0000000c"]), { code: EXIT.notTaken, out: "", err: "pi-question: already cancelled\n" });
  });
});

test("answer: a position that names nothing now says how the latest question to stop waiting ended (exit 4)", BOUND, async () => {
  const endedAt = Date.now() - 3_000;
  const ended = [
    { qid: "q0000000a", askedAt: T0, endedAt: endedAt - 60_000, ending: "answered" },
    { qid: "q0000000b", askedAt: T0 + 1, endedAt, ending: "withdrawn" },
  ];
  await withPis([{ cwd: "/p", questions: [], ended }], async ([pi]) => {
    // The command started after both ended: position 1 is not one of them.
    const r = await runAnswer(["1", '{"db":"SQLite"}'], { started: Date.now() });
    assert.equal(r.code, EXIT.nothingWaiting);
    assert.equal(
      r.err.replace(/\((\d+)s ago\)/, (_, n) => (Number(n) >= 3 && Number(n) < 60 ? "(a few seconds ago)" : `(${n}s ago)`)),
      "pi-question: No question is waiting in any pi.\n" +
        "pi-question: the latest question to stop waiting: q0000000b (a few seconds ago), withdrawn: the agent that asked it stopped waiting\n",
    );
    assert.deepEqual(pi.sent, []);
  });
});

test("answer: the pi's refusal is printed with its exit status — already answered 1, invalid 2, not waiting 4", BOUND, async () => {
  const verdicts = {
    q00000001: { ok: false, code: "already", reason: "already answered" },
    q00000002: { ok: false, code: "invalid", reason: 'db: "MySQL" is not an option' },
    q00000003: { ok: false, code: "not_waiting", reason: "That question is no longer waiting (answered, cancelled or withdrawn)." },
    q00000004: { ok: false, code: "withdrawn", reason: "withdrawn: the agent that asked it stopped waiting\x1b[2J" },
  };
  const questions = Object.keys(verdicts).map((id, i) => q(id, T0 + i, [DB]));
  await withPis([[{ cwd: "/p", questions }, (qid) => verdicts[qid]]], async () => {
    const codes = [];
    for (const id of Object.keys(verdicts)) {
      const r = await runAnswer([id, '{"db":"MySQL"}']);
      codes.push(r.code);
      assert.doesNotMatch(r.err, /\x1b/);
      assert.equal(r.err.startsWith(`pi-question: ${verdicts[id].reason.replace(/\x1b.*/, "")}`), true, r.err);
    }
    assert.deepEqual(codes, [EXIT.notTaken, EXIT.invalid, EXIT.nothingWaiting, EXIT.notTaken]);
  });
});

test("answer with no answers and no terminal to ask on exits 3 and says how to answer instead", BOUND, async () => {
  await withPis([{ cwd: "/p", questions: [q("q00000001", T0, [DB])] }], async ([pi]) => {
    const r = await runAnswer([]);
    assert.deepEqual(r, {
      code: EXIT.noTerminal,
      out: "",
      err: "pi-question: no terminal to ask on; answer with: echo '<answers JSON>' | pi-question answer <n or id> -\n",
    });
    assert.equal((await runAnswer(["q00000001"])).code, EXIT.noTerminal);
    assert.deepEqual(pi.sent, []);
  });
});

test("answer and pending speak the language of LC_ALL / LC_MESSAGES / LANG: every refusal comes from the string table", BOUND, async () => {
  const de = addon.strings("de");
  const zh = addon.strings("zh");
  const inGerman = { env: { ...env, LANG: "de_DE.UTF-8" } };
  await withPis([{ cwd: "/p", questions: [q("q00000001", T0, [DB, NAME])] }], async ([pi]) => {
    const fill = (template, values) => template.replace(/\{([nsi])\}/g, (_, k) => String(values[k]));
    assert.deepEqual(await runAnswer(["1", '["Postgres"]'], inGerman), {
      code: EXIT.invalid,
      out: "",
      err: `pi-question: ${fill(de.REMOTE_LIST_LENGTH, { n: 1, s: 2 })}\n`,
    });
    assert.match(de.REMOTE_LIST_LENGTH, /Antworten/, "German, not English");
    assert.equal((await runAnswer(["1", "42"], inGerman)).err, `pi-question: ${de.REMOTE_ANSWERS_SHAPE}\n`);
    const bad = await runAnswer(["1", "{db:SQLite}"], inGerman);
    assert.match(bad.err, /^pi-question: die Antworten sind kein gültiges JSON \(.+\); /);
    assert.equal(
      (await runAnswer(["7", '{"db":"SQLite"}'], inGerman)).err,
      `pi-question: ${fill(de.REMOTE_NO_POSITION, { s: "7", n: "1", i: "q00000001" })}\n`,
    );
    assert.equal((await runAnswer(["q0000abcd", "{}"], inGerman)).err, `pi-question: ${fill(de.REMOTE_NO_ID, { s: "q0000abcd" })}\n`);
    assert.equal((await runAnswer([], inGerman)).err, `pi-question: ${de.REMOTE_NO_TERMINAL}\n`);
    // LC_ALL wins over LANG; a language pi-question does not speak is English.
    const chinese = await runAnswer(["1", "42"], { env: { ...env, LC_ALL: "zh_CN.UTF-8", LANG: "de_DE.UTF-8" } });
    assert.equal(chinese.err, `pi-question: ${zh.REMOTE_ANSWERS_SHAPE}\n`);
    const french = await runAnswer(["1", "42"], { env: { ...env, LANG: "fr_FR.UTF-8" } });
    assert.match(french.err, /answers must be an object like/);
    assert.deepEqual(pi.sent, [], "nothing refused was sent");
    const out = sink();
    await pending(addon, { out, env: inGerman.env });
    assert.match(out.text, /ID q00000001 · \/p · .* · Gefragt vom Agenten · wartet seit /);
  });
  const none = sink();
  await pending(addon, { out: none, env: inGerman.env });
  assert.equal(none.text, `${de.REMOTE_NONE}\n`);
});

// ---- the command itself ----------------------------------------------------------------------

/** The real `pi-question` command (the exit status as the shell sees it). */
/** The command's environment: the test's, with PATH and the addon the run names (the win32 build
 * under Wine; the sanitizer build, which loads only with its runtime preloaded and its options). */
const INHERITED = ["PATH", "PI_QUESTION_ADDON", "LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS"];
const commandEnv = { ...env, ...Object.fromEntries(INHERITED.filter((k) => process.env[k]).map((k) => [k, process.env[k]])) };
const command = async (...argv) => {
  // Under Wine, starting a process now and then fails in CreateProcess itself (spawn UNKNOWN,
  // thrown before the command runs: once in 4 runs here): that start is tried again, at most
  // twice. Anything the command itself does is never retried.
  for (let attempt = 0; ; attempt++) {
    try {
      return await new Promise((resolve) => {
        execFile(process.execPath, [join(root, "bin", "pi-question.mjs"), ...argv], { env: commandEnv }, (error, stdout, stderr) =>
          resolve({ code: error ? error.code : 0, stdout, stderr }),
        );
      });
    } catch (error) {
      if (process.platform !== "win32" || error?.code !== "UNKNOWN" || attempt >= 2) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
};

test("pi-question pending / answer: the command exits with the status the subcommand returns", BOUND, async () => {
  await withPis([{ cwd: "/p", session: { name: "main" }, questions: [q("q00000001", T0, [DB])] }], async ([pi]) => {
    const listed = await command("pending");
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^1\. Which database\?\n {3}id q00000001 · \/p · session "main" · Asked by the agent · waiting /);
    assert.equal((await command("answer", "1", "{")).code, 2);
    assert.equal((await command("answer", "7", "{}")).code, 4);
    const taken = await command("answer", "q00000001", '["SQLite"]');
    assert.deepEqual([taken.code, taken.stdout], [0, "Answer taken.\n"]);
    assert.deepEqual(pi.sent, [{ qid: "q00000001", outcome: "answered", answers: { db: "SQLite" } }]);
  });
  assert.equal((await command("pending")).code, 4);
});

test(
  "pi-question questions.json: a call that pre-supplies every answer is answered at once, with no terminal (as the tool); one missing an answer still needs one",
  BOUND,
  async () => {
    const dir = mkdtempSync(join(tmpdir(), "pq-standalone-"));
    try {
      const all = join(dir, "all.json");
      writeFileSync(all, JSON.stringify({ questions: [DB, { id: "name", prompt: "Name?" }], answers: { db: "SQLite", name: "orbit" } }));
      const done = await command(all);
      assert.equal(done.code, 0, done.stderr);
      const out = JSON.parse(done.stdout);
      assert.equal(out.status, "answered");
      assert.equal(out.mode, "presupplied");
      assert.match(out.text, /^Taken from the answers given in this call's `answers`/);
      const some = join(dir, "some.json");
      writeFileSync(some, JSON.stringify({ questions: [DB, { id: "name", prompt: "Name?" }], answers: { db: "SQLite" } }));
      const asked = await command(some);
      assert.equal(asked.code, 3, "no terminal here: it would ask"); // the test's env has no terminal for it
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test("pi-question: a failure is said once, with one prefix (the addon's loader names itself already)", BOUND, async () => {
  const missing = join(tmpdir(), `pq-no-addon-${process.pid}.node`);
  const failed = await new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(root, "bin", "pi-question.mjs"), "pending"],
      { env: { ...commandEnv, PI_QUESTION_ADDON: missing } },
      (error, stdout, stderr) => resolve({ code: error ? error.code : 0, stderr }),
    );
  });
  assert.equal(failed.code, 1);
  assert.match(failed.stderr, /^pi-question: the addon named by PI_QUESTION_ADDON could not be loaded/);
  assert.doesNotMatch(failed.stderr, /pi-question: pi-question:/);
});

// ---- what the person typed on this terminal is never lost -----------------------------------------
/** The addon with a terminal that "asks" by handing back `built` (what runTty's done gives);
 * `onRun` gets the run's stop() (the watch calls it when the question closes elsewhere). */
function askingAddon(built, onRun = () => undefined) {
  const runTty = () => {
    let stop;
    const done = new Promise((resolve) => (stop = () => resolve(built)));
    onRun(stop);
    if (!built.waitForStop) stop();
    return { done, stop: () => stop() };
  };
  // The addon's own properties are read-only: the fake shadows them on an object of its own.
  return Object.create(addon, { ttyAvailable: { value: () => true }, runTty: { value: runTty } });
}
const TYPED_QS = [
  { id: "db", label: "DB", prompt: "Which?", options: ["SQLite", "Postgres"] },
  { id: "name", label: "Name", prompt: "Name?" },
];
const TYPED_ANSWERS = {
  db: { selected: ["SQLite"], note: "because\u001b[2J" },
  name: { selected: [], wrote: "a 2 KB answer\u001b]0;x\u0007" },
};

for (const [code, exit] of [
  ["already", EXIT.notTaken],
  ["withdrawn", EXIT.notTaken],
  ["not_waiting", EXIT.nothingWaiting],
  ["invalid", EXIT.invalid],
]) {
  test(`answer on this terminal: refused (${code}), the typed answers and notes are printed sanitized`, BOUND, async () => {
    const verdict = () => ({ ok: false, code, reason: "refused" });
    await withPis([[{ cwd: "/p", questions: [q("q00000001", T0, TYPED_QS)] }, verdict]], async ([pi]) => {
      const built = addon.result(args(TYPED_QS), "answered", "remote", T0, null, JSON.stringify(TYPED_ANSWERS), 0);
      const out = sink();
      const err = sink();
      const r = await answer(askingAddon(built), [], { out, err, env, tty: "/dev/null", started: 0 });
      assert.equal(r, exit);
      assert.equal(pi.sent.length, 1, "the answer was sent");
      assert.equal(out.text, "Not delivered; what you wrote, so it is not lost:\nDB: Note: because␛[2J\nName: a 2 KB answer␛]0;x␇\n");
    });
  });
}

test("answer on this terminal: taken, nothing is printed back; a refusal with nothing typed prints only the reason", BOUND, async () => {
  await withPis([{ cwd: "/p", questions: [q("q00000001", T0, TYPED_QS)] }], async () => {
    const built = addon.result(args(TYPED_QS), "answered", "remote", T0, null, JSON.stringify(TYPED_ANSWERS), 0);
    const out = sink();
    assert.equal(await answer(askingAddon(built), [], { out, err: sink(), env, tty: "/dev/null", started: 0 }), EXIT.taken);
    assert.equal(out.text, "Answer taken.\n");
  });
  const verdict = () => ({ ok: false, code: "already", reason: "already answered" });
  await withPis([[{ cwd: "/p", questions: [q("q00000001", T0, TYPED_QS)] }, verdict]], async () => {
    const built = addon.result(args(TYPED_QS), "declined", "remote", T0, null, JSON.stringify({ db: "SQLite" }), 0); // an option picked, nothing typed
    const out = sink();
    const err = sink();
    assert.equal(await answer(askingAddon(built), [], { out, err, env, tty: "/dev/null", started: 0 }), EXIT.notTaken);
    assert.equal(out.text, "");
    assert.equal(err.text, "pi-question: already answered\n");
  });
});

test("answer on this terminal: closed elsewhere while typing, the runner's typed text is printed (de)", BOUND, async () => {
  const built = {
    ...addon.result(args(TYPED_QS), "interrupted", "remote", T0, null, null, 0),
    waitForStop: true,
    typed: [
      { id: "name", wrote: "half\u001b[2J" },
      { id: "db", note: "a note" },
    ],
  };
  await withPis([{ cwd: "/p", questions: [q("q00000001", T0, TYPED_QS)] }], async ([pi]) => {
    let stop;
    const fake = askingAddon(built, (s) => (stop = s));
    const out = sink();
    const running = answer(fake, [], { out, err: sink(), env: { ...env, LANG: "de_DE.UTF-8" }, tty: "/dev/null", started: 0 });
    while (!stop) await new Promise((r) => setTimeout(r, 5));
    stop(); // what the watch does when the question closes elsewhere
    assert.equal(await running, EXIT.notTaken);
    assert.deepEqual(pi.sent, [], "nothing sent");
    const t = addon.strings("de");
    assert.equal(out.text, `${t.ELSEWHERE_WORDS_KEPT}\nName: half␛[2J\nDB: ${t.NOTE_PREFIX}a note\n`);
  });
});

test("engine.typed(): what the person typed, answered or not, kept when the run ends interrupted (what built.typed carries)", BOUND, () => {
  const e = addon.createEngine(JSON.stringify({ questions: TYPED_QS }));
  assert.deepEqual(e.typed(), [], "nothing typed: nothing");
  e.feed("\x0e"); // Ctrl+N: a note on question 1
  e.feed("because");
  e.feed("\r");
  e.feed("  mine  "); // typed answer on question 1, trimmed
  e.feed("\r"); // answered: question 2 next
  e.feed("half"); // typed, not answered
  e.interrupt();
  assert.equal(JSON.parse(e.result("remote", T0, null, 0).details).answers.length, 0, "an interrupted result keeps no answers…");
  assert.deepEqual(
    JSON.parse(JSON.stringify(e.typed())),
    [
      { id: "db", wrote: "mine", note: "because" },
      { id: "name", wrote: "half" },
    ],
    "…the typed text is still there",
  );
  e.dispose();
});

// ---- pis that do not answer: one stuck pi hides nothing else -----------------------------------

/** A registered pi in a child process that will not answer: kind "relay" is the real relay server
 * (it answers `list` with `state` and takes every answer, printing it as a JSON line, whenever it
 * runs: the test stops it with SIGSTOP as Ctrl+Z would), kind "silent" accepts connections and
 * never replies (a pi whose event loop is blocked, as in its external editor). Its registry entry
 * carries `state.cwd` and `state.registrySession`. → { child, pid, lines (what it printed),
 * endpoint (from the registry), close() }. */
async function stuckPi(kind, state, { backlog } = {}) {
  const here = (path) => JSON.stringify(new URL(path, import.meta.url).href);
  const source = `
    const { registerEndpoint } = await import(${here("../extension/elsewhere/relay-wire.mjs")});
    const state = JSON.parse(process.env.STUCK_STATE);
    let variable, close;
    if (process.env.STUCK_KIND === "relay") {
      const { addon } = await import(${here("./helpers/addon.mjs")});
      const { importShim } = await import(${here("./helpers/shim.mjs")});
      const { relayBounds, startRelayServer } = await importShim("elsewhere/relay.ts");
      const server = await startRelayServer(relayBounds ? relayBounds(addon.limits) : addon.limits.relayMessageBytes, {
        ask: async () => ({ type: "unavailable" }),
        list: () => ({ type: "pending", pid: process.pid, ended: [], ...state }),
        answer: (qid, outcome, answers) => {
          process.stdout.write(JSON.stringify({ qid, outcome, answers }) + "\\n");
          return { ok: true };
        },
        watch: () => () => undefined,
      });
      variable = server.control ?? server.variable;
      close = () => server.close();
      setInterval(() => undefined, 1 << 30); // the relay never keeps its process alive
    } else {
      const { createServer } = await import("node:net");
      const path = process.env.STUCK_SOCKET;
      const server = createServer((socket) => socket.resume());
      await new Promise((resolve) => server.listen({ path, backlog: Number(process.env.STUCK_BACKLOG) || undefined }, resolve));
      variable = "v1:" + "0".repeat(64) + ":" + path;
      close = () => server.close();
    }
    registerEndpoint({ variable, pid: process.pid, cwd: state.cwd, session: state.registrySession, startedAt: Date.now() });
    process.on("SIGTERM", () => {
      close();
      process.exit(0); // runs the exit handlers: the registry entry and the relay's directory go
    });
    process.stdout.write("ready\\n");
  `;
  const socket = join(runtime, `stuck-${Math.random().toString(16).slice(2)}.sock`);
  const child = spawn(process.execPath, ["--input-type=module", "-e", source], {
    env: {
      ...process.env,
      ...env,
      STUCK_KIND: kind,
      STUCK_STATE: JSON.stringify(state),
      STUCK_SOCKET: socket,
      STUCK_BACKLOG: String(backlog ?? ""),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const lines = [];
  let buffered = "";
  child.stdout.on("data", (chunk) => {
    buffered += chunk;
    const parts = buffered.split("\n");
    buffered = parts.pop();
    lines.push(...parts);
  });
  const close = async () => {
    child.kill("SIGCONT");
    child.kill("SIGTERM");
    await exited;
  };
  try {
    await until(() => lines.includes("ready"), "the stuck pi's endpoint", { ms: 10_000, gone: exited });
  } catch (error) {
    await close();
    throw error;
  }
  const endpoint = listEndpoints(env).find((e) => e.pid === child.pid)?.endpoint;
  assert.ok(endpoint, "registered");
  return { child, pid: child.pid, lines, endpoint, close };
}

/** Polls `check` every 5 ms (at most 10 s; fails at once should `gone` settle first). */

/** Whether the kernel says process `pid` is stopped (state T): /proc on Linux, `ps` elsewhere
 * (macOS has no /proc). */
const stoppedNow = (pid) =>
  process.platform === "linux"
    ? /^\d+ \(.*\) T /s.test(readFileSync(`/proc/${pid}/stat`, "utf8"))
    : /^T/.test(spawnSync("ps", ["-o", "state=", "-p", String(pid)], { encoding: "utf8" }).stdout.trim());

/** Stops a child as Ctrl+Z does and waits until it is stopped. */
async function stop(pi) {
  pi.child.kill("SIGSTOP");
  await until(() => stoppedNow(pi.pid), "the pi stopped", { ms: 10_000 });
}

/** The stuck pis not closed yet: a test that times out (the old request() waited forever) never
 * reaches its `finally`; these are resumed and ended when the file's tests are done. */
const stuckChildren = new Set();
after(() => Promise.all([...stuckChildren].map((p) => p.close())));

/** Runs `fn` with the stuck pis, closing (and resuming) them after, pass or fail. */
async function withStuck(specs, fn) {
  const pis = [];
  try {
    for (const spec of specs) {
      const pi = await stuckPi(...spec);
      stuckChildren.add(pi);
      pis.push(pi);
    }
    return await fn(pis);
  } finally {
    for (const p of pis) {
      await p.close();
      stuckChildren.delete(p);
    }
  }
}

const SHORT = { connectMs: 300, replyMs: 300 };

test(
  "request(): a reply that does not come in replyMs is a timeout (stage reply); without replyMs it waits",
  { timeout: 20_000 },
  async () => {
    await withStuck([["silent", { cwd: "/silent" }]], async ([silent]) => {
      assert.deepEqual(await request(silent.endpoint, { type: "list" }, { connectMs: 300, replyMs: 50 }), {
        type: "timeout",
        stage: "reply",
      });
      // No reply timeout (a child's question, a watch): still waiting when the caller gives up.
      const gaveUp = new AbortController();
      const waiting = request(silent.endpoint, { type: "list" }, { connectMs: 300, signal: gaveUp.signal });
      setTimeout(() => gaveUp.abort(), 400);
      assert.deepEqual(await waiting, { type: "interrupted" });
    });
  },
);

test(
  "pending: a stopped pi, a silent one and one whose queue is full are named, one line each; every other pi's questions are listed",
  { timeout: 30_000 },
  async () => {
    await withPis([{ cwd: "/srv/live", session: { name: "live" }, questions: [q("q11111111", T0, [DB])] }], async () => {
      const stopped = [
        "relay",
        { cwd: join(home, "shop"), registrySession: "fix \x1b[2Jlogin", questions: [q("q22222222", T0 + 1, [NAME])] },
      ];
      const silent = ["silent", { cwd: "/srv/\x1b]0;editor\x07vim" }];
      const full = ["silent", { cwd: "/srv/full" }, { backlog: 1 }];
      await withStuck([stopped, silent, full], async ([relay, quiet, queue]) => {
        await stop(relay);
        // A pi stopped long ago: its queue of connections not yet accepted has filled up.
        await stop(queue);
        const held = [];
        for (;;) {
          const s = createConnection(queue.endpoint.path);
          held.push(s);
          const r = await new Promise(
            (resolve) => (s.once("connect", () => resolve("connected")), s.once("error", (e) => resolve(e.code))),
          );
          if (r === "EAGAIN") break;
          assert.equal(r, "connected");
          assert.ok(held.length < 50, "the queue fills");
        }
        try {
          const out = sink();
          const err = sink();
          const code = await pending(addon, { out, err, env, now: () => T0 + 5_000, ...SHORT });
          assert.equal(code, EXIT.taken);
          assert.equal(out.text, `1. Which database?\n   id q11111111 · /srv/live · session "live" · Asked by the agent · waiting 5s\n`);
          const because = "(stopped with Ctrl+Z, inside its editor, or busy); its questions are not shown";
          const named = [
            [
              relay.pid,
              `pi-question: the pi in ~/shop (pid ${relay.pid}, session "fix \\u001b[2Jlogin") did not answer within 0.3 s ${because}\n`,
            ],
            [quiet.pid, `pi-question: the pi in /srv/␛]0;editor␇vim (pid ${quiet.pid}) did not answer within 0.3 s ${because}\n`],
            [queue.pid, `pi-question: the pi in /srv/full (pid ${queue.pid}) did not accept a connection within 0.3 s ${because}\n`],
          ];
          assert.equal(
            err.text,
            named
              .sort((a, b) => a[0] - b[0])
              .map(([, line]) => line)
              .join(""),
            "one line per pi, by pid",
          );
          // Resumed (fg), the stopped pi answers again and its question is listed.
          relay.child.kill("SIGCONT");
          const again = sink();
          assert.equal(await pending(addon, { out: again, err: sink(), env, now: () => T0 + 5_000, ...SHORT }), EXIT.taken);
          assert.match(again.text, /^1\. Which database\?\n.*\n2\. Service name\?\n {3}id q22222222 · ~\/shop · /);
        } finally {
          for (const s of held) s.destroy();
        }
      });
    });
  },
);

test("pending: nothing listed but a pi did not answer exits 5, without claiming nothing waits", { timeout: 20_000 }, async () => {
  await withStuck([["silent", { cwd: "/srv/silent" }]], async ([quiet]) => {
    const out = sink();
    const err = sink();
    assert.equal(await pending(addon, { out, err, env, ...SHORT }), EXIT.noReply);
    assert.equal(out.text, "");
    assert.match(err.text, new RegExp(`^pi-question: the pi in /srv/silent \\(pid ${quiet.pid}\\) did not answer within 0\\.3 s .*\\n$`));
    // answer: the oldest question may be waiting there — the same.
    const r = await runAnswer(["1", '{"db":"SQLite"}'], SHORT);
    assert.equal(r.code, EXIT.noReply);
    assert.doesNotMatch(r.err, /No question is waiting in any pi/);
    assert.match(r.err, /did not answer within 0\.3 s/);
  });
});

test(
  "pi-question pending (the command, its own 2 s limits): a stopped pi is named and the live pi's question listed",
  { timeout: 30_000 },
  async () => {
    assert.equal(addon.limits.remoteReplyMs, 2000, "native/core/qt_limits.h QT_REMOTE_REPLY_MS");
    await withPis([{ cwd: "/srv/live", questions: [q("q11111111", T0, [DB])] }], async () => {
      await withStuck([["relay", { cwd: "/srv/stopped", questions: [q("q22222222", T0 + 1, [NAME])] }]], async ([relay]) => {
        await stop(relay);
        const r = await command("pending");
        assert.equal(r.code, EXIT.taken, r.stderr);
        assert.match(r.stdout, /^1\. Which database\?\n {3}id q11111111 · \/srv\/live · /);
        assert.doesNotMatch(r.stdout, /Service name/);
        assert.equal(
          r.stderr,
          `pi-question: the pi in /srv/stopped (pid ${relay.pid}) did not answer within 2 s (stopped with Ctrl+Z, inside its editor, or busy); its questions are not shown\n`,
        );
      });
    });
  },
);

test(
  "answer on this terminal: a pi that stops before confirming — not claimed lost: exit 5, the words printed, and it takes the answer when it resumes",
  { timeout: 30_000 },
  async () => {
    await withStuck([["relay", { cwd: "/srv/p", registrySession: "main", questions: [q("q00000001", T0, TYPED_QS)] }]], async ([relay]) => {
      const built = {
        ...addon.result(args(TYPED_QS), "answered", "remote", T0, null, JSON.stringify(TYPED_ANSWERS), 0),
        waitForStop: true,
      };
      // While the person is typing, the pi is stopped (Ctrl+Z in its terminal).
      const fake = askingAddon(built, (finish) => stop(relay).then(finish));
      const out = sink();
      const err = sink();
      const code = await answer(fake, [], { out, err, env, tty: "/dev/null", started: 0, ...SHORT });
      assert.equal(code, EXIT.noReply);
      assert.equal(
        err.text,
        `pi-question: the pi in /srv/p (pid ${relay.pid}, session "main") did not confirm the answer within 0.3 s (stopped with Ctrl+Z, inside its editor, or busy); it may still take the answer when it resumes\n`,
      );
      assert.equal(out.text, "Not confirmed; what you wrote, so it is not lost:\nDB: Note: because␛[2J\nName: a 2 KB answer␛]0;x␇\n");
      assert.deepEqual(relay.lines, ["ready"], "nothing taken while stopped");
      relay.child.kill("SIGCONT");
      await until(() => relay.lines.length === 2, "the answer taken on resuming", { ms: 10_000 });
      const taken = JSON.parse(relay.lines[1]);
      assert.equal(taken.qid, "q00000001");
      assert.deepEqual(taken.answers.name, { selected: [], wrote: "a 2 KB answer\u001b]0;x\u0007" });
    });
  },
);

test("answer n '{…}' to a pi that does not confirm in time exits 5 and says it may still take it", { timeout: 20_000 }, async () => {
  await withStuck([["relay", { cwd: "/srv/p", questions: [q("q00000001", T0, [DB])] }]], async ([relay]) => {
    // Listed while it runs; stopped before the answer arrives (resolved by id, listed first).
    const fake = Object.create(addon, {
      normalize: {
        value: (x) => {
          const canonical = addon.normalize(x);
          relay.child.kill("SIGSTOP");
          // Synchronously, so that the answer (sent after the listing) finds the pi stopped.
          const until = Date.now() + 10_000;
          while (!stoppedNow(relay.pid)) if (Date.now() > until) throw new Error("the pi did not stop");
          return canonical;
        },
      },
    });
    const out = sink();
    const err = sink();
    const code = await answer(fake, ["q00000001", '{"db":"Postgres"}'], { out, err, env, tty: "/nonexistent/tty", started: 0, ...SHORT });
    assert.equal(code, EXIT.noReply, err.text);
    assert.match(err.text, /did not confirm the answer within 0\.3 s .*; it may still take the answer when it resumes\n$/);
    relay.child.kill("SIGCONT");
    await until(() => relay.lines.length === 2, "the answer taken on resuming", { ms: 10_000 });
    assert.deepEqual(JSON.parse(relay.lines[1]).answers, { db: "Postgres" });
  });
});

// ---- the answers from standard input: never on the command line ---------------------------------

/** The real command with `input` on its standard input. */
const piped = (input, ...argv) =>
  new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [join(root, "bin", "pi-question.mjs"), ...argv],
      { env: commandEnv },
      (error, stdout, stderr) => resolve({ code: error ? error.code : 0, stdout, stderr }),
    );
    child.stdin.end(input);
  });

test(
  "pi-question answer n -: the answers JSON from standard input; empty or invalid input is refused (exit 2) and nothing is sent",
  { timeout: 30_000 },
  async () => {
    await withPis([{ cwd: "/p", questions: [q("q00000001", T0, [DB, NAME])] }], async ([pi]) => {
      const empty = await piped("  \n", "answer", "1", "-");
      assert.deepEqual(empty, {
        code: EXIT.invalid,
        stdout: "",
        stderr: `pi-question: no answers on standard input; give them there, like: echo '{"db":"SQLite"}' | pi-question answer 2 -\n`,
      });
      const bad = await piped("{db:", "answer", "1", "-");
      assert.equal(bad.code, EXIT.invalid);
      assert.match(bad.stderr, /^pi-question: the answers are not valid JSON \(.+\); write them like/);
      const over = await piped(" ".repeat(addon.limits.answersJsonBytes) + "{}", "answer", "1", "-");
      assert.equal(over.code, EXIT.invalid);
      assert.equal(over.stderr, `pi-question: the answers on standard input are longer than ${addon.limits.answersJsonBytes} bytes\n`);
      assert.deepEqual(pi.sent, [], "nothing refused was sent");
      const taken = await piped('{"db":"Postgres","name":"orders"}\n', "answer", "1", "-");
      assert.deepEqual(taken, { code: EXIT.taken, stdout: "Answer taken.\n", stderr: "" });
      const list = await piped('["SQLite", "billing"]', "answer", "q00000001", "-");
      assert.equal(list.code, EXIT.taken, list.stderr);
      assert.deepEqual(pi.sent, [
        { qid: "q00000001", outcome: "answered", answers: { db: "Postgres", name: "orders" } },
        { qid: "q00000001", outcome: "answered", answers: { db: "SQLite", name: "billing" } },
      ]);
    });
  },
);
