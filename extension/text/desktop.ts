// desktop.ts — the desktop notification a waiting question may send through the terminal
// (setting notice.desktop, off by default): which protocol the terminal speaks (from
// TERM_PROGRAM / TERM / LC_TERMINAL, or the setting), tmux's passthrough when inside tmux, and where the
// bytes go. The sequence itself is built by the C core from sanitized text (native/core/text/notice.c).
import { closeSync, openSync, writeSync } from "node:fs";
import { addon } from "../addon.ts";
import type { DesktopNotice } from "./settings.ts";
import { strings } from "./i18n.ts";

type Kind = "osc777" | "osc9" | "osc99";

/** The protocol of this terminal: kitty's own (OSC 99), iTerm2's and Windows Terminal's (OSC 9),
 * else the one most others read (OSC 777: foot, urxvt, Ghostty, WezTerm, VTE terminals). */
export function desktopKind(setting: DesktopNotice, env: NodeJS.ProcessEnv = process.env): Kind | undefined {
  if (!setting) return undefined;
  if (setting !== true) return setting;
  const term = env.TERM ?? "";
  const program = env.TERM_PROGRAM ?? "";
  if (term === "xterm-kitty" || env.KITTY_WINDOW_ID) return "osc99";
  // Inside tmux TERM_PROGRAM is "tmux": iTerm2's LC_TERMINAL (kept by tmux and ssh) still says.
  if (program === "iTerm.app" || env.LC_TERMINAL === "iTerm2" || env.WT_SESSION || env.ConEmuPID) return "osc9";
  return "osc777";
}

/** The bytes of the notification for `prompt` (its first line), or "" when it is off. */
export function desktopNotice(setting: DesktopNotice, prompt: string, env: NodeJS.ProcessEnv = process.env): string {
  const kind = desktopKind(setting, env);
  if (!kind) return "";
  const first = prompt.split("\n", 1)[0] ?? "";
  return addon().desktopNotice(kind, strings().NOTICE_DESKTOP_TITLE, first, !!env.TMUX);
}

/** Writes the notification to the terminal: pi's own (stdout) in the TUI, else /dev/tty.
 * Never throws: a notification is a courtesy. */
export function sendDesktopNotice(bytes: string, toTty: boolean, ttyPath = "/dev/tty"): void {
  if (!bytes) return;
  try {
    if (!toTty) {
      if (process.stdout.isTTY) process.stdout.write(bytes);
      return;
    }
    const fd = openSync(ttyPath, "w");
    try {
      writeSync(fd, bytes);
    } finally {
      closeSync(fd);
    }
  } catch {
    // no terminal to tell
  }
}
