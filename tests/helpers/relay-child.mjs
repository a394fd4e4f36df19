// relay-child.mjs — a subagent's pi in miniature for the relay tests: the extension loaded as pi
// loads it (fake-pi.mjs), in print mode (no UI of its own), asks the question whose arguments
// are in the file <args.json> and writes the tool result, with the asker variables it leaves
// for its own children, to <out.json> (or the thrown error's message).
//   node relay-child.mjs <args.json> <out.json> [argv words pi would have, e.g. --append-system-prompt <file>]
// The test hands the relay and the agent's name over as CHILD_PI_QUESTION_* (isolate.mjs, which
// every helper imports, removes the real variables so no test reaches a pi around it).
import { readFileSync, writeFileSync } from "node:fs";

const [argsFile, outFile, ...piArgv] = process.argv.slice(2);
const { headlessContext, loadExtension } = await import("./fake-pi.mjs");
for (const name of ["PI_QUESTION_RELAY", "PI_QUESTION_ASKER", "PI_QUESTION_ASKER_CHAIN"]) {
  const given = process.env[`CHILD_${name}`];
  if (given !== undefined) process.env[name] = given;
  delete process.env[`CHILD_${name}`];
}
process.argv.push(...piArgv); // as pi's own argv (the subagent example's prompt file names the agent)
const handlers = new Map();
const { tools } = await loadExtension({ on: (name, fn) => handlers.set(name, fn) });
const ctx = headlessContext(process.cwd());
await handlers.get("session_start")?.({ reason: "startup" }, ctx);
const tool = tools.get("question");
const env = { asker: process.env.PI_QUESTION_ASKER ?? null, chain: process.env.PI_QUESTION_ASKER_CHAIN ?? null };
let out;
try {
  const result = await tool.execute("c", tool.prepareArguments(JSON.parse(readFileSync(argsFile, "utf8"))), undefined, undefined, ctx);
  out = { result, env };
} catch (error) {
  out = { error: error.message, env };
}
await handlers.get("session_shutdown")?.({}, {});
writeFileSync(outFile, JSON.stringify(out));
