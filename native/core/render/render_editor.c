/* render_editor.c — drawing a text editor (typed answers, notes, the filter, the discussion
 * field): its text as cells, where its lines wrap (laid out again only from what changed, kept
 * in the renderer's memory, never in the editor), the window of lines around the cursor and
 * its "↑ N more lines" / "↓ N more lines" hints. Part of the styled renderer (render.c). */
#include <stdlib.h>
#include <string.h>

#include "render_internal.h"

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

/* Makes room for n lines in w's arrays: 8 at first, since most answers are a line or two and
 * every engine keeps these arrays for each editor it drew (and 64 were 2 KB an editor). */
static bool wrap_room(qt_wrap_cache *w, size_t n) {
  if (n <= w->cap) return true;
  size_t cap = w->cap ? w->cap : 8;
  while (cap < n) cap *= 2;
  size_t *st = realloc(w->start, cap * sizeof *st);
  if (st) w->start = st;
  size_t *re = st ? realloc(w->reach, cap * sizeof *re) : NULL;
  if (re) w->reach = re;
  if (!st || !re) return false;
  w->cap = cap;
  return true;
}

/* Lays out the lines of an editor's text s[0..len) from line `from` of the layout w on (the
 * ones before it are kept) into out (out->start[0] is line `from`): start[l] is where line l
 * starts (a position, see cell_at), reach[l] the position after the last grapheme the decision
 * where it ends looked at. The first line has w->first columns, the others w->avail; a line
 * breaks after its last space when the next grapheme does not fit, and after a newline. Keeps
 * nothing per grapheme. A line after the first that starts at a position p ≥ sync where w (the
 * layout of a text of old_len bytes whose end from p - (len - old_len) on is s's from p on) has
 * a line start at p - (len - old_len) ends the work: from there the old lines hold, moved. *k
 * is the lines laid out; *resume the old line they go on with (0: none, the end was reached). */
static bool wrap_from(qt_buf *ct, const qt_wrap_cache *w, qt_wrap_cache *out, const char *s, size_t len, size_t from,
                      size_t sync, size_t old_len, size_t *k, size_t *resume) {
  size_t total = w->with_end ? len + 1 : len, lines = from;
  size_t pos = from ? w->start[from] : 0;
  int room = from ? w->avail : w->first;
  qt_buf_reset(ct);
  *resume = 0;
  while (pos < total || lines == 0) {
    if (lines > 0 && pos >= sync) { /* where the old layout had a line start (a search of its lines) */
      size_t want = pos + old_len - len, lo = 1, hi = w->count;
      while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (w->start[mid] < want)
          lo = mid + 1;
        else
          hi = mid;
      }
      if (lo < w->count && w->start[lo] == want) {
        *resume = lo;
        break;
      }
    }
    if (!wrap_room(out, lines - from + 2)) return false;
    out->start[lines - from] = pos;
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
    out->reach[lines++ - from] = reach;
    room = w->avail;
    if (pos >= total) break;
  }
  *k = lines - from;
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

/* The same at their end. */
static size_t common_suffix(const char *a, size_t an, const char *b, size_t bn) {
  size_t n = an < bn ? an : bn, i = 0;
  while (n - i >= 256 && memcmp(a + an - i - 256, b + bn - i - 256, 256) == 0) i += 256;
  while (i < n && a[an - i - 1] == b[bn - i - 1]) i++;
  return i;
}

/* The editor's layout for these columns. The renderer keeps, for each editor it drew lately, the
 * layout and a copy of the text it laid out (d->wraps); the layout is made again only from the
 * first line whose decision looked at the first byte that differs from that copy, and only up
 * to the first line that starts where an old line started in the text both end with (none
 * after a cursor move, the last after typing at the end, a few after typing into prose). The
 * editor is only read: comparing costs a memcmp of the text, laying out what changed. */
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
  size_t same = 0;        /* bytes at the start of the text the copy still holds */
  size_t sync = SIZE_MAX; /* from here on the text ends as the copy does */
  size_t old_len = w->text.len;
  if (w->valid && w->first == first && w->avail == avail && w->with_end == with_end && w->rules == rules) {
    const char *old = w->text.data ? w->text.data : "";
    same = common_prefix(old, old_len, text, len);
    if (same == len && same == old_len) return w;
    sync = len - common_suffix(old, old_len, text, len);
    /* from the start of the code point that differs: the lines before it looked at none of it */
    while (same > 0 && same < len && ((unsigned char)text[same] & 0xC0) == 0x80) same--;
    while (from < w->count && w->reach[from] < same) from++;
  }
  w->valid = false;
  w->first = first;
  w->avail = avail;
  w->with_end = with_end;
  w->rules = rules;
  size_t k, resume, total = with_end ? len + 1 : len;
  if (!wrap_from(&d->cell_text, w, &d->relaid, text, len, from, sync, old_len, &k, &resume)) return NULL;
  size_t tail = resume ? w->count - resume : 0, count = from + k + tail;
  if (!wrap_room(w, count + 1)) return NULL;
  if (resume) { /* the old lines from `resume` on, moved by what the text grew or shrank */
    memmove(w->start + from + k, w->start + resume, (tail + 1) * sizeof *w->start);
    memmove(w->reach + from + k, w->reach + resume, tail * sizeof *w->reach);
    for (size_t l = from + k; l < count; l++) w->start[l] = w->start[l] + len - old_len;
    for (size_t l = from + k; l < count; l++) w->reach[l] = w->reach[l] + len - old_len;
  }
  if (k) {
    memcpy(w->start + from, d->relaid.start, k * sizeof *w->start);
    memcpy(w->reach + from, d->relaid.reach, k * sizeof *w->reach);
  }
  w->start[count] = total;
  w->count = count;
  /* the copy: what it holds from `same` on is replaced (a copy that failed is no cache) */
  if (same > w->text.len) same = w->text.len;
  w->text.len = same;
  if (w->text.data) w->text.data[same] = '\0';
  w->text.failed = false;
  w->valid = qt_buf_append(&w->text, text + same, len - same);
  return w;
}

/* One dim line, cut at the width: a scroll hint that must take exactly one row. */
void qt_rd_hint_line(rctx *r, int indent, const char *text) {
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
void qt_rd_draw_editor(rctx *r, lb *b, const qt_editor *ed, int indent, bool focused, int style) {
  const qt_engine *e = r->e;
  if (ed->masked) { /* a secret: its bullets are drawn, never its text */
    if (!qt_editor_mask(ed, &r->d->mask)) {
      r->failed = true;
      lb_end(b);
      return;
    }
    ed = &r->d->mask;
  }
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
    lb_str(b, QT_STYLE_DIM, qt_rd_fmt(r, QT_STR_LINES_ABOVE, first, NULL));
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
    const char *t = qt_rd_fmt(r, QT_STR_LINES_BELOW, lines - last, NULL);
    if (limited)
      qt_rd_hint_line(r, indent, t);
    else
      qt_rd_paragraph(r, indent, QT_STYLE_DIM, t, r->tmp.len);
  }
}
