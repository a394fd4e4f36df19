// e2e-notice.test.mjs — a ping where the person is, with the real pi (TUI, in tmux): the two
// notice.command examples of docs/notice.md run as written — a push service's client (curl
// posting the question to an ntfy-style topic, here a local stand-in server) and a desktop
// notifier (notify-send through `sh -c`, here a stand-in on PATH that records its arguments) —
// once when the question starts waiting, with the question in PI_QUESTION_PROMPT and on standard
// input; and pi's event bus carries herdr:blocked (active while the question waits, then not),
// heard by another extension.
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { startPi, withPi as withPiIn } from "./helpers/tmux.mjs";
import { until } from "./helpers/until.mjs";

const DB = { id: "db", prompt: "Which database?", options: ["SQLite", "Postgres"] };
const script = [{ toolCalls: [{ name: "question", arguments: { questions: [DB] } }] }, { text: "thanks" }];

/** Another extension on pi's bus: what it hears of herdr:blocked, one JSON line each. */
const HERDR_LISTENER = `import { appendFileSync } from "node:fs";
import { join } from "node:path";
export default function (pi) {
  pi.events.on("herdr:blocked", (event) => appendFileSync(join(process.env.HOME, "herdr.log"), JSON.stringify(event) + "\\n"));
}
`;
const herdrEvents = (home) => {
  const file = join(home, "herdr.log");
  return existsSync(file)
    ? readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l))
    : [];
};

/** pi (tmux.mjs withPi: the screen added to a failure, always killed), asked. */
const withPi = (options, fn) =>
  withPiIn({ replies: script, namePrefix: "pq-notice-", ...options }, async (pi) => {
    await pi.prompt("ask me");
    await fn(pi);
  });

test("notice e2e: the push example — curl posts the question to a topic once it waits; herdr:blocked is active while it waits, then not", async () => {
  const posts = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      posts.push({ method: req.method, url: req.url, title: req.headers.title, body });
      res.end("{}");
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const topic = `http://127.0.0.1:${server.address().port}/pi-asks`;
  // docs/notice.md's example, with the stand-in server's topic for ntfy.sh's
  const command = ["curl", "-sS", "--max-time", "5", "-H", "Title: pi is asking", "--data-binary", "@-", topic];
  try {
    await withPi(
      {
        homeFiles: { ".pi/agent/question.json": JSON.stringify({ notice: { command } }), "herdr.ts": HERDR_LISTENER },
        extensions: ["herdr.ts"],
      },
      async (pi) => {
        await pi.waitForScreen(/Which database\?/);
        await until(() => posts.length === 1, "the question posted to the topic", { ms: 15000, every: 50 });
        assert.deepEqual(posts[0], { method: "POST", url: "/pi-asks", title: "pi is asking", body: "Which database?\n" });
        assert.deepEqual(herdrEvents(pi.home), [{ active: true, label: "Which database?" }]);
        await pi.keys("2");
        await pi.model.waitForRequests(2);
        assert.equal(pi.model.toolMessages(1)[0].content, "db: user selected: 2. Postgres");
        await until(() => herdrEvents(pi.home).length === 2, "herdr told the question stopped waiting", { ms: 5000, every: 50 });
        assert.deepEqual(herdrEvents(pi.home)[1], { active: false });
        assert.equal(posts.length, 1, "once per question");
      },
    );
  } finally {
    server.close();
  }
});

test("notice e2e: the desktop example — notify-send through sh -c gets the question from PI_QUESTION_PROMPT, never through a shell string", async () => {
  const bin = mkdtempSync(join(tmpdir(), "pq-notify-bin-"));
  const record = join(bin, "notified.json");
  // a stand-in for notify-send: its arguments, as it received them
  writeFileSync(
    join(bin, "notify-send"),
    `#!/bin/sh\nexec "${process.execPath}" -e 'require("fs").writeFileSync(process.argv[1], JSON.stringify(process.argv.slice(2)))' "${record}" "$@"\n`,
  );
  chmodSync(join(bin, "notify-send"), 0o755);
  const command = ["sh", "-c", 'exec notify-send "pi is asking" "$PI_QUESTION_PROMPT"'];
  const HOSTILE = { ...DB, prompt: "Which database? $(touch pwned) `id`" };
  try {
    const pi = await startPi({
      replies: [{ toolCalls: [{ name: "question", arguments: { questions: [HOSTILE] } }] }, { text: "thanks" }],
      namePrefix: "pq-notice-",
      homeFiles: { ".pi/agent/question.json": JSON.stringify({ notice: { command } }) },
      env: { PATH: `${bin}:${process.env.PATH}` },
    });
    try {
      await pi.prompt("ask me");
      await pi.waitForScreen(/Which database\?/);
      await until(() => existsSync(record), "notify-send run", { ms: 15000, every: 50 });
      assert.deepEqual(JSON.parse(readFileSync(record, "utf8")), ["pi is asking", "Which database? $(touch pwned) `id`"]);
      assert.equal(existsSync(join(pi.work, "pwned")), false, "the question's text is never run");
      await pi.keys("1");
      await pi.model.waitForRequests(2);
    } catch (error) {
      error.message += `\n--- screen (${pi.name}) ---\n${pi.screen()}`;
      throw error;
    } finally {
      await pi.kill();
    }
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
});
