/* qt_tty.h — running the interaction engine directly on a terminal: pi's print mode when a
 * terminal is reachable, and the standalone `pi-question` command. The runner owns the
 * terminal while it runs (raw mode, bracketed paste, redraw in place) and restores it on every
 * way out: answer, cancel, error, qt_tty_stop, SIGINT, SIGTERM and SIGHUP (SIGWINCH re-renders).
 * It writes only to the terminal it opened, never to stdout.
 *
 * One runner at a time per process: signal handlers need to find it (the one static pointer
 * of the core, set only while qt_tty_run runs). */
#ifndef QT_TTY_H
#define QT_TTY_H

#include "qt_engine.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct qt_tty qt_tty;

/* Opens `path` (normally "/dev/tty"). QT_ERR_STATE when it cannot be opened or is not a
 * terminal (no terminal is reachable: the caller uses another way to ask). */
qt_status qt_tty_open(const char *path, qt_tty **out);
/* Closes the terminal (restoring it if a run was cut short). Accepts NULL. */
void qt_tty_close(qt_tty *t);

/* With `color` false (NO_COLOR) every style is plain text. */
void qt_tty_set_color(qt_tty *t, bool color);

/* Runs `e` on the terminal until it is done, qt_tty_stop is called, or a terminating signal
 * arrives (then the engine ends as QT_INTERRUPTED). Blocks the calling thread. QT_ERR_STATE if
 * another run is active in this process. */
qt_status qt_tty_run(qt_tty *t, qt_engine *e);

/* Ends a run from another thread (or a signal handler): async-signal-safe. */
void qt_tty_stop(qt_tty *t);

#ifdef __cplusplus
}
#endif
#endif
