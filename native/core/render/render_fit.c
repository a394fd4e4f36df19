/* render_fit.c — a frame fitted to the rows the host gives: windows of lines (a cut prompt, the
 * review, the rows of an option list that fit), and a frame drawn too tall drawn again with a
 * line budget for each part, then cut. Part of the styled renderer (render.c). */
#include <string.h>

#include "render_internal.h"

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
void qt_rd_copy_window(rctx *r, const qt_lines *src, int cap, int indent, size_t *scroll, size_t *window) {
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
  if (above) qt_rd_hint_line(r, indent, qt_rd_fmt(r, QT_STR_LINES_ABOVE, first, NULL));
  copy_lines(r, src, first, first + shown);
  if (below) qt_rd_hint_line(r, indent, qt_rd_fmt(r, QT_STR_LINES_BELOW, total - first - shown, NULL));
  *scroll = first;
  *window = shown;
}

/* Lines row `row` of the list takes (drawn aside, in d->measure). */
static int row_height(rctx *r, const qt_qstate *s, size_t qi, size_t row) {
  qt_lines *saved = r->out;
  qt_lines_reset(&r->d->measure);
  r->out = &r->d->measure;
  qt_rd_draw_row(r, s, qi, row);
  r->out = saved;
  return (int)r->d->measure.count;
}

/* Narrows the window [*first, *end) of a list of `rows` rows to `avail` lines, hints included,
 * keeping the highlighted row: rows go from the end below the highlight, then from the start.
 * A highlighted row taller than all of it is cut to *row_cap lines; *hints false when there is
 * no room for them beside it. */
void qt_rd_fit_list_window(rctx *r, const qt_qstate *s, size_t qi, size_t rows, int avail, size_t *first, size_t *end,
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
void qt_rd_draw_row_cut(rctx *r, const qt_qstate *s, size_t qi, size_t row, int cap) {
  qt_lines *saved = r->out, *m = &r->d->measure;
  qt_lines_reset(m);
  r->out = m;
  r->cursor_out = NULL;
  r->editor_limit = cap > 1 ? cap - 1 : 1; /* the editor under the label, if it is drawn */
  qt_rd_draw_row(r, s, qi, row);
  r->editor_limit = NO_LIMIT;
  r->out = saved;
  size_t from = 0, n = m->count;
  if (n > (size_t)cap) {
    if (r->cursor_out == m && r->cursor_line >= (size_t)cap) from = r->cursor_line - (size_t)cap + 1;
    n = (size_t)cap;
  }
  copy_lines(r, m, from, from + n);
}

/* ---- the question fits the screen ---------------------------------------------------------------
 * A frame taller than r->rows is drawn again with a line budget for each part: what always
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

void qt_rd_fit_rows(rctx *r) {
  const qt_engine *e = r->e;
  int rows = r->rows, natural[SEC_COUNT], least[SEC_COUNT] = {0}, sum = 0, sum_least = 0;
  memcpy(natural, r->natural, sizeof natural);
  bool review = e->current >= e->req->question_count;
  const qt_qstate *s = review ? NULL : &e->qs[e->current];
  int focus = e->discuss_open || e->call_note_open ? SEC_DISCUSS : s && s->view == QT_VIEW_NOTE ? SEC_NOTE : SEC_BODY;
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
    qt_rd_draw_frame(r);
    if (r->failed || r->d->frame.buf.failed || r->d->frame.count <= (size_t)rows) break;
    fixed += (int)r->d->frame.count - rows; /* what the plan did not foresee: a longer help line */
  }
  if (!r->failed) cut_frame(r, rows);
}
