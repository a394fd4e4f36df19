// remote.mjs — `pi-question pending` and `pi-question answer`: the questions waiting in every pi
// of this user (found through the endpoint registry, see extension/elsewhere/relay-wire.mjs), answered
// from this terminal. The first answer from anywhere wins; a later one is told how the question
// ended ("already answered", "already cancelled"…). Everything a pi reports (prompts, paths,
// names) is sanitized before it is printed. A pi that does not reply in time (stopped with
// Ctrl+Z, inside its external editor — pi runs it synchronously — or otherwise busy) is named
// in one line and the others are shown without it: one stuck pi never hides the rest.
import { homedir } from "node:os";
import { performance } from "node:perf_hooks";
import {
  ENDING_STRINGS,
  listEndpoints,
  request,
  sessionLabel,
  shortDirectory,
  structuredAnswers,
} from "../extension/elsewhere/relay-wire.mjs";

/** The terminal a question is asked on: the controlling terminal on POSIX, the console's input
 * on Windows (the addon opens CONIN$ / CONOUT$ there). */
export function terminalPath(platform = process.platform) {
  return platform === "win32" ? "CONIN$" : "/dev/tty";
}

/** Why no question can be asked on this terminal, for stderr: on Windows no console is attached
 * (CONIN$ does not open as console input); elsewhere the terminal cannot be opened. */
export function noTerminalMessage(platform = process.platform, tty = terminalPath(platform)) {
  return platform === "win32"
    ? `no console to ask on (${tty} cannot be opened: this process has no console)`
    : `no terminal to ask on (${tty} cannot be opened)`;
}

export { shortDirectory }; // the tests of Windows paths read it here, where pending uses it

/** The home directory a path is shortened against ("~"): $HOME on POSIX, the profile on Windows
 * (%USERPROFILE%: a HOME set by a POSIX-like shell there names another form of path). */
export function homeOf(env = process.env, platform = process.platform) {
  return (platform === "win32" ? env.USERPROFILE : env.HOME) || homedir();
}

/** Exit statuses of the two subcommands. */
export const EXIT = { taken: 0, notTaken: 1, invalid: 2, noTerminal: 3, nothingWaiting: 4, noReply: 5 };

/** A question's id as pi makes it (ask.ts): "q" and 8 hex digits — never a position. */
const QID = /^q[0-9a-f]{8}$/;
const ENDINGS = Object.keys(ENDING_STRINGS);

/** How long a pi has to accept a connection and then to reply: the options given (tests pass
 * small values), else the limits (QT_REMOTE_CONNECT_MS, QT_REMOTE_REPLY_MS). */
function waitsOf(addon, { connectMs, replyMs } = {}) {
  return { connectMs: connectMs ?? addon.limits.remoteConnectMs, replyMs: replyMs ?? addon.limits.remoteReplyMs };
}

/** A request's outcome that says the pi is there but not answering: the stage ("connect" or
 * "reply") it got stuck at, or undefined. A full queue of unaccepted connections (EAGAIN) is a
 * pi that has not accepted any for a long time: stuck at connect. */
function stuckAt(r) {
  if (r.type === "timeout") return r.stage;
  if (r.type === "unreachable" && r.reason === "EAGAIN") return "connect";
  return undefined;
}

/** "~/src/shop (pid 4242, session "fix login")": a registered pi as its registry entry knows it,
 * sanitized (the strings say "the pi in {s}"). */
function whichPi(addon, t, entry, env) {
  const clean = (s) => addon.sanitize(String(s), false);
  const where = typeof entry.cwd === "string" && entry.cwd ? clean(shortDirectory(entry.cwd, homeOf(env))) : "?";
  const session = entry.session ? `, ${fillS(t.REMOTE_LIST_SESSION, clean(sessionLabel(entry.session, entry.pid)))}` : "";
  return `${where} (pid ${entry.pid}${session})`;
}

/** One stderr line per pi that did not answer `list` in time. */
function reportSilent(addon, t, err, env, silent) {
  for (const { pi, stage, ms } of silent) {
    const sentence = stage === "connect" ? t.REMOTE_PI_NO_CONNECT : t.REMOTE_PI_NO_REPLY;
    err.write(`pi-question: ${fill(sentence, { s: whichPi(addon, t, pi, env), n: ms / 1000 })}\n`);
  }
}

/**
 * What every live pi reports: { waiting, ended, silent }, each oldest first.
 * waiting: { pi, cwd, session, qid, askedAt, askedBy, args, questions };
 * ended: { pi, qid, askedAt, endedAt, ending } (the questions that stopped waiting lately);
 * silent: { pi, stage, ms } (the pis that did not accept the connection, or did not reply, in
 * time — `ms` is the wait that ran out).
 * options: connectMs, replyMs (see waitsOf).
 */
export async function questionsOfAllPis(addon, env = process.env, options = {}) {
  const waits = waitsOf(addon, options);
  const waiting = [];
  const ended = [];
  const silent = [];
  await Promise.all(
    listEndpoints(env).map(async (entry) => {
      const r = await request(entry.endpoint, { type: "list" }, { cap: 64 * 1024 * 1024, ...waits, pipes: addon });
      const stage = stuckAt(r);
      if (stage) silent.push({ pi: entry, stage, ms: stage === "connect" ? waits.connectMs : waits.replyMs });
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
  silent.sort((a, b) => a.pi.pid - b.pi.pid);
  return { waiting: waiting.sort(oldestFirst), ended: ended.sort(oldestFirst), silent };
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
/** Fills a string's placeholders: { s, n, i } (native/core/text/strings.c). */
const fill = (template, values) => template.replace(/\{([nsi])\}/g, (all, k) => (values[k] === undefined ? all : String(values[k])));

/** The strings of the person's language: LC_ALL, else LC_MESSAGES, else LANG (English when none
 * names a language pi-question speaks). */
export function stringsOf(addon, env = process.env) {
  return addon.strings(env.LC_ALL || env.LC_MESSAGES || env.LANG || "en");
}

/** pi-question pending: one entry per waiting question — its position and id, project, session,
 * who asks, how long it has waited — and on stderr one line per pi that did not answer in time.
 * Exit status: 0 something is waiting, 4 nothing is, 5 nothing is in the pis that answered but
 * some did not. options: out, err, env, now, connectMs, replyMs. */
export async function pending(
  addon,
  { out = process.stdout, err = process.stderr, env = process.env, now = Date.now, connectMs, replyMs } = {},
) {
  const t = stringsOf(addon, env);
  const { waiting: list, silent } = await questionsOfAllPis(addon, env, { connectMs, replyMs });
  const clean = (s) => addon.sanitize(String(s), false);
  if (!list.length) {
    if (!silent.length) out.write(`${t.REMOTE_NONE}\n`); // not "in any pi" when some did not say
    reportSilent(addon, t, err, env, silent);
    return silent.length ? EXIT.noReply : EXIT.nothingWaiting;
  }
  const home = homeOf(env);
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
  reportSilent(addon, t, err, env, silent);
  return EXIT.taken;
}

/** Sends one answer; prints what the pi said. A pi that accepts the answer but does not confirm
 * it in time (stopped, inside its editor, busy) has it waiting in its socket and may still take
 * it when it resumes: exit 5, never "not taken". One that does not even accept the connection
 * in time never got it: not taken (exit 1). */
async function send(addon, w, message, out, err, t, waits, env) {
  const r = await request(w.pi.endpoint, { type: "answer", qid: w.qid, ...message }, { cap: 1024 * 1024, ...waits, pipes: addon });
  if (r.type === "reply" && r.message.type === "result" && r.message.ok === true) {
    out.write(`${t.ELSEWHERE_TAKEN}\n`);
    return EXIT.taken;
  }
  const stage = stuckAt(r);
  if (stage === "reply") {
    err.write(`pi-question: ${fill(t.REMOTE_PI_UNCONFIRMED, { s: whichPi(addon, t, w.pi, env), n: waits.replyMs / 1000 })}\n`);
    return EXIT.noReply;
  }
  if (stage === "connect") {
    err.write(`pi-question: ${fill(t.REMOTE_PI_NOT_SENT, { s: whichPi(addon, t, w.pi, env), n: waits.connectMs / 1000 })}\n`);
    return EXIT.notTaken;
  }
  const refused = r.type === "reply" && r.message.type === "result";
  const reason = refused && typeof r.message.reason === "string" ? r.message.reason : t.ELSEWHERE_NOT_WAITING;
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

/** The answers JSON from standard input (`answer n -`), so that it never is on the command line,
 * where every local user sees it (`ps`). At most `cap` bytes. → { text } | { problem } */
async function readAnswers(stdin, cap, t) {
  const parts = [];
  let size = 0;
  for await (const chunk of stdin) {
    const bytes = Buffer.from(chunk);
    size += bytes.length;
    if (size > cap) return { problem: fill(t.REMOTE_STDIN_LONG, { n: cap }) }; // leaving the loop closes it
    parts.push(bytes);
  }
  const text = Buffer.concat(parts).toString("utf8");
  if (!text.trim()) {
    return { problem: t.REMOTE_STDIN_EMPTY };
  }
  return { text };
}

/**
 * pi-question answer [n|id [answers-json | -]]   ("-": the answers JSON from standard input)
 * options: out, err, tty (the terminal to ask on), env (where the registry is), started (when
 * the command started, ms since the epoch: positions count the questions waiting then), stdin
 * (where "-" reads), connectMs / replyMs (how long each pi has; see waitsOf).
 */
export async function answer(
  addon,
  args,
  {
    out = process.stdout,
    err = process.stderr,
    tty = terminalPath(),
    env = process.env,
    started = performance.timeOrigin,
    stdin = process.stdin,
    connectMs,
    replyMs,
  } = {},
) {
  const t = stringsOf(addon, env);
  const clean = (s) => addon.sanitize(String(s), false);
  const waits = waitsOf(addon, { connectMs, replyMs });
  let value;
  if (args[1] !== undefined) {
    let text = args[1];
    if (text === "-") {
      if (stdin.isTTY) err.write(`pi-question: ${t.REMOTE_STDIN_READING}\n`);
      const read = await readAnswers(stdin, addon.limits.answersJsonBytes, t);
      if (read.problem) {
        err.write(`pi-question: ${read.problem}\n`);
        return EXIT.invalid;
      }
      text = read.text;
    }
    try {
      value = JSON.parse(text);
    } catch (error) {
      err.write(`pi-question: ${fill(t.REMOTE_BAD_JSON, { s: addon.sanitize(error.message, true) })}\n`);
      return EXIT.invalid;
    }
  }
  const all = await questionsOfAllPis(addon, env, waits);
  const picked = resolveTarget(t, all, args[0], started, clean);
  if (picked.problem) {
    // "No question is waiting in any pi" is not said when some pi did not answer: the question
    // may be waiting there.
    if (!(all.silent.length && picked.problem === t.REMOTE_NONE)) err.write(`pi-question: ${picked.problem}\n`);
    // A position names no question now: say how the latest one to stop waiting ended (it may
    // be the one meant), without guessing that it was.
    const latest = [...all.ended].sort((a, b) => a.endedAt - b.endedAt).pop();
    if (latest && !QID.test(args[0] ?? "")) {
      const how = `${clean(latest.qid)} (${waited(Date.now() - latest.endedAt)} ago), ${t[ENDING_STRINGS[latest.ending]]}`;
      err.write(`pi-question: ${fillS(t.REMOTE_LAST_ENDED, how)}\n`);
    }
    reportSilent(addon, t, err, env, all.silent);
    return all.silent.length ? EXIT.noReply : EXIT.nothingWaiting;
  }
  // A position, or "the oldest", counts only the questions of the pis that answered: say which
  // did not. (An id names its question wherever it is.)
  if (!QID.test(args[0] ?? "")) reportSilent(addon, t, err, env, all.silent);
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
    return send(addon, w, { outcome: "answered", answers: given.answers }, out, err, t, waits, env);
  }
  // Asked right here, with the same engine; closed at once if it is answered anywhere else.
  if (!addon.ttyAvailable(tty)) {
    err.write(`pi-question: ${t.REMOTE_NO_TERMINAL}\n`);
    return EXIT.noTerminal;
  }
  const name = w.askedBy ?? null;
  const run = addon.runTty(
    { prepared: w.args },
    { path: tty, color: !env.NO_COLOR, mode: "remote", askerName: name, language: t.$language },
  );
  const watching = new AbortController();
  let closedElsewhere = false;
  // The watch waits for as long as the question does, so only its connection has a time limit;
  // a pi that does not accept it is left unwatched (the answer, when sent, still says how it went).
  request(w.pi.endpoint, { type: "watch", qid: w.qid }, { signal: watching.signal, connectMs: waits.connectMs, pipes: addon }).then((r) => {
    if (watching.signal.aborted || stuckAt(r)) return;
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
    if (closedElsewhere) out.write(`${t.ELSEWHERE_CLOSED}\n`);
    // Closed elsewhere (or pi gone) while the person was typing: what they typed, from the runner.
    keepWords(addon, t, out, details.questions, Array.isArray(built.typed) ? built.typed : []);
    return EXIT.notTaken;
  }
  const message = { outcome: details.status, answers: details.status === "cancelled" ? null : structuredAnswers(details) };
  // The person's words travel to pi; if pi does not take them (answered elsewhere first,
  // withdrawn, or gone), they are printed here so they are never lost: Ctrl+T's words ("talk
  // first"), and every typed answer and note.
  const words = details.status === "discuss" ? String(details.discussion ?? "") : "";
  const code = await send(addon, w, details.status === "discuss" ? { ...message, discussion: words } : message, out, err, t, waits, env);
  if (code === EXIT.taken) return code;
  const typed = Object.entries(message.answers ?? {}).map(([id, a]) => ({ id, wrote: a.wrote, note: a.note }));
  // Not confirmed is not "not delivered": the pi may still take it.
  const heading = code === EXIT.noReply ? t.REMOTE_WORDS_UNCONFIRMED : t.ELSEWHERE_WORDS_KEPT;
  keepWords(addon, t, out, details.questions, typed, words, heading);
  return code;
}

/** Prints what the person wrote that pi did not take (or did not confirm), sanitized, after
 * `heading` (ELSEWHERE_WORDS_KEPT): each typed answer ("label: text") and note, then Ctrl+T's
 * words. Nothing when there is none. */
function keepWords(addon, t, out, questions, typed, words = "", heading = t.ELSEWHERE_WORDS_KEPT) {
  const lines = [];
  for (const { id, wrote, note } of typed) {
    const q = Array.isArray(questions) ? questions.find((x) => x?.id === id) : undefined;
    const label = addon.sanitize(String(q?.label ?? id), false);
    if (typeof wrote === "string" && wrote) lines.push(`${label}: ${addon.sanitize(wrote, true)}`);
    if (typeof note === "string" && note) lines.push(`${label}: ${t.NOTE_PREFIX}${addon.sanitize(note, true)}`);
  }
  if (words) lines.push(addon.sanitize(words, true));
  if (lines.length) out.write(`${heading}\n${lines.join("\n")}\n`);
}
