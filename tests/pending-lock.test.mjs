// pending-lock.test.mjs — the pending-questions file shared by several processes (parallel CI
// jobs, subagents): every update holds the flock of the lock file beside it (native/os/posix/filelock.c),
// so concurrent writers lose nothing, readers never see a half-written file, the lock dies with
// its holder, and a lock held too long is a clear error rather than a lost update.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { addon, thrown } from "./helpers/addon.mjs";
import { importShim } from "./helpers/shim.mjs";

// The seal key (pending.ts) goes to a home of the test's own, for the workers too.
process.env.HOME = mkdtempSync(join(tmpdir(), "pq-lock-home-"));
const pending = await importShim("ask/pending.ts");
const WORKER = new URL("./helpers/pending-worker.mjs", import.meta.url).pathname;

function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), "pq-lock-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A worker process; `line()` resolves with its next line of output. */
function worker(...args) {
  const child = spawn(process.execPath, [WORKER, ...args], { stdio: ["pipe", "pipe", "pipe"] });
  let buffer = "";
  let stderr = "";
  const waiting = [];
  const lines = [];
  child.stderr.on("data", (d) => (stderr += d));
  child.stdout.on("data", (d) => {
    buffer += d;
    let at;
    while ((at = buffer.indexOf("\n")) >= 0) {
      lines.push(buffer.slice(0, at));
      buffer = buffer.slice(at + 1);
    }
    while (lines.length && waiting.length) waiting.shift().resolve(lines.shift());
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  exited.then(() => {
    for (const w of waiting.splice(0)) w.reject(new Error(`worker ${args.join(" ")} exited: ${stderr}`));
  });
  return {
    child,
    exited,
    line: () => (lines.length ? Promise.resolve(lines.shift()) : new Promise((resolve, reject) => waiting.push({ resolve, reject }))),
  };
}

const Q = (id) => [{ id, prompt: `${id}?`, options: [{ value: "y", label: "Yes" }] }];

test("lock: a second holder waits and then gets a clear error; release lets it in", () => {
  const { dir, cleanup } = tempDir();
  try {
    const path = join(dir, "f.lock");
    const first = addon.lockFile(path, 0);
    const e = thrown(() => addon.lockFile(path, 20));
    assert.equal(e.code, "QT_ELOCKED");
    assert.match(e.message, /f\.lock is held by another lock holder \(waited 20 ms\)/);
    first.release();
    first.release(); // twice: nothing happens
    addon.lockFile(path, 0).release(true);
    assert.equal(existsSync(path), false, "release(true) removes the lock file");
  } finally {
    cleanup();
  }
});

test("lock: bad arguments and unusable lock files are errors, never a lock through a symbolic link", () => {
  const { dir, cleanup } = tempDir();
  try {
    assert.equal(thrown(() => addon.lockFile(join(dir, "x.lock"), -1)).code, "QT_ERANGE");
    assert.equal(thrown(() => addon.lockFile(join(dir, "x.lock"), 60001)).code, "QT_ERANGE");
    assert.equal(thrown(() => addon.lockFile(42, 10)).code, "QT_ETYPE");
    const missing = thrown(() => addon.lockFile(join(dir, "no", "x.lock"), 10));
    assert.equal(missing.code, "QT_ELOCK");
    assert.match(missing.message, /could not lock .*no\/x\.lock: No such file or directory/);
    symlinkSync(join(dir, "target"), join(dir, "link.lock"));
    assert.equal(thrown(() => addon.lockFile(join(dir, "link.lock"), 10)).code, "QT_ELOCK");
    assert.equal(existsSync(join(dir, "target")), false, "nothing is created where the link points");
    const lock = addon.lockFile(join(dir, "y.lock"), 0);
    assert.equal(thrown(() => lock.release.call({})).code, "QT_ETYPE");
    lock.release();
  } finally {
    cleanup();
  }
});

test("lock: a holder that dies (SIGKILL) leaves no stale lock", async () => {
  const { dir, cleanup } = tempDir();
  const holder = worker("holder", join(dir, "p.lock"));
  try {
    assert.equal(await holder.line(), "locked");
    assert.equal(thrown(() => addon.lockFile(join(dir, "p.lock"), 0)).code, "QT_ELOCKED");
    holder.child.kill("SIGKILL");
    await holder.exited;
    addon.lockFile(join(dir, "p.lock"), 0).release(true);
  } finally {
    holder.child.kill("SIGKILL");
    cleanup();
  }
});

test("pending: an update that cannot get the lock says so and changes nothing", async () => {
  const { dir, cleanup } = tempDir();
  try {
    const path = join(dir, ".pi", "pending-questions.json");
    assert.equal(typeof (await pending.rememberPending(dir, path, Q("a"))), "object");
    const before = readFileSync(path, "utf8");
    const held = addon.lockFile(pending.lockPath(path), 0);
    try {
      const out = await pending.withPendingLock(dir, path, () => ({ value: "ran" }), 10);
      assert.deepEqual(out, {
        why: `Another pi is updating the pending-questions file ${path} and did not finish within 0.01 s; try again.`,
      });
    } finally {
      held.release();
    }
    assert.equal(readFileSync(path, "utf8"), before);
    assert.equal(await pending.forgetPending(dir, path, pending.questionsKey(Q("a"))), undefined);
    assert.equal(existsSync(path), false, "the last set forgotten: the file goes");
    assert.equal(existsSync(pending.lockPath(path)), false, "and its lock file with it");
    writeFileSync(path, "{}");
    assert.equal(await pending.clearPending(dir, path), undefined);
    assert.equal(existsSync(path) || existsSync(pending.lockPath(path)), false);
  } finally {
    cleanup();
  }
});

// A busy machine (two cores, many writers) can keep the lock for seconds: a question set must
// never be lost to that. The old give-up time was 5 s; this holds the lock a little longer.
test("pending: a writer waits out a lock held for 6 s (a busy machine) and its question set is kept", { timeout: 120_000 }, async () => {
  const { dir, cleanup } = tempDir();
  const path = join(dir, ".pi", "pending-questions.json");
  mkdirSync(join(dir, ".pi"));
  const holder = worker("holder", pending.lockPath(path));
  try {
    assert.equal(await holder.line(), "locked");
    const kill = setTimeout(() => holder.child.kill("SIGKILL"), 6000);
    const out = await pending.rememberPending(dir, path, Q("busy"));
    clearTimeout(kill);
    assert.equal(typeof out, "object", `the set was not kept: ${out}`);
    assert.deepEqual(
      JSON.parse(readFileSync(path, "utf8")).pending.map((s) => s.questions[0].id),
      ["busy"],
    );
    assert.ok(addon.limits.pendingLockGiveUpMs >= 60_000);
  } finally {
    holder.child.kill("SIGKILL");
    await holder.exited;
    cleanup();
  }
});

// `/questions clear` runs on pi's main thread: while another process holds the lock, pi must go
// on (keys, redraws, the relay) and the clear must happen once the lock is free.
test("/questions clear: a lock held elsewhere never stops pi's event loop; the file goes once it is free", async () => {
  const { dir, cleanup } = tempDir();
  const path = join(dir, ".pi", "pending-questions.json");
  const { loadExtension } = await import("./helpers/fake-pi.mjs");
  const ext = await loadExtension();
  const oldHome = process.env.HOME;
  process.env.HOME = dir; // no settings of the person's own
  let released = false;
  try {
    assert.equal(typeof (await pending.rememberPending(dir, path, Q("a"))), "object");
    const real = worker("holder", pending.lockPath(path));
    try {
      assert.equal(await real.line(), "locked");
      const shown = [];
      const ctx = { hasUI: true, cwd: dir, sessionManager: { getBranch: () => [] }, ui: { notify: (m) => shown.push(m) } };
      // The holder lets go only when a timer of this process runs: a clear that waited on the
      // main thread would keep it from running, fail after its give-up time with "did not finish", and
      // leave the file.
      setTimeout(() => {
        released = true;
        real.child.kill("SIGKILL");
      }, 200);
      await ext.commands.get("questions").handler("clear", ctx);
      assert.equal(released, true, `the timer ran while the clear waited for the lock: ${JSON.stringify(shown)}`);
      assert.equal(existsSync(path), false, "the file is removed once the lock is free");
      assert.equal(shown.length, 1, JSON.stringify(shown));
      assert.match(shown[0], /pending-questions\.json/);
      assert.doesNotMatch(shown[0], /did not finish/);
    } finally {
      real.child.kill("SIGKILL");
      await real.exited;
    }
  } finally {
    process.env.HOME = oldHome;
    cleanup();
  }
});

test("pending: 8 writers, 2 emptiers and 2 readers at once, 5 rounds: nothing lost, nothing torn", async () => {
  const { dir, cleanup } = tempDir();
  const ROUNDS = 5,
    SETS = 12,
    WRITERS = 8,
    EMPTIERS = 2;
  mkdirSync(dir, { recursive: true });
  const writers = Array.from({ length: WRITERS }, (_, w) => worker("writer", dir, `w${w}`, String(ROUNDS), String(SETS)));
  const emptiers = Array.from({ length: EMPTIERS }, (_, w) => worker("emptier", dir, `e${w}`, String(ROUNDS), String(SETS)));
  const readers = Array.from({ length: 2 }, () => worker("reader", dir, String(ROUNDS)));
  const all = [...writers, ...emptiers, ...readers];
  try {
    for (const p of all) assert.equal(await p.line(), "ready");
    for (const p of all) p.child.stdin.write("go\n");
    for (const p of [...writers, ...emptiers]) assert.deepEqual(JSON.parse(await p.line()), { failures: [] });
    for (const p of readers) p.child.stdin.end();
    for (const p of readers) {
      const { reads, errors } = JSON.parse(await p.line());
      assert.ok(reads > 0);
      assert.deepEqual(errors, [], "a reader never sees a half-written file");
    }
    for (let r = 0; r < ROUNDS; r++) {
      const path = join(dir, `round-${r}`, "pending.json");
      const ids = JSON.parse(readFileSync(path, "utf8"))
        .pending.map((s) => s.questions[0].id)
        .sort();
      const expected = [];
      for (let w = 0; w < WRITERS; w++) for (let k = 0; k < SETS; k += 2) expected.push(`w${w}-${k}`);
      assert.deepEqual(ids, expected.sort(), `round ${r}: every set kept, every forgotten one gone`);
      const emptied = join(dir, `emptied-${r}`, "pending.json");
      assert.equal(existsSync(emptied), false, `round ${r}: all forgotten, the file is gone`);
      assert.equal(existsSync(pending.lockPath(emptied)), false, `round ${r}: and its lock file`);
    }
  } finally {
    for (const p of all) p.child.kill("SIGKILL");
    cleanup();
  }
});

// ---- containment at the time of use: a cloned repository may commit `.pi` as a symbolic link to
// anywhere, and a link may be swapped in after the settings were read ----------------------------

/** A home holding a project and a directory outside it. */
function projectAndOutside() {
  const { dir, cleanup } = tempDir();
  const project = join(dir, "project");
  const outside = join(dir, "outside");
  mkdirSync(project);
  mkdirSync(outside);
  return { project, outside, cleanup };
}

const REFUSED =
  /^The pending-questions file .* was neither written nor removed: it leads outside the project through a symbolic link \(to .*\/outside\/.*\), and pi-question writes and removes files only inside the project \(.*\/project\)\.$/;

test("pending: a .pi that is a symbolic link out of the project: nothing is created, written or removed there", async () => {
  const { project, outside, cleanup } = projectAndOutside();
  try {
    symlinkSync(outside, join(project, ".pi"));
    const path = pending.pendingPath(project); // the default .pi/pending-questions.json
    const saved = await pending.rememberPending(project, path, Q("a"));
    assert.equal(typeof saved, "string", "refused, not saved");
    assert.match(saved, REFUSED);
    assert.ok(saved.includes(path), `names the path: ${saved}`);
    assert.deepEqual(readdirSync(outside), [], "no file, lock file or temporary file outside");
    assert.match(pending.writePending(project, path, { instructions: "", pending: [] }), REFUSED);
    assert.deepEqual(readdirSync(outside), []);
    // A file that is already there (someone else's) is neither rewritten nor removed.
    const victim = join(outside, "pending-questions.json");
    const theirs = JSON.stringify({ pending: [{ key: pending.questionsKey(Q("a")), questions: [{ id: "a", answer: null }] }] });
    writeFileSync(victim, theirs);
    assert.match(await pending.forgetPending(project, path, pending.questionsKey(Q("a"))), REFUSED);
    assert.match(await pending.clearPending(project, path), REFUSED);
    assert.equal(readFileSync(victim, "utf8"), theirs);
    assert.deepEqual(readdirSync(outside), ["pending-questions.json"], "no lock file left outside either");
  } finally {
    cleanup();
  }
});

test("pending: a directory swapped for a link after the settings were read is refused at the write", async () => {
  const { project, outside, cleanup } = projectAndOutside();
  const { loadSettings } = await importShim("text/settings.ts");
  try {
    mkdirSync(join(project, ".pi"));
    mkdirSync(join(project, "q"));
    writeFileSync(join(project, ".pi", "question.json"), JSON.stringify({ pendingFile: "q/p.json" }));
    const warnings = [];
    const settings = loadSettings(project, (w) => warnings.push(w), outside);
    assert.deepEqual(warnings, []);
    assert.equal(settings.pendingFile, "q/p.json", "accepted: q is a directory inside the project when the settings are read");
    const path = pending.pendingPath(project, settings.pendingFile);
    assert.equal(typeof (await pending.rememberPending(project, path, Q("a"))), "object");
    // Now q becomes a link to a directory outside holding someone else's p.json.
    renameSync(join(project, "q"), join(project, "q-old"));
    symlinkSync(outside, join(project, "q"));
    const victim = join(outside, "p.json");
    const theirs = readFileSync(join(project, "q-old", "p.json"), "utf8");
    writeFileSync(victim, theirs);
    assert.match(await pending.rememberPending(project, path, Q("b")), REFUSED);
    assert.match(await pending.forgetPending(project, path, pending.questionsKey(Q("a"))), REFUSED);
    assert.match(await pending.clearPending(project, path), REFUSED);
    assert.equal(readFileSync(victim, "utf8"), theirs, "their file is untouched");
    assert.deepEqual(readdirSync(outside), ["p.json"], "no lock or temporary file outside");
    // A link that stays inside the project is fine: the work is done on the real path.
    rmSync(join(project, "q"));
    symlinkSync(join(project, "q-old"), join(project, "q"));
    assert.equal(typeof (await pending.rememberPending(project, path, Q("b"))), "object");
    assert.deepEqual(
      JSON.parse(readFileSync(join(project, "q-old", "p.json"), "utf8")).pending.map((s) => s.questions[0].id),
      ["a", "b"],
    );
    assert.equal(await pending.clearPending(project, path), undefined);
    assert.deepEqual(readdirSync(join(project, "q-old")), [], "the file and its lock file are gone");
    assert.equal(lstatSync(join(project, "q")).isSymbolicLink(), true, "the link itself stays");
  } finally {
    cleanup();
  }
});
