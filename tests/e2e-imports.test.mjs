// e2e-imports.test.mjs — the pi line under test (tests/helpers/pi-line.mjs: the devDependency,
// or PI_LINE=current) is the one that runs, and every module our extension imports by bare name
// (`@mariozechner/pi-tui`, `@mariozechner/pi-coding-agent`, `typebox`) loads in it from a
// directory with no node_modules — as in a global npm install, where nothing but pi's own
// loader can provide them (0.73.1 knows the old names; the current line aliases them to its
// own modules). Each name the extension takes as a value is checked to exist; type-only
// imports are checked to resolve.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { root } from "./helpers/addon.mjs";
import { startMockModel } from "./helpers/mock-model.mjs";
import { line, makeHome, piArgs, piCommand, piEnv, run } from "./helpers/pi.mjs";

/** Bare-name imports of the .ts files under extension/: { specifier: { values: Set, typeOnly: boolean } }. */
function extensionImports() {
  const out = {};
  const dir = join(root, "extension");
  for (const file of readdirSync(dir, { recursive: true }).filter((f) => f.endsWith(".ts"))) {
    const source = readFileSync(join(dir, file), "utf8");
    for (const m of source.matchAll(/^import\s+(type\s+)?(\{[^}]*\}|\*\s+as\s+\w+|\w+)\s+from\s+"([^"]+)";/gm)) {
      const [, typeKeyword, clause, spec] = m;
      if (spec.startsWith(".") || spec.startsWith("node:")) continue;
      const entry = (out[spec] ??= { values: new Set(), typeOnly: true });
      if (typeKeyword) continue;
      entry.typeOnly = false;
      if (!clause.startsWith("{")) continue;
      for (const part of clause.slice(1, -1).split(",")) {
        const name = part.trim();
        if (!name || name.startsWith("type ")) continue;
        entry.values.add(name.split(/\s+as\s+/)[0].trim());
      }
    }
  }
  return out;
}

test(`imports: the extension's bare-name imports load in ${line.describe()}`, async () => {
  const imports = extensionImports();
  assert.ok(imports["@mariozechner/pi-tui"]?.values.size, "the extension imports values from @mariozechner/pi-tui");
  assert.ok(imports["@mariozechner/pi-coding-agent"], "the extension imports @mariozechner/pi-coding-agent");

  // A probe extension far from any node_modules, importing what ours imports.
  const dir = mkdtempSync(join(tmpdir(), "pi-question-imports-"));
  const report = join(dir, "report.json");
  const specs = Object.keys(imports).sort();
  const probe = [
    ...specs.map((spec, i) => `import * as m${i} from ${JSON.stringify(spec)};`),
    `import { writeFileSync } from "node:fs";`,
    `const mods = { ${specs.map((spec, i) => `${JSON.stringify(spec)}: m${i}`).join(", ")} };`,
    `const names = ${JSON.stringify(Object.fromEntries(specs.map((s) => [s, [...imports[s].values]])))};`,
    "export default function probe() {",
    "  const found = {};",
    "  for (const [spec, list] of Object.entries(names)) {",
    "    found[spec] = { keys: Object.keys(mods[spec]).length, values: Object.fromEntries(list.map((n) => [n, typeof mods[spec][n]])) };",
    "  }",
    `  writeFileSync(${JSON.stringify(report)}, JSON.stringify({ node: process.version, found }));`,
    "}",
    "",
  ].join("\n");
  writeFileSync(join(dir, "probe.ts"), probe);

  const model = await startMockModel([{ text: "ok" }]);
  const { home, work, cleanup } = makeHome(model.port);
  try {
    const [cmd, args] = piCommand([...piArgs(["-e", join(dir, "probe.ts")], { loadPackage: false }), "-p", "hi"]);
    const r = await run(cmd, args, { cwd: work, env: piEnv(home), timeoutMs: 120000 });
    assert.equal(r.code, 0, r.output);
    assert.doesNotMatch(r.output, /Failed to load extension/, r.output);
    const got = JSON.parse(readFileSync(report, "utf8"));
    assert.equal(got.node, line.nodeVersion, "pi ran on the line's Node");
    for (const spec of specs) {
      const f = got.found[spec];
      assert.ok(f && f.keys > 0, `${spec} resolved to an empty module in ${line.describe()}`);
      for (const [name, type] of Object.entries(f.values)) {
        assert.notEqual(type, "undefined", `${spec} has no ${name} in ${line.describe()}`);
      }
    }
  } finally {
    cleanup();
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`imports: \`pi --version\` is the line's version (${line.version})`, async () => {
  const [cmd, args] = piCommand(["--version"]);
  const { home, cleanup } = makeHome(1);
  try {
    const r = await run(cmd, args, { cwd: home, env: piEnv(home), timeoutMs: 60000 });
    assert.equal(r.code, 0, r.output);
    assert.equal(r.output.trim().split("\n").pop().trim(), line.version, r.output);
  } finally {
    cleanup();
  }
});
