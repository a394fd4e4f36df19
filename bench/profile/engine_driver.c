/* engine_driver.c — profiling driver for the keystroke path without Node: builds one engine
 * from an arguments JSON file, then feeds a key and renders at width 100, N times (↓×d, ↑×d
 * per question, Tab to the next), printing ns per keystroke and heap bytes per engine.
 *   cc -O2 -g -Inative/core bench/profile/engine_driver.c build/Release/qt_core.a -lcjson -o /tmp/engine_driver
 *   /tmp/engine_driver args.json 100000 [typed]
 *   valgrind --tool=callgrind /tmp/engine_driver args.json 20000
 *   valgrind --leak-check=full /tmp/engine_driver args.json 1000 cycles   (create/feed/render/destroy) */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "qt.h"
#include "qt_engine.h"

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *len = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc(*len + 1);
  if (s && fread(s, 1, *len, f) != *len) s = NULL;
  if (s) s[*len] = '\0';
  fclose(f);
  return s;
}

int main(int argc, char **argv) {
  if (argc < 3) return fprintf(stderr, "usage: %s args.json keystrokes [typed]\n", argv[0]), 2;
  size_t len;
  char *json = slurp(argv[1], &len);
  if (!json) return perror(argv[1]), 1;
  long n = atol(argv[2]);
  int typed = argc > 3 && strcmp(argv[3], "typed") == 0;
  if (argc > 3 && strcmp(argv[3], "cycles") == 0) { /* n engine lifetimes, as bench/memory.mjs */
    size_t before = mallinfo2().uordblks;
    for (long i = 0; i < n; i++) {
      qt_request *r = NULL;
      qt_engine *en = NULL;
      qt_error er;
      const char *const *ls;
      size_t c;
      if (qt_request_parse(json, len, &r, &er) || qt_engine_create(r, &en))
        return fprintf(stderr, "create failed\n"), 1;
      qt_engine_feed(en, "\x1b[B", 3);
      qt_engine_feed(en, "\t", 1);
      qt_engine_feed(en, "x", 1);
      qt_engine_render(en, 100, 0, &ls, &c);
      qt_engine_destroy(en);
      qt_request_free(r);
    }
    printf("%ld cycles: heap in use %zu B before, %zu B after\n", n, before, mallinfo2().uordblks);
    free(json);
    return 0;
  }

  size_t heap0 = mallinfo2().uordblks;
  qt_request *req = NULL;
  qt_error err;
  if (qt_request_parse(json, len, &req, &err)) return fprintf(stderr, "invalid: %s\n", err.message), 1;
  size_t heap1 = mallinfo2().uordblks;
  qt_engine *e = NULL;
  if (qt_engine_create(req, &e)) return fprintf(stderr, "engine_create failed\n"), 1;
  size_t heap2 = mallinfo2().uordblks;
  const char *const *lines;
  size_t count;
  qt_engine_render(e, 100, 0, &lines, &count);
  size_t heap3 = mallinfo2().uordblks;
  printf("heap: request %zu B, engine %zu B, first frame +%zu B (%zu lines)\n", heap1 - heap0, heap2 - heap1,
         heap3 - heap2, count);

  /* the key stream */
  size_t q = req->question_count, rows = (req->questions[0].option_count + 1);
  size_t d = rows - 1 < 12 ? rows - 1 : 12;
  const char **keys = malloc(sizeof *keys * (size_t)n);
  if (typed) {
    qt_engine_feed(e, "\x1b[A", 3); /* wraps to "Something else…" */
    qt_engine_feed(e, "\r", 1);
    static const char text[] = "the quick brown fox jumps over the lazy dog ";
    static char chars[sizeof text][2];
    for (size_t i = 0; i + 1 < sizeof text; i++) chars[i][0] = text[i];
    for (long i = 0; i < n; i++) keys[i] = chars[i % (sizeof text - 1)];
  } else {
    long k = 0;
    while (k < n) {
      for (size_t qi = 0; qi < q && k < n; qi++) {
        for (size_t i = 0; i < d && k < n; i++) keys[k++] = "\x1b[B";
        for (size_t i = 0; i < d && k < n; i++) keys[k++] = "\x1b[A";
        if (qi + 1 < q && k < n) keys[k++] = "\t";
      }
      for (size_t qi = q - 1; qi > 0 && k < n; qi--) {
        keys[k++] = "\x1b[Z";
        for (size_t i = 0; i < d && k < n; i++) keys[k++] = "\x1b[B";
        for (size_t i = 0; i < d && k < n; i++) keys[k++] = "\x1b[A";
      }
    }
  }
  double t0 = now_ns();
  size_t bytes = 0;
  for (long i = 0; i < n; i++) {
    qt_engine_feed(e, keys[i], strlen(keys[i]));
    qt_engine_render(e, 100, 0, &lines, &count);
    bytes += count;
  }
  double t1 = now_ns();
  printf("%ld keystrokes: %.0f ns per keystroke (feed + render), %zu lines per frame\n", n, (t1 - t0) / n, count);
  if (qt_engine_done(e)) printf("warning: the engine finished during the run\n");
  qt_engine_destroy(e);
  qt_request_free(req);
  free(keys);
  free(json);
  return 0;
}
