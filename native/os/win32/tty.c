/* tty.c (Windows) — the terminal device of qt_term.h on the Windows console; the runner itself
 * is portable (native/core/tty/tty_run.c, with qt_tty.h's rules).
 *
 * The terminal is the console: `path` names its input, "CONIN$" (anything that does not open
 * as console input counts as no terminal), and its output is "CONOUT$", opened beside it, so the
 * runner draws on the console even when the process's stdout goes to a pipe or a file.
 *
 * Modes. Raw input is the console's input mode without line input, echo and processed input
 * (so Ctrl+C arrives as a key, as on a POSIX terminal in raw mode), with window-size events on.
 * Output gets virtual terminal processing where the console interprets it (checked once per run:
 * an SGR reset written must not move the cursor). A console without VT output (before Windows
 * 10), or one that takes the mode but prints the sequences as characters (Wine's), gets the few
 * sequences the runner writes drawn with the console's own functions instead — cursor moves,
 * fills, text attributes, the cursor shown or hidden — with its wrap at the last column off (a
 * line as wide as the window must not wrap before the runner's \r\n); strings (the desktop
 * notice) are dropped there. Both modes are saved first and put back on every way out.
 * Quick Edit is off while raw (where the console reports it): a selection made with the mouse
 * pauses the console's output, and a write would block until it ends. A ConPTY host (a terminal
 * program) that stops reading can still block a write: WriteConsoleW has no timeout.
 *
 * Keys. Input is read as console records (ReadConsoleInputW), never as VT input: Windows'
 * virtual terminal input is not available everywhere (Wine's console drops the special keys
 * there), while key records are. Each key press is translated into the bytes an xterm sends for
 * it — arrows, Home/End, Page Up/Down, Insert/Delete, F1–F12 (with their modifiers), Enter (\r;
 * with Shift or Ctrl as xterm's modifyOtherKeys form), Tab, Shift+Tab (ESC [ Z), Backspace
 * (DEL), Esc (also from a record without its character, as Wine's are), Ctrl+letter (its control
 * code), Alt+key (ESC, then the key), text as UTF-8 (a surrogate pair across two records joined;
 * Alt+numpad's character from the Alt release) — so the key decoder (keys.c) reads them like any
 * terminal's. AltGr (reported as Ctrl+Alt) types its character without a prefix. The console has
 * no bracketed paste for key records: text that arrives at once with a line break followed by
 * more text (what a paste gives, never a person typing) is handed on as a bracketed paste, so a
 * pasted line break does not submit.
 *
 * Waiting. WaitForMultipleObjects on the input handle and a manual-reset event (qt_term_wake,
 * from qt_tty_stop or the control handler). The console's output takes what is written at once:
 * a wait for room to write returns at once. Window-size events are not sent by every console
 * (Wine's, for one), so every wait also looks at the size every 100 ms.
 *
 * Ctrl+C, Ctrl+Break and closing the console come as control events (SetConsoleCtrlHandler, on a
 * thread of the system's): Ctrl+C and Ctrl+Break — a console that sends Ctrl+C as an event even
 * with processed input off (Wine), or Ctrl+Break — end the run as a signal ends it on POSIX
 * (interrupted), and the event is taken; a second one during the run puts the console back and
 * passes the event on (the default ends the process). Close, logoff and shutdown put the console
 * back at once and pass the event on: the process is ending.
 *
 * Never fight over a terminal: Windows has no foreground process group. The console is free when
 * it is attached, CONIN$ opens and its input is in line mode (as a shell leaves it); input not in
 * line mode means another program (a TUI sharing this console) has it in raw mode: owned.
 *
 * Exit: ExitProcess ends every other thread before the exit hook runs, so the hook does not wait
 * for the run and puts the console back itself. */
#ifndef _WIN32_WINNT
#define _WIN32_WINNT 0x0A00
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qt_term.h"

#ifndef ENABLE_VIRTUAL_TERMINAL_PROCESSING
#define ENABLE_VIRTUAL_TERMINAL_PROCESSING 0x0004
#endif
#ifndef DISABLE_NEWLINE_AUTO_RETURN
#define DISABLE_NEWLINE_AUTO_RETURN 0x0008
#endif
#ifndef ENABLE_VIRTUAL_TERMINAL_INPUT
#define ENABLE_VIRTUAL_TERMINAL_INPUT 0x0200
#endif

/* Translated input waiting for the runner: at most this much is read from the console ahead
 * (records beyond it stay in the console's buffer). */
#define QUEUE_MAX   (1024 * 1024)
#define RECORDS_MAX 65536 /* console records read at once */

/* Where the emulated output is in an escape sequence. */
enum { ESC_NONE, ESC_START, ESC_CSI, ESC_STRING, ESC_STRING_END };

struct qt_term {
  HANDLE in, out; /* CONIN$ (the path given), CONOUT$ */
  HANDLE wake;    /* manual-reset event: stop and control events set it */
  DWORD saved_in, saved_out;
  int cols, rows; /* the size last reported by qt_term_size */
  bool resized;   /* a window-size record was read */
  WCHAR high;     /* a high surrogate waiting for its low half */
  char *queue;    /* translated bytes not yet handed to the runner */
  size_t queued, queue_cap, queue_at;
  bool full;             /* a key was dropped: the queue is at its bound (QUEUE_MAX) */
  INPUT_RECORD *records; /* what one read takes from the console */
  DWORD records_cap;
  /* Drawing through the console's functions, where VT output is not interpreted (see above). */
  bool emulate;
  WORD plain; /* the attributes before the run: what SGR 0 and 39/49 go back to */
  int fg, bg; /* 0-15, or -1: the plain one */
  bool bold, reverse;
  int esc;         /* where in an escape sequence the output is (ESC_*) */
  char params[32]; /* a CSI's parameter bytes so far */
  size_t params_len;
  atomic_flag drawing; /* held by the one thread in emulated_write (the state above is its) */
};

/* ---- opening and closing ---------------------------------------------------------------------- */
static HANDLE open_console(const char *path) {
  int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, NULL, 0);
  if (n <= 0 || n > 32768) return INVALID_HANDLE_VALUE;
  WCHAR *w = malloc((size_t)n * sizeof *w);
  if (!w) return INVALID_HANDLE_VALUE;
  MultiByteToWideChar(CP_UTF8, 0, path, -1, w, n);
  HANDLE h =
      CreateFileW(w, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING, 0, NULL);
  free(w);
  return h;
}

/* Console input: console modes and an input queue (a console's output handle has no queue). */
static bool console_input(HANDLE h) {
  DWORD mode, events;
  return h != INVALID_HANDLE_VALUE && GetConsoleMode(h, &mode) && GetNumberOfConsoleInputEvents(h, &events);
}

static bool console_output(HANDLE h) {
  CONSOLE_SCREEN_BUFFER_INFO info;
  return h != INVALID_HANDLE_VALUE && GetConsoleScreenBufferInfo(h, &info);
}

static qt_tty_access owner_of(HANDLE in) {
  DWORD mode;
  if (!GetConsoleMode(in, &mode)) return QT_TTY_ABSENT;
  return (mode & ENABLE_LINE_INPUT) ? QT_TTY_FREE : QT_TTY_OWNED;
}

qt_tty_access qt_term_owner(qt_term *d) { return owner_of(d->in); }

qt_tty_access qt_term_probe(const char *path) {
  HANDLE in = open_console(path);
  if (!console_input(in)) {
    if (in != INVALID_HANDLE_VALUE) CloseHandle(in);
    return QT_TTY_ABSENT;
  }
  HANDLE out = CreateFileW(L"CONOUT$", GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                           OPEN_EXISTING, 0, NULL);
  qt_tty_access a = console_output(out) ? owner_of(in) : QT_TTY_ABSENT;
  if (out != INVALID_HANDLE_VALUE) CloseHandle(out);
  CloseHandle(in);
  return a;
}

void qt_term_size(qt_term *d, int *cols, int *rows) {
  CONSOLE_SCREEN_BUFFER_INFO info;
  if (GetConsoleScreenBufferInfo(d->out, &info) && info.srWindow.Right >= info.srWindow.Left) {
    *cols = info.srWindow.Right - info.srWindow.Left + 1;
    *rows = info.srWindow.Bottom >= info.srWindow.Top ? info.srWindow.Bottom - info.srWindow.Top + 1 : 24;
  } else {
    *cols = 80;
    *rows = 24;
  }
  d->cols = *cols;
  d->rows = *rows;
}

qt_status qt_term_open(const char *path, qt_term **out) {
  if (!path || !out) return QT_ERR_USAGE;
  *out = NULL;
  HANDLE in = open_console(path);
  if (!console_input(in)) {
    if (in != INVALID_HANDLE_VALUE) CloseHandle(in);
    return QT_ERR_STATE;
  }
  HANDLE o = CreateFileW(L"CONOUT$", GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                         OPEN_EXISTING, 0, NULL);
  if (!console_output(o)) {
    if (o != INVALID_HANDLE_VALUE) CloseHandle(o);
    CloseHandle(in);
    return QT_ERR_STATE;
  }
  qt_term *d = calloc(1, sizeof *d);
  HANDLE wake = d ? CreateEventW(NULL, TRUE, FALSE, NULL) : NULL;
  if (!d || !wake) {
    free(d);
    CloseHandle(o);
    CloseHandle(in);
    return QT_ERR_NOMEM;
  }
  d->in = in;
  d->out = o;
  d->wake = wake;
  atomic_flag_clear(&d->drawing);
  int cols, rows;
  qt_term_size(d, &cols, &rows);
  *out = d;
  return QT_OK;
}

void qt_term_close(qt_term *d) {
  if (!d) return;
  CloseHandle(d->in);
  CloseHandle(d->out);
  CloseHandle(d->wake);
  free(d->queue);
  free(d->records);
  free(d);
}

/* ---- writing ---------------------------------------------------------------------------------- */
/* At most 1024 bytes of s[0..n), cut before a character's continuation bytes. */
static size_t chunk(const char *s, size_t n) {
  size_t take = n < 1024 ? n : 1024;
  if (take < n)
    while (take > 1 && ((unsigned char)s[take] & 0xC0) == 0x80) take--;
  return take;
}

/* UTF-8 text to the console as UTF-16 (WriteConsoleW: no code page involved). */
static bool write_text(qt_term *d, const char *s, size_t n) {
  if (!n) return true;
  WCHAR w[1024];
  int wn = MultiByteToWideChar(CP_UTF8, 0, s, (int)n, w, 1024);
  if (wn <= 0) return false;
  DWORD done = 0;
  for (int at = 0; at < wn; at += (int)done)
    if (!WriteConsoleW(d->out, w + at, (DWORD)(wn - at), &done, NULL) || done == 0) return false;
  return true;
}

/* Whether the console interprets VT output: an SGR reset must not move the cursor. A console
 * that takes the mode but prints the sequence (Wine's) gets its cursor and cells put back. */
static bool vt_interpreted(qt_term *d) {
  CONSOLE_SCREEN_BUFFER_INFO before, after;
  DWORD done;
  if (!GetConsoleScreenBufferInfo(d->out, &before) || !WriteConsoleW(d->out, L"\x1b[m", 3, &done, NULL) ||
      !GetConsoleScreenBufferInfo(d->out, &after))
    return false;
  if (after.dwCursorPosition.X == before.dwCursorPosition.X && after.dwCursorPosition.Y == before.dwCursorPosition.Y)
    return true;
  FillConsoleOutputCharacterW(d->out, L' ', 3, before.dwCursorPosition, &done);
  SetConsoleCursorPosition(d->out, before.dwCursorPosition);
  return false;
}

/* ANSI colour numbers (red 1, green 2, blue 4) as the console's bits (blue 1, green 2, red 4). */
static int console_colour(int ansi) { return ((ansi & 1) << 2) | (ansi & 2) | ((ansi & 4) >> 2); }

static void apply_attributes(qt_term *d) {
  int fg = d->fg < 0 ? (d->plain & 0x0F) : d->fg;
  int bg = d->bg < 0 ? ((d->plain >> 4) & 0x0F) : d->bg;
  if (d->bold) fg |= FOREGROUND_INTENSITY;
  if (d->reverse) {
    int t = fg;
    fg = bg;
    bg = t;
  }
  SetConsoleTextAttribute(d->out, (WORD)((d->plain & ~0xFF) | fg | (bg << 4)));
}

static void sgr(qt_term *d, const int *args, int count) {
  if (count == 0) {
    static const int reset = 0;
    args = &reset;
    count = 1;
  }
  for (int i = 0; i < count; i++) {
    int v = args[i];
    if (v == 0) {
      d->fg = d->bg = -1;
      d->bold = d->reverse = false;
    } else if (v == 1)
      d->bold = true;
    else if (v == 22)
      d->bold = false;
    else if (v == 7)
      d->reverse = true;
    else if (v == 27)
      d->reverse = false;
    else if (v >= 30 && v <= 37)
      d->fg = console_colour(v - 30);
    else if (v >= 90 && v <= 97)
      d->fg = console_colour(v - 90) | FOREGROUND_INTENSITY;
    else if (v == 39)
      d->fg = -1;
    else if (v >= 40 && v <= 47)
      d->bg = console_colour(v - 40);
    else if (v >= 100 && v <= 107)
      d->bg = console_colour(v - 100) | FOREGROUND_INTENSITY;
    else if (v == 49)
      d->bg = -1;
    /* dim (2) and anything else: no console attribute for it */
  }
  apply_attributes(d);
}

/* One control sequence of those the runner writes (tty_run.c lists them); others are dropped. */
static void csi(qt_term *d, char final) {
  if (d->params_len >= sizeof d->params) d->params_len = sizeof d->params - 1;
  d->params[d->params_len] = 0;
  bool private = d->params[0] == '?';
  int args[8], count = 0;
  for (const char *p = d->params + private; *p && count < 8;) {
    int v = 0;
    for (; *p >= '0' && *p <= '9'; p++)
      if (v < 100000) v = v * 10 + (*p - '0'); /* past any screen: no overflow */
    args[count++] = v;
    if (*p == ';')
      p++;
    else
      break;
  }
  CONSOLE_SCREEN_BUFFER_INFO info;
  if (!GetConsoleScreenBufferInfo(d->out, &info)) return;
  COORD at = info.dwCursorPosition;
  int n = count && args[0] > 0 ? args[0] : 1;
  DWORD done;
  switch (final) {
    case 'A': /* cursor up */
      at.Y = (SHORT)(at.Y - n < 0 ? 0 : at.Y - n);
      SetConsoleCursorPosition(d->out, at);
      break;
    case 'C': /* cursor right */
      at.X = (SHORT)(at.X + n >= info.dwSize.X ? info.dwSize.X - 1 : at.X + n);
      SetConsoleCursorPosition(d->out, at);
      break;
    case 'J': { /* clear to the end of the window */
      int bottom = info.srWindow.Bottom > at.Y ? info.srWindow.Bottom : at.Y;
      DWORD cells = (DWORD)(info.dwSize.X - at.X) + (DWORD)info.dwSize.X * (DWORD)(bottom - at.Y);
      FillConsoleOutputCharacterW(d->out, L' ', cells, at, &done);
      FillConsoleOutputAttribute(d->out, d->plain, cells, at, &done);
      break;
    }
    case 'm':
      if (!private) sgr(d, args, count);
      break;
    case 'h':
    case 'l':
      if (private && count && args[0] == 25) { /* the cursor shown or hidden */
        CONSOLE_CURSOR_INFO cursor;
        if (GetConsoleCursorInfo(d->out, &cursor)) {
          cursor.bVisible = final == 'h';
          SetConsoleCursorInfo(d->out, &cursor);
        }
      }
      break; /* bracketed paste (2004): the key records say what is pasted (see above) */
    default: break;
  }
}

/* The runner's output drawn with the console's functions: text through WriteConsoleW, the
 * control sequences as cursor moves, fills and attributes; strings (OSC: the desktop notice,
 * APC) dropped. The state carries across writes. */
static long emulated_write(qt_term *d, const char *s, size_t n) {
  size_t take = chunk(s, n), text = 0;
  for (size_t i = 0; i < take; i++) {
    unsigned char c = (unsigned char)s[i];
    if (d->esc == ESC_NONE) {
      if (c != 0x1b) continue;
      if (!write_text(d, s + text, i - text)) return -1;
      d->esc = ESC_START;
    } else if (d->esc == ESC_START) {
      d->params_len = 0;
      d->esc = c == '[' ? ESC_CSI : (c == ']' || c == '_' || c == 'P' || c == '^') ? ESC_STRING : ESC_NONE;
    } else if (d->esc == ESC_CSI) {
      if (c >= 0x40 && c <= 0x7e) {
        csi(d, (char)c);
        d->esc = ESC_NONE;
      } else if (d->params_len < sizeof d->params - 1) {
        d->params[d->params_len++] = (char)c;
      }
    } else if (d->esc == ESC_STRING) {
      if (c == 0x07)
        d->esc = ESC_NONE;
      else if (c == 0x1b)
        d->esc = ESC_STRING_END;
    } else { /* ESC_STRING_END: ESC \ ends the string */
      d->esc = c == '\\' ? ESC_NONE : ESC_STRING;
    }
    text = i + 1;
  }
  if (d->esc == ESC_NONE && !write_text(d, s + text, take - text)) return -1;
  return (long)take;
}

#ifdef QT_TERM_TEST_HOOKS
/* The console harness's only (tests/native-win32-tty.c): draw through the VT path (or not)
 * whatever the console does; returns what was used before. Wine's console prints VT sequences as characters, so the cells then hold the very
 * text that path wrote: the path Windows 10 and later take is checked byte for byte there. */
bool qt_term_test_use_vt(qt_term *d, bool vt);
bool qt_term_test_use_vt(qt_term *d, bool vt) {
  bool was = !d->emulate;
  d->emulate = !vt;
  return was; /* the harness puts it back */
}
#endif

/* The control handler may write (the runner putting the console back) while the run's thread
 * does: only one of them drives the escape-sequence state; the other's write takes nothing now
 * (the handler, which never waits, then drops its text and only restores the modes). */
long qt_term_write(qt_term *d, const char *s, size_t n) {
  if (d->emulate) {
    if (atomic_flag_test_and_set(&d->drawing)) return 0;
    long r = emulated_write(d, s, n);
    atomic_flag_clear(&d->drawing);
    return r;
  }
  size_t take = chunk(s, n);
  return write_text(d, s, take) ? (long)take : -1;
}

/* ---- modes ------------------------------------------------------------------------------------ */
qt_status qt_term_save(qt_term *d) {
  return GetConsoleMode(d->in, &d->saved_in) && GetConsoleMode(d->out, &d->saved_out) ? QT_OK : QT_ERR_STATE;
}

qt_status qt_term_raw(qt_term *d) {
  DWORD in = (d->saved_in & ~(DWORD)(ENABLE_LINE_INPUT | ENABLE_ECHO_INPUT | ENABLE_PROCESSED_INPUT |
                                     ENABLE_MOUSE_INPUT | ENABLE_VIRTUAL_TERMINAL_INPUT)) |
             ENABLE_WINDOW_INPUT;
  /* Quick Edit off (see the top); only where the console reports it with ENABLE_EXTENDED_FLAGS,
   * so that putting the saved mode back turns it on again. */
  if (d->saved_in & ENABLE_EXTENDED_FLAGS) in = (in | ENABLE_EXTENDED_FLAGS) & ~(DWORD)ENABLE_QUICK_EDIT_MODE;
  DWORD out = d->saved_out | ENABLE_PROCESSED_OUTPUT | ENABLE_VIRTUAL_TERMINAL_PROCESSING;
  FlushConsoleInputBuffer(d->in);
  d->queued = d->queue_at = 0;
  d->high = 0;
  d->resized = false;
  if (!SetConsoleMode(d->in, in)) return QT_ERR_STATE;
  CONSOLE_SCREEN_BUFFER_INFO info;
  d->plain = GetConsoleScreenBufferInfo(d->out, &info) ? info.wAttributes
                                                       : (FOREGROUND_RED | FOREGROUND_GREEN | FOREGROUND_BLUE);
  d->fg = d->bg = -1;
  d->bold = d->reverse = false;
  d->esc = ESC_NONE;
  /* The runner writes \r\n itself: no newline of the console's own where it can be turned off. */
  d->emulate =
      !(SetConsoleMode(d->out, out | DISABLE_NEWLINE_AUTO_RETURN) || SetConsoleMode(d->out, out)) || !vt_interpreted(d);
  /* Emulated: no wrap at the last column (see the top). */
  if (d->emulate &&
      !SetConsoleMode(d->out, (d->saved_out | ENABLE_PROCESSED_OUTPUT) &
                                  ~(DWORD)(ENABLE_VIRTUAL_TERMINAL_PROCESSING | ENABLE_WRAP_AT_EOL_OUTPUT))) {
    SetConsoleMode(d->in, d->saved_in);
    SetConsoleMode(d->out, d->saved_out); /* VT output may have been set above */
    return QT_ERR_STATE;
  }
  return QT_OK;
}

/* From any thread (the control handler's too). */
void qt_term_restore(qt_term *d) {
  FlushConsoleInputBuffer(d->in);
  SetConsoleMode(d->in, d->saved_in);
  SetConsoleMode(d->out, d->saved_out);
  if (d->emulate) {
    SetConsoleTextAttribute(d->out, d->plain);
    CONSOLE_CURSOR_INFO cursor;
    if (GetConsoleCursorInfo(d->out, &cursor) && !cursor.bVisible) {
      cursor.bVisible = TRUE;
      SetConsoleCursorInfo(d->out, &cursor);
    }
  }
}

int qt_term_editor_begin(qt_term *d) {
  (void)d;
  return 0; /* external_edit.c: the editor gets the console itself */
}

void qt_term_editor_end(qt_term *d) { (void)d; }

/* ---- waiting ---------------------------------------------------------------------------------- */
void qt_term_wake(qt_term *d) { SetEvent(d->wake); }

void qt_term_drain(qt_term *d) { ResetEvent(d->wake); }

static bool woken(qt_term *d) { return WaitForSingleObject(d->wake, 0) == WAIT_OBJECT_0; }

static bool size_changed(qt_term *d) {
  CONSOLE_SCREEN_BUFFER_INFO info;
  if (!GetConsoleScreenBufferInfo(d->out, &info)) return false;
  return info.srWindow.Right - info.srWindow.Left + 1 != d->cols ||
         info.srWindow.Bottom - info.srWindow.Top + 1 != d->rows;
}

int qt_term_wait(qt_term *d, bool out, bool watch_wake, int ms) {
  int wake = watch_wake && woken(d) ? QT_TERM_WOKEN : 0;
  if (out || d->queued > d->queue_at) return QT_TERM_READY | wake;
  if (wake) return wake;
  if (d->resized) {
    d->resized = false;
    return QT_TERM_RESIZED;
  }
  ULONGLONG start = GetTickCount64();
  HANDLE handles[2] = {d->in, d->wake};
  for (;;) {
    DWORD slice = 100;
    if (ms >= 0) {
      ULONGLONG spent = GetTickCount64() - start;
      if (spent >= (ULONGLONG)ms)
        slice = 0;
      else if ((ULONGLONG)ms - spent < slice)
        slice = (DWORD)((ULONGLONG)ms - spent);
    }
    DWORD r = WaitForMultipleObjects(watch_wake ? 2 : 1, handles, FALSE, slice);
    if (r == WAIT_OBJECT_0) return QT_TERM_READY | (watch_wake && woken(d) ? QT_TERM_WOKEN : 0);
    if (r == WAIT_OBJECT_0 + 1) return QT_TERM_WOKEN;
    if (r != WAIT_TIMEOUT) return -1;
    if (size_changed(d)) return QT_TERM_RESIZED;
    if (ms >= 0 && GetTickCount64() - start >= (ULONGLONG)ms) return 0;
  }
}

/* ---- reading: key records to VT bytes -------------------------------------------------------- */
/* Bytes in the queue, unread ones at most QUEUE_MAX - PASTE_END_LEN (a paste's end always fits):
 * what does not fit is dropped, as a terminal's full input buffer drops keys, with everything
 * after it in this read but a paste's end (no gap inside what is typed), and the read stops
 * taking records from the console. */
#define PASTE_END     "\x1b[201~"
#define PASTE_END_LEN (sizeof PASTE_END - 1)
static void put_within(qt_term *d, const char *s, size_t n, size_t bound) {
  if ((d->full && bound < QUEUE_MAX) || d->queued - d->queue_at + n > bound) {
    d->full = true;
    return;
  }
  if (d->queue_at && d->queued + n > d->queue_cap) { /* room at the front first */
    memmove(d->queue, d->queue + d->queue_at, d->queued - d->queue_at);
    d->queued -= d->queue_at;
    d->queue_at = 0;
  }
  if (d->queued + n > d->queue_cap) {
    size_t cap = d->queue_cap ? d->queue_cap : 256;
    while (cap < d->queued + n) cap *= 2;
    char *q = realloc(d->queue, cap);
    if (!q) return; /* out of memory: the key is lost, nothing else */
    d->queue = q;
    d->queue_cap = cap;
  }
  memcpy(d->queue + d->queued, s, n);
  d->queued += n;
}

static void put(qt_term *d, const char *s, size_t n) { put_within(d, s, n, QUEUE_MAX - PASTE_END_LEN); }

static void put_str(qt_term *d, const char *s) { put(d, s, strlen(s)); }

/* One UTF-16 unit of text: a high surrogate waits for its low half. */
static void put_unit(qt_term *d, WCHAR c, bool alt) {
  if (c >= 0xD800 && c <= 0xDBFF) {
    d->high = c;
    return;
  }
  WCHAR pair[2];
  int units = 0;
  if (c >= 0xDC00 && c <= 0xDFFF) {
    if (!d->high) return; /* a lone low half: nothing to type */
    pair[units++] = d->high;
  }
  d->high = 0;
  pair[units++] = c;
  char utf8[8];
  int n = WideCharToMultiByte(CP_UTF8, 0, pair, units, utf8, sizeof utf8, NULL, NULL);
  if (n <= 0) return;
  if (alt) put(d, "\x1b", 1);
  put(d, utf8, (size_t)n);
}

/* The xterm modifier parameter: 1 + Shift 1 + Alt 2 + Ctrl 4. */
static int modifier(bool shift, bool alt, bool ctrl) { return 1 + (shift ? 1 : 0) + (alt ? 2 : 0) + (ctrl ? 4 : 0); }

/* A key with no text of its own: its xterm sequence. False when it is not one of them. */
static bool put_special(qt_term *d, WORD vk, int mod) {
  char seq[24];
  const char *letter = NULL;
  int tilde = 0;
  switch (vk) {
    case VK_UP: letter = "A"; break;
    case VK_DOWN: letter = "B"; break;
    case VK_RIGHT: letter = "C"; break;
    case VK_LEFT: letter = "D"; break;
    case VK_HOME: letter = "H"; break;
    case VK_END: letter = "F"; break;
    case VK_F1: letter = "P"; break;
    case VK_F2: letter = "Q"; break;
    case VK_F3: letter = "R"; break;
    case VK_F4: letter = "S"; break;
    case VK_INSERT: tilde = 2; break;
    case VK_DELETE: tilde = 3; break;
    case VK_PRIOR: tilde = 5; break;
    case VK_NEXT: tilde = 6; break;
    case VK_F5: tilde = 15; break;
    case VK_F6: tilde = 17; break;
    case VK_F7: tilde = 18; break;
    case VK_F8: tilde = 19; break;
    case VK_F9: tilde = 20; break;
    case VK_F10: tilde = 21; break;
    case VK_F11: tilde = 23; break;
    case VK_F12: tilde = 24; break;
    default: return false;
  }
  bool f1_4 = vk >= VK_F1 && vk <= VK_F4;
  if (letter && mod == 1)
    snprintf(seq, sizeof seq, f1_4 ? "\x1bO%s" : "\x1b[%s", letter);
  else if (letter)
    snprintf(seq, sizeof seq, "\x1b[1;%d%s", mod, letter);
  else if (mod == 1)
    snprintf(seq, sizeof seq, "\x1b[%d~", tilde);
  else
    snprintf(seq, sizeof seq, "\x1b[%d;%d~", tilde, mod);
  put_str(d, seq);
  return true;
}

/* One key press (repeated as the record says). */
static void put_key(qt_term *d, const KEY_EVENT_RECORD *k) {
  DWORD st = k->dwControlKeyState;
  WORD vk = k->wVirtualKeyCode;
  WCHAR c = k->uChar.UnicodeChar;
  bool shift = st & SHIFT_PRESSED, alt = st & (LEFT_ALT_PRESSED | RIGHT_ALT_PRESSED),
       ctrl = st & (LEFT_CTRL_PRESSED | RIGHT_CTRL_PRESSED);
  /* AltGr is Ctrl+Alt to the console: a character it types is just that character. */
  if (alt && ctrl && c >= 0x20) alt = ctrl = false;
  int mod = modifier(shift, alt, ctrl);
  for (WORD i = 0; i < (k->wRepeatCount ? k->wRepeatCount : 1) && !d->full; i++) {
    if (vk == VK_BACK)
      put_str(d, alt ? (ctrl ? "\x1b\x08" : "\x1b\x7f") : ctrl ? "\x08" : "\x7f");
    else if (vk == VK_TAB && shift)
      put_str(d, "\x1b[Z");
    else if (vk == VK_RETURN && (shift || ctrl)) {
      char seq[24];
      snprintf(seq, sizeof seq, "\x1b[27;%d;13~", mod);
      put_str(d, seq);
    } else if (vk == VK_RETURN)
      put_str(d, alt ? "\x1b\r" : "\r");
    else if (vk == VK_SPACE && ctrl && !shift)
      put(d, alt ? "\x1b\0" : "\0", alt ? 2 : 1);
    else if (vk == VK_ESCAPE)
      put_str(d, alt ? "\x1b\x1b" : "\x1b"); /* with or without its character (Wine sends none) */
    else if (c)
      put_unit(d, c, alt);
    else if (put_special(d, vk, mod)) {
    } else if (ctrl && vk >= 'A' && vk <= 'Z') {
      char code[2] = {'\x1b', (char)(vk - 'A' + 1)};
      put(d, alt ? code : code + 1, alt ? 2 : 1);
    } else
      return; /* a modifier alone, or a key that types nothing */
  }
}

/* Whether a key record types text (a character or a line break) rather than moving or editing. */
static bool text_key(const INPUT_RECORD *r) {
  if (r->EventType != KEY_EVENT || !r->Event.KeyEvent.bKeyDown) return false;
  const KEY_EVENT_RECORD *k = &r->Event.KeyEvent;
  if (k->dwControlKeyState & (LEFT_CTRL_PRESSED | RIGHT_CTRL_PRESSED | LEFT_ALT_PRESSED | RIGHT_ALT_PRESSED))
    return k->uChar.UnicodeChar >= 0x20 && (k->dwControlKeyState & (LEFT_ALT_PRESSED | RIGHT_ALT_PRESSED)) &&
           (k->dwControlKeyState & (LEFT_CTRL_PRESSED | RIGHT_CTRL_PRESSED)); /* AltGr */
  return k->wVirtualKeyCode == VK_RETURN || k->wVirtualKeyCode == VK_TAB || k->uChar.UnicodeChar >= 0x20;
}

/* A paste: text keys that arrived together, with a line break followed by more text. */
static bool looks_pasted(const INPUT_RECORD *r, DWORD n) {
  bool line_break = false;
  for (DWORD i = 0; i < n; i++) {
    if (r[i].EventType != KEY_EVENT || !r[i].Event.KeyEvent.bKeyDown) continue;
    if (!text_key(&r[i])) return false;
    if (r[i].Event.KeyEvent.wVirtualKeyCode == VK_RETURN)
      line_break = true;
    else if (line_break)
      return true;
  }
  return false;
}

static void put_records(qt_term *d, const INPUT_RECORD *r, DWORD n) {
  bool paste = looks_pasted(r, n);
  if (paste) {
    put_str(d, "\x1b[200~");
    paste = !d->full; /* no room even for its start: all of it is dropped */
  }
  for (DWORD i = 0; i < n && !d->full; i++) { /* full: the size is polled anyway */
    if (r[i].EventType == WINDOW_BUFFER_SIZE_EVENT) d->resized = true;
    if (r[i].EventType != KEY_EVENT) continue;
    const KEY_EVENT_RECORD *k = &r[i].Event.KeyEvent;
    if (paste) {
      if (k->bKeyDown) put_unit(d, k->wVirtualKeyCode == VK_RETURN ? L'\r' : k->uChar.UnicodeChar, false);
    } else if (k->bKeyDown) {
      put_key(d, k);
    } else if (k->wVirtualKeyCode == VK_MENU && k->uChar.UnicodeChar) {
      put_unit(d, k->uChar.UnicodeChar, false); /* Alt+numpad: the character comes with Alt's release */
    }
  }
  if (paste) put_within(d, PASTE_END, PASTE_END_LEN, QUEUE_MAX);
}

long qt_term_read(qt_term *d, char *buf, size_t n) {
  if (d->queue_at == d->queued) d->queued = d->queue_at = 0;
  d->full = false;
  /* Everything the console has now, in one piece (a paste arrives at once and is judged whole),
   * unless RECORDS_MAX records or QUEUE_MAX bytes are waiting already. */
  while (!d->full && d->queued - d->queue_at < QUEUE_MAX - PASTE_END_LEN) {
    DWORD available = 0, got = 0;
    if (!GetNumberOfConsoleInputEvents(d->in, &available)) return d->queued > d->queue_at ? 0 : -1;
    if (!available) break;
    if (available > RECORDS_MAX) available = RECORDS_MAX;
    if (available > d->records_cap) {
      INPUT_RECORD *r = realloc(d->records, available * sizeof *r);
      if (!r) {
        if (!d->records_cap) return 0; /* out of memory: the input waits in the console */
        available = d->records_cap;
      } else {
        d->records = r;
        d->records_cap = available;
      }
    }
    if (!ReadConsoleInputW(d->in, d->records, available, &got)) return -1;
    if (!got) break;
    put_records(d, d->records, got);
  }
  size_t have = d->queued - d->queue_at;
  size_t take = have < n ? have : n;
  memcpy(buf, d->queue + d->queue_at, take);
  d->queue_at += take;
  return (long)take;
}

/* ---- control events ------------------------------------------------------------------------- */
static _Atomic(const qt_term_hooks *) hooks;

static BOOL WINAPI on_control(DWORD event) {
  const qt_term_hooks *h = atomic_load(&hooks);
  if (!h) return FALSE;
  if (event == CTRL_C_EVENT || event == CTRL_BREAK_EVENT) return h->terminate(false, false) ? FALSE : TRUE;
  h->terminate(true, false); /* close, logoff, shutdown: the process ends after this */
  return FALSE;
}

void qt_term_signals_install(const qt_term_hooks *h) {
  atomic_store(&hooks, h);
  SetConsoleCtrlHandler(on_control, TRUE);
}

void qt_term_signals_remove(void) {
  SetConsoleCtrlHandler(on_control, FALSE);
  atomic_store(&hooks, NULL);
}

/* ---- clock -------------------------------------------------------------------------------------- */
int64_t qt_term_clock_ms(void) { return (int64_t)GetTickCount64(); }

void qt_term_sleep_ms(int ms) { Sleep((DWORD)ms); }

int qt_term_exit_wait_ms(void) { return 0; }
