// text.ts — what the TypeScript side says in English only: the tool's instructions and
// messages to the model, command descriptions, and diagnostics (settings, pending file).
// Everything shown on the person's screens comes from the C string table (i18n.ts).

export const TOOL_LABEL = "Question";

export const TOOL_DESCRIPTION = [
  "Ask the user one or more questions and wait for the answers. Use it when you need a decision or a fact only the user has:",
  "a choice between valid approaches, a preference, a missing requirement, or confirmation before a significant change.",
  "Each question has a prompt and, usually, a few options ({ value, label, description? }); the user can always type",
  "their own answer instead ('Something else…' is added automatically), tick several options when multiSelect is true,",
  "or answer a question without options in free text. Several questions are shown one at a time with a review step.",
  "The result lists each answer as `<id>: user selected: <n>. <label>` or `<id>: user wrote: <text>`.",
  "If the user cancels, stop and wait for them; if they decline, decide yourself and state your assumptions.",
].join(" ");

export const PROMPT_SNIPPET = "Ask the user structured questions (options, multi-select or free text) and wait for the answers";

export const PROMPT_GUIDELINES = [
  "Use the question tool only for what you cannot infer from the conversation, the code or earlier answers; never re-ask something already answered.",
  "Batch related questions into one question call instead of asking one at a time; keep each prompt short and specific.",
  "In question options, put the option you recommend first and end its label with \"(Recommended)\".",
  "Never add your own \"Other\" or \"None of the above\" option to a question call: the user can always type their own answer.",
  "A question call must be the only tool call of its message: call it alone, after any other tool calls have finished.",
  "When the question tool reports the user cancelled, end your turn and wait; when the user declined, decide yourself and state your assumptions.",
];

/** Marks of the expanded result view (symbols, the same in every language). */
export const MARKS = { chosen: "●", notChosen: "○" };

export const ERRORS = {
  notAlone:
    "The question tool must be the only tool call in its message, so the user is never asked while other tools run. Call the other tools first, then call question alone in a later message.",
  busy: "Another question is already open; this one waits until it is answered.",
};

export const PENDING = {
  fileInstructions:
    "Questions from the pi agent. Write each answer in its \"answer\" field: an option's label or value, your own words, or a list of them for a multiSelect question. Then run `pi -c` to continue.",
  unreadable: (path: string, why: string) =>
    `The pending-questions file ${path} ${why}; fix it, or remove it with /questions clear (answers written in it are then lost).`,
  unwritable: (path: string, why: string) => `The pending-questions file ${path} could not be written (${why}).`,
  locked: (path: string, waitedMs: number) =>
    `Another pi is updating the pending-questions file ${path} and did not finish within ${waitedMs / 1000} s; try again.`,
  flagListNeedsPending:
    "The --answers flag is a list, which answers pending questions in their order, but these questions are not pending; give the answers by id instead ({\"id\": \"answer\"}).",
  flagNotJson:
    "The --answers flag must be JSON: an object by question id ({\"db\": \"PostgreSQL\"}) or a list in question order ([\"PostgreSQL\", \"orders\"]).",
  reason: (path: string, example: string) =>
    `No terminal is attached, so the questions were saved to ${path} and the turn ends here; the user has been told how to answer: by writing the "answer" fields there and running \`pi -c\`, or by running \`pi -c --answers '${example}'\`. When they continue, call question again with exactly the same questions: their answers will be picked up.`,
  unsaved: (path: string, example: string) =>
    `No terminal is attached and the questions could not be saved to ${path} (see the message on stderr). The user can answer by running \`pi -c --answers '${example}'\` after fixing or removing that file; when they continue, call question again with exactly the same questions.`,
  stderr: (path: string, example: string) =>
    `pi-question: questions are waiting for you in ${path}.\n  Answer them there (the "answer" fields) and run: pi -c\n  or run: pi -c --answers '${example}'\n`,
  incomplete: (path: string, missing: string[]) => `Some questions in ${path} still have no answer: ${missing.join(", ")}.`,
};

/** RPC dialog decorations (symbols and layout, the same in every language). */
export const DIALOG = {
  title: (n: number, total: number, label: string, prompt: string) => `(${n}/${total}) ${label}: ${prompt}`,
  ticked: "[x]",
  unticked: "[ ]",
};

/** The flag that answers pending questions in print mode (`pi -c --answers '{…}'`). */
export const ANSWERS_FLAG = "answers";

export const COMMANDS = {
  description: "Show the questions waiting for answers (and those asked in this session); `/questions clear` removes them",
  flagDescription: "Answers for pending questions, as JSON: {\"id\": \"answer\"} or a list in question order",
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
  badValue: (path: string, key: string, expected: string) =>
    `pi-question: in ${path}, ${quote(key)} must be ${expected}; using the default.`,
  badPendingFile: (path: string, value: string, why: string, cwd: string) =>
    `pi-question: in ${path}, "pendingFile" must name a file inside the project (${cwd}), relative to it, like ".pi/pending-questions.json"; ${quote(value)} ${why}; ignored.`,
  unknownKey: (path: string, key: string) =>
    `pi-question: in ${path}, ${quote(key)} is not a setting (known: escape, notice, language, limits, pendingFile); ignored.`,
  overLimit: (what: string, count: number, limit: number) =>
    `This call has ${count} ${what}; the user's settings allow at most ${limit}. Ask fewer (split the call, or offer fewer options).`,
};


export const REOPEN = {
  description: "Show the last cancelled or interrupted question again; your answers go to the agent as your next message",
  message: (text: string) => `Here are my answers to the question you asked earlier:\n${text}`,
};
