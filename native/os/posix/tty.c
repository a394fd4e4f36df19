/* tty.c (POSIX) — the terminal device of qt_term.h on POSIX systems: /dev/tty opened
 * non-blocking, termios raw mode, the waits on the terminal and a self-pipe, TIOCGWINSZ, and the
 * SIGINT/SIGTERM/SIGHUP/SIGWINCH handlers. The runner itself (the loop, drawing, the stop and
 * exit rules) is portable: native/core/tty/tty_run.c, with qt_tty.h's lifetime rules.
 *
 * Raw mode: no echo, no canonical mode, no signals from keys (Ctrl+C arrives as a key and the
 * engine treats it as cancel). Reads and writes never wait in the kernel; every wait has a bound
 * and also watches the wake pipe (qt_tty_stop, signals).
 *
 * Never fight over a terminal: another program owns it when it is in raw (non-canonical) mode
 * already, or when this process is not in its foreground process group.
 *
 * macOS: poll() does not work on terminal devices there (it reports POLLNVAL for /dev/tty), so
 * the waits use select() on macOS — as libuv does for ttys there — and poll() elsewhere.
 * Building with -DQT_TTY_WAIT_SELECT takes the select() path anywhere: the tests run it on
 * Linux (tests/portability.test.mjs). */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* pipe2 (glibc and musl declare it only here): the wake pipe born close-on-exec */
#endif
#if defined(__APPLE__) && !defined(_DARWIN_C_SOURCE)
#define _DARWIN_C_SOURCE /* SIGWINCH and the sigaction flags beside _POSIX_C_SOURCE */
#endif
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#if defined(__APPLE__) || defined(QT_TTY_WAIT_SELECT)
#define TTY_WAIT_SELECT 1
#include <sys/select.h>
#else
#define TTY_WAIT_SELECT 0
#include <poll.h>
#endif

#include "qt_limits.h"
#include "qt_term.h"

/* Signal handlers share these: they must be lock-free to be async-signal-safe. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2 && ATOMIC_POINTER_LOCK_FREE == 2,
               "the handlers' state must be lock-free atomics");

struct qt_term {
  int fd;               /* the terminal, opened read-write and non-blocking */
  int wake[2];          /* self-pipe (non-blocking, close-on-exec): stop and signals write one byte */
  struct termios saved; /* the terminal's settings before raw mode */
  int flags;            /* the descriptor's flags while the editor has it (-1: not saved) */
};

/* ---- waiting ---------------------------------------------------------------------------------- */
/* Async-signal-safe (poll and select both are). */
int qt_term_wait(qt_term *d, bool out, bool watch_wake, int ms) {
  int r;
  int saw = 0;
#if TTY_WAIT_SELECT
  /* Both descriptors are below FD_SETSIZE: qt_term_open refuses a terminal otherwise. */
  fd_set rd, wr, ex;
  FD_ZERO(&rd);
  FD_ZERO(&wr);
  FD_ZERO(&ex);
  FD_SET(d->fd, out ? &wr : &rd);
  FD_SET(d->fd, &ex);
  int top = d->fd;
  if (watch_wake) {
    FD_SET(d->wake[0], &rd);
    if (d->wake[0] > top) top = d->wake[0];
  }
  struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
  r = select(top + 1, &rd, &wr, &ex, ms < 0 ? NULL : &tv);
  if (r > 0) {
    if (FD_ISSET(d->fd, out ? &wr : &rd)) saw |= QT_TERM_READY;
    if (FD_ISSET(d->fd, &ex)) saw |= QT_TERM_GONE;
    if (watch_wake && FD_ISSET(d->wake[0], &rd)) saw |= QT_TERM_WOKEN;
  } /* not 0: each descriptor select counted is in one of the sets looked at */
#else
  struct pollfd p[2] = {{d->fd, out ? POLLOUT : POLLIN, 0}, {d->wake[0], POLLIN, 0}};
  r = poll(p, watch_wake ? 2 : 1, ms);
  if (r > 0) {
    if (p[0].revents & (POLLERR | POLLHUP | POLLNVAL)) saw |= QT_TERM_GONE;
    if (p[0].revents & (out ? POLLOUT : POLLIN)) saw |= QT_TERM_READY;
    if (watch_wake && p[1].revents) saw |= QT_TERM_WOKEN;
  } /* not 0: poll counts only descriptors with one of these events */
#endif
  if (r < 0) return errno == EINTR ? QT_TERM_AGAIN : -1;
  return r == 0 ? 0 : saw;
}

void qt_term_wake(qt_term *d) {
  int saved_errno = errno;
  char c = 's';
  ssize_t ignored = write(d->wake[1], &c, 1); /* non-blocking: a full pipe already wakes */
  (void)ignored;
  errno = saved_errno;
}

void qt_term_drain(qt_term *d) {
  char drain[64];
  while (read(d->wake[0], drain, sizeof drain) > 0) {
  }
}

/* ---- reading, writing, size ------------------------------------------------------------------- */
long qt_term_read(qt_term *d, char *buf, size_t n) {
  ssize_t got = read(d->fd, buf, n);
  if (got > 0) return (long)got;
  if (got < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
  return -1; /* end of input (0) or an error: the terminal is gone */
}

/* Only write: async-signal-safe. */
long qt_term_write(qt_term *d, const char *s, size_t n) {
  for (;;) {
    ssize_t w = write(d->fd, s, n);
    if (w > 0) return (long)w;
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
    return -1;
  }
}

void qt_term_size(qt_term *d, int *cols, int *rows) {
  struct winsize ws;
  if (ioctl(d->fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
    *cols = ws.ws_col;
    *rows = ws.ws_row > 0 ? ws.ws_row : 24;
  } else {
    *cols = 80;
    *rows = 24;
  }
}

/* ---- raw mode --------------------------------------------------------------------------------- */
qt_status qt_term_save(qt_term *d) { return tcgetattr(d->fd, &d->saved) == 0 ? QT_OK : QT_ERR_STATE; }

/* TCSANOW: no wait for pending output; tcflush drops what was typed before the question. */
qt_status qt_term_raw(qt_term *d) {
  struct termios raw = d->saved;
  raw.c_iflag &= ~(tcflag_t)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON);
  raw.c_oflag &= ~(tcflag_t)OPOST;
  raw.c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
  raw.c_cflag &= ~(tcflag_t)(CSIZE | PARENB);
  raw.c_cflag |= CS8;
  raw.c_cc[VMIN] = 1;
  raw.c_cc[VTIME] = 0;
  tcflush(d->fd, TCIFLUSH);
  return tcsetattr(d->fd, TCSANOW, &raw) == 0 ? QT_OK : QT_ERR_STATE;
}

/* Unread input dropped, the saved settings applied at once (TCSANOW: never waits for a terminal
 * that stopped reading). Async-signal-safe (tcflush, tcsetattr). */
void qt_term_restore(qt_term *d) {
  int saved_errno = errno;
  tcflush(d->fd, TCIFLUSH);
  tcsetattr(d->fd, TCSANOW, &d->saved);
  errno = saved_errno;
}

/* The editor shares the open terminal, blocking again like any program's. */
int qt_term_editor_begin(qt_term *d) {
  d->flags = fcntl(d->fd, F_GETFL);
  if (d->flags >= 0) fcntl(d->fd, F_SETFL, d->flags & ~O_NONBLOCK);
  return d->fd;
}

void qt_term_editor_end(qt_term *d) {
  if (d->flags >= 0) fcntl(d->fd, F_SETFL, d->flags);
  d->flags = -1;
}

/* ---- signals --------------------------------------------------------------------------------- */
static _Atomic(const qt_term_hooks *) hooks;
static struct sigaction previous[4]; /* the run's thread only (install, remove) */
static const int HANDLED[4] = {SIGINT, SIGTERM, SIGHUP, SIGWINCH};
/* What the handler chains to, as atomics (a handler never reads `previous`, which the next
 * run rewrites): the previous handler's address and whether it takes siginfo. */
enum { CHAIN_DFL, CHAIN_IGN, CHAIN_HANDLER, CHAIN_SIGINFO };
static atomic_int chain_kind[4];
static _Atomic(void (*)(int)) chain_handler[4];
static _Atomic(void (*)(int, siginfo_t *, void *)) chain_sigaction[4];

static int handled_index(int sig) {
  int i = 0;
  while (i < 4 && HANDLED[i] != sig) i++;
  return i;
}

static void on_signal(int sig, siginfo_t *info, void *uctx) {
  int saved_errno = errno;
  int i = handled_index(sig);
  int kind = i < 4 ? atomic_load(&chain_kind[i]) : CHAIN_IGN;
  bool end_process = false;
  const qt_term_hooks *h = atomic_load(&hooks);
  if (h) {
    if (sig == SIGWINCH)
      h->resized();
    else
      end_process = h->terminate(kind == CHAIN_DFL, kind == CHAIN_IGN);
  }
  if (end_process || (kind == CHAIN_DFL && sig != SIGWINCH)) {
    /* The default action (also when no run is active any more: as if we had never been here). */
    struct sigaction dflt;
    memset(&dflt, 0, sizeof dflt);
    dflt.sa_handler = SIG_DFL;
    sigemptyset(&dflt.sa_mask);
    sigaction(sig, &dflt, NULL);
    raise(sig); /* delivered when this handler returns */
  } else if (kind == CHAIN_SIGINFO) {
    /* Chain to whoever handled this signal before us (Node, pi). */
    void (*f)(int, siginfo_t *, void *) = atomic_load(&chain_sigaction[i]);
    if (f) f(sig, info, uctx);
  } else if (kind == CHAIN_HANDLER) {
    void (*f)(int) = atomic_load(&chain_handler[i]);
    if (f) f(sig);
  }
  errno = saved_errno;
}

void qt_term_signals_install(const qt_term_hooks *h) {
  atomic_store(&hooks, h);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_signal;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  /* What to chain to is known before our handler goes in: a signal right after finds it. */
  for (int i = 0; i < 4; i++) {
    sigaction(HANDLED[i], NULL, &previous[i]);
    struct sigaction *old = &previous[i];
    int kind = (old->sa_flags & SA_SIGINFO) ? CHAIN_SIGINFO
               : old->sa_handler == SIG_DFL ? CHAIN_DFL
               : old->sa_handler == SIG_IGN ? CHAIN_IGN
                                            : CHAIN_HANDLER;
    if (kind == CHAIN_SIGINFO && old->sa_sigaction == on_signal) kind = CHAIN_IGN; /* never ourselves */
    atomic_store(&chain_sigaction[i], kind == CHAIN_SIGINFO ? old->sa_sigaction : NULL);
    atomic_store(&chain_handler[i], kind == CHAIN_HANDLER ? old->sa_handler : NULL);
    atomic_store(&chain_kind[i], kind);
    sigaction(HANDLED[i], &sa, NULL);
  }
}

/* Puts back what was there before, unless someone (Node, pi) installed a handler of their own
 * while the question ran: theirs stays. The hooks stay: they find no active run after it ends. */
void qt_term_signals_remove(void) {
  for (int i = 0; i < 4; i++) {
    struct sigaction current;
    if (sigaction(HANDLED[i], NULL, &current) == 0 && (current.sa_flags & SA_SIGINFO) &&
        current.sa_sigaction == on_signal)
      sigaction(HANDLED[i], &previous[i], NULL);
  }
}

/* ---- clock -------------------------------------------------------------------------------------- */
int64_t qt_term_clock_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void qt_term_sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

/* The run's thread goes on while exit() runs the hook: it may put the terminal back itself. */
int qt_term_exit_wait_ms(void) { return QT_TTY_EXIT_WAIT_MS; }

/* ---- opening and closing ---------------------------------------------------------------- */
static qt_tty_access owner_of(int fd) {
  struct termios tio;
  if (tcgetattr(fd, &tio) != 0) return QT_TTY_ABSENT;
  if (!(tio.c_lflag & ICANON)) return QT_TTY_OWNED;
  pid_t fg = tcgetpgrp(fd); /* -1 (ENOTTY) when it is not this process's controlling terminal */
  if (fg > 0 && fg != getpgrp()) return QT_TTY_OWNED;
  return QT_TTY_FREE;
}

qt_tty_access qt_term_owner(qt_term *d) { return owner_of(d->fd); }

/* Whether this runner can wait on `fd`: select() on macOS takes descriptors below FD_SETSIZE
 * only (a process with that many files open asks another way: the terminal counts as absent). */
static bool waitable(int fd) {
#if TTY_WAIT_SELECT
  return fd < FD_SETSIZE;
#else
  (void)fd;
  return true;
#endif
}

qt_tty_access qt_term_probe(const char *path) {
  int fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return QT_TTY_ABSENT;
  qt_tty_access a = isatty(fd) && waitable(fd) ? owner_of(fd) : QT_TTY_ABSENT;
  close(fd);
  return a;
}

static int make_wake_pipe(int fds[2]) {
#if defined(__linux__)
  return pipe2(fds, O_CLOEXEC | O_NONBLOCK);
#else
  /* pipe2 is not in POSIX 2008 (macOS has none): pipe, then the flags. A child forked by
   * another thread in between could inherit the pipe; the runner opens before its question. */
  if (pipe(fds) != 0) return -1;
  for (int i = 0; i < 2; i++) {
    if (fcntl(fds[i], F_SETFD, FD_CLOEXEC) != 0 || fcntl(fds[i], F_SETFL, O_NONBLOCK) != 0) {
      close(fds[0]);
      close(fds[1]);
      return -1;
    }
  }
  return 0;
#endif
}

qt_status qt_term_open(const char *path, qt_term **out) {
  if (!path || !out) return QT_ERR_USAGE;
  *out = NULL;
  int fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return QT_ERR_STATE;
  if (!isatty(fd) || !waitable(fd)) {
    close(fd);
    return QT_ERR_STATE;
  }
  qt_term *d = calloc(1, sizeof *d);
  if (!d) {
    close(fd);
    return QT_ERR_NOMEM;
  }
  d->fd = fd;
  d->flags = -1;
  if (make_wake_pipe(d->wake) != 0) {
    close(fd);
    free(d);
    return QT_ERR_NOMEM;
  }
  if (!waitable(d->wake[0])) {
    close(d->wake[0]);
    close(d->wake[1]);
    close(fd);
    free(d);
    return QT_ERR_STATE;
  }
  *out = d;
  return QT_OK;
}

void qt_term_close(qt_term *d) {
  if (!d) return;
  close(d->fd);
  close(d->wake[0]);
  close(d->wake[1]);
  free(d);
}
