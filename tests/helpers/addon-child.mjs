// addon-child.mjs — runs a test's script in a child node of its own (for a clean heap, a
// collection of its own or none): the script is an ES module that starts with the built addon
// imported as `addon` and `tick()` (one turn of the event loop, where Node-API finalizers run),
// and ends by printing one line of JSON, which is returned.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";

const PRELUDE = `import { addon } from ${JSON.stringify(new URL("./addon.mjs", import.meta.url).href)};
const tick = () => new Promise((resolve) => setImmediate(resolve));
`;

/** Runs `script` (see above) in `node [--expose-gc]`; fails the test when the child fails. */
export function runAddonChild(script, { gc = false, timeout = 60_000 } = {}) {
  const args = [...(gc ? ["--expose-gc"] : []), "--input-type=module", "-e", PRELUDE + script];
  const r = spawnSync(process.execPath, args, { encoding: "utf8", timeout });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split("\n").pop());
}
