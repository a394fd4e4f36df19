#!/usr/bin/env node
// pi-question — the question UI on your terminal, without pi or a model: reads questions
// (the tool's arguments, any accepted shape) from a file or stdin, asks them on /dev/tty (on
// Windows the console), and prints the result JSON ({ ...details, text }) on stdout, so shell scripts can use it.
//   pi-question questions.json          pi-question < questions.json
// Exit status: 0 answered, 1 declined/cancelled/interrupted/discuss, 2 invalid questions, 3 no terminal
// (or one another program owns: in raw mode already, or pi-question is in the background).
// And the questions waiting in your running pis (see remote.mjs):
//   pi-question pending                 pi-question answer [n|id [- | '{"db":"SQLite"}']]
// ("-" reads the answers from stdin: not on the command line, where `ps` shows them to everyone.)
// Exit status: 0 taken, 1 not taken (the question already ended: answered, cancelled, timed out
// or withdrawn), 2 invalid answer, 3 no terminal, 4 no such waiting question, 5 a pi did not
// reply in time (it did not confirm the answer — it may still take it — or did not list).
import { readFileSync } from "node:fs";
import { loadAddon } from "../extension/load-addon.cjs";
import { answer, noTerminalMessage, pending, terminalPath } from "./remote.mjs";

const USAGE = [
  "usage: pi-question [questions.json | -]   ask questions (the question tool's JSON arguments) on this terminal",
  "       pi-question pending                list the questions your running pis are waiting on",
  "       pi-question answer [n|id [- | answers]]",
  "                                          answer a waiting question here (default: the oldest),",
  "                                          by its position n or its id (like q1a2b3c4d) from",
  '                                          pending, or at once with answers like {"db":"SQLite"}:',
  '                                          best on stdin with - (echo \'{"db":"SQLite"}\' | pi-question',
  "                                          answer 2 -), as other users see arguments in ps",
].join("\n");

/** Text for stderr (file names and error messages are not ours): through the C sanitizer. Should
 * the addon itself not load (that may be the error), every control is shown as \uXXXX. */
function safe(text) {
  try {
    return loadAddon().sanitize(text, true);
  } catch {
    return text.replace(
      /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/gu,
      (c) => `\\u${c.codePointAt(0).toString(16).padStart(4, "0")}`,
    );
  }
}

async function main() {
  const arg = process.argv[2];
  if (arg === "-h" || arg === "--help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (arg === "pending") return pending(loadAddon());
  if (arg === "answer") return answer(loadAddon(), process.argv.slice(3));
  let input;
  try {
    input = readFileSync(arg && arg !== "-" ? arg : 0);
  } catch (error) {
    process.stderr.write(`pi-question: ${safe(`cannot read ${arg ?? "stdin"}: ${error.message}`)}\n${USAGE}\n`);
    return 2;
  }
  const addon = loadAddon();
  let presupplied;
  try {
    presupplied = addon.allPresupplied(input);
  } catch (error) {
    process.stderr.write(`pi-question: ${addon.sanitize(error.message, true)}\n`); // quotes the questions
    return 2;
  }
  // every question answered in the call itself: answered at once, no terminal needed (as the tool)
  if (presupplied) return printResult(addon.result(input, "answered", "presupplied", Date.now()));
  const OWNED =
    "pi-question: another program owns this terminal (it is in raw mode, or pi-question runs in the background); not asking there.\n";
  const tty = terminalPath();
  const status = addon.ttyStatus(tty);
  if (status !== "free") {
    process.stderr.write(status === "owned" ? OWNED : `pi-question: ${noTerminalMessage()}.\n`);
    return 3;
  }
  const run = addon.runTty(input.toString("utf8"), {
    path: tty,
    color: !process.env.NO_COLOR,
    mode: "standalone",
    accessible: process.env.TERM === "dumb", // plain lines for screen readers
  });
  // A signal ends the question (interrupted) and the result is still printed. Nothing is needed
  // at exit: the runner never keeps the process alive. (On Windows Node raises SIGINT for Ctrl+C
  // and SIGHUP when the console window closes; SIGTERM never comes there, listening is harmless.)
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) process.once(sig, () => run.stop());
  let built;
  try {
    built = await run.done;
  } catch (error) {
    if (error.code !== "QT_ETTYOWNED") throw error;
    process.stderr.write(OWNED);
    return 3;
  }
  return printResult(built);
}

/** Prints a result as the command's output ({ ...details, text }); its exit status. */
function printResult(built) {
  const details = JSON.parse(built.details);
  process.stdout.write(JSON.stringify({ ...details, text: built.text }, null, 2) + "\n");
  return details.status === "answered" ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    // Messages of the shared code (the addon's loader) carry the prefix already: said once.
    const message = String(error?.message ?? error).replace(/^pi-question: /, "");
    process.stderr.write(`pi-question: ${safe(message)}\n`);
    process.exit(1);
  },
);
