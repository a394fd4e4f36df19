/* answers.c — the answer model's plumbing: resolving free-form answers ({ id: string |
 * string[] }, as the model pre-supplies them or a person writes them in the pending file)
 * against a request, copying and freeing answers. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qt_typed.h"
#include "request_internal.h"
#include "qt_text.h"

void qt_answer_clear(qt_answer *a) {
  if (!a) return;
  free(a->indices);
  free(a->custom);
  free(a->note);
  memset(a, 0, sizeof *a);
}

void qt_answers_free(qt_answer *answers, size_t count) {
  if (!answers) return;
  for (size_t i = 0; i < count; i++) qt_answer_clear(&answers[i]);
  free(answers);
}

qt_status qt_answer_copy(qt_answer *dst, const qt_answer *src) {
  memset(dst, 0, sizeof *dst);
  dst->present = src->present;
  dst->skipped = src->skipped;
  dst->secret_file = src->secret_file;
  if (src->index_count) {
    dst->indices = malloc(src->index_count * sizeof *dst->indices);
    if (!dst->indices) return QT_ERR_NOMEM;
    memcpy(dst->indices, src->indices, src->index_count * sizeof *dst->indices);
    dst->index_count = src->index_count;
  }
  if ((src->custom && !(dst->custom = qt_strdup(src->custom))) || (src->note && !(dst->note = qt_strdup(src->note)))) {
    qt_answer_clear(dst);
    return QT_ERR_NOMEM;
  }
  return QT_OK;
}

/* 1-based index of the option `text` names (its value, then its label, then either compared
 * loosely: trimmed, ASCII case ignored), or 0 when it is typed text. */
static size_t match_option(const qt_question *q, const char *text) {
  for (size_t k = 0; k < q->option_count; k++)
    if (strcmp(q->options[k].value, text) == 0) return k + 1;
  for (size_t k = 0; k < q->option_count; k++)
    if (strcmp(q->options[k].label, text) == 0) return k + 1;
  for (size_t k = 0; k < q->option_count; k++)
    if (qt_loose_equal(q->options[k].value, text) || qt_loose_equal(q->options[k].label, text)) return k + 1;
  return 0;
}

static int cmp_size(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return x < y ? -1 : x > y;
}

/* Reads one answer string (numbers accepted). Returns QT_OK with *text NULL for "". */
static qt_status answer_text(const cJSON *v, const char *path, char **text, qt_error *err) {
  char num[64];
  const char *s;
  *text = NULL;
  if (cJSON_IsString(v)) {
    s = v->valuestring;
  } else if (cJSON_IsNumber(v)) {
    qt_number_text(v->valuedouble, num, sizeof num);
    s = num;
  } else {
    return qt_fail(err, path, "%s must be a string (or, for a multi-select question, an array of strings), not %s.",
                   path,
                   cJSON_IsArray(v)    ? "a nested array"
                   : cJSON_IsObject(v) ? "an object"
                   : cJSON_IsBool(v)   ? "a boolean"
                                       : "null");
  }
  size_t n = strlen(s);
  if (n > QT_MAX_ANSWER_BYTES)
    return qt_fail(err, path, "%s is %zu bytes long; the limit is %d. Shorten the answer.", path, n,
                   QT_MAX_ANSWER_BYTES);
  if (!(*text = qt_strndup_trimmed(s, n))) return QT_ERR_NOMEM;
  if (!**text) {
    free(*text);
    *text = NULL;
  }
  return QT_OK;
}

/* Adds one answer string to a: an option index or typed text (typed texts are joined ", ").
 * With `typed` the text is never matched against the options. */
static qt_status add_choice(const qt_question *q, qt_answer *a, char *text, bool typed) {
  size_t idx = typed ? 0 : match_option(q, text);
  if (idx) {
    free(text);
    for (size_t i = 0; i < a->index_count; i++)
      if (a->indices[i] == idx) return QT_OK;
    size_t *p = realloc(a->indices, (a->index_count + 1) * sizeof *p);
    if (!p) return QT_ERR_NOMEM;
    a->indices = p;
    a->indices[a->index_count++] = idx;
    qsort(a->indices, a->index_count, sizeof *p, cmp_size);
    return QT_OK;
  }
  if (!a->custom) {
    a->custom = text;
    return QT_OK;
  }
  size_t n1 = strlen(a->custom), n2 = strlen(text);
  char *joined = realloc(a->custom, n1 + 2 + n2 + 1);
  if (!joined) {
    free(text);
    return QT_ERR_NOMEM;
  }
  memcpy(joined + n1, ", ", 2);
  memcpy(joined + n1 + 2, text, n2 + 1);
  a->custom = joined;
  free(text);
  return QT_OK;
}

static const char *const SKIP_NAME[QT_SKIP_COUNT] = {[QT_SKIP_SKIPPED] = "skipped", [QT_SKIP_CHAT] = "chat"};

const char *qt_skip_name(qt_skip skip) { return (unsigned)skip < QT_SKIP_COUNT ? SKIP_NAME[skip] : NULL; }

/* { "skipped": "skipped" | "chat" } for question q into a; QT_OK and a->skipped set. */
static qt_status read_skip(const qt_request *req, const qt_question *q, const cJSON *entry, const char *p, bool skips,
                           qt_answer *a, qt_error *err) {
  const cJSON *why = cJSON_GetObjectItemCaseSensitive(entry, "skipped");
  if (!skips)
    return qt_fail(err, p, "%s: only the person can skip a question. Leave question \"%s\" out of `answers` to ask it.",
                   p, q->id);
  if (req->question_count < 2)
    return qt_fail(err, p,
                   "%s: a call of one question cannot skip it. Decline the call instead (the agent decides), or "
                   "answer it.",
                   p);
  const cJSON *note = cJSON_GetObjectItemCaseSensitive(entry, "note");
  if (cJSON_GetArraySize(entry) != 1 + (note != NULL))
    return qt_fail(err, p,
                   "%s: a skipped question carries only its note: give { \"skipped\": \"skipped\" } or { "
                   "\"skipped\": \"chat\", \"note\": \"...\" }.",
                   p);
  for (int k = 1; k < QT_SKIP_COUNT; k++)
    if (cJSON_IsString(why) && strcmp(why->valuestring, SKIP_NAME[k]) == 0) {
      if (note && !cJSON_IsNull(note)) { /* the person's note on the skipped question (a relayed one keeps it) */
        char pp[sizeof err->path];
        qt_pathf(pp, sizeof pp, "%s.note", p);
        qt_status st = answer_text(note, pp, &a->note, err);
        if (st) return st;
      }
      a->skipped = (uint8_t)k;
      a->present = true;
      return QT_OK;
    }
  return qt_fail(err, p,
                 "%s.skipped must be \"skipped\" (the agent decides) or \"chat\" (the person says it in the chat).", p);
}

/* A typed question's typed text must read as its type (qt_typed.h). */
static qt_status check_typed(const qt_question *q, const qt_answer *a, const char *p, qt_error *err) {
  qt_typed_value v;
  if (q->type == QT_TYPE_TEXT || !a->custom || qt_typed_read(q, a->custom, strlen(a->custom), &v)) return QT_OK;
  qt_buf hint;
  qt_buf_init(&hint);
  qt_typed_hint(q, QT_LANG_EN, &hint);
  if (hint.data && hint.data[0] >= 'A' && hint.data[0] <= 'Z') hint.data[0] = (char)(hint.data[0] + 32);
  qt_status st = hint.failed ? QT_ERR_NOMEM
                             : qt_fail(err, p, "%s: \"%.80s\" does not read as %s, which question \"%s\" asks for.", p,
                                       a->custom, hint.data ? hint.data : "its type", q->id);
  qt_buf_free(&hint);
  return st;
}

qt_status qt_answers_from_cjson(const qt_request *req, const cJSON *obj, const char *path, unsigned from,
                                qt_answer **out, char **call_note, qt_error *err) {
  bool skips = from & QT_ANSWERS_PERSON;
  *out = NULL;
  if (call_note) *call_note = NULL;
  if (!cJSON_IsObject(obj))
    return qt_fail(err, path, "%s must be an object mapping question ids to answers, like { \"%s\": \"...\" }.", path,
                   req->questions[0].id);
  qt_answer *answers = calloc(req->question_count, sizeof *answers);
  if (!answers) return QT_ERR_NOMEM;
  qt_status st = QT_OK;
  bool noted = false; /* the "" key was read */
  const cJSON *entry;
  cJSON_ArrayForEach(entry, obj) {
    char p[sizeof((qt_error *)0)->path];
    qt_pathf(p, sizeof p, "%s.%s", path, entry->string ? entry->string : "?");
    if (entry->string && !entry->string[0]) { /* "": the note on the whole call (no question's id is empty) */
      qt_pathf(p, sizeof p, "%s[\"\"]", path);
      if (!call_note) {
        st = qt_fail(
            err, p, "%s: a note on the whole call is the person's, written on the review; it cannot be given here.", p);
        goto fail;
      }
      if (noted) {
        st = qt_fail(err, p, "%s is given twice. Give one note on the whole call.", p);
        goto fail;
      }
      noted = true;
      if (!cJSON_IsNull(entry) && (st = answer_text(entry, p, call_note, err))) goto fail;
      continue;
    }
    size_t qi = req->question_count;
    for (size_t i = 0; i < req->question_count; i++)
      if (entry->string && strcmp(req->questions[i].id, entry->string) == 0) qi = i;
    if (qi == req->question_count) {
      st = qt_fail(err, p, "%s: there is no question with id \"%s\". Answer only the ids of the questions asked.", p,
                   entry->string ? entry->string : "");
      goto fail;
    }
    const qt_question *q = &req->questions[qi];
    qt_answer *a = &answers[qi];
    if (a->present) {
      st = qt_fail(err, p, "%s is answered twice. Give one answer per question id.", p);
      goto fail;
    }
    if (cJSON_IsNull(entry)) continue; /* explicitly unanswered */
    bool as_file = cJSON_IsObject(entry) && cJSON_GetObjectItemCaseSensitive(entry, "secretFile");
    if (q->secret && (from & QT_ANSWERS_RELAYED) &&
        !as_file) { /* only its file: a pi above that sent the text showed it */
      st = qt_fail(err, p,
                   "%s: the pi above sent a secret as text (an older pi-question there shows and keeps it): it is "
                   "not used. Update pi-question in the pi above.",
                   p);
      goto fail;
    }
    if (q->secret && !skips) {
      st = qt_fail(err, p, "%s: only the person can answer a secret question. Leave question \"%s\" out of `answers`.",
                   p, q->id);
      goto fail;
    }
    const cJSON *file = cJSON_IsObject(entry) ? cJSON_GetObjectItemCaseSensitive(entry, "secretFile") : NULL;
    if (file) { /* { "secretFile": path, "note"? }: a secret the pi above handed over in a file */
      const cJSON *note = cJSON_GetObjectItemCaseSensitive(entry, "note");
      if (!(from & QT_ANSWERS_RELAYED) || !q->secret || !cJSON_IsString(file) ||
          cJSON_GetArraySize(entry) != 1 + (note != NULL)) {
        st = qt_fail(err, p,
                     "%s: a secret's file is given only by the pi above, for a secret question, as { \"secretFile\": "
                     "\"...\" }.",
                     p);
        goto fail;
      }
      for (const unsigned char *c = (const unsigned char *)file->valuestring; *c; c++)
        if (*c < 0x20 || *c == 0x7F) {
          st = qt_fail(err, p, "%s.secretFile has a control character; a file's path has none.", p);
          goto fail;
        }
      if (!(a->custom = qt_strdup(file->valuestring))) {
        st = QT_ERR_NOMEM;
        goto fail;
      }
      if (note && !cJSON_IsNull(note)) {
        char pp[sizeof p];
        qt_pathf(pp, sizeof pp, "%s.note", p);
        if ((st = answer_text(note, pp, &a->note, err))) goto fail;
      }
      a->secret_file = true;
      a->present = true;
      continue;
    }
    if (cJSON_IsObject(entry) && cJSON_GetObjectItemCaseSensitive(entry, "skipped")) {
      if ((st = read_skip(req, q, entry, p, skips, a, err))) goto fail;
      continue;
    }
    if (cJSON_IsObject(entry)) { /* { "selected": [values or labels], "wrote": "typed text", "note": "…" } */
      const cJSON *sel = cJSON_GetObjectItemCaseSensitive(entry, "selected");
      const cJSON *wrote = cJSON_GetObjectItemCaseSensitive(entry, "wrote");
      if ((sel && !cJSON_IsArray(sel) && !cJSON_IsNull(sel)) || (!sel && !wrote)) {
        st = qt_fail(err, p,
                     "%s must be a string, an array of strings, or { \"selected\": [...], \"wrote\": \"...\" }.", p);
        goto fail;
      }
      int n = sel && cJSON_IsArray(sel) ? cJSON_GetArraySize(sel) : 0;
      if (n > 1 && !q->multi_select) {
        st = qt_fail(err, p, "%s.selected has %d options but question \"%s\" takes one.", p, n, q->id);
        goto fail;
      }
      int k = 0;
      const cJSON *v;
      if (n) cJSON_ArrayForEach(v, sel) {
          char pp[sizeof p];
          qt_pathf(pp, sizeof pp, "%s.selected[%d]", p, k++);
          char *text;
          if ((st = answer_text(v, pp, &text, err))) goto fail;
          if (!text) continue;
          if (!match_option(q, text)) {
            st = qt_fail(err, pp,
                         "%s \"%s\" is not an option of question \"%s\". Use an option's value or label, or put typed "
                         "text in \"wrote\".",
                         pp, text, q->id);
            free(text);
            goto fail;
          }
          if ((st = add_choice(q, a, text, false))) goto fail;
        }
      if (wrote && !cJSON_IsNull(wrote)) {
        char pp[sizeof p];
        qt_pathf(pp, sizeof pp, "%s.wrote", p);
        char *text;
        if ((st = answer_text(wrote, pp, &text, err))) goto fail;
        if (text && a->index_count && !q->multi_select) {
          free(text);
          st = qt_fail(err, pp, "%s: question \"%s\" takes one answer: an option or typed text, not both.", pp, q->id);
          goto fail;
        }
        if (text && (st = add_choice(q, a, text, true))) goto fail;
      }
      const cJSON *note = cJSON_GetObjectItemCaseSensitive(entry, "note");
      if (note && !cJSON_IsNull(note)) { /* the person's note on the answer (a relayed answer keeps it) */
        char pp[sizeof p];
        qt_pathf(pp, sizeof pp, "%s.note", p);
        if ((st = answer_text(note, pp, &a->note, err))) goto fail;
      }
    } else if (cJSON_IsArray(entry)) {
      int n = cJSON_GetArraySize(entry);
      if (n > 1 && !q->multi_select) {
        st = qt_fail(err, p, "%s has %d answers but question \"%s\" takes one. Give a single string.", p, n, q->id);
        goto fail;
      }
      if (n > (int)q->option_count + 1) {
        st = qt_fail(err, p, "%s has %d answers, more than the question's %zu options plus one typed answer.", p, n,
                     q->option_count);
        goto fail;
      }
      int k = 0;
      const cJSON *v;
      cJSON_ArrayForEach(v, entry) {
        char pp[sizeof p];
        qt_pathf(pp, sizeof pp, "%s[%d]", p, k++);
        char *text;
        if ((st = answer_text(v, pp, &text, err))) goto fail;
        if (text && (st = add_choice(q, a, text, false))) goto fail;
      }
    } else {
      char *text;
      if ((st = answer_text(entry, p, &text, err))) goto fail;
      if (text && (st = add_choice(q, a, text, false))) goto fail;
    }
    if (!a->index_count && !a->custom) {
      st = qt_fail(err, p, "%s is empty. Give the answer as a non-empty string, or leave the id out.", p);
      goto fail;
    }
    if ((st = check_typed(q, a, p, err))) goto fail;
    a->present = true;
  }
  *out = answers;
  return QT_OK;
fail:
  qt_answers_free(answers, req->question_count);
  if (call_note) {
    free(*call_note);
    *call_note = NULL;
  }
  return st;
}

qt_status qt_answers_from_json(const qt_request *req, const char *json, size_t len, qt_answer **out, qt_error *err) {
  return qt_answers_from_json_note(req, json, len, out, NULL, err);
}

static qt_status from_json(const qt_request *req, const char *json, size_t len, unsigned from, qt_answer **out,
                           char **call_note, qt_error *err);

qt_status qt_answers_from_json_note(const qt_request *req, const char *json, size_t len, qt_answer **out,
                                    char **call_note, qt_error *err) {
  return from_json(req, json, len, QT_ANSWERS_PERSON, out, call_note, err);
}

qt_status qt_answers_from_json_relayed(const qt_request *req, const char *json, size_t len, qt_answer **out,
                                       char **call_note, qt_error *err) {
  return from_json(req, json, len, QT_ANSWERS_PERSON | QT_ANSWERS_RELAYED, out, call_note, err);
}

static qt_status from_json(const qt_request *req, const char *json, size_t len, unsigned from, qt_answer **out,
                           char **call_note, qt_error *err) {
  if (!req || !out || (!json && len)) return QT_ERR_USAGE;
  *out = NULL;
  if (call_note) *call_note = NULL;
  if (err) err->path[0] = err->message[0] = '\0';
  if (len > QT_MAX_ANSWERS_JSON_BYTES)
    return qt_fail(err, "", "The answers are %zu bytes; the limit is %d.", len, QT_MAX_ANSWERS_JSON_BYTES);
  cJSON *root;
  qt_status pre = qt_json_parse(json, len, "answers", "answers", QT_MAX_ANSWERS_JSON_VALUES, &root, err);
  if (pre) return pre;
  qt_status st = qt_answers_from_cjson(req, root, "answers", from, out, call_note, err);
  cJSON_Delete(root);
  return st;
}

cJSON *qt_answers_to_cjson(const qt_request *req, const qt_answer *answers) {
  cJSON *obj = cJSON_CreateObject();
  if (!obj) return NULL;
  for (size_t i = 0; i < req->question_count; i++) {
    const qt_answer *a = &answers[i];
    const qt_question *q = &req->questions[i];
    if (!a->present) continue;
    cJSON *v;
    if (a->skipped) { /* { "skipped": "skipped" | "chat" } */
      v = cJSON_CreateObject();
      if (!v || !cJSON_AddItemToObject(obj, q->id, v)) goto fail_v;
      if (!cJSON_AddStringToObject(v, "skipped", qt_skip_name((qt_skip)a->skipped))) goto fail;
      if (a->note && !cJSON_AddStringToObject(v, "note", a->note)) goto fail;
      continue;
    }
    if (a->secret_file) { /* { "secretFile": path }: a secret the pi above handed over */
      v = cJSON_CreateObject();
      if (!v || !cJSON_AddItemToObject(obj, q->id, v)) goto fail_v;
      if (!cJSON_AddStringToObject(v, "secretFile", a->custom ? a->custom : "")) goto fail;
      if (a->note && !cJSON_AddStringToObject(v, "note", a->note)) goto fail;
      continue;
    }
    bool ambiguous = a->custom && match_option(q, a->custom); /* typed text that reads like an option */
    if (ambiguous || a->note) { /* the long form: typed text kept apart, and the note with it */
      v = cJSON_CreateObject();
      if (!v || !cJSON_AddItemToObject(obj, q->id, v)) goto fail_v;
      cJSON *sel = cJSON_AddArrayToObject(v, "selected");
      if (!sel) goto fail;
      for (size_t k = 0; k < a->index_count; k++)
        if (!cJSON_AddItemToArray(sel, cJSON_CreateString(q->options[a->indices[k] - 1].value))) goto fail;
      if (a->custom && !cJSON_AddStringToObject(v, "wrote", a->custom)) goto fail;
      if (a->note && !cJSON_AddStringToObject(v, "note", a->note)) goto fail;
    } else if (q->multi_select) {
      v = cJSON_CreateArray();
      if (!v || !cJSON_AddItemToObject(obj, q->id, v)) goto fail_v;
      for (size_t k = 0; k < a->index_count; k++)
        if (!cJSON_AddItemToArray(v, cJSON_CreateString(q->options[a->indices[k] - 1].value))) goto fail;
      if (a->custom && !cJSON_AddItemToArray(v, cJSON_CreateString(a->custom))) goto fail;
    } else {
      v = cJSON_CreateString(a->index_count ? q->options[a->indices[0] - 1].value : a->custom ? a->custom : "");
      if (!v || !cJSON_AddItemToObject(obj, q->id, v)) goto fail_v;
    }
    continue;
  fail_v:
    cJSON_Delete(v);
    goto fail;
  }
  return obj;
fail:
  cJSON_Delete(obj);
  return NULL;
}
