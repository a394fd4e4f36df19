// tty-child.mjs — a program that runs the terminal runner on its /dev/tty, for pty-host.py
// (tests/tty-runner.test.mjs). usage: node tty-child.mjs MODE RESULT_FILE [DELAY_MS]
//   stop    runTty, stop() after DELAY_MS, wait for the result, write it, end naturally
//   exit    runTty, process.exit(0) after DELAY_MS without stop()
//   worker  runTty in a worker thread; terminate the worker after DELAY_MS, end naturally
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
  const [mode, resultFile, delay = "500"] = process.argv.slice(2);
  const save = (value) => writeFileSync(resultFile, JSON.stringify(value));
  if (mode === "probe") {
    save({ status: addon.ttyStatus?.("/dev/tty") ?? null, available: addon.ttyAvailable("/dev/tty") });
  } else if (mode === "worker") {
    const worker = new Worker(new URL(import.meta.url), { workerData: "worker" });
    worker.on("error", (e) => save({ error: String(e) }));
    setTimeout(() => worker.terminate().then(() => save({ terminated: true })), Number(delay));
  } else {
    const notice = process.env.PQ_TEST_NOTICE; // a desktop notification for the runner to send
    const run = addon.runTty(QUESTIONS, { path: "/dev/tty", color: false, mode, ...(notice ? { notice } : {}) });
    run.done.then(
      (built) => save({ status: JSON.parse(built.details).status, ...(mode === "typed" ? { typed: built.typed } : {}) }),
      (error) => save({ error: error.code ?? String(error) }),
    );
    if (mode === "stop") setTimeout(() => run.stop(), Number(delay));
    if (mode === "typed") process.once("SIGUSR1", () => run.stop());
    if (mode === "exit") setTimeout(() => process.exit(0), Number(delay));
  }
}
