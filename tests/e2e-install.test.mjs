// e2e-install.test.mjs — the package installed the ways pi users install it, each proved with the
// real pi (print mode, scripted model, throw-away HOME and project directory): the `question`
// tool is offered to the model at start-up, exactly once, and answers with the exact result.
//
// Ways: `pi install <checkout>` (global and -l); an `npm pack` tarball (its contents, then
// installed with npm globally and into a project's .pi/npm and registered with `pi install`);
// `pi -e`; a copy or a symlink in ~/.pi/agent/extensions/question/ or a project's
// .pi/extensions/question/ (auto-discovery, no flag); the dotfiles one-line loader
// ~/.pi/agent/extensions/question.ts; `/reload` in interactive pi under tmux; and the install
// step's one-sentence failure when cJSON or the compiler is missing.
//
// The addon is compiled four times, concurrently (the shared checkout, the tarball installed
// globally, into a project's .pi/npm, and inside a project's .pi/extensions/question/); every
// other case reuses those builds. Everything lives under one temporary root removed at the end.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { after, before, test } from "node:test";
import { startMockModel } from "./helpers/mock-model.mjs";
import {
  EXPECTED_RESULT,
  PI_MODEL_ARGS,
  QUESTION_CALL,
  askPrint,
  copyCheckout,
  installEnv,
  makeTmpRoot,
  mustRun,
  newHome,
  peerIsOptional,
  pi,
  piBin,
  pkg,
  run,
  writeModels,
} from "./helpers/install.mjs";

const tmp = makeTmpRoot();
const base = tmp.dir;
const ADDON = join("build", "Release", "pi_question.node");

/** The one line a dotfiles repo tracks as ~/.pi/agent/extensions/question.ts. */
const dotfilesLine = (checkout) => `export { default } from "${checkout}/extension/index.ts";`;
/** The same with the checkout under HOME, for dotfiles shared between machines and users. */
const dotfilesHomeLine = (rel) =>
  `export default async (pi) => (await import(\`\${process.env.HOME}/${rel}/extension/index.ts\`)).default(pi);`;

// ---------------------------------------------------------------------------------------------
// Fixtures, started together in before() and awaited by the tests that need them, so a broken
// fixture fails its own cases only.

const npmHome = join(base, "npm-home"); // HOME of the fixture npm runs
const npmEnv = (extra) => installEnv(npmHome, { cache: join(base, "npm-cache"), ...extra });
const fixtures = {};

function start(name, fn) {
  fixtures[name] = fn();
  fixtures[name].catch(() => {}); // reported by the tests that await it
  return fixtures[name];
}

before(() => {
  mkdirSync(npmHome, { recursive: true });
  // A clean copy (what a git clone holds) and one tarball packed from it.
  const clean = copyCheckout(join(base, "clean"));
  start("clean", async () => clean);
  start("tarball", async () => {
    const dest = join(base, "pack");
    mkdirSync(dest);
    const r = await mustRun("npm", ["pack", "--pack-destination", dest], { cwd: clean, env: npmEnv() });
    const name = r.stdout.trim().split("\n").pop().trim();
    const tgz = join(dest, name);
    assert.ok(existsSync(tgz), `npm pack made no ${tgz}\n${r.output}`);
    return tgz;
  });
  // The shared checkout: a clone after `npm install` (dev dependencies omitted to stay offline;
  // the install script runs the same either way).
  start("checkout", async () => {
    const dir = copyCheckout(join(base, "pi-question"));
    await mustRun("npm", ["install", "--omit=dev"], { cwd: dir, env: npmEnv() });
    assert.ok(existsSync(join(dir, ADDON)), "npm install in the checkout built no addon");
    return dir;
  });
  // The tarball installed with npm globally (the prefix stands for /usr/local).
  start("globalTgz", async () => {
    const tgz = await fixtures.tarball;
    const prefix = join(base, "npm-global");
    const r = await mustRun("npm", ["install", "-g", tgz], { cwd: base, env: npmEnv({ prefix }) });
    return { prefix, dir: join(prefix, "lib", "node_modules", "pi-question"), output: r.output };
  });
  // The tarball installed into a project's .pi/npm (where pi keeps a project's npm packages).
  start("projectTgz", async () => {
    const tgz = await fixtures.tarball;
    const project = join(base, "tgz-project");
    mkdirSync(project);
    const r = await mustRun("npm", ["install", "--prefix", join(".pi", "npm"), tgz], { cwd: project, env: npmEnv() });
    return { project, dir: join(project, ".pi", "npm", "node_modules", "pi-question"), output: r.output };
  });
  // A checkout copied into a project's .pi/extensions/question/, then `npm install` there.
  start("projectExt", async () => {
    const project = join(base, "ext-project");
    const dir = join(project, ".pi", "extensions", "question");
    cpSync(clean, dir, { recursive: true });
    await mustRun("npm", ["install", "--omit=dev"], { cwd: dir, env: npmEnv() });
    return { project, dir };
  });
});

const tmuxSessions = new Set();
after(() => {
  for (const name of tmuxSessions) tmux("kill-session", "-t", `=${name}`);
  tmp.remove();
});

// ---------------------------------------------------------------------------------------------
// Assertions.

function transcript(r) {
  return `\n--- pi exited ${r.code}; the model was offered [${r.offered}]\n--- stdout:\n${r.stdout}\n--- stderr:\n${r.stderr}`;
}

/** The model was offered `question` exactly once at start-up and read back the exact result. */
function assertAnswered(r) {
  assert.equal(r.code, 0, `pi failed${transcript(r)}`);
  assert.deepEqual(r.offered.filter((n) => n === "question"), ["question"], `question not offered exactly once${transcript(r)}`);
  assert.equal(r.tools.length, 1, `expected one tool message${transcript(r)}`);
  assert.equal(r.tools[0].content, EXPECTED_RESULT, transcript(r));
  assert.doesNotMatch(r.stderr, /conflicts with|Failed to load extension/, transcript(r));
}

/** pi ran without the tool (the package is not in scope here). */
function assertAbsent(r) {
  assert.equal(r.code, 0, `pi failed${transcript(r)}`);
  assert.ok(!r.offered.includes("question"), `question offered out of scope${transcript(r)}`);
  assert.equal(r.tools[0]?.content, "Tool question not found", transcript(r));
}

function readJson(path) {
  return JSON.parse(readFileSync(path, "utf8"));
}

// ---------------------------------------------------------------------------------------------
// (1) pi install <checkout>

test("install: `pi install <checkout>` (global settings) registers the tool", async () => {
  const checkout = await fixtures.checkout;
  const { home, project, env } = newHome(base, "global-checkout");
  const inst = await pi(["install", checkout], { cwd: project, env });
  assert.equal(inst.code, 0, inst.output);
  const settings = readJson(join(home, ".pi", "agent", "settings.json"));
  assert.equal(settings.packages.length, 1, JSON.stringify(settings));
  assert.equal(resolve(home, ".pi", "agent", settings.packages[0]), checkout);
  assertAnswered(await askPrint({ home, cwd: project, env }));
  // Global: any other directory has it too.
  const elsewhere = join(home, "elsewhere");
  mkdirSync(elsewhere);
  assertAnswered(await askPrint({ home, cwd: elsewhere, env }));
});

test("install: `pi install -l <checkout>` (project settings) registers the tool in that project only", async () => {
  const checkout = await fixtures.checkout;
  const { home, project, env } = newHome(base, "project-checkout");
  const inst = await pi(["install", "-l", checkout], { cwd: project, env });
  assert.equal(inst.code, 0, inst.output);
  const settings = readJson(join(project, ".pi", "settings.json"));
  assert.equal(settings.packages.length, 1, JSON.stringify(settings));
  assert.equal(resolve(project, ".pi", settings.packages[0]), checkout);
  assert.ok(!existsSync(join(home, ".pi", "agent", "settings.json")) || !readJson(join(home, ".pi", "agent", "settings.json")).packages?.length);
  assertAnswered(await askPrint({ home, cwd: project, env }));
  const elsewhere = join(home, "elsewhere");
  mkdirSync(elsewhere);
  assertAbsent(await askPrint({ home, cwd: elsewhere, env }));
});

test("install: `pi install <checkout>` before `npm install` there says what to run (pi itself never builds it)", async () => {
  const clean = await fixtures.clean; // a fresh clone: no build/
  const { home, project, env } = newHome(base, "unbuilt-checkout");
  const inst = await pi(["install", clean], { cwd: project, env });
  assert.equal(inst.code, 0, inst.output);
  const r = await askPrint({ home, cwd: project, env });
  assert.ok(!r.offered.includes("question"), transcript(r));
  assert.ok(r.stderr.includes(`pi-question: the native addon is not built. Run "npm install" in ${clean}.`), transcript(r));
});

// ---------------------------------------------------------------------------------------------
// (2) the npm pack tarball

function tarEntries(tgz) {
  const r = spawnSync("tar", ["-tzf", tgz], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.split("\n").filter(Boolean).map((e) => e.replace(/^package\//, ""));
}

test("tarball: `npm pack` ships the sources, the extension, bin and README, and no tests or build leftovers", async () => {
  const [tgz, clean] = await Promise.all([fixtures.tarball, fixtures.clean]);
  const entries = tarEntries(tgz);
  const has = new Set(entries);
  for (const bad of ["tests/", "build/", "node_modules/", "native/fuzz/", "bench/", ".ci/"]) {
    assert.deepEqual(entries.filter((e) => e.startsWith(bad)), [], `the tarball holds ${bad}`);
  }
  for (const need of ["binding.gyp", "README.md", "package.json", "scripts/install.mjs", ...pkg.pi.extensions.map((p) => p.replace(/^\.\//, ""))]) {
    assert.ok(has.has(need), `the tarball lacks ${need}`);
  }
  const native = readdirSync(join(clean, "native")).filter((f) => /\.[ch]$/.test(f));
  assert.ok(native.some((f) => f.endsWith(".c")) && native.some((f) => f.endsWith(".h")));
  for (const f of native) assert.ok(has.has(`native/${f}`), `the tarball lacks native/${f}`);
  for (const dir of ["extension", "bin"]) {
    const files = readdirSync(join(clean, dir), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    assert.ok(files.length > 0);
    for (const e of files) {
      const f = relative(clean, join(e.parentPath ?? e.path, e.name)).split(sep).join("/");
      assert.ok(has.has(f), `the tarball lacks ${f}`);
    }
  }
  // Every source binding.gyp compiles is shipped.
  const gypSources = readFileSync(join(clean, "binding.gyp"), "utf8").match(/native\/[\w.-]+\.c/g);
  for (const s of gypSources) assert.ok(has.has(s), `binding.gyp compiles ${s}, not in the tarball`);
});

/** npm 11 runs a dependency's install script with a warning unless allowScripts covers it
 * (and refuses under strict-allow-scripts): say what npm said, for the record. */
function noteInstallScriptsGate(t, output) {
  const warned = output.split("\n").filter((l) => /install-scripts/.test(l));
  if (!warned.length) return;
  t.diagnostic("npm gates our install script (it ran, with this warning):");
  for (const line of warned) t.diagnostic(line);
}

test("tarball: `npm install -g <tarball>` builds the addon, `pi install <its directory>` registers the tool", async (t) => {
  const g = await fixtures.globalTgz;
  assert.ok(existsSync(join(g.dir, ADDON)), `our install script did not build the addon\n${g.output}`);
  noteInstallScriptsGate(t, g.output);
  const { home, project, env } = newHome(base, "global-tarball", { prefix: g.prefix });
  const root = (await mustRun("npm", ["root", "-g"], { cwd: project, env })).stdout.trim();
  assert.equal(root, join(g.prefix, "lib", "node_modules"));
  const inst = await pi(["install", join(root, "pi-question")], { cwd: project, env });
  assert.equal(inst.code, 0, inst.output);
  assertAnswered(await askPrint({ home, cwd: project, env }));
});

test("tarball: `npm install --prefix .pi/npm <tarball>` then `pi install -l` registers the tool in the project", async (t) => {
  const p = await fixtures.projectTgz;
  assert.ok(existsSync(join(p.dir, ADDON)), `our install script did not build the addon\n${p.output}`);
  noteInstallScriptsGate(t, p.output);
  const { home, env } = newHome(base, "project-tarball");
  const inst = await pi(["install", "-l", "./.pi/npm/node_modules/pi-question"], { cwd: p.project, env });
  assert.equal(inst.code, 0, inst.output);
  assert.deepEqual(readJson(join(p.project, ".pi", "settings.json")).packages, ["npm/node_modules/pi-question"]);
  assertAnswered(await askPrint({ home, cwd: p.project, env }));
});

test(
  "tarball: `pi install <path to the .tgz>` itself",
  { todo: "pi 0.73.1 treats a local .tgz as an extension file: 'Unknown file extension \".tgz\"' (and npm:<path.tgz> installs but never loads)" },
  async () => {
    const tgz = await fixtures.tarball;
    const { home, project, env } = newHome(base, "tgz-direct");
    const inst = await pi(["install", tgz], { cwd: project, env });
    assert.equal(inst.code, 0, inst.output);
    assertAnswered(await askPrint({ home, cwd: project, env }));
  },
);

test("tarball: installing it does not pull a second pi (the peer dependency is optional)", async () => {
  assert.ok(peerIsOptional, 'package.json must mark the pi peer dependency optional ("peerDependenciesMeta")');
  const p = await fixtures.projectTgz;
  const modules = join(p.project, ".pi", "npm", "node_modules");
  assert.ok(existsSync(join(modules, "pi-question")), p.output);
  assert.equal(existsSync(join(modules, "@mariozechner")), false, "npm installed pi (and its ~190 dependencies) alongside");
});

test("tarball: with cJSON missing the install fails with one sentence naming the package to install", async () => {
  const tgz = await fixtures.tarball;
  const dir = join(base, "no-cjson");
  const empty = join(dir, "empty-pkgconfig");
  mkdirSync(empty, { recursive: true });
  const r = await run("npm", ["install", tgz], {
    cwd: dir,
    env: npmEnv({ extra: { PKG_CONFIG_PATH: empty, PKG_CONFIG_LIBDIR: "/nonexistent" } }),
  });
  assert.notEqual(r.code, 0, r.output);
  const lines = r.output.split("\n").filter((l) => l.includes("pi-question: "));
  assert.equal(lines.length, 1, r.output);
  assert.match(
    lines[0],
    /pi-question: the cJSON library was not found \(pkg-config libcjson\); install it: Debian\/Ubuntu "sudo apt-get install libcjson-dev pkg-config", Fedora "sudo dnf install cjson-devel pkgconf", macOS "brew install cjson pkg-config"\.$/,
  );
  assert.doesNotMatch(r.output, /gyp info|gyp ERR/, "node-gyp ran although cJSON is missing");
});

test("tarball: with no C compiler the install fails with one sentence naming what to install", async () => {
  const tgz = await fixtures.tarball;
  const dir = join(base, "no-cc");
  mkdirSync(dir);
  const r = await run("npm", ["install", tgz], { cwd: dir, env: npmEnv({ extra: { CC: "/nonexistent/cc" } }) });
  assert.notEqual(r.code, 0, r.output);
  const lines = r.output.split("\n").filter((l) => l.includes("pi-question: "));
  assert.equal(lines.length, 1, r.output);
  assert.match(lines[0], /pi-question: no C compiler found \(\/nonexistent\/cc\); install one: Debian\/Ubuntu "sudo apt-get install build-essential pkg-config"/);
});

// ---------------------------------------------------------------------------------------------
// (3) pi -e <path>

test("install: `pi -e <checkout>` and `pi -e <checkout>/extension/index.ts` load the tool for one run", async () => {
  const checkout = await fixtures.checkout;
  const { home, project, env } = newHome(base, "dash-e");
  assertAnswered(await askPrint({ home, cwd: project, env, extraArgs: ["-e", checkout] }));
  assertAnswered(await askPrint({ home, cwd: project, env, extraArgs: ["-e", join(checkout, "extension", "index.ts")] }));
  assertAbsent(await askPrint({ home, cwd: project, env }));
});

// ---------------------------------------------------------------------------------------------
// (4) auto-discovery: no flag, no settings

test("discovery: a copy of the built checkout in ~/.pi/agent/extensions/question/", async () => {
  const checkout = await fixtures.checkout;
  const { home, project, env } = newHome(base, "global-copy");
  cpSync(checkout, join(home, ".pi", "agent", "extensions", "question"), { recursive: true });
  assertAnswered(await askPrint({ home, cwd: project, env }));
});

test("discovery: a symlink ~/.pi/agent/extensions/question -> checkout", async () => {
  const checkout = await fixtures.checkout;
  const { home, project, env } = newHome(base, "global-link");
  mkdirSync(join(home, ".pi", "agent", "extensions"));
  symlinkSync(checkout, join(home, ".pi", "agent", "extensions", "question"));
  assertAnswered(await askPrint({ home, cwd: project, env }));
});

test("discovery: a checkout in a project's .pi/extensions/question/ after `npm install` there", async () => {
  const p = await fixtures.projectExt;
  assert.ok(existsSync(join(p.dir, ADDON)), "npm install in .pi/extensions/question built no addon");
  const { home, project, env } = newHome(base, "project-copy");
  assertAnswered(await askPrint({ home, cwd: p.project, env }));
  assertAbsent(await askPrint({ home, cwd: project, env }));
});

test("discovery: a symlink in a project's .pi/extensions/question -> checkout", async () => {
  const checkout = await fixtures.checkout;
  const { home, project, env } = newHome(base, "project-link");
  mkdirSync(join(project, ".pi", "extensions"), { recursive: true });
  symlinkSync(checkout, join(project, ".pi", "extensions", "question"));
  assertAnswered(await askPrint({ home, cwd: project, env }));
});

// ---------------------------------------------------------------------------------------------
// (5) the dotfiles layout: a tracked one-line ~/.pi/agent/extensions/question.ts

test("dotfiles: ~/.pi/agent/extensions/question.ts holding the one-line loader", async () => {
  const checkout = await fixtures.checkout;
  const { home, project, env } = newHome(base, "dotfiles");
  const file = join(home, ".pi", "agent", "extensions", "question.ts");
  mkdirSync(join(home, ".pi", "agent", "extensions"));
  writeFileSync(file, `${dotfilesLine(checkout)}\n`);
  assertAnswered(await askPrint({ home, cwd: project, env }));
});

test("dotfiles: the loader tracked in a dotfiles repo and symlinked into ~/.pi/agent/extensions (stow)", async () => {
  const checkout = await fixtures.checkout;
  const { home, project, env } = newHome(base, "dotfiles-stow");
  const tracked = join(home, "dotfiles", ".pi", "agent", "extensions", "question.ts");
  mkdirSync(join(home, "dotfiles", ".pi", "agent", "extensions"), { recursive: true });
  writeFileSync(tracked, `${dotfilesLine(checkout)}\n`);
  mkdirSync(join(home, ".pi", "agent", "extensions"));
  symlinkSync(tracked, join(home, ".pi", "agent", "extensions", "question.ts"));
  assert.ok(lstatSync(join(home, ".pi", "agent", "extensions", "question.ts")).isSymbolicLink());
  assertAnswered(await askPrint({ home, cwd: project, env }));
});

test("dotfiles: a HOME-relative loader (the same tracked file on every machine)", async () => {
  const checkout = await fixtures.checkout;
  const { home, project, env } = newHome(base, "dotfiles-home");
  mkdirSync(join(home, "src"));
  symlinkSync(checkout, join(home, "src", "pi-question"));
  mkdirSync(join(home, ".pi", "agent", "extensions"));
  writeFileSync(join(home, ".pi", "agent", "extensions", "question.ts"), `${dotfilesHomeLine("src/pi-question")}\n`);
  assertAnswered(await askPrint({ home, cwd: project, env }));
});

// ---------------------------------------------------------------------------------------------
// (6) /reload in a running interactive pi (tmux)

const SOCKET = "piq-e2e"; // the tmux server of the other e2e tests (tests/helpers/tmux.mjs)
function tmux(...args) {
  return spawnSync("tmux", ["-L", SOCKET, ...args], { encoding: "utf8" });
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const shellQuote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;

/** The mappings of pi_question.node in a process: { lines, files }. */
function addonMappings(pid) {
  const lines = readFileSync(`/proc/${pid}/maps`, "utf8")
    .split("\n")
    .filter((l) => l.endsWith("pi_question.node"));
  return { lines: lines.length, files: [...new Set(lines.map((l) => l.split(/\s+/).slice(5).join(" ")))] };
}

test("reload: after /reload the tool still answers, the addon is mapped once, nothing is registered twice", async () => {
  const checkout = await fixtures.checkout;
  const { home, project } = newHome(base, "reload");
  mkdirSync(join(home, ".pi", "agent", "extensions"));
  symlinkSync(checkout, join(home, ".pi", "agent", "extensions", "question"));
  const model = await startMockModel([{ toolCalls: [QUESTION_CALL] }, { text: "first answer read" }, { toolCalls: [QUESTION_CALL] }, { text: "second answer read" }]);
  const name = `piq-e2e-${process.pid}-9${Date.now() % 100000}`;
  try {
    writeModels(home, model.port);
    const env = { HOME: home, PATH: process.env.PATH, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", NO_COLOR: "1", TERM: "xterm-256color", LANG: "C.UTF-8", LC_ALL: "C.UTF-8" };
    const command = ["cd", shellQuote(project), "&&", "exec", "env", ...Object.entries(env).map(([k, v]) => shellQuote(`${k}=${v}`)), shellQuote(piBin), ...[...PI_MODEL_ARGS, "--no-session"].map(shellQuote)].join(" ");
    const started = tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "40", command, ";", "set-option", "-t", name, "remain-on-exit", "on");
    assert.equal(started.status, 0, started.stderr);
    tmuxSessions.add(name);
    const screen = () => tmux("capture-pane", "-p", "-t", name).stdout;
    const waitFor = async (re, what, ms = 20000) => {
      const until = Date.now() + ms;
      for (;;) {
        const s = screen();
        if (re.test(s)) return s;
        if (Date.now() > until) throw new Error(`timed out waiting for ${what ?? re}\n--- screen ---\n${s}`);
        await sleep(50);
      }
    };
    const type = async (text) => {
      tmux("send-keys", "-t", name, "-l", text);
      await waitFor(new RegExp(text.replace(/[/\\^$*+?.()|[\]{}]/g, "\\$&")), `"${text}" typed`);
      await sleep(50);
      tmux("send-keys", "-t", name, "Enter");
    };

    await waitFor(/mock-1/, "pi's editor");
    const pid = Number(tmux("display-message", "-p", "-t", name, "#{pane_pid}").stdout.trim());
    assert.match(readlinkSync(`/proc/${pid}/exe`), /node/, "the pane runs pi's node process");

    await type("ask me");
    await model.waitForRequests(2);
    await waitFor(/first answer read/);
    assert.equal(model.toolMessages(1)[0]?.content, EXPECTED_RESULT);
    const before = addonMappings(pid);
    assert.equal(before.files.length, 1, JSON.stringify(before));
    assert.equal(realpathSync(before.files[0]), realpathSync(join(checkout, ADDON)));

    await type("/reload");
    await waitFor(/Reloaded/, "the reload notice");
    await type("again");
    await model.waitForRequests(4);
    const last = await waitFor(/second answer read/);

    // The tool answered again, with the same result.
    assert.deepEqual(model.toolMessages(3).map((m) => m.content), [EXPECTED_RESULT, EXPECTED_RESULT]);
    // Offered exactly once in every request, before and after the reload.
    for (const [i, req] of model.requests.entries()) {
      const names = (req.tools ?? []).map((t) => t.function?.name);
      assert.deepEqual(names.filter((n) => n === "question"), ["question"], `request ${i} offered [${names}]`);
    }
    // The shared object is still mapped once, from the one file: no second load.
    assert.deepEqual(addonMappings(pid), before);
    // No conflict diagnostics (pi reports a second registration as "… conflicts with …").
    assert.doesNotMatch(last, /conflicts with|Failed to load|already registered/i, last);
    // The commands are listed once in the autocomplete.
    for (const [typed, command] of [["/ques", "questions"], ["/answ", "answer"]]) {
      tmux("send-keys", "-t", name, "-l", typed);
      const menu = await waitFor(new RegExp(`^\\W*${command}\\s{2,}`, "m"), `${command} in the autocomplete`);
      const rows = menu.split("\n").filter((l) => new RegExp(`^\\W*${command}\\s{2,}`).test(l));
      assert.equal(rows.length, 1, menu);
      tmux("send-keys", "-t", name, "Escape");
      await sleep(150);
      tmux("send-keys", "-t", name, "C-c");
      await sleep(100);
    }
  } finally {
    tmux("kill-session", "-t", `=${name}`);
    tmuxSessions.delete(name);
    await model.close();
  }
});
