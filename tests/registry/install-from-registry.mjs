// install-from-registry.mjs — pi-question installed the way most people will install it: from
// an npm registry. A local Verdaccio (on the current line's Node 24; it needs Node ≥ 22) on
// 127.0.0.1 serves the `npm pack` of this checkout, published with `npm publish`; then, each in
// a fresh HOME with a fresh npm prefix, cache and user config (nothing of this machine's npm
// set-up):
//   1. `pi install npm:pi-question`
//   2. `npm install -g pi-question`, then `pi install "$(npm root -g)/pi-question"`
// and in both the real pi, interactive in tmux, asks a question that is answered with keys.
// The pi line is tests/helpers/pi-line.mjs's (PI_LINE); `.ci/run` runs this file on both.
//
// Not part of `npm test` (the file name is not a test file name; run it with
// `npm run test:registry`, which installs Verdaccio and the current line into the cache first).
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { currentLine, registryTools } from "../../scripts/current-pi.mjs";
import { copyCheckout, mustRun } from "../helpers/install.mjs";
import { line, lineEnv, piCommand } from "../helpers/pi-line.mjs";
import { startPi } from "../helpers/tmux.mjs";

const tmp = mkdtempSync(join(tmpdir(), "pi-question-registry-"));
const ADDON = join("build", "Release", "pi_question.node");
const CALL = {
  name: "question",
  arguments: { questions: [{ id: "db", prompt: "Which database?", options: [{ value: "pg", label: "PostgreSQL" }, { value: "lite", label: "SQLite" }] }] },
};
const EXPECTED = "db: user selected: 2. SQLite (value: lite)";
/** Installs compile the addon: generous on a loaded machine. */
const INSTALL_MS = 600000;

let verdaccio;
let registry; // http://127.0.0.1:PORT/
let verdaccioLog = "";

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitForRegistry(url, timeoutMs = 120000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const r = await fetch(new URL("-/ping", url));
      if (r.ok) return;
    } catch {}
    if (verdaccio.exitCode !== null) throw new Error(`verdaccio exited ${verdaccio.exitCode}\n${verdaccioLog}`);
    if (Date.now() > until) throw new Error(`verdaccio did not answer on ${url}\n${verdaccioLog}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The environment of a person on a fresh machine: own HOME, npm prefix, cache and user config
 * naming only the local registry; the pi line's Node first in PATH. */
function freshUser(name) {
  const home = mkdtempSync(join(tmp, `${name}-`));
  const prefix = join(home, ".npm-global");
  mkdirSync(prefix);
  writeFileSync(join(home, ".npmrc"), `registry=${registry}\n`);
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    LANG: "C.UTF-8",
    NO_COLOR: "1",
    PI_SKIP_VERSION_CHECK: "1",
    npm_config_userconfig: join(home, ".npmrc"),
    npm_config_prefix: prefix,
    npm_config_cache: join(home, ".npm"),
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
  };
  // Nothing but what npm itself does: no nodedir (our install script builds against the headers
  // next to the Node that runs it).
  const { npm_config_nodedir, ...clean } = lineEnv(env);
  return { home, prefix, env: clean };
}

/** Runs a command to completion (synchronously: used while preparing a tmux pi's HOME);
 * returns { stdout, output }. */
function mustRunSync(cmd, args, { cwd, env }) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: "utf8", timeout: INSTALL_MS, stdio: ["ignore", "pipe", "pipe"] });
  const output = `${r.stdout ?? ""}${r.stderr ?? ""}`;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status ?? r.signal ?? r.error?.message}\n${output}`);
  return { stdout: r.stdout, output };
}

before(async () => {
  const tools = registryTools();
  const node = currentLine().node;
  if (!existsSync(tools.verdaccio) || !existsSync(node)) {
    throw new Error('Verdaccio or Node 24 is not installed in the cache: run "node scripts/current-pi.mjs install --registry" (or npm run test:registry)');
  }
  const dir = join(tmp, "verdaccio");
  mkdirSync(dir);
  writeFileSync(
    join(dir, "config.yaml"),
    [
      `storage: ${join(dir, "storage")}`,
      "auth:",
      "  htpasswd:",
      `    file: ${join(dir, "htpasswd")}`,
      "    max_users: 10",
      "uplinks: {}", // nothing from anywhere else: only what is published here
      "packages:",
      "  '**':",
      "    access: $all",
      "    publish: $authenticated",
      "log: { type: stdout, format: pretty, level: warn }",
      "",
    ].join("\n"),
  );
  const port = await freePort();
  registry = `http://127.0.0.1:${port}/`;
  verdaccio = spawn(node, [tools.verdaccio, "--config", join(dir, "config.yaml"), "--listen", `127.0.0.1:${port}`], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, HOME: dir },
  });
  verdaccio.stdout.on("data", (d) => (verdaccioLog += d));
  verdaccio.stderr.on("data", (d) => (verdaccioLog += d));
  await waitForRegistry(registry);

  // A publisher account (npm refuses to publish without credentials).
  const res = await fetch(new URL("-/user/org.couchdb.user:publisher", registry), {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "publisher", password: "publisher-password", type: "user", roles: [] }),
  });
  const account = await res.json();
  assert.ok(account.token, `verdaccio created no account: ${JSON.stringify(account)}`);

  // The tarball of a clean copy of this checkout, published.
  const clean = copyCheckout(join(tmp, "clean"));
  const publisher = join(tmp, "publisher");
  mkdirSync(publisher);
  const host = registry.replace(/^http:/, "");
  writeFileSync(join(publisher, ".npmrc"), `registry=${registry}\n${host}:_authToken=${account.token}\n`);
  const penv = {
    PATH: process.env.PATH,
    HOME: publisher,
    npm_config_userconfig: join(publisher, ".npmrc"),
    npm_config_cache: join(publisher, ".npm"),
    npm_config_update_notifier: "false",
  };
  const packed = await mustRun("npm", ["pack", "--pack-destination", publisher], { cwd: clean, env: penv });
  const tgz = join(publisher, packed.stdout.trim().split("\n").pop().trim());
  await mustRun("npm", ["publish", tgz, "--registry", registry], { cwd: publisher, env: penv });
  const view = await mustRun("npm", ["view", "pi-question", "version", "--registry", registry], { cwd: publisher, env: penv });
  const version = JSON.parse(readFileSync(join(clean, "package.json"), "utf8")).version;
  assert.equal(view.stdout.trim(), version);
});

after(async () => {
  verdaccio?.kill("SIGTERM");
  rmSync(tmp, { recursive: true, force: true });
});

/** The real pi, interactive in tmux, with `user`'s HOME and npm set-up (`install` prepares it
 * there first): the model asks, the person picks SQLite with ↓ Enter, the model reads it. */
async function askInTui(user, install) {
  const pi = await startPi({
    replies: [{ toolCalls: [CALL] }, { text: "thanks" }],
    loadPackage: false,
    env: {
      npm_config_userconfig: user.env.npm_config_userconfig,
      npm_config_prefix: user.prefix,
      npm_config_cache: user.env.npm_config_cache,
    },
    // startPi's HOME (models.json for the mock model) is pi's: the install runs with it.
    prepareHome: (home, work) => install({ ...user.env, HOME: home }, work),
  });
  try {
    await pi.prompt("ask me");
    const screen = await pi.waitForScreen(/Which database\?/, 60000);
    assert.match(screen, /SQLite/);
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

test(`registry: \`pi install npm:pi-question\` in a fresh HOME, answered in pi's TUI (${line.describe()})`, { timeout: 2 * INSTALL_MS }, async () => {
  const user = freshUser("pi-install-npm");
  await askInTui(user, (env, work) => {
    const [cmd, args] = piCommand(["install", "npm:pi-question"]);
    const out = mustRunSync(cmd, args, { cwd: work, env }).output;
    const settings = JSON.parse(readFileSync(join(env.HOME, ".pi", "agent", "settings.json"), "utf8"));
    assert.deepEqual(settings.packages, ["npm:pi-question"], out);
    // Where pi put it: npm's global prefix (0.73.1), or pi's own npm directory in its agent
    // directory (the current line).
    const places = [join(user.prefix, "lib", "node_modules"), join(env.HOME, ".pi", "agent", "npm", "node_modules")]
      .map((dir) => join(dir, "pi-question"))
      .filter((dir) => existsSync(join(dir, "package.json")));
    assert.equal(places.length, 1, `pi-question installed in ${places.length} places\n${out}`);
    assert.ok(existsSync(join(places[0], ADDON)), `the install built no addon in ${places[0]}\n${out}`);
  });
});

test(`registry: \`npm install -g pi-question\` + \`pi install "$(npm root -g)/pi-question"\`, answered in pi's TUI (${line.describe()})`, { timeout: 2 * INSTALL_MS }, async () => {
  const user = freshUser("npm-install-g");
  await askInTui(user, (env, work) => {
    mustRunSync("npm", ["install", "-g", "pi-question"], { cwd: work, env });
    const root = mustRunSync("npm", ["root", "-g"], { cwd: work, env }).stdout.trim();
    assert.equal(root, join(user.prefix, "lib", "node_modules"));
    assert.ok(existsSync(join(root, "pi-question", ADDON)), "npm install -g built no addon");
    const [cmd, args] = piCommand(["install", join(root, "pi-question")]);
    mustRunSync(cmd, args, { cwd: work, env });
  });
});
