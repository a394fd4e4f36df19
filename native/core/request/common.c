/* common.c — small helpers the core's parsers share (request_internal.h): error messages with a
 * JSON path, string copies and comparisons, numbers as text, and reading a whole JSON payload
 * (a raw pre-check that names the JSON path of a bad string, then cJSON, then nothing but
 * whitespace after the value). request.c and answers.c both build on this file, and on
 * nothing of each other's but the answers of a request (qt_answers_from_cjson). */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "request_internal.h"
#include "qt_text.h"

/* ---- errors with a path ------------------------------------------------------------------- */
/* A string cut by snprintf may end inside a UTF-8 character: drop the partial character so the
 * text stays valid UTF-8 (the model reads it). `full` is the length snprintf wanted. */
static void cut_to_character(char *s, size_t cap, int full) {
  if (full < 0 || (size_t)full < cap) return; /* not cut */
  size_t n = strlen(s), start = n;
  while (start && ((unsigned char)s[start - 1] & 0xC0) == 0x80) start--;
  if (start && (unsigned char)s[start - 1] >= 0xC0) {
    unsigned char lead = (unsigned char)s[start - 1];
    size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
    if (n - (start - 1) < need) s[start - 1] = '\0';
  }
}

qt_status qt_fail(qt_error *err, const char *path, const char *fmt, ...) {
  if (!err) return QT_ERR_INVALID;
  int full = snprintf(err->path, sizeof err->path, "%s", path ? path : "");
  cut_to_character(err->path, sizeof err->path, full);
  va_list ap;
  va_start(ap, fmt);
  full = vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  cut_to_character(err->message, sizeof err->message, full);
  return QT_ERR_INVALID;
}

void qt_pathf(char *dst, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int full = vsnprintf(dst, cap, fmt, ap);
  va_end(ap);
  cut_to_character(dst, cap, full);
}

/* ---- strings ---------------------------------------------------------------------------------- */
static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

char *qt_strndup_trimmed(const char *s, size_t n) {
  while (n && is_space(*s)) s++, n--;
  while (n && is_space(s[n - 1])) n--;
  char *p = malloc(n + 1);
  if (!p) return NULL;
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *qt_strdup(const char *s) {
  size_t n = strlen(s);
  char *p = malloc(n + 1);
  if (p) memcpy(p, s, n + 1);
  return p;
}

char *qt_cjson_print(const struct cJSON *item) {
  char *printed = cJSON_PrintUnformatted(item);
  if (!printed) return NULL;
  char *copy = qt_strdup(printed);
  cJSON_free(printed);
  return copy;
}

bool qt_loose_equal(const char *a, const char *b) {
  while (is_space(*a)) a++;
  while (is_space(*b)) b++;
  size_t na = strlen(a), nb = strlen(b);
  while (na && is_space(a[na - 1])) na--;
  while (nb && is_space(b[nb - 1])) nb--;
  if (na != nb) return false;
  for (size_t i = 0; i < na; i++)
    if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i])) return false;
  return true;
}

double qt_json_number(const char *s, size_t n) {
  char copy[QT_JSON_NUMBER_MAX + 1];
  if (n > QT_JSON_NUMBER_MAX) n = QT_JSON_NUMBER_MAX;
  memcpy(copy, s, n);
  copy[n] = '\0';
  /* strtod reads the locale's decimal point (cJSON's way round it, too) */
  const char *point = localeconv()->decimal_point;
  char *dot = strchr(copy, '.');
  if (dot && point && point[0] && !point[1]) *dot = point[0];
  return strtod(copy, NULL);
}

void qt_number_text(double d, char *out, size_t cap) {
  if (d > -1e15 && d < 1e15 && d == (double)(long long)d && cap >= 18) {
    /* Whole numbers, the usual case (options 1, 2, 3 …), written by hand: snprintf was a fifth
     * of validating a call of 20,000 numeric options. Same text as "%lld". */
    long long v = (long long)d;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    char digits[20];
    size_t n = 0;
    do digits[n++] = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    size_t j = 0;
    if (v < 0) out[j++] = '-';
    while (n) out[j++] = digits[--n];
    out[j] = '\0';
    return;
  }
  snprintf(out, cap, "%.15g", d); /* the shortest form that reads back the same */
  if (strtod(out, NULL) != d) snprintf(out, cap, "%.17g", d);
}

/* ---- the raw pre-check -----------------------------------------------------------------------
 * What a quick scan of the raw JSON finds before cJSON is asked: the deepest nesting of
 * arrays/objects, the first invalid UTF-8, and the first string byte a C string cannot carry
 * faithfully: a raw control character (which JSON forbids), an escaped NUL (which would
 * silently cut the text), or an escaped lone UTF-16 surrogate (half a character: what
 * JSON.stringify makes of a broken emoji; cJSON cannot decode it). It also counts the values
 * (1 plus the ',', ':' and '[' outside strings) and stops past `max_values` when that is set. */
typedef enum bad_string { BAD_NONE = 0, BAD_CONTROL, BAD_NUL, BAD_SURROGATE, BAD_ESCAPE } bad_string;

typedef struct json_scan {
  size_t depth;
  size_t bad_utf8; /* byte offset of the first invalid UTF-8 sequence, or SIZE_MAX */
  size_t bad_at;   /* byte offset of the first string problem, or SIZE_MAX */
  bad_string bad;  /* what that problem is */
  size_t values;   /* JSON values counted (an upper bound: the root plus what starts the others) */
  size_t too_many; /* byte offset where `values` passed the bound, or SIZE_MAX */
} json_scan;

/* The value of 4 hex digits at s (n bytes available), or 0x10000 when they are not there. */
static unsigned hex4(const unsigned char *s, size_t n) {
  if (n < 4) return 0x10000;
  unsigned v = 0;
  for (int k = 0; k < 4; k++) {
    unsigned char c = s[k];
    unsigned d = c >= '0' && c <= '9'   ? c - '0'
                 : c >= 'a' && c <= 'f' ? c - 'a' + 10
                 : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                        : 16;
    if (d > 15) return 0x10000;
    v = v << 4 | d;
  }
  return v;
}

/* The bytes scan_json stops at, by where it is (it was a sixth of validating a 100 KB call and
 * now looks each byte up once): outside strings, quotes, brackets, commas, colons and
 * bytes above 0x7F (numbers, literals and whitespace are skipped); inside a string, control
 * characters, the quote, the backslash and bytes above 0x7F. */
#define QT_RANGE16(b, v)                                                                                               \
  [b] = v, [b + 1] = v, [b + 2] = v, [b + 3] = v, [b + 4] = v, [b + 5] = v, [b + 6] = v, [b + 7] = v, [b + 8] = v,     \
  [b + 9] = v, [b + 10] = v, [b + 11] = v, [b + 12] = v, [b + 13] = v, [b + 14] = v, [b + 15] = v
#define QT_HIGH128(v)                                                                                                  \
  QT_RANGE16(0x80, v), QT_RANGE16(0x90, v), QT_RANGE16(0xA0, v), QT_RANGE16(0xB0, v), QT_RANGE16(0xC0, v),             \
      QT_RANGE16(0xD0, v), QT_RANGE16(0xE0, v), QT_RANGE16(0xF0, v)
static const unsigned char SCAN_STOP[256] = {
    ['"'] = 1, ['['] = 1, ['{'] = 1, [']'] = 1, ['}'] = 1, [','] = 1, [':'] = 1, QT_HIGH128(1)};
static const unsigned char STRING_STOP[256] = {QT_RANGE16(0x00, 1), QT_RANGE16(0x10, 1), ['"'] = 1, ['\\'] = 1,
                                               QT_HIGH128(1)};
#undef QT_HIGH128
#undef QT_RANGE16

/* One pass over the raw bytes (validating UTF-8 on the way): plain bytes, nearly all of a large
 * call, are skipped in tight loops. */
static json_scan scan_json(const char *text, size_t len, size_t max_values) {
  const unsigned char *s = (const unsigned char *)text;
  json_scan r = {0, SIZE_MAX, SIZE_MAX, BAD_NONE, 1, SIZE_MAX};
  size_t depth = 0, i = 0;
  while (i < len) {
    while (i < len && !SCAN_STOP[s[i]]) i++;
    if (i == len) break;
    unsigned char c = s[i];
    if (c >= 0x80) {
      size_t adv;
      if (qt_utf8_decode(text + i, len - i, &adv) == 0xFFFD && adv == 1 && r.bad_utf8 == SIZE_MAX) r.bad_utf8 = i;
      i += adv;
      continue;
    }
    i++;
    if (c == '"') { /* a string: run to its closing quote */
      while (i < len) {
        while (i < len && !STRING_STOP[s[i]]) i++;
        if (i == len) break;
        c = s[i];
        if (c >= 0x80) {
          size_t adv;
          if (qt_utf8_decode(text + i, len - i, &adv) == 0xFFFD && adv == 1 && r.bad_utf8 == SIZE_MAX) r.bad_utf8 = i;
          i += adv;
          continue;
        }
        if (c == '"') {
          i++;
          break;
        }
        if (c == '\\') {
          if (i + 1 < len && s[i + 1] == 'u') {
            unsigned u = hex4(s + i + 2, len - i - 2);
            bad_string bad = BAD_NONE;
            size_t step = u > 0xFFFF ? 2 : 6;
            if (u > 0xFFFF) { /* not four hex digits: cJSON would read U+0000 and cut the text there */
              bad = BAD_ESCAPE;
            } else if (u == 0) {
              bad = BAD_NUL;
            } else if (u >= 0xD800 && u <= 0xDBFF) { /* a high half: its low half must follow */
              unsigned lo = i + 7 < len && s[i + 6] == '\\' && s[i + 7] == 'u' ? hex4(s + i + 8, len - i - 8) : 0x10000;
              if (lo >= 0xDC00 && lo <= 0xDFFF)
                step = 12;
              else
                bad = BAD_SURROGATE;
            } else if (u >= 0xDC00 && u <= 0xDFFF) {
              bad = BAD_SURROGATE;
            }
            if (bad && r.bad_at == SIZE_MAX) {
              r.bad_at = i;
              r.bad = bad;
            }
            i += step;
            continue;
          }
          i += 2;
          continue;
        }
        if (r.bad_at == SIZE_MAX) { /* a raw control character */
          r.bad_at = i;
          r.bad = BAD_CONTROL;
        }
        i++;
      }
    } else if (c == ']' || c == '}') {
      if (depth) depth--;
    } else {
      if (c == '[' || c == '{')
        if (++depth > r.depth) r.depth = depth;
      if (c != '{') r.values++; /* ',' ':' '[' start a value */
      if (max_values && r.values > max_values) {
        r.too_many = i - 1;
        break;
      }
    }
  }
  return r;
}

/* ---- the path of a byte ----------------------------------------------------------------------
 * A tolerant walk of the raw text up to byte `at` that needs no valid JSON: a stack of the
 * objects and arrays open there, with the member key or element index each is at. */
typedef struct path_frame {
  bool object;
  bool has_key;        /* object: a key was read (its value comes next) */
  bool after_colon;    /* object: the ':' after that key was read */
  size_t index;        /* array: the element */
  size_t key, key_len; /* object: the key's bytes (inside the quotes) */
} path_frame;

/* End of the string whose opening quote is at s[i]: the index of its closing quote, or len. */
static size_t string_end(const char *s, size_t len, size_t i) {
  for (i++; i < len; i++) {
    if (s[i] == '\\')
      i++;
    else if (s[i] == '"')
      return i;
  }
  return len;
}

/* Appends a key's raw bytes as readable path text: controls and invalid UTF-8 become "?". */
static void put_key(qt_buf *b, const char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    size_t adv;
    uint32_t cp = qt_utf8_decode(s + i, n - i, &adv);
    if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) || (cp == 0xFFFD && adv == 1))
      qt_buf_putc(b, '?');
    else
      qt_buf_append(b, s + i, adv);
    i += adv;
  }
}

/* The path of the value, key or string at byte `at` of `json`, after `base` ("questions[0].prompt"
 * under base ""; "answers.db" under base "answers"), into out (cut at a character boundary). */
static void path_at(const char *json, size_t len, size_t at, const char *base, char *out, size_t cap) {
  path_frame stack[QT_MAX_JSON_DEPTH];
  size_t depth = 0; /* may exceed the stack: deeper frames are not recorded */
  for (size_t i = 0; i < len && i <= at; i++) {
    path_frame *top = depth && depth <= QT_MAX_JSON_DEPTH ? &stack[depth - 1] : NULL;
    char c = json[i];
    if (c == '"') {
      size_t end = string_end(json, len, i);
      if (top && top->object && !top->has_key) { /* a key */
        top->has_key = true;
        top->after_colon = false;
        top->key = i + 1;
        top->key_len = end - (i + 1);
      }
      if (at <= end) break; /* inside this string */
      i = end;
    } else if (c == '{' || c == '[') {
      if (depth < QT_MAX_JSON_DEPTH) stack[depth] = (path_frame){c == '{', false, false, 0, 0, 0};
      depth++;
    } else if (c == '}' || c == ']') {
      if (depth) depth--;
    } else if (c == ':' && top && top->object) {
      top->after_colon = true;
    } else if (c == ',' && top) {
      if (top->object)
        top->has_key = top->after_colon = false;
      else
        top->index++;
    }
  }
  qt_buf b;
  qt_buf_init(&b);
  qt_buf_puts(&b, base);
  size_t shown = depth < QT_MAX_JSON_DEPTH ? depth : QT_MAX_JSON_DEPTH;
  for (size_t d = 0; d < shown; d++) {
    const path_frame *f = &stack[d];
    if (!f->object) {
      qt_buf_printf(&b, "[%zu]", f->index);
      continue;
    }
    if (!f->has_key) break;
    if (b.len) qt_buf_putc(&b, '.');
    put_key(&b, json + f->key, f->key_len);
  }
  qt_pathf(out, cap, "%s", b.failed || !b.data ? base : b.data);
  qt_buf_free(&b);
}

/* "questions[0].prompt: the arguments contain" or "The arguments contain": the start of a
 * message about byte `at` of the payload. */
static void where_prefix(const char *json, size_t len, size_t at, const char *what, const char *base, char *path,
                         size_t path_cap, char *prefix, size_t prefix_cap) {
  path_at(json, len, at, base, path, path_cap);
  if (*path)
    qt_pathf(prefix, prefix_cap, "%s: the %s", path, what);
  else
    qt_pathf(prefix, prefix_cap, "The %s", what);
}

qt_status qt_json_precheck(const char *json, size_t len, const char *what, const char *base, size_t max_values,
                           qt_error *err) {
  json_scan scan = scan_json(json, len, max_values);
  if (scan.bad_utf8 == SIZE_MAX && scan.bad_at == SIZE_MAX && scan.depth <= QT_MAX_JSON_DEPTH &&
      scan.too_many == SIZE_MAX)
    return QT_OK;
  if (!err) return QT_ERR_INVALID;
  char path[sizeof err->path], prefix[sizeof err->path + 64];
  if (scan.too_many != SIZE_MAX)
    return qt_fail(err, base,
                   "The %s hold more than %zu JSON values (byte %zu), more than any answer can: the limit is %d "
                   "questions x (%d options + 16). Send one entry per question id.",
                   what, max_values, scan.too_many, QT_MAX_QUESTIONS, QT_MAX_OPTIONS);
  if (scan.bad_utf8 != SIZE_MAX && (scan.bad_at == SIZE_MAX || scan.bad_utf8 < scan.bad_at)) {
    where_prefix(json, len, scan.bad_utf8, what, base, path, sizeof path, prefix, sizeof prefix);
    return qt_fail(err, path, "%s are not valid UTF-8 (byte %zu). Send text as UTF-8.", prefix, scan.bad_utf8);
  }
  if (scan.depth > QT_MAX_JSON_DEPTH)
    return qt_fail(err, base, "The %s nest deeper than %d levels. Send the flat shape { \"questions\": [...] }.", what,
                   QT_MAX_JSON_DEPTH);
  where_prefix(json, len, scan.bad_at, what, base, path, sizeof path, prefix, sizeof prefix);
  switch (scan.bad) {
    case BAD_ESCAPE: return qt_json_syntax_error(json, len, scan.bad_at, false, what, base, err);
    case BAD_NUL:
      return qt_fail(err, path, "%s contain a NUL character (\\u0000, byte %zu), which cannot be shown. Remove it.",
                     prefix, scan.bad_at);
    case BAD_SURROGATE:
      return qt_fail(
          err, path,
          "%s contain a lone UTF-16 surrogate (\\%.5s, byte %zu): half of a character such as an emoji, "
          "which is not text. Send the whole character (both \\u escapes, or the character itself) or remove it.",
          prefix, json + scan.bad_at + 1, scan.bad_at);
    default:
      return qt_fail(
          err, path,
          "%s contain a raw control character inside a string (byte %zu). Escape it (\\n, \\t) or remove it.", prefix,
          scan.bad_at);
  }
}

qt_status qt_json_syntax_error(const char *json, size_t len, size_t at, bool trailing, const char *what,
                               const char *base, qt_error *err) {
  if (!err) return QT_ERR_INVALID;
  if (trailing)
    return qt_fail(err, base, "The %s have text after the JSON value (byte %zu). Send one JSON object.", what, at);
  char path[sizeof err->path], prefix[sizeof err->path + 64];
  where_prefix(json, len, at, what, base, path, sizeof path, prefix, sizeof prefix);
  return qt_fail(err, path, "%s are not valid JSON (near byte %zu). Send one JSON object.", prefix, at);
}

qt_status qt_json_parse(const char *json, size_t len, const char *what, const char *base, size_t max_values,
                        struct cJSON **out, qt_error *err) {
  *out = NULL;
  qt_status st = qt_json_precheck(json, len, what, base, max_values, err);
  if (st) return st;
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(json, len, &end, false);
  if (!root) {
    size_t at = end && end >= json && (size_t)(end - json) <= len ? (size_t)(end - json) : 0;
    return qt_json_syntax_error(json, len, at, false, what, base, err);
  }
  size_t used = (size_t)(end - json);
  while (used < len && (json[used] == ' ' || json[used] == '\n' || json[used] == '\r' || json[used] == '\t')) used++;
  if (used < len) {
    cJSON_Delete(root);
    return qt_json_syntax_error(json, len, used, true, what, base, err);
  }
  *out = root;
  return QT_OK;
}
