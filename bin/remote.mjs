// remote.mjs — `pi-question pending` and `pi-question answer`: the questions waiting in every pi
// of this user (found through the endpoint registry, see extension/relay-wire.mjs), answered
// from this terminal. The first answer from anywhere wins; a later one is told how the question
// ended ("already answered", "already cancelled"…). Everything a pi reports (prompts, paths,
// names) is sanitized before it is printed.
import { homedir } from "node:os";
import { basename } from "node:path";
import { performance } from "node:perf_hooks";
import { ENDING_STRINGS, listEndpoints, request, structuredAnswers } from "../extension/relay-wire.mjs";

/** Exit statuses of the two subcommands. */
export const EXIT = { taken: 0, notTaken: 1, invalid: 2, noTerminal: 3, nothingWaiting: 4 };

/** A question's id as pi makes it (ask.ts): "q" and 8 hex digits — never a position. */
const QID = /^q[0-9a-f]{8}$/;
const ENDINGS = Object.keys(ENDING_STRINGS);

/** How `pending` names a pi's session: its name, else a short id, else its file, else its pid. */
function sessionLabel(session, pid) {
  if (session && typeof session === "object") {
    if (typeof session.name === "string" && session.name) return JSON.stringify(session.name);
    if (typeof session.id === "string" && session.id) return session.id.slice(0, 8);
    if (typeof session.file === "string" && session.file) return basename(session.file);
  }
  if (typeof session === "string" && session) return JSON.stringify(session); // an older pi: its name
  return `pid ${pid}`;
}

/**
 * What every live pi reports: { waiting, ended }, each oldest first.
 * waiting: { pi, cwd, session, qid, askedAt, askedBy, args, questions };
 * ended: { pi, qid, askedAt, endedAt, ending } (the questions that stopped waiting lately).
 */
export async function questionsOfAllPis(addon, env = process.env) {
  const waiting = [];
  const ended = [];
  await Promise.all(
    listEndpoints(env).map(async (entry) => {
      const r = await request(entry.endpoint, { type: "list" }, { cap: 64 * 1024 * 1024 });
      if (r.type !== "reply" || r.message.type !== "pending" || !Array.isArray(r.message.questions)) return;
      const m = r.message;
      const cwd = typeof m.cwd === "string" ? m.cwd : String(entry.cwd ?? "?");
      const session = sessionLabel(m.session, Number.isInteger(m.pid) ? m.pid : entry.pid);
      for (const q of m.questions) {
        if (typeof q?.qid !== "string" || typeof q.args !== "string") continue;
        let canonical;
        try {
          canonical = addon.normalize({ prepared: q.args }); // a pi's report is untrusted too
        } catch {
          continue;
        }
        waiting.push({
          pi: entry,
          cwd,
          session,
          qid: q.qid,
          askedAt: Number(q.askedAt) || 0,
          askedBy: typeof q.askedBy === "string" ? q.askedBy : undefined,
          args: canonical,
          questions: JSON.parse(canonical).questions,
        });
      }
      for (const e of Array.isArray(m.ended) ? m.ended : []) {
        if (typeof e?.qid !== "string" || !ENDINGS.includes(e.ending)) continue;
        ended.push({ pi: entry, qid: e.qid, askedAt: Number(e.askedAt) || 0, endedAt: Number(e.endedAt) || 0, ending: e.ending });
      }
    }),
  );
  const oldestFirst = (a, b) => a.askedAt - b.askedAt;
  return { waiting: waiting.sort(oldestFirst), ended: ended.sort(oldestFirst) };
}

/** Every waiting question of every live pi, oldest first. */
export async function waitingQuestions(addon, env = process.env) {
  return (await questionsOfAllPis(addon, env)).waiting;
}

function waited(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

const fillS = (template, s) => template.replace("{s}", () => s);
/** Fills a string's placeholders: { s, n, i } (native/strings.c). */
const fill = (template, values) => template.replace(/\{([nsi])\}/g, (all, k) => (values[k] === undefined ? all : String(values[k])));

/** The strings of the person's language: LC_ALL, else LC_MESSAGES, else LANG (English when none
 * names a language pi-question speaks). */
export function stringsOf(addon, env = process.env) {
  return addon.strings(env.LC_ALL || env.LC_MESSAGES || env.LANG || "en");
}

function shortDirectory(dir, home) {
  return home && (dir === home || dir.startsWith(home + "/")) ? "~" + dir.slice(home.length) : dir;
}

/** pi-question pending: one entry per waiting question — its position and id, project, session,
 * who asks, how long it has waited. */
export async function pending(addon, { out = process.stdout, env = process.env, now = Date.now } = {}) {
  const t = stringsOf(addon, env);
  const { waiting: list } = await questionsOfAllPis(addon, env);
  const clean = (s) => addon.sanitize(String(s), false);
  if (!list.length) {
    out.write(`${t.REMOTE_NONE}\n`);
    return EXIT.nothingWaiting;
  }
  const home = env.HOME || homedir();
  list.forEach((w, i) => {
    const first = w.questions[0];
    const more = w.questions.length > 1 ? ` (+${w.questions.length - 1})` : "";
    const where = [
      fillS(t.REMOTE_LIST_ID, clean(w.qid)),
      clean(shortDirectory(w.cwd, home)),
      fillS(t.REMOTE_LIST_SESSION, clean(w.session)),
      clean(w.askedBy ?? t.REMOTE_LIST_AGENT),
      fillS(t.REMOTE_LIST_WAITED, waited(now() - w.askedAt)),
    ].join(" · ");
    out.write(`${i + 1}. ${clean(first.prompt)}${more}\n   ${where}\n`);
  });
  return EXIT.taken;
}

/** Sends one answer; prints what the pi said. */
async function send(addon, w, message, out, err, t) {
  const r = await request(w.pi.endpoint, { type: "answer", qid: w.qid, ...message }, { cap: 1024 * 1024 });
  if (r.type === "reply" && r.message.type === "result" && r.message.ok === true) {
    out.write(`${t.REMOTE_TAKEN}\n`);
    return EXIT.taken;
  }
  const refused = r.type === "reply" && r.message.type === "result";
  const reason = refused && typeof r.message.reason === "string" ? r.message.reason : t.REMOTE_NOT_WAITING;
  err.write(`pi-question: ${addon.sanitize(reason, true)}\n`);
  if (refused && r.message.code === "invalid") return EXIT.invalid;
  if (refused && r.message.code === "not_waiting") return EXIT.nothingWaiting;
  return EXIT.notTaken;
}

/** Answers in the forms --answers takes: { id: answer } or a list in question order. */
function answersFrom(t, value, questions) {
  if (Array.isArray(value)) {
    if (value.length !== questions.length) return { problem: fill(t.REMOTE_LIST_LENGTH, { n: value.length, s: questions.length }) };
    return { answers: Object.fromEntries(questions.map((q, i) => [q.id, value[i]])) };
  }
  if (!value || typeof value !== "object") return { problem: t.REMOTE_ANSWERS_SHAPE };
  return { answers: value };
}

/**
 * The question `target` names: a position ("2", counted over the questions waiting when this
 * command started — one that ended since keeps its place and says how it ended), an id
 * ("q1a2b3c4d", stable whatever else comes and goes), or nothing (the oldest waiting).
 * → { w } | { ended } | { problem } (the message; exit 4).
 */
function resolveTarget(t, all, target, started, clean) {
  if (target === undefined) return all.waiting.length ? { w: all.waiting[0] } : { problem: t.REMOTE_NONE };
  if (QID.test(target)) {
    const found = all.waiting.filter((w) => w.qid === target);
    if (found.length === 1) return { w: found[0] };
    if (found.length > 1) return { problem: fill(t.REMOTE_ID_AMBIGUOUS, { s: target, n: found.length }) };
    const ended = all.ended.filter((e) => e.qid === target).pop();
    if (ended) return { ended };
    return { problem: fill(t.REMOTE_NO_ID, { s: target }) };
  }
  const then = [...all.waiting, ...all.ended.filter((e) => e.endedAt >= started)].sort((a, b) => a.askedAt - b.askedAt);
  if (!then.length) return { problem: t.REMOTE_NONE };
  const n = /^[0-9]+$/.test(target) ? Number(target) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > then.length) {
    const range = then.length === 1 ? "1" : fill(t.REMOTE_RANGE, { n: then.length });
    return { problem: fill(t.REMOTE_NO_POSITION, { s: clean(target), n: range, i: clean(then[0].qid) }) };
  }
  const picked = then[n - 1];
  return picked.ending ? { ended: picked } : { w: picked };
}

/**
 * pi-question answer [n|id [answers-json]]
 * options: out, err, tty (the terminal to ask on), env (where the registry is), started (when
 * the command started, ms since the epoch: positions count the questions waiting then).
 */
export async function answer(
  addon,
  args,
  { out = process.stdout, err = process.stderr, tty = "/dev/tty", env = process.env, started = performance.timeOrigin } = {},
) {
  const t = stringsOf(addon, env);
  const clean = (s) => addon.sanitize(String(s), false);
  let value;
  if (args[1] !== undefined) {
    try {
      value = JSON.parse(args[1]);
    } catch (error) {
      err.write(`pi-question: ${fill(t.REMOTE_BAD_JSON, { s: addon.sanitize(error.message, true) })}\n`);
      return EXIT.invalid;
    }
  }
  const all = await questionsOfAllPis(addon, env);
  const picked = resolveTarget(t, all, args[0], started, clean);
  if (picked.problem) {
    err.write(`pi-question: ${picked.problem}\n`);
    // A position names no question now: say how the latest one to stop waiting ended (it may
    // be the one meant), without guessing that it was.
    const latest = [...all.ended].sort((a, b) => a.endedAt - b.endedAt).pop();
    if (latest && !QID.test(args[0] ?? "")) {
      const how = `${clean(latest.qid)} (${waited(Date.now() - latest.endedAt)} ago), ${t[ENDING_STRINGS[latest.ending]]}`;
      err.write(`pi-question: ${fillS(t.REMOTE_LAST_ENDED, how)}\n`);
    }
    return EXIT.nothingWaiting;
  }
  if (picked.ended) {
    err.write(`pi-question: ${t[ENDING_STRINGS[picked.ended.ending]]}\n`);
    return EXIT.notTaken;
  }
  const w = picked.w;
  if (args[1] !== undefined) {
    const given = answersFrom(t, value, w.questions);
    if (given.problem) {
      err.write(`pi-question: ${given.problem}\n`);
      return EXIT.invalid;
    }
    return send(addon, w, { outcome: "answered", answers: given.answers }, out, err, t);
  }
  // Asked right here, with the same engine; closed at once if it is answered anywhere else.
  if (!addon.ttyAvailable(tty)) {
    err.write(`pi-question: ${t.REMOTE_NO_TERMINAL}\n`);
    return EXIT.noTerminal;
  }
  const name = w.askedBy ?? null;
  const run = addon.runTty({ prepared: w.args }, { path: tty, color: !env.NO_COLOR, mode: "remote", askerName: name, language: t.$language });
  const watching = new AbortController();
  let closedElsewhere = false;
  request(w.pi.endpoint, { type: "watch", qid: w.qid }, { signal: watching.signal }).then(() => {
    if (watching.signal.aborted) return;
    closedElsewhere = true;
    run.stop();
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
  if (details.status === "interrupted") {
    if (closedElsewhere) out.write(`${t.REMOTE_CLOSED}\n`);
    // Closed elsewhere (or pi gone) while the person was typing: what they typed, from the runner.
    keepWords(addon, t, out, details.questions, Array.isArray(built.typed) ? built.typed : []);
    return EXIT.notTaken;
  }
  const message = { outcome: details.status, answers: details.status === "cancelled" ? null : structuredAnswers(details) };
  // The person's words travel to pi; if pi does not take them (answered elsewhere first,
  // withdrawn, or gone), they are printed here so they are never lost: Ctrl+T's words ("talk
  // first"), and every typed answer and note.
  const words = details.status === "discuss" ? String(details.discussion ?? "") : "";
  const code = await send(addon, w, details.status === "discuss" ? { ...message, discussion: words } : message, out, err, t);
  if (code === EXIT.taken) return code;
  const typed = Object.entries(message.answers ?? {}).map(([id, a]) => ({ id, wrote: a.wrote, note: a.note }));
  keepWords(addon, t, out, details.questions, typed, words);
  return code;
}

/** Prints what the person wrote that pi did not take, sanitized, after REMOTE_WORDS_KEPT: each
 * typed answer ("label: text") and note, then Ctrl+T's words. Nothing when there is none. */
function keepWords(addon, t, out, questions, typed, words = "") {
  const lines = [];
  for (const { id, wrote, note } of typed) {
    const q = Array.isArray(questions) ? questions.find((x) => x?.id === id) : undefined;
    const label = addon.sanitize(String(q?.label ?? id), false);
    if (typeof wrote === "string" && wrote) lines.push(`${label}: ${addon.sanitize(wrote, true)}`);
    if (typeof note === "string" && note) lines.push(`${label}: ${t.NOTE_PREFIX}${addon.sanitize(note, true)}`);
  }
  if (words) lines.push(addon.sanitize(words, true));
  if (lines.length) out.write(`${t.REMOTE_WORDS_KEPT}\n${lines.join("\n")}\n`);
}
