// settings.test.mjs — the user's settings file: defaults, project overrides, and bad settings
// reported with the defaults kept, never a crash.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { importShim } from "./helpers/shim.mjs";

const { loadSettings, resolveLanguage, DEFAULT_SETTINGS } = await importShim("settings.ts");

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
    assert.deepEqual(loadSettings(cwd, (w) => warnings.push(w), home), DEFAULT_SETTINGS);
    assert.deepEqual(DEFAULT_SETTINGS, {
      escape: "cancel",
      notice: { title: true, bell: false, notify: false, desktop: false },
      language: "auto",
      limits: {},
      pendingFile: join(".pi", "pending-questions.json"),
    });
    assert.deepEqual(warnings, []);
  } finally {
    cleanup();
  }
});

test("settings: the project file overrides the user file key by key", () => {
  const { home, cwd, cleanup } = homes();
  try {
    writeFileSync(join(home, ".pi", "agent", "question.json"), JSON.stringify({ escape: "continue", language: "de", notice: { bell: true } }));
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
    assert.match(warnings.join("\n"), /"escape" must be "cancel" or "continue"/);
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
