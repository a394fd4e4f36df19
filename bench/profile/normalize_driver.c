/* normalize_driver.c — profiling driver for validation + normalization without Node: reads an
 * arguments JSON file and runs qt_request_parse + qt_request_to_json on it N times (what
 * addon.normalize does minus the string crossing), printing µs per call.
 *   cc -O2 -g -Inative/core bench/profile/normalize_driver.c build/Release/qt_core.a -lcjson -o /tmp/normalize_driver
 *   /tmp/normalize_driver payload.json 200
 *   valgrind --tool=callgrind /tmp/normalize_driver payload.json 5 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <string.h>
#include "profile_input.h"
#include "qt.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s args.json [runs]\n", argv[0]);
    return 2;
  }
  char *json = profile_read_file(argv[1]);
  size_t len = strlen(json);
  int runs = argc > 2 ? atoi(argv[2]) : 100;
  double best = 1e30, total = 0;
  for (int i = 0; i < runs; i++) {
    double t0 = profile_now_us();
    qt_request *req = NULL;
    qt_error err;
    qt_status st = qt_request_parse(json, (size_t)len, &req, &err);
    if (st) return fprintf(stderr, "invalid: %s\n", err.message), 1;
    char *out = NULL;
    if (qt_request_to_json(req, true, &out)) return fprintf(stderr, "to_json failed\n"), 1;
    free(out);
    qt_request_free(req);
    double dt = profile_now_us() - t0;
    total += dt;
    if (dt < best) best = dt;
  }
  printf("%ld bytes: %.1f µs mean, %.1f µs best over %d runs\n", len, total / runs, best, runs);
  free(json);
  return 0;
}
