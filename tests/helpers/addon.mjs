// addon.mjs — loads the built addon for tests the way the extension does (explicit paths).
import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(import.meta.url);

function load() {
  const tried = [];
  for (const p of [process.env.PI_QUESTION_ADDON, join(root, "build/Release/pi_question.node"), join(root, "build/Debug/pi_question.node")]) {
    if (!p) continue;
    if (existsSync(p)) return require(p);
    tried.push(p);
  }
  throw new Error(`addon not built; looked in ${tried.join(", ")}`);
}

export const addon = load();

/** Runs fn and returns the Error it throws (fails the test if it does not throw). */
export function thrown(fn) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error, got none");
}
