// question-types.ts — the TS types of the tool's canonical parameters (the schema itself is in
// index.ts, the one file pi loads at start, which checks that its type is this one: nothing here
// imports it back) and of the result details the C answer model builds; an option's label and
// value, whichever of its two forms it has.

import type { TimeoutThen } from "./addon-types.ts";

/** A question's typed answer (qt_typed.h): without it, any text. */
export type QuestionType = "number" | "integer" | "boolean" | "date" | "email" | "url";

/** An option: a bare string is its own value and label (the canonical form writes a question's
 * options so when none has a description, a preview or a value of its own); details' questions
 * carry objects. */
export type QuestionOption = string | { value: string; label: string; description?: string; preview?: string };

/** What the person reads of an option. */
export function optionLabel(o: QuestionOption): string {
  return typeof o === "string" ? o : o.label;
}

/** What an option gives the agent when chosen. */
export function optionValue(o: QuestionOption): string {
  return typeof o === "string" ? o : o.value;
}

/** The questions as other extensions and the page read them (events.ts, web.ts): every option an
 * object { value, label, … }, as they always were. Made at the first read and kept (a call of
 * 25,000 options takes a millisecond or more, which the first frame does not wait for). */
export function withOptionObjects<Q extends { options?: QuestionOption[] }>(questions: readonly Q[]): Q[] {
  let out = objectForms.get(questions) as Q[] | undefined;
  if (!out) {
    out = questions.map((q) =>
      q.options?.some((o) => typeof o === "string")
        ? { ...q, options: q.options.map((o) => (typeof o === "string" ? { value: o, label: o } : o)) }
        : q,
    );
    objectForms.set(questions, out);
  }
  return out;
}
const objectForms = new WeakMap<object, unknown[]>();

/** The tool's parameters as pi hands them to execute: the schema's type (index.ts QuestionParams). */
export interface QuestionArgs {
  questions: Array<{
    id: string;
    label?: string;
    prompt: string;
    options?: string[] | Array<Exclude<QuestionOption, string>>;
    multiSelect?: boolean;
    type?: QuestionType;
    min?: number;
    max?: number;
    secret?: boolean;
  }>;
  metadata?: { source?: string };
  wait?: boolean;
  answers?: object;
}

export interface AnswerDetails {
  id: string;
  value: string;
  label: string;
  wasCustom: boolean;
  index?: number;
  values?: string[];
  labels?: string[];
  indices?: number[];
  note?: string;
  /** A typed question's value: a number, true/false, or the text (date, e-mail, address). */
  typed?: number | boolean | string;
  /** Applied by the person's timeout ("then": "recommended"), not chosen by them. */
  appliedByTimeout?: boolean;
  /** The answer this project remembered (or the one given before, /answer), kept unchanged: when it was given. */
  earlierAnswer?: string;
  /** A secret question's answer: no value or label, only the file it was handed over in (when
   * it could be: secrets.ts). */
  secret?: true;
  file?: string;
}

export interface NormalizedQuestion {
  id: string;
  label: string;
  prompt: string;
  options?: QuestionOption[];
  otherLabel?: string;
  multiSelect: boolean;
  type?: QuestionType;
  min?: number;
  max?: number;
  /** Answered in the person's words, masked; the model gets a file (secrets.ts). */
  secret?: boolean;
}

export interface QuestionDetails {
  questions: NormalizedQuestion[];
  answers: AnswerDetails[];
  /** The questions the person left without an answer on purpose (the skip key or step): the
   * agent decides them ("skipped"), or the person says it in the chat ("chat"). Absent: none. */
  skipped?: Array<{ id: string; reason: "skipped" | "chat"; note?: string }>;
  /** The person's one note on the whole call, written on the review (absent: none). */
  note?: string;
  cancelled: boolean;
  status: "answered" | "declined" | "cancelled" | "interrupted" | "unavailable" | "timed_out" | "discuss" | "asked";
  /** status "asked" (wait: false): the question's id on the board; the answer comes later as a message. */
  qid?: string;
  /** With status "timed_out": what the person's timeout applied. */
  timeout?: TimeoutThen;
  /** status "discuss": what the person wrote to the agent instead of answering. */
  discussion?: string;
  mode: string;
  /** mode "extension": the name the answering extension gave itself (sanitized; its own claim). */
  source?: string;
  answeredAt: number;
  metadata?: { source?: string; [key: string]: unknown };
  error?: string;
}

/** Who asks a relayed question, as the child says it (untrusted: shown only sanitized). */
export interface RelayAsker {
  name?: string;
  pid?: number;
  cwd?: string;
  /** Set by this end, never by the wire: the asker is no pi (peer.ts) — its command line and pid
   * from the kernel ("`node evil.js` (pid 1234)"), named instead of any name it gave itself. */
  process?: string;
}
