// schema.ts — the tool's canonical parameters as shown to the model, and the TS types of the
// result details the C answer model builds.
import { Type, type Static } from "typebox";

const OptionSchema = Type.Object({
  value: Type.String({ description: "Machine-friendly value returned when chosen" }),
  label: Type.String({ description: "What the user reads; put the recommended option first, ending with (Recommended)" }),
  description: Type.Optional(Type.String({ description: "One line of help under the label" })),
  preview: Type.Optional(Type.String({ description: "Multi-line text (code, a sketch) shown while the option is highlighted" })),
});

const QuestionSchema = Type.Object({
  id: Type.String({ description: "Stable identifier of the answer, unique in this call" }),
  label: Type.Optional(Type.String({ description: "Short tab title, e.g. 'Database' (defaults to Q1, Q2…)" })),
  prompt: Type.String({ description: "The full question" }),
  options: Type.Optional(
    Type.Array(OptionSchema, {
      description:
        "Choices to pick from. Omit for a free-text question. Never add your own 'Other' choice: 'Something else…' (typed answer) is always offered.",
    }),
  ),
  multiSelect: Type.Optional(Type.Boolean({ description: "Let the user tick several options" })),
});

export const QuestionParams = Type.Object({
  questions: Type.Array(QuestionSchema, { description: "One or more questions, asked together", minItems: 1 }),
  metadata: Type.Optional(Type.Object({ source: Type.Optional(Type.String()) })),
  answers: Type.Optional(
    // An open object (not a Record/Union) keeps the schema portable across providers; the C
    // core validates each entry: a string, or an array of strings for a multi-select question.
    Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          "Pre-supplied answers by question id (a string, or an array of strings for multiSelect); when every question has one, no UI is shown",
      },
    ),
  ),
});

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
  status: "answered" | "declined" | "cancelled" | "interrupted" | "unavailable" | "timed_out" | "discuss";
  /** With status "timed_out": what the person's timeout applied. */
  timeout?: "cancel" | "decline" | "recommended";
  /** status "discuss": what the person wrote to the agent instead of answering. */
  discussion?: string;
  mode: string;
  answeredAt: number;
  metadata?: { source?: string; [key: string]: unknown };
  error?: string;
}
