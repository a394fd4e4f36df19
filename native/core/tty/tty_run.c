/* tty_run.c — the terminal runner (qt_tty.h for its rules): the engine run on a terminal in raw
 * mode, the same on every OS. What differs between operating systems (opening the terminal, raw
 * mode, waiting, reading keys, writing, its size, signals or console events) is the terminal
 * device of qt_term.h, one per OS family under native/os/<family>/tty.c; this file includes no
 * OS header.
 *
 * Escape sequences this file emits (and only these):
 *   ESC[?2004h / ESC[?2004l   bracketed paste on / off
 *   ESC[?25l / ESC[?25h       cursor hidden / shown
 *   ESC[<n>A, ESC[<n>C        cursor up n rows, right n columns
 *   \r, \r\n, ESC[J           column 0, next line, clear to the end of the screen
 *   ESC[<n>m                  the default palette below (not with NO_COLOR)
 *   a desktop notification    the bytes set with qt_tty_set_notice, once a run has taken the
 *                             terminal: OSC 777, OSC 9 or OSC 99, maybe in tmux's DCS passthrough
 *                             (built by notice.c from sanitized text, qt_notice.h)
 * Input is read in raw mode (no echo, no line editing, no signals from keys: Ctrl+C arrives as
 * a key and the engine treats it as cancel), as the bytes a VT terminal sends.
 *
 * Reads and writes never block: every wait (qt_term_wait) has a bound and also watches the
 * device's wake (qt_tty_stop, signals). The terminal is put back in exactly one place,
 * restore_terminal. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qt_external_edit.h"
#include "qt_limits.h"
#include "qt_term.h"
#include "qt_text.h"
#include "qt_tty.h"

/* Signal handlers and other threads share these flags: they must be lock-free to be
 * async-signal-safe. */
_Static_assert(ATOMIC_BOOL_LOCK_FREE == 2 && ATOMIC_INT_LOCK_FREE == 2 && ATOMIC_POINTER_LOCK_FREE == 2,
               "the runner's flags must be lock-free atomics");

/* Markers put into the engine's frame and stripped before writing (never reach the terminal):
 * where the text cursor is (the engine's cursor marker), the prompt's first line (the title
 * style) and the highlighted option (the selected style). They keep the window on a frame
 * taller than the terminal on what matters. */
#define MARK_PREFIX "\x1b_qt:"
static const char CURSOR_MARK[] = MARK_PREFIX "c\x07";
static const char TITLE_MARK[] = MARK_PREFIX "t\x07";
static const char SELECTED_MARK[] = MARK_PREFIX "s\x07";

/* The host's palette: basic ANSI colours every terminal has. */
static const struct {
  qt_style style;
  const char *open;
  const char *close;
} PALETTE[] = {
    {QT_STYLE_ACCENT, "\x1b[36m", "\x1b[39m"},
    {QT_STYLE_MUTED, "\x1b[90m", "\x1b[39m"},
    {QT_STYLE_DIM, "\x1b[2m", "\x1b[22m"},
    {QT_STYLE_SUCCESS, "\x1b[32m", "\x1b[39m"},
    {QT_STYLE_WARNING, "\x1b[33m", "\x1b[39m"},
    {QT_STYLE_ERROR, "\x1b[31m", "\x1b[39m"},
    {QT_STYLE_TITLE, "\x1b[1m", "\x1b[22m"},
    {QT_STYLE_BORDER, "\x1b[90m", "\x1b[39m"},
    {QT_STYLE_SELECTED, "\x1b[1;36m", "\x1b[22;39m"},
    {QT_STYLE_CURSOR, "\x1b[7m", "\x1b[27m"},
};

struct qt_tty {
  qt_term *dev;            /* the terminal device (qt_term.h) */
  atomic_bool raw;         /* raw mode is (about to be) on: whoever clears it restores the terminal */
  atomic_bool stopped;     /* qt_tty_stop or a terminating signal */
  atomic_bool resized;     /* the terminal's size changed (SIGWINCH, or the device saw it) */
  atomic_int terminations; /* terminating signals during this run: the second ends the process */
  atomic_int claim;        /* who took the question: CLAIM_OPEN, CLAIM_ELSEWHERE, CLAIM_HERE + outcome */
  qt_tty_access refusal;   /* why the last run refused to start */
  bool color;
  size_t drawn_rows; /* rows of the frame on screen */
  size_t cursor_row; /* the row of the frame the cursor sits on */
  char *notice;      /* the desktop notification, written once the terminal is taken (NULL: none) */
  size_t notice_len;
};

static const char LEAVE[] = "\x1b[?2004l\x1b[?25h\x1b[0m";

/* The values of `claim` (qt_tty.h, claim at the key). */
enum { CLAIM_OPEN = 0, CLAIM_ELSEWHERE = 1, CLAIM_HERE = 2 };

/* ---- the one static pointer, and who may be using it --------------------------------------- */
/* `active` is the running runner. A signal handler (or the exit hook) announces itself in
 * `users` before it loads `active` and leaves after its last use of the runner; a run clears
 * `active` and then waits until `users` is 0 before it returns, so no handler ever touches a
 * runner that may be closed (sequentially consistent atomics order the two). */
static _Atomic(qt_tty *) active;
static atomic_int users;
static atomic_bool exiting;
static atomic_flag exit_hook_added = ATOMIC_FLAG_INIT;

/* ---- writing ---------------------------------------------------------------------------------- */
/* Writes all of s[0..n) unless the terminal takes nothing for `wait_ms` (progress restarts the
 * wait) or, when `stoppable`, a stop arrives. True when everything went out. Only the device's
 * write, wait and drain: async-signal-safe (a signal handler passes wait_ms 0: one try, no
 * waiting). */
static bool write_tty(qt_tty *t, const char *s, size_t n, int wait_ms, bool stoppable) {
  while (n) {
    long w = qt_term_write(t->dev, s, n);
    if (w > 0) {
      s += w;
      n -= (size_t)w;
      continue;
    }
    if (w < 0) return false;
    if (wait_ms <= 0 || (stoppable && atomic_load(&t->stopped))) return false;
    int r = qt_term_wait(t->dev, true, stoppable, wait_ms);
    if (r == 0) return false; /* the terminal stopped reading */
    if (r < 0 || (r & QT_TERM_GONE)) return false;
    if (r & QT_TERM_WOKEN) qt_term_drain(t->dev); /* the flags say why; checked above */
  }
  return true;
}

/* The one place the terminal is put back as it was: `erase` (the frame's erase sequence, may
 * be empty), then bracketed paste off, cursor shown, attributes reset, then the device drops
 * unread input and applies the saved settings at once (never waiting for a terminal that
 * stopped reading). Whoever clears `raw` does it, once: the run on its way out, qt_tty_close
 * after a run cut short, a signal handler about to end the process, or the exit hook.
 * Async-signal-safe with wait_ms 0. */
static void restore_terminal(qt_tty *t, const char *erase, size_t n, int wait_ms) {
  if (!atomic_exchange(&t->raw, false)) return;
  bool taken = !n || write_tty(t, erase, n, wait_ms, false);
  write_tty(t, LEAVE, sizeof LEAVE - 1, taken ? wait_ms : 0, false); /* one wait in all */
  qt_term_restore(t->dev);
}

/* ---- what the device reports (signal handlers, the console's control handler) --------------- */
static void on_resized(void) {
  atomic_fetch_add(&users, 1);
  qt_tty *t = atomic_load(&active);
  if (t) {
    atomic_store(&t->resized, true);
    qt_term_wake(t->dev);
  }
  atomic_fetch_sub(&users, 1); /* the runner is not touched after this */
}

static bool on_terminate(bool ends_by_default, bool ignored) {
  bool end_process = false;
  atomic_fetch_add(&users, 1);
  qt_tty *t = atomic_load(&active);
  if (t) {
    atomic_store(&t->stopped, true);
    int before = atomic_fetch_add(&t->terminations, 1);
    /* The process is about to end (the default action, or a second signal the host did not
     * answer): put the terminal back first, without waiting. */
    end_process = !ignored && (ends_by_default || before >= 1);
    if (end_process) restore_terminal(t, NULL, 0, 0);
    qt_term_wake(t->dev);
  }
  atomic_fetch_sub(&users, 1); /* the runner is not touched after this */
  return end_process;
}

static const qt_term_hooks HOOKS = {on_resized, on_terminate};

/* ---- process exit -------------------------------------------------------------------------- */
/* exit() while a question runs (Node's process.exit does not wait for other threads): stop the
 * run and give it QT_TTY_EXIT_WAIT_MS (where its thread still runs) to put the terminal back;
 * if it cannot, put it back from here. */
static void at_exit(void) {
  atomic_store(&exiting, true);
  atomic_fetch_add(&users, 1);
  qt_tty *t = atomic_load(&active);
  if (t) qt_tty_stop(t);
  atomic_fetch_sub(&users, 1);
  if (!t) return;
  int wait = qt_term_exit_wait_ms();
  for (int waited = 0; waited < wait && atomic_load(&active); waited++) qt_term_sleep_ms(1);
  atomic_fetch_add(&users, 1);
  if ((t = atomic_load(&active))) restore_terminal(t, NULL, 0, 0);
  atomic_fetch_sub(&users, 1);
}

bool qt_tty_exiting(void) { return atomic_load(&exiting); }

/* ---- opening and closing ---------------------------------------------------------------- */
qt_tty_access qt_tty_probe(const char *path) { return path ? qt_term_probe(path) : QT_TTY_ABSENT; }

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
  qt_tty *t = calloc(1, sizeof *t);
  if (!t) return QT_ERR_NOMEM;
  qt_status st = qt_term_open(path, &t->dev);
  if (st) {
    free(t);
    return st;
  }
  t->color = true;
  atomic_init(&t->raw, false);
  atomic_init(&t->stopped, false);
  atomic_init(&t->resized, false);
  atomic_init(&t->terminations, 0);
  atomic_init(&t->claim, CLAIM_OPEN);
  *out = t;
  return QT_OK;
}

void qt_tty_close(qt_tty *t) {
  if (!t) return;
  restore_terminal(t, NULL, 0, QT_TTY_LEAVE_WAIT_MS);
  qt_term_close(t->dev);
  free(t->notice);
  free(t);
}

void qt_tty_set_color(qt_tty *t, bool color) {
  if (t) t->color = color;
}

qt_status qt_tty_set_notice(qt_tty *t, const char *bytes, size_t len) {
  if (!t || (!bytes && len)) return QT_ERR_USAGE;
  char *copy = NULL;
  if (len) {
    if (!(copy = malloc(len))) return QT_ERR_NOMEM;
    memcpy(copy, bytes, len);
  }
  free(t->notice);
  t->notice = copy;
  t->notice_len = len;
  return QT_OK;
}

qt_tty_access qt_tty_refusal(const qt_tty *t) { return t ? t->refusal : QT_TTY_FREE; }

void qt_tty_stop(qt_tty *t) {
  if (!t) return;
  atomic_store(&t->stopped, true);
  qt_term_wake(t->dev);
}

bool qt_tty_claim(qt_tty *t, qt_outcome *here) {
  if (!t) return false;
  int seen = CLAIM_OPEN;
  if (atomic_compare_exchange_strong(&t->claim, &seen, CLAIM_ELSEWHERE)) {
    qt_tty_stop(t);
    return true;
  }
  if (here) *here = seen == CLAIM_ELSEWHERE ? QT_INTERRUPTED : (qt_outcome)(seen - CLAIM_HERE);
  return false;
}

bool qt_tty_claimed_elsewhere(const qt_tty *t) { return t && atomic_load(&t->claim) == CLAIM_ELSEWHERE; }

/* ---- drawing ------------------------------------------------------------------------------ */
/* Moves to the first row of the drawn frame and clears from there down. */
static void erase_frame(qt_tty *t, qt_buf *out) {
  if (t->cursor_row) qt_buf_printf(out, "\x1b[%zuA", t->cursor_row);
  qt_buf_puts(out, "\r\x1b[J");
  t->drawn_rows = t->cursor_row = 0;
}

/* Appends `line` without the markers; *cursor_at gets the byte offset in `out` where the
 * cursor marker was (unchanged when there is none). */
static void put_line(qt_buf *out, const char *line, size_t *cursor_at) {
  const char *p = line;
  for (;;) {
    const char *m = strstr(p, MARK_PREFIX);
    if (!m) break;
    qt_buf_append(out, p, (size_t)(m - p));
    if (strncmp(m, CURSOR_MARK, sizeof CURSOR_MARK - 1) == 0) *cursor_at = out->len;
    const char *end = strchr(m, '\x07');
    if (!end) { /* not one of ours after all: keep the rest as it is */
      p = m;
      break;
    }
    p = end + 1;
  }
  qt_buf_puts(out, p);
}

/* The window of `keep` rows on a frame of `count` rows: it keeps the line being edited, then
 * the prompt's first line, then the highlighted option (each only if it fits together with the
 * ones before it), and among the windows that keep them the one nearest the frame's end (the
 * help lines). SIZE_MAX: no such row. Returns the frame row the window starts at. choose_view
 * pins the prompt's first line above it when they do not fit together. */
static size_t window_start(size_t count, size_t keep, size_t edited, size_t prompt, size_t selected) {
  if (count <= keep) return 0;
  const size_t want[3] = {edited, prompt, selected};
  size_t lo = SIZE_MAX, hi = 0;
  for (int i = 0; i < 3; i++) {
    if (want[i] >= count) continue;
    size_t nlo = lo == SIZE_MAX || want[i] < lo ? want[i] : lo;
    size_t nhi = lo == SIZE_MAX || want[i] > hi ? want[i] : hi;
    if (nhi - nlo + 1 > keep) continue;
    lo = nlo;
    hi = nhi;
  }
  size_t first = count - keep;
  if (lo != SIZE_MAX && first > lo) first = lo; /* still >= hi + 1 - keep: hi - lo < keep */
  return first;
}

/* What a frame of `count` rows shows on `keep` rows: the slice [first, first + n) — and, when
 * the prompt's first line cannot share one slice with the line being edited and the
 * highlighted option, that line pinned on the top row above a slice that has them. */
typedef struct {
  size_t pinned; /* SIZE_MAX: none */
  size_t first, n;
} view;

static bool shows(size_t row, size_t first, size_t n) { return row == SIZE_MAX || (row >= first && row - first < n); }

static view choose_view(size_t count, size_t keep, size_t edited, size_t prompt, size_t selected) {
  view v = {SIZE_MAX, 0, count < keep ? count : keep};
  if (count <= keep) return v;
  v.first = window_start(count, keep, edited, prompt, selected);
  if (prompt == SIZE_MAX || keep < 2 ||
      (shows(edited, v.first, keep) && shows(selected, v.first, keep) && shows(prompt, v.first, keep)))
    return v;
  size_t first = window_start(count, keep - 1, edited, SIZE_MAX, selected);
  if (first + (keep - 1) <= prompt || shows(prompt, first, keep - 1)) return v; /* nothing to pin above */
  v.pinned = prompt;
  v.first = first;
  v.n = keep - 1;
  return v;
}

static qt_status draw(qt_tty *t, qt_engine *e) {
  int cols, rows;
  qt_term_size(t->dev, &cols, &rows);
  const char *const *lines;
  size_t count;
  /* the engine fits the frame to the rows shown (keep), and the keys act on this frame */
  qt_engine_set_screen(e, cols, rows > 1 ? rows - 1 : 1);
  qt_status st = qt_engine_render(e, cols, rows > 1 ? rows - 1 : 1, &lines, &count);
  if (st) return st;
  size_t keep = (size_t)(rows > 1 ? rows - 1 : 1);
  size_t edited = SIZE_MAX, prompt = SIZE_MAX, selected = SIZE_MAX;
  for (size_t i = 0; i < count; i++) {
    if (!strstr(lines[i], MARK_PREFIX)) continue;
    if (edited == SIZE_MAX && strstr(lines[i], CURSOR_MARK)) edited = i;
    if (prompt == SIZE_MAX && strstr(lines[i], TITLE_MARK)) prompt = i;
    if (selected == SIZE_MAX && strstr(lines[i], SELECTED_MARK)) selected = i;
  }
  view v = choose_view(count, keep, edited, prompt, selected);
  size_t top = v.pinned != SIZE_MAX ? 1 : 0, shown = top + v.n;
  /* the screen row of frame row `edited`, if it is shown */
  size_t cursor_row = edited == SIZE_MAX            ? SIZE_MAX
                      : edited == v.pinned          ? 0
                      : shows(edited, v.first, v.n) ? top + (edited - v.first)
                                                    : SIZE_MAX;
  qt_buf out;
  qt_buf_init(&out);
  erase_frame(t, &out);
  qt_buf_puts(&out, cursor_row != SIZE_MAX ? "\x1b[?25h" : "\x1b[?25l");
  size_t cursor_col = 0;
  for (size_t i = 0; i < shown; i++) {
    size_t row = i < top ? v.pinned : v.first + (i - top);
    size_t start = out.len, at = SIZE_MAX;
    put_line(&out, lines[row], &at);
    if (i == cursor_row && at != SIZE_MAX && !out.failed) cursor_col = qt_visible_width(out.data + start, at - start);
    if (i + 1 < shown) qt_buf_puts(&out, "\r\n");
  }
  size_t last = shown ? shown - 1 : 0;
  t->drawn_rows = shown;
  t->cursor_row = last;
  if (cursor_row != SIZE_MAX) {
    if (last > cursor_row) qt_buf_printf(&out, "\x1b[%zuA", last - cursor_row);
    qt_buf_puts(&out, "\r");
    if (cursor_col) qt_buf_printf(&out, "\x1b[%zuC", cursor_col);
    t->cursor_row = cursor_row;
  }
  if (out.failed) {
    qt_buf_free(&out);
    return QT_ERR_NOMEM;
  }
  /* A terminal that takes nothing for QT_TTY_WRITE_WAIT_MS loses the rest of this frame; the
   * question goes on (a stop ends the wait at once). */
  write_tty(t, out.data, out.len, QT_TTY_WRITE_WAIT_MS, true);
  qt_buf_free(&out);
  return QT_OK;
}

/* ---- the loop ----------------------------------------------------------------------------- */
/* Raw mode, switched at once (no wait for pending output) before the first frame is drawn.
 * Input typed before the question was on screen is dropped first, on purpose: a stray Enter
 * must not answer a question nobody saw; a key pressed once the frame is visible always
 * arrives. */
static qt_status enter_raw(qt_tty *t) {
  if (qt_term_save(t->dev)) return QT_ERR_STATE;
  atomic_store(&t->raw, true); /* before the switch: a signal arriving in between still restores */
  if (qt_term_raw(t->dev)) {
    atomic_store(&t->raw, false);
    return QT_ERR_STATE;
  }
  static const char ENTER[] = "\x1b[?2004h";
  write_tty(t, ENTER, sizeof ENTER - 1, QT_TTY_WRITE_WAIT_MS, true);
  return QT_OK;
}

/* Waits up to `ms` for input on the terminal; true when some is there. */
static bool input_within(qt_tty *t, int ms) {
  int r = qt_term_wait(t->dev, false, false, ms);
  return r > 0 && (r & QT_TERM_READY);
}

static void apply_styles(qt_tty *t, qt_engine *e) {
  char open[64];
  for (size_t i = 0; i < sizeof PALETTE / sizeof PALETTE[0]; i++) {
    qt_style s = PALETTE[i].style;
    const char *mark = s == QT_STYLE_TITLE ? TITLE_MARK : s == QT_STYLE_SELECTED ? SELECTED_MARK : "";
    snprintf(open, sizeof open, "%s%s", mark, t->color ? PALETTE[i].open : "");
    qt_engine_set_style(e, s, open, t->color ? PALETTE[i].close : "");
  }
  qt_engine_set_cursor_marker(e, CURSOR_MARK);
}

static bool stopped(qt_tty *t) { return atomic_load(&t->stopped); }

/* ---- the person's timeout and the external editor -------------------------------------------- */
/* How long a wait may last: held input bytes get 50 ms, a running countdown its next change. */
static int wait_bound(qt_engine *e) {
  int64_t clock = qt_engine_next_tick(e, qt_term_clock_ms());
  int wait = qt_engine_pending(e) ? 50 : -1;
  /* a clock started again by the key just read ("selected": 0 until its next tick) does not
   * cut the held bytes' grace short: it starts at the tick after them */
  if (clock >= 0 && (wait < 0 || (clock > 0 && clock < wait))) wait = (int)(clock > 60000 ? 60000 : clock);
  return wait;
}

/* Ctrl+G asked for the editor: it gets the terminal as it was before the question (put back by
 * restore_terminal, and blocking again where the device is non-blocking: the editor shares the
 * runner's open terminal, and reads and writes it like any program), then raw mode again. The
 * editor runs for as long as the person takes; a stop counts once it exits. */
static qt_status run_editor(qt_tty *t, qt_engine *e) {
  const char *text;
  size_t len;
  if (!qt_engine_editor_request(e, &text, &len)) return QT_OK;
  qt_buf out, why, edited;
  qt_buf_init(&out);
  qt_buf_init(&why);
  qt_buf_init(&edited);
  erase_frame(t, &out);
  restore_terminal(t, out.failed ? NULL : out.data, out.failed ? 0 : out.len, QT_TTY_LEAVE_WAIT_MS);
  int fd = qt_term_editor_begin(t->dev);
  bool ok = qt_external_edit(e, fd, text, len, &edited, &why);
  qt_term_editor_end(t->dev);
  qt_status st = enter_raw(t);
  qt_status done = qt_engine_editor_done(e, ok, edited.data ? edited.data : "", edited.len, why.data);
  qt_buf_free(&out);
  qt_buf_free(&why);
  qt_buf_free(&edited);
  return st ? st : done;
}

qt_status qt_tty_run(qt_tty *t, qt_engine *e) {
  if (!t || !e) return QT_ERR_USAGE;
  t->refusal = qt_term_owner(t->dev);
  if (t->refusal == QT_TTY_OWNED) return QT_ERR_STATE; /* never fight over a terminal */
  t->refusal = QT_TTY_FREE;
  qt_tty *none = NULL;
  if (!atomic_compare_exchange_strong(&active, &none, t)) return QT_ERR_STATE;
  if (!atomic_flag_test_and_set(&exit_hook_added)) atexit(at_exit);
  /* `stopped` is left alone: a stop that came before the run still counts */
  atomic_store(&t->resized, false);
  atomic_store(&t->terminations, 0);
  qt_term_signals_install(&HOOKS);
  apply_styles(t, e);
  qt_status st = enter_raw(t);
  qt_term_drain(t->dev);
  if (!st && t->notice_len && !stopped(t)) { /* the question will be shown: now the notice */
    write_tty(t, t->notice, t->notice_len, QT_TTY_WRITE_WAIT_MS, true);
    free(t->notice);
    t->notice = NULL;
    t->notice_len = 0;
  }
  if (!st) st = qt_engine_tick(e, qt_term_clock_ms()); /* the person's timeout starts now */
  if (!st && !stopped(t)) st = draw(t, e);
  char buf[4096];
  size_t carry = 0; /* a trailing ESC kept for the next read (the buffer was full) */
  while (!st && !stopped(t) && !qt_engine_done(e)) {
    if (atomic_exchange(&t->resized, false)) {
      st = draw(t, e);
      continue;
    }
    /* Held bytes of an unfinished sequence: give the rest 50 ms, then take them as they are. */
    int n = qt_term_wait(t->dev, false, true, wait_bound(e));
    if (n < 0) {
      st = QT_ERR_STATE;
      break;
    }
    if (n & QT_TERM_RESIZED) atomic_store(&t->resized, true);
    if (n & QT_TERM_AGAIN) continue;
    if (n == 0) {
      st = qt_engine_pending(e) ? qt_engine_flush(e) : QT_OK;
      if (!st) st = qt_engine_tick(e, qt_term_clock_ms());
      if (!st && !qt_engine_done(e)) st = draw(t, e);
      continue;
    }
    if (n & QT_TERM_WOKEN) qt_term_drain(t->dev);
    if (stopped(t)) break;
    if (n & QT_TERM_GONE) {
      atomic_store(&t->stopped, true); /* the terminal went away */
      break;
    }
    if (!(n & QT_TERM_READY)) continue; /* woken for a resize: drawn at the top */
    long got = qt_term_read(t->dev, buf + carry, sizeof buf - carry);
    if (got < 0) {
      atomic_store(&t->stopped, true); /* end of input: the terminal is gone */
      break;
    }
    if (got == 0) continue; /* nothing to feed yet (a console's key-up, focus or size record) */
    size_t len = carry + (size_t)got;
    carry = 0;
    if (buf[len - 1] == '\x1b') {
      if (len == sizeof buf) {
        carry = 1; /* keep the ESC with what follows it in the next read */
        len--;
      } else if (input_within(t, 30)) {
        /* An ESC at the end of a read may start a sequence still on its way. */
        long extra = qt_term_read(t->dev, buf + len, sizeof buf - len);
        if (extra > 0) len += (size_t)extra;
      }
    }
    st = qt_engine_feed(e, buf, len);
    if (!st) st = run_editor(t, e);
    if (carry) buf[0] = '\x1b';
    if (!st && !qt_engine_done(e)) {
      atomic_store(&t->resized, false);
      st = draw(t, e);
    }
  }
  /* The person's final key (or their timeout) takes the question now, before anything else is
   * done, unless an answer from elsewhere took it first (then this outcome is not theirs). */
  if (qt_engine_done(e) && qt_engine_outcome(e) != QT_INTERRUPTED) {
    int open = CLAIM_OPEN;
    atomic_compare_exchange_strong(&t->claim, &open, CLAIM_HERE + (int)qt_engine_outcome(e));
  }
  if (!qt_engine_done(e)) qt_engine_interrupt(e);
  /* Erase the question and leave raw mode on every way out (unless a signal handler already
   * did, with the process about to end). */
  qt_buf out;
  qt_buf_init(&out);
  erase_frame(t, &out);
  restore_terminal(t, out.failed ? NULL : out.data, out.failed ? 0 : out.len, QT_TTY_LEAVE_WAIT_MS);
  qt_buf_free(&out);
  qt_term_signals_remove();
  atomic_store(&active, NULL);
  while (atomic_load(&users)) qt_term_sleep_ms(1); /* a handler still holding this runner finishes first */
  return st;
}
