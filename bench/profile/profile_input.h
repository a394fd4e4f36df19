/* profile_input.h — what the profiling drivers share: a monotonic clock in µs and the
 * arguments file read whole into a NUL-terminated buffer (exits with a message on failure). */
#ifndef PROFILE_INPUT_H
#define PROFILE_INPUT_H
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double profile_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static char *profile_read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *json = malloc((size_t)len + 1);
  if (!json || fread(json, 1, (size_t)len, f) != (size_t)len) {
    fprintf(stderr, "%s: read failed\n", path);
    exit(1);
  }
  json[len] = '\0';
  fclose(f);
  return json;
}
#endif
