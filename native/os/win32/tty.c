/* tty.c (Windows) — the terminal device of qt_term.h on Windows: not available yet. The terminal
 * runner (print mode with a terminal, the standalone command, the demo) needs the console in raw
 * mode, which has not been made to work and verified here (under Wine); until it is, this says
 * so honestly instead of half-working: qt_term_probe finds no terminal (QT_TTY_ABSENT) and
 * qt_term_open refuses (QT_ERR_STATE), so qt_tty_probe and qt_tty_open (tty_run.c) do too and
 * every caller takes its other way to ask — in print mode the pending file — exactly as on a
 * machine without a terminal. Nothing is printed here (a library must not write into its host's
 * screen): the callers say it. No device is ever opened, so the rest is never reached. */
#ifndef _WIN32_WINNT
#define _WIN32_WINNT 0x0A00
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

#include "qt_term.h"

qt_tty_access qt_term_probe(const char *path) {
  (void)path;
  return QT_TTY_ABSENT;
}

qt_status qt_term_open(const char *path, qt_term **out) {
  if (!path || !out) return QT_ERR_USAGE;
  *out = NULL;
  return QT_ERR_STATE; /* the terminal runner is not available on Windows yet */
}

void qt_term_close(qt_term *d) { (void)d; }

qt_tty_access qt_term_owner(qt_term *d) {
  (void)d;
  return QT_TTY_ABSENT;
}

qt_status qt_term_save(qt_term *d) {
  (void)d;
  return QT_ERR_STATE;
}

qt_status qt_term_raw(qt_term *d) {
  (void)d;
  return QT_ERR_STATE;
}

void qt_term_restore(qt_term *d) { (void)d; }

int qt_term_wait(qt_term *d, bool out, bool watch_wake, int ms) {
  (void)d;
  (void)out;
  (void)watch_wake;
  (void)ms;
  return -1;
}

void qt_term_wake(qt_term *d) { (void)d; }

void qt_term_drain(qt_term *d) { (void)d; }

long qt_term_read(qt_term *d, char *buf, size_t n) {
  (void)d;
  (void)buf;
  (void)n;
  return -1;
}

long qt_term_write(qt_term *d, const char *s, size_t n) {
  (void)d;
  (void)s;
  (void)n;
  return -1;
}

void qt_term_size(qt_term *d, int *cols, int *rows) {
  (void)d;
  *cols = 80;
  *rows = 24;
}

int qt_term_editor_begin(qt_term *d) {
  (void)d;
  return 0;
}

void qt_term_editor_end(qt_term *d) { (void)d; }

void qt_term_signals_install(const qt_term_hooks *hooks) { (void)hooks; }

void qt_term_signals_remove(void) {}

int64_t qt_term_clock_ms(void) { return (int64_t)GetTickCount64(); }

void qt_term_sleep_ms(int ms) { Sleep((DWORD)ms); }

int qt_term_exit_wait_ms(void) { return 0; }
