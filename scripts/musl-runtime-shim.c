/* musl-runtime-shim.c — test tooling only (scripts/prebuild.mjs), never shipped. Bun's musl
 * build (the runtime the musl prebuilt is tested in) needs libstdc++.so.6 and libgcc_s.so.1
 * built for musl, which Debian does not have. Debian's glibc-built ones load under musl's
 * loader (it ignores symbol versions) once the few glibc-only symbols they import exist: this
 * library, compiled with musl-gcc and named ld-linux-x86-64.so.2 (which they also list as
 * NEEDED), provides them. The addon under test links only musl's libc; all of its C library
 * calls go to musl. */
#define _GNU_SOURCE
#include <locale.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/random.h>
#include <time.h>

uint32_t arc4random(void) {
  uint32_t v = 0;
  while (getrandom(&v, sizeof v, 0) != (ssize_t)sizeof v) {
  }
  return v;
}

size_t __strftime_l(char *s, size_t n, const char *format, const struct tm *tm, locale_t loc) {
  return strftime_l(s, n, format, tm, loc);
}

/* thread_local destructors of C++ code: not run (the test process is short-lived). */
int __cxa_thread_atexit_impl(void (*dtor)(void *), void *obj, void *dso) {
  (void)dtor;
  (void)obj;
  (void)dso;
  return 0;
}

/* 0: libstdc++ keeps its atomic reference counts (the process has threads). */
char __libc_single_threaded = 0;

/* "Not found": libgcc's unwinder then walks the loaded objects with dl_iterate_phdr. */
int _dl_find_object(void *pc, void *result) {
  (void)pc;
  (void)result;
  return -1;
}

/* libgcc's CPU feature probe: all zero (no optional features assumed). */
struct {
  unsigned vendor, type, subtype, features[1];
} __cpu_model;
int __cpu_indicator_init(void) { return 0; }
