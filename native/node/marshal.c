/* marshal.c — JS values to the core's C types and back, and the binding's errors: every failure
 * becomes a JS exception with a `code` (QT_E…) and a message; nothing here asserts or aborts.
 * Objects handed to JS are built without running JS (set_prop defines, it does not assign). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "marshal.h"
#include "qt_text.h"

/* ---- error plumbing ----------------------------------------------------------------------- */
void throw_coded(napi_env env, const char *code, const char *msg, bool range) {
  bool pending = false;
  napi_is_exception_pending(env, &pending);
  if (pending) return;
  if (range)
    napi_throw_range_error(env, code, msg);
  else
    napi_throw_error(env, code, msg);
}

napi_value throw_status(napi_env env, qt_status st, const qt_error *err) {
  if (st == QT_ERR_INVALID && err) {
    napi_value msg, code, path, error;
    if (napi_create_string_utf8(env, err->message, NAPI_AUTO_LENGTH, &msg) == napi_ok &&
        napi_create_string_utf8(env, qt_status_code(st), NAPI_AUTO_LENGTH, &code) == napi_ok &&
        napi_create_string_utf8(env, err->path, NAPI_AUTO_LENGTH, &path) == napi_ok &&
        napi_create_error(env, code, msg, &error) == napi_ok) {
      napi_set_named_property(env, error, "path", path);
      napi_throw(env, error);
      return NULL;
    }
  }
  const char *msg = st == QT_ERR_NOMEM   ? "pi-question: out of memory"
                    : st == QT_ERR_USAGE ? "pi-question: invalid call into the native core"
                    : st == QT_ERR_STATE ? "pi-question: the call does not fit the current state"
                                         : "pi-question: invalid arguments";
  throw_coded(env, qt_status_code(st), msg, false);
  return NULL;
}

/* Reads a JS string argument as malloc'ed UTF-8 (lone surrogates become U+FFFD, as V8 does),
 * or a Buffer's bytes as they are (how tests and the tty runner pass raw, possibly invalid, input). */
char *get_string(napi_env env, napi_value v, size_t *len_out, const char *what) {
  bool is_buffer = false;
  if (napi_is_buffer(env, v, &is_buffer) == napi_ok && is_buffer) { /* raw bytes, unchecked */
    void *data = NULL;
    size_t n = 0;
    if (napi_get_buffer_info(env, v, &data, &n) != napi_ok) {
      throw_coded(env, "QT_ENAPI", "pi-question: could not read a buffer", false);
      return NULL;
    }
    char *s = malloc(n + 1);
    if (!s) {
      throw_coded(env, "QT_ENOMEM", "pi-question: out of memory", false);
      return NULL;
    }
    if (n) memcpy(s, data, n);
    s[n] = '\0';
    if (len_out) *len_out = n;
    return s;
  }
  napi_valuetype t;
  if (napi_typeof(env, v, &t) != napi_ok || t != napi_string) {
    char msg[128];
    snprintf(msg, sizeof msg, "pi-question: %s must be a string", what);
    napi_throw_type_error(env, "QT_ETYPE", msg);
    return NULL;
  }
  /* One conversion, not two: the UTF-16 length is known at once, and UTF-8 needs at most three
   * bytes per UTF-16 unit (a surrogate pair, two units, becomes four). */
  size_t units = 0, len = 0;
  if (napi_get_value_string_utf16(env, v, NULL, 0, &units) != napi_ok) {
    throw_coded(env, "QT_ENAPI", "pi-question: could not read a string", false);
    return NULL;
  }
  if (units > (SIZE_MAX - 1) / 3) {
    throw_coded(env, "QT_ENOMEM", "pi-question: out of memory", false);
    return NULL;
  }
  char *s = malloc(3 * units + 1);
  if (!s) {
    throw_coded(env, "QT_ENOMEM", "pi-question: out of memory", false);
    return NULL;
  }
  if (napi_get_value_string_utf8(env, v, s, 3 * units + 1, &len) != napi_ok) {
    free(s);
    throw_coded(env, "QT_ENAPI", "pi-question: could not read a string", false);
    return NULL;
  }
  if (len_out) *len_out = len;
  return s;
}

bool is_nullish(napi_env env, napi_value v) {
  napi_valuetype t;
  return napi_typeof(env, v, &t) != napi_ok || t == napi_undefined || t == napi_null;
}

napi_value make_string(napi_env env, const char *s, size_t len) {
  napi_value v;
  NAPI_CALL(env, napi_create_string_utf8(env, s, len, &v));
  return v;
}

napi_value make_bool(napi_env env, bool b) {
  napi_value v;
  NAPI_CALL(env, napi_get_boolean(env, b, &v));
  return v;
}

/* Gives a fresh object an own data property. Defined, not assigned: assigning runs any setter a
 * script put on Object.prototype (JS in the middle of our C), defining runs no JS at all. */
bool set_prop(napi_env env, napi_value obj, const char *key, napi_value v) {
  napi_property_descriptor p = {key, NULL, NULL, NULL, NULL, v, napi_default_jsproperty, NULL};
  return v && napi_define_properties(env, obj, 1, &p) == napi_ok;
}

/* A timestamp argument in milliseconds: a finite number (undefined/null: 0). */
bool get_timestamp(napi_env env, napi_value v, int64_t *out) {
  double d = 0;
  *out = 0;
  if (is_nullish(env, v)) return true;
  if (napi_get_value_double(env, v, &d) != napi_ok || !(d > -9.2e18 && d < 9.2e18)) {
    napi_throw_type_error(env, "QT_ETYPE", "pi-question: answeredAt must be a finite number of milliseconds");
    return false;
  }
  *out = (int64_t)d;
  return true;
}

/* Reads an optional flags argument (a small non-negative integer; undefined: 0). */
bool get_flags(napi_env env, napi_value v, unsigned *out) {
  uint32_t f = 0;
  *out = 0;
  if (is_nullish(env, v)) return true;
  if (napi_get_value_uint32(env, v, &f) != napi_ok) {
    napi_throw_type_error(env, "QT_ETYPE", "pi-question: flags must be a number (1: a cancel lets the agent continue)");
    return false;
  }
  *out = f;
  return true;
}

/* The arguments JSON: a string (as the model sent it), or { prepared: string } for pi's prepared
 * arguments (this core's canonical output, allowed to be longer: QT_PARSE_PREPARED). */
qt_request *parse_request_arg_ex(napi_env env, napi_value v, unsigned flags) {
  napi_valuetype t;
  bool is_buffer = false;
  napi_is_buffer(env, v, &is_buffer);
  if (!is_buffer && napi_typeof(env, v, &t) == napi_ok && t == napi_object) {
    napi_value inner;
    if (napi_get_named_property(env, v, "prepared", &inner) != napi_ok) {
      throw_coded(env, "QT_ENAPI", "pi-question: could not read the prepared arguments", false);
      return NULL;
    }
    v = inner;
    flags |= QT_PARSE_PREPARED;
  }
  size_t len;
  char *json = get_string(env, v, &len, "the arguments JSON");
  if (!json) return NULL;
  qt_request *req = NULL;
  qt_error err;
  qt_status st = qt_request_parse_ex(json, len, flags, &req, &err);
  free(json);
  if (st) {
    throw_status(env, st, &err);
    return NULL;
  }
  return req;
}

qt_request *parse_request_arg(napi_env env, napi_value v) { return parse_request_arg_ex(env, v, 0); }

void free_earlier(char **earlier, size_t count) {
  if (!earlier) return;
  for (size_t i = 0; i < count; i++) free(earlier[i]);
  free(earlier);
}

bool get_earlier(napi_env env, napi_value v, size_t count, char ***out) {
  *out = NULL;
  if (is_nullish(env, v)) return true;
  bool is_array = false;
  uint32_t n = 0;
  if (napi_is_array(env, v, &is_array) != napi_ok || !is_array || napi_get_array_length(env, v, &n) != napi_ok ||
      n > count) {
    napi_throw_type_error(env, "QT_ETYPE", "pi-question: earlier must be an array of a date or null per question");
    return false;
  }
  char **dates = calloc(count ? count : 1, sizeof *dates);
  if (!dates) {
    throw_status(env, QT_ERR_NOMEM, NULL);
    return false;
  }
  for (uint32_t i = 0; i < n; i++) {
    napi_value item;
    if (napi_get_element(env, v, i, &item) != napi_ok) {
      free_earlier(dates, count);
      napi_throw_type_error(env, "QT_ETYPE", "pi-question: earlier could not be read");
      return false;
    }
    if (is_nullish(env, item)) continue;
    size_t len;
    char *date = get_string(env, item, &len, "an earlier answer's date");
    if (!date) {
      free_earlier(dates, count);
      return false;
    }
    if (len > QT_MAX_EARLIER_DATE_BYTES) { /* cut at a character boundary */
      len = QT_MAX_EARLIER_DATE_BYTES;
      while (len && ((unsigned char)date[len] & 0xC0) == 0x80) len--;
      date[len] = '\0';
    }
    dates[i] = date;
  }
  *out = dates;
  return true;
}

/* ---- secret answers ---------------------------------------------------------------------------
 * Where this process hands the person's secret answers over (qt_question.secret): the directory
 * the host names with secretDir() (one per session, only this user's). A result with one gets a
 * fresh path there per secret question, and its object carries `secrets: [{ id, path, text }]`:
 * the host writes each file (this user only) before the result goes anywhere. */
static char *secret_dir;
static uint32_t secret_serial;

void set_secret_dir(char *dir) {
  free(secret_dir);
  secret_dir = dir;
}

char **secret_paths(const qt_request *req, const qt_answer *answers, qt_outcome outcome, const char *mode,
                    unsigned flags, int64_t at, bool *failed) {
  *failed = false;
  if (!secret_dir || !answers || !qt_result_takes_secrets(outcome, mode, flags)) return NULL;
  char **paths = NULL;
  for (size_t i = 0; i < req->question_count && !*failed; i++) {
    if (!req->questions[i].secret || !answers[i].present || !answers[i].custom || answers[i].secret_file) continue;
    if (!paths && !(paths = calloc(req->question_count, sizeof *paths))) {
      *failed = true;
      break;
    }
    qt_buf b;
    qt_buf_init(&b);
#ifdef _WIN32
    const char sep = '\\';
#else
    const char sep = '/';
#endif
    qt_buf_printf(&b, "%s%c", secret_dir, sep);
    /* the id, as a file name: letters, digits, '-' and '_' kept, anything else '_' */
    for (const char *c = req->questions[i].id; *c && c - req->questions[i].id < 40; c++) {
      bool plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-';
      qt_buf_putc(&b, plain ? *c : '_');
    }
    qt_buf_printf(&b, "-%lld-%u.secret", (long long)at, ++secret_serial);
    if (b.failed) {
      qt_buf_free(&b);
      *failed = true;
      break;
    }
    paths[i] = qt_buf_take(&b);
  }
  if (!*failed) return paths;
  free_secret_paths(req, paths);
  return NULL;
}

void free_secret_paths(const qt_request *req, char **paths) {
  for (size_t i = 0; paths && i < req->question_count; i++) free(paths[i]);
  free(paths);
}

bool set_secrets(napi_env env, napi_value obj, const qt_request *req, const qt_answer *answers, char **paths) {
  if (!paths) return true;
  napi_value arr;
  if (napi_create_array(env, &arr) != napi_ok) return false;
  uint32_t n = 0;
  for (size_t i = 0; i < req->question_count; i++) {
    if (!paths[i]) continue;
    napi_value o;
    if (napi_create_object(env, &o) != napi_ok ||
        !set_prop(env, o, "id", make_string(env, req->questions[i].id, NAPI_AUTO_LENGTH)) ||
        !set_prop(env, o, "path", make_string(env, paths[i], NAPI_AUTO_LENGTH)) ||
        !set_prop(env, o, "text", make_string(env, answers[i].custom, NAPI_AUTO_LENGTH)) ||
        napi_set_element(env, arr, n++, o) != napi_ok)
      return false;
  }
  return set_prop(env, obj, "secrets", arr);
}

/* { details, text, secrets? } from qt_result_build_secret. */
napi_value result_object(napi_env env, const qt_request *req, const qt_answer *answers, qt_outcome outcome,
                         const char *mode, int64_t at, const char *reason, unsigned flags, const char *const *earlier,
                         const char *source, const char *call_note) {
  char *details = NULL, *text = NULL;
  bool failed;
  char **paths = secret_paths(req, answers, outcome, mode, flags, at, &failed);
  qt_status st = failed ? QT_ERR_NOMEM
                        : qt_result_build_secret(req, answers, outcome, mode, source, at, reason, flags, earlier,
                                                 call_note, (const char *const *)paths, &details, &text);
  if (st == QT_ERR_STATE) { /* "answered" with questions left open: say which */
    qt_buf b;
    qt_buf_init(&b);
    qt_buf_puts(&b, "pi-question: an answered result needs an answer to every question; missing:");
    for (size_t i = 0; i < req->question_count; i++)
      if (!answers || !answers[i].present) qt_buf_printf(&b, " %s", req->questions[i].id);
    throw_coded(env, qt_status_code(st), b.failed ? "pi-question: answers are missing" : b.data, false);
    qt_buf_free(&b);
    free_secret_paths(req, paths);
    return NULL;
  }
  if (st) {
    free_secret_paths(req, paths);
    return throw_status(env, st, NULL);
  }
  napi_value obj = NULL;
  bool ok = napi_create_object(env, &obj) == napi_ok &&
            set_prop(env, obj, "details", make_string(env, details, NAPI_AUTO_LENGTH)) &&
            set_prop(env, obj, "text", make_string(env, text, NAPI_AUTO_LENGTH)) &&
            set_secrets(env, obj, req, answers, paths);
  free_secret_paths(req, paths);
  free(details);
  free(text);
  if (!ok) {
    throw_coded(env, "QT_ENAPI", "pi-question: could not build the result object", false);
    return NULL;
  }
  return obj;
}

bool parse_outcome(napi_env env, napi_value v, qt_outcome *out) {
  char *name = get_string(env, v, NULL, "the outcome");
  if (!name) return false;
  for (int o = QT_ANSWERED; o <= QT_OUTCOME_LAST; o++)
    if (strcmp(qt_outcome_name((qt_outcome)o), "unknown") != 0 && strcmp(name, qt_outcome_name((qt_outcome)o)) == 0) {
      *out = (qt_outcome)o;
      free(name);
      return true;
    }
  free(name);
  napi_throw_range_error(env, "QT_ERANGE",
                         "pi-question: outcome must be answered, declined, cancelled, interrupted, unavailable, "
                         "timed_out, discuss or asked");
  return false;
}

/* What the person typed, question by question ([{ id, wrote?, note? }], only questions with
 * some): qt_engine_typed. Runs no JS (set_prop). NULL on failure. */
napi_value typed_array(napi_env env, const qt_request *req, const qt_engine *engine) {
  napi_value arr;
  if (napi_create_array(env, &arr) != napi_ok) return NULL;
  uint32_t n = 0;
  for (size_t i = 0; i < req->question_count; i++) {
    const char *answer, *note;
    size_t alen, nlen;
    qt_engine_typed(engine, i, &answer, &alen, &note, &nlen);
    if (req->questions[i].secret) alen = 0; /* a secret's draft stays in the engine, freed with it; its note goes */
    if (!alen && !nlen) continue;
    napi_value o;
    if (napi_create_object(env, &o) != napi_ok ||
        !set_prop(env, o, "id", make_string(env, req->questions[i].id, NAPI_AUTO_LENGTH)) ||
        (alen && !set_prop(env, o, "wrote", make_string(env, answer, alen))) ||
        (nlen && !set_prop(env, o, "note", make_string(env, note, nlen))) ||
        napi_set_element(env, arr, n++, o) != napi_ok)
      return NULL;
  }
  return arr;
}

/* Index of `name` in a table of `n` names, or -1 (after throwing a RangeError). */
int lookup_name(napi_env env, napi_value v, const char *const *table, int n, const char *what) {
  char *name = get_string(env, v, NULL, what);
  if (!name) return -1;
  for (int i = 0; i < n; i++)
    if (table[i] && strcmp(table[i], name) == 0) {
      free(name);
      return i;
    }
  char msg[160];
  snprintf(msg, sizeof msg, "pi-question: unknown %s \"%.60s\"", what, name);
  free(name);
  napi_throw_range_error(env, "QT_ERANGE", msg);
  return -1;
}

const char *const TIMEOUT_THEN_NAMES[QT_TIMEOUT_THEN_COUNT] = {"cancel", "decline", "recommended", "selected"};

char *get_named_string(napi_env env, napi_value obj, const char *key) {
  bool has = false;
  napi_value v;
  if (napi_has_named_property(env, obj, key, &has) != napi_ok || !has) return NULL;
  if (napi_get_named_property(env, obj, key, &v) != napi_ok || is_nullish(env, v)) return NULL;
  return get_string(env, v, NULL, key);
}
