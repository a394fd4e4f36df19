#!/usr/bin/env python3
"""tty-drained.py — waits until the program on a terminal has read everything typed on it.

usage: tty-drained.py TTY TIMEOUT_MS
Polls the terminal's input queue (TIOCINQ on its device, opened without becoming its
controlling terminal and never read) until it is empty on two looks 20 ms apart. Exits 0 once it is, 1 at the timeout.
Used by tests/helpers/tmux.mjs after an Escape: the next key must not reach the program in the
same read, or it reads as Alt+key, however long the program was busy.
"""
import fcntl
import os
import struct
import sys
import termios
import time


def main():
    path, timeout_ms = sys.argv[1], int(sys.argv[2])
    fd = os.open(path, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
    until = time.monotonic() + timeout_ms / 1000
    empty = 0
    while True:
        queued = struct.unpack("i", fcntl.ioctl(fd, termios.TIOCINQ, b"\0\0\0\0"))[0]
        # empty on two looks 20 ms apart: bytes tmux had not yet written also read as empty
        empty = empty + 1 if queued == 0 else 0
        if empty == 2:
            return 0
        if time.monotonic() > until:
            return 1
        time.sleep(0.02 if queued == 0 else 0.005)


if __name__ == "__main__":
    sys.exit(main())
