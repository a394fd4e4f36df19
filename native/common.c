/* common.c — small helpers the core's parsers share (qt_internal.h): error messages with a
 * JSON path, string copies and comparisons, numbers as text, and reading a whole JSON payload
 * (a raw pre-check, then cJSON, then nothing but whitespace after the value). request.c and
 * answers.c both build on this file, and on nothing of each other's but the answers of a
 * request (qt_answers_from_cjson). */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qt_internal.h"
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

void qt_number_text(double d, char *out, size_t cap) {
  if (d > -1e15 && d < 1e15 && d == (double)(long long)d) {
    snprintf(out, cap, "%lld", (long long)d);
    return;
  }
  snprintf(out, cap, "%.15g", d); /* the shortest form that reads back the same */
  if (strtod(out, NULL) != d) snprintf(out, cap, "%.17g", d);
}

/* ---- the raw pre-check -----------------------------------------------------------------------
 * What a quick scan of the raw JSON finds before cJSON is asked: the deepest nesting of
 * arrays/objects, and the first string byte a C string cannot carry faithfully (a raw control
 * character, which JSON forbids, or an escaped NUL, which would silently cut the text). */
typedef struct json_scan {
  size_t depth;
  size_t bad_utf8; /* byte offset of the first invalid UTF-8 sequence, or SIZE_MAX */
  size_t bad_at;   /* byte offset of the first string problem, or SIZE_MAX */
  bool bad_is_nul; /* the problem is "\u0000" (else a raw control character) */
} json_scan;

/* One pass over the raw bytes (validating UTF-8 on the way): plain string bytes are skipped in a
 * tight loop, since they are nearly all of a large call. */
static json_scan scan_json(const char *text, size_t len) {
  const unsigned char *s = (const unsigned char *)text;
  json_scan r = {0, SIZE_MAX, SIZE_MAX, false};
  size_t depth = 0, i = 0;
  while (i < len) {
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
        c = s[i];
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
          i++;
          continue;
        }
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
          if (r.bad_at == SIZE_MAX && i + 5 < len && s[i + 1] == 'u' && memcmp(s + i + 2, "0000", 4) == 0) {
            r.bad_at = i;
            r.bad_is_nul = true;
          }
          i += 2;
          continue;
        }
        if (r.bad_at == SIZE_MAX) r.bad_at = i; /* a raw control character */
        i++;
      }
    } else if (c == '[' || c == '{') {
      if (++depth > r.depth) r.depth = depth;
    } else if (c == ']' || c == '}') {
      if (depth) depth--;
    }
  }
  return r;
}

qt_status qt_json_precheck(const char *json, size_t len, const char *what, qt_error *err) {
  json_scan scan = scan_json(json, len);
  if (scan.bad_utf8 != SIZE_MAX)
    return qt_fail(err, "", "The %s are not valid UTF-8 (byte %zu). Send text as UTF-8.", what, scan.bad_utf8);
  if (scan.depth > QT_MAX_JSON_DEPTH)
    return qt_fail(err, "", "The %s nest deeper than %d levels. Send the flat shape { \"questions\": [...] }.", what,
                   QT_MAX_JSON_DEPTH);
  if (scan.bad_at != SIZE_MAX)
    return qt_fail(err, "",
                   scan.bad_is_nul
                       ? "The %s contain a NUL character (\\u0000, byte %zu), which cannot be shown. Remove it."
                       : "The %s contain a raw control character inside a string (byte %zu). Escape it (\\n, \\t) or remove it.",
                   what, scan.bad_at);
  return QT_OK;
}

qt_status qt_json_parse(const char *json, size_t len, const char *what, struct cJSON **out, qt_error *err) {
  *out = NULL;
  qt_status st = qt_json_precheck(json, len, what, err);
  if (st) return st;
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(json, len, &end, false);
  if (!root)
    return qt_fail(err, "", "The %s are not valid JSON (near byte %zu). Send one JSON object.", what,
                   end && end >= json ? (size_t)(end - json) : 0);
  size_t used = (size_t)(end - json);
  while (used < len && (json[used] == ' ' || json[used] == '\n' || json[used] == '\r' || json[used] == '\t')) used++;
  if (used < len) {
    cJSON_Delete(root);
    return qt_fail(err, "", "The %s have text after the JSON value (byte %zu). Send one JSON object.", what, used);
  }
  *out = root;
  return QT_OK;
}
