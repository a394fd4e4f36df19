// secret.test.mjs — secret answers (`secret: true`): the request's rules, the
// field masked in every frame and in the view the faces get, the external editor refused, and
// the result — the model and details get a file's path and never the text, the file is this
// user's alone (0600 in a 0700 directory), a secret from anyone but the person is refused or
// dropped, and nothing of it is remembered.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { addon, thrown } from "./helpers/addon.mjs";
import { importShim } from "./helpers/shim.mjs";

const secrets = await importShim("board/secrets.ts");
const { toToolResult } = await importShim("board/result.ts");
const memory = await importShim("ask/memory.ts");
const { createBoard } = await importShim("board/board.ts");

const KEY = "sk-live-4242-abcd";
const CALL = JSON.stringify({
  questions: [
    { id: "token", prompt: "Your deploy token?", secret: true },
    { id: "env", prompt: "Which environment?", options: ["staging", "production"] },
  ],
});
const screen = (e, w = 60) => e.render(w).join("\n");
const typeKeys = (e, text) => {
  for (const ch of text) e.feed(ch);
};

/** A private temporary directory for a session's secrets; removed after. */
function sessionDir(t) {
  const base = mkdtempSync(join(tmpdir(), "pq-secret-"));
  t.after(() => {
    secrets.endSecrets();
    rmSync(base, { recursive: true, force: true });
  });
  const dir = join(base, "session");
  secrets.startSecrets(() => dir);
  return { base, dir };
}

test("secret: the request's rules — true or false, words only (no options, multiSelect or type), canonical, never in the model's own answers", () => {
  const err = (q) => thrown(() => addon.normalize(JSON.stringify({ questions: [{ id: "k", prompt: "Key?", ...q }] })));
  assert.match(err({ secret: "yes" }).message, /questions\[0\]\.secret must be true or false .*not a string/);
  assert.equal(err({ secret: 1 }).path, "questions[0].secret");
  assert.match(
    err({ secret: true, options: ["a", "b"] }).message,
    /a secret question is answered in the person's own words\. Leave options and multiSelect out/,
  );
  assert.match(err({ secret: true, type: "integer" }).message, /a secret question takes text\. Leave type out/);
  const canonical = addon.normalize(CALL);
  assert.equal(JSON.parse(canonical).questions[0].secret, true);
  assert.equal(JSON.parse(canonical).questions[1].secret, undefined);
  assert.equal(addon.normalize(canonical), canonical, "canonical is a fixed point");
  assert.equal(
    JSON.parse(addon.normalize(JSON.stringify({ questions: [{ id: "k", prompt: "?", secret: false, options: ["a"] }] }))).questions[0]
      .secret,
    undefined,
  );
  const preset = thrown(() => addon.normalize(JSON.stringify({ ...JSON.parse(CALL), answers: { token: "x" } })));
  assert.match(preset.message, /answers\.token: only the person can answer a secret question/);
});

test("secret: what is typed shows as bullets in every frame and width, in accessible mode, on the review, and in the view every face gets", () => {
  const e = addon.createEngine(CALL);
  assert.match(screen(e, 120), /Secret: hidden as you type; the agent gets a file only you can read, never the text/);
  assert.doesNotMatch(screen(e, 120), /Ctrl\+G/, "no external editor for a secret");
  typeKeys(e, KEY);
  for (const w of [12, 30, 80]) {
    const frame = screen(e, w);
    assert.doesNotMatch(frame, /sk-live|4242|abcd/, `width ${w}`);
    assert.match(frame, /•••/);
    for (const line of e.render(w)) assert.ok(addon.visibleWidth(line) <= w, `a line wider than ${w}`);
  }
  const field = e.render(80).find((l) => l.includes("•••"));
  assert.equal(field.match(/•/g).length, KEY.length, "a bullet per character");
  let v = JSON.parse(e.view());
  assert.equal(v.questions[0].typed, "•".repeat(KEY.length));
  assert.equal(v.questions[0].secret, true);
  assert.doesNotMatch(e.view(), /sk-live/);
  e.setAccessible(true);
  assert.doesNotMatch(screen(e, 80), /sk-live/);
  e.setAccessible(false);
  e.feed("\r"); // the answer given: on to the next question
  e.feed("1");
  v = JSON.parse(e.view());
  assert.equal(v.questions[0].wrote, null);
  assert.match(v.questions[0].reading, /•••• \(secret, given\)/);
  // what faces show has none of it (the answers object carries it to the hand-off in this
  // process only: the page's copy leaves it out, web.ts pageView)
  assert.doesNotMatch(JSON.stringify(v.questions), /sk-live/);
  assert.match(screen(e, 80), /•••• \(secret, given\)/); // the review
  assert.doesNotMatch(screen(e, 80), /sk-live/);
  e.dispose();
});

test("secret: Ctrl+G does not hand a secret to an external editor (it would write it to a file)", () => {
  const e = addon.createEngine(CALL);
  typeKeys(e, "abc");
  e.feed("\x07");
  assert.equal(e.editorRequest(), null);
  assert.match(screen(e, 80), /A secret is typed here: an editor would write it to a file/);
  e.dispose();
});

test("secret: the model and details get the file's path and how to use it, never the text; the file is this user's alone", (t) => {
  const { dir } = sessionDir(t);
  const e = addon.createEngine(CALL);
  typeKeys(e, KEY);
  e.feed("\r");
  e.feed("1");
  e.feed("\r"); // submit on the review
  const built = e.result("interactive", 1000);
  e.dispose();
  assert.equal(built.secrets.length, 1);
  const path = built.secrets[0].path;
  assert.ok(path.startsWith(dir + "/"), path);
  const result = toToolResult(built);
  const text = result.content[0].text;
  assert.doesNotMatch(text + JSON.stringify(result.details), /sk-live/);
  assert.match(
    text,
    new RegExp(
      `^token: the user's secret answer is in the file ${path.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} \\(only this user can read it\\)`,
      "m",
    ),
  );
  assert.match(text, /never print, echo, log or repeat its contents/);
  assert.match(text, /^env: user selected: 1\. staging$/m);
  assert.deepEqual(result.details.answers[0], { id: "token", secret: true, file: path });
  assert.equal(readFileSync(path, "utf8"), KEY);
  if (process.platform !== "win32") {
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
  }
  // never remembered
  assert.equal(memory.entryOf(result.details.questions[0], result.details.answers[0], "pi", new Date()), undefined);
  // listed, then removed at the session's end
  assert.deepEqual(secrets.secretFiles(), [path]);
  secrets.endSecrets();
  assert.equal(existsSync(dir), false);
});

test("secret: kept when the person asks (/questions secrets keep); a file that cannot be written is said as dropped, its path left out", (t) => {
  const { base, dir } = sessionDir(t);
  const answers = JSON.stringify({ token: KEY, env: "staging" });
  const kept = toToolResult(addon.result(CALL, "answered", "web", 1, null, answers));
  const file = kept.details.answers[0].file;
  assert.equal(secrets.keepSecrets(), dir);
  secrets.endSecrets();
  assert.equal(readFileSync(file, "utf8"), KEY, "kept after the session");
  rmSync(dir, { recursive: true, force: true });
  if (process.platform === "win32") return;
  // another session whose directory is a link somewhere else: refused, nothing written there
  const elsewhere = join(base, "elsewhere");
  secrets.startSecrets(() => join(base, "linked"));
  symlinkSync(base, join(base, "linked"));
  const r = toToolResult(addon.result(CALL, "answered", "interactive", 2, null, answers));
  assert.match(
    r.content[0].text,
    /^token: the user gave a secret answer, but it could not be saved to a file only they can read \(.*not a directory.*\), so it was dropped: ask for it again$/m,
  );
  assert.equal(r.details.answers[0].file, undefined);
  assert.doesNotMatch(r.content[0].text + JSON.stringify(r.details), /sk-live/);
  assert.equal(existsSync(elsewhere), false);
});

test("secret: only the person gives one — another extension, the pending file, another terminal are refused or dropped; without a place it is dropped", (t) => {
  sessionDir(t);
  const answers = JSON.stringify({ token: KEY, env: "staging" });
  for (const mode of ["extension", "pending", "unverified"]) {
    const r = addon.result(CALL, "answered", mode, 1, null, answers);
    assert.equal(r.secrets, undefined, mode);
    assert.match(r.text, /token: the user gave a secret answer, but it could not be handed over safely here, so it was dropped/, mode);
    assert.doesNotMatch(r.text + r.details, /sk-live/, mode);
  }
  secrets.startSecrets(() => undefined);
  const none = addon.result(CALL, "answered", "interactive", 1, null, answers);
  assert.equal(none.secrets, undefined);
  assert.match(none.text, /could not be handed over safely here/);
  // the board refuses an answer from elsewhere that gives the secret (the page may)
  const board = createBoard();
  const questions = JSON.parse(addon.normalize(CALL)).questions;
  const ticket = board.post({ args: addon.normalize(CALL), questions }, () => ({}));
  for (const mode of ["remote", "extension", "unverified"]) {
    const v = board.answer(ticket.qid, "answered", answers, mode);
    assert.equal(v.ok, false, mode);
    assert.match(v.reason, /question "token" asks for a secret: only the person answers it/);
  }
  ticket.end();
});

test("secret: through the relay it goes down as the pi above's file — read back only as the relay's answer, an empty one said as dropped", async () => {
  const { structuredAnswers } = await import("../extension/elsewhere/relay-wire.mjs");
  const above = {
    questions: JSON.parse(addon.normalize(CALL)).questions,
    answers: [
      { id: "token", secret: true, file: "/run/user/1/pi-question/s-1/token-1-1.secret", note: "prod only" },
      { id: "env", value: "staging", label: "staging", wasCustom: false, index: 1 },
    ],
  };
  const down = structuredAnswers(above);
  assert.deepEqual(down.token, { secretFile: "/run/user/1/pi-question/s-1/token-1-1.secret", note: "prod only" });
  const r = addon.result(CALL, "answered", "relay", 1, null, JSON.stringify(down));
  assert.equal(r.secrets, undefined, "nothing for this pi to write");
  assert.match(
    r.text,
    /^token: the user's secret answer is in the file \/run\/user\/1\/pi-question\/s-1\/token-1-1\.secret .*; note: prod only$/m,
  );
  assert.deepEqual(JSON.parse(r.details).answers[0], { id: "token", secret: true, file: down.token.secretFile, note: "prod only" });
  const dropped = addon.result(CALL, "answered", "relay", 1, null, JSON.stringify({ ...down, token: { secretFile: "" } }));
  assert.match(dropped.text, /^token: the user gave a secret answer, but it could not be handed over safely here/m);
  // anyone else naming a file is refused: a page, another terminal, another extension, the pending file
  for (const mode of ["web", "remote", "extension", "pending", "interactive"]) {
    assert.match(
      thrown(() => addon.result(CALL, "answered", mode, 1, null, JSON.stringify(down))).message,
      /answers\.token: a secret's file is given only by the pi above/,
      mode,
    );
  }
});

test("secret: a reload or fork goes on with the session's files; a crashed pi's directory is swept at the next secret, a kept one stays", (t) => {
  const base = mkdtempSync(join(tmpdir(), "pq-secret-"));
  t.after(() => {
    secrets.endSecrets();
    rmSync(base, { recursive: true, force: true });
  });
  const answers = JSON.stringify({ token: KEY, env: "staging" });
  // a dead pi's directory (pid 2^22 + 1 is beyond Linux's pid_max), a kept one, and a live one (ours)
  const dead = join(base, "old-p4194305-aa11"),
    kept = join(base, "kept-p4194305-bb22"),
    live = join(base, `live-p${process.pid}-cc33`);
  for (const d of [dead, kept, live]) mkdirSync(d, { recursive: true });
  writeFileSync(join(kept, ".kept"), "");
  secrets.startSecrets(() => join(base, `s-p${process.pid}-dd44`));
  const first = toToolResult(addon.result(CALL, "answered", "interactive", 1, null, answers)).details.answers[0].file;
  assert.equal(existsSync(first), true);
  if (process.platform !== "win32") {
    assert.equal(existsSync(dead), false, "the dead pi's directory is swept");
    assert.equal(existsSync(kept), true, "a kept one stays");
    assert.equal(existsSync(live), true, "a live pi's stays");
  }
  secrets.endSecrets("reload");
  secrets.startSecrets(() => join(base, "another"));
  assert.equal(existsSync(first), true, "a reload keeps them");
  const second = toToolResult(addon.result(CALL, "answered", "interactive", 2, null, answers)).details.answers[0].file;
  assert.equal(join(second, ".."), join(first, ".."), "and goes on in the same directory");
  secrets.endSecrets("quit");
  assert.equal(existsSync(first) || existsSync(second), false);
});

test("secret: the text kept as typed across lines (a PEM key); a relayed text instead of a file is refused; the example is left out of a path with a quote", (t) => {
  sessionDir(t);
  const e = addon.createEngine(CALL);
  for (const ch of "line one") e.feed(ch);
  e.feed("\n"); // a line feed: a new line
  for (const ch of "line two") e.feed(ch);
  e.feed("\r");
  e.feed("1");
  e.feed("\r");
  const built = e.result("interactive", 1);
  e.dispose();
  assert.equal(built.secrets[0].text, "line one\nline two");
  assert.match(
    thrown(() => addon.result(CALL, "answered", "relay", 1, null, JSON.stringify({ token: KEY, env: "staging" }))).message,
    /answers\.token: the pi above sent a secret as text .*not used/,
  );
  const quoted = addon.result(
    CALL,
    "answered",
    "relay",
    1,
    null,
    JSON.stringify({ token: { secretFile: "/home/o'hara/t.secret" }, env: "staging" }),
  );
  assert.match(quoted.text, /in the file \/home\/o'hara\/t\.secret \(only this user can read it\)\. Use it from there, and never print/);
  assert.match(
    thrown(() => addon.result(CALL, "answered", "relay", 1, null, JSON.stringify({ token: { secretFile: "/a\nb" }, env: "x" }))).message,
    /control character/,
  );
});
