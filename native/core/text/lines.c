/* lines.c — finished lines and where text wraps (see lines.h): the one copy both renderers
 * use. */
#include "lines.h"

#include <stdlib.h>
#include <string.h>

void qt_lines_reset(qt_lines *l) {
  qt_buf_reset(&l->buf);
  l->count = 0;
}

bool qt_lines_end(qt_lines *l, size_t start, int width) {
  qt_buf_putc(&l->buf, '\0');
  if (l->count == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 64;
    size_t *off = realloc(l->off, cap * sizeof *off);
    if (off) l->off = off;
    int *w = off ? realloc(l->width, cap * sizeof *w) : NULL;
    if (w) l->width = w;
    if (!off || !w) return false;
    l->cap = cap;
  }
  l->off[l->count] = start;
  l->width[l->count++] = width;
  return true;
}

bool qt_lines_add(qt_lines *l, const char *s, size_t n, int width) {
  size_t start = l->buf.len;
  if (n) qt_buf_append(&l->buf, s, n);
  return qt_lines_end(l, start, width);
}

size_t qt_lines_bytes(const qt_lines *l) { return l->buf.cap + l->cap * (sizeof *l->off + sizeof *l->width); }

void qt_lines_free(qt_lines *l) {
  qt_buf_free(&l->buf);
  free(l->off);
  free(l->width);
  memset(l, 0, sizeof *l);
}

void qt_wrap_line(const char *s, size_t n, size_t pos, int avail, const char *marker, unsigned flags, size_t *end,
                  size_t *next, int *wout) {
  size_t i = pos, space = SIZE_MAX, ml = marker ? strlen(marker) : 0;
  int w = 0, wspace = 0;
  while (i < n) {
    if (s[i] == '\n') {
      *end = i;
      *next = i + 1;
      *wout = w;
      return;
    }
    if (ml && n - i >= ml && memcmp(s + i, marker, ml) == 0) {
      i += ml;
      continue;
    }
    int gw;
    size_t g = qt_cluster(s, n, i, &gw);
    if (w + gw > avail) {
      if (i == pos) { /* wider than the line: left out */
        *end = i;
        *next = g;
        *wout = w;
      } else if (s[i] == ' ' && !(flags & QT_WRAP_PLAIN)) {
        *end = i;
        *next = i + 1;
        *wout = w;
      } else if (space != SIZE_MAX) {
        *end = space;
        *next = space + 1;
        *wout = wspace;
      } else {
        *end = *next = i;
        *wout = w;
      }
      return;
    }
    if (s[i] == ' ') space = i, wspace = w;
    w += gw;
    i = g;
  }
  *end = *next = n;
  *wout = w;
}
