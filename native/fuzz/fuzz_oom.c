/* fuzz_oom.c — libFuzzer target for out-of-memory paths of the request core: the same work
 * (parse, canonical JSON, answers, result for every outcome) runs once with the real
 * allocator and once with allocation number N failing (or every one from N on, see
 * fuzz_alloc.h). With failures, each step must return what it returned before or
 * QT_ERR_NOMEM — never crash, never leak (LeakSanitizer), and never hand back different
 * output: what succeeds under memory pressure is byte-for-byte what succeeds without it.
 *
 * Input: byte 0 bit 0 picks the mode (fail one / fail all after), bytes 1-2 N (big-endian);
 * the rest is the request JSON, optionally followed by a NUL byte and answers JSON.
 * Build with -DFUZZ_OOM_STRICT_STATUS to also reject an out-of-memory reported as
 * something else (e.g. "not valid JSON" when cJSON could not allocate). */
#include "fuzz_alloc.h"
#include "fuzz_common.h"

#define STEPS (3 + 2 * 5)
typedef struct core_run {
  qt_status st[STEPS];   /* status of each step; -1: not reached */
  char *out[STEPS];      /* output of each step that has one */
  qt_error err[STEPS];
} core_run;

static void run_core(const char *json, size_t n, const char *ans, size_t an, bool have_answers, core_run *r) {
  for (int i = 0; i < STEPS; i++) r->st[i] = (qt_status)-1, r->out[i] = NULL, r->err[i].message[0] = 0;
  qt_request *req = NULL;
  qt_answer *answers = NULL;
  r->st[0] = qt_request_parse(json, n, &req, &r->err[0]);
  if (r->st[0] != QT_OK) return;
  r->st[1] = qt_request_to_json(req, true, &r->out[1]);
  if (have_answers) r->st[2] = qt_answers_from_json(req, ans, an, &answers, &r->err[2]);
  if (have_answers && r->st[2] != QT_OK) {
    qt_request_free(req);
    return;
  }
  const qt_answer *use = answers ? answers : req->preset;
  for (int o = 0; o < 5; o++) {
    char *details = NULL, *text = NULL;
    r->st[3 + 2 * o] = r->st[4 + 2 * o] =
        qt_result_build(req, use, (qt_outcome)o, "interactive", 1, o == 1 ? "why" : NULL, &details, &text);
    r->out[3 + 2 * o] = details;
    r->out[4 + 2 * o] = text;
  }
  qt_answers_free(answers, req->question_count);
  qt_request_free(req);
}

static void free_run(core_run *r) {
  for (int i = 0; i < STEPS; i++) free(r->out[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static bool installed;
  if (!installed) fuzz_alloc_install(), installed = true;
  fuzz_input in = {data, size};
  fuzz_alloc_mode mode = fuzz_byte(&in) & 1 ? FUZZ_ALLOC_FAIL_AFTER : FUZZ_ALLOC_FAIL_ONE;
  unsigned long nth = fuzz_u16(&in);
  const char *json = (const char *)in.p, *sep = memchr(in.p, '\0', in.n);
  size_t n = sep ? (size_t)(sep - json) : in.n;
  const char *ans = sep ? sep + 1 : NULL;
  size_t an = sep ? in.n - n - 1 : 0;

  core_run ref, got;
  run_core(json, n, ans, an, sep != NULL, &ref);
  fuzz_alloc_arm(mode, nth);
  run_core(json, n, ans, an, sep != NULL, &got);
  unsigned long failures = fuzz_alloc_disarm();

  for (int i = 0; i < STEPS; i++) {
    if (got.st[i] == (qt_status)-1) continue; /* an earlier step failed */
    if (got.st[i] == QT_ERR_NOMEM) {
      FUZZ_CHECK_MSG(failures > 0, "step %d: QT_ERR_NOMEM without a failed allocation", i);
      FUZZ_CHECK(got.out[i] == NULL);
      continue;
    }
#ifdef FUZZ_OOM_STRICT_STATUS
    FUZZ_CHECK_MSG(got.st[i] == ref.st[i], "step %d: %s under memory pressure, %s without (%s)", i,
                   qt_status_code(got.st[i]), qt_status_code(ref.st[i]), got.err[i].message);
#else
    if (got.st[i] != ref.st[i]) {
      /* an allocation failure reported as something else: allowed unless strict, but only
       * as a rejection (never an acceptance that was not there before) */
      FUZZ_CHECK_MSG(failures > 0 && got.st[i] == QT_ERR_INVALID, "step %d: %s under memory pressure, %s without",
                     i, qt_status_code(got.st[i]), qt_status_code(ref.st[i]));
      continue;
    }
#endif
    if (got.st[i] == QT_OK && ref.out[i])
      FUZZ_CHECK_MSG(got.out[i] && strcmp(got.out[i], ref.out[i]) == 0,
                     "step %d: output differs under memory pressure\n  without: %s\n  with:    %s", i, ref.out[i],
                     got.out[i] ? got.out[i] : "(null)");
#ifdef FUZZ_OOM_STRICT_STATUS
    if (got.st[i] == QT_ERR_INVALID && ref.st[i] == QT_ERR_INVALID)
      FUZZ_CHECK_MSG(strcmp(got.err[i].message, ref.err[i].message) == 0, "step %d: another message under memory "
                     "pressure\n  without: %s\n  with:    %s", i, ref.err[i].message, got.err[i].message);
#endif
  }
  free_run(&ref);
  free_run(&got);
  return 0;
}
