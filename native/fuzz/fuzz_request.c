/* fuzz_request.c — libFuzzer target: arbitrary bytes as the tool arguments of a `question`
 * call. qt_request_parse must accept or reject them without a crash; an accepted request
 * must satisfy every invariant of qt.h, its canonical JSON must parse again and be a fixed
 * point (to_json(parse(to_json(x))) == to_json(x)), and the result must build for every
 * outcome with the pre-supplied answers and with a complete set of answers. */
#include "fuzz_common.h"

/* A complete set of answers for req: option (i mod n) + 1 where there are options, typed
 * text otherwise; multi-select questions also get typed text. */
static qt_answer *complete_answers(const qt_request *req, uint8_t salt) {
  qt_answer *a = calloc(req->question_count, sizeof *a);
  if (!a) return NULL;
  for (size_t i = 0; i < req->question_count; i++) {
    const qt_question *q = &req->questions[i];
    a[i].present = true;
    if (q->option_count && (salt & 1) == 0) {
      a[i].indices = malloc(sizeof *a[i].indices);
      if (!a[i].indices) goto fail;
      a[i].indices[0] = (i + salt) % q->option_count + 1;
      a[i].index_count = 1;
    }
    if (!a[i].index_count || (q->multi_select && (salt & 2))) {
      a[i].custom = strdup("typed \xE2\x9C\x93 text\nsecond line");
      if (!a[i].custom) goto fail;
    }
    if (salt & 4) {
      a[i].note = strdup("a note");
      if (!a[i].note) goto fail;
    }
  }
  return a;
fail:
  qt_answers_free(a, req->question_count);
  return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* qt_sanitize_unchanged says exactly when qt_sanitize would copy the text as it is (the engine
 * takes it as it is then, without copying it). */
static void check_sanitize_unchanged(const uint8_t *data, size_t size) {
  for (unsigned flags = 0; flags <= QT_SANITIZE_NEWLINES; flags++) {
    qt_buf b;
    qt_buf_init(&b);
    if (qt_sanitize(&b, (const char *)data, size, flags)) {
      bool same = b.len == size && (!size || memcmp(b.data, data, size) == 0);
      FUZZ_CHECK_MSG(same == qt_sanitize_unchanged((const char *)data, size, flags),
                     "qt_sanitize_unchanged says %d, qt_sanitize %s it (flags %u)", !same, same ? "kept" : "changed",
                     flags);
    }
    qt_buf_free(&b);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  check_sanitize_unchanged(data, size);
  qt_request *req = NULL;
  qt_error err;
  /* every other input in this thread's scratch memory (QT_PARSE_SCRATCH: what normalize uses);
   * the round trip's second parse below then finds it held and uses malloc */
  qt_status st = qt_request_parse_ex((const char *)data, size, (size & 1) ? QT_PARSE_SCRATCH : 0, &req, &err);
  if (st == QT_ERR_INVALID) {
    FUZZ_CHECK(req == NULL);
    fuzz_check_error(&err);
    return 0;
  }
  FUZZ_CHECK_MSG(st == QT_OK || st == QT_ERR_NOMEM, "qt_request_parse: %s", qt_status_code(st));
  if (st != QT_OK) return 0;
  FUZZ_CHECK(req != NULL);
  fuzz_check_request(req);
  if (req->preset)
    for (size_t i = 0; i < req->question_count; i++) fuzz_check_answer(&req->questions[i], &req->preset[i]);

  /* canonical JSON: parses again, to the same canonical JSON */
  for (int with_preset = 0; with_preset <= 1; with_preset++) {
    char *j1 = NULL, *j2 = NULL;
    FUZZ_CHECK(qt_request_to_json(req, with_preset, &j1) == QT_OK);
    FUZZ_CHECK_TEXT(j1);
    qt_request *again = NULL;
    qt_error err2;
    st = qt_request_parse(j1, strlen(j1), &again, &err2);
    FUZZ_CHECK_MSG(st == QT_OK, "canonical JSON rejected: %s at %s: %s\n  canonical: %s", qt_status_code(st), err2.path,
                   err2.message, j1);
    fuzz_check_request(again);
    FUZZ_CHECK(again->question_count == req->question_count);
    FUZZ_CHECK(qt_request_to_json(again, with_preset, &j2) == QT_OK);
#ifdef FUZZ_ALLOW_ANSWER_DRIFT /* look past the known drift of pre-supplied answers (see fuzz_answers.c) */
    if (!with_preset)
#endif
      FUZZ_CHECK_MSG(strcmp(j1, j2) == 0, "canonical JSON is not a fixed point\n  first:  %s\n  second: %s", j1, j2);
    qt_request_free(again);
    free(j1);
    free(j2);
  }

  /* the result, for every outcome */
  const char *reason = size & 1 ? "aborted by \x1b[31mthe host\x1b[0m" : NULL;
  for (int o = QT_ANSWERED; o <= QT_OUTCOME_LAST; o++) {
    fuzz_check_result(req, req->preset, (qt_outcome)o, reason);
    fuzz_check_result(req, NULL, (qt_outcome)o, reason);
  }
  qt_answer *full = complete_answers(req, size ? data[size - 1] : 0);
  FUZZ_CHECK(full != NULL);
  for (size_t i = 0; i < req->question_count; i++) fuzz_check_answer(&req->questions[i], &full[i]);
  for (int o = QT_ANSWERED; o <= QT_OUTCOME_LAST; o++) fuzz_check_result(req, full, (qt_outcome)o, NULL);
  /* copies are deep and equal */
  for (size_t i = 0; i < req->question_count; i++) {
    qt_answer c;
    FUZZ_CHECK(qt_answer_copy(&c, &full[i]) == QT_OK);
    FUZZ_CHECK(c.present == full[i].present && c.index_count == full[i].index_count);
    FUZZ_CHECK(!c.index_count || memcmp(c.indices, full[i].indices, c.index_count * sizeof *c.indices) == 0);
    FUZZ_CHECK((c.custom == NULL) == (full[i].custom == NULL) && (!c.custom || strcmp(c.custom, full[i].custom) == 0));
    qt_answer_clear(&c);
  }
  qt_answers_free(full, req->question_count);
  qt_request_free(req);
  return 0;
}
