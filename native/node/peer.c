/* peer.c — peerCredentials(fd): who is at the other end of a connected local socket (qt_peer.h),
 * for the relay (extension/elsewhere/peer.ts). */
#include <stdio.h>
#include <string.h>

#include "exports.h"
#include "marshal.h"
#include "qt_peer.h"

/* peerCredentials(fd) -> { pid: number | null, uid: number | null }: null where this OS does not
 * tell. Throws code QT_EPEER (with `errno`) when the OS could not tell for this descriptor, and
 * RangeError QT_ERANGE for a descriptor that is not a non-negative integer. */
napi_value js_peer_credentials(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 1, argv, self);
  (void)self;
  int32_t fd = -1;
  if (napi_get_value_int32(env, argv[0], &fd) != napi_ok || fd < 0) {
    throw_coded(env, "QT_ERANGE", "pi-question: peerCredentials takes a socket's file descriptor, an integer >= 0",
                true);
    return NULL;
  }
  qt_peer peer;
  int sys_error = 0;
  qt_status st = qt_peer_credentials(fd, &peer, &sys_error);
  if (st == QT_ERR_STATE && sys_error) {
    char msg[256];
    snprintf(msg, sizeof msg, "pi-question: the peer of descriptor %d cannot be told: %s", (int)fd,
             strerror(sys_error));
    throw_coded(env, "QT_EPEER", msg, false);
    return NULL;
  }
  if (st != QT_OK && st != QT_ERR_STATE) return throw_status(env, st, NULL);
  napi_value obj, pid, uid;
  NAPI_CALL(env, napi_create_object(env, &obj));
  if (peer.pid >= 0)
    NAPI_CALL(env, napi_create_double(env, (double)peer.pid, &pid));
  else
    NAPI_CALL(env, napi_get_null(env, &pid));
  if (peer.uid >= 0)
    NAPI_CALL(env, napi_create_double(env, (double)peer.uid, &uid));
  else
    NAPI_CALL(env, napi_get_null(env, &uid));
  if (!set_prop(env, obj, "pid", pid) || !set_prop(env, obj, "uid", uid)) return NULL;
  return obj;
}
