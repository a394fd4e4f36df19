// docs.test.mjs — the README and docs/ say what the code does: the README stays short, every
// relative link (and its anchor) resolves, the `mode` values listed are the ones the code
// produces, the limits tables carry the addon's own numbers, the CI table names every step of
// .ci/run, the README's example is what the answer model writes, and the package ships docs/.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { test } from "node:test";
import { addon, root } from "./helpers/addon.mjs";

const read = (...p) => readFileSync(join(root, ...p), "utf8");
const DOCS = readdirSync(join(root, "docs"))
  .filter((f) => f.endsWith(".md"))
  .map((f) => join("docs", f));
const PAGES = ["README.md", ...DOCS];

/** Files under dir (relative to the repository) whose names end in one of exts, recursively. */
function sources(dir, exts) {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && exts.some((x) => e.name.endsWith(x)))
    .map((e) =>
      relative(root, join(e.parentPath ?? e.path, e.name))
        .split(sep)
        .join("/"),
    );
}

/** Markdown without fenced code blocks and inline code spans (links there are not links). */
function prose(md) {
  return md.replace(/^```[^]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchors(md) {
  const seen = new Map();
  const out = new Set();
  for (const m of md.replace(/^```[^]*?^```/gm, "").matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** Rows of the first Markdown table after `after` in md, as arrays of trimmed cells. */
function tableAfter(md, after) {
  const at = md.indexOf(after);
  assert.ok(at >= 0, `no "${after}"`);
  const lines = md.slice(at).split("\n");
  const start = lines.findIndex((l) => l.startsWith("|"));
  const rows = [];
  for (const l of lines.slice(start + 2)) {
    if (!l.startsWith("|")) break;
    rows.push(
      l
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  }
  return rows;
}

test("docs: the README is at most 300 lines", () => {
  const lines = read("README.md").split("\n").length - 1;
  assert.ok(lines <= 300, `README.md has ${lines} lines; move detail to docs/`);
});

test("docs: every relative link in README.md and docs/*.md names a file that exists, and a heading there", () => {
  const problems = [];
  let checked = 0;
  for (const page of PAGES) {
    for (const m of prose(read(page)).matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1];
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:
      const [path, anchor] = target.split("#");
      const file = path ? resolve(root, dirname(page), path) : join(root, page);
      checked++;
      if (!file.startsWith(root) || !existsSync(file)) {
        problems.push(`${page}: ${target}: no such file`);
        continue;
      }
      if (anchor !== undefined && statSync(file).isFile() && file.endsWith(".md") && !anchors(readFileSync(file, "utf8")).has(anchor)) {
        problems.push(`${page}: ${target}: no heading #${anchor} in ${relative(root, file)}`);
      }
    }
  }
  assert.deepEqual(problems, []);
  assert.ok(checked > 20, `only ${checked} links found: the scan is broken`);
  // The checks catch what they look for.
  assert.equal(slug("What is built, what is run, and where"), "what-is-built-what-is-run-and-where");
  assert.deepEqual([...anchors("# A\n```\n# not\n```\n## B: `c`\n## B: c\n")], ["a", "b-c", "b-c-1"]);
  assert.deepEqual(
    [...prose("[a](x.md) `[b](y.md)`\n```\n[c](z.md)\n```\n").matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]),
    ["x.md"],
  );
});

test("docs: the README links every docs/ file", () => {
  const links = new Set([...prose(read("README.md")).matchAll(/\]\((docs\/[^)#\s]+)/g)].map((m) => m[1]));
  assert.deepEqual(
    DOCS.map((d) => d.split(sep).join("/")).filter((d) => !links.has(d)),
    [],
    "docs/ files the README's More list does not link",
  );
});

// ---- `details.mode` -------------------------------------------------------------------------

/** Every `mode` the code can put into `details`, read from the calls that build a result. */
function modesInCode() {
  const found = new Map();
  const add = (mode, where) => found.set(mode, [...(found.get(mode) ?? []), where]);
  for (const f of [...sources("extension", [".ts", ".mjs", ".cjs"]), ...sources("bin", [".mjs", ".js"])]) {
    // Comments left out: they name pi's own modes ("tui") and other words.
    const src = read(f)
      .replace(/\/\*[^]*?\*\//g, "")
      .replace(/(^|[^:])\/\/.*$/gm, "$1");
    const patterns = [
      /\.result\(\s*"(\w+)"/g, // engine.result(mode, …)
      /\.result\(\s*[^,()]+,\s*[^,()]+,\s*"(\w+)"/g, // native.result(json, outcome, mode, …)
      /\bmode\s*[:=]\s*"(\w+)"/g, // runTty(…, { mode: … }), a default parameter
      /answerFromElsewhere\([^)]*?"(\w+)"/g, // the mode of an answer from elsewhere
    ];
    for (const re of patterns) for (const m of src.matchAll(re)) add(m[1], f);
    for (const m of src.matchAll(/type \w*Mode\s*=\s*((?:"\w+"\s*\|?\s*)+);/g)) for (const v of m[1].matchAll(/"(\w+)"/g)) add(v[1], f);
  }
  // The terminal runner's default when its caller names none (native: `mode ? mode : "tty"`).
  // result.c's own fallback ("unknown") is left out: the addon's result() requires a mode string.
  for (const f of sources("native", [".c"])) {
    for (const m of read(f).matchAll(/mode \? mode : "(\w+)"/g)) if (m[1] !== "unknown") add(m[1], f);
  }
  return found;
}

test("docs: the `mode` values docs/tool-contract.md lists are exactly those the code produces", () => {
  const code = modesInCode();
  for (const m of ["interactive", "rpc", "tty", "print", "relay"])
    assert.ok(code.has(m), `the scan no longer finds "${m}": ${[...code.keys()]}`);
  const listed = tableAfter(read("docs", "tool-contract.md"), "| `mode` | where |").map((r) => r[0].match(/^`(\w+)`$/)?.[1]);
  assert.ok(!listed.includes(undefined), "each row of the mode table starts with one `value`");
  assert.deepEqual([...new Set(listed)].sort(), [...code.keys()].sort(), `the code: ${JSON.stringify(Object.fromEntries(code))}`);
});

// ---- limits ---------------------------------------------------------------------------------

/** QT_ constant → value: the addon's exported `limits` (through the binding's name table), and
 * plain numeric #defines of the native headers for limits the addon does not export. */
function limitConstants() {
  const exported = new Map();
  for (const f of sources("native", [".c"])) {
    for (const m of read(f).matchAll(/\{\s*"(\w+)",\s*(QT_\w+)\s*\}/g)) if (m[1] in addon.limits) exported.set(m[2], addon.limits[m[1]]);
  }
  const all = new Map();
  for (const f of sources("native", [".h"])) {
    if (f.startsWith("native/fuzz/")) continue;
    for (const m of read(f).matchAll(/^#define (QT_\w+) (\d+)\s*$/gm)) all.set(m[1], Number(m[2]));
  }
  for (const [k, v] of exported) all.set(k, v);
  return { exported, all };
}

/** How a docs table may write a limit: 100,000 · 61 MB · 4 KB · 2 s · 50 ms. */
function written(name, v) {
  const out = [v.toLocaleString("en-US")];
  if (v >= 1e6) out.push(`${Math.round(v / 1e6)} MB`);
  if (v >= 1024 && v % 1024 === 0) out.push(`${v / 1024} KB`);
  if (v >= 1048576 && v % 1048576 === 0) out.push(`${v / 1048576} MB`);
  if (/_MS$/.test(name)) out.push(`${v} ms`, ...(v % 1000 === 0 ? [`${v / 1000} s`] : []));
  return out;
}
const says = (text, name, v) =>
  written(name, v).some((w) => new RegExp(`(?<![\\d.,])${w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![.,]?\\d)`).test(text));

// The limits a person meets, and the README Limits row that states each.
const README_ROWS = {
  QT_MAX_ARGUMENT_BYTES: "arguments",
  QT_MAX_JSON_DEPTH: "arguments",
  QT_MAX_QUESTIONS: "questions per call",
  QT_MAX_OPTIONS: "options per question",
  QT_MAX_ID_BYTES: "id",
  QT_MAX_LABEL_BYTES: "label (tab title)",
  QT_TAB_LABEL_COLUMNS: "label (tab title)",
  QT_MAX_PROMPT_BYTES: "prompt",
  QT_MAX_OPTION_LABEL_BYTES: "option label / value",
  QT_MAX_OPTION_VALUE_BYTES: "option label / value",
  QT_MAX_DESCRIPTION_BYTES: "description",
  QT_MAX_PREVIEW_BYTES: "preview",
  QT_MAX_METADATA_SOURCE_BYTES: "`metadata.source`",
  QT_MAX_ANSWER_BYTES: "a pre-supplied or typed answer",
  QT_SOFT_ANSWER_CHARS: "a pre-supplied or typed answer",
  QT_MAX_NOTE_BYTES: "a note (Ctrl+N)",
  QT_MAX_FILTER_BYTES: "the filter (`/`)",
  QT_MAX_DISCUSS_BYTES: "what you write with Ctrl+T (talk first)",
  QT_MAX_RESULT_TEXT_BYTES: "the model's result text",
  QT_MAX_ASKER_BYTES: "who asks (a subagent's name or directory)",
  QT_RELAY_MAX_WAITING: "relayed questions waiting at once",
  QT_WEB_MAX_EVENT_STREAMS: "web page: live pages at once",
  QT_NOTICE_TITLE_BYTES: "notices (`notice.desktop`, `notice.command`)",
  QT_NOTICE_BODY_BYTES: "notices (`notice.desktop`, `notice.command`)",
  QT_NOTICE_COMMAND_MS: "notices (`notice.desktop`, `notice.command`)",
  QT_NOTICE_COMMAND_PROMPT_CHARS: "notices (`notice.desktop`, `notice.command`)",
  QT_NOTICE_COMMAND_WORDS: "notices (`notice.desktop`, `notice.command`)",
  QT_NOTICE_COMMAND_WORD_BYTES: "notices (`notice.desktop`, `notice.command`)",
  QT_MAX_KEYS: "keys bound to one action in your keybindings",
  QT_SETTINGS_FILE_BYTES: "a project's `.pi/question.json` / `.pi/pending-questions.json`",
  QT_PENDING_FILE_BYTES: "a project's `.pi/question.json` / `.pi/pending-questions.json`",
};
// Exported limits only a client, a script or an attacker meets: docs/ states them, not the README.
const DOCS_ONLY = [
  "QT_MEMORY_FILE_BYTES",
  "QT_MEMORY_COMPACT_SLACK",
  "QT_PEER_ENVIRON_BYTES",
  "QT_MAX_PREPARED_BYTES",
  "QT_MAX_ANSWERS_JSON_BYTES",
  "QT_MAX_ANSWERS_JSON_VALUES",
  "QT_MAX_RELAY_MESSAGE_BYTES",
  "QT_WEB_MAX_BODY_BYTES",
  "QT_WEB_UNVERIFIED_BODY_BYTES",
  "QT_WEB_RATE_BURST",
  "QT_WEB_RATE_PER_MINUTE",
  "QT_WEB_TOKEN_BYTES",
  "QT_WEB_STREAM_BACKLOG_BYTES",
  "QT_WEB_MAX_CONNECTIONS",
  "QT_WEB_IDLE_MS",
  "QT_ENDED_REMEMBERED",
  "QT_REMOTE_CONNECT_MS",
  "QT_REMOTE_REPLY_MS",
  "QT_PENDING_LOCK_RETRY_MS",
  "QT_PENDING_LOCK_GIVE_UP_MS",
  "QT_RELAY_UNVERIFIED_BYTES",
  "QT_RELAY_UNVERIFIED_MS",
  "QT_RELAY_MAX_UNVERIFIED",
  "QT_RELAY_MAX_CONNECTIONS",
  "QT_RELAY_ASK_MESSAGE_BYTES",
  "QT_RELAY_MAX_ASK_CONNECTIONS",
  "QT_RELAY_ASK_HELD_BYTES",
  "QT_RELAY_HELD_BYTES",
  "QT_RELAY_LINE_MS",
  "QT_MAX_ANSWER_SOURCE_BYTES",
  "QT_PEER_ANCESTORS_MAX",
  "QT_PEER_COMMAND_LINE_BYTES",
  "QT_PIPE_BUSY_WAIT_MS",
];

test("docs: every limit the addon exports is either in the README's Limits table or said to be for docs/ only", () => {
  const { exported } = limitConstants();
  assert.ok(exported.size >= 40, `only ${exported.size} exported limits found: the scan of the binding's table is broken`);
  const unplaced = [...exported.keys()].filter((k) => !(k in README_ROWS) && !DOCS_ONLY.includes(k));
  assert.deepEqual(
    unplaced,
    [],
    "new limits: add a README Limits row when a person meets it, else list it in DOCS_ONLY (and docs/tool-contract.md)",
  );
});

test("docs: the README's Limits table states each limit a person meets, with the addon's value", () => {
  const { all } = limitConstants();
  const rows = new Map(tableAfter(read("README.md"), "## Limits").map((r) => [r[0], r[1]]));
  for (const [name, label] of Object.entries(README_ROWS)) {
    assert.ok(all.has(name), `${name}: no such limit in native/ (renamed?)`);
    assert.ok(rows.has(label), `README's Limits has no row "${label}" (for ${name})`);
    assert.ok(
      says(rows.get(label), name, all.get(name)),
      `README's Limits row "${label}" says "${rows.get(label)}"; ${name} is ${all.get(name)}`,
    );
  }
  // The note and filter caps are limits a person meets, wherever the core keeps them.
  for (const name of ["QT_MAX_NOTE_BYTES", "QT_MAX_FILTER_BYTES"]) assert.ok(name in README_ROWS && all.has(name), name);
  // The value check fails on a wrong number.
  assert.equal(says("20,000 bytes", "QT_X", 2000), false);
  assert.equal(says("2,000 bytes", "QT_X", 2000), true);
  assert.equal(says("2,000, then", "QT_X", 2000), true);
  assert.equal(says("2,000,000", "QT_X", 2000), false);
  assert.equal(says("derived: 61 MB", "QT_X", 61022400), true);
  assert.equal(says("waits at most 5 s", "QT_X_MS", 5000), true);
});

test("docs: docs/tool-contract.md's full Limits table has every limit with its value, the relay's in docs/subagents.md", () => {
  const { exported, all } = limitConstants();
  const rows = tableAfter(read("docs", "tool-contract.md"), "| what | limit | constant |");
  const stated = new Map();
  for (const [, limit, constants] of rows) for (const m of constants.matchAll(/`(QT_\w+)`/g)) stated.set(m[1], limit);
  const relay = read("docs", "subagents.md");
  const names = new Set([...exported.keys(), ...Object.keys(README_ROWS)]);
  for (const name of names) {
    if (stated.has(name)) {
      assert.ok(
        says(stated.get(name), name, all.get(name)),
        `docs/tool-contract.md: ${name} is ${all.get(name)}; its row says "${stated.get(name)}"`,
      );
    } else {
      assert.ok(
        /^QT_RELAY_/.test(name) && relay.includes(`\`${name}\``),
        `${name} is in neither docs/tool-contract.md's Limits table nor (a relay limit) docs/subagents.md`,
      );
    }
  }
  for (const name of stated.keys()) assert.ok(all.has(name), `docs/tool-contract.md names ${name}, which native/ does not define`);
  // "Every limit is a constant of the C core in native/core/qt_limits.h".
  const header = sources("native", [".h"]).find((f) => f.endsWith("/qt_limits.h"));
  const defined = new Set([...read(header).matchAll(/^#define (QT_\w+)\b/gm)].map((m) => m[1]));
  assert.deepEqual(
    [...stated.keys()].filter((name) => !defined.has(name)),
    [],
    `docs/tool-contract.md says every limit is in ${header}`,
  );
});

// ---- CI ---------------------------------------------------------------------------------------

test("docs: docs/testing.md's CI table has one row per step of .ci/run, with its command", () => {
  const steps = read(".ci", "run")
    .split("\n")
    .filter((l) => l.startsWith("step "))
    .map((l) => {
      const [, name, command] = l.match(/^step (\S+) (.*)$/);
      return { name, command: command.replace(/^env /, "").replace(/FUZZ_SECONDS="\$\{FUZZ_SECONDS:-60\}" /, "") };
    });
  assert.ok(steps.length > 5);
  const rows = tableAfter(read("docs", "testing.md"), "| step | command |");
  assert.deepEqual(
    rows.map((r) => r[0]),
    steps.map((s) => s.name),
    "docs/testing.md's CI table, in .ci/run's order",
  );
  for (const [i, s] of steps.entries()) assert.equal(rows[i][1], `\`${s.command}\``, `step ${s.name}`);
});

// ---- the README's example ---------------------------------------------------------------------

test("docs: the README's tool call gives, with the answers its sentence describes, the text the README shows", () => {
  const readme = read("README.md");
  const section = readme.slice(readme.indexOf("## The tool contract"));
  const call = section.match(/```json\n([^]*?)```/)[1];
  const text = section.match(/```json\n[^]*?```\s*```\n([^]*?)```/)[1];
  // "the user picks SQLite, ticks Auth and Admin and types "audit log", and types a name"
  const answers = {
    db: { selected: ["lite"] },
    features: { selected: ["Auth", "Admin"], wrote: "audit log" },
    name: { selected: [], wrote: "order-processor" },
  };
  const r = addon.result(addon.normalize(call), "answered", "interactive", 0, null, JSON.stringify(answers));
  assert.equal(r.text + "\n", text);
});

// ---- the package ------------------------------------------------------------------------------

test("docs: the npm package ships every docs/ file the README links", () => {
  const r = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, encoding: "utf8", timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  const files = new Set(JSON.parse(r.stdout)[0].files.map((f) => f.path));
  assert.ok(files.has("README.md"));
  const missing = DOCS.map((d) => d.split(sep).join("/")).filter((d) => !files.has(d));
  assert.deepEqual(missing, [], 'package.json "files" leaves out docs/ the README links');
});

test("docs: the event-bus example in the README is examples/recommended-autopilot.ts (the file the e2e test loads), less its first comment", () => {
  const readme = read("README.md");
  const shown = /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf("### Answers from other extensions")))?.[1];
  assert.ok(shown, "the example is in the README");
  const file = readFileSync(join(root, "examples", "recommended-autopilot.ts"), "utf8").replace(/^(\/\/.*\n)+/, "");
  assert.equal(shown, file);
  assert.ok(file.split("\n").length <= 20, "about 20 lines");
});

test("docs: the README compares the new features with Claude Code, Codex and OpenCode in one table", () => {
  const rows = tableAfter(read("README.md"), "## Past the other agents");
  const head = read("README.md")
    .slice(read("README.md").indexOf("## Past the other agents"))
    .split("\n")
    .find((l) => l.startsWith("| |"));
  for (const peer of ["pi-question", "Claude Code", "Codex", "OpenCode"]) assert.match(head, new RegExp(peer));
  const features = rows.map((r) => r[0]);
  for (const f of ["ask and keep working", "never asked twice", "answers from other programs", "several sessions at once"])
    assert.ok(features.includes(f), `a row "${f}" (rows: ${features.join(", ")})`);
  for (const r of rows) assert.equal(r.length, 5, `every row says something for each: ${r.join(" | ")}`);
});
