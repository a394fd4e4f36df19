/* render_plain.c — the accessible frame: plain lines a screen reader can
 * follow. No box drawing, no symbols standing for a state, no styles at all (so no meaning is
 * carried by colour): markers are words ("selected", "checked"), the focused option is
 * announced on a line of its own ("Option 2 of 4: SQLite"), and each state change is a short
 * line (the engine's one-shot message). The option rows do not change when the focus moves,
 * so a screen reader that reads what changed reads only the announcement.
 *
 * Every line is wrapped to the width by lines.c (with the rule of its own, QT_WRAP_PLAIN, that
 * its screens were made with); the only bytes
 * besides text are the host's cursor marker where the text cursor is.
 *
 * Drawing never writes the state: the engine comes `const`, and only the renderer's memory
 * (qt_draw) and the layout returned (qt_layout: the prompt's window) are written. No cast here
 * may drop the const of the engine or of anything in it (tests/render-pure.test.mjs checks). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine_internal.h"
#include "render_internal.h"
#include "qt_typed.h"
#include "text/lines.h"

typedef struct pctx {
  const qt_engine *e; /* the state drawn: read only */
  qt_draw *d;         /* the frame goes into d->frame */
  qt_layout *lay;     /* what it shows of the prompt (returned) */
  int width;
  int rows;   /* rows the frame may take (0: no limit) */
  qt_buf tmp; /* one logical line being put together */
  bool failed;
  size_t prompt_first, prompt_end; /* the frame's lines of the prompt (SIZE_MAX: none) */
} pctx;

/* ---- lines ------------------------------------------------------------------------------------ */
static void put_line(pctx *p, const char *s, size_t n) {
  if (!qt_lines_add(&p->d->frame, s, n, (int)qt_visible_width(s, n))) p->failed = true;
}

/* Writes s[0..n) as lines of at most p->width columns (where they break: qt_wrap_line). */
static void text_lines(pctx *p, const char *s, size_t n) {
  size_t pos = 0;
  do {
    size_t end, next;
    int w;
    qt_wrap_line(s, n, pos, p->width, p->e->cursor_marker, QT_WRAP_PLAIN, &end, &next, &w);
    put_line(p, s + pos, end - pos);
    pos = next;
  } while (pos < n);
}

/* The logical line in p->tmp, then cleared. */
static void flush(pctx *p) {
  if (p->tmp.failed) p->failed = true;
  if (p->tmp.len) text_lines(p, p->tmp.data, p->tmp.len);
  qt_buf_reset(&p->tmp);
}

/* Template `id` with {n} and {s}, into p->tmp. */
static void say(pctx *p, qt_string_id id, size_t n, const char *s) { qt_format(&p->tmp, qt_str(p->e, id), n, s); }

/* Template with two numbers ("Option {n} of {s}"). */
static void say2(pctx *p, qt_string_id id, size_t n, size_t of) {
  char total[32];
  snprintf(total, sizeof total, "%zu", of);
  say(p, id, n, total);
}

/* Model or person text, sanitized, line breaks kept (or made spaces). */
static void put_text(pctx *p, const char *s, size_t n, bool newlines) {
  qt_sanitize(&p->tmp, s, n, newlines ? QT_SANITIZE_NEWLINES : 0);
}

/* An editor's text with the host's cursor marker at the cursor when focused. */
static void put_editor(pctx *p, const qt_editor *ed, bool focused) {
  if (ed->masked) { /* a secret: its bullets, never its text */
    qt_editor mask;
    qt_editor_init(&mask, ed->limit, false);
    if (qt_editor_mask(ed, &mask))
      put_editor(p, &mask, focused);
    else
      p->tmp.failed = true;
    qt_editor_free(&mask);
    return;
  }
  const char *s = qt_editor_text(ed);
  size_t n = qt_editor_len(ed), c = ed->cursor <= n ? ed->cursor : n;
  if (!n && !focused) {
    qt_buf_puts(&p->tmp, qt_str(p->e, QT_STR_PLAIN_EMPTY));
    return;
  }
  put_text(p, s, c, ed->multiline);
  if (focused) qt_buf_puts(&p->tmp, p->e->cursor_marker);
  put_text(p, s + c, n - c, ed->multiline);
}

/* ---- one question -------------------------------------------------------------------------- */
/* An option's state as said after its label: checked / not checked, selected, or none (a
 * single-select option not chosen: QT_STR_COUNT). */
static qt_string_id state_of(const pctx *p, const qt_qstate *s, size_t qi, size_t k) {
  const qt_answer *a = &p->e->answers[qi];
  bool other = k == SIZE_MAX;
  if (s->q->multi_select)
    return (other ? a->custom != NULL : s->ticked[k]) ? QT_STR_PLAIN_CHECKED : QT_STR_PLAIN_NOT_CHECKED;
  bool chosen = a->present && (other ? a->custom != NULL : a->index_count && a->indices[0] == k + 1);
  return chosen ? QT_STR_PLAIN_SELECTED : QT_STR_COUNT;
}

/* ", checked" / ", selected" / ", not checked" after an option's label. */
static void put_state(pctx *p, const qt_qstate *s, size_t qi, size_t k) {
  qt_string_id state = state_of(p, s, qi, k);
  if (state == QT_STR_COUNT) return;
  qt_buf_puts(&p->tmp, ", ");
  qt_buf_puts(&p->tmp, qt_str(p->e, state));
}

static const char *option_label(const pctx *p, const qt_qstate *s, size_t k) {
  return k == SIZE_MAX ? qt_str(p->e, QT_STR_SOMETHING_ELSE) : s->opts[k].label;
}

static void plain_list(pctx *p, const qt_qstate *s, size_t qi) {
  const qt_engine *e = p->e;
  bool filtering = s->view == QT_VIEW_FILTER && e->current == qi && !e->done && !e->discuss_open;
  if (filtering || s->filter_on) {
    qt_buf_puts(&p->tmp, qt_str(e, QT_STR_FILTER_PREFIX));
    put_editor(p, &s->filter, filtering);
    qt_buf_puts(&p->tmp, ". ");
    say(p, QT_STR_PLAIN_MATCHES, s->filter_on ? s->shown_count : s->q->option_count, NULL);
    flush(p);
  }
  size_t rows = qt_list_rows(s), end = s->scroll + QT_LIST_WINDOW;
  if (end > rows) end = rows;
  if (s->scroll > 0) {
    say(p, QT_STR_PLAIN_MORE_ABOVE, s->scroll, NULL);
    flush(p);
  }
  for (size_t row = s->scroll; row < end; row++) {
    size_t k = qt_list_option_at(s, row);
    qt_buf_printf(&p->tmp, "%zu. ", row + 1);
    qt_buf_puts(&p->tmp, option_label(p, s, k));
    put_state(p, s, qi, k);
    flush(p);
  }
  if (end < rows) {
    say(p, QT_STR_PLAIN_MORE_BELOW, rows - end, NULL);
    flush(p);
  }
  /* the focused option, announced */
  size_t k = qt_list_option_at(s, s->highlight);
  if (!qt_plain_option(&p->tmp, e->lang, s->highlight + 1, rows, option_label(p, s, k), state_of(p, s, qi, k)))
    p->tmp.failed = true;
  if (k != SIZE_MAX && s->opts[k].description) {
    qt_buf_puts(&p->tmp, ". ");
    put_text(p, s->opts[k].description, strlen(s->opts[k].description), false);
  }
  flush(p);
  if (k != SIZE_MAX && s->opts[k].preview) {
    qt_buf_puts(&p->tmp, qt_str(e, QT_STR_PLAIN_PREVIEW));
    put_text(p, s->opts[k].preview, strlen(s->opts[k].preview), true);
    flush(p);
  }
}

static void plain_question(pctx *p, size_t qi) {
  const qt_engine *e = p->e;
  const qt_qstate *s = &e->qs[qi];
  if (e->multi) {
    say2(p, QT_STR_PLAIN_QUESTION_N, qi + 1, e->req->question_count);
    qt_buf_putc(&p->tmp, ' ');
    qt_buf_puts(&p->tmp, s->label);
    flush(p);
  }
  p->prompt_first = p->d->frame.count;
  qt_buf_puts(&p->tmp, s->prompt);
  flush(p);
  p->prompt_end = p->d->frame.count;
  if (s->q->option_count == 0) {
    say(p, QT_STR_PLAIN_TYPE_ANSWER, 0, NULL);
    flush(p);
  } else {
    say(p, s->q->multi_select ? QT_STR_PLAIN_CHOOSE_MANY : QT_STR_PLAIN_CHOOSE_ONE, s->q->option_count, NULL);
    flush(p);
    plain_list(p, s, qi);
  }
  bool typing = s->view == QT_VIEW_ENTRY && e->current == qi && !e->done && !e->discuss_open;
  if (typing || !qt_editor_blank(&s->draft)) {
    qt_buf_puts(&p->tmp, qt_str(e, QT_STR_PLAIN_TYPING));
    put_editor(p, &s->draft, typing);
    flush(p);
  }
  bool noting = s->view == QT_VIEW_NOTE && e->current == qi && !e->done && !e->discuss_open;
  if (noting || !qt_editor_blank(&s->note)) {
    qt_buf_puts(&p->tmp, qt_str(e, QT_STR_NOTE_PREFIX));
    put_editor(p, &s->note, noting);
    flush(p);
  }
}

static void plain_review(pctx *p) {
  const qt_engine *e = p->e;
  say(p, QT_STR_PLAIN_REVIEW, e->req->question_count, NULL);
  flush(p);
  for (size_t i = 0; i < e->req->question_count; i++) {
    const qt_qstate *s = &e->qs[i];
    const qt_answer *a = &e->answers[i];
    qt_buf_printf(&p->tmp, "%zu. ", i + 1);
    qt_buf_puts(&p->tmp, s->label);
    qt_buf_puts(&p->tmp, ": ");
    if (!a->present) {
      qt_buf_puts(&p->tmp, qt_str(e, QT_STR_NOT_ANSWERED));
    } else if (a->skipped) {
      qt_buf_puts(&p->tmp, qt_str(e, a->skipped == QT_SKIP_CHAT ? QT_STR_REVIEW_CHAT : QT_STR_REVIEW_SKIPPED));
    } else {
      qt_buf_puts(&p->tmp, qt_str(e, QT_STR_PLAIN_ANSWERED));
      qt_buf_puts(&p->tmp, ", ");
      for (size_t j = 0; j < a->index_count; j++) {
        if (j) qt_buf_puts(&p->tmp, ", ");
        if (a->indices[j] >= 1 && a->indices[j] <= s->q->option_count)
          qt_buf_puts(&p->tmp, s->opts[a->indices[j] - 1].label);
      }
      if (a->custom && s->q->secret) {
        qt_buf_puts(&p->tmp, qt_str(e, QT_STR_SECRET_ANSWER)); /* never the secret's text */
      } else if (a->custom) {
        if (a->index_count) qt_buf_puts(&p->tmp, ", ");
        put_text(p, a->custom, strlen(a->custom), false);
        qt_buf_putc(&p->tmp, ' ');
        qt_buf_puts(&p->tmp, qt_str(e, QT_STR_TYPED));
      }
    }
    if (a->note) {
      qt_buf_puts(&p->tmp, ". ");
      qt_buf_puts(&p->tmp, qt_str(e, QT_STR_NOTE_PREFIX));
      put_text(p, a->note, strlen(a->note), false);
    }
    flush(p);
  }
  if (e->call_note_text && !e->call_note_open) { /* the one note on the whole call */
    qt_buf_puts(&p->tmp, qt_str(e, QT_STR_CALL_NOTE_PREFIX));
    put_text(p, e->call_note_text, strlen(e->call_note_text), false);
    flush(p);
  }
}

/* Talk first (Ctrl+T), or the one note on the whole call: the field's title, then its text. */
static void plain_discussion(pctx *p, qt_string_id title, const qt_editor *field) {
  const qt_engine *e = p->e;
  qt_buf_puts(&p->tmp, qt_str(e, title));
  flush(p);
  put_editor(p, field, !e->done);
  flush(p);
}

/* The question fits the screen: a frame taller than p->rows keeps the prompt
 * from its first line (or from where PageUp/PageDown left it), saying in words how many of its
 * lines are hidden and which key reads them; then the end of the rest (the announcement, the
 * countdown, the message and the keys), or the rest from the line with the text cursor on when
 * that is above it; then who asks and the question's number, as the rows allow. With fewer rows
 * than a prompt line, a hint and one more line, the last rows (the cursor's line kept). */
static size_t cursor_line_in(const pctx *p, size_t from, size_t to) {
  const char *m = p->e->cursor_marker;
  const qt_lines *f = &p->d->frame;
  if (!m || !*m) return SIZE_MAX;
  for (size_t i = from; i < to; i++)
    if (strstr(f->buf.data + f->off[i], m)) return i;
  return SIZE_MAX;
}

static void keep_last_rows(pctx *p) {
  qt_lines *f = &p->d->frame;
  size_t rows = (size_t)p->rows, start = f->count - rows, c = cursor_line_in(p, 0, start);
  if (c != SIZE_MAX) start = c;
  memmove(f->off, f->off + start, rows * sizeof *f->off);
  memmove(f->width, f->width + start, rows * sizeof *f->width);
  f->count = rows;
}

/* A hint line after the frame's lines (put back in order by plain_fit_rows). */
static void hint(pctx *p, qt_string_id id, size_t n, qt_action key) {
  qt_buf name;
  qt_buf_init(&name);
  if (qt_engine_first_keys_default(p->e)) /* the key as a word; rebound: as the help line names it */
    qt_buf_puts(&name, qt_str(p->e, key == QT_ACT_PAGE_UP ? QT_STR_PLAIN_KEY_PAGE_UP : QT_STR_PLAIN_KEY_PAGE_DOWN));
  else
    qt_render_key_name(p->e, key, &name);
  if (name.failed) p->failed = true;
  say(p, id, n, name.data ? name.data : "");
  qt_buf_free(&name);
  flush(p);
}

static void plain_fit_rows(pctx *p) {
  const qt_engine *e = p->e;
  qt_lines *f = &p->d->frame;
  qt_layout *lay = p->lay;
  const qt_qstate *s = e->current < e->req->question_count ? &e->qs[e->current] : NULL;
  size_t rows = p->rows > 0 ? (size_t)p->rows : 0, total = f->count;
  lay->prompt_window = 0;
  if (!rows || total <= rows) return;
  size_t ps = p->prompt_first, pe = p->prompt_end;
  if (!s || ps == SIZE_MAX || pe <= ps || pe > total) {
    keep_last_rows(p);
    return;
  }
  size_t head = ps, plines = pe - ps, body = total - pe, buf_len = f->buf.len;
  size_t ha = 1, hb = 1; /* lines each hint takes (they wrap at the width like every line) */
  for (int attempt = 0; attempt < 3; attempt++) {
    /* a line of it and its hints: "N earlier lines", "goes on for N more lines"; with too few
     * rows for both, one of them */
    size_t first0 = lay->prompt_top < plines ? lay->prompt_top : plines - 1;
    size_t least = plines > 1 ? 1 + hb + (first0 > 0 ? ha : 0) : 1;
    if (rows < least + 1 && first0 > 0) least = 1 + (ha > hb ? ha : hb);
    if (rows < least + 1) break;
    /* the prompt's window: what the rest leaves it, at least `least` lines */
    size_t room = rows > head + body ? rows - head - body : 0;
    if (room < least) room = least;
    size_t first = 0, shown = plines;
    bool above = false, below = false;
    if (plines > room) {
      first = lay->prompt_top < plines ? lay->prompt_top : plines - 1;
      above = first > 0 && room >= ha + 1;
      size_t left = room - (above ? ha : 0);
      if (first + left >= plines) { /* the rest fits: the window filled from the end */
        shown = left;
        if (first + shown > plines) first = plines - shown;
      } else if (left >= hb + 1) {
        below = true, shown = left - hb;
      } else { /* a line of it and how much more there is: never past its end, at least one
                * line left for "goes on for N more lines" (first + left < plines here) */
        above = false, below = true, shown = room - hb;
        if (shown > plines - first - 1) shown = plines - first - 1;
      }
    }
    if (first >= plines || shown > plines - first) break; /* never past the prompt (cannot happen) */
    size_t used = (above ? ha : 0) + shown + (below ? hb : 0);
    if (used > rows) break;
    size_t body_keep = body < rows - used ? body : rows - used;
    size_t head_keep = head < rows - used - body_keep ? head : rows - used - body_keep;
    /* the hints go after the frame's lines; then the order is put together */
    size_t at_above = f->count;
    if (above) hint(p, QT_STR_PLAIN_PROMPT_ABOVE, first, QT_ACT_PAGE_UP);
    size_t at_below = f->count;
    if (below) hint(p, QT_STR_PLAIN_PROMPT_BELOW, plines - first - shown, QT_ACT_PAGE_DOWN);
    if (p->failed || f->buf.failed) {
      p->failed = true;
      return;
    }
    size_t got_a = at_below - at_above, got_b = f->count - at_below;
    if ((above && got_a != ha) || (below && got_b != hb)) { /* a hint took more lines: plan again */
      if (above) ha = got_a;
      if (below) hb = got_b;
      f->count = total;
      f->buf.len = buf_len;
      continue;
    }
    size_t bs = total - body_keep, c = cursor_line_in(p, pe, bs);
    if (c != SIZE_MAX) bs = c;
    size_t *off = malloc(rows * sizeof *off);
    int *width = malloc(rows * sizeof *width);
    if (!off || !width) {
      free(off);
      free(width);
      p->failed = true;
      return;
    }
    size_t n = 0;
#define TAKE(i) (off[n] = f->off[i], width[n] = f->width[i], n++)
    for (size_t i = 0; i < head_keep; i++) TAKE(i);
    for (size_t i = at_above; i < at_below; i++) TAKE(i);
    for (size_t i = ps + first; i < ps + first + shown; i++) TAKE(i);
    for (size_t i = at_below; i < f->count; i++) TAKE(i);
    for (size_t i = bs; i < bs + body_keep; i++) TAKE(i);
#undef TAKE
    memcpy(f->off, off, n * sizeof *off);
    memcpy(f->width, width, n * sizeof *width);
    f->count = n;
    free(off);
    free(width);
    lay->prompt_top = first;
    lay->prompt_window = plines > room ? shown : 0;
    return;
  }
  f->count = total; /* too few rows for a line of the prompt and its hint: the last rows */
  f->buf.len = buf_len;
  keep_last_rows(p);
}

/* The keys, in words, for what has the keyboard. */
static void plain_keys(pctx *p) {
  const qt_engine *e = p->e;
  qt_string_id id;
  if (e->overlay != QT_OVERLAY_NONE) {
    id = QT_STR_PLAIN_KEYS_CONFIRM;
  } else if (e->discuss_open) {
    id = QT_STR_PLAIN_KEYS_DISCUSS;
  } else if (e->call_note_open) {
    id = QT_STR_PLAIN_KEYS_CALL_NOTE;
  } else if (e->current >= e->req->question_count) {
    id = QT_STR_PLAIN_KEYS_REVIEW;
  } else {
    const qt_qstate *s = &e->qs[e->current];
    switch (s->view) {
      case QT_VIEW_ENTRY: id = s->q->option_count ? QT_STR_PLAIN_KEYS_ENTRY : QT_STR_PLAIN_KEYS_FREE; break;
      /* single-select: Enter picks the highlighted match, as the help line says */
      case QT_VIEW_FILTER: id = s->q->multi_select ? QT_STR_PLAIN_KEYS_FILTER : QT_STR_PLAIN_KEYS_FILTER_PICK; break;
      case QT_VIEW_NOTE: id = QT_STR_PLAIN_KEYS_NOTE; break;
      default: id = s->q->multi_select ? QT_STR_PLAIN_KEYS_MULTI : QT_STR_PLAIN_KEYS_LIST; break;
    }
  }
  if (!qt_engine_first_keys_default(e)) {
    /* Keys were rebound: the sentences would name the wrong ones. The help line's words follow
     * the bindings (and name Tab and Shift+Tab where they work). */
    qt_buf items;
    qt_buf_init(&items);
    qt_render_help_items(e, &items, ", ");
    if (items.failed) p->tmp.failed = true;
    qt_format(&p->tmp, qt_str(e, QT_STR_PLAIN_KEYS_BOUND), 0, items.data ? items.data : "");
    qt_buf_free(&items);
    flush(p);
    return;
  }
  qt_buf_puts(&p->tmp, qt_str(e, id));
  if (e->multi && e->overlay == QT_OVERLAY_NONE && !e->discuss_open && !e->call_note_open) {
    qt_buf_putc(&p->tmp, ' ');
    qt_buf_puts(&p->tmp, qt_str(e, QT_STR_PLAIN_KEYS_TABS));
  }
  if (qt_step_live(e, QT_STEP_SKIP)) { /* a question of several: "Ctrl+S skips this question; …" */
    qt_buf_putc(&p->tmp, ' ');
    qt_buf_puts(&p->tmp, qt_str(e, QT_STR_PLAIN_KEYS_SKIP));
  }
  if (e->keys[QT_ACT_ASIDE].count) { /* the host's step-aside key (pi's TUI): "Alt+A steps aside." */
    qt_buf key;
    qt_buf_init(&key);
    qt_render_key_name(e, QT_ACT_ASIDE, &key);
    if (key.failed) p->tmp.failed = true;
    qt_buf_putc(&p->tmp, ' ');
    qt_format(&p->tmp, qt_str(e, QT_STR_PLAIN_KEYS_ASIDE), 0, key.data ? key.data : "");
    qt_buf_free(&key);
  }
  flush(p);
}

qt_status qt_render_plain_frame(const qt_engine *e, qt_draw *d, int width, int rows, qt_layout *out) {
  if (width > 4096) width = 4096;
  pctx p = {.e = e,
            .d = d,
            .lay = out,
            .width = width,
            .rows = rows > 0 ? rows : 0,
            .prompt_first = SIZE_MAX,
            .prompt_end = SIZE_MAX};
  qt_layout_start(e, out);
  qt_buf_init(&p.tmp);
  qt_lines_reset(&d->frame);
  if (e->asker_name || e->asker_where) {
    if (e->asker_name)
      say(&p, QT_STR_ASKED_BY, 0, e->asker_name);
    else
      say(&p, QT_STR_ASKED_BY_SUBAGENT, 0, e->asker_where);
    flush(&p);
  }
  if (e->current >= e->req->question_count)
    plain_review(&p);
  else
    plain_question(&p, e->current);
  if (e->discuss_open)
    plain_discussion(&p, QT_STR_DISCUSS_PROMPT, &e->discuss);
  else if (e->call_note_open)
    plain_discussion(&p, QT_STR_CALL_NOTE_PROMPT, &e->call_note);
  /* the review is never cut here; the prompt may be (plain_fit_rows), PageUp/PageDown then read it */
  out->review_window = 0;
  if (qt_countdown_text(e, &p.tmp)) flush(&p);
  const char *earlier = qt_engine_earlier_line(e); /* a remembered answer: "Answered on 21 Nov: …" */
  if (earlier && e->overlay == QT_OVERLAY_NONE) {
    qt_buf_puts(&p.tmp, earlier);
    flush(&p);
  }
  qt_string_id skip = qt_skip_line(e); /* "Skipped: the agent decides this one" */
  if (skip != QT_STR_COUNT && e->overlay == QT_OVERLAY_NONE) {
    qt_buf_puts(&p.tmp, qt_str(e, skip));
    flush(&p);
  }
  if (e->current < e->req->question_count && e->overlay == QT_OVERLAY_NONE &&
      qt_typed_hint(e->qs[e->current].q, e->lang, &p.tmp)) /* "A whole number (1–10)" */
    flush(&p);
  if (e->overlay != QT_OVERLAY_NONE) {
    say(&p, qt_confirm_string(e), e->overlay_n, NULL);
    qt_buf_putc(&p.tmp, ' ');
    qt_buf_puts(&p.tmp, qt_str(e, QT_STR_YES_NO));
    flush(&p);
  } else if (e->flash.len) {
    qt_buf_append(&p.tmp, e->flash.data, e->flash.len);
    flush(&p);
  }
  plain_keys(&p);
  if (!p.failed && !d->frame.buf.failed) plain_fit_rows(&p);
  bool failed = p.failed || p.tmp.failed || d->frame.buf.failed;
  qt_buf_free(&p.tmp);
  if (failed) {
    qt_lines_reset(&d->frame);
    return QT_ERR_NOMEM;
  }
  return QT_OK;
}
