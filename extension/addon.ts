// addon.ts — the native core (the C addon), one per process: every module that needs it imports
// it from here instead of being handed it. It is loaded at the first call, by load-addon.cjs
// with Node's own require (jiti cannot load a .node file); Node keeps one copy of a shared object
// per path, so a reloaded extension gets the same addon. Tests load the same file the same way
// (tests/helpers/addon.mjs); PI_QUESTION_ADDON picks another build (e.g. the sanitizer build).
import { createRequire } from "node:module";
import type { ArgsJson, NativeAddon } from "./addon-types.ts";

let loaded: NativeAddon | undefined;

/** The addon; the first call loads it and throws load-addon.cjs's sentence when it cannot. */
export function addon(): NativeAddon {
  if (!loaded) {
    const { loadAddon } = createRequire(import.meta.url)("./load-addon.cjs") as typeof import("./load-addon.cjs");
    loaded = loadAddon() as NativeAddon;
  }
  return loaded;
}

/** The canonical text of a call: as made when `json` says it is the core's own (ArgsJson
 * `canonical`), else the core's normalize of it (which throws the core's message). */
export function canonicalText(json: ArgsJson): string {
  if (typeof json === "object" && !Buffer.isBuffer(json) && json.canonical) return json.prepared;
  return addon().normalize(json);
}
