/* lines.c — finished lines and where text wraps (see lines.h): the one copy both renderers
 * use. */
#include "lines.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void qt_lines_reset(qt_lines *l) {
  qt_buf_reset(&l->buf);
  l->count = 0;
}

bool qt_lines_end(qt_lines *l, size_t start, int width) {
  qt_buf_putc(&l->buf, '\0');
  if (l->count == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 16; /* a frame is ~20 lines; an engine keeps several */
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

/* True when s[0..n) is printable ASCII only (0x20-0x7E), read eight bytes at a time: each such
 * byte is a grapheme of its own, one column wide. A word the tests flag wrongly only sends the
 * text down the byte-by-byte path, which gives the same answer; none is missed. */
static bool printable_ascii(const char *s, size_t n) {
  const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x, del;
    memcpy(&x, s + i, 8);
    del = x ^ (0x7F * ones);
    if ((x | ((x - 0x20 * ones) & ~x) | ((del - ones) & ~del)) & highs) return false;
  }
  for (; i < n; i++)
    if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7F) return false;
  return true;
}

void qt_wrap_line(const char *s, size_t n, size_t pos, int avail, const char *marker, unsigned flags, size_t *end,
                  size_t *next, int *wout) {
  /* The commonest case: what is left fits and is plain ASCII (a marker made of such bytes would
   * take no columns, so not then). */
  if (pos <= n && avail > 0 && n - pos <= (size_t)avail && !(marker && *marker >= 0x20 && *marker < 0x7F) &&
      printable_ascii(s + pos, n - pos)) {
    *end = *next = n;
    *wout = (int)(n - pos);
    return;
  }
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
