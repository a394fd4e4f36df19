/* marshal.h — what the binding's files (native/node/) share: the error helpers, NAPI_CALL and
 * GET_ARGS, and the conversions between JS values and the core's C types. Only files of
 * native/node/ include it: it brings node_api.h with it. */
#ifndef QT_NODE_MARSHAL_H
#define QT_NODE_MARSHAL_H

#include <node_api.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "qt.h"
#include "qt_engine.h"

/* ---- errors --------------------------------------------------------------------------------- */
/* Throws an Error (RangeError with `range`) with `code`, unless an exception is already pending. */
void throw_coded(napi_env env, const char *code, const char *msg, bool range);
/* Throws the JS error of a core status (with `path` from err for QT_ERR_INVALID); returns NULL. */
napi_value throw_status(napi_env env, qt_status st, const qt_error *err);

/* A failed napi call: throw (unless an exception is already pending) and return NULL. */
#define NAPI_CALL(env, call)                                                                                           \
  do {                                                                                                                 \
    napi_status napi_status_ = (call);                                                                                 \
    if (napi_status_ != napi_ok) {                                                                                     \
      const napi_extended_error_info *info_ = NULL;                                                                    \
      napi_get_last_error_info((env), &info_);                                                                         \
      throw_coded((env), "QT_ENAPI", info_ && info_->error_message ? info_->error_message : "a Node-API call failed",  \
                  false);                                                                                              \
      return NULL;                                                                                                     \
    }                                                                                                                  \
  } while (0)

/* Reads up to `max` arguments; missing ones are undefined. */
#define GET_ARGS(env, info, max, argv, self)                                                                           \
  size_t argc_ = (max);                                                                                                \
  napi_value argv[(max) > 0 ? (max) : 1];                                                                              \
  napi_value self;                                                                                                     \
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc_, argv, &self, NULL));                                              \
  for (size_t i_ = argc_; i_ < (size_t)(max); i_++) napi_get_undefined(env, &argv[i_])

/* ---- JS to C -------------------------------------------------------------------------------- */
/* A string argument as malloc'ed UTF-8, or a Buffer's bytes; NULL after throwing. */
char *get_string(napi_env env, napi_value v, size_t *len_out, const char *what);
/* obj[key] as get_string reads it; NULL when absent, null or undefined (or after throwing). */
char *get_named_string(napi_env env, napi_value obj, const char *key);
bool is_nullish(napi_env env, napi_value v);
/* A timestamp in milliseconds (nullish: 0); false after throwing. */
bool get_timestamp(napi_env env, napi_value v, int64_t *out);
/* An optional flags argument (nullish: 0); false after throwing. */
bool get_flags(napi_env env, napi_value v, unsigned *out);
/* The arguments JSON, a string or { prepared: string }, parsed and validated; NULL after throwing. */
qt_request *parse_request_arg_ex(napi_env env, napi_value v, unsigned flags);
qt_request *parse_request_arg(napi_env env, napi_value v);
/* An outcome's name; false after throwing a RangeError. */
bool parse_outcome(napi_env env, napi_value v, qt_outcome *out);
/* Index of a name in a table of n names, or -1 after throwing a RangeError. */
int lookup_name(napi_env env, napi_value v, const char *const *table, int n, const char *what);
/* The timeout actions by qt_timeout_then: setTimeout's and runTty's names for them. */
extern const char *const TIMEOUT_THEN_NAMES[QT_TIMEOUT_THEN_COUNT];

/* ---- C to JS -------------------------------------------------------------------------------- */
napi_value make_string(napi_env env, const char *s, size_t len);
napi_value make_bool(napi_env env, bool b);
/* Defines an own data property on a fresh object (runs no JS); false on failure or a NULL v. */
bool set_prop(napi_env env, napi_value obj, const char *key, napi_value v);
/* { details, text }: the tool result (qt_result_build_noted; call_note: the person's one note on
 * the whole call, or NULL); NULL after throwing. */
napi_value result_object(napi_env env, const qt_request *req, const qt_answer *answers, qt_outcome outcome,
                         const char *mode, int64_t at, const char *reason, unsigned flags, const char *const *earlier,
                         const char *source, const char *call_note);
/* The dates of remembered answers the person kept (qt_result_build_earlier): an array of a string
 * or null per question, read into question_count malloc'd strings (NULL entries) in *out; a
 * nullish v: *out NULL. false after throwing. free_earlier releases them. */
bool get_earlier(napi_env env, napi_value v, size_t count, char ***out);
void free_earlier(char **earlier, size_t count);
/* What the person typed, [{ id, wrote?, note? }]; runs no JS; NULL on failure. */
napi_value typed_array(napi_env env, const qt_request *req, const qt_engine *engine);

/* ---- secret answers (marshal.c) -------------------------------------------------------------- */
/* Sets the directory secret answers are handed over in (takes `dir`; NULL: none, and a secret
 * answer is then dropped, said as such). */
void set_secret_dir(char *dir);
/* A fresh path per secret question answered in words, when this outcome and mode hand secrets
 * over (NULL for none, or with *failed set when out of memory). */
char **secret_paths(const qt_request *req, const qt_answer *answers, qt_outcome outcome, const char *mode,
                    unsigned flags, int64_t at, bool *failed);
void free_secret_paths(const qt_request *req, char **paths);
/* obj.secrets = [{ id, path, text }] for the paths given (nothing when paths is NULL). */
bool set_secrets(napi_env env, napi_value obj, const qt_request *req, const qt_answer *answers, char **paths);

#endif
