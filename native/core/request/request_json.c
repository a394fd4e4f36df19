/* request_json.c — a normalized qt_request back to JSON, in its canonical shape: the cJSON tree
 * of its questions (qt_questions_to_cjson, which the result builder and the view reuse) and the
 * direct writer of the whole canonical arguments (qt_request_write_json / qt_request_to_json),
 * which escapes into one buffer without building a tree (a 100 KB call is written on every
 * question). Parsing and validation are request.c's. */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qt_typed.h"
#include "request_internal.h"
#include "qt_strings.h"
#include "qt_text.h"

/* ---- back to canonical JSON -------------------------------------------------------------- */
static bool add_string(cJSON *obj, const char *key, const char *value) {
  return !value || cJSON_AddStringToObject(obj, key, value) != NULL;
}

cJSON *qt_questions_to_cjson(const qt_request *req, bool with_other_label) {
  cJSON *arr = cJSON_CreateArray();
  if (!arr) return NULL;
  for (size_t i = 0; i < req->question_count; i++) {
    const qt_question *q = &req->questions[i];
    cJSON *o = cJSON_CreateObject();
    if (!o || !cJSON_AddItemToArray(arr, o)) goto fail;
    if (!add_string(o, "id", q->id) || !add_string(o, "label", q->label) || !add_string(o, "prompt", q->prompt))
      goto fail;
    if (q->option_count) {
      cJSON *opts = cJSON_AddArrayToObject(o, "options");
      if (!opts) goto fail;
      for (size_t k = 0; k < q->option_count; k++) {
        const qt_option *op = &q->options[k];
        cJSON *x = cJSON_CreateObject();
        if (!x || !cJSON_AddItemToArray(opts, x)) goto fail;
        if (!add_string(x, "value", op->value) || !add_string(x, "label", op->label) ||
            !add_string(x, "description", op->description) || !add_string(x, "preview", op->preview))
          goto fail;
      }
      if (with_other_label && !add_string(o, "otherLabel", qt_string(QT_LANG_EN, QT_STR_SOMETHING_ELSE))) goto fail;
    }
    if (!cJSON_AddBoolToObject(o, "multiSelect", q->multi_select)) goto fail;
    if (q->type != QT_TYPE_TEXT && !add_string(o, "type", qt_type_name((qt_type)q->type))) goto fail;
    if (q->has_min && !cJSON_AddNumberToObject(o, "min", q->min)) goto fail;
    if (q->has_max && !cJSON_AddNumberToObject(o, "max", q->max)) goto fail;
    if (q->secret && !cJSON_AddBoolToObject(o, "secret", true)) goto fail;
  }
  return arr;
fail:
  cJSON_Delete(arr);
  return NULL;
}

/* Bytes a JSON string needs escaped: quotes, backslashes and control characters (the rest of
 * UTF-8 is written as is). */
static const unsigned char JSON_ESCAPE[256] = {
#define QT_ESC16(b)                                                                                                    \
  [b] = 1, [b + 1] = 1, [b + 2] = 1, [b + 3] = 1, [b + 4] = 1, [b + 5] = 1, [b + 6] = 1, [b + 7] = 1, [b + 8] = 1,     \
  [b + 9] = 1, [b + 10] = 1, [b + 11] = 1, [b + 12] = 1, [b + 13] = 1, [b + 14] = 1, [b + 15] = 1
    QT_ESC16(0x00),
    QT_ESC16(0x10),
    ['"'] = 1,
    ['\\'] = 1,
#undef QT_ESC16
};

/* Writes `head` (one of our keys with its quotes and colon, plain ASCII) and then `value` as a
 * JSON string, straight into room reserved for the worst case (every byte escaped as \u00XX):
 * one reserve and one pass a field. The canonical form of a 100 KB call is up to 750 KB, and
 * writing it a piece at a time through the buffer's checked appends was a fifth of validating
 * it. Nothing when value is NULL. */
static inline void json_put_field_len(qt_buf *b, const char *head, size_t head_len, const char *value, size_t n) {
  static const char hex[] = "0123456789abcdef";
  if (n > (SIZE_MAX / 2 - head_len) / 6) {
    b->failed = true;
    return;
  }
  if (!qt_buf_reserve(b, head_len + 6 * n + 2)) return;
  char *p = b->data + b->len;
  memcpy(p, head, head_len);
  p += head_len;
  *p++ = '"';
  const unsigned char *s = (const unsigned char *)value, *e = s + n;
  /* eight bytes at a time while none needs escaping (the test of Hacker's Delight 6-1 for a
   * byte below 0x20 or equal to a quote or a backslash; only whether one does counts) */
  const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
  while (e - s >= 8) {
    uint64_t v, quote, backslash;
    memcpy(&v, s, 8);
    quote = v ^ (ones * '"');
    backslash = v ^ (ones * '\\');
    if ((((v - ones * 0x20) & ~v) | ((quote - ones) & ~quote) | ((backslash - ones) & ~backslash)) & high) break;
    memcpy(p, &v, 8);
    p += 8;
    s += 8;
  }
  for (; s < e; s++) {
    unsigned char c = *s;
    if (!JSON_ESCAPE[c]) {
      *p++ = (char)c;
      continue;
    }
    *p++ = '\\';
    switch (c) {
      case '"': *p++ = '"'; break;
      case '\\': *p++ = '\\'; break;
      case '\n': *p++ = 'n'; break;
      case '\r': *p++ = 'r'; break;
      case '\t': *p++ = 't'; break;
      default:
        memcpy(p, "u00", 3);
        p[3] = hex[c >> 4];
        p[4] = hex[c & 15];
        p += 5;
    }
  }
  *p++ = '"';
  *p = '\0';
  b->len = (size_t)(p - b->data);
}

static inline void json_put_field_n(qt_buf *b, const char *head, size_t head_len, const char *value) {
  if (value) json_put_field_len(b, head, head_len, value, strlen(value));
}

/* `head` is a string literal: its length is known when compiling. */
#define json_put_field(b, head, value) json_put_field_n((b), (head), sizeof(head) - 1, (value))

/* Whether an option is its label alone: its value the same text, no description or preview. */
static inline bool option_is_bare(const qt_option *o) {
  return !o->description && !o->preview && o->value_len == o->label_len &&
         (o->value == o->label || memcmp(o->value, o->label, o->label_len) == 0);
}

/* Whether a question's options are all bare: the canonical form then writes them as an array of
 * their labels, JSON strings (["Postgres","SQLite"] rather than {"value":…,"label":…} each),
 * which reads back the same (a string option's value is its label); else every option as an
 * object. pi copies and checks strings for a fraction of objects' cost (a call of 25,000
 * options is 150 KB of strings instead of 766 KB of objects), and an array of one kind is
 * checked against one branch of the schema's union, not each option against it. */
static bool options_bare(const qt_question *q) {
  for (size_t k = 0; k < q->option_count; k++)
    if (!option_is_bare(&q->options[k])) return false;
  return true;
}

/* A bare option whose label needs no escape (the usual case), copied whole: "…" */
static inline bool put_plain_option(qt_buf *b, const qt_option *o, bool comma) {
  if (!o->label_plain) return false;
  size_t n = o->label_len, need = 3 + n + 1;
  if ((b->failed || b->cap - b->len <= need) && !qt_buf_reserve(b, need)) return true; /* the call only when short */
  char *p = b->data + b->len;
  if (comma) *p++ = ',';
  *p++ = '"';
  qt_copy_short(p, o->label, n);
  p += n;
  *p++ = '"';
  *p = '\0';
  b->len = (size_t)(p - b->data);
  return true;
}

/* The canonical arguments, written straight into a buffer (a cJSON tree of a 100 KB call costs
 * about as much as validating it). */
/* ,"type":"…","min":…,"max":… of a typed question (nothing for one without a type). */
static void put_type(qt_buf *b, const qt_question *q) {
  char num[64];
  if (q->type == QT_TYPE_TEXT) return;
  qt_buf_printf(b, ",\"type\":\"%s\"", qt_type_name((qt_type)q->type));
  if (q->has_min) qt_number_text(q->min, num, sizeof num), qt_buf_printf(b, ",\"min\":%s", num);
  if (q->has_max) qt_number_text(q->max, num, sizeof num), qt_buf_printf(b, ",\"max\":%s", num);
}

/* ,"secret":true of a secret question. */
static void put_secret(qt_buf *b, const qt_question *q) {
  if (q->secret) qt_buf_puts(b, ",\"secret\":true");
}

qt_status qt_request_write_json(const qt_request *req, bool with_preset, qt_buf *b) {
  if (!req || !b) return QT_ERR_USAGE;
  size_t estimate = 64;
  for (size_t i = 0; i < req->question_count; i++) estimate += 96 + 48 * req->questions[i].option_count;
  qt_buf_reserve(b, estimate); /* a guess; the buffer grows if it is short */
  qt_buf_puts(b, "{\"questions\":[");
  for (size_t i = 0; i < req->question_count; i++) {
    const qt_question *q = &req->questions[i];
    if (i) qt_buf_putc(b, ',');
    /* every question has an id and a label (assign_ids, read_question) */
    json_put_field(b, "{\"id\":", q->id);
    json_put_field(b, ",\"label\":", q->label);
    json_put_field(b, ",\"prompt\":", q->prompt);
    if (q->option_count) {
      qt_buf_puts(b, ",\"options\":[");
      bool bare = options_bare(q);
      for (size_t k = 0; k < q->option_count; k++) {
        const qt_option *o = &q->options[k];
        if (bare) {
          if (!put_plain_option(b, o, k > 0)) json_put_field_len(b, ",", k > 0, o->label, o->label_len);
          continue;
        }
        /* every option has a value (its label when none was given) */
        if (k)
          json_put_field_len(b, ",{\"value\":", sizeof ",{\"value\":" - 1, o->value, o->value_len);
        else
          json_put_field_len(b, "{\"value\":", sizeof "{\"value\":" - 1, o->value, o->value_len);
        json_put_field_len(b, ",\"label\":", sizeof ",\"label\":" - 1, o->label, o->label_len);
        json_put_field(b, ",\"description\":", o->description);
        json_put_field(b, ",\"preview\":", o->preview);
        qt_buf_putc(b, '}');
      }
      qt_buf_putc(b, ']');
    }
    qt_buf_puts(b, q->multi_select ? ",\"multiSelect\":true" : ",\"multiSelect\":false");
    put_type(b, q);
    put_secret(b, q);
    qt_buf_putc(b, '}');
  }
  qt_buf_putc(b, ']');
  if (req->metadata_json) {
    qt_buf_puts(b, ",\"metadata\":");
    qt_buf_puts(b, req->metadata_json);
  }
  if (req->no_wait) qt_buf_puts(b, ",\"wait\":false"); /* only when false: true is the default */
  if (with_preset && req->preset) {
    cJSON *a = qt_answers_to_cjson(req, req->preset);
    char *text = a ? cJSON_PrintUnformatted(a) : NULL;
    cJSON_Delete(a);
    if (!text) return QT_ERR_NOMEM;
    qt_buf_puts(b, ",\"answers\":");
    qt_buf_puts(b, text);
    cJSON_free(text);
  }
  qt_buf_putc(b, '}');
  return b->failed ? QT_ERR_NOMEM : QT_OK;
}

qt_status qt_request_to_json(const qt_request *req, bool with_preset, char **out_json) {
  if (!req || !out_json) return QT_ERR_USAGE;
  *out_json = NULL;
  qt_buf b;
  qt_buf_init(&b);
  qt_status st = qt_request_write_json(req, with_preset, &b);
  if (!st) *out_json = qt_buf_take(&b);
  qt_buf_free(&b);
  return st ? st : *out_json ? QT_OK : QT_ERR_NOMEM;
}
