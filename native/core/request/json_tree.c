/* json_tree.c — the tree of a call's arguments: a strict (RFC 8259) JSON parser that records
 * each value as a flat node over the text (its bytes, its first child, its next sibling, its key)
 * without copying or decoding anything. request.c reads fields from it and decodes only the
 * strings it keeps; numbers stay text unless they need reading.
 *
 * Why not cJSON here: cJSON makes a 64-byte node and a malloc'ed copy per value and
 * reads every number with strtod and localeconv after three strncmp; for a call of 20,000
 * numeric options that alone was 2.7 times the whole validation budget. cJSON still reads the
 * answers and the metadata (small, and their trees are kept), and the differential fuzzer
 * (native/fuzz/fuzz_json_tree.c) holds this parser to cJSON's reading of every text it accepts.
 *
 * Where cJSON is lenient and this parser is not: leading zeros (01), a bare dot (1. or 1.e5),
 * whitespace other than space, tab, newline and return, control bytes outside strings, and a
 * \u escape without four hex digits (cJSON reads it as U+0000, which silently cut the text
 * there). Nothing JSON.stringify writes is among them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "request_internal.h"
#include "qt_thread.h"
#include "qt_limits.h"

/* The per-thread node buffer, kept between calls (a fresh megabyte per call faulted a page every
 * 4 KB) up to this many nodes, and freed when the thread ends; larger ones are freed with their
 * tree. */
#define QT_JTREE_KEEP_NODES ((size_t)65536)

static _Thread_local qt_jv *kept_nodes;
static _Thread_local size_t kept_cap;

typedef struct parser {
  const unsigned char *s;
  size_t len, i;
  qt_jdoc *doc;
  size_t depth;
} parser;

static const unsigned char IS_WS[256] = {[' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1};

/* Bytes that end the plain run of a string: the quote, the backslash, control characters and
 * bytes above 0x7F (noted: the pre-check then has something to look at). */
#define QT_RANGE16(b)                                                                                                  \
  [b] = 1, [b + 1] = 1, [b + 2] = 1, [b + 3] = 1, [b + 4] = 1, [b + 5] = 1, [b + 6] = 1, [b + 7] = 1, [b + 8] = 1,     \
  [b + 9] = 1, [b + 10] = 1, [b + 11] = 1, [b + 12] = 1, [b + 13] = 1, [b + 14] = 1, [b + 15] = 1
#define QT_HIGH128                                                                                                     \
  QT_RANGE16(0x80), QT_RANGE16(0x90), QT_RANGE16(0xA0), QT_RANGE16(0xB0), QT_RANGE16(0xC0), QT_RANGE16(0xD0),          \
      QT_RANGE16(0xE0), QT_RANGE16(0xF0)
static const unsigned char STRING_STOP[256] = {QT_RANGE16(0x00), QT_RANGE16(0x10), ['"'] = 1, ['\\'] = 1, QT_HIGH128};
#undef QT_HIGH128
#undef QT_RANGE16

static inline void skip_ws(parser *p) {
  while (p->i < p->len && IS_WS[p->s[p->i]]) p->i++;
}

/* A new node (index), or 0 when there is no memory (0 is the root, never a new node after it). */
static uint32_t new_node(parser *p, uint8_t type) {
  qt_jdoc *d = p->doc;
  if (d->count == d->cap) {
    size_t cap = d->cap ? 2 * (size_t)d->cap : 64;
    if (cap > UINT32_MAX) return 0;
    qt_jv *v = realloc(d->v, cap * sizeof *v);
    if (!v) return 0;
    d->v = v;
    d->cap = (uint32_t)cap;
  }
  uint32_t k = d->count++;
  qt_jv *n = &d->v[k];
  memset(n, 0, sizeof *n);
  n->type = type;
  return k;
}

/* The string whose opening quote is at p->i: its raw bytes [*start, *end) inside the quotes, and
 * whether it holds escapes. Escapes are checked (\u takes four hex digits); control bytes are
 * refused. p->i ends after the closing quote. */
static bool scan_string(parser *p, uint32_t *start, uint32_t *end, bool *escaped) {
  const unsigned char *s = p->s;
  size_t i = p->i + 1, len = p->len;
  *escaped = false;
  *start = (uint32_t)i;
  for (;;) {
    while (i < len && !STRING_STOP[s[i]]) i++;
    if (i >= len) break;
    unsigned char c = s[i];
    if (c >= 0x80) { /* UTF-8 is the pre-check's to judge */
      p->doc->unchecked = true;
      while (i < len && s[i] >= 0x80) i++;
      continue;
    }
    if (c == '"') {
      *end = (uint32_t)i;
      p->i = i + 1;
      return true;
    }
    if (c != '\\') break; /* a raw control character */
    *escaped = true;
    if (i + 1 >= len) break;
    c = s[i + 1];
    if (c == 'u') {
      p->doc->unchecked = true; /* a NUL or half a surrogate pair is the pre-check's to refuse */
      if (i + 6 > len) break;
      for (int k = 2; k < 6; k++) {
        unsigned char h = s[i + (size_t)k];
        if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F'))) {
          p->i = i + (size_t)k;
          return false;
        }
      }
      i += 6;
    } else if (c == '"' || c == '\\' || c == '/' || c == 'b' || c == 'f' || c == 'n' || c == 'r' || c == 't') {
      i += 2;
    } else {
      i++;
      break;
    }
  }
  p->i = i;
  return false;
}

static bool parse_value(parser *p, uint32_t *out);

static inline bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static bool parse_number(parser *p, uint32_t k) {
  const unsigned char *s = p->s;
  size_t i = p->i, len = p->len, start = i;
  bool whole = true;
  if (i < len && s[i] == '-') i++;
  if (i < len && s[i] == '0') {
    i++;
  } else if (i < len && s[i] >= '1' && s[i] <= '9') {
    while (i < len && is_digit(s[i])) i++;
  } else {
    p->i = i;
    return false;
  }
  if (i < len && s[i] == '.') {
    whole = false;
    i++;
    if (i >= len || !is_digit(s[i])) return p->i = i, false;
    while (i < len && is_digit(s[i])) i++;
  }
  if (i < len && (s[i] == 'e' || s[i] == 'E')) {
    whole = false;
    i++;
    if (i < len && (s[i] == '+' || s[i] == '-')) i++;
    if (i >= len || !is_digit(s[i])) return p->i = i, false;
    while (i < len && is_digit(s[i])) i++;
  }
  if (i - start > QT_JSON_NUMBER_MAX) return p->i = start, false;
  qt_jv *n = &p->doc->v[k];
  n->start = (uint32_t)start;
  n->end = (uint32_t)i;
  n->flags = whole ? QT_JV_WHOLE : 0;
  p->i = i;
  return true;
}

/* The common element of a long array, a non-negative whole number ("17"), read at once: true
 * with its node made; false (nothing read, nothing made) for anything else, which parse_value
 * reads. The number ends at a comma, a closing bracket or white space. */
static inline bool parse_plain_number(parser *p, uint32_t *out) {
  const unsigned char *s = p->s;
  size_t i = p->i, len = p->len, start = i;
  if (i >= len || s[i] < '1' || s[i] > '9') return false;
  while (i < len && is_digit(s[i])) i++;
  if (i >= len || i - start > QT_JSON_NUMBER_MAX || (s[i] != ',' && s[i] != ']' && !IS_WS[s[i]])) return false;
  uint32_t k = new_node(p, QT_JV_NUMBER);
  if (!k) return false; /* parse_value says it */
  qt_jv *n = &p->doc->v[k];
  n->start = (uint32_t)start;
  n->end = (uint32_t)i;
  n->flags = QT_JV_WHOLE;
  p->i = i;
  *out = k;
  return true;
}

/* Elements or members up to the closing bracket; p->i is just after the opening one. */
static bool parse_container(parser *p, uint32_t k, bool object) {
  if (++p->depth > QT_MAX_JSON_DEPTH) return false; /* the pre-check's bound, so that it may be skipped */
  unsigned char close = object ? '}' : ']';
  skip_ws(p);
  if (p->i < p->len && p->s[p->i] == close) {
    p->i++;
    p->depth--;
    return true;
  }
  uint32_t last = 0, count = 0;
  for (;;) {
    uint32_t key_start = 0, key_end = 0;
    bool key_escaped = false;
    if (object) {
      if (p->i >= p->len || p->s[p->i] != '"' || !scan_string(p, &key_start, &key_end, &key_escaped)) return false;
      skip_ws(p);
      if (p->i >= p->len || p->s[p->i] != ':') return false;
      p->i++;
      skip_ws(p);
    }
    uint32_t child;
    if (!object && parse_plain_number(p, &child)) {
      /* an array's element that is a plain whole number: no key, nothing more to read */
    } else if (!parse_value(p, &child)) {
      return false;
    }
    qt_jv *c = &p->doc->v[child];
    if (object) {
      c->key_start = key_start;
      c->key_len = key_end - key_start;
      if (key_escaped) c->flags |= QT_JV_KEY_ESCAPED;
    }
    if (last)
      p->doc->v[last].next = child;
    else
      p->doc->v[k].child = child;
    last = child;
    count++;
    skip_ws(p);
    if (p->i >= p->len) return false;
    if (p->s[p->i] == ',') {
      p->i++;
      skip_ws(p);
      continue;
    }
    if (p->s[p->i] != close) return false;
    p->i++;
    p->doc->v[k].count = count;
    p->depth--;
    return true;
  }
}

static bool parse_value(parser *p, uint32_t *out) {
  if (p->i >= p->len) return false;
  unsigned char c = p->s[p->i];
  uint8_t type;
  switch (c) {
    case '{': type = QT_JV_OBJECT; break;
    case '[': type = QT_JV_ARRAY; break;
    case '"': type = QT_JV_STRING; break;
    case 't': type = QT_JV_TRUE; break;
    case 'f': type = QT_JV_FALSE; break;
    case 'n': type = QT_JV_NULL; break;
    default:
      if (c != '-' && !is_digit(c)) return false;
      type = QT_JV_NUMBER;
  }
  uint32_t k = new_node(p, type);
  if (!k && p->doc->count != 1) {
    p->doc->nomem = true;
    return false;
  }
  *out = k;
  size_t start = p->i;
  switch (type) {
    case QT_JV_OBJECT:
    case QT_JV_ARRAY:
      p->i++;
      if (!parse_container(p, k, type == QT_JV_OBJECT)) return false;
      break;
    case QT_JV_STRING: {
      uint32_t a, b;
      bool escaped;
      if (!scan_string(p, &a, &b, &escaped)) return false;
      p->doc->v[k].start = a;
      p->doc->v[k].end = b;
      if (escaped) p->doc->v[k].flags |= QT_JV_ESCAPED;
      return true;
    }
    case QT_JV_NUMBER: return parse_number(p, k);
    default: {
      const char *word = type == QT_JV_TRUE ? "true" : type == QT_JV_FALSE ? "false" : "null";
      size_t n = strlen(word);
      for (size_t j = 0; j < n; j++, p->i++)
        if (p->i >= p->len || p->s[p->i] != (unsigned char)word[j]) {
          p->i = start; /* the error names the word's own place, inside what holds it */
          return false;
        }
    }
  }
  p->doc->v[k].start = (uint32_t)start;
  p->doc->v[k].end = (uint32_t)p->i;
  return true;
}

bool qt_jdoc_parse(qt_jdoc *doc, const char *text, size_t len, size_t *error_at) {
  memset(doc, 0, sizeof *doc);
  doc->text = text;
  doc->len = len;
  if (len > UINT32_MAX - 1) {
    *error_at = 0;
    return false;
  }
  if (kept_nodes) { /* this thread's buffer from an earlier call */
    doc->v = kept_nodes;
    doc->cap = (uint32_t)kept_cap;
    kept_nodes = NULL;
    kept_cap = 0;
    qt_keep_until_thread_end(QT_KEEP_JSON_NODES, NULL); /* the tree frees or keeps it again */
  }
  parser p = {(const unsigned char *)text, len, 0, doc, 0};
  skip_ws(&p);
  uint32_t root;
  bool ok = parse_value(&p, &root);
  if (ok) {
    skip_ws(&p);
    if (p.i < len) {
      doc->trailing = true;
      ok = false;
    }
  }
  if (!ok) *error_at = p.i < len ? p.i : len;
  return ok;
}

void qt_jdoc_free(qt_jdoc *doc) {
  if (!doc->v) return;
  if (!kept_nodes && doc->cap <= QT_JTREE_KEEP_NODES) {
    kept_nodes = doc->v;
    kept_cap = doc->cap;
    qt_keep_until_thread_end(QT_KEEP_JSON_NODES, kept_nodes);
  } else {
    free(doc->v);
  }
  doc->v = NULL;
  doc->cap = doc->count = 0;
}

/* ---- reading ------------------------------------------------------------------------------- */

static unsigned hex_value(unsigned char h) { return h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10; }

static size_t put_utf8(unsigned char *o, uint32_t cp) {
  if (cp < 0x80) return o[0] = (unsigned char)cp, 1;
  if (cp < 0x800) return o[0] = (unsigned char)(0xC0 | cp >> 6), o[1] = (unsigned char)(0x80 | (cp & 0x3F)), 2;
  if (cp < 0x10000) {
    o[0] = (unsigned char)(0xE0 | cp >> 12);
    o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    o[2] = (unsigned char)(0x80 | (cp & 0x3F));
    return 3;
  }
  o[0] = (unsigned char)(0xF0 | cp >> 18);
  o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
  o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
  o[3] = (unsigned char)(0x80 | (cp & 0x3F));
  return 4;
}

size_t qt_json_unescape(const char *raw, size_t n, char *out) {
  const unsigned char *s = (const unsigned char *)raw;
  unsigned char *o = (unsigned char *)out;
  size_t j = 0;
  for (size_t i = 0; i < n;) {
    if (s[i] != '\\' || i + 1 >= n) {
      o[j++] = s[i++];
      continue;
    }
    unsigned char c = s[i + 1];
    i += 2;
    switch (c) {
      case 'b': o[j++] = '\b'; break;
      case 'f': o[j++] = '\f'; break;
      case 'n': o[j++] = '\n'; break;
      case 'r': o[j++] = '\r'; break;
      case 't': o[j++] = '\t'; break;
      case 'u': {
        if (i + 4 > n) return j; /* the parser saw four hex digits: cannot happen */
        uint32_t cp = 0;
        for (int k = 0; k < 4; k++) cp = cp << 4 | hex_value(s[i + (size_t)k]);
        i += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 6 <= n && s[i] == '\\' && s[i + 1] == 'u') {
          uint32_t lo = 0;
          for (int k = 2; k < 6; k++) lo = lo << 4 | hex_value(s[i + (size_t)k]);
          if (lo >= 0xDC00 && lo <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            i += 6;
          }
        }
        if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD; /* a lone half (the pre-check refuses them) */
        j += put_utf8(o + j, cp);
        break;
      }
      default: o[j++] = c; /* \" \\ \/ */
    }
  }
  return j;
}

bool qt_json_escaped_text_is(const char *raw, size_t n, const char *lit, size_t k) {
  if (n < k || n > 6 * k) return false; /* an escape is 2 to 6 bytes for at most 4 of text */
  char small[256], *buf = n <= sizeof small ? small : malloc(n);
  if (!buf) return false; /* no memory: cannot tell; only the fuzzer asks for such keys */
  bool same = qt_json_unescape(raw, n, buf) == k && memcmp(buf, lit, k) == 0;
  if (buf != small) free(buf);
  return same;
}

const qt_jv *qt_jv_get(const qt_jdoc *doc, const qt_jv *obj, const char *key) {
  if (!obj || obj->type != QT_JV_OBJECT) return NULL;
  size_t klen = strlen(key);
  for (uint32_t k = obj->child; k; k = doc->v[k].next) {
    const qt_jv *m = &doc->v[k];
    if (qt_json_text_is(doc->text + m->key_start, m->key_len, m->flags & QT_JV_KEY_ESCAPED, key, klen)) return m;
  }
  return NULL;
}
