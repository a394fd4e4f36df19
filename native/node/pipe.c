/* pipe.c — pipeServe and pipeConnect: the relay's named pipe on Windows (qt_pipe.h), its clients
 * handed to JS as file descriptors of Node's C runtime (net.Socket({ fd }) reads and writes them
 * through libuv). Both return undefined where there are no such pipes or the host is not Node. */
#include <stdlib.h>

#include "exports.h"
#include "marshal.h"
#include "qt_limits.h"
#include "qt_pipe.h"

/* ---- serving ------------------------------------------------------------------------------- */
/* Lifetime: the server thread calls the thread-safe function until qt_pipe_server_close has
 * joined it; only then is the function released (so it is never called after its release). The
 * state is freed by the finalizer of the close function the caller holds. At environment
 * teardown the cleanup hook (registered after the function, so it runs before the function's
 * own teardown) stops serving. */
typedef struct pipe_serving {
  qt_pipe_server *server;
  napi_threadsafe_function on_client;
  bool stopped;
  bool hooked;
} pipe_serving;

typedef struct pipe_client {
  intptr_t handle;
  long long pid;
} pipe_client;

/* The most clients waiting to be handed to JS; past it a new one is closed at once. */
#define PIPE_QUEUE (QT_RELAY_MAX_CONNECTIONS + QT_RELAY_MAX_UNVERIFIED)

static void serving_stop(pipe_serving *p) {
  if (p->stopped) return;
  p->stopped = true;
  qt_pipe_server_close(p->server); /* joins the thread: it calls on_client no more */
  p->server = NULL;
  napi_release_threadsafe_function(p->on_client, napi_tsfn_release);
}

static void serving_cleanup(void *data) {
  pipe_serving *p = data;
  p->hooked = false;
  serving_stop(p);
}

static void serving_free(napi_env env, void *data, void *hint) {
  (void)hint;
  pipe_serving *p = data;
  if (p->hooked) {
    napi_remove_env_cleanup_hook(env, serving_cleanup, p);
    p->hooked = false;
  }
  serving_stop(p);
  free(p);
}

/* On the server's thread. */
static void pipe_accepted(void *ctx, intptr_t handle, long long pid) {
  pipe_serving *p = ctx;
  pipe_client *c = malloc(sizeof *c);
  if (!c) {
    qt_pipe_close_handle(handle);
    return;
  }
  c->handle = handle;
  c->pid = pid;
  if (napi_call_threadsafe_function(p->on_client, c, napi_tsfn_nonblocking) != napi_ok) {
    qt_pipe_close_handle(handle);
    free(c);
  }
}

/* On the main thread: the client as (fd, pid | null); env NULL when the function is torn down. */
static void client_to_js(napi_env env, napi_value js_cb, void *context, void *data) {
  (void)context;
  pipe_client *c = data;
  int fd = -1;
  if (!env || !js_cb || qt_pipe_host_fd(c->handle, &fd) != QT_OK) {
    qt_pipe_close_handle(c->handle);
    free(c);
    return;
  }
  napi_value argv[2], undefined;
  if (napi_get_undefined(env, &undefined) == napi_ok && napi_create_int32(env, fd, &argv[0]) == napi_ok &&
      (c->pid >= 0 ? napi_create_double(env, (double)c->pid, &argv[1]) : napi_get_null(env, &argv[1])) == napi_ok)
    napi_call_function(env, undefined, js_cb, 2, argv, NULL); /* the callback owns fd from here */
  free(c);
}

static napi_value js_pipe_close(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  void *data = NULL;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, NULL, NULL, &data));
  pipe_serving *p = data;
  if (p->hooked) {
    napi_remove_env_cleanup_hook(env, serving_cleanup, p);
    p->hooked = false;
  }
  serving_stop(p);
  return NULL;
}

/* pipeServe(name, onClient(fd, pid | null)) -> close() | undefined: serves the pipe `name` with
 * an access list of this user's alone, rejecting remote clients; undefined where there are no
 * such pipes (POSIX) or the host cannot take a handle (not Node). Throws QT_EPIPE (with `errno`,
 * Windows' error number) when the pipe cannot be made: ERROR_ACCESS_DENIED (5) or ERROR_PIPE_BUSY
 * (231) say the name is taken. The server never keeps the event loop alive. */
napi_value js_pipe_serve(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 2, argv, self);
  (void)self;
  if (!qt_pipe_host_ready()) return NULL;
  char *name = get_string(env, argv[0], NULL, "pipeServe's name");
  if (!name) return NULL;
  napi_valuetype type;
  if (napi_typeof(env, argv[1], &type) != napi_ok || type != napi_function) {
    free(name);
    throw_coded(env, "QT_EUSAGE", "pi-question: pipeServe takes a callback for its clients", false);
    return NULL;
  }
  pipe_serving *p = calloc(1, sizeof *p);
  napi_value resource_name, close_fn;
  if (!p || napi_create_string_utf8(env, "pi-question pipe", NAPI_AUTO_LENGTH, &resource_name) != napi_ok ||
      napi_create_threadsafe_function(env, argv[1], NULL, resource_name, PIPE_QUEUE, 1, NULL, NULL, NULL, client_to_js,
                                      &p->on_client) != napi_ok) {
    free(name);
    free(p);
    throw_coded(env, "QT_ENOMEM", "pi-question: the relay's pipe could not be set up", false);
    return NULL;
  }
  napi_unref_threadsafe_function(env, p->on_client);
  int sys_error = 0;
  qt_status st = qt_pipe_serve(name, pipe_accepted, p, &p->server, &sys_error);
  free(name);
  if (st != QT_OK) {
    p->stopped = true;
    napi_release_threadsafe_function(p->on_client, napi_tsfn_release);
    free(p);
    if (st != QT_ERR_STATE) return throw_status(env, st, NULL);
    napi_value err, msg, code, number;
    napi_create_string_utf8(env, "pi-question: the relay's named pipe could not be made", NAPI_AUTO_LENGTH, &msg);
    napi_create_string_utf8(env, "QT_EPIPE", NAPI_AUTO_LENGTH, &code);
    napi_create_error(env, code, msg, &err);
    napi_create_int32(env, sys_error, &number);
    napi_set_named_property(env, err, "errno", number);
    napi_throw(env, err);
    return NULL;
  }
  if (napi_create_function(env, "close", NAPI_AUTO_LENGTH, js_pipe_close, p, &close_fn) != napi_ok ||
      napi_add_finalizer(env, close_fn, p, serving_free, NULL, NULL) != napi_ok) {
    serving_stop(p);
    free(p);
    throw_coded(env, "QT_ENOMEM", "pi-question: the relay's pipe could not be set up", false);
    return NULL;
  }
  if (napi_add_env_cleanup_hook(env, serving_cleanup, p) == napi_ok) p->hooked = true;
  return close_fn;
}

/* ---- connecting ---------------------------------------------------------------------------- */
static const char *const REFUSALS[] = {"connected", "no-such-pipe", "busy", "other-process", "other-user", "failed"};

/* pipeConnect(name, serverPid) -> { fd, serverPid } | { refused, serverPid: number | null,
 * errno } | undefined: the client's end of the pipe, at identification level, once its server
 * is the process `serverPid` (-1: any) running as this user. `refused` is one of no-such-pipe,
 * busy (try again shortly), other-process, other-user, failed. undefined where there are no such
 * pipes or the host cannot take a handle. */
napi_value js_pipe_connect(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 2, argv, self);
  (void)self;
  if (!qt_pipe_host_ready()) return NULL;
  int64_t want = -1;
  if (napi_get_value_int64(env, argv[1], &want) != napi_ok) {
    throw_coded(env, "QT_ERANGE", "pi-question: pipeConnect takes the server's pid, an integer (-1: any)", true);
    return NULL;
  }
  char *name = get_string(env, argv[0], NULL, "pipeConnect's name");
  if (!name) return NULL;
  intptr_t handle = 0;
  long long server = -1;
  qt_pipe_refusal why = QT_PIPE_FAILED;
  int sys_error = 0;
  qt_status st = qt_pipe_connect(name, (long long)want, &handle, &server, &why, &sys_error);
  free(name);
  if (st != QT_OK && st != QT_ERR_STATE) return throw_status(env, st, NULL);
  int fd = -1;
  if (st == QT_OK && qt_pipe_host_fd(handle, &fd) != QT_OK) {
    qt_pipe_close_handle(handle);
    why = QT_PIPE_FAILED;
  }
  napi_value obj, v;
  NAPI_CALL(env, napi_create_object(env, &obj));
  if (server >= 0)
    NAPI_CALL(env, napi_create_double(env, (double)server, &v));
  else
    NAPI_CALL(env, napi_get_null(env, &v));
  if (!set_prop(env, obj, "serverPid", v)) return NULL;
  if (fd >= 0) {
    NAPI_CALL(env, napi_create_int32(env, fd, &v));
    if (!set_prop(env, obj, "fd", v)) return NULL;
    return obj;
  }
  if (!set_prop(env, obj, "refused", make_string(env, REFUSALS[why], NAPI_AUTO_LENGTH))) return NULL;
  NAPI_CALL(env, napi_create_int32(env, sys_error, &v));
  if (!set_prop(env, obj, "errno", v)) return NULL;
  return obj;
}
