/* peer.c (Windows) — qt_peer_credentials of qt_peer.h: the relay is a named pipe here, with no
 * descriptor to ask, so the OS tells nothing through this function (QT_ERR_STATE, sys_error 0). */
#include "qt_peer.h"

qt_status qt_peer_credentials(int fd, qt_peer *out, int *sys_error) {
  (void)fd;
  if (!out || !sys_error) return QT_ERR_USAGE;
  out->pid = out->uid = -1;
  *sys_error = 0;
  return QT_ERR_STATE;
}
