#!/usr/bin/env python3
"""pty-host.py — runs a command on a fresh pseudo-terminal that nobody reads: the terminal
stops reading. Used by tests/tty-runner.test.mjs to check that the terminal runner never hangs
(stop(), signals and process exit all end it within a bound) and never takes a terminal that
another program owns.

usage: pty-host.py SPEC   where SPEC is JSON:
  argv        the command (argv[0] looked up on PATH)
  stdout      file for the command's stdout and stderr (the pty is its stdin and /dev/tty)
  fill        true: fill the terminal's output buffer first (a terminal that stopped reading)
  raw         true: put the terminal in raw mode first (another program owns it)
  background  true: run the command in a process group of its own, not the foreground one
  readyMs     how long to wait for the command to switch the terminal to raw mode (default 5000)
  actions     [{ "afterMs": n, "signal": "SIGTERM" }]: signals sent n ms after the terminal
              went raw (or after readyMs passed without it); { "afterMs": n, "input": "text" }
              types the text on the terminal then; { "afterMs": n, "awaitOutput": "text" } reads
              the terminal until the command has written the text (at most limitMs): the next
              action waits for the command, not for a guess at how long it takes
  limitMs     how long the command may take to exit after the last action (default 5000)
  env         variables added to the command's environment only (e.g. LD_PRELOAD, which
              would otherwise be python's too)
  capture     a file: what the command wrote to the terminal, read once it ended (latin-1)
Prints one JSON line: { ready, exited, status, signal, exitMs, restored, rawAtEnd } where
exitMs counts from the last action, and restored says whether the terminal's settings at the
end equal those before the command ran. A command still running at the limit is killed
(SIGKILL) and reported with exited false. The pty's output is never read while the command
runs, except by an awaitOutput action (with `capture`, what is buffered is read after it
ended).
"""
import fcntl
import json
import os
import pty
import select
import signal
import struct
import sys
import termios
import time
import tty


def await_output(master, text, limit_ms, seen):
    """Reads the terminal into `seen` (a bytearray, kept for `capture`) until `text` was written
    to it or limit_ms passed (a command that ended writes nothing more); returns how long that
    took (seconds), which later actions' afterMs do not count."""
    began = time.monotonic()
    wanted = text.encode("utf-8")
    while wanted not in seen and time.monotonic() - began < limit_ms / 1000:
        readable, _, _ = select.select([master], [], [], 0.05)
        if readable:
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
    return time.monotonic() - began


def main():
    spec = json.loads(sys.argv[1])
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    name = os.ttyname(slave)
    if spec.get("raw"):
        tty.setraw(slave)
    before = termios.tcgetattr(slave)
    if spec.get("fill"):
        # Output nobody reads: write to the terminal until it takes no more.
        # The kernel moves written bytes on to the reading side's buffer in the background:
        # the terminal is full only when a round after a pause takes nothing more.
        # In raw mode, as the runner writes (a terminal in cooked mode refuses output earlier).
        saved = termios.tcgetattr(slave)
        tty.setraw(slave)
        fd = os.open(name, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        while True:
            taken = 0
            try:
                while True:
                    taken += os.write(fd, b"x" * 4096)
            except BlockingIOError:
                pass
            if taken == 0:
                break
            time.sleep(0.05)
        os.close(fd)
        termios.tcsetattr(slave, termios.TCSANOW, saved)

    out = os.open(spec["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)  # the pty is the controlling terminal
            os.dup2(slave, 0)
            os.dup2(out, 1)
            os.dup2(out, 2)
            if spec.get("background"):
                # A second process in the same session, in a group of its own: the session
                # leader's group stays in the foreground.
                inner = os.fork()
                if inner != 0:
                    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
                    _, st = os.waitpid(inner, 0)
                    os._exit(os.waitstatus_to_exitcode(st) & 0xFF)
                os.setpgid(0, 0)
            os.closerange(3, 256)
            os.environ.update(spec.get("env", {}))
            os.execvp(spec["argv"][0], spec["argv"])
        finally:
            os._exit(127)
    os.close(out)

    def status():
        got, st = os.waitpid(pid, os.WNOHANG)
        return st if got == pid else None

    ready = False
    until = time.monotonic() + spec.get("readyMs", 5000) / 1000
    st = None
    while time.monotonic() < until:
        st = status()
        if st is not None:
            break
        if not (termios.tcgetattr(slave)[3] & termios.ICANON):
            ready = True
            break
        time.sleep(0.01)
    early = bytearray()  # what awaitOutput read, the start of what `capture` keeps
    start = time.monotonic()
    last = start
    for action in spec.get("actions", []):
        if "awaitOutput" in action:
            start += await_output(master, action["awaitOutput"], spec.get("limitMs", 5000), early)
        wait = start + action["afterMs"] / 1000 - time.monotonic()
        if wait > 0 and st is None:
            time.sleep(wait)
        last = time.monotonic()
        if st is None:
            st = status()
        if st is None and "input" in action:
            os.write(master, action["input"].encode("utf-8"))
        if st is None and "signal" in action:
            try:
                os.kill(pid, getattr(signal, action["signal"]))
            except ProcessLookupError:
                pass
    limit = last + spec.get("limitMs", 5000) / 1000
    while st is None and time.monotonic() < limit:
        st = status()
        if st is None:
            time.sleep(0.01)
    exited = st is not None
    exit_ms = round((time.monotonic() - last) * 1000)
    if not exited:
        os.kill(pid, signal.SIGKILL)
        _, st = os.waitpid(pid, 0)
    after = termios.tcgetattr(slave)
    if spec.get("capture"):
        got = bytes(early)
        fcntl.fcntl(master, fcntl.F_SETFL, fcntl.fcntl(master, fcntl.F_GETFL) | os.O_NONBLOCK)
        try:
            while True:
                chunk = os.read(master, 65536)
                if not chunk:
                    break
                got += chunk
        except (BlockingIOError, OSError):
            pass
        with open(spec["capture"], "wb") as f:
            f.write(got)
    report = {
        "ready": ready,
        "exited": exited,
        "status": os.WEXITSTATUS(st) if os.WIFEXITED(st) else None,
        "signal": os.WTERMSIG(st) if os.WIFSIGNALED(st) else None,
        "exitMs": exit_ms,
        "restored": after[:6] == before[:6],
        "rawAtEnd": not (after[3] & termios.ICANON),
    }
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
