// shim-ui.test.mjs — the pi-tui adapter driven through the real tool with a fake TUI context:
// keys from the user's pi keybindings, theme styles, the working message and title notice,
// one question at a time, and interruption by the agent's abort signal.
import "./helpers/own-home.mjs"; // never the real ~/.pi/agent (remembered answers)
import assert from "node:assert/strict";
import { test } from "node:test";
import { importPiTui } from "./helpers/pi-line.mjs";
import { loadExtension } from "./helpers/fake-pi.mjs";

// pi-tui of the pi line under test (PI_LINE; tests/helpers/pi-line.mjs).
const { CURSOR_MARKER, visibleWidth } = await importPiTui();

const { tools } = await loadExtension();
const tool = tools.get("question");
// Zero-width styles like a real theme's; each colour gets its own recognizable SGR code.
const CODES = { accent: 31, muted: 32, dim: 33, success: 34, warning: 35, error: 36, border: 37 };
const theme = {
  fg: (c, s) => `\u001b[${CODES[c] ?? 39}m${s}\u001b[39m`,
  bold: (s) => `\u001b[1m${s}\u001b[22m`,
  inverse: (s) => `\u001b[7m${s}\u001b[27m`,
  italic: (s) => s,
};

/** A TUI context whose custom() hands the component to `drive` (after pi's own set-up). */
function tuiContext(drive, keys = {}) {
  const log = [];
  let open = 0,
    maxOpen = 0;
  const ctx = {
    hasUI: true,
    cwd: "/nonexistent",
    sessionManager: { getBranch: () => [] },
    isIdle: () => true,
    ui: {
      setWorkingMessage: (m) => log.push(["working", m]),
      setTitle: (t) => log.push(["title", t]),
      notify: (m) => log.push(["notify", m]),
      custom: (factory) =>
        new Promise((resolve) => {
          open++;
          maxOpen = Math.max(maxOpen, open);
          const kb = { getKeys: (id) => keys[id] ?? [] };
          const component = factory({ requestRender: () => {} }, theme, kb, (v) => {
            open--;
            resolve(v);
          });
          component.focused = true;
          queueMicrotask(() => drive(component));
        }),
    },
  };
  return { ctx, log, maxOpen: () => maxOpen };
}

const ARGS = tool.prepareArguments({ questions: [{ id: "db", prompt: "Which?", options: ["A", "B", "C"] }] });

test("tui: the user's pi keybindings drive the list (tui.select.down rebound to ctrl+o)", async () => {
  const { ctx } = tuiContext(
    (c) => {
      c.handleInput("\u000f"); // ctrl+o
      c.handleInput("\r");
    },
    { "tui.select.down": ["ctrl+o"] },
  );
  const r = await tool.execute("1", ARGS, undefined, undefined, ctx);
  assert.equal(r.content[0].text, "db: user selected: 2. B");
});

test("tui: each question takes pi's keybindings and theme as they are now (set once, copied into each question's engine)", async () => {
  const ask = async (keys, look, drive) => {
    const { ctx } = tuiContext(drive, keys);
    ctx.ui.custom = (
      (orig) => (factory) =>
        orig((tui, _t, kb, done) => factory(tui, look, kb, done))
    )(ctx.ui.custom);
    return (await tool.execute("1", ARGS, undefined, undefined, ctx)).content[0].text;
  };
  const magenta = { ...theme, fg: (c, s) => (c === "accent" ? `\u001b[95m${s}\u001b[39m` : theme.fg(c, s)) };
  const seen = [];
  const answer =
    (...keys) =>
    (c) => {
      seen.push(c.render(60).join("\n"));
      for (const k of keys) c.handleInput(k);
    };
  // ctrl+o moves down, in the theme's red accent
  assert.equal(await ask({ "tui.select.down": ["ctrl+o"] }, theme, answer("\u000f", "\r")), "db: user selected: 2. B");
  assert.ok(seen[0].includes("\u001b[31m") && !seen[0].includes("\u001b[95m"), "the first theme's accent");
  // no keybinding for it any more: ctrl+o does nothing and ↓ moves again; the new theme's accent
  assert.equal(await ask({}, magenta, answer("\u000f", "\u001b[B", "\u001b[B", "\r")), "db: user selected: 3. C");
  assert.ok(seen[1].includes("\u001b[95m") && !seen[1].includes("\u001b[31m"), "the second theme's accent");
  // rebound again, to another key; the first theme back
  assert.equal(await ask({ "tui.select.down": ["j"] }, theme, answer("\u001b[B", "j", "\r")), "db: user selected: 2. B");
  assert.ok(seen[2].includes("\u001b[31m") && !seen[2].includes("\u001b[95m"), "the first theme's accent again");
});

test("tui: a theme style that would take columns falls back to plain text instead of failing", async () => {
  const odd = { ...theme, fg: (c, s) => `<${c}>${s}` };
  const { ctx } = tuiContext((c) => {
    for (const line of c.render(40)) assert.ok(!line.includes("<accent>"), line);
    c.handleInput("\r");
  });
  ctx.ui.custom = (
    (orig) => (factory) =>
      orig((tui, _t, kb, done) => factory(tui, odd, kb, done))
  )(ctx.ui.custom);
  const r = await tool.execute("1", ARGS, undefined, undefined, ctx);
  assert.equal(r.details.status, "answered");
});

test("tui: styles come from pi's theme and the cursor marker appears only while typing", async () => {
  let frames = [];
  const { ctx } = tuiContext((c) => {
    frames.push(c.render(60));
    c.handleInput("0");
    frames.push(c.render(60));
    c.handleInput("\u001b");
    c.handleInput("1");
  });
  await tool.execute("1", ARGS, undefined, undefined, ctx);
  assert.ok(
    frames[0].some((l) => l.includes("\u001b[31m")),
    "the accent colour of the theme is used",
  );
  assert.ok(!frames[0].some((l) => l.includes(CURSOR_MARKER)));
  assert.ok(
    frames[1].some((l) => l.includes(CURSOR_MARKER)),
    "text entry shows pi's cursor marker",
  );
});

test("tui: the working message and the terminal title tell the user the agent waits, then are restored", async () => {
  const { ctx, log } = tuiContext((c) => c.handleInput("\r"));
  await tool.execute("1", ARGS, undefined, undefined, ctx);
  assert.deepEqual(log[0], ["title", "π ❓ Which?"]);
  assert.equal(log[1][0], "working");
  assert.match(log[1][1], /Waiting for your answer/);
  assert.deepEqual(log.at(-2), ["working", undefined]);
  assert.deepEqual(log.at(-1), ["title", "π - nonexistent"]);
});

test("tui: two calls never show two questions at once; the second waits its turn", async () => {
  const { ctx, maxOpen } = tuiContext((c) => setTimeout(() => c.handleInput("\r"), 20));
  const [a, b] = await Promise.all([
    tool.execute("1", ARGS, undefined, undefined, ctx),
    tool.execute("2", ARGS, undefined, undefined, ctx),
  ]);
  assert.equal(maxOpen(), 1);
  assert.equal(a.details.status, "answered");
  assert.equal(b.details.status, "answered");
});

test("tui: the agent's abort closes the question at once with status interrupted", async () => {
  const controller = new AbortController();
  const { ctx } = tuiContext(() => setTimeout(() => controller.abort(), 10));
  const r = await tool.execute("1", ARGS, controller.signal, undefined, ctx);
  assert.equal(r.details.status, "interrupted");
  assert.match(r.content[0].text, /interrupted before the user answered/);
  assert.equal(r.terminate, undefined);
});

test("tui: Esc cancels and ends the turn (terminate)", async () => {
  const { ctx } = tuiContext((c) => c.handleInput("\u001b"));
  const r = await tool.execute("1", ARGS, undefined, undefined, ctx);
  assert.equal(r.details.status, "cancelled");
  assert.equal(r.terminate, true);
});

test("tui: Ctrl+D declines and the agent continues", async () => {
  const { ctx } = tuiContext((c) => c.handleInput("\u0004"));
  const r = await tool.execute("1", ARGS, undefined, undefined, ctx);
  assert.equal(r.details.status, "declined");
  assert.equal(r.terminate, undefined);
  assert.match(r.content[0].text, /state the assumptions/);
});

test("tui: rendered lines never exceed the width pi passes", async () => {
  const big = tool.prepareArguments({
    questions: [{ id: "x", prompt: "日本語".repeat(50), options: Array.from({ length: 30 }, (_, i) => `选项 ${i} 👨‍👩‍👧`) }],
  });
  const { ctx } = tuiContext((c) => {
    for (let w = 1; w <= 120; w++) for (const line of c.render(w)) assert.ok(visibleWidth(line) <= w, `${w}: ${line}`);
    c.handleInput("\u001b");
  });
  await tool.execute("1", big, undefined, undefined, ctx);
});

test("tui: the adapter measures like this pi-tui: Indic text fills lines without overflowing or being cut", async () => {
  const word = "क्षत्रिय"; // a conjunct and a spacing vowel sign: 1 column by pi-tui 0.73.1, 5 by 0.87.1
  const args = tool.prepareArguments({
    questions: [{ id: "x", prompt: `${word} विद्यार्थी `.repeat(30), options: ["বাংলা ভাষা", "မြန်မာစာ"] }],
  });
  const bad = [];
  const { ctx } = tuiContext((c) => {
    for (let w = 30; w <= 120; w++) {
      const lines = c.render(w);
      for (const line of lines) if (visibleWidth(line) > w) bad.push(`${w}: ${visibleWidth(line)} columns: ${line}`);
      // The adapter cuts a line pi-tui measures wider than the width: nothing may have been cut.
      const text = lines.join("\n").replace(/\u001b\[[0-9;]*m/g, "");
      const found = text.split(word).length - 1;
      if (found !== 30) bad.push(`${w}: ${found} of 30 "${word}" left:\n${text}`);
    }
    c.handleInput("\u001b");
  });
  await tool.execute("1", args, undefined, undefined, ctx);
  assert.deepEqual(bad.slice(0, 3), []);
});

test("tui: an emoji typed as two UTF-16 halves (as pi-tui delivers it) arrives whole", async () => {
  const free = tool.prepareArguments({ questions: [{ id: "note", prompt: "Say it" }] });
  const { ctx } = tuiContext((c) => {
    for (const unit of "ok 🙂👍 done".split("")) c.handleInput(unit);
    c.handleInput("\r");
  });
  const r = await tool.execute("1", free, undefined, undefined, ctx);
  assert.equal(r.content[0].text, "note: user wrote: ok 🙂👍 done");
});

test("tui: a call whose short-hand options expand past 100 KB once prepared still works", async () => {
  // options without a value (the AskUserQuestion shape): the canonical form spells each value out
  const options = Array.from({ length: 450 }, (_, i) => ({ label: `An option with a long enough label ${i}`, description: "d" }));
  const raw = { questions: Array.from({ length: 3 }, (_, q) => ({ id: `q${q}`, prompt: "Pick", options })) };
  assert.ok(JSON.stringify(raw).length < 100000, "the call as sent is within the argument limit");
  const prepared = tool.prepareArguments(raw);
  assert.ok(JSON.stringify(prepared).length > 100000, "the prepared form is longer than the argument limit");
  const { ctx } = tuiContext((c) => c.handleInput("\u0004"));
  const r = await tool.execute("1", prepared, undefined, undefined, ctx);
  assert.equal(r.details.status, "declined");
});

test("tui: rendering after the question ended shows the last frame instead of touching the freed engine", async () => {
  let view;
  const { ctx } = tuiContext((c) => {
    view = c;
    c.render(60);
    c.handleInput("\r");
  });
  await tool.execute("1", ARGS, undefined, undefined, ctx);
  assert.ok(view.render(60).length > 0);
  assert.ok(view.render(10).every((l) => visibleWidth(l) <= 10));
  view.handleInput("x"); // ignored
  view.invalidate();
});

// ---- the question fits the screen, talk first ------------------------------------------------------
test("tui: the frame fits the terminal's rows less what pi draws below it (the footer)", async () => {
  const prompt = `FIRST ${"a long prompt ".repeat(200)}END`;
  const args = tool.prepareArguments({ questions: [{ id: "db", prompt, options: ["A", "B", "C"] }] });
  const frames = [];
  const ctx = {
    hasUI: true,
    cwd: "/nonexistent",
    sessionManager: { getBranch: () => [] },
    isIdle: () => true,
    ui: {
      setWorkingMessage: () => {},
      setTitle: () => {},
      notify: () => {},
      custom: (factory) =>
        new Promise((resolve) => {
          const tui = { requestRender: () => {}, terminal: { rows: 20 }, children: [] };
          const component = factory(tui, theme, { getKeys: () => [] }, resolve);
          tui.children.push(
            { render: () => ["chat"] },
            { children: [component], render: () => [] },
            { render: () => ["footer 1", "footer 2", "footer 3"] },
          );
          queueMicrotask(() => {
            frames.push(component.render(80));
            tui.terminal.rows = 12;
            frames.push(component.render(80));
            component.handleInput("\u001b[6~"); // PageDown reads the cut prompt
            frames.push(component.render(80));
            component.handleInput("\r");
          });
        }),
    },
  };
  const r = await tool.execute("1", args, undefined, undefined, ctx);
  assert.equal(r.content[0].text, "db: user selected: 1. A");
  assert.equal(frames[0].length, 17, "20 rows less 3 of footer");
  assert.ok(frames[1].length <= 9, `${frames[1].length} lines for 12 rows less 3`);
  assert.match(frames[0].join("\n"), /FIRST a long prompt/);
  assert.match(frames[0].join("\n"), /PgUp\/PgDn read the question/);
  assert.doesNotMatch(frames[2].join("\n"), /FIRST a long prompt/);
});

test("tui: Ctrl+T and Enter end with status discuss; the agent continues (no terminate)", async () => {
  const { ctx } = tuiContext((c) => {
    c.handleInput("\u0014"); // ctrl+t
    for (const ch of "first, a question") c.handleInput(ch);
    c.handleInput("\r");
  });
  const r = await tool.execute("1", ARGS, undefined, undefined, ctx);
  assert.equal(r.details.status, "discuss");
  assert.equal(r.details.discussion, "first, a question");
  assert.equal(r.terminate, undefined);
  assert.match(r.content[0].text, /wrote to you:\n  first, a question\n/);
});
