// question-types.ts — the TS types of the tool's canonical parameters (the schema itself is in
// index.ts, the one file pi loads at start) and of the result details the C answer model builds.
import type { Static } from "typebox";
import type { QuestionParams } from "./index.ts";

export type QuestionArgs = Static<typeof QuestionParams>;

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
  /** Applied by the person's timeout ("then": "recommended"), not chosen by them. */
  appliedByTimeout?: boolean;
}

export interface NormalizedQuestion {
  id: string;
  label: string;
  prompt: string;
  options?: Array<{ value: string; label: string; description?: string; preview?: string }>;
  otherLabel?: string;
  multiSelect: boolean;
}

export interface QuestionDetails {
  questions: NormalizedQuestion[];
  answers: AnswerDetails[];
  cancelled: boolean;
  status: "answered" | "declined" | "cancelled" | "interrupted" | "unavailable" | "timed_out" | "discuss" | "asked";
  /** status "asked" (wait: false): the question's id on the board; the answer comes later as a message. */
  qid?: string;
  /** With status "timed_out": what the person's timeout applied. */
  timeout?: "cancel" | "decline" | "recommended";
  /** status "discuss": what the person wrote to the agent instead of answering. */
  discussion?: string;
  mode: string;
  /** mode "extension": the name the answering extension gave itself (sanitized; its own claim). */
  source?: string;
  answeredAt: number;
  metadata?: { source?: string; [key: string]: unknown };
  error?: string;
}
