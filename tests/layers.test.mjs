// layers.test.mjs — extension/ imports in one direction (ARCHITECTURE.md, "Layers"): no file
// imports one that imports it back, however far round (type-only imports count: one made a
// 20-file cycle), and each folder imports only from its own layer and those below it — the
// shared base (addon, types), text/, board/, elsewhere/, ask/, then the entry files (index.ts,
// tool.ts, the commands). Dynamic import() counts for the layers too: loading later is still
// depending on.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "extension");

/** The layers, lowest first: a file's layer is its folder's, or for a file at the top its own. */
const LAYERS = [
  ["addon.ts", "addon-types.ts", "question-types.ts", "load-addon.cjs", "platform-package.cjs", "width-rules.mjs"],
  ["text"],
  ["board"],
  ["elsewhere"],
  ["ask"],
  ["index.ts", "tool.ts", "commands.ts", "memory-commands.ts"],
];

// TypeScript's own scanner finds every module a file names (imports and re-exports, types too,
// import(), require()), whatever comments or line breaks sit among them.
const ts = createRequire(import.meta.url)("typescript");

const SOURCE = /\.(ts|mts|mjs|cjs)$/;
/** A declaration file stands for the module it declares (relay-wire.d.mts: relay-wire.mjs). */
const moduleOf = (path) => path.replace(/\.d\.(m|c)ts$/, ".$1js");

/** Every source file and declaration file under `dir`. */
function sources(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (SOURCE.test(name)) out.push(path);
  }
  return out;
}

/** The files of extension/ a module imports (its declaration file's imports included). */
function importsOf(file) {
  const found = new Set();
  for (const path of [file, file.replace(/\.(m|c)js$/, ".d.$1ts")]) {
    let text;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      continue; // no declaration file
    }
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles)
      if (fileName.startsWith(".")) found.add(moduleOf(resolve(dirname(path), fileName)));
  }
  return [...found];
}
function layerOf(file) {
  const [first] = relative(root, file).split(/[\\/]/);
  const i = LAYERS.findIndex((names) => names.includes(first));
  assert.notEqual(i, -1, `${relative(root, file)}: in no layer (add it to LAYERS and to ARCHITECTURE.md)`);
  return i;
}

const files = [...new Set(sources(root).map(moduleOf))];

test("layers: every import of extension/ resolves to one of its files (the check sees them all)", () => {
  for (const file of files)
    for (const target of importsOf(file))
      assert.ok(files.includes(target), `${relative(root, file)} imports ${relative(root, target)}, which is not a source file here`);
});

/** A cycle of `graph` (file → files it imports) as a list of its files, or undefined. */
function findCycle(graph) {
  const state = new Map(); // 1: on the path, 2: done
  const path = [];
  const visit = (f) => {
    state.set(f, 1);
    path.push(f);
    for (const g of graph.get(f) ?? []) {
      if (state.get(g) === 1) return [...path.slice(path.indexOf(g)), g];
      if (!state.has(g)) {
        const found = visit(g);
        if (found) return found;
      }
    }
    path.pop();
    state.set(f, 2);
    return undefined;
  };
  for (const f of graph.keys()) {
    if (state.has(f)) continue;
    const found = visit(f);
    if (found) return found;
  }
  return undefined;
}

test("layers: no import cycle in extension/, type-only imports included", () => {
  const cycle = findCycle(new Map(files.map((f) => [f, importsOf(f)])));
  assert.equal(cycle?.map((x) => relative(root, x)).join(" → "), undefined);
});

test("layers: each file imports only from its own layer and the ones below (base, text, board, elsewhere, ask, entry)", () => {
  const wrong = [];
  for (const file of files)
    for (const target of importsOf(file))
      if (layerOf(target) > layerOf(file)) wrong.push(`${relative(root, file)} → ${relative(root, target)}`);
  assert.deepEqual(wrong, []);
});

test("layers: the checks find what they look for: a cycle three files round, an import of a type, an upward import", () => {
  assert.deepEqual(
    findCycle(
      new Map([
        ["a", ["b"]],
        ["b", ["c"]],
        ["c", ["a"]],
        ["d", ["a"]],
      ]),
    ),
    ["a", "b", "c", "a"],
  );
  assert.equal(
    findCycle(
      new Map([
        ["a", ["b"]],
        ["b", []],
      ]),
    ),
    undefined,
  );
  // question-types.ts once took the schema's type from index.ts: a type-only import is an edge
  assert.ok(importsOf(join(root, "index.ts")).includes(join(root, "question-types.ts")), "index.ts's type import is seen");
  // an import whose braces hold a comment with a semicolon is seen too
  const scanned = ts.preProcessFile('import type {\n  // the asker; upward\n  Asker,\n} from "../ask/ask.ts";', true, true).importedFiles;
  assert.deepEqual(
    scanned.map((f) => f.fileName),
    ["../ask/ask.ts"],
  );
  assert.ok(layerOf(join(root, "text", "i18n.ts")) < layerOf(join(root, "ask", "ask.ts")), "text/ is below ask/");
  assert.ok(layerOf(join(root, "ask", "ask.ts")) < layerOf(join(root, "index.ts")), "ask/ is below the entry files");
});
