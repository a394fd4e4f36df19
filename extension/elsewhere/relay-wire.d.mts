// relay-wire.d.mts — types of relay-wire.mjs for the TypeScript side.
export declare const RELAY_ENV: "PI_QUESTION_RELAY";
export declare const ASKER_ENV: "PI_QUESTION_ASKER";
export declare const ASKER_CHAIN_ENV: "PI_QUESTION_ASKER_CHAIN";
export declare const ASKER_SEPARATOR: " › ";
export interface Endpoint {
  secret: string;
  path: string;
}
export declare function parseRelayVariable(value: string | undefined): Endpoint | undefined;
export declare function lineReader(cap: number, onLine: (line: string) => void, onTooLong: () => void): (chunk: Buffer) => void;
export type RequestOutcome =
  | { type: "reply"; message: { type: string; [key: string]: unknown } }
  | { type: "interrupted" }
  | { type: "unreachable"; reason: string }
  | { type: "timeout"; stage: "connect" | "reply" };
/** What opens a Windows relay pipe checking who serves it: the addon. */
export interface PipeOpener {
  pipeConnect(
    name: string,
    serverPid: number,
  ): { fd: number; serverPid: number | null } | { refused: string; serverPid: number | null; errno: number } | undefined;
  readonly limits: Readonly<Record<string, number>>;
}
export declare function openPipe(
  pipes: PipeOpener,
  path: string,
  options?: { waitMs?: number; signal?: AbortSignal },
): Promise<{ socket: import("node:net").Socket } | { reason: string } | undefined>;
export declare function request(
  endpoint: Endpoint,
  message: Record<string, unknown>,
  options?: { cap?: number; signal?: AbortSignal; connectMs?: number; replyMs?: number; pipes?: PipeOpener },
): Promise<RequestOutcome>;
export declare function askThroughRelay(
  endpoint: Endpoint,
  args: string,
  asker: object,
  signal: AbortSignal | undefined,
  cap: number,
  pipes?: PipeOpener,
): Promise<
  | { type: "answer"; outcome: string; answers: Record<string, unknown> | null; discussion?: string }
  | { type: "unavailable" }
  | { type: "error"; message: string }
  | { type: "interrupted" }
  | { type: "unreachable"; reason: string }
>;
export interface RegistryEntry {
  variable: string;
  pid: number;
  cwd: string;
  session?: string;
  startedAt: number;
}
export declare function registryDirectory(env?: NodeJS.ProcessEnv): string;
export declare function registerEndpoint(entry: RegistryEntry, env?: NodeJS.ProcessEnv): () => void;
export declare const REGISTRY_TEMPORARY_STALE_MS: number;
export declare function listEndpoints(env?: NodeJS.ProcessEnv, now?: number): Array<RegistryEntry & { endpoint: Endpoint }>;
/** One question's answer, a skipped question, or (under the key "") the one note on the whole call. */
export type StructuredAnswer = { selected: string[]; wrote?: string; note?: string } | { skipped: SkipReason; note?: string } | string;
export declare function structuredAnswers(details: {
  questions: Array<{ id: string; options?: Array<string | { value: string }> }>;
  answers: Array<{ id: string; value: string; wasCustom: boolean; index?: number; indices?: number[]; values?: string[]; note?: string }>;
  skipped?: Array<{ id: string; reason: SkipReason; note?: string }>;
  note?: string;
}): Record<string, StructuredAnswer>;
/** Why the person left a question of several without an answer: the agent decides it, or they say it in the chat. */
export type SkipReason = "skipped" | "chat";
export { type Ending, ENDING_STRINGS, endingOf } from "../board/endings.mjs";
/** Whether process `pid` exists (one of another user's counts). */
export declare function alive(pid: number): boolean;
/** How a person is told which session of pi is meant: its name, a short id, its file or its pid. */
export declare function sessionLabel(session: unknown, pid: number): string;
/** `dir` with the home directory (default: this user's) shown as "~"; on Windows either separator and any case. */
export { shortDirectory } from "../text/paths.mjs";
