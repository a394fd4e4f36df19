/* render_help.c — the help line: the keys that work now ("Enter select • Esc cancel"), built
 * from the live steps (qt_live_items), the names of keys as the person reads them, and the
 * lines laid out once for each text and width. Part of the styled renderer (render.c); the
 * plain frame and the host use the items and key names too. */
#include <string.h>

#include "render_internal.h"

static const char HELP_SEP[] = " • ";

/* ---- help line ------------------------------------------------------------------------------ */
typedef struct help {
  qt_buf text; /* items, each followed by '\0' */
  size_t off[24];
  size_t n;
} help;

/* Appends the display name of a key ("Ctrl+D", "Enter", "↑"). */
static void key_name(const qt_engine *e, uint32_t key, unsigned mods, qt_buf *out) {
  if (mods & QT_MOD_SUPER) qt_buf_puts(out, qt_str(e, QT_STR_MOD_SUPER));
  if (mods & QT_MOD_CTRL) qt_buf_puts(out, qt_str(e, QT_STR_MOD_CTRL));
  if (mods & QT_MOD_ALT) qt_buf_puts(out, qt_str(e, QT_STR_MOD_ALT));
  if (mods & QT_MOD_SHIFT) qt_buf_puts(out, qt_str(e, QT_STR_MOD_SHIFT));
  static const struct {
    uint32_t key;
    qt_string_id id;
  } named[] = {
      {QT_KEY_ENTER, QT_STR_KEY_ENTER},     {QT_KEY_TAB, QT_STR_KEY_TAB},
      {QT_KEY_ESCAPE, QT_STR_KEY_ESCAPE},   {QT_KEY_BACKSPACE, QT_STR_KEY_BACKSPACE},
      {QT_KEY_SPACE, QT_STR_KEY_SPACE},     {QT_KEY_DELETE, QT_STR_KEY_DELETE},
      {QT_KEY_INSERT, QT_STR_KEY_INSERT},   {QT_KEY_CLEAR, QT_STR_KEY_CLEAR},
      {QT_KEY_HOME, QT_STR_KEY_HOME},       {QT_KEY_END, QT_STR_KEY_END},
      {QT_KEY_PAGE_UP, QT_STR_KEY_PAGE_UP}, {QT_KEY_PAGE_DOWN, QT_STR_KEY_PAGE_DOWN},
      {QT_KEY_UP, QT_STR_KEY_UP},           {QT_KEY_DOWN, QT_STR_KEY_DOWN},
      {QT_KEY_LEFT, QT_STR_KEY_LEFT},       {QT_KEY_RIGHT, QT_STR_KEY_RIGHT},
  };
  for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
    if (named[i].key == key) {
      qt_buf_puts(out, qt_str(e, named[i].id));
      return;
    }
  if (key >= QT_KEY_F1 && key <= QT_KEY_F12) {
    qt_format(out, qt_str(e, QT_STR_KEY_F), key - QT_KEY_F1 + 1, NULL);
    return;
  }
  if (key == ' ') {
    qt_buf_puts(out, qt_str(e, QT_STR_KEY_SPACE));
    return;
  }
  if (key >= 'a' && key <= 'z' && (mods & (QT_MOD_CTRL | QT_MOD_ALT | QT_MOD_SUPER | QT_MOD_SHIFT))) key -= 32;
  qt_buf one;
  qt_buf_init(&one);
  qt_buf_put_cp(&one, key < 0x110000 ? key : 0xFFFD);
  if (one.data) qt_sanitize(out, one.data, one.len, 0);
  qt_buf_free(&one);
}

static void help_end_item(help *h) { qt_buf_putc(&h->text, '\0'); }

static bool help_start_item(help *h) {
  if (h->n == sizeof h->off / sizeof h->off[0]) return false;
  h->off[h->n++] = h->text.len;
  return true;
}

/* "<first key of the action> <what it does>"; nothing when the action has no key. */
static void help_key(const qt_engine *e, help *h, qt_action a, qt_string_id what) {
  const qt_keyset *ks = &e->keys[a];
  if (!ks->count || !help_start_item(h)) return;
  key_name(e, ks->key[0], ks->mods[0], &h->text);
  qt_buf_putc(&h->text, ' ');
  qt_buf_puts(&h->text, qt_str(e, what));
  help_end_item(h);
}

/* "↑↓ move": both keys of a pair. */
static void help_pair(const qt_engine *e, help *h, qt_action a1, qt_action a2, qt_string_id what) {
  const qt_keyset *k1 = &e->keys[a1], *k2 = &e->keys[a2];
  if (!k1->count || !k2->count || !help_start_item(h)) return;
  key_name(e, k1->key[0], k1->mods[0], &h->text);
  /* "↑↓", "Shift+↑↓": the arrows with the same modifiers side by side, else "PgUp/PgDn" */
  bool arrows = k1->mods[0] == k2->mods[0] && k1->key[0] == QT_KEY_UP && k2->key[0] == QT_KEY_DOWN;
  if (!arrows) qt_buf_putc(&h->text, '/');
  key_name(e, k2->key[0], arrows ? 0 : k2->mods[0], &h->text);
  qt_buf_putc(&h->text, ' ');
  qt_buf_puts(&h->text, qt_str(e, what));
  help_end_item(h);
}

static void help_text(const qt_engine *e, help *h, qt_string_id what) {
  if (!help_start_item(h)) return;
  qt_buf_puts(&h->text, qt_str(e, what));
  help_end_item(h);
}

/* Which of the keys that read a cut prompt or preview the help line names, by what the frame
 * shows (`l`): Shift+↑/Shift+↓ while the preview is cut, PageUp/PageDown while the prompt (or the
 * review) is. */
enum { SCROLL_PREVIEW = 1u, SCROLL_PAGES = 2u, SCROLL_REVIEW = 4u };
static unsigned scroll_keys(const qt_engine *e, const qt_layout *l) {
  bool review = e->current >= e->req->question_count;
  unsigned on = review ? SCROLL_REVIEW : 0;
  if (!l->valid || l->question != e->current) return on; /* nothing shown of this one yet */
  if (!review) {
    const qt_qstate *s = &e->qs[e->current];
    size_t k = qt_list_option_at(s, s->highlight);
    if (s->view != QT_VIEW_ENTRY && k != SIZE_MAX && k == l->preview_for && l->preview_window) on |= SCROLL_PREVIEW;
  }
  if (review ? l->review_window : l->prompt_window) on |= SCROLL_PAGES;
  return on;
}

/* Everything the help line's text is made of: the live items (qt_live_items) and the scroll keys
 * named (scroll_keys). With the language and the keys bound (which qt_engine_set_language and
 * qt_engine_bind change, forgetting the line kept), it decides the text. Zeroed before it is
 * filled, so two are compared as bytes. */
typedef struct help_items {
  qt_live items[QT_LIVE_MAX];
  size_t n;
  unsigned scroll;
} help_items;

static void live_help(const qt_engine *e, const qt_layout *l, help_items *hi) {
  memset(hi, 0, sizeof *hi);
  hi->n = qt_live_items(e, hi->items);
  hi->scroll = scroll_keys(e, l);
}

/* The help line's items as text, one after the other, each followed by '\0'. */
static void collect_help(const qt_engine *e, const help_items *hi, help *h) {
  for (size_t i = 0; i < hi->n; i++) {
    const qt_live *it = &hi->items[i];
    switch (it->kind) {
      case QT_LIVE_KEY: help_key(e, h, it->key, it->help); break;
      case QT_LIVE_PAIR: help_pair(e, h, it->key, it->key2, it->help); break;
      case QT_LIVE_TEXT: help_text(e, h, it->help); break;
      case QT_LIVE_SCROLL:
        if (hi->scroll & SCROLL_PREVIEW)
          help_pair(e, h, QT_ACT_PREVIEW_UP, QT_ACT_PREVIEW_DOWN, QT_STR_HELP_READ_PREVIEW);
        if (hi->scroll & SCROLL_PAGES)
          help_pair(e, h, QT_ACT_PAGE_UP, QT_ACT_PAGE_DOWN,
                    hi->scroll & SCROLL_REVIEW ? QT_STR_HELP_SCROLL : QT_STR_HELP_READ_PROMPT);
        break;
      case QT_LIVE_LETTER:
        if (help_start_item(h)) {
          qt_buf_puts(&h->text, qt_str(e, it->letter));
          qt_buf_putc(&h->text, ' ');
          qt_buf_puts(&h->text, qt_str(e, it->help));
          help_end_item(h);
        }
        break;
      case QT_LIVE_HIDDEN: break;
    }
  }
}

void qt_render_key_name(const qt_engine *e, qt_action a, qt_buf *out) {
  const qt_keyset *ks = &e->keys[a];
  if (ks->count) key_name(e, ks->key[0], ks->mods[0], out);
}

void qt_render_help_items(const qt_engine *e, qt_buf *out, const char *sep) {
  help_items hi;
  live_help(e, &e->layout, &hi); /* what the last frame showed */
  help h;
  qt_buf_init(&h.text);
  h.n = 0;
  collect_help(e, &hi, &h);
  if (h.text.failed) out->failed = true;
  for (size_t i = 0; i < h.n && !h.text.failed; i++) {
    if (i) qt_buf_puts(out, sep);
    qt_buf_puts(out, h.text.data + h.off[i]);
  }
  qt_buf_free(&h.text);
}

/* Copies the lines r->out[first..] into `keep` (the help line's, for next time). */
static void keep_lines(rctx *r, size_t first, qt_lines *keep) {
  qt_lines_reset(keep);
  for (size_t i = first; i < r->out->count && !keep->buf.failed; i++) {
    const char *line = r->out->buf.data + r->out->off[i];
    rctx k = *r;
    k.out = keep;
    lb b;
    lb_begin(&k, &b);
    qt_buf_puts(&keep->buf, line);
    b.w = r->out->width[i];
    lb_end(&b);
    if (k.failed) keep->buf.failed = true;
  }
}

/* The help line's key in d->help_key: its items, the width and the width rules. */
typedef struct help_line_key {
  help_items items;
  int width;
  unsigned rules;
} help_line_key;

void qt_rd_draw_help(rctx *r) {
  qt_draw *d = r->d;
  const qt_engine *e = r->e;
  help_line_key key;
  memset(&key, 0, sizeof key);
  live_help(e, r->lay, &key.items); /* this frame's layout */
  key.width = r->width;
  key.rules = qt_width_rules();
  /* The same items at the same width under the same width rules (and in the same styles, keys
   * and language: qt_engine_set_style, _bind and _set_language forget it) give the same lines:
   * drawn again from what was kept. */
  if (d->help_key.len == sizeof key && memcmp(d->help_key.data, &key, sizeof key) == 0) {
    for (size_t i = 0; i < d->help_lines.count; i++) {
      lb b;
      lb_begin(r, &b);
      qt_buf_puts(&r->out->buf, d->help_lines.buf.data + d->help_lines.off[i]);
      b.w = d->help_lines.width[i];
      lb_end(&b);
    }
    return;
  }
  help h;
  qt_buf_init(&h.text);
  h.n = 0;
  collect_help(e, &key.items, &h);
  if (h.text.failed) r->failed = true;
  if (!h.n || h.text.failed) {
    qt_buf_free(&h.text);
    return;
  }
  size_t first = r->out->count;
  int m = margin(r), sep = (int)qt_visible_width(HELP_SEP, sizeof HELP_SEP - 1);
  lb b;
  lb_begin(r, &b);
  lb_spaces(&b, m);
  for (size_t i = 0; i < h.n; i++) {
    const char *item = h.text.data + h.off[i];
    size_t len = strlen(item);
    int w = (int)qt_visible_width(item, len);
    if (i > 0 && b.w + sep + w > r->width) {
      lb_end(&b);
      lb_begin(r, &b);
      lb_spaces(&b, m);
    } else if (i > 0) {
      lb_str(&b, QT_STYLE_DIM, HELP_SEP);
    }
    qt_rd_put_wrapped(r, &b, m, QT_STYLE_DIM, item, len);
  }
  lb_end(&b);
  qt_buf_reset(&d->help_key);
  if (!r->failed && !r->out->buf.failed) {
    keep_lines(r, first, &d->help_lines);
    if (!d->help_lines.buf.failed) qt_buf_append(&d->help_key, (const char *)&key, sizeof key);
    if (d->help_key.failed) qt_buf_reset(&d->help_key);
  }
  qt_buf_free(&h.text);
}
