// claim-child.mjs — print mode's asker (extension/ask/ask.ts, no UI) asking on its terminal through
// the runner, for pty-host.py (tests/tty-runner.test.mjs): where the person's final key and an
// answer from elsewhere meet. usage: node claim-child.mjs MODE DIR   (DIR: the project, and
// DIR/result gets { verdict, status, mode, text } as JSON)
//   window  a select; once the runner holds the terminal, writes READY on it and blocks its own
//           thread until the runner gave the terminal back (the key pressed meanwhile ended it),
//           then — before the runner's result can reach JS — an answer from elsewhere
//   first   a free-text question; on SIGUSR1 (sent once what the person typed is drawn) an answer
//           from elsewhere
import { closeSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { addon } from "./addon.mjs";
import { importShim } from "./shim.mjs";

const [mode, dir] = process.argv.slice(2);
const { createAsker } = await importShim("ask/ask.ts");
const asker = createAsker({ getSessionName: () => undefined });
const ctx = { hasUI: false, cwd: dir, sessionManager: { getBranch: () => [] }, ui: {}, isIdle: () => true };
const questions =
  mode === "window"
    ? [{ id: "db", prompt: "Which database?", options: ["Option 0", "Option 1", "Option 2"] }]
    : [{ id: "say", label: "Words", prompt: "Say something?" }];
const args = { prepared: addon.normalize(JSON.stringify({ questions })) };
const asking = asker.ask(args, JSON.parse(args.prepared).questions, ctx, undefined);
const [qid] = asker.board.waiting.keys();
const elsewhere = mode === "window" ? { db: "Option 2" } : { say: "from the page" };
let verdict;
const answerElsewhere = () => (verdict = asker.board.answer(qid, "answered", JSON.stringify(elsewhere), "web"));

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
const pause = new Int32Array(new SharedArrayBuffer(4));
if (mode === "window") {
  while (addon.ttyStatus("/dev/tty") !== "owned") await tick(); // the runner has the terminal
  const tty = openSync("/dev/tty", "w");
  writeSync(tty, "READY");
  closeSync(tty);
  // This thread waits here while the runner reads the key; its result cannot reach JS meanwhile.
  for (let waited = 0; addon.ttyStatus("/dev/tty") !== "free" && waited < 15000; waited += 2) Atomics.wait(pause, 0, 0, 2);
  answerElsewhere();
} else {
  process.once("SIGUSR1", answerElsewhere);
}
const result = await asking;
writeFileSync(
  join(dir, "result"),
  JSON.stringify({ verdict, status: result.details.status, mode: result.details.mode, text: result.content[0].text }),
);
