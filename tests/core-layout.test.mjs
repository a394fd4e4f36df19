// core-layout.test.mjs — the C core's folders and the one way its includes go (ARCHITECTURE.md,
// rule 8): the top of native/core/ holds only the public headers (qt.h, qt_*.h); every other
// file of the core sits in a folder the rules name; a folder includes the public headers, its
// own files and the internal headers of the folders before it (text ← request ← result ←
// engine ← render ← tty); the binding (native/node/) and the OS layer (native/os/<family>/)
// include only public headers and their own directory's; and every #include "…" under native/,
// and in the C drivers of tests/ and bench/, names a file that is there.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const native = join(root, "native");
const core = join(native, "core");
const rel = (f) => relative(root, f).split("\\").join("/");

/** The core's folders, each allowed to include the internal headers of those before it. */
export const CORE_FOLDERS = ["text", "request", "result", "engine", "render", "tty"];
/** A public header: at the top of native/core/, named qt.h or qt_<service>.h. */
const PUBLIC_NAME = /^qt(_[a-z0-9_]+)?\.h$/;
/** The OS families under native/os/. */
const OS_FAMILIES = ["posix", "win32"];

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

/** The text without its comments (line breaks kept), so a commented-out include is no include. */
const uncommented = (text) => text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " ")).replace(/\/\/.*$/gm, "");

/** Every #include "…" of a file: the name as written and its line. */
export function quotedIncludes(text) {
  const out = [];
  uncommented(text)
    .split("\n")
    .forEach((line, i) => {
      const m = /^\s*#\s*include\s*"([^"]+)"/.exec(line);
      if (m) out.push({ name: m[1], line: i + 1 });
    });
  return out;
}

/** What a file is, by where it sits: { kind: "public" | "core" | "node" | "os" | "fuzz" | "driver", folder }. */
function placeOf(file) {
  const r = rel(file);
  const parts = r.split("/");
  if (r.startsWith("native/core/")) return parts.length === 3 ? { kind: "public" } : { kind: "core", folder: parts[2] };
  if (r.startsWith("native/node/")) return { kind: "node" };
  if (r.startsWith("native/os/")) return { kind: "os", folder: parts[2] };
  if (r.startsWith("native/fuzz/")) return { kind: "fuzz" };
  return { kind: "driver" };
}

/** Where an include resolves as the compilers do with -Inative/core: beside the including file
 * first, then under native/core/. Undefined when neither has it. */
function resolveInclude(from, name) {
  for (const base of [dirname(from), core]) {
    const path = join(base, name);
    if (existsSync(path) && statSync(path).isFile()) return path;
  }
  return undefined;
}

/** The broken rules of one include of `from` (a file under native/ or a C driver), as sentences. */
export function includeProblems(from, name) {
  const where = rel(from);
  const target = resolveInclude(from, name);
  if (!target) return [`${where}: #include "${name}" names no file (beside it or under native/core/)`];
  const src = placeOf(from);
  const dst = placeOf(target);
  if (!rel(target).startsWith("native/")) return [];
  const sameDir = dirname(target) === dirname(from);
  const problems = [];
  const say = (why) => problems.push(`${where}: #include "${name}" (${rel(target)}): ${why}`);
  switch (src.kind) {
    case "public":
      if (dst.kind !== "public") say("a public header names only public headers");
      break;
    case "core":
      if (dst.kind === "public") break;
      if (dst.kind !== "core") {
        say("the core includes nothing of the binding, the OS layer or the fuzzers");
      } else if (dst.folder === src.folder) {
        if (name.includes("/")) say(`a header of the same folder is named by its name alone ("${name.split("/").pop()}")`);
      } else if (CORE_FOLDERS.indexOf(dst.folder) > CORE_FOLDERS.indexOf(src.folder)) {
        say(`${src.folder}/ comes before ${dst.folder}/ (${CORE_FOLDERS.join(" ← ")}): it may not include it`);
      } else if (name !== `${dst.folder}/${target.split(/[\\/]/).pop()}`) {
        say(`another folder's header is named from native/core/ with its folder ("${dst.folder}/…")`);
      }
      break;
    case "node":
    case "os":
      if (dst.kind !== "public" && !sameDir)
        say(`${src.kind === "node" ? "the binding" : "the OS layer"} includes only the core's public headers (qt.h, qt_*.h)`);
      break;
    default: // the fuzzers and the C drivers test the inside: any header, as long as it is there
  }
  return problems;
}

/** The files under native/ that are not where the rules put them. */
function misplaced() {
  const bad = [];
  for (const file of walk(native)) {
    const r = rel(file);
    const parts = r.split("/");
    const name = parts[parts.length - 1];
    if (r.startsWith("native/core/")) {
      if (parts.length === 3) {
        if (!PUBLIC_NAME.test(name)) bad.push(`${r}: the top of native/core/ holds only the public headers (qt.h, qt_*.h)`);
      } else if (parts.length !== 4 || !CORE_FOLDERS.includes(parts[2])) {
        bad.push(`${r}: not in one of the core's folders (${CORE_FOLDERS.join(", ")})`);
      } else if (!/\.[ch]$/.test(name)) {
        bad.push(`${r}: the core's folders hold C sources and headers only`);
      } else if (PUBLIC_NAME.test(name)) {
        bad.push(`${r}: a qt_*.h header is public and belongs at the top of native/core/`);
      }
    } else if (r.startsWith("native/node/")) {
      if (parts.length !== 3 || !/\.[ch]$/.test(name)) bad.push(`${r}: native/node/ holds the binding's .c and .h files only`);
    } else if (r.startsWith("native/os/")) {
      if (parts.length !== 4 || !OS_FAMILIES.includes(parts[2]) || !/\.[ch]$/.test(name))
        bad.push(`${r}: native/os/ holds the .c and .h files of the families ${OS_FAMILIES.join(", ")}`);
    } else if (!r.startsWith("native/fuzz/")) {
      bad.push(`${r}: native/ holds core/, node/, os/ and fuzz/ only`);
    }
  }
  return bad;
}

const sources = (dir) => walk(dir).filter((f) => /\.[ch]$/.test(f) && !/native[\\/]fuzz[\\/](corpus|regressions|out)[\\/]/.test(f));
const drivers = () =>
  [join(root, "tests"), join(root, "bench", "profile")].flatMap((d) =>
    readdirSync(d)
      .filter((f) => /\.[ch]$/.test(f))
      .map((f) => join(d, f)),
  );

test("core layout: the top of native/core/ holds only public headers, every other file sits in a folder the rules name", () => {
  assert.deepEqual(misplaced(), []);
  const folders = readdirSync(core, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  assert.deepEqual(folders, [...CORE_FOLDERS].sort(), "every folder the rules name is there, and no other");
  for (const folder of CORE_FOLDERS)
    assert.ok(
      readdirSync(join(core, folder)).some((f) => f.endsWith(".c")),
      `native/core/${folder}/ holds C sources`,
    );
});

test('core layout: every #include "…" under native/ goes the allowed way — folders only to those before them, the binding and the OS layer only to public headers', () => {
  const problems = sources(native).flatMap((file) =>
    quotedIncludes(readFileSync(file, "utf8")).flatMap(({ name, line }) =>
      includeProblems(file, name).map((p) => p.replace(`${rel(file)}:`, `${rel(file)}:${line}:`)),
    ),
  );
  assert.deepEqual(problems, []);
  // the rules are applied, not empty: the renderers do include the engine's state
  const renderInternal = join(core, "render", "render_internal.h");
  assert.ok(quotedIncludes(readFileSync(renderInternal, "utf8")).some((i) => i.name === "engine/engine_internal.h"));
});

// The direction holds at link time too: the engine calls no function of render/ by name (the
// renderers' entry points are declared in render/render_internal.h; the engine lays out the
// screen's frame at a key through e->lay_out_screen, which render/ sets with the screen).
test("core layout: the engine's files call no function of render/ by name", () => {
  const renderNames = new Set();
  for (const f of walk(join(core, "render")).filter((p) => p.endsWith(".c")))
    for (const m of uncommented(readFileSync(f, "utf8")).matchAll(/^(?:[a-z_]+\s+)+\**(qt_[a-z0-9_]+)\s*\(/gm)) renderNames.add(m[1]);
  assert.ok(renderNames.has("qt_render_frame") && renderNames.has("qt_engine_render"), [...renderNames].join(" "));
  for (const f of walk(join(core, "engine")).filter((p) => /\.[ch]$/.test(p))) {
    const text = uncommented(readFileSync(f, "utf8"));
    const called = [...renderNames].filter((name) => new RegExp(`\\b${name}\\s*\\(`).test(text));
    assert.deepEqual(called, [], `${rel(f)} calls into render/`);
  }
});

test("core layout: the C drivers of tests/ and bench/profile/ include only files that are there", () => {
  const files = drivers();
  assert.ok(files.length >= 5, files.map(rel).join(" "));
  const problems = files.flatMap((file) => quotedIncludes(readFileSync(file, "utf8")).flatMap(({ name }) => includeProblems(file, name)));
  assert.deepEqual(problems, []);
});

test("core layout: the checks refuse what the rules forbid", () => {
  const at = (...p) => join(core, ...p);
  // against the direction: the engine includes the renderers' header
  assert.match(includeProblems(at("engine", "engine.c"), "render/render_internal.h").join(), /engine\/ comes before render\//);
  // the way it goes: the renderers include the engine's state, the engine the request's helpers
  assert.deepEqual(includeProblems(at("render", "render.c"), "engine/engine_internal.h"), []);
  assert.deepEqual(includeProblems(at("engine", "flow.c"), "request/request_internal.h"), []);
  // a public header includes an internal one
  assert.match(includeProblems(at("qt_engine.h"), "engine/engine_internal.h").join(), /public header names only public headers/);
  // the OS layer and the binding include an internal header
  assert.match(
    includeProblems(join(native, "os", "posix", "external_edit.c"), "engine/engine_internal.h").join(),
    /the OS layer includes only the core's public headers/,
  );
  assert.match(
    includeProblems(join(native, "node", "binding.c"), "request/request_internal.h").join(),
    /the binding includes only the core's public headers/,
  );
  assert.deepEqual(includeProblems(join(native, "node", "binding.c"), "marshal.h"), [], "the binding's own header");
  // a header that is not there, or not where it is named
  assert.match(includeProblems(at("engine", "engine.c"), "engine_gone.h").join(), /names no file/);
  assert.match(includeProblems(at("render", "render.c"), "engine_internal.h").join(), /names no file/);
  assert.match(includeProblems(at("engine", "flow.c"), "engine/engine_internal.h").join(), /by its name alone/);
  // includes inside comments are none
  assert.deepEqual(quotedIncludes('/* #include "x.h" */\n// #include "y.h"\n#include "z.h"\n'), [{ name: "z.h", line: 3 }]);
});
