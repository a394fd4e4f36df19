// pending-worker.mjs — one process of the concurrency test of the pending-questions file
// (tests/pending-lock.test.mjs), using the extension's own pending.ts through jiti as pi does.
//   node pending-worker.mjs writer <dir> <name> <rounds> <sets>   adds <sets> question sets to
//        <dir>/round-<r>/pending.json per round, then forgets every second one it added
//   node pending-worker.mjs emptier <dir> <name> <rounds> <sets>  adds <sets> sets per round
//        to <dir>/emptied-<r>/pending.json and forgets them all again
//   node pending-worker.mjs reader <dir> <rounds>                 reads every round's file
//        until stdin closes; prints how many reads it made and how many failed
//   node pending-worker.mjs holder <lockfile>                     takes the lock, prints
//        "locked", and waits to be killed
// Workers print "ready" once loaded and start on the line "go" on stdin, so every process
// starts its work at the same moment.
import { createInterface } from "node:readline";
import { join } from "node:path";
import { addon } from "./addon.mjs";
import { importShim } from "./shim.mjs";

const pending = await importShim("ask/pending.ts");
const [role, ...args] = process.argv.slice(2);

if (role === "holder") {
  // Kept reachable: the lock's finalizer releases it once the object is collected.
  const held = addon.lockFile(args[0], 0);
  process.stdout.write("locked\n");
  setInterval(() => held, 1000);
} else {
  const lines = createInterface({ input: process.stdin });
  const next = () => new Promise((resolve) => lines.once("line", resolve));
  const closed = new Promise((resolve) => lines.once("close", resolve));
  process.stdout.write("ready\n");
  await next();
  const question = (name, k) => [{ id: `${name}-${k}`, prompt: `Question ${k} of ${name}?`, options: [{ value: "y", label: "Yes" }] }];
  if (role === "writer" || role === "emptier") {
    const [dir, name, rounds, sets] = [args[0], args[1], Number(args[2]), Number(args[3])];
    const failures = [];
    for (let r = 0; r < rounds; r++) {
      const path = join(dir, `${role === "writer" ? "round" : "emptied"}-${r}`, "pending.json");
      for (let k = 0; k < sets; k++) {
        const out = await pending.rememberPending(dir, path, question(name, k));
        if (typeof out === "string") failures.push(out);
      }
      for (let k = role === "writer" ? 1 : 0; k < sets; k += role === "writer" ? 2 : 1) {
        const out = await pending.forgetPending(dir, path, pending.questionsKey(question(name, k)));
        if (out) failures.push(out);
      }
    }
    process.stdout.write(JSON.stringify({ failures }) + "\n");
  } else if (role === "reader") {
    const [dir, rounds] = [args[0], Number(args[1])];
    let reads = 0;
    const errors = [];
    let open = true;
    closed.then(() => (open = false));
    while (open) {
      for (let r = 0; r < rounds; r++) {
        const { error } = pending.readPending(join(dir, `round-${r}`, "pending.json"), dir);
        reads++;
        if (error) errors.push(error);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    process.stdout.write(JSON.stringify({ reads, errors }) + "\n");
  }
}
