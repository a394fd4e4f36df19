/* qt_filelock.h — an exclusive advisory lock on a lock file, for serializing read-modify-write
 * updates of a file several processes share (the pending-questions file of print mode).
 *
 * The lock is the operating system's own lock on the file `path` (created mode 0600 if missing,
 * never through a symbolic link): the system drops it when the process dies, however it dies,
 * so a crashed holder never leaves a stale lock behind. Waiting is bounded: a non-blocking
 * attempt is retried with short sleeps until the deadline. A holder may remove the lock file while it holds it (when the file it
 * guards is gone); a waiter that then gets the lock on the removed file notices (the path no
 * longer names the file it locked) and tries again on the new one.
 *
 * Blocking: qt_filelock_acquire sleeps on the calling thread for at most `timeout_ms`.
 * Ownership: the lock is the caller's; release it with qt_filelock_release (accepts NULL). */
#ifndef QT_FILELOCK_H
#define QT_FILELOCK_H

#include <stdbool.h>

#include "qt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct qt_filelock qt_filelock;

/* Takes the lock, waiting at most `timeout_ms` milliseconds. QT_OK: *out holds it.
 * QT_ERR_STATE: another holder kept it past the deadline (*sys_error = 0), or the lock file
 * could not be opened or locked (*sys_error = an errno value, e.g. ENOENT when its directory is
 * missing, ELOOP when it is a symbolic link, on every OS). QT_ERR_NOMEM: out of memory.
 * QT_ERR_USAGE: NULL arguments. *out is NULL on every failure. */
qt_status qt_filelock_acquire(const char *path, unsigned timeout_ms, qt_filelock **out, int *sys_error);

/* Releases the lock; with `remove` true the lock file is deleted first (while still held, so
 * no other process holds a lock on a file about to disappear). Accepts NULL. */
void qt_filelock_release(qt_filelock *lock, bool remove);

#ifdef __cplusplus
}
#endif
#endif
