// strings.test.mjs — the string tables: every language covers the strings people read, keeps
// the placeholders of the English text, and every screen fits the width in every language.
import assert from "node:assert/strict";
import { test } from "node:test";
import { importPiTui } from "./helpers/pi-line.mjs";
import { addon } from "./helpers/addon.mjs";

// pi-tui of the pi line under test (PI_LINE; tests/helpers/pi-line.mjs).
const { visibleWidth } = await importPiTui();

const LANGUAGES = ["en", "de", "zh"];
const en = addon.strings("en");
// Key names and symbols that read the same in every language may fall back to English.
const SAME_EVERYWHERE = /^(KEY_|MOD_|FILTER_PREFIX|NOTICE_TITLE|YES_NO|KEY_YES|KEY_NO)/;

test("strings: tags resolve to their language, unknown tags to English", () => {
  assert.equal(addon.strings("de").$language, "de");
  assert.equal(addon.strings("de_AT.UTF-8").$language, "de");
  assert.equal(addon.strings("zh-CN").$language, "zh");
  assert.equal(addon.strings("fr").$language, "en");
  assert.equal(addon.strings("deutsch").$language, "en");
});

for (const lang of ["de", "zh"]) {
  test(`strings: ${lang} translates every string people read and keeps the placeholders`, () => {
    const t = addon.strings(lang);
    const placeholders = (s) => (s.match(/\{[nsi]\}/g) ?? []).sort().join();
    for (const [id, text] of Object.entries(en)) {
      if (id === "$language") continue;
      assert.ok(t[id], `${lang}: ${id} is empty`);
      if (!SAME_EVERYWHERE.test(id) && /[a-z]{3}/i.test(text)) assert.notEqual(t[id], text, `${lang}: ${id} is not translated`);
      assert.equal(placeholders(t[id]), placeholders(text), `${lang}: ${id} placeholders`);
    }
  });
}

test("strings: every screen fits every width from 20 to 200 in every language", () => {
  const args = {
    questions: [
      {
        id: "db",
        label: "Datenbank 数据库",
        prompt: "Which database? 哪个数据库？",
        options: [{ value: "pg", label: "PostgreSQL", description: "relational 关系型" }, "SQLite", "MongoDB"],
      },
      { id: "f", label: "Features", prompt: "Features?", multiSelect: true, options: ["Auth", "API"] },
      { id: "name", prompt: "Name?" },
    ],
  };
  const paths = [[], ["\u001b[B"], ["0"], ["2", "\u001b[B", " "], ["1", " ", "\r", "x", "\r"], ["1", "\u001b"], ["/"]];
  for (const lang of LANGUAGES) {
    for (const keys of paths) {
      const e = addon.createEngine(JSON.stringify(args));
      e.setLanguage(lang);
      for (const k of keys) e.feed(k);
      for (let width = 20; width <= 200; width++) {
        for (const line of e.render(width)) assert.ok(visibleWidth(line) <= width, `${lang} ${JSON.stringify(keys)} @${width}: ${line}`);
      }
    }
  }
});

test("strings: the engine speaks the chosen language", () => {
  const e = addon.createEngine(JSON.stringify({ questions: [{ id: "a", prompt: "p", options: ["x"] }] }));
  e.setLanguage("de");
  assert.match(e.render(80).join("\n"), /Etwas anderes…/);
  e.setLanguage("zh");
  assert.match(e.render(80).join("\n"), /其他…/);
});
