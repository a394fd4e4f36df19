// setup.test.mjs — scripts/setup.mjs (`npm run setup`): what it would run on each system, as
// root and not, with and without a terminal (nothing is installed here), and that it needs
// nothing from node_modules.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { root } from "./helpers/addon.mjs";
import { REQUIREMENTS, detectManager, installCommands, linker, osRelease, packagesFor } from "../scripts/setup.mjs";

const byId = (...ids) => ids.map((id) => REQUIREMENTS.find((r) => r.id === id));
const build = byId("cc", "c++", "make", "python3", "pkg-config", "cjson");
const DEBIAN = osRelease('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\n');
const UBUNTU = osRelease('PRETTY_NAME="Ubuntu 24.04.1 LTS"\nNAME="Ubuntu"\nVERSION_ID="24.04"\nID=ubuntu\nID_LIKE=debian\n');

test("setup: the build prerequisites per package manager, a C++ compiler among them (node-gyp links with it)", () => {
  assert.deepEqual(packagesFor("apt", build, DEBIAN).packages, ["build-essential", "make", "python3", "pkg-config", "libcjson-dev"]);
  assert.deepEqual(packagesFor("dnf", build).packages, ["gcc", "gcc-c++", "make", "python3", "pkgconf", "cjson-devel"]);
  assert.deepEqual(packagesFor("pacman", build).packages, ["gcc", "make", "python", "pkgconf", "cjson"]);
  assert.deepEqual(packagesFor("apk", build).packages, ["build-base", "make", "python3", "pkgconf", "cjson-dev"]);
  // brew's make is `gmake`: the compilers and make come from Apple's command line tools, said once.
  const brew = packagesFor("brew", build);
  assert.deepEqual(brew.packages, ["python", "pkg-config", "cjson"]);
  assert.deepEqual(brew.notes, [
    `a C compiler, a C++ compiler (node-gyp links the addon with it), make: install Apple's command line tools: "xcode-select --install"`,
  ]);
});

test("setup: the C++ compiler looked for is the one node-gyp's Makefile links with", () => {
  assert.equal(linker({}, "linux"), "g++");
  assert.equal(linker({}, "darwin"), "c++");
  assert.equal(linker({ CXX: "clang++" }, "linux"), "clang++");
  assert.equal(linker({ CXX: "clang++", LINK: "g++-12" }, "linux"), "g++-12");
  // A machine with cc but without that compiler is told so (and, where setup can, given it).
  const r = spawnSync(process.execPath, [join(root, "scripts", "setup.mjs"), "--dry-run", "--no-npm"], {
    encoding: "utf8",
    cwd: root,
    env: { ...process.env, CXX: "/nonexistent/c++", LINK: "" },
  });
  assert.match(r.stdout, /^setup: missing: a C\+\+ compiler \(node-gyp links the addon with it\)$/m, r.stdout + r.stderr);
  if (r.status === 0 && detectManager() === "apt") assert.match(r.stdout, /apt-get install .*build-essential/);
});

test("setup: the test prerequisites (tmux, clang and its runtimes, Chromium); none of Ubuntu's snap Chromium", () => {
  const tests = byId("tmux", "clang", "clang-rt", "chromium");
  const apt = packagesFor("apt", tests, DEBIAN).packages;
  assert.deepEqual(apt.slice(0, 2), ["tmux", "clang"]);
  assert.match(apt[2], /^libclang-rt-\d+-dev$/);
  assert.equal(apt[3], "chromium");
  const ubuntu = packagesFor("apt", tests, UBUNTU);
  assert.deepEqual(ubuntu.packages, apt.slice(0, 3));
  assert.equal(ubuntu.notes.length, 1);
  assert.match(ubuntu.notes[0], /^Chromium \(browser tests\): Ubuntu ships Chromium only as a snap/);
  assert.deepEqual(packagesFor("dnf", tests).packages, ["tmux", "clang", "compiler-rt", "chromium"]);
  assert.deepEqual(packagesFor("pacman", tests).packages, ["tmux", "clang", "compiler-rt", "chromium"]);
  assert.deepEqual(packagesFor("apk", tests).packages, ["tmux", "clang", "compiler-rt", "chromium"]);
});

test("setup: /etc/os-release is read as the shell would (quoted or not)", () => {
  assert.deepEqual(UBUNTU, { PRETTY_NAME: "Ubuntu 24.04.1 LTS", NAME: "Ubuntu", VERSION_ID: "24.04", ID: "ubuntu", ID_LIKE: "debian" });
  assert.equal(osRelease("ID='arch'\n").ID, "arch");
  assert.equal(typeof osRelease(), "object");
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
  assert.deepEqual(installCommands("apk", ["x"], { root: false, tty: false }), [
    ["sudo", "-n", "apk", "update"],
    ["sudo", "-n", "apk", "add", "x"],
  ]);
  // brew refuses root and sudo: never either.
  assert.deepEqual(installCommands("brew", ["x"], { root: false, tty: false }), [
    ["env", "HOMEBREW_NO_AUTO_UPDATE=1", "NONINTERACTIVE=1", "brew", "install", "x"],
  ]);
  assert.deepEqual(installCommands("apt", [], { root: true, tty: true }), []);
});

test("setup: a fresh system's empty package index is fetched first (pacman: with the upgrade Arch requires, which pacman asks about on a terminal; apk: apk update)", () => {
  assert.deepEqual(installCommands("pacman", ["x"], { root: true, tty: true }), [["pacman", "-Syu", "--needed", "x"]]);
  assert.deepEqual(installCommands("pacman", ["x"], { root: false, tty: false }), [
    ["sudo", "-n", "pacman", "-Syu", "--needed", "--noconfirm", "x"],
  ]);
  assert.deepEqual(installCommands("pacman", ["x"], { root: true, tty: true, refresh: false }), [["pacman", "-S", "--needed", "x"]]);
  assert.deepEqual(installCommands("pacman", ["x"], { root: true, tty: false, refresh: false }), [
    ["pacman", "-S", "--needed", "--noconfirm", "x"],
  ]);
  assert.deepEqual(installCommands("apk", ["x", "y"], { root: true, tty: true }), [
    ["apk", "update"],
    ["apk", "add", "x", "y"],
  ]);
  assert.deepEqual(installCommands("apk", ["x"], { root: true, tty: true, refresh: false }), [["apk", "add", "x"]]);
  assert.deepEqual(installCommands("dnf", ["x"], { root: true, tty: false }), [["dnf", "install", "-y", "x"]]);
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
