/* sanitize.c — qt_sanitize of qt_text.h: copies model-supplied text so that nothing in it can
 * act on a terminal. Control characters become visible pictures (ESC "␛", C0 U+2400 + c,
 * DEL "␡", lone CR "␍"), C1 controls and bidirectional controls a visible "<U+XXXX>", a tab
 * three spaces, invalid UTF-8 U+FFFD; newlines are kept or turned into spaces. Everything
 * else, zero-width joiners and variation selectors included, is copied as it is. */
#include "qt_text.h"

static bool is_bidi_control(uint32_t cp) {
  return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F ||
         cp == 0x061C;
}

/* "<U+XXXX>" with at least four upper-case hex digits. */
static bool put_visible_cp(qt_buf *out, uint32_t cp) {
  static const char hex[] = "0123456789ABCDEF";
  char u[16];
  size_t n = 0;
  int digits = cp > 0xFFFFF ? 6 : cp > 0xFFFF ? 5 : 4;
  u[n++] = '<';
  u[n++] = 'U';
  u[n++] = '+';
  for (int d = digits - 1; d >= 0; d--) u[n++] = hex[(cp >> (4 * d)) & 0xF];
  u[n++] = '>';
  return qt_buf_append(out, u, n);
}

bool qt_sanitize_unchanged(const char *in, size_t len, unsigned flags) {
  for (size_t i = 0; i < len;) {
    unsigned char b = (unsigned char)in[i];
    if (b >= 0x20 && b < 0x7F) {
      i++;
      continue;
    }
    if (b == '\n' && (flags & QT_SANITIZE_NEWLINES)) { /* kept as it is; "\r\n" is not */
      i++;
      continue;
    }
    if (b < 0x80) return false;
    size_t adv = 1;
    uint32_t cp = qt_utf8_decode(in + i, len - i, &adv);
    if (adv < 2 || (cp >= 0x80 && cp <= 0x9F) || is_bidi_control(cp)) return false;
    i += adv;
  }
  return true;
}

bool qt_sanitize(qt_buf *out, const char *in, size_t len, unsigned flags) {
  const bool keep_newlines = (flags & QT_SANITIZE_NEWLINES) != 0;
  if (out->failed) return false;
  if (!qt_buf_reserve(out, len)) return false;
  size_t i = 0, run = 0; /* in[run, i) is copied as it is */
  while (i < len) {
    unsigned char b = (unsigned char)in[i];
    if (b >= 0x20 && b < 0x7F) {
      i++;
      continue;
    }
    size_t adv = 1;
    uint32_t cp = b;
    if (b >= 0x80) {
      cp = qt_utf8_decode(in + i, len - i, &adv);
      /* a valid sequence here is at least two bytes; one byte means invalid (U+FFFD) */
      if (adv >= 2 && !(cp >= 0x80 && cp <= 0x9F) && !is_bidi_control(cp)) {
        i += adv;
        continue;
      }
    }
    if (i > run) qt_buf_append(out, in + run, i - run);
    if (b >= 0x80) {
      if (adv == 1)
        qt_buf_put_cp(out, 0xFFFD);
      else
        put_visible_cp(out, cp);
    } else if (b == '\n') {
      qt_buf_putc(out, keep_newlines ? '\n' : ' ');
    } else if (b == '\r' && i + 1 < len && in[i + 1] == '\n') {
      qt_buf_putc(out, keep_newlines ? '\n' : ' ');
      adv = 2;
    } else if (b == '\t') {
      qt_buf_append(out, "   ", 3);
    } else if (b == 0x7F) {
      qt_buf_put_cp(out, 0x2421); /* ␡ */
    } else {
      qt_buf_put_cp(out, 0x2400 + b); /* ␀..␟: ESC is ␛, CR ␍ */
    }
    i += adv;
    run = i;
  }
  if (i > run) qt_buf_append(out, in + run, i - run);
  return !out->failed;
}
