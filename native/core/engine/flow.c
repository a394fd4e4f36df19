/* flow.c — the question flow's state as JSON (qt_engine_view), for the faces that draw no frame:
 * pi's RPC dialogs and the web page read it, show what fits, and answer with qt_engine_act.
 * Everything here only reads the engine. Display text is sanitized as the frame's is (the
 * engine keeps model text sanitized already; what the person typed is sanitized here); the
 * answers object and option values are data for the result builder, not for display. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "engine_internal.h"
#include "qt_typed.h"
#include "request/request_internal.h"

/* Adds `text` (len bytes) sanitized as display text; `lines`: line breaks kept. */
static bool add_clean(cJSON *o, const char *key, const char *text, size_t len, bool lines) {
  qt_buf b;
  qt_buf_init(&b);
  qt_sanitize(&b, text ? text : "", text ? len : 0, lines ? QT_SANITIZE_NEWLINES : 0);
  qt_buf_putc(&b, '\0'); /* the buffer's bytes are not terminated by themselves */
  bool ok = !b.failed && cJSON_AddStringToObject(o, key, b.data) != NULL;
  qt_buf_free(&b);
  return ok;
}

static bool add_editor(cJSON *o, const char *key, const qt_editor *ed) {
  if (ed->masked) { /* a secret: no face's view carries its text, only as many bullets */
    qt_editor mask;
    qt_editor_init(&mask, ed->limit, false);
    bool ok = qt_editor_mask(ed, &mask) && add_clean(o, key, qt_editor_text(&mask), qt_editor_len(&mask), false);
    qt_editor_free(&mask);
    return ok;
  }
  return add_clean(o, key, qt_editor_text(ed), qt_editor_len(ed), ed->multiline);
}

/* An answer as the review reads it: the option labels, then the typed text, joined by ", ". */
static bool describe(const qt_engine *e, size_t qi, qt_buf *out) {
  const qt_answer *a = &e->answers[qi];
  const qt_qstate *s = &e->qs[qi];
  if (a->skipped) qt_buf_puts(out, qt_str(e, a->skipped == QT_SKIP_CHAT ? QT_STR_REVIEW_CHAT : QT_STR_REVIEW_SKIPPED));
  for (size_t j = 0; j < a->index_count; j++) {
    size_t k = a->indices[j];
    if (k < 1 || k > s->q->option_count) continue;
    if (out->len) qt_buf_puts(out, ", ");
    qt_buf_puts(out, s->opts[k - 1].label);
  }
  if (a->custom && s->q->secret) {
    qt_buf_puts(out, qt_str(e, QT_STR_SECRET_ANSWER)); /* never the secret's text */
  } else if (a->custom) {
    if (out->len) qt_buf_puts(out, ", ");
    qt_sanitize(out, a->custom, strlen(a->custom), QT_SANITIZE_NEWLINES);
  }
  qt_buf_putc(out, '\0');
  return !out->failed;
}

static cJSON *item(cJSON *items, size_t qi, const char *label) {
  cJSON *it = cJSON_CreateObject();
  if (!it || !cJSON_AddItemToArray(items, it)) {
    cJSON_Delete(it);
    return NULL;
  }
  if (!cJSON_AddNumberToObject(it, "question", (double)qi) || !cJSON_AddStringToObject(it, "label", label)) return NULL;
  return it;
}

/* The engine's own question: which, its sentence, N, and what "yes" would discard. */
static bool add_confirm(const qt_engine *e, cJSON *root) {
  if (e->overlay == QT_OVERLAY_NONE) return cJSON_AddNullToObject(root, "confirm") != NULL;
  cJSON *c = cJSON_AddObjectToObject(root, "confirm");
  if (!c) return false;
  bool is_long = e->overlay == QT_OVERLAY_LONG;
  qt_string_id id = qt_confirm_string(e);
  qt_buf title;
  qt_buf_init(&title);
  qt_format(&title, qt_str(e, id), e->overlay_n, NULL);
  qt_buf_putc(&title, '\0');
  bool ok = !title.failed && cJSON_AddStringToObject(c, "which", is_long ? "long" : "discard") &&
            cJSON_AddStringToObject(c, "title", title.data) &&
            cJSON_AddNumberToObject(c, "count", (double)e->overlay_n);
  qt_buf_free(&title);
  cJSON *items = ok ? cJSON_AddArrayToObject(c, "items") : NULL;
  if (!items) return false;
  if (is_long) return true;
  size_t n = e->req->question_count;
  if (e->overlay_n) { /* the answers given in this call */
    for (size_t i = 0; i < n; i++) {
      if (!e->answers[i].present || !e->qs[i].touched) continue;
      qt_buf b;
      qt_buf_init(&b);
      cJSON *it = item(items, i, e->qs[i].label);
      ok = it && describe(e, i, &b) && cJSON_AddStringToObject(it, "text", b.data);
      qt_buf_free(&b);
      if (!ok) return false;
    }
    return true;
  }
  for (size_t i = 0; i < n; i++) { /* the typed text the result would not carry */
    unsigned lost = qt_typed_lost(e, i, e->overlay_then, e->overlay_pick);
    const qt_qstate *s = &e->qs[i];
    cJSON *it;
    if ((lost & QT_LOST_DRAFT) && (!(it = item(items, i, s->label)) || !add_editor(it, "text", &s->draft)))
      return false;
    if ((lost & QT_LOST_NOTE) && (!(it = item(items, i, s->label)) || !add_editor(it, "text", &s->note))) return false;
  }
  if (e->overlay_then != QT_DISCUSS && !qt_editor_blank(&e->discuss)) {
    cJSON *it = item(items, n, "");
    if (!it || !add_editor(it, "text", &e->discuss)) return false;
  }
  if (e->overlay_then == QT_CANCELLED && !qt_editor_blank(&e->call_note)) { /* the note on all the answers */
    cJSON *it = item(items, n, "");
    if (!it || !add_editor(it, "text", &e->call_note)) return false;
  }
  return true;
}

static bool add_question(const qt_engine *e, cJSON *arr, size_t i) {
  const qt_qstate *s = &e->qs[i];
  const qt_answer *a = &e->answers[i];
  cJSON *q = cJSON_CreateObject();
  if (!q || !cJSON_AddItemToArray(arr, q)) {
    cJSON_Delete(q);
    return false;
  }
  bool ok = cJSON_AddStringToObject(q, "id", s->q->id) && cJSON_AddStringToObject(q, "label", s->label) &&
            cJSON_AddStringToObject(q, "prompt", s->prompt) && cJSON_AddBoolToObject(q, "multi", s->q->multi_select) &&
            cJSON_AddBoolToObject(q, "answered", a->present);
  /* a typed question: its type and the hint every face shows ("A whole number (1–10)") */
  if (ok && (s->q->type != QT_TYPE_TEXT || s->q->secret)) {
    qt_buf hint;
    qt_buf_init(&hint);
    qt_typed_hint(s->q, e->lang, &hint);
    qt_buf_putc(&hint, '\0');
    ok = !hint.failed && cJSON_AddStringToObject(q, "type", qt_type_name((qt_type)s->q->type)) &&
         cJSON_AddStringToObject(q, "hint", hint.data) && (!s->q->secret || cJSON_AddBoolToObject(q, "secret", true));
    qt_buf_free(&hint);
  }
  /* skipped on purpose: "skipped" or "chat" (qt_skip_name), else null */
  const char *skip = a->present ? qt_skip_name((qt_skip)a->skipped) : NULL;
  ok = ok && (skip ? cJSON_AddStringToObject(q, "skipped", skip) : cJSON_AddNullToObject(q, "skipped"));
  cJSON *opts = ok ? cJSON_AddArrayToObject(q, "options") : NULL;
  if (!opts) return false;
  for (size_t k = 0; k < s->q->option_count; k++) {
    cJSON *o = cJSON_CreateObject();
    if (!o || !cJSON_AddItemToArray(opts, o)) {
      cJSON_Delete(o);
      return false;
    }
    bool chosen = s->q->multi_select ? s->ticked[k] : (a->present && a->index_count && a->indices[0] == k + 1);
    if (!cJSON_AddStringToObject(o, "label", s->opts[k].label) ||
        (s->opts[k].description && !cJSON_AddStringToObject(o, "description", s->opts[k].description)) ||
        !cJSON_AddStringToObject(o, "value", s->q->options[k].value) || !cJSON_AddBoolToObject(o, "ticked", chosen))
      return false;
  }
  if (!add_editor(q, "typed", &s->draft) || !add_editor(q, "note", &s->note) || !add_editor(q, "filter", &s->filter))
    return false;
  if (a->present && a->custom && !s->q->secret ? !add_clean(q, "wrote", a->custom, strlen(a->custom), true)
                                               : !cJSON_AddNullToObject(q, "wrote"))
    return false;
  /* the answer as the review reads it, in the engine's language: what every face's review shows */
  qt_buf reading;
  qt_buf_init(&reading);
  if (!a->present) {
    qt_buf_puts(&reading, qt_str(e, QT_STR_NOT_ANSWERED));
    qt_buf_putc(&reading, '\0');
  } else if (describe(e, i, &reading) && a->custom && !s->q->secret) {
    reading.len--; /* before describe's NUL */
    qt_buf_puts(&reading, " ");
    qt_buf_puts(&reading, qt_str(e, QT_STR_TYPED));
    qt_buf_putc(&reading, '\0');
  }
  bool read_ok = !reading.failed && reading.data && cJSON_AddStringToObject(q, "reading", reading.data);
  qt_buf_free(&reading);
  if (!read_ok) return false;
  cJSON *shown = cJSON_AddArrayToObject(q, "shown");
  if (!shown) return false;
  for (size_t r = 0; r + 1 < qt_list_rows(s); r++)
    if (!cJSON_AddItemToArray(shown, cJSON_CreateNumber((double)qt_list_option_at(s, r)))) return false;
  return true;
}

static const char *state_name(const qt_engine *e) {
  if (e->done) return "done";
  if (e->overlay != QT_OVERLAY_NONE) return "confirm";
  if (e->discuss_open) return "discuss";
  if (e->call_note_open) return "callNote"; /* the one note on the whole call, on the review */
  if (e->current >= e->req->question_count) return "review";
  switch (e->qs[e->current].view) {
    case QT_VIEW_ENTRY: return "typing";
    case QT_VIEW_FILTER: return "filter";
    case QT_VIEW_NOTE: return "note";
    default: return "choosing";
  }
}

qt_status qt_engine_view(const qt_engine *e, char **json) {
  if (!json) return QT_ERR_USAGE;
  *json = NULL;
  if (!e) return QT_ERR_USAGE;
  cJSON *root = cJSON_CreateObject();
  bool ok = root && cJSON_AddStringToObject(root, "state", state_name(e)) &&
            cJSON_AddNumberToObject(root, "current", (double)e->current);
  cJSON *qs = ok ? cJSON_AddArrayToObject(root, "questions") : NULL;
  ok = qs != NULL;
  for (size_t i = 0; ok && i < e->req->question_count; i++) ok = add_question(e, qs, i);
  ok = ok && add_editor(root, "discussion", &e->discuss) && add_confirm(e, root) &&
       add_clean(root, "message", e->flash.data, e->flash.len, false);
  const char *earlier = qt_engine_earlier_line(e); /* a remembered answer: "Answered on 21 Nov: …" */
  if (ok && earlier) ok = cJSON_AddStringToObject(root, "earlierLine", earlier) != NULL;
  cJSON *acts = ok ? cJSON_AddArrayToObject(root, "actions") : NULL;
  ok = acts != NULL;
  qt_step live[QT_STEP_COUNT];
  size_t nl = qt_engine_live(e, live, QT_STEP_COUNT);
  for (size_t i = 0; ok && i < nl; i++) ok = cJSON_AddItemToArray(acts, cJSON_CreateString(qt_step_name(live[i])));
  cJSON *answers = ok ? qt_answers_to_cjson(e->req, e->answers) : NULL;
  /* the person's one note on the whole call rides in the answers object as "" (no question's id) */
  if (answers && e->call_note_text && !cJSON_AddStringToObject(answers, "", e->call_note_text))
    cJSON_Delete(answers), answers = NULL;
  ok = answers && cJSON_AddItemToObject(root, "answers", answers);
  ok = ok && add_editor(root, "callNote", &e->call_note);
  if (!ok) cJSON_Delete(answers), answers = NULL;
  if (ok && e->done) {
    ok = cJSON_AddStringToObject(root, "outcome", qt_outcome_name(e->outcome)) &&
         (e->outcome != QT_DISCUSS || cJSON_AddStringToObject(root, "discussionSent", qt_engine_discussion(e)));
  }
  if (ok) *json = qt_cjson_print(root);
  cJSON_Delete(root);
  return *json ? QT_OK : QT_ERR_NOMEM;
}
