// native-driver.mjs — builds a C test driver (tests/native-*.c) against the core's sources
// (every source binding.gyp lists for this OS but the binding's, native/node/) and the system's libcjson, for the
// tests that run the core outside Node: under a sanitizer, with wrapped system calls, or with
// cJSON hooks.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { gypBuildInputs } from "../../scripts/prebuild.mjs";
import { root } from "./addon.mjs";

/** The environment without the sanitizer preload of `npm run test:asan` (a driver brings its own runtime). */
const { LD_PRELOAD: _preload, ...env } = process.env;
export const driverEnv = env;

const cjson = spawnSync("pkg-config", ["--cflags", "--libs", "libcjson"], { encoding: "utf8", env });
/** The compiler and linker flags of libcjson, or null when pkg-config does not know it. */
export const cjsonFlags = cjson.status === 0 ? cjson.stdout.trim().split(/\s+/).filter(Boolean) : null;

/** Whether `cc` compiles and links an empty program with these flags. */
export function compiles(cc, flags = []) {
  return (
    spawnSync(cc, [...flags, "-x", "c", "-", "-o", "/dev/null"], { input: "int main(void){return 0;}", encoding: "utf8", env }).status === 0
  );
}

function coreSources() {
  const os = process.platform === "darwin" ? "mac" : process.platform === "win32" ? "win" : "linux";
  return gypBuildInputs(undefined, { os })
    .sources.filter((s) => !s.startsWith("native/node/"))
    .map((s) => join(root, s));
}

/**
 * Builds tests/<driver>.c with the core into `exe`: `flags` before the sources (defines, the
 * sanitizer), `linkFlags` after them. Returns spawnSync's result (status, stderr).
 */
export function buildDriver(cc, driver, exe, { flags = [], linkFlags = [] } = {}) {
  return spawnSync(
    cc,
    [
      "-std=c11",
      "-D_POSIX_C_SOURCE=200809L",
      "-g",
      "-O1",
      ...flags,
      `-I${join(root, "native", "core")}`,
      join(root, "tests", `${driver}.c`),
      ...coreSources(),
      "-o",
      exe,
      ...linkFlags,
      ...(cjsonFlags ?? []),
    ],
    { encoding: "utf8", env },
  );
}
