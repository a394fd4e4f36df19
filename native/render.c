/* render.c — draws the engine's state as lines for a width: tab bar, prompt, option list
 * with its scroll window, text entry with the cursor, preview (beside or below), review,
 * messages and the help line.
 *
 * Every line is built through a line builder that refuses to pass the width: text is cut at
 * a grapheme boundary when it cannot fit, so no line is ever wider than asked, whatever the
 * width. Text is wrapped (preferring spaces) before it would be cut; only at widths too small
 * for a prefix does anything get cut. The only bytes emitted besides text are the host's
 * style strings and cursor marker. The cost of a frame follows the lines drawn, not the
 * number of options: only the rows inside the list window are laid out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

/* Symbols that are the same in every language. */
static const char RULE[] = "─";
static const char MARK_CURRENT[] = "■";
static const char MARK_OPEN[] = "□";
static const char MARK_DONE[] = "✓";
static const char POINTER[] = "> ";
static const char BOX_ON[] = "[x] ";
static const char BOX_OFF[] = "[ ] ";
static const char HELP_SEP[] = " • ";
static const char TAB_SEP[] = "  ";
static const char MORE_LEFT[] = "‹ ";
static const char MORE_RIGHT[] = " ›";
static const char COLUMN_SEP[] = " │ ";
static const char PREVIEW_BAR[] = " │ "; /* below the list; without the margin from [1] */

#define PLAIN QT_STYLE_COUNT /* "no style" for the builder */

/* ---- frames and lines ----------------------------------------------------------------------- */
typedef struct rctx {
  qt_engine *e;
  qt_lines *out; /* where finished lines go */
  int width;     /* columns of that target */
  qt_buf tmp;    /* scratch text */
  bool failed;   /* an allocation failed */
} rctx;

/* One line being built. Only one is open per target at a time. */
typedef struct lb {
  rctx *r;
  size_t start; /* offset of the line in r->out->buf */
  int w;        /* columns used */
} lb;

static void lines_reset(qt_lines *l) {
  qt_buf_reset(&l->buf);
  l->count = 0;
}

static void lb_begin(rctx *r, lb *b) {
  b->r = r;
  b->start = r->out->buf.len;
  b->w = 0;
}

static void lb_end(lb *b) {
  qt_lines *l = b->r->out;
  qt_buf_putc(&l->buf, '\0');
  if (l->count == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 64;
    size_t *off = realloc(l->off, cap * sizeof *off);
    if (off) l->off = off;
    int *w = off ? realloc(l->width, cap * sizeof *w) : NULL;
    if (w) l->width = w;
    if (!off || !w) {
      b->r->failed = true;
      return;
    }
    l->cap = cap;
  }
  l->off[l->count] = b->start;
  l->width[l->count++] = b->w;
}

/* End of the grapheme cluster at pos and its width in *w. Printable ASCII followed by ASCII
 * is a cluster of its own, one column wide: the fast path for most text. */
static size_t cluster(const char *s, size_t n, size_t pos, int *w) {
  unsigned char c = (unsigned char)s[pos];
  if (c >= 0x20 && c < 0x7F && (pos + 1 == n || (unsigned char)s[pos + 1] < 0x80)) {
    *w = 1;
    return pos + 1;
  }
  size_t g = qt_grapheme_next(s, n, pos);
  if (g <= pos) g = pos + 1;
  int gw = qt_grapheme_width(s + pos, g - pos);
  *w = gw < 0 ? 0 : gw;
  return g;
}

/* Zero-width bytes (the cursor marker). */
static void lb_raw(lb *b, const char *s) { qt_buf_puts(&b->r->out->buf, s); }

/* Appends as many whole graphemes of s[0..n) as fit, wrapped in `style`; returns the bytes taken. */
static size_t lb_text(lb *b, int style, const char *s, size_t n) {
  qt_engine *e = b->r->e;
  qt_buf *out = &b->r->out->buf;
  size_t pos = 0;
  int w = b->w, gw;
  while (pos < n) {
    size_t next = cluster(s, n, pos, &gw);
    if (w + gw > b->r->width) break;
    w += gw;
    pos = next;
  }
  if (pos == 0) return 0;
  if (style != PLAIN) qt_buf_puts(out, e->style_open[style]);
  qt_buf_append(out, s, pos);
  if (style != PLAIN) qt_buf_puts(out, e->style_close[style]);
  b->w = w;
  return pos;
}

static void lb_str(lb *b, int style, const char *s) { lb_text(b, style, s, strlen(s)); }

static void lb_spaces(lb *b, int n) {
  while (n-- > 0 && b->w < b->r->width) {
    qt_buf_putc(&b->r->out->buf, ' ');
    b->w++;
  }
}

static void blank_line(rctx *r) {
  lb b;
  lb_begin(r, &b);
  lb_end(&b);
}

static void rule_line(rctx *r) {
  lb b;
  lb_begin(r, &b);
  qt_buf *out = &r->out->buf;
  qt_buf_puts(out, r->e->style_open[QT_STYLE_BORDER]);
  if (qt_buf_reserve(out, (size_t)r->width * (sizeof RULE - 1))) {
    for (int i = 0; i < r->width; i++) memcpy(out->data + out->len + (size_t)i * (sizeof RULE - 1), RULE, sizeof RULE - 1);
    out->len += (size_t)r->width * (sizeof RULE - 1);
    out->data[out->len] = '\0';
  }
  qt_buf_puts(out, r->e->style_close[QT_STYLE_BORDER]);
  b.w = r->width;
  lb_end(&b);
}

/* The question's own text fields have the keyboard: not finished, no discussion field open. */
static bool typing_live(const qt_engine *e) { return !e->done && !e->discuss_open; }

/* The left margin: one column, unless the width has no room for it. */
static int margin(const rctx *r) { return r->width > 2 ? 1 : 0; }

/* ---- wrapping ------------------------------------------------------------------------------- */
/* One line of s[pos..n) for `avail` columns: its text is s[pos..*end), the next line starts at
 * *next. Breaks at a line break, else after the last space that fits, else between graphemes;
 * a grapheme wider than the line goes alone (the builder cuts it). */
static void wrap_line(const char *s, size_t n, size_t pos, int avail, size_t *end, size_t *next) {
  size_t i = pos, space = SIZE_MAX;
  int w = 0;
  while (i < n) {
    if (s[i] == '\n') {
      *end = i;
      *next = i + 1;
      return;
    }
    int gw;
    size_t g = cluster(s, n, i, &gw);
    if (w + gw > avail) {
      if (i == pos) {
        *end = *next = g;
      } else if (s[i] == ' ') {
        *end = i;
        *next = i + 1;
      } else if (space != SIZE_MAX) {
        *end = space;
        *next = space + 1;
      } else {
        *end = *next = i;
      }
      return;
    }
    if (s[i] == ' ') space = i;
    w += gw;
    i = g;
  }
  *end = *next = n;
}

/* Writes s[0..n) wrapped: the first part continues the open line *b, later lines start with
 * `indent` spaces. The last line stays open in *b. */
static void put_wrapped(rctx *r, lb *b, int indent, int style, const char *s, size_t n) {
  if (indent >= r->width) indent = 0;
  size_t pos = 0;
  bool first = true;
  while (pos < n) {
    if (!first) {
      lb_end(b);
      lb_begin(r, b);
      lb_spaces(b, indent);
    }
    first = false;
    int avail = r->width - b->w;
    if (avail < 1) continue; /* the prefix took the line: go on below it */
    size_t end, next;
    wrap_line(s, n, pos, avail, &end, &next);
    lb_text(b, style, s + pos, end - pos);
    pos = next;
  }
}

static void put_wrapped_str(rctx *r, lb *b, int indent, int style, const char *s) {
  put_wrapped(r, b, indent, style, s, strlen(s));
}

/* A whole paragraph on lines of its own, each starting with `indent` spaces. */
static void paragraph(rctx *r, int indent, int style, const char *s, size_t n) {
  lb b;
  if (indent >= r->width) indent = 0;
  lb_begin(r, &b);
  lb_spaces(&b, indent);
  put_wrapped(r, &b, indent, style, s, n);
  lb_end(&b);
}

/* Fills r->tmp with template `id`, {n} and {s} replaced. */
static const char *fmt(rctx *r, qt_string_id id, size_t n, const char *s) {
  qt_buf_reset(&r->tmp);
  qt_format(&r->tmp, qt_str(r->e, id), n, s);
  if (!r->tmp.data || r->tmp.failed) {
    r->failed = r->tmp.failed;
    return "";
  }
  return r->tmp.data;
}

/* ---- text editors --------------------------------------------------------------------------- */
static bool grow(void **p, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return true;
  size_t c = *cap ? *cap : 64;
  while (c < need) c *= 2;
  void *q = realloc(*p, c * size);
  if (!q) return false;
  *p = q;
  *cap = c;
  return true;
}

static bool add_cell(qt_engine *e, size_t *n, qt_cell cell) {
  if (!grow((void **)&e->cells, &e->cell_cap, *n + 1, sizeof *e->cells)) return false;
  e->cells[(*n)++] = cell;
  return true;
}

/* Lays the editor's text out in cells (one per grapheme, sanitized for display). */
static bool build_cells(qt_engine *e, const qt_editor *ed, bool with_end, size_t *count) {
  const char *s = qt_editor_text(ed);
  size_t len = qt_editor_len(ed), pos = 0, n = 0;
  qt_buf_reset(&e->cell_text);
  while (pos < len) {
    int gw;
    size_t g = cluster(s, len, pos, &gw);
    qt_cell c = {.raw = pos, .disp = e->cell_text.len};
    if (s[pos] == '\n') {
      c.kind = QT_CELL_NEWLINE;
      c.width = 1;
      g = pos + 1;
    } else if (g == pos + 1 && gw == 1) { /* printable ASCII: shown as it is */
      qt_buf_putc(&e->cell_text, s[pos]);
      c.disp_len = 1;
      c.width = 1;
      c.kind = s[pos] == ' ' ? QT_CELL_SPACE : QT_CELL_TEXT;
    } else {
      if (!qt_sanitize(&e->cell_text, s + pos, g - pos, 0) || !e->cell_text.data) return false; /* out of memory */
      c.disp_len = e->cell_text.len - c.disp;
      c.width = (int)qt_visible_width(e->cell_text.data + c.disp, c.disp_len);
      c.kind = g - pos == 1 && s[pos] == ' ' ? QT_CELL_SPACE : QT_CELL_TEXT;
    }
    if (!add_cell(e, &n, c)) return false;
    pos = g;
  }
  if (with_end && !add_cell(e, &n, (qt_cell){.raw = len, .width = 1, .kind = QT_CELL_END})) return false;
  *count = n;
  return !e->cell_text.failed;
}

/* Draws an editor. *b is the open line (its prefix written); later lines start at `indent`.
 * A focused editor shows the cursor (the host's marker, then the cursor style around the
 * character under it) and scrolls to keep it in view. Ends the last line. */
static void draw_editor(rctx *r, lb *b, const qt_editor *ed, int indent, bool focused, int style) {
  qt_engine *e = r->e;
  size_t n = 0;
  if (indent >= r->width) indent = 0;
  if (!build_cells(e, ed, focused, &n)) {
    r->failed = true;
    lb_end(b);
    return;
  }
  if (r->width - b->w < 1) { /* no room after the prefix */
    lb_end(b);
    lb_begin(r, b);
    lb_spaces(b, indent);
  }
  /* wrap the cells into lines */
  size_t lines = 0, i = 0;
  int avail = r->width - b->w;
  while (i < n || lines == 0) {
    if (!grow((void **)&e->cell_lines, &e->cell_line_cap, lines + 2, sizeof *e->cell_lines)) {
      r->failed = true;
      lb_end(b);
      return;
    }
    e->cell_lines[lines++] = i;
    size_t start = i, space = SIZE_MAX;
    int w = 0;
    while (i < n) {
      const qt_cell *c = &e->cells[i];
      if (w + c->width > avail && i > start) {
        if (space != SIZE_MAX) i = space + 1;
        break;
      }
      w += c->width;
      i++;
      if (c->kind == QT_CELL_SPACE) space = i - 1;
      if (c->kind == QT_CELL_NEWLINE) break;
    }
    avail = r->width - indent;
    if (i >= n) break;
  }
  e->cell_lines[lines] = n;
  /* the cursor's cell and line */
  size_t cur = SIZE_MAX, cur_line = 0;
  if (focused) {
    for (size_t k = 0; k < n; k++)
      if (e->cells[k].raw <= ed->cursor && (k + 1 == n || e->cells[k + 1].raw > ed->cursor)) cur = k;
    for (size_t l = 0; l < lines; l++)
      if (e->cell_lines[l] <= cur) cur_line = l;
  }
  size_t first = 0, last = lines;
  if (lines > QT_EDITOR_WINDOW) {
    if (cur_line >= QT_EDITOR_WINDOW) first = cur_line - QT_EDITOR_WINDOW + 1;
    last = first + QT_EDITOR_WINDOW;
  }
  if (first > 0) {
    lb_str(b, QT_STYLE_DIM, fmt(r, QT_STR_LINES_ABOVE, first, NULL));
    lb_end(b);
    lb_begin(r, b);
    lb_spaces(b, indent);
  }
  for (size_t l = first; l < last; l++) {
    if (l > first) {
      lb_end(b);
      lb_begin(r, b);
      lb_spaces(b, indent);
    }
    for (size_t k = e->cell_lines[l]; k < e->cell_lines[l + 1]; k++) {
      const qt_cell *c = &e->cells[k];
      bool text = c->kind == QT_CELL_TEXT || c->kind == QT_CELL_SPACE;
      if (k == cur) {
        lb_raw(b, e->cursor_marker);
        if (text)
          lb_text(b, QT_STYLE_CURSOR, e->cell_text.data + c->disp, c->disp_len);
        else
          lb_text(b, QT_STYLE_CURSOR, " ", 1);
      } else if (text) {
        lb_text(b, style, e->cell_text.data + c->disp, c->disp_len);
      }
    }
  }
  lb_end(b);
  if (last < lines) paragraph(r, indent, QT_STYLE_DIM, fmt(r, QT_STR_LINES_BELOW, lines - last, NULL), r->tmp.len);
}

/* ---- help line ------------------------------------------------------------------------------ */
typedef struct help {
  qt_buf text;   /* items, each followed by '\0' */
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
      {QT_KEY_ENTER, QT_STR_KEY_ENTER},       {QT_KEY_TAB, QT_STR_KEY_TAB},
      {QT_KEY_ESCAPE, QT_STR_KEY_ESCAPE},     {QT_KEY_BACKSPACE, QT_STR_KEY_BACKSPACE},
      {QT_KEY_SPACE, QT_STR_KEY_SPACE},       {QT_KEY_DELETE, QT_STR_KEY_DELETE},
      {QT_KEY_INSERT, QT_STR_KEY_INSERT},     {QT_KEY_CLEAR, QT_STR_KEY_CLEAR},
      {QT_KEY_HOME, QT_STR_KEY_HOME},         {QT_KEY_END, QT_STR_KEY_END},
      {QT_KEY_PAGE_UP, QT_STR_KEY_PAGE_UP},   {QT_KEY_PAGE_DOWN, QT_STR_KEY_PAGE_DOWN},
      {QT_KEY_UP, QT_STR_KEY_UP},             {QT_KEY_DOWN, QT_STR_KEY_DOWN},
      {QT_KEY_LEFT, QT_STR_KEY_LEFT},         {QT_KEY_RIGHT, QT_STR_KEY_RIGHT},
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

static void help_end_item(help *h) {
  qt_buf_putc(&h->text, '\0');
}

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
  if (k1->mods[0] || k2->mods[0] || k1->key[0] != QT_KEY_UP || k2->key[0] != QT_KEY_DOWN) qt_buf_putc(&h->text, '/');
  key_name(e, k2->key[0], k2->mods[0], &h->text);
  qt_buf_putc(&h->text, ' ');
  qt_buf_puts(&h->text, qt_str(e, what));
  help_end_item(h);
}

static void help_text(const qt_engine *e, help *h, qt_string_id what) {
  if (!help_start_item(h)) return;
  qt_buf_puts(&h->text, qt_str(e, what));
  help_end_item(h);
}

/* The discussion field (issue 14 item 5). */
static void help_discussing(const qt_engine *e, help *h) {
  help_key(e, h, QT_ACT_CONFIRM, QT_STR_HELP_SEND);
  help_key(e, h, QT_ACT_NEW_LINE, QT_STR_HELP_NEW_LINE);
  help_key(e, h, QT_ACT_CANCEL, QT_STR_HELP_BACK_TO_QUESTION);
}

/* The keys that work in the current state. */
static void collect_help(const qt_engine *e, help *h) {
  if (e->overlay != QT_OVERLAY_NONE) {
    if (help_start_item(h)) {
      qt_buf_puts(&h->text, qt_str(e, QT_STR_KEY_YES));
      qt_buf_putc(&h->text, ' ');
      qt_buf_puts(&h->text, qt_str(e, QT_STR_HELP_YES));
      help_end_item(h);
    }
    if (help_start_item(h)) {
      qt_buf_puts(&h->text, qt_str(e, QT_STR_KEY_NO));
      qt_buf_putc(&h->text, ' ');
      qt_buf_puts(&h->text, qt_str(e, QT_STR_HELP_NO));
      help_end_item(h);
    }
    return;
  }
  if (e->discuss_open) {
    help_discussing(e, h);
    return;
  }
  if (e->current >= e->req->question_count) {
    help_key(e, h, QT_ACT_CONFIRM, QT_STR_HELP_SUBMIT);
    help_key(e, h, QT_ACT_NEXT, QT_STR_HELP_NEXT);
    help_key(e, h, QT_ACT_PREV, QT_STR_HELP_PREV);
    help_text(e, h, QT_STR_HELP_GOTO);
    help_key(e, h, QT_ACT_DECLINE, QT_STR_HELP_DECLINE);
    help_key(e, h, QT_ACT_DISCUSS, QT_STR_HELP_DISCUSS);
    help_key(e, h, QT_ACT_CANCEL, QT_STR_HELP_CANCEL);
    return;
  }
  const qt_qstate *s = &e->qs[e->current];
  bool multi_select = s->q->multi_select;
  switch (s->view) {
    case QT_VIEW_LIST:
      help_pair(e, h, QT_ACT_UP, QT_ACT_DOWN, QT_STR_HELP_MOVE);
      if (multi_select) help_key(e, h, QT_ACT_TOGGLE, QT_STR_HELP_TOGGLE);
      help_key(e, h, QT_ACT_CONFIRM, multi_select ? QT_STR_HELP_CONFIRM : QT_STR_HELP_SELECT);
      help_text(e, h, multi_select ? QT_STR_HELP_QUICK_TOGGLE : QT_STR_HELP_QUICK_PICK);
      help_text(e, h, QT_STR_HELP_TYPE);
      help_key(e, h, QT_ACT_FILTER, QT_STR_HELP_FILTER);
      if (e->multi) {
        help_key(e, h, QT_ACT_NEXT, QT_STR_HELP_NEXT);
        help_key(e, h, QT_ACT_PREV, QT_STR_HELP_PREV);
      }
      help_key(e, h, QT_ACT_NOTE, QT_STR_HELP_NOTE);
      help_key(e, h, QT_ACT_DECLINE, QT_STR_HELP_DECLINE);
      help_key(e, h, QT_ACT_DISCUSS, QT_STR_HELP_DISCUSS);
      help_key(e, h, QT_ACT_CANCEL, s->filter_on ? QT_STR_HELP_CLEAR_FILTER : QT_STR_HELP_CANCEL);
      break;
    case QT_VIEW_ENTRY:
      help_key(e, h, QT_ACT_CONFIRM, QT_STR_HELP_SUBMIT);
      help_key(e, h, QT_ACT_NEW_LINE, QT_STR_HELP_NEW_LINE);
      if (e->multi) {
        help_key(e, h, QT_ACT_NEXT, QT_STR_HELP_NEXT);
        help_key(e, h, QT_ACT_PREV, QT_STR_HELP_PREV);
      }
      help_key(e, h, QT_ACT_NOTE, QT_STR_HELP_NOTE);
      if (!qt_editor_len(&s->draft)) help_key(e, h, QT_ACT_DECLINE, QT_STR_HELP_DECLINE);
      help_key(e, h, QT_ACT_DISCUSS, QT_STR_HELP_DISCUSS);
      help_key(e, h, QT_ACT_CANCEL, s->q->option_count ? QT_STR_HELP_BACK : QT_STR_HELP_CANCEL);
      break;
    case QT_VIEW_FILTER:
      help_text(e, h, QT_STR_HELP_TYPE_FILTER);
      help_pair(e, h, QT_ACT_UP, QT_ACT_DOWN, QT_STR_HELP_MOVE);
      help_key(e, h, QT_ACT_CONFIRM, multi_select ? QT_STR_HELP_DONE : QT_STR_HELP_SELECT);
      help_key(e, h, QT_ACT_CANCEL, QT_STR_HELP_CLEAR_FILTER);
      break;
    case QT_VIEW_NOTE:
      help_key(e, h, QT_ACT_CONFIRM, QT_STR_HELP_DONE);
      break;
  }
}

static void draw_help(rctx *r) {
  help h;
  qt_buf_init(&h.text);
  h.n = 0;
  collect_help(r->e, &h);
  if (h.text.failed) r->failed = true;
  if (!h.n || h.text.failed) {
    qt_buf_free(&h.text);
    return;
  }
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
    put_wrapped(r, &b, m, QT_STYLE_DIM, item, len);
  }
  lb_end(&b);
  qt_buf_free(&h.text);
}

/* ---- tab bar -------------------------------------------------------------------------------- */
static const char *tab_title(const qt_engine *e, size_t i, bool all) {
  if (i < e->req->question_count) return e->qs[i].tab;
  return qt_str(e, all ? QT_STR_TAB_SUBMIT : QT_STR_TAB_REVIEW);
}

static int tab_width(const qt_engine *e, size_t i, bool all) {
  const char *t = tab_title(e, i, all);
  return 2 + (int)qt_visible_width(t, strlen(t)); /* mark, space, title */
}

static void draw_tabs(rctx *r) {
  qt_engine *e = r->e;
  size_t n = e->req->question_count + 1, cur = e->current, lo = cur, hi = cur;
  bool all = true;
  for (size_t i = 0; i < e->req->question_count; i++) all &= e->answers[i].present;
  int m = margin(r), sep = (int)sizeof TAB_SEP - 1, used = tab_width(e, cur, all);
  /* widen the window of tabs around the current one while it fits */
  for (bool grew = true; grew;) {
    grew = false;
    for (int side = 0; side < 2; side++) {
      size_t cand = side == 0 ? hi + 1 : lo - 1;
      if ((side == 0 && hi + 1 >= n) || (side == 1 && lo == 0)) continue;
      size_t nlo = side ? cand : lo, nhi = side ? hi : cand;
      int need = m + used + sep + tab_width(e, cand, all) + (nlo > 0 ? 2 : 0) + (nhi + 1 < n ? 2 : 0);
      if (need <= r->width) {
        used += sep + tab_width(e, cand, all);
        lo = nlo;
        hi = nhi;
        grew = true;
      }
    }
  }
  lb b;
  lb_begin(r, &b);
  lb_spaces(&b, m);
  if (lo > 0) lb_str(&b, QT_STYLE_DIM, MORE_LEFT);
  for (size_t i = lo; i <= hi; i++) {
    if (i > lo) lb_str(&b, PLAIN, TAB_SEP);
    bool answered = i < e->req->question_count ? e->answers[i].present : all;
    const char *mark = i == cur ? MARK_CURRENT : answered ? MARK_DONE : MARK_OPEN;
    int mark_style = i == cur ? QT_STYLE_ACCENT : answered ? QT_STYLE_SUCCESS : QT_STYLE_DIM;
    lb_str(&b, mark_style, mark);
    lb_str(&b, PLAIN, " ");
    lb_str(&b, i == cur ? QT_STYLE_ACCENT : answered ? PLAIN : QT_STYLE_DIM, tab_title(e, i, all));
  }
  if (hi + 1 < n) lb_str(&b, QT_STYLE_DIM, MORE_RIGHT);
  lb_end(&b);
}

/* ---- the option list ------------------------------------------------------------------------ */
static int digits(size_t v) {
  int d = 1;
  while (v >= 10) v /= 10, d++;
  return d;
}

static void draw_row(rctx *r, const qt_qstate *s, size_t qi, size_t row) {
  qt_engine *e = r->e;
  size_t k = qt_list_option_at(s, row);
  const qt_answer *a = &e->answers[qi];
  bool hl = row == s->highlight, other = k == SIZE_MAX;
  int m = margin(r);
  int indent = m + 2 + (s->q->multi_select ? 4 : 0) + digits(row + 1) + 2;
  char num[32];
  snprintf(num, sizeof num, "%zu. ", row + 1);
  lb b;
  lb_begin(r, &b);
  lb_spaces(&b, m);
  if (hl)
    lb_str(&b, QT_STYLE_ACCENT, POINTER);
  else
    lb_spaces(&b, 2);
  if (s->q->multi_select) {
    bool on = other ? a->custom != NULL : s->ticked[k];
    lb_str(&b, on ? QT_STYLE_SUCCESS : PLAIN, on ? BOX_ON : BOX_OFF);
  }
  lb_str(&b, hl ? QT_STYLE_ACCENT : PLAIN, num);
  const char *label = other ? qt_str(e, QT_STR_SOMETHING_ELSE) : s->opts[k].label;
  put_wrapped_str(r, &b, indent, hl ? QT_STYLE_SELECTED : PLAIN, label);
  bool chosen = !s->q->multi_select && a->present &&
                (other ? a->custom != NULL : a->index_count && a->indices[0] == k + 1);
  if (chosen) {
    if (b.w + 2 > r->width) {
      lb_end(&b);
      lb_begin(r, &b);
      lb_spaces(&b, indent < r->width ? indent : 0);
    } else {
      lb_str(&b, PLAIN, " ");
    }
    lb_str(&b, QT_STYLE_SUCCESS, MARK_DONE);
  }
  lb_end(&b);
  if (!other && s->opts[k].description) {
    paragraph(r, indent, QT_STYLE_MUTED, s->opts[k].description, strlen(s->opts[k].description));
  } else if (other && (s->view == QT_VIEW_ENTRY || !qt_editor_blank(&s->draft))) {
    lb_begin(r, &b);
    lb_spaces(&b, indent < r->width ? indent : 0);
    draw_editor(r, &b, &s->draft, indent, s->view == QT_VIEW_ENTRY && e->current == qi && typing_live(e),
                s->view == QT_VIEW_ENTRY ? PLAIN : QT_STYLE_MUTED);
  }
}

/* The list block: filter line, scroll hints, the rows in the window. */
static void draw_list(rctx *r, const qt_qstate *s, size_t qi) {
  int m = margin(r), hint = m + 2 < r->width ? m + 2 : 0;
  lb b;
  if (s->view == QT_VIEW_FILTER || s->filter_on) {
    lb_begin(r, &b);
    lb_spaces(&b, m);
    const char *prefix = qt_str(r->e, QT_STR_FILTER_PREFIX);
    lb_str(&b, QT_STYLE_DIM, prefix);
    int indent = m + (int)qt_visible_width(prefix, strlen(prefix));
    if (s->view == QT_VIEW_FILTER) {
      draw_editor(r, &b, &s->filter, indent, typing_live(r->e), PLAIN);
    } else {
      draw_editor(r, &b, &s->filter, indent, false, QT_STYLE_DIM);
    }
  }
  size_t rows = qt_list_rows(s), end = s->scroll + QT_LIST_WINDOW;
  if (end > rows) end = rows;
  if (s->scroll > 0) {
    const char *t = fmt(r, QT_STR_MORE_ABOVE, s->scroll, NULL);
    paragraph(r, hint, QT_STYLE_DIM, t, strlen(t));
  }
  if (s->filter_on && s->shown_count == 0) {
    const char *t = qt_str(r->e, QT_STR_NO_MATCHES);
    paragraph(r, hint, QT_STYLE_DIM, t, strlen(t));
  }
  for (size_t row = s->scroll; row < end; row++) draw_row(r, s, qi, row);
  if (end < rows) {
    const char *t = fmt(r, QT_STR_MORE_BELOW, rows - end, NULL);
    paragraph(r, hint, QT_STYLE_DIM, t, strlen(t));
  }
}

/* ---- preview -------------------------------------------------------------------------------- */
/* The preview of the highlighted option at the target's width, after `bar` (may be ""). */
static void draw_preview(rctx *r, const qt_qstate *s, const char *bar, bool say_none) {
  size_t k = qt_list_option_at(s, s->highlight);
  const char *text = k == SIZE_MAX ? NULL : s->opts[k].preview;
  int barw = (int)qt_visible_width(bar, strlen(bar));
  if (barw >= r->width) bar = "", barw = 0;
  lb b;
  if (!text) {
    if (!say_none) return;
    lb_begin(r, &b);
    lb_str(&b, QT_STYLE_BORDER, bar);
    lb_str(&b, QT_STYLE_DIM, qt_str(r->e, QT_STR_NO_PREVIEW));
    lb_end(&b);
    return;
  }
  size_t n = strlen(text), pos = 0;
  int avail = r->width - barw;
  for (int line = 0; pos < n && line < QT_PREVIEW_LINES; line++) {
    size_t end, next;
    wrap_line(text, n, pos, avail, &end, &next);
    lb_begin(r, &b);
    lb_str(&b, QT_STYLE_BORDER, bar);
    lb_text(&b, PLAIN, text + pos, end - pos);
    lb_end(&b);
    pos = next;
  }
  if (pos < n) {
    size_t more = 1;
    for (size_t i = pos; i + 1 < n; i++) more += text[i] == '\n';
    lb_begin(r, &b);
    lb_str(&b, QT_STYLE_BORDER, bar);
    lb_str(&b, QT_STYLE_DIM, fmt(r, QT_STR_PREVIEW_MORE, more, NULL));
    lb_end(&b);
  }
}

/* Draws the list into one column and the preview into another, then joins them. */
static void draw_beside(rctx *r, const qt_qstate *s, size_t qi) {
  qt_engine *e = r->e;
  int lw = (r->width - 3) / 2, rw = r->width - 3 - lw;
  qt_lines *frame = r->out;
  int width = r->width;
  lines_reset(&e->scratch[0]);
  lines_reset(&e->scratch[1]);
  r->out = &e->scratch[0];
  r->width = lw;
  draw_list(r, s, qi);
  r->out = &e->scratch[1];
  r->width = rw;
  draw_preview(r, s, "", true);
  r->out = frame;
  r->width = width;
  if (e->scratch[0].buf.failed || e->scratch[1].buf.failed) {
    r->failed = true;
    return;
  }
  size_t rows = e->scratch[0].count > e->scratch[1].count ? e->scratch[0].count : e->scratch[1].count;
  for (size_t i = 0; i < rows; i++) {
    lb b;
    lb_begin(r, &b);
    if (i < e->scratch[0].count) {
      qt_buf_puts(&frame->buf, e->scratch[0].buf.data + e->scratch[0].off[i]);
      b.w += e->scratch[0].width[i];
    }
    lb_spaces(&b, lw - b.w);
    lb_str(&b, QT_STYLE_BORDER, COLUMN_SEP);
    if (i < e->scratch[1].count) {
      qt_buf_puts(&frame->buf, e->scratch[1].buf.data + e->scratch[1].off[i]);
      b.w += e->scratch[1].width[i];
    }
    lb_end(&b);
  }
}

/* ---- screens -------------------------------------------------------------------------------- */
static void draw_note(rctx *r, const qt_qstate *s, size_t qi) {
  bool editing = s->view == QT_VIEW_NOTE && r->e->current == qi;
  if (!editing && qt_editor_blank(&s->note)) return;
  int m = margin(r);
  const char *prefix = qt_str(r->e, QT_STR_NOTE_PREFIX);
  int indent = m + (int)qt_visible_width(prefix, strlen(prefix));
  blank_line(r);
  lb b;
  lb_begin(r, &b);
  lb_spaces(&b, m);
  lb_str(&b, QT_STYLE_MUTED, prefix);
  draw_editor(r, &b, &s->note, indent, editing && typing_live(r->e), editing ? PLAIN : QT_STYLE_MUTED);
}

static void draw_question(rctx *r, size_t qi) {
  qt_engine *e = r->e;
  const qt_qstate *s = &e->qs[qi];
  int m = margin(r);
  paragraph(r, m, QT_STYLE_TITLE, s->prompt, strlen(s->prompt));
  blank_line(r);
  if (s->q->option_count == 0) {
    lb b;
    lb_begin(r, &b);
    lb_spaces(&b, m);
    lb_str(&b, QT_STYLE_ACCENT, POINTER);
    draw_editor(r, &b, &s->draft, m + 2, s->view == QT_VIEW_ENTRY && typing_live(e), PLAIN);
  } else if (s->has_preview && r->width >= QT_PREVIEW_BESIDE_WIDTH) {
    draw_beside(r, s, qi);
  } else {
    draw_list(r, s, qi);
    size_t k = qt_list_option_at(s, s->highlight);
    if (k != SIZE_MAX && s->opts[k].preview) {
      blank_line(r);
      draw_preview(r, s, m ? PREVIEW_BAR : PREVIEW_BAR + 1, false);
    }
  }
  draw_note(r, s, qi);
}

/* "Label: answer (typed)" and the note under it, for every question. */
static void draw_review(rctx *r) {
  qt_engine *e = r->e;
  int m = margin(r), indent = m + 2 < r->width ? m + 2 : 0;
  const char *title = qt_str(e, QT_STR_REVIEW_TITLE);
  paragraph(r, m, QT_STYLE_TITLE, title, strlen(title));
  blank_line(r);
  for (size_t i = 0; i < e->req->question_count; i++) {
    const qt_qstate *s = &e->qs[i];
    const qt_answer *a = &e->answers[i];
    qt_buf *t = &r->tmp;
    qt_buf_reset(t);
    qt_buf_puts(t, s->label);
    qt_buf_puts(t, ": ");
    if (!a->present) {
      qt_buf_puts(t, qt_str(e, QT_STR_NOT_ANSWERED));
    } else {
      for (size_t j = 0; j < a->index_count; j++) {
        if (j) qt_buf_puts(t, ", ");
        if (a->indices[j] >= 1 && a->indices[j] <= s->q->option_count) qt_buf_puts(t, s->opts[a->indices[j] - 1].label);
      }
      if (a->custom) {
        if (a->index_count) qt_buf_puts(t, ", ");
        qt_sanitize(t, a->custom, strlen(a->custom), 0);
      }
    }
    if (t->failed || !t->data) {
      r->failed = true;
      return;
    }
    lb b;
    lb_begin(r, &b);
    lb_spaces(&b, m);
    lb_str(&b, a->present ? QT_STYLE_SUCCESS : QT_STYLE_WARNING, a->present ? MARK_DONE : MARK_OPEN);
    lb_str(&b, PLAIN, " ");
    put_wrapped(r, &b, indent, a->present ? PLAIN : QT_STYLE_WARNING, t->data, t->len);
    if (a->custom) {
      put_wrapped_str(r, &b, indent, PLAIN, " ");
      put_wrapped_str(r, &b, indent, QT_STYLE_MUTED, qt_str(e, QT_STR_TYPED));
    }
    lb_end(&b);
    if (a->note) {
      qt_buf_reset(t);
      qt_buf_puts(t, qt_str(e, QT_STR_NOTE_PREFIX));
      qt_sanitize(t, a->note, strlen(a->note), 0);
      if (t->failed || !t->data) {
        r->failed = true;
        return;
      }
      paragraph(r, indent, QT_STYLE_MUTED, t->data, t->len);
    }
  }
}

/* The discussion field under the question (issue 14 item 5): "What do you want to tell the
 * agent?" and the text being typed. */
static void draw_discussion(rctx *r) {
  qt_engine *e = r->e;
  int m = margin(r);
  const char *title = qt_str(e, QT_STR_DISCUSS_PROMPT);
  blank_line(r);
  paragraph(r, m, QT_STYLE_ACCENT, title, strlen(title));
  lb b;
  lb_begin(r, &b);
  lb_spaces(&b, m);
  lb_str(&b, QT_STYLE_ACCENT, POINTER);
  draw_editor(r, &b, &e->discuss, m + 2, !e->done, PLAIN);
}

/* The confirmation in place of the message line. */
static void draw_overlay(rctx *r) {
  qt_engine *e = r->e;
  qt_string_id id = e->overlay == QT_OVERLAY_LONG      ? QT_STR_CONFIRM_LONG
                    : e->overlay_n == 0                ? QT_STR_CONFIRM_DISCARD_TEXT
                    : e->overlay_n == 1                ? QT_STR_CONFIRM_DISCARD_ONE
                                                       : QT_STR_CONFIRM_DISCARD_MANY;
  fmt(r, id, e->overlay_n, NULL);
  qt_buf_putc(&r->tmp, ' ');
  qt_buf_puts(&r->tmp, qt_str(e, QT_STR_YES_NO));
  if (r->tmp.failed) {
    r->failed = true;
    return;
  }
  paragraph(r, margin(r), QT_STYLE_WARNING, r->tmp.data, r->tmp.len);
}

qt_status qt_render_frame(qt_engine *e, int width) {
  if (width > 4096) width = 4096; /* lines may be narrower than asked, never wider */
  rctx r = {.e = e, .out = &e->frame, .width = width};
  qt_buf_init(&r.tmp);
  lines_reset(&e->frame);
  rule_line(&r);
  if (e->asker_name || e->asker_where) {
    const char *who = e->asker_name ? fmt(&r, QT_STR_ASKED_BY, 0, e->asker_name)
                                    : fmt(&r, QT_STR_ASKED_BY_SUBAGENT, 0, e->asker_where);
    paragraph(&r, margin(&r), QT_STYLE_MUTED, who, strlen(who));
  }
  if (e->multi) {
    draw_tabs(&r);
    blank_line(&r);
  }
  if (e->current >= e->req->question_count)
    draw_review(&r);
  else
    draw_question(&r, e->current);
  if (e->discuss_open) draw_discussion(&r);
  blank_line(&r);
  if (e->overlay != QT_OVERLAY_NONE)
    draw_overlay(&r);
  else if (e->flash.len)
    paragraph(&r, margin(&r), e->flash_style, e->flash.data, e->flash.len);
  draw_help(&r);
  rule_line(&r);
  bool failed = r.failed || r.tmp.failed || e->frame.buf.failed;
  qt_buf_free(&r.tmp);
  if (failed) {
    lines_reset(&e->frame);
    return QT_ERR_NOMEM;
  }
  return QT_OK;
}
