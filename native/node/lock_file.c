/* lock_file.c — lockFile(path, timeoutMs): the exclusive lock of the pending-questions file
 * (qt_filelock.h) as a JS object whose release() unlocks it; dropped without release(), its
 * finalizer unlocks it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exports.h"
#include "marshal.h"
#include "qt_filelock.h"

/* ---- file lock (the pending-questions file) ---------------------------------------------------- */
static const napi_type_tag FILELOCK_TAG = {0x7069717565737469ULL, 0x6f6e2d6c6f636b21ULL};

typedef struct filelock_box {
  qt_filelock *lock; /* NULL once released */
} filelock_box;

static void filelock_box_free(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  filelock_box *box = data;
  qt_filelock_release(box->lock, false); /* dropped without release(): unlock, keep the file */
  free(box);
}

/* lock.release(remove?): unlocks (removing the lock file first when `remove` is true); a
 * second call does nothing. */
static napi_value js_filelock_release(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 1, argv, self);
  bool ok = false;
  void *data = NULL;
  if (napi_check_object_type_tag(env, self, &FILELOCK_TAG, &ok) != napi_ok || !ok ||
      napi_unwrap(env, self, &data) != napi_ok || !data) {
    napi_throw_type_error(env, "QT_ETYPE", "pi-question: release() must be called on a lock from lockFile()");
    return NULL;
  }
  bool remove = false;
  napi_get_value_bool(env, argv[0], &remove); /* anything but true keeps the file */
  filelock_box *box = data;
  qt_filelock_release(box->lock, remove);
  box->lock = NULL;
  return NULL;
}

/* lockFile(path, timeoutMs) -> { release(remove?) }: an exclusive flock on `path`, waiting at
 * most timeoutMs (blocks the calling thread meanwhile). Throws code QT_ELOCKED when another
 * process kept it past the deadline, QT_ELOCK (with `errno`, the system error message) when
 * the lock file cannot be opened or locked. */
napi_value js_lock_file(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 2, argv, self);
  (void)self;
  uint32_t timeout_ms = 0;
  if (napi_get_value_uint32(env, argv[1], &timeout_ms) != napi_ok || timeout_ms > 60000) {
    napi_throw_range_error(env, "QT_ERANGE", "pi-question: lockFile's timeout must be 0 to 60000 milliseconds");
    return NULL;
  }
  char *path = get_string(env, argv[0], NULL, "the lock file path");
  if (!path) return NULL;
  qt_filelock *lock = NULL;
  int sys_error = 0;
  qt_status st = qt_filelock_acquire(path, timeout_ms, &lock, &sys_error);
  if (st != QT_OK) {
    if (st == QT_ERR_STATE) {
      char msg[512];
      napi_value code, text, error, num;
      bool busy = sys_error == 0;
      if (busy)
        snprintf(msg, sizeof msg, "pi-question: %s is held by another lock holder (waited %u ms)", path,
                 (unsigned)timeout_ms);
      else
        snprintf(msg, sizeof msg, "pi-question: could not lock %s: %s", path, strerror(sys_error));
      if (napi_create_string_utf8(env, busy ? "QT_ELOCKED" : "QT_ELOCK", NAPI_AUTO_LENGTH, &code) == napi_ok &&
          napi_create_string_utf8(env, msg, NAPI_AUTO_LENGTH, &text) == napi_ok &&
          napi_create_error(env, code, text, &error) == napi_ok) {
        if (!busy && napi_create_int32(env, sys_error, &num) == napi_ok)
          napi_set_named_property(env, error, "errno", num);
        napi_throw(env, error);
      } else {
        throw_coded(env, busy ? "QT_ELOCKED" : "QT_ELOCK", "pi-question: could not lock the file", false);
      }
    } else {
      throw_status(env, st, NULL);
    }
    free(path);
    return NULL;
  }
  free(path);
  filelock_box *box = malloc(sizeof *box);
  napi_value obj;
  napi_property_descriptor release = {"release", NULL, js_filelock_release, NULL, NULL, NULL, napi_default, NULL};
  if (!box) {
    qt_filelock_release(lock, false);
    throw_coded(env, "QT_ENOMEM", "pi-question: out of memory", false);
    return NULL;
  }
  box->lock = lock;
  if (napi_create_object(env, &obj) != napi_ok || napi_type_tag_object(env, obj, &FILELOCK_TAG) != napi_ok ||
      napi_define_properties(env, obj, 1, &release) != napi_ok ||
      napi_wrap(env, obj, box, filelock_box_free, NULL, NULL) != napi_ok) {
    filelock_box_free(env, box, NULL);
    throw_coded(env, "QT_ENAPI", "pi-question: could not create the lock object", false);
    return NULL;
  }
  return obj;
}
