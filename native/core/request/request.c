/* request.c — turns a model's `question` arguments (JSON, canonical or one of the accepted
 * alternative shapes) into a normalized, validated qt_request (request_json.c writes it back as
 * canonical JSON).
 *
 * Accepted shapes (all normalized to the canonical one):
 *   canonical      { questions: [{ id, label?, prompt, options?: [{ value, label, description?,
 *                    preview? }], multiSelect? }], metadata?: { source? }, answers?, wait? }
 *   ask_user       { questions: [{ question, header?, options?: [{ label, description?,
 *                    preview? }], multiSelect? }] }
 *   single         { header?, question, options, multiple?, custom? }
 *   plain options  options: ["A", "B"]; questionnaire's allowOther is accepted and ignored
 *                  ("Something else…" is always offered). */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qt_typed.h"
#include "request_internal.h"
#include "qt_strings.h"
#include "qt_text.h"

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

const char *qt_status_code(qt_status status) {
  switch (status) {
    case QT_OK: return "QT_OK";
    case QT_ERR_NOMEM: return "QT_ENOMEM";
    case QT_ERR_INVALID: return "QT_EINVALID";
    case QT_ERR_USAGE: return "QT_EUSAGE";
    case QT_ERR_STATE: return "QT_ESTATE";
  }
  return "QT_EUNKNOWN";
}

/* ---- freeing ------------------------------------------------------------------------------ */
void qt_request_free(qt_request *req) {
  if (!req) return;
  if (req->preset) qt_answers_free(req->preset, req->question_count);
  for (size_t i = 0; i < req->question_count; i++)
    if (!qt_arena_in_scratch(req->arena, req->questions[i].options)) free(req->questions[i].options);
  free(req->questions);
  free(req->metadata_json);
  qt_arena_free(req->arena);
  free(req);
}

size_t qt_request_footprint(const qt_request *req) {
  if (!req) return 0;
  size_t n = sizeof *req + req->question_count * sizeof *req->questions;
  for (size_t i = 0; i < req->question_count; i++) n += req->questions[i].option_count * sizeof(qt_option);
  n += qt_arena_bytes(req->arena);
  if (req->metadata_json) n += strlen(req->metadata_json) + 1;
  for (size_t i = 0; req->preset && i < req->question_count; i++) {
    const qt_answer *a = &req->preset[i];
    n += sizeof *a + a->index_count * sizeof *a->indices + (a->custom ? strlen(a->custom) + 1 : 0) +
         (a->note ? strlen(a->note) + 1 : 0);
  }
  return n;
}

/* ---- reading fields ----------------------------------------------------------------------- */
/* What reading a request needs at hand: its string arena and the tree being read. */
typedef struct reader {
  struct qt_arena *arena;
  const qt_jdoc *doc;
  qt_error *err;
} reader;

typedef struct field_rule {
  const char *what; /* "prompt", "option label" … for messages */
  size_t max_bytes;
  bool required;      /* absent or empty after trimming is an error */
  bool fold_newlines; /* newlines become spaces (one-line fields) */
} field_rule;

/* A field's text as kept: in the arena, its length, and whether it can be written into JSON as
 * it is (no byte of it needs escaping). */
typedef struct text {
  char *s; /* NULL: absent */
  size_t len;
  bool plain;
} text;

static const char *type_name(const qt_jv *v) {
  if (!v) return "nothing";
  switch (v->type) {
    case QT_JV_STRING: return "a string";
    case QT_JV_NUMBER: return "a number";
    case QT_JV_TRUE:
    case QT_JV_FALSE: return "a boolean";
    case QT_JV_NULL: return "null";
    case QT_JV_ARRAY: return "an array";
    case QT_JV_OBJECT: return "an object";
  }
  return "an unknown value";
}

static inline bool absent(const qt_jv *v) { return !v || v->type == QT_JV_NULL; }

/* Where a field is, formatted only when something is wrong with it (paths cost a printf per
 * field, and a 100 KB call has thousands of fields): base[.options[option]][.field]. */
typedef struct where {
  const char *base;  /* "questions[2]", or "" for the single-question shape */
  size_t option;     /* SIZE_MAX: not inside an option */
  const char *field; /* NULL: the item itself */
} where;

static void where_text(const where *w, char *out, size_t cap) {
  const char *dot = *w->base ? "." : "";
  if (w->option != SIZE_MAX && w->field)
    qt_pathf(out, cap, "%s%soptions[%zu].%s", w->base, dot, w->option, w->field);
  else if (w->option != SIZE_MAX)
    qt_pathf(out, cap, "%s%soptions[%zu]", w->base, dot, w->option);
  else if (w->field)
    qt_pathf(out, cap, "%s%s%s", w->base, dot, w->field);
  else
    qt_pathf(out, cap, "%s", w->base);
}

/* Whether a number is its own canonical text: a whole number of up to 15 digits but -0 (the
 * usual case: options 1, 2, 3 …; qt_number_text writes them the same). */
static inline bool number_is_own_text(const qt_jdoc *d, const qt_jv *v) {
  const char *s = d->text + v->start;
  size_t n = v->end - v->start;
  return (v->flags & QT_JV_WHOLE) && n - (s[0] == '-') <= 15 && !(n == 2 && s[0] == '-' && s[1] == '0');
}

/* A number as text into out (room for 64 bytes): its own text when it is canonical; others are
 * read and written as qt_number_text does. */
static size_t number_text(const qt_jdoc *d, const qt_jv *v, char *out) {
  const char *s = d->text + v->start;
  size_t n = v->end - v->start;
  if (number_is_own_text(d, v)) {
    memcpy(out, s, n);
    out[n] = '\0';
    return n;
  }
  qt_number_text(qt_json_number(s, n), out, 64); /* the parser bounds n */
  return strlen(out);
}

/* Reads a string field (numbers are accepted and written as text). out->s is NULL when the
 * field is absent/null and not required. */
static qt_status read_text(reader *r, const qt_jv *v, const where *w, const field_rule *rule, text *out) {
  *out = (text){NULL, 0, true};
  char numbuf[64], path[sizeof((qt_error *)0)->path];
  const char *s;
  size_t n;
  bool escaped = false;
  if (absent(v)) {
    if (!rule->required) return QT_OK;
    where_text(w, path, sizeof path);
    return qt_fail(r->err, path, "%s: the %s is missing. Give it as a non-empty string.", path, rule->what);
  }
  if (v->type == QT_JV_STRING) {
    s = r->doc->text + v->start;
    n = v->end - v->start;
    escaped = v->flags & QT_JV_ESCAPED;
  } else if (v->type == QT_JV_NUMBER) {
    n = number_text(r->doc, v, numbuf);
    s = numbuf;
  } else {
    where_text(w, path, sizeof path);
    return qt_fail(r->err, path, "%s: the %s must be a string, not %s. Send it as a JSON string.", path, rule->what,
                   type_name(v));
  }
  char *t;
  if (escaped) { /* decoded into the arena, then trimmed there */
    if (!(t = qt_arena_alloc(r->arena, n + 1))) return QT_ERR_NOMEM;
    n = qt_json_unescape(s, n, t);
    s = t;
  }
  if (n > rule->max_bytes) {
    where_text(w, path, sizeof path);
    return qt_fail(r->err, path, "%s: the %s is %zu bytes long; the limit is %zu. Shorten it.", path, rule->what, n,
                   rule->max_bytes);
  }
  if (escaped) {
    /* only decoded text can hold controls and other whitespace than the space (the parser
     * refuses raw ones), and only it can need escaping again */
    while (n && is_space(*t)) t++, n--;
    while (n && is_space(t[n - 1])) n--;
    t[n] = '\0';
    if (rule->fold_newlines)
      for (size_t i = 0; i < n; i++)
        if (t[i] == '\n' || t[i] == '\r' || t[i] == '\t') t[i] = ' ';
    out->plain = false;
  } else {
    while (n && *s == ' ') s++, n--; /* the only whitespace raw text can hold */
    while (n && s[n - 1] == ' ') n--;
    if (!(t = qt_arena_trimmed(r->arena, s, n))) return QT_ERR_NOMEM;
  }
  if (!n) {
    if (!rule->required) return QT_OK;
    where_text(w, path, sizeof path);
    return qt_fail(r->err, path, "%s: the %s is empty. Give it as a non-empty string.", path, rule->what);
  }
  out->s = t;
  out->len = n;
  return QT_OK;
}

/* Whether a string value's text is `lit` (escapes decoded). */
static bool string_is(const qt_jdoc *d, const qt_jv *v, const char *lit) {
  return qt_json_text_is(d->text + v->start, v->end - v->start, v->flags & QT_JV_ESCAPED, lit, strlen(lit));
}

static qt_status read_bool(const reader *r, const qt_jv *v, const char *path, bool *out) {
  if (absent(v)) return QT_OK;
  if (v->type == QT_JV_TRUE || v->type == QT_JV_FALSE) {
    *out = v->type == QT_JV_TRUE;
    return QT_OK;
  }
  if (v->type == QT_JV_STRING && (string_is(r->doc, v, "true") || string_is(r->doc, v, "false"))) {
    *out = string_is(r->doc, v, "true");
    return QT_OK;
  }
  return qt_fail(r->err, path, "%s must be true or false, not %s.", path, type_name(v));
}

/* First of several alternative field names present in obj (canonical name first). */
static const qt_jv *field(const qt_jdoc *d, const qt_jv *obj, const char *const *names) {
  for (; *names; names++) {
    const qt_jv *v = qt_jv_get(d, obj, *names);
    if (v) return v;
  }
  return NULL;
}

/* Whether an object member's key is `lit` (of length k). */
static inline bool key_is(const qt_jdoc *d, const qt_jv *m, const char *lit, size_t k) {
  return qt_json_text_is(d->text + m->key_start, m->key_len, m->flags & QT_JV_KEY_ESCAPED, lit, k);
}
#define KEY_IS(d, m, lit) key_is((d), (m), (lit), sizeof(lit) - 1)

/* Shortens s in place to at most max bytes at a UTF-8 boundary, ending it with "…" (a cosmetic
 * normalization for labels). */
static void shorten_label(char *s, size_t max) {
  size_t n = strlen(s);
  if (n <= max || max < 4) return;
  size_t cut = max - 3;
  while (cut && ((unsigned char)s[cut] & 0xC0) == 0x80) cut--;
  memcpy(s + cut, "\xE2\x80\xA6", 4);
}

/* "Database Selection" → "database-selection"; "" when nothing usable remains. */
static void slugify(const char *in, char *out, size_t cap) {
  size_t j = 0;
  bool dash = false;
  for (const unsigned char *p = (const unsigned char *)in; *p && j + 1 < cap; p++) {
    if (isalnum(*p) && *p < 0x80) {
      if (dash && j) out[j++] = '-';
      if (j + 1 >= cap) break;
      out[j++] = (char)tolower(*p);
      dash = false;
    } else {
      dash = true;
    }
  }
  out[j] = '\0';
}

/* ---- options ------------------------------------------------------------------------------ */

/* Where option_fast puts its labels: one block of the arena per question, as large as the
 * options' own text and a NUL each (a label is never longer than its text), taken from in turn. */
typedef struct label_pool {
  char *next, *end;
} label_pool;

/* The common option read without read_text: a whole number of up to 15 digits (its own text)
 * or a string without escapes, neither empty nor too long after trimming. False (nothing done)
 * for anything else, which read_text then reads, reporting what is wrong. */
static inline bool option_fast(reader *r, label_pool *pool, const qt_jv *item, qt_option *o) {
  const char *s = r->doc->text + item->start;
  size_t n = item->end - item->start;
  if (n > QT_MAX_OPTION_LABEL_BYTES) return false; /* read_text's limit is on the untrimmed text */
  if (item->type == QT_JV_NUMBER) {
    if (!number_is_own_text(r->doc, item)) return false;
  } else if (item->type == QT_JV_STRING && !(item->flags & QT_JV_ESCAPED)) {
    while (n && *s == ' ') s++, n--;
    while (n && s[n - 1] == ' ') n--;
  } else {
    return false;
  }
  if (!n) return false;
  char *t;
  if (pool->next && (size_t)(pool->end - pool->next) > n) {
    t = pool->next;
    pool->next += n + 1;
  } else if (!(t = qt_arena_alloc(r->arena, n + 1))) {
    return false; /* read_text reports it */
  }
  qt_copy_short(t, s, n);
  t[n] = '\0';
  o->label = o->value = t;
  o->label_len = o->value_len = (uint32_t)n;
  o->label_plain = true;
  return true;
}

static qt_status read_option(reader *r, label_pool *pool, const qt_jv *item, const char *base, size_t k, qt_option *o) {
  static const field_rule label_rule = {"option label", QT_MAX_OPTION_LABEL_BYTES, true, true};
  static const field_rule value_rule = {"option value", QT_MAX_OPTION_VALUE_BYTES, false, false};
  static const field_rule desc_rule = {"option description", QT_MAX_DESCRIPTION_BYTES, false, false};
  static const field_rule preview_rule = {"option preview", QT_MAX_PREVIEW_BYTES, false, false};
  const qt_jdoc *d = r->doc;
  qt_status st;
  text label, value = {NULL, 0, true}, t;
  *o = (qt_option){0};
  if (option_fast(r, pool, item, o)) return QT_OK;
  if (item->type == QT_JV_STRING || item->type == QT_JV_NUMBER) {
    where w = {base, k, NULL};
    if ((st = read_text(r, item, &w, &label_rule, &label))) return st;
  } else if (item->type == QT_JV_OBJECT) {
    /* One walk over the option's members (an option is read thousands of times in a large call);
     * the first of each name wins, and "label" beats its alternatives "text" and "title". */
    const qt_jv *lab = NULL, *alt_label = NULL, *val = NULL, *description = NULL, *preview = NULL;
    for (uint32_t i = item->child; i; i = d->v[i].next) {
      const qt_jv *m = &d->v[i];
      if (!lab && KEY_IS(d, m, "label"))
        lab = m;
      else if (!val && KEY_IS(d, m, "value"))
        val = m;
      else if (!description && KEY_IS(d, m, "description"))
        description = m;
      else if (!preview && KEY_IS(d, m, "preview"))
        preview = m;
      else if (!alt_label && (KEY_IS(d, m, "text") || KEY_IS(d, m, "title")))
        alt_label = m;
    }
    if (!lab) lab = alt_label;
    if (absent(lab)) lab = val; /* { value } alone: the value is the label */
    where w = {base, k, "label"};
    if ((st = read_text(r, lab, &w, &label_rule, &label))) return st;
    w.field = "value";
    if ((st = read_text(r, val, &w, &value_rule, &value))) return st;
    w.field = "description";
    if ((st = read_text(r, description, &w, &desc_rule, &t))) return st;
    o->description = t.s;
    w.field = "preview";
    if ((st = read_text(r, preview, &w, &preview_rule, &t))) return st;
    o->preview = t.s;
  } else {
    char path[sizeof((qt_error *)0)->path];
    where_text(&(where){base, k, NULL}, path, sizeof path);
    return qt_fail(r->err, path, "%s: an option must be an object { value, label, description? } or a string, not %s.",
                   path, type_name(item));
  }
  if (!value.s) value = label; /* the arena owns both: sharing the bytes is safe */
  o->label = label.s;
  o->label_len = (uint32_t)label.len; /* within QT_MAX_OPTION_LABEL_BYTES */
  o->value = value.s;
  o->value_len = (uint32_t)value.len;
  o->label_plain = label.plain;
  return QT_OK;
}

/* ---- repeated options --------------------------------------------------------------------- */
/* An open-addressing hash index of the labels (or the values) of a question's options read so
 * far, by hash and option number (the text is the option's). At most half full, so probes stay
 * short. */
typedef struct option_index {
  struct option_slot {
    uint32_t hash;
    uint32_t option; /* the option's index + 1; 0: an empty slot */
  } * slots;
  size_t mask;
} option_index;

static uint32_t hash_text(const char *s, size_t n) { /* FNV-1a, then mixed (MurmurHash3's fmix32) */
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
  /* FNV's low bits, the slot, barely change between "17" and "18": options 0 … 999 probed
   * long runs of neighbouring slots (a fifth of validating 20,000 of them) */
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

static bool option_index_init(option_index *ix, size_t count) {
  size_t cap = 8;
  while (cap < 2 * count) cap *= 2;
  ix->slots = calloc(cap, sizeof *ix->slots);
  ix->mask = cap - 1;
  return ix->slots != NULL;
}

static void option_index_free(option_index *ix) {
  free(ix->slots);
  ix->slots = NULL;
}

/* The option an equal text was recorded for, or SIZE_MAX after recording option k's text (its
 * label, or with `values` its value; hash h). Options are added in order and reading stops at
 * the first repeat, so the recorded texts are distinct and a match is the one earlier option with
 * that text. */
static size_t option_index_add(option_index *ix, const qt_option *options, bool values, uint32_t h, size_t k) {
  const char *s = values ? options[k].value : options[k].label;
  size_t n = values ? options[k].value_len : options[k].label_len;
  for (size_t i = h & ix->mask;; i = (i + 1) & ix->mask) {
    struct option_slot *slot = &ix->slots[i];
    if (!slot->option) {
      *slot = (struct option_slot){h, (uint32_t)k + 1};
      return SIZE_MAX;
    }
    if (slot->hash != h) continue;
    const qt_option *o = &options[slot->option - 1];
    const char *t = values ? o->value : o->label;
    size_t m = values ? o->value_len : o->label_len;
    if (m == n && memcmp(s, t, n) == 0) return slot->option - 1;
  }
}

/* Options whose label is a whole number below this (and their value the same text) are checked
 * for repeats by a table, not by hashing (read_question). Above QT_MAX_OPTIONS, so that 0 … n-1
 * and 1 … n always fit; in uint16_t, so the table is 4 KB on the stack. */
#define SMALL_OPTION_NUMBERS 2048
_Static_assert(SMALL_OPTION_NUMBERS > QT_MAX_OPTIONS && QT_MAX_OPTIONS < 65535, "option numbers fit the table");

/* The option's label as a small number (its value the same text), or SIZE_MAX: up to four
 * decimal digits, no leading zero (so "07" and "7", different labels, never share a slot). */
static inline size_t small_number(const qt_option *o) {
  const char *s = o->label;
  size_t n = o->label_len, v = 0;
  if (o->value != o->label || n == 0 || n > 4 || (s[0] == '0' && n > 1)) return SIZE_MAX;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return SIZE_MAX;
    v = v * 10 + (size_t)(s[i] - '0');
  }
  return v < SMALL_OPTION_NUMBERS ? v : SIZE_MAX;
}

/* ---- questions ---------------------------------------------------------------------------- */
static const char *const K_ID[] = {"id", NULL};
static const char *const K_QLABEL[] = {"label", "header", "title", NULL};
static const char *const K_PROMPT[] = {"prompt", "question", "text", NULL};
static const char *const K_OPTIONS[] = {"options", "choices", "suggestions", NULL};
static const char *const K_MULTI[] = {"multiSelect", "multiple", "multi_select", "multiselect", NULL};
static const char *const K_QUESTIONS[] = {"questions", NULL};
static const char *const K_TYPE[] = {"type", NULL};
static const char *const K_MIN[] = {"min", "minimum", NULL};
static const char *const K_MAX[] = {"max", "maximum", NULL};
static const char *const K_SECRET[] = {"secret", NULL};

/* `secret: true` (read after the type): a question answered in the person's own words only —
 * no options, no type — whose answer the model gets as a file (qt_secret.h). */
static qt_status read_secret(reader *r, const qt_jv *item, const char *path, qt_question *q) {
  const qt_jv *v = field(r->doc, item, K_SECRET);
  if (absent(v)) return QT_OK;
  char p[sizeof((qt_error *)0)->path];
  qt_pathf(p, sizeof p, "%s%ssecret", path, *path ? "." : "");
  if (v->type != QT_JV_TRUE && v->type != QT_JV_FALSE)
    return qt_fail(r->err, p, "%s must be true or false (true: the answer is a secret, like a key), not %s.", p,
                   type_name(v));
  if (v->type == QT_JV_FALSE) return QT_OK;
  if (q->option_count || q->multi_select)
    return qt_fail(r->err, p,
                   "%s: a secret question is answered in the person's own words. Leave options and multiSelect out.",
                   p);
  if (q->type != QT_TYPE_TEXT) return qt_fail(r->err, p, "%s: a secret question takes text. Leave type out.", p);
  q->secret = true;
  return QT_OK;
}

/* A bound of a numeric question: a JSON number. */
static qt_status read_bound(const reader *r, const qt_jv *v, const char *path, bool *has, double *out) {
  if (absent(v)) return QT_OK;
  if (v->type != QT_JV_NUMBER) return qt_fail(r->err, path, "%s must be a number, not %s.", path, type_name(v));
  double d = qt_json_number(r->doc->text + v->start, v->end - v->start); /* the parser bounds its length */
  if (!isfinite(d)) return qt_fail(r->err, path, "%s is too large a number.", path);
  *has = true;
  *out = d;
  return QT_OK;
}

/* A question's `type` (typed answers, qt_typed.h) and its bounds, read after its options: a
 * typed question other than a boolean one takes no options and one answer; a boolean one has two
 * options, yes first (Yes and No when it gives none). */
static qt_status read_type(reader *r, const qt_jv *item, const char *path, qt_question *q) {
  static const char TYPES[] = "\"number\", \"integer\", \"boolean\", \"date\", \"email\" or \"url\"";
  const qt_jdoc *d = r->doc;
  qt_error *err = r->err;
  char p[sizeof((qt_error *)0)->path];
  const char *dot = *path ? "." : "";
  const qt_jv *v = field(d, item, K_TYPE), *lo = field(d, item, K_MIN), *hi = field(d, item, K_MAX);
  if (absent(v) && absent(lo) && absent(hi)) return QT_OK;
  qt_pathf(p, sizeof p, "%s%stype", path, dot);
  if (!absent(v)) {
    qt_type t;
    if (v->type != QT_JV_STRING)
      return qt_fail(err, p, "%s must be a string, %s (leave it out for any text), not %s.", p, TYPES, type_name(v));
    if ((v->flags & QT_JV_ESCAPED) || !qt_type_from_name(d->text + v->start, v->end - v->start, &t)) {
      int n = (int)(v->end - v->start);
      return qt_fail(err, p, "%s \"%.*s\" is not a type: use %s, or leave it out for any text.", p, n > 40 ? 40 : n,
                     d->text + v->start, TYPES);
    }
    q->type = (uint8_t)t;
  }
  bool numeric = q->type == QT_TYPE_NUMBER || q->type == QT_TYPE_INTEGER;
  qt_status st;
  qt_pathf(p, sizeof p, "%s%smin", path, dot);
  if (!absent(lo) && !numeric)
    return qt_fail(err, p, "%s: bounds are for a question of type \"number\" or \"integer\".", p);
  if ((st = read_bound(r, lo, p, &q->has_min, &q->min))) return st;
  qt_pathf(p, sizeof p, "%s%smax", path, dot);
  if (!absent(hi) && !numeric)
    return qt_fail(err, p, "%s: bounds are for a question of type \"number\" or \"integer\".", p);
  if ((st = read_bound(r, hi, p, &q->has_max, &q->max))) return st;
  if (q->has_min && q->has_max && q->min > q->max) return qt_fail(err, p, "%s is below min. Give min <= max.", p);
  const char *name = qt_type_name((qt_type)q->type);
  qt_pathf(p, sizeof p, "%s%smultiSelect", path, dot);
  if (q->type != QT_TYPE_TEXT && q->multi_select)
    return qt_fail(err, p, "%s: a question of type \"%s\" takes one answer. Leave multiSelect out.", p, name);
  qt_pathf(p, sizeof p, "%s%soptions", path, dot);
  if (q->type == QT_TYPE_BOOLEAN) {
    if (q->option_count == 2) return QT_OK;
    if (q->option_count)
      return qt_fail(err, p,
                     "%s: a question of type \"boolean\" has two options, yes first and no second. Give two, or "
                     "leave options out for Yes and No.",
                     p);
    qt_option *o = calloc(2, sizeof *o);
    if (!o) return QT_ERR_NOMEM;
    static const char *const YES_NO[2] = {"Yes", "No"};
    for (int k = 0; k < 2; k++) {
      if (!(o[k].label = o[k].value = qt_arena_strdup(r->arena, YES_NO[k]))) {
        free(o);
        return QT_ERR_NOMEM;
      }
      o[k].label_len = o[k].value_len = (uint32_t)strlen(YES_NO[k]);
      o[k].label_plain = true;
    }
    q->options = o;
    q->option_count = 2;
    return QT_OK;
  }
  if (q->type != QT_TYPE_TEXT && q->option_count)
    return qt_fail(err, p,
                   "%s: a question of type \"%s\" takes a typed answer, not options. Leave options out, or leave "
                   "type out.",
                   p, name);
  return QT_OK;
}

/* `path` is "questions[i]", or "" for the single-question shape (fields are then top-level). */
static qt_status read_question(reader *r, const qt_jv *item, size_t index, const char *path, qt_question *q) {
  static const field_rule id_rule = {"question id", QT_MAX_ID_BYTES, false, true};
  static const field_rule label_rule = {"question label", (size_t)-1, false, true};
  static const field_rule prompt_rule = {"prompt", QT_MAX_PROMPT_BYTES, true, false};
  const qt_jdoc *d = r->doc;
  qt_error *err = r->err;
  char p[sizeof((qt_error *)0)->path];
  const char *dot = *path ? "." : "";
  qt_status st;
  text t;
  if (item->type != QT_JV_OBJECT)
    return qt_fail(
        err, path,
        "%s must be an object like { \"id\": \"db\", \"prompt\": \"Which database?\", \"options\": [...] }, not %s.",
        path, type_name(item));
  where w = {path, SIZE_MAX, "prompt"};
  if ((st = read_text(r, field(d, item, K_PROMPT), &w, &prompt_rule, &t))) return st;
  q->prompt = t.s;
  w.field = "id";
  if ((st = read_text(r, field(d, item, K_ID), &w, &id_rule, &t))) return st;
  q->id = t.s;
  w.field = "label";
  if ((st = read_text(r, field(d, item, K_QLABEL), &w, &label_rule, &t))) return st;
  q->label = t.s;
  if (q->label) {
    shorten_label(q->label, QT_MAX_LABEL_BYTES);
  } else {
    char buf[32];
    snprintf(buf, sizeof buf, "Q%zu", index + 1);
    if (!(q->label = qt_arena_strdup(r->arena, buf))) return QT_ERR_NOMEM;
  }
  qt_pathf(p, sizeof p, "%s%smultiSelect", path, dot);
  if ((st = read_bool(r, field(d, item, K_MULTI), p, &q->multi_select))) return st;
  const qt_jv *opts = field(d, item, K_OPTIONS);
  qt_pathf(p, sizeof p, "%s%soptions", path, dot);
  if (!absent(opts)) {
    if (opts->type != QT_JV_ARRAY)
      return qt_fail(err, p, "%s must be an array of options, not %s. Omit it for a free-text question.", p,
                     type_name(opts));
    size_t n = opts->count;
    if (n > QT_MAX_OPTIONS)
      return qt_fail(err, p, "%s has %zu options; the limit is %d. Offer fewer options, or ask a free-text question.",
                     p, n, QT_MAX_OPTIONS);
    if (n > 0) { /* read_option sets every field */
      if (!(q->options = qt_arena_scratch_alloc(r->arena, n * sizeof *q->options)))
        q->options = malloc(n * sizeof *q->options);
      if (!q->options) return QT_ERR_NOMEM;
    }
    /* Repeats are found through two hash indexes (labels, values) of the options read so far:
     * the same report as comparing each option with every earlier one — the first option that
     * repeats an earlier one, naming the earliest earlier option it matches, its label checked
     * before its value — in linear time (1,000 options were ~500,000 comparisons). */
    /* While every option's value is its label (options given as bare strings or numbers, or
     * without a value), the values' index would be the labels': it is made only at the first
     * option with a value of its own, from the options before it. */
    /* While every option so far is a small whole number (its label its value: options 1, 2, 3
     * …, the commonest large call), a table by number stands in for both indexes: no text is
     * hashed. The first other option moves the options read so far into the labels' index. */
    /* Only for options given bare (what option_fast reads): objects' texts are read_text's, and
     * a block reserved for them would push the request's strings out of its arena's first chunk. */
    label_pool pool = {NULL, NULL};
    uint8_t first = opts->child ? d->v[opts->child].type : QT_JV_NULL;
    if (first == QT_JV_NUMBER || first == QT_JV_STRING) {
      size_t pool_bytes = (size_t)(opts->end - opts->start) + n;
      if ((pool.next = qt_arena_alloc(r->arena, pool_bytes))) pool.end = pool.next + pool_bytes;
    }
    option_index labels = {NULL, 0}, values = {NULL, 0};
    bool shared = true, numbers = true;
    uint16_t by_number[SMALL_OPTION_NUMBERS];
    memset(by_number, 0, sizeof by_number);
    for (uint32_t i = opts->child; i; i = d->v[i].next) {
      size_t k = q->option_count;
      q->option_count++; /* counted before reading, so a half-read option is freed too */
      qt_option *o = &q->options[k];
      if ((st = read_option(r, &pool, &d->v[i], path, k, o))) break;
      if (numbers) {
        size_t number = small_number(o);
        if (number != SIZE_MAX) {
          size_t earlier = by_number[number];
          if (!earlier) {
            by_number[number] = (uint16_t)(k + 1);
            continue;
          }
          char op[sizeof p];
          where_text(&(where){path, k, NULL}, op, sizeof op);
          st = qt_fail(err, op,
                       "%s.label \"%s\" repeats %s%soptions[%zu]. Give every option of a question a distinct label.",
                       op, o->label, path, dot, earlier - 1);
          break;
        }
        numbers = false;
        if (!option_index_init(&labels, n)) {
          st = QT_ERR_NOMEM;
          break;
        }
        for (size_t j = 0; j < k; j++) /* distinct: the table said so */
          option_index_add(&labels, q->options, false, hash_text(q->options[j].label, q->options[j].label_len), j);
      }
      if (shared && o->value != o->label) {
        if (!option_index_init(&values, n)) {
          st = QT_ERR_NOMEM;
          break;
        }
        for (size_t j = 0; j < k; j++) /* distinct: their labels were */
          option_index_add(&values, q->options, true, hash_text(q->options[j].value, q->options[j].value_len), j);
        shared = false;
      }
      uint32_t hl = hash_text(o->label, o->label_len);
      size_t jl = option_index_add(&labels, q->options, false, hl, k);
      size_t jv = shared ? jl
                         : option_index_add(&values, q->options, true,
                                            o->value == o->label ? hl : hash_text(o->value, o->value_len), k);
      if (jl == SIZE_MAX && jv == SIZE_MAX) continue;
      char op[sizeof p];
      where_text(&(where){path, k, NULL}, op, sizeof op);
      if (jl != SIZE_MAX && jl <= jv) {
        st = qt_fail(err, op,
                     "%s.label \"%s\" repeats %s%soptions[%zu]. Give every option of a question a distinct label.", op,
                     o->label, path, dot, jl);
        break;
      }
      st = qt_fail(err, op,
                   "%s.value \"%s\" repeats %s%soptions[%zu]. Give every option of a question a distinct value.", op,
                   o->value, path, dot, jv);
      break;
    }
    option_index_free(&labels);
    option_index_free(&values);
    if (st) return st;
  }
  if ((st = read_type(r, item, path, q))) return st;
  return read_secret(r, item, path, q);
}

/* Gives every question without an id one: a slug of its label/header, else q<n>; unique. */
static qt_status assign_ids(qt_request *req, const bool *explicit_id, qt_error *err) {
  for (size_t i = 0; i < req->question_count; i++) {
    if (!explicit_id[i]) continue;
    for (size_t j = 0; j < i; j++)
      if (explicit_id[j] && strcmp(req->questions[i].id, req->questions[j].id) == 0) {
        char p[64];
        qt_pathf(p, sizeof p, "questions[%zu].id", i);
        return qt_fail(err, p, "%s \"%s\" repeats questions[%zu].id. Give every question a distinct id.", p,
                       req->questions[i].id, j);
      }
  }
  for (size_t i = 0; i < req->question_count; i++) {
    qt_question *q = &req->questions[i];
    if (explicit_id[i]) continue;
    char base[QT_MAX_ID_BYTES - 8], cand[QT_MAX_ID_BYTES];
    bool has_label = strncmp(q->label, "Q", 1) != 0 || strspn(q->label + 1, "0123456789") != strlen(q->label + 1);
    base[0] = '\0';
    if (has_label) slugify(q->label, base, sizeof base);
    if (!base[0]) snprintf(base, sizeof base, "q%zu", i + 1);
    snprintf(cand, sizeof cand, "%s", base);
    for (unsigned n = 2;; n++) {
      bool taken = false;
      for (size_t j = 0; j < req->question_count && !taken; j++)
        if (j != i && req->questions[j].id && strcmp(req->questions[j].id, cand) == 0) taken = true;
      if (!taken) break;
      snprintf(cand, sizeof cand, "%s-%u", base, n);
    }
    if (!(q->id = qt_arena_strdup(req->arena, cand))) return QT_ERR_NOMEM;
  }
  return QT_OK;
}

/* The metadata object, read by cJSON from its own bytes (it is kept whole, as JSON). */
static qt_status read_metadata(const reader *r, const qt_jv *v, qt_request *req) {
  static const field_rule source_rule = {"metadata source", QT_MAX_METADATA_SOURCE_BYTES, false, true};
  qt_error *err = r->err;
  if (absent(v)) return QT_OK;
  if (v->type != QT_JV_OBJECT)
    return qt_fail(err, "metadata", "metadata must be an object like { \"source\": \"setup\" }, not %s.", type_name(v));
  text source;
  where w = {"metadata", SIZE_MAX, "source"};
  qt_status st = read_text((reader *)r, qt_jv_get(r->doc, v, "source"), &w, &source_rule, &source);
  if (st) return st;
  cJSON *copy;
  if ((st = qt_json_parse(r->doc->text + v->start, v->end - v->start, "arguments", "metadata", 0, &copy, err)))
    return st;
  if (source.s) {
    /* the trimmed text in place of the first "source" (a string or a number: read_text took
     * nothing else). Not cJSON_ReplaceItemInObjectCaseSensitive: when copying the key fails it
     * reports success and leaves the member without a name (fuzz_oom found it). */
    cJSON *item = cJSON_GetObjectItemCaseSensitive(copy, "source");
    char *text = item ? cJSON_malloc(source.len + 1) : NULL;
    if (!text) {
      cJSON_Delete(copy);
      return QT_ERR_NOMEM;
    }
    memcpy(text, source.s, source.len + 1);
    if (item->valuestring) cJSON_free(item->valuestring);
    item->valuestring = text;
    item->type = cJSON_String;
  }
  req->metadata_json = qt_cjson_print(copy);
  cJSON_Delete(copy);
  return req->metadata_json ? QT_OK : QT_ERR_NOMEM;
}

/* `wait`: true (the default) or false (ask and keep working; the answer comes later). */
static qt_status read_wait(const reader *r, const qt_jv *v, qt_request *req) {
  if (absent(v)) return QT_OK;
  if (v->type != QT_JV_TRUE && v->type != QT_JV_FALSE)
    return qt_fail(r->err, "wait",
                   "wait must be true or false, not %s. Leave it out (or true) to wait for the answer; false asks "
                   "and lets you keep working: the answer arrives later as a message.",
                   type_name(v));
  req->no_wait = v->type == QT_JV_FALSE;
  return QT_OK;
}

/* Pre-supplied answers, read by cJSON from their own bytes (answers.c reads cJSON trees). */
static qt_status read_preset(const reader *r, const qt_jv *v, qt_request *req) {
  if (absent(v)) return QT_OK;
  if (v->type != QT_JV_OBJECT) /* says what the answers must be (a string's bytes are no object) */
    return qt_answers_from_cjson(req, NULL, "answers", 0, &req->preset, NULL, r->err);
  cJSON *answers;
  qt_status st = qt_json_parse(r->doc->text + v->start, v->end - v->start, "arguments", "answers", 0, &answers, r->err);
  if (st) return st;
  st = qt_answers_from_cjson(req, answers, "answers", 0, &req->preset, NULL, r->err);
  cJSON_Delete(answers);
  return st;
}

/* `questions` sent as a JSON string (double-encoded): its text decoded into *text and parsed
 * into *doc; false when it is no JSON array. */
static bool decode_questions(const reader *r, const qt_jv *v, char **text, qt_jdoc *doc) {
  size_t n = v->end - v->start, at;
  if (!(*text = malloc(n + 1))) return false;
  n = qt_json_unescape(r->doc->text + v->start, n, *text);
  (*text)[n] = '\0';
  if (qt_json_precheck(*text, n, "questions", "questions", 0, NULL) || !qt_jdoc_parse(doc, *text, n, &at) ||
      doc->v[0].type != QT_JV_ARRAY) {
    qt_jdoc_free(doc);
    free(*text);
    *text = NULL;
    return false;
  }
  return true;
}

static qt_status parse_tree(const qt_jdoc *doc, qt_request *req, qt_error *err) {
  reader r = {req->arena, doc, err};
  const qt_jv *root = &doc->v[0];
  if (root->type != QT_JV_OBJECT)
    return qt_fail(err, "", "The arguments must be a JSON object like { \"questions\": [...] }, not %s.",
                   type_name(root));
  const qt_jv *questions = field(doc, root, K_QUESTIONS);
  char *decoded_text = NULL;
  qt_jdoc decoded = {0};
  reader qr = r; /* reads the questions: from the decoded text when they came double-encoded */
  if (questions && questions->type == QT_JV_STRING && decode_questions(&r, questions, &decoded_text, &decoded)) {
    questions = &decoded.v[0];
    qr.doc = &decoded;
  }
  const qt_jv *single_root = NULL;
  qt_status st = QT_OK;
  bool *explicit_id = NULL;
  if (absent(questions)) {
    if (field(doc, root, K_PROMPT)) single_root = root; /* the single-question shape */
  } else if (questions->type != QT_JV_ARRAY) {
    st = qt_fail(err, "questions", "questions must be an array of question objects, not %s.", type_name(questions));
    goto done;
  }
  size_t n = single_root ? 1 : (questions ? questions->count : 0);
  if (n == 0) {
    st = qt_fail(err, "questions",
                 "No questions provided. Pass questions: an array of 1 to %d objects, each with a prompt (and options, "
                 "or none for a free-text answer).",
                 QT_MAX_QUESTIONS);
    goto done;
  }
  if (n > QT_MAX_QUESTIONS) {
    st = qt_fail(
        err, "questions",
        "questions has %zu entries; the limit is %d. Ask the most important ones first and the rest in a later call.",
        n, QT_MAX_QUESTIONS);
    goto done;
  }
  req->questions = calloc(n, sizeof *req->questions);
  explicit_id = calloc(n, sizeof *explicit_id);
  if (!req->questions || !explicit_id) {
    st = QT_ERR_NOMEM;
    goto done;
  }
  if (single_root) {
    req->question_count = 1;
    if ((st = read_question(&r, single_root, 0, "", &req->questions[0]))) goto done;
    explicit_id[0] = req->questions[0].id != NULL;
  } else {
    for (uint32_t k = questions->child; k; k = qr.doc->v[k].next) {
      size_t i = req->question_count++;
      char path[32];
      qt_pathf(path, sizeof path, "questions[%zu]", i);
      if ((st = read_question(&qr, &qr.doc->v[k], i, path, &req->questions[i]))) goto done;
      explicit_id[i] = req->questions[i].id != NULL;
    }
  }
  if ((st = assign_ids(req, explicit_id, err))) goto done;
  if ((st = read_metadata(&r, qt_jv_get(doc, root, "metadata"), req))) goto done;
  if ((st = read_wait(&r, qt_jv_get(doc, root, "wait"), req))) goto done;
  st = read_preset(&r, qt_jv_get(doc, root, "answers"), req);
done:
  free(explicit_id);
  qt_jdoc_free(&decoded);
  free(decoded_text);
  return st;
}

bool qt_request_all_presupplied(const qt_request *req) {
  if (!req || !req->preset || !req->question_count) return false;
  for (size_t i = 0; i < req->question_count; i++)
    if (!req->preset[i].present) return false;
  return true;
}

qt_status qt_request_parse(const char *json, size_t len, qt_request **out, qt_error *err) {
  return qt_request_parse_ex(json, len, 0, out, err);
}

qt_status qt_request_parse_ex(const char *json, size_t len, unsigned flags, qt_request **out, qt_error *err) {
  if (!out || (!json && len)) return QT_ERR_USAGE;
  *out = NULL;
  if (err) err->path[0] = err->message[0] = '\0';
  size_t limit = (flags & QT_PARSE_PREPARED) ? QT_MAX_PREPARED_BYTES : QT_MAX_ARGUMENT_BYTES;
  if (len > limit)
    return qt_fail(err, "",
                   "The arguments are %zu bytes; the limit is %zu. Ask fewer or shorter questions in one call.", len,
                   limit);
  /* the tree of the call (json_tree.c) is only read: strings are copied to the request's arena;
   * cJSON reads only the metadata and pre-supplied answers, from their own bytes. The
   * pre-check runs when the parse fails (its messages say more than "not valid JSON") or when
   * the text has what only it judges: a plain ASCII call skips that second pass over it. */
  qt_jdoc doc;
  size_t at;
  bool parsed = qt_jdoc_parse(&doc, json, len, &at);
  qt_status st = QT_OK;
  if (!parsed && doc.nomem)
    st = QT_ERR_NOMEM;
  else if (!parsed || doc.unchecked)
    st = qt_json_precheck(json, len, "arguments", "", 0, err);
  if (!st && !parsed) st = qt_json_syntax_error(json, len, at, doc.trailing, "arguments", "", err);
  if (st) {
    qt_jdoc_free(&doc);
    return st;
  }
  qt_request *req = calloc(1, sizeof *req);
  if (req && !(req->arena = qt_arena_new(len, flags & QT_PARSE_SCRATCH))) {
    free(req);
    req = NULL;
  }
  if (!req) st = QT_ERR_NOMEM;
  if (!st) st = parse_tree(&doc, req, err);
  qt_jdoc_free(&doc);
  if (st) {
    qt_request_free(req);
    return st;
  }
  *out = req;
  return QT_OK;
}
