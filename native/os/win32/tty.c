/* tty.c (Windows) — qt_tty.h on Windows: not available yet. The terminal runner (print mode with a
 * terminal, the standalone command, the demo) needs the console in raw VT mode, which has not
 * been made to work and verified here (under Wine); until it is, this says so honestly instead
 * of half-working: qt_tty_probe finds no terminal (QT_TTY_ABSENT) and qt_tty_open refuses
 * (QT_ERR_STATE), so every caller takes its other way to ask — in print mode the pending file —
 * exactly as on a machine without a terminal. Nothing is printed here (a library must not write
 * into its host's screen): the callers say it ("the terminal runner is not available on Windows
 * yet"). The functions that take a runner accept the NULL that a refused open leaves. */
#include "qt_tty.h"

qt_tty_access qt_tty_probe(const char *path) {
  (void)path;
  return QT_TTY_ABSENT;
}

const char *qt_tty_access_name(qt_tty_access access) {
  switch (access) {
    case QT_TTY_FREE: return "free";
    case QT_TTY_OWNED: return "owned";
    default: return "absent";
  }
}

qt_status qt_tty_open(const char *path, qt_tty **out) {
  if (!path || !out) return QT_ERR_USAGE;
  *out = NULL;
  return QT_ERR_STATE; /* the terminal runner is not available on Windows yet */
}

void qt_tty_close(qt_tty *t) { (void)t; }

void qt_tty_set_color(qt_tty *t, bool color) {
  (void)t;
  (void)color;
}

qt_status qt_tty_set_notice(qt_tty *t, const char *bytes, size_t len) {
  (void)bytes;
  (void)len;
  return t ? QT_ERR_STATE : QT_ERR_USAGE;
}

qt_status qt_tty_run(qt_tty *t, qt_engine *e) {
  if (!t || !e) return QT_ERR_USAGE;
  return QT_ERR_STATE;
}

qt_tty_access qt_tty_refusal(const qt_tty *t) {
  (void)t;
  return QT_TTY_FREE;
}

void qt_tty_stop(qt_tty *t) { (void)t; }

bool qt_tty_claim(qt_tty *t, qt_outcome *here) {
  (void)t;
  (void)here;
  return false;
}

bool qt_tty_claimed_elsewhere(const qt_tty *t) {
  (void)t;
  return false;
}

bool qt_tty_exiting(void) { return false; }
