/* filelock.c (POSIX) — qt_filelock of qt_filelock.h: flock(2) on a lock file with a bounded
 * wait. An flock lock belongs to the open file description, and the kernel drops it when the
 * last descriptor of it closes, which a process's death does however it dies. glibc and musl declare flock and O_NOFOLLOW beside _POSIX_C_SOURCE; macOS hides both
 * (and LOCK_*) unless _DARWIN_C_SOURCE is defined too. */
#if defined(__APPLE__) && !defined(_DARWIN_C_SOURCE)
#define _DARWIN_C_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "qt_filelock.h"

/* The pause between two attempts: short against the few milliseconds an update holds it. */
#define RETRY_PAUSE_NS (2 * 1000 * 1000)

struct qt_filelock {
  int fd;
  char *path; /* for removal */
};

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* True when `path` still names the file open on `fd` (a holder may have removed it). */
static bool still_named(int fd, const char *path) {
  struct stat held, named;
  if (fstat(fd, &held) != 0 || lstat(path, &named) != 0) return false;
  return held.st_dev == named.st_dev && held.st_ino == named.st_ino;
}

qt_status qt_filelock_acquire(const char *path, unsigned timeout_ms, qt_filelock **out, int *sys_error) {
  int unused = 0;
  if (!sys_error) sys_error = &unused;
  *sys_error = 0;
  if (out) *out = NULL;
  if (!path || !out) return QT_ERR_USAGE;
  size_t len = strlen(path);
  qt_filelock *lock = malloc(sizeof *lock);
  char *copy = malloc(len + 1);
  if (!lock || !copy) {
    free(lock);
    free(copy);
    return QT_ERR_NOMEM;
  }
  memcpy(copy, path, len + 1);
  const long long deadline = now_ms() + timeout_ms;
  for (;;) {
    int fd;
    do fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) {
      *sys_error = errno;
      break;
    }
    int rc;
    do rc = flock(fd, LOCK_EX | LOCK_NB);
    while (rc != 0 && errno == EINTR);
    if (rc == 0) {
      if (still_named(fd, path)) {
        lock->fd = fd;
        lock->path = copy;
        *out = lock;
        return QT_OK;
      }
      close(fd); /* locked a file its holder removed: try the one the path names now */
      if (now_ms() >= deadline) {
        *sys_error = 0; /* timed out */
        break;
      }
      continue;
    }
    int why = errno;
    close(fd);
    if (why != EWOULDBLOCK) {
      *sys_error = why;
      break;
    }
    if (now_ms() >= deadline) {
      *sys_error = 0; /* timed out */
      break;
    }
    struct timespec pause = {0, RETRY_PAUSE_NS};
    nanosleep(&pause, NULL);
  }
  free(copy);
  free(lock);
  return QT_ERR_STATE;
}

void qt_filelock_release(qt_filelock *lock, bool remove) {
  if (!lock) return;
  if (remove && still_named(lock->fd, lock->path)) unlink(lock->path);
  close(lock->fd); /* closing the last descriptor drops the flock */
  free(lock->path);
  free(lock);
}
