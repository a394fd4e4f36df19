// comments.test.mjs — the sources say what they do and why, in words a reader of the code can
// check: no comment or test name points at a tracker's issue, an item of one, a review finding
// or a work tree's name (a reference like "issue N item M" means nothing without the tracker;
// the behaviour it protects does). And every bound on what a model sends or a person types lives
// in native/core/qt_limits.h, which names the few buffer sizes kept in their own files, and the
// addon exports the ones that moved there.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { addon, root } from "./helpers/addon.mjs";

/** Where the project's own sources live (README.md and docs/ are prose about them, not code). */
const SOURCE_DIRS = ["native", "extension", "bin", "scripts", "tests", "bench", ".ci", ".github"];
const SOURCE_FILES = ["binding.gyp", "package.json", "tsconfig.json"];
/** Data, not code: golden screens, fuzz inputs, what builds and installs leave. */
const SKIP = [/^tests\/fixtures\//, /^native\/fuzz\/(corpus|regressions|out)\//, /(^|\/)node_modules\//, /^build\//, /^dist\//];
const SOURCE_EXT = /\.(c|h|ts|mts|cts|mjs|cjs|js|sh|py|gyp|html|css|yml|yaml|ps1|json)$/;

/** What cites a tracker instead of saying what the code does. */
const CITATIONS = [
  [/\b[Ii]ssues? ?#?\d/, "an issue number"],
  [/\bitems? \d+\b(?! of\b)/, "an item of an issue"],
  [/\b[Rr]eview (finding|item)s? ?#?\d/, "a review finding"],
  [/\bwt-[a-z0-9]+\b/, "a work tree's name"],
];

function sourceFiles() {
  const out = [];
  const walk = (dir) => {
    let names;
    try {
      names = readdirSync(join(root, dir));
    } catch {
      return; // a directory this checkout does not have
    }
    for (const name of names) {
      const rel = `${dir}/${name}`;
      if (SKIP.some((rx) => rx.test(rel))) continue;
      const st = statSync(join(root, rel));
      if (st.isDirectory()) walk(rel);
      // .ci/run and the like have no extension: every file there is a script
      else if (SOURCE_EXT.test(name) || dir.startsWith(".ci")) out.push(rel);
    }
  };
  for (const dir of SOURCE_DIRS) walk(dir);
  for (const file of SOURCE_FILES) {
    try {
      if (statSync(join(root, file)).isFile()) out.push(file);
    } catch {
      // not in this checkout
    }
  }
  return out;
}

/** Every line of `text` that cites a tracker, as "file:line: what — the line". */
function citations(file, text) {
  const found = [];
  text.split("\n").forEach((line, i) => {
    for (const [rx, what] of CITATIONS) {
      if (rx.test(line)) {
        found.push(`${file}:${i + 1}: ${what} — ${line.trim().slice(0, 160)}`);
        break;
      }
    }
  });
  return found;
}

/** A citation for the check to find, written with "_" so that this file does not cite anything. */
const cite = (s) => s.replaceAll("_", "");

test("comments: the check itself finds each kind of citation and passes plain prose", () => {
  const cited = [
    "/* the frame fits (issue_ 14 item_ 2) */",
    "// ---- item_ 3: the person's timeout ----",
    "// Review_ finding 4: the preview's layout was kept",
    'test("timeout and rows (wt_-uxa): a frame fits", () => {',
    "// see Issue_ #12",
  ].map(cite);
  for (const line of cited) assert.equal(citations("x.c", line).length, 1, line);
  const prose = [
    "/* Grapheme_Cluster_Break classes (UAX #29) */",
    "// the review step lists every answer; an issue with the terminal is reported",
    "// Option 2 of 4: SQLite (item 2 of 4)",
    "const reviewer = 'the subagent that reviews';",
  ];
  for (const line of prose) assert.deepEqual(citations("x.c", line), [], line);
  assert.deepEqual(citations("a.mjs", cite("ok\n// (issue_ 13)\n")), [cite("a.mjs:2: an issue number — // (issue_ 13)")]);
});

test("comments: no source file cites an issue, an item of one, a review finding or a work tree — each says the behaviour instead", () => {
  const files = sourceFiles();
  assert.ok(
    files.includes("native/core/qt.h") && files.includes("extension/index.ts") && files.includes("tests/comments.test.mjs"),
    "the walk reaches the sources",
  );
  const found = files.flatMap((file) => citations(file, readFileSync(join(root, file), "utf8")));
  assert.deepEqual(found, [], `say what the code protects instead of where it was asked for:\n${found.join("\n")}`);
});

/** The first comment of a C file (up to its first "*\/"). */
const firstComment = (text) => text.slice(0, text.indexOf("*/") + 2);

function cFiles(dir) {
  const out = [];
  for (const name of readdirSync(join(root, dir))) {
    const rel = `${dir}/${name}`;
    if (SKIP.some((rx) => rx.test(rel))) continue;
    if (statSync(join(root, rel)).isDirectory()) out.push(...cFiles(rel));
    else if (/\.[ch]$/.test(name)) out.push(rel);
  }
  return out;
}

test("limits: every QT_MAX_* and every *_BYTES bound is defined in qt_limits.h, or named there with the file that keeps it", () => {
  const limitsFile = "native/core/qt_limits.h";
  const header = readFileSync(join(root, limitsFile), "utf8");
  const named = firstComment(header);
  const stray = [];
  for (const file of cFiles("native")) {
    if (file === limitsFile) continue;
    readFileSync(join(root, file), "utf8")
      .split("\n")
      .forEach((line, i) => {
        // a #define, or a member of an enum used as a constant
        for (const m of line.matchAll(/(?:#define\s+|\benum\s*\{[^}]*?\b|,\s*)((?:QT_MAX_\w+)|(?:\w+_BYTES))\b(?:\s*=|\s+[(\d])/g)) {
          const name = m[1];
          if (!named.includes(name)) stray.push(`${file}:${i + 1}: ${name}`);
        }
      });
  }
  assert.deepEqual(
    stray,
    [],
    `a bound outside ${limitsFile}: move it there, or name it and its file in that file's first comment:\n${stray.join("\n")}`,
  );
});

test("limits: the addon exports the note and filter caps, keys per action and the notification's lengths as qt_limits.h sets them", () => {
  const header = readFileSync(join(root, "native/core/qt_limits.h"), "utf8");
  const value = (name) => {
    const m = header.match(new RegExp(`#define ${name} (\\d+)\\n`));
    assert.ok(m, `qt_limits.h defines ${name} as a number`);
    return Number(m[1]);
  };
  const exported = {
    noteBytes: "QT_MAX_NOTE_BYTES",
    filterBytes: "QT_MAX_FILTER_BYTES",
    keysPerAction: "QT_MAX_KEYS",
    noticeTitleBytes: "QT_NOTICE_TITLE_BYTES",
    noticeBodyBytes: "QT_NOTICE_BODY_BYTES",
  };
  for (const [js, c] of Object.entries(exported)) assert.equal(addon.limits[js], value(c), `addon.limits.${js} is ${c}`);
  // and they are what the engine enforces: a note takes no more than noteBytes
  const e = addon.createEngine(JSON.stringify({ questions: [{ id: "a", prompt: "Which?", options: ["x", "y"] }] }));
  try {
    e.feed("\x0e"); // Ctrl+N: the note
    e.feed(`\x1b[200~${"n".repeat(addon.limits.noteBytes + 50)}\x1b[201~`); // pasted, past the cap
    e.feed("\r");
    e.feed("1");
    assert.equal(e.outcome, "answered");
    const r = e.result("interactive");
    const details = typeof r.details === "string" ? JSON.parse(r.details) : r.details;
    assert.equal(details.answers[0].note, "n".repeat(addon.limits.noteBytes));
  } finally {
    e.dispose();
  }
});
