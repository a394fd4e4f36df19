// format.test.mjs — the format check (scripts/format.mjs --check, the `.ci/run` step "format")
// fails on a C file and on a TypeScript file that are not formatted, names each, and passes once
// `npm run format` has rewritten them. It runs on a scratch git repository holding the script, the
// two configurations and two files, with this checkout's node_modules linked in.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

const root = join(import.meta.dirname, "..");
const hasClangFormat14 = ["clang-format-14", "clang-format"].some((cmd) =>
  /version 14\./.test(spawnSync(cmd, ["--version"], { encoding: "utf8" }).stdout ?? ""),
);

test(
  "format check: names each unformatted C and TypeScript file and exits 1; after `npm run format` it passes",
  { skip: !hasClangFormat14 && "clang-format 14 is not installed (npm run setup -- --test)" },
  (t) => {
    const dir = mkdtempSync(join(tmpdir(), "pq-format-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(join(dir, "scripts"));
    mkdirSync(join(dir, "src"));
    copyFileSync(join(root, "scripts", "format.mjs"), join(dir, "scripts", "format.mjs"));
    copyFileSync(join(root, ".clang-format"), join(dir, ".clang-format"));
    copyFileSync(join(root, ".prettierrc.json"), join(dir, ".prettierrc.json"));
    symlinkSync(join(root, "node_modules"), join(dir, "node_modules"));
    writeFileSync(join(dir, "src", "a.c"), "int  f( int x ){return x;}\n");
    writeFileSync(join(dir, "src", "b.ts"), "export const x = {a:1,\n b:2}\n");
    const git = (...args) => assert.equal(spawnSync("git", args, { cwd: dir }).status, 0, `git ${args.join(" ")}`);
    git("init", "-q");
    git("add", "scripts", "src", ".clang-format", ".prettierrc.json");

    const check = () => spawnSync(process.execPath, [join(dir, "scripts", "format.mjs"), "--check"], { cwd: dir, encoding: "utf8" });
    const before = check();
    assert.equal(before.status, 1, before.stderr);
    assert.match(before.stderr, /src\/a\.c is not formatted \(clang-format\)/);
    assert.match(before.stderr, /src\/b\.ts is not formatted \(prettier\)/);
    assert.match(before.stderr, /2 file\(s\) not formatted; run "npm run format"/);

    const write = spawnSync(process.execPath, [join(dir, "scripts", "format.mjs")], { cwd: dir, encoding: "utf8" });
    assert.equal(write.status, 0, write.stderr);
    assert.equal(readFileSync(join(dir, "src", "a.c"), "utf8"), "int f(int x) { return x; }\n");
    assert.equal(readFileSync(join(dir, "src", "b.ts"), "utf8"), "export const x = { a: 1, b: 2 };\n");
    const after = check();
    assert.equal(after.status, 0, after.stderr);
    assert.match(after.stdout, /1 C files and 2 TypeScript\/JavaScript files are formatted/);
  },
);
