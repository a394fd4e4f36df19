/* pipe.c (POSIX) — qt_pipe.h where there are no named pipes: the relay is a Unix socket in a
 * private directory here (extension/elsewhere/relay.ts), so every call says QT_ERR_STATE with
 * sys_error 0. */
#include "qt_pipe.h"

qt_status qt_pipe_serve(const char *name, qt_pipe_accepted on_accept, void *ctx, qt_pipe_server **out, int *sys_error) {
  (void)ctx;
  if (out) *out = NULL;
  if (!name || !on_accept || !out || !sys_error) return QT_ERR_USAGE;
  *sys_error = 0;
  return QT_ERR_STATE;
}

void qt_pipe_server_close(qt_pipe_server *s) { (void)s; }

qt_status qt_pipe_connect(const char *name, long long server_pid, intptr_t *handle, long long *server_pid_out,
                          qt_pipe_refusal *why, int *sys_error) {
  (void)server_pid;
  if (!name || !handle || !server_pid_out || !why || !sys_error) return QT_ERR_USAGE;
  *handle = -1;
  *server_pid_out = -1;
  *why = QT_PIPE_FAILED;
  *sys_error = 0;
  return QT_ERR_STATE;
}

void qt_pipe_close_handle(intptr_t handle) { (void)handle; }

qt_status qt_pipe_host_fd(intptr_t handle, int *fd) {
  (void)handle;
  if (!fd) return QT_ERR_USAGE;
  *fd = -1;
  return QT_ERR_STATE;
}

bool qt_pipe_host_ready(void) { return false; }
