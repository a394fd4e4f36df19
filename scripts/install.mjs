// install.mjs — builds the native addon at `npm install`. Before node-gyp runs it checks the
// two things a fresh machine lacks most often — a C compiler and the cJSON library — and, if
// one is missing, says in one sentence what to install on which system.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

function has(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: "ignore" });
  return r.status === 0;
}

function fail(sentence) {
  console.error(`pi-question: ${sentence}`);
  process.exit(1);
}

const compiler = process.env.CC || "cc";
if (!has(compiler, ["--version"])) {
  fail(
    `no C compiler found (${compiler}); install one: Debian/Ubuntu "sudo apt-get install build-essential pkg-config", Fedora "sudo dnf install gcc make pkgconf", macOS "xcode-select --install".`,
  );
}
if (!has("pkg-config", ["--exists", "libcjson"])) {
  fail(
    `the cJSON library was not found (pkg-config libcjson); install it: Debian/Ubuntu "sudo apt-get install libcjson-dev pkg-config", Fedora "sudo dnf install cjson-devel pkgconf", macOS "brew install cjson pkg-config".`,
  );
}

// npm passes the path of its own node-gyp to lifecycle scripts; fall back to one on PATH.
const gyp = process.env.npm_config_node_gyp;
const extra = process.argv.slice(2);
const r = gyp
  ? spawnSync(process.execPath, [gyp, "rebuild", ...extra], { cwd: root, stdio: "inherit" })
  : spawnSync("node-gyp", ["rebuild", ...extra], { cwd: root, stdio: "inherit" });
if (r.status !== 0) {
  fail("building the native addon failed (see the compiler output above).");
}
