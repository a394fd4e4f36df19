/* fuzz_session.c — libFuzzer target: a whole question session. The first part of the input
 * builds the questions (a JSON payload, or a request generated from a pool of hostile texts),
 * the rest drives the engine: known key sequences, raw byte chunks, steps (qt_engine_act, then the
 * view checked: JSON, sanitized, its actions the live steps), width changes (1..400) with a row limit or none,
 * key rebindings and interrupts, rendering after every step. Every rendered line must be
 * valid UTF-8, no wider than the width asked for, and — once the style strings and cursor
 * marker this harness installed are taken out — hold no ESC, no other C0 control, no DEL, no
 * C1 control and no bidirectional control. A finished session's answers must be well-formed
 * and build a result.
 *
 * Input: byte 0 — bit 7: a JSON payload follows (big-endian u16 length, then the bytes;
 * a generated request is used when it does not parse), else a generated request (see
 * build_request); bit 6: leave the default (empty) styles; bits 0-5: the first width.
 * Then operations, one byte each (see run_op), until the input ends. */
#include <cjson/cJSON.h>

#include "fuzz_common.h"
#include "engine/engine_internal.h" /* the renderers' caches, emptied to check they are no state */
#include "qt_engine.h"
#include "qt_keys.h"

static volatile size_t typed_bytes; /* qt_engine_typed's bytes, read so nothing is optimized away */

/* ---- the styles this harness installs: the only escape sequences a frame may hold ---------- */
static const char CURSOR_MARKER[] = "\x1b_pi:c\x07";
static char style_open[QT_STYLE_COUNT][24], style_close[QT_STYLE_COUNT][24];

static void make_styles(void) {
  for (int i = 0; i < QT_STYLE_COUNT; i++) {
    snprintf(style_open[i], sizeof style_open[i], "\x1b[38;5;%dm", 16 + i);
    snprintf(style_close[i], sizeof style_close[i], "\x1b[39m");
  }
  snprintf(style_open[QT_STYLE_TITLE], sizeof style_open[0], "\x1b[1m");
  snprintf(style_close[QT_STYLE_TITLE], sizeof style_close[0], "\x1b[22m");
  /* reverse video, as pi draws the character under the cursor */
  snprintf(style_open[QT_STYLE_CURSOR], sizeof style_open[0], "\x1b[7m");
  snprintf(style_close[QT_STYLE_CURSOR], sizeof style_close[0], "\x1b[27m");
}

/* Length of the installed sequence at s[0] (an ESC), or 0 when none of them starts here. */
static size_t installed_at(const char *s, size_t len, bool styled) {
  size_t n = sizeof CURSOR_MARKER - 1;
  if (len >= n && memcmp(s, CURSOR_MARKER, n) == 0) return n;
  if (!styled) return 0;
  for (int i = 0; i < QT_STYLE_COUNT; i++) {
    n = strlen(style_open[i]);
    if (len >= n && memcmp(s, style_open[i], n) == 0) return n;
    n = strlen(style_close[i]);
    if (len >= n && memcmp(s, style_close[i], n) == 0) return n;
  }
  return 0;
}

static bool is_bidi_control(uint32_t cp) {
  return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F ||
         cp == 0x061C;
}

/* Prints a line with its control bytes visible, for the failure message. */
static const char *visible(const char *s) {
  static char out[4096];
  size_t j = 0;
  for (; *s && j + 5 < sizeof out; s++) {
    unsigned char c = (unsigned char)*s;
    if (c < 0x20 || c == 0x7F)
      j += (size_t)snprintf(out + j, sizeof out - j, "\\x%02x", c);
    else
      out[j++] = (char)c;
  }
  out[j] = '\0';
  return out;
}

static void check_line(const char *line, int width, bool styled) {
  size_t len = strlen(line);
  FUZZ_CHECK_MSG(qt_utf8_valid(line, len, NULL), "line is not UTF-8: %s", visible(line));
  size_t w = qt_visible_width(line, len);
  FUZZ_CHECK_MSG(w <= (size_t)width, "line is %zu columns wide, the width is %d: %s", w, width, visible(line));
  for (size_t i = 0; i < len;) {
    unsigned char c = (unsigned char)line[i];
    if (c == 0x1B) {
      size_t n = installed_at(line + i, len - i, styled);
      FUZZ_CHECK_MSG(n > 0, "an escape sequence the harness did not install, at byte %zu: %s", i, visible(line));
      i += n;
      continue;
    }
    FUZZ_CHECK_MSG(c >= 0x20 && c != 0x7F, "control byte 0x%02x at byte %zu: %s", c, i, visible(line));
    size_t adv;
    uint32_t cp = qt_utf8_decode(line + i, len - i, &adv);
    FUZZ_CHECK_MSG(!(cp >= 0x80 && cp <= 0x9F), "C1 control U+%04X at byte %zu: %s", cp, i, visible(line));
    FUZZ_CHECK_MSG(!is_bidi_control(cp), "bidirectional control U+%04X at byte %zu: %s", cp, i, visible(line));
    i += adv;
  }
}

/* Frames drawn in this input: every fourth is also drawn afresh (check_drawn_fresh), which
 * doubles a frame's cost. */
static unsigned renders;

/* What the renderers keep (qt_draw: the row, help line, editor and preview caches) is no state:
 * the styled frame drawn again with all of it forgotten is the same, line for line. (The plain
 * frame reads what the last frame showed, so it is drawn from more than the state.) */
static void check_drawn_fresh(qt_engine *e, int width, int rows) {
  /* Drawn now, with what the renderers kept: the frame cache may hold a frame of an earlier
   * state of the same revision (a key that only adopted the screen's scroll positions, for a
   * frame cached at another size), which says nothing about these caches. */
  const char *const *lines = NULL;
  size_t count = 0;
  e->frame_width = 0;
  FUZZ_CHECK(qt_engine_render(e, width, rows, &lines, &count) == QT_OK);
  qt_buf kept;
  qt_buf_init(&kept);
  for (size_t i = 0; i < count; i++) qt_buf_append(&kept, lines[i], strlen(lines[i]) + 1);
  FUZZ_CHECK(!kept.failed);
  qt_draw_free(&e->draw);
  e->frame_width = 0; /* no frame cached: drawn again */
  const char *const *fresh = NULL;
  size_t n = 0;
  FUZZ_CHECK(qt_engine_render(e, width, rows, &fresh, &n) == QT_OK);
  if (n != count) { /* both frames, for the report */
    const char *q = kept.data;
    for (size_t i = 0; i < count; i++, q += strlen(q) + 1) fprintf(stderr, "cached %2zu: %s\n", i, visible(q));
    for (size_t i = 0; i < n; i++) fprintf(stderr, "afresh %2zu: %s\n", i, visible(fresh[i]));
  }
  FUZZ_CHECK_MSG(n == count, "%zu lines drawn from the caches, %zu drawn afresh", count, n);
  const char *p = kept.data;
  for (size_t i = 0; i < n; i++) {
    if (strcmp(p, fresh[i]) != 0) {
      fprintf(stderr, "line %zu drawn from the caches: %s\n", i, visible(p)); /* visible() has one buffer */
      FUZZ_CHECK_MSG(false, "line %zu drawn afresh: %s", i, visible(fresh[i]));
    }
    p += strlen(p) + 1;
  }
  qt_buf_free(&kept);
}

/* A frame at width×rows: the host's (`screen`: the keys act on it) or one drawn aside. */
static void render_at(qt_engine *e, int width, int rows, bool styled, bool screen) {
  const char *const *lines = NULL;
  size_t count = 0;
  if (screen) FUZZ_CHECK(qt_engine_set_screen(e, width, rows) == QT_OK);
  qt_status st = qt_engine_render(e, width, rows, &lines, &count);
  FUZZ_CHECK_MSG(st == QT_OK || st == QT_ERR_NOMEM, "qt_engine_render: %s", qt_status_code(st));
  if (st != QT_OK) return;
  FUZZ_CHECK(count == 0 || lines != NULL);
  FUZZ_CHECK_MSG(rows == 0 || count <= (size_t)rows, "%zu lines for %d rows", count, rows);
  for (size_t i = 0; i < count; i++) {
    FUZZ_CHECK(lines[i] != NULL);
    check_line(lines[i], width, styled);
  }
  /* nothing changed: the cached frame comes back */
  const char *const *again = NULL;
  size_t count2 = 0;
  FUZZ_CHECK(qt_engine_render(e, width, rows, &again, &count2) == QT_OK);
  FUZZ_CHECK(again == lines && count2 == count);
  if (!e->accessible && renders++ % 4 == 0) check_drawn_fresh(e, width, rows);
}
static void render_and_check(qt_engine *e, int width, int rows, bool styled) {
  render_at(e, width, rows, styled, true);
}

/* ---- building the questions ------------------------------------------------------------------ */
static const char *const POOL[] = {
    "Which database?",
    "\x1b[2J\x1b[H cleared?",
    "\x1b]0;title\x07 title change",
    "\x1b]52;c;aGVsbG8=\x07 clipboard write",
    "\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\ text",
    "lone\rcarriage return",
    "back\b\b\bspace",
    "C1 \xc2\x85 next line \xc2\x9b csi",
    "bidi \xe2\x80\xae override \xe2\x81\xa6 isolate \xe2\x80\x8f mark",
    "zero\xe2\x80\x8bwidth\xe2\x80\x8d joiner \xef\xb8\x8f",
    "\xe4\xb8\xad\xe6\x96\x87\xe5\xad\x97\xe7\xac\xa6 wide \xef\xbc\xa1\xef\xbc\xa2",
    "emoji \xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd \xf0\x9f\x87\xba\xf0\x9f\x87\xb8 "
    "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7",
    "combining e\xcc\x81\xcc\x81\xcc\x81 and \xe0\xa4\x95\xe0\xa5\x8d\xe0\xa4\xb7\xe0\xa4\xbf",
    "tabs\tin\tthe\ttext",
    "multi\nline\n\n\nprompt\r\nwith CRLF",
    "DEL \x7f and NUL-free controls \x01\x02\x1f",
    "a",
    "__proto__",
    "constructor",
    "Something else\xe2\x80\xa6",
    NULL, /* long texts, made at start-up */
    NULL,
    NULL,
};
#define POOL_SIZE (sizeof POOL / sizeof *POOL)
static char *long_texts[3];

static void make_long_texts(void) {
  qt_buf b;
  qt_buf_init(&b);
  for (int i = 0; i < 300; i++) qt_buf_puts(&b, "word ");
  long_texts[0] = qt_buf_take(&b); /* 1500 bytes of wrappable text */
  for (int i = 0; i < 450; i++) qt_buf_puts(&b, "\xe4\xb8\xad");
  long_texts[1] = qt_buf_take(&b); /* no spaces, all wide */
  for (int i = 0; i < 400; i++) qt_buf_printf(&b, "line %d of a long preview \xe2\x94\x82 \x1b[1m\n", i);
  long_texts[2] = qt_buf_take(&b); /* many lines */
}

static bool allow_long = true; /* false while rebuilding a request that came out too big */

static const char *pool_text(uint8_t i) {
  i %= POOL_SIZE;
  if (POOL[i]) return POOL[i];
  return allow_long ? long_texts[i - (POOL_SIZE - 3)] : "long text left out";
}

/* Adds t to obj under key, cut to max bytes at a character boundary (the validator's limits). */
static void add_clipped(cJSON *obj, const char *key, const char *t, size_t max) {
  size_t n = strlen(t);
  if (n > max)
    for (n = max; n && ((unsigned char)t[n] & 0xC0) == 0x80; n--) {
    }
  char *c = strndup(t, n);
  FUZZ_CHECK(c != NULL);
  cJSON_AddStringToObject(obj, key, c);
  free(c);
}

/* One byte of flags per question: bit 0 multi-select, bits 1-4 option count (15: 40 options),
 * bit 5 descriptions, bit 6 previews, bit 7 a pre-supplied answer; then one byte each for the
 * prompt and label texts. */
static char *build_request_json(fuzz_input *in) {
  cJSON *root = cJSON_CreateObject(), *qs = cJSON_AddArrayToObject(root, "questions");
  cJSON *answers = cJSON_CreateObject();
  size_t nq = fuzz_byte(in) % 6 + 1;
  for (size_t i = 0; i < nq; i++) {
    uint8_t f = fuzz_byte(in), tp = fuzz_byte(in), tl = fuzz_byte(in);
    cJSON *q = cJSON_CreateObject();
    char id[16], buf[64];
    snprintf(id, sizeof id, "q%zu", i);
    cJSON_AddStringToObject(q, "id", id);
    add_clipped(q, "prompt", pool_text(tp), QT_MAX_PROMPT_BYTES);
    if (tl & 1) add_clipped(q, "label", pool_text(tl >> 1), 1000);
    cJSON_AddBoolToObject(q, "multiSelect", f & 1);
    size_t nopt = (f >> 1) & 15;
    if (nopt == 15) nopt = 40;
    if (nopt) {
      cJSON *opts = cJSON_AddArrayToObject(q, "options");
      for (size_t k = 0; k < nopt; k++) {
        cJSON *o = cJSON_CreateObject();
        const char *t = pool_text((uint8_t)(tp + k * 7));
        qt_buf label;
        qt_buf_init(&label);
        size_t n = strlen(t);
        if (n > 400) /* cut at a character boundary */
          for (n = 400; ((unsigned char)t[n] & 0xC0) == 0x80; n--) {
          }
        qt_buf_append(&label, t, n);
        qt_buf_printf(&label, " #%zu", k + 1);
        cJSON_AddStringToObject(o, "label", label.data);
        qt_buf_free(&label);
        snprintf(buf, sizeof buf, "v%zu", k + 1);
        cJSON_AddStringToObject(o, "value", buf);
        if (f & 0x20) add_clipped(o, "description", pool_text((uint8_t)(tl + k)), QT_MAX_DESCRIPTION_BYTES);
        if ((f & 0x40) && k % 2 == 0) add_clipped(o, "preview", pool_text((uint8_t)(tl + 3 * k)), QT_MAX_PREVIEW_BYTES);
        cJSON_AddItemToArray(opts, o);
      }
      if (f & 0x80) cJSON_AddStringToObject(answers, id, "v1");
    } else if (f & 0x80) {
      add_clipped(answers, id, pool_text(tl), QT_MAX_ANSWER_BYTES);
    } else if ((f & 0x21) == 0x20) { /* a secret question: its field masked in every frame */
      cJSON_AddBoolToObject(q, "secret", 1);
    }
    cJSON_AddItemToArray(qs, q);
  }
  if (answers->child)
    cJSON_AddItemToObject(root, "answers", answers);
  else
    cJSON_Delete(answers);
  char *s = cJSON_PrintUnformatted(root);
  cJSON_Delete(root);
  return s;
}

/* ---- driving the engine ------------------------------------------------------------------------- */
static const char *const KEYS[] = {
    "\x1b[A",
    "\x1b[B",
    "\x1b[C",
    "\x1b[D",
    "\t",
    "\x1b[Z",
    "\r",
    "\x1b",
    "\x03",
    "\x04",
    "\x0e",
    "/",
    " ",
    "1",
    "2",
    "3",
    "9",
    "0",
    "y",
    "n",
    "Y",
    "N",
    "\x7f",
    "\x1b[3~",
    "\x1b[H",
    "\x1b[F",
    "\x1b[5~",
    "\x1b[6~",
    "\x17",
    "\x15",
    "\x0b",
    "\x01",
    "\x05",
    "\x02",
    "\x06",
    "\x1b"
    "b",
    "\x1b"
    "f",
    "\x1b"
    "d",
    "\x1b\x7f",
    "\x1b[1;5D",
    "\x1b[1;5C",
    "\x1b[1;3D",
    "\x1b[1;3C",
    "\x1b[13;2u",
    "\x1b\r",
    "\x1b[27;2;13~",
    "\n",
    "a",
    "Z",
    "x",
    "\xc3\xa9",
    "\xe4\xb8\xad",
    "\xf0\x9f\x91\x8d",
    "e\xcc\x81",
    "\xf0\x9f\x87\xba\xf0\x9f\x87\xb8",
    "\x1b[200~pasted\ntext\x1b[201~",
    "\x1b[200~\x1b]0;evil\x07\x1b[2J\r\xc2\x85\xe2\x80\xae\x7f\t\x1b[201~",
    "\x1b[200~line 1\r\nline 2\rline 3\nline 4\n\n\n\n\n\n\n\n\n\n\n\nline 16\x1b[201~",
    "\x1b[97;5u",
    "\x1b[100;5u",
    "\x1b[110;5u",
    "\x1b[13u",
    "\x1b[27u",
    "\x1b[9;2u",
    "\x1b[57399u",
    "\x1b]11;rgb:0000/0000/0000\x1b\\",
    "\x1b[?1u",
    "\x1b[12;40R",
    "\xff\xfe",
    "\xe2\x80",
    "word ",
    "\x13", /* ctrl+s: the skip key */
};
#define KEY_COUNT (sizeof KEYS / sizeof *KEYS)

static const char *const KEY_NAMES[] = {
    "enter",  "escape", "ctrl+c", "tab", "shift+tab",    "up",        "down", "j",      "k",    "space",
    "ctrl+d", "ctrl+n", "/",      "x",   "ctrl+shift+p", "alt+enter", "f5",   "ctrl+s", "bogus"};
#define KEY_NAME_COUNT (sizeof KEY_NAMES / sizeof *KEY_NAMES)

typedef struct session {
  qt_engine *e;
  int width;
  int rows; /* the rows the frame may take; 0: no limit */
  bool styled;
  bool accessible; /* plain lines for screen readers (render_plain.c) */
  int64_t now;     /* the host's clock for the person's timeout */
} session;

static void feed(session *s, const char *bytes, size_t n) {
  qt_status st = qt_engine_feed(s->e, bytes, n);
  FUZZ_CHECK_MSG(st == QT_OK || st == QT_ERR_NOMEM, "qt_engine_feed: %s", qt_status_code(st));
}

/* Display text of the view: no escape, no other control (line breaks aside), no bidi control. */
static void check_view_text(const cJSON *item, const char *what) {
  if (!cJSON_IsString(item)) return;
  const char *t = item->valuestring;
  size_t len = strlen(t);
  FUZZ_CHECK_MSG(qt_utf8_valid(t, len, NULL), "view %s is not UTF-8: %s", what, visible(t));
  for (size_t i = 0; i < len;) {
    unsigned char c = (unsigned char)t[i];
    FUZZ_CHECK_MSG((c >= 0x20 && c != 0x7F) || c == '\n', "view %s: control byte 0x%02x: %s", what, c, visible(t));
    size_t adv;
    uint32_t cp = qt_utf8_decode(t + i, len - i, &adv);
    FUZZ_CHECK_MSG(!(cp >= 0x80 && cp <= 0x9F) && !is_bidi_control(cp), "view %s: U+%04X: %s", what, cp, visible(t));
    i += adv;
  }
}

/* The view a face without frames reads: JSON, its display text sanitized, its actions the live steps. */
static void check_view(qt_engine *e) {
  char *json = NULL;
  qt_status st = qt_engine_view(e, &json);
  FUZZ_CHECK_MSG(st == QT_OK || st == QT_ERR_NOMEM, "qt_engine_view: %s", qt_status_code(st));
  if (st != QT_OK) return;
  cJSON *v = cJSON_Parse(json);
  free(json);
  if (!v) return; /* cJSON itself out of memory */
  FUZZ_CHECK(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(v, "state")));
  const cJSON *a;
  cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(v, "actions")) {
    qt_step step;
    FUZZ_CHECK(cJSON_IsString(a) && qt_step_from_name(a->valuestring, &step) && qt_engine_is_live(e, step));
  }
  const cJSON *q;
  cJSON_ArrayForEach(q, cJSON_GetObjectItemCaseSensitive(v, "questions")) {
    check_view_text(cJSON_GetObjectItemCaseSensitive(q, "label"), "label");
    check_view_text(cJSON_GetObjectItemCaseSensitive(q, "prompt"), "prompt");
    check_view_text(cJSON_GetObjectItemCaseSensitive(q, "typed"), "typed");
    check_view_text(cJSON_GetObjectItemCaseSensitive(q, "note"), "note");
    const cJSON *o;
    cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(q, "options")) {
      check_view_text(cJSON_GetObjectItemCaseSensitive(o, "label"), "option label");
      check_view_text(cJSON_GetObjectItemCaseSensitive(o, "description"), "option description");
    }
  }
  cJSON_Delete(v);
}

/* A step, as a face without frames applies it: refused exactly when it is not live (or its
 * index or text does not fit), and then with a reason. */
static void act(session *s, uint8_t op, fuzz_input *in) {
  qt_step step = (qt_step)((op & 0x1F) % (QT_STEP_COUNT + 1)); /* QT_STEP_COUNT: no such step */
  size_t index = fuzz_byte(in) % 12;
  if (index == 11) index = QT_NO_INDEX; /* a face that names no option (the page's Submit with none chosen) */
  size_t got = 0;
  const char *text = op & 0x20 ? fuzz_bytes(in, fuzz_byte(in), &got) : NULL;
  static const char *const REASONS[] = {"skipped", "chat", "none"}; /* the skip step's words, mostly */
  if (step == QT_STEP_SKIP && text && got && (unsigned char)text[0] % 4 != 3) {
    text = REASONS[(unsigned char)text[0] % 4];
    got = strlen(text);
  }
  bool live = step < QT_STEP_COUNT && qt_engine_is_live(s->e, step);
  qt_status st = qt_engine_act(s->e, step, index, text, got);
  FUZZ_CHECK_MSG(st == QT_OK || st == QT_ERR_STATE || st == QT_ERR_USAGE || st == QT_ERR_NOMEM, "qt_engine_act: %s",
                 qt_status_code(st));
  if (!live) FUZZ_CHECK_MSG(st != QT_OK, "step %d applied while not live", (int)step);
  if (st == QT_ERR_STATE || st == QT_ERR_USAGE) FUZZ_CHECK(qt_engine_act_error(s->e)[0] != '\0');
  check_view(s->e);
}

/* One operation: < 0x80 a known key, < 0xC0 a raw chunk of 1..32 input bytes, < 0xE0 a step
 * (qt_engine_act; bit 5: with text) and the view checked, < 0xF0 a new
 * width, < 0xF8 a rebinding, 0xF8 accessible mode on/off, 0xF9 a timeout armed, 0xFA the clock
 * moved on, 0xFB Ctrl+G, 0xFC the editor gave text back, 0xFD the editor failed, 0xFE other
 * width rules (the next byte, qt_set_width_rules: pi-tui 0.73's or 0.87's widths; the frame is
 * laid out again and checked by the new measure), 0xFF an interrupt, anything else only a
 * render. */
static void run_op(session *s, fuzz_input *in) {
  uint8_t op = fuzz_byte(in);
  if (op < 0x80) {
    const char *k = KEYS[op % KEY_COUNT];
    feed(s, k, strlen(k));
  } else if (op < 0xC0) {
    size_t got;
    const char *b = fuzz_bytes(in, (size_t)(op & 0x1F) + 1, &got);
    feed(s, b, got);
  } else if (op < 0xE0) {
    act(s, op, in);
  } else if (op < 0xF0) {
    int width = fuzz_u16(in) % 400 + 1, rows = op & 1 ? fuzz_byte(in) % 64 : 0; /* the question fits the screen */
    if (op & 2) {
      render_at(s->e, width, rows, s->styled, false); /* a frame drawn aside: the screen stays */
    } else {
      s->width = width;
      s->rows = rows;
      if (op & 4) { /* a screen named and not drawn yet: the next key lays out its frame */
        FUZZ_CHECK(qt_engine_set_screen(s->e, width, rows) == QT_OK);
        return;
      }
    }
  } else if (op < 0xF8) {
    const char *names[2] = {KEY_NAMES[fuzz_byte(in) % KEY_NAME_COUNT], KEY_NAMES[fuzz_byte(in) % KEY_NAME_COUNT]};
    size_t unknown = 0;
    FUZZ_CHECK(qt_engine_bind(s->e, (qt_action)(op % QT_ACT_COUNT), names, (size_t)(op & 1) + 1, &unknown) == QT_OK);
  } else if (op == 0xF8) {
    s->accessible = !s->accessible;
    FUZZ_CHECK(qt_engine_set_accessible(s->e, s->accessible) == QT_OK);
  } else if (op == 0xF9) {
    qt_status st = qt_engine_set_timeout(s->e, (int64_t)fuzz_u16(in) + 1,
                                         (qt_timeout_then)(fuzz_byte(in) % QT_TIMEOUT_THEN_COUNT));
    FUZZ_CHECK(st == QT_OK || (st == QT_ERR_STATE && qt_engine_done(s->e)));
  } else if (op == 0xFA) {
    uint16_t step = fuzz_u16(in);
    if (step & 1) FUZZ_CHECK(qt_engine_stop_clock(s->e) == QT_OK); /* the person on another face */
    s->now += step;
    FUZZ_CHECK(qt_engine_tick(s->e, s->now) == QT_OK);
    FUZZ_CHECK(qt_engine_next_tick(s->e, s->now) <= 1000);
    int64_t left = qt_engine_clock_left(s->e, s->now);
    FUZZ_CHECK(left >= -1 && left <= 65536);
  } else if (op == 0xFB) {
    feed(s, "\x07", 1);
  } else if (op == 0xFC || op == 0xFD) {
    size_t got = 0;
    const char *b = op == 0xFC ? fuzz_bytes(in, fuzz_byte(in), &got) : NULL;
    qt_status st = qt_engine_editor_done(s->e, op == 0xFC, b ? b : "", got, op == 0xFC ? NULL : "exited with status 1");
    FUZZ_CHECK(st == QT_OK || st == QT_ERR_NOMEM);
  } else if (op == 0xFE) {
    qt_set_width_rules(fuzz_byte(in) % (QT_WIDTH_RULES_ALL + 1));
  } else if (op == 0xFF) {
    qt_engine_interrupt(s->e);
    FUZZ_CHECK(qt_engine_done(s->e) && qt_engine_outcome(s->e) == QT_INTERRUPTED);
  }
  (void)qt_engine_take_aside(s->e); /* the host's step-aside key (bound by a rebinding above) */
  render_and_check(s->e, s->width, s->rows, s->styled);
}

/* Remembered answers (qt_engine_remember): a few questions open with an answer made of the input
 * — option indices in range or not, a typed text or none — and a line; the engine takes a valid
 * one and refuses the rest, changing nothing. */
static void remember_some(qt_engine *e, const qt_request *req, fuzz_input *in) {
  uint8_t count = fuzz_byte(in) & 3;
  for (uint8_t r = 0; r < count; r++) {
    size_t qi = fuzz_byte(in) % (req->question_count + 1); /* question_count: out of range */
    size_t idx[3];
    size_t n = fuzz_byte(in) % 4;
    for (size_t k = 0; k < n && k < 3; k++) idx[k] = fuzz_byte(in) % 8;
    uint8_t t = fuzz_byte(in);
    qt_answer a = {.present = (t & 1) == 0,
                   .indices = n ? idx : NULL,
                   .index_count = n < 3 ? n : 3,
                   .custom = (t & 2) ? (char *)pool_text(fuzz_byte(in)) : NULL};
    if (a.custom && !*a.custom) a.custom = NULL;
    qt_status st = qt_engine_remember(e, qi, &a, pool_text(fuzz_byte(in)), pool_text(fuzz_byte(in)));
    FUZZ_CHECK(st == QT_OK || st == QT_ERR_USAGE);
  }
}

static void check_finished(const qt_request *req, qt_engine *e) {
  const qt_answer *a = qt_engine_answers(e);
  FUZZ_CHECK(a != NULL);
  for (size_t i = 0; i < req->question_count; i++) fuzz_check_answer(&req->questions[i], &a[i]);
  qt_outcome o = qt_engine_outcome(e);
  FUZZ_CHECK(o <= QT_OUTCOME_LAST);
  if (o == QT_ANSWERED)
    for (size_t i = 0; i < req->question_count; i++) FUZZ_CHECK(a[i].present);
  fuzz_check_result(req, a, o, o == QT_DISCUSS ? qt_engine_discussion(e) : NULL);
  for (size_t i = 0; i < req->question_count; i++) { /* what was typed: every byte read (ASan) */
    const char *wrote, *note;
    size_t wl, nl;
    qt_engine_typed(e, i, &wrote, &wl, &note, &nl);
    for (size_t k = 0; k < wl; k++) typed_bytes += (unsigned char)wrote[k];
    for (size_t k = 0; k < nl; k++) typed_bytes += (unsigned char)note[k];
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static bool ready;
  if (!ready) make_styles(), make_long_texts(), ready = true;
  fuzz_input in = {data, size};
  qt_set_width_rules(0); /* each input starts from the default rules (op 0xFE changes them) */
  renders = 0;
  uint8_t head = fuzz_byte(&in);
  qt_request *req = NULL;
  if (head & 0x80) {
    size_t got, len = fuzz_u16(&in);
    const char *json = fuzz_bytes(&in, len, &got);
    if (qt_request_parse(json, got, &req, NULL) != QT_OK) req = NULL;
  }
  if (!req) {
    fuzz_input start = in;
    allow_long = true;
    char *json = build_request_json(&in);
    FUZZ_CHECK(json != NULL);
    if (strlen(json) > QT_MAX_ARGUMENT_BYTES) { /* the same questions without the long texts */
      cJSON_free(json);
      in = start;
      allow_long = false;
      json = build_request_json(&in);
      FUZZ_CHECK(json != NULL);
    }
    qt_error err;
    qt_status st = qt_request_parse(json, strlen(json), &req, &err);
    FUZZ_CHECK_MSG(st == QT_OK, "generated request rejected: %s: %s\n  %.2000s", err.path, err.message, json);
    cJSON_free(json); /* cJSON_Print's */
  }

  session s = {NULL, (head & 0x3F) * 6 + 1, 0, !(head & 0x40), false, 0};
  FUZZ_CHECK(qt_engine_create(req, &s.e) == QT_OK && s.e);
  if (s.styled)
    for (int i = 0; i < QT_STYLE_COUNT; i++)
      FUZZ_CHECK(qt_engine_set_style(s.e, (qt_style)i, style_open[i], style_close[i]) == QT_OK);
  FUZZ_CHECK(qt_engine_set_cursor_marker(s.e, CURSOR_MARKER) == QT_OK);
  FUZZ_CHECK(qt_engine_set_language(s.e, QT_LANG_EN) == QT_OK);
  /* styles that would take up columns are refused */
  FUZZ_CHECK(qt_engine_set_style(s.e, QT_STYLE_ACCENT, "x", "") == QT_ERR_USAGE);
  remember_some(s.e, req, &in);
  render_and_check(s.e, s.width, s.rows, s.styled);
  for (int steps = 0; in.n && steps < 2000; steps++) {
    run_op(&s, &in);
    if (qt_engine_done(s.e)) break;
  }
  if (qt_engine_done(s.e)) {
    check_finished(req, s.e);
    /* input after the end is ignored; rendering still works */
    feed(&s, "\r\x1b[A", 4);
    render_and_check(s.e, s.width, s.rows, s.styled);
  }
  qt_engine_destroy(s.e);
  qt_request_free(req);
  return 0;
}
