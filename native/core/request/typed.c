/* typed.c — typed answers (a question's `type`: the form-mode primitives of MCP elicitation):
 * the type names, reading a typed answer's text as its type (a number within min and max, a
 * whole number, yes or no, a calendar date, an e-mail address, a web address) with the value it
 * stands for, and the hint a face shows ("A whole number (1–10)"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "request_internal.h"
#include "qt_text.h"
#include "qt_typed.h"

static const char *const TYPE_NAME[QT_TYPE_COUNT] = {
    [QT_TYPE_TEXT] = "text", [QT_TYPE_NUMBER] = "number", [QT_TYPE_INTEGER] = "integer", [QT_TYPE_BOOLEAN] = "boolean",
    [QT_TYPE_DATE] = "date", [QT_TYPE_EMAIL] = "email",   [QT_TYPE_URL] = "url",
};

const char *qt_type_name(qt_type type) { return (unsigned)type < QT_TYPE_COUNT ? TYPE_NAME[type] : NULL; }

bool qt_type_from_name(const char *name, size_t len, qt_type *out) {
  for (int t = 0; t < QT_TYPE_COUNT; t++)
    if (strlen(TYPE_NAME[t]) == len && memcmp(TYPE_NAME[t], name, len) == 0) {
      *out = (qt_type)t;
      return true;
    }
  return false;
}

/* ASCII case-insensitive equality of s[0..n) and the NUL-terminated word w. */
static bool word_is(const char *s, size_t n, const char *w) {
  if (strlen(w) != n) return false;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') c = (char)(c + 32);
    if (c != w[i]) return false;
  }
  return true;
}

/* A number as JSON writes it: optional '-', digits (no leading zeros but a lone 0), an optional
 * fraction and exponent; nothing else. */
static bool number_syntax(const char *s, size_t n, bool whole) {
  size_t i = 0;
  if (i < n && s[i] == '-') i++;
  if (i >= n || s[i] < '0' || s[i] > '9') return false;
  if (s[i] == '0' && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9') return false;
  while (i < n && s[i] >= '0' && s[i] <= '9') i++;
  if (whole) return i == n;
  if (i < n && s[i] == '.') {
    i++;
    if (i >= n || s[i] < '0' || s[i] > '9') return false;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    if (i >= n || s[i] < '0' || s[i] > '9') return false;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++;
  }
  return i == n;
}

static bool leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

/* YYYY-MM-DD, a day of the calendar (years 0001–9999). */
static bool date_syntax(const char *s, size_t n) {
  if (n != 10 || s[4] != '-' || s[7] != '-') return false;
  for (size_t i = 0; i < n; i++)
    if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9')) return false;
  int y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
  int m = (s[5] - '0') * 10 + (s[6] - '0'), d = (s[8] - '0') * 10 + (s[9] - '0');
  static const int DAYS[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  return d <= DAYS[m - 1] + (m == 2 && leap(y));
}

/* No spaces, controls or characters that have no place in an address. */
static bool plain_address_char(unsigned char c) { return c > 0x20 && c != 0x7F && c != '<' && c != '>' && c != '"'; }

/* local@domain: one '@', a local part, a domain of dot-separated labels with at least one dot
 * (letters, digits, '-', non-ASCII), at most 254 bytes. */
static bool email_syntax(const char *s, size_t n) {
  if (n > 254) return false;
  const char *at = memchr(s, '@', n);
  if (!at || at == s || memchr(at + 1, '@', n - (size_t)(at - s) - 1)) return false;
  for (size_t i = 0; i < n; i++)
    if (!plain_address_char((unsigned char)s[i]) || s[i] == ',' || s[i] == ';') return false;
  const char *d = at + 1, *end = s + n;
  if (d == end || *d == '.' || end[-1] == '.' || !memchr(d, '.', (size_t)(end - d))) return false;
  for (const char *p = d; p < end; p++) {
    unsigned char c = (unsigned char)*p;
    bool ok = c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
              (c == '.' && p[1] != '.');
    if (!ok) return false;
  }
  return true;
}

/* http:// or https://, then a host, then anything without spaces or controls. */
static bool url_syntax(const char *s, size_t n) {
  size_t scheme = n >= 8 && word_is(s, 8, "https://") ? 8 : n >= 7 && word_is(s, 7, "http://") ? 7 : 0;
  if (!scheme || scheme == n) return false;
  if (s[scheme] == '/' || s[scheme] == '?' || s[scheme] == '#') return false; /* no host */
  for (size_t i = 0; i < n; i++)
    if (!plain_address_char((unsigned char)s[i])) return false;
  return true;
}

bool qt_typed_read(const qt_question *q, const char *s, size_t n, qt_typed_value *out) {
  memset(out, 0, sizeof *out);
  out->type = q->type;
  switch (q->type) {
    case QT_TYPE_NUMBER:
    case QT_TYPE_INTEGER: {
      if (!number_syntax(s, n, q->type == QT_TYPE_INTEGER) || n > QT_JSON_NUMBER_MAX) return false;
      double v = qt_json_number(s, n);
      if (!isfinite(v)) return false;
      if (q->type == QT_TYPE_INTEGER && fabs(v) > 9007199254740991.0) return false; /* exact in a double */
      if ((q->has_min && v < q->min) || (q->has_max && v > q->max)) return false;
      out->number = v;
      return true;
    }
    case QT_TYPE_BOOLEAN:
      if (word_is(s, n, "yes") || word_is(s, n, "y") || word_is(s, n, "true")) return out->yes = true, true;
      return word_is(s, n, "no") || word_is(s, n, "n") || word_is(s, n, "false");
    case QT_TYPE_DATE: return date_syntax(s, n);
    case QT_TYPE_EMAIL: return email_syntax(s, n);
    case QT_TYPE_URL: return url_syntax(s, n);
    default: return true;
  }
}

bool qt_typed_of_answer(const qt_question *q, const qt_answer *a, qt_typed_value *out) {
  memset(out, 0, sizeof *out);
  out->type = q->type;
  if (q->type == QT_TYPE_TEXT || !a->present || a->skipped) return false;
  if (q->type == QT_TYPE_BOOLEAN && a->index_count == 1 && !a->custom) { /* its options: yes first, then no */
    out->yes = a->indices[0] == 1;
    return true;
  }
  return a->custom && qt_typed_read(q, a->custom, strlen(a->custom), out);
}

void qt_typed_text(const qt_question *q, const qt_typed_value *v, const char *as_typed, qt_buf *b) {
  if (q->type == QT_TYPE_NUMBER || q->type == QT_TYPE_INTEGER) {
    char num[64];
    qt_number_text(v->number, num, sizeof num);
    qt_buf_puts(b, num);
  } else if (q->type == QT_TYPE_BOOLEAN) {
    qt_buf_puts(b, v->yes ? "true" : "false");
  } else if (as_typed) {
    qt_buf_puts(b, as_typed);
  }
}

/* " (1–10)", " (≥ 1)", " (≤ 10)" or "" for the bounds of a numeric question. */
static void bounds(const qt_question *q, qt_buf *b) {
  char lo[64], hi[64];
  if (q->has_min) qt_number_text(q->min, lo, sizeof lo);
  if (q->has_max) qt_number_text(q->max, hi, sizeof hi);
  if (q->has_min && q->has_max)
    qt_buf_printf(b, " (%s\xe2\x80\x93%s)", lo, hi);
  else if (q->has_min)
    qt_buf_printf(b, " (\xe2\x89\xa5 %s)", lo);
  else if (q->has_max)
    qt_buf_printf(b, " (\xe2\x89\xa4 %s)", hi);
}

bool qt_typed_hint(const qt_question *q, qt_language lang, qt_buf *out) {
  static const qt_string_id HINT[QT_TYPE_COUNT] = {
      [QT_TYPE_TEXT] = QT_STR_COUNT,
      [QT_TYPE_NUMBER] = QT_STR_TYPED_NUMBER,
      [QT_TYPE_INTEGER] = QT_STR_TYPED_INTEGER,
      [QT_TYPE_BOOLEAN] = QT_STR_TYPED_BOOLEAN,
      [QT_TYPE_DATE] = QT_STR_TYPED_DATE,
      [QT_TYPE_EMAIL] = QT_STR_TYPED_EMAIL,
      [QT_TYPE_URL] = QT_STR_TYPED_URL,
  };
  if (q->secret) { /* a secret question (type text): what becomes of what is typed */
    qt_buf_puts(out, qt_string(lang, QT_STR_SECRET_HINT));
    return true;
  }
  if ((unsigned)q->type >= QT_TYPE_COUNT || HINT[q->type] == QT_STR_COUNT) return false;
  qt_buf range;
  qt_buf_init(&range);
  bounds(q, &range);
  qt_format(out, qt_string(lang, HINT[q->type]), 0, range.data ? range.data : "");
  qt_buf_free(&range);
  return true;
}
