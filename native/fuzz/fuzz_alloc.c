/* fuzz_alloc.c — the failing allocator declared in fuzz_alloc.h (out-of-memory targets only). */
#define FUZZ_ALLOC_IMPLEMENTATION
#include "fuzz_alloc.h"
#undef malloc /* in case the build force-included fuzz_alloc.h before the define above */
#undef calloc
#undef realloc
#undef strdup

#include <cjson/cJSON.h>

static fuzz_alloc_mode mode = FUZZ_ALLOC_NEVER;
static unsigned long countdown, seen, failed;

void fuzz_alloc_arm(fuzz_alloc_mode m, unsigned long n) {
  mode = m;
  countdown = n;
  seen = failed = 0;
}

unsigned long fuzz_alloc_disarm(void) {
  mode = FUZZ_ALLOC_NEVER;
  return failed;
}

/* Should this allocation fail? */
static bool fail_now(void) {
  unsigned long i = seen++;
  bool fail = (mode == FUZZ_ALLOC_FAIL_ONE && i == countdown) || (mode == FUZZ_ALLOC_FAIL_AFTER && i >= countdown);
  if (fail) failed++;
  return fail;
}

void *qt_fuzz_malloc(size_t n) { return fail_now() ? NULL : malloc(n); }
void *qt_fuzz_calloc(size_t n, size_t size) { return fail_now() ? NULL : calloc(n, size); }
void *qt_fuzz_realloc(void *p, size_t n) { return fail_now() ? NULL : realloc(p, n); }

char *qt_fuzz_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = qt_fuzz_malloc(n);
  if (p) memcpy(p, s, n);
  return p;
}

static void *hook_malloc(size_t n) { return qt_fuzz_malloc(n); }

void fuzz_alloc_install(void) {
  cJSON_Hooks hooks = {hook_malloc, free};
  cJSON_InitHooks(&hooks);
}
