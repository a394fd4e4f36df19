/* fuzz_common.h — shared by the libFuzzer targets in native/fuzz/: the invariant check (a
 * trap on the exact line, so the fuzzer reports it as a crash with a stack), a reader that
 * takes decisions from the fuzz input, and the checks every string the core produces must
 * pass. Used by the harnesses only; nothing here is part of the addon. */
#ifndef QT_FUZZ_COMMON_H
#define QT_FUZZ_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qt.h"
#include "qt_text.h"

/* An invariant of the core that the input broke: print it, then trap (not abort: a trap
 * cannot be caught or turned into a clean exit by anything in the code under test). */
#define FUZZ_CHECK(cond)                                                                                               \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      fprintf(stderr, "\nfuzz invariant failed: %s\n  at %s:%d\n", #cond, __FILE__, __LINE__);                         \
      __builtin_trap();                                                                                                \
    }                                                                                                                  \
  } while (0)

/* Same, with a printf-style explanation (e.g. the two JSON texts that differ). */
#define FUZZ_CHECK_MSG(cond, ...)                                                                                      \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      fprintf(stderr, "\nfuzz invariant failed: %s\n  at %s:%d\n  ", #cond, __FILE__, __LINE__);                       \
      fprintf(stderr, __VA_ARGS__);                                                                                    \
      fputc('\n', stderr);                                                                                             \
      __builtin_trap();                                                                                                \
    }                                                                                                                  \
  } while (0)

/* ---- reading decisions from the input ------------------------------------------------- */
typedef struct fuzz_input {
  const uint8_t *p;
  size_t n;
} fuzz_input;

static inline uint8_t fuzz_byte(fuzz_input *in) {
  if (!in->n) return 0;
  in->n--;
  return *in->p++;
}

static inline uint16_t fuzz_u16(fuzz_input *in) {
  uint16_t hi = fuzz_byte(in);
  return (uint16_t)(hi << 8 | fuzz_byte(in));
}

/* Takes up to `want` bytes; *got says how many there were. */
static inline const char *fuzz_bytes(fuzz_input *in, size_t want, size_t *got) {
  const char *s = (const char *)in->p;
  if (want > in->n) want = in->n;
  in->p += want;
  in->n -= want;
  *got = want;
  return s;
}

/* ---- checks on what the core produces ---------------------------------------------------- */
static inline bool fuzz_utf8(const char *s) { return s && qt_utf8_valid(s, strlen(s), NULL); }

/* A string the core hands out: present, valid UTF-8. */
#define FUZZ_CHECK_TEXT(s) FUZZ_CHECK_MSG(fuzz_utf8(s), "not valid UTF-8: \"%s\"", (s) ? (s) : "(null)")

/* A qt_error filled after QT_ERR_INVALID: a non-empty, NUL-terminated message. */
static inline void fuzz_check_error(const qt_error *err) {
  FUZZ_CHECK(memchr(err->path, '\0', sizeof err->path) != NULL);
  FUZZ_CHECK(memchr(err->message, '\0', sizeof err->message) != NULL);
  FUZZ_CHECK(err->message[0] != '\0');
#ifdef FUZZ_STRICT_MESSAGES
  /* Messages quote the model's strings and are cut at a fixed size; a cut in the middle of
   * a character leaves invalid UTF-8 (harmless for JS, which substitutes U+FFFD). */
  FUZZ_CHECK_TEXT(err->message);
  FUZZ_CHECK_TEXT(err->path);
#endif
}

/* The invariants of a parsed request (see qt.h and qt_limits.h). */
static inline void fuzz_check_request(const qt_request *req) {
  FUZZ_CHECK(req->question_count >= 1 && req->question_count <= QT_MAX_QUESTIONS);
  for (size_t i = 0; i < req->question_count; i++) {
    const qt_question *q = &req->questions[i];
    FUZZ_CHECK_TEXT(q->id);
    FUZZ_CHECK_TEXT(q->label);
    FUZZ_CHECK_TEXT(q->prompt);
    FUZZ_CHECK(q->id[0] && strlen(q->id) <= QT_MAX_ID_BYTES);
    FUZZ_CHECK(q->label[0] && strlen(q->label) <= QT_MAX_LABEL_BYTES);
    FUZZ_CHECK(q->prompt[0] && strlen(q->prompt) <= QT_MAX_PROMPT_BYTES);
    for (size_t j = 0; j < i; j++) FUZZ_CHECK(strcmp(req->questions[j].id, q->id) != 0);
    FUZZ_CHECK(q->option_count <= QT_MAX_OPTIONS);
    FUZZ_CHECK(q->option_count == 0 || q->options != NULL);
    for (size_t k = 0; k < q->option_count; k++) {
      const qt_option *o = &q->options[k];
      FUZZ_CHECK_TEXT(o->value);
      FUZZ_CHECK_TEXT(o->label);
      FUZZ_CHECK(o->label[0] && strlen(o->label) <= QT_MAX_OPTION_LABEL_BYTES);
      /* the value defaults to the label, so either limit may apply */
      FUZZ_CHECK(o->value[0] && (strlen(o->value) <= QT_MAX_OPTION_VALUE_BYTES || strcmp(o->value, o->label) == 0));
      if (o->description) FUZZ_CHECK_TEXT(o->description);
      if (o->preview) FUZZ_CHECK_TEXT(o->preview);
      for (size_t j = 0; j < k; j++) {
        FUZZ_CHECK(strcmp(q->options[j].label, o->label) != 0);
        FUZZ_CHECK(strcmp(q->options[j].value, o->value) != 0);
      }
    }
  }
  if (req->metadata_json) FUZZ_CHECK_TEXT(req->metadata_json);
}

/* The invariants of one answer to question q. */
static inline void fuzz_check_answer(const qt_question *q, const qt_answer *a) {
  if (!a->present) {
    FUZZ_CHECK(a->index_count == 0 && a->custom == NULL && a->skipped == QT_SKIP_NONE);
    return;
  }
  FUZZ_CHECK(a->skipped < QT_SKIP_COUNT);
  if (a->skipped) { /* skipped on purpose: no option, no text (a note may go with it) */
    FUZZ_CHECK(a->index_count == 0 && a->custom == NULL);
    if (a->note) FUZZ_CHECK_TEXT(a->note);
    return;
  }
  FUZZ_CHECK(a->index_count > 0 || a->custom != NULL);
  FUZZ_CHECK(a->index_count == 0 || a->indices != NULL);
  for (size_t k = 0; k < a->index_count; k++) {
    FUZZ_CHECK(a->indices[k] >= 1 && a->indices[k] <= q->option_count);
    if (k) FUZZ_CHECK(a->indices[k - 1] < a->indices[k]);
  }
  if (!q->multi_select) FUZZ_CHECK(a->index_count + (a->custom != NULL) == 1);
  if (a->custom) {
    FUZZ_CHECK_TEXT(a->custom);
    FUZZ_CHECK(a->custom[0]);
  }
  if (a->note) FUZZ_CHECK_TEXT(a->note);
}

/* Builds the result for `outcome` and checks it: details is JSON, both are UTF-8, the text
 * keeps to its limit. ANSWERED with an unanswered question must be refused (QT_ERR_STATE). */
#include <cjson/cJSON.h>
/* Every given answer keeps its line in the model's text, in question order ("id: " at the start
 * of a line; a line break inside an answer is always followed by an indent), whatever the cap
 * cut. Checked for the outcomes that keep answers. */
static inline void fuzz_check_answer_lines(const qt_request *req, const qt_answer *answers, const char *text) {
#if QT_MAX_RESULT_TEXT_BYTES < 100000
  /* A cap lowered for fuzzing (scripts/fuzz.sh) may be smaller than what no line can do without
   * (ids, "user wrote: ", a mark per piece, the sentence); the core then cuts the end as a last
   * resort. Under the real cap a request within its limits always fits. */
  size_t need = 400 + 48; /* the longest sentence, the reason's mark */
  for (size_t i = 0; i < req->question_count; i++)
    if (answers[i].present) need += strlen(req->questions[i].id) + 40 + 3 * 48;
  if (need > QT_MAX_RESULT_TEXT_BYTES) return;
#endif
  const char *p = text;
  for (size_t i = 0; i < req->question_count; i++) {
    if (!answers[i].present) continue;
    const char *id = req->questions[i].id;
    size_t n = strlen(id);
    FUZZ_CHECK_MSG(strncmp(p, id, n) == 0 && p[n] == ':' && p[n + 1] == ' ',
                   "the answer of \"%s\" lost its line:\n%.2000s", id, text);
    const char *nl = strchr(p, '\n');
    while (nl && nl[1] == ' ' && nl[2] == ' ') nl = strchr(nl + 1, '\n');
    p = nl ? nl + 1 : p + strlen(p);
  }
}

static inline void fuzz_check_result(const qt_request *req, const qt_answer *answers, qt_outcome outcome,
                                     const char *reason) {
  static const char *const modes[] = {"interactive", "rpc", "print", "tty", "presupplied", "pending", NULL};
  char *details = NULL, *text = NULL;
  qt_status st = qt_result_build(req, answers, outcome, modes[outcome % 6], 1700000000000, reason, &details, &text);
  if (strcmp(qt_outcome_name(outcome), "unknown") == 0) { /* a value no outcome has (yet) */
    FUZZ_CHECK(st == QT_ERR_USAGE && !details && !text);
    return;
  }
  if (outcome == QT_TIMED_OUT) { /* the other "then"s of the person's timeout build too */
    for (unsigned f = QT_RESULT_TIMEOUT_DECLINE; f <= QT_RESULT_TIMEOUT_RECOMMENDED; f += 2) {
      char *d2 = NULL, *t2 = NULL;
      qt_status s2 = qt_result_build_ex(req, answers, outcome, "interactive", 1, reason, f, &d2, &t2);
      FUZZ_CHECK_MSG(s2 == QT_OK || s2 == QT_ERR_NOMEM, "qt_result_build_ex (timeout): %s", qt_status_code(s2));
      if (s2 == QT_OK) {
        FUZZ_CHECK_TEXT(d2);
        FUZZ_CHECK_TEXT(t2);
        FUZZ_CHECK(strlen(t2) <= QT_MAX_RESULT_TEXT_BYTES);
        FUZZ_CHECK(strstr(t2, "did not answer within the time limit") != NULL);
      }
      free(d2);
      free(t2);
    }
  }
  bool all = answers != NULL;
  for (size_t i = 0; all && i < req->question_count; i++) all = answers[i].present;
  if (outcome == QT_ANSWERED && !all) {
    FUZZ_CHECK(st == QT_ERR_STATE);
    FUZZ_CHECK(!details && !text);
    return;
  }
  FUZZ_CHECK_MSG(st == QT_OK || st == QT_ERR_NOMEM, "qt_result_build: %s", qt_status_code(st));
  if (st != QT_OK) {
    FUZZ_CHECK(!details && !text);
    return;
  }
  FUZZ_CHECK_TEXT(details);
  FUZZ_CHECK_TEXT(text);
  FUZZ_CHECK(strlen(text) <= QT_MAX_RESULT_TEXT_BYTES);
  if (answers && (outcome == QT_ANSWERED || outcome == QT_DECLINED)) fuzz_check_answer_lines(req, answers, text);
  cJSON *d = cJSON_Parse(details);
  FUZZ_CHECK_MSG(d != NULL, "details is not JSON: %s", details);
  cJSON *status = cJSON_GetObjectItemCaseSensitive(d, "status");
  FUZZ_CHECK(cJSON_IsString(status) && strcmp(status->valuestring, qt_outcome_name(outcome)) == 0);
  cJSON *qs = cJSON_GetObjectItemCaseSensitive(d, "questions");
  FUZZ_CHECK(cJSON_IsArray(qs) && (size_t)cJSON_GetArraySize(qs) == req->question_count);
  cJSON_Delete(d);
  free(details);
  free(text);
}

#endif
