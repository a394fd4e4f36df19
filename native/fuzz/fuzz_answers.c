/* fuzz_answers.c — libFuzzer target: pre-supplied answers (`{ id: string | string[] }` JSON,
 * as the model sends them or a person writes them in the pending file) against arbitrary
 * questions. qt_answers_from_json must accept or reject without a crash; accepted answers
 * must be well-formed (indices in range, ascending, one answer for a single-select question),
 * the result must build for every outcome, and the request with these answers as its preset
 * must survive the canonical JSON round trip unchanged. Build with -DFUZZ_ALLOW_ANSWER_DRIFT to
 * only require a fixed point after one round trip (to look past a known drift).
 *
 * Input: byte 0 picks the questions — bit 7 clear: one of SEED_REQUESTS below; bit 7 set: a
 * big-endian u16 length follows, then that many bytes of request JSON (a seed is used when
 * they do not parse). Bit 6 passes a NULL qt_error. The rest of the input is the answers. */
#include "fuzz_common.h"

static const char *const SEED_REQUESTS[] = {
    /* single select, values differ from labels */
    "{\"questions\":[{\"id\":\"db\",\"prompt\":\"Which "
    "database?\",\"options\":[{\"value\":\"pg\",\"label\":\"PostgreSQL\"},"
    "{\"value\":\"lite\",\"label\":\"SQLite\"},{\"value\":\"none\",\"label\":\"No database\"}]}]}",
    /* multi select */
    "{\"questions\":[{\"id\":\"f\",\"prompt\":\"Features?\",\"multiSelect\":true,\"options\":[\"Auth\",\"Billing\","
    "\"Search\",{\"value\":\"xy\",\"label\":\"x, y\"}]}]}",
    /* free text only, two questions */
    "{\"questions\":[{\"id\":\"name\",\"prompt\":\"Service name?\"},{\"id\":\"why\",\"prompt\":\"Why?\"}]}",
    /* numbers as labels and values that are other options' numbers */
    "{\"questions\":[{\"id\":\"n\",\"prompt\":\"Pick\",\"options\":[{\"value\":\"3\",\"label\":\"1\"},{\"value\":\"1\","
    "\"label\":\"2\"},"
    "{\"value\":\"2\",\"label\":\"three\"}]},{\"id\":\"m\",\"prompt\":\"Many\",\"multiSelect\":true,\"options\":[\"1\","
    "\"2\",\"10\"]}]}",
    /* labels equal up to case and spaces, a value equal to another label */
    "{\"questions\":[{\"id\":\"c\",\"prompt\":\"Case?\",\"options\":[{\"value\":\"a\",\"label\":\"Apple\"},{\"value\":"
    "\"Apple \",\"label\":\"APPLE!\"},"
    "{\"value\":\"b\",\"label\":\"apple pie\"}]}]}",
    /* prototype names as ids and values */
    "{\"questions\":[{\"id\":\"__proto__\",\"prompt\":\"p\",\"options\":[\"constructor\",\"toString\"]},"
    "{\"id\":\"constructor\",\"prompt\":\"q\",\"multiSelect\":true,\"options\":[\"__proto__\",\"hasOwnProperty\"]}]}",
    /* five questions of every kind */
    "{\"questions\":[{\"id\":\"a\",\"prompt\":\"A\",\"options\":[\"x\"]},{\"id\":\"b\",\"prompt\":\"B\","
    "\"multiSelect\":true},"
    "{\"id\":\"c\",\"prompt\":\"C\",\"options\":[\"\\u4e2d\\u6587\",\"\\ud83d\\udc4d\",\"e\\u0301\"]},{\"id\":\"d\","
    "\"prompt\":\"D\"},"
    "{\"id\":\"e\",\"prompt\":\"E\",\"multiSelect\":true,\"options\":[\"1\",\"2\",\"3\",\"4\",\"5\",\"6\",\"7\",\"8\","
    "\"9\",\"10\",\"11\"]}]}",
};
#define SEED_COUNT (sizeof SEED_REQUESTS / sizeof *SEED_REQUESTS)

static qt_request *seed_request(size_t i) {
  qt_request *req = NULL;
  const char *s = SEED_REQUESTS[i % SEED_COUNT];
  FUZZ_CHECK(qt_request_parse(s, strlen(s), &req, NULL) == QT_OK);
  return req;
}

/* The request with `answers` as its preset: canonical JSON parses again, to a fixed point. */
static void check_round_trip(qt_request *req, qt_answer *answers) {
  for (size_t i = 0; i < req->question_count; i++) /* the person's alone: never a model's preset */
    if (answers[i].present && (answers[i].skipped || req->questions[i].secret)) return;
  qt_answer *saved = req->preset;
  req->preset = answers;
  char *j1 = NULL, *j2 = NULL, *j3 = NULL;
  qt_status st = qt_request_to_json(req, true, &j1);
  req->preset = saved;
  FUZZ_CHECK(st == QT_OK);
  qt_request *r2 = NULL, *r3 = NULL;
  qt_error err;
  st = qt_request_parse(j1, strlen(j1), &r2, &err);
  FUZZ_CHECK_MSG(st == QT_OK, "answers rejected after the round trip: %s: %s\n  %s", err.path, err.message, j1);
  FUZZ_CHECK(qt_request_to_json(r2, true, &j2) == QT_OK);
#ifndef FUZZ_ALLOW_ANSWER_DRIFT
  /* The answers survive the round trip: to_json(parse(to_json(x))) == to_json(x). */
  FUZZ_CHECK_MSG(strcmp(j1, j2) == 0, "answers change in the round trip\n  %s\n  %s", j1, j2);
#endif
  st = qt_request_parse(j2, strlen(j2), &r3, &err);
  FUZZ_CHECK(st == QT_OK);
  FUZZ_CHECK(qt_request_to_json(r3, true, &j3) == QT_OK);
  FUZZ_CHECK_MSG(strcmp(j2, j3) == 0, "not a fixed point\n  %s\n  %s", j2, j3);
  qt_request_free(r2);
  qt_request_free(r3);
  free(j1);
  free(j2);
  free(j3);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size};
  uint8_t sel = fuzz_byte(&in);
  qt_request *req = NULL;
  if (sel & 0x80) {
    size_t got, len = fuzz_u16(&in);
    const char *json = fuzz_bytes(&in, len, &got);
    if (qt_request_parse(json, got, &req, NULL) != QT_OK) req = NULL;
  }
  if (!req) req = seed_request(sel & 0x3F);
  FUZZ_CHECK(req != NULL);

  qt_error err;
  qt_answer *answers = NULL;
  char *call_note = NULL; /* the "" key: the person's one note on the whole call (the _note reader only) */
  /* the person's reader with the call's note, the relay's (a secret as its file), or the plain one */
  qt_status st =
      (sel & 0xA0) == 0xA0
          ? qt_answers_from_json_relayed(req, (const char *)in.p, in.n, &answers, &call_note, sel & 0x40 ? NULL : &err)
      : sel & 0x80
          ? qt_answers_from_json_note(req, (const char *)in.p, in.n, &answers, &call_note, sel & 0x40 ? NULL : &err)
          : qt_answers_from_json(req, (const char *)in.p, in.n, &answers, sel & 0x40 ? NULL : &err);
  if (st == QT_ERR_INVALID) {
    FUZZ_CHECK(answers == NULL);
    if (!(sel & 0x40)) fuzz_check_error(&err);
    qt_request_free(req);
    return 0;
  }
  FUZZ_CHECK_MSG(st == QT_OK || st == QT_ERR_NOMEM, "qt_answers_from_json: %s", qt_status_code(st));
  if (st == QT_OK) {
    FUZZ_CHECK(answers != NULL);
    for (size_t i = 0; i < req->question_count; i++) fuzz_check_answer(&req->questions[i], &answers[i]);
    for (int o = QT_ANSWERED; o <= QT_OUTCOME_LAST; o++)
      fuzz_check_result(req, answers, (qt_outcome)o, o == QT_DECLINED ? "the person went for coffee" : NULL);
    check_round_trip(req, answers);
    if (call_note) { /* said after the answers, within the cap */
      FUZZ_CHECK_TEXT(call_note);
      char *details = NULL, *text = NULL;
      qt_status r =
          qt_result_build_noted(req, answers, QT_DECLINED, "web", NULL, 1, NULL, 0, NULL, call_note, &details, &text);
      FUZZ_CHECK_MSG(r == QT_OK || r == QT_ERR_NOMEM, "qt_result_build_noted: %s", qt_status_code(r));
      if (r == QT_OK) {
        FUZZ_CHECK(strlen(text) <= QT_MAX_RESULT_TEXT_BYTES);
        FUZZ_CHECK(strstr(text, "note on all the answers: ") != NULL);
      }
      free(details);
      free(text);
    }
    qt_answers_free(answers, req->question_count);
  }
  if (st != QT_OK) FUZZ_CHECK(call_note == NULL);
  free(call_note);
  qt_request_free(req);
  return 0;
}
