// remote.mjs — `pi-question pending` and `pi-question answer`: the questions waiting in every pi
// of this user (found through the endpoint registry, see extension/relay-wire.mjs), answered
// from this terminal. The first answer from anywhere wins; a later one is told "already
// answered". Everything a pi reports (prompts, paths, names) is sanitized before it is printed.
import { listEndpoints, request, structuredAnswers } from "../extension/relay-wire.mjs";

/** Exit statuses of the two subcommands. */
export const EXIT = { taken: 0, notTaken: 1, invalid: 2, noTerminal: 3, nothingWaiting: 4 };

/** Every waiting question of every live pi, oldest first: { pi, qid, askedAt, askedBy, args, questions }. */
export async function waitingQuestions(addon) {
  const found = [];
  await Promise.all(
    listEndpoints().map(async (entry) => {
      const r = await request(entry.endpoint, { type: "list" }, { cap: 64 * 1024 * 1024 });
      if (r.type !== "reply" || r.message.type !== "pending" || !Array.isArray(r.message.questions)) return;
      for (const q of r.message.questions) {
        if (typeof q?.qid !== "string" || typeof q.args !== "string") continue;
        let canonical;
        try {
          canonical = addon.normalize({ prepared: q.args }); // a pi's report is untrusted too
        } catch {
          continue;
        }
        found.push({
          pi: entry,
          cwd: typeof r.message.cwd === "string" ? r.message.cwd : entry.cwd,
          session: typeof r.message.session === "string" ? r.message.session : undefined,
          qid: q.qid,
          askedAt: Number(q.askedAt) || 0,
          askedBy: typeof q.askedBy === "string" ? q.askedBy : undefined,
          args: canonical,
          questions: JSON.parse(canonical).questions,
        });
      }
    }),
  );
  return found.sort((a, b) => a.askedAt - b.askedAt);
}

function waited(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

/** pi-question pending */
export async function pending(addon, out = process.stdout) {
  const t = addon.strings("en");
  const list = await waitingQuestions(addon);
  const clean = (s) => addon.sanitize(String(s), false);
  if (!list.length) {
    out.write(`${t.REMOTE_NONE}\n`);
    return EXIT.nothingWaiting;
  }
  list.forEach((w, i) => {
    const first = w.questions[0];
    const more = w.questions.length > 1 ? ` (+${w.questions.length - 1})` : "";
    const where = [clean(w.cwd), w.session ? `"${clean(w.session)}"` : "", w.askedBy ? clean(w.askedBy) : "", waited(Date.now() - w.askedAt)]
      .filter(Boolean)
      .join(" · ");
    out.write(`${i + 1}. ${clean(first.prompt)}${more}\n   ${where}\n`);
  });
  return EXIT.taken;
}

/** Sends one answer; prints what the pi said. */
async function send(addon, w, outcome, answers, out, err) {
  const t = addon.strings("en");
  const r = await request(w.pi.endpoint, { type: "answer", qid: w.qid, outcome, answers }, { cap: 1024 * 1024 });
  if (r.type === "reply" && r.message.type === "result" && r.message.ok === true) {
    out.write(`${t.REMOTE_TAKEN}\n`);
    return EXIT.taken;
  }
  const refused = r.type === "reply" && r.message.type === "result";
  const reason = refused && typeof r.message.reason === "string" ? r.message.reason : t.REMOTE_NOT_WAITING;
  err.write(`pi-question: ${addon.sanitize(reason, true)}\n`);
  return refused && r.message.code === "invalid" ? EXIT.invalid : EXIT.notTaken;
}

/** Answers in the forms --answers takes: { id: answer } or a list in question order. */
function answersFrom(text, questions) {
  const value = JSON.parse(text);
  if (Array.isArray(value)) {
    if (value.length !== questions.length) {
      throw new Error(`the list has ${value.length} answers but the question has ${questions.length} parts; give one per question, in order`);
    }
    return Object.fromEntries(questions.map((q, i) => [q.id, value[i]]));
  }
  if (!value || typeof value !== "object") throw new Error('answers must be an object like {"db":"SQLite"} or a list in question order');
  return value;
}

/** pi-question answer [n [answers-json]] */
export async function answer(addon, args, { out = process.stdout, err = process.stderr, tty = "/dev/tty" } = {}) {
  const t = addon.strings("en");
  const list = await waitingQuestions(addon);
  const n = args[0] === undefined ? 1 : Number(args[0]);
  if (!list.length) {
    err.write(`pi-question: ${t.REMOTE_NONE}\n`);
    return EXIT.nothingWaiting;
  }
  if (!Number.isInteger(n) || n < 1 || n > list.length) {
    err.write(`pi-question: there is no question ${addon.sanitize(String(args[0]), false)}; run "pi-question pending" (1 to ${list.length})\n`);
    return EXIT.nothingWaiting;
  }
  const w = list[n - 1];
  if (args[1] !== undefined) {
    let answers;
    try {
      answers = answersFrom(args[1], w.questions);
    } catch (error) {
      err.write(`pi-question: ${addon.sanitize(error.message, true)}\n`);
      return EXIT.invalid;
    }
    return send(addon, w, "answered", answers, out, err);
  }
  // Asked right here, with the same engine; closed at once if it is answered anywhere else.
  if (!addon.ttyAvailable(tty)) {
    err.write("pi-question: no terminal to ask on; answer with: pi-question answer <n> '<answers JSON>'\n");
    return EXIT.noTerminal;
  }
  const name = w.askedBy ?? null;
  const run = addon.runTty({ prepared: w.args }, { path: tty, color: !process.env.NO_COLOR, mode: "remote", askerName: name });
  const watching = new AbortController();
  let closedElsewhere = false;
  request(w.pi.endpoint, { type: "watch", qid: w.qid }, { signal: watching.signal }).then((r) => {
    if (watching.signal.aborted) return;
    closedElsewhere = true;
    run.stop();
    void r;
  });
  const stop = () => run.stop();
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) process.once(sig, stop);
  process.once("exit", stop);
  let built;
  try {
    built = await run.done;
  } finally {
    watching.abort();
    for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) process.removeListener(sig, stop);
    process.removeListener("exit", stop);
  }
  const details = JSON.parse(built.details);
  if (closedElsewhere && details.status === "interrupted") {
    out.write(`${t.REMOTE_CLOSED}\n`);
    return EXIT.notTaken;
  }
  if (details.status === "interrupted") return EXIT.notTaken;
  const answers = details.status === "cancelled" ? null : structuredAnswers(details);
  return send(addon, w, details.status, answers, out, err);
}
