/* qt_text.h — text primitives of the core: a growable byte buffer, UTF-8 decoding,
 * grapheme clusters and their terminal width (exactly as pi-tui's visibleWidth counts them),
 * and the sanitizer that makes model-supplied text harmless on a terminal. */
#ifndef QT_TEXT_H
#define QT_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- growable buffer ------------------------------------------------------------------
 * Appends never lose data silently: on out-of-memory the buffer keeps what it had, sets
 * `failed`, and every later append is a no-op returning false. `data` is always
 * NUL-terminated when `cap` > 0. Free with qt_buf_free. */
typedef struct qt_buf {
  char *data;
  size_t len;
  size_t cap;
  bool failed;
} qt_buf;

void qt_buf_init(qt_buf *b);
void qt_buf_free(qt_buf *b);
void qt_buf_reset(qt_buf *b); /* len = 0, keeps the memory */
bool qt_buf_reserve(qt_buf *b, size_t extra);
bool qt_buf_append(qt_buf *b, const char *s, size_t n);
bool qt_buf_puts(qt_buf *b, const char *s);
bool qt_buf_putc(qt_buf *b, char c);
bool qt_buf_printf(qt_buf *b, const char *fmt, ...)
#if defined(__MINGW32__) /* C99 formats: Windows builds use mingw-w64's printf or UCRT's, never msvcrt's */
    __attribute__((format(gnu_printf, 2, 3)))
#elif defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
bool qt_buf_put_cp(qt_buf *b, uint32_t cp); /* appends a code point as UTF-8 */
char *qt_buf_take(qt_buf *b);               /* hands data to the caller; b is reset */

/* ---- UTF-8 ---------------------------------------------------------------------------- */
/* Strict validation: no overlongs, no surrogates, nothing above U+10FFFF. On failure
 * *bad_offset (if not NULL) is the byte offset of the first invalid sequence. */
bool qt_utf8_valid(const char *s, size_t len, size_t *bad_offset);
/* Decodes one code point at s[0..len). Returns the code point and sets *adv to the bytes
 * used (>= 1 when len >= 1). Invalid bytes decode to U+FFFD with *adv = 1. */
uint32_t qt_utf8_decode(const char *s, size_t len, size_t *adv);
/* qt_utf8_decode with the common well-formed one-, two- and three-byte forms decoded inline
 * (for loops that decode every code point of a long text). */
static inline uint32_t qt_utf8_decode_fast(const char *p, size_t len, size_t *adv) {
  const unsigned char *s = (const unsigned char *)p;
  if (len) {
    unsigned char b = s[0];
    if (b < 0x80) {
      *adv = 1;
      return b;
    }
    if (b >= 0xC2 && b <= 0xDF && len >= 2 && (s[1] & 0xC0) == 0x80) {
      *adv = 2;
      return ((uint32_t)(b & 0x1F) << 6) | (s[1] & 0x3F);
    }
    if (b >= 0xE1 && b <= 0xEC && len >= 3 && (s[1] & 0xC0) == 0x80 && (s[2] & 0xC0) == 0x80) {
      *adv = 3;
      return ((uint32_t)(b & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
    }
  }
  return qt_utf8_decode(p, len, adv);
}
/* Number of code points (invalid bytes count one each). */
size_t qt_utf8_count(const char *s, size_t len);

/* ---- graphemes and width ---------------------------------------------------------------
 * Width follows pi-tui's visibleWidth: ANSI CSI/OSC/APC sequences count 0, a tab counts 3,
 * RGI emoji and regional indicators 2, East Asian Wide/Fullwidth 2, zero-width clusters 0. */
/* Byte offset of the end of the grapheme cluster starting at `pos` (pos < len). */
size_t qt_grapheme_next(const char *s, size_t len, size_t pos);
/* What stepping back learned about a run of regional indicators (flags pair up from the start
 * of their run, so the parity of a long run is counted once and then remembered): the
 * indicators from ri_start up to ri_end form one run (ri_start is its start). ri_end == 0:
 * nothing known. Zero-initialise it. The memo belongs to one text: when bytes at or after offset `at` change,
 * qt_seg_memo_changed keeps what still holds. */
typedef struct qt_seg_memo {
  size_t ri_start, ri_end;
  /* the code point [cp_start, cp_end) that the last step back looked at before the cluster it
   * found (the next step back starts there); cp_end == 0: none */
  size_t cp_start, cp_end;
  uint32_t cp;
  uint16_t cp_props;
} qt_seg_memo;
static inline void qt_seg_memo_changed(qt_seg_memo *m, size_t at) {
  if (m->ri_end > at) m->ri_end = at;
  if (m->ri_end <= m->ri_start) m->ri_start = m->ri_end = 0;
  if (m->cp_end > at) m->cp_end = 0;
}
/* Byte offset of the start of the grapheme cluster that ends at `pos` (a cluster boundary;
 * 0 when pos is 0), as qt_grapheme_next would split s[0..len) from its start. Decided locally:
 * the work is in proportion to the cluster (and the run of joiners or indicators it depends
 * on), never to what precedes it. `memo` may be NULL; *first (may be NULL) is set to the
 * cluster's first code point. */
size_t qt_grapheme_prev(const char *s, size_t len, size_t pos, qt_seg_memo *memo, uint32_t *first);
/* The same for the common shape of cluster only: a base character no break rule looks back on,
 * then marks that add no width — one that displays as it is (no control inside). 0 for any
 * other shape (use qt_grapheme_next_width). */
size_t qt_grapheme_next_plain(const char *s, size_t len, size_t pos, int *width);
/* A run of such clusters and of printable ASCII other than the space, as laying out text meets
 * them: from pos, with *used of `room` columns taken, takes clusters while they fit (*used grows)
 * and returns where it stopped — before a space, a control, a cluster of another shape, or the
 * end. When it stopped at a cluster that does not fit, *over is that cluster's end and
 * *over_width its width; else *over is 0. Each code point is decoded once. */
size_t qt_plain_run(const char *s, size_t len, size_t pos, int room, int *used, size_t *over, int *over_width);
/* True when a grapheme cluster starts at pos (a code point boundary; 0 and len are). Decided
 * as qt_grapheme_prev decides it, locally. `memo` may be NULL. */
bool qt_grapheme_boundary(const char *s, size_t len, size_t pos, qt_seg_memo *memo);
/* qt_grapheme_next and the qt_grapheme_width of that cluster, in one pass. */
size_t qt_grapheme_next_width(const char *s, size_t len, size_t pos, int *width);
/* The width rules, process-wide: which pi-tui's visibleWidth the widths below follow. 0 (the
 * default) is pi-tui 0.73's; the host selects others once, after probing its pi-tui, before
 * any engine renders (an engine that rendered before lays out again: its caches are keyed by
 * the rules). Any thread may read them. */
enum {
  QT_WIDTH_SPACING_MARKS = 1,      /* pi-tui >= 0.87: terminal spacing marks and what follows a mark */
  QT_WIDTH_CURRENT_EAW = 2,        /* East Asian Width of the current line's get-east-asian-width */
  QT_WIDTH_UNICODE15_CLUSTERS = 4, /* clusters as Bun 1.3's Intl.Segmenter (ICU 75) splits them */
  QT_WIDTH_RULES_ALL = 7
};
void qt_set_width_rules(unsigned rules);
unsigned qt_width_rules(void);
/* Width in columns of one grapheme cluster (no escape sequences inside). */
int qt_grapheme_width(const char *s, size_t len);
/* Width in columns of a whole string, skipping escape sequences. */
size_t qt_visible_width(const char *s, size_t len);
/* Length in bytes of the escape sequence at s[0] (CSI, OSC, APC, as pi-tui extracts them),
 * or 0 when there is none. */
size_t qt_escape_length(const char *s, size_t len);

/* Code points the segmenter has looked at on this thread (grapheme stepping both ways and
 * width measuring): a work counter for tests, which check that an editing key costs work in
 * proportion to what it moves over or changes, never to the length of the whole text. */
size_t qt_text_work(void);
/* Adds to that counter: code points a caller looked at on its own (the editor's word scans). */
void qt_text_add_work(size_t n);

/* ---- sanitizing model-supplied text ------------------------------------------------------
 * Appends `in` to `out` so that nothing in it can act on a terminal: ESC becomes "␛", other
 * C0 controls their Control Pictures (U+2400 + c), DEL "␡", C1 controls and bidirectional
 * overrides/isolates/marks a visible "<U+XXXX>", CR "␍", tab three spaces, invalid UTF-8
 * U+FFFD. With QT_SANITIZE_NEWLINES a "\n" (and "\r\n") is kept as a line break; without it
 * a newline becomes a space. The result's width is what qt_visible_width reports. */
enum { QT_SANITIZE_NEWLINES = 1 };
bool qt_sanitize(qt_buf *out, const char *in, size_t len, unsigned flags);
/* Whether qt_sanitize would copy `in` as it is (with these flags): most model text, checked
 * without copying it. */
bool qt_sanitize_unchanged(const char *in, size_t len, unsigned flags);

#ifdef __cplusplus
}
#endif
#endif
