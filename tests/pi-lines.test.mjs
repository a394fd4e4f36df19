// pi-lines.test.mjs — the two pi lines as the tests and the docs name them: no test names pi's
// packages itself (tests/helpers/pi-line.mjs decides), the extension is loaded against the
// modules of the line under test, the current line's unit run covers the pi-tui cross-checks,
// and the "pi and Node versions" table of docs/platforms.md says what package.json, scripts/current-pi.mjs,
// .ci/run and the Node running `npm test` say.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { BUN, CURRENT, crossCheckSuites, PI_AI_BETWEEN } from "../scripts/current-pi.mjs";
import { WINE_NODE } from "../scripts/wine.mjs";
import { root } from "./helpers/addon.mjs";
import { extensionAliases, line, versionAtLeast } from "./helpers/pi-line.mjs";

const read = (...parts) => readFileSync(join(root, ...parts), "utf8");
const pkg = JSON.parse(read("package.json"));

/** Every .mjs file of tests/ (fixtures left out: those are pi extensions, which do import pi). */
function testSources(dir = join(root, "tests")) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return d.name === "fixtures" || d.name === "node_modules" ? [] : testSources(path);
    return d.name.endsWith(".mjs") ? [path] : [];
  });
}

/** Module specifiers a source loads: static and dynamic imports, require(). */
function specifiers(source) {
  const out = [];
  for (const m of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(["'])([^"'\n]+)\1/gm)) out.push(m[2]);
  return out;
}

test("pi lines: no test imports pi's packages by name or path; pi-line.mjs alone decides", () => {
  const bad = [];
  for (const file of testSources()) {
    const name = relative(root, file);
    // pi-line.mjs decides; this file only names them to look for them.
    if (name === join("tests", "helpers", "pi-line.mjs") || name === join("tests", "pi-lines.test.mjs")) continue;
    const source = readFileSync(file, "utf8");
    for (const spec of specifiers(source)) {
      if (/^@(mariozechner|earendil-works)\//.test(spec) || /node_modules[\\/](@mariozechner|@earendil-works|\.bin[\\/]pi\b)/.test(spec))
        bad.push(`${name}: ${spec}`);
    }
    if (/node_modules\/\.bin\/pi\b|["']\.bin["'],\s*["']pi["']/.test(source)) bad.push(`${name}: names node_modules/.bin/pi`);
  }
  assert.deepEqual(bad, []);
  // The scan finds what it looks for.
  assert.deepEqual(specifiers(`import { x } from "@mariozechner/pi-tui";\nconst y = await import('@earendil-works/pi-tui');`), [
    "@mariozechner/pi-tui",
    "@earendil-works/pi-tui",
  ]);
});

test("pi lines: the extension is loaded (tests/helpers/shim.mjs) against the line's own modules for every bare name it imports", () => {
  const aliases = extensionAliases();
  const imported = new Set();
  for (const f of readdirSync(join(root, "extension"), { recursive: true }).filter((f) => f.endsWith(".ts"))) {
    for (const m of read("extension", f).matchAll(/^import\s+(?!type\b)[^;]*?from\s+"([^".][^"]*)";/gm)) {
      if (!m[1].startsWith("node:")) imported.add(m[1]);
    }
  }
  assert.ok(imported.has("@mariozechner/pi-tui"), [...imported].join(", "));
  for (const name of imported) {
    assert.ok(name in aliases, `the extension imports ${name}, which extensionAliases() does not map`);
    assert.ok(
      aliases[name].startsWith(line.packageDir.split("/node_modules/")[0]),
      `${name} → ${aliases[name]}, outside ${line.describe()}`,
    );
  }
  const scope = line.packageName.split("/")[0];
  assert.match(aliases["@mariozechner/pi-tui"], new RegExp(`node_modules/${scope}/pi-tui/`));
});

test("pi lines: the current line's unit run covers the key parser and width cross-checks", () => {
  const suites = crossCheckSuites();
  for (const f of ["keys", "width", "engine", "strings", "shim-ui"])
    assert.ok(suites.includes(join("tests", `${f}.test.mjs`)), `${f} in ${suites.join(", ")}`);
  assert.ok(suites.every((f) => !/e2e-/.test(f)));
});

// ---- the version table (docs/platforms.md) -----------------------------------------------------

function versionTable() {
  const platforms = read("docs", "platforms.md");
  const section = platforms.slice(platforms.indexOf("## pi and Node versions"));
  assert.ok(section.length < platforms.length, 'docs/platforms.md has a "pi and Node versions" section');
  // Every page a reader may take a version from: the README and docs/.
  const readme = [
    "README.md",
    ...readdirSync(join(root, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => join("docs", f)),
  ]
    .map((f) => read(f))
    .join("\n\n");
  const body = section.slice(0, section.indexOf("\n## ", 1));
  const rows = body
    .split("\n")
    .filter((l) => l.startsWith("| `@"))
    .map((l) =>
      l
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  return { readme, body, rows };
}

test("pi lines: the version table names the devDependency on the Node running npm test, the current line of scripts/current-pi.mjs, and pi's binary of it", () => {
  const { rows } = versionTable();
  assert.equal(rows.length, 3, rows.map((r) => r.join(" | ")).join("\n"));
  const devName = Object.keys(pkg.devDependencies).find((n) => n.endsWith("/pi-coding-agent"));
  const [dev, current] = rows;
  assert.match(dev[0], new RegExp(`^\`${devName}\` ${pkg.devDependencies[devName].replace(/\./g, "\\.")} `));
  const devNode = dev[1].match(/^(\d+)\b/)?.[1];
  assert.equal(
    devNode,
    process.versions.node.split(".")[0],
    `README's table says Node ${dev[1]} for ${devName}; npm test runs on ${process.version}`,
  );
  assert.equal(current[0], `\`${CURRENT.pi.name}\` ${CURRENT.pi.version}`);
  assert.match(current[1], new RegExp(`^${CURRENT.node.replace(/\./g, "\\.")} `));
  // pi's binary: the current line compiled with the Bun of scripts/current-pi.mjs.
  const binary = rows[2];
  assert.ok(binary[0].startsWith(`\`${CURRENT.pi.name}\` ${CURRENT.pi.version}, compiled with \`bun build --compile\``), binary[0]);
  assert.ok(binary[1].includes(`Bun ${BUN.version}`), binary[1]);
});

test("pi lines: each command the version table says CI runs is a step of .ci/run", () => {
  const { rows } = versionTable();
  const ci = read(".ci", "run");
  const steps = ci.split("\n").filter((l) => l.startsWith("step "));
  for (const [i, row] of rows.entries()) {
    const commands = [...row[2].matchAll(/`(npm (?:test|run [\w:-]+))`( with `PI_LINE=(\w+)`)?/g)];
    assert.ok(commands.length > 0, row[2]);
    for (const [, command, , piLine] of commands) {
      const script = command === "npm test" ? pkg.scripts.test : pkg.scripts[command.slice("npm run ".length)];
      assert.ok(script, `${command}: no such script in package.json`);
      const runs = steps.filter((s) => s.includes(` ${command}`) || s.endsWith(` ${script}`));
      // the current line's row: a step on that line (PI_LINE=current, or a command that is
      // always the current line); the devDependency's row: a step without PI_LINE.
      const onLine = runs.filter((s) => (i === 0 ? !s.includes("PI_LINE=") : piLine ? s.includes(`PI_LINE=${piLine}`) : true));
      assert.ok(
        onLine.length > 0,
        `README: CI runs ${command}${piLine ? ` with PI_LINE=${piLine}` : ""} (${row[0]}); .ci/run has no such step`,
      );
    }
  }
});

/** The README's paragraph on what changed from the previous current line to this one ("What
 * changed between 0.87.1 and 1.5.2, …", to the next blank line), and that previous version. */
function changesParagraph(readme) {
  const current = CURRENT.pi.version.replace(/\./g, "\\.");
  const m = readme.match(new RegExp(`(?<=^|\\n)What changed between (\\d+\\.\\d+\\.\\d+) and ${current}(?![\\w.])[^]*?(?=\\n\\n|$)`));
  return m ? { text: m[0], previous: m[1] } : undefined;
}

/** pi versions a text names: every 0.x.y newer than the old name's last (0.74.0 starts the new
 * name), and any version written as pi's ("pi 1.5.2", "pi-coding-agent` 1.5.2"). */
function piVersionsNamed(text) {
  const out = [];
  for (const m of text.matchAll(/(?<![\w.])0\.(\d+)\.(\d+)(?![\w.])/g)) if (versionAtLeast(m[0], "0.75.0")) out.push(m[0]);
  for (const m of text.matchAll(/\bpi(?:-coding-agent`?)? v?(\d+\.\d+\.\d+)(?![\w.])/g)) if (versionAtLeast(m[1], "0.75.0")) out.push(m[1]);
  return out;
}

test("pi lines: README and docs/ name no other pi of the current line, nor another Node version for it", () => {
  const { readme } = versionTable();
  // The one paragraph saying what changed since the previous current line may name that line.
  const changes = changesParagraph(readme);
  const rest = changes ? readme.replace(changes.text, "") : readme;
  // pi 1.5.2's pi-ai is run too: the benchmark times its validation (docs/benchmarks.md)
  const stale = piVersionsNamed(rest).filter((v) => v !== CURRENT.pi.version && v !== PI_AI_BETWEEN.version);
  if (changes) stale.push(...piVersionsNamed(changes.text).filter((v) => v !== CURRENT.pi.version && v !== changes.previous));
  // Node for Windows under Wine is pinned on its own (Wine 8 starts only Node 20 and 22).
  for (const m of readme.matchAll(/(?<![\w.v])(2\d)\.(\d+)\.(\d+)(?![\w.])/g))
    if (m[0] !== CURRENT.node && m[0] !== WINE_NODE) stale.push(`Node ${m[0]}`);
  assert.deepEqual(stale, [], "versions README names that scripts/current-pi.mjs does not run");
  // The scans find what they look for.
  assert.deepEqual(piVersionsNamed("pi 0.73.1, 0.87.1, pi 1.4.0, `@earendil-works/pi-coding-agent` 1.5.2, cJSON 1.7.15"), [
    "0.87.1",
    "1.4.0",
    "1.5.2",
  ]);
  const sample = `x 0.87.1\n\nWhat changed between 0.87.1 and ${CURRENT.pi.version}, as seen:\n- 0.87.1 did\n- more\n\nnext`;
  assert.deepEqual(changesParagraph(sample), {
    text: `What changed between 0.87.1 and ${CURRENT.pi.version}, as seen:\n- 0.87.1 did\n- more`,
    previous: "0.87.1",
  });
});

test("pi lines: docs/platforms.md says what changed from the previous current line to this one", () => {
  const changes = changesParagraph(versionTable().body);
  assert.ok(changes, `README's "pi and Node versions" has no paragraph "What changed between <previous> and ${CURRENT.pi.version}"`);
  assert.ok(!versionAtLeast(changes.previous, CURRENT.pi.version), `${changes.previous} is not older than ${CURRENT.pi.version}`);
});
