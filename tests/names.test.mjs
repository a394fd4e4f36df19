// names.test.mjs — one word for one thing (ARCHITECTURE.md, "Names"): "remote" means only
// another terminal (the pi-question command, details.mode "remote"); what the board says to any
// answer from elsewhere is an ELSEWHERE_* string; the endpoint each pi serves is "the relay".
// A string, type or limit named for one face but used by every face is what this catches.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { addon, root } from "./helpers/addon.mjs";
import { checkoutFiles } from "./helpers/checkout.mjs";

/** Tracked files under `dirs` (what a reader of the code sees). */
function tracked(...dirs) {
  return checkoutFiles().filter((f) => dirs.some((d) => f.startsWith(`${d}/`)));
}

/** The files outside the string tables that use string `id`. */
function usersOf(id, files) {
  const word = new RegExp(`\\b${id}\\b`);
  return files.filter((f) => !/^native\/core\/(strings\.c|qt_strings\.h)$/.test(f) && word.test(readFileSync(join(root, f), "utf8")));
}

test("names: a REMOTE_* string is used only by the other-terminal face (bin/remote.mjs, the transcript of a remote answer)", () => {
  const files = tracked("extension", "bin", "native");
  const ids = Object.keys(addon.strings("en")).filter((id) => id.startsWith("REMOTE_"));
  assert.ok(ids.length > 10, "the REMOTE_* strings are found");
  const FACE = new Set(["bin/remote.mjs", "extension/ask/transcript.ts"]);
  for (const id of ids) {
    const users = usersOf(id, files);
    assert.ok(users.length > 0, `${id} is used`);
    for (const f of users)
      assert.ok(FACE.has(f), `${id} is used by ${f}, which is not the other-terminal face: name it ELSEWHERE_* if every face says it`);
  }
});

test("names: every ELSEWHERE_* string is said by more than the other-terminal command", () => {
  const files = tracked("extension", "bin", "native");
  const ids = Object.keys(addon.strings("en")).filter((id) => id.startsWith("ELSEWHERE_"));
  assert.ok(ids.length >= 8, "the ELSEWHERE_* strings are found");
  for (const id of ids) {
    const users = usersOf(id, files);
    assert.ok(
      users.some((f) => f !== "bin/remote.mjs"),
      `${id} is used only by ${users.join(", ") || "nothing"}: a string of one face is named for it`,
    );
  }
});

test("names: the extension names no type, function or variable for 'remote' (only the details.mode value)", () => {
  const hits = [];
  for (const f of tracked("extension").filter((f) => /\.(ts|mts|mjs|cjs)$/.test(f))) {
    readFileSync(join(root, f), "utf8")
      .split("\n")
      .forEach((line, i) => {
        // the mode value, Node's socket field, and the REMOTE_* strings (their users: the first test)
        const code = line.replace(/"remote"|\bremoteAddress\b|\bREMOTE_[A-Z_]+\b/g, "");
        if (/remote/i.test(code)) hits.push(`${f}:${i + 1}: ${line.trim()}`);
      });
  }
  assert.deepEqual(hits, [], "'remote' means another terminal; the board and the relay serve every face");
});
