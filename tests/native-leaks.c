/* native-leaks.c — the C leak check of `npm run test:leaks` (and, shortened, of
 * `npm run test:asan`): 100,000 cycles of everything the core allocates — parse (valid and
 * rejected), canonical JSON, answers, an engine created, configured, fed a key script that
 * ends in each outcome, rendered at several widths, its result built, destroyed — plus key
 * decoders, file locks taken, contended and released (a leaked descriptor ends the run at the
 * process's file limit), and threads that validate calls as normalize does and end. Built with
 * -fsanitize=address, LeakSanitizer reports anything not freed at exit (exit code 23); the RSS
 * after warm-up and at the end is printed as well.
 *
 * Usage: native-leaks [cycles]   (default 100000; NATIVE_TEST_QUICK=1 in the environment: 2000)
 * NATIVE_LEAKS_MAX_GROWTH_KB=N fails the run when RSS grows more than N kB after warm-up (use it
 * with a build without sanitizers: ASan's quarantine holds freed memory on purpose). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "qt.h"
#include "qt_engine.h"
#include "request/request_internal.h"
#include "qt_filelock.h"
#include "qt_keys.h"
#include "qt_text.h"

#define CHECK(cond)                                                                                                    \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      fprintf(stderr, "native-leaks: %s failed at %s:%d\n", #cond, __FILE__, __LINE__);                                \
      exit(1);                                                                                                         \
    }                                                                                                                  \
  } while (0)

static volatile size_t typed_bytes; /* qt_engine_typed's bytes, read so nothing is optimized away */

static const char *const REQUESTS[] = {
    "{\"questions\":[{\"id\":\"db\",\"prompt\":\"Which "
    "database?\",\"options\":[{\"value\":\"pg\",\"label\":\"PostgreSQL\","
    "\"description\":\"Solid\",\"preview\":\"CREATE TABLE t (\\n  id "
    "serial\\n);\"},{\"value\":\"lite\",\"label\":\"SQLite\"}]}]}",
    "{\"questions\":[{\"id\":\"f\",\"prompt\":\"Features?\",\"multiSelect\":true,\"options\":[\"Auth\",\"Billing\","
    "\"Search\"]},"
    "{\"id\":\"name\",\"prompt\":\"Service name?\"},{\"question\":\"Deploy "
    "where?\",\"header\":\"Target\",\"options\":[{\"label\":"
    "\"staging\"},{\"label\":\"prod\"}]}],\"metadata\":{\"source\":\"setup\"}}",
    "{\"question\":\"\\u001b]0;evil\\u0007 Pick \\u4e2d\\u6587 "
    "\\ud83d\\udc4d\",\"options\":[\"a\\u202eb\",\"c\\td\",\"e\\u0301\"],"
    "\"answers\":{\"q1\":\"c\\td\"}}",
};
#define REQUEST_COUNT (sizeof REQUESTS / sizeof *REQUESTS)

static const char *const INVALID[] = {
    "{\"questions\":[{\"id\":\"a\",\"prompt\":\"x\"},{\"id\":\"a\",\"prompt\":\"y\"}]}",
    "{\"questions\":[{\"prompt\":\"x\",\"options\":[\"A\",\"A\"]}]}",
    "{\"questions\":[]}",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
    "{\"questions\":[{\"prompt\":\"x\"}],\"answers\":{\"nope\":\"y\"}}",
    "not json",
};
#define INVALID_COUNT (sizeof INVALID / sizeof *INVALID)

/* Key scripts: each ends one way (answered, typed, multi, declined, cancelled, left open). */
static const char *const SCRIPTS[] = {
    "\x1b[B\r",                                             /* pick the second option */
    "\x1b[B\x1b[B\rmy own answer \xe4\xb8\xad\x1b[D\x7f\r", /* Something else…, typed */
    " \x1b[B \r\tsvc\r\t\x1b[B\r\r\r",                      /* multi: tick two, next, ... */
    "\x0enote text\r\x1b[B\r",                              /* a note, then pick */
    "/sq\x1b[B\r",                                          /* filter, pick */
    "\x04",                                                 /* let the agent decide */
    "\x1b[B\x1b",                                           /* Esc: cancel (maybe a confirm) */
    "\x1b[Bx\x1by",                                         /* typed, Esc, yes */
    "\x1b[200~pasted\r\nlines\x1b[201~",                    /* a paste, left open */
    "\x1b[13;2u\x1b[1;5D\x17\x15\x0b",                      /* editing keys, left open */
    "\x14why not\x1b[13;2uboth? and more\r",                /* talk first: Ctrl+T, Enter (the half
                                                                   * falls after Shift+Enter, not on its ESC) */
    "\x1b[6~\x1b[6~\x1b[5~\x1b[B\r",                        /* PageDown/PageUp, then pick */
};
#define SCRIPT_COUNT (sizeof SCRIPTS / sizeof *SCRIPTS)

static long rss_kb(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  if (!f) return -1;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "VmRSS:", 6) == 0) kb = strtol(line + 6, NULL, 10);
  fclose(f);
  return kb;
}

static bool count_event(void *user, const qt_key_event *ev) {
  (void)ev;
  ++*(size_t *)user;
  return true;
}

static size_t outcomes[QT_OUTCOME_LAST + 1];

static void one_cycle(size_t i) {
  const char *json = REQUESTS[i % REQUEST_COUNT];
  qt_request *req = NULL;
  qt_error err;
  CHECK(qt_request_parse(json, strlen(json), &req, &err) == QT_OK);

  char *canon = NULL;
  CHECK(qt_request_to_json(req, true, &canon) == QT_OK);
  free(canon);

  const char *bad = INVALID[i % INVALID_COUNT];
  qt_request *none = NULL;
  CHECK(qt_request_parse(bad, strlen(bad), &none, &err) == QT_ERR_INVALID && !none);

  qt_answer *given = NULL;
  char answers[160];
  snprintf(answers, sizeof answers, "{\"%s\":[\"typed %zu\"]}", req->questions[0].id, i);
  qt_status st = qt_answers_from_json(req, answers, strlen(answers), &given, &err);
  CHECK(st == QT_OK || st == QT_ERR_INVALID);
  if (st == QT_OK) qt_answers_free(given, req->question_count);

  qt_engine *e = NULL;
  CHECK(qt_engine_create(req, &e) == QT_OK);
  CHECK(qt_engine_set_style(e, QT_STYLE_ACCENT, "\x1b[36m", "\x1b[39m") == QT_OK);
  CHECK(qt_engine_set_style(e, QT_STYLE_TITLE, "\x1b[1m", "\x1b[22m") == QT_OK);
  CHECK(qt_engine_set_cursor_marker(e, "\x1b_pi:c\x07") == QT_OK);
  const char *keys[] = {"j", "down"};
  CHECK(qt_engine_bind(e, QT_ACT_DOWN, keys, 2, NULL) == QT_OK);
  const char *const *lines;
  size_t count;
  CHECK(qt_engine_set_screen(e, 80, 0) == QT_OK);
  CHECK(qt_engine_render(e, 80, 0, &lines, &count) == QT_OK);
  const char *script = SCRIPTS[i % SCRIPT_COUNT];
  size_t n = strlen(script), half = n / 2;
  CHECK(qt_engine_set_screen(e, 80, (int)(i % 24)) == QT_OK); /* fitted to rows (0: none) */
  CHECK(qt_engine_render(e, 80, (int)(i % 24), &lines, &count) == QT_OK);
  CHECK(qt_engine_feed(e, script, half) == QT_OK);
  CHECK(qt_engine_render(e, 1 + (int)(i % 200), (int)(i % 24), &lines, &count) == QT_OK); /* aside */
  CHECK(qt_engine_set_screen(e, 100, (int)(i % 13)) == QT_OK); /* named, laid out at the next key */
  CHECK(qt_engine_feed(e, script + half, n - half) == QT_OK);
  CHECK(qt_engine_render(e, 120, 0, &lines, &count) == QT_OK);
  CHECK(qt_engine_render(e, 30, 0, &lines, &count) == QT_OK);
  /* accessible frames, Ctrl+G's editor outcome, and the person's timeout */
  CHECK(qt_engine_set_accessible(e, i % 2 == 0) == QT_OK);
  CHECK(qt_engine_feed(e, "0x\x07", 3) == QT_OK);
  CHECK(qt_engine_editor_done(e, i % 3 != 0, "from the editor\n", 16, "exited with status 1") == QT_OK);
  CHECK(qt_engine_render(e, 60, 0, &lines, &count) == QT_OK);
  if (!qt_engine_done(e) && i % 4 == 0) {
    CHECK(qt_engine_set_timeout(e, 1000, (qt_timeout_then)(i % 3)) == QT_OK);
    CHECK(qt_engine_tick(e, 0) == QT_OK && qt_engine_tick(e, 1000) == QT_OK);
    CHECK(qt_engine_done(e));
  }
  if (!qt_engine_done(e)) qt_engine_interrupt(e);
  outcomes[qt_engine_outcome(e)]++;
  for (size_t q = 0; q < req->question_count; q++) { /* what was typed, every byte read (ASan) */
    const char *wrote, *note;
    size_t wl, nl;
    qt_engine_typed(e, q, &wrote, &wl, &note, &nl);
    for (size_t k = 0; k < wl; k++) typed_bytes += (unsigned char)wrote[k];
    for (size_t k = 0; k < nl; k++) typed_bytes += (unsigned char)note[k];
  }
  char *details = NULL, *text = NULL;
  CHECK(qt_result_build_ex(req, qt_engine_answers(e), qt_engine_outcome(e), "interactive", 1,
                           qt_engine_outcome(e) == QT_DISCUSS ? qt_engine_discussion(e) : NULL,
                           qt_engine_result_flags(e), &details, &text) == QT_OK);
  free(details);
  free(text);
  qt_engine_destroy(e);

  /* the result of every outcome with the pre-supplied answers */
  for (int o = QT_DECLINED; o <= QT_OUTCOME_LAST; o++) {
    if (strcmp(qt_outcome_name((qt_outcome)o), "unknown") == 0) continue; /* a value no outcome has */
    CHECK(qt_result_build(req, req->preset, (qt_outcome)o, "print", 2, "why", &details, &text) == QT_OK);
    free(details);
    free(text);
  }
  qt_request_free(req);

  /* a decoder on its own, with a paste left open at the end */
  qt_decoder *d = NULL;
  size_t events = 0;
  CHECK(qt_decoder_create(&d) == QT_OK);
  CHECK(qt_decoder_feed(d, "\x1b[A\x1b[200~abc", 12, count_event, &events) == QT_OK);
  CHECK(qt_decoder_flush(d, count_event, &events) == QT_OK);
  qt_decoder_destroy(d);
}

/* a lock taken, refused to a second taker (no wait), released, sometimes with its file */
static char lock_path[64];
static void lock_cycle(size_t i) {
  qt_filelock *held = NULL, *second = NULL;
  int why = -1;
  CHECK(qt_filelock_acquire(lock_path, 0, &held, &why) == QT_OK && held);
  CHECK(qt_filelock_acquire(lock_path, 0, &second, &why) == QT_ERR_STATE && !second && why == 0);
  qt_filelock_release(held, i % 2 == 0);
}

/* A thread that validates and writes back calls as normalize does (the request in the thread's
 * scratch memory, the tree's nodes in its kept buffer), then ends: what it kept between calls is
 * freed with it (LeakSanitizer reports it otherwise: the thread's variables are gone). */
static void *normalize_thread(void *arg) {
  (void)arg;
  for (size_t r = 0; r < sizeof REQUESTS / sizeof *REQUESTS; r++) {
    qt_request *req = NULL;
    if (qt_request_parse_ex(REQUESTS[r], strlen(REQUESTS[r]), QT_PARSE_SCRATCH, &req, NULL) != QT_OK) continue;
    qt_buf b;
    qt_buf_init(&b);
    CHECK(qt_request_write_json(req, true, &b) == QT_OK);
    qt_buf_free(&b);
    qt_request_free(req);
  }
  return NULL;
}

static void thread_cycle(void) {
  pthread_t t;
  CHECK(pthread_create(&t, NULL, normalize_thread, NULL) == 0);
  CHECK(pthread_join(t, NULL) == 0);
}

int main(int argc, char **argv) {
  snprintf(lock_path, sizeof lock_path, "/tmp/native-leaks-%ld.lock", (long)getpid());
  size_t cycles = 100000;
  if (getenv("NATIVE_TEST_QUICK")) cycles = 2000;
  if (argc > 1) cycles = strtoul(argv[1], NULL, 10);
  size_t warm = cycles < 5000 ? cycles / 5 : 5000;
  long start = rss_kb();
  for (size_t i = 0; i < warm; i++) one_cycle(i), lock_cycle(i);
  long warmed = rss_kb();
  for (size_t i = warm; i < cycles; i++) {
    one_cycle(i), lock_cycle(i);
    if (i % 1000 == 0) thread_cycle();
  }
  long end = rss_kb();
  unlink(lock_path);
  printf("native-leaks: %zu cycles; RSS %ld kB at start, %ld kB after %zu warm-up cycles, %ld kB at the end "
         "(%+ld kB after warm-up)\n",
         cycles, start, warmed, warm, end, end - warmed);
  printf("native-leaks: sessions ended answered %zu, declined %zu, cancelled %zu, interrupted %zu, timed out %zu, "
         "discuss %zu\n",
         outcomes[QT_ANSWERED], outcomes[QT_DECLINED], outcomes[QT_CANCELLED], outcomes[QT_INTERRUPTED],
         outcomes[QT_TIMED_OUT], outcomes[QT_DISCUSS]);
  const char *max = getenv("NATIVE_LEAKS_MAX_GROWTH_KB");
  if (max && end - warmed > strtol(max, NULL, 10)) {
    fprintf(stderr, "native-leaks: RSS grew %ld kB after warm-up, more than the %s kB allowed\n", end - warmed, max);
    return 1;
  }
  return 0;
}
