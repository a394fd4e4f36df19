/* binding.c — the only file that speaks Node-API: it exposes the C core to the extension.
 * Every napi call goes through NAPI_CALL, which turns a failure into a JS exception with a
 * `code` and returns; nothing here asserts or aborts (that would take pi down). Native
 * objects are wrapped with a type tag and freed by their finalizer. No global state: pi's
 * /reload may load this addon's exports again in the same process.
 *
 * Exports:
 *   limits                                   the constants of qt_limits.h
 *   normalize(json) -> string                canonical arguments JSON; throws on invalid
 *                                            (every `json` below may also be { prepared: json },
 *                                            pi's prepared arguments: see QT_PARSE_PREPARED)
 *   result(json, outcome, mode, at, reason?, answersJson?, flags?) -> { details: string, text }
 *                                            flags: 1 = a cancel lets the agent continue
 *   createEngine(json) -> Engine             see the Engine methods below; render(width, rows?) draws
 *                                            at most `rows` lines (0 or none: no limit)
 *   visibleWidth(str), graphemes(str), sanitize(str, keepNewlines)
 *   setWidthRules({ spacingMarks, currentEastAsianWidth, unicode15Clusters })   which pi-tui's widths every width
 *                                            above and every engine follow (qt_text.h), process-
 *                                            wide: the one state shared by all loads of the addon
 *   widthRules() -> { spacingMarks, currentEastAsianWidth, unicode15Clusters }
 *   decodeKeys(chunks[], { wholeKeys }?) -> [{ name, text?, paste?, repeat? }]
 *                                            wholeKeys: each chunk is whole keys, as pi's TUI hands them
 *   parseKeyId(id) -> { key, mods } | null
 *   strings(languageTag) -> { ID: text, $language }   the user-visible string table
 *   ttyAvailable(path) -> boolean            true when ttyStatus(path) is "free"
 *   ttyStatus(path) -> "free" | "absent" | "owned"   may this process take the terminal (qt_tty.h)
 *   _textWork() -> number                    tests only: code points the segmenter looked at
 *   _graphemesBackward(str)                  tests only: graphemes(str), stepping back from the end
 *   lockFile(path, timeoutMs) -> { release(remove?) }   an exclusive flock, bounded wait (qt_filelock.h)
 *   runTty(json, { path, color, mode, language, cancelContinues, notice }) -> { done: Promise<{ details, text, typed, elsewhere, discussion? }>, stop(), claim() }
 *                                            `notice`: bytes written once the terminal is taken
 *                                            the question on a terminal, on a thread of its own;
 *                                            `done` rejects with code QT_ETTYOWNED when another
 *                                            program owns the terminal (it was not touched) */
#include <cjson/cJSON.h>
#include <node_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qt.h"
#include "qt_engine.h"
#include "qt_filelock.h"
#include "qt_internal.h" /* qt_request_write_json */
#include "qt_keys.h"
#include "qt_limits.h"
#include "qt_text.h"
#include "qt_notice.h"
#include "qt_thread.h"
#include "qt_tty.h"

/* ---- error plumbing ----------------------------------------------------------------------- */
static void throw_coded(napi_env env, const char *code, const char *msg, bool range) {
  bool pending = false;
  napi_is_exception_pending(env, &pending);
  if (pending) return;
  if (range)
    napi_throw_range_error(env, code, msg);
  else
    napi_throw_error(env, code, msg);
}

/* A failed napi call: throw (unless an exception is already pending) and return NULL. */
#define NAPI_CALL(env, call)                                                  \
  do {                                                                        \
    napi_status napi_status_ = (call);                                        \
    if (napi_status_ != napi_ok) {                                            \
      const napi_extended_error_info *info_ = NULL;                           \
      napi_get_last_error_info((env), &info_);                                \
      throw_coded((env), "QT_ENAPI",                                          \
                  info_ && info_->error_message ? info_->error_message        \
                                                : "a Node-API call failed",   \
                  false);                                                     \
      return NULL;                                                            \
    }                                                                         \
  } while (0)

static napi_value throw_status(napi_env env, qt_status st, const qt_error *err) {
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
static char *get_string(napi_env env, napi_value v, size_t *len_out, const char *what) {
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

static bool is_nullish(napi_env env, napi_value v) {
  napi_valuetype t;
  return napi_typeof(env, v, &t) != napi_ok || t == napi_undefined || t == napi_null;
}

static napi_value make_string(napi_env env, const char *s, size_t len) {
  napi_value v;
  NAPI_CALL(env, napi_create_string_utf8(env, s, len, &v));
  return v;
}

static napi_value make_bool(napi_env env, bool b) {
  napi_value v;
  NAPI_CALL(env, napi_get_boolean(env, b, &v));
  return v;
}

/* Gives a fresh object an own data property. Defined, not assigned: assigning runs any setter a
 * script put on Object.prototype (JS in the middle of our C), defining runs no JS at all. */
static bool set_prop(napi_env env, napi_value obj, const char *key, napi_value v) {
  napi_property_descriptor p = {key, NULL, NULL, NULL, NULL, v, napi_default_jsproperty, NULL};
  return v && napi_define_properties(env, obj, 1, &p) == napi_ok;
}

/* A timestamp argument in milliseconds: a finite number (undefined/null: 0). */
static bool get_timestamp(napi_env env, napi_value v, int64_t *out) {
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
static bool get_flags(napi_env env, napi_value v, unsigned *out) {
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

/* Reads up to `max` arguments; missing ones are undefined. */
#define GET_ARGS(env, info, max, argv, self)                                        \
  size_t argc_ = (max);                                                             \
  napi_value argv[(max) > 0 ? (max) : 1];                                           \
  napi_value self;                                                                  \
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc_, argv, &self, NULL));           \
  for (size_t i_ = argc_; i_ < (size_t)(max); i_++) napi_get_undefined(env, &argv[i_])

/* The arguments JSON: a string (as the model sent it), or { prepared: string } for pi's prepared
 * arguments (this core's canonical output, allowed to be longer: QT_PARSE_PREPARED). */
static qt_request *parse_request_arg_ex(napi_env env, napi_value v, unsigned flags) {
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

static qt_request *parse_request_arg(napi_env env, napi_value v) { return parse_request_arg_ex(env, v, 0); }

/* { details, text } from qt_result_build. */
static napi_value result_object(napi_env env, const qt_request *req, const qt_answer *answers, qt_outcome outcome,
                                const char *mode, int64_t at, const char *reason, unsigned flags) {
  char *details = NULL, *text = NULL;
  qt_status st = qt_result_build_ex(req, answers, outcome, mode, at, reason, flags, &details, &text);
  if (st == QT_ERR_STATE) { /* "answered" with questions left open: say which */
    qt_buf b;
    qt_buf_init(&b);
    qt_buf_puts(&b, "pi-question: an answered result needs an answer to every question; missing:");
    for (size_t i = 0; i < req->question_count; i++)
      if (!answers || !answers[i].present) qt_buf_printf(&b, " %s", req->questions[i].id);
    throw_coded(env, qt_status_code(st), b.failed ? "pi-question: answers are missing" : b.data, false);
    qt_buf_free(&b);
    return NULL;
  }
  if (st) return throw_status(env, st, NULL);
  napi_value obj = NULL;
  bool ok = napi_create_object(env, &obj) == napi_ok && set_prop(env, obj, "details", make_string(env, details, NAPI_AUTO_LENGTH)) &&
            set_prop(env, obj, "text", make_string(env, text, NAPI_AUTO_LENGTH));
  free(details);
  free(text);
  if (!ok) {
    throw_coded(env, "QT_ENAPI", "pi-question: could not build the result object", false);
    return NULL;
  }
  return obj;
}

static bool parse_outcome(napi_env env, napi_value v, qt_outcome *out) {
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
                         "pi-question: outcome must be answered, declined, cancelled, interrupted, unavailable, timed_out or discuss");
  return false;
}

#define NORMALIZE_KEEP_BYTES ((size_t)2 << 20)

/* The canonical text of req (freed here) in this thread's buffer, kept between calls up to
 * NORMALIZE_KEEP_BYTES and freed when the thread ends: the text of a large call is most of a
 * megabyte, and fresh memory for it faulted a page every 4 KB. Hand it back with
 * release_canonical. */
static qt_status write_canonical(qt_request *req, qt_buf **out) {
  static _Thread_local qt_buf text;
  text.len = 0;
  text.failed = false;
  qt_status st = qt_request_write_json(req, true, &text);
  qt_request_free(req);
  qt_keep_until_thread_end(QT_KEEP_NORMALIZED, text.data);
  *out = &text;
  return st;
}

static void release_canonical(qt_buf *text) {
  if (text->cap <= NORMALIZE_KEEP_BYTES) return;
  qt_buf_free(text);
  qt_keep_until_thread_end(QT_KEEP_NORMALIZED, NULL);
}

/* ---- normalize / result --------------------------------------------------------------------- */
static napi_value js_normalize(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 1, argv, self);
  (void)self;
  qt_request *req = parse_request_arg_ex(env, argv[0], QT_PARSE_SCRATCH); /* freed below */
  if (!req) return NULL;
  qt_buf *out;
  qt_status st = write_canonical(req, &out);
  napi_value v = st ? throw_status(env, st, NULL) : make_string(env, out->data, out->len);
  release_canonical(out);
  return v;
}

static napi_value js_result(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 7, argv, self);
  (void)self;
  qt_outcome outcome;
  if (!parse_outcome(env, argv[1], &outcome)) return NULL;
  int64_t at;
  unsigned flags;
  if (!get_timestamp(env, argv[3], &at) || !get_flags(env, argv[6], &flags)) return NULL;
  char *mode = get_string(env, argv[2], NULL, "the mode");
  if (!mode) return NULL;
  char *reason = NULL;
  if (!is_nullish(env, argv[4]) && !(reason = get_string(env, argv[4], NULL, "the reason"))) {
    free(mode);
    return NULL;
  }
  napi_value out = NULL;
  qt_request *req = parse_request_arg(env, argv[0]);
  if (req) {
    qt_answer *answers = req->preset;
    qt_answer *given = NULL;
    bool ok = true;
    if (!is_nullish(env, argv[5])) {
      size_t len;
      char *json = get_string(env, argv[5], &len, "the answers JSON");
      qt_error err;
      qt_status st = json ? qt_answers_from_json(req, json, len, &given, &err) : QT_OK;
      free(json);
      if (!json || st) {
        if (json) throw_status(env, st, &err);
        ok = false;
      }
      answers = given;
    }
    if (ok) out = result_object(env, req, answers, outcome, mode, at, reason, flags);
    qt_answers_free(given, req->question_count);
    qt_request_free(req);
  }
  free(mode);
  free(reason);
  return out;
}

/* ---- Engine ---------------------------------------------------------------------------------- */
static const napi_type_tag ENGINE_TAG = {0x7069717565737469ULL, 0x6f6e2d656e67696eULL};

/* The lines of an engine's last frame, kept so that frame_array can hand a line that did not
 * change out as the same string again: each line's bytes, and the string made from them in a
 * JS array that no script ever sees (so reading it back runs no JS and cannot have been
 * changed). Its elements are defined once and then only overwritten, which runs no setter. */
typedef struct line_cache {
  napi_ref strings; /* element i: the string of line i; weak (see engine_box) */
  size_t defined;   /* elements defined in it */
  char *bytes;      /* the lines' bytes, one after another */
  size_t bytes_cap;
  size_t *ends; /* line i is bytes[ends[i-1] (or 0) .. ends[i]) */
  size_t ends_cap, count;
} line_cache;

static void line_cache_clear(napi_env env, line_cache *c) {
  if (c->strings) napi_delete_reference(env, c->strings);
  free(c->bytes);
  free(c->ends);
  *c = (line_cache){0};
}

/* The cache's strings array, made on first use; NULL when it cannot be had (nothing reused). */
static napi_value line_cache_strings(napi_env env, line_cache *c) {
  napi_value arr = NULL;
  if (c->strings && napi_get_reference_value(env, c->strings, &arr) == napi_ok && arr) return arr;
  line_cache_clear(env, c);
  if (napi_create_array(env, &arr) != napi_ok || napi_create_reference(env, arr, 0, &c->strings) != napi_ok) {
    c->strings = NULL;
    return NULL;
  }
  return arr;
}

/* True when line i of the last frame was s[0..len). */
static bool line_cache_same(const line_cache *c, size_t i, const char *s, size_t len) {
  if (i >= c->count) return false;
  size_t start = i ? c->ends[i - 1] : 0;
  return c->ends[i] - start == len && memcmp(c->bytes + start, s, len) == 0;
}

/* Keeps the frame just handed out (its lines and the strings in props[i].value) for the next. */
static void line_cache_keep(napi_env env, line_cache *c, const char *const *lines, const size_t *lens,
                            const napi_property_descriptor *props, size_t count) {
  napi_value arr = NULL;
  size_t total = 0;
  for (size_t i = 0; i < count; i++) total += lens[i];
  bool ok = c->strings && napi_get_reference_value(env, c->strings, &arr) == napi_ok && arr;
  for (size_t i = 0; ok && i < count && i < c->defined; i++)
    if (!line_cache_same(c, i, lines[i], lens[i])) ok = napi_set_element(env, arr, (uint32_t)i, props[i].value) == napi_ok;
  if (ok && count > c->defined) {
    ok = napi_define_properties(env, arr, count - c->defined, props + c->defined) == napi_ok;
    if (ok) c->defined = count;
  }
  if (ok && total + 1 > c->bytes_cap) {
    char *b = realloc(c->bytes, total + 1);
    if ((ok = b != NULL)) c->bytes = b, c->bytes_cap = total + 1;
  }
  if (ok && count > c->ends_cap) {
    size_t *e = realloc(c->ends, count * sizeof *e);
    if ((ok = e != NULL)) c->ends = e, c->ends_cap = count;
  }
  if (!ok) {
    line_cache_clear(env, c);
    return;
  }
  size_t at = 0;
  for (size_t i = 0; i < count; i++) {
    memcpy(c->bytes + at, lines[i], lens[i]);
    c->ends[i] = at += lens[i];
  }
  c->count = count;
}

/* Re-entrancy: a method that lets JS run before it is done with the engine (a getter on the keys
 * array bind() reads) marks the box busy meanwhile, and every method called while it is busy —
 * dispose() included — throws QT_ESTATE instead of changing or freeing memory still in use.
 * Methods that hand results back build them without running JS (set_prop, frame_array). */
typedef struct engine_box {
  qt_request *req;
  qt_engine *engine;
  napi_ref frame;          /* cached JS array of the last frame; weak (below) */
  line_cache lines;        /* the last frame's line strings, to hand out again unchanged */
  uint64_t frame_revision;
  int frame_width;
  unsigned frame_rules;    /* the width rules it was drawn under (setWidthRules) */
  bool busy;               /* inside a method that may run JS: nested calls throw QT_ESTATE */
  size_t request_bytes;    /* qt_request_footprint of req (a request never changes) */
  int64_t reported;        /* native bytes V8 was told this engine holds */
} engine_box;
/* Both JS arrays an engine keeps (the last frame, the line strings) are held weakly: each is only
 * a cache, rebuilt when it was collected. Held strongly (a persistent handle is a root), they
 * outlived an engine that was dropped without dispose() until its finalizer ran — from the event
 * loop, after the collection that found the engine dead — so they survived young-generation
 * collections, V8 grew its new space to the maximum, and thousands of dead engines, 20 KB of
 * native memory each, waited between two collections: 100,000 dropped 4x4 engines peaked at
 * 153 MB with the event loop turning after each (57 MB held weakly). An engine in use
 * keeps its frame anyway (the host holds it) and loses its line strings at most once per young
 * collection (one frame's lines made again). */

/* V8 sees only a small object for an engine that holds hundreds of kilobytes of native memory:
 * told nothing, it would not collect the engines pi drops (without dispose) until RSS had
 * climbed far. So every engine reports what it holds (napi_adjust_external_memory) — on
 * creation (whatever its size: thousands of small engines add up), when it has grown or shrunk
 * by a step since the last report, and all of it back when it is freed — in steps, so a
 * keystroke costs no call into V8. */
#define EXTERNAL_MEMORY_STEP (64 * 1024)

static void report_memory(napi_env env, engine_box *box) {
  int64_t now = box->engine ? (int64_t)(box->request_bytes + qt_engine_footprint(box->engine) + box->lines.bytes_cap +
                                        box->lines.ends_cap * sizeof(size_t))
                            : 0;
  int64_t delta = now - box->reported;
  if (!delta || (box->reported && now && delta < EXTERNAL_MEMORY_STEP && delta > -EXTERNAL_MEMORY_STEP)) return;
  int64_t total;
  if (napi_adjust_external_memory(env, delta, &total) == napi_ok) box->reported = now;
}

static void engine_box_free(napi_env env, void *data, void *hint) {
  (void)hint;
  engine_box *box = data;
  if (box->frame) napi_delete_reference(env, box->frame);
  line_cache_clear(env, &box->lines);
  qt_engine_destroy(box->engine);
  qt_request_free(box->req);
  box->engine = NULL;
  report_memory(env, box); /* gives back what was reported */
  free(box);
}

static engine_box *unwrap_engine(napi_env env, napi_value self) {
  bool ok = false;
  if (napi_check_object_type_tag(env, self, &ENGINE_TAG, &ok) != napi_ok || !ok) {
    napi_throw_type_error(env, "QT_ETYPE", "pi-question: not an Engine");
    return NULL;
  }
  void *data = NULL;
  if (napi_unwrap(env, self, &data) != napi_ok || !data || !((engine_box *)data)->engine) {
    throw_coded(env, "QT_ESTATE", "pi-question: the Engine was already disposed", false);
    return NULL;
  }
  if (((engine_box *)data)->busy) {
    throw_coded(env, "QT_ESTATE", "pi-question: the Engine is busy: it was called from code one of its own calls ran", false);
    return NULL;
  }
  return data;
}

#define ENGINE_METHOD_PROLOGUE(max)          \
  GET_ARGS(env, info, max, argv, self);      \
  engine_box *box = unwrap_engine(env, self); \
  if (!box) return NULL

static napi_value js_engine_feed(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(1);
  size_t len;
  char *bytes = get_string(env, argv[0], &len, "the input");
  if (!bytes) return NULL;
  qt_status st = qt_engine_feed(box->engine, bytes, len);
  free(bytes);
  report_memory(env, box);
  if (st) return throw_status(env, st, NULL);
  napi_value done;
  NAPI_CALL(env, napi_get_boolean(env, qt_engine_done(box->engine), &done));
  return done;
}

/* The lines of a frame as a JS array. The elements are defined, not assigned: assigning an
 * element of a fresh array runs any setter a script put on Array.prototype, and such a setter
 * could dispose of the engine whose memory `lines` points into. No JS runs here.
 *
 * A keystroke changes two or three lines of a frame, and turning a line's UTF-8 into a JS
 * string was a quarter of a keystroke's cost: a line equal, byte for byte, to the
 * same row of the last frame is handed out as the string made for it then (`cache`, which
 * also lets the caller compare rows by identity). */
static napi_value frame_array(napi_env env, line_cache *cache, const char *const *lines, size_t count) {
  napi_value arr;
  NAPI_CALL(env, napi_create_array_with_length(env, count, &arr));
  if (!count) {
    line_cache_clear(env, cache);
    return arr;
  }
  napi_property_descriptor *props = malloc(count * sizeof *props);
  char(*names)[24] = malloc(count * sizeof *names);
  size_t *lens = malloc(count * sizeof *lens);
  bool ok = props && names && lens;
  napi_value strings = line_cache_strings(env, cache);
  for (size_t i = 0; ok && i < count; i++) {
    napi_value line = NULL;
    /* The index as a property name, by hand: snprintf for each line of every frame showed in
     * the keystroke profile. */
    char digits[24];
    size_t nd = 0, v = i;
    do digits[nd++] = (char)('0' + v % 10); while ((v /= 10) != 0);
    for (size_t k = 0; k < nd; k++) names[i][k] = digits[nd - 1 - k];
    names[i][nd] = '\0';
    lens[i] = strlen(lines[i]);
    if (strings && line_cache_same(cache, i, lines[i], lens[i])) napi_get_element(env, strings, (uint32_t)i, &line);
    if (!line) ok = napi_create_string_utf8(env, lines[i], lens[i], &line) == napi_ok;
    props[i] = (napi_property_descriptor){names[i], NULL, NULL, NULL, NULL, line, napi_default_jsproperty, NULL};
  }
  if (ok) ok = napi_define_properties(env, arr, count, props) == napi_ok;
  if (ok) line_cache_keep(env, cache, lines, lens, props, count);
  else line_cache_clear(env, cache);
  bool nomem = !props || !names || !lens;
  free(props);
  free(names);
  free(lens);
  if (!ok) {
    throw_coded(env, nomem ? "QT_ENOMEM" : "QT_ENAPI", nomem ? "pi-question: out of memory" : "pi-question: could not build the frame", false);
    return NULL;
  }
  return arr;
}

static napi_value js_engine_render(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(2);
  int32_t width = 0, rows = 0;
  NAPI_CALL(env, napi_get_value_int32(env, argv[0], &width));
  if (!is_nullish(env, argv[1])) NAPI_CALL(env, napi_get_value_int32(env, argv[1], &rows)); /* 0 or none: no limit */
  qt_engine_set_rows(box->engine, rows);
  uint64_t rev = qt_engine_revision(box->engine);
  unsigned rules = qt_width_rules();
  if (box->frame && rev == box->frame_revision && width == box->frame_width && rules == box->frame_rules) {
    napi_value cached;
    NAPI_CALL(env, napi_get_reference_value(env, box->frame, &cached));
    if (cached) return cached;
  }
  const char *const *lines = NULL;
  size_t count = 0;
  qt_status st = qt_engine_render(box->engine, width, &lines, &count);
  report_memory(env, box);
  if (st) return throw_status(env, st, NULL);
  napi_value arr = frame_array(env, &box->lines, lines, count);
  if (!arr) return NULL;
  if (box->frame) {
    napi_delete_reference(env, box->frame);
    box->frame = NULL;
  }
  NAPI_CALL(env, napi_create_reference(env, arr, 0, &box->frame));
  box->frame_revision = rev;
  box->frame_width = width;
  box->frame_rules = rules;
  return arr;
}

static napi_value js_engine_done(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(1);
  (void)argv;
  napi_value v;
  NAPI_CALL(env, napi_get_boolean(env, qt_engine_done(box->engine), &v));
  return v;
}

static napi_value js_engine_outcome(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(1);
  (void)argv;
  if (!qt_engine_done(box->engine)) {
    napi_value v;
    NAPI_CALL(env, napi_get_null(env, &v));
    return v;
  }
  return make_string(env, qt_outcome_name(qt_engine_outcome(box->engine)), NAPI_AUTO_LENGTH);
}

static napi_value js_engine_revision(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(1);
  (void)argv;
  napi_value v;
  NAPI_CALL(env, napi_create_double(env, (double)qt_engine_revision(box->engine), &v));
  return v;
}

static napi_value js_engine_result(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(4);
  int64_t at;
  unsigned flags;
  if (!get_timestamp(env, argv[1], &at) || !get_flags(env, argv[3], &flags)) return NULL;
  char *mode = get_string(env, argv[0], NULL, "the mode");
  if (!mode) return NULL;
  char *reason = NULL;
  if (!is_nullish(env, argv[2]) && !(reason = get_string(env, argv[2], NULL, "the reason"))) {
    free(mode);
    return NULL;
  }
  qt_outcome outcome = qt_engine_done(box->engine) ? qt_engine_outcome(box->engine) : QT_INTERRUPTED;
  if (outcome == QT_DISCUSS) { /* the reason of a discussion is what the person wrote */
    free(reason);
    reason = NULL;
  }
  box->busy = true; /* result_object runs no JS (set_prop); should that change, nothing nested frees the engine */
  napi_value out = result_object(env, box->req, qt_engine_answers(box->engine), outcome, mode, at,
                                 outcome == QT_DISCUSS ? qt_engine_discussion(box->engine) : reason,
                                 flags | qt_engine_result_flags(box->engine));
  box->busy = false;
  free(mode);
  free(reason);
  return out;
}

/* Frees the native engine now instead of when the garbage collector gets to it. */
static napi_value js_engine_dispose(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(1);
  (void)argv;
  if (box->frame) napi_delete_reference(env, box->frame);
  box->frame = NULL;
  line_cache_clear(env, &box->lines);
  qt_engine_destroy(box->engine);
  qt_request_free(box->req);
  box->engine = NULL;
  box->req = NULL;
  report_memory(env, box);
  return NULL;
}

/* What the person typed, question by question ([{ id, wrote?, note? }], only questions with
 * some): qt_engine_typed. Runs no JS (set_prop). NULL on failure. */
static napi_value typed_array(napi_env env, const qt_request *req, const qt_engine *engine) {
  napi_value arr;
  if (napi_create_array(env, &arr) != napi_ok) return NULL;
  uint32_t n = 0;
  for (size_t i = 0; i < req->question_count; i++) {
    const char *answer, *note;
    size_t alen, nlen;
    qt_engine_typed(engine, i, &answer, &alen, &note, &nlen);
    if (!alen && !nlen) continue;
    napi_value o;
    if (napi_create_object(env, &o) != napi_ok || !set_prop(env, o, "id", make_string(env, req->questions[i].id, NAPI_AUTO_LENGTH)) ||
        (alen && !set_prop(env, o, "wrote", make_string(env, answer, alen))) ||
        (nlen && !set_prop(env, o, "note", make_string(env, note, nlen))) || napi_set_element(env, arr, n++, o) != napi_ok)
      return NULL;
  }
  return arr;
}

static napi_value js_engine_typed(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(1);
  (void)argv;
  box->busy = true; /* typed_array runs no JS; should that change, nothing nested frees the engine */
  napi_value v = typed_array(env, box->req, box->engine);
  box->busy = false;
  return v;
}

static napi_value js_engine_interrupt(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(1);
  (void)argv;
  qt_engine_interrupt(box->engine);
  return NULL;
}

static const char *const STYLE_NAMES[QT_STYLE_COUNT] = {
    [QT_STYLE_ACCENT] = "accent",   [QT_STYLE_MUTED] = "muted", [QT_STYLE_DIM] = "dim",
    [QT_STYLE_SUCCESS] = "success", [QT_STYLE_WARNING] = "warning", [QT_STYLE_ERROR] = "error",
    [QT_STYLE_TITLE] = "title",     [QT_STYLE_BORDER] = "border", [QT_STYLE_SELECTED] = "selected",
    [QT_STYLE_CURSOR] = "cursor",
};

static const char *const ACTION_NAMES[QT_ACT_COUNT] = {
    [QT_ACT_UP] = "up",
    [QT_ACT_DOWN] = "down",
    [QT_ACT_PAGE_UP] = "pageUp",
    [QT_ACT_PAGE_DOWN] = "pageDown",
    [QT_ACT_CONFIRM] = "confirm",
    [QT_ACT_CANCEL] = "cancel",
    [QT_ACT_NEXT] = "next",
    [QT_ACT_PREV] = "prev",
    [QT_ACT_TOGGLE] = "toggle",
    [QT_ACT_DECLINE] = "decline",
    [QT_ACT_NOTE] = "note",
    [QT_ACT_FILTER] = "filter",
    [QT_ACT_CURSOR_LEFT] = "cursorLeft",
    [QT_ACT_CURSOR_RIGHT] = "cursorRight",
    [QT_ACT_WORD_LEFT] = "wordLeft",
    [QT_ACT_WORD_RIGHT] = "wordRight",
    [QT_ACT_LINE_START] = "lineStart",
    [QT_ACT_LINE_END] = "lineEnd",
    [QT_ACT_DELETE_BACK] = "deleteBack",
    [QT_ACT_DELETE_FORWARD] = "deleteForward",
    [QT_ACT_DELETE_WORD_BACK] = "deleteWordBack",
    [QT_ACT_DELETE_WORD_FORWARD] = "deleteWordForward",
    [QT_ACT_DELETE_TO_START] = "deleteToStart",
    [QT_ACT_DELETE_TO_END] = "deleteToEnd",
    [QT_ACT_NEW_LINE] = "newLine",
    [QT_ACT_DISCUSS] = "discuss",
    [QT_ACT_EXTERNAL_EDITOR] = "externalEditor",
    [QT_ACT_PREVIEW_UP] = "previewUp",
    [QT_ACT_PREVIEW_DOWN] = "previewDown",
};

/* Index of `name` in a table of `n` names, or -1 (after throwing a RangeError). */
static int lookup_name(napi_env env, napi_value v, const char *const *table, int n, const char *what) {
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

static napi_value js_engine_set_style(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(3);
  int style = lookup_name(env, argv[0], STYLE_NAMES, QT_STYLE_COUNT, "style");
  if (style < 0) return NULL;
  char *open = get_string(env, argv[1], NULL, "the style's opening bytes");
  char *close = open ? get_string(env, argv[2], NULL, "the style's closing bytes") : NULL;
  qt_status st = open && close ? qt_engine_set_style(box->engine, (qt_style)style, open, close) : QT_OK;
  bool ok = open && close;
  free(open);
  free(close);
  if (!ok) return NULL;
  if (st) return throw_status(env, st, NULL);
  return NULL;
}

static napi_value js_engine_bind(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(2);
  int action = lookup_name(env, argv[0], ACTION_NAMES, QT_ACT_COUNT, "action");
  if (action < 0) return NULL;
  bool is_array = false;
  NAPI_CALL(env, napi_is_array(env, argv[1], &is_array));
  if (!is_array) {
    napi_throw_type_error(env, "QT_ETYPE", "pi-question: keys must be an array of key ids");
    return NULL;
  }
  uint32_t n = 0;
  NAPI_CALL(env, napi_get_array_length(env, argv[1], &n));
  if (n > 64) n = 64;
  char *keys[64];
  uint32_t got = 0;
  napi_value ret = NULL;
  box->busy = true; /* reading the array runs its getters (JS): nested calls throw QT_ESTATE */
  for (; got < n; got++) {
    napi_value k;
    if (napi_get_element(env, argv[1], got, &k) != napi_ok || !(keys[got] = get_string(env, k, NULL, "a key id"))) break;
  }
  box->busy = false;
  if (got < n) goto out;
  size_t unknown = 0;
  qt_status st = qt_engine_bind(box->engine, (qt_action)action, (const char *const *)keys, got, &unknown);
  if (st) {
    throw_status(env, st, NULL);
    goto out;
  }
  napi_create_uint32(env, (uint32_t)unknown, &ret);
out:
  for (uint32_t i = 0; i < got; i++) free(keys[i]);
  return ret;
}

static napi_value js_engine_set_cursor_marker(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(1);
  char *marker = get_string(env, argv[0], NULL, "the cursor marker");
  if (!marker) return NULL;
  qt_status st = qt_engine_set_cursor_marker(box->engine, marker);
  free(marker);
  if (st) return throw_status(env, st, NULL);
  return NULL;
}

static napi_value js_engine_set_language(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(1);
  char *tag = get_string(env, argv[0], NULL, "the language");
  if (!tag) return NULL;
  qt_status st = qt_engine_set_language(box->engine, qt_language_from_tag(tag));
  free(tag);
  if (st) return throw_status(env, st, NULL);
  return NULL;
}

/* setWholeKeys(on): every feed is whole key sequences (pi's TUI); see qt_engine_set_whole_keys. */
static napi_value js_engine_set_whole_keys(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(1);
  bool on = false;
  if (napi_get_value_bool(env, argv[0], &on) != napi_ok) {
    napi_throw_type_error(env, "QT_ETYPE", "pi-question: setWholeKeys takes a boolean");
    return NULL;
  }
  qt_engine_set_whole_keys(box->engine, on);
  return NULL;
}

/* setAsker(name, where): who asks a relayed question; null/undefined for either. */
static napi_value js_engine_set_asker(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(2);
  char *name = is_nullish(env, argv[0]) ? NULL : get_string(env, argv[0], NULL, "the asker's name");
  if (!name && !is_nullish(env, argv[0])) return NULL;
  char *where = is_nullish(env, argv[1]) ? NULL : get_string(env, argv[1], NULL, "the asker's directory");
  if (!where && !is_nullish(env, argv[1])) {
    free(name);
    return NULL;
  }
  qt_status st = qt_engine_set_asker(box->engine, name, where);
  free(name);
  free(where);
  if (st) return throw_status(env, st, NULL);
  return NULL;
}

/* ---- the person's timeout, the external editor, accessible mode ----------------------------- */
static const char *const TIMEOUT_THEN_NAMES[] = {"cancel", "decline", "recommended"};

/* setTimeout(afterMs, then): arms the clock (it starts with the first tick). */
static napi_value js_engine_set_timeout(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(2);
  double after = 0;
  if (napi_get_value_double(env, argv[0], &after) != napi_ok || !(after >= 1 && after <= 9.0e15)) {
    napi_throw_range_error(env, "QT_ERANGE", "pi-question: the timeout must be a positive number of milliseconds");
    return NULL;
  }
  int then = lookup_name(env, argv[1], TIMEOUT_THEN_NAMES, 3, "timeout action");
  if (then < 0) return NULL;
  qt_status st = qt_engine_set_timeout(box->engine, (int64_t)after, (qt_timeout_then)then);
  if (st) return throw_status(env, st, NULL);
  return NULL;
}

/* tick(nowMs): the time now; returns true once the question is finished. */
static napi_value js_engine_tick(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(1);
  int64_t now;
  if (!get_timestamp(env, argv[0], &now)) return NULL;
  qt_status st = qt_engine_tick(box->engine, now);
  if (st) return throw_status(env, st, NULL);
  napi_value done;
  NAPI_CALL(env, napi_get_boolean(env, qt_engine_done(box->engine), &done));
  return done;
}

/* nextTick(nowMs): milliseconds until the countdown changes, or -1 when no clock runs. */
static napi_value js_engine_next_tick(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(1);
  int64_t now;
  if (!get_timestamp(env, argv[0], &now)) return NULL;
  napi_value v;
  NAPI_CALL(env, napi_create_double(env, (double)qt_engine_next_tick(box->engine, now), &v));
  return v;
}

static napi_value js_engine_set_accessible(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(1);
  bool on = false;
  if (napi_get_value_bool(env, argv[0], &on) != napi_ok) {
    napi_throw_type_error(env, "QT_ETYPE", "pi-question: setAccessible takes true or false");
    return NULL;
  }
  qt_status st = qt_engine_set_accessible(box->engine, on);
  if (st) return throw_status(env, st, NULL);
  return NULL;
}

/* editorRequest(): the text to open in the external editor (Ctrl+G was pressed), or null. */
static napi_value js_engine_editor_request(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(1);
  (void)argv;
  const char *text = NULL;
  size_t len = 0;
  if (!qt_engine_editor_request(box->engine, &text, &len)) {
    napi_value v;
    NAPI_CALL(env, napi_get_null(env, &v));
    return v;
  }
  return make_string(env, text, len);
}

/* editorDone(ok, text, why): the editor's outcome; with ok false the field is kept. */
static napi_value js_engine_editor_done(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(3);
  bool ok = false;
  if (napi_get_value_bool(env, argv[0], &ok) != napi_ok) {
    napi_throw_type_error(env, "QT_ETYPE", "pi-question: editorDone takes (ok, text, why)");
    return NULL;
  }
  size_t len = 0;
  char *text = NULL, *why = NULL;
  if (ok && !(text = get_string(env, argv[1], &len, "the edited text"))) return NULL;
  if (!ok && !is_nullish(env, argv[2]) && !(why = get_string(env, argv[2], NULL, "the reason"))) return NULL;
  qt_status st = qt_engine_editor_done(box->engine, ok, text, len, why);
  free(text);
  free(why);
  report_memory(env, box);
  if (st) return throw_status(env, st, NULL);
  return NULL;
}

/* ---- the flow as steps, for faces that draw no frame (qt_engine.h "the question flow as steps") */
/* act(name, index?, text?): { ok: true } or { ok: false, error: "why" }. A step that is not
 * live, an index out of range, text over its field's limit or an unknown name is refused that
 * way, changing nothing; only a wrong argument type throws. */
static napi_value js_engine_act(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(3);
  char *name = get_string(env, argv[0], NULL, "the step");
  if (!name) return NULL;
  qt_step st;
  bool known = qt_step_from_name(name, &st);
  free(name);
  double index = 0;
  if (!is_nullish(env, argv[1]) && napi_get_value_double(env, argv[1], &index) != napi_ok) {
    napi_throw_type_error(env, "QT_ETYPE", "pi-question: act takes (step, index?, text?): the index is a number");
    return NULL;
  }
  size_t len = 0;
  char *text = NULL;
  if (!is_nullish(env, argv[2]) && !(text = get_string(env, argv[2], &len, "the text"))) return NULL;
  const char *why = NULL;
  qt_status status = QT_OK;
  if (!known)
    why = "no such step";
  else if (!(index >= 0 && index < 1e9 && index == (double)(size_t)index))
    why = "the index is not a whole number in range";
  else if ((status = qt_engine_act(box->engine, st, (size_t)index, text, len)) != QT_OK)
    why = qt_engine_act_error(box->engine);
  free(text);
  report_memory(env, box);
  if (status == QT_ERR_NOMEM) return throw_status(env, status, NULL);
  napi_value out, ok;
  NAPI_CALL(env, napi_create_object(env, &out));
  NAPI_CALL(env, napi_get_boolean(env, why == NULL, &ok));
  if (!set_prop(env, out, "ok", ok)) return NULL;
  if (why && !set_prop(env, out, "error", make_string(env, *why ? why : "refused", NAPI_AUTO_LENGTH))) return NULL;
  return out;
}

/* actions(): the names of the steps live now. */
static napi_value js_engine_actions(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(1);
  (void)argv;
  qt_step live[QT_STEP_COUNT];
  size_t n = qt_engine_live(box->engine, live, QT_STEP_COUNT);
  napi_value arr;
  NAPI_CALL(env, napi_create_array_with_length(env, n, &arr));
  for (size_t i = 0; i < n; i++) {
    char index[24];
    snprintf(index, sizeof index, "%zu", i);
    napi_property_descriptor p = {index, NULL, NULL, NULL, NULL, NULL, napi_default_jsproperty, NULL};
    if (!(p.value = make_string(env, qt_step_name(live[i]), NAPI_AUTO_LENGTH))) return NULL;
    NAPI_CALL(env, napi_define_properties(env, arr, 1, &p)); /* defined, not assigned: no setter runs */
  }
  return arr;
}

/* view(): the state as a JSON string (qt_engine_view); the caller parses it. */
static napi_value js_engine_view(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(1);
  (void)argv;
  char *json = NULL;
  qt_status st = qt_engine_view(box->engine, &json);
  if (st) return throw_status(env, st, NULL);
  napi_value v = make_string(env, json, NAPI_AUTO_LENGTH);
  free(json);
  return v;
}

/* The Engine class: its methods live once on the prototype. Defined on every engine object
 * they were some twenty functions (and as many native callback records) per engine, which only
 * the garbage collector freed, even after dispose(), so memory did not stay flat. Its
 * constructor makes an empty object; only createEngine gives one an engine (type tag and
 * wrap), so an object made with `new engine.constructor()` is refused by every method. */
static napi_value js_engine_construct(napi_env env, napi_callback_info info) {
  napi_value self;
  NAPI_CALL(env, napi_get_cb_info(env, info, NULL, NULL, &self, NULL));
  return self;
}

typedef struct addon_data {
  napi_ref engine_class;
} addon_data;

static void addon_data_free(napi_env env, void *data, void *hint) {
  (void)hint;
  addon_data *d = data;
  if (d->engine_class) napi_delete_reference(env, d->engine_class);
  free(d);
}

static napi_value engine_class(napi_env env) {
  addon_data *d = NULL;
  napi_value cls = NULL;
  if (napi_get_instance_data(env, (void **)&d) != napi_ok || !d || !d->engine_class ||
      napi_get_reference_value(env, d->engine_class, &cls) != napi_ok)
    return NULL;
  return cls;
}

static bool define_engine_class(napi_env env) {
  static const struct {
    const char *name;
    napi_callback fn;
  } methods[] = {
      {"feed", js_engine_feed},         {"render", js_engine_render},       {"result", js_engine_result},
      {"interrupt", js_engine_interrupt}, {"setStyle", js_engine_set_style}, {"bind", js_engine_bind},
      {"setCursorMarker", js_engine_set_cursor_marker}, {"setLanguage", js_engine_set_language},
      {"setAsker", js_engine_set_asker},  {"dispose", js_engine_dispose},
      {"setTimeout", js_engine_set_timeout}, {"tick", js_engine_tick}, {"nextTick", js_engine_next_tick},
      {"setAccessible", js_engine_set_accessible}, {"editorRequest", js_engine_editor_request},
      {"editorDone", js_engine_editor_done},      {"typed", js_engine_typed},
      {"setWholeKeys", js_engine_set_whole_keys},
      {"act", js_engine_act},           {"actions", js_engine_actions},    {"view", js_engine_view},
  };
  napi_property_descriptor props[sizeof methods / sizeof methods[0] + 3];
  size_t np = 0;
  for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
    props[np++] = (napi_property_descriptor){methods[i].name, NULL, methods[i].fn, NULL, NULL, NULL, napi_default, NULL};
  props[np++] = (napi_property_descriptor){"done", NULL, NULL, js_engine_done, NULL, NULL, napi_default, NULL};
  props[np++] = (napi_property_descriptor){"outcome", NULL, NULL, js_engine_outcome, NULL, NULL, napi_default, NULL};
  props[np++] = (napi_property_descriptor){"revision", NULL, NULL, js_engine_revision, NULL, NULL, napi_default, NULL};
  addon_data *d = calloc(1, sizeof *d);
  napi_value cls;
  if (!d) return false;
  if (napi_define_class(env, "Engine", NAPI_AUTO_LENGTH, js_engine_construct, NULL, np, props, &cls) != napi_ok ||
      napi_create_reference(env, cls, 1, &d->engine_class) != napi_ok) {
    free(d);
    return false;
  }
  if (napi_set_instance_data(env, d, addon_data_free, NULL) != napi_ok) {
    addon_data_free(env, d, NULL);
    return false;
  }
  return true;
}

static napi_value js_create_engine(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 1, argv, self);
  (void)self;
  qt_request *req = parse_request_arg(env, argv[0]);
  if (!req) return NULL;
  engine_box *box = calloc(1, sizeof *box);
  qt_status st = box ? qt_engine_create(req, &box->engine) : QT_ERR_NOMEM;
  if (st) {
    free(box);
    qt_request_free(req);
    return throw_status(env, st, NULL);
  }
  box->req = req;
  box->frame_width = -1;
  box->request_bytes = qt_request_footprint(req);
  napi_value obj, cls = engine_class(env);
  if (!cls || napi_new_instance(env, cls, 0, NULL, &obj) != napi_ok) goto fail;
  if (napi_type_tag_object(env, obj, &ENGINE_TAG) != napi_ok) goto fail;
  if (napi_wrap(env, obj, box, engine_box_free, NULL, NULL) != napi_ok) goto fail;
  report_memory(env, box);
  return obj;
fail:
  engine_box_free(env, box, NULL);
  throw_coded(env, "QT_ENAPI", "pi-question: could not create the Engine object", false);
  return NULL;
}

/* Benchmark only (not enumerable): normalize without its last step — the same string crossing
 * in, validation and the canonical text written, but its length returned instead of a JS string
 * of it — so that npm run bench can tell the core's share from V8's (a string of most of a
 * megabyte is a large object, in fresh pages every time). */
static napi_value js_normalize_in_c(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 1, argv, self);
  (void)self;
  qt_request *req = parse_request_arg_ex(env, argv[0], QT_PARSE_SCRATCH);
  if (!req) return NULL;
  qt_buf *out;
  qt_status st = write_canonical(req, &out);
  napi_value v = NULL;
  if (st) throw_status(env, st, NULL);
  else napi_create_double(env, (double)out->len, &v);
  release_canonical(out);
  return v;
}

/* ---- text and keys (for tests and the shim) ---------------------------------------------------- */
/* Tests only (not enumerable): code points the segmenter looked at on this thread so far. */
static napi_value js_text_work(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value v;
  NAPI_CALL(env, napi_create_double(env, (double)qt_text_work(), &v));
  return v;
}

static const char WIDTH_RULES_USAGE[] =
    "pi-question: setWidthRules takes { spacingMarks: boolean, currentEastAsianWidth: boolean, unicode15Clusters: boolean }";
static const struct {
  const char *name;
  unsigned flag;
} WIDTH_RULE_FLAGS[] = {{"spacingMarks", QT_WIDTH_SPACING_MARKS},
                        {"currentEastAsianWidth", QT_WIDTH_CURRENT_EAW},
                        {"unicode15Clusters", QT_WIDTH_UNICODE15_CLUSTERS}};

static napi_value js_set_width_rules(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 1, argv, self);
  (void)self;
  napi_valuetype t;
  NAPI_CALL(env, napi_typeof(env, argv[0], &t));
  if (t != napi_object) {
    napi_throw_type_error(env, "QT_ETYPE", WIDTH_RULES_USAGE);
    return NULL;
  }
  unsigned rules = 0;
  for (size_t i = 0; i < sizeof WIDTH_RULE_FLAGS / sizeof WIDTH_RULE_FLAGS[0]; i++) {
    napi_value v;
    bool on = false;
    NAPI_CALL(env, napi_get_named_property(env, argv[0], WIDTH_RULE_FLAGS[i].name, &v));
    if (napi_get_value_bool(env, v, &on) != napi_ok) {
      napi_throw_type_error(env, "QT_ETYPE", WIDTH_RULES_USAGE);
      return NULL;
    }
    if (on) rules |= WIDTH_RULE_FLAGS[i].flag;
  }
  qt_set_width_rules(rules);
  return NULL;
}

static napi_value js_width_rules(napi_env env, napi_callback_info info) {
  (void)info;
  unsigned rules = qt_width_rules();
  napi_value o, v;
  NAPI_CALL(env, napi_create_object(env, &o));
  for (size_t i = 0; i < sizeof WIDTH_RULE_FLAGS / sizeof WIDTH_RULE_FLAGS[0]; i++) {
    NAPI_CALL(env, napi_get_boolean(env, (rules & WIDTH_RULE_FLAGS[i].flag) != 0, &v));
    NAPI_CALL(env, napi_set_named_property(env, o, WIDTH_RULE_FLAGS[i].name, v));
  }
  return o;
}

static napi_value js_visible_width(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 1, argv, self);
  (void)self;
  size_t len;
  char *s = get_string(env, argv[0], &len, "the text");
  if (!s) return NULL;
  size_t w = qt_visible_width(s, len);
  free(s);
  napi_value v;
  NAPI_CALL(env, napi_create_double(env, (double)w, &v));
  return v;
}

/* Tests only (not enumerable): graphemes(str) found by stepping back from the end. */
static napi_value js_graphemes_backward(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 1, argv, self);
  (void)self;
  size_t len;
  char *s = get_string(env, argv[0], &len, "the text");
  if (!s) return NULL;
  size_t count = 0, *starts = malloc((len + 1) * sizeof *starts);
  qt_seg_memo memo = {0};
  for (size_t pos = len; starts && pos > 0;) {
    size_t prev = qt_grapheme_prev(s, len, pos, &memo, NULL);
    if (prev >= pos) prev = 0; /* never loop forever on a bad boundary */
    starts[count++] = prev;
    pos = prev;
  }
  napi_value arr = NULL;
  if (starts && napi_create_array(env, &arr) == napi_ok) {
    for (size_t k = 0; k < count; k++) {
      size_t from = starts[count - 1 - k], to = k + 1 < count ? starts[count - 2 - k] : len;
      napi_value g;
      if (napi_create_string_utf8(env, s + from, to - from, &g) != napi_ok || napi_set_element(env, arr, (uint32_t)k, g) != napi_ok) {
        arr = NULL;
        break;
      }
    }
  }
  free(starts);
  free(s);
  if (!arr) throw_coded(env, "QT_ENAPI", "pi-question: could not build the graphemes array", false);
  return arr;
}

static napi_value js_graphemes(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 1, argv, self);
  (void)self;
  size_t len;
  char *s = get_string(env, argv[0], &len, "the text");
  if (!s) return NULL;
  napi_value arr = NULL;
  if (napi_create_array(env, &arr) == napi_ok) {
    uint32_t k = 0;
    for (size_t pos = 0; pos < len;) {
      size_t next = qt_grapheme_next(s, len, pos);
      if (next <= pos || next > len) next = len; /* never loop forever on a bad boundary */
      napi_value g;
      if (napi_create_string_utf8(env, s + pos, next - pos, &g) != napi_ok || napi_set_element(env, arr, k++, g) != napi_ok) {
        arr = NULL;
        break;
      }
      pos = next;
    }
  }
  free(s);
  if (!arr) throw_coded(env, "QT_ENAPI", "pi-question: could not build the graphemes array", false);
  return arr;
}

/* desktopNotice(kind, title, body, tmux): the escape sequence of a desktop notification (see
 * qt_notice.h); kind is "osc777", "osc9" or "osc99". */
static napi_value js_desktop_notice(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 4, argv, self);
  (void)self;
  static const char *const KINDS[QT_NOTICE_KIND_COUNT] = {"osc777", "osc9", "osc99"};
  int kind = lookup_name(env, argv[0], KINDS, QT_NOTICE_KIND_COUNT, "the notification kind");
  if (kind < 0) return NULL;
  char *title = get_string(env, argv[1], NULL, "the title");
  if (!title) return NULL;
  char *body = get_string(env, argv[2], NULL, "the body");
  if (!body) {
    free(title);
    return NULL;
  }
  bool tmux = false;
  napi_get_value_bool(env, argv[3], &tmux);
  qt_buf out;
  qt_buf_init(&out);
  bool ok = qt_notice_build(&out, (qt_notice_kind)kind, title, body, tmux);
  free(title);
  free(body);
  napi_value v = ok ? make_string(env, out.data, out.len) : NULL;
  qt_buf_free(&out);
  if (!ok) throw_coded(env, "QT_ENOMEM", "pi-question: out of memory", false);
  return v;
}

static napi_value js_sanitize(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 2, argv, self);
  (void)self;
  size_t len;
  char *s = get_string(env, argv[0], &len, "the text");
  if (!s) return NULL;
  bool keep = false;
  napi_get_value_bool(env, argv[1], &keep);
  qt_buf out;
  qt_buf_init(&out);
  bool ok = qt_sanitize(&out, s, len, keep ? QT_SANITIZE_NEWLINES : 0);
  free(s);
  napi_value v = NULL;
  if (ok) v = make_string(env, out.data ? out.data : "", out.len);
  else throw_coded(env, "QT_ENOMEM", "pi-question: out of memory", false);
  qt_buf_free(&out);
  return v;
}

typedef struct decode_ctx {
  napi_env env;
  napi_value arr;
  uint32_t n;
  bool failed;
} decode_ctx;

static bool collect_event(void *user, const qt_key_event *ev) {
  decode_ctx *c = user;
  napi_env env = c->env;
  napi_value obj, v;
  char name[64];
  if (napi_create_object(env, &obj) != napi_ok) goto fail;
  if (ev->kind == QT_EV_PASTE) {
    if (napi_create_string_utf8(env, ev->text ? ev->text : "", ev->text_len, &v) != napi_ok ||
        napi_set_named_property(env, obj, "paste", v) != napi_ok)
      goto fail;
    if (napi_create_string_utf8(env, "paste", NAPI_AUTO_LENGTH, &v) != napi_ok ||
        napi_set_named_property(env, obj, "name", v) != napi_ok)
      goto fail;
  } else {
    size_t n = qt_key_name(ev, name, sizeof name);
    if (napi_create_string_utf8(env, name, n, &v) != napi_ok || napi_set_named_property(env, obj, "name", v) != napi_ok)
      goto fail;
    if (ev->text && (napi_create_string_utf8(env, ev->text, ev->text_len, &v) != napi_ok ||
                     napi_set_named_property(env, obj, "text", v) != napi_ok))
      goto fail;
    if (ev->repeat && (napi_get_boolean(env, true, &v) != napi_ok || napi_set_named_property(env, obj, "repeat", v) != napi_ok))
      goto fail;
  }
  if (napi_set_element(env, c->arr, c->n++, obj) != napi_ok) goto fail;
  return true;
fail:
  c->failed = true;
  return false;
}

static napi_value js_decode_keys(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 2, argv, self);
  bool whole_keys = false;
  if (!is_nullish(env, argv[1])) {
    napi_value v;
    bool has = false;
    if (napi_has_named_property(env, argv[1], "wholeKeys", &has) == napi_ok && has &&
        napi_get_named_property(env, argv[1], "wholeKeys", &v) == napi_ok &&
        napi_coerce_to_bool(env, v, &v) == napi_ok && napi_get_value_bool(env, v, &whole_keys) != napi_ok)
      whole_keys = false;
  }
  (void)self;
  bool is_array = false;
  NAPI_CALL(env, napi_is_array(env, argv[0], &is_array));
  if (!is_array) {
    napi_throw_type_error(env, "QT_ETYPE", "pi-question: decodeKeys takes an array of strings");
    return NULL;
  }
  uint32_t n = 0;
  NAPI_CALL(env, napi_get_array_length(env, argv[0], &n));
  decode_ctx c = {env, NULL, 0, false};
  NAPI_CALL(env, napi_create_array(env, &c.arr));
  qt_decoder *d = NULL;
  qt_status st = qt_decoder_create(&d);
  if (st) return throw_status(env, st, NULL);
  qt_decoder_set_whole_keys(d, whole_keys);
  for (uint32_t i = 0; i < n && !c.failed && !st; i++) {
    napi_value chunk;
    if (napi_get_element(env, argv[0], i, &chunk) != napi_ok) {
      c.failed = true;
      break;
    }
    size_t len;
    char *bytes = get_string(env, chunk, &len, "a chunk");
    if (!bytes) {
      qt_decoder_destroy(d);
      return NULL;
    }
    st = qt_decoder_feed(d, bytes, len, collect_event, &c);
    free(bytes);
  }
  if (!st && !c.failed) st = qt_decoder_flush(d, collect_event, &c);
  qt_decoder_destroy(d);
  if (st) return throw_status(env, st, NULL);
  if (c.failed) {
    throw_coded(env, "QT_ENAPI", "pi-question: could not build the key events", false);
    return NULL;
  }
  return c.arr;
}

static napi_value js_parse_key_id(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 1, argv, self);
  (void)self;
  char *id = get_string(env, argv[0], NULL, "the key id");
  if (!id) return NULL;
  uint32_t key = 0;
  unsigned mods = 0;
  bool ok = qt_key_parse(id, &key, &mods);
  free(id);
  napi_value v;
  if (!ok) {
    NAPI_CALL(env, napi_get_null(env, &v));
    return v;
  }
  napi_value k, m;
  NAPI_CALL(env, napi_create_object(env, &v));
  NAPI_CALL(env, napi_create_uint32(env, key, &k));
  NAPI_CALL(env, napi_create_uint32(env, mods, &m));
  NAPI_CALL(env, napi_set_named_property(env, v, "key", k));
  NAPI_CALL(env, napi_set_named_property(env, v, "mods", m));
  return v;
}


/* ---- the question on a terminal (a thread of its own) -------------------------------------- */
/* The run blocks a thread for as long as the person takes, so it gets a thread of its own, not
 * one of libuv's pool (Node joins the pool at exit: a question left open would hold the
 * process). On POSIX its signals are blocked (qt_thread_start: they go to Node's threads; the
 * runner's handlers reach the run through the wake pipe). The result comes back through a thread-safe function, which keeps the
 * event loop alive while the question is open, like any pending I/O.
 *
 * Lifetime: the job is freed when the run (released by the thread-safe function's finalizer),
 * the JS handle and its stop() have all let go. At environment teardown (a worker terminated,
 * the main environment freed) the cleanup hook — registered after the thread-safe function, so
 * it runs before that function is torn down — stops the run and joins the thread, waiting at
 * most QT_TTY_EXIT_WAIT_MS; a thread still running then is abandoned with its job (never freed,
 * never called back). process.exit does not tear environments down: tty.c's exit hook stops the
 * run there, and the thread calls nothing once qt_tty_exiting() says so. */
typedef struct tty_job {
  qt_request *req;
  qt_engine *engine;
  qt_tty *tty;
  char mode[32];
  unsigned flags;          /* qt_result_build_ex flags */
  qt_status status;        /* of qt_tty_run (written by the thread before it reports) */
  qt_tty_access refusal;   /* why the run refused to start, if it did */
  napi_env env;
  napi_threadsafe_function done_fn;
  napi_deferred deferred;
  qt_thread *thread;
  qt_gate *gate;           /* guards ended and abandoned */
  bool ended;              /* the thread is past its last use of the engine and the terminal */
  bool abandoned;          /* teardown gave up waiting: the thread calls nothing, the job is kept */
  bool joined;
  bool hooked;             /* the env cleanup hook is registered */
  bool finished;           /* the promise was settled (main thread); stop() does nothing afterwards */
  int refs;                /* main thread only: the run, the JS handle, stop() */
} tty_job;

static void tty_job_release(tty_job *job) {
  if (--job->refs > 0) return;
  qt_tty_close(job->tty);
  qt_engine_destroy(job->engine);
  qt_request_free(job->req);
  qt_gate_destroy(job->gate);
  free(job);
}

static void tty_thread(void *data) {
  tty_job *job = data;
  qt_status st = qt_tty_run(job->tty, job->engine);
  qt_gate_lock(job->gate);
  job->status = st;
  job->refusal = qt_tty_refusal(job->tty);
  job->ended = true;
  if (!job->abandoned && !qt_tty_exiting())
    napi_call_threadsafe_function(job->done_fn, NULL, napi_tsfn_nonblocking);
  qt_gate_broadcast(job->gate);
  qt_gate_unlock(job->gate);
}

static void tty_join(tty_job *job) {
  if (job->joined) return;
  qt_thread_join(job->thread);
  job->thread = NULL;
  job->joined = true;
}

/* Environment teardown with the run still open: stop it and wait (bounded) for the thread. */
static void tty_env_cleanup(void *data) {
  tty_job *job = data;
  job->hooked = false;
  qt_tty_stop(job->tty);
  int64_t until = qt_clock_wall_ms() + QT_TTY_EXIT_WAIT_MS;
  qt_gate_lock(job->gate);
  while (!job->ended && qt_gate_wait_until(job->gate, until)) {
  }
  bool ended = job->ended;
  if (!ended) job->abandoned = true;
  qt_gate_unlock(job->gate);
  if (ended) {
    tty_join(job);
  } else {
    qt_thread_detach(job->thread);
    job->thread = NULL;
    job->joined = true;
  }
}

static void tty_settle(napi_env env, tty_job *job) {
  job->finished = true;
  napi_value value = NULL;
  if (job->status == QT_OK) {
    /* An answer from elsewhere that took the question (claim()) closed it: whatever the person
     * pressed is not their answer, and what they wrote goes back (typed, and their words to the
     * agent when their key was Ctrl+T's) for the host to keep. */
    bool elsewhere = qt_tty_claimed_elsewhere(job->tty);
    bool words = elsewhere && qt_engine_done(job->engine) && qt_engine_outcome(job->engine) == QT_DISCUSS;
    qt_outcome outcome = !elsewhere && qt_engine_done(job->engine) ? qt_engine_outcome(job->engine) : QT_INTERRUPTED;
    char *details = NULL, *text = NULL;
    int64_t at = qt_clock_wall_ms();
    qt_status st = qt_result_build_ex(job->req, qt_engine_answers(job->engine), outcome, job->mode, at,
                                      outcome == QT_DISCUSS ? qt_engine_discussion(job->engine) : NULL,
                                      job->flags | qt_engine_result_flags(job->engine), &details, &text);
    if (!st && napi_create_object(env, &value) == napi_ok &&
        set_prop(env, value, "details", make_string(env, details, NAPI_AUTO_LENGTH)) &&
        set_prop(env, value, "text", make_string(env, text, NAPI_AUTO_LENGTH)) &&
        set_prop(env, value, "typed", typed_array(env, job->req, job->engine)) && /* kept by a host that was not answered */
        set_prop(env, value, "elsewhere", make_bool(env, elsewhere)) &&
        (!words || set_prop(env, value, "discussion", make_string(env, qt_engine_discussion(job->engine), NAPI_AUTO_LENGTH)))) {
      napi_resolve_deferred(env, job->deferred, value);
    } else {
      napi_value msg, err;
      napi_create_string_utf8(env, "pi-question: could not build the result", NAPI_AUTO_LENGTH, &msg);
      napi_create_error(env, NULL, msg, &err);
      napi_reject_deferred(env, job->deferred, err);
    }
    free(details);
    free(text);
  } else {
    napi_value msg, err, code;
    bool owned = job->refusal == QT_TTY_OWNED;
    const char *why = owned ? "pi-question: another program owns the terminal (it is in raw mode, or this process is not in its foreground process group); not asking there"
                      : job->status == QT_ERR_STATE ? "pi-question: the terminal could not be used (another question holds it, or it refused raw mode)"
                      : job->status == QT_ERR_NOMEM ? "pi-question: out of memory while asking on the terminal"
                                                    : "pi-question: the terminal question failed";
    napi_create_string_utf8(env, why, NAPI_AUTO_LENGTH, &msg);
    napi_create_string_utf8(env, owned ? "QT_ETTYOWNED" : qt_status_code(job->status ? job->status : QT_ERR_STATE),
                            NAPI_AUTO_LENGTH, &code);
    napi_create_error(env, code, msg, &err);
    napi_reject_deferred(env, job->deferred, err);
  }
}

/* On the main thread once the thread reported (env NULL: the function is being torn down). */
static void tty_done_js(napi_env env, napi_value js_cb, void *context, void *data) {
  (void)js_cb;
  (void)data;
  tty_job *job = context;
  if (!env) return;
  tty_join(job); /* the thread is at its last lines */
  if (job->hooked) {
    napi_remove_env_cleanup_hook(env, tty_env_cleanup, job);
    job->hooked = false;
  }
  tty_settle(env, job);
  napi_release_threadsafe_function(job->done_fn, napi_tsfn_release);
}

static void tty_done_finalize(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  tty_job *job = data;
  if (job->hooked) {
    napi_remove_env_cleanup_hook(env, tty_env_cleanup, job);
    job->hooked = false;
  }
  /* Torn down before the thread reported (normally the hook did this already): stop, wait. */
  if (!job->joined) tty_env_cleanup(job);
  if (!job->abandoned) tty_job_release(job);
}

static void tty_handle_free(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  tty_job_release(data);
}

static napi_value js_tty_stop(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  void *data = NULL;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, NULL, NULL, &data));
  tty_job *job = data;
  if (job && !job->finished) qt_tty_stop(job->tty);
  return NULL;
}

/* claim(): an answer from elsewhere takes the question (claim at the key, qt_tty.h): true when
 * it did (the run closes), else the outcome the person's key took it with. */
static napi_value js_tty_claim(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  void *data = NULL;
  NAPI_CALL(env, napi_get_cb_info(env, info, &argc, NULL, NULL, &data));
  tty_job *job = data;
  qt_outcome here = QT_INTERRUPTED;
  napi_value v;
  if (job && qt_tty_claim(job->tty, &here)) {
    NAPI_CALL(env, napi_get_boolean(env, true, &v));
    return v;
  }
  return make_string(env, qt_outcome_name(here), NAPI_AUTO_LENGTH);
}

static napi_value js_tty_status(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 1, argv, self);
  (void)self;
  char *path = get_string(env, argv[0], NULL, "the terminal path");
  if (!path) return NULL;
  qt_tty_access a = qt_tty_probe(path);
  free(path);
  napi_value v;
  NAPI_CALL(env, napi_create_string_utf8(env, qt_tty_access_name(a), NAPI_AUTO_LENGTH, &v));
  return v;
}

static napi_value js_tty_available(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 1, argv, self);
  (void)self;
  char *path = get_string(env, argv[0], NULL, "the terminal path");
  if (!path) return NULL;
  bool ok = qt_tty_probe(path) == QT_TTY_FREE;
  free(path);
  napi_value v;
  NAPI_CALL(env, napi_get_boolean(env, ok, &v));
  return v;
}

static char *get_named_string(napi_env env, napi_value obj, const char *key) {
  bool has = false;
  napi_value v;
  if (napi_has_named_property(env, obj, key, &has) != napi_ok || !has) return NULL;
  if (napi_get_named_property(env, obj, key, &v) != napi_ok || is_nullish(env, v)) return NULL;
  return get_string(env, v, NULL, key);
}

/* Starts the thread (on POSIX with every signal blocked in it: qt_thread.h). */
static bool tty_start_thread(tty_job *job) { return qt_thread_start(tty_thread, job, &job->thread) == QT_OK; }

static napi_value js_run_tty(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 2, argv, self);
  (void)self;
  napi_valuetype t;
  NAPI_CALL(env, napi_typeof(env, argv[1], &t));
  if (t != napi_object) {
    napi_throw_type_error(env, "QT_ETYPE", "pi-question: runTty takes (json, { path, color, mode })");
    return NULL;
  }
  char *path = get_named_string(env, argv[1], "path");
  char *mode = get_named_string(env, argv[1], "mode");
  char *language = get_named_string(env, argv[1], "language");
  char *asker_name = get_named_string(env, argv[1], "askerName");
  char *asker_where = get_named_string(env, argv[1], "askerWhere");
  size_t notice_len = 0;
  char *notice = NULL;
  {
    bool has_notice = false;
    napi_value nv;
    napi_valuetype nt;
    if (napi_has_named_property(env, argv[1], "notice", &has_notice) == napi_ok && has_notice &&
        napi_get_named_property(env, argv[1], "notice", &nv) == napi_ok && napi_typeof(env, nv, &nt) == napi_ok &&
        nt == napi_string)
      notice = get_string(env, nv, &notice_len, "the desktop notice");
  }
  bool pending = false;
  napi_is_exception_pending(env, &pending);
  bool color = true, cancel_continues = false;
  napi_value cv;
  bool has = false;
  if (!pending && napi_has_named_property(env, argv[1], "color", &has) == napi_ok && has &&
      napi_get_named_property(env, argv[1], "color", &cv) == napi_ok)
    napi_get_value_bool(env, cv, &color);
  if (!pending && napi_has_named_property(env, argv[1], "cancelContinues", &has) == napi_ok && has &&
      napi_get_named_property(env, argv[1], "cancelContinues", &cv) == napi_ok)
    napi_get_value_bool(env, cv, &cancel_continues);
  /* the person's settings: accessible (bool), timeoutMs (number), timeoutThen ("cancel" | "decline" | "recommended") */
  bool accessible = false;
  double timeout_ms = 0;
  int timeout_then = 0;
  char *then_name = pending ? NULL : get_named_string(env, argv[1], "timeoutThen");
  if (!pending && napi_has_named_property(env, argv[1], "accessible", &has) == napi_ok && has &&
      napi_get_named_property(env, argv[1], "accessible", &cv) == napi_ok)
    napi_get_value_bool(env, cv, &accessible);
  if (!pending && napi_has_named_property(env, argv[1], "timeoutMs", &has) == napi_ok && has &&
      napi_get_named_property(env, argv[1], "timeoutMs", &cv) == napi_ok && !is_nullish(env, cv))
    napi_get_value_double(env, cv, &timeout_ms);
  for (int i = 0; then_name && i < 3; i++)
    if (strcmp(then_name, TIMEOUT_THEN_NAMES[i]) == 0) timeout_then = i;
  free(then_name);
  napi_is_exception_pending(env, &pending);
  tty_job *job = pending ? NULL : calloc(1, sizeof *job);
  napi_value out = NULL;
  if (!job) {
    if (!pending) throw_coded(env, "QT_ENOMEM", "pi-question: out of memory", false);
    goto done;
  }
  snprintf(job->mode, sizeof job->mode, "%s", mode ? mode : "tty");
  job->flags = cancel_continues ? QT_RESULT_CANCEL_CONTINUES : 0;
  job->env = env;
  job->joined = true; /* no thread yet */
  job->refs = 1;
  if (qt_gate_create(&job->gate) != QT_OK) {
    throw_coded(env, "QT_ENOMEM", "pi-question: out of memory", false);
    goto fail;
  }
  if (!(job->req = parse_request_arg(env, argv[0]))) goto fail;
  qt_status st = qt_engine_create(job->req, &job->engine);
  if (!st && (st = qt_tty_open(path ? path : "/dev/tty", &job->tty)) == QT_ERR_STATE) {
    throw_coded(env, "QT_ESTATE",
                "pi-question: the terminal cannot be used: it cannot be opened, it is not a terminal, or (macOS) its "
                "file descriptor is not below FD_SETSIZE, which select() needs",
                false);
    goto fail;
  }
  if (st) {
    throw_status(env, st, NULL);
    goto fail;
  }
  qt_tty_set_color(job->tty, color);
  if (notice_len && (st = qt_tty_set_notice(job->tty, notice, notice_len))) {
    throw_status(env, st, NULL);
    goto fail;
  }
  if (language) qt_engine_set_language(job->engine, qt_language_from_tag(language));
  if (accessible) qt_engine_set_accessible(job->engine, true);
  if (timeout_ms >= 1 && timeout_ms <= 9.0e15) qt_engine_set_timeout(job->engine, (int64_t)timeout_ms, (qt_timeout_then)timeout_then);
  if ((asker_name || asker_where) && (st = qt_engine_set_asker(job->engine, asker_name, asker_where))) {
    throw_status(env, st, NULL);
    goto fail;
  }
  napi_value promise, name, stop;
  if (napi_create_promise(env, &job->deferred, &promise) != napi_ok ||
      napi_create_object(env, &out) != napi_ok ||
      napi_create_function(env, "stop", NAPI_AUTO_LENGTH, js_tty_stop, job, &stop) != napi_ok ||
      napi_set_named_property(env, out, "stop", stop) != napi_ok ||
      napi_set_named_property(env, out, "done", promise) != napi_ok ||
      napi_add_finalizer(env, out, job, tty_handle_free, NULL, NULL) != napi_ok) {
    throw_coded(env, "QT_ENAPI", "pi-question: could not start the terminal question", false);
    out = NULL;
    goto fail;
  }
  /* From here the JS handle holds the first reference. stop() and claim() carry the job too and
   * may outlive the handle (destructuring): a reference each. */
  if (napi_add_finalizer(env, stop, job, tty_handle_free, NULL, NULL) != napi_ok) {
    /* The job stays allocated (stop() may still point at it): a small leak beats a dangling pointer. */
    job->finished = true;
    throw_coded(env, "QT_ENAPI", "pi-question: could not start the terminal question", false);
    out = NULL;
    goto done;
  }
  job->refs++;
  napi_value claim;
  if (napi_create_function(env, "claim", NAPI_AUTO_LENGTH, js_tty_claim, job, &claim) != napi_ok ||
      napi_add_finalizer(env, claim, job, tty_handle_free, NULL, NULL) != napi_ok) {
    job->finished = true; /* the handle and stop() release the rest */
    throw_coded(env, "QT_ENAPI", "pi-question: could not start the terminal question", false);
    out = NULL;
    goto done;
  }
  job->refs++;
  if (napi_set_named_property(env, out, "claim", claim) != napi_ok) {
    job->finished = true;
    throw_coded(env, "QT_ENAPI", "pi-question: could not start the terminal question", false);
    out = NULL;
    goto done;
  }
  if (napi_create_string_utf8(env, "pi-question-tty", NAPI_AUTO_LENGTH, &name) != napi_ok ||
      napi_create_threadsafe_function(env, NULL, NULL, name, 0, 1, job, tty_done_finalize, job, tty_done_js,
                                      &job->done_fn) != napi_ok) {
    job->finished = true; /* the handle and stop() release the rest */
    throw_coded(env, "QT_ENAPI", "pi-question: could not start the terminal question", false);
    out = NULL;
    goto done;
  }
  job->refs++; /* the run: released by tty_done_finalize */
  /* After the function: cleanup hooks run in reverse order, so this one comes before its teardown. */
  job->hooked = napi_add_env_cleanup_hook(env, tty_env_cleanup, job) == napi_ok;
  job->joined = false;
  if (!tty_start_thread(job)) {
    job->joined = true;
    job->ended = true;
    job->status = QT_ERR_NOMEM;
    if (job->hooked) napi_remove_env_cleanup_hook(env, tty_env_cleanup, job);
    job->hooked = false;
    tty_settle(env, job); /* rejects the promise */
    napi_release_threadsafe_function(job->done_fn, napi_tsfn_release);
  }
  goto done;
fail:
  if (job) tty_job_release(job);
done:
  free(path);
  free(mode);
  free(language);
  free(asker_name);
  free(asker_where);
  free(notice);
  return out;
}

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
static napi_value js_lock_file(napi_env env, napi_callback_info info) {
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
        snprintf(msg, sizeof msg, "pi-question: %s is held by another lock holder (waited %u ms)", path, (unsigned)timeout_ms);
      else
        snprintf(msg, sizeof msg, "pi-question: could not lock %s: %s", path, strerror(sys_error));
      if (napi_create_string_utf8(env, busy ? "QT_ELOCKED" : "QT_ELOCK", NAPI_AUTO_LENGTH, &code) == napi_ok &&
          napi_create_string_utf8(env, msg, NAPI_AUTO_LENGTH, &text) == napi_ok &&
          napi_create_error(env, code, text, &error) == napi_ok) {
        if (!busy && napi_create_int32(env, sys_error, &num) == napi_ok) napi_set_named_property(env, error, "errno", num);
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

/* ---- strings ------------------------------------------------------------------------------------ */
static napi_value js_strings(napi_env env, napi_callback_info info) {
  GET_ARGS(env, info, 1, argv, self);
  (void)self;
  char *tag = get_string(env, argv[0], NULL, "the language");
  if (!tag) return NULL;
  qt_language lang = qt_language_from_tag(tag);
  free(tag);
  napi_value obj, v;
  NAPI_CALL(env, napi_create_object(env, &obj));
  for (int id = 0; id < QT_STR_COUNT; id++) {
    NAPI_CALL(env, napi_create_string_utf8(env, qt_string(lang, (qt_string_id)id), NAPI_AUTO_LENGTH, &v));
    NAPI_CALL(env, napi_set_named_property(env, obj, qt_string_name((qt_string_id)id), v));
  }
  NAPI_CALL(env, napi_create_string_utf8(env, qt_language_tag(lang), NAPI_AUTO_LENGTH, &v));
  NAPI_CALL(env, napi_set_named_property(env, obj, "$language", v));
  return obj;
}

/* ---- module ---------------------------------------------------------------------------------- */
static napi_value limits_object(napi_env env) {
  static const struct {
    const char *name;
    double value;
  } limits[] = {
      {"argumentBytes", QT_MAX_ARGUMENT_BYTES},   {"questions", QT_MAX_QUESTIONS},
      {"options", QT_MAX_OPTIONS},                {"idBytes", QT_MAX_ID_BYTES},
      {"labelBytes", QT_MAX_LABEL_BYTES},         {"promptBytes", QT_MAX_PROMPT_BYTES},
      {"optionLabelBytes", QT_MAX_OPTION_LABEL_BYTES}, {"optionValueBytes", QT_MAX_OPTION_VALUE_BYTES},
      {"descriptionBytes", QT_MAX_DESCRIPTION_BYTES}, {"previewBytes", QT_MAX_PREVIEW_BYTES},
      {"metadataSourceBytes", QT_MAX_METADATA_SOURCE_BYTES}, {"askerBytes", QT_MAX_ASKER_BYTES}, {"answerBytes", QT_MAX_ANSWER_BYTES},
      {"softAnswerChars", QT_SOFT_ANSWER_CHARS},  {"tabLabelColumns", QT_TAB_LABEL_COLUMNS},
      {"jsonDepth", QT_MAX_JSON_DEPTH},           {"resultTextBytes", QT_MAX_RESULT_TEXT_BYTES}, {"preparedBytes", QT_MAX_PREPARED_BYTES},
      {"discussBytes", QT_MAX_DISCUSS_BYTES},     {"answersJsonBytes", QT_MAX_ANSWERS_JSON_BYTES},
      {"noteBytes", QT_MAX_NOTE_BYTES},           {"filterBytes", QT_MAX_FILTER_BYTES},
      {"keysPerAction", QT_MAX_KEYS},
      {"noticeTitleBytes", QT_NOTICE_TITLE_BYTES}, {"noticeBodyBytes", QT_NOTICE_BODY_BYTES},
      {"answersJsonValues", QT_MAX_ANSWERS_JSON_VALUES},
      {"relayMessageBytes", QT_MAX_RELAY_MESSAGE_BYTES},
      {"webBodyBytes", QT_WEB_MAX_BODY_BYTES},    {"webUnverifiedBodyBytes", QT_WEB_UNVERIFIED_BODY_BYTES},    {"webRateBurst", QT_WEB_RATE_BURST},
      {"webRatePerMinute", QT_WEB_RATE_PER_MINUTE}, {"webEventStreams", QT_WEB_MAX_EVENT_STREAMS},
      {"webTokenBytes", QT_WEB_TOKEN_BYTES},      {"remoteEndedRemembered", QT_REMOTE_ENDED_REMEMBERED},
      {"webStreamBacklogBytes", QT_WEB_STREAM_BACKLOG_BYTES},
      {"relayUnverifiedBytes", QT_RELAY_UNVERIFIED_BYTES}, {"relayUnverifiedMs", QT_RELAY_UNVERIFIED_MS},
      {"relayMaxUnverified", QT_RELAY_MAX_UNVERIFIED}, {"relayMaxConnections", QT_RELAY_MAX_CONNECTIONS},
      {"relayMaxWaiting", QT_RELAY_MAX_WAITING},
      {"relayAskMessageBytes", QT_RELAY_ASK_MESSAGE_BYTES}, {"relayMaxAskConnections", QT_RELAY_MAX_ASK_CONNECTIONS},
      {"relayAskHeldBytes", QT_RELAY_ASK_HELD_BYTES}, {"relayHeldBytes", QT_RELAY_HELD_BYTES},
      {"relayLineMs", QT_RELAY_LINE_MS},
      {"remoteConnectMs", QT_REMOTE_CONNECT_MS},  {"remoteReplyMs", QT_REMOTE_REPLY_MS},
      {"pendingLockRetryMs", QT_PENDING_LOCK_RETRY_MS}, {"pendingLockGiveUpMs", QT_PENDING_LOCK_GIVE_UP_MS},
  };
  napi_value obj;
  NAPI_CALL(env, napi_create_object(env, &obj));
  for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
    napi_value v;
    NAPI_CALL(env, napi_create_double(env, limits[i].value, &v));
    NAPI_CALL(env, napi_set_named_property(env, obj, limits[i].name, v));
  }
  NAPI_CALL(env, napi_object_freeze(env, obj));
  return obj;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"normalize", NULL, js_normalize, NULL, NULL, NULL, napi_enumerable, NULL},
      {"result", NULL, js_result, NULL, NULL, NULL, napi_enumerable, NULL},
      {"createEngine", NULL, js_create_engine, NULL, NULL, NULL, napi_enumerable, NULL},
      {"visibleWidth", NULL, js_visible_width, NULL, NULL, NULL, napi_enumerable, NULL},
      {"graphemes", NULL, js_graphemes, NULL, NULL, NULL, napi_enumerable, NULL},
      {"setWidthRules", NULL, js_set_width_rules, NULL, NULL, NULL, napi_enumerable, NULL},
      {"widthRules", NULL, js_width_rules, NULL, NULL, NULL, napi_enumerable, NULL},
      {"sanitize", NULL, js_sanitize, NULL, NULL, NULL, napi_enumerable, NULL},
      {"desktopNotice", NULL, js_desktop_notice, NULL, NULL, NULL, napi_enumerable, NULL},
      {"decodeKeys", NULL, js_decode_keys, NULL, NULL, NULL, napi_enumerable, NULL},
      {"parseKeyId", NULL, js_parse_key_id, NULL, NULL, NULL, napi_enumerable, NULL},
      {"ttyAvailable", NULL, js_tty_available, NULL, NULL, NULL, napi_enumerable, NULL},
      {"ttyStatus", NULL, js_tty_status, NULL, NULL, NULL, napi_enumerable, NULL},
      {"runTty", NULL, js_run_tty, NULL, NULL, NULL, napi_enumerable, NULL},
      {"strings", NULL, js_strings, NULL, NULL, NULL, napi_enumerable, NULL},
      {"lockFile", NULL, js_lock_file, NULL, NULL, NULL, napi_enumerable, NULL},
      {"_textWork", NULL, js_text_work, NULL, NULL, NULL, napi_default, NULL},
      {"_normalizeInC", NULL, js_normalize_in_c, NULL, NULL, NULL, napi_default, NULL},
      {"_graphemesBackward", NULL, js_graphemes_backward, NULL, NULL, NULL, napi_default, NULL},
  };
  NAPI_CALL(env, napi_define_properties(env, exports, sizeof props / sizeof props[0], props));
  if (!define_engine_class(env)) {
    napi_throw_error(env, "QT_ENAPI", "pi-question: could not define the Engine class");
    return NULL;
  }
  napi_value limits = limits_object(env);
  if (!limits) return NULL;
  NAPI_CALL(env, napi_set_named_property(env, exports, "limits", limits));
  return exports;
}

NAPI_MODULE_INIT() { return init(env, exports); }
