// engine-timeout-access-editor.test.mjs — the timeout, Ctrl+G and accessible mode through the
// addon: the
// person's timeout (a clock the host drives with ticks, status timed_out and its model text for
// each "then"), Ctrl+G (the engine's request for the external editor and what comes back, and
// extension/ask/external-editor.ts with a real EDITOR script), and accessible mode (plain lines,
// words for markers, the focused option announced). Golden screens in en, de and zh at 40 and 80
// columns live in tests/fixtures/screens/<case>.<lang>.<width>.txt; regenerate them with
// UPDATE_GOLDEN=1 node --test tests/engine-timeout-access-editor.test.mjs and review the diff.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test from "node:test";
import { importPiTui } from "./helpers/pi-line.mjs";
import { addon } from "./helpers/addon.mjs";
import { loadExtension } from "./helpers/fake-pi.mjs";
import { importShim } from "./helpers/shim.mjs";

// pi-tui of the pi line under test (PI_LINE; tests/helpers/pi-line.mjs).
const { visibleWidth } = await importPiTui();

const { runExternalEditor } = await importShim("ask/external-editor.ts");

const SCREENS = new URL("./fixtures/screens/", import.meta.url);
const UPDATE = process.env.UPDATE_GOLDEN === "1";
const LANGS = ["en", "de", "zh"];
const PI_CURSOR = "\x1b_pi:c\x07";
const K = {
  up: "\x1b[A",
  down: "\x1b[B",
  enter: "\r",
  esc: "\x1b",
  space: " ",
  tab: "\t",
  ctrl: (c) => String.fromCharCode(c.charCodeAt(0) - 96),
};

const DB = {
  questions: [
    {
      id: "db",
      label: "Database",
      prompt: "Which database should we use?",
      options: [
        { value: "pg", label: "PostgreSQL", description: "Battle-tested relational DB" },
        { value: "sqlite", label: "SQLite (Recommended)", description: "Lightweight, file-based" },
        { value: "mongo", label: "MongoDB" },
      ],
    },
  ],
};
const NO_RECOMMENDED = { questions: [{ id: "db", prompt: "Which database?", options: ["PostgreSQL", "SQLite"] }] };
const FEATURES = {
  questions: [{ id: "features", label: "Features", prompt: "Which features?", multiSelect: true, options: ["Auth", "Billing", "Search"] }],
};
const TWO = {
  questions: [
    { id: "db", label: "Database", prompt: "Which database?", options: ["PostgreSQL (Recommended)", "SQLite"] },
    { id: "name", label: "Name", prompt: "What should the service be called?" },
  ],
};

const engine = (args, lang = "en") => {
  const e = addon.createEngine(JSON.stringify(args));
  e.setLanguage(lang);
  return e;
};
const press = (e, ...keys) => {
  for (const k of keys.flat()) e.feed(k);
  return e;
};
const screen = (e, width = 80) => e.render(width).join("\n");
const built = (e, mode = "interactive") => {
  const r = e.result(mode, 1, null, 0);
  return { text: r.text, details: JSON.parse(r.details) };
};

function assertFits(e, label, from = 1, to = 200) {
  for (let w = from; w <= to; w++) {
    for (const [i, line] of e.render(w).entries()) {
      const vw = visibleWidth(line);
      if (vw > w) assert.fail(`${label}: line ${i} is ${vw} columns at width ${w}: ${JSON.stringify(line)}`);
    }
  }
}

// ---- the person's timeout -----------------------------------------------------------------------
test("timeout: the countdown shows from the start and follows the host's ticks", () => {
  const e = engine(DB);
  e.setTimeout(5 * 60 * 1000, "cancel");
  assert.match(screen(e, 120), /Closes itself in 5:00 — any key stops the clock/);
  e.tick(10_000);
  assert.match(screen(e, 120), /in 5:00/);
  e.tick(10_000 + 1500);
  assert.match(screen(e, 120), /in 4:59/);
  assert.equal(e.nextTick(11_500), 500, "the next change is at the next whole second");
  e.tick(10_000 + 299_000);
  assert.match(screen(e, 120), /in 0:01/);
  assert.equal(e.done, false);
});

test("timeout: stopClock (the person answers on another face) stops it for good, as a key would: no countdown, no timeout", () => {
  const e = engine(DB);
  e.setTimeout(2000, "cancel");
  e.tick(0);
  assert.match(screen(e, 120), /Closes itself in 0:02/);
  e.stopClock();
  assert.doesNotMatch(screen(e, 120), /Closes itself/);
  assert.equal(e.nextTick(100), -1, "no clock runs");
  assert.equal(e.tick(60_000), false, "past the deadline: still asking");
  assert.equal(e.done, false);
  e.stopClock(); // again, or with no clock: nothing
  assert.equal(e.done, false);
});

test("timeout: a clock of an hour or more shows hours", () => {
  const e = engine(DB);
  e.setTimeout(2 * 3600 * 1000, "decline");
  assert.match(screen(e, 120), /Leaves it to the agent in 2:00:00/);
});

test("timeout: then cancel ends timed_out, keeps nothing, and says the person did not answer in time", () => {
  const e = engine(DB);
  e.setTimeout(3000, "cancel");
  e.tick(0);
  assert.equal(e.tick(2999), false);
  assert.equal(e.tick(3000), true);
  assert.equal(e.outcome, "timed_out");
  const { text, details } = built(e);
  assert.equal(details.status, "timed_out");
  assert.equal(details.timeout, "cancel");
  assert.deepEqual(details.answers, []);
  assert.match(text, /did not answer within the time limit they set/);
  assert.match(text, /end your turn/);
  assert.doesNotMatch(text, /user selected|user chose|user wrote/i);
});

test("timeout: then decline leaves the decision to the agent, and says nobody chose", () => {
  const e = engine(DB);
  e.setTimeout(3000, "decline");
  e.tick(0);
  e.tick(5000);
  const { text, details } = built(e);
  assert.equal(details.status, "timed_out");
  assert.equal(details.timeout, "decline");
  assert.match(text, /did not answer within the time limit/);
  assert.match(text, /The user chose nothing: decide yourself/);
});

test("timeout: then recommended applies the option labelled (Recommended), never as the person's choice", () => {
  const e = engine(DB);
  e.setTimeout(3000, "recommended");
  e.tick(0);
  e.tick(3000);
  const { text, details } = built(e);
  assert.equal(details.status, "timed_out");
  assert.deepEqual(details.answers, [
    { id: "db", value: "sqlite", label: "SQLite (Recommended)", wasCustom: false, index: 2, appliedByTimeout: true },
  ]);
  assert.match(
    text,
    /^db: not answered in time; the timeout applied the recommended option: 2\. SQLite \(Recommended\) \(value: sqlite\)$/m,
  );
  assert.match(text, /The user did not choose it/);
  assert.doesNotMatch(text, /user selected/);
});

test("timeout: then recommended with no recommended option behaves as decline", () => {
  const e = engine(NO_RECOMMENDED);
  e.setTimeout(1000, "recommended");
  e.tick(0);
  e.tick(1000);
  const { text, details } = built(e);
  assert.deepEqual(details.answers, []);
  assert.match(text, /leaves the decision to you/);
});

test("timeout: then recommended over several questions leaves the ones without a recommendation to the agent", () => {
  const e = engine(TWO);
  e.setTimeout(1000, "recommended");
  e.tick(0);
  e.tick(1000);
  const { text, details } = built(e);
  assert.equal(details.answers.length, 1);
  assert.equal(details.answers[0].id, "db");
  assert.match(text, /questions without a recommended option are left to you/);
});

test("timeout: any key stops the clock for good", () => {
  const e = engine(DB);
  e.setTimeout(3000, "recommended");
  e.tick(0);
  press(e, K.down);
  assert.doesNotMatch(screen(e, 120), /any key stops the clock/);
  assert.equal(e.nextTick(100), -1);
  assert.equal(e.tick(10_000), false);
  assert.equal(e.done, false);
  press(e, K.enter);
  assert.equal(e.outcome, "answered");
});

test("timeout: then selected is an idle clock — each key starts it again, and when the person stops part-way their selections go as their answers, the rest left to the agent", () => {
  const e = engine(TWO);
  e.setTimeout(3000, "selected");
  assert.match(screen(e, 140), /Sends what you selected in 0:03 — any key starts the clock again/);
  e.tick(0);
  e.tick(2500);
  assert.equal(e.clockLeft(2500), 500);
  press(e, K.enter); // picks the highlighted recommendation of question 1: the clock starts again
  assert.equal(e.done, false);
  assert.equal(e.clockLeft(2600), 3000, "its whole time again, from the next tick");
  assert.match(screen(e, 140), /Sends what you selected in 0:03/);
  e.tick(2600);
  assert.equal(e.tick(5599), false, "not yet");
  assert.equal(e.tick(5600), true, "3 s after the last key");
  assert.equal(e.outcome, "timed_out");
  const { text, details } = built(e);
  assert.equal(details.status, "timed_out");
  assert.equal(details.timeout, "selected");
  assert.deepEqual(
    details.answers.map((a) => [a.id, a.label, a.appliedByTimeout]),
    [["db", "PostgreSQL (Recommended)", undefined]],
    "the person's own pick, not one the timeout applied",
  );
  assert.match(text, /^db: user selected: 1\. PostgreSQL \(Recommended\)$/m);
  assert.match(text, /\("then": "selected"\) sent the answers they had selected/);
  assert.match(text, /questions not listed were not answered: decide those yourself/);
  // a step (the page, the RPC dialogs) and the host's stopClock start it again too
  const f = engine(FEATURES);
  f.setTimeout(2000, "selected");
  f.tick(0);
  f.tick(1500);
  assert.deepEqual(f.act("toggle", 1), { ok: true });
  assert.equal(f.clockLeft(1500), 2000);
  f.tick(1600);
  f.stopClock();
  assert.equal(f.clockLeft(1700), 2000);
  f.tick(1700);
  assert.equal(f.tick(3700), true);
  const ticked = built(f);
  assert.deepEqual(
    ticked.details.answers.map((a) => a.label),
    ["Billing"],
    "a tick counts at once",
  );
  assert.match(ticked.text, /sent the answers they had selected \(above\)/);
  assert.doesNotMatch(ticked.text, /not listed/, "every question had an answer");
  // nothing selected: said so, the agent decides
  const g = engine(DB);
  g.setTimeout(1000, "selected");
  g.tick(0);
  g.tick(1000);
  assert.deepEqual(built(g).details.answers, []);
  assert.match(built(g).text, /nothing was selected/);
  assert.equal(addon.timeoutFlags("selected") > 0, true);
  assert.equal(
    JSON.parse(addon.result(JSON.stringify(DB), "timed_out", "relay", 1, null, null, addon.timeoutFlags("selected")).details).timeout,
    "selected",
  );
});

test("timeout: then selected never sends an answer the model pre-supplied as the person's — only what they took up", () => {
  const e = addon.createEngine(JSON.stringify({ ...TWO, answers: { db: "SQLite" } }));
  e.setTimeout(1000, "selected");
  e.tick(0);
  e.tick(1000);
  const { text, details } = built(e);
  assert.deepEqual(details.answers, [], "the model's SQLite is not the person's");
  assert.doesNotMatch(text, /user selected/);
  assert.match(text, /nothing was selected/);
});

test("timeout: no clock unless set; a bad timeout is refused", () => {
  const e = engine(DB);
  assert.equal(e.nextTick(0), -1);
  assert.equal(e.tick(1e12), false);
  assert.throws(() => e.setTimeout(0, "cancel"), { code: "QT_ERANGE" });
  assert.throws(() => e.setTimeout(1000, "later"), { code: "QT_ERANGE" });
});

test("timeout: the RPC path builds the same result from the arguments (addon.result with flags)", () => {
  const json = JSON.stringify(DB);
  const rec = addon.result(json, "timed_out", "rpc", 1, null, null, 4);
  assert.equal(JSON.parse(rec.details).answers[0].appliedByTimeout, true);
  assert.match(rec.text, /applied the recommended option/);
  const dec = addon.result(json, "timed_out", "rpc", 1, null, null, 2);
  assert.equal(JSON.parse(dec.details).timeout, "decline");
  const can = addon.result(json, "timed_out", "rpc", 1, null, null, 0);
  assert.equal(JSON.parse(can.details).timeout, "cancel");
});

test("timeout: the transcript status reads in every language", () => {
  for (const lang of LANGS) assert.ok(addon.strings(lang).STATUS_TIMED_OUT.length > 0);
  assert.equal(addon.strings("de").STATUS_TIMED_OUT, "Nicht rechtzeitig beantwortet");
});

test("timeout: the transcript shows the status and marks the applied option as not chosen", async () => {
  const { tools } = await loadExtension();
  const tool = tools.get("question");
  const theme = { fg: (_c, t) => t, bold: (t) => t, italic: (t) => t };
  const built = addon.result(JSON.stringify(DB), "timed_out", "interactive", 1, null, null, 4);
  const result = { content: [{ type: "text", text: built.text }], details: JSON.parse(built.details) };
  for (const expanded of [false, true]) {
    const shown = tool
      .renderResult(result, { expanded, isPartial: false }, theme, { isError: false, lastComponent: undefined })
      .render(120)
      .join("\n");
    assert.match(shown, /Not answered in time/);
    assert.match(shown, /SQLite \(Recommended\).*\(applied by the timeout, not chosen\)/);
  }
});

// ---- the external editor: Ctrl+G ------------------------------------------------------------------
test("editor: Ctrl+G while typing an answer asks for the editor with the draft, and the text comes back", () => {
  const e = press(engine(DB), "0", ..."draft");
  assert.equal(e.editorRequest(), null);
  press(e, K.ctrl("g"));
  assert.equal(e.editorRequest(), "draft");
  press(e, "x", K.enter); // ignored while the editor runs
  assert.equal(e.done, false);
  e.editorDone(true, "from the editor\nsecond line\n", null);
  assert.equal(e.editorRequest(), null);
  press(e, K.enter);
  assert.equal(e.outcome, "answered");
  assert.equal(built(e).details.answers[0].value, "from the editor\nsecond line");
});

test("editor: a failed editor keeps the draft and says why", () => {
  const e = press(engine(DB), "0", ..."keep me", K.ctrl("g"));
  e.editorDone(false, null, "exited with status 1");
  assert.match(screen(e, 120), /Editor: exited with status 1\. Your text is kept\./);
  press(e, K.enter);
  assert.equal(built(e).details.answers[0].value, "keep me");
});

test("editor: Ctrl+G in a note edits the note; on the list it does nothing", () => {
  const e = engine(DB);
  press(e, K.ctrl("g"));
  assert.equal(e.editorRequest(), null);
  press(e, K.ctrl("n"), ..."n1", K.ctrl("g"));
  assert.equal(e.editorRequest(), "n1");
  e.editorDone(true, "a longer note\n", null);
  press(e, K.enter, "1");
  assert.equal(built(e).details.answers[0].note, "a longer note");
});

test("editor: the help line names Ctrl+G while typing", () => {
  const e = press(engine(DB), "0");
  assert.match(screen(e, 200), /Ctrl\+G editor/);
});

function editorScript(body) {
  const dir = mkdtempSync(join(tmpdir(), "pq-uxb-editor-"));
  const script = join(dir, "editor.sh");
  writeFileSync(script, `#!/bin/sh\n${body}\n`);
  chmodSync(script, 0o755);
  return { dir, script, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

test("external editor: an EDITOR script's text comes back; the temporary file is 0600 and removed", () => {
  const { dir, script, cleanup } = editorScript(
    `stat -c %a "$1" > "${'$(dirname "$0")'}/mode"; cat "$1" > "$(dirname "$0")/seen"; printf 'written by the editor\\n' > "$1"; echo "$1" > "$(dirname "$0")/path"`,
  );
  try {
    const t = addon.strings("en");
    const out = runExternalEditor("the draft", t, { ...process.env, VISUAL: "", EDITOR: script });
    assert.deepEqual(out, { ok: true, text: "written by the editor\n" });
    assert.equal(readFileSync(join(dir, "seen"), "utf8"), "the draft");
    assert.equal(readFileSync(join(dir, "mode"), "utf8").trim(), "600");
    assert.equal(existsSync(readFileSync(join(dir, "path"), "utf8").trim()), false);
  } finally {
    cleanup();
  }
});

/** The pid of a process that has ended (a child run to its end). */
function deadPid() {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(r.stdout);
}

test("external editor: drafts left by a killed pi (its pid gone) are removed at the next Ctrl+G; a running process's and another user's stay", async () => {
  const tmp = mkdtempSync(join(tmpdir(), "pq-drafts-"));
  const oldTmp = process.env.TMPDIR;
  const sleeper = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
  try {
    process.env.TMPDIR = tmp; // os.tmpdir() reads it at each call
    const dead = deadPid();
    // pi's TUI leaves a folder with answer.md; the terminal runner (C) a file
    mkdirSync(join(tmp, `pi-question-draft-${dead}-aB3dE9`));
    writeFileSync(join(tmp, `pi-question-draft-${dead}-aB3dE9`, "answer.md"), "a password typed in the editor");
    writeFileSync(join(tmp, `pi-question-draft-${dead}-Zx81Qw`), "another draft", { mode: 0o600 });
    writeFileSync(join(tmp, `pi-question-draft-${sleeper.pid}-LiVe01`), "a running pi's draft");
    writeFileSync(join(tmp, "pi-question-draft-notapid-x"), "not a draft name");
    writeFileSync(join(tmp, "unrelated.md"), "someone else's file");
    const foreign = `pi-question-draft-${dead}-OtHeR1`;
    writeFileSync(join(tmp, foreign), "another user's");
    const asRoot = process.getuid?.() === 0;
    if (asRoot) chownSync(join(tmp, foreign), 65534, 65534);
    const { script, cleanup } = editorScript(`printf 'edited\\n' > "$1"`);
    try {
      const out = runExternalEditor("the draft", addon.strings("en"), { ...process.env, VISUAL: "", EDITOR: script });
      assert.deepEqual(out, { ok: true, text: "edited\n" });
    } finally {
      cleanup();
    }
    const left = readdirSync(tmp).sort();
    const expected = [`pi-question-draft-${sleeper.pid}-LiVe01`, "pi-question-draft-notapid-x", "unrelated.md"];
    if (asRoot) expected.push(foreign);
    assert.deepEqual(left, expected.sort(), "the dead process's drafts are gone, this one's own removed after use, the rest kept");
  } finally {
    if (oldTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = oldTmp;
    sleeper.kill("SIGKILL");
    rmSync(tmp, { recursive: true, force: true });
  }
});

test("external editor: missing, failing or absent editors keep the draft with a reason", () => {
  const t = addon.strings("en");
  const env = { ...process.env, VISUAL: "", EDITOR: "" };
  assert.deepEqual(runExternalEditor("x", t, env), { ok: false, why: "no editor set ($VISUAL or $EDITOR)" });
  const { script, cleanup } = editorScript("exit 3");
  try {
    assert.deepEqual(runExternalEditor("x", t, { ...env, EDITOR: script }), { ok: false, why: "exited with status 3" });
    const missing = runExternalEditor("x", t, { ...env, EDITOR: "/nonexistent/editor-pq" });
    assert.equal(missing.ok, false);
    assert.match(missing.why, /could not be started/);
  } finally {
    cleanup();
  }
});

// ---- accessible mode ----------------------------------------------------------------------------
const BOX = /[\u2500-\u257f\u2580-\u259f■□✓›‹│↑↓]/;

test("accessible: plain lines — no box drawing, no symbols, no styles even when the host sets them", () => {
  const e = engine(DB);
  for (const n of ["accent", "muted", "dim", "success", "warning", "error", "title", "border", "selected", "cursor"]) {
    e.setStyle(n, "\x1b[31m", "\x1b[39m");
  }
  e.setAccessible(true);
  e.setTimeout(60_000, "decline");
  for (const keys of [[], [K.down], ["/", "s"], [K.enter], [K.ctrl("n"), "x"], [K.enter, "0", "y"]]) {
    press(e, keys);
    const s = screen(e, 80);
    assert.doesNotMatch(s, BOX, s);
    assert.doesNotMatch(s, /\x1b/, s);
  }
});

test("accessible: the focused option is announced as 'Option 2 of 4: SQLite'", () => {
  const e = engine(DB);
  e.setAccessible(true);
  // the highlight starts on the recommended option
  assert.match(screen(e), /^Option 2 of 4: SQLite \(Recommended\)\. Lightweight, file-based$/m);
  press(e, K.up);
  assert.match(screen(e), /^Option 1 of 4: PostgreSQL\. Battle-tested relational DB$/m);
  press(e, K.down, K.down, K.down);
  assert.match(screen(e), /^Option 4 of 4: Something else…$/m);
});

test("accessible: markers are words, and each state change is a short line", () => {
  const e = engine(FEATURES);
  e.setAccessible(true);
  press(e, K.space);
  let s = screen(e);
  assert.match(s, /^1\. Auth, checked$/m);
  assert.match(s, /^2\. Billing, not checked$/m);
  assert.match(s, /^Checked: Auth$/m);
  press(e, K.space);
  s = screen(e);
  assert.match(s, /^Unchecked: Auth$/m);
  const single = engine(TWO);
  single.setAccessible(true);
  press(single, "2", K.tab, K.tab); // answered, on to the second question, the review, back to the first
  assert.match(screen(single), /^2\. SQLite, selected$/m);
});

test("accessible: a key that stops the clock says so", () => {
  const e = engine(DB);
  e.setAccessible(true);
  e.setTimeout(60_000, "cancel");
  e.tick(0);
  assert.match(screen(e), /Closes itself in 1:00/);
  press(e, K.down);
  assert.match(screen(e), /^Clock stopped\.$/m);
});

test("accessible: the text cursor is the host's marker only (no reverse video)", () => {
  const e = engine(DB);
  e.setStyle("cursor", "\x1b[7m", "\x1b[27m");
  e.setCursorMarker(PI_CURSOR);
  e.setAccessible(true);
  press(e, "0", ..."ab");
  const s = screen(e);
  assert.match(s, /^Your answer: ab\x1b_pi:c\x07$/m);
  assert.doesNotMatch(s, /\x1b\[7m/);
});

test("accessible: no line is wider than asked, at every width from 1 to 200, in every language", () => {
  for (const lang of LANGS) {
    const e = engine(TWO, lang);
    e.setAccessible(true);
    e.setCursorMarker(PI_CURSOR);
    e.setTimeout(90_000, "recommended");
    for (const keys of [
      [],
      [K.down],
      ["1"],
      [..."宽字符 👩‍👩‍👧‍👦 and a long run of words that wraps"],
      [K.ctrl("n"), ..."备注"],
      [K.enter, K.enter],
    ]) {
      press(e, keys);
      assertFits(e, `${lang} after ${JSON.stringify(keys).slice(0, 30)}`);
    }
  }
});

test("accessible: typing a filter, the keys sentence says Enter picks in a single-select question and Enter is done in a multi-select one (en, de, zh); every width fits", () => {
  for (const lang of LANGS) {
    const t = addon.strings(lang);
    assert.notEqual(t.PLAIN_KEYS_FILTER_PICK, t.PLAIN_KEYS_FILTER, lang);
    const flat = (e) => e.render(400).join(" ");
    const single = press(accessible(engine(DB, lang)), "/", ..."sql");
    assert.ok(flat(single).includes(t.PLAIN_KEYS_FILTER_PICK), `${lang}: ${flat(single)}`);
    assertFits(single, `${lang} single-select filter`);
    press(single, K.enter); // and Enter does pick: the sentence was true
    assert.equal(built(single).details.answers[0].index, 1, `${lang}: PostgreSQL, the highlighted match, picked`);
    const multi = press(accessible(engine(FEATURES, lang)), "/", "a");
    assert.ok(flat(multi).includes(t.PLAIN_KEYS_FILTER), `${lang}: ${flat(multi)}`);
    assert.ok(!flat(multi).includes(t.PLAIN_KEYS_FILTER_PICK), lang);
    assertFits(multi, `${lang} multi-select filter`);
  }
});

test("width: the countdown and the editor notice fit every width from 1 to 200", () => {
  for (const lang of LANGS) {
    const e = engine(DB, lang);
    e.setTimeout(4000 * 1000, "recommended");
    assertFits(e, `${lang} countdown`);
    press(e, "0", ..."x", K.ctrl("g"));
    e.editorDone(false, null, addon.strings(lang).EDITOR_NOT_SET);
    assertFits(e, `${lang} editor notice`);
  }
});

// ---- golden screens, every language -----------------------------------------------------------------
const LONG_PROMPT = {
  questions: [
    {
      id: "pick",
      prompt: `FIRST-LINE ${Array.from({ length: 120 }, (_, i) => `w${i + 1}`).join(" ")} LAST-WORD`,
      options: ["Alpha", "Beta", "Gamma"],
    },
  ],
};

const accessible = (e) => (e.setAccessible(true), e);
/** n presses of PageDown, each after a frame at 80 x rows (the host draws before every key). */
const pageOn = (e, rows, n = 2) => {
  for (let i = 0; i < n; i++) (e.render(80, rows), e.feed("\x1b[6~"));
  return e;
};

const CASES = [
  // accessible mode on few rows: the prompt from its first line, the hidden lines said in words
  { name: "accessible-fit-prompt", rows: 12, make: (lang) => accessible(engine(LONG_PROMPT, lang)) },
  { name: "accessible-fit-prompt-paged", rows: 12, make: (lang) => pageOn(accessible(engine(LONG_PROMPT, lang)), 12) },
  {
    name: "timeout-countdown",
    make: (lang) => {
      const e = engine(DB, lang);
      e.setTimeout(5 * 60 * 1000, "recommended");
      e.tick(0);
      e.tick(1200);
      return e;
    },
  },
  {
    name: "timeout-countdown-cancel",
    make: (lang) => {
      const e = engine(FEATURES, lang);
      e.setTimeout(3000, "cancel");
      return e;
    },
  },
  {
    name: "editor-failed",
    make: (lang) => {
      const e = press(engine(DB, lang), "0", ..."draft", K.ctrl("g"));
      e.editorDone(false, null, addon.strings(lang).EDITOR_NOT_SET);
      return e;
    },
  },
  {
    name: "accessible-list",
    make: (lang) => {
      const e = press(engine(DB, lang), K.down, K.up); // keys (the highlight back on the recommended option, where it starts)
      e.setAccessible(true);
      e.setTimeout(60_000, "decline"); // armed after the key: the countdown shows
      return e;
    },
  },
  {
    name: "accessible-multi",
    make: (lang) => {
      const e = engine(FEATURES, lang);
      e.setAccessible(true);
      return press(e, K.down, K.space);
    },
  },
  {
    name: "accessible-entry",
    make: (lang) => {
      const e = engine(TWO, lang);
      e.setAccessible(true);
      return press(e, "1", ..."orders");
    },
  },
  {
    name: "accessible-review",
    make: (lang) => {
      const e = engine(TWO, lang);
      e.setAccessible(true);
      return press(e, "2", ..."billing", K.enter);
    },
  },
  {
    // talk first (Ctrl+T) in accessible mode: the field's title, the words, its keys
    name: "accessible-discuss",
    make: (lang) => {
      const e = engine(DB, lang);
      e.setAccessible(true);
      return press(e, K.ctrl("t"), ..."why not both");
    },
  },
  // accessible mode: the filter, the note and the "Discard what you typed?" question
  {
    // typing a filter in a single-select question: the filter text and how many options match
    name: "accessible-filter",
    make: (lang) => press(accessible(engine(DB, lang)), "/", ..."sql"),
  },
  {
    // a multi-select question after Enter in the filter: the list stays filtered, Space checks
    name: "accessible-filter-multi",
    make: (lang) => press(accessible(engine(FEATURES, lang)), "/", "a", K.enter, K.space),
  },
  {
    name: "accessible-note",
    make: (lang) => press(accessible(engine(DB, lang)), K.ctrl("n"), ..."needs backups"),
  },
  {
    // Ctrl+D with a typed draft asks first
    name: "accessible-confirm-discard",
    make: (lang) => press(accessible(engine(DB, lang)), "0", ..."Cockroach", K.esc, K.ctrl("d")),
  },
];

test("accessible mode: the frame fits the rows it is given (the prompt first, then the end with the keys)", () => {
  const e = engine(FEATURES);
  e.setAccessible(true);
  const whole = e.render(40);
  assert.ok(whole.length > 6, whole.join("\n"));
  const prompt = whole.findIndex((l) => l.startsWith("Which features"));
  assert.ok(prompt >= 0, whole.join("\n"));
  for (const rows of [3, 6]) {
    const cut = e.render(40, rows);
    assert.equal(cut.length, rows);
    assert.deepEqual(cut, [whole[prompt], ...whole.slice(-(rows - 1))], "the one-line prompt stays on top");
  }
  assert.deepEqual(e.render(40, 1), whole.slice(-1), "one row: the keys' last line");
  assert.deepEqual(e.render(40, 0), whole);
});

test("accessible mode: no frame is taller than the rows or wider than the width, a long prompt paged anywhere (rows 1–30, widths 10–130)", () => {
  for (const lang of LANGS) {
    const e = accessible(engine(LONG_PROMPT, lang));
    for (const pages of [0, 3, 50]) {
      for (let i = 0; i < pages; i++) (e.render(60, 8), e.feed("\x1b[6~"));
      for (let rows = 1; rows <= 30; rows++) {
        for (let w = 10; w <= 130; w += 15) {
          const lines = e.render(w, rows);
          assert.ok(lines.length >= 1 && lines.length <= rows, `${lang} @${w}x${rows}: ${lines.length} lines`);
          for (const l of lines) assert.ok(visibleWidth(l) <= w, `${lang} @${w}x${rows}: ${JSON.stringify(l)}`);
        }
      }
    }
  }
});

test("accessible mode: a long prompt on few rows keeps its first line, says in words how much is hidden and which key reads it; PageDown/PageUp read all of it (en, de, zh)", () => {
  for (const lang of LANGS) {
    const t = addon.strings(lang);
    const below = new RegExp(
      t.PLAIN_PROMPT_BELOW.replace(/[.*+?^$()|[\]\\]/g, "\\$&")
        .replace("{n}", "\\d+")
        .replace("{s}", t.PLAIN_KEY_PAGE_DOWN),
    );
    const above = new RegExp(
      t.PLAIN_PROMPT_ABOVE.replace(/[.*+?^$()|[\]\\]/g, "\\$&")
        .replace("{n}", "\\d+")
        .replace("{s}", t.PLAIN_KEY_PAGE_UP),
    );
    for (const [width, rows] of [
      [80, 12],
      [40, 10],
      [80, 5],
    ]) {
      const e = accessible(engine(LONG_PROMPT, lang));
      let frame = e.render(width, rows);
      assert.ok(frame.length <= rows, `${lang} ${width}x${rows}`);
      assert.ok(frame[0].startsWith("FIRST-LINE"), `${lang} ${width}x${rows}: the prompt's first line first:\n${frame.join("\n")}`);
      assert.match(frame.join(" "), below, `${lang} ${width}x${rows}`);
      assert.doesNotMatch(frame.join("\n"), /\x1b|[─│]/);
      const seen = new Set();
      for (let i = 0; i < 200 && !frame.join(" ").includes("LAST-WORD"); i++) {
        for (const m of frame.join(" ").matchAll(/\bw(\d+)\b/g)) seen.add(Number(m[1]));
        press(e, "\x1b[6~");
        frame = e.render(width, rows);
        assert.ok(frame.length <= rows);
      }
      for (const m of frame.join(" ").matchAll(/\bw(\d+)\b/g)) seen.add(Number(m[1]));
      assert.equal(seen.size, 120, `${lang} ${width}x${rows}: every word of the prompt read with PageDown`);
      assert.match(frame.join(" "), above, `${lang} ${width}x${rows}: at the end, what is above is said`);
      for (let i = 0; i < 200 && !frame[0].startsWith("FIRST-LINE"); i++) (press(e, "\x1b[5~"), (frame = e.render(width, rows)));
      assert.ok(frame[0].startsWith("FIRST-LINE"), `${lang} ${width}x${rows}: PageUp back to the first line`);
      if (rows >= 10)
        assert.ok(
          frame.some((l) => /^1\. Alpha/.test(l)) || frame.join("\n").includes(t.PLAIN_KEYS_LIST.slice(0, 10)),
          "the options or the keys stay",
        );
    }
  }
});

/** The prompt's line count at this width: the whole frame against the same question with a
 * one-line prompt (words may break inside at narrow widths). */
const promptLines = (e, width, lang = "en", setup = () => {}) => {
  const short = accessible(engine({ questions: [{ ...LONG_PROMPT.questions[0], prompt: "X" }] }, lang));
  setup(short);
  const n = e.render(width).length - short.render(width).length + 1;
  short.dispose();
  return n;
};

// Fitting a cut prompt: on 6 rows at 18 columns the "earlier lines" sentence wraps to 4 lines and the
// "more lines" one to fewer, so near the prompt's end the row fitting took 4 prompt lines where 2
// were left: the count wrapped around (2 - 4 as size_t), that sentence grew, and after three
// plans the frame fell back to its last rows, the question gone from the screen.
test("accessible mode: near the end of a long prompt on 6 rows at 18 columns the window stays inside the prompt and counts what is left", () => {
  const e = accessible(engine(LONG_PROMPT));
  const plines = promptLines(e, 18);
  let frame = e.render(18, 6);
  let sawOneMore = false;
  for (let i = 0; i < 200 && !frame.join(" ").includes("LAST-WORD"); i++) {
    press(e, "\x1b[6~");
    frame = e.render(18, 6);
    const text = frame.join(" ");
    assert.ok(frame.length <= 6, `after ${i + 1} PageDown: ${frame.length} lines`);
    assert.match(text, /\bw\d+\b|LAST-WORD/, `after ${i + 1} PageDown a line of the prompt shows:\n${frame.join("\n")}`);
    for (const m of text.matchAll(/(?<![w\d])\d+/g))
      assert.ok(Number(m[0]) <= plines, `after ${i + 1} PageDown: ${m[0]} > ${plines}:\n${frame.join("\n")}`);
    if (/goes on for 1 more lines/.test(text)) sawOneMore = true;
  }
  assert.ok(frame.join(" ").includes("LAST-WORD"), "PageDown reaches the prompt's end");
  assert.ok(sawOneMore, "the frame before the end says one more line");
});

test("accessible mode: no frame says more hidden lines than the prompt has (widths 8–60, rows 2–13, paged back and forth, default and rebound keys, en/de/zh)", () => {
  let seed = 1;
  const rnd = (n) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
  for (const rebound of [false, true]) {
    const down = rebound ? "\x1bOP" : "\x1b[6~",
      up = rebound ? "\x1b[3;8~" : "\x1b[5~";
    for (const lang of LANGS) {
      for (let w = 8; w <= 60; w += rebound ? 3 : 1) {
        const e = accessible(engine(LONG_PROMPT, lang));
        const rebind = (x) => rebound && assert.equal(x.bind("pageUp", ["ctrl+alt+shift+delete"]) + x.bind("pageDown", ["f1"]), 0);
        rebind(e);
        const plines = promptLines(e, w, lang, rebind);
        for (let k = 0; k < 200; k++) {
          const rows = 2 + rnd(12),
            frame = e.render(w, rows);
          assert.ok(frame.length <= rows);
          for (const m of frame.join(" ").matchAll(/(?<![w\d])\d+/g))
            if (Number(m[0]) > plines)
              assert.fail(
                `${lang}${rebound ? " rebound" : ""} @${w}x${rows} step ${k}: says ${m[0]}, the prompt has ${plines} lines:\n${frame.join("\n")}`,
              );
          e.feed(rnd(3) ? down : up);
        }
        e.dispose();
      }
    }
  }
});

test("golden screens of the timeout, the editor notice and accessible mode in en, de and zh at 40 and 80 columns", () => {
  if (UPDATE) mkdirSync(SCREENS, { recursive: true });
  const stale = [];
  for (const c of CASES) {
    for (const lang of LANGS) {
      const e = c.make(lang);
      for (const w of [40, 80]) {
        const file = new URL(`${c.name}.${lang}.${w}.txt`, SCREENS);
        const got = (c.rows ? e.render(w, c.rows) : e.render(w)).join("\n") + "\n";
        if (UPDATE) {
          writeFileSync(file, got);
          continue;
        }
        if (!existsSync(file)) {
          stale.push(`${c.name}.${lang}.${w}.txt is missing (run with UPDATE_GOLDEN=1)`);
          continue;
        }
        const want = readFileSync(file, "utf8");
        if (got !== want) stale.push(`${c.name}.${lang}.${w}.txt differs:\n--- want\n${want}--- got\n${got}`);
      }
    }
  }
  assert.equal(stale.length, 0, stale.join("\n"));
});

test("golden screens: every accessible screen is free of box drawing and colour", () => {
  const files = readdirSync(SCREENS).filter((f) => f.startsWith("accessible-"));
  assert.ok(files.length >= 12);
  for (const f of files) {
    const s = readFileSync(new URL(f, SCREENS), "utf8");
    assert.doesNotMatch(s, BOX, f);
    assert.doesNotMatch(s, /\x1b/, f);
  }
});

test("timeout and rows: a frame fitted to the rows counts the countdown line and keeps it above the help", () => {
  const words = Array.from({ length: 300 }, (_, i) => `w${i}`).join(" ");
  const options = ["A (Recommended)", ..."BCDEFGHIJKL"];
  const e = addon.createEngine(JSON.stringify({ questions: [{ id: "db", prompt: `FIRST ${words}`, options }] }));
  e.setTimeout(300_000, "recommended");
  for (const rows of [6, 10, 16]) {
    const frame = e.render(80, rows);
    assert.ok(frame.length <= rows, `${frame.length} lines for ${rows} rows`);
    const s = frame.join("\n");
    assert.match(s, /FIRST w0/, `${rows}`);
    assert.match(s, / > 1\. A \(Recommended\)/, `${rows}`);
    assert.match(s, /Answers itself in 5:00 with the recommended option[^\n]*\n PgUp\/PgDn read the question/, `${rows}`);
    assert.match(s, /Esc cancel/, `${rows}`);
  }
});

// The plain frame's sentences name the default keys. With keys rebound (pi's keybindings, or a
// host's bind()) they would tell the person keys that do nothing: the frame then names the keys
// that work, as the help line does. pi's own default keybindings keep the sentences (both lines,
// checked by hand against each line's pi-tui KeybindingsManager).
test("accessible: rebound keys are the keys the frame names, in every language", () => {
  const sentence = (lang, rebind) => {
    const e = engine(DB);
    e.setAccessible(true);
    if (lang) e.setLanguage(lang);
    if (rebind) rebind(e);
    const s = screen(e, 200);
    e.dispose();
    return s.split("\n").find((l) => /^(Keys|Tasten|按键)/.test(l));
  };
  assert.match(sentence(null), /^Keys: Up and Down move, Enter picks/);
  const rebound = (e) => {
    assert.equal(e.bind("confirm", ["ctrl+s"]), 0);
    assert.equal(e.bind("cancel", ["ctrl+q"]), 0);
  };
  const en = sentence(null, rebound);
  assert.match(en, /^Keys: .*Ctrl\+S select.*Ctrl\+Q cancel\.$/, en);
  assert.doesNotMatch(en, /Enter|Esc/, en);
  assert.match(sentence("de", rebound), /^Tasten: .*Strg\+S .*Strg\+Q /);
  assert.match(sentence("zh", rebound), /^按键：.*Ctrl\+S.*Ctrl\+Q.*。$/);
  // a second key added after the default first one changes nothing the sentence says
  assert.equal(
    sentence(null, (e) => e.bind("confirm", ["enter", "ctrl+s"])),
    sentence(null),
  );
});
