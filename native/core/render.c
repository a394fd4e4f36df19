/* render.c — draws the engine's state as lines for a width: tab bar, prompt, option list
 * with its scroll window, text entry with the cursor, preview (beside or below), review,
 * messages and the help line.
 *
 * Every line is built through a line builder that refuses to pass the width: text is cut at
 * a grapheme boundary when it cannot fit, so no line is ever wider than asked, whatever the
 * width. Text is wrapped (preferring spaces) before it would be cut; only at widths too small
 * for a prefix does anything get cut. The only bytes emitted besides text are the host's
 * style strings and cursor marker. The cost of a frame follows the lines drawn, not the
 * number of options: only the rows inside the list window are laid out.
 *
 * With a row limit (qt_engine_set_rows) no frame is taller: a frame drawn too tall is drawn
 * again with a line budget for each part (see fit_rows).
 *
 * Drawing never writes the state: the renderer gets the engine as `const` and writes only its
 * own memory (qt_draw: the frame and caches) and the layout it returns (qt_layout: where the
 * windows that scroll were shown, which the next key starts from). No cast here may drop the
 * const of the engine or of anything in it (tests/render-pure.test.mjs checks). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"
#include "lines.h"

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
/* The parts of a frame that share the rows when the host gives a height. */
enum { SEC_PROMPT = 0, SEC_BODY, SEC_PREVIEW, SEC_NOTE, SEC_DISCUSS, SEC_COUNT };
#define NO_LIMIT INT_MAX

typedef struct rctx {
  const qt_engine *e; /* the state drawn: read only */
  qt_draw *d;         /* the renderer's memory */
  qt_layout *lay;     /* what the frame shows of the windows that scroll (returned) */
  qt_layout lay0;     /* the same before the first line: each drawing pass starts from it */
  qt_lines *out;      /* where finished lines go */
  int width;          /* columns of that target */
  qt_buf tmp;         /* scratch text */
  bool failed;        /* an allocation failed */
  /* fitting the rows: see fit_rows() */
  int limit[SEC_COUNT];       /* most lines each part may take; NO_LIMIT: all it has */
  int natural[SEC_COUNT];     /* lines each part took */
  int editor_limit;           /* most lines the next editor drawn may take, its hints included */
  int squeeze;                /* 1: no spacer lines; 2: no rules either; 3: no tab bar either, who asks on one line */
  int spacers, rules, header; /* lines of each kind drawn */
  int filter_lines;           /* lines of the filter above the list */
  const qt_lines *cursor_out; /* where the focused editor drew its cursor, and on which line */
  size_t cursor_line;
  size_t asker_line; /* the frame's line saying who asks a relayed question; SIZE_MAX: none */
} rctx;

/* One line being built. Only one is open per target at a time. */
typedef struct lb {
  rctx *r;
  size_t start; /* offset of the line in r->out->buf */
  int w;        /* columns used */
} lb;

static void lb_begin(rctx *r, lb *b) {
  b->r = r;
  b->start = r->out->buf.len;
  b->w = 0;
}

static void lb_end(lb *b) {
  if (!qt_lines_end(b->r->out, b->start, b->w)) b->r->failed = true;
}

/* Zero-width bytes (the cursor marker). */
static void lb_raw(lb *b, const char *s) { qt_buf_puts(&b->r->out->buf, s); }

/* Appends as many whole graphemes of s[0..n) as fit, wrapped in `style`; returns the bytes taken. */
static size_t lb_text(lb *b, int style, const char *s, size_t n) {
  const qt_engine *e = b->r->e;
  qt_buf *out = &b->r->out->buf;
  size_t pos = 0;
  int w = b->w, gw;
  while (pos < n) {
    size_t next = qt_cluster(s, n, pos, &gw);
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

/* Appends s[0..n), already measured by wrap_line as w columns that fit, wrapped in `style`. */
static void lb_fitted(lb *b, int style, const char *s, size_t n, int w) {
  if (n == 0) return;
  const qt_engine *e = b->r->e;
  qt_buf *out = &b->r->out->buf;
  if (style != PLAIN) qt_buf_puts(out, e->style_open[style]);
  qt_buf_append(out, s, n);
  if (style != PLAIN) qt_buf_puts(out, e->style_close[style]);
  b->w += w;
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

/* An empty line between parts; the first thing left out when the rows are few. */
static void spacer_line(rctx *r) {
  if (r->squeeze >= 1) return;
  r->spacers++;
  blank_line(r);
}

static void rule_line(rctx *r) {
  if (r->squeeze >= 2) return;
  r->rules++;
  lb b;
  lb_begin(r, &b);
  qt_buf *out = &r->out->buf;
  qt_buf_puts(out, r->e->style_open[QT_STYLE_BORDER]);
  if (qt_buf_reserve(out, (size_t)r->width * (sizeof RULE - 1))) {
    for (int i = 0; i < r->width; i++)
      memcpy(out->data + out->len + (size_t)i * (sizeof RULE - 1), RULE, sizeof RULE - 1);
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

/* ---- wrapping (where lines break: lines.c) ---------------------------------------------------- */
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
    int w;
    qt_wrap_line(s, n, pos, avail, NULL, 0, &end, &next, &w);
    lb_fitted(b, style, s + pos, end - pos, w);
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

/* s[0..n) on one line from `indent`: cut at a grapheme boundary with "…" when it is too long. */
static void one_line(rctx *r, int indent, int style, const char *s, size_t n) {
  lb b;
  if (indent >= r->width) indent = 0;
  lb_begin(r, &b);
  lb_spaces(&b, indent);
  size_t i = 0;
  int w = 0, gw;
  while (i < n && s[i] != '\n') {
    size_t g = qt_cluster(s, n, i, &gw);
    if (b.w + w + gw > r->width) break;
    w += gw;
    i = g;
  }
  if (i < n && r->width - b.w >= 2) { /* cut: room for the ellipsis */
    int room = r->width - b.w - 1;
    i = 0, w = 0;
    while (i < n && s[i] != '\n') {
      size_t g = qt_cluster(s, n, i, &gw);
      if (w + gw > room) break;
      w += gw;
      i = g;
    }
    lb_fitted(&b, style, s, i, w);
    lb_str(&b, style, "…");
  } else {
    lb_fitted(&b, style, s, i, w);
  }
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
/* True when qt_sanitize would change the cluster s[0..n): a control byte (a tab: the editor
 * keeps no other), a C1 control or a bidirectional control. Everything else is shown as it is. */
static bool needs_sanitizing(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char b = (unsigned char)s[i];
    if (b < 0x20 || b == 0x7F) return true;
    if (b == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] <= 0x9F) return true; /* C1 */
    if (b == 0xD8 && i + 1 < n && (unsigned char)s[i + 1] == 0x9C) return true; /* U+061C */
    if (b == 0xE2 && i + 2 < n) {
      unsigned char c = (unsigned char)s[i + 1], d = (unsigned char)s[i + 2];
      if (c == 0x80 && (d == 0x8E || d == 0x8F || (d >= 0xAA && d <= 0xAE))) return true; /* U+200E/F, U+202A..E */
      if (c == 0x81 && d >= 0xA6 && d <= 0xA9) return true;                               /* U+2066..9 */
    }
  }
  return false;
}

/* The cell at `pos` of an editor's text: one grapheme, or (pos == len, with_end) the end, a
 * column for the cursor. Positions run to len + 1 when the end is a cell. With `show` the
 * display bytes (sanitized when they must be) are appended to `ct` and c->disp/disp_len say
 * where; without, only the width and kind are worked out (the fast path of laying out). */
static bool cell_at(qt_buf *ct, const char *s, size_t len, size_t pos, bool show, qt_cell *c, size_t *next) {
  c->raw = pos;
  c->disp = ct->len;
  c->disp_len = 0;
  if (pos >= len) {
    c->kind = QT_CELL_END;
    c->width = 1;
    *next = len + 1;
    return true;
  }
  int gw;
  size_t g = qt_grapheme_next_plain(s, len, pos, &gw);
  if (g > pos) { /* the common shape: shown as it is */
    *next = g;
    c->kind = g == pos + 1 && s[pos] == ' ' ? QT_CELL_SPACE : QT_CELL_TEXT;
    c->width = gw;
    if (show) {
      qt_buf_append(ct, s + pos, g - pos);
      c->disp_len = g - pos;
    }
    return !ct->failed;
  }
  g = s[pos] == '\n' ? pos + 1 : qt_grapheme_next_width(s, len, pos, &gw);
  if (g <= pos) g = pos + 1;
  *next = g;
  if (s[pos] == '\n') {
    c->kind = QT_CELL_NEWLINE;
    c->width = 1;
    return true;
  }
  c->kind = g == pos + 1 && s[pos] == ' ' ? QT_CELL_SPACE : QT_CELL_TEXT;
  if (!needs_sanitizing(s + pos, g - pos)) {
    c->width = gw;
    if (show) {
      qt_buf_append(ct, s + pos, g - pos);
      c->disp_len = g - pos;
    }
    return !ct->failed;
  }
  size_t mark = ct->len;
  if (!qt_sanitize(ct, s + pos, g - pos, 0) || !ct->data) return false; /* out of memory */
  c->width = (int)qt_visible_width(ct->data + mark, ct->len - mark);
  if (show)
    c->disp_len = ct->len - mark;
  else
    ct->len = mark;
  return true;
}

/* Lays out the lines of an editor's text from line `from` on (the ones before it are kept):
 * w->start[l] is where line l starts (a position, see cell_at), w->reach[l] the position after
 * the last grapheme the decision where it ends looked at. The first line has w->first columns,
 * the others w->avail; a line breaks after its last space when the next grapheme does not fit,
 * and after a newline. Keeps nothing per grapheme. */
static bool wrap_from(qt_buf *ct, qt_wrap_cache *w, const char *s, size_t len, size_t from) {
  size_t total = w->with_end ? len + 1 : len, lines = from;
  size_t pos = from ? w->start[from] : 0;
  int room = from ? w->avail : w->first;
  qt_buf_reset(ct);
  while (pos < total || lines == 0) {
    if (lines + 2 > w->cap) {
      size_t cap = w->cap ? w->cap * 2 : 64;
      size_t *st = realloc(w->start, cap * sizeof *st);
      if (st) w->start = st;
      size_t *re = st ? realloc(w->reach, cap * sizeof *re) : NULL;
      if (re) w->reach = re;
      if (!st || !re) return false;
      w->cap = cap;
    }
    w->start[lines] = pos;
    size_t start = pos, after_space = SIZE_MAX, reach = total;
    int used = 0;
    while (pos < total) {
      qt_cell c;
      size_t next, over;
      int over_width;
      /* the common clusters in one run, each code point decoded once */
      pos = qt_plain_run(s, len, pos, room, &used, &over, &over_width);
      if (over) {
        c.kind = QT_CELL_TEXT;
        c.width = over_width;
        next = over;
      } else if (pos >= total) {
        break;
      } else if (!cell_at(ct, s, len, pos, false, &c, &next)) {
        return false;
      }
      if (used + c.width > room && pos > start) {
        reach = next;
        if (after_space != SIZE_MAX) pos = after_space;
        break;
      }
      used += c.width;
      pos = next;
      if (c.kind == QT_CELL_SPACE) after_space = pos;
      if (c.kind == QT_CELL_NEWLINE) {
        reach = pos;
        break;
      }
    }
    w->reach[lines++] = reach;
    room = w->avail;
    if (pos >= total) break;
  }
  w->start[lines] = total;
  w->count = lines;
  return true;
}

/* How many bytes a[0..an) and b[0..bn) have in common at their start: one memcmp when they
 * are the same (a cursor move), else blocks of them, then bytes. */
static size_t common_prefix(const char *a, size_t an, const char *b, size_t bn) {
  size_t n = an < bn ? an : bn, i = 0;
  if (n && memcmp(a, b, n) == 0) return n;
  while (n - i >= 256 && memcmp(a + i, b + i, 256) == 0) i += 256;
  while (i < n && a[i] == b[i]) i++;
  return i;
}

/* The editor's layout for these columns. The renderer keeps, for each editor it drew lately, the
 * layout and a copy of the text it laid out (d->wraps); the layout is made again only from the
 * first line whose decision looked at the first byte that differs from that copy (every line
 * after a change at the end, none after a cursor move). The editor is only read: comparing
 * costs a memcmp of the text, laying out what changed. */
static const qt_wrap_cache *wrap_editor(qt_draw *d, const qt_editor *ed, bool with_end, int first, int avail) {
  const char *text = qt_editor_text(ed);
  size_t len = qt_editor_len(ed), from = 0;
  qt_wrap_cache *w = NULL;
  for (size_t i = 0; i < QT_WRAP_SLOTS && !w; i++)
    if (d->wraps[i].editor == ed) w = &d->wraps[i];
  if (!w) { /* the slot used longest ago */
    w = &d->wraps[0];
    for (size_t i = 1; i < QT_WRAP_SLOTS; i++)
      if (d->wraps[i].used < w->used) w = &d->wraps[i];
    w->editor = ed;
    w->valid = false;
  }
  w->used = ++d->wrap_clock;
  unsigned rules = qt_width_rules();
  size_t same = 0; /* bytes at the start of the text the copy still holds */
  if (w->valid && w->first == first && w->avail == avail && w->with_end == with_end && w->rules == rules) {
    const char *old = w->text.data ? w->text.data : "";
    same = common_prefix(old, w->text.len, text, len);
    if (same == len && same == w->text.len) return w;
    /* from the start of the code point that differs: the lines before it looked at none of it */
    while (same > 0 && same < len && ((unsigned char)text[same] & 0xC0) == 0x80) same--;
    while (from < w->count && w->reach[from] < same) from++;
  }
  w->valid = false;
  w->first = first;
  w->avail = avail;
  w->with_end = with_end;
  w->rules = rules;
  if (!wrap_from(&d->cell_text, w, text, len, from)) return NULL;
  /* the copy: what it holds from `same` on is replaced (a copy that failed is no cache) */
  if (same > w->text.len) same = w->text.len;
  w->text.len = same;
  if (w->text.data) w->text.data[same] = '\0';
  w->text.failed = false;
  w->valid = qt_buf_append(&w->text, text + same, len - same);
  return w;
}

/* One dim line, cut at the width: a scroll hint that must take exactly one row. */
static void hint_line(rctx *r, int indent, const char *text) {
  lb b;
  lb_begin(r, &b);
  lb_spaces(&b, indent < r->width ? indent : 0);
  lb_str(&b, QT_STYLE_DIM, text);
  lb_end(&b);
}

/* The window of an editor of `total` lines, the cursor on line `cur`, in at most `cap` lines
 * with its "↑ N more lines" / "↓ N more lines" hints: [*first, *last), *hints false when even
 * one hint does not fit beside the cursor's line. */
static void editor_window(size_t total, size_t cur, int cap, size_t *first, size_t *last, bool *hints) {
  *hints = true;
  *first = 0;
  *last = total;
  if (cap < 1) cap = 1;
  if (total <= (size_t)cap && total <= QT_EDITOR_WINDOW) return;
  size_t w = (size_t)cap < QT_EDITOR_WINDOW ? (size_t)cap : QT_EDITOR_WINDOW;
  for (;;) {
    *first = cur >= w ? cur - w + 1 : 0;
    *last = *first + w < total ? *first + w : total;
    size_t need = (*first > 0) + (*last - *first) + (*last < total);
    if (need <= (size_t)cap) return;
    if (w == 1) break;
    w--;
  }
  *hints = false; /* the cursor's line alone */
}

/* Draws an editor. *b is the open line (its prefix written); later lines start at `indent`.
 * A focused editor shows the cursor (the host's marker, then the cursor style around the
 * character under it) and scrolls to keep it in view. Ends the last line. Only the lines in
 * view are turned into cells; where the lines wrap comes from the renderer's layout of it (wrap_editor). */
static void draw_editor(rctx *r, lb *b, const qt_editor *ed, int indent, bool focused, int style) {
  const qt_engine *e = r->e;
  qt_buf *ct = &r->d->cell_text;
  const char *s = qt_editor_text(ed);
  size_t len = qt_editor_len(ed);
  if (indent >= r->width) indent = 0;
  if (r->width - b->w < 1) { /* no room after the prefix */
    lb_end(b);
    lb_begin(r, b);
    lb_spaces(b, indent);
  }
  const qt_wrap_cache *w = wrap_editor(r->d, ed, focused, r->width - b->w, r->width - indent);
  if (!w) {
    r->failed = true;
    lb_end(b);
    return;
  }
  size_t lines = w->count;
  /* the cursor's line: the last one starting at or before it */
  size_t cur_line = 0;
  if (focused) {
    size_t lo = 0, hi = lines;
    while (hi - lo > 1) {
      size_t mid = lo + (hi - lo) / 2;
      if (w->start[mid] <= ed->cursor)
        lo = mid;
      else
        hi = mid;
    }
    cur_line = lo;
  }
  size_t first = 0, last = lines;
  bool hints = true, limited = r->editor_limit != NO_LIMIT;
  if (limited) {
    editor_window(lines, cur_line, r->editor_limit, &first, &last, &hints);
    r->editor_limit = NO_LIMIT; /* for this editor only */
  } else if (lines > QT_EDITOR_WINDOW) {
    if (cur_line >= QT_EDITOR_WINDOW) first = cur_line - QT_EDITOR_WINDOW + 1;
    last = first + QT_EDITOR_WINDOW;
  }
  if (first > 0 && hints) {
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
    qt_buf_reset(ct);
    for (size_t pos = w->start[l], next; pos < w->start[l + 1]; pos = next) {
      qt_cell c;
      if (!cell_at(ct, s, len, pos, true, &c, &next)) {
        r->failed = true;
        break;
      }
      bool text = c.kind == QT_CELL_TEXT || c.kind == QT_CELL_SPACE;
      if (focused && c.raw <= ed->cursor && ed->cursor < next) {
        r->cursor_out = r->out;
        r->cursor_line = r->out->count;
        lb_raw(b, e->cursor_marker);
        if (text)
          lb_text(b, QT_STYLE_CURSOR, ct->data + c.disp, c.disp_len);
        else
          lb_text(b, QT_STYLE_CURSOR, " ", 1);
      } else if (text) {
        lb_text(b, style, ct->data + c.disp, c.disp_len);
      }
    }
  }
  lb_end(b);
  if (last < lines && hints) {
    const char *t = fmt(r, QT_STR_LINES_BELOW, lines - last, NULL);
    if (limited)
      hint_line(r, indent, t);
    else
      paragraph(r, indent, QT_STYLE_DIM, t, r->tmp.len);
  }
}

/* ---- help line ------------------------------------------------------------------------------ */
typedef struct help {
  const qt_layout *lay; /* what the frame shows of the windows that scroll */
  qt_buf text;          /* items, each followed by '\0' */
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

/* PageUp/PageDown while the prompt (or the review) is cut to fit the rows. */
static void help_scroll(const qt_engine *e, help *h) {
  bool review = e->current >= e->req->question_count;
  const qt_layout *l = h->lay;
  if (!l->valid || l->question != e->current) return; /* nothing shown of this one yet */
  if (!review) {                                      /* Shift+↑/Shift+↓ while the preview is cut */
    const qt_qstate *s = &e->qs[e->current];
    size_t k = qt_list_option_at(s, s->highlight);
    if (s->view != QT_VIEW_ENTRY && k != SIZE_MAX && k == l->preview_for && l->preview_window)
      help_pair(e, h, QT_ACT_PREVIEW_UP, QT_ACT_PREVIEW_DOWN, QT_STR_HELP_READ_PREVIEW);
  }
  if (review ? !l->review_window : !l->prompt_window) return;
  help_pair(e, h, QT_ACT_PAGE_UP, QT_ACT_PAGE_DOWN, review ? QT_STR_HELP_SCROLL : QT_STR_HELP_READ_PROMPT);
}

/* The keys that work in the current state: the live steps as qt_live_items lists them. */
static void collect_help(const qt_engine *e, help *h) {
  qt_live items[QT_LIVE_MAX];
  size_t n = qt_live_items(e, items);
  for (size_t i = 0; i < n; i++) {
    const qt_live *it = &items[i];
    switch (it->kind) {
      case QT_LIVE_KEY: help_key(e, h, it->key, it->help); break;
      case QT_LIVE_PAIR: help_pair(e, h, it->key, it->key2, it->help); break;
      case QT_LIVE_TEXT: help_text(e, h, it->help); break;
      case QT_LIVE_SCROLL: help_scroll(e, h); break;
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
  help h;
  h.lay = &e->layout; /* the last frame's */
  qt_buf_init(&h.text);
  h.n = 0;
  collect_help(e, &h);
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

static void draw_help(rctx *r) {
  qt_draw *d = r->d;
  const qt_engine *e = r->e;
  help h;
  h.lay = r->lay; /* this frame's */
  qt_buf_init(&h.text);
  h.n = 0;
  collect_help(e, &h);
  if (h.text.failed) r->failed = true;
  if (!h.n || h.text.failed) {
    qt_buf_free(&h.text);
    return;
  }
  /* The same items at the same width under the same width rules (and in the same styles:
   * qt_engine_set_style forgets it) give the same lines: drawn again from what was kept. */
  unsigned rules = qt_width_rules();
  qt_buf_append(&h.text, (const char *)&r->width, sizeof r->width);
  qt_buf_append(&h.text, (const char *)&rules, sizeof rules);
  if (!h.text.failed && d->help_key.len == h.text.len && memcmp(d->help_key.data, h.text.data, h.text.len) == 0) {
    for (size_t i = 0; i < d->help_lines.count; i++) {
      lb b;
      lb_begin(r, &b);
      qt_buf_puts(&r->out->buf, d->help_lines.buf.data + d->help_lines.off[i]);
      b.w = d->help_lines.width[i];
      lb_end(&b);
    }
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
    put_wrapped(r, &b, m, QT_STYLE_DIM, item, len);
  }
  lb_end(&b);
  qt_buf_reset(&d->help_key);
  if (!r->failed && !r->out->buf.failed && !h.text.failed) {
    keep_lines(r, first, &d->help_lines);
    if (!d->help_lines.buf.failed) qt_buf_append(&d->help_key, h.text.data, h.text.len);
    if (d->help_key.failed) qt_buf_reset(&d->help_key);
  }
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
  const qt_engine *e = r->e;
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
  const qt_engine *e = r->e;
  size_t k = qt_list_option_at(s, row);
  const qt_answer *a = &e->answers[qi];
  bool hl = row == s->highlight, other = k == SIZE_MAX;
  int m = margin(r);
  int indent = m + 2 + (s->q->multi_select ? 4 : 0) + digits(row + 1) + 2;
  char num[32]; /* "12. ", by hand: snprintf was a tenth of a frame */
  {
    char rev[24];
    size_t nd = 0, v = row + 1, at = 0;
    do rev[nd++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (nd) num[at++] = rev[--nd];
    num[at++] = '.';
    num[at++] = ' ';
    num[at] = '\0';
  }
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
  bool chosen =
      !s->q->multi_select && a->present && (other ? a->custom != NULL : a->index_count && a->indices[0] == k + 1);
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
/* ---- fitting the rows: windows of lines ------------------------------------------------------ */
/* Copies lines [from, to) of src to the target (the focused editor's cursor line moves along). */
static void copy_lines(rctx *r, const qt_lines *src, size_t from, size_t to) {
  if (src->buf.failed || !src->buf.data) { /* out of memory while drawing it */
    r->failed = r->failed || src->count || src->buf.failed;
    return;
  }
  for (size_t i = from; i < to && i < src->count; i++) {
    lb b;
    lb_begin(r, &b);
    if (r->cursor_out == src && r->cursor_line == i) {
      r->cursor_out = r->out;
      r->cursor_line = r->out->count;
    }
    qt_buf_puts(&r->out->buf, src->buf.data + src->off[i]);
    b.w = src->width[i];
    lb_end(&b);
  }
}

/* Shows src (a prompt, the review) in at most `cap` lines: the lines from *scroll on, with
 * "↑ N more lines" / "↓ N more lines" when some are left out. *scroll comes back inside the
 * text, *window the lines shown when cut (0: all shown); PageUp/PageDown move by it. */
static void copy_window(rctx *r, const qt_lines *src, int cap, int indent, size_t *scroll, size_t *window) {
  size_t total = src->count, first = *scroll; /* both in the layout being returned */
  if (cap < 1) cap = 1;
  if (total <= (size_t)cap) {
    copy_lines(r, src, 0, total);
    *scroll = *window = 0;
    return;
  }
  if (first > total - 1) first = total - 1;
  bool above = cap >= 2 && first > 0, below;
  size_t room = (size_t)cap - above, shown;
  if (first + room >= total) { /* the rest fits: no hint below, the window filled from the end */
    below = false;
    shown = room;
    if (first + shown > total) first = total - shown;
  } else {
    below = room >= 2;
    shown = below ? room - 1 : room;
  }
  if (above) hint_line(r, indent, fmt(r, QT_STR_LINES_ABOVE, first, NULL));
  copy_lines(r, src, first, first + shown);
  if (below) hint_line(r, indent, fmt(r, QT_STR_LINES_BELOW, total - first - shown, NULL));
  *scroll = first;
  *window = shown;
}

/* Lines row `row` of the list takes (drawn aside, in d->measure). */
static int row_height(rctx *r, const qt_qstate *s, size_t qi, size_t row) {
  qt_lines *saved = r->out;
  qt_lines_reset(&r->d->measure);
  r->out = &r->d->measure;
  draw_row(r, s, qi, row);
  r->out = saved;
  return (int)r->d->measure.count;
}

/* Narrows the window [*first, *end) of a list of `rows` rows to `avail` lines, hints included,
 * keeping the highlighted row: rows go from the end below the highlight, then from the start.
 * A highlighted row taller than all of it is cut to *row_cap lines; *hints false when there is
 * no room for them beside it. */
static void fit_list_window(rctx *r, const qt_qstate *s, size_t qi, size_t rows, int avail, size_t *first, size_t *end,
                            int *row_cap, bool *hints) {
  int h[QT_LIST_WINDOW];
  size_t base = *first, f = *first, e = *end;
  for (size_t i = f; i < e; i++) h[i - base] = row_height(r, s, qi, i);
  for (;;) {
    int need = (f > 0) + (e < rows);
    for (size_t i = f; i < e; i++) need += h[i - base];
    if (need <= avail) break;
    if (e - f <= 1) {
      int room = avail - (f > 0) - (e < rows);
      if (room < 1) { /* the row alone */
        *hints = false;
        room = avail;
      }
      *row_cap = room < 1 ? 1 : room;
      break;
    }
    if (e - 1 > s->highlight)
      e--;
    else
      f++;
  }
  *first = f;
  *end = e;
}

/* Draws row `row` in at most `cap` lines: its first lines, or those around the cursor of the
 * text being typed under "Something else…". */
static void draw_row_cut(rctx *r, const qt_qstate *s, size_t qi, size_t row, int cap) {
  qt_lines *saved = r->out, *m = &r->d->measure;
  qt_lines_reset(m);
  r->out = m;
  r->cursor_out = NULL;
  r->editor_limit = cap > 1 ? cap - 1 : 1; /* the editor under the label, if it is drawn */
  draw_row(r, s, qi, row);
  r->editor_limit = NO_LIMIT;
  r->out = saved;
  size_t from = 0, n = m->count;
  if (n > (size_t)cap) {
    if (r->cursor_out == m && r->cursor_line >= (size_t)cap) from = r->cursor_line - (size_t)cap + 1;
    n = (size_t)cap;
  }
  copy_lines(r, m, from, from + n);
}

static void list_hint(rctx *r, int indent, bool limited, const char *t) {
  if (limited)
    hint_line(r, indent, t);
  else
    paragraph(r, indent, QT_STYLE_DIM, t, strlen(t));
}

static void draw_list(rctx *r, const qt_qstate *s, size_t qi) {
  int m = margin(r), hint = m + 2 < r->width ? m + 2 : 0, limit = r->limit[SEC_BODY];
  bool limited = limit != NO_LIMIT, hints = true;
  size_t at = r->out->count;
  lb b;
  if (s->view == QT_VIEW_FILTER || s->filter_on) {
    lb_begin(r, &b);
    lb_spaces(&b, m);
    const char *prefix = qt_str(r->e, QT_STR_FILTER_PREFIX);
    lb_str(&b, QT_STYLE_DIM, prefix);
    int indent = m + (int)qt_visible_width(prefix, strlen(prefix));
    if (limited) r->editor_limit = 1; /* the filter keeps to its cursor's line */
    if (s->view == QT_VIEW_FILTER) {
      draw_editor(r, &b, &s->filter, indent, typing_live(r->e), PLAIN);
    } else {
      draw_editor(r, &b, &s->filter, indent, false, QT_STYLE_DIM);
    }
  }
  r->filter_lines = (int)(r->out->count - at);
  bool none = s->filter_on && s->shown_count == 0;
  size_t rows = qt_list_rows(s), first = r->lay->list_top, end = first + QT_LIST_WINDOW;
  if (end > rows) end = rows;
  int row_cap = NO_LIMIT;
  if (limited) {
    fit_list_window(r, s, qi, rows, limit - r->filter_lines - none, &first, &end, &row_cap, &hints);
    r->lay->list_top = first; /* the window shown is where the list scrolls from */
  }
  if (first > 0 && hints) list_hint(r, hint, limited, fmt(r, QT_STR_MORE_ABOVE, first, NULL));
  if (none) list_hint(r, hint, limited, qt_str(r->e, QT_STR_NO_MATCHES));
  for (size_t row = first; row < end; row++) {
    if (row_cap != NO_LIMIT)
      draw_row_cut(r, s, qi, row, row_cap);
    else
      draw_row(r, s, qi, row);
  }
  if (end < rows && hints) list_hint(r, hint, limited, fmt(r, QT_STR_MORE_BELOW, rows - end, NULL));
}

/* ---- preview -------------------------------------------------------------------------------- */
/* The preview of the highlighted option at the target's width, after `bar` (may be ""). */
/* Where the lines of preview `text` (option k of question qi) wrap at `avail` columns: laid out
 * once per option, width and width rules and kept in d->pv, so scrolling or redrawing it costs
 * the lines shown, not the whole text. NULL when out of memory. */
static const void *preview_layout(qt_draw *e, size_t qi, size_t k, const char *text, int avail) {
  unsigned rules = qt_width_rules();
  if (e->pv.valid && e->pv.q == qi && e->pv.k == k && e->pv.avail == avail && e->pv.rules == rules) return &e->pv;
  e->pv.valid = false;
  e->pv.count = 0;
  size_t n = strlen(text), pos = 0;
  while (pos < n) {
    if (e->pv.count == e->pv.cap) {
      size_t cap = e->pv.cap ? e->pv.cap * 2 : 64;
      size_t *st = realloc(e->pv.start, cap * sizeof *st);
      if (st) e->pv.start = st;
      size_t *en = st ? realloc(e->pv.end, cap * sizeof *en) : NULL;
      if (en) e->pv.end = en;
      int *w = en ? realloc(e->pv.width, cap * sizeof *w) : NULL;
      if (w) e->pv.width = w;
      if (!w) return NULL;
      e->pv.cap = cap;
    }
    size_t end, next;
    int w;
    qt_wrap_line(text, n, pos, avail, NULL, 0, &end, &next, &w);
    e->pv.start[e->pv.count] = pos;
    e->pv.end[e->pv.count] = end;
    e->pv.width[e->pv.count++] = w;
    pos = next;
  }
  e->pv.q = qi;
  e->pv.k = k;
  e->pv.avail = avail;
  e->pv.rules = rules;
  e->pv.valid = true;
  return &e->pv;
}

/* One line of the preview column: the bar, then text (or a dim hint). */
static void preview_line(rctx *r, const char *bar, int style, const char *text, size_t n, int w) {
  lb b;
  lb_begin(r, &b);
  lb_str(&b, QT_STYLE_BORDER, bar);
  if (w >= 0 && w <= r->width - b.w)
    lb_fitted(&b, style, text, n, w);
  else
    lb_text(&b, style, text, n);
  lb_end(&b);
}

/* The preview of the highlighted option at the target's width, after `bar` (may be ""), in at
 * most `cap` lines (NO_LIMIT: QT_PREVIEW_LINES and its hints). A longer one shows a window from
 * the layout's preview_top (where the keys left it for this option) with "↑ N more lines" /
 * "↓ N more lines"; Shift+↑/Shift+↓ move it (engine.c preview_key) by preview_window. */
static void draw_preview(rctx *r, const qt_qstate *cs, const char *bar, bool say_none, int cap) {
  const qt_qstate *s = cs;
  qt_layout *lay = r->lay;
  size_t k = qt_list_option_at(s, s->highlight);
  if (k != lay->preview_for) lay->preview_for = k, lay->preview_top = 0; /* another option: from its top */
  lay->preview_window = 0;
  if (cap < 1) return; /* no room for it */
  if (cap == NO_LIMIT) cap = QT_PREVIEW_LINES + 1;
  const char *text = k == SIZE_MAX ? NULL : s->opts[k].preview;
  int barw = (int)qt_visible_width(bar, strlen(bar));
  if (barw >= r->width) bar = "", barw = 0;
  if (!text) {
    if (say_none) {
      const char *none = qt_str(r->e, QT_STR_NO_PREVIEW);
      preview_line(r, bar, QT_STYLE_DIM, none, strlen(none), -1);
    }
    return;
  }
  const qt_draw *e = r->d;
  if (!preview_layout(r->d, r->e->current, k, text, r->width - barw)) {
    r->failed = true;
    return;
  }
  size_t total = e->pv.count, first = lay->preview_top, shown;
  bool above = false, below = false;
  if (total <= (size_t)cap) {
    first = 0, shown = total;
  } else {
    if (first > total - 1) first = total - 1;
    above = cap >= 2 && first > 0;
    size_t room = (size_t)cap - above;
    if (first + room >= total) { /* the rest fits: the window filled from the end */
      shown = room;
      if (first + shown > total) first = total - shown;
    } else if (room >= 2) {
      below = true, shown = room - 1;
    } else { /* two lines: a line and "↓ N more lines" say more than "↑ N more lines" */
      above = false, below = cap >= 2, shown = cap >= 2 ? (size_t)cap - 1 : 1;
    }
    lay->preview_window = shown;
  }
  lay->preview_top = first;
  if (above) {
    const char *t = fmt(r, QT_STR_LINES_ABOVE, first, NULL);
    preview_line(r, bar, QT_STYLE_DIM, t, strlen(t), -1);
  }
  for (size_t l = first; l < first + shown; l++)
    preview_line(r, bar, PLAIN, text + e->pv.start[l], e->pv.end[l] - e->pv.start[l], e->pv.width[l]);
  if (below) {
    const char *t = fmt(r, QT_STR_LINES_BELOW, total - first - shown, NULL);
    preview_line(r, bar, QT_STYLE_DIM, t, strlen(t), -1);
  }
}

/* Draws the list into one column and the preview into another, then joins them. */
static void draw_beside(rctx *r, const qt_qstate *s, size_t qi) {
  qt_draw *e = r->d;
  int lw = (r->width - 3) / 2, rw = r->width - 3 - lw;
  qt_lines *frame = r->out;
  int width = r->width;
  qt_lines_reset(&e->scratch[0]);
  qt_lines_reset(&e->scratch[1]);
  r->out = &e->scratch[0];
  r->width = lw;
  draw_list(r, s, qi);
  r->out = &e->scratch[1];
  r->width = rw;
  draw_preview(r, s, "", true, r->limit[SEC_BODY]);
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
  int indent = m + (int)qt_visible_width(prefix, strlen(prefix)), cap = r->limit[SEC_NOTE];
  if (cap < 1) return; /* no room: the note is kept, just not shown */
  if (cap != NO_LIMIT) r->editor_limit = cap >= 2 ? cap - 1 : 1;
  if (cap >= 2) blank_line(r);
  lb b;
  lb_begin(r, &b);
  lb_spaces(&b, m);
  lb_str(&b, QT_STYLE_MUTED, prefix);
  draw_editor(r, &b, &s->note, indent, editing && typing_live(r->e), editing ? PLAIN : QT_STYLE_MUTED);
}

/* The prompt, in its window when the rows are few (PageUp/PageDown read the rest). */
static void draw_prompt(rctx *r, const qt_qstate *s) {
  int m = margin(r), cap = r->limit[SEC_PROMPT];
  if (cap == NO_LIMIT) {
    paragraph(r, m, QT_STYLE_TITLE, s->prompt, strlen(s->prompt));
    r->lay->prompt_window = 0;
    return;
  }
  qt_lines *saved = r->out;
  qt_lines_reset(&r->d->measure);
  r->out = &r->d->measure;
  paragraph(r, m, QT_STYLE_TITLE, s->prompt, strlen(s->prompt));
  r->out = saved;
  copy_window(r, &r->d->measure, cap, m, &r->lay->prompt_top, &r->lay->prompt_window);
}

/* Lines drawn since `at` count toward part `sec`. */
static void count_part(rctx *r, int sec, size_t at) { r->natural[sec] += (int)(r->out->count - at); }

static void draw_question(rctx *r, size_t qi) {
  const qt_engine *e = r->e;
  const qt_qstate *s = &e->qs[qi];
  int m = margin(r);
  size_t at = r->out->count;
  draw_prompt(r, s);
  count_part(r, SEC_PROMPT, at);
  spacer_line(r);
  at = r->out->count;
  if (s->q->option_count == 0) {
    lb b;
    lb_begin(r, &b);
    lb_spaces(&b, m);
    lb_str(&b, QT_STYLE_ACCENT, POINTER);
    if (r->limit[SEC_BODY] != NO_LIMIT) r->editor_limit = r->limit[SEC_BODY];
    draw_editor(r, &b, &s->draft, m + 2, s->view == QT_VIEW_ENTRY && typing_live(e), PLAIN);
    count_part(r, SEC_BODY, at);
  } else if (s->has_preview && r->width >= QT_PREVIEW_BESIDE_WIDTH) {
    draw_beside(r, s, qi);
    count_part(r, SEC_BODY, at);
  } else {
    draw_list(r, s, qi);
    count_part(r, SEC_BODY, at);
    size_t k = qt_list_option_at(s, s->highlight);
    int cap = r->limit[SEC_PREVIEW];
    r->lay->preview_window = 0; /* not shown, so nothing to read on (draw_preview sets it) */
    if (k != SIZE_MAX && s->opts[k].preview && cap >= 2) {
      at = r->out->count;
      blank_line(r);
      draw_preview(r, s, m ? PREVIEW_BAR : PREVIEW_BAR + 1, false, cap == NO_LIMIT ? NO_LIMIT : cap - 1);
      count_part(r, SEC_PREVIEW, at);
    }
  }
  at = r->out->count;
  draw_note(r, s, qi);
  count_part(r, SEC_NOTE, at);
}

/* "Label: answer (typed)" and the note under it, for every question. */
static void draw_review_lines(rctx *r);

/* The review, in its window when the rows are few (PageUp/PageDown scroll it). */
static void draw_review(rctx *r) {
  qt_draw *d = r->d;
  int cap = r->limit[SEC_BODY];
  size_t at = r->out->count;
  if (cap == NO_LIMIT) {
    draw_review_lines(r);
    r->lay->review_window = 0;
  } else {
    qt_lines *saved = r->out;
    qt_lines_reset(&d->measure);
    r->out = &d->measure;
    draw_review_lines(r);
    r->out = saved;
    copy_window(r, &d->measure, cap, margin(r), &r->lay->review_top, &r->lay->review_window);
  }
  count_part(r, SEC_BODY, at);
}

static void draw_review_lines(rctx *r) {
  const qt_engine *e = r->e;
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

/* The discussion field under the question: "What do you want to tell the
 * agent?" and the text being typed. */
static void draw_discussion(rctx *r) {
  const qt_engine *e = r->e;
  int m = margin(r), cap = r->limit[SEC_DISCUSS];
  size_t at = r->out->count;
  const char *title = qt_str(e, QT_STR_DISCUSS_PROMPT);
  if (cap == NO_LIMIT) {
    blank_line(r);
    paragraph(r, m, QT_STYLE_ACCENT, title, strlen(title));
  } else { /* few rows: the field first, then its title, then the line above */
    if (cap >= 3) blank_line(r);
    if (cap >= 2) {
      lb t;
      lb_begin(r, &t);
      lb_spaces(&t, m);
      lb_str(&t, QT_STYLE_ACCENT, title);
      lb_end(&t);
    }
    r->editor_limit = cap >= 3 ? cap - 2 : 1;
  }
  lb b;
  lb_begin(r, &b);
  lb_spaces(&b, m);
  lb_str(&b, QT_STYLE_ACCENT, POINTER);
  draw_editor(r, &b, &e->discuss, m + 2, !e->done, PLAIN);
  count_part(r, SEC_DISCUSS, at);
}

/* The confirmation in place of the message line. */
static void draw_overlay(rctx *r) {
  const qt_engine *e = r->e;
  qt_string_id id = e->overlay == QT_OVERLAY_LONG ? QT_STR_CONFIRM_LONG
                    : e->overlay_n == 0           ? QT_STR_CONFIRM_DISCARD_TEXT
                    : e->overlay_n == 1           ? QT_STR_CONFIRM_DISCARD_ONE
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

/* The person's timeout: "Answers itself in 4:59 — any key stops the clock". */
static void draw_countdown(rctx *r) {
  qt_buf_reset(&r->tmp);
  if (!qt_countdown_text(r->e, &r->tmp)) return;
  if (r->tmp.failed || !r->tmp.data) {
    r->failed = true;
    return;
  }
  paragraph(r, margin(r), QT_STYLE_WARNING, r->tmp.data, r->tmp.len);
}

/* One frame into d->frame, each part within r->limit (all NO_LIMIT: as tall as it is). The
 * countdown line is one of the lines that always stay (fit_rows counts it with the help). */
static void draw_frame(rctx *r) {
  const qt_engine *e = r->e;
  qt_lines_reset(&r->d->frame);
  r->out = &r->d->frame;
  *r->lay = r->lay0; /* each pass shows the windows from where the keys left them */
  r->spacers = r->rules = r->header = r->filter_lines = 0;
  memset(r->natural, 0, sizeof r->natural);
  r->editor_limit = NO_LIMIT;
  r->cursor_out = NULL;
  rule_line(r);
  size_t at = r->out->count;
  r->asker_line = SIZE_MAX;
  if (e->asker_name || e->asker_where) {
    r->asker_line = r->out->count;
    const char *who =
        e->asker_name ? fmt(r, QT_STR_ASKED_BY, 0, e->asker_name) : fmt(r, QT_STR_ASKED_BY_SUBAGENT, 0, e->asker_where);
    if (r->squeeze < 3)
      paragraph(r, margin(r), QT_STYLE_MUTED, who, strlen(who));
    else /* few rows: who asks stays, on one line */
      one_line(r, margin(r), QT_STYLE_MUTED, who, strlen(who));
  }
  if (e->multi && r->squeeze < 3) draw_tabs(r);
  r->header = (int)(r->out->count - at);
  if (e->multi) spacer_line(r);
  if (e->current >= e->req->question_count)
    draw_review(r);
  else
    draw_question(r, e->current);
  if (e->discuss_open) draw_discussion(r);
  spacer_line(r);
  draw_countdown(r);
  if (e->overlay != QT_OVERLAY_NONE)
    draw_overlay(r);
  else if (e->flash.len)
    paragraph(r, margin(r), e->flash_style, e->flash.data, e->flash.len);
  draw_help(r);
  rule_line(r);
}

/* ---- the question fits the screen ---------------------------------------------------------------
 * A frame taller than e->rows is drawn again with a line budget for each part: what always
 * stays (rules, tab bar, the timeout's countdown, message, help) is counted first; the parts get their least (the
 * prompt's first line and a hint, the highlighted row, the line being typed), the part with
 * the keyboard first; the rest of the rows go to the focused part up to two thirds of them, to
 * the option list up to half of them (when the keyboard is elsewhere), then to
 * the prompt, the other fields, the preview, and back to the focused part. When even the least
 * does not fit, spacer lines go, then the rules, then the tab bar (who asks a relayed question
 * stays, shortened to one line). Whatever is still over
 * (a help line that grew, tiny terminals) is cut from the top, the cursor's line kept. */
static int at_most(int a, int b) { return a < b ? a : b; }

static void plan_rows(rctx *r, int avail, const int *natural, const int *least, int focus, int *budget) {
  int left = avail;
  static const int order[] = {SEC_BODY, SEC_DISCUSS, SEC_NOTE, SEC_PROMPT, SEC_PREVIEW};
  for (int i = 0; i < SEC_COUNT; i++) budget[i] = 0;
  budget[focus] = at_most(least[focus], left > 0 ? left : 0);
  left -= budget[focus];
  for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
    int sec = order[i];
    if (sec == focus) continue;
    budget[sec] = at_most(least[sec], left > 0 ? left : 0);
    left -= budget[sec];
  }
  struct {
    int sec, cap;
  } grow[] = {
      {focus, avail * 2 / 3}, {SEC_BODY, avail / 2},  {SEC_PROMPT, INT_MAX}, {SEC_DISCUSS, INT_MAX},
      {SEC_NOTE, INT_MAX},    {SEC_PREVIEW, INT_MAX}, {SEC_BODY, INT_MAX},   {focus, INT_MAX},
  };
  for (size_t i = 0; i < sizeof grow / sizeof grow[0] && left > 0; i++) {
    int sec = grow[i].sec, cap = at_most(grow[i].cap, natural[sec]);
    if (cap > budget[sec]) {
      int add = at_most(cap - budget[sec], left);
      budget[sec] += add;
      left -= add;
    }
  }
  (void)r;
}

/* Cuts the frame to its last `rows` lines, or to those from the cursor's line on when it is
 * above them; the line saying who asks stays first. */
static void cut_frame(rctx *r, int rows) {
  qt_lines *f = &r->d->frame;
  if (rows < 1 || f->count <= (size_t)rows) return;
  /* who asks a relayed question stays on top while there are rows for more than it */
  size_t keep = r->asker_line != SIZE_MAX && rows >= 3 ? 1 : 0, asker = r->asker_line;
  size_t n = (size_t)rows - keep, start = f->count - n;
  if (r->cursor_out == f && r->cursor_line < start) start = r->cursor_line;
  if (keep && asker >= start) keep = 0, n = (size_t)rows, start = f->count - n; /* already inside */
  size_t off0 = keep ? f->off[asker] : 0;
  int w0 = keep ? f->width[asker] : 0;
  memmove(f->off + keep, f->off + start, n * sizeof *f->off);
  memmove(f->width + keep, f->width + start, n * sizeof *f->width);
  if (keep) f->off[0] = off0, f->width[0] = w0;
  f->count = (size_t)rows;
}

static void fit_rows(rctx *r) {
  const qt_engine *e = r->e;
  int rows = e->rows, natural[SEC_COUNT], least[SEC_COUNT] = {0}, sum = 0, sum_least = 0;
  memcpy(natural, r->natural, sizeof natural);
  bool review = e->current >= e->req->question_count;
  const qt_qstate *s = review ? NULL : &e->qs[e->current];
  int focus = e->discuss_open ? SEC_DISCUSS : s && s->view == QT_VIEW_NOTE ? SEC_NOTE : SEC_BODY;
  least[SEC_PROMPT] = at_most(natural[SEC_PROMPT], 2);
  least[SEC_BODY] = at_most(natural[SEC_BODY], review || !s->q->option_count ? 3 : r->filter_lines + 4);
  least[SEC_NOTE] = focus == SEC_NOTE ? at_most(natural[SEC_NOTE], 2) : 0;
  least[SEC_DISCUSS] = at_most(natural[SEC_DISCUSS], 3);
  least[SEC_PREVIEW] = at_most(natural[SEC_PREVIEW], 3); /* a line above it, one of it, "↓ N more lines" */
  for (int i = 0; i < SEC_COUNT; i++) sum += natural[i], sum_least += least[i];
  int fixed = (int)r->d->frame.count - sum;
  int squeeze = 0, spacers = r->spacers, rules = r->rules, header = r->header;
  bool asker = e->asker_name || e->asker_where;
  while (squeeze < 3 && fixed + sum_least > rows) {
    squeeze++;
    fixed -= squeeze == 1 ? spacers : squeeze == 2 ? rules : header - (asker ? 1 : 0); /* who asks keeps a line */
  }
  for (int pass = 0; pass < 3; pass++) {
    int budget[SEC_COUNT];
    plan_rows(r, rows - fixed, natural, least, focus, budget);
    memcpy(r->limit, budget, sizeof budget);
    r->squeeze = squeeze;
    draw_frame(r);
    if (r->failed || r->d->frame.buf.failed || r->d->frame.count <= (size_t)rows) break;
    fixed += (int)r->d->frame.count - rows; /* what the plan did not foresee: a longer help line */
  }
  if (!r->failed) cut_frame(r, rows);
}

void qt_layout_start(const qt_engine *e, qt_layout *l) {
  memset(l, 0, sizeof *l);
  l->valid = true;
  l->question = e->current;
  l->review_top = e->review_scroll;
  l->preview_for = SIZE_MAX;
  if (e->current < e->req->question_count) {
    const qt_qstate *s = &e->qs[e->current];
    l->list_top = s->scroll;
    l->prompt_top = s->prompt_scroll;
    l->preview_for = s->preview_for;
    l->preview_top = s->preview_scroll;
  }
}

qt_status qt_render_frame(const qt_engine *e, qt_draw *d, int width, qt_layout *out) {
  if (width > 4096) width = 4096; /* lines may be narrower than asked, never wider */
  rctx r = {.e = e, .d = d, .lay = out, .out = &d->frame, .width = width};
  for (int i = 0; i < SEC_COUNT; i++) r.limit[i] = NO_LIMIT;
  qt_layout_start(e, &r.lay0);
  qt_buf_init(&r.tmp);
  draw_frame(&r);
  if (e->rows > 0 && d->frame.count > (size_t)e->rows && !r.failed) fit_rows(&r);
  bool failed = r.failed || r.tmp.failed || d->frame.buf.failed;
  qt_buf_free(&r.tmp);
  if (failed) {
    qt_lines_reset(&d->frame);
    return QT_ERR_NOMEM;
  }
  return QT_OK;
}

size_t qt_draw_bytes(const qt_draw *d) {
  size_t n = qt_lines_bytes(&d->frame) + qt_lines_bytes(&d->scratch[0]) + qt_lines_bytes(&d->scratch[1]);
  n += qt_lines_bytes(&d->measure) + d->cell_text.cap;
  n += d->pv.cap * (sizeof *d->pv.start + sizeof *d->pv.end + sizeof *d->pv.width); /* the preview's layout */
  for (size_t i = 0; i < QT_WRAP_SLOTS; i++) n += d->wraps[i].text.cap + 2 * d->wraps[i].cap * sizeof(size_t);
  return n;
}

void qt_draw_free(qt_draw *d) {
  qt_lines_free(&d->frame);
  qt_lines_free(&d->scratch[0]);
  qt_lines_free(&d->scratch[1]);
  qt_lines_free(&d->measure);
  qt_lines_free(&d->help_lines);
  qt_buf_free(&d->help_key);
  qt_buf_free(&d->cell_text);
  free(d->pv.start);
  free(d->pv.end);
  free(d->pv.width);
  for (size_t i = 0; i < QT_WRAP_SLOTS; i++) {
    qt_buf_free(&d->wraps[i].text);
    free(d->wraps[i].start);
    free(d->wraps[i].reach);
  }
  memset(d, 0, sizeof *d);
}
