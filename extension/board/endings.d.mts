// endings.d.mts — the types of endings.mjs.
export type Ending = "answered" | "cancelled" | "timed_out" | "withdrawn";
export declare function endingOf(status: string): Ending;
export declare const ENDING_STRINGS: Readonly<Record<Ending, "ELSEWHERE_ALREADY" | "ELSEWHERE_CANCELLED" | "ELSEWHERE_TIMED_OUT" | "ELSEWHERE_WITHDRAWN">>;
