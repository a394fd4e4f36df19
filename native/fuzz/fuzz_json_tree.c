/* fuzz_json_tree.c — libFuzzer target: the request's JSON parser (json_tree.c) against cJSON.
 * For arbitrary bytes:
 *   - what json_tree accepts without flagging it for the pre-check (no byte above 0x7F in a
 *     string, no \u escape) passes the pre-check, which request.c then skips;
 * and for those that pass the pre-check:
 *   - what json_tree accepts, cJSON accepts, and the two trees are the same: types, element
 *     order and counts, keys, every string decoded byte for byte, every number to the same
 *     double (and the bytes a node names are the value's own text, inside the input);
 *   - what cJSON accepts and json_tree refuses holds one of the leniencies json_tree.c lists
 *     (a number that is not RFC 8259's, a \u escape without four hex digits, or a byte below 0x20
 *     other than JSON's four whitespace characters outside strings), and the error offset is
 *     inside the input. */
#include <cjson/cJSON.h>
#include <locale.h>

#include "fuzz_common.h"
#include "request/request_internal.h"

/* cJSON's leniencies, by a scan of the text outside strings. */
static bool lenient(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"') {
      for (i++; i < n && s[i] != '"'; i++) {
        if (s[i] != '\\') continue;
        if (i + 1 < n && s[i + 1] == 'u') /* cJSON reads bad hex digits as U+0000 and cuts the text there */
          for (size_t k = i + 2; k < i + 6; k++)
            if (k >= n || !strchr("0123456789abcdefABCDEF", s[k]) || !s[k]) return true;
        i++;
      }
      continue;
    }
    if (c < 0x20 && c != ' ' && c != '\t' && c != '\n' && c != '\r') return true;
    if (c == '-' || (c >= '0' && c <= '9')) { /* a number: its run of number bytes, strictly */
      size_t j = i, start = i;
      while (j < n && strchr("0123456789+-.eE", s[j]) && s[j]) j++;
      size_t k = i;
      if (k < j && s[k] == '-') k++;
      bool ok = k < j && s[k] >= '0' && s[k] <= '9';
      if (ok && s[k] == '0')
        k++;
      else
        while (ok && k < j && s[k] >= '0' && s[k] <= '9') k++;
      if (ok && k < j && s[k] == '.') {
        k++;
        ok = k < j && s[k] >= '0' && s[k] <= '9';
        while (ok && k < j && s[k] >= '0' && s[k] <= '9') k++;
      }
      if (ok && k < j && (s[k] == 'e' || s[k] == 'E')) {
        k++;
        if (k < j && (s[k] == '+' || s[k] == '-')) k++;
        ok = k < j && s[k] >= '0' && s[k] <= '9';
        while (ok && k < j && s[k] >= '0' && s[k] <= '9') k++;
      }
      if (!ok || k != j || j - start > QT_JSON_NUMBER_MAX) return true;
      i = j - 1;
    }
  }
  return false;
}

static double read_number(const char *s, size_t n) {
  char buf[QT_JSON_NUMBER_MAX + 1];
  FUZZ_CHECK(n <= QT_JSON_NUMBER_MAX);
  memcpy(buf, s, n);
  buf[n] = '\0';
  return strtod(buf, NULL);
}

static void same_string(const char *raw, size_t n, bool escaped, const char *want) {
  char *text = malloc(n + 1);
  FUZZ_CHECK(text != NULL);
  size_t m = escaped ? qt_json_unescape(raw, n, text) : (memcpy(text, raw, n), n);
  FUZZ_CHECK(!escaped || m <= n);
  FUZZ_CHECK_MSG(m == strlen(want) && memcmp(text, want, m) == 0, "string differs from cJSON's: \"%.*s\" vs \"%s\"",
                 (int)m, text, want);
  free(text);
}

static void same_tree(const qt_jdoc *d, const qt_jv *v, const cJSON *c) {
  FUZZ_CHECK(v->start <= v->end && v->end <= d->len);
  switch (c->type & 0xFF) {
    case cJSON_NULL: FUZZ_CHECK(v->type == QT_JV_NULL); break;
    case cJSON_False: FUZZ_CHECK(v->type == QT_JV_FALSE); break;
    case cJSON_True: FUZZ_CHECK(v->type == QT_JV_TRUE); break;
    case cJSON_Number: {
      FUZZ_CHECK(v->type == QT_JV_NUMBER);
      double x = read_number(d->text + v->start, v->end - v->start);
      FUZZ_CHECK_MSG(x == c->valuedouble || (x != x && c->valuedouble != c->valuedouble), "number %.*s: %.17g vs %.17g",
                     (int)(v->end - v->start), d->text + v->start, x, c->valuedouble);
      bool whole = !memchr(d->text + v->start, '.', v->end - v->start) &&
                   !memchr(d->text + v->start, 'e', v->end - v->start) &&
                   !memchr(d->text + v->start, 'E', v->end - v->start);
      FUZZ_CHECK(whole == ((v->flags & QT_JV_WHOLE) != 0));
      break;
    }
    case cJSON_String:
      FUZZ_CHECK(v->type == QT_JV_STRING);
      same_string(d->text + v->start, v->end - v->start, v->flags & QT_JV_ESCAPED, c->valuestring);
      break;
    case cJSON_Array:
    case cJSON_Object: {
      bool object = (c->type & 0xFF) == cJSON_Object;
      FUZZ_CHECK(v->type == (object ? QT_JV_OBJECT : QT_JV_ARRAY));
      FUZZ_CHECK(d->text[v->start] == (object ? '{' : '[') && d->text[v->end - 1] == (object ? '}' : ']'));
      uint32_t k = v->child, count = 0;
      for (const cJSON *e = c->child; e; e = e->next, count++) {
        FUZZ_CHECK(k != 0 && k < d->count);
        const qt_jv *x = &d->v[k];
        if (object) {
          FUZZ_CHECK(x->key_start + x->key_len <= d->len);
          same_string(d->text + x->key_start, x->key_len, x->flags & QT_JV_KEY_ESCAPED, e->string);
          FUZZ_CHECK(qt_jv_get(d, v, e->string) != NULL); /* found by name (maybe an earlier namesake) */
        }
        same_tree(d, x, e);
        k = x->next;
      }
      FUZZ_CHECK(k == 0 && count == v->count);
      break;
    }
    default: FUZZ_CHECK(!"a cJSON type json_tree has no counterpart for");
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *s = (const char *)data;
  qt_jdoc doc;
  size_t at = SIZE_MAX;
  bool ours = qt_jdoc_parse(&doc, s, size, &at);
  bool prechecked = qt_json_precheck(s, size, "arguments", "", 0, NULL) == QT_OK;
  /* a text accepted with nothing for the pre-check to look at passes it (request.c skips it) */
  FUZZ_CHECK_MSG(!ours || doc.unchecked || prechecked, "accepted, flagged clean, refused by the pre-check");
  if (!prechecked) {
    qt_jdoc_free(&doc);
    return 0;
  }
  const char *end = NULL;
  cJSON *theirs = cJSON_ParseWithLengthOpts(s, size, &end, false);
  if (theirs) { /* cJSON stops after one value: the rest must be whitespace */
    size_t used = (size_t)(end - s);
    while (used < size && (s[used] == ' ' || s[used] == '\n' || s[used] == '\r' || s[used] == '\t')) used++;
    if (used < size) {
      cJSON_Delete(theirs);
      theirs = NULL;
    }
  }
  if (ours) {
    FUZZ_CHECK_MSG(theirs != NULL, "json_tree accepts what cJSON refuses");
    FUZZ_CHECK(doc.count >= 1);
    same_tree(&doc, &doc.v[0], theirs);
  } else {
    FUZZ_CHECK(!doc.nomem);
    FUZZ_CHECK(at <= size);
    FUZZ_CHECK_MSG(!theirs || lenient(s, size), "json_tree refuses what cJSON accepts, with no leniency of cJSON's");
  }
  cJSON_Delete(theirs);
  qt_jdoc_free(&doc);
  return 0;
}
