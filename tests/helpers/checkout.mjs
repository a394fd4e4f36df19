// checkout.mjs — the files of this checkout as git tracks them, with or without git: `git
// ls-files` where it can answer, else a walk of the tree that leaves out what .gitignore names
// (a checkout unpacked from an archive, a machine without git).
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { packageRoot as root } from "../../extension/load-addon.cjs";

/** Paths (relative to the checkout) that git would not track: .gitignore's patterns, by hand. */
const UNTRACKED = /^(?:\.git\/|node_modules\/|build\/|dist\/|native\/fuzz\/(?:out\/|crash-|leak-|timeout-))|(?:^|\/)node_modules\/|\.log$/;

/** Every file of the checkout git would track, found by walking it: for a checkout without git
 * (an archive downloaded and unpacked) or a machine without git. */
function walkCheckout(dir = root, prefix = "") {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix + entry.name;
    if (UNTRACKED.test(entry.isDirectory() ? `${rel}/` : rel)) continue;
    if (entry.isDirectory()) out.push(...walkCheckout(join(dir, entry.name), `${rel}/`));
    else if (entry.isFile() || entry.isSymbolicLink()) out.push(rel);
  }
  return out;
}

/** The checkout's files as git lists them (tracked, plus new ones under native/, extension/, bin/
 * and scripts/ not committed yet); where git cannot list them, every file a walk finds outside
 * what .gitignore names. */
export function checkoutFiles() {
  const list = (args) => {
    const r = spawnSync("git", ["-C", root, ...args, "-z"], { encoding: "utf8" });
    if (r.error || r.status !== 0) return undefined;
    return r.stdout.split("\0").filter(Boolean);
  };
  const tracked = list(["ls-files"]);
  const fresh = list(["ls-files", "--others", "--exclude-standard"]);
  if (!tracked?.length || !fresh) return walkCheckout();
  return [...new Set([...tracked, ...fresh.filter((f) => /^(native|extension|bin|scripts)\//.test(f))])];
}
