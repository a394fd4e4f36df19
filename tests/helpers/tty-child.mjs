// tty-child.mjs — a program that runs the terminal runner on its /dev/tty, for pty-host.py
// (tests/tty-runner.test.mjs). usage: node tty-child.mjs MODE RESULT_FILE
// The test ends a run with SIGUSR1 (pty-host.py sends it a set time after the terminal went raw,
// or once the question is drawn), never after a delay of the child's own: a loaded machine may
// take longer than any delay to get the runner going.
//   stop    runTty, stop() on SIGUSR1, wait for the result, write it, end naturally
//   exit    runTty, process.exit(0) on SIGUSR1 without stop()
//   worker  runTty in a worker thread; terminate the worker on SIGUSR1, end naturally
//   hold    runTty and wait for the result (signals are the test's business)
//   typed   runTty, stop() on SIGUSR1, write { status, typed } (what the person typed)
//   probe   write { status: ttyStatus, available: ttyAvailable } of /dev/tty and end
import { writeFileSync } from "node:fs";
import { Worker, isMainThread, workerData } from "node:worker_threads";
import { loadAddon } from "../../extension/load-addon.cjs";

const QUESTIONS = JSON.stringify({
  questions: [
    {
      id: "db",
      prompt: "Which database?",
      options: Array.from({ length: 6 }, (_, i) => ({ value: `v${i}`, label: `Option ${i}`, description: `The option number ${i}` })),
    },
  ],
});

const addon = loadAddon();
if (!isMainThread) {
  addon.runTty(QUESTIONS, { path: "/dev/tty", color: false, mode: workerData });
} else {
  const [mode, resultFile] = process.argv.slice(2);
  const save = (value) => writeFileSync(resultFile, JSON.stringify(value));
  if (mode === "probe") {
    save({ status: addon.ttyStatus?.("/dev/tty") ?? null, available: addon.ttyAvailable("/dev/tty") });
  } else if (mode === "worker") {
    const worker = new Worker(new URL(import.meta.url), { workerData: "worker" });
    worker.on("error", (e) => save({ error: String(e) }));
    process.once("SIGUSR1", () => worker.terminate().then(() => save({ terminated: true })));
  } else {
    const notice = process.env.PQ_TEST_NOTICE; // a desktop notification for the runner to send
    const run = addon.runTty(QUESTIONS, { path: "/dev/tty", color: false, mode, ...(notice ? { notice } : {}) });
    run.done.then(
      (built) => save({ status: JSON.parse(built.details).status, ...(mode === "typed" ? { typed: built.typed } : {}) }),
      (error) => save({ error: error.code ?? String(error) }),
    );
    if (mode === "stop" || mode === "typed") process.once("SIGUSR1", () => run.stop());
    if (mode === "exit") process.once("SIGUSR1", () => process.exit(0));
  }
}
