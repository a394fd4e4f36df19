/* native-win32-tty.c — the Windows console device (native/os/win32/tty.c, qt_term.h) on a real
 * console: built with mingw-w64 and run by tests/win32-tty.test.mjs under Wine in a tmux pane
 * (Wine gives a program a console when its terminal is one). It puts key records into the
 * console's input (WriteConsoleInputW) and checks the bytes qt_term_read makes of them — the
 * sequences an xterm sends, which keys.c decodes — and checks the modes set and put back, the
 * ownership rule, the wake, the size and what drawing leaves in the console's cells (the same
 * whether the console interprets VT output or the device draws with console functions).
 *
 * Prints one line per check on stdout (a file: stderr stays on the pane, which Wine needs to
 * give the console): "ok <name>" or "not ok <name> -- <what>", then "done <n> failure(s)". */
#ifndef _WIN32_WINNT
#define _WIN32_WINNT 0x0A00
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "qt_term.h"

static int failures;

static void report(const char *name, bool ok, const char *fmt, ...) {
  if (ok) {
    printf("ok %s\n", name);
  } else {
    failures++;
    printf("not ok %s -- ", name);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
  }
  fflush(stdout);
}

/* The bytes as C escapes, for a failure's detail. */
static const char *shown(const char *s, size_t n) {
  static char out[4][512];
  static int which;
  char *o = out[which++ % 4];
  size_t at = 0;
  for (size_t i = 0; i < n && at + 5 < sizeof out[0]; i++) {
    unsigned char c = (unsigned char)s[i];
    at += (size_t)snprintf(o + at, sizeof out[0] - at, c >= 0x20 && c < 0x7f && c != '\\' ? "%c" : "\\x%02x", c);
  }
  o[at] = 0;
  return o;
}

static HANDLE in_handle, out_handle;

/* A key record: down or up, its virtual key, its character, its modifier flags. */
static INPUT_RECORD key(bool down, WORD vk, WCHAR c, DWORD state, WORD repeat) {
  INPUT_RECORD r;
  memset(&r, 0, sizeof r);
  r.EventType = KEY_EVENT;
  r.Event.KeyEvent.bKeyDown = down;
  r.Event.KeyEvent.wRepeatCount = repeat;
  r.Event.KeyEvent.wVirtualKeyCode = vk;
  r.Event.KeyEvent.uChar.UnicodeChar = c;
  r.Event.KeyEvent.dwControlKeyState = state;
  return r;
}

/* Everything the device makes of the input queued now (waiting up to a second for the first). */
static size_t read_all(qt_term *d, char *buf, size_t cap) {
  size_t len = 0;
  int r = qt_term_wait(d, false, false, 1000);
  while (r > 0 && (r & QT_TERM_READY) && len < cap) {
    long got = qt_term_read(d, buf + len, cap - len);
    if (got <= 0) break;
    len += (size_t)got;
    r = qt_term_wait(d, false, false, 0);
  }
  return len;
}

/* Writes `n` records and checks the bytes read back. */
static void expect_records(qt_term *d, const char *name, const INPUT_RECORD *records, DWORD n, const char *want,
                           size_t want_len) {
  DWORD written = 0;
  if (!WriteConsoleInputW(in_handle, records, n, &written)) {
    report(name, false, "WriteConsoleInputW failed (%lu)", (unsigned long)GetLastError());
    return;
  }
  char buf[256];
  size_t len = read_all(d, buf, sizeof buf);
  report(name, len == want_len && memcmp(buf, want, len) == 0, "read \"%s\", want \"%s\"", shown(buf, len),
         shown(want, want_len));
}

/* One key pressed and released. */
static void expect_key(qt_term *d, const char *name, WORD vk, WCHAR c, DWORD state, const char *want) {
  INPUT_RECORD r[2] = {key(true, vk, c, state, 1), key(false, vk, c, state, 1)};
  expect_records(d, name, r, 2, want, strlen(want));
}

#define SHIFT SHIFT_PRESSED
#define CTRL  LEFT_CTRL_PRESSED
#define ALT   LEFT_ALT_PRESSED

static void check_keys(qt_term *d) {
  expect_key(d, "keys: Up", VK_UP, 0, 0, "\x1b[A");
  expect_key(d, "keys: Down", VK_DOWN, 0, 0, "\x1b[B");
  expect_key(d, "keys: Right", VK_RIGHT, 0, 0, "\x1b[C");
  expect_key(d, "keys: Left", VK_LEFT, 0, 0, "\x1b[D");
  expect_key(d, "keys: Home", VK_HOME, 0, 0, "\x1b[H");
  expect_key(d, "keys: End", VK_END, 0, 0, "\x1b[F");
  expect_key(d, "keys: Page Up", VK_PRIOR, 0, 0, "\x1b[5~");
  expect_key(d, "keys: Page Down", VK_NEXT, 0, 0, "\x1b[6~");
  expect_key(d, "keys: Insert", VK_INSERT, 0, 0, "\x1b[2~");
  expect_key(d, "keys: Delete", VK_DELETE, 0, 0, "\x1b[3~");
  expect_key(d, "keys: F1", VK_F1, 0, 0, "\x1bOP");
  expect_key(d, "keys: F5", VK_F5, 0, 0, "\x1b[15~");
  expect_key(d, "keys: F12", VK_F12, 0, 0, "\x1b[24~");
  expect_key(d, "keys: Shift+Up", VK_UP, 0, SHIFT, "\x1b[1;2A");
  expect_key(d, "keys: Ctrl+Right", VK_RIGHT, 0, CTRL, "\x1b[1;5C");
  expect_key(d, "keys: Alt+Delete", VK_DELETE, 0, ALT, "\x1b[3;3~");
  expect_key(d, "keys: Ctrl+Shift+F1", VK_F1, 0, CTRL | SHIFT, "\x1b[1;6P");
  expect_key(d, "keys: Enter", VK_RETURN, L'\r', 0, "\r");
  expect_key(d, "keys: Shift+Enter (modifyOtherKeys)", VK_RETURN, L'\r', SHIFT, "\x1b[27;2;13~");
  expect_key(d, "keys: Alt+Enter", VK_RETURN, L'\r', ALT, "\x1b\r");
  expect_key(d, "keys: Tab", VK_TAB, L'\t', 0, "\t");
  expect_key(d, "keys: Shift+Tab", VK_TAB, L'\t', SHIFT, "\x1b[Z");
  expect_key(d, "keys: Backspace is DEL", VK_BACK, 0x08, 0, "\x7f");
  expect_key(d, "keys: Ctrl+Backspace", VK_BACK, 0x7f, CTRL, "\x08");
  expect_key(d, "keys: Alt+Backspace", VK_BACK, 0x08, ALT, "\x1b\x7f");
  expect_key(d, "keys: Esc", VK_ESCAPE, 0x1b, 0, "\x1b");
  expect_key(d, "keys: Esc without a character (Wine's console sends none)", VK_ESCAPE, 0, 0, "\x1b");
  expect_key(d, "keys: Ctrl+C (a key, processed input off)", 'C', 0x03, CTRL, "\x03");
  expect_key(d, "keys: Ctrl+G", 'G', 0x07, CTRL, "\x07");
  expect_key(d, "keys: Ctrl+letter without a character", 'D', 0, CTRL, "\x04");
  expect_key(d, "keys: Alt+x", 'X', L'x', ALT, "\x1bx");
  expect_key(d, "keys: Alt+Shift+x", 'X', L'X', ALT | SHIFT, "\x1bX");
  expect_key(d, "keys: AltGr+Q types its character (@)", 'Q', L'@', RIGHT_ALT_PRESSED | LEFT_CTRL_PRESSED, "@");
  expect_key(d, "keys: a letter", 'A', L'a', 0, "a");
  expect_key(d, "keys: e acute as UTF-8", 0, 0x00E9, 0, "\xc3\xa9");
  expect_key(d, "keys: a CJK character as UTF-8", 0, 0x4E2D, 0, "\xe4\xb8\xad");
  expect_key(d, "keys: Shift alone types nothing", VK_SHIFT, 0, SHIFT, "");
  {
    INPUT_RECORD r[4] = {key(true, 0, 0xD83D, 0, 1), key(true, 0, 0xDE00, 0, 1), key(false, 0, 0xDE00, 0, 1),
                         key(false, 0, 0, 0, 1)};
    expect_records(d, "keys: a surrogate pair across two records (U+1F600)", r, 4, "\xf0\x9f\x98\x80", 4);
  }
  {
    INPUT_RECORD r[1] = {key(true, 'A', L'a', 0, 3)};
    expect_records(d, "keys: a repeat count of 3", r, 1, "aaa", 3);
  }
  {
    INPUT_RECORD r[3] = {key(true, VK_MENU, 0, ALT, 1), key(true, VK_NUMPAD1, 0, ALT, 1),
                         key(false, VK_MENU, 0x00FC, 0, 1)};
    expect_records(d, "keys: Alt+numpad's character comes with Alt's release", r, 3, "\xc3\xbc", 2);
  }
  {
    INPUT_RECORD r[10] = {key(true, 'A', L'a', 0, 1),        key(false, 'A', L'a', 0, 1),
                          key(true, 'B', L'b', 0, 1),        key(false, 'B', L'b', 0, 1),
                          key(true, VK_RETURN, L'\r', 0, 1), key(false, VK_RETURN, L'\r', 0, 1),
                          key(true, 'C', L'C', SHIFT, 1),    key(false, 'C', L'C', 0, 1),
                          key(true, 0, 0x00E9, 0, 1),        key(false, 0, 0x00E9, 0, 1)};
    static const char want[] = "\x1b[200~ab\rC\xc3\xa9\x1b[201~";
    expect_records(d, "keys: text with a line break and more text at once is a bracketed paste", r, 10, want,
                   sizeof want - 1);
  }
  {
    /* 300 lines: far more records than one small read would take, judged as one paste */
    static INPUT_RECORD r[300 * 6 + 6];
    static char want[6 + 300 * 3 + 3 + 6 + 1];
    DWORD n = 0;
    size_t w = 0;
    memcpy(want, "\x1b[200~", 6);
    w = 6;
    for (int i = 0; i < 300; i++) {
      r[n++] = key(true, 'A', L'a', 0, 1), r[n++] = key(false, 'A', L'a', 0, 1);
      r[n++] = key(true, 'B', L'b', 0, 1), r[n++] = key(false, 'B', L'b', 0, 1);
      r[n++] = key(true, VK_RETURN, L'\r', 0, 1), r[n++] = key(false, VK_RETURN, L'\r', 0, 1);
      memcpy(want + w, "ab\r", 3);
      w += 3;
    }
    for (const char *t = "end"; *t; t++)
      r[n++] = key(true, 0, (WCHAR)*t, 0, 1), r[n++] = key(false, 0, (WCHAR)*t, 0, 1);
    memcpy(want + w, "end\x1b[201~", 9);
    w += 9;
    DWORD written = 0;
    char buf[2048];
    size_t len = 0;
    if (WriteConsoleInputW(in_handle, r, n, &written)) len = read_all(d, buf, sizeof buf);
    report("keys: a long multi-line paste (1806 records) is one bracketed paste", len == w && memcmp(buf, want, w) == 0,
           "read %zu bytes (want %zu): \"%s\"", len, w, shown(buf, len < 60 ? len : 60));
  }
  {
    INPUT_RECORD r[4] = {key(true, 'A', L'a', 0, 1), key(true, 'B', L'b', 0, 1), key(true, VK_RETURN, L'\r', 0, 1),
                         key(false, VK_RETURN, L'\r', 0, 1)};
    expect_records(d, "keys: text ending in Enter is typed, not pasted", r, 4, "ab\r", 3);
  }
  {
    INPUT_RECORD r[2] = {key(true, 'A', L'a', 0, 1), key(true, VK_UP, 0, 0, 1)};
    expect_records(d, "keys: text with a key that is not text is typed", r, 2, "a\x1b[A", 4);
  }
  {
    INPUT_RECORD r;
    memset(&r, 0, sizeof r);
    r.EventType = WINDOW_BUFFER_SIZE_EVENT;
    DWORD written = 0;
    WriteConsoleInputW(in_handle, &r, 1, &written);
    int w = qt_term_wait(d, false, false, 1000);
    char buf[16];
    long got = (w & QT_TERM_READY) ? qt_term_read(d, buf, sizeof buf) : -2;
    int after = qt_term_wait(d, false, false, 0);
    report("keys: a window-size record reads as nothing and the next wait says resized",
           got == 0 && (after & QT_TERM_RESIZED), "read %ld, then wait %d", got, after);
  }
}

/* Key records that would make far more bytes than the device's queue holds (QUEUE_MAX, 1 MiB):
 * 20 records of a key repeated 65535 times (1.3 MB); what is read stays within the bound, and
 * the next key is read as usual. */
static void check_queue_bound(qt_term *d) {
  static INPUT_RECORD r[20];
  for (int i = 0; i < 20; i++) r[i] = key(true, 'A', L'a', 0, 65535);
  DWORD written = 0;
  size_t total = 0;
  bool only_a = true;
  if (WriteConsoleInputW(in_handle, r, 20, &written)) {
    static char buf[65536];
    int w = qt_term_wait(d, false, false, 1000);
    while (w > 0 && (w & QT_TERM_READY)) {
      long got = qt_term_read(d, buf, sizeof buf);
      if (got <= 0) break;
      for (long i = 0; i < got; i++) only_a = only_a && buf[i] == 'a';
      total += (size_t)got;
      w = qt_term_wait(d, false, false, 0);
    }
  }
  report("keys: repeat counts cannot grow the queue past its bound (1 MiB)",
         written == 20 && total > 0 && total <= 1024 * 1024 && only_a, "wrote %lu records, read %zu bytes%s",
         (unsigned long)written, total, only_a ? "" : " (not all 'a')");
  expect_key(d, "keys: a key after the queue was full", 'B', L'b', 0, "b");
}

/* The characters of `n` cells from (x, y), as UTF-8. */
static bool cells_are(SHORT x, SHORT y, const wchar_t *want) {
  wchar_t got[64];
  DWORD n = (DWORD)wcslen(want), read = 0;
  COORD at = {x, y};
  return n < 64 && ReadConsoleOutputCharacterW(out_handle, got, n, at, &read) && read == n &&
         wmemcmp(got, want, n) == 0;
}

static COORD cursor(void) {
  CONSOLE_SCREEN_BUFFER_INFO info;
  COORD none = {-1, -1};
  return GetConsoleScreenBufferInfo(out_handle, &info) ? info.dwCursorPosition : none;
}

static bool write_all(qt_term *d, const char *s) {
  size_t n = strlen(s);
  while (n) {
    long w = qt_term_write(d, s, n);
    if (w <= 0) return false;
    s += w;
    n -= (size_t)w;
  }
  return true;
}

static void check_drawing(qt_term *d) {
  /* From the window's top-left corner, on a cleared window. */
  CONSOLE_SCREEN_BUFFER_INFO info;
  GetConsoleScreenBufferInfo(out_handle, &info);
  COORD home = {0, info.srWindow.Top};
  SetConsoleCursorPosition(out_handle, home);
  bool ok = write_all(d, "\r\x1b[J");
  COORD c = cursor();
  report("draw: \\r and clear to the end", ok && c.X == 0 && c.Y == home.Y && cells_are(0, home.Y, L"      "),
         "cursor %d,%d", c.X, c.Y);
  ok = write_all(d, "ab\x1b[31mc\x1b[39m");
  c = cursor();
  report("draw: a colour sequence takes no cell", ok && c.X == 3 && cells_are(0, home.Y, L"abc "), "cursor %d,%d", c.X,
         c.Y);
  WORD attr[3];
  DWORD got = 0;
  ReadConsoleOutputAttribute(out_handle, attr, 3, home, &got);
  report("draw: SGR 31 is the console's red, 39 the plain colour again",
         got == 3 && (attr[2] & 0x0F) == FOREGROUND_RED && (attr[0] & 0x0F) != FOREGROUND_RED, "attributes %x %x %x",
         attr[0], attr[1], attr[2]);
  ok = write_all(d, "\x1b[1;36mX\x1b[22;39m");
  COORD x_at = {3, home.Y};
  ReadConsoleOutputAttribute(out_handle, attr, 1, x_at, &got);
  report("draw: bold cyan is bright cyan",
         (attr[0] & 0x0F) == (FOREGROUND_GREEN | FOREGROUND_BLUE | FOREGROUND_INTENSITY), "attribute %x", attr[0]);
  ok = write_all(d, "\x1b]777;notify;title;body\x07\x1b_qt:c\x07");
  c = cursor();
  report("draw: an OSC or APC string takes no cell", ok && c.X == 4 && cells_are(0, home.Y, L"abcX "), "cursor %d,%d",
         c.X, c.Y);
  ok = write_all(d, "\r\nsecond\r\nthird\x1b[2A\r\x1b[5C");
  c = cursor();
  report("draw: \\r\\n, cursor up 2, column 0, right 5",
         ok && c.X == 5 && c.Y == home.Y && cells_are(0, (SHORT)(home.Y + 1), L"second") &&
             cells_are(0, (SHORT)(home.Y + 2), L"third"),
         "cursor %d,%d", c.X, c.Y);
  ok = write_all(d, "\x1b[J");
  report("draw: clear to the end from the middle of a row",
         ok && cells_are(0, home.Y, L"abcX ") && cells_are(0, (SHORT)(home.Y + 1), L"      "), "cells not cleared");
  ok = write_all(d, "\x1b[?25l");
  CONSOLE_CURSOR_INFO ci;
  report("draw: the cursor hidden", ok && GetConsoleCursorInfo(out_handle, &ci) && !ci.bVisible, "still visible");
  ok = write_all(d, "\x1b[?25h\x1b[?2004h\x1b[?2004l");
  c = cursor();
  report("draw: the cursor shown; bracketed paste on/off takes no cell",
         ok && GetConsoleCursorInfo(out_handle, &ci) && ci.bVisible && c.X == 5, "cursor %d,%d", c.X, c.Y);
  GetConsoleScreenBufferInfo(out_handle, &info);
  ok = write_all(d, "\r\x1b[4294967297C");
  c = cursor();
  report("draw: a parameter past int's range moves right to the last column (no overflow)",
         ok && c.X == info.dwSize.X - 1, "cursor %d,%d (want column %d)", c.X, c.Y, info.dwSize.X - 1);
  ok = write_all(d, "\r\x1b[J\xe4\xb8\xad\xc3\xa9\xe2\x94\x80");
  report("draw: UTF-8 text reaches the cells as UTF-16", ok && cells_are(0, home.Y, L"\x4e2d"),
         "no CJK character in the first cell");
  write_all(d, "\r\x1b[J");
}

bool qt_term_test_use_vt(qt_term *d, bool vt); /* tty.c, built with QT_TERM_TEST_HOOKS */

/* The VT path (Windows 10 and later), forced: Wine's console prints what it is given, so the
 * cells show exactly the text written — sequences untouched, UTF-8 as UTF-16, and a write longer
 * than one chunk (1024 bytes) never split inside a character. */
static void check_vt_output(qt_term *d) {
  CONSOLE_SCREEN_BUFFER_INFO info;
  GetConsoleScreenBufferInfo(out_handle, &info);
  COORD home = {0, info.srWindow.Top};
  DWORD out_mode = 0, done = 0;
  GetConsoleMode(out_handle, &out_mode);
  SetConsoleMode(out_handle, out_mode | ENABLE_WRAP_AT_EOL_OUTPUT); /* the long write wraps */
  SetConsoleCursorPosition(out_handle, home);
  bool was_vt = qt_term_test_use_vt(d, true);
  bool ok = write_all(d, "a\x1b[31mb\xc3\xa9\x1b[39m");
  report("vt: the text reaches the cells as written (sequences untouched, UTF-8 as UTF-16)",
         ok && cells_are(0, home.Y, L"a\x1b[31mb\xe9\x1b[39m "), "other cells");
  /* 1023 bytes, then a 2-byte character across the 1024-byte chunk, then two more. */
  static char longer[1100];
  memset(longer, 'x', 1023);
  memcpy(longer + 1023, "\xc3\xa9yz", 5);
  SetConsoleCursorPosition(out_handle, home);
  ok = write_all(d, longer);
  static wchar_t got[1100];
  DWORD read = 0;
  ReadConsoleOutputCharacterW(out_handle, got, 1026, home, &read);
  bool same = read == 1026 && got[1023] == 0xe9 && got[1024] == L'y' && got[1025] == L'z';
  for (int i = 0; same && i < 1023; i++) same = got[i] == L'x';
  report("vt: a write longer than a chunk is cut between characters, never inside one", ok && same,
         "read %lu cells; at 1023..1025: %04x %04x %04x", (unsigned long)read, (unsigned)got[1023], (unsigned)got[1024],
         (unsigned)got[1025]);
  FillConsoleOutputCharacterW(out_handle, L' ', (DWORD)info.dwSize.X * 16, home, &done);
  SetConsoleCursorPosition(out_handle, home);
  SetConsoleMode(out_handle, out_mode);
  qt_term_test_use_vt(d, was_vt); /* the restore checks below see the path this console uses */
}

int main(void) {
  in_handle = CreateFileW(L"CONIN$", GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                          OPEN_EXISTING, 0, NULL);
  out_handle = CreateFileW(L"CONOUT$", GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                           OPEN_EXISTING, 0, NULL);
  DWORD line = ENABLE_LINE_INPUT | ENABLE_ECHO_INPUT | ENABLE_PROCESSED_INPUT;
  report("console: CONIN$ and CONOUT$ open here",
         in_handle != INVALID_HANDLE_VALUE && out_handle != INVALID_HANDLE_VALUE, "no console");
  if (in_handle == INVALID_HANDLE_VALUE || out_handle == INVALID_HANDLE_VALUE) {
    printf("done %d failure(s)\n", failures);
    return 1;
  }
  /* Ownership: line input means a shell's console, free; raw input means another program's. */
  SetConsoleMode(in_handle, 0);
  qt_tty_access a = qt_term_probe("CONIN$");
  report("owner: input not in line mode is owned", a == QT_TTY_OWNED, "it said %d", (int)a);
  SetConsoleMode(in_handle, line);
  a = qt_term_probe("CONIN$");
  report("owner: input in line mode is free", a == QT_TTY_FREE, "it said %d", (int)a);
  report("owner: CONOUT$ is not console input", qt_term_probe("CONOUT$") == QT_TTY_ABSENT, "it was not absent");

  qt_term *d = NULL;
  qt_status st = qt_term_open("CONIN$", &d);
  report("open: CONIN$", st == QT_OK && d, "status %d", (int)st);
  if (!d) {
    printf("done %d failure(s)\n", failures);
    return 1;
  }
  int cols = 0, rows = 0;
  qt_term_size(d, &cols, &rows);
  CONSOLE_SCREEN_BUFFER_INFO info;
  GetConsoleScreenBufferInfo(out_handle, &info);
  report("size: the window's columns and rows",
         cols == info.srWindow.Right - info.srWindow.Left + 1 && rows == info.srWindow.Bottom - info.srWindow.Top + 1 &&
             cols > 1,
         "%dx%d", cols, rows);
  printf("# size %dx%d\n", cols, rows);
  DWORD out_before = 0, mode = 0;
  GetConsoleMode(out_handle, &out_before);
  st = qt_term_save(d);
  if (!st) st = qt_term_raw(d);
  GetConsoleMode(in_handle, &mode);
  report("raw: no line input, echo or processed input (Ctrl+C is a key); window events on",
         st == QT_OK && !(mode & (ENABLE_LINE_INPUT | ENABLE_ECHO_INPUT | ENABLE_PROCESSED_INPUT)) &&
             (mode & ENABLE_WINDOW_INPUT),
         "status %d, mode %lx", (int)st, (unsigned long)mode);
  report("raw: the device counts the console as owned while raw", qt_term_owner(d) == QT_TTY_OWNED, "it did not");

  check_keys(d);
  check_queue_bound(d);

  qt_term_wake(d);
  int w = qt_term_wait(d, false, true, 1000);
  report("wake: a wait that watches the wake returns at once", w > 0 && (w & QT_TERM_WOKEN), "wait %d", w);
  qt_term_drain(d);
  w = qt_term_wait(d, false, true, 150);
  report("wake: drained, a wait runs to its bound", w == 0, "wait %d", w);
  report("wake: output never waits for room", qt_term_wait(d, true, false, -1) & QT_TERM_READY, "it waited");

  check_drawing(d);
  check_vt_output(d);

  INPUT_RECORD typed[2] = {key(true, 'Z', L'z', 0, 1), key(false, 'Z', L'z', 0, 1)};
  DWORD written = 0;
  WriteConsoleInputW(in_handle, typed, 2, &written);
  qt_term_restore(d);
  DWORD out_after = 0, events = 1;
  GetConsoleMode(in_handle, &mode);
  GetConsoleMode(out_handle, &out_after);
  GetNumberOfConsoleInputEvents(in_handle, &events);
  report("restore: the input and output modes as they were, unread input dropped",
         mode == line && out_after == out_before && events == 0,
         "input %lx (want %lx), output %lx (want %lx), %lu events", (unsigned long)mode, (unsigned long)line,
         (unsigned long)out_after, (unsigned long)out_before, (unsigned long)events);
  report("restore: the console is free again", qt_term_owner(d) == QT_TTY_FREE, "it is not");

  /* Quick Edit (a mouse selection pauses the output and blocks a write): off while raw, and on
   * again afterwards, where the console reports it (ENABLE_EXTENDED_FLAGS). */
  DWORD quick = line | ENABLE_EXTENDED_FLAGS | ENABLE_QUICK_EDIT_MODE;
  SetConsoleMode(in_handle, quick);
  GetConsoleMode(in_handle, &mode);
  if (!(mode & ENABLE_QUICK_EDIT_MODE)) {
    printf("skip raw: Quick Edit off while raw -- this console does not keep the mode (%lx)\n", (unsigned long)mode);
  } else {
    quick = mode;
    st = qt_term_save(d);
    if (!st) st = qt_term_raw(d);
    GetConsoleMode(in_handle, &mode);
    report("raw: Quick Edit off while raw", st == QT_OK && !(mode & ENABLE_QUICK_EDIT_MODE), "status %d, mode %lx",
           (int)st, (unsigned long)mode);
    qt_term_restore(d);
    GetConsoleMode(in_handle, &mode);
    report("restore: Quick Edit on again", mode == quick, "mode %lx (want %lx)", (unsigned long)mode,
           (unsigned long)quick);
    SetConsoleMode(in_handle, line);
  }
  qt_term_close(d);
  printf("done %d failure(s)\n", failures);
  return failures > 100 ? 100 : failures;
}
