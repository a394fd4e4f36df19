/* fuzz_alloc.h — the failing allocator of the out-of-memory targets (fuzz_oom.c). Force-included
 * (clang -include) into the core's .c files and the harness, it routes malloc/calloc/realloc/
 * strdup through counters that can make the Nth allocation (or every one from the Nth on)
 * return NULL; fuzz_alloc_install() gives cJSON the same allocator through cJSON_InitHooks.
 * Only the OOM build uses it: the other targets and the addon see the real allocator. */
#ifndef QT_FUZZ_ALLOC_H
#define QT_FUZZ_ALLOC_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef enum fuzz_alloc_mode {
  FUZZ_ALLOC_NEVER = 0, /* every allocation succeeds */
  FUZZ_ALLOC_FAIL_ONE,  /* allocation number `countdown` fails, the rest succeed */
  FUZZ_ALLOC_FAIL_AFTER /* allocation number `countdown` and every later one fail */
} fuzz_alloc_mode;

/* Arms the allocator: counting starts at 0 with the next allocation. */
void fuzz_alloc_arm(fuzz_alloc_mode mode, unsigned long countdown);
/* Disarms it; returns how many allocations failed while it was armed. */
unsigned long fuzz_alloc_disarm(void);
/* Routes cJSON's allocations through the same counters (call once). */
void fuzz_alloc_install(void);

void *qt_fuzz_malloc(size_t n);
void *qt_fuzz_calloc(size_t n, size_t size);
void *qt_fuzz_realloc(void *p, size_t n);
char *qt_fuzz_strdup(const char *s);

#ifndef FUZZ_ALLOC_IMPLEMENTATION
#undef malloc
#undef calloc
#undef realloc
#undef strdup
#define malloc(n)       qt_fuzz_malloc(n)
#define calloc(n, size) qt_fuzz_calloc(n, size)
#define realloc(p, n)   qt_fuzz_realloc(p, n)
#define strdup(s)       qt_fuzz_strdup(s)
#endif

#endif
