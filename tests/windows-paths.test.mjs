// windows-paths.test.mjs — the Windows decisions of the relay, the registry, the standalone
// command and the external editor, as pure functions checked here on Linux: where the registry
// lives (%LOCALAPPDATA%, never $XDG_RUNTIME_DIR or ~), the named pipe the relay listens on, that
// no relay directory is swept there, how the editor is started (cmd.exe with the file in a
// variable, Notepad when nothing is set), the console as the terminal, and "~" for the profile.
// The same modules run for real on Windows' Node under Wine (scripts/wine-tests.mjs).
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { homeOf, noTerminalMessage, shortDirectory, terminalPath } from "../bin/remote.mjs";
import { refusedEndpoint, registryLocation, request } from "../extension/elsewhere/relay-wire.mjs";
import { importShim } from "./helpers/shim.mjs";

const relay = await importShim("elsewhere/relay.ts");
const { editorInvocation } = await importShim("ask/external-editor.ts");

test("windows: the registry is %LOCALAPPDATA%\\pi-question (else the profile's AppData\\Local); POSIX keeps its places", () => {
  const env = {
    LOCALAPPDATA: "C:\\Users\\Me\\AppData\\Local",
    USERPROFILE: "C:\\Users\\Me",
    XDG_RUNTIME_DIR: "/run/user/1000",
    HOME: "/home/me",
  };
  assert.equal(registryLocation(env, "win32"), "C:\\Users\\Me\\AppData\\Local\\pi-question");
  assert.equal(
    registryLocation({ USERPROFILE: "D:\\Profiles\\Me", HOME: "/c/Users/Me" }, "win32"),
    "D:\\Profiles\\Me\\AppData\\Local\\pi-question",
  );
  assert.equal(registryLocation({}, "win32", "C:\\Users\\Fallback"), "C:\\Users\\Fallback\\AppData\\Local\\pi-question");
  assert.equal(registryLocation(env, "linux"), "/run/user/1000/pi-question");
  assert.equal(registryLocation({ HOME: "/home/me" }, "darwin"), "/home/me/.pi/agent/run");
});

test("windows: the relay listens on \\\\.\\pipe\\pi-question-<user>-<pid>-<random>; POSIX on relay.sock in its directory", () => {
  assert.equal(
    relay.relayEndpoint("win32", { dir: "", user: "Me", pid: 42, random: "0123abcd" }),
    "\\\\.\\pipe\\pi-question-Me-42-0123abcd",
  );
  // A pipe name may not hold a backslash; a domain user, spaces and other letters are kept out.
  assert.equal(
    relay.relayEndpoint("win32", { dir: "", user: "CORP\\Jörg Smith", pid: 7, random: "ff" }),
    "\\\\.\\pipe\\pi-question-CORP_J_rg_Smith-7-ff",
  );
  assert.equal(relay.relayEndpoint("win32", { dir: "", user: "", pid: 7, random: "ff" }), "\\\\.\\pipe\\pi-question-user-7-ff");
  assert.equal(
    relay.relayEndpoint("win32", { dir: "", user: "x".repeat(300), pid: 7, random: "ff" }).length,
    "\\\\.\\pipe\\pi-question--7-ff".length + 64,
  );
  assert.equal(
    relay.relayEndpoint("linux", { dir: "/tmp/pi-question-relay-42-AbC123", user: "me", pid: 42, random: "ff" }),
    "/tmp/pi-question-relay-42-AbC123/relay.sock",
  );
  // The variable carries a pipe's name as it carries a socket's path.
  const secret = "b".repeat(64);
  assert.deepEqual(relay.parseRelayVariable(`v1:${secret}:\\\\.\\pipe\\pi-question-Me-42-0123abcd`), {
    secret,
    path: "\\\\.\\pipe\\pi-question-Me-42-0123abcd",
  });
});

test("windows: a client sends nothing to a pipe whose pi (the pid in its name) is gone, nor to a name with no pid; POSIX sockets are not checked so", async () => {
  const pipe = "\\\\.\\pipe\\pi-question-CORP_J-rg-42-0123abcd";
  const checked = [];
  const isAlive = (alivePid) => (pid) => (checked.push(pid), pid === alivePid);
  assert.equal(refusedEndpoint(pipe, "win32", isAlive(42)), undefined);
  assert.deepEqual(checked, [42], "the pid is the one before the random part, a '-' in the user name notwithstanding");
  assert.match(refusedEndpoint(pipe, "win32", isAlive(7)), /the pi that made .*pi-question-CORP_J-rg-42-0123abcd \(pid 42\) is gone/);
  assert.match(
    refusedEndpoint("\\\\.\\PIPE\\Pi-Question-me-42-ff", "win32", isAlive(7)),
    /pid 42\) is gone/,
    "pipe names are case-insensitive",
  );
  assert.match(refusedEndpoint("\\\\.\\pipe\\something-else", "win32", isAlive(42)), /is not a pi-question pipe/);
  assert.match(refusedEndpoint("/tmp/relay.sock", "win32", isAlive(42)), /is not a pi-question pipe/);
  assert.equal(refusedEndpoint("/tmp/pi-question-relay-42-AbC123/relay.sock", "linux", isAlive(7)), undefined);
  assert.equal(refusedEndpoint("/tmp/pi-question-relay-42-AbC123/relay.sock", "darwin", isAlive(7)), undefined);
  // request() applies it on this platform: on POSIX a missing socket is still just unreachable;
  // on Windows (this file also runs under Wine) that path is no pi-question pipe, so nothing is sent.
  const reply = await request({ path: "/nonexistent/pq/relay.sock", secret: "a".repeat(64) }, { type: "list" });
  if (process.platform === "win32") assert.match(reply.reason, /is not a pi-question pipe/);
  else assert.deepEqual(reply, { type: "unreachable", reason: "ENOENT" });
  assert.equal(reply.type, "unreachable");
});

test("windows: no relay directory is swept (a named pipe leaves nothing behind); POSIX sweeps a dead pid's", async () => {
  const parent = mkdtempSync(join(tmpdir(), "pq-winsweep-"));
  try {
    // A pid far above any pid_max is never alive.
    const dir = join(parent, "pi-question-relay-2147483646-AbC123");
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, "kept"), "");
    assert.deepEqual(await relay.sweepRelayDirectories(parent, "win32"), []);
    assert.ok(existsSync(join(dir, "kept")));
    assert.deepEqual(await relay.sweepRelayDirectories(parent, "linux"), [dir]);
    assert.equal(existsSync(dir), false);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});

test("windows: the editor runs through System32's cmd.exe with the file in a variable, System32's Notepad when none is set; POSIX through sh", () => {
  const file = "C:\\Users\\A & B %x%\\Temp\\pi-question-1\\answer.md";
  const notepad = editorInvocation({ SystemRoot: "D:\\WINNT" }, file, "win32");
  assert.deepEqual([notepad.program, notepad.args], ["D:\\WINNT\\System32\\notepad.exe", [file]]);
  const code = editorInvocation({ EDITOR: "code --wait", ComSpec: "C:\\Windows\\system32\\cmd.exe" }, file, "win32");
  assert.equal(code.program, "C:\\Windows\\system32\\cmd.exe");
  assert.deepEqual(code.args, ["/d", "/v:off", "/s", "/c", '"code --wait "%PI_QUESTION_EDIT_FILE%""']);
  assert.equal(code.options.windowsVerbatimArguments, true);
  assert.equal(code.options.env.PI_QUESTION_EDIT_FILE, file, "the name never enters the command line");
  assert.equal(code.options.env.NoDefaultCurrentDirectoryInExePath, "1", "cmd does not look for the editor in the project");
  assert.equal(editorInvocation({ VISUAL: "gvim", EDITOR: "vi" }, file, "win32").args[4], '"gvim "%PI_QUESTION_EDIT_FILE%""');
  assert.equal(editorInvocation({ EDITOR: "vi", windir: "C:\\Win" }, file, "win32").program, "C:\\Win\\System32\\cmd.exe");
  assert.equal(editorInvocation({ EDITOR: "vi", SystemRoot: "" }, file, "win32").program, "C:\\Windows\\System32\\cmd.exe");
  assert.equal(editorInvocation({}, file, "win32").program, "C:\\Windows\\System32\\notepad.exe");
  assert.equal(editorInvocation({}, "/tmp/a.md", "linux"), undefined, "POSIX: no editor set is said, not guessed");
  const sh = editorInvocation({ EDITOR: "vi -n" }, "/tmp/a.md", "linux");
  assert.deepEqual([sh.program, sh.args], ["/bin/sh", ["-c", 'vi -n "$1"', "sh", "/tmp/a.md"]]);
});

test("windows: the standalone command asks on the console, and shows the profile as ~ whatever the case or separator", () => {
  assert.equal(terminalPath("win32"), "CONIN$");
  assert.equal(terminalPath("linux"), "/dev/tty");
  // On Windows the terminal is the console: without one, that is what is said.
  assert.equal(noTerminalMessage("win32"), "no console to ask on (CONIN$ cannot be opened: this process has no console)");
  assert.equal(noTerminalMessage("linux"), "no terminal to ask on (/dev/tty cannot be opened)");
  assert.equal(homeOf({ USERPROFILE: "C:\\Users\\Me", HOME: "/c/Users/Me" }, "win32"), "C:\\Users\\Me");
  assert.equal(homeOf({ USERPROFILE: "C:\\Users\\Me", HOME: "/home/me" }, "linux"), "/home/me");
  const home = "C:\\Users\\Me";
  assert.equal(shortDirectory("C:\\Users\\Me\\src\\shop", home, "win32"), "~\\src\\shop");
  assert.equal(shortDirectory("c:\\users\\me\\src", home, "win32"), "~\\src");
  assert.equal(shortDirectory("C:\\Users\\Me/src", home, "win32"), "~/src");
  assert.equal(shortDirectory("C:\\Users\\Me", "C:\\Users\\Me\\", "win32"), "~");
  assert.equal(shortDirectory("C:\\Users\\Mel\\src", home, "win32"), "C:\\Users\\Mel\\src");
  assert.equal(shortDirectory("/home/me/src", "/home/me", "linux"), "~/src");
  assert.equal(shortDirectory("/home/Me/src", "/home/me", "linux"), "/home/Me/src", "POSIX paths keep their case");
});
