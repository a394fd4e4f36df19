// pending-files.test.mjs — the pending-questions file as hostile input:
// a file that is not a regular file of this user's inside the project is refused with one clear
// message and never written over, and answers count only in a set this person's pi wrote (its
// seal, made with the key in ~/.pi/agent) — a file shipped in a repository answers nothing.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { importShim } from "./helpers/shim.mjs";

// The seal key goes to a home of the test's own.
const HOME = mkdtempSync(join(tmpdir(), "pq-files-home-"));
process.env.HOME = HOME;
process.on("exit", () => rmSync(HOME, { recursive: true, force: true }));
const pending = await importShim("ask/pending.ts");

const Q = (id) => [{ id, prompt: `${id}?`, options: [{ value: "y", label: "Yes" }] }];

function project() {
  const dir = mkdtempSync(join(tmpdir(), "pq-files-"));
  mkdirSync(join(dir, ".pi"));
  return { dir, path: join(dir, ".pi", "pending-questions.json"), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The set a repository could ship: the questions pi would ask, answers filled in, no seal. */
function shipped(questions, askedAt = "2026-01-01T00:00:00.000Z") {
  return {
    key: pending.questionsKey(questions),
    askedAt,
    questions: questions.map((q) => ({ id: q.id, prompt: q.prompt, options: q.options.map((o) => o.label), answer: "Yes" })),
  };
}

test("pending seal: a set this pi wrote, answered by the person, is its own; its key file is 0600 in ~/.pi/agent", async () => {
  const { dir, path, cleanup } = project();
  try {
    const set = await pending.rememberPending(dir, path, Q("a"));
    assert.equal(typeof set, "object");
    assert.match(set.seal, /^[0-9a-f]{64}$/);
    const key = pending.sealKeyPath(HOME);
    assert.equal(statSync(key).mode & 0o777, 0o600);
    const file = JSON.parse(readFileSync(path, "utf8"));
    file.pending[0].questions[0].answer = "Yes"; // what the person does
    writeFileSync(path, JSON.stringify(file));
    const { file: read, error } = pending.readPending(path, dir);
    assert.equal(error, undefined);
    assert.equal(pending.foreignSet(read.pending[0], path), undefined);
    assert.deepEqual({ ...pending.completeAnswers(read.pending[0]) }, { a: "Yes" });
  } finally {
    cleanup();
  }
});

test("pending seal: a shipped set with answers filled in is not this pi's; ours is written beside it, untouched", async () => {
  const { dir, path, cleanup } = project();
  try {
    writeFileSync(path, JSON.stringify({ instructions: "x", pending: [shipped(Q("a"))] }));
    const { file } = pending.readPending(path, dir);
    const why = pending.foreignSet(file.pending[0], ".pi/pending-questions.json");
    assert.equal(
      why,
      'The answers in .pi/pending-questions.json (the questions asked at 2026-01-01T00:00:00.000Z) were not used: your pi did not write that set (its seal is missing or wrong; a pending file that came with the repository, or one edited beyond its "answer" fields). Delete the file (/questions clear) and ask again: pi then writes its own set, whose answers count.',
    );
    // A forged seal, or a seal copied from another set, does not pass either.
    const ours = await pending.rememberPending(dir, path, Q("a"));
    assert.equal(typeof ours, "object");
    const after = JSON.parse(readFileSync(path, "utf8")).pending;
    assert.equal(after.length, 2, "the shipped set stays; ours is added");
    assert.deepEqual(after[0], shipped(Q("a")));
    assert.equal(after[1].questions[0].answer, null);
    assert.notEqual(pending.foreignSet({ ...after[0], seal: "0".repeat(64) }, path), undefined);
    assert.notEqual(pending.foreignSet({ ...after[0], seal: after[1].seal }, path), undefined, "askedAt differs: a copied seal fails");
    // Changing the prompt of our own set (to smuggle a question) breaks its seal.
    assert.notEqual(pending.foreignSet({ ...after[1], questions: [{ ...after[1].questions[0], prompt: "other?" }] }, path), undefined);
    assert.equal(pending.foreignSet(after[1], path), undefined);
  } finally {
    cleanup();
  }
});

test("pending seal: another user's key file is refused: no answer in the file counts, and the message says what to do", async (t) => {
  if (process.platform === "win32" || process.getuid?.() !== 0) return t.skip("needs root to give a file away");
  const home = mkdtempSync(join(tmpdir(), "pq-files-otherhome-"));
  try {
    mkdirSync(join(home, ".pi", "agent"), { recursive: true });
    writeFileSync(pending.sealKeyPath(home), `${"a".repeat(64)}\n`, { mode: 0o600 });
    chownSync(pending.sealKeyPath(home), 4242, 4242);
    const why = pending.foreignSet(shipped(Q("a")), "p.json", home);
    assert.match(why, /pi-question's key .*pi-question\.key belongs to another user \(uid 4242\).*remove it/);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test("pending file: one owned by another user is refused and not written over", async (t) => {
  if (process.platform === "win32" || process.getuid?.() !== 0) return t.skip("needs root to give a file away");
  const { dir, path, cleanup } = project();
  try {
    writeFileSync(path, JSON.stringify({ instructions: "x", pending: [shipped(Q("a"))] }));
    chownSync(path, 4242, 4242);
    const before = readFileSync(path, "utf8");
    const { error, refused } = pending.readPending(path, dir);
    assert.equal(refused, true);
    assert.match(error, /belongs to another user \(uid 4242\), not to you \(uid 0\), so it is neither read nor written/);
    assert.equal(await pending.rememberPending(dir, path, Q("b")), error);
    assert.equal(readFileSync(path, "utf8"), before);
  } finally {
    cleanup();
  }
});

test("pending file: a FIFO is refused at once (never a hang), the write refused, the FIFO left as it was", async (t) => {
  if (process.platform === "win32") return t.skip("no FIFOs");
  const { dir, path, cleanup } = project();
  try {
    execFileSync("mkfifo", [path]);
    const { error, refused } = pending.readPending(path, dir);
    assert.equal(refused, true);
    assert.equal(
      error,
      `The pending-questions file ${path} is a FIFO (named pipe), not a regular file, so it is neither read nor written: its answers are not used and no question is saved in it. Remove it (or make it a regular file of yours inside the project), or answer with --answers.`,
    );
    assert.equal(await pending.rememberPending(dir, path, Q("a")), error);
    assert.equal(await pending.forgetPending(dir, path, "k"), error);
    assert.ok(lstatSync(path).isFIFO());
    // The person's way out: /questions clear removes it.
    assert.equal(await pending.clearPending(dir, path), undefined);
    assert.equal(existsSync(path), false);
  } finally {
    cleanup();
  }
});

test("pending file: linked to /dev/zero, or larger than limits.pendingFileBytes, is refused and kept", async (t) => {
  const { dir, path, cleanup } = project();
  try {
    if (process.platform !== "win32") {
      symlinkSync("/dev/zero", path);
      const { error } = pending.readPending(path, dir);
      assert.match(error, /leads outside the project .*so it is neither read nor written/);
      assert.match(await pending.rememberPending(dir, path, Q("a")), /leads outside the project/);
      assert.ok(lstatSync(path).isSymbolicLink());
      rmSync(path);
    }
    const { addon } = await import("./helpers/addon.mjs");
    writeFileSync(path, " ".repeat(addon.limits.pendingFileBytes + 1));
    const { error } = pending.readPending(path, dir);
    assert.match(error, new RegExp(`is ${addon.limits.pendingFileBytes + 1} bytes, more than the ${addon.limits.pendingFileBytes} read`));
    assert.equal(await pending.rememberPending(dir, path, Q("a")), error);
    assert.equal(statSync(path).size, addon.limits.pendingFileBytes + 1);
  } finally {
    cleanup();
  }
});

test("/questions: a set this pi did not write is marked; in a project pi does not trust the file is neither listed nor cleared", async () => {
  const { dir, path, cleanup } = project();
  const { loadExtension } = await import("./helpers/fake-pi.mjs");
  const ext = await loadExtension();
  try {
    writeFileSync(path, JSON.stringify({ instructions: "x", pending: [shipped(Q("a"))] }));
    const shown = [];
    const ctx = (trusted) => ({
      hasUI: true,
      cwd: dir,
      sessionManager: { getBranch: () => [] },
      ui: { notify: (m) => shown.push(m) },
      isProjectTrusted: () => trusted,
    });
    await ext.commands.get("questions").handler("", ctx(true));
    assert.match(shown.at(-1), /a\? → Yes/);
    assert.match(shown.at(-1), /were not used: your pi did not write that set/);
    await ext.commands.get("questions").handler("", ctx(false));
    assert.match(shown.at(-1), /This project is not trusted/);
    assert.doesNotMatch(shown.at(-1), /a\? → Yes/);
    await ext.commands.get("questions").handler("clear", ctx(false));
    assert.match(shown.at(-1), /This project is not trusted/);
    assert.ok(existsSync(path), "not cleared");
    await ext.commands.get("questions").handler("clear", ctx(true));
    assert.equal(existsSync(path), false);
  } finally {
    cleanup();
  }
});
