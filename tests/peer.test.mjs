// peer.test.mjs — who is at the other end of a relay connection (extension/elsewhere/peer.ts,
// native/os/posix/peer.c): the kernel's word for the pid and uid, the walk up the parent
// processes that tells the agent's own commands (started by a pi) from the person's terminal,
// and the result of an answer whose process pi could not check (mode "unverified": never
// the person's, never "user selected", never remembered).
import assert from "node:assert/strict";
import { createConnection, createServer } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { addon } from "./helpers/addon.mjs";
import { importShim } from "./helpers/shim.mjs";

const { callerOf, standingOf, isPiCommand, peerOf, procTree, processTree, psTree, splitWindowsCommandLine, windowsTree } =
  await importShim("../extension/elsewhere/peer.ts");
const { REMEMBERED_MODES } = await importShim("../extension/ask/memory.ts");

/** A process tree: pid → [parent, argv]. */
const treeOf = (procs) => ({
  parentOf: (pid) => procs[pid]?.[0],
  commandLine: (pid) => procs[pid]?.[1],
});
const SELF = { pid: 100, uid: 1000 };
const TREE = {
  // the person's terminal: init → tmux → bash → pi-question
  500: [400, ["node", "/usr/bin/pi-question", "answer"]],
  400: [300, ["bash"]],
  300: [1, ["tmux"]],
  // the agent's bash: this pi → bash → node pi-question
  210: [200, ["node", "/usr/bin/pi-question", "answer"]],
  200: [100, ["/bin/bash", "-c", "pi-question answer 1 '{}'"]],
  100: [50, ["node", "/usr/lib/node_modules/@mariozechner/pi-coding-agent/dist/cli.js"]],
  50: [1, ["bash"]],
  // another pi (registered, pid 700) and an unregistered one whose command line is pi's
  710: [700, ["sh"]],
  700: [1, ["whatever"]],
  810: [800, ["sh"]],
  800: [1, ["node", "/home/u/.npm-global/bin/pi", "-p", "go"]],
};

test("peer: the person's terminal (no pi among its parents, this user) may answer as the person", () => {
  assert.deepEqual(standingOf({ pid: 500, uid: 1000 }, SELF, new Set(), treeOf(TREE), "linux"), { kind: "person" });
});

test("peer: a command this pi started (the agent's bash) is refused, naming the pi's command line and pid", () => {
  const s = standingOf({ pid: 210, uid: 1000 }, SELF, new Set(), treeOf(TREE), "linux");
  assert.equal(s.kind, "refused");
  assert.match(
    s.reason,
    /^refused: this command was started by the pi whose questions it asks for \(through `node \/usr\/lib\/node_modules\/@mariozechner\/pi-coding-agent\/dist\/cli\.js`, pid 100\)/,
  );
});

test("peer: a command another pi started is refused — a registered pi's pid, or a command line that is pi's", () => {
  const registered = standingOf({ pid: 710, uid: 1000 }, SELF, new Set([700]), treeOf(TREE), "linux");
  assert.equal(registered.kind, "refused");
  assert.match(registered.reason, /started by another pi \(`whatever`, pid 700\)/);
  const unregistered = standingOf({ pid: 810, uid: 1000 }, SELF, new Set(), treeOf(TREE), "linux");
  assert.match(unregistered.reason, /started by another pi \(`node \/home\/u\/\.npm-global\/bin\/pi -p go`, pid 800\)/);
  assert.equal(isPiCommand(["pi"]), true);
  assert.equal(isPiCommand(["node", "C:\\npm\\node_modules\\@mariozechner\\pi-coding-agent\\dist\\cli.js"]), true);
  assert.equal(isPiCommand(["node", "/usr/bin/pip"]), false);
  assert.equal(isPiCommand(["bash", "-c", "pi"]), false, "only the command and its script count");
});

test("peer: another user is refused; a pid the OS does not give makes the answer unverified; a process gone before it was checked is refused", () => {
  const other = standingOf({ pid: 500, uid: 0 }, SELF, new Set(), treeOf(TREE), "linux");
  assert.deepEqual(other, {
    kind: "refused",
    reason: "refused: the connection comes from another user (uid 0); pi answers only its own user's commands.",
  });
  assert.deepEqual(standingOf({ pid: null, uid: 1000 }, SELF, new Set(), treeOf(TREE), "darwin"), {
    kind: "unverified",
    why: "this OS (darwin) does not say who connected",
  });
  assert.deepEqual(standingOf({ pid: null, uid: null }, SELF, new Set(), treeOf(TREE), "win32").kind, "unverified");
  // It wrote its answer and exited before pi read it (its /proc entry gone): it could have been
  // the agent's, so it is refused and the question keeps waiting; a retry cannot win a race.
  assert.deepEqual(standingOf({ pid: 999, uid: 1000 }, SELF, new Set(), treeOf(TREE), "linux"), {
    kind: "refused",
    reason:
      "refused: process 999 (or one of its parents) ended before pi could check who started it, so it may be an agent's own command. Run pi-question from a terminal no pi started, and let it wait for pi's reply.",
  });
});

test("peer: a command a pi started that left its parents (nohup … &, setsid) is refused by the relay variable it inherited; a pi itself is refused", () => {
  // The agent ran `nohup pi-question answer … &`: bash exited, the command now hangs under init.
  const orphan = { ...TREE, 610: [1, ["node", "/usr/bin/pi-question", "answer"]] };
  const tree = { ...treeOf(orphan), inheritsRelay: (pid) => pid === 610 };
  const s = standingOf({ pid: 610, uid: 1000 }, SELF, new Set(), tree, "linux");
  assert.equal(s.kind, "refused");
  assert.match(s.reason, /^refused: this command \(`node \/usr\/bin\/pi-question answer`, pid 610\) carries the relay variable/);
  // The person's own terminal carries none: taken as theirs.
  assert.deepEqual(standingOf({ pid: 500, uid: 1000 }, SELF, new Set(), tree, "linux"), { kind: "person" });
  // Another pi itself connecting (its code, an extension there): refused, registered or not.
  assert.match(standingOf({ pid: 700, uid: 1000 }, SELF, new Set([700]), treeOf(TREE), "linux").reason, /comes from a pi itself/);
  assert.match(standingOf({ pid: 800, uid: 1000 }, SELF, new Set(), treeOf(TREE), "linux").reason, /comes from a pi itself/);
});

test(
  "peer: Linux's /proc says whether a process inherited the relay variable (this process, given one; a child started without it)",
  { skip: process.platform !== "linux" && "Linux only (/proc/<pid>/environ)" },
  async () => {
    const { spawn } = await import("node:child_process");
    const { RELAY_ENV } = await import("../extension/elsewhere/relay-wire.mjs");
    const clean = { ...process.env };
    delete clean[RELAY_ENV];
    const without = spawn("sleep", ["30"], { env: clean });
    const withIt = spawn("sleep", ["30"], { env: { ...clean, [RELAY_ENV]: "x" } });
    try {
      assert.equal(procTree.inheritsRelay(without.pid), false);
      assert.equal(procTree.inheritsRelay(withIt.pid), true);
      assert.equal(procTree.inheritsRelay(2 ** 22 + 12345), undefined, "no such process");
    } finally {
      without.kill("SIGKILL");
      withIt.kill("SIGKILL");
    }
  },
);

test("peer: a chain of parents deeper than limits.peerAncestors is refused, never taken for the person's", () => {
  const most = addon.limits.peerAncestors;
  assert.equal(most, 256);
  const deep = { parentOf: (pid) => pid + 1, commandLine: () => ["sh"] };
  const s = standingOf({ pid: 1000, uid: 1000 }, SELF, new Set(), deep, "linux");
  assert.deepEqual(s, {
    kind: "refused",
    reason: `refused: this command's parent processes go deeper than ${most}, so pi cannot tell whether an agent started it. Run pi-question from a terminal no pi started.`,
  });
  const cycle = { parentOf: (pid) => (pid === 2 ? 3 : 2), commandLine: () => ["sh"] };
  assert.equal(standingOf({ pid: 2, uid: 1000 }, SELF, new Set(), cycle, "linux").kind, "refused");
});

test(
  "peer: the kernel's word — a real Unix socket's peer is this process, with this uid (Linux); /proc gives the parent",
  { skip: process.platform !== "linux" && "SO_PEERCRED is Linux's" },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), "pq-peer-"));
    const path = join(dir, "s");
    try {
      const seen = await new Promise((resolve, reject) => {
        const server = createServer((socket) => {
          resolve(peerOf(socket));
          socket.destroy();
          server.close();
        });
        server.on("error", reject);
        server.listen(path, () => createConnection(path).on("error", () => undefined));
      });
      assert.deepEqual(seen, { pid: process.pid, uid: process.getuid() });
      assert.equal(procTree.parentOf(process.pid), process.ppid);
      assert.equal(procTree.commandLine(process.pid)[0], process.execPath);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.throws(() => addon.peerCredentials(-1), { code: "QT_ERANGE" });
    assert.throws(() => addon.peerCredentials(0x7fffffff), { code: "QT_EPEER", message: /cannot be told: Bad file descriptor/ });
  },
);

test("peer: an answer from a process pi could not identify reads as that, never as the user's, and is not remembered", () => {
  const args = JSON.stringify({
    questions: [
      { id: "db", prompt: "Which?", options: ["SQLite", "Postgres"] },
      { id: "name", prompt: "Name?" },
    ],
  });
  const r = addon.result(
    args,
    "answered",
    "unverified",
    1,
    null,
    JSON.stringify({ db: "SQLite", name: "x" }),
    0,
    null,
    "this OS (darwin) does not say who connected",
  );
  assert.equal(
    r.text,
    'Answered with `pi-question answer` by a process pi could not identify (this OS (darwin) does not say who connected): it may be the user in another terminal, or a command run on this machine (yours included). It is not verified as the user\'s choice: where the text below says "the user", read "that process". Confirm anything that matters with the user before acting on it.\ndb: selected: 1. SQLite\nname: wrote: x',
  );
  const details = JSON.parse(r.details);
  assert.equal(details.mode, "unverified");
  assert.equal(details.source, "this OS (darwin) does not say who connected");
  assert.equal(REMEMBERED_MODES.has("unverified"), false);
  // the same answer from the person's verified terminal
  assert.equal(
    addon.result(args, "answered", "remote", 1, null, JSON.stringify({ db: "SQLite", name: "x" })).text,
    "db: user selected: 1. SQLite\nname: user wrote: x",
  );
});

test("peer: who asks — a program is named by its command line and pid, a pi (a subagent) or this pi itself is not, nor where the OS does not say", () => {
  const tree = treeOf({
    900: [1, ["node", "evil.js", "--quiet"]],
    901: [1, ["node", "/usr/local/bin/pi", "--mode", "json", "-p", "Task: x"]],
    902: [1, ["\u001b]52;c;eA==\u0007sh", "-c", "y".repeat(200)]],
  });
  assert.equal(callerOf({ pid: 900, uid: 1000 }, tree, 100), "`node evil.js --quiet` (pid 900)");
  assert.equal(callerOf({ pid: 901, uid: 1000 }, tree, 100), undefined, "a subagent pi keeps its name");
  assert.equal(callerOf({ pid: 100, uid: 1000 }, tree, 100), undefined, "this pi's own code");
  assert.equal(callerOf({ pid: null, uid: 1000 }, tree, 100), undefined, "the OS does not say");
  assert.equal(callerOf({ pid: 903, uid: 1000 }, tree, 100), "a process (pid 903)", "gone before it could be read");
  const hostile = callerOf({ pid: 902, uid: 1000 }, tree, 100);
  assert.doesNotMatch(hostile, /[\u0000-\u001f]/, "sanitized");
  assert.match(hostile, /^`␛\]52;c;eA==␇sh -c y+…` \(pid 902\)$/);
});

test("peer: macOS's tree is one ps snapshot (pid, parent, command line), read as /proc is on Linux; no ps, no tree", () => {
  const ps = [
    "  1     0 /sbin/launchd",
    "  300     1 /usr/local/bin/node /usr/local/bin/pi",
    "  310   300 /bin/zsh -c pi-question answer 1 {}",
    " 320 310 node /usr/local/bin/pi-question answer 1 {}",
    "junk",
  ].join("\n");
  const tree = psTree(() => ps);
  assert.equal(tree.parentOf(320), 310);
  assert.deepEqual(tree.commandLine(300), ["/usr/local/bin/node", "/usr/local/bin/pi"]);
  assert.equal(tree.parentOf(999), undefined);
  const s = standingOf({ pid: 320, uid: 501 }, { pid: 300, uid: 501 }, new Set(), tree, "darwin");
  assert.equal(s.kind, "refused");
  assert.equal(
    psTree(() => {
      throw new Error("no ps");
    }),
    undefined,
  );
  assert.equal(processTree("linux"), procTree);
  assert.equal(
    processTree("win32").rootUnverified !== undefined,
    true,
    "Windows: the addon's tree, whose walks prove nothing at a gone parent",
  );
  assert.equal(processTree("freebsd"), undefined);
});

test("peer: Windows' command lines are split as its C runtime splits them (quotes, backslashes before a quote)", () => {
  assert.deepEqual(splitWindowsCommandLine('"C:\\Program Files\\nodejs\\node.exe" C:\\npm\\pi-coding-agent\\dist\\cli.js -p'), [
    "C:\\Program Files\\nodejs\\node.exe",
    "C:\\npm\\pi-coding-agent\\dist\\cli.js",
    "-p",
  ]);
  assert.deepEqual(splitWindowsCommandLine('a\\\\"b c" d\\"e  "" \t f\\\\g'), ["a\\b c", 'd"e', "", "f\\\\g"]);
  assert.deepEqual(splitWindowsCommandLine("   "), []);
  assert.deepEqual(splitWindowsCommandLine('"a""b" c'), ['a"b', "c"]);
  assert.equal(isPiCommand(splitWindowsCommandLine('"C:\\Program Files\\nodejs\\node.exe" C:\\npm\\pi-coding-agent\\dist\\cli.js')), true);
  assert.equal(isPiCommand(["C:\\tools\\PI.EXE", "-p"]), true);
  assert.equal(isPiCommand(["cmd.exe", "/c", "pi.cmd"]), false, "only the command or its script");
});

test("peer: on Windows (the addon's parents and command lines) the agent's command is refused, and a walk that meets no pi is unverified, never the person", () => {
  // pid → [parent (0: gone, the walk ends), command line]; null: not running.
  const procs = {
    // the agent's bash under this pi (100)
    210: [200, '"C:\\Program Files\\nodejs\\node.exe" C:\\npm\\pi-question.mjs answer'],
    200: [100, 'C:\\Git\\bin\\bash.exe -c "pi-question answer"'],
    100: [50, '"C:\\Program Files\\nodejs\\node.exe" C:\\npm\\pi-coding-agent\\dist\\cli.js'],
    // a terminal whose parents end at explorer.exe, whose own parent is gone
    520: [510, "node.exe C:\\npm\\pi-question.mjs answer"],
    510: [505, "C:\\Windows\\System32\\cmd.exe"],
    505: [0, "C:\\Windows\\explorer.exe"],
  };
  const tree = windowsTree({
    processParent: (pid) => procs[pid]?.[0] ?? null,
    processCommandLine: (pid) => procs[pid]?.[1] ?? null,
  });
  const self = { pid: 100, uid: null };
  const agent = standingOf({ pid: 210, uid: null }, self, new Set(), tree, "win32");
  assert.equal(agent.kind, "refused");
  assert.match(
    agent.reason,
    /started by the pi whose questions it asks for \(through `node\.exe C:\\npm\\pi-coding-agent\\dist\\cli\.js`, pid 100\)/,
  );
  const terminal = standingOf({ pid: 520, uid: null }, self, new Set(), tree, "win32");
  assert.equal(terminal.kind, "unverified");
  assert.match(terminal.why, /on Windows a command an agent left running looks the same as one the person ran/);
  assert.equal(standingOf({ pid: 999, uid: null }, self, new Set(), tree, "win32").kind, "refused", "gone before it was checked");
  assert.equal(callerOf({ pid: 520, uid: null }, tree, 100), "`node.exe C:\\npm\\pi-question.mjs answer` (pid 520)");
  assert.equal(callerOf({ pid: 100 + 1, uid: null }, tree, 100), "a process (pid 101)", "no command line: the pid alone");
});
