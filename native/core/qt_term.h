/* qt_term.h — the terminal device under the terminal runner (qt_tty.h): what differs between
 * operating systems, and nothing else. The runner itself (tty_run.c: the loop, drawing, the
 * claim, stop and exit rules, the external editor call, the notice) is portable; each OS family
 * implements this interface in native/os/<family>/tty.c:
 *   POSIX:   /dev/tty opened non-blocking, termios raw mode, poll() (select() on macOS) on the
 *            terminal and a self-pipe, TIOCGWINSZ, SIGINT/SIGTERM/SIGHUP/SIGWINCH handlers;
 *   Windows: the console (CONIN$ and CONOUT$), console modes, WaitForMultipleObjects on the input
 *            handle and an event, key records translated into the byte sequences a VT terminal
 *            sends, the console's control handler.
 *
 * Functions marked async-signal-safe may be called from a signal handler (POSIX) or another
 * thread (Windows' control handler runs on a thread of its own). The device never calls into
 * the runner except through the hooks given to qt_term_signals_install. */
#ifndef QT_TERM_H
#define QT_TERM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "qt_tty.h"

typedef struct qt_term qt_term;

/* Whether this process may take the terminal `path` names, without changing anything. */
qt_tty_access qt_term_probe(const char *path);
/* Opens the terminal (non-blocking where the OS has it) with its wake mechanism. QT_ERR_STATE
 * when it cannot be opened, is not a terminal, or cannot be waited on; QT_ERR_NOMEM. */
qt_status qt_term_open(const char *path, qt_term **out);
/* Closes it (the runner restores it first). Accepts NULL. */
void qt_term_close(qt_term *d);
/* FREE, OWNED (another program has it in raw mode, or this process is in the background) or
 * ABSENT (it stopped being a terminal). */
qt_tty_access qt_term_owner(qt_term *d);

/* Saves the terminal's current settings (what qt_term_restore puts back). */
qt_status qt_term_save(qt_term *d);
/* Raw mode from the saved settings, at once (no wait for pending output); input typed before
 * is dropped first. */
qt_status qt_term_raw(qt_term *d);
/* Drops unread input and applies the saved settings at once. Async-signal-safe. */
void qt_term_restore(qt_term *d);

/* What qt_term_wait saw (a mask; 0 is a timeout, -1 a failure). */
enum {
  QT_TERM_READY = 1,   /* ready for what was asked: input to read, room to write */
  QT_TERM_WOKEN = 2,   /* qt_term_wake was called (drain it with qt_term_drain) */
  QT_TERM_GONE = 4,    /* the terminal hung up or failed */
  QT_TERM_AGAIN = 8,   /* interrupted (a signal): nothing seen, wait again */
  QT_TERM_RESIZED = 16 /* the device saw the size change itself (no signal for it) */
};
/* Waits up to `ms` (-1: no bound) until the terminal has input (`out` false) or room for
 * output (`out` true), or, with `watch_wake`, a wake. Async-signal-safe. */
int qt_term_wait(qt_term *d, bool out, bool watch_wake, int ms);
/* Ends a wait that watches the wake, now or the next one. Async-signal-safe. */
void qt_term_wake(qt_term *d);
void qt_term_drain(qt_term *d);

/* Reads what the person typed as the bytes a VT terminal sends: > 0 bytes, 0 nothing now,
 * -1 the terminal is gone. Never blocks. */
long qt_term_read(qt_term *d, char *buf, size_t n);
/* Writes without blocking: > 0 bytes taken, 0 none now (wait with qt_term_wait), -1 failed.
 * Async-signal-safe. */
long qt_term_write(qt_term *d, const char *s, size_t n);
/* Columns and rows (80x24 when the terminal does not say). */
void qt_term_size(qt_term *d, int *cols, int *rows);

/* The external editor's turn (the terminal is restored already): the terminal argument of
 * qt_external_edit, then qt_term_editor_end before raw mode again. */
int qt_term_editor_begin(qt_term *d);
void qt_term_editor_end(qt_term *d);

/* How the device reports what the OS tells it during a run (signals, console events). Called
 * from a signal handler or another thread. */
typedef struct qt_term_hooks {
  void (*resized)(void);
  /* A request to end: stops the run. `ends_by_default`: the process ends unless some handler
   * of the host takes it; `ignored`: the host ignores it. Returns true when the process is to
   * end now (the terminal has been put back): the device then lets it end. */
  bool (*terminate)(bool ends_by_default, bool ignored);
} qt_term_hooks;
/* For the run's thread, around a run (one run at a time per process). */
void qt_term_signals_install(const qt_term_hooks *hooks);
void qt_term_signals_remove(void);

/* A monotonic clock in milliseconds, and a short sleep. */
int64_t qt_term_clock_ms(void);
void qt_term_sleep_ms(int ms);
/* How long the exit hook waits for a running question to put the terminal back itself: 0 where
 * the OS has ended every other thread before the hook runs (Windows: ExitProcess). */
int qt_term_exit_wait_ms(void);

#endif
