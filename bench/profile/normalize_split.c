/* normalize_split.c — the core's part of addon.normalize in two: reading and validating the
 * arguments (qt_request_parse_ex with the per-thread scratch memory, as the addon parses them)
 * and writing the canonical text (qt_request_write_json into one buffer kept between calls, as
 * the addon's write_canonical does). Prints the median µs of each over the runs, and per 100 KB
 * of the arguments. The benchmark writes its payloads with BENCH_PAYLOADS=DIR npm run bench.
 *   cc -O2 -Inative/core bench/profile/normalize_split.c build/Release/qt_core.a -lcjson -o /tmp/normalize_split
 *   /tmp/normalize_split payload.json [runs] */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <string.h>
#include "profile_input.h"
#include "qt.h"
#include "request/request_internal.h"
#include "qt_text.h"

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s args.json [runs]\n", argv[0]);
    return 2;
  }
  char *json = profile_read_file(argv[1]);
  size_t len = strlen(json);
  int runs = argc > 2 ? atoi(argv[2]) : 200;
  if (runs < 1) runs = 1;
  double *parse = malloc(sizeof(double) * (size_t)runs), *write = malloc(sizeof(double) * (size_t)runs);
  qt_buf text = {0};
  size_t out_len = 0;
  for (int i = -20; i < runs; i++) { /* 20 untimed warm-up calls */
    double t0 = profile_now_us();
    qt_request *req = NULL;
    qt_error err;
    if (qt_request_parse_ex(json, (size_t)len, QT_PARSE_SCRATCH, &req, &err))
      return fprintf(stderr, "invalid: %s\n", err.message), 1;
    double t1 = profile_now_us();
    text.len = 0;
    text.failed = false;
    if (qt_request_write_json(req, true, &text)) return fprintf(stderr, "write failed\n"), 1;
    double t2 = profile_now_us();
    qt_request_free(req);
    out_len = text.len;
    if (i >= 0) parse[i] = t1 - t0, write[i] = t2 - t1;
  }
  qsort(parse, (size_t)runs, sizeof(double), cmp);
  qsort(write, (size_t)runs, sizeof(double), cmp);
  double p = parse[runs / 2], w = write[runs / 2], per = 100000.0 / (double)len;
  printf("%ld B -> %zu B canonical: read + validate %.1f us (%.1f per 100 KB), write the canonical text %.1f us (%.1f "
         "per 100 KB), median of %d\n",
         len, out_len, p, p * per, w, w * per, runs);
  qt_buf_free(&text);
  free(parse);
  free(write);
  free(json);
  return 0;
}
