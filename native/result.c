/* result.c — the one builder of the tool result, for every mode: `details` (JSON kept in
 * pi's session) and the text the model reads. The model-facing sentences live here, in one
 * table; they stay English whatever language the person's UI uses (the model reads them). */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qt_internal.h"
#include "qt_text.h"

/* ---- what the model reads when nothing (or not everything) was answered -------------------- */
static const char *const OUTCOME_SENTENCE[] = {
    [QT_ANSWERED] = "",
    [QT_DECLINED] =
        "The user declined to answer and left the decision to you. Decide yourself, state the assumptions you made "
        "in your reply, and continue.",
    [QT_CANCELLED] =
        "The user cancelled the question without answering. Do not guess an answer and do not continue the task: end "
        "your turn and wait for the user's next message.",
    [QT_INTERRUPTED] =
        "The question was interrupted before the user answered (the run was aborted). Nothing was answered: do not "
        "assume an answer, and wait for the user before acting on anything this question was about.",
    [QT_UNAVAILABLE] =
        "The question could not be shown to the user, so nothing was answered. Do not assume an answer.",
};
/* A cancel when the user's settings let the agent go on after Esc. */
static const char CANCEL_CONTINUES[] =
    "The user dismissed the question without answering and lets you continue. Go on without this information: do "
    "not assume an answer, and do not ask the same question again right away.";
static const char DECLINED_SOME[] =
    "The user answered the questions above and declined the others, leaving them to you. Decide those yourself, "
    "state the assumptions you made in your reply, and continue.";
static const char DECLINED_AFTER_ANSWERING[] =
    "The user answered every question above but declined to confirm them, leaving the decision to you. Treat these "
    "answers as their preference, state any assumptions you make, and continue.";
static const char TRUNCATION_MARK[] = "\n[result truncated: %zu more bytes]";
static const char *const OUTCOME_NAME[] = {"answered", "declined", "cancelled", "interrupted", "unavailable"};

const char *qt_outcome_name(qt_outcome outcome) {
  return (unsigned)outcome <= QT_UNAVAILABLE ? OUTCOME_NAME[outcome] : "unknown";
}

/* ---- details ---------------------------------------------------------------------------------- */
static bool add_str(cJSON *o, const char *k, const char *v) { return cJSON_AddStringToObject(o, k, v) != NULL; }

static cJSON *answer_to_cjson(const qt_question *q, const qt_answer *a) {
  cJSON *o = cJSON_CreateObject();
  qt_buf value, label;
  qt_buf_init(&value);
  qt_buf_init(&label);
  if (!o || !add_str(o, "id", q->id)) goto fail;
  for (size_t k = 0; k < a->index_count; k++) {
    const qt_option *op = &q->options[a->indices[k] - 1];
    if (k) qt_buf_puts(&value, ", "), qt_buf_puts(&label, ", ");
    qt_buf_puts(&value, op->value);
    qt_buf_puts(&label, op->label);
  }
  if (a->custom) {
    if (a->index_count) qt_buf_puts(&value, ", "), qt_buf_puts(&label, ", ");
    qt_buf_puts(&value, a->custom);
    qt_buf_puts(&label, a->custom);
  }
  if (value.failed || label.failed) goto fail;
  if (!add_str(o, "value", value.data ? value.data : "") || !add_str(o, "label", label.data ? label.data : "") ||
      !cJSON_AddBoolToObject(o, "wasCustom", a->custom != NULL))
    goto fail;
  if (!q->multi_select && a->index_count == 1 && !a->custom) {
    if (!cJSON_AddNumberToObject(o, "index", (double)a->indices[0])) goto fail;
  }
  if (q->multi_select) {
    cJSON *values = cJSON_AddArrayToObject(o, "values"), *labels = cJSON_AddArrayToObject(o, "labels"),
          *indices = cJSON_AddArrayToObject(o, "indices");
    if (!values || !labels || !indices) goto fail;
    for (size_t k = 0; k < a->index_count; k++) {
      const qt_option *op = &q->options[a->indices[k] - 1];
      if (!cJSON_AddItemToArray(values, cJSON_CreateString(op->value)) ||
          !cJSON_AddItemToArray(labels, cJSON_CreateString(op->label)) ||
          !cJSON_AddItemToArray(indices, cJSON_CreateNumber((double)a->indices[k])))
        goto fail;
    }
    if (a->custom && (!cJSON_AddItemToArray(values, cJSON_CreateString(a->custom)) ||
                      !cJSON_AddItemToArray(labels, cJSON_CreateString(a->custom))))
      goto fail;
  }
  if (a->note && !add_str(o, "note", a->note)) goto fail;
  qt_buf_free(&value);
  qt_buf_free(&label);
  return o;
fail:
  qt_buf_free(&value);
  qt_buf_free(&label);
  cJSON_Delete(o);
  return NULL;
}

static char *details_json(const qt_request *req, const qt_answer *answers, qt_outcome outcome, const char *mode,
                          int64_t answered_at_ms, bool keep_answers) {
  cJSON *root = cJSON_CreateObject(), *qs = NULL;
  if (!root) return NULL;
  qs = qt_questions_to_cjson(req, true);
  if (!qs || !cJSON_AddItemToObject(root, "questions", qs)) {
    cJSON_Delete(qs);
    goto fail;
  }
  cJSON *arr = cJSON_AddArrayToObject(root, "answers");
  if (!arr) goto fail;
  if (keep_answers && answers) {
    for (size_t i = 0; i < req->question_count; i++) {
      if (!answers[i].present) continue;
      cJSON *a = answer_to_cjson(&req->questions[i], &answers[i]);
      if (!a || !cJSON_AddItemToArray(arr, a)) {
        cJSON_Delete(a);
        goto fail;
      }
    }
  }
  if (!cJSON_AddBoolToObject(root, "cancelled", outcome != QT_ANSWERED) ||
      !add_str(root, "status", qt_outcome_name(outcome)) || !add_str(root, "mode", mode ? mode : "unknown") ||
      !cJSON_AddNumberToObject(root, "answeredAt", (double)answered_at_ms))
    goto fail;
  if (req->metadata_json) {
    cJSON *m = cJSON_Parse(req->metadata_json);
    if (!m || !cJSON_AddItemToObject(root, "metadata", m)) {
      cJSON_Delete(m);
      goto fail;
    }
  }
  char *s = qt_cjson_print(root); /* malloc'ed: qt.h's strings are released with free() */
  cJSON_Delete(root);
  return s;
fail:
  cJSON_Delete(root);
  return NULL;
}

/* ---- the text the model reads ------------------------------------------------------------------ */
/* Appends text with every line break followed by an indent, so one answer stays one entry. */
static void put_indented(qt_buf *b, const char *s) {
  for (; *s; s++) {
    if (*s == '\r' && s[1] == '\n') continue;
    qt_buf_putc(b, *s);
    if (*s == '\n') qt_buf_puts(b, "  ");
  }
}

static void answer_line(qt_buf *b, const qt_question *q, const qt_answer *a) {
  qt_buf_printf(b, "%s: ", q->id);
  if (a->index_count) {
    qt_buf_puts(b, "user selected: ");
    for (size_t k = 0; k < a->index_count; k++) {
      const qt_option *op = &q->options[a->indices[k] - 1];
      if (k) qt_buf_puts(b, ", ");
      qt_buf_printf(b, "%zu. ", a->indices[k]);
      put_indented(b, op->label);
      if (strcmp(op->value, op->label) != 0) {
        qt_buf_puts(b, " (value: ");
        put_indented(b, op->value);
        qt_buf_putc(b, ')');
      }
    }
  }
  if (a->custom) {
    if (a->index_count) qt_buf_puts(b, "; ");
    qt_buf_puts(b, "user wrote: ");
    put_indented(b, a->custom);
  }
  if (a->note) {
    qt_buf_puts(b, "; note: ");
    put_indented(b, a->note);
  }
  qt_buf_putc(b, '\n');
}

static char *result_text(const qt_request *req, const qt_answer *answers, qt_outcome outcome, const char *reason,
                         unsigned flags) {
  qt_buf b;
  qt_buf_init(&b);
  size_t given = 0;
  if (answers && (outcome == QT_ANSWERED || outcome == QT_DECLINED)) { /* as `details` keeps them */
    for (size_t i = 0; i < req->question_count; i++) {
      if (!answers[i].present) continue;
      answer_line(&b, &req->questions[i], &answers[i]);
      given++;
    }
  }
  if (outcome != QT_ANSWERED) {
    if (outcome == QT_DECLINED && given == req->question_count)
      qt_buf_puts(&b, DECLINED_AFTER_ANSWERING);
    else if (outcome == QT_DECLINED && given)
      qt_buf_puts(&b, DECLINED_SOME);
    else if (outcome == QT_CANCELLED && (flags & QT_RESULT_CANCEL_CONTINUES))
      qt_buf_puts(&b, CANCEL_CONTINUES);
    else
      qt_buf_puts(&b, OUTCOME_SENTENCE[outcome]);
    if (reason && *reason) {
      qt_buf_putc(&b, ' ');
      qt_buf_puts(&b, reason);
    }
  } else if (b.len && b.data[b.len - 1] == '\n') {
    b.len--;
    b.data[b.len] = '\0';
  }
  if (b.failed) {
    qt_buf_free(&b);
    return NULL;
  }
  if (b.len > QT_MAX_RESULT_TEXT_BYTES) {
    char mark[96];
    size_t keep = QT_MAX_RESULT_TEXT_BYTES - sizeof mark;
    while (keep && ((unsigned char)b.data[keep] & 0xC0) == 0x80) keep--; /* whole characters only */
    snprintf(mark, sizeof mark, TRUNCATION_MARK, b.len - keep);
    b.len = keep;
    qt_buf_puts(&b, mark);
    if (b.failed) {
      qt_buf_free(&b);
      return NULL;
    }
  }
  return qt_buf_take(&b);
}

qt_status qt_result_build(const qt_request *req, const qt_answer *answers, qt_outcome outcome, const char *mode,
                          int64_t answered_at_ms, const char *reason, char **details, char **text) {
  return qt_result_build_ex(req, answers, outcome, mode, answered_at_ms, reason, 0, details, text);
}

qt_status qt_result_build_ex(const qt_request *req, const qt_answer *answers, qt_outcome outcome, const char *mode,
                             int64_t answered_at_ms, const char *reason, unsigned flags, char **details,
                             char **text) {
  if (!req || !details || !text || (unsigned)outcome > QT_UNAVAILABLE) return QT_ERR_USAGE;
  *details = *text = NULL;
  if (outcome == QT_ANSWERED) {
    if (!answers) return QT_ERR_STATE;
    for (size_t i = 0; i < req->question_count; i++)
      if (!answers[i].present) return QT_ERR_STATE;
  }
  bool keep = outcome == QT_ANSWERED || outcome == QT_DECLINED; /* a cancel discards everything */
  *details = details_json(req, answers, outcome, mode, answered_at_ms, keep);
  *text = *details ? result_text(req, answers, outcome, reason, flags) : NULL;
  if (!*details || !*text) {
    free(*details);
    free(*text);
    *details = *text = NULL;
    return QT_ERR_NOMEM;
  }
  return QT_OK;
}
