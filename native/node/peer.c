/* peer.c — peerCredentials(fd): who is at the other end of a connected local socket (qt_peer.h),
 * for the relay (extension/elsewhere/peer.ts). */
#include <stdio.h>
#include <stdlib.h>
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

/* A pid argument: a non-negative integer; false after throwing. */
static bool get_pid(napi_env env, napi_value v, int64_t *pid, const char *what) {
  if (napi_get_value_int64(env, v, pid) != napi_ok || *pid < 0) {
    throw_coded(env, "QT_ERANGE", what, true);
    return false;
  }
  return true;
}

/* processParent(pid) -> number | null: Windows' word for the parent of a running process (0: its
 * parent is gone or cannot be told: the walk ends); null when `pid` is not running, or on an OS
 * where the extension reads the process tree itself (qt_peer.h). */
napi_value js_process_parent(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 1, argv, self);
  (void)self;
  int64_t pid = 0;
  if (!get_pid(env, argv[0], &pid, "pi-question: processParent takes a pid, an integer >= 0")) return NULL;
  long long parent = -1;
  int sys_error = 0;
  qt_status st = qt_process_parent((long long)pid, &parent, &sys_error);
  napi_value v;
  if (st == QT_OK)
    NAPI_CALL(env, napi_create_double(env, (double)parent, &v));
  else if (st == QT_ERR_STATE)
    NAPI_CALL(env, napi_get_null(env, &v));
  else
    return throw_status(env, st, NULL);
  return v;
}

/* processCommandLine(pid) -> string | null: Windows' command line of a running process (cut at
 * limits.peerCommandLineBytes); null when it cannot be read, or on another OS. */
napi_value js_process_command_line(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 1, argv, self);
  (void)self;
  int64_t pid = 0;
  if (!get_pid(env, argv[0], &pid, "pi-question: processCommandLine takes a pid, an integer >= 0")) return NULL;
  char *line = NULL;
  int sys_error = 0;
  qt_status st = qt_process_command_line((long long)pid, &line, &sys_error);
  napi_value v;
  if (st == QT_OK) {
    v = make_string(env, line, NAPI_AUTO_LENGTH);
    free(line);
    return v;
  }
  if (st != QT_ERR_STATE) return throw_status(env, st, NULL);
  NAPI_CALL(env, napi_get_null(env, &v));
  return v;
}
