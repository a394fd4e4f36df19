// addon.mjs — the built addon for tests, loaded exactly as the extension loads it.
import "./isolate.mjs";
import { loadAddon, packageRoot } from "../../extension/load-addon.cjs";

export const root = packageRoot;
export const addon = loadAddon();

/** Runs fn and returns the Error it throws (fails the test if it does not throw). */
export function thrown(fn) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error, got none");
}
