/* lines.h — finished lines and the wrapping both renderers use: render.c (the styled frame) and
 * render_plain.c (the accessible one). A line never gets wider than the columns it is laid out
 * for; where it breaks is decided here, once, for both. */
#ifndef QT_LINES_H
#define QT_LINES_H

#include <stdbool.h>
#include <stddef.h>

#include "qt_text.h"

/* One finished frame or column: NUL-separated lines in one buffer. */
typedef struct qt_lines {
  qt_buf buf;  /* the bytes of all lines, each followed by '\0' */
  size_t *off; /* start of each line in buf */
  int *width;  /* visible width of each line */
  size_t count, cap;
} qt_lines;

/* No lines; the memory is kept for the next frame. */
void qt_lines_reset(qt_lines *l);
/* Ends the line whose bytes start at `start` in l->buf (its text is already appended) as
 * `width` columns wide. False when out of memory (the line is then not counted). */
bool qt_lines_end(qt_lines *l, size_t start, int width);
/* Appends s[0..n) as a line of its own, `width` columns wide. False when out of memory. */
bool qt_lines_add(qt_lines *l, const char *s, size_t n, int width);
/* Bytes of memory the lines hold. */
size_t qt_lines_bytes(const qt_lines *l);
void qt_lines_free(qt_lines *l);

/* End of the grapheme cluster at pos and its width in *w. Printable ASCII followed by ASCII is
 * a cluster of its own, one column wide: the fast path for most text. */
static inline size_t qt_cluster(const char *s, size_t n, size_t pos, int *w) {
  unsigned char c = (unsigned char)s[pos];
  if (c >= 0x20 && c < 0x7F && (pos + 1 == n || (unsigned char)s[pos + 1] < 0x80)) {
    *w = 1;
    return pos + 1;
  }
  size_t g = qt_grapheme_next(s, n, pos);
  if (g <= pos) g = pos + 1;
  int gw = qt_grapheme_width(s + pos, g - pos);
  *w = gw < 0 ? 0 : gw;
  return g;
}

/* How qt_wrap_line breaks a line that does not fit. */
enum {
  /* The accessible frame's rule: a space that does not fit is no break of its own; the line
   * breaks at the last space before it (else between graphemes, and the next line starts with
   * that space). Without it (the styled frame) a space that does not fit ends the line. */
  QT_WRAP_PLAIN = 1u
};

/* One line of s[pos..n) for `avail` columns: its text is s[pos..*end), *w columns wide, the
 * next line starts at *next. Breaks at a line break, else (see QT_WRAP_PLAIN) at a space that
 * does not fit, else after the last space that fits, else between graphemes. A grapheme wider
 * than the whole line is left out when it would start the line (the line ends before it, the
 * next starts after it). `marker` (NULL or "": none) is a run of host bytes inside the text that
 * takes no columns and is never split. */
void qt_wrap_line(const char *s, size_t n, size_t pos, int avail, const char *marker, unsigned flags, size_t *end,
                  size_t *next, int *w);

#endif
