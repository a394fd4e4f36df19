/* utf8.c — strict UTF-8 validation and forgiving decoding (invalid bytes become U+FFFD). */
#include "qt_text.h"

/* Length of the valid sequence at s, or 0 when it is invalid or truncated. */
static size_t valid_sequence(const unsigned char *s, size_t len, uint32_t *cp) {
  unsigned char c = s[0];
  if (c < 0x80) {
    *cp = c;
    return 1;
  }
  size_t n;
  uint32_t v, min;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
    v = c & 0x1F;
    min = 0x80;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    v = c & 0x0F;
    min = 0x800;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    v = c & 0x07;
    min = 0x10000;
  } else {
    return 0;
  }
  if (len < n) return 0;
  for (size_t i = 1; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    v = (v << 6) | (s[i] & 0x3F);
  }
  if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
  *cp = v;
  return n;
}

bool qt_utf8_valid(const char *s, size_t len, size_t *bad_offset) {
  const unsigned char *p = (const unsigned char *)s;
  size_t i = 0;
  while (i < len) {
    if (p[i] < 0x80) {
      i++;
      continue;
    }
    uint32_t cp;
    size_t n = valid_sequence(p + i, len - i, &cp);
    if (!n) {
      if (bad_offset) *bad_offset = i;
      return false;
    }
    i += n;
  }
  return true;
}

uint32_t qt_utf8_decode(const char *s, size_t len, size_t *adv) {
  if (len == 0) {
    *adv = 0;
    return 0xFFFD;
  }
  uint32_t cp;
  size_t n = valid_sequence((const unsigned char *)s, len, &cp);
  if (!n) {
    *adv = 1;
    return 0xFFFD;
  }
  *adv = n;
  return cp;
}

size_t qt_utf8_count(const char *s, size_t len) {
  size_t count = 0, i = 0, adv;
  while (i < len) {
    qt_utf8_decode(s + i, len - i, &adv);
    i += adv;
    count++;
  }
  return count;
}
