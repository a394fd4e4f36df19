// tmux.mjs — the real pi in interactive mode inside a tmux session, driven like a person at a
// terminal: a scripted model (mock-model.mjs), a throw-away HOME (pi.mjs), keys and text sent
// with `tmux send-keys`, the screen read with `tmux capture-pane`. Everything polls for state;
// nothing sleeps a fixed time except the tiny settle delay between two keys.
//
// Sessions live on a tmux server of the test process's own (socket `-L piq-e2e-<pid>`,
// tmux-server.mjs), so they never touch a person's tmux nor another suite's server, and are named
// `piq-e2e-<pid>-<n>`. A server a crashed run left is ended when the next run starts.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { constants } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startMockModel } from "./mock-model.mjs";
import { ownServer } from "./tmux-server.mjs";
import { lineEnv, makeHome, piArgs, piArgv } from "./pi.mjs";

export const tmux = ownServer("piq-e2e");
const PREFIX = "piq-e2e-";
let counter = 0;

function shellQuote(s) {
  return `'${String(s).replace(/'/g, `'\\''`)}'`;
}

const DRAINED = join(dirname(fileURLToPath(import.meta.url)), "tty-drained.py");
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Signal numbers that mean a process crashed rather than was ended. */
const CRASH_SIGNALS = new Set(["SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE", "SIGSEGV"].map((n) => constants.signals[n]));

const rulesOf = (lines) => lines.map((l, i) => (/^─{10,}$/.test(l.trim()) ? i : -1)).filter((i) => i >= 0);

/** Whether the screen has a whole frame, both rules: a capture while pi redraws can hold one or none. */
export const framed = (screen) => rulesOf(screen.split("\n")).length >= 2;

/** The question UI: pi's editor area, between the last two horizontal rules of the screen ("" when
 * the screen has fewer than two: see framed). */
export function questionArea(screen) {
  const lines = screen.split("\n");
  const rules = rulesOf(lines);
  if (rules.length < 2) return "";
  return lines.slice(rules[rules.length - 2] + 1, rules[rules.length - 1]).join("\n");
}

/**
 * Starts a scripted model and the real pi in a new tmux session.
 * options: replies (mock model script), cols, rows, session (true: --session-dir instead of
 * --no-session, for reading `details`), homeFiles ({ name: content } written into the temporary
 * HOME first), prepareHome (home, work) => void, run after them, extensions (extra `-e` paths;
 * relative ones are in HOME), extraArgs, env (added to pi's environment), loadPackage (false:
 * no `-e` for this package — the test installs it another way), namePrefix (the session name's
 * prefix, "piq-e2e-" unless a test file names its own, like "pq-web-").
 */
export async function startPi({
  replies,
  cols = 100,
  rows = 40,
  session = false,
  homeFiles = {},
  extensions = [],
  extraArgs = [],
  loadPackage = true,
  env: extraEnv = {},
  prepareHome,
  namePrefix = PREFIX,
} = {}) {
  const model = await startMockModel(replies);
  const { home, work, cleanup } = makeHome(model.port);
  for (const [file, content] of Object.entries(homeFiles)) {
    mkdirSync(dirname(join(home, file)), { recursive: true });
    writeFileSync(join(home, file), content);
  }
  if (prepareHome) prepareHome(home, work);
  extensions = extensions.map((e) => (isAbsolute(e) ? e : join(home, e)));
  const name = `${namePrefix}${process.pid}-${++counter}`;
  const sessionDir = join(home, "sessions");
  // loadPackage false: this package is not passed with -e (a test installs it another way).
  let args = piArgs([...extensions.flatMap((e) => ["-e", e]), ...extraArgs], { loadPackage });
  if (session) args = args.map((a) => (a === "--no-session" ? ["--session-dir", sessionDir] : [a])).flat();
  const env = {
    HOME: home,
    PATH: lineEnv().PATH,
    PI_OFFLINE: "1",
    PI_SKIP_VERSION_CHECK: "1",
    NO_COLOR: "1",
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    // As this process has it (empty: the package's own build). A tmux server started by another
    // run keeps that run's value in its global environment, which every session would inherit.
    PI_QUESTION_ADDON: process.env.PI_QUESTION_ADDON ?? "",
    ...extraEnv,
  };
  const command = [
    "cd",
    shellQuote(work),
    "&&",
    "exec",
    "env",
    // $VISUAL outranks $EDITOR (Ctrl+G): a person's or a CI image's own must not reach pi
    "-u",
    "VISUAL",
    ...Object.entries(env).map(([k, v]) => shellQuote(`${k}=${v}`)),
    ...piArgv(args).map(shellQuote),
  ].join(" ");
  // remain-on-exit keeps the pane (and its last screen) when pi exits or crashes, so a test
  // can tell "pi died" from "pi is still running" and show what it printed.
  const started = tmux(
    "new-session",
    "-d",
    "-s",
    name,
    "-x",
    String(cols),
    "-y",
    String(rows),
    command,
    ";",
    "set-option",
    "-t",
    name,
    "remain-on-exit",
    "on",
  );
  if (started.status !== 0) {
    cleanup();
    await model.close();
    throw new Error(`tmux new-session failed: ${started.stderr}`);
  }

  /** How the pane's process ended (tmux keeps the pane: remain-on-exit): { dead, status, signal },
   * status/signal null until tmux has reaped it (the pane can read dead a moment before);
   * null when the session is gone. */
  const ending = () => {
    const r = tmux("display-message", "-p", "-t", name, "#{pane_dead}|#{pane_dead_status}|#{pane_dead_signal}");
    if (r.status !== 0) return null;
    const [dead, status, signal] = r.stdout.trim().split("|");
    return { dead: dead === "1", status: status === "" ? null : Number(status), signal: signal === "" ? null : Number(signal) };
  };
  /** How process `pid` ended, from /proc (Linux): a zombie's stat carries its wait status
   * (field 52, exit_code). undefined while it runs; null when it is gone or there is no /proc. */
  const procEnding = (pid) => {
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      return null;
    }
    const fields = stat
      .slice(stat.lastIndexOf(")") + 2)
      .trim()
      .split(" ");
    if (fields[0] !== "Z" || fields.length < 50) return undefined;
    const code = Number(fields[49]);
    return (code & 0x7f) === 0 ? { status: (code >> 8) & 0xff, signal: null } : { status: null, signal: code & 0x7f };
  };
  /** SIGHUP to pi (the pane's process: the command execs it) unless it has exited, then waits
   * for its exit status or signal: tmux's, or the zombie's own while tmux has not reaped it
   * (seen: a pi left unreaped for more than 5 s by the shared tmux server). */
  const endPane = async () => {
    const before = ending();
    if (before === null) return null;
    const pid = Number(tmux("display-message", "-p", "-t", name, "#{pane_pid}").stdout.trim());
    if (!before.dead && pid > 0) {
      try {
        process.kill(pid, "SIGHUP");
      } catch {}
    }
    const already = before.dead;
    for (const until = Date.now() + 5000; ; await sleep(20)) {
      const now = ending();
      if (now === null) return null;
      if (now.dead && (now.status !== null || now.signal !== null)) return { status: now.status, signal: now.signal, already };
      const zombie = pid > 0 ? procEnding(pid) : null;
      if (zombie) return { ...zombie, already };
      if (Date.now() > until) return { status: now.status, signal: now.signal, already, timedOut: true };
    }
  };

  /** Waits (at most 10 s) until pi has read everything sent to its terminal (asking tmux for the
   * terminal's name first lets it write out what send-keys queued). Without python3
   * (tty-drained.py) it does not wait: the fixed pause after an Escape is all there is. */
  const drained = async () => {
    const tty = tmux("display-message", "-p", "-t", name, "#{pane_tty}").stdout.trim();
    if (!tty) return;
    await new Promise((done) => execFile("python3", [DRAINED, tty, "10000"], () => done()));
  };

  const pi = {
    name,
    model,
    home,
    work,
    sessionDir,
    /** The visible screen, lines joined by "\n" (trailing spaces trimmed by tmux). */
    screen() {
      const r = tmux("capture-pane", "-p", "-t", name);
      if (r.status !== 0) throw new Error(`capture-pane: ${r.stderr}`);
      return r.stdout;
    },
    /** The screen with the whole scroll-back history above it. */
    history() {
      const r = tmux("capture-pane", "-p", "-S", "-", "-t", name);
      if (r.status !== 0) throw new Error(`capture-pane: ${r.stderr}`);
      return r.stdout;
    },
    /** Polls the screen until `pattern` (RegExp or predicate on the screen) matches. */
    async waitForScreen(pattern, timeoutMs = 20000) {
      const test = typeof pattern === "function" ? pattern : (s) => pattern.test(s);
      const until = Date.now() + timeoutMs;
      let last = "";
      for (;;) {
        last = pi.screen();
        // A match must also hold on a second look: pi may be half-way through drawing a frame.
        if (test(last)) {
          await sleep(30);
          const again = pi.screen();
          if (test(again)) return again;
          last = again;
        }
        if (pi.dead()) {
          // tmux writes "Pane is dead" at the bottom when pi exits, scrolling what pi printed
          // last (print mode's answer) into the history: the final look includes the history.
          const final = pi.history();
          if (test(final)) return final;
          throw new Error(`pi exited (status ${pi.exitStatus()}) while waiting for ${pattern}\n--- screen and history ---\n${final}`);
        }
        if (Date.now() > until) throw new Error(`timed out waiting for ${pattern}\n--- screen ---\n${last}`);
        await sleep(50);
      }
    },
    /** Sends named keys (tmux key names: Enter Escape Down Up Tab BTab Space C-d …), one at a time. */
    async keys(...names) {
      for (const k of names) {
        const r = tmux("send-keys", "-t", name, k);
        if (r.status !== 0) throw new Error(`send-keys ${k}: ${r.stderr}`);
        // A key that begins with ESC (Escape, Alt+…) and the next byte in one read are one
        // other key (Escape+x is Alt+x; Alt+] and text is an unfinished OSC that swallows the
        // text): let it be read alone, however long pi was busy, then give pi's wait for the
        // rest of a sequence time.
        const escape = k === "Escape" || k.startsWith("M-");
        if (escape) await drained();
        await sleep(escape ? 150 : 40);
      }
    },
    /** Types literal text. */
    async text(s) {
      const r = tmux("send-keys", "-t", name, "-l", s);
      if (r.status !== 0) throw new Error(`send-keys -l: ${r.stderr}`);
      await sleep(40);
    },
    /** Waits for pi's editor, types the prompt and presses Enter: the model gets its first request. */
    async prompt(s = "ask me") {
      await pi.waitForScreen(/mock-1/);
      await pi.text(s);
      await pi.waitForScreen((screen) => screen.includes(s));
      await pi.keys("Enter");
      await model.waitForRequests(1);
    },
    /** The terminal cursor as [column, row] (0-based): where pi put it for CURSOR_MARKER. */
    cursor() {
      const r = tmux("display-message", "-p", "-t", name, "#{cursor_x},#{cursor_y}");
      return r.stdout.trim().split(",").map(Number);
    },
    /** Polls until the cursor and its line hold still (the same on two looks: pi draws a line
     * and moves the cursor in two writes; the rest of the screen may change, as a spinner does)
     * and `check(x, y, lines)` holds; resolves { x, y, lines }. */
    async waitForCursor(check, timeoutMs = 20000) {
      const look = () => {
        const at = pi.cursor();
        const lines = pi.screen().split("\n");
        return { at, lines, line: `${at.join()}|${lines[at[1]]}` };
      };
      const until = Date.now() + timeoutMs;
      for (let last = look(); ;) {
        await sleep(30);
        const now = look();
        const [x, y] = now.at;
        const lines = now.lines;
        if (now.line === last.line && check(x, y, lines)) return { x, y, lines };
        if (Date.now() > until)
          throw new Error(`timed out waiting for the cursor (at ${x},${y}) to satisfy ${check}\n--- screen ---\n${lines.join("\n")}`);
        last = now;
      }
    },
    title() {
      return tmux("display-message", "-p", "-t", name, "#{pane_title}").stdout.replace(/\n$/, "");
    },
    dead() {
      const r = tmux("display-message", "-p", "-t", name, "#{pane_dead}");
      return r.status !== 0 || r.stdout.trim() === "1";
    },
    exitStatus() {
      return tmux("display-message", "-p", "-t", name, "#{pane_dead_status}").stdout.trim();
    },
    /** pi-tui's crash log (written when a rendered line is wider than the terminal), if any. */
    crashLog() {
      const p = join(home, ".pi", "agent", "pi-crash.log");
      return existsSync(p) ? readFileSync(p, "utf8") : null;
    },
    /** Every entry of the saved session(s) (session: true). */
    sessionEntries() {
      if (!existsSync(sessionDir)) return [];
      const files = [];
      const walk = (dir) => {
        for (const e of readdirSync(dir, { withFileTypes: true })) {
          if (e.isDirectory()) walk(join(dir, e.name));
          else if (e.name.endsWith(".jsonl")) files.push(join(dir, e.name));
        }
      };
      walk(sessionDir);
      return files.flatMap((f) =>
        readFileSync(f, "utf8")
          .split("\n")
          .filter((l) => l.trim())
          .map((l) => JSON.parse(l)),
      );
    },
    /** The toolResult messages of the `question` tool saved in the session, oldest first. */
    questionResults() {
      return pi
        .sessionEntries()
        .filter((e) => e.type === "message" && e.message?.role === "toolResult" && e.message.toolName === "question")
        .map((e) => e.message);
    },
    /** Polls the session file until the question's toolResult is saved. */
    async waitForQuestionResult(timeoutMs = 20000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const results = pi.questionResults();
        if (results.length) return results[results.length - 1];
        if (Date.now() > until) throw new Error(`no question toolResult in the session\n--- screen ---\n${pi.screen()}`);
        await sleep(50);
      }
    },
    /**
     * Ends pi, kills the tmux session, stops the model and removes the temporary HOME.
     * Returns how pi ended: { status, signal } (exit status or signal number, null when not
     * known), `already` true when pi had exited before, `timedOut` true when it did not exit
     * within 5 s of SIGHUP (the session was killed anyway). Throws when pi died of a crash
     * signal (SIGSEGV, SIGABRT, …) — also one pi had before kill().
     *
     * pi gets SIGHUP while its terminal is still there, as when a terminal window closes
     * (pi's own handler exits: 129 at once on pi 0.73, 0 after a graceful shutdown on 0.87);
     * only then is the session killed. Killing the session
     * first hung up pi's terminal, and Node 20 (the dev line) crashed on its way out: its
     * exit-time terminal reset (ResetStdio) asserts that tcsetattr fails with nothing but
     * EPERM, a hung-up terminal gives EIO, the assertion aborts — or, when pi left through
     * process.exit, segfaults while printing the JavaScript stack after the platform is gone
     * (the "segfault at … in libgcc_s.so.1" kernel lines seen during e2e runs). Plain Node
     * does it too, without pi or this package (nodejs/node#51519; Node 24 is fixed).
     */
    async kill() {
      let ended;
      try {
        ended = await endPane();
      } finally {
        tmux("kill-session", "-t", `=${name}`);
        // The model always closes: a HOME that cannot be removed (a child pi still writing
        // there) must not leave its server keeping the test process alive.
        try {
          cleanup();
        } finally {
          await model.close();
        }
      }
      if (ended && CRASH_SIGNALS.has(ended.signal)) {
        const sig = Object.keys(constants.signals).find((n) => constants.signals[n] === ended.signal);
        throw new Error(
          `pi crashed: killed by ${sig} (${ended.already ? "before the test ended it" : "when the test ended it with SIGHUP"})`,
        );
      }
      return ended;
    },
  };
  return pi;
}

/** Runs fn with a started pi (a session kept, `options` as startPi's); pi must neither crash nor
 * exit; always cleans up; a failure carries the last screen. */
export async function withPi(options, fn) {
  const pi = await startPi({ session: true, ...options });
  try {
    await fn(pi);
    assert.equal(pi.crashLog(), null, "pi-tui wrote a crash log");
    assert.equal(pi.dead(), false, "pi exited");
  } catch (error) {
    let screen = "";
    try {
      screen = pi.screen();
    } catch {}
    error.message += `\n--- screen (${pi.name}) ---\n${screen}`;
    throw error;
  } finally {
    await pi.kill();
  }
}
