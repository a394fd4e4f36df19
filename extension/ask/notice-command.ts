// notice-command.ts — the person's notice.command: a program of their choosing (a push service's
// client, a desktop notifier) run once when a question starts waiting for them, so the ping
// reaches them where they are. It is run as an argv, never through a shell string; what it needs
// to know comes in environment variables (PI_QUESTION_*, sanitized, one line each) and the
// question's first line on its standard input. It is never awaited: the question is shown at
// once, whatever the command does. One still running after limits.noticeCommandMs is stopped
// with what it started (its own process group, on POSIX); a failure (it cannot start, exits
// non-zero, runs too long) is said once per session and kind.
import { spawn } from "node:child_process";
import { addon } from "../addon.ts";
import { SETTINGS_TEXT } from "../text/text.ts";

/** What the command is told about the waiting question (each value one sanitized line). */
export interface NoticeFacts {
  qid: string;
  /** The first question's prompt (cut at limits.noticeCommandPromptChars characters). */
  prompt: string;
  /** The project's path. */
  project: string;
  /** The session's name, else its id (as the page and `pi-question pending` name it). */
  session: string;
  /** The page's link when the page is on (it holds the token: a ping to a phone can open it). */
  url?: string;
}

/** The environment variables the command gets (besides pi's own environment). */
export function noticeEnvironment(facts: NoticeFacts): Record<string, string> {
  const native = addon();
  const line = (text: string, most = 4096) => Array.from(native.sanitize(text, false)).slice(0, most).join("");
  return {
    PI_QUESTION_ID: line(facts.qid, 64),
    PI_QUESTION_PROMPT: line(facts.prompt, native.limits.noticeCommandPromptChars),
    PI_QUESTION_PROJECT: line(facts.project),
    PI_QUESTION_SESSION: line(facts.session, 256),
    ...(facts.url ? { PI_QUESTION_URL: line(facts.url) } : {}),
  };
}

/** How a run failed: the command's failures are said once per kind (error texts vary). */
export type NoticeFailure = "start" | "status" | "time";

/** Runs `argv` for the question `facts` says; `failed` hears why it did not work (once per
 * kind is the caller's to decide). Returns at once; never throws, now or later. */
export function runNoticeCommand(
  argv: readonly string[],
  facts: NoticeFacts,
  failed: (message: string, kind: NoticeFailure) => void,
): void {
  const [program, ...args] = argv;
  if (!program) return;
  const env = noticeEnvironment(facts);
  // Told from the child's events, maybe after the session moved on: whatever the teller throws
  // (a context pi retired) must not become an exception in pi.
  const tell = (why: string, kind: NoticeFailure) => {
    try {
      failed(addon().sanitize(SETTINGS_TEXT.commandFailed(program, why), false), kind);
    } catch {
      // nobody left to tell
    }
  };
  const group = process.platform !== "win32"; // its own process group: stopped whole, children too
  let child: ReturnType<typeof spawn>;
  try {
    child = spawn(program, args, {
      env: { ...process.env, ...env },
      stdio: ["pipe", "ignore", "pipe"],
      shell: false,
      windowsHide: true,
      detached: group,
    });
  } catch (error) {
    tell(`could not start: ${(error as Error).message}`, "start");
    return;
  }
  let stderr = "";
  let over = false;
  const stop = setTimeout(() => {
    over = true;
    try {
      if (group && child.pid) process.kill(-child.pid, "SIGKILL");
      else child.kill("SIGKILL");
    } catch {
      // gone meanwhile
    }
  }, addon().limits.noticeCommandMs);
  stop.unref();
  child.unref();
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    if (stderr.length < 1024) stderr += chunk;
  });
  (child.stderr as { unref?: () => void } | null)?.unref?.();
  child.on("error", (error: NodeJS.ErrnoException) => {
    clearTimeout(stop);
    tell(error.code === "ENOENT" ? "could not start: no such program" : `could not start: ${error.message}`, "start");
  });
  child.on("exit", (code, signal) => {
    clearTimeout(stop);
    const said = stderr.trim().split("\n")[0] ?? "";
    if (over) tell(`did not finish within ${addon().limits.noticeCommandMs / 1000} s and was stopped`, "time");
    else if (code !== 0) tell(`exited with ${code === null ? `signal ${signal}` : `status ${code}`}${said ? `: ${said}` : ""}`, "status");
  });
  // The question's first line on its standard input too (curl --data-binary @- posts it as is);
  // a command that does not read it may close it first.
  child.stdin?.on("error", () => undefined);
  child.stdin?.end(`${env.PI_QUESTION_PROMPT}\n`);
}
