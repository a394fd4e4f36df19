// settings.test.mjs — the user's settings file: defaults, project overrides, and bad settings
// reported with the defaults kept, never a crash.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { importShim } from "./helpers/shim.mjs";

const { loadSettings, resolveLanguage, DEFAULT_SETTINGS, parseDuration, accessibleMode } = await importShim("text/settings.ts");

function homes() {
  const home = mkdtempSync(join(tmpdir(), "pq-settings-"));
  const cwd = join(home, "project");
  mkdirSync(join(home, ".pi", "agent"), { recursive: true });
  mkdirSync(join(cwd, ".pi"), { recursive: true });
  return { home, cwd, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

test("settings: no files gives the documented defaults", () => {
  const { home, cwd, cleanup } = homes();
  try {
    const warnings = [];
    assert.deepEqual(
      loadSettings(cwd, (w) => warnings.push(w), home),
      DEFAULT_SETTINGS,
    );
    assert.deepEqual(DEFAULT_SETTINGS, {
      escape: "cancel",
      notice: { title: true, bell: false, notify: false, desktop: false },
      language: "auto",
      limits: {},
      pendingFile: join(".pi", "pending-questions.json"),
      web: { enabled: false, host: "127.0.0.1" },
      accessible: false,
      memory: true,
      projectTrusted: true,
    });
    assert.deepEqual(warnings, []);
  } finally {
    cleanup();
  }
});

test("settings: the project file overrides the user file key by key", () => {
  const { home, cwd, cleanup } = homes();
  try {
    writeFileSync(
      join(home, ".pi", "agent", "question.json"),
      JSON.stringify({ escape: "continue", language: "de", notice: { bell: true } }),
    );
    writeFileSync(join(cwd, ".pi", "question.json"), JSON.stringify({ language: "zh", limits: { options: 20 } }));
    const s = loadSettings(cwd, () => {}, home);
    assert.equal(s.escape, "continue");
    assert.equal(s.language, "zh");
    assert.deepEqual(s.notice, { title: true, bell: true, notify: false, desktop: false });
    assert.deepEqual(s.limits, { options: 20 });
  } finally {
    cleanup();
  }
});

test("settings: bad files and values are reported and the defaults kept", () => {
  const { home, cwd, cleanup } = homes();
  try {
    writeFileSync(join(home, ".pi", "agent", "question.json"), "{ not json");
    writeFileSync(
      join(cwd, ".pi", "question.json"),
      JSON.stringify({ escape: "explode", language: "tlh", limits: { questions: -1 }, colour: "red", notice: { title: "yes" } }),
    );
    const warnings = [];
    const s = loadSettings(cwd, (w) => warnings.push(w), home);
    assert.deepEqual(s, DEFAULT_SETTINGS);
    assert.equal(warnings.length, 6, warnings.join("\n"));
    assert.match(warnings[0], /question\.json is not valid JSON .*using the defaults/);
    assert.match(warnings.join("\n"), /sets "escape", which a project's settings may not/);
    assert.match(warnings.join("\n"), /"language" must be "auto" or one of "en", "de", "zh"/);
    assert.match(warnings.join("\n"), /"colour" is not a setting/);
    assert.match(warnings.join("\n"), /"limits.questions" must be/);
    assert.match(warnings.join("\n"), /"notice.title" must be/);
  } finally {
    cleanup();
  }
});

test("settings: the language comes from the setting, else LC_ALL / LC_MESSAGES / LANG, else English", () => {
  assert.equal(resolveLanguage("de", { LANG: "zh_CN.UTF-8" }), "de");
  assert.equal(resolveLanguage("auto", { LANG: "de_DE.UTF-8" }), "de");
  assert.equal(resolveLanguage("auto", { LC_ALL: "zh_CN.UTF-8", LANG: "de_DE.UTF-8" }), "zh");
  assert.equal(resolveLanguage("auto", { LC_MESSAGES: "de_AT", LANG: "en_US" }), "de");
  assert.equal(resolveLanguage("auto", { LANG: "fr_FR.UTF-8" }), "en");
  assert.equal(resolveLanguage("auto", {}), "en");
});

// ---- untrusted text on the way to the screen ------------------------------------------------
// A cloned repository controls .pi/question.json; the project's directory name and the
// pending-questions path are not ours either. Nothing of them may act on a terminal.

const { loadExtension } = await import("./helpers/fake-pi.mjs");
const { symlinkSync } = await import("node:fs");

/** C0 controls (newline allowed), DEL, C1 controls, bidirectional overrides and isolates. */
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
function assertHarmless(text, what) {
  assert.ok(!UNSAFE.test(text), `${what} carries a raw control: ${JSON.stringify(text)}`);
}

const OSC52 = "\u001b]52;c;cHduZWQ=\u0007"; // a clipboard write
const HOSTILE_SETTINGS = {
  [OSC52]: true,
  "\u009b2J\u202e": 1, // C1 CSI (clear screen), a bidi override
  language: "\u001b[2J",
  notice: { ["\u001b]0;title\u0007"]: true },
  limits: { ["\u0090q\u009c"]: 3 },
};

/** A home and a project whose own directory name holds an escape sequence. */
function hostileHomes(settings = HOSTILE_SETTINGS, userFile = "{ \u001b]52;c;eA==\u0007 not json") {
  const h = homes();
  const cwd = join(h.home, "proj\u001b]0;owned\u0007");
  mkdirSync(join(cwd, ".pi"), { recursive: true });
  writeFileSync(join(cwd, ".pi", "question.json"), JSON.stringify(settings));
  if (userFile) writeFileSync(join(h.home, ".pi", "agent", "question.json"), userFile);
  return { ...h, cwd };
}

const ext = await loadExtension();
const tool = ext.tools.get("question");
const PRESUPPLIED = tool.prepareArguments({ questions: [{ id: "a", prompt: "p", options: ["X"] }], answers: { a: "X" } });

test("settings: hostile keys, values, JSON errors and paths reach pi's notifications sanitized", async () => {
  const { cwd, home, cleanup } = hostileHomes();
  const oldHome = process.env.HOME;
  process.env.HOME = home;
  try {
    const shown = [];
    const ctx = {
      hasUI: true,
      cwd,
      sessionManager: { getBranch: () => [] },
      ui: { notify: (m, level) => shown.push([m, level]) },
    };
    const r = await tool.execute("c", PRESUPPLIED, undefined, undefined, ctx);
    assert.equal(r.details.status, "answered", "bad settings never stop a question");
    assert.ok(shown.length >= 6, JSON.stringify(shown));
    for (const [m, level] of shown) {
      assert.equal(level, "warning");
      assertHarmless(m, "a settings warning");
    }
    const all = shown.map(([m]) => m).join("\n");
    assert.match(all, /"\\u001b\]52;c;cHduZWQ=\\u0007" is not a setting/, "the key is quoted with its escapes visible");
    assert.match(all, /not valid JSON/);
    assert.match(all, /proj␛\]0;owned␇/, "the path is shown, its controls as visible pictures");
  } finally {
    process.env.HOME = oldHome;
    cleanup();
  }
});

test("settings: without a UI the same warnings go to stderr sanitized", async () => {
  const { cwd, home, cleanup } = hostileHomes();
  const oldHome = process.env.HOME;
  const write = process.stderr.write;
  const written = [];
  process.env.HOME = home;
  process.stderr.write = (chunk) => written.push(String(chunk)) > 0;
  try {
    await tool.execute("c", PRESUPPLIED, undefined, undefined, { hasUI: false, cwd, sessionManager: { getBranch: () => [] }, ui: {} });
  } finally {
    process.stderr.write = write;
    process.env.HOME = oldHome;
    cleanup();
  }
  assert.ok(written.length >= 6, JSON.stringify(written));
  for (const w of written) assertHarmless(w, "stderr");
});

test("settings: a very long key is quoted cut, not whole", () => {
  const { home, cwd, cleanup } = homes();
  try {
    writeFileSync(join(cwd, ".pi", "question.json"), JSON.stringify({ ["k".repeat(60000)]: 1 }));
    const warnings = [];
    loadSettings(cwd, (w) => warnings.push(w), home);
    assert.equal(warnings.length, 1);
    assert.ok(warnings[0].length < 400, warnings[0].length);
    assert.match(warnings[0], /"k{60}"… is not a setting/);
  } finally {
    cleanup();
  }
});

// ---- pendingFile: a file inside the project, decided on real paths ---------------------------

/** The warnings loading `pendingFile: value` gives, and the effective setting. */
function pendingSetting(cwd, home, value) {
  writeFileSync(join(cwd, ".pi", "question.json"), JSON.stringify({ pendingFile: value }));
  const warnings = [];
  const s = loadSettings(cwd, (w) => warnings.push(w), home);
  return { warnings, pendingFile: s.pendingFile };
}

test("settings: pendingFile is refused unless it names a file inside the project, symbolic links resolved", () => {
  const { home, cwd, cleanup } = homes();
  const outside = join(home, "outside");
  mkdirSync(outside);
  mkdirSync(join(cwd, "sub", "dir"), { recursive: true });
  symlinkSync(outside, join(cwd, "linkdir")); // a directory inside that leads outside
  writeFileSync(join(outside, "x.json"), "{}");
  symlinkSync(join(outside, "x.json"), join(cwd, "linkfile.json")); // a file inside that leads outside
  symlinkSync(join(home, "nowhere", "x"), join(cwd, "broken")); // leads nowhere
  try {
    const refused = {
      ".": /names the project directory itself, not a file in it/,
      "./": /ends with a path separator/,
      "..": /leads outside the project \(to /,
      "../x.json": /leads outside the project \(to /,
      "sub/../../x.json": /leads outside the project \(to /,
      [join(outside, "p.json")]: /is an absolute path/,
      "linkdir/p.json": /leads outside the project through a symbolic link \(to .*outside\/p\.json\)/,
      "linkfile.json": /leads outside the project through a symbolic link \(to .*outside\/x\.json\)/,
      "broken/p.json": /is or goes through the broken symbolic link .*broken/,
      "sub/dir": /is a directory/,
      "": /is empty/,
    };
    for (const [value, why] of Object.entries(refused)) {
      const { warnings, pendingFile } = pendingSetting(cwd, home, value);
      assert.equal(pendingFile, DEFAULT_SETTINGS.pendingFile, `${value} must be refused`);
      assert.equal(warnings.length, 1, `${value}: ${warnings.join("\n")}`);
      const w = warnings[0];
      assert.match(w, why, `${value}: ${w}`);
      assert.ok(w.includes(join(cwd, ".pi", "question.json")), `names the settings file: ${w}`);
      assert.ok(w.includes(`"pendingFile" must name a file inside the project (${cwd})`), `says what is expected: ${w}`);
      assert.ok(w.includes(JSON.stringify(value)), `quotes the value: ${w}`);
    }
    for (const value of ["sub/dir/pending.json", "new/deeper/p.json", ".pi/pending-questions.json", "..odd-name.json"]) {
      const { warnings, pendingFile } = pendingSetting(cwd, home, value);
      assert.deepEqual(warnings, [], value);
      assert.equal(pendingFile, value);
    }
  } finally {
    cleanup();
  }
});

test("settings: a project reached through a symbolic link keeps paths inside it", () => {
  const { home, cwd, cleanup } = homes();
  const alias = join(home, "alias");
  symlinkSync(cwd, alias);
  try {
    writeFileSync(join(cwd, ".pi", "question.json"), JSON.stringify({ pendingFile: "q/pending.json" }));
    const warnings = [];
    assert.equal(loadSettings(alias, (w) => warnings.push(w), home).pendingFile, "q/pending.json");
    assert.deepEqual(warnings, []);
  } finally {
    cleanup();
  }
});

// ---- /questions -------------------------------------------------------------------------------

test("/questions: paths, file contents and answers are shown sanitized", async () => {
  const { cwd, home, cleanup } = hostileHomes({ pendingFile: "q\u001b]0;x\u0007\u009b.json" }, null);
  const pending = join(cwd, "q\u001b]0;x\u0007\u009b.json");
  const oldHome = process.env.HOME;
  process.env.HOME = home;
  const shown = [];
  const ctx = { hasUI: true, cwd, sessionManager: { getBranch: () => [] }, ui: { notify: (m) => shown.push(m) } };
  const handler = ext.commands.get("questions").handler;
  try {
    await handler("", ctx); // nothing waiting
    writeFileSync(
      pending,
      JSON.stringify({
        pending: [{ key: "k", askedAt: "\u001b[2J", questions: [{ id: "a\u0007", prompt: "p\u202e", answer: "\u001b]52;c;eA==\u0007" }] }],
      }),
    );
    await handler("", ctx); // one set
    writeFileSync(pending, "{ \u001b]0;broken\u0007");
    await handler("", ctx); // unreadable: the error quotes the path
    await handler("clear", ctx);
    const write = process.stdout.write;
    process.stdout.write = (chunk) => shown.push(String(chunk)) > 0;
    try {
      await handler("", { ...ctx, hasUI: false }); // without a UI: stdout
    } finally {
      process.stdout.write = write;
    }
  } finally {
    process.env.HOME = oldHome;
    cleanup();
  }
  assert.equal(shown.length, 5, JSON.stringify(shown));
  for (const m of shown) assertHarmless(m, "/questions output");
  assert.match(shown[0], /No questions are waiting in q␛\]0;x␇<U\+009B>\.json/);
  assert.match(shown[1], /a␇: p<U\+202E> → ␛\]52;c;eA==␇/);
  assert.match(shown[3], /is not valid JSON/);
  assert.match(shown[3], /proj␛\]0;owned␇/);
});

test("/questions clear: a .pi linked out of the project removes nothing there and says why, sanitized", async () => {
  const h = homes();
  const cwd = join(h.home, "proj\u001b]0;owned\u0007");
  const outside = join(h.home, "outside");
  mkdirSync(cwd);
  mkdirSync(outside);
  symlinkSync(outside, join(cwd, ".pi")); // committed in a cloned repository
  const victim = join(outside, "pending-questions.json");
  writeFileSync(victim, JSON.stringify({ pending: [] }));
  const oldHome = process.env.HOME;
  process.env.HOME = h.home;
  const shown = [];
  const ctx = { hasUI: true, cwd, sessionManager: { getBranch: () => [] }, ui: { notify: (m) => shown.push(m) } };
  try {
    await ext.commands.get("questions").handler("clear", ctx);
    assert.equal(existsSync(victim), true, "the file outside the project is not removed");
    assert.deepEqual(readdirSync(outside), ["pending-questions.json"], "and no lock file is made there");
  } finally {
    process.env.HOME = oldHome;
    h.cleanup();
  }
  assert.equal(shown.length, 1, JSON.stringify(shown));
  assertHarmless(shown[0], "/questions clear");
  assert.match(
    shown[0],
    /The pending-questions file .*proj␛\]0;owned␇\/\.pi\/pending-questions\.json was neither written nor removed: it leads outside the project through a symbolic link \(to .*\/outside\/pending-questions\.json\)/,
  );
});

// ---- the person's timeout and accessible mode --------------------------------------------------
test("settings: timeout is off by default and read as { after, then }", () => {
  const { home, cwd, cleanup } = homes();
  try {
    const warnings = [];
    assert.equal(loadSettings(cwd, (w) => warnings.push(w), home).timeout, undefined);
    writeFileSync(join(home, ".pi", "agent", "question.json"), JSON.stringify({ timeout: { after: "5m", then: "recommended" } }));
    assert.deepEqual(loadSettings(cwd, (w) => warnings.push(w), home).timeout, { after: "5m", ms: 300000, then: "recommended" });
    writeFileSync(join(home, ".pi", "agent", "question.json"), JSON.stringify({ timeout: { after: "90s", then: "selected" } }));
    assert.deepEqual(loadSettings(cwd, (w) => warnings.push(w), home).timeout, { after: "90s", ms: 90000, then: "selected" });
    writeFileSync(join(home, ".pi", "agent", "question.json"), JSON.stringify({ timeout: { after: "90s" } }));
    assert.deepEqual(loadSettings(cwd, (w) => warnings.push(w), home).timeout, { after: "90s", ms: 90000, then: "cancel" });
    writeFileSync(join(home, ".pi", "agent", "question.json"), JSON.stringify({ timeout: false }));
    assert.equal(loadSettings(cwd, (w) => warnings.push(w), home).timeout, undefined, "false turns it off");
    assert.deepEqual(warnings, []);
  } finally {
    cleanup();
  }
});

// A cloned repository writes .pi/question.json: it may not make questions answer themselves, decide
// what Esc does to the agent's turn, or open the web page; what it may set changes only how
// questions look and where they wait inside the project.
test("settings: a project's timeout and escape are ignored with a warning naming the file, and its limits only lower the user's", () => {
  const { home, cwd, cleanup } = homes();
  try {
    const projectFile = join(cwd, ".pi", "question.json");
    writeFileSync(
      projectFile,
      JSON.stringify({ timeout: { after: "1s", then: "recommended" }, escape: "continue", language: "de", limits: { options: 5 } }),
    );
    let warnings = [];
    let s = loadSettings(cwd, (w) => warnings.push(w), home);
    assert.equal(s.timeout, undefined, "no timeout from the project");
    assert.equal(s.escape, "cancel", "Esc still stops the agent");
    assert.equal(s.language, "de", "what changes only how questions look still counts");
    assert.deepEqual(s.limits, { options: 5 });
    assert.equal(warnings.length, 2, warnings.join("\n"));
    assert.ok(
      warnings.every((w) => w.includes(projectFile)),
      "names the file",
    );
    assert.match(warnings.join("\n"), /sets "timeout", which a project's settings may not: a timeout answers for you .*; ignored\./);
    assert.match(warnings.join("\n"), /sets "escape", which a project's settings may not.*; ignored\./);
    // The person's own file sets both; the project can neither change nor turn them off.
    writeFileSync(
      join(home, ".pi", "agent", "question.json"),
      JSON.stringify({ timeout: { after: "5m", then: "decline" }, escape: "continue" }),
    );
    writeFileSync(projectFile, JSON.stringify({ timeout: false, escape: "cancel" }));
    warnings = [];
    s = loadSettings(cwd, (w) => warnings.push(w), home);
    assert.deepEqual(s.timeout, { after: "5m", ms: 300000, then: "decline" });
    assert.equal(s.escape, "continue");
    assert.equal(warnings.length, 2);
    // limits: a project may lower the person's caps, never raise them.
    writeFileSync(join(home, ".pi", "agent", "question.json"), JSON.stringify({ limits: { questions: 2, options: 30 } }));
    writeFileSync(projectFile, JSON.stringify({ limits: { questions: 500, options: 10 } }));
    assert.deepEqual(loadSettings(cwd, () => undefined, home).limits, { questions: 2, options: 10 });
  } finally {
    cleanup();
  }
});

test("settings: durations", () => {
  assert.equal(parseDuration("5m"), 300000);
  assert.equal(parseDuration("1h30m"), 5400000);
  assert.equal(parseDuration("2m30s"), 150000);
  assert.equal(parseDuration(" 3s "), 3000);
  assert.equal(parseDuration("1500ms"), 1500);
  assert.match(parseDuration("5"), /not a duration/);
  assert.match(parseDuration(300), /not a string/);
  assert.match(parseDuration("500ms"), /shorter than a second/);
  assert.match(parseDuration("25h"), /longer than a day/);
  assert.match(parseDuration("5 minutes"), /not a duration/);
});

test("settings: a bad timeout says what, where and how to fix it, and no timeout is used", () => {
  const { home, cwd, cleanup } = homes();
  try {
    const file = join(home, ".pi", "agent", "question.json");
    for (const [value, why] of [
      [{ after: "5" }, /"after" "5" is not a duration/],
      [{ after: "5m", then: "later" }, /"then" is "later"/],
      [{ after: "5m", when: "x" }, /has "when", which is not "after" or "then"/],
      ["5m", /is not an object/],
    ]) {
      writeFileSync(file, JSON.stringify({ timeout: value }));
      const warnings = [];
      assert.equal(loadSettings(cwd, (w) => warnings.push(w), home).timeout, undefined);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0], why);
      assert.ok(warnings[0].includes(file), "where");
      assert.match(warnings[0], /write it like \{ "after": "5m", "then": "cancel" \}/, "how to fix");
    }
  } finally {
    cleanup();
  }
});

test("settings: accessible is a boolean, and TERM=dumb turns accessible mode on", () => {
  const { home, cwd, cleanup } = homes();
  try {
    const warnings = [];
    writeFileSync(join(home, ".pi", "agent", "question.json"), JSON.stringify({ accessible: true }));
    const s = loadSettings(cwd, (w) => warnings.push(w), home);
    assert.equal(s.accessible, true);
    assert.equal(accessibleMode(s, { TERM: "xterm" }), true);
    assert.equal(accessibleMode({ ...s, accessible: false }, { TERM: "dumb" }), true);
    assert.equal(accessibleMode({ ...s, accessible: false }, { TERM: "xterm-256color" }), false);
    writeFileSync(join(home, ".pi", "agent", "question.json"), JSON.stringify({ accessible: "yes" }));
    assert.equal(loadSettings(cwd, (w) => warnings.push(w), home).accessible, false);
    assert.match(warnings.at(-1), /"accessible" must be true or false/);
  } finally {
    cleanup();
  }
});

test("settings: a project pi does not trust counts for nothing: its .pi/question.json is not read", () => {
  const { home, cwd, cleanup } = homes();
  try {
    writeFileSync(join(home, ".pi", "agent", "question.json"), JSON.stringify({ language: "de" }));
    writeFileSync(join(cwd, ".pi", "question.json"), JSON.stringify({ language: "fr", pendingFile: ".pi/other.json", bogus: 1 }));
    const warnings = [];
    const untrusted = loadSettings(cwd, (w) => warnings.push(w), home, false);
    assert.equal(untrusted.language, "de");
    assert.equal(untrusted.pendingFile, join(".pi", "pending-questions.json"));
    assert.equal(untrusted.projectTrusted, false);
    assert.deepEqual(warnings, [], "the untrusted file is not even parsed");
    const trusted = loadSettings(cwd, () => {}, home, true);
    assert.equal(trusted.pendingFile, ".pi/other.json");
  } finally {
    cleanup();
  }
});

test("settings: your own ~/.pi/agent/question.json may be a symbolic link (dotfiles: stow, home-manager); a project's that leads out is refused", () => {
  const { home, cwd, cleanup } = homes();
  try {
    const dotfiles = join(home, "dotfiles");
    mkdirSync(dotfiles);
    writeFileSync(join(dotfiles, "question.json"), JSON.stringify({ escape: "continue" }));
    symlinkSync(join(dotfiles, "question.json"), join(home, ".pi", "agent", "question.json"));
    const warnings = [];
    const s = loadSettings(cwd, (w) => warnings.push(w), home);
    assert.deepEqual(warnings, []);
    assert.equal(s.escape, "continue", "read through the link");
    symlinkSync(join(dotfiles, "question.json"), join(cwd, ".pi", "question.json"));
    loadSettings(cwd, (w) => warnings.push(w), home);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /leads outside the project through a symbolic link/);
  } finally {
    cleanup();
  }
});
