// transcript-accessible.test.mjs — the answer pi shows in its transcript (extension/ask/transcript.ts)
// in accessible mode: chosen and not chosen said in words from the C string
// table, the status always said, no marks, no box drawing, no colour — in en, de and zh; and
// the usual marks and colours when the mode is off.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test from "node:test";
import { addon } from "./helpers/addon.mjs";
import { loadExtension } from "./helpers/fake-pi.mjs";
import { importShim } from "./helpers/shim.mjs";

const { renderQuestionCall, renderQuestionResult } = await importShim("ask/transcript.ts");
const { transcriptAccessible, useAccessible } = await importShim("text/i18n.ts");

const LANGS = ["en", "de", "zh"];
// A theme that colours everything, so colour that stays in accessible mode would show.
const theme = { fg: (_c, s) => `\x1b[36m${s}\x1b[39m`, bold: (s) => `\x1b[1m${s}\x1b[22m`, italic: (s) => s };
const MARKS = /[●○◉◯✓✔✗☐☑•·│─┌┐└┘├┤╭╮╰╯]/u;
const K = { up: "\x1b[A", down: "\x1b[B", enter: "\r", space: " ", esc: "\x1b", ctrl: (c) => String.fromCharCode(c.charCodeAt(0) - 96) };

const DB = {
  questions: [
    {
      id: "db",
      label: "Database",
      prompt: "Which database should we use?",
      options: [
        { value: "pg", label: "PostgreSQL" },
        { value: "sqlite", label: "SQLite (Recommended)" },
        { value: "mongo", label: "MongoDB" },
      ],
    },
  ],
};
const FEATURES = {
  questions: [{ id: "features", label: "Features", prompt: "Which features?", multiSelect: true, options: ["Auth", "Billing", "Search"] }],
};

/** The result of answering `args` with `keys` in the engine, as the tool returns it. */
function answer(args, ...keys) {
  const e = addon.createEngine(JSON.stringify(args));
  for (const k of keys) e.feed(k);
  const r = e.result("interactive", 1, null, 0);
  e.dispose?.();
  return { text: r.text, details: JSON.parse(r.details) };
}
const fill = (s, v) => s.replace("{n}", () => String(v.n ?? "")).replace("{s}", () => v.s ?? "");
const show = (r, expanded, mode) => renderQuestionResult(r.details, r.text, expanded, false, theme, undefined, mode).render(200).join("\n");

test("transcript, accessible: a single-select answer says which option is selected and which are not, in words, in en, de and zh", () => {
  const r = answer(DB, K.ctrl("n"), ..."needs backups", K.enter, K.enter); // SQLite (the highlight starts on it), with a note
  assert.equal(r.details.status, "answered");
  for (const language of LANGS) {
    const t = addon.strings(language);
    const out = show(r, true, { accessible: true, language });
    const option = (n, label, state) => `${fill(t.PLAIN_OPTION_N, { n, s: "3" })}: ${label}, ${state}`;
    assert.ok(out.includes(fill(t.PLAIN_RESULT_STATUS, { s: t.STATUS_ANSWERED })), `${language}: the status in words\n${out}`);
    assert.ok(out.includes(option(1, "PostgreSQL", t.PLAIN_NOT_SELECTED)), `${language}\n${out}`);
    assert.ok(out.includes(option(2, "SQLite (Recommended)", t.PLAIN_SELECTED)), `${language}\n${out}`);
    assert.ok(out.includes(option(3, "MongoDB", t.PLAIN_NOT_SELECTED)), `${language}\n${out}`);
    assert.ok(out.includes(`${t.RESULT_NOTE} needs backups`), `${language}\n${out}`);
    assert.doesNotMatch(out, MARKS, `${language}: no symbol-only markers or box drawing`);
    assert.doesNotMatch(out, /\x1b/, `${language}: no colour`);
    // collapsed: the status and the answer in words, no colour
    const short = show(r, false, { accessible: true, language });
    assert.ok(short.startsWith(fill(t.PLAIN_RESULT_STATUS, { s: t.STATUS_ANSWERED })), `${language}\n${short}`);
    assert.match(short, /Database: SQLite \(Recommended\)/);
    assert.doesNotMatch(short, /\x1b/);
  }
  assert.notEqual(addon.strings("de").PLAIN_NOT_SELECTED, addon.strings("en").PLAIN_NOT_SELECTED, "German has its own words");
  assert.notEqual(addon.strings("zh").PLAIN_RESULT_STATUS, addon.strings("en").PLAIN_RESULT_STATUS, "Chinese has its own words");
});

test("transcript, accessible: a multi-select answer says checked / not checked and the typed answer in words, in en, de and zh", () => {
  // Billing ticked, then Something else… ticked and "Audit log" typed
  const r = answer(FEATURES, K.down, K.space, K.down, K.down, K.space, ..."Audit log", K.enter, K.enter);
  assert.equal(r.details.status, "answered", JSON.stringify(r.details));
  assert.equal(r.details.answers[0].wasCustom, true, JSON.stringify(r.details.answers));
  for (const language of LANGS) {
    const t = addon.strings(language);
    const out = show(r, true, { accessible: true, language });
    const option = (n, label, state) => `${fill(t.PLAIN_OPTION_N, { n, s: "3" })}: ${label}, ${state}`;
    assert.ok(out.includes(option(1, "Auth", t.PLAIN_NOT_CHECKED)), `${language}\n${out}`);
    assert.ok(out.includes(option(2, "Billing", t.PLAIN_CHECKED)), `${language}\n${out}`);
    assert.ok(out.includes(option(3, "Search", t.PLAIN_NOT_CHECKED)), `${language}\n${out}`);
    assert.ok(out.includes(`${t.PLAIN_TYPING}Audit log ${t.RESULT_WROTE}`), `${language}\n${out}`);
    assert.doesNotMatch(out, MARKS, language);
    assert.doesNotMatch(out, /\x1b/, language);
  }
});

test("transcript, accessible: every status is said in words (declined, cancelled, timed out, talk first), in en, de and zh", () => {
  const declined = answer(DB, K.ctrl("d"));
  const cancelled = answer(DB, K.esc);
  const discuss = answer(DB, K.ctrl("t"), ..."why not both", K.enter);
  const timed = (() => {
    const built = addon.result(JSON.stringify(DB), "timed_out", "interactive", 1, null, null, 4);
    return { text: built.text, details: JSON.parse(built.details) };
  })();
  for (const language of LANGS) {
    const t = addon.strings(language);
    for (const [r, id] of [
      [declined, "STATUS_DECLINED"],
      [cancelled, "STATUS_CANCELLED"],
      [discuss, "STATUS_DISCUSS"],
      [timed, "STATUS_TIMED_OUT"],
    ]) {
      for (const expanded of [false, true]) {
        const out = show(r, expanded, { accessible: true, language });
        assert.ok(out.includes(fill(t.PLAIN_RESULT_STATUS, { s: t[id] })), `${language} ${id} expanded=${expanded}\n${out}`);
        assert.doesNotMatch(out, MARKS, `${language} ${id}`);
        assert.doesNotMatch(out, /\x1b/, `${language} ${id}`);
      }
    }
    const out = show(timed, true, { accessible: true, language });
    assert.ok(out.includes(`SQLite (Recommended), ${t.PLAIN_SELECTED} ${t.RESULT_APPLIED_BY_TIMEOUT}`), `${language}\n${out}`);
    assert.ok(show(discuss, false, { accessible: true, language }).includes("why not both"));
  }
});

test("transcript, accessible off: the marks and theme colours stay as they were, in en, de and zh", () => {
  const r = answer(DB, K.enter); /* SQLite: the highlight starts on the recommended option */
  for (const language of LANGS) {
    const t = addon.strings(language);
    const out = show(r, true, { accessible: false, language });
    assert.match(out, /●.*SQLite \(Recommended\)/);
    assert.match(out, /○.*PostgreSQL/);
    assert.match(out, /\x1b\[36m/, "theme colours");
    assert.ok(!out.includes(t.PLAIN_NOT_SELECTED), language);
    assert.ok(!out.includes(fill(t.PLAIN_RESULT_STATUS, { s: t.STATUS_ANSWERED })), `${language}: no status line for an answer`);
    const declined = show(answer(DB, K.ctrl("d")), false, { accessible: false, language });
    assert.ok(declined.includes(t.STATUS_DECLINED), language);
  }
});

test("transcript, accessible: the call row is plain words (no '·' separators, no colour), in en, de and zh", () => {
  const args = {
    questions: [
      { id: "a", label: "Database", prompt: "p" },
      { id: "b", label: "Name", prompt: "q" },
    ],
  };
  for (const language of LANGS) {
    const t = addon.strings(language);
    const plain = renderQuestionCall(args, theme, undefined, { accessible: true, language }).render(200).join("\n");
    assert.equal(plain.trimEnd(), `question ${fill(t.CALL_QUESTIONS, { n: 2 })} Database, Name`);
    const styled = renderQuestionCall(args, theme, undefined, { accessible: false, language }).render(200).join("\n");
    assert.match(styled, /Database · Name/);
    assert.match(styled, /\x1b\[/);
  }
});

test("transcript: accessible mode follows the setting (remembered when asked) or TERM=dumb, as the question screen does", async () => {
  const term = process.env.TERM;
  try {
    process.env.TERM = "xterm-256color";
    useAccessible(false);
    assert.equal(transcriptAccessible(), false);
    useAccessible(true);
    assert.equal(transcriptAccessible(), true);
    useAccessible(false);
    assert.equal(transcriptAccessible({ TERM: "dumb" }), true);

    // through the registered tool, as pi draws it: TERM=dumb turns the words on
    const { tools } = await loadExtension();
    const tool = tools.get("question");
    const r = answer(DB, K.enter); /* SQLite: the highlight starts on the recommended option */
    const draw = () =>
      tool
        .renderResult({ content: [{ type: "text", text: r.text }], details: r.details }, { expanded: true }, theme, { isError: false })
        .render(200)
        .join("\n");
    assert.match(draw(), /●/);
    process.env.TERM = "dumb";
    const out = draw();
    assert.match(out, /Option 1 of 3: PostgreSQL, not selected/);
    assert.doesNotMatch(out, MARKS);
    assert.doesNotMatch(out, /\x1b/);
  } finally {
    if (term === undefined) delete process.env.TERM;
    else process.env.TERM = term;
  }
});

test('transcript: the "accessible" setting is read when a session starts, so a resumed transcript reads in words before any question', async () => {
  const saved = { HOME: process.env.HOME, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR, TERM: process.env.TERM };
  const home = mkdtempSync(join(tmpdir(), "pq-a11y-home-"));
  const handlers = {};
  const ctx = {
    hasUI: true,
    cwd: join(home, "project"),
    sessionManager: { getBranch: () => [] },
    ui: { notify() {}, setTitle() {} },
    isIdle: () => true,
  };
  try {
    mkdirSync(join(home, ".pi", "agent"), { recursive: true });
    mkdirSync(ctx.cwd);
    writeFileSync(join(home, ".pi", "agent", "question.json"), JSON.stringify({ accessible: true }));
    process.env.HOME = home; // the settings file, and the relay's registry (started by session_start)
    process.env.XDG_RUNTIME_DIR = join(home, "run");
    process.env.TERM = "xterm-256color";
    const { tools } = await loadExtension({ on: (event, handler) => (handlers[event] = handler) });
    const tool = tools.get("question");
    const r = answer(DB, K.up, K.enter); // PostgreSQL: up from the recommended option
    const draw = () =>
      tool
        .renderResult({ content: [{ type: "text", text: r.text }], details: r.details }, { expanded: true }, theme, { isError: false })
        .render(200)
        .join("\n");
    assert.match(draw(), /●/, "before the session starts: the usual marks");
    await handlers.session_start({}, ctx);
    const out = draw();
    assert.match(out, /^Status: Answered\./);
    assert.match(out, /Option 1 of 3: PostgreSQL, selected/);
    assert.match(out, /Option 2 of 3: SQLite \(Recommended\), not selected/);
    assert.doesNotMatch(out, /\x1b|●|○/);
  } finally {
    await handlers.session_shutdown?.({}, ctx);
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    rmSync(home, { recursive: true, force: true });
  }
});

test("accessible: one composition of an option's sentence — the question's plain frame and addon.plainOption (the transcript's) say the same, in English and German, for every state", () => {
  const args = (multiSelect) =>
    JSON.stringify({ questions: [{ id: "db", prompt: "Which?", multiSelect, options: ["PostgreSQL", "SQLite"] }] });
  const focused = (e) => e.render(300).find((l) => /^Option \d/.test(l));
  for (const lang of ["en", "de"]) {
    const single = addon.createEngine(args(false));
    single.setLanguage(lang);
    single.setAccessible(true);
    // the highlight on option 1, not chosen: no state said
    assert.equal(focused(single), addon.plainOption(lang, 1, 3, "PostgreSQL", null), lang);
    const multi = addon.createEngine(args(true));
    multi.setLanguage(lang);
    multi.setAccessible(true);
    multi.feed(" "); // ticked
    assert.equal(focused(multi), addon.plainOption(lang, 1, 3, "PostgreSQL", "checked"), lang);
    multi.feed(" "); // unticked
    assert.equal(focused(multi), addon.plainOption(lang, 1, 3, "PostgreSQL", "notChecked"), lang);
  }
  assert.equal(addon.plainOption("en", 2, 2, "SQLite", "selected"), "Option 2 of 2: SQLite, selected");
  assert.equal(addon.plainOption("de", 1, 2, "A", "notSelected"), `Option 1 von 2: A, ${addon.strings("de").PLAIN_NOT_SELECTED}`);
  assert.throws(() => addon.plainOption("en", -1, 2, "A", "selected"), { code: "QT_ETYPE" });
});
