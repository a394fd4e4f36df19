/* render_internal.h — what the renderers' files share: the renderers' entry points (render.c,
 * render_plain.c), which render_screen.c calls for the host's frames; and, for the styled
 * renderer's files (render.c: frames and screens; render_editor.c: text editors; render_help.c:
 * the help line; render_fit.c: fitting a frame to the rows), the render context, the line
 * builder that never passes the width, and the drawing functions one file calls in another.
 * Not part of any contract: engine_internal.h holds the state the renderers read. */
#ifndef QT_RENDER_INTERNAL_H
#define QT_RENDER_INTERNAL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "engine/engine_internal.h"
#include "text/lines.h"

/* ---- the renderers ------------------------------------------------------------------------- */
/* render.c: draws the frame of the state `e` for `width` and `rows` (0: no limit) into d->frame
 * and what it showed into *out. Reads the state, writes only d and *out. */
qt_status qt_render_frame(const qt_engine *e, qt_draw *d, int width, int rows, qt_layout *out);
/* render_plain.c: the accessible frame (plain lines, words for markers), the same way. */
qt_status qt_render_plain_frame(const qt_engine *e, qt_draw *d, int width, int rows, qt_layout *out);
/* render.c: the layout as the state has it before a frame is drawn (where the keys left the
 * windows; none cut yet). */
void qt_layout_start(const qt_engine *e, qt_layout *l);
/* The keys that work now, as the help line names them ("Enter select"), joined by sep into out
 * (render_help.c); the plain frame's words when keys were rebound. What the screen's frame
 * showed (e->layout) decides whether the keys that read a cut prompt or preview are among them. */
void qt_render_help_items(const qt_engine *e, qt_buf *out, const char *sep);
/* The name of the first key of action `a` ("PgUp"), appended to out; nothing when it has none. */
void qt_render_key_name(const qt_engine *e, qt_action a, qt_buf *out);

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
  int rows;           /* rows the frame may take (0: no limit) */
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

/* ---- the line builder ----------------------------------------------------------------------- */
static inline void lb_begin(rctx *r, lb *b) {
  b->r = r;
  b->start = r->out->buf.len;
  b->w = 0;
}

static inline void lb_end(lb *b) {
  if (!qt_lines_end(b->r->out, b->start, b->w)) b->r->failed = true;
}

/* Zero-width bytes (the cursor marker). */
static inline void lb_raw(lb *b, const char *s) { qt_buf_puts(&b->r->out->buf, s); }

/* Appends as many whole graphemes of s[0..n) as fit, wrapped in `style`; returns the bytes taken. */
static inline size_t lb_text(lb *b, int style, const char *s, size_t n) {
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
static inline void lb_fitted(lb *b, int style, const char *s, size_t n, int w) {
  if (n == 0) return;
  const qt_engine *e = b->r->e;
  qt_buf *out = &b->r->out->buf;
  if (style != PLAIN) qt_buf_puts(out, e->style_open[style]);
  qt_buf_append(out, s, n);
  if (style != PLAIN) qt_buf_puts(out, e->style_close[style]);
  b->w += w;
}

static inline void lb_str(lb *b, int style, const char *s) { lb_text(b, style, s, strlen(s)); }

static inline void lb_spaces(lb *b, int n) {
  while (n-- > 0 && b->w < b->r->width) {
    qt_buf_putc(&b->r->out->buf, ' ');
    b->w++;
  }
}

static inline void blank_line(rctx *r) {
  lb b;
  lb_begin(r, &b);
  lb_end(&b);
}

/* The question's own text fields have the keyboard: not finished, no discussion field open. */
static inline bool typing_live(const qt_engine *e) { return !e->done && !e->discuss_open; }

/* The left margin: one column, unless the width has no room for it. */
static inline int margin(const rctx *r) { return r->width > 2 ? 1 : 0; }

/* ---- drawing, across the files ---------------------------------------------------------------- */
/* render.c: fills r->tmp with template `id`, {n} and {s} replaced. */
const char *qt_rd_fmt(rctx *r, qt_string_id id, size_t n, const char *s);
/* render.c: writes s[0..n) wrapped: the first part continues the open line *b, later lines start
 * with `indent` spaces. The last line stays open in *b. */
void qt_rd_put_wrapped(rctx *r, lb *b, int indent, int style, const char *s, size_t n);
/* render.c: a whole paragraph on lines of its own, each starting with `indent` spaces. */
void qt_rd_paragraph(rctx *r, int indent, int style, const char *s, size_t n);
/* render.c: row `row` of question qi's list, its description or typed text under it. */
void qt_rd_draw_row(rctx *r, const qt_qstate *s, size_t qi, size_t row);
/* render.c: one frame into d->frame, each part within r->limit. */
void qt_rd_draw_frame(rctx *r);
/* render_editor.c: draws an editor after the open line's prefix (see there). */
void qt_rd_draw_editor(rctx *r, lb *b, const qt_editor *ed, int indent, bool focused, int style);
/* render_editor.c: one dim line, cut at the width: a scroll hint that must take exactly one row. */
void qt_rd_hint_line(rctx *r, int indent, const char *text);
/* render_help.c: the help line: the keys that work now. */
void qt_rd_draw_help(rctx *r);
/* render_fit.c: shows src (a prompt, the review) in at most `cap` lines from *scroll on. */
void qt_rd_copy_window(rctx *r, const qt_lines *src, int cap, int indent, size_t *scroll, size_t *window);
/* render_fit.c: narrows the window [*first, *end) of a list to `avail` lines. */
void qt_rd_fit_list_window(rctx *r, const qt_qstate *s, size_t qi, size_t rows, int avail, size_t *first, size_t *end,
                           int *row_cap, bool *hints);
/* render_fit.c: draws row `row` in at most `cap` lines. */
void qt_rd_draw_row_cut(rctx *r, const qt_qstate *s, size_t qi, size_t row, int cap);
/* render_fit.c: draws the frame again within r->rows. */
void qt_rd_fit_rows(rctx *r);

#endif
