// e2e-web.test.mjs — the web page with the real pi (TUI, in tmux) and a real browser: Debian's
// Chromium, headless, driven by playwright-core (no browser download). `/questions web` (or the
// setting) prints the URL; the page shows the waiting question with the model's text as text,
// an option is picked and submitted, and the question in pi closes "answered from the web page"
// while the model reads the same text as for a local answer. The page follows pi live (a question
// answered in the TUI closes on the page); a request without the token and a cross-origin POST
// from another page in the same browser are refused. A page whose live updates are refused says
// it is offline (never a blank page) and follows again by itself; pushed out by newer pages, it
// says so and follows again when it is looked at. The page drives the engine's question flow
// (POST /step): several questions go tab by tab to the review, whose submit the engine checks;
// a long answer asks the engine's "Submit anyway?"; the filter and "talk first" work as in the TUI.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import { basename, join } from "node:path";
import { after, before, test } from "node:test";
import { importShim } from "./helpers/shim.mjs";
import { startPi } from "./helpers/tmux.mjs";
import { until } from "./helpers/until.mjs";

const CHROMIUM = "/usr/bin/chromium";
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed`;

let browser;
before(async () => {
  if (skip) return;
  const { chromium } = await import("playwright-core");
  // The browser is not under test: under `npm run test:asan` it must not inherit the sanitizer
  // runtime preloaded into node (Debian's chromium wrapper script breaks under it and hangs).
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(LD_PRELOAD|ASAN_OPTIONS|UBSAN_OPTIONS|LSAN_OPTIONS)$/.test(k)),
  );
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"], env });
});
after(async () => {
  await browser?.close();
});

const HOSTILE = '<img src=x onerror="window.pwned=1">';
const DB = {
  id: "db",
  prompt: "Which database? <script>window.pwned=2</script>",
  options: [
    {
      value: "sqlite",
      label: `SQLite ${HOSTILE}`,
      description: "<b>embedded</b> & small",
      preview: "<iframe src=//example.com></iframe>\nline 2",
    },
    { value: "pg", label: "Postgres" },
  ],
};
const script = (args) => [{ toolCalls: [{ name: "question", arguments: args }] }, { text: "thanks" }];
const URL_RE = /http:\/\/127\.0\.0\.1:\d+\/q\/[A-Za-z0-9_-]{43}/;

async function withPi(options, fn) {
  const pi = await startPi({ replies: script({ questions: [DB] }), session: true, namePrefix: "pq-web-", ...options });
  const context = await browser.newContext();
  try {
    await fn(pi, context);
  } catch (error) {
    error.message += `\n--- screen (${pi.name}) ---\n${pi.screen()}`;
    throw error;
  } finally {
    await context.close();
    await pi.kill();
  }
}

/** Types `/questions web` in pi and returns the URL it prints. */
async function turnOnWeb(pi) {
  await pi.waitForScreen(/mock-1/);
  await pi.text("/questions web");
  await pi.waitForScreen(/\/questions web/);
  await pi.keys("Enter");
  // pi's completion list (web, web on, web off) may take the first Enter: then once more.
  for (let tries = 0; ; tries++) {
    try {
      return URL_RE.exec(await pi.waitForScreen(URL_RE, 3000))[0];
    } catch (error) {
      if (tries >= 2) throw error;
      await pi.keys("Enter");
    }
  }
}

/** The page turned on, the model's question asked, and the page opened: its first card. */
async function askedOnPage(pi, context) {
  const url = await turnOnWeb(pi);
  await pi.prompt("ask me");
  const page = await context.newPage();
  await page.goto(url);
  return { url, page, card: page.locator(".card").first() };
}

async function toolText(pi) {
  await pi.model.waitForRequests(2);
  return pi.model.toolMessages(1)[0].content;
}

test(
  "web e2e: a question the person answered before in this project opens on the page with 'Answered on …'; Submit keeps it and the model reads it confirmed",
  { skip },
  async () => {
    const Q = {
      id: "db",
      prompt: "Which database?",
      options: [
        { value: "sqlite", label: "SQLite" },
        { value: "pg", label: "Postgres" },
      ],
    };
    const { memoryPaths, normalizedKey } = await importShim("ask/memory.ts");
    const entry = {
      id: "e1",
      at: "2026-11-21T10:00:00.000Z",
      by: "pi",
      prompt: Q.prompt,
      options: ["SQLite", "Postgres"],
      answer: { selected: ["Postgres"] },
      key: normalizedKey(Q),
    };
    // the person's own file for this project (~/.pi/agent/question-answers, in pi's home)
    const prepareHome = (home, work) => {
      const { dir, jsonl } = memoryPaths(work, home);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(jsonl, JSON.stringify(entry) + "\n", { mode: 0o600 });
    };
    await withPi({ replies: script({ questions: [Q] }), prepareHome }, async (pi, context) => {
      const { page } = await askedOnPage(pi, context);
      await page.locator(".earlier:visible").waitFor();
      assert.match(await page.locator(".earlier").textContent(), /^Answered on 21 Nov.*: Postgres/);
      await page.getByRole("button", { name: "Submit" }).click();
      await page.getByText("Answer taken.").waitFor();
      assert.match(await toolText(pi), /^db: user selected: 2\. Postgres.*\(the earlier answer \(21 Nov 2026\), confirmed\)$/);
    });
  },
);

test("web e2e: open the URL, pick an option, submit — the question closes in pi and the model reads the answer", { skip }, async () => {
  await withPi({}, async (pi, context) => {
    const url = await turnOnWeb(pi);
    await pi.waitForScreen(/[█▀▄]{20}/); // the QR code under the URL
    await pi.prompt("ask me");
    await pi.waitForScreen(/Which database\?/);

    const page = await context.newPage();
    const response = await page.goto(url);
    assert.equal(response.status(), 200);
    await page.getByText("Postgres", { exact: true }).waitFor();
    // The model's text is text: the markup shows as written, nothing of it runs or loads.
    assert.equal(await page.locator(".label").first().textContent(), `SQLite ${HOSTILE}`);
    assert.equal(await page.locator(".prompt").textContent(), DB.prompt);
    assert.equal(await page.locator(".desc").textContent(), "<b>embedded</b> & small");
    assert.equal(await page.locator("img, iframe, b, script:not([nonce])").count(), 0);
    assert.equal(await page.evaluate(() => window.pwned), undefined);
    // Which pi is asking: its project in the heading, its folder and session below.
    assert.equal(await page.locator("#title").textContent(), `pi is asking — ${basename(pi.work)}`);
    assert.match(await page.locator("#where").textContent(), /^\S.* · session ("[^"]+"|[0-9a-f-]{8}|pid \d+)$/);
    assert.equal(await page.title(), `pi is asking — ${basename(pi.work)}`);

    await page.getByText("Postgres", { exact: true }).click();
    await page.locator("textarea.note").fill("note from the phone");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByText("Answer taken.").waitFor();

    await pi.waitForScreen(/answered from the web page/);
    const screen = pi.screen();
    assert.doesNotMatch(screen, /Something else…/, "the question in the TUI closed");
    assert.equal(await toolText(pi), "db: user selected: 2. Postgres (value: pg); note: note from the phone");
    const result = await pi.waitForQuestionResult();
    assert.equal(result.details.mode, "web");
    assert.equal(result.details.status, "answered");
    assert.equal(await page.evaluate(() => window.pwned), undefined);
  });
});

test(
  "web e2e: with the setting on, the page follows pi live — a question arrives, and closes when answered in the TUI",
  { skip },
  async () => {
    const homeFiles = { ".pi/agent/question.json": JSON.stringify({ web: { enabled: true } }) };
    await withPi({ homeFiles }, async (pi, context) => {
      const screen = await pi.waitForScreen(URL_RE);
      const page = await context.newPage();
      await page.goto(URL_RE.exec(screen)[0]);
      await page.getByText("No question is waiting.", { exact: false }).waitFor();
      await pi.prompt("ask me");
      await page.getByText("Postgres", { exact: true }).waitFor(); // arrived by itself
      await pi.waitForScreen(/Which database\?/);
      await pi.keys("1");
      await page.getByText("This question was answered or ended elsewhere.").waitFor();
      assert.equal(await page.getByRole("button", { name: "Submit" }).isDisabled(), true);
      assert.match(await toolText(pi), /^db: user selected: 1\. SQLite /);
      assert.equal((await pi.waitForQuestionResult()).details.mode, "interactive");
    });
  },
);

test("web e2e: a request without the token and a cross-origin POST from another page are refused", { skip }, async () => {
  await withPi({}, async (pi, context) => {
    const url = await turnOnWeb(pi);
    const base = new URL(url).origin;
    const token = new URL(url).pathname.split("/")[2];
    await pi.prompt("ask me");
    await pi.waitForScreen(/Which database\?/);

    const page = await context.newPage();
    for (const path of ["/", "/q/", `/q/${"A".repeat(43)}`, `/q/${token}x`]) {
      const r = await page.goto(base + path);
      assert.ok([403, 404].includes(r.status()), `${path}: ${r.status()}`);
      assert.equal(await page.locator(".card").count(), 0);
    }
    // The qid, as the page itself learns it.
    await page.goto(url);
    const qid = await page.locator(".card").getAttribute("data-qid");
    assert.match(qid, /^q[0-9a-f]{8}$/);

    // Another site that even knows the token and the qid cannot answer.
    const evil = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(`<!doctype html><script>
        const body = ${JSON.stringify(JSON.stringify({ token, qid, outcome: "answered", answers: { db: "SQLite" } }))};
        const to = ${JSON.stringify(`${base}/q/${token}/answer`)};
        window.results = Promise.all([
          fetch(to, { method: "POST", headers: { "content-type": "application/json" }, body })
            .then((r) => "status " + r.status, (e) => "blocked: " + e.name),
          fetch(to, { method: "POST", mode: "no-cors", headers: { "content-type": "text/plain" }, body })
            .then((r) => "opaque " + r.type, (e) => "blocked: " + e.name),
        ]);
      </script>`);
    });
    await new Promise((r) => evil.listen(0, "127.0.0.1", r));
    try {
      const other = await context.newPage();
      await other.goto(`http://127.0.0.1:${evil.address().port}/`);
      const results = await other.evaluate(() => window.results);
      assert.match(results[0], /^blocked/, "the JSON POST needs a preflight, which gets no CORS answer");
      // The simple POST goes out (the server refuses it: wrong Origin, not JSON); its answer is
      // unreadable there (opaque, or blocked by Cross-Origin-Resource-Policy).
      assert.match(results[1], /^(opaque|blocked)/);
    } finally {
      evil.close();
    }
    // Nothing was answered: the question still waits on the page and in pi.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await page.getByRole("button", { name: "Submit" }).isDisabled(), false);
    await pi.waitForScreen(/Something else…/);
    assert.equal(pi.model.requests.length, 1);
    await pi.keys("2");
    assert.equal(await toolText(pi), "db: user selected: 2. Postgres (value: pg)");
  });
});

test(
  "web e2e: several questions on the page — tabs, multi-select, the review warns what is missing, a typed answer, then 'let the agent decide'",
  { skip },
  async () => {
    const TWO = {
      questions: [
        { id: "f", label: "Features", prompt: "Which features?", multiSelect: true, options: ["Auth", "API", "Jobs"] },
        { id: "name", label: "Name", prompt: "Name of the service?" },
        { id: "db", label: "Database", prompt: "Which database?", options: ["SQLite", "Postgres"] },
      ],
    };
    const replies = [...script(TWO).slice(0, 1), ...script(TWO)];
    await withPi({ replies }, async (pi, context) => {
      const { page, card } = await askedOnPage(pi, context);
      await page.getByText("Which features?").waitFor();
      const ticked = card.locator("fieldset").nth(0).locator("input[type=checkbox]");
      await page.getByText("Auth", { exact: true }).click();
      await until(async () => await ticked.nth(0).isChecked(), "Auth ticked", { ms: 10000, every: 50 });
      await page.getByText("Jobs", { exact: true }).click();
      await until(async () => await ticked.nth(2).isChecked(), "Jobs ticked", { ms: 10000, every: 50 });
      // Straight to the review: the engine's submit there says what is missing and shows it.
      await card.getByRole("button", { name: "Review" }).click();
      await card.getByText("Review your answers").waitFor();
      await card.getByRole("button", { name: "Submit" }).click();
      await card.getByText(/Not answered yet: .*Name.*Database/).waitFor();
      await card.getByText("Name of the service?").waitFor();
      await card.locator("fieldset").nth(1).locator("textarea").first().fill("orders");
      await card.getByRole("button", { name: "Submit" }).click();
      const db = card.locator("fieldset").nth(2);
      await db.getByText("Something else…").click();
      await db.locator("textarea.wrote").fill("DuckDB");
      await card.getByRole("button", { name: "Submit" }).click();
      await card.getByText("Review your answers").waitFor();
      assert.equal(await card.getByRole("button", { name: "Features ✓" }).count(), 1, "the tab says answered");
      await card.getByRole("button", { name: "Submit" }).click();
      await page.getByText("Answer taken.").waitFor();
      assert.equal(await toolText(pi), "f: user selected: 1. Auth, 3. Jobs\nname: user wrote: orders\ndb: user wrote: DuckDB");
      await pi.waitForScreen(/answered from the web page/);

      // The model asks again; this time the agent decides.
      await pi.model.waitForRequests(2);
      await page.locator(".card:not(.closed)").getByText("Which features?").waitFor();
      await page.locator(".card:not(.closed)").getByRole("button", { name: "Let the agent decide" }).click();
      await page
        .locator(".card:not(.closed)")
        .waitFor({ state: "detached" })
        .catch(() => undefined);
      await pi.model.waitForRequests(3);
      assert.match(pi.model.toolMessages(2).at(-1).content, /decide/i);
      const results = pi.questionResults();
      assert.equal(results.at(-1).details.status, "declined");
      assert.equal(results.at(-1).details.mode, "web");
    });
  },
);

test(
  "web e2e: a typed answer not submitted is held by pi's engine: 'let the agent decide' asks 'Discard what you typed?' first; no keeps it, and it is submitted",
  { skip },
  async () => {
    await withPi({}, async (pi, context) => {
      const { url, card } = await askedOnPage(pi, context);
      await card.getByText("Something else…").click();
      await card.locator("textarea.wrote").fill("DuckDB");
      await card.getByRole("button", { name: "Let the agent decide" }).click();
      await card.getByText("Discard what you typed?").waitFor();
      // A second page (a phone) opened now shows the flow as it is, the held text included, and
      // answers the engine's question there.
      const other = (await context.newPage()).locator(".card").first();
      await other.page().goto(url);
      await other.getByText("Discard what you typed?").waitFor();
      await other.getByRole("button", { name: "No" }).click();
      await card.getByText("Discard what you typed?").waitFor({ state: "hidden" });
      assert.equal(await card.locator("textarea.wrote").inputValue(), "DuckDB", "kept on the page");
      await until(async () => (await other.locator("textarea.wrote").inputValue()) === "DuckDB", "the held text on the other page", {
        ms: 10000,
        every: 50,
      });
      assert.equal(await other.locator("textarea.wrote").isVisible(), true, "its “Something else…” is chosen there");
      await card.getByRole("button", { name: "Submit" }).click();
      await card.getByText("Answer taken.").waitFor();
      assert.equal(await toolText(pi), "db: user wrote: DuckDB");
    });
  },
);

test(
  "web e2e: a refused or failed POST keeps what the person wrote on the page; then a long answer, confirmed as the engine asks, is taken whole",
  { skip },
  async () => {
    await withPi({}, async (pi, context) => {
      const { page, card } = await askedOnPage(pi, context);
      await card.getByText("Something else…").waitFor();
      await card.getByText("Something else…").click();
      // Quotes and backslashes take 2 bytes each in JSON: this answer is ~180 KB on the wire (the
      // note within its own limit, as the engine keeps it).
      const wrote = `start ${'"\\'.repeat(44000)} end`;
      const note = `note ${'\\"'.repeat(400)} done`;
      await card.locator("textarea.wrote").fill(wrote);
      await card.locator("textarea.note").fill(note);
      const kept = async () => {
        assert.equal(await card.locator("textarea.wrote").inputValue(), wrote, "the typed answer is kept");
        assert.equal(await card.locator("textarea.note").inputValue(), note, "the note is kept");
      };
      // The connection fails: said so, nothing lost, the buttons work again.
      await page.route("**/step", (route) => route.abort("connectionreset"));
      await card.getByRole("button", { name: "Submit" }).click();
      await card.getByText(/Not sent: pi could not be reached/).waitFor();
      await kept();
      // pi refuses it (as it would one over its cap): pi's reason shown, nothing lost.
      await page.unroute("**/step");
      await page.route("**/step", (route) =>
        route.fulfill({
          status: 413,
          contentType: "application/json",
          body: JSON.stringify({ ok: false, code: "refused", reason: "the request is larger than 5 bytes" }),
        }),
      );
      await card.getByRole("button", { name: "Submit" }).click();
      await card.getByText("the request is larger than 5 bytes").waitFor();
      await kept();
      assert.equal(await card.getByRole("button", { name: "Submit" }).isEnabled(), true);
      // For real now: the engine asks whether so long an answer is meant; yes: taken whole.
      await page.unroute("**/step");
      await card.getByRole("button", { name: "Submit" }).click();
      await card.getByText(/Answer is long \(\d+ chars\)\. Submit anyway\?/).waitFor();
      await card.getByRole("button", { name: "Yes" }).click();
      await card.getByText("Answer taken.").waitFor();
      await kept();
      // Closed: the text can no longer be changed but can still be selected and copied.
      assert.equal(await card.locator("textarea.wrote").isDisabled(), false);
      assert.equal(await card.locator("textarea.wrote").isEditable(), false);
      await pi.model.waitForRequests(2);
      const result = pi.questionResults().at(-1);
      assert.equal(result.details.status, "answered");
      assert.equal(result.details.mode, "web");
      const answer = JSON.stringify(result.details);
      assert.ok(
        answer.includes(JSON.stringify(wrote).slice(1, -1)) && answer.includes(JSON.stringify(note).slice(1, -1)),
        "the answer and the note whole",
      );
    });
  },
);

test(
  "web e2e: the filter and talk first on the page — the filter hides what does not match, the words reach the model as the TUI's Ctrl+T would send them",
  { skip },
  async () => {
    await withPi({}, async (pi, context) => {
      const url = await turnOnWeb(pi);
      await pi.prompt("ask me");
      await pi.waitForScreen(/Which database\?/);
      const page = await context.newPage();
      await page.goto(url);
      const card = page.locator(".card").first();
      const sqlite = card.locator(".option", { hasText: "SQLite" }).first();
      const postgres = card.getByText("Postgres", { exact: true });
      await postgres.waitFor();
      await card.getByRole("searchbox").fill("post");
      await sqlite.waitFor({ state: "hidden" });
      assert.equal(await postgres.isVisible(), true, "the match stays");
      await card.getByRole("searchbox").fill("zzz");
      await card.getByText("No option matches").waitFor();
      await card.getByRole("searchbox").fill("");
      await sqlite.waitFor({ state: "visible" });
      // Talk first: the words go to the model instead of an answer.
      await card.getByRole("button", { name: "Discuss first…" }).click();
      await card.locator("textarea.discussion").fill("Why not <b>both</b>?");
      await card.getByRole("button", { name: "Send to the agent" }).click();
      await card.getByText("Answer taken.").waitFor();
      await pi.waitForScreen(/answered from the web page/);
      assert.match(await toolText(pi), /Why not <b>both<\/b>\?/);
      const result = await pi.waitForQuestionResult();
      assert.equal(result.details.status, "discuss");
      assert.equal(result.details.mode, "web");
    });
  },
);

const WEB_ON = { ".pi/agent/question.json": JSON.stringify({ web: { enabled: true } }) };
const OFFLINE = "Connection to pi lost; trying again…";
const DISPLACED = "Newer pages took over the live updates; this one follows again when you come back to it.";

/** Polls `check` until it holds (at most 10 s). */

test(
  "web e2e: a page whose live updates are refused says it is offline (never blank), tries again, and shows the question once it gets through",
  { skip },
  async () => {
    await withPi({ homeFiles: WEB_ON }, async (pi, context) => {
      const url = URL_RE.exec(await pi.waitForScreen(URL_RE))[0];
      await pi.prompt("ask me");
      await pi.waitForScreen(/Which database\?/);
      const page = await context.newPage();
      let refused = 0;
      await page.route("**/events", (route) => {
        refused++;
        return route.fulfill({
          status: 503,
          contentType: "application/json",
          body: JSON.stringify({ ok: false, code: "refused", reason: "too many open pages" }),
        });
      });
      await page.goto(url);
      // Before any update: the page's title and the offline state, in the settings' language.
      await page.getByText(OFFLINE).waitFor({ timeout: 10000 });
      assert.equal(await page.locator("#title").textContent(), "pi is asking");
      await until(() => refused >= 2, "the page tries again by itself", { ms: 10000, every: 50 });
      await page.unroute("**/events");
      await page.getByText("Postgres", { exact: true }).waitFor({ timeout: 15000 });
      assert.equal(await page.locator("#status").textContent(), "", "online again");
      await page.getByText("Postgres", { exact: true }).click();
      await page.getByRole("button", { name: "Submit" }).click();
      await page.getByText("Answer taken.").waitFor();
      assert.equal(await toolText(pi), "db: user selected: 2. Postgres (value: pg)");
    });
  },
);

test(
  "web e2e: pushed out by newer pages, a page says so, keeps the question, and follows again when it is looked at",
  { skip },
  async () => {
    await withPi({ homeFiles: WEB_ON }, async (pi, context) => {
      const url = URL_RE.exec(await pi.waitForScreen(URL_RE))[0];
      const { port, pathname } = new URL(url);
      await pi.prompt("ask me");
      const page = await context.newPage();
      await page.goto(url);
      await page.getByText("Postgres", { exact: true }).waitFor();
      // As many other pages as pi follows, opened after this one (raw streams, from here).
      const others = [];
      try {
        for (let i = 0; i < 8; i++) {
          const other = { named: [], data: 0, ended: false };
          other.req = httpRequest({ host: "127.0.0.1", port, path: `${pathname}/events`, agent: false }, (res) => {
            other.status = res.statusCode;
            res.setEncoding("utf8");
            res.on("data", (d) => {
              other.data += (d.match(/^data: /gm) ?? []).length;
              for (const m of d.matchAll(/^event: (.*)$/gm)) other.named.push(m[1]);
            });
            res.on("end", () => (other.ended = true));
          });
          other.req.on("error", () => undefined);
          other.req.end();
          others.push(other);
          await until(() => other.data > 0, `other page ${i} follows`, { ms: 10000, every: 50 });
        }
        // The browser's page was the oldest: it made room, and says why it no longer follows; the
        // question stays on it.
        await page.getByText(DISPLACED).waitFor({ timeout: 10000 });
        assert.ok(
          others.every((o) => o.status === 200 && !o.ended),
          "every newer page is served",
        );
        assert.equal(await page.getByRole("button", { name: "Submit" }).isDisabled(), false);
        // The person looks at it again: it follows again at once (the oldest other page makes room).
        await page.evaluate(() => window.dispatchEvent(new Event("focus")));
        await until(async () => (await page.locator("#status").textContent()) === "", "the page follows again", { ms: 10000, every: 50 });
        await until(() => others[0].ended, "the oldest other page made room", { ms: 10000, every: 50 });
        assert.deepEqual(others[0].named, ["displaced"]);
        await page.getByText("Postgres", { exact: true }).click();
        await page.getByRole("button", { name: "Submit" }).click();
        await page.getByText("Answer taken.").waitFor();
        assert.equal(await toolText(pi), "db: user selected: 2. Postgres (value: pg)");
      } finally {
        for (const other of others) other.req.destroy();
      }
    });
  },
);

test(
  "web e2e: the person's timeout is 3 s; they start typing on the page at once — pi's TUI stops its clock, the question outlives the deadline, and the page's answer reaches the model",
  { skip },
  async () => {
    const CLOCK = { ".pi/agent/question.json": JSON.stringify({ web: { enabled: true }, timeout: { after: "3s", then: "cancel" } }) };
    await withPi({ homeFiles: CLOCK }, async (pi, context) => {
      const url = URL_RE.exec(await pi.waitForScreen(URL_RE))[0];
      await pi.prompt("ask me");
      await pi.waitForScreen(/Closes itself in 0:0\d/);
      const page = await context.newPage();
      await page.goto(url);
      // the first keystroke in the question: the filter field
      await page.locator("input.filter").first().pressSequentially("Post");
      await pi.waitForScreen((screen) => /Which database\?/.test(screen) && !/Closes itself/.test(screen));
      // past the 3 s the person set, the question still waits in pi (poll the screen a while)
      const until = Date.now() + 3500;
      while (Date.now() < until) {
        assert.match(pi.screen(), /Which database\?/, "still asked");
        assert.doesNotMatch(pi.screen(), /did not answer in time|timed out/i);
        await new Promise((r) => setTimeout(r, 250));
      }
      await page.getByText("Postgres", { exact: true }).click();
      await page.getByRole("button", { name: "Submit" }).click();
      await page.getByText("Answer taken.").waitFor();
      assert.equal(await toolText(pi), "db: user selected: 2. Postgres (value: pg)");
      const result = await pi.waitForQuestionResult();
      assert.equal(result.details.mode, "web");
      assert.equal(result.details.status, "answered");
    });
  },
);
