// shim.mjs — imports the TypeScript extension modules the way pi does (through jiti), so
// tests exercise the very files pi loads: with the pi line's own jiti and the aliases its
// extension loader sets (the names the extension imports resolve to that line's pi-tui, pi and
// typebox; pi-line.mjs picks the line, PI_LINE=current for the current one).
import "./isolate.mjs";
import { extensionAliases, importLineJiti } from "./pi-line.mjs";

const { createJiti } = await importLineJiti();
const jiti = createJiti(import.meta.url, { moduleCache: false, alias: extensionAliases() });

export function importShim(relativePath) {
  return jiti.import(new URL(`../../extension/${relativePath}`, import.meta.url).pathname);
}
