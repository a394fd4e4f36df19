// format.mjs — one formatter per language, configured in the repository: clang-format for the C
// (.clang-format; version 14, Debian 12's, because each clang-format release formats a little
// differently) and Prettier for TypeScript and JavaScript (.prettierrc.json; the version the
// lockfile pins). The files are the tracked ones (`git ls-files`), less generated tables.
//
//   node scripts/format.mjs           rewrites every file in place (`npm run format`)
//   node scripts/format.mjs --check   changes nothing; lists each file that is not formatted and
//                                     exits 1 (the `.ci/run` step "format")
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const check = process.argv.includes("--check");
const CLANG_FORMAT_MAJOR = 14;
/** Files written by a generator (their generator's output is the source of truth). */
const GENERATED = new Set(["native/core/text/unicode_tables.h"]);

function run(cmd, args, options = {}) {
  return spawnSync(cmd, args, { cwd: root, encoding: "utf8", maxBuffer: 64 << 20, ...options });
}

function tracked(...patterns) {
  const r = run("git", ["ls-files", "-z", "--", ...patterns]);
  if (r.status !== 0) throw new Error(`format: git ls-files failed: ${r.stderr}`);
  return r.stdout.split("\0").filter((f) => f && !GENERATED.has(f));
}

function die(message) {
  console.error(`format: ${message}`);
  process.exit(2);
}

/** clang-format 14: `clang-format-14`, else a `clang-format` that says it is 14. */
function clangFormat() {
  for (const name of [`clang-format-${CLANG_FORMAT_MAJOR}`, "clang-format"]) {
    const r = run(name, ["--version"]);
    if (r.error || r.status !== 0) continue;
    const major = Number(/version (\d+)\./.exec(r.stdout)?.[1]);
    if (major === CLANG_FORMAT_MAJOR) return name;
  }
  die(
    `clang-format ${CLANG_FORMAT_MAJOR} was not found (other versions format differently); install it: ` +
      `Debian/Ubuntu "sudo apt-get install clang-format-${CLANG_FORMAT_MAJOR}" (or "npm run setup -- --test").`,
  );
}

const cFiles = tracked("*.c", "*.h");
const jsFiles = tracked("*.ts", "*.mjs", "*.cjs", "*.js");
let bad = 0;

const cf = clangFormat();
if (check) {
  for (const file of cFiles) {
    const r = run(cf, ["--dry-run", "--Werror", "--ferror-limit=1", file]);
    if (r.status !== 0) {
      bad++;
      console.error(`format: ${file} is not formatted (clang-format)`);
    }
  }
} else {
  const r = run(cf, ["-i", ...cFiles], { stdio: "inherit" });
  if (r.status !== 0) die("clang-format failed");
}

const prettier = createRequire(import.meta.url).resolve("prettier/bin/prettier.cjs");
// --list-different prints the names at the "log" level: a quieter --log-level would hide them.
const p = run(process.execPath, [prettier, ...(check ? ["--list-different"] : ["--write", "--log-level=warn"]), ...jsFiles], {
  stdio: check ? ["ignore", "pipe", "inherit"] : "inherit",
});
if (check) {
  const listed = (p.stdout ?? "").split("\n").filter(Boolean);
  for (const file of listed) console.error(`format: ${file} is not formatted (prettier)`);
  bad += listed.length;
  if (p.status !== 0 && p.status !== 1) die("prettier failed");
  if (p.status === 1 && !listed.length) die("prettier reports unformatted files but named none");
} else if (p.status !== 0) die("prettier failed");

if (bad) {
  console.error(`format: ${bad} file(s) not formatted; run "npm run format" and commit the result.`);
  process.exit(1);
}
console.log(`format: ${cFiles.length} C files and ${jsFiles.length} TypeScript/JavaScript files ${check ? "are formatted" : "formatted"}`);
