/* qt_peer.h — who is at the other end of a connected local socket: the peer process's id and
 * user id, as the kernel recorded them when it connected. The relay asks this to refuse
 * answers from the agent's own commands and to name what asked (docs/elsewhere.md).
 *
 * What each OS tells:
 *   Linux              SO_PEERCRED: pid and uid
 *   macOS              getpeereid and LOCAL_PEERPID: uid and pid (built and run only on a Mac)
 *   the BSDs           getpeereid: the uid only (pid -1)
 *   Windows            nothing here (a named pipe has no descriptor): QT_ERR_STATE, sys_error 0;
 *                      the pipe itself gives the client's pid (qt_pipe.h)
 * And, on Windows (Linux reads /proc, macOS runs ps), a process's parent and command line, for the
 * relay's walk up from that pid. Never blocks; never aborts. */
#ifndef QT_PEER_H
#define QT_PEER_H

#include "qt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct qt_peer {
  long long pid; /* the peer's process id, -1 when this OS does not tell */
  long long uid; /* the peer's user id, -1 when this OS does not tell */
} qt_peer;

/* Fills *out for the connected socket `fd`. QT_OK: at least the uid is known. QT_ERR_STATE: the
 * OS could not tell (*sys_error: its errno, e.g. ENOTSOCK or EBADF; 0 where it has no way).
 * QT_ERR_USAGE: NULL arguments. */
qt_status qt_peer_credentials(int fd, qt_peer *out, int *sys_error);

/* Windows: the parent of the running process `pid`. *parent: its pid while that process still
 * runs and began before `pid` did; 0 when its parent is gone (the pid Windows keeps may since
 * name a later process) or cannot be told (another user's): the walk ends there. QT_ERR_STATE
 * when `pid` itself is not running (*sys_error ERROR_NOT_FOUND) or the process list cannot be
 * read; elsewhere always QT_ERR_STATE with *sys_error 0. */
qt_status qt_process_parent(long long pid, long long *parent, int *sys_error);

/* Windows: the command line `pid` was started with, as UTF-8 (malloc'd, *out; at most
 * QT_PEER_COMMAND_LINE_BYTES bytes, cut at a character), read from the process's own memory (its
 * PEB). QT_ERR_STATE when it cannot be read (gone, another user's: *sys_error says why);
 * QT_ERR_NOMEM; elsewhere always QT_ERR_STATE with *sys_error 0. */
qt_status qt_process_command_line(long long pid, char **out, int *sys_error);

#ifdef __cplusplus
}
#endif
#endif
