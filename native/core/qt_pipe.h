/* qt_pipe.h — the relay's named pipe on Windows, made and opened here because Node's net can do
 * neither safely: it makes a pipe with the default access list (everyone may read) that remote
 * clients may reach, and it cannot say which process is at either end.
 *
 * The server's pipe: its access list is this user's alone, other computers' clients are rejected
 * (PIPE_REJECT_REMOTE_CLIENTS), its first instance is made with
 * FILE_FLAG_FIRST_PIPE_INSTANCE (a name someone else took first fails), and each client comes
 * with its process id (GetNamedPipeClientProcessId). The client's end: opened only at
 * identification level (a pipe's server may not act as the client), and only when the process
 * serving it is the one its name says and runs as this user.
 *
 * Elsewhere (POSIX) every function here returns QT_ERR_STATE with *sys_error 0: the relay is a
 * Unix socket in a private directory there. Never blocks on the caller's thread; never aborts. */
#ifndef QT_PIPE_H
#define QT_PIPE_H

#include <stdbool.h>
#include <stdint.h>

#include "qt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct qt_pipe_server qt_pipe_server;

/* Called on the server's own thread for each client that connected: `handle` (a HANDLE) is the
 * connected instance, now the callee's to close; `client_pid` the client's process id, -1 when the
 * OS did not tell. */
typedef void (*qt_pipe_accepted)(void *ctx, intptr_t handle, long long client_pid);

/* Makes the pipe `name` (UTF-8, \\.\pipe\…) and serves it on a thread of its own until
 * qt_pipe_server_close. QT_ERR_STATE with *sys_error the Windows error (ERROR_ACCESS_DENIED or
 * ERROR_PIPE_BUSY: the name is taken); QT_ERR_NOMEM; QT_ERR_USAGE for NULL arguments. */
qt_status qt_pipe_serve(const char *name, qt_pipe_accepted on_accept, void *ctx, qt_pipe_server **out, int *sys_error);

/* Stops serving, waits for the thread, frees. Clients already handed over are the callee's.
 * Accepts NULL. */
void qt_pipe_server_close(qt_pipe_server *s);

/* Why qt_pipe_connect refused. */
typedef enum qt_pipe_refusal {
  QT_PIPE_CONNECTED = 0,
  QT_PIPE_NO_SUCH_PIPE,  /* nothing serves that name */
  QT_PIPE_BUSY,          /* every instance is taken just now: try again shortly */
  QT_PIPE_OTHER_PROCESS, /* a process other than the one the name says serves it */
  QT_PIPE_OTHER_USER,    /* its server runs as another user, or cannot be told to run as this one */
  QT_PIPE_FAILED         /* the OS refused (sys_error says why) */
} qt_pipe_refusal;

/* Opens the client's end of `name` for reading and writing, at identification level only, and
 * checks its server: its process id must be `server_pid` (when >= 0) and its user this process's.
 * QT_OK with *handle set, or QT_ERR_STATE with *why (and *sys_error where the OS said why);
 * QT_ERR_USAGE for NULL arguments. *server_pid_out: the server's pid when known, else -1. */
qt_status qt_pipe_connect(const char *name, long long server_pid, intptr_t *handle, long long *server_pid_out,
                          qt_pipe_refusal *why, int *sys_error);

/* Closes a handle from qt_pipe_connect or a qt_pipe_accepted call. */
void qt_pipe_close_handle(intptr_t handle);

/* Hands `handle` to the host program's C runtime as a file descriptor (through libuv's
 * uv_open_osfhandle, which Node exports): the descriptor then owns the handle. QT_ERR_STATE when
 * the host has no such function (the handle is left open: the caller closes it). */
qt_status qt_pipe_host_fd(intptr_t handle, int *fd);

/* Whether qt_pipe_host_fd can work in this host (Windows under Node); false elsewhere. */
bool qt_pipe_host_ready(void);

#ifdef __cplusplus
}
#endif
#endif
