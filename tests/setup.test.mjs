// setup.test.mjs — scripts/setup.mjs (`npm run setup`): what it would run on each system, as
// root and not, with and without a terminal (nothing is installed here), and that it needs
// nothing from node_modules.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { root } from "./helpers/addon.mjs";
import { REQUIREMENTS, installCommands, packagesFor } from "../scripts/setup.mjs";

const byId = (...ids) => ids.map((id) => REQUIREMENTS.find((r) => r.id === id));
const build = byId("cc", "make", "python3", "pkg-config", "cjson");

test("setup: the build prerequisites per package manager", () => {
  assert.deepEqual(packagesFor("apt", build).packages, ["build-essential", "make", "python3", "pkg-config", "libcjson-dev"]);
  assert.deepEqual(packagesFor("dnf", build).packages, ["gcc", "make", "python3", "pkgconf", "cjson-devel"]);
  assert.deepEqual(packagesFor("pacman", build).packages, ["gcc", "make", "python", "pkgconf", "cjson"]);
  assert.deepEqual(packagesFor("apk", build).packages, ["build-base", "make", "python3", "pkgconf", "cjson-dev"]);
  const brew = packagesFor("brew", build);
  assert.deepEqual(brew.packages, ["make", "python", "pkg-config", "cjson"]);
  assert.match(brew.notes.join("\n"), /xcode-select --install/);
});

test("setup: the test prerequisites (tmux, clang and its runtimes, Chromium)", () => {
  const tests = byId("tmux", "clang", "clang-rt", "chromium");
  const apt = packagesFor("apt", tests).packages;
  assert.deepEqual(apt.slice(0, 2), ["tmux", "clang"]);
  assert.match(apt[2], /^libclang-rt-\d+-dev$/);
  assert.equal(apt[3], "chromium");
  assert.deepEqual(packagesFor("dnf", tests).packages, ["tmux", "clang", "compiler-rt", "chromium"]);
  assert.deepEqual(packagesFor("pacman", tests).packages, ["tmux", "clang", "compiler-rt", "chromium"]);
  assert.deepEqual(packagesFor("apk", tests).packages, ["tmux", "clang", "compiler-rt", "chromium"]);
});

test("setup: sudo only when not root, never a password prompt without a terminal, nothing interactive", () => {
  assert.deepEqual(installCommands("apt", ["x"], { root: true, tty: false }), [
    ["env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "update", "-q"],
    ["env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-q", "--no-install-recommends", "x"],
  ]);
  assert.deepEqual(installCommands("apt", ["x"], { root: false, tty: false, refresh: false }), [
    ["sudo", "-n", "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-q", "--no-install-recommends", "x"],
  ]);
  assert.deepEqual(installCommands("dnf", ["x"], { root: false, tty: true }), [["sudo", "dnf", "install", "-y", "x"]]);
  assert.deepEqual(installCommands("pacman", ["x"], { root: true, tty: true }), [["pacman", "-S", "--needed", "--noconfirm", "x"]]);
  assert.deepEqual(installCommands("apk", ["x"], { root: false, tty: false }), [["sudo", "-n", "apk", "add", "x"]]);
  // brew refuses root and sudo: never either.
  assert.deepEqual(installCommands("brew", ["x"], { root: false, tty: false }), [["env", "HOMEBREW_NO_AUTO_UPDATE=1", "NONINTERACTIVE=1", "brew", "install", "x"]]);
  assert.deepEqual(installCommands("apt", [], { root: true, tty: true }), []);
});

test("setup: imports only node: modules; --dry-run prints what it would run and runs nothing", () => {
  const source = readFileSync(join(root, "scripts", "setup.mjs"), "utf8");
  const imports = [...source.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
  assert.ok(imports.length > 0);
  for (const spec of imports) assert.match(spec, /^node:/, `setup.mjs imports ${spec}`);
  const r = spawnSync(process.execPath, [join(root, "scripts", "setup.mjs"), "--dry-run", "--ci"], { encoding: "utf8", cwd: root });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^setup: \$ npm ci --no-audit --no-fund$/m);
  const bad = spawnSync(process.execPath, [join(root, "scripts", "setup.mjs"), "--bogus"], { encoding: "utf8", cwd: root });
  assert.equal(bad.status, 2);
});
