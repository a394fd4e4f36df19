/* fuzz_oom.c — libFuzzer target for out-of-memory paths of the request core: the same work
 * (parse, canonical JSON, answers, result for every outcome) runs once with the real
 * allocator and once with allocation number N failing (or every one from N on, see
 * fuzz_alloc.h). With failures, each step must return what it returned before or
 * QT_ERR_NOMEM — never crash, never leak (LeakSanitizer), and never hand back different
 * output: what succeeds under memory pressure is byte-for-byte what succeeds without it.
 *
 * With byte 0 bit 1 set, the request (parsed with the real allocator) instead drives an engine
 * session under the failing allocator: create, styles, known keys from the input, a render
 * after each; every call returns QT_OK or QT_ERR_NOMEM, every frame that renders is valid,
 * and once memory is back the engine still takes input and renders.
 *
 * Input: byte 0 bit 0 picks the mode (fail one / fail all after), bit 1 the engine session,
 * bytes 1-2 N (big-endian); the rest is the request JSON, optionally followed by a NUL byte
 * and the answers JSON (core) or the session's key indices (engine).
 * Build with -DFUZZ_OOM_STRICT_STATUS to also reject an out-of-memory reported as
 * something else (e.g. "not valid JSON" when cJSON could not allocate). */
#include "fuzz_alloc.h"
#include "fuzz_common.h"
#include "qt_engine.h"

#define STEPS (3 + 2 * 5)
typedef struct core_run {
  qt_status st[STEPS]; /* status of each step; -1: not reached */
  char *out[STEPS];    /* output of each step that has one */
  qt_error err[STEPS];
} core_run;

static void run_core(const char *json, size_t n, const char *ans, size_t an, bool have_answers, core_run *r) {
  for (int i = 0; i < STEPS; i++) r->st[i] = (qt_status)-1, r->out[i] = NULL, r->err[i].message[0] = 0;
  qt_request *req = NULL;
  qt_answer *answers = NULL;
  /* in this thread's scratch memory when n is odd (what normalize does); its block, kept
   * between runs, may be the allocation that fails */
  r->st[0] = qt_request_parse_ex(json, n, (n & 1) ? QT_PARSE_SCRATCH : 0, &req, &r->err[0]);
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

/* ---- an engine session under memory pressure ------------------------------------------------ */
static const char *const KEYS[] = {"\x1b[A",     "\x1b[B", "\t",     "\x1b[Z", "\r",   "\x1b",
                                   " ",          "1",      "2",      "/",      "a",    "\xe4\xb8\xad",
                                   "\x7f",       "\x0e",   "\x04",   "y",      "n",    "\x1b[200~pasted\ntext\x1b[201~",
                                   "\x1b[13;2u", "\x1b[D", "\x1b[C", "\x17",   "\x14", "\x1b[6~",
                                   "\x1b[5~"};
#define KEY_COUNT (sizeof KEYS / sizeof *KEYS)

static void check_frame(qt_engine *e, int width, int rows) {
  const char *const *lines;
  size_t count;
  qt_status st = qt_engine_render(e, width, rows, &lines, &count);
  FUZZ_CHECK_MSG(st == QT_OK || st == QT_ERR_NOMEM, "qt_engine_render: %s", qt_status_code(st));
  if (st != QT_OK) return;
  for (size_t i = 0; i < count; i++) {
    FUZZ_CHECK(lines[i] != NULL);
    size_t n = strlen(lines[i]);
    FUZZ_CHECK_TEXT(lines[i]);
    FUZZ_CHECK_MSG(qt_visible_width(lines[i], n) <= (size_t)width, "line wider than %d: %s", width, lines[i]);
  }
}

static void run_engine(const char *json, size_t n, const uint8_t *keys, size_t nkeys, fuzz_alloc_mode mode,
                       unsigned long nth) {
  qt_request *req = NULL;
  if (qt_request_parse(json, n, &req, NULL) != QT_OK) return;
  /* a host's look, set once on an engine of its own and copied into the engine below */
  qt_engine *look = NULL;
  FUZZ_CHECK(qt_engine_create(req, &look) == QT_OK);
  FUZZ_CHECK(qt_engine_set_style(look, QT_STYLE_TITLE, "\x1b[1m", "\x1b[22m") == QT_OK);
  const char *down[] = {"j", "down"};
  FUZZ_CHECK(qt_engine_bind(look, QT_ACT_DOWN, down, 2, NULL) == QT_OK);
  fuzz_alloc_arm(mode, nth);
  qt_engine *e = NULL;
  qt_status st = qt_engine_create(req, &e);
  FUZZ_CHECK_MSG(st == QT_OK || st == QT_ERR_NOMEM, "qt_engine_create: %s", qt_status_code(st));
  if (st != QT_OK) {
    FUZZ_CHECK(e == NULL);
    fuzz_alloc_disarm();
    qt_engine_destroy(look);
    qt_request_free(req);
    return;
  }
  st = qt_engine_copy_styles(e, look);
  FUZZ_CHECK(st == QT_OK || st == QT_ERR_NOMEM);
  FUZZ_CHECK(qt_engine_copy_keys(e, look) == QT_OK);
  qt_engine_destroy(look);
  st = qt_engine_set_style(e, QT_STYLE_ACCENT, "\x1b[36m", "\x1b[39m");
  FUZZ_CHECK(st == QT_OK || st == QT_ERR_NOMEM);
  st = qt_engine_set_cursor_marker(e, "\x1b_pi:c\x07");
  FUZZ_CHECK(st == QT_OK || st == QT_ERR_NOMEM);
  int width = 60, rows = 0;
  FUZZ_CHECK(qt_engine_set_screen(e, width, rows) == QT_OK);
  check_frame(e, width, rows);
  for (size_t i = 0; i < nkeys && !qt_engine_done(e); i++) {
    const char *k = KEYS[keys[i] % KEY_COUNT];
    st = qt_engine_feed(e, k, strlen(k));
    FUZZ_CHECK_MSG(st == QT_OK || st == QT_ERR_NOMEM, "qt_engine_feed: %s", qt_status_code(st));
    width = keys[i] & 0x80 ? 30 : 100;
    rows = keys[i] & 0x40 ? 8 + (keys[i] & 7) : 0; /* frames fitted to rows too */
    /* the screen follows, or it is named and the next key lays its frame out (out of memory
     * perhaps), and a frame aside at 45 columns */
    FUZZ_CHECK(qt_engine_set_screen(e, width, rows) == QT_OK);
    if (!(keys[i] & 0x20)) check_frame(e, width, rows);
    if (keys[i] & 0x10) check_frame(e, 45, rows);
  }
  fuzz_alloc_disarm();
  /* memory is back: the engine works again */
  if (!qt_engine_done(e)) FUZZ_CHECK(qt_engine_feed(e, "\x1b[B", 3) == QT_OK);
  const char *const *lines;
  size_t count;
  FUZZ_CHECK_MSG(qt_engine_render(e, 80, 0, &lines, &count) == QT_OK, "the engine does not render once memory is back");
  if (qt_engine_done(e)) {
    const qt_answer *a = qt_engine_answers(e);
    for (size_t i = 0; i < req->question_count; i++) fuzz_check_answer(&req->questions[i], &a[i]);
  }
  qt_engine_destroy(e);
  qt_request_free(req);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static bool installed;
  if (!installed) fuzz_alloc_install(), installed = true;
  fuzz_input in = {data, size};
  uint8_t head = fuzz_byte(&in);
  fuzz_alloc_mode mode = head & 1 ? FUZZ_ALLOC_FAIL_AFTER : FUZZ_ALLOC_FAIL_ONE;
  unsigned long nth = fuzz_u16(&in);
  const char *json = (const char *)in.p, *sep = memchr(in.p, '\0', in.n);
  size_t n = sep ? (size_t)(sep - json) : in.n;
  const char *ans = sep ? sep + 1 : NULL;
  size_t an = sep ? in.n - n - 1 : 0;
  if (head & 2) {
    run_engine(json, n, (const uint8_t *)ans, an, mode, nth);
    return 0;
  }

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
      FUZZ_CHECK_MSG(failures > 0 && got.st[i] == QT_ERR_INVALID, "step %d: %s under memory pressure, %s without", i,
                     qt_status_code(got.st[i]), qt_status_code(ref.st[i]));
      continue;
    }
#endif
    if (got.st[i] == QT_OK && ref.out[i])
      FUZZ_CHECK_MSG(got.out[i] && strcmp(got.out[i], ref.out[i]) == 0,
                     "step %d: output differs under memory pressure\n  without: %s\n  with:    %s", i, ref.out[i],
                     got.out[i] ? got.out[i] : "(null)");
#ifdef FUZZ_OOM_STRICT_STATUS
    if (got.st[i] == QT_ERR_INVALID && ref.st[i] == QT_ERR_INVALID)
      FUZZ_CHECK_MSG(strcmp(got.err[i].message, ref.err[i].message) == 0,
                     "step %d: another message under memory "
                     "pressure\n  without: %s\n  with:    %s",
                     i, ref.err[i].message, got.err[i].message);
#endif
  }
  free_run(&ref);
  free_run(&got);
  return 0;
}
