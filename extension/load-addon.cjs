// load-addon.cjs — finds and loads the native addon by explicit path (pi loads extensions
// through jiti, which breaks the `bindings`/`node-gyp-build` path helpers). Plain CommonJS so
// the extension loads it with Node's own require (no transpiling, no ES module loader: issue 13)
// and the standalone command and the tests import it too. PI_QUESTION_ADDON names a specific
// build (the sanitizer build, for instance).
"use strict";
const { existsSync } = require("node:fs");
const { join } = require("node:path");

const packageRoot = join(__dirname, "..");
const addonCandidates = [
  join(packageRoot, "build", "Release", "pi_question.node"),
  join(packageRoot, "build", "Debug", "pi_question.node"),
];

let loaded;

function loadAddon() {
  if (loaded) return loaded;
  const tried = [];
  const candidates = process.env.PI_QUESTION_ADDON ? [process.env.PI_QUESTION_ADDON] : addonCandidates;
  for (const candidate of candidates) {
    if (!existsSync(candidate)) {
      tried.push(`${candidate} (missing)`);
      continue;
    }
    try {
      loaded = require(candidate);
      return loaded;
    } catch (error) {
      tried.push(`${candidate} (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  const built = tried.some((t) => !t.endsWith("(missing)"));
  throw new Error(
    built
      ? `pi-question: the native addon could not be loaded (rebuild it with "npm rebuild" in ${packageRoot}; if libcjson is missing, install libcjson1 / cjson). Tried:\n  ${tried.join("\n  ")}`
      : `pi-question: the native addon is not built. Run "npm install" in ${packageRoot}. Looked in:\n  ${tried.join("\n  ")}`,
  );
}

module.exports = { packageRoot, addonCandidates, loadAddon };
