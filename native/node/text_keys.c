/* text_keys.c — the core's text and key services for the extension and the tests: display
 * width under pi-tui's rules, graphemes, sanitizing, desktop notices, key decoding and key ids;
 * and two probes only the tests call (_textWork, _graphemesBackward, not enumerable). */
#include <stdlib.h>

#include "exports.h"
#include "marshal.h"
#include "qt_keys.h"
#include "qt_notice.h"
#include "qt_text.h"

/* ---- text and keys (for tests and the shim) ---------------------------------------------------- */
/* Tests only (not enumerable): code points the segmenter looked at on this thread so far. */
napi_value js_text_work(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value v;
  NAPI_CALL(env, napi_create_double(env, (double)qt_text_work(), &v));
  return v;
}

static const char WIDTH_RULES_USAGE[] = "pi-question: setWidthRules takes { spacingMarks: boolean, "
                                        "currentEastAsianWidth: boolean, unicode15Clusters: boolean }";
static const struct {
  const char *name;
  unsigned flag;
} WIDTH_RULE_FLAGS[] = {{"spacingMarks", QT_WIDTH_SPACING_MARKS},
                        {"currentEastAsianWidth", QT_WIDTH_CURRENT_EAW},
                        {"unicode15Clusters", QT_WIDTH_UNICODE15_CLUSTERS}};

napi_value js_set_width_rules(napi_env env, napi_callback_info info) {
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

napi_value js_width_rules(napi_env env, napi_callback_info info) {
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

napi_value js_visible_width(napi_env env, napi_callback_info info) {
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
napi_value js_graphemes_backward(napi_env env, napi_callback_info info) {
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
      if (napi_create_string_utf8(env, s + from, to - from, &g) != napi_ok ||
          napi_set_element(env, arr, (uint32_t)k, g) != napi_ok) {
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

napi_value js_graphemes(napi_env env, napi_callback_info info) {
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
      if (napi_create_string_utf8(env, s + pos, next - pos, &g) != napi_ok ||
          napi_set_element(env, arr, k++, g) != napi_ok) {
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
napi_value js_desktop_notice(napi_env env, napi_callback_info info) {
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

napi_value js_sanitize(napi_env env, napi_callback_info info) {
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
  if (ok)
    v = make_string(env, out.data ? out.data : "", out.len);
  else
    throw_coded(env, "QT_ENOMEM", "pi-question: out of memory", false);
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
    if (ev->repeat &&
        (napi_get_boolean(env, true, &v) != napi_ok || napi_set_named_property(env, obj, "repeat", v) != napi_ok))
      goto fail;
  }
  if (napi_set_element(env, c->arr, c->n++, obj) != napi_ok) goto fail;
  return true;
fail:
  c->failed = true;
  return false;
}

napi_value js_decode_keys(napi_env env, napi_callback_info info) {
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

napi_value js_parse_key_id(napi_env env, napi_callback_info info) {
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
