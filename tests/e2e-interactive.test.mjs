// e2e-interactive.test.mjs — the real pi in interactive mode, in tmux, with a scripted model that
// makes it call `question`: a person's keys go in through the terminal, and each test asserts on
// what the screen shows and on the exact tool result the model reads in its next request (and,
// from the saved session, on the result's `details`).
//
// Covered: the eight manual checks of question-tool-design.md "Testing Strategy" — except the
// eighth, non-interactive mode, which has no terminal by definition and is covered by
// e2e-print.test.mjs and e2e-headless.test.mjs — plus multi-select, free text, a 50-option list
// with filtering, CJK and emoji at 40 columns, hostile escape sequences, decline and
// interruption.
//
// Interruption: in pi every key goes to the focused component, and while the question is open
// that is the question (Esc there is "cancel", not pi's `app.interrupt`, which only the editor
// handles). So no key of pi's own reaches the abort path while a question is open. What can
// abort the run then is another extension (ctx.abort()) — or RPC, which has no custom UI. The
// test loads a tiny extension that calls ctx.abort() on Ctrl+G through ctx.ui.onTerminalInput
// (input listeners run before the focused component), which drives pi's real abort: the tool's
// AbortSignal fires while the question is on screen.
import assert from "node:assert/strict";
import { test } from "node:test";
import { features, importPiTui, line } from "./helpers/pi-line.mjs";
import { framed, questionArea, withPi } from "./helpers/tmux.mjs";

/** pi-tui of the pi line under test, to measure what that pi draws. */
const { visibleWidth } = await importPiTui();

const DB = {
  id: "db",
  label: "Database",
  prompt: "Which database?",
  options: [
    { value: "pg", label: "PostgreSQL (Recommended)", description: "Battle-tested relational DB" },
    { value: "lite", label: "SQLite" },
  ],
};
const TARGET = { id: "target", label: "Target", prompt: "Deploy where?", options: ["staging", "prod"] };
const SIZE = { id: "size", label: "Size", prompt: "Instance size?", options: ["small", "large"] };

const DECLINED =
  "The user declined to answer and left the decision to you. Decide yourself, state the assumptions you made in your reply, and continue.";
const CANCELLED =
  "The user cancelled the question without answering. Do not guess an answer and do not continue the task: end your turn and wait for the user's next message.";
const INTERRUPTED =
  "The question was interrupted before the user answered (the run was aborted). Nothing was answered: do not assume an answer, and wait for the user before acting on anything this question was about.";

/** The model calls question with these arguments, then answers "thanks". */
const script = (args) => [{ toolCalls: [{ name: "question", arguments: args }] }, { text: "thanks" }];

/** Waits for the model's second request and returns the tool message it reads. */
async function toolResultText(pi) {
  await pi.model.waitForRequests(2);
  const tools = pi.model.toolMessages(1);
  assert.equal(tools.length, 1, JSON.stringify(pi.model.requests[1].messages));
  return tools[0].content;
}

/** Opens the question: prompt, then wait until the question's text is on screen. */
async function open(pi, pattern) {
  await pi.prompt("ask me");
  // The pattern inside the question's frame, between its rules: a capture can catch pi mid-draw,
  // with the text on screen but the frame's bottom rule (and so the help line above it) not yet.
  return pi.waitForScreen((s) => pattern.test(questionArea(s)));
}

/** After the question closes, no line of the editor area may still show the question. A frame
 * caught mid-draw, with one rule or none, has no area at all: it does not count as closed. */
async function waitClosed(pi, text) {
  return pi.waitForScreen((s) => framed(s) && !questionArea(s).includes(text));
}

// 1. ---------------------------------------------------------------------------------------------
test("interactive: one question, a predefined answer picked with ↓ Enter", async () => {
  await withPi({ replies: script({ questions: [DB] }) }, async (pi) => {
    const screen = await open(pi, /3\. Something else…/);
    const area = questionArea(screen);
    assert.match(area, /Which database\?/);
    assert.match(area, /> 1\. PostgreSQL \(Recommended\)/);
    assert.match(area, /Battle-tested relational DB/);
    assert.match(area, /  2\. SQLite/);
    assert.match(area, /Enter select/);
    assert.match(area, /Ctrl\+D let the agent decide/);
    assert.match(area, /Esc cancel/);
    if (features.workingIndicatorInEditor) {
      // pi draws its working indicator in the editor's frame, which the question replaces:
      // nothing may claim the agent is working meanwhile.
      assert.doesNotMatch(screen, /Working/, "no working indicator while the question is open");
    } else {
      assert.match(screen, /Waiting for your answer…/, "pi's working message says the agent waits on the user");
    }

    await pi.keys("Down");
    await pi.waitForScreen(/> 2\. SQLite/);
    await pi.keys("Enter");

    assert.equal(await toolResultText(pi), "db: user selected: 2. SQLite (value: lite)");
    const after = await pi.waitForScreen(/thanks/);
    assert.doesNotMatch(questionArea(after), /Something else…/);
    assert.match(after, /Database: SQLite/);
    assert.doesNotMatch(after, /Waiting for your answer/);

    const result = await pi.waitForQuestionResult();
    assert.equal(result.isError, false);
    assert.equal(result.details.status, "answered");
    assert.equal(result.details.mode, "interactive");
    assert.equal(result.details.cancelled, false);
    assert.deepEqual(result.details.answers, [{ id: "db", value: "lite", label: "SQLite", wasCustom: false, index: 2 }]);
  });
});

// 2. ---------------------------------------------------------------------------------------------
test("interactive: one question, a custom answer through Something else…", async () => {
  await withPi({ replies: script({ questions: [DB] }) }, async (pi) => {
    await open(pi, /3\. Something else…/);
    await pi.keys("Down", "Down");
    await pi.waitForScreen(/> 3\. Something else…/);
    await pi.keys("Enter");
    const entry = await pi.waitForScreen(/Enter submit/);
    assert.match(questionArea(entry), /Esc back to the options/);
    await pi.text("  DynamoDB ");
    await pi.waitForScreen(/DynamoDB/);
    assert.equal(pi.model.requests.length, 1, "typing does not submit");
    await pi.keys("Enter");

    assert.equal(await toolResultText(pi), "db: user wrote: DynamoDB");
    const after = await pi.waitForScreen(/thanks/);
    assert.match(after, /Database: DynamoDB \(wrote\)/);
    const result = await pi.waitForQuestionResult();
    assert.deepEqual(result.details.answers, [{ id: "db", value: "DynamoDB", label: "DynamoDB", wasCustom: true }]);
  });
});

// 3. ---------------------------------------------------------------------------------------------
test("interactive: Esc cancels — status cancelled, the turn ends, the model is not called again", async () => {
  await withPi({ replies: [...script({ questions: [DB] }).slice(0, 1), { text: "after the cancel" }] }, async (pi) => {
    await open(pi, /3\. Something else…/);
    await pi.keys("Escape");
    const after = await pi.waitForScreen(/Cancelled/);
    assert.doesNotMatch(questionArea(after), /Something else…/);

    const result = await pi.waitForQuestionResult();
    assert.equal(result.details.status, "cancelled");
    assert.equal(result.details.cancelled, true);
    assert.deepEqual(result.details.answers, []);
    assert.equal(result.content[0].text, CANCELLED);

    // The turn ended: pi's editor is back and the model got no request of its own. The next
    // request is the one the user's next message makes, and it carries the cancel.
    await pi.waitForScreen((s) => !/Working|Waiting for your answer/.test(s));
    assert.equal(pi.model.requests.length, 1, "the model was called again after a cancel");
    await pi.text("next");
    await pi.waitForScreen((s) => questionArea(s).includes("next"));
    await pi.keys("Enter");
    await pi.model.waitForRequests(2);
    const messages = pi.model.requests[1].messages;
    assert.equal(messages.at(-1).role, "user");
    assert.deepEqual(messages.at(-1).content, [{ type: "text", text: "next" }]);
    assert.equal(pi.model.toolMessages(1)[0].content, CANCELLED);
    await pi.waitForScreen(/after the cancel/);
  });
});

// 4. ---------------------------------------------------------------------------------------------
test("interactive: several questions, all predefined, through the review", async () => {
  await withPi({ replies: script({ questions: [DB, TARGET, SIZE] }) }, async (pi) => {
    let screen = await open(pi, /Which database\?/);
    assert.match(questionArea(screen), /■ Database\s+□ Target\s+□ Size\s+□ Review/);
    await pi.keys("Enter"); // PostgreSQL
    screen = await pi.waitForScreen(/Deploy where\?/);
    assert.match(questionArea(screen), /✓ Database\s+■ Target/);
    await pi.keys("Down", "Enter"); // prod
    await pi.waitForScreen(/Instance size\?/);
    await pi.keys("2"); // quick key: large
    screen = await pi.waitForScreen(/Review your answers/);
    const review = questionArea(screen);
    assert.match(review, /✓ Database: PostgreSQL \(Recommended\)/);
    assert.match(review, /✓ Target: prod/);
    assert.match(review, /✓ Size: large/);
    assert.equal(pi.model.requests.length, 1, "nothing is submitted before the review");
    await pi.keys("Enter");

    assert.equal(
      await toolResultText(pi),
      "db: user selected: 1. PostgreSQL (Recommended) (value: pg)\ntarget: user selected: 2. prod\nsize: user selected: 2. large",
    );
    const result = await pi.waitForQuestionResult();
    assert.equal(result.details.status, "answered");
    assert.deepEqual(
      result.details.answers.map((a) => [a.id, a.value, a.wasCustom]),
      [
        ["db", "pg", false],
        ["target", "prod", false],
        ["size", "large", false],
      ],
    );
  });
});

// 5. ---------------------------------------------------------------------------------------------
test("interactive: several questions, predefined and typed answers mixed", async () => {
  const NAME = { id: "name", label: "Name", prompt: "Service name?" };
  const REGION = { id: "region", label: "Region", prompt: "Which region?", options: ["us-east-1", "eu-west-1"] };
  await withPi({ replies: script({ questions: [DB, NAME, REGION] }) }, async (pi) => {
    await open(pi, /Which database\?/);
    await pi.keys("2"); // SQLite
    await pi.waitForScreen(/Service name\?/);
    await pi.text("orders");
    await pi.waitForScreen(/> orders/);
    await pi.keys("Enter");
    await pi.waitForScreen(/Which region\?/);
    await pi.text("eu-north-1"); // typing on the list starts a typed answer
    await pi.waitForScreen(/eu-north-1/);
    await pi.keys("Enter");
    const review = questionArea(await pi.waitForScreen(/Review your answers/));
    assert.match(review, /✓ Database: SQLite/);
    assert.match(review, /✓ Name: orders \(typed\)/);
    assert.match(review, /✓ Region: eu-north-1 \(typed\)/);
    await pi.keys("Enter");

    assert.equal(
      await toolResultText(pi),
      "db: user selected: 2. SQLite (value: lite)\nname: user wrote: orders\nregion: user wrote: eu-north-1",
    );
    const result = await pi.waitForQuestionResult();
    assert.deepEqual(
      result.details.answers.map((a) => [a.id, a.value, a.wasCustom]),
      [
        ["db", "lite", false],
        ["name", "orders", true],
        ["region", "eu-north-1", true],
      ],
    );
  });
});

// 6. ---------------------------------------------------------------------------------------------
test("interactive: answers are changed after going back (Shift+Tab, ←) before submitting; drafts survive", async () => {
  await withPi({ replies: script({ questions: [DB, TARGET] }) }, async (pi) => {
    await open(pi, /Which database\?/);
    await pi.keys("Enter"); // PostgreSQL
    await pi.waitForScreen(/Deploy where\?/);
    await pi.keys("Enter"); // staging
    let review = questionArea(await pi.waitForScreen(/Review your answers/));
    assert.match(review, /✓ Target: staging/);

    await pi.keys("BTab"); // back to Target
    await pi.waitForScreen((s) => /Deploy where\?/.test(questionArea(s)));
    await pi.keys("Down", "Enter"); // prod: every question is answered, so back to the review
    review = questionArea(await pi.waitForScreen(/Review your answers/));
    assert.match(review, /✓ Target: prod/);
    assert.match(review, /✓ Database: PostgreSQL/);

    await pi.keys("Left", "Left"); // ← ← : Target, then Database
    await pi.waitForScreen((s) => /Which database\?/.test(questionArea(s)));
    await pi.text("Cock"); // a typed answer, started on the list
    await pi.waitForScreen(/Cock/);
    await pi.keys("Tab"); // away with a draft…
    await pi.waitForScreen((s) => /Deploy where\?/.test(questionArea(s)));
    await pi.keys("BTab"); // …and back: the draft is still there
    const back = questionArea(await pi.waitForScreen((s) => /Which database\?/.test(questionArea(s))));
    assert.match(back, /Cock/, "the draft survived navigation");
    await pi.text("roachDB");
    await pi.waitForScreen(/CockroachDB/);
    await pi.keys("Enter");
    review = questionArea(await pi.waitForScreen(/Review your answers/));
    assert.match(review, /✓ Database: CockroachDB \(typed\)/);
    assert.match(review, /✓ Target: prod/);
    assert.equal(pi.model.requests.length, 1);
    await pi.keys("Enter");

    assert.equal(await toolResultText(pi), "db: user wrote: CockroachDB\ntarget: user selected: 2. prod");
  });
});

// 7. ---------------------------------------------------------------------------------------------
test("interactive: an empty typed answer is refused and the user stays in text entry", async () => {
  await withPi({ replies: script({ questions: [DB] }) }, async (pi) => {
    await open(pi, /3\. Something else…/);
    await pi.keys("0"); // quick key for Something else…
    await pi.waitForScreen(/Enter submit/);
    await pi.keys("Enter");
    let screen = await pi.waitForScreen(/Type an answer first \(Esc goes back\)/);
    assert.match(questionArea(screen), /> 3\. Something else…/);
    assert.match(questionArea(screen), /Enter submit/, "still in text entry");
    await pi.text("   ");
    await pi.keys("Enter"); // blank is empty too
    screen = await pi.waitForScreen(/Type an answer first/);
    assert.equal(pi.model.requests.length, 1, "nothing was submitted");
    await pi.text("Redis");
    await pi.waitForScreen(/Redis/);
    await pi.keys("Enter");

    assert.equal(await toolResultText(pi), "db: user wrote: Redis");
  });
});

// 8. Non-interactive mode: e2e-print.test.mjs and e2e-headless.test.mjs (no terminal at all).

// ------------------------------------------------------------------------------------------------
test("interactive: multi-select — Space ticks, typed Something else… is added, Enter confirms", async () => {
  const FEATURES = {
    id: "f",
    label: "Features",
    prompt: "Which features?",
    multiSelect: true,
    options: [
      { value: "auth", label: "Auth" },
      { value: "api", label: "API" },
      { value: "admin", label: "Admin" },
    ],
  };
  await withPi({ replies: script({ questions: [FEATURES] }) }, async (pi) => {
    let screen = await open(pi, /Something else…/);
    assert.match(questionArea(screen), /> \[ \] 1\. Auth/);
    assert.match(questionArea(screen), /Space toggle/);
    await pi.keys("Enter"); // nothing chosen yet
    await pi.waitForScreen(/Tick at least one option or type an answer/);
    await pi.keys("Space");
    await pi.waitForScreen(/\[x\] 1\. Auth/);
    await pi.keys("Down", "Down", "Space");
    screen = await pi.waitForScreen(/\[x\] 3\. Admin/);
    assert.match(questionArea(screen), /\[ \] 2\. API/);
    await pi.keys("Space");
    await pi.waitForScreen(/\[ \] 3\. Admin/); // Space toggles back…
    await pi.keys("Space");
    await pi.waitForScreen(/\[x\] 3\. Admin/); // …and on again
    await pi.keys("Down", "Enter"); // Something else…
    await pi.waitForScreen(/Enter submit/);
    await pi.text("Billing");
    await pi.waitForScreen(/Billing/);
    assert.equal(pi.model.requests.length, 1);
    await pi.keys("Enter");

    assert.equal(await toolResultText(pi), "f: user selected: 1. Auth (value: auth), 3. Admin (value: admin); user wrote: Billing");
    const result = await pi.waitForQuestionResult();
    assert.deepEqual(result.details.answers[0].values, ["auth", "admin", "Billing"]);
    assert.deepEqual(result.details.answers[0].labels, ["Auth", "Admin", "Billing"]);
    assert.deepEqual(result.details.answers[0].indices, [1, 3]);
    assert.equal(result.details.answers[0].wasCustom, true);
  });
});

test("interactive: multi-select confirmed with Enter on the ticked options", async () => {
  const FEATURES = { id: "f", label: "Features", prompt: "Which features?", multiSelect: true, options: ["Auth", "API", "Admin"] };
  await withPi({ replies: script({ questions: [FEATURES] }) }, async (pi) => {
    await open(pi, /Something else…/);
    await pi.keys("1"); // in a multi-select the quick keys toggle
    await pi.waitForScreen(/\[x\] 1\. Auth/);
    await pi.keys("3");
    const screen = await pi.waitForScreen(/\[x\] 3\. Admin/);
    assert.match(questionArea(screen), /\[ \] 2\. API/);
    assert.equal(pi.model.requests.length, 1, "ticking does not submit");
    await pi.keys("Enter");
    assert.equal(await toolResultText(pi), "f: user selected: 1. Auth, 3. Admin");
  });
});

test("interactive: a free-text question opens text entry straight away", async () => {
  await withPi(
    { replies: script({ questions: [{ id: "name", label: "Name", prompt: "What should we name this service?" }] }) },
    async (pi) => {
      const screen = await open(pi, /What should we name this service\?/);
      const area = questionArea(screen);
      assert.match(area, /Enter submit/);
      assert.doesNotMatch(area, /Something else…/);
      await pi.text("order-processor");
      await pi.waitForScreen(/> order-processor/);
      // The terminal cursor sits where the next character goes (CURSOR_MARKER: IME input works).
      // pi moves the cursor after drawing the text: wait for it rather than read it once.
      const x = " > order-processor".length;
      const onTyped = (cx, cy, lines) => lines[cy] === " > order-processor";
      await pi.waitForCursor((cx, cy, lines) => cx === x && onTyped(cx, cy, lines));
      await pi.keys("Left", "Left", "Left");
      await pi.waitForCursor((cx, cy, lines) => cx === x - 3 && onTyped(cx, cy, lines));
      await pi.keys("End");
      await pi.waitForCursor((cx, cy, lines) => cx === x && onTyped(cx, cy, lines));
      await pi.keys("Enter");

      assert.equal(await toolResultText(pi), "name: user wrote: order-processor");
      const result = await pi.waitForQuestionResult();
      assert.deepEqual(result.details.answers, [{ id: "name", value: "order-processor", label: "order-processor", wasCustom: true }]);
    },
  );
});

test("interactive: a 50-option list scrolls, `/` filters it, and Enter in the filter picks the highlighted match", async () => {
  const options = Array.from({ length: 50 }, (_, i) => {
    const n = String(i + 1).padStart(2, "0");
    return { value: `r${n}`, label: `Region ${n}` };
  });
  await withPi({ replies: script({ questions: [{ id: "region", label: "Region", prompt: "Which region?", options }] }) }, async (pi) => {
    let screen = await open(pi, /Which region\?/);
    let area = questionArea(screen);
    assert.match(area, /> 1\. Region 01/);
    assert.match(area, /↓ \d+ more/);
    assert.doesNotMatch(area, /Region 50/);
    assert.ok(area.split("\n").length < 30, "the list is a scrolling window, not 50 rows");

    await pi.keys("Up"); // wraps to the last row: Something else…
    area = questionArea(await pi.waitForScreen(/> 51\. Something else…/));
    assert.match(area, /↑ \d+ more/);
    assert.match(area, /Region 50/);

    await pi.keys("/");
    await pi.waitForScreen(/Filter:/);
    await pi.text("region 4");
    area = questionArea(await pi.waitForScreen(/Filter: region 4/));
    for (let n = 40; n <= 47; n++) assert.match(area, new RegExp(`${n - 39}\\. Region ${n}`));
    assert.match(area, /↓ 3 more/, "Region 48, 49 and Something else… are below the window");
    assert.doesNotMatch(area, /Region 04|Region 14|Region 50/);
    await pi.keys("Down", "Down"); // ↓ moves through the matches while typing
    await pi.waitForScreen(/> 3\. Region 42/);
    await pi.keys("Enter"); // a single-select question: Enter picks the highlighted match at once
    assert.equal(await toolResultText(pi), "region: user selected: 42. Region 42 (value: r42)");
    const result = await pi.waitForQuestionResult();
    assert.equal(result.details.answers[0].index, 42);
  });
});

test("interactive: in a multi-select question Enter leaves the filter typing and keeps the list filtered; Space ticks matches, Enter confirms", async () => {
  const options = ["Alpha", "Beta", "Gamma", "Alpine", "Delta"];
  const q = { id: "stack", label: "Stack", prompt: "Which parts?", multiSelect: true, options };
  await withPi({ replies: script({ questions: [q] }) }, async (pi) => {
    let area = questionArea(await open(pi, /Which parts\?/));
    assert.match(area, /\[ \] 2\. Beta/);
    await pi.keys("/");
    await pi.waitForScreen(/Filter:/);
    await pi.text("al");
    area = questionArea(await pi.waitForScreen((s) => /Filter: al/.test(questionArea(s)) && /type to filter/.test(questionArea(s))));
    assert.match(area, /> \[ \] 1\. Alpha/);
    assert.match(area, /\[ \] 2\. Alpine/);
    assert.doesNotMatch(area, /Beta|Gamma|Delta/);
    await pi.keys("Enter"); // multi-select: leaves the filter typing, picks nothing, ends nothing
    area = questionArea(await pi.waitForScreen((s) => /Space toggle/.test(questionArea(s))));
    assert.doesNotMatch(area, /type to filter/, "no longer typing into the filter");
    assert.match(area, /Filter: al/, "the filter stays");
    assert.match(area, /> \[ \] 1\. Alpha/);
    assert.match(area, /\[ \] 2\. Alpine/);
    assert.doesNotMatch(area, /Beta|Gamma|Delta/, "the list stays filtered");
    assert.equal(pi.model.requests.length, 1, "the question is still open");
    await pi.keys("Space", "Down", "Space"); // Space ticks (not typed into the filter)
    area = questionArea(await pi.waitForScreen((s) => /> \[x\] 2\. Alpine/.test(questionArea(s))));
    assert.match(area, /\[x\] 1\. Alpha/);
    assert.match(area, /Filter: al\s*\n/, "Space was not typed into the filter");
    assert.doesNotMatch(area, /Beta|Gamma|Delta/);
    await pi.keys("Enter"); // now Enter confirms the ticks
    assert.equal(await toolResultText(pi), "stack: user selected: 1. Alpha, 4. Alpine");
    const result = await pi.waitForQuestionResult();
    assert.deepEqual(result.details.answers[0].indices, [1, 4]);
  });
});

/** Every line of the screen fits `cols` columns as pi-tui measures it. */
function assertFits(screen, cols) {
  screen.split("\n").forEach((line, i) => {
    assert.ok(visibleWidth(line) <= cols, `screen line ${i} is ${visibleWidth(line)} columns wide (> ${cols}): ${JSON.stringify(line)}`);
  });
}

test("interactive: CJK and emoji at 40 columns — nothing overflows, nothing is lost, pi keeps running", async () => {
  const family = "👨‍👩‍👧‍👦";
  const CJK = {
    id: "db",
    label: "データベース",
    prompt: "どのデータベースを使いますか？長い質問文は端末の幅で折り返されます 🚀✨",
    options: [
      { value: "pg", label: "ポストグレス 🐘（推奨）", description: "信頼性の高いリレーショナルデータベース。説明も折り返されます。" },
      { value: "fam", label: `家族 ${family} 🇯🇵 한국어 选项` },
      { value: "zh", label: "中文选项：非常长的标签需要换行才能完整显示在四十列的终端里" },
    ],
  };
  await withPi({ cols: 40, replies: script({ questions: [CJK] }) }, async (pi) => {
    const screen = await open(pi, /4\. Something else…/);
    assertFits(screen, 40);
    const area = questionArea(screen);
    const flat = area.replace(/\s+/g, "");
    for (const piece of [
      "どのデータベースを使いますか？",
      "🚀✨",
      "ポストグレス🐘（推奨）",
      "信頼性の高いリレーショナルデータベース",
      "한국어选项",
      "四十列的终端里",
    ]) {
      assert.ok(flat.includes(piece), `${piece} is shown in full (wrapped, not cut)`);
    }
    await pi.keys("Down");
    assertFits(await pi.waitForScreen(/> 2\. 家族/), 40);
    await pi.keys("Enter");
    assert.equal(await toolResultText(pi), `db: user selected: 2. 家族 ${family} 🇯🇵 한국어 选项 (value: fam)`);
    assertFits(await pi.waitForScreen(/thanks/), 40);
  });
});

test("interactive: a CJK typed answer at 40 columns wraps, keeps the cursor at its end, and is returned exactly", async () => {
  await withPi({ cols: 40, replies: script({ questions: [{ id: "note", label: "メモ", prompt: "一言どうぞ" }] }) }, async (pi) => {
    await open(pi, /一言どうぞ/);
    const typed = "日本語の入力はとても長くなっても折り返されて失われません";
    await pi.text(typed);
    const screen = await pi.waitForScreen((s) => questionArea(s).replace(/\s+/g, "").includes(typed));
    assertFits(screen, 40);
    // the cursor on the last line of the answer, right after its last character
    const { x, y, lines } = await pi.waitForCursor((cx, cy, ls) => ls[cy]?.endsWith("失われません"));
    assert.equal(x, visibleWidth(lines[y]), "the cursor is right after the last character");
    await pi.keys("Enter");
    assert.equal(await toolResultText(pi), `note: user wrote: ${typed}`);
    assertFits(await pi.waitForScreen(/thanks/), 40);
  });
});

test("interactive: typed emoji (outside the BMP) reach the answer intact", async () => {
  await withPi({ cols: 40, replies: script({ questions: [{ id: "note", label: "Note", prompt: "Say something" }] }) }, async (pi) => {
    await open(pi, /Say something/);
    const typed = "ok 🙂👍 done";
    await pi.text(typed);
    // pi-tui hands a character outside the BMP to the focused component as two UTF-16 halves,
    // one handleInput call each; wait until the whole text was drawn (as whatever it became).
    const screen = await pi.waitForScreen((s) => /> ok .* done/.test(questionArea(s)));
    assertFits(screen, 40);
    await pi.keys("Enter");
    assert.equal(await toolResultText(pi), `note: user wrote: ${typed}`);
    assert.match(questionArea(screen), /> ok 🙂👍 done/, "the emoji are shown as typed");
  });
});

/** pi's startup header: its version ("pi v0.73.1"; since pi 0.99 the logo, then " v1.5.2"). */
const HEADER = new RegExp(` v${line.version.replace(/\./g, "\\.")}(?![\\d.])`);

/** The pane title was not set by an escape sequence from model text. */
function assertTitleSafe(pi) {
  const title = pi.title();
  assert.doesNotMatch(title, /^PWNED/, `an OSC title sequence from model text reached the terminal: ${JSON.stringify(title)}`);
  assert.doesNotMatch(title, /[\u0000-\u001f\u007f-\u009f]/);
}

test("interactive: hostile escape sequences in model text are shown harmlessly", async () => {
  const HOSTILE = {
    id: "h",
    label: "Evil\u001b]0;PWNED\u0007tab",
    prompt: "Pick\u001b[2J one\u001b]2;PWNED\u0007 \u202ereversed",
    options: [
      { value: "osc", label: "Title \u001b]0;PWNED\u0007 set" },
      { value: "clear", label: "Clear \u001b[2J\u001b[H screen", description: "desc \u009b31m c1 \u001b[1A up" },
      { value: "bidi", label: "Bidi \u202e override" },
    ],
  };
  await withPi({ replies: script({ questions: [HOSTILE] }) }, async (pi) => {
    const screen = await open(pi, /4\. Something else…/);
    // Nothing of the terminal state was touched: the title (pi-question may put the question in
    // it, but only as visible text), and the screen above the question.
    assertTitleSafe(pi);
    assert.match(screen, HEADER, "the screen was not cleared");
    assert.match(screen, /ask me/, "the screen was not cleared");
    const area = questionArea(screen);
    // …and the sequences are visible for what they are.
    assert.match(area, /Pick␛\[2J one␛\]2;PWNED␇ <U\+202E>reversed/);
    assert.match(area, /1\. Title ␛\]0;PWNED␇ set/);
    assert.match(area, /2\. Clear ␛\[2J␛\[H screen/);
    assert.match(area, /desc <U\+009B>31m c1 ␛\[1A up/);
    assert.match(area, /3\. Bidi <U\+202E> override/);
    assert.doesNotMatch(screen, /[\u001b\u0007\u009b\u202e]/);

    await pi.keys("Enter"); // the OSC label
    const text = await toolResultText(pi);
    assert.equal(text, "h: user selected: 1. Title \u001b]0;PWNED\u0007 set (value: osc)"); // the model's own text back
    const after = await pi.waitForScreen(/thanks/);
    // The transcript's result line renders the label too: still harmless.
    assert.match(after, /Title ␛\]0;PWNED␇ set/);
    assertTitleSafe(pi);
    assert.match(after, HEADER);
  });
});

test("interactive: Ctrl+D declines — status declined, the model continues and is told to decide", async () => {
  await withPi({ replies: script({ questions: [DB] }) }, async (pi) => {
    await open(pi, /3\. Something else…/);
    await pi.keys("C-d");
    assert.equal(await toolResultText(pi), DECLINED);
    const after = await pi.waitForScreen(/thanks/);
    assert.match(after, /Declined: the agent decides/);
    const result = await pi.waitForQuestionResult();
    assert.equal(result.details.status, "declined");
    assert.deepEqual(result.details.answers, []);
  });
});

test("interactive: Ctrl+D with a typed draft asks “Discard what you typed?” first; n keeps the draft, y declines", async () => {
  await withPi({ replies: script({ questions: [DB] }) }, async (pi) => {
    await open(pi, /3\. Something else…/);
    await pi.keys("3"); // Something else…
    await pi.text("Cockroach");
    await pi.waitForScreen((s) => questionArea(s).includes("Cockroach"));
    await pi.keys("Escape"); // back to the list, the draft kept
    await pi.waitForScreen((s) => /Esc cancel/.test(questionArea(s)));
    await pi.keys("C-d"); // let the agent decide: the draft would be lost, so it asks
    let area = questionArea(await pi.waitForScreen((s) => /Discard what you typed\? \(y\/n\)/.test(questionArea(s))));
    assert.match(area, /y yes • n no/);
    assert.match(area, /Cockroach/);
    assert.equal(pi.model.requests.length, 1, "the question is still open");
    await pi.keys("n");
    area = questionArea(await pi.waitForScreen((s) => /Esc cancel/.test(questionArea(s))));
    assert.doesNotMatch(area, /Discard/);
    assert.match(area, /Cockroach/, "the draft is intact");
    await pi.keys("C-d");
    await pi.waitForScreen((s) => /Discard what you typed\?/.test(questionArea(s)));
    await pi.keys("y");
    assert.equal(await toolResultText(pi), DECLINED);
    const result = await pi.waitForQuestionResult();
    assert.equal(result.details.status, "declined");
  });
});

const ABORT_EXTENSION = `
// Test-only: Ctrl+G aborts the agent run, as another extension (or a host) would.
export default function (pi) {
  pi.on("session_start", (_event, ctx) => {
    ctx.ui.onTerminalInput((data) => {
      if (data !== "\\x07") return undefined;
      ctx.abort();
      return { consume: true };
    });
  });
}
`;

test("interactive: an interrupted run closes the question at once (status interrupted)", async () => {
  await withPi(
    {
      replies: [...script({ questions: [DB] }).slice(0, 1), { text: "after the interruption" }],
      homeFiles: { "abort-ext.ts": ABORT_EXTENSION },
      extensions: ["abort-ext.ts"],
    },
    async (pi) => {
      await open(pi, /3\. Something else…/);
      await pi.keys("Down"); // the user is in the middle of answering
      await pi.waitForScreen(/> 2\. SQLite/);
      await pi.keys("C-g");
      const after = await waitClosed(pi, "Something else…");
      assert.match(after, /Interrupted/);
      const result = await pi.waitForQuestionResult();
      assert.equal(result.details.status, "interrupted");
      assert.deepEqual(result.details.answers, []);
      assert.equal(result.content[0].text, INTERRUPTED);
      // The run was aborted: the model is not called until the user speaks.
      await pi.waitForScreen((s) => !/Waiting for your answer/.test(s));
      assert.equal(pi.model.requests.length, 1);
      await pi.text("go on");
      await pi.waitForScreen((s) => questionArea(s).includes("go on"));
      await pi.keys("Enter");
      await pi.model.waitForRequests(2);
      assert.equal(pi.model.toolMessages(1)[0].content, INTERRUPTED);
      await pi.waitForScreen(/after the interruption/);
    },
  );
});

// ---- the question fits the screen, talk first ------------------------------------------------
test("interactive: a 2,000-character prompt on a 20-row terminal — its first line and the help line stay, PageDown reads on", async () => {
  const words = Array.from({ length: 400 }, (_, i) => `w${String(i + 1).padStart(3, "0")}`);
  const prompt = `FIRST-LINE-MARK ${words.join(" ")} LAST-WORD-MARK`;
  assert.ok(prompt.length >= 2000, `${prompt.length} characters`);
  const q = { id: "pick", label: "Pick", prompt, options: [{ value: "a", label: "Alpha", description: "the first" }, "Beta", "Gamma"] };
  await withPi({ rows: 20, cols: 80, replies: script({ questions: [q] }) }, async (pi) => {
    let screen = await open(pi, /FIRST-LINE-MARK/);
    let area = questionArea(screen);
    assert.match(area, /FIRST-LINE-MARK/, "the prompt's first line is on screen");
    assert.match(area, /↓ \d+ more lines/);
    assert.match(area, /PgUp\/PgDn read the question/, "the help line is on screen");
    assert.match(area, /Esc cancel/, "all of the help line");
    assert.match(area, /> 1\. Alpha/, "the highlighted option is on screen");
    assert.match(area, /4\. Something else…/);
    assert.ok(screen.replace(/\n$/, "").split("\n").length <= 20, "the screen is 20 rows");
    assert.doesNotMatch(area, /LAST-WORD-MARK/);

    for (let i = 0; i < 40 && !/LAST-WORD-MARK/.test(questionArea(screen)); i++) {
      const before = questionArea(screen);
      await pi.keys("PageDown");
      // a whole frame that differs: a capture while pi redraws the 20 rows can hold one rule or none
      screen = await pi.waitForScreen((s) => {
        const now = questionArea(s);
        return now !== before && /↑ \d+ more lines/.test(now) && /Esc cancel/.test(now);
      });
      area = questionArea(screen);
      assert.match(area, /↑ \d+ more lines/, "PageDown moved the prompt on");
      assert.doesNotMatch(area, /FIRST-LINE-MARK/);
      assert.match(area, /Esc cancel/, "the help line stays");
    }
    assert.match(questionArea(screen), /LAST-WORD-MARK/, "PageDown reads the prompt to its end");
    await pi.keys("PageUp");
    await pi.keys("Down", "Enter");
    assert.equal(await toolResultText(pi), "pick: user selected: 2. Beta");
  });
});

test("interactive: a preview longer than its share of a 20-row terminal says “↓ N more lines”; Shift+↓ reads it to its end in pi", async () => {
  const preview = Array.from({ length: 60 }, (_, i) => `col_${String(i + 1).padStart(2, "0")} integer not null`).join("\n");
  const q = {
    id: "schema",
    label: "Schema",
    prompt: "Which schema?",
    options: [
      { value: "tall", label: "Tall", preview },
      { value: "short", label: "Short", preview: "id integer" },
    ],
  };
  await withPi({ rows: 20, cols: 80, replies: script({ questions: [q] }) }, async (pi) => {
    let screen = await open(pi, /Which schema\?/);
    let area = questionArea(screen);
    assert.match(area, /col_01 integer/);
    assert.match(area, /↓ \d+ more lines/);
    assert.match(area, /Shift\+↑↓ read the preview/);
    assert.doesNotMatch(area, /col_60/);
    for (let i = 0; i < 60 && !/col_60/.test(questionArea(screen)); i++) {
      const before = questionArea(screen);
      await pi.keys("S-Down");
      // a whole frame that differs (see the PageDown test above)
      screen = await pi.waitForScreen((s) => {
        const now = questionArea(s);
        return now !== before && /↑ \d+ more lines/.test(now) && /> 1\. Tall/.test(now);
      });
      assert.match(questionArea(screen), /↑ \d+ more lines/, "Shift+↓ moved the preview on");
      assert.match(questionArea(screen), /> 1\. Tall/, "the highlight stays");
    }
    assert.match(questionArea(screen), /col_60 integer/, "Shift+↓ reads the preview to its end");
    await pi.keys("Enter");
    assert.equal(await toolResultText(pi), "schema: user selected: 1. Tall (value: tall)");
  });
});

test("interactive: Ctrl+T talks first — the model reads the person's words, status discuss, and the turn goes on", async () => {
  await withPi({ replies: script({ questions: [DB] }) }, async (pi) => {
    await open(pi, /3\. Something else…/);
    assert.match(questionArea(pi.screen()), /Ctrl\+T talk first/);
    await pi.keys("C-t");
    const field = questionArea(await pi.waitForScreen(/What do you want to tell the agent\?/));
    assert.match(field, /Enter send to the agent/);
    await pi.text("Why not both? We need a cache too.");
    await pi.waitForScreen(/We need a cache too\./);
    assert.equal(pi.model.requests.length, 1, "typing does not send");
    await pi.keys("Enter");
    assert.equal(
      await toolResultText(pi),
      "The user wants to talk about this question before answering it, and wrote to you:\n  Why not both? We need a cache too.\nReply to what they wrote. Do not answer the question for them and do not act on it yet; ask the question again later if you still need the answer.",
    );
    const after = await pi.waitForScreen(/thanks/);
    assert.match(after, /Wants to talk first/);
    assert.match(after, /Why not both\? We need a cache too\./);
    const result = await pi.waitForQuestionResult();
    assert.equal(result.details.status, "discuss");
    assert.equal(result.details.discussion, "Why not both? We need a cache too.");
  });
});
