/* render.c — draws the engine's state as lines for a width: tab bar, prompt, option list
 * with its scroll window, text entry with the cursor, preview (beside or below), review,
 * messages and the help line. Its parts in files of their own: the text editors
 * (render_editor.c), the help line (render_help.c) and fitting a frame to the rows
 * (render_fit.c); the line builder and the render context they share are in render_internal.h.
 *
 * Every line is built through a line builder that refuses to pass the width: text is cut at
 * a grapheme boundary when it cannot fit, so no line is ever wider than asked, whatever the
 * width. Text is wrapped (preferring spaces) before it would be cut; only at widths too small
 * for a prefix does anything get cut. The only bytes emitted besides text are the host's
 * style strings and cursor marker. The cost of a frame follows the lines drawn, not the
 * number of options: only the rows inside the list window are laid out.
 *
 * With a row limit (qt_engine_render's rows) no frame is taller: a frame drawn too tall is drawn
 * again with a line budget for each part (render_fit.c).
 *
 * Drawing never writes the state: the renderer gets the engine as `const` and writes only its
 * own memory (qt_draw: the frame and caches) and the layout it returns (qt_layout: where the
 * windows that scroll were shown, which the next key starts from). No cast here may drop the
 * const of the engine or of anything in it (tests/render-pure.test.mjs checks). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_internal.h"
#include "qt_typed.h"

/* Symbols that are the same in every language. */
static const char RULE[] = "─";
static const char MARK_CURRENT[] = "■";
static const char MARK_OPEN[] = "□";
static const char MARK_DONE[] = "✓";
static const char MARK_SKIPPED[] = "–"; /* a question skipped on purpose (qt_skip) */
static const char POINTER[] = "> ";
static const char BOX_ON[] = "[x] ";
static const char BOX_OFF[] = "[ ] ";
static const char TAB_SEP[] = "  ";
static const char MORE_LEFT[] = "‹ ";
static const char MORE_RIGHT[] = " ›";
static const char COLUMN_SEP[] = " │ ";
static const char PREVIEW_BAR[] = " │ "; /* below the list; without the margin from [1] */

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
  size_t total = (size_t)r->width * (sizeof RULE - 1);
  if (total && qt_buf_reserve(out, total)) {
    char *at = out->data + out->len;
    memcpy(at, RULE, sizeof RULE - 1); /* then doubled: a few copies, not one per column */
    for (size_t done = sizeof RULE - 1; done < total;) {
      size_t more = done < total - done ? done : total - done;
      memcpy(at + done, at, more);
      done += more;
    }
    out->len += total;
    out->data[out->len] = '\0';
  }
  qt_buf_puts(out, r->e->style_close[QT_STYLE_BORDER]);
  b.w = r->width;
  lb_end(&b);
}

/* ---- wrapping (where lines break: lines.c) ---------------------------------------------------- */
/* Writes s[0..n) wrapped: the first part continues the open line *b, later lines start with
 * `indent` spaces. The last line stays open in *b. */
void qt_rd_put_wrapped(rctx *r, lb *b, int indent, int style, const char *s, size_t n) {
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
  qt_rd_put_wrapped(r, b, indent, style, s, strlen(s));
}

/* A whole paragraph on lines of its own, each starting with `indent` spaces. */
void qt_rd_paragraph(rctx *r, int indent, int style, const char *s, size_t n) {
  lb b;
  if (indent >= r->width) indent = 0;
  lb_begin(r, &b);
  lb_spaces(&b, indent);
  qt_rd_put_wrapped(r, &b, indent, style, s, n);
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
const char *qt_rd_fmt(rctx *r, qt_string_id id, size_t n, const char *s) {
  qt_buf_reset(&r->tmp);
  qt_format(&r->tmp, qt_str(r->e, id), n, s);
  if (!r->tmp.data || r->tmp.failed) {
    r->failed = r->tmp.failed;
    return "";
  }
  return r->tmp.data;
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
    bool skipped = answered && i < e->req->question_count && e->answers[i].skipped;
    const char *mark = i == cur ? MARK_CURRENT : skipped ? MARK_SKIPPED : answered ? MARK_DONE : MARK_OPEN;
    int mark_style = i == cur ? QT_STYLE_ACCENT : skipped ? QT_STYLE_MUTED : answered ? QT_STYLE_SUCCESS : QT_STYLE_DIM;
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

/* Row `row` of question qi's list drawn: option k, or "Something else…" (k is SIZE_MAX). */
static void draw_row_lines(rctx *r, const qt_qstate *s, size_t qi, size_t row, size_t k, bool hl) {
  const qt_engine *e = r->e;
  const qt_answer *a = &e->answers[qi];
  bool other = k == SIZE_MAX;
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
    qt_rd_paragraph(r, indent, QT_STYLE_MUTED, s->opts[k].description, strlen(s->opts[k].description));
  } else if (other && (s->view == QT_VIEW_ENTRY || !qt_editor_blank(&s->draft))) {
    lb_begin(r, &b);
    lb_spaces(&b, indent < r->width ? indent : 0);
    qt_rd_draw_editor(r, &b, &s->draft, indent, s->view == QT_VIEW_ENTRY && e->current == qi && typing_live(e),
                      s->view == QT_VIEW_ENTRY ? PLAIN : QT_STYLE_MUTED);
  }
}

/* The marks of an option row (qt_row_cache.marks). */
enum { ROW_HIGHLIGHT = 1u, ROW_TICKED = 2u, ROW_CHOSEN = 4u };

/* The slot that kept option row `row` of question qi with these marks at this width, or NULL. */
static qt_row_cache *kept_row(qt_draw *d, size_t qi, size_t k, size_t row, unsigned marks, int width, unsigned rules) {
  for (size_t i = 0; i < QT_ROW_SLOTS; i++) {
    qt_row_cache *c = &d->rows[i];
    if (c->valid && c->q == qi && c->k == k && c->row == row && c->marks == marks && c->width == width &&
        c->rules == rules)
      return c;
  }
  return NULL;
}

/* Keeps the lines r->out[first..] as that row, in the slot used longest ago. */
static void keep_row(rctx *r, size_t first, size_t qi, size_t k, size_t row, unsigned marks, unsigned rules) {
  qt_draw *d = r->d;
  qt_row_cache *c = &d->rows[0];
  for (size_t i = 1; i < QT_ROW_SLOTS && c->valid; i++)
    if (!d->rows[i].valid || d->rows[i].used < c->used) c = &d->rows[i];
  *c = (qt_row_cache){qi, k, row, marks, r->width, rules, false, ++d->row_clock, 0, c->bytes};
  const qt_lines *out = r->out;
  qt_buf_reset(&c->bytes);
  for (size_t i = first; i < out->count; i++) {
    size_t start = out->off[i], end = i + 1 < out->count ? out->off[i + 1] : out->buf.len; /* after its '\0' */
    qt_buf_append(&c->bytes, (const char *)&out->width[i], sizeof out->width[i]);
    qt_buf_append(&c->bytes, out->buf.data + start, end - start);
  }
  c->count = out->count - first;
  c->valid = !c->bytes.failed;
}

/* Appends the lines kept in `c` to r->out. */
static void put_kept_row(rctx *r, const qt_row_cache *c) {
  const char *p = c->bytes.data;
  for (size_t i = 0; i < c->count; i++) {
    int w;
    memcpy(&w, p, sizeof w);
    p += sizeof w;
    size_t n = strlen(p);
    if (!qt_lines_add(r->out, p, n, w)) r->failed = true;
    p += n + 1;
  }
}

/* Row `row` of question qi's list: an option with its description, or "Something else…" with
 * no typed text under it (its label is in the engine's language: a new one forgets what was
 * kept), drawn again from what was kept while nothing it is drawn from changed; or "Something
 * else…" with its typed text, drawn every time. */
void qt_rd_draw_row(rctx *r, const qt_qstate *s, size_t qi, size_t row) {
  const qt_engine *e = r->e;
  size_t k = qt_list_option_at(s, row);
  bool hl = row == s->highlight, other = k == SIZE_MAX;
  if (other && (s->view == QT_VIEW_ENTRY || !qt_editor_blank(&s->draft))) { /* with the typed text */
    draw_row_lines(r, s, qi, row, k, hl);
    return;
  }
  const qt_answer *a = &e->answers[qi];
  bool on = other ? a->custom != NULL : a->index_count && a->indices[0] == k + 1;
  bool chosen = !s->q->multi_select && a->present && on;
  bool ticked = s->q->multi_select && (other ? a->custom != NULL : s->ticked[k]);
  unsigned marks = (hl ? ROW_HIGHLIGHT : 0) | (ticked ? ROW_TICKED : 0) | (chosen ? ROW_CHOSEN : 0),
           rules = qt_width_rules();
  qt_row_cache *c = kept_row(r->d, qi, k, row, marks, r->width, rules);
  if (c) {
    c->used = ++r->d->row_clock;
    put_kept_row(r, c);
    return;
  }
  size_t first = r->out->count;
  draw_row_lines(r, s, qi, row, k, hl);
  if (!r->failed && !r->out->buf.failed) keep_row(r, first, qi, k, row, marks, rules);
}

static void list_hint(rctx *r, int indent, bool limited, const char *t) {
  if (limited)
    qt_rd_hint_line(r, indent, t);
  else
    qt_rd_paragraph(r, indent, QT_STYLE_DIM, t, strlen(t));
}

/* The list block: filter line, scroll hints, the rows in the window. */
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
      qt_rd_draw_editor(r, &b, &s->filter, indent, typing_live(r->e), PLAIN);
    } else {
      qt_rd_draw_editor(r, &b, &s->filter, indent, false, QT_STYLE_DIM);
    }
  }
  r->filter_lines = (int)(r->out->count - at);
  bool none = s->filter_on && s->shown_count == 0;
  size_t rows = qt_list_rows(s), first = r->lay->list_top, end = first + QT_LIST_WINDOW;
  if (end > rows) end = rows;
  int row_cap = NO_LIMIT;
  if (limited) {
    qt_rd_fit_list_window(r, s, qi, rows, limit - r->filter_lines - none, &first, &end, &row_cap, &hints);
    r->lay->list_top = first; /* the window shown is where the list scrolls from */
  }
  if (first > 0 && hints) list_hint(r, hint, limited, qt_rd_fmt(r, QT_STR_MORE_ABOVE, first, NULL));
  if (none) list_hint(r, hint, limited, qt_str(r->e, QT_STR_NO_MATCHES));
  for (size_t row = first; row < end; row++) {
    if (row_cap != NO_LIMIT)
      qt_rd_draw_row_cut(r, s, qi, row, row_cap);
    else
      qt_rd_draw_row(r, s, qi, row);
  }
  if (end < rows && hints) list_hint(r, hint, limited, qt_rd_fmt(r, QT_STR_MORE_BELOW, rows - end, NULL));
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
 * "↓ N more lines"; Shift+↑/Shift+↓ move it (engine_keys.c preview_key) by preview_window. */
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
    const char *t = qt_rd_fmt(r, QT_STR_LINES_ABOVE, first, NULL);
    preview_line(r, bar, QT_STYLE_DIM, t, strlen(t), -1);
  }
  for (size_t l = first; l < first + shown; l++)
    preview_line(r, bar, PLAIN, text + e->pv.start[l], e->pv.end[l] - e->pv.start[l], e->pv.width[l]);
  if (below) {
    const char *t = qt_rd_fmt(r, QT_STR_LINES_BELOW, total - first - shown, NULL);
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
  qt_rd_draw_editor(r, &b, &s->note, indent, editing && typing_live(r->e), editing ? PLAIN : QT_STYLE_MUTED);
}

/* The prompt, in its window when the rows are few (PageUp/PageDown read the rest). */
static void draw_prompt(rctx *r, const qt_qstate *s) {
  int m = margin(r), cap = r->limit[SEC_PROMPT];
  if (cap == NO_LIMIT) {
    qt_rd_paragraph(r, m, QT_STYLE_TITLE, s->prompt, strlen(s->prompt));
    r->lay->prompt_window = 0;
    return;
  }
  qt_lines *saved = r->out;
  qt_lines_reset(&r->d->measure);
  r->out = &r->d->measure;
  qt_rd_paragraph(r, m, QT_STYLE_TITLE, s->prompt, strlen(s->prompt));
  r->out = saved;
  qt_rd_copy_window(r, &r->d->measure, cap, m, &r->lay->prompt_top, &r->lay->prompt_window);
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
    qt_rd_draw_editor(r, &b, &s->draft, m + 2, s->view == QT_VIEW_ENTRY && typing_live(e), PLAIN);
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
    qt_rd_copy_window(r, &d->measure, cap, margin(r), &r->lay->review_top, &r->lay->review_window);
  }
  count_part(r, SEC_BODY, at);
}

static void draw_review_lines(rctx *r) {
  const qt_engine *e = r->e;
  int m = margin(r), indent = m + 2 < r->width ? m + 2 : 0;
  const char *title = qt_str(e, QT_STR_REVIEW_TITLE);
  qt_rd_paragraph(r, m, QT_STYLE_TITLE, title, strlen(title));
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
    } else if (a->skipped) {
      qt_buf_puts(t, qt_str(e, a->skipped == QT_SKIP_CHAT ? QT_STR_REVIEW_CHAT : QT_STR_REVIEW_SKIPPED));
    } else {
      for (size_t j = 0; j < a->index_count; j++) {
        if (j) qt_buf_puts(t, ", ");
        if (a->indices[j] >= 1 && a->indices[j] <= s->q->option_count) qt_buf_puts(t, s->opts[a->indices[j] - 1].label);
      }
      if (a->custom && s->q->secret) {
        qt_buf_puts(t, qt_str(e, QT_STR_SECRET_ANSWER)); /* never the secret's text */
      } else if (a->custom) {
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
    lb_str(&b,
           a->skipped   ? QT_STYLE_MUTED
           : a->present ? QT_STYLE_SUCCESS
                        : QT_STYLE_WARNING,
           a->skipped   ? MARK_SKIPPED
           : a->present ? MARK_DONE
                        : MARK_OPEN);
    lb_str(&b, PLAIN, " ");
    qt_rd_put_wrapped(r, &b, indent, a->present ? PLAIN : QT_STYLE_WARNING, t->data, t->len);
    if (a->custom && !s->q->secret) {
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
      qt_rd_paragraph(r, indent, QT_STYLE_MUTED, t->data, t->len);
    }
  }
  if (e->call_note_text && !e->call_note_open) { /* the one note on the whole call */
    qt_buf *t = &r->tmp;
    qt_buf_reset(t);
    qt_buf_puts(t, qt_str(e, QT_STR_CALL_NOTE_PREFIX));
    qt_sanitize(t, e->call_note_text, strlen(e->call_note_text), 0);
    if (t->failed || !t->data) {
      r->failed = true;
      return;
    }
    blank_line(r);
    qt_rd_paragraph(r, m, QT_STYLE_MUTED, t->data, t->len);
  }
}

/* The discussion field under the question: "What do you want to tell the
 * agent?" and the text being typed. */
static void draw_discussion(rctx *r, qt_string_id title_id, const qt_editor *field) {
  const qt_engine *e = r->e;
  int m = margin(r), cap = r->limit[SEC_DISCUSS];
  size_t at = r->out->count;
  const char *title = qt_str(e, title_id);
  if (cap == NO_LIMIT) {
    blank_line(r);
    qt_rd_paragraph(r, m, QT_STYLE_ACCENT, title, strlen(title));
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
  qt_rd_draw_editor(r, &b, field, m + 2, !e->done, PLAIN);
  count_part(r, SEC_DISCUSS, at);
}

/* The confirmation in place of the message line. */
static void draw_overlay(rctx *r) {
  const qt_engine *e = r->e;
  qt_rd_fmt(r, qt_confirm_string(e), e->overlay_n, NULL);
  qt_buf_putc(&r->tmp, ' ');
  qt_buf_puts(&r->tmp, qt_str(e, QT_STR_YES_NO));
  if (r->tmp.failed) {
    r->failed = true;
    return;
  }
  qt_rd_paragraph(r, margin(r), QT_STYLE_WARNING, r->tmp.data, r->tmp.len);
}

/* The person's timeout: "Answers itself in 4:59 — any key stops the clock". */
static void draw_countdown(rctx *r) {
  qt_buf_reset(&r->tmp);
  if (!qt_countdown_text(r->e, &r->tmp)) return;
  if (r->tmp.failed || !r->tmp.data) {
    r->failed = true;
    return;
  }
  qt_rd_paragraph(r, margin(r), QT_STYLE_WARNING, r->tmp.data, r->tmp.len);
}

/* One frame into d->frame, each part within r->limit (all NO_LIMIT: as tall as it is). The
 * countdown line is one of the lines that always stay (fit_rows counts it with the help). */
void qt_rd_draw_frame(rctx *r) {
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
    const char *who = e->asker_name ? qt_rd_fmt(r, QT_STR_ASKED_BY, 0, e->asker_name)
                                    : qt_rd_fmt(r, QT_STR_ASKED_BY_SUBAGENT, 0, e->asker_where);
    if (r->squeeze < 3)
      qt_rd_paragraph(r, margin(r), QT_STYLE_MUTED, who, strlen(who));
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
  if (e->discuss_open)
    draw_discussion(r, QT_STR_DISCUSS_PROMPT, &e->discuss);
  else if (e->call_note_open) /* the field of the one note on the whole call (the review's note key) */
    draw_discussion(r, QT_STR_CALL_NOTE_PROMPT, &e->call_note);
  spacer_line(r);
  draw_countdown(r);
  const char *earlier = qt_engine_earlier_line(e); /* a remembered answer: "Answered on 21 Nov: …" */
  if (earlier && e->overlay == QT_OVERLAY_NONE) qt_rd_paragraph(r, margin(r), QT_STYLE_MUTED, earlier, strlen(earlier));
  qt_string_id skip = qt_skip_line(e); /* "Skipped: the agent decides this one" */
  if (skip != QT_STR_COUNT && e->overlay == QT_OVERLAY_NONE) {
    const char *line = qt_str(e, skip);
    qt_rd_paragraph(r, margin(r), QT_STYLE_WARNING, line, strlen(line));
  }
  if (e->current < e->req->question_count && e->overlay == QT_OVERLAY_NONE) { /* "A whole number (1–10)" */
    qt_buf_reset(&r->tmp);
    if (qt_typed_hint(e->qs[e->current].q, e->lang, &r->tmp) && r->tmp.data)
      qt_rd_paragraph(r, margin(r), QT_STYLE_MUTED, r->tmp.data, r->tmp.len);
  }
  if (e->overlay != QT_OVERLAY_NONE)
    draw_overlay(r);
  else if (e->flash.len)
    qt_rd_paragraph(r, margin(r), e->flash_style, e->flash.data, e->flash.len);
  qt_rd_draw_help(r);
  rule_line(r);
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

qt_status qt_render_frame(const qt_engine *e, qt_draw *d, int width, int rows, qt_layout *out) {
  if (width > 4096) width = 4096; /* lines may be narrower than asked, never wider */
  rctx r = {.e = e, .d = d, .lay = out, .out = &d->frame, .width = width, .rows = rows > 0 ? rows : 0};
  for (int i = 0; i < SEC_COUNT; i++) r.limit[i] = NO_LIMIT;
  qt_layout_start(e, &r.lay0);
  qt_buf_init(&r.tmp);
  qt_rd_draw_frame(&r);
  if (r.rows > 0 && d->frame.count > (size_t)r.rows && !r.failed) qt_rd_fit_rows(&r);
  bool failed = r.failed || r.tmp.failed || d->frame.buf.failed;
  qt_buf_free(&r.tmp);
  if (failed) {
    qt_lines_reset(&d->frame);
    return QT_ERR_NOMEM;
  }
  return QT_OK;
}
