/* engine_class.c — the Engine class: createEngine(json) wraps a qt_engine (with its request)
 * in a JS object whose methods live once on the class's prototype: feed, render, result, act,
 * view and the rest (the list in define_engine_class). Each engine reports the native memory
 * it holds to V8, keeps its last frame's line strings to hand out again, and refuses calls made
 * while one of its own calls runs JS. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exports.h"
#include "marshal.h"
#include "qt_engine.h"
#include "qt_text.h"
#include "qt_thread.h"

/* ---- Engine ---------------------------------------------------------------------------------- */

/* A frame's lines as bytes, kept to compare the next frame with, line by line. Both caches
 * below hold one: the line strings render() hands out again, and the frame renderChanges
 * handed out last. */
typedef struct frame_bytes {
  char *bytes; /* the lines' bytes, one after another */
  size_t bytes_cap;
  size_t *ends; /* line i is bytes[ends[i-1] (or 0) .. ends[i]) */
  size_t ends_cap, count;
  bool valid; /* false: nothing kept (or forgotten): every line is new */
} frame_bytes;

static void frame_bytes_clear(frame_bytes *f) {
  free(f->bytes);
  free(f->ends);
  *f = (frame_bytes){0};
}

/* True when line i of the frame kept was s[0..len). */
static bool frame_bytes_same(const frame_bytes *f, size_t i, const char *s, size_t len) {
  if (!f->valid || i >= f->count) return false;
  size_t start = i ? f->ends[i - 1] : 0;
  return f->ends[i] - start == len && memcmp(f->bytes + start, s, len) == 0;
}

/* Keeps the frame; false (and nothing valid kept) when out of memory. */
static bool frame_bytes_keep(frame_bytes *f, const char *const *lines, const size_t *lens, size_t count) {
  size_t total = 0;
  for (size_t i = 0; i < count; i++) total += lens[i];
  f->valid = false;
  if (total + 1 > f->bytes_cap) {
    char *b = realloc(f->bytes, total + 1);
    if (!b) return false;
    f->bytes = b, f->bytes_cap = total + 1;
  }
  if (count > f->ends_cap) {
    size_t *e = realloc(f->ends, count * sizeof *e);
    if (!e) return false;
    f->ends = e, f->ends_cap = count;
  }
  size_t at = 0;
  for (size_t i = 0; i < count; i++) {
    memcpy(f->bytes + at, lines[i], lens[i]);
    f->ends[i] = at += lens[i];
  }
  f->count = count;
  f->valid = true;
  return true;
}

/* The lines of an engine's last frame, kept so that frame_array can hand a line that did not
 * change out as the same string again: each line's bytes, and the string made from them in a
 * JS array that no script ever sees (so reading it back runs no JS and cannot have been
 * changed). Its elements are defined once and then only overwritten, which runs no setter. */
typedef struct line_cache {
  napi_ref strings; /* element i: the string of line i; weak (see engine_box) */
  size_t defined;   /* elements defined in it */
  frame_bytes kept; /* the lines those strings were made from */
} line_cache;

static void line_cache_clear(napi_env env, line_cache *c) {
  if (c->strings) napi_delete_reference(env, c->strings);
  frame_bytes_clear(&c->kept);
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

/* Keeps the frame just handed out (its lines and the strings in props[i].value) for the next. */
static void line_cache_keep(napi_env env, line_cache *c, const char *const *lines, const size_t *lens,
                            const napi_property_descriptor *props, size_t count) {
  napi_value arr = NULL;
  bool ok = c->strings && napi_get_reference_value(env, c->strings, &arr) == napi_ok && arr;
  for (size_t i = 0; ok && i < count && i < c->defined; i++)
    if (!frame_bytes_same(&c->kept, i, lines[i], lens[i]))
      ok = napi_set_element(env, arr, (uint32_t)i, props[i].value) == napi_ok;
  if (ok && count > c->defined) {
    ok = napi_define_properties(env, arr, count - c->defined, props + c->defined) == napi_ok;
    if (ok) c->defined = count;
  }
  if (!ok || !frame_bytes_keep(&c->kept, lines, lens, count)) line_cache_clear(env, c);
}

/* The frame renderChanges handed out last, and the revision, size and width rules it was drawn at. */
typedef struct shown_frame {
  frame_bytes lines;
  uint64_t revision;
  int width, rows;
  unsigned rules;
} shown_frame;

/* Re-entrancy: a method that lets JS run before it is done with the engine (a getter on the keys
 * array bind() reads) marks the box busy meanwhile, and every method called while it is busy —
 * dispose() included — throws QT_ESTATE instead of changing or freeing memory still in use.
 * Methods that hand results back build them without running JS (set_prop, frame_array). */
typedef struct engine_box {
  qt_request *req;
  qt_engine *engine;
  napi_ref frame;    /* cached JS array of the last frame; weak (below) */
  line_cache lines;  /* the last frame's line strings, to hand out again unchanged */
  shown_frame shown; /* the frame renderChanges handed out last */
  uint64_t frame_revision;
  int frame_width;
  int frame_rows;
  unsigned frame_rules; /* the width rules it was drawn under (setWidthRules) */
  bool busy;            /* inside a method that may run JS: nested calls throw QT_ESTATE */
  size_t request_bytes; /* qt_request_footprint of req (a request never changes) */
  int64_t reported;     /* native bytes V8 was told this engine holds */
} engine_box;

/* ---- the engines of this thread ---------------------------------------------------------------
 * Every engine box made on this thread (a JS environment runs on one thread, and so do its
 * finalizers), by address, in an open-addressed set. A method takes what napi_unwrap gives for
 * its object only when it is one of these: an object another addon wrapped gives that addon's
 * pointer, which is compared, never read. (A type tag checked at every call did the same for
 * 0.15 µs a call, two calls a keystroke.) */
static _Thread_local struct {
  engine_box **slot; /* cap entries, NULL where free; cap a power of two, at most half full */
  size_t cap, count;
} live;

static size_t live_home(const engine_box *box) {
  uint64_t h = (uint64_t)(uintptr_t)box;
  h ^= h >> 29;
  h *= 0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 32) & (live.cap - 1);
}

static bool live_has(const engine_box *box) {
  if (!live.cap || !box) return false;
  for (size_t i = live_home(box);; i = (i + 1) & (live.cap - 1)) {
    if (live.slot[i] == box) return true;
    if (!live.slot[i]) return false;
  }
}

static bool live_add(engine_box *box) {
  if ((live.count + 1) * 2 > live.cap) {
    size_t cap = live.cap ? live.cap * 2 : 64;
    engine_box **slot = calloc(cap, sizeof *slot), **old = live.slot;
    if (!slot) return false;
    size_t old_cap = live.cap;
    live.slot = slot, live.cap = cap;
    for (size_t i = 0; i < old_cap; i++) {
      if (!old[i]) continue;
      size_t j = live_home(old[i]);
      while (slot[j]) j = (j + 1) & (cap - 1);
      slot[j] = old[i];
    }
    free(old);
    qt_keep_until_thread_end(QT_KEEP_ENGINES, slot); /* freed with the thread */
  }
  size_t i = live_home(box);
  while (live.slot[i]) i = (i + 1) & (live.cap - 1);
  live.slot[i] = box;
  live.count++;
  return true;
}

/* Takes box out of the set (nothing when it is not there); the entries after it in its run move
 * back, so that every entry stays reachable from its home slot. */
static void live_remove(const engine_box *box) {
  if (!live_has(box)) return;
  size_t mask = live.cap - 1, i = live_home(box);
  while (live.slot[i] != box) i = (i + 1) & mask;
  live.slot[i] = NULL;
  live.count--;
  for (size_t j = (i + 1) & mask; live.slot[j]; j = (j + 1) & mask) {
    size_t home = live_home(live.slot[j]);
    /* stays when its home is cyclically in (i, j]: the gap at i is not on its way */
    bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
    if (stays) continue;
    live.slot[i] = live.slot[j];
    live.slot[j] = NULL;
    i = j;
  }
}
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
  int64_t now = box->engine ? (int64_t)(box->request_bytes + qt_engine_footprint(box->engine) +
                                        box->lines.kept.bytes_cap + box->lines.kept.ends_cap * sizeof(size_t) +
                                        box->shown.lines.bytes_cap + box->shown.lines.ends_cap * sizeof(size_t))
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
  frame_bytes_clear(&box->shown.lines);
  qt_engine_destroy(box->engine);
  qt_request_free(box->req);
  box->engine = NULL;
  report_memory(env, box); /* gives back what was reported */
  live_remove(box);
  free(box);
}

static engine_box *unwrap_engine(napi_env env, napi_value self) {
  void *data = NULL;
  if (napi_unwrap(env, self, &data) != napi_ok || !live_has(data)) {
    bool pending = false; /* V8's own, for null or undefined: said the same way as the rest */
    napi_value ignored;
    if (napi_is_exception_pending(env, &pending) == napi_ok && pending)
      napi_get_and_clear_last_exception(env, &ignored);
    napi_throw_type_error(env, "QT_ETYPE", "pi-question: not an Engine");
    return NULL;
  }
  if (!((engine_box *)data)->engine) {
    throw_coded(env, "QT_ESTATE", "pi-question: the Engine was already disposed", false);
    return NULL;
  }
  if (((engine_box *)data)->busy) {
    throw_coded(env, "QT_ESTATE", "pi-question: the Engine is busy: it was called from code one of its own calls ran",
                false);
    return NULL;
  }
  return data;
}

#define ENGINE_METHOD_PROLOGUE(max)                                                                                    \
  GET_ARGS(env, info, max, argv, self);                                                                                \
  engine_box *box = unwrap_engine(env, self);                                                                          \
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

/* press(data): feed for a host that draws frames (pi's TUI), in one crossing: the key and what
 * the host does next, as bits (PRESS_* below; interactive.ts PRESS mirrors them). The aside
 * request is taken (qt_engine_take_aside); the editor's text is left for editorRequest(). */
enum { PRESS_DONE = 1, PRESS_CHANGED = 2, PRESS_ASIDE = 4, PRESS_EDITOR = 8 };

/* A key's bytes fit here; a longer input (a paste) is read as feed() reads it. */
#define PRESS_SHORT_BYTES 256

static napi_value js_engine_press(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(1);
  /* One call for a short string. V8 stops before a character that does not fit (at most four
   * bytes), so fewer than the room minus four bytes written is the whole string. */
  char short_bytes[PRESS_SHORT_BYTES], *bytes = short_bytes;
  size_t len = 0;
  if (napi_get_value_string_utf8(env, argv[0], short_bytes, sizeof short_bytes, &len) != napi_ok ||
      len + 4 >= sizeof short_bytes - 1) {
    bool pending = false;
    if (napi_is_exception_pending(env, &pending) == napi_ok && pending) return NULL;
    if (!(bytes = get_string(env, argv[0], &len, "the input"))) return NULL; /* a Buffer, a long string, or an error */
  }
  uint64_t before = qt_engine_revision(box->engine);
  qt_status st = qt_engine_feed(box->engine, bytes, len);
  if (bytes != short_bytes) free(bytes);
  report_memory(env, box);
  if (st) return throw_status(env, st, NULL);
  const char *draft = NULL;
  size_t draft_len = 0;
  uint32_t bits = 0;
  if (qt_engine_done(box->engine)) bits |= PRESS_DONE;
  if (qt_engine_revision(box->engine) != before) bits |= PRESS_CHANGED;
  if (!(bits & PRESS_DONE) && qt_engine_take_aside(box->engine)) bits |= PRESS_ASIDE;
  if (!(bits & (PRESS_DONE | PRESS_ASIDE)) && qt_engine_editor_request(box->engine, &draft, &draft_len))
    bits |= PRESS_EDITOR;
  napi_value v;
  NAPI_CALL(env, napi_create_uint32(env, bits, &v));
  return v;
}

/* Lines of a frame whose lengths and strings renderChanges keeps on the stack. */
#define RENDER_STACK_LINES 128

/* renderChanges(width, rows, fresh): the frame render(width, rows) draws, as what changed since
 * the frame this method handed out last: undefined when it is that frame (same revision, size
 * and width rules), else an array as long as the new frame that holds line i where it differs,
 * byte for byte, from line i of that frame, and a hole where it is the same. `fresh` (the host
 * holds no frame) hands out every line. A keystroke changes two or three lines of a frame: the
 * host keeps its strings and the frame's array (interactive.ts QuestionView), so only those
 * lines cross into JS, which is most of what a keystroke cost (a property name per line,
 * internalized, and a lookup per unchanged line, when the frame was built here). */
static napi_value js_engine_render_changes(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(3);
  int32_t width = 0, rows = 0;
  bool fresh = false;
  NAPI_CALL(env, napi_get_value_int32(env, argv[0], &width));
  if (!is_nullish(env, argv[1])) NAPI_CALL(env, napi_get_value_int32(env, argv[1], &rows)); /* 0 or none: no limit */
  if (!is_nullish(env, argv[2])) NAPI_CALL(env, napi_get_value_bool(env, argv[2], &fresh));
  if (rows < 0) rows = 0;
  shown_frame *f = &box->shown;
  if (fresh) f->lines.valid = false;
  qt_engine_set_screen(box->engine, width, rows);
  uint64_t rev = qt_engine_revision(box->engine);
  unsigned rules = qt_width_rules();
  napi_value result;
  if (f->lines.valid && rev == f->revision && width == f->width && rows == f->rows && rules == f->rules) {
    NAPI_CALL(env, napi_get_undefined(env, &result));
    return result;
  }
  const char *const *lines = NULL;
  size_t count = 0;
  qt_status st = qt_engine_render(box->engine, width, rows, &lines, &count);
  if (st) {
    report_memory(env, box);
    return throw_status(env, st, NULL);
  }
  /* The changed lines' strings first (no JS runs), then the bytes kept, then the array filled:
   * an element set may run a setter a script put on Array.prototype, and by then nothing here
   * reads the engine's memory; the box is busy meanwhile, so such a setter cannot reach it. */
  /* a frame's lines fit on the stack but on the tallest terminals */
  size_t lens_here[RENDER_STACK_LINES];
  napi_value changed_here[RENDER_STACK_LINES];
  bool here = count <= RENDER_STACK_LINES;
  size_t *lens = here ? lens_here : malloc(count * sizeof *lens);
  napi_value *changed = here ? changed_here : malloc(count * sizeof *changed);
  bool ok = lens && changed;
  size_t nchanged = 0;
  for (size_t i = 0; ok && i < count; i++) {
    lens[i] = strlen(lines[i]);
    changed[i] = NULL;
    if (frame_bytes_same(&f->lines, i, lines[i], lens[i])) continue;
    ok = napi_create_string_utf8(env, lines[i], lens[i], &changed[i]) == napi_ok;
    nchanged++;
  }
  if (ok) ok = napi_create_array_with_length(env, count, &result) == napi_ok;
  bool kept_nomem = false;
  if (ok && !frame_bytes_keep(&f->lines, lines, lens, count)) {
    ok = false;
    kept_nomem = true;
  }
  if (ok) {
    f->revision = rev, f->width = width, f->rows = rows, f->rules = rules;
    box->busy = true;
    for (size_t i = 0; ok && nchanged && i < count; i++)
      if (changed[i]) ok = napi_set_element(env, result, (uint32_t)i, changed[i]) == napi_ok;
    box->busy = false;
    if (!ok) f->lines.valid = false; /* the host gets no frame: the next one is whole */
  }
  bool nomem = !lens || !changed || kept_nomem;
  if (!here) {
    free(lens);
    free(changed);
  }
  report_memory(env, box);
  if (!ok) {
    throw_coded(env, nomem ? "QT_ENOMEM" : "QT_ENAPI",
                nomem ? "pi-question: out of memory" : "pi-question: could not build the frame", false);
    return NULL;
  }
  return result;
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
    do digits[nd++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    for (size_t k = 0; k < nd; k++) names[i][k] = digits[nd - 1 - k];
    names[i][nd] = '\0';
    lens[i] = strlen(lines[i]);
    if (strings && frame_bytes_same(&cache->kept, i, lines[i], lens[i]))
      napi_get_element(env, strings, (uint32_t)i, &line);
    if (!line) ok = napi_create_string_utf8(env, lines[i], lens[i], &line) == napi_ok;
    props[i] = (napi_property_descriptor){names[i], NULL, NULL, NULL, NULL, line, napi_default_jsproperty, NULL};
  }
  if (ok) ok = napi_define_properties(env, arr, count, props) == napi_ok;
  if (ok)
    line_cache_keep(env, cache, lines, lens, props, count);
  else
    line_cache_clear(env, cache);
  bool nomem = !props || !names || !lens;
  free(props);
  free(names);
  free(lens);
  if (!ok) {
    throw_coded(env, nomem ? "QT_ENOMEM" : "QT_ENAPI",
                nomem ? "pi-question: out of memory" : "pi-question: could not build the frame", false);
    return NULL;
  }
  return arr;
}

/* render(width, rows) draws the frame the host shows: it names the screen (the keys act on the
 * frame at this size) and draws it. renderAside(width, rows) draws a frame at any size and
 * changes nothing. Both hand out the same cached array while nothing changed. */
static napi_value engine_frame(napi_env env, napi_callback_info info, bool screen) {
  ENGINE_METHOD_PROLOGUE(2);
  int32_t width = 0, rows = 0;
  NAPI_CALL(env, napi_get_value_int32(env, argv[0], &width));
  if (!is_nullish(env, argv[1])) NAPI_CALL(env, napi_get_value_int32(env, argv[1], &rows)); /* 0 or none: no limit */
  if (rows < 0) rows = 0;
  if (screen) qt_engine_set_screen(box->engine, width, rows);
  uint64_t rev = qt_engine_revision(box->engine);
  unsigned rules = qt_width_rules();
  if (box->frame && rev == box->frame_revision && width == box->frame_width && rows == box->frame_rows &&
      rules == box->frame_rules) {
    napi_value cached;
    NAPI_CALL(env, napi_get_reference_value(env, box->frame, &cached));
    if (cached) return cached;
  }
  const char *const *lines = NULL;
  size_t count = 0;
  qt_status st = qt_engine_render(box->engine, width, rows, &lines, &count);
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
  box->frame_rows = rows;
  box->frame_rules = rules;
  return arr;
}
static napi_value js_engine_render(napi_env env, napi_callback_info info) { return engine_frame(env, info, true); }
static napi_value js_engine_render_aside(napi_env env, napi_callback_info info) {
  return engine_frame(env, info, false);
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
  size_t n = box->req->question_count;
  const char **earlier = calloc(n, sizeof *earlier); /* the remembered answers the person kept */
  if (!earlier) {
    free(mode);
    free(reason);
    return throw_status(env, QT_ERR_NOMEM, NULL);
  }
  for (size_t i = 0; i < n; i++) earlier[i] = qt_engine_earlier(box->engine, i);
  box->busy = true; /* result_object runs no JS (set_prop); should that change, nothing nested frees the engine */
  napi_value out =
      result_object(env, box->req, qt_engine_answers(box->engine), outcome, mode, at,
                    outcome == QT_DISCUSS ? qt_engine_discussion(box->engine) : reason,
                    flags | qt_engine_result_flags(box->engine), earlier, NULL, qt_engine_call_note(box->engine));
  free(earlier);
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
  frame_bytes_clear(&box->shown.lines);
  qt_engine_destroy(box->engine);
  qt_request_free(box->req);
  box->engine = NULL;
  box->req = NULL;
  report_memory(env, box);
  return NULL;
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
    [QT_STYLE_ACCENT] = "accent",   [QT_STYLE_MUTED] = "muted",     [QT_STYLE_DIM] = "dim",
    [QT_STYLE_SUCCESS] = "success", [QT_STYLE_WARNING] = "warning", [QT_STYLE_ERROR] = "error",
    [QT_STYLE_TITLE] = "title",     [QT_STYLE_BORDER] = "border",   [QT_STYLE_SELECTED] = "selected",
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
    [QT_ACT_SKIP] = "skip",
    [QT_ACT_ASIDE] = "aside",
};

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

/* copyStyles(from) / copyKeys(from): the styles, or every action's keys, of another engine. */
static napi_value copy_from(napi_env env, napi_callback_info info, qt_status (*copy)(qt_engine *, const qt_engine *)) {
  ENGINE_METHOD_PROLOGUE(1);
  napi_valuetype type = napi_undefined;
  NAPI_CALL(env, napi_typeof(env, argv[0], &type));
  if (type != napi_object) {
    napi_throw_type_error(env, "QT_ETYPE", "pi-question: not an Engine");
    return NULL;
  }
  engine_box *from = unwrap_engine(env, argv[0]); /* throws as for `this`: not an Engine, disposed */
  if (!from) return NULL;
  qt_status st = copy(box->engine, from->engine);
  report_memory(env, box);
  if (st) return throw_status(env, st, NULL);
  return NULL;
}

static napi_value js_engine_copy_styles(napi_env env, napi_callback_info info) {
  return copy_from(env, info, qt_engine_copy_styles);
}

static napi_value js_engine_copy_keys(napi_env env, napi_callback_info info) {
  return copy_from(env, info, qt_engine_copy_keys);
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
    if (napi_get_element(env, argv[1], got, &k) != napi_ok || !(keys[got] = get_string(env, k, NULL, "a key id")))
      break;
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

/* remember(index, answersJson, line, when): the answer this project remembers for question
 * `index` (in the answers object's shape, only that question's entry read), the line shown under
 * it and the date the model's result gives when the person keeps it (qt_engine_remember). */
static napi_value js_engine_remember(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(4);
  double index = -1;
  if (napi_get_value_double(env, argv[0], &index) != napi_ok ||
      !(index >= 0 && index < (double)box->req->question_count && index == (double)(size_t)index)) {
    napi_throw_range_error(env, "QT_ERANGE", "pi-question: remember takes the index of a question");
    return NULL;
  }
  size_t len;
  char *json = get_string(env, argv[1], &len, "the remembered answer");
  char *line = json ? get_string(env, argv[2], NULL, "the remembered answer's line") : NULL;
  char *when = line ? get_string(env, argv[3], NULL, "the remembered answer's date") : NULL;
  qt_answer *answers = NULL;
  qt_error err;
  qt_status st = when ? qt_answers_from_json(box->req, json, len, &answers, &err) : QT_OK;
  if (when && st)
    throw_status(env, st, &err);
  else if (when && !answers[(size_t)index].present)
    napi_throw_error(env, "QT_EUSAGE", "pi-question: the remembered answer does not answer that question");
  else if (when && (st = qt_engine_remember(box->engine, (size_t)index, &answers[(size_t)index], line, when)))
    throw_status(env, st, NULL);
  if (answers) qt_answers_free(answers, box->req->question_count);
  free(json);
  free(line);
  free(when);
  report_memory(env, box);
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

/* setTimeout(afterMs, then): arms the clock (it starts with the first tick). */
static napi_value js_engine_set_timeout(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(2);
  double after = 0;
  if (napi_get_value_double(env, argv[0], &after) != napi_ok || !(after >= 1 && after <= 9.0e15)) {
    napi_throw_range_error(env, "QT_ERANGE", "pi-question: the timeout must be a positive number of milliseconds");
    return NULL;
  }
  int then = lookup_name(env, argv[1], TIMEOUT_THEN_NAMES, QT_TIMEOUT_THEN_COUNT, "timeout action");
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

/* takeAside(): whether the person asked to step aside since the last call. */
static napi_value js_engine_take_aside(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(1);
  (void)argv;
  napi_value v;
  NAPI_CALL(env, napi_get_boolean(env, qt_engine_take_aside(box->engine), &v));
  return v;
}

/* clockLeft(nowMs): milliseconds until the clock runs out, or -1 when no clock runs. */
static napi_value js_engine_clock_left(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(1);
  int64_t now;
  if (!get_timestamp(env, argv[0], &now)) return NULL;
  napi_value v;
  NAPI_CALL(env, napi_create_double(env, (double)qt_engine_clock_left(box->engine, now), &v));
  return v;
}

/* stopClock(): the person answers on another face; the clock stops for good, as at a key. */
static napi_value js_engine_stop_clock(napi_env env, napi_callback_info info) {
  ENGINE_METHOD_PROLOGUE(1);
  (void)argv;
  qt_status st = qt_engine_stop_clock(box->engine);
  if (st) return throw_status(env, st, NULL);
  return NULL;
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
  double index = -1; /* none given: QT_NO_INDEX (a pick or tick naming no option is refused) */
  bool indexed = !is_nullish(env, argv[1]);
  if (indexed && napi_get_value_double(env, argv[1], &index) != napi_ok) {
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
  else if (indexed && !(index >= 0 && index < 1e9 && index == (double)(size_t)index))
    why = "the index is not a whole number in range";
  else if ((status = qt_engine_act(box->engine, st, indexed ? (size_t)index : QT_NO_INDEX, text, len)) != QT_OK)
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

bool define_engine_class(napi_env env) {
  static const struct {
    const char *name;
    napi_callback fn;
  } methods[] = {
      {"feed", js_engine_feed},
      {"press", js_engine_press},
      {"renderChanges", js_engine_render_changes},
      {"render", js_engine_render},
      {"renderAside", js_engine_render_aside},
      {"result", js_engine_result},
      {"interrupt", js_engine_interrupt},
      {"setStyle", js_engine_set_style},
      {"bind", js_engine_bind},
      {"copyStyles", js_engine_copy_styles},
      {"copyKeys", js_engine_copy_keys},
      {"setCursorMarker", js_engine_set_cursor_marker},
      {"setLanguage", js_engine_set_language},
      {"setAsker", js_engine_set_asker},
      {"remember", js_engine_remember},
      {"dispose", js_engine_dispose},
      {"setTimeout", js_engine_set_timeout},
      {"tick", js_engine_tick},
      {"nextTick", js_engine_next_tick},
      {"stopClock", js_engine_stop_clock},
      {"clockLeft", js_engine_clock_left},
      {"takeAside", js_engine_take_aside},
      {"setAccessible", js_engine_set_accessible},
      {"editorRequest", js_engine_editor_request},
      {"editorDone", js_engine_editor_done},
      {"typed", js_engine_typed},
      {"setWholeKeys", js_engine_set_whole_keys},
      {"act", js_engine_act},
      {"actions", js_engine_actions},
      {"view", js_engine_view},
  };
  napi_property_descriptor props[sizeof methods / sizeof methods[0] + 3];
  size_t np = 0;
  for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
    props[np++] =
        (napi_property_descriptor){methods[i].name, NULL, methods[i].fn, NULL, NULL, NULL, napi_default, NULL};
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

napi_value js_create_engine(napi_env env, napi_callback_info info) {
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
  if (!live_add(box)) {
    engine_box_free(env, box, NULL);
    return throw_status(env, QT_ERR_NOMEM, NULL);
  }
  if (napi_wrap(env, obj, box, engine_box_free, NULL, NULL) != napi_ok) goto fail;
  report_memory(env, box);
  return obj;
fail:
  engine_box_free(env, box, NULL);
  throw_coded(env, "QT_ENAPI", "pi-question: could not create the Engine object", false);
  return NULL;
}
