/* tty.c — the raw-terminal host of the engine (see qt_tty.h).
 *
 * Escape sequences this file emits (and only these):
 *   ESC[?2004h / ESC[?2004l   bracketed paste on / off
 *   ESC[?25l / ESC[?25h       cursor hidden / shown
 *   ESC[<n>A, ESC[<n>C        cursor up n rows, right n columns
 *   \r, \r\n, ESC[J           column 0, next line, clear to the end of the screen
 *   ESC[<n>m                  the default palette below (not with NO_COLOR)
 * Input is read in raw mode (no echo, no canonical mode, no signals from keys: Ctrl+C arrives
 * as a key and the engine treats it as cancel). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "qt_text.h"
#include "qt_tty.h"

/* The marker the engine puts where the text cursor is; found and stripped before writing. */
static const char CURSOR_MARK[] = "\x1b_qt:c\x07";

/* The host's palette: basic ANSI colours every terminal has. */
static const struct {
  qt_style style;
  const char *open;
  const char *close;
} PALETTE[] = {
    {QT_STYLE_ACCENT, "\x1b[36m", "\x1b[39m"},  {QT_STYLE_MUTED, "\x1b[90m", "\x1b[39m"},
    {QT_STYLE_DIM, "\x1b[2m", "\x1b[22m"},       {QT_STYLE_SUCCESS, "\x1b[32m", "\x1b[39m"},
    {QT_STYLE_WARNING, "\x1b[33m", "\x1b[39m"}, {QT_STYLE_ERROR, "\x1b[31m", "\x1b[39m"},
    {QT_STYLE_TITLE, "\x1b[1m", "\x1b[22m"},     {QT_STYLE_BORDER, "\x1b[90m", "\x1b[39m"},
    {QT_STYLE_SELECTED, "\x1b[1;36m", "\x1b[22;39m"}, {QT_STYLE_CURSOR, "\x1b[7m", "\x1b[27m"},
};

struct qt_tty {
  int fd;                  /* the terminal, opened read-write */
  int wake[2];             /* self-pipe: stop and signals write one byte */
  struct termios saved;    /* the terminal's settings before raw mode */
  volatile sig_atomic_t raw;       /* raw mode may be on: a signal handler restores it */
  bool entered;                    /* this run switched the terminal (erase and leave on exit) */
  volatile sig_atomic_t stopped;   /* qt_tty_stop or a terminating signal */
  volatile sig_atomic_t resized;   /* SIGWINCH arrived */
  bool color;
  size_t drawn_rows;       /* rows of the frame on screen */
  size_t cursor_row;       /* the row of the frame the cursor sits on */
};

/* ---- signals: the one static pointer ------------------------------------------------------- */
static _Atomic(qt_tty *) active;
static struct sigaction previous[4];
static const int HANDLED[4] = {SIGINT, SIGTERM, SIGHUP, SIGWINCH};

static void write_all(int fd, const char *s, size_t n) {
  while (n) {
    ssize_t w = write(fd, s, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return;
    }
    s += w;
    n -= (size_t)w;
  }
}

static const char LEAVE[] = "\x1b[?2004l\x1b[?25h\x1b[0m";

/* Async-signal-safe: puts the terminal back as it was. */
static void restore_terminal(qt_tty *t) {
  if (!t->raw) return;
  write_all(t->fd, LEAVE, sizeof LEAVE - 1);
  tcsetattr(t->fd, TCSAFLUSH, &t->saved);
  t->raw = 0;
}

static void on_signal(int sig, siginfo_t *info, void *uctx) {
  int saved_errno = errno;
  qt_tty *t = atomic_load(&active);
  int i = 0;
  while (i < 4 && HANDLED[i] != sig) i++;
  if (t) {
    if (sig == SIGWINCH) {
      t->resized = 1;
    } else {
      restore_terminal(t);
      t->stopped = 1;
    }
    char c = 's';
    ssize_t ignored = write(t->wake[1], &c, 1);
    (void)ignored;
  }
  /* Chain to whoever handled this signal before us (Node, pi, or the default action). */
  if (i < 4) {
    struct sigaction *old = &previous[i];
    if (old->sa_flags & SA_SIGINFO) {
      if (old->sa_sigaction) old->sa_sigaction(sig, info, uctx);
    } else if (old->sa_handler == SIG_DFL) {
      if (sig != SIGWINCH) {
        sigaction(sig, old, NULL);
        raise(sig);
      }
    } else if (old->sa_handler != SIG_IGN && old->sa_handler) {
      old->sa_handler(sig);
    }
  }
  errno = saved_errno;
}

static void install_signals(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_signal;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < 4; i++) sigaction(HANDLED[i], &sa, &previous[i]);
}

/* Puts back what was there before, unless someone (Node, pi) installed a handler of their own
 * while the question ran: theirs stays. */
static void remove_signals(void) {
  for (int i = 0; i < 4; i++) {
    struct sigaction current;
    if (sigaction(HANDLED[i], NULL, &current) == 0 && (current.sa_flags & SA_SIGINFO) &&
        current.sa_sigaction == on_signal)
      sigaction(HANDLED[i], &previous[i], NULL);
  }
}

/* ---- opening and closing ---------------------------------------------------------------- */
qt_status qt_tty_open(const char *path, qt_tty **out) {
  if (!path || !out) return QT_ERR_USAGE;
  *out = NULL;
  int fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return QT_ERR_STATE;
  if (!isatty(fd)) {
    close(fd);
    return QT_ERR_STATE;
  }
  qt_tty *t = calloc(1, sizeof *t);
  if (!t) {
    close(fd);
    return QT_ERR_NOMEM;
  }
  t->fd = fd;
  t->color = true;
  if (pipe(t->wake) != 0) {
    close(fd);
    free(t);
    return QT_ERR_NOMEM;
  }
  for (int i = 0; i < 2; i++) {
    fcntl(t->wake[i], F_SETFD, FD_CLOEXEC);
    fcntl(t->wake[i], F_SETFL, O_NONBLOCK);
  }
  *out = t;
  return QT_OK;
}

void qt_tty_close(qt_tty *t) {
  if (!t) return;
  restore_terminal(t);
  close(t->fd);
  close(t->wake[0]);
  close(t->wake[1]);
  free(t);
}

void qt_tty_set_color(qt_tty *t, bool color) {
  if (t) t->color = color;
}

void qt_tty_stop(qt_tty *t) {
  if (!t) return;
  t->stopped = 1;
  char c = 's';
  ssize_t ignored = write(t->wake[1], &c, 1);
  (void)ignored;
}

/* ---- drawing ------------------------------------------------------------------------------ */
static void terminal_size(qt_tty *t, int *cols, int *rows) {
  struct winsize ws;
  if (ioctl(t->fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
    *cols = ws.ws_col;
    *rows = ws.ws_row > 0 ? ws.ws_row : 24;
  } else {
    *cols = 80;
    *rows = 24;
  }
}

/* Moves to the first row of the drawn frame and clears from there down. */
static void erase_frame(qt_tty *t, qt_buf *out) {
  if (t->cursor_row) qt_buf_printf(out, "\x1b[%zuA", t->cursor_row);
  qt_buf_puts(out, "\r\x1b[J");
  t->drawn_rows = t->cursor_row = 0;
}

static qt_status draw(qt_tty *t, qt_engine *e) {
  int cols, rows;
  terminal_size(t, &cols, &rows);
  const char *const *lines;
  size_t count;
  qt_engine_set_rows(e, rows > 1 ? rows - 1 : 1); /* the frame fits the screen (issue 14 item 2) */
  qt_status st = qt_engine_render(e, cols, &lines, &count);
  if (st) return st;
  size_t first = 0, keep = (size_t)(rows > 1 ? rows - 1 : 1);
  size_t mark_row = (size_t)-1, mark_col = 0;
  for (size_t i = 0; i < count; i++) {
    const char *m = strstr(lines[i], CURSOR_MARK);
    if (m) {
      mark_row = i;
      mark_col = qt_visible_width(lines[i], (size_t)(m - lines[i]));
    }
  }
  if (count > keep) first = mark_row != (size_t)-1 && mark_row >= keep ? mark_row + 1 - keep : count - keep;
  qt_buf out;
  qt_buf_init(&out);
  erase_frame(t, &out);
  qt_buf_puts(&out, mark_row == (size_t)-1 ? "\x1b[?25l" : "\x1b[?25h");
  size_t shown = count - first < keep ? count - first : keep;
  for (size_t i = 0; i < shown; i++) {
    const char *line = lines[first + i];
    const char *m = strstr(line, CURSOR_MARK);
    if (m) {
      qt_buf_append(&out, line, (size_t)(m - line));
      qt_buf_puts(&out, m + sizeof CURSOR_MARK - 1);
    } else {
      qt_buf_puts(&out, line);
    }
    if (i + 1 < shown) qt_buf_puts(&out, "\r\n");
  }
  size_t last = shown ? shown - 1 : 0;
  t->drawn_rows = shown;
  t->cursor_row = last;
  if (mark_row != (size_t)-1 && mark_row >= first && mark_row - first < shown) {
    size_t row = mark_row - first;
    if (last > row) qt_buf_printf(&out, "\x1b[%zuA", last - row);
    qt_buf_puts(&out, "\r");
    if (mark_col) qt_buf_printf(&out, "\x1b[%zuC", mark_col);
    t->cursor_row = row;
  }
  if (out.failed) {
    qt_buf_free(&out);
    return QT_ERR_NOMEM;
  }
  write_all(t->fd, out.data, out.len);
  qt_buf_free(&out);
  return QT_OK;
}

/* ---- the loop ----------------------------------------------------------------------------- */
static qt_status enter_raw(qt_tty *t) {
  if (tcgetattr(t->fd, &t->saved) != 0) return QT_ERR_STATE;
  struct termios raw = t->saved;
  raw.c_iflag &= ~(tcflag_t)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON);
  raw.c_oflag &= ~(tcflag_t)OPOST;
  raw.c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
  raw.c_cflag &= ~(tcflag_t)(CSIZE | PARENB);
  raw.c_cflag |= CS8;
  raw.c_cc[VMIN] = 1;
  raw.c_cc[VTIME] = 0;
  t->raw = 1; /* before the switch: a signal arriving in between still restores */
  t->entered = true;
  if (tcsetattr(t->fd, TCSAFLUSH, &raw) != 0) {
    t->raw = 0;
    t->entered = false;
    return QT_ERR_STATE;
  }
  static const char ENTER[] = "\x1b[?2004h";
  write_all(t->fd, ENTER, sizeof ENTER - 1);
  return QT_OK;
}

/* Waits up to `ms` for input on the terminal; true when some is there. */
static bool input_within(qt_tty *t, int ms) {
  struct pollfd more = {t->fd, POLLIN, 0};
  return poll(&more, 1, ms) > 0 && (more.revents & POLLIN);
}

static void apply_styles(qt_tty *t, qt_engine *e) {
  for (size_t i = 0; i < sizeof PALETTE / sizeof PALETTE[0]; i++)
    qt_engine_set_style(e, PALETTE[i].style, t->color ? PALETTE[i].open : "", t->color ? PALETTE[i].close : "");
  qt_engine_set_cursor_marker(e, CURSOR_MARK);
}

qt_status qt_tty_run(qt_tty *t, qt_engine *e) {
  if (!t || !e) return QT_ERR_USAGE;
  qt_tty *none = NULL;
  if (!atomic_compare_exchange_strong(&active, &none, t)) return QT_ERR_STATE;
  t->resized = 0; /* `stopped` is left alone: a stop that came before the run still counts */
  install_signals();
  apply_styles(t, e);
  qt_status st = enter_raw(t);
  char drain[64];
  while (read(t->wake[0], drain, sizeof drain) > 0) {
  }
  if (!st && !t->stopped) st = draw(t, e);
  char buf[4096];
  size_t carry = 0; /* a trailing ESC kept for the next read (the buffer was full) */
  while (!st && !t->stopped && !qt_engine_done(e)) {
    struct pollfd fds[2] = {{t->fd, POLLIN, 0}, {t->wake[0], POLLIN, 0}};
    /* Held bytes of an unfinished sequence: give the rest 50 ms, then take them as they are. */
    int n = poll(fds, 2, qt_engine_pending(e) ? 50 : -1);
    if (n < 0) {
      if (errno == EINTR) continue;
      st = QT_ERR_STATE;
      break;
    }
    if (n == 0) {
      st = qt_engine_flush(e);
      if (!st) st = draw(t, e);
      continue;
    }
    if (fds[1].revents) {
      while (read(t->wake[0], drain, sizeof drain) > 0) {
      }
    }
    if (t->stopped) break;
    if (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL)) {
      t->stopped = 1; /* the terminal went away */
      break;
    }
    if (fds[0].revents & POLLIN) {
      ssize_t got = read(t->fd, buf + carry, sizeof buf - carry);
      if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) {
        t->stopped = 1; /* end of input: the terminal is gone */
        break;
      }
      if (got > 0) {
        size_t len = carry + (size_t)got;
        carry = 0;
        if (buf[len - 1] == '\x1b') {
          if (len == sizeof buf) {
            carry = 1; /* keep the ESC with what follows it in the next read */
            len--;
          } else if (input_within(t, 30)) {
            /* An ESC at the end of a read may start a sequence still on its way. */
            ssize_t extra = read(t->fd, buf + len, sizeof buf - len);
            if (extra > 0) len += (size_t)extra;
          }
        }
        st = qt_engine_feed(e, buf, len);
        if (carry) buf[0] = '\x1b';
      }
    }
    if (!st && !qt_engine_done(e)) {
      t->resized = 0;
      st = draw(t, e);
    }
  }
  if (!qt_engine_done(e)) qt_engine_interrupt(e);
  if (t->entered) {
    /* Erase the question and leave raw mode on every way out, even if a signal handler already
     * restored the settings (the frame may have been drawn after it). */
    qt_buf out;
    qt_buf_init(&out);
    erase_frame(t, &out);
    if (!out.failed) write_all(t->fd, out.data, out.len);
    qt_buf_free(&out);
    write_all(t->fd, LEAVE, sizeof LEAVE - 1);
    tcsetattr(t->fd, TCSAFLUSH, &t->saved);
    t->raw = 0;
    t->entered = false;
  }
  remove_signals();
  atomic_store(&active, NULL);
  return st;
}
