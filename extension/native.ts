// native.ts — loads the C addon and describes its surface. pi loads extensions through jiti,
// which breaks the `bindings`/`node-gyp-build` path helpers, so the addon is required with
// createRequire and explicit paths; a failure lists every place that was tried.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export type Outcome = "answered" | "declined" | "cancelled" | "interrupted" | "unavailable";

export interface NativeEngine {
  /** Feeds raw input; returns true once the question is finished. */
  feed(data: string): boolean;
  render(width: number): string[];
  result(mode: string, answeredAt?: number, reason?: string | null): { details: string; text: string };
  interrupt(): void;
  setStyle(name: string, open: string, close: string): void;
  bind(action: string, keys: string[]): number;
  setCursorMarker(marker: string): void;
  setLanguage(tag: string): void;
  readonly done: boolean;
  readonly outcome: Outcome | null;
  readonly revision: number;
}

export interface NativeAddon {
  readonly limits: Readonly<Record<string, number>>;
  /** Canonical arguments JSON; throws an Error with `code` "QT_EINVALID" and `path` when invalid. */
  normalize(argsJson: string): string;
  result(
    argsJson: string,
    outcome: Outcome,
    mode: string,
    answeredAt: number,
    reason?: string | null,
    answersJson?: string | null,
  ): { details: string; text: string };
  createEngine(argsJson: string): NativeEngine;
  visibleWidth(text: string): number;
  graphemes(text: string): string[];
  sanitize(text: string, keepNewlines: boolean): string;
  decodeKeys(chunks: string[]): Array<{ name: string; text?: string; paste?: string; repeat?: boolean }>;
  parseKeyId(id: string): { key: number; mods: number } | null;
}

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const addonCandidates = [
  join(root, "build", "Release", "pi_question.node"),
  join(root, "build", "Debug", "pi_question.node"),
];

let loaded: NativeAddon | undefined;

/** The addon, loaded once per module instance (pi's /reload gets a fresh module, and Node
 * returns the already-loaded shared object for the same path, so nothing loads twice). */
export function loadNative(): NativeAddon {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const tried: string[] = [];
  for (const candidate of process.env.PI_QUESTION_ADDON ? [process.env.PI_QUESTION_ADDON] : addonCandidates) {
    if (!existsSync(candidate)) {
      tried.push(`${candidate} (missing)`);
      continue;
    }
    try {
      loaded = require(candidate) as NativeAddon;
      return loaded;
    } catch (error) {
      tried.push(`${candidate} (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  throw new Error(
    `pi-question: the native addon is not built. Run "npm install" in ${root}. Looked in:\n  ${tried.join("\n  ")}`,
  );
}
