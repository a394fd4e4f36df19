// text.ts — what the TypeScript side says in English only: messages to the model and
// diagnostics (settings, pending file). What registering says — the tool's description,
// guidelines and parameter schema, the commands' and the flag's descriptions — is in index.ts,
// the one file pi loads at start. Everything shown on the person's screens comes
// from the C string table (i18n.ts).

/** Marks of the expanded result view (symbols, the same in every language). */
export const MARKS = { chosen: "●", notChosen: "○" };

export const ERRORS = {
  notAlone:
    "The question tool must be the only tool call in its message, so the user is never asked while other tools run. Call the other tools first, then call question alone in a later message.",
  busy: "Another question is already open; this one waits until it is answered.",
};

export const PENDING = {
  fileInstructions:
    'Questions from the pi agent. Write each answer in its "answer" field: an option\'s label or value, your own words, or a list of them for a multiSelect question, and leave the other fields as they are (the seal checks that your own pi wrote them). Then run `pi -c` to continue.',
  unreadable: (path: string, why: string) =>
    `The pending-questions file ${path} ${why}; fix it, or remove it with /questions clear (answers written in it are then lost).`,
  refused: (path: string, why: string) =>
    `The pending-questions file ${path} ${why}, so it is neither read nor written: its answers are not used and no question is saved in it. Remove it (or make it a regular file of yours inside the project), or answer with --answers.`,
  foreign: (path: string, askedAt: string) =>
    `The answers in ${path} (the questions asked at ${askedAt}) were not used: your pi did not write that set (its seal is missing or wrong; a pending file that came with the repository, or one edited beyond its "answer" fields). Delete the file (/questions clear) and ask again: pi then writes its own set, whose answers count.`,
  untrusted: (path: string) =>
    `This project is not trusted (pi asked, or your defaultProjectTrust declined), so its .pi files do not count: the questions were not saved to ${path} and answers there are not read. Answer with --answers, or trust the project.`,
  untrustedReason: (path: string, example: string) =>
    `No terminal is attached, and this project is not trusted, so the questions were not saved to ${path}. The user can answer by running \`pi -c --answers '${example}'\` (or trust the project); when they continue, call question again with exactly the same questions.`,
  badKey: (path: string, why: string) =>
    `pi-question's key ${path} ${why}, so answers written in the pending-questions file cannot be checked and are not used; remove it (pi makes a new one), or answer with --answers.`,
  outside: (path: string, why: string, root: string) =>
    `The pending-questions file ${path} was neither written nor removed: it ${why}, and pi-question writes and removes files only inside the project (${root}).`,
  unwritable: (path: string, why: string) => `The pending-questions file ${path} could not be written (${why}).`,
  locked: (path: string, waitedMs: number) =>
    `Another pi is updating the pending-questions file ${path} and did not finish within ${waitedMs / 1000} s; try again.`,
  flagListNeedsPending:
    'The --answers flag is a list, which answers pending questions in their order, but these questions are not pending; give the answers by id instead ({"id": "answer"}).',
  flagNotJson:
    'The --answers flag must be JSON: an object by question id ({"db": "PostgreSQL"}) or a list in question order (["PostgreSQL", "orders"]).',
  reason: (path: string, example: string) =>
    `No terminal is attached, so the questions were saved to ${path} and the turn ends here; the user has been told how to answer: by writing the "answer" fields there and running \`pi -c\`, or by running \`pi -c --answers '${example}'\`. When they continue, call question again with exactly the same questions: their answers will be picked up.`,
  unsaved: (path: string, example: string) =>
    `No terminal is attached and the questions could not be saved to ${path} (see the message on stderr). The user can answer by running \`pi -c --answers '${example}'\` after fixing or removing that file; when they continue, call question again with exactly the same questions.`,
  stderr: (path: string, example: string) =>
    `pi-question: questions are waiting for you in ${path}.\n  Answer them there (the "answer" fields) and run: pi -c\n  or run: pi -c --answers '${example}'\n`,
  filledDuringRun: (path: string) =>
    `The answers in ${path} were not used: they were written after this run began, so by a command running now (the agent's own, perhaps), not by you between runs. Check them and run pi -c, where they count, or answer with --answers.`,
  incomplete: (path: string, missing: string[]) => `Some questions in ${path} still have no answer: ${missing.join(", ")}.`,
};

/** The person's memory of answers (~/.pi/agent/question-answers/<project>.jsonl and .md): why it
 * was not read or written. */
export const MEMORY_TEXT = {
  outside: (path: string, why: string, root: string) =>
    `pi-question: the answers file ${path} was not written: it ${why}, and pi-question writes remembered answers only inside ${root}.`,
  unwritable: (path: string, why: string) => `pi-question: the answers file ${path} could not be written (${why}).`,
  locked: (path: string, waitedMs: number) =>
    `pi-question: another pi is updating the answers file ${path} and did not finish within ${waitedMs / 1000} s; this answer was not remembered.`,
  refused: (path: string, why: string) =>
    `pi-question: the answers file ${path} ${why}, so it is not read: no question opens with a remembered answer, and none is written there. Remove the file or move it away (it is yours: ~/.pi/agent/question-answers).`,
};

/** RPC dialog decorations (symbols and layout, the same in every language). */
export const DIALOG = {
  title: (n: number, total: number, label: string, prompt: string) => `(${n}/${total}) ${label}: ${prompt}`,
  ticked: "[x]",
  unticked: "[ ]",
};

/** A name from a settings file as a message quotes it: JSON-quoted (control characters become
 * escapes) and cut after 60 characters. */
function quote(name: string): string {
  const chars = Array.from(name);
  return chars.length > 60 ? `${JSON.stringify(chars.slice(0, 60).join(""))}…` : JSON.stringify(name);
}

export const SETTINGS_TEXT = {
  notObject: (path: string) => `pi-question: ${path} must hold a JSON object; using the defaults.`,
  badJson: (path: string, why: string) => `pi-question: ${path} is not valid JSON (${why}); using the defaults.`,
  unreadable: (path: string, why: string) => `pi-question: ${path} cannot be read (${why}); using the defaults.`,
  refused: (path: string, why: string) =>
    `pi-question: ${path} ${why}, so it is not read; using the defaults. Make it a regular JSON file inside the project, or remove it.`,
  badValue: (path: string, key: string, expected: string) =>
    `pi-question: in ${path}, ${quote(key)} must be ${expected}; using the default.`,
  badPendingFile: (path: string, value: string, why: string, cwd: string) =>
    `pi-question: in ${path}, "pendingFile" must name a file inside the project (${cwd}), relative to it, like ".pi/pending-questions.json"; ${quote(value)} ${why}; ignored.`,
  unknownKey: (path: string, key: string) =>
    `pi-question: in ${path}, ${quote(key)} is not a setting (known: escape, notice, language, limits, pendingFile, web, timeout, accessible, memory); ignored.`,
  webFromProject: (path: string) =>
    `pi-question: ${path} sets "web", which a project's settings may not: only your own settings (~/.pi/agent/question.json) or /questions web turn the web page on or choose its address; ignored.`,
  timeoutFromProject: (path: string) =>
    `pi-question: ${path} sets "timeout", which a project's settings may not: a timeout answers for you when you press no key, so only your own settings (~/.pi/agent/question.json) may set one; ignored.`,
  escapeFromProject: (path: string) =>
    `pi-question: ${path} sets "escape", which a project's settings may not: what Esc does to the agent's turn is yours to decide, in your own settings (~/.pi/agent/question.json); ignored.`,
  commandFromProject: (path: string) =>
    `pi-question: ${path} sets "notice.command", which a project's settings may not: a command run when a question waits is yours to choose, in your own settings (~/.pi/agent/question.json); ignored.`,
  badCommand: (path: string, most: number, bytes: number) =>
    `pi-question: in ${path}, "notice.command" must be the program and its arguments as an array of strings, like ["notify-send", "pi is asking"] (no shell: it gets the question in PI_QUESTION_PROMPT and on its standard input); 1 to ${most} words, each at most ${bytes} bytes, none empty; ignored.`,
  commandFailed: (program: string, why: string) =>
    `pi-question: notice.command (${program}) ${why}; the question still waits here. Said once per session.`,
  badTimeout: (path: string, why: string) =>
    `pi-question: in ${path}, "timeout" ${why}; write it like { "after": "5m", "then": "cancel" } (after: a duration such as "90s", "5m" or "1h30m", from 1s to 24h; then: "cancel", "decline", "recommended" or "selected"); no timeout is used.`,
  overLimit: (what: string, count: number, limit: number) =>
    `This call has ${count} ${what}; the user's settings allow at most ${limit}. Ask fewer (split the call, or offer fewer options).`,
};

export const REOPEN = {
  message: (text: string) => `Here are my answers to the question you asked earlier:\n${text}`,
  /** /answer on the last question answered: the person changed their answer (said once). */
  changed: (ids: string, text: string) =>
    `I changed my answer to the question you asked earlier (${ids}); this replaces what I answered before:\n${text}`,
};

/** Secret answers (secrets.ts): what the model reads where one cannot be kept secret, and what
 * /questions secrets says. */
export const SECRET = {
  /** A secret answer whose file could not be written (replaces its line). */
  dropped: (why: string) =>
    `the user gave a secret answer, but it could not be saved to a file only they can read (${why}), so it was dropped: ask for it again`,
  /** Asked where nothing can keep it secret: the question is not shown (unavailable). */
  refused: (ids: string, where: string) =>
    `Not asked: ${ids} ${ids.includes(",") ? "are secret questions" : "is a secret question"}, and ${where}. Ask for the secret in pi's own terminal (interactive mode, or print mode with a terminal attached) or on the web page, or ask the user to put it in a file or environment variable and tell you its name.`,
  rpc: "pi's RPC dialogs cannot hide what is typed",
  noTerminal: "no terminal is attached (the pending-questions file and --answers are plain text)",
  /** An answer from elsewhere to a secret question (not the page). */
  elsewhere: (id: string) =>
    `question "${id}" asks for a secret: only the person answers it, in pi's terminal or on the web page, never through another terminal, a file or another extension.`,
  none: "No secret answers in this session.",
  listed: (files: string[]) =>
    `Secret answers of this session (removed when it ends unless you keep them: /questions secrets keep):\n${files.map((f) => `  ${f}`).join("\n")}`,
  kept: (dir: string, count: number) =>
    `The secret answers of this session (${count} so far) stay in ${dir} after it ends; delete them yourself when done.`,
};

/** What a model reads about a subagent's question that got no answer (subagent-outcome.ts). */
export const SUBAGENT = {
  /** Who asked, in the sentence of the pi above. */
  named: (name: string) => `the subagent ${JSON.stringify(name)}`,
  somewhere: (where: string) => `a subagent in ${where}`,
  /** Not a pi: a program the agent's commands started, named by the kernel. */
  program: (command: string) => `a program (${command}, not a subagent)`,
  cancelled: (who: string, prompts: string) =>
    `The user cancelled the question ${who} asked without answering: ${prompts}. Do not guess an answer and do not continue the task: end your turn and wait for the user's next message.`,
  /** Who needed it, as the subagent's own last words. */
  namedSubject: (name: string) => `The subagent ${JSON.stringify(name)}`,
  thisAgent: "This agent",
  needed: (who: string, prompts: string) =>
    `${who} needed an answer to ${prompts} and could not ask the user (no terminal, and no pi above it to ask through), so it stopped without finishing its task. Ask the user, then run it again with their answer.`,
};

/** What the relay says to a connection it will not let list, answer or watch questions
 * (peer.ts): the agent's own commands, another user. */
export const PEER_TEXT = {
  startedByThisPi: (command: string, pid: number) =>
    `refused: this command was started by the pi whose questions it asks for (through ${command}, pid ${pid}), so it may be the agent's own command, and the agent never answers, lists or watches the person's questions for them. Answer in pi itself, or run pi-question from a terminal pi did not start.`,
  startedByAnotherPi: (command: string, pid: number) =>
    `refused: this command was started by another pi (${command}, pid ${pid}), so it may be that agent's own command, and an agent never answers, lists or watches the person's questions for them. Answer in pi itself, or run pi-question from a terminal no pi started.`,
  tooDeep: (most: number) =>
    `refused: this command's parent processes go deeper than ${most}, so pi cannot tell whether an agent started it. Run pi-question from a terminal no pi started.`,
  isAPi: (command: string, pid: number) =>
    `refused: the connection comes from a pi itself (${command}, pid ${pid}), not from a command a person runs; another pi's code or extension never answers, lists or watches this pi's questions for the person. Answer in pi itself, or run pi-question from a terminal no pi started.`,
  inheritsRelay: (command: string, pid: number) =>
    `refused: this command (${command}, pid ${pid}) carries the relay variable every process a pi starts inherits, so it may be an agent's own command, even one left running in the background. Answer in pi itself, or run pi-question from a terminal no pi started.`,
  gone: (pid: number) =>
    `refused: process ${pid} (or one of its parents) ended before pi could check who started it, so it may be an agent's own command. Run pi-question from a terminal no pi started, and let it wait for pi's reply.`,
  otherUser: (uid: number) => `refused: the connection comes from another user (uid ${uid}); pi answers only its own user's commands.`,
  /** Why an answer could not be checked (its result then says it was not verified as the person's). */
  cannotTell: (platform: string) => `this OS (${platform}) does not say who connected`,
  windowsRoot:
    "no pi was found among the parents of the process that connected, but on Windows a command an agent left running looks the same as one the person ran",
};
