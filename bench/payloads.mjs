// payloads.mjs — what a benchmark feeds both tools, importing nothing but node:url: the addon's
// path, the keys as a terminal sends them, the question payloads of each size, the key
// sequences, and the statistics. memory.mjs imports only this, so the resident memory it reports at its start is
// the runtime's and the addon's, not the harness's (scripts/current-pi.mjs and node:child_process
// alone were 8.5 MB of it in Node 24).
import { fileURLToPath } from "node:url";

export const ADDON_PATH = fileURLToPath(new URL("../build/Release/pi_question.node", import.meta.url));

// ---- keys as a terminal sends them --------------------------------------------------------
export const K = { up: "\x1b[A", down: "\x1b[B", enter: "\r", esc: "\x1b", tab: "\t", shiftTab: "\x1b[Z", backspace: "\x7f" };

// ---- payloads -------------------------------------------------------------------------------
const WORDS = "the quick brown fox jumps over the lazy dog while seven wizards quietly judge boxing matches".split(" ");

/** Question arguments in the shape both tools accept: { questions: [{ id, label, prompt,
 * options: [{ value, label, description? }] }] }. With `compact` the options are bare numbers
 * (our tool's plain-options shape; toExampleArgs makes objects of them for the example), which
 * keeps 20 × 1,000 options under the 100 KB argument limit. */
export function questionArgs(questionCount, optionCount, { compact = false } = {}) {
  const questions = [];
  for (let q = 0; q < questionCount; q++) {
    const options = [];
    for (let o = 0; o < optionCount; o++) {
      if (compact) {
        options.push(o); // our tool: a bare number is an option whose value and label are its text
      } else if (optionCount <= 4) {
        options.push({
          value: `choice-${o + 1}`,
          label: `Choice ${o + 1}: ${WORDS[o % WORDS.length]} ${WORDS[(o + 3) % WORDS.length]}`,
          description: `What choosing ${o + 1} means, in one line of ${WORDS[(o + 5) % WORDS.length]} help`,
        });
      } else {
        options.push({ value: `v${o}`, label: `Option ${o + 1}` });
      }
    }
    questions.push({ id: `q${q + 1}`, label: `Topic ${q + 1}`, prompt: `Question ${q + 1}: which one should we use?`, options });
  }
  return { questions };
}

/** The same questions in the example's schema (options must be { value, label } objects). */
export function toExampleArgs(args) {
  return {
    questions: args.questions.map((q) => ({
      ...q,
      options: q.options.map((o) => (typeof o === "object" ? o : { value: String(o), label: String(o) })),
    })),
  };
}

// ---- key sequences ----------------------------------------------------------------------------
/** Keys that move without answering: in each question Down×d then Up×d (back to the first
 * row, where Tab leaves both tools), Tab to the next question up to the last, then the same
 * with Shift+Tab back to the first. Never reaches the submit/review tab, never selects. */
export function navigationKeys(questionCount, optionCount, total) {
  const rows = optionCount + 1; // the options and "Something else…" / "Type something."
  const d = Math.min(rows - 1, 12);
  const cycle = [];
  const wiggle = () => {
    for (let i = 0; i < d; i++) cycle.push(K.down);
    for (let i = 0; i < d; i++) cycle.push(K.up);
  };
  for (let q = 0; q < questionCount; q++) {
    wiggle();
    if (q < questionCount - 1) cycle.push(K.tab);
  }
  for (let q = questionCount - 1; q > 0; q--) {
    cycle.push(K.shiftTab);
    wiggle();
  }
  const keys = [];
  while (keys.length < total) keys.push(...cycle);
  return keys.slice(0, total);
}

/** 500 characters of prose, one per keystroke. */
export function typedText(n = 500) {
  let s = "";
  for (let i = 0; s.length < n; i++) s += (s ? " " : "") + WORDS[i % WORDS.length];
  return [...s.slice(0, n)];
}

// ---- statistics --------------------------------------------------------------------------------
export function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return percentile(s, 50);
}
