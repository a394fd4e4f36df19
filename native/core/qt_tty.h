/* qt_tty.h — running the interaction engine directly on a terminal: pi's print mode when a
 * terminal is reachable, and the standalone `pi-question` command. The runner owns the
 * terminal while it runs (raw mode, bracketed paste, redraw in place) and restores it on every
 * way out: answer, cancel, error, qt_tty_stop, SIGINT, SIGTERM and SIGHUP (SIGWINCH re-renders),
 * and exit() of the process while a run is active. It writes only to the terminal it opened,
 * never to stdout.
 *
 * Never fight over a terminal: a terminal another program owns (it is in raw mode already, or
 * this process is not in its foreground process group) is not taken — qt_tty_probe says
 * QT_TTY_OWNED and qt_tty_run refuses to start; the caller asks another way.
 *
 * A terminal that stops reading never hangs the runner: the terminal is non-blocking, every
 * write waits for room with a bound (qt_limits.h: QT_TTY_*_WAIT_MS), and qt_tty_stop or a
 * terminating signal ends a wait at once. Nothing in a signal handler blocks.
 *
 * The runner is portable (tty_run.c); what differs between operating systems is the terminal
 * device under it (qt_term.h, native/os/<family>/tty.c).
 *
 * Lifetimes and threads (the rules the implementation relies on):
 *  - One run at a time per process: the signal handlers find it through the one static pointer
 *    of the core, set by qt_tty_run while it runs and cleared before it returns. qt_tty_run
 *    returns only once no signal handler (nor the exit hook) can still be using the runner, so
 *    after qt_tty_run returns the runner may be closed, and its wake pipe's file descriptors
 *    may be reused, safely.
 *  - qt_tty_run blocks the thread that calls it (a thread of the host's own, not a shared pool:
 *    see native/node/tty_thread.c). Terminating signals are best handled elsewhere: a host
 *    blocks them in that thread.
 *  - qt_tty_stop may be called from any thread or a signal handler while the runner is open
 *    (before, during or after its run); qt_tty_close must not race with any other call on the
 *    same runner.
 *  - Flags shared between threads and handlers are C11 atomics (lock-free, so async-signal-safe).
 *  - At process exit (exit(), e.g. Node's process.exit) an active run is stopped and exit waits
 *    up to QT_TTY_EXIT_WAIT_MS for it to put the terminal back; after that qt_tty_exiting() is
 *    true and the host must not call into its runtime from the run's thread. */
#ifndef QT_TTY_H
#define QT_TTY_H

#include "qt_engine.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct qt_tty qt_tty;

/* Whether this process may take a terminal. */
typedef enum qt_tty_access {
  QT_TTY_FREE = 0, /* a terminal in normal (canonical) mode whose foreground group this process is in */
  QT_TTY_ABSENT,   /* none: it cannot be opened, or it is not a terminal */
  QT_TTY_OWNED     /* another program owns it: raw mode already, or this process is in the background */
} qt_tty_access;

/* Looks at `path` (normally "/dev/tty") without changing anything. */
qt_tty_access qt_tty_probe(const char *path);
/* "free", "absent", "owned" (the addon's ttyStatus). */
const char *qt_tty_access_name(qt_tty_access access);

/* Opens `path`. QT_ERR_STATE when it cannot be opened or is not a terminal (no terminal is
 * reachable: the caller uses another way to ask). Ownership is checked by qt_tty_run. */
qt_status qt_tty_open(const char *path, qt_tty **out);
/* Closes the terminal (restoring it if a run was cut short). Accepts NULL. */
void qt_tty_close(qt_tty *t);

/* With `color` false (NO_COLOR) every style is plain text. */
void qt_tty_set_color(qt_tty *t, bool color);
/* Bytes (a desktop notification, qt_notice.h) the next run writes to the terminal once it has
 * taken it — never when another program owns the terminal, so no notice goes out for a
 * question that is not shown. Copied; len 0 clears. */
qt_status qt_tty_set_notice(qt_tty *t, const char *bytes, size_t len);

/* Runs `e` on the terminal until it is done, qt_tty_stop is called, or a terminating signal
 * arrives (then the engine ends as QT_INTERRUPTED). Blocks the calling thread. QT_ERR_STATE if
 * another run is active in this process, or if the terminal is owned by another program (then
 * qt_tty_refusal says QT_TTY_OWNED and the terminal was not touched). A second terminating
 * signal during one run ends the process (after the terminal is put back), whatever handler
 * the host has. */
qt_status qt_tty_run(qt_tty *t, qt_engine *e);
/* Why the last qt_tty_run refused to start: QT_TTY_OWNED, else QT_TTY_FREE. */
qt_tty_access qt_tty_refusal(const qt_tty *t);

/* Ends a run from another thread (or a signal handler): async-signal-safe. A stop that comes
 * before the run starts still counts. */
void qt_tty_stop(qt_tty *t);

/* Claim at the key: the question a run shows is taken exactly once, by the person's final key
 * on this terminal (or their timeout running out) or by an answer that arrived elsewhere,
 * whichever comes first. The run takes it with an atomic compare-and-swap as soon as its engine
 * ends; qt_tty_claim does the same for the answer from elsewhere.
 *
 * qt_tty_claim: from any thread, while the runner is open (before, during or after its run; a
 * claim before the run counts, as a stop does). True when nothing took the question before:
 * it is the answer from elsewhere's, and the run ends as qt_tty_stop ends it — the person's
 * key, even one already read, is not their answer (qt_tty_claimed_elsewhere says so; what they
 * typed stays in the engine). False when the person's key took it first: *here (may be NULL)
 * gets the outcome the engine ended with (QT_INTERRUPTED when an earlier qt_tty_claim took it). */
bool qt_tty_claim(qt_tty *t, qt_outcome *here);
/* Whether qt_tty_claim took the question (read it once the run returned). */
bool qt_tty_claimed_elsewhere(const qt_tty *t);

/* True once the process is exiting (see the lifetime rules above). */
bool qt_tty_exiting(void);

#ifdef __cplusplus
}
#endif
#endif
