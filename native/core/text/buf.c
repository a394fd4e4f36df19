/* buf.c — the growable byte buffer of qt_text.h: doubles on growth, reports out-of-memory
 * through `failed` instead of dropping data. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qt_text.h"

void qt_buf_init(qt_buf *b) { memset(b, 0, sizeof *b); }

void qt_buf_free(qt_buf *b) {
  free(b->data);
  qt_buf_init(b);
}

void qt_buf_reset(qt_buf *b) {
  b->len = 0;
  b->failed = false;
  if (b->data) b->data[0] = '\0';
}

bool qt_buf_reserve(qt_buf *b, size_t extra) {
  if (b->failed) return false;
  if (extra > SIZE_MAX / 2 - b->len) {
    b->failed = true;
    return false;
  }
  size_t need = b->len + extra + 1;
  if (need <= b->cap) return true;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < need) cap *= 2;
  char *p = realloc(b->data, cap);
  if (!p) {
    b->failed = true;
    return false;
  }
  b->data = p;
  b->cap = cap;
  return true;
}

bool qt_buf_append(qt_buf *b, const char *s, size_t n) {
  if (!qt_buf_reserve(b, n)) return false;
  if (n) memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
  return true;
}

bool qt_buf_puts(qt_buf *b, const char *s) { return qt_buf_append(b, s, strlen(s)); }

bool qt_buf_putc(qt_buf *b, char c) { return qt_buf_append(b, &c, 1); }

bool qt_buf_printf(qt_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || !qt_buf_reserve(b, (size_t)n)) {
    if (n < 0) b->failed = true;
    return false;
  }
  va_start(ap, fmt);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
  return true;
}

bool qt_buf_put_cp(qt_buf *b, uint32_t cp) {
  char u[4];
  size_t n;
  if (cp < 0x80) {
    u[0] = (char)cp;
    n = 1;
  } else if (cp < 0x800) {
    u[0] = (char)(0xC0 | (cp >> 6));
    u[1] = (char)(0x80 | (cp & 0x3F));
    n = 2;
  } else if (cp < 0x10000) {
    u[0] = (char)(0xE0 | (cp >> 12));
    u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    u[2] = (char)(0x80 | (cp & 0x3F));
    n = 3;
  } else {
    u[0] = (char)(0xF0 | (cp >> 18));
    u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    u[3] = (char)(0x80 | (cp & 0x3F));
    n = 4;
  }
  return qt_buf_append(b, u, n);
}

char *qt_buf_take(qt_buf *b) {
  if (b->failed) return NULL;
  if (!b->data && !qt_buf_reserve(b, 0)) return NULL;
  char *p = b->data;
  qt_buf_init(b);
  return p;
}
