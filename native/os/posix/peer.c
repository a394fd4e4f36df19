/* peer.c (POSIX) — qt_peer_credentials of qt_peer.h: SO_PEERCRED on Linux (pid and uid),
 * getpeereid elsewhere (the uid), with LOCAL_PEERPID on macOS (the pid). struct ucred needs
 * _GNU_SOURCE with glibc; macOS hides getpeereid and LOCAL_PEERPID unless _DARWIN_C_SOURCE is
 * defined. */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE
#endif
#if defined(__APPLE__) && !defined(_DARWIN_C_SOURCE)
#define _DARWIN_C_SOURCE
#endif
#include <errno.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>
#include <unistd.h>

#include "qt_peer.h"

#if !defined(__linux__)
/* macOS and the BSDs declare it in <unistd.h> (macOS only with _DARWIN_C_SOURCE); declared here
 * too, with their signature, so the POSIX-only check of these branches compiles anywhere. */
int getpeereid(int fd, uid_t *uid, gid_t *gid);
#endif

qt_status qt_peer_credentials(int fd, qt_peer *out, int *sys_error) {
  if (!out || !sys_error) return QT_ERR_USAGE;
  out->pid = out->uid = -1;
  *sys_error = 0;
#if defined(__linux__)
  struct ucred cred;
  socklen_t len = sizeof cred;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
    *sys_error = errno;
    return QT_ERR_STATE;
  }
  if (len != sizeof cred) return QT_ERR_STATE;
  out->uid = (long long)cred.uid;
  if (cred.pid > 0) out->pid = (long long)cred.pid; /* 0: a peer in another pid namespace */
  return QT_OK;
#else
  uid_t uid;
  gid_t gid;
  if (getpeereid(fd, &uid, &gid) != 0) {
    *sys_error = errno;
    return QT_ERR_STATE;
  }
  out->uid = (long long)uid;
#if defined(__APPLE__) && defined(LOCAL_PEERPID)
  pid_t pid = 0;
  socklen_t len = sizeof pid;
  if (getsockopt(fd, SOL_LOCAL, LOCAL_PEERPID, &pid, &len) == 0 && len == sizeof pid && pid > 0)
    out->pid = (long long)pid;
#endif
  return QT_OK;
#endif
}

/* The walk up from a peer reads /proc (Linux) or ps (macOS) in the extension: nothing here. */
qt_status qt_process_parent(long long pid, long long *parent, int *sys_error) {
  (void)pid;
  if (!parent || !sys_error) return QT_ERR_USAGE;
  *parent = -1;
  *sys_error = 0;
  return QT_ERR_STATE;
}

qt_status qt_process_command_line(long long pid, char **out, int *sys_error) {
  (void)pid;
  if (!out || !sys_error) return QT_ERR_USAGE;
  *out = NULL;
  *sys_error = 0;
  return QT_ERR_STATE;
}
