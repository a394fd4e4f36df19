/* render_screen.c — the frames a host asks for (qt_engine_render: drawn by render.c or
 * render_plain.c, the last one cached) and the host's screen (qt_engine_set_screen): what the
 * frame at the screen's size showed is what the keys act on (qt_layout; engine_keys.c
 * qt_adopt_layout). A frame at any other size changes nothing the keys read. When the keys need
 * the screen's layout and no frame was drawn at that size since (the host named a new size, or
 * the width rules changed), the frame is laid out again for the state at the key: the engine
 * calls that through e->lay_out_screen, set here with the screen, since render/ comes after
 * engine/ (rule 8). */
#include <stdlib.h>

#include "render_internal.h"

/* The cached frame is at the screen's size and under the width rules now: what it showed is
 * what the keys act on, kept unless it is already (a key may have started from it). */
static void keep_screen_layout(qt_engine *e) {
  unsigned rules = qt_width_rules();
  if (!e->screen_width || !e->frame_width || e->frame_width != e->screen_width || e->frame_rows != e->screen_rows ||
      e->frame_rules != rules)
    return;
  if (e->layout.valid && e->layout_width == e->frame_width && e->layout_rows == e->frame_rows &&
      e->layout_rules == rules && e->layout_revision == e->frame_revision)
    return;
  e->layout = e->frame_layout;
  e->layout.adopted = false;
  e->layout_width = e->frame_width;
  e->layout_rows = e->frame_rows;
  e->layout_rules = rules;
  e->layout_revision = e->frame_revision;
}

qt_status qt_engine_render(qt_engine *e, int width, int rows, const char *const **lines, size_t *count) {
  if (!e || !lines || !count) return QT_ERR_USAGE;
  if (width < 1) width = 1;
  if (rows < 0) rows = 0;
  unsigned rules = qt_width_rules();
  if (!(e->frame_width == width && e->frame_rows == rows && e->frame_revision == e->revision &&
        e->frame_rules == rules)) {
    qt_layout shown;
    qt_status st = e->accessible ? qt_render_plain_frame(e, &e->draw, width, rows, &shown)
                                 : qt_render_frame(e, &e->draw, width, rows, &shown);
    if (st) {
      e->frame_width = 0;
      return st;
    }
    const qt_lines *f = &e->draw.frame;
    if (e->line_ptr_cap < f->count) {
      const char **p = realloc(e->line_ptrs, f->count * sizeof *p);
      if (!p) {
        e->frame_width = 0;
        return QT_ERR_NOMEM;
      }
      e->line_ptrs = p;
      e->line_ptr_cap = f->count;
    }
    for (size_t i = 0; i < f->count; i++) e->line_ptrs[i] = f->buf.data + f->off[i];
    e->frame_width = width;
    e->frame_rows = rows;
    e->frame_revision = e->revision;
    e->frame_rules = rules;
    e->frame_layout = shown;
  }
  keep_screen_layout(e);
  *lines = e->line_ptrs;
  *count = e->draw.frame.count;
  return QT_OK;
}

/* The frame at the screen's size for the state now, drawn for what it shows (the keys'
 * layout); the frame cache then holds it. */
static qt_status lay_out_screen(qt_engine *e) {
  const char *const *lines;
  size_t count;
  return qt_engine_render(e, e->screen_width, e->screen_rows, &lines, &count);
}

qt_status qt_engine_set_screen(qt_engine *e, int width, int rows) {
  if (!e) return QT_ERR_USAGE;
  if (width < 1) width = 1;
  if (rows < 0) rows = 0;
  e->screen_width = width;
  e->screen_rows = rows;
  e->lay_out_screen = lay_out_screen;
  keep_screen_layout(e); /* the cached frame may be at this size already */
  return QT_OK;
}
