// registry.mjs — the local npm registry of the registry tests: Verdaccio (on the current line's
// Node 24; it needs Node ≥ 22) on 127.0.0.1 with no uplinks, serving only what the test
// publishes — the packages a release of this checkout publishes (scripts/packages.mjs: one per
// prebuilt addon in dist/prebuilds/, then pi-question with optionalDependencies naming them) —
// and the environment of a person on a fresh machine who installs from it.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { currentLine, registryTools } from "../../scripts/current-pi.mjs";
import { stagePackages } from "../../scripts/packages.mjs";
import { copyCheckout, mustRun, root } from "../helpers/install.mjs";
import { lineEnv } from "../helpers/pi-line.mjs";

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

/**
 * Starts Verdaccio in `tmp` and publishes this checkout's release packages to it. Returns
 * { url, published: [names], stopped(): void, log(): string }.
 */
export async function startRegistry(tmp) {
  const tools = registryTools();
  const node = currentLine().node;
  if (!existsSync(tools.verdaccio) || !existsSync(node)) {
    throw new Error(
      'Verdaccio or Node 24 is not installed in the cache: run "node scripts/current-pi.mjs install --registry" (or npm run test:registry)',
    );
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
  const url = `http://127.0.0.1:${port}/`;
  let log = "";
  const verdaccio = spawn(node, [tools.verdaccio, "--config", join(dir, "config.yaml"), "--listen", `127.0.0.1:${port}`], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, HOME: dir },
  });
  verdaccio.stdout.on("data", (d) => (log += d));
  verdaccio.stderr.on("data", (d) => (log += d));
  const stop = () => verdaccio.kill("SIGTERM");
  try {
    const until = Date.now() + 120000;
    for (;;) {
      try {
        if ((await fetch(new URL("-/ping", url))).ok) break;
      } catch {}
      if (verdaccio.exitCode !== null) throw new Error(`verdaccio exited ${verdaccio.exitCode}\n${log}`);
      if (Date.now() > until) throw new Error(`verdaccio did not answer on ${url}\n${log}`);
      await new Promise((r) => setTimeout(r, 200));
    }

    // A publisher account (npm refuses to publish without credentials).
    const res = await fetch(new URL("-/user/org.couchdb.user:publisher", url), {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "publisher", password: "publisher-password", type: "user", roles: [] }),
    });
    const account = await res.json();
    assert.ok(account.token, `verdaccio created no account: ${JSON.stringify(account)}`);

    // The release of a clean copy of this checkout (with the prebuilt addons built here), staged
    // and published as a release publishes it: the platform packages first.
    const clean = copyCheckout(join(tmp, "clean"));
    cpSync(join(root, "dist", "prebuilds"), join(clean, "dist", "prebuilds"), { recursive: true });
    const staged = stagePackages({ root: clean, out: join(tmp, "packages"), partial: true }); // what is built here: all six when scripts/current-pi.mjs registry built them
    const publisher = join(tmp, "publisher");
    mkdirSync(publisher);
    writeFileSync(join(publisher, ".npmrc"), `registry=${url}\n${url.replace(/^http:/, "")}:_authToken=${account.token}\n`);
    const penv = {
      PATH: process.env.PATH,
      HOME: publisher,
      npm_config_userconfig: join(publisher, ".npmrc"),
      npm_config_cache: join(publisher, ".npm"),
      npm_config_update_notifier: "false",
    };
    const published = [];
    for (const dir of [...staged.platforms.map((p) => p.dir), staged.main]) {
      await mustRun("npm", ["publish", dir, "--registry", url, "--ignore-scripts"], { cwd: publisher, env: penv });
      published.push(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name);
    }
    const view = await mustRun("npm", ["view", "pi-question", "optionalDependencies", "--json", "--registry", url], {
      cwd: publisher,
      env: penv,
    });
    assert.deepEqual(Object.keys(JSON.parse(view.stdout)).sort(), staged.platforms.map((p) => p.name).sort());
    return { url, published, stop, log: () => log };
  } catch (error) {
    stop();
    throw error;
  }
}

/** The environment of a person on a fresh machine: own HOME, npm prefix, cache and user config
 * naming only the local registry (plus `npmrc` lines); the pi line's Node first in PATH unless
 * `path` gives the whole PATH. */
export function freshUser(tmp, name, { registry, npmrc = [], path } = {}) {
  const home = mkdtempSync(join(tmp, `${name}-`));
  const prefix = join(home, ".npm-global");
  mkdirSync(prefix);
  writeFileSync(join(home, ".npmrc"), [`registry=${registry}`, ...npmrc, ""].join("\n"));
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
  if (path) clean.PATH = path;
  return { home, prefix, env: clean };
}
