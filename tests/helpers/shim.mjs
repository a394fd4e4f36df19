// shim.mjs — imports the TypeScript extension modules the way pi does (through jiti), so
// tests exercise the very files pi loads.
import "./isolate.mjs";
import { createJiti } from "jiti";

const jiti = createJiti(import.meta.url, { moduleCache: false });

export function importShim(relativePath) {
  return jiti.import(new URL(`../../extension/${relativePath}`, import.meta.url).pathname);
}
