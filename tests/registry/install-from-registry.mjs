// install-from-registry.mjs — pi-question installed the way most people will install it: from
// an npm registry, on a machine that cannot build anything. The local registry
// (tests/registry/registry.mjs) serves this checkout's release: the prebuilt platform packages
// and pi-question listing them in its optionalDependencies. Then, each in a fresh HOME with a
// fresh npm prefix, cache and user config, with `ignore-scripts=true` in that config (npm runs no
// install script at all) and a PATH holding only `node` and `npm` (no compiler, make, Python or
// pkg-config reachable):
//   1. `pi install npm:pi-question`
//   2. `npm install -g pi-question`, then `pi install "$(npm root -g)/pi-question"`
// and in both the real pi, interactive in tmux, asks a question that is answered with keys —
// with the prebuilt addon, which the test reads from pi's own memory map (/proc/<pid>/maps).
//
// The cJSON library is hidden too when scripts/current-pi.mjs runs this file as root: it runs it
// in a mount namespace of its own (`unshare --mount`) where /dev/null is bind-mounted over every
// libcjson file and an empty directory over cJSON's headers, and sets PI_QUESTION_CJSON_HIDDEN=1;
// the test then checks that the dynamic loader really cannot load libcjson. Without root it
// says that it could not hide it (the readelf check of the prebuilt still runs).
//
// The pi line is tests/helpers/pi-line.mjs's (PI_LINE); `.ci/run` runs this file on every line.
// Not part of `npm test` (not a test file name): `npm run test:registry`.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { createRequire } from "node:module";
import { line, piCommand } from "../helpers/pi-line.mjs";
import { startPi, tmux } from "../helpers/tmux.mjs";
import { freshUser, startRegistry } from "./registry.mjs";

const require = createRequire(import.meta.url);
const { hostTarget, packageName } = require("../../extension/platform-package.cjs");

const tmp = mkdtempSync(join(tmpdir(), "pi-question-registry-"));
const CALL = {
  name: "question",
  arguments: {
    questions: [
      {
        id: "db",
        prompt: "Which database?",
        options: [
          { value: "pg", label: "PostgreSQL" },
          { value: "lite", label: "SQLite" },
        ],
      },
    ],
  },
};
const EXPECTED = "db: user selected: 2. SQLite (value: lite)";
const INSTALL_MS = 300000;
const PLATFORM_PACKAGE = packageName(hostTarget());

let registry;

/** A directory holding only `node` (the pi line's) and `npm`: the whole PATH of the person. */
function nodeAndNpmOnly() {
  const dir = join(tmp, "path-node-npm");
  if (existsSync(dir)) return dir;
  mkdirSync(dir);
  const npm = spawnSync("sh", ["-c", "command -v npm"], { encoding: "utf8" }).stdout.trim();
  assert.ok(npm, "npm is not on PATH");
  symlinkSync(line.nodeDir ? line.node : process.execPath, join(dir, "node"));
  symlinkSync(realpathSync(npm), join(dir, "npm"));
  return dir;
}

before(async () => {
  registry = await startRegistry(tmp);
  assert.ok(registry.published.includes(PLATFORM_PACKAGE), `no prebuilt for this machine was published (${registry.published.join(", ")})`);
});

after(() => {
  registry?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

/** Nothing that builds the addon is reachable with `env`, and (when hidden) nor is cJSON. */
function assertNothingToBuildWith(env, t) {
  for (const tool of ["cc", "gcc", "g++", "clang", "make", "python3", "python", "pkg-config", "node-gyp"]) {
    const r = spawnSync(tool, ["--version"], { env, stdio: "ignore" });
    assert.ok(r.error?.code === "ENOENT", `${tool} is reachable on PATH ${env.PATH}`);
  }
  // The dynamic loader: a hidden libcjson is an empty file (ELF header missing) or absent.
  const probe = spawnSync(
    process.execPath,
    ["-e", "try { process.dlopen({ exports: {} }, 'libcjson.so.1'); } catch (e) { console.log(e.message); }"],
    { encoding: "utf8" },
  );
  const unloadable = /cannot open shared object|too short|invalid ELF header/.test(probe.stdout);
  if (process.env.PI_QUESTION_CJSON_HIDDEN === "1") {
    assert.ok(unloadable, `libcjson is still loadable: ${probe.stdout}${probe.stderr}`);
  } else if (!unloadable) {
    t.diagnostic(
      "libcjson could not be hidden (run through `node scripts/current-pi.mjs registry` as root); only readelf shows the prebuilt does not need it",
    );
  }
}

/** The prebuilt in the installed tree: present, needing no libcjson, and no build/ made. */
function assertPrebuiltInstalled(pkgDir, output) {
  assert.ok(!existsSync(join(pkgDir, "build")), `something was built in ${pkgDir}\n${output}`);
  const candidates = [join(pkgDir, "node_modules", PLATFORM_PACKAGE), join(pkgDir, "..", PLATFORM_PACKAGE)];
  const addonDir = candidates.find((d) => existsSync(join(d, "pi_question.node")));
  assert.ok(addonDir, `${PLATFORM_PACKAGE} was not installed beside ${pkgDir}\n${output}`);
  const others = readdirSync(join(addonDir, "..")).filter((n) => n.startsWith("pi-question-") && n !== PLATFORM_PACKAGE);
  assert.deepEqual(others, [], "npm installed platform packages that do not fit this machine");
  const dynamic = spawnSync("readelf", ["-d", join(addonDir, "pi_question.node")], { encoding: "utf8" });
  if (dynamic.status === 0) assert.doesNotMatch(dynamic.stdout, /libcjson/, "the prebuilt needs the system's libcjson");
  return realpathSync(join(addonDir, "pi_question.node"));
}

/** The real pi, interactive in tmux, with `user`'s HOME and npm set-up (`install` prepares it
 * there first and returns the addon file that must be loaded): the model asks, the person picks
 * SQLite with ↓ Enter, the model reads it. */
async function askInTui(user, install) {
  let addon;
  const pi = await startPi({
    replies: [{ toolCalls: [CALL] }, { text: "thanks" }],
    loadPackage: false,
    env: {
      PATH: user.env.PATH,
      npm_config_userconfig: user.env.npm_config_userconfig,
      npm_config_prefix: user.prefix,
      npm_config_cache: user.env.npm_config_cache,
    },
    // startPi's HOME (models.json for the mock model) is pi's: the install runs with it.
    prepareHome: (home, work) => {
      addon = install({ ...user.env, HOME: home }, work);
    },
  });
  try {
    await pi.prompt("ask me");
    const screen = await pi.waitForScreen(/Which database\?/, 60000);
    assert.match(screen, /SQLite/);
    const pid = Number(tmux("display-message", "-p", "-t", pi.name, "#{pane_pid}").stdout.trim());
    const maps = readFileSync(`/proc/${pid}/maps`, "utf8");
    assert.ok(
      maps.includes(addon),
      `pi (pid ${pid}) has not loaded ${addon}:\n${maps
        .split("\n")
        .filter((l) => l.includes(".node"))
        .join("\n")}`,
    );
    await pi.keys("Down");
    await pi.waitForScreen(/> 2\. SQLite/);
    await pi.keys("Enter");
    await pi.model.waitForRequests(2, 60000);
    assert.equal(pi.model.toolMessages(1)[0]?.content, EXPECTED);
    assert.equal(pi.crashLog(), null, "pi-tui wrote a crash log");
  } catch (error) {
    error.message += `\n--- screen (${pi.name}) ---\n${pi.screen()}`;
    throw error;
  } finally {
    await pi.kill();
  }
}

function mustRunSync(cmd, args, { cwd, env }) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: "utf8", timeout: INSTALL_MS, stdio: ["ignore", "pipe", "pipe"] });
  const output = `${r.stdout ?? ""}${r.stderr ?? ""}`;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status ?? r.signal ?? r.error?.message}\n${output}`);
  return { stdout: r.stdout, output };
}

/** A person with nothing to build with, whose npm runs no install scripts. */
function userWithoutToolchain(name, t) {
  const user = freshUser(tmp, name, { registry: registry.url, npmrc: ["ignore-scripts=true"], path: nodeAndNpmOnly() });
  assertNothingToBuildWith(user.env, t);
  return user;
}

test(
  `registry: \`pi install npm:pi-question\` with no compiler and ignore-scripts, answered in pi's TUI with the prebuilt addon (${line.describe()})`,
  { timeout: 2 * INSTALL_MS },
  async (t) => {
    const user = userWithoutToolchain("pi-install-npm", t);
    await askInTui(user, (env, work) => {
      const [cmd, args] = piCommand(["install", "npm:pi-question"]);
      const out = mustRunSync(cmd, args, { cwd: work, env }).output;
      const settings = JSON.parse(readFileSync(join(env.HOME, ".pi", "agent", "settings.json"), "utf8"));
      assert.deepEqual(settings.packages, ["npm:pi-question"], out);
      // Where pi put it: npm's global prefix (0.73.1), or pi's own npm directory in its agent
      // directory (later lines).
      const places = [join(user.prefix, "lib", "node_modules"), join(env.HOME, ".pi", "agent", "npm", "node_modules")]
        .map((dir) => join(dir, "pi-question"))
        .filter((dir) => existsSync(join(dir, "package.json")));
      assert.equal(places.length, 1, `pi-question installed in ${places.length} places\n${out}`);
      return assertPrebuiltInstalled(places[0], out);
    });
  },
);

test(
  `registry: \`npm install -g pi-question\` + \`pi install "$(npm root -g)/pi-question"\` with no compiler and ignore-scripts, answered in pi's TUI (${line.describe()})`,
  { timeout: 2 * INSTALL_MS },
  async (t) => {
    const user = userWithoutToolchain("npm-install-g", t);
    await askInTui(user, (env, work) => {
      const out = mustRunSync("npm", ["install", "-g", "pi-question"], { cwd: work, env }).output;
      const root = mustRunSync("npm", ["root", "-g"], { cwd: work, env }).stdout.trim();
      assert.equal(root, join(user.prefix, "lib", "node_modules"));
      const addon = assertPrebuiltInstalled(join(root, "pi-question"), out);
      const [cmd, args] = piCommand(["install", join(root, "pi-question")]);
      mustRunSync(cmd, args, { cwd: work, env });
      return addon;
    });
  },
);
