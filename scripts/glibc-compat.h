/* glibc-compat.h — force-included (-include) into every C file of the prebuilt addons for glibc
 * (scripts/prebuild.mjs), never into the source build. Linked against a new glibc (Debian 12:
 * 2.36), the addon would bind pthread_* to their GLIBC_2.34 versions (the year libpthread moved
 * into libc) and fstat/lstat/fstatat to GLIBC_2.33 (the year they stopped being inline wrappers), and so
 * refuse to load on any older glibc (Ubuntu 20.04, Debian 11, RHEL 8). Every such symbol is
 * bound here to the version it has had since the architecture's first glibc (x86-64: 2.2.5,
 * aarch64: 2.17): the same function under its older name, which every newer glibc keeps.
 * prebuild.mjs measures the result and fails when any symbol needs a newer glibc than its floor.
 *
 * No system header may be included here: files that define _GNU_SOURCE / _DEFAULT_SOURCE
 * before their own includes would otherwise see the headers already read without it. */
#ifndef PI_QUESTION_GLIBC_COMPAT_H
#define PI_QUESTION_GLIBC_COMPAT_H

#if defined(__x86_64__)
#define PQ_GLIBC_BASE "GLIBC_2.2.5"
#define PQ_STAT_VER   1 /* _STAT_VER_LINUX of x86-64's old <bits/stat.h> */
#elif defined(__aarch64__)
#define PQ_GLIBC_BASE "GLIBC_2.17"
#define PQ_STAT_VER   0 /* _STAT_VER_KERNEL, the generic <bits/stat.h> */
#else
#error "glibc-compat.h: no symbol-version baseline for this architecture"
#endif

/* In libpthread before glibc 2.34, in libc at these versions after: the loader finds them by
 * name and version in whichever is loaded (Node and Bun link libpthread on those systems). */
#define PQ_PIN(name) __asm__(".symver " #name "," #name "@" PQ_GLIBC_BASE);
PQ_PIN(pthread_create)
PQ_PIN(pthread_detach)
PQ_PIN(pthread_join)
PQ_PIN(pthread_once)
PQ_PIN(pthread_key_create)
PQ_PIN(pthread_key_delete)
PQ_PIN(pthread_getspecific)
PQ_PIN(pthread_setspecific)
PQ_PIN(pthread_sigmask)
PQ_PIN(__fxstat)
PQ_PIN(__lxstat)
#undef PQ_PIN

/* fstat and lstat: before 2.33 <sys/stat.h> turned them into __fxstat/__lxstat calls with a
 * structure version; the same here (struct stat's layout never changed on these two). The
 * functions are renamed so <sys/stat.h>'s later declarations declare these, not glibc's. */
struct stat;
extern int __fxstat(int ver, int fd, struct stat *buf);
extern int __lxstat(int ver, const char *path, struct stat *buf);
static __inline__ int pq_compat_fstat(int fd, struct stat *buf) { return __fxstat(PQ_STAT_VER, fd, buf); }
static __inline__ int pq_compat_lstat(const char *path, struct stat *buf) { return __lxstat(PQ_STAT_VER, path, buf); }
#define fstat pq_compat_fstat
#define lstat pq_compat_lstat

/* fstatat (external_edit.c's sweep of stale drafts): likewise __fxstatat before 2.33, which
 * x86-64's glibc has had since 2.4 (not 2.2.5), aarch64's since its first. */
#if defined(__x86_64__)
__asm__(".symver __fxstatat,__fxstatat@GLIBC_2.4");
#else
__asm__(".symver __fxstatat,__fxstatat@" PQ_GLIBC_BASE);
#endif
extern int __fxstatat(int ver, int dirfd, const char *path, struct stat *buf, int flag);
static __inline__ int pq_compat_fstatat(int dirfd, const char *path, struct stat *buf, int flag) {
  return __fxstatat(PQ_STAT_VER, dirfd, path, buf, flag);
}
#define fstatat pq_compat_fstatat

#endif
