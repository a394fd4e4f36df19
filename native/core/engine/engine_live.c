/* engine_live.c — what is possible now: the one rule of which steps are live in the current
 * state (qt_engine_live, qt_engine_is_live), and the items the help line names for them
 * (qt_live_items). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

/* ---- the live steps ------------------------------------------------------------------------- */
#define STEP_BIT(st) (1u << (st))

/* THE rule of what may happen now: every key and every face's step is checked against it. */
static unsigned live_mask(const qt_engine *e) {
  if (e->done || e->editor_want) return 0;
  if (e->overlay != QT_OVERLAY_NONE) return STEP_BIT(QT_STEP_YES) | STEP_BIT(QT_STEP_NO);
  if (e->discuss_open) return STEP_BIT(QT_STEP_DISCUSS) | STEP_BIT(QT_STEP_BACK);
  if (e->call_note_open) return STEP_BIT(QT_STEP_NOTE) | STEP_BIT(QT_STEP_BACK);
  unsigned m = STEP_BIT(QT_STEP_DISCUSS) | STEP_BIT(QT_STEP_DECLINE) | STEP_BIT(QT_STEP_CANCEL);
  if (e->multi) m |= STEP_BIT(QT_STEP_GO);
  if (e->current >= e->req->question_count) /* the review: submit, and one note on the whole call */
    return m | STEP_BIT(QT_STEP_SUBMIT) | STEP_BIT(QT_STEP_NOTE);
  const qt_qstate *s = &e->qs[e->current];
  bool options = s->q->option_count > 0;
  m |= STEP_BIT(QT_STEP_TYPE) | STEP_BIT(QT_STEP_DRAFT) | STEP_BIT(QT_STEP_NOTE);
  if (options) {
    m |= STEP_BIT(QT_STEP_FILTER);
    m |= s->q->multi_select ? STEP_BIT(QT_STEP_TOGGLE) | STEP_BIT(QT_STEP_SUBMIT) : STEP_BIT(QT_STEP_PICK);
  }
  if (s->view == QT_VIEW_NOTE || s->view == QT_VIEW_FILTER || s->filter_on || (s->view == QT_VIEW_ENTRY && options))
    m |= STEP_BIT(QT_STEP_BACK);
  if (e->multi && (s->view == QT_VIEW_LIST || s->view == QT_VIEW_ENTRY)) m |= STEP_BIT(QT_STEP_SKIP);
  return m;
}

bool qt_step_live(const qt_engine *e, qt_step st) { return (live_mask(e) & STEP_BIT(st)) != 0; }

bool qt_engine_is_live(const qt_engine *e, qt_step st) {
  return e && (int)st >= 0 && st < QT_STEP_COUNT && qt_step_live(e, st);
}

size_t qt_engine_live(const qt_engine *e, qt_step *out, size_t cap) {
  unsigned m = e ? live_mask(e) : 0;
  size_t n = 0;
  for (int i = 0; i < QT_STEP_COUNT; i++)
    if (m & STEP_BIT(i)) {
      if (out && n < cap) out[n] = (qt_step)i;
      n++;
    }
  return n;
}

/* What the skip key does next on the question shown: skip it, then "in the chat", then not skipped. */
static qt_string_id skip_help(const qt_engine *e) {
  const qt_answer *a = &e->answers[e->current];
  return !a->present || !a->skipped      ? QT_STR_HELP_SKIP
         : a->skipped == QT_SKIP_SKIPPED ? QT_STR_HELP_SKIP_CHAT
                                         : QT_STR_HELP_UNSKIP;
}

/* The live steps as the help line shows them, state by state, in its order; the live steps it
 * leaves out follow as hidden items, so every live step is in the list. */
size_t qt_live_items(const qt_engine *e, qt_live *out) {
  unsigned m = live_mask(e), seen = 0;
  size_t n = 0;
#define ITEM(st, kind_, k1, k2, what, let)                                                                             \
  do {                                                                                                                 \
    if (n < QT_LIVE_MAX && ((st) == QT_STEP_COUNT || (m & STEP_BIT(st)))) {                                            \
      out[n++] = (qt_live){(st), (kind_), (k1), (k2), (what), (let)};                                                  \
      if ((st) != QT_STEP_COUNT) seen |= STEP_BIT(st);                                                                 \
    }                                                                                                                  \
  } while (0)
#define KEY(st, k, what)       ITEM(st, QT_LIVE_KEY, k, QT_ACT_COUNT, what, QT_STR_COUNT)
#define PAIR(st, k1, k2, what) ITEM(st, QT_LIVE_PAIR, k1, k2, what, QT_STR_COUNT)
#define TEXT(st, what)         ITEM(st, QT_LIVE_TEXT, QT_ACT_COUNT, QT_ACT_COUNT, what, QT_STR_COUNT)
  const qt_step none = QT_STEP_COUNT;
  if (!m) return 0;
  if (e->overlay != QT_OVERLAY_NONE) {
    ITEM(QT_STEP_YES, QT_LIVE_LETTER, QT_ACT_CONFIRM, QT_ACT_COUNT, QT_STR_HELP_YES, QT_STR_KEY_YES);
    ITEM(QT_STEP_NO, QT_LIVE_LETTER, QT_ACT_CANCEL, QT_ACT_COUNT, QT_STR_HELP_NO, QT_STR_KEY_NO);
  } else if (e->call_note_open) {
    KEY(QT_STEP_BACK, QT_ACT_CONFIRM, QT_STR_HELP_DONE); /* Esc too, unsaid */
  } else if (e->discuss_open) {
    KEY(QT_STEP_DISCUSS, QT_ACT_CONFIRM, QT_STR_HELP_SEND);
    KEY(none, QT_ACT_NEW_LINE, QT_STR_HELP_NEW_LINE);
    KEY(none, QT_ACT_EXTERNAL_EDITOR, QT_STR_HELP_EDITOR);
    KEY(QT_STEP_BACK, QT_ACT_CANCEL, QT_STR_HELP_BACK_TO_QUESTION);
  } else {
    ITEM(none, QT_LIVE_SCROLL, QT_ACT_COUNT, QT_ACT_COUNT, QT_STR_COUNT, QT_STR_COUNT);
    if (e->current >= e->req->question_count) {
      KEY(QT_STEP_SUBMIT, QT_ACT_CONFIRM, QT_STR_HELP_SUBMIT);
      KEY(QT_STEP_GO, QT_ACT_NEXT, QT_STR_HELP_NEXT);
      KEY(QT_STEP_GO, QT_ACT_PREV, QT_STR_HELP_PREV);
      TEXT(QT_STEP_GO, QT_STR_HELP_GOTO);
      KEY(QT_STEP_NOTE, QT_ACT_NOTE, QT_STR_HELP_CALL_NOTE);
      KEY(QT_STEP_DECLINE, QT_ACT_DECLINE, QT_STR_HELP_DECLINE);
      KEY(QT_STEP_DISCUSS, QT_ACT_DISCUSS, QT_STR_HELP_DISCUSS);
      KEY(QT_STEP_CANCEL, QT_ACT_CANCEL, QT_STR_HELP_CANCEL);
      KEY(none, QT_ACT_ASIDE, QT_STR_HELP_ASIDE);
    } else {
      const qt_qstate *s = &e->qs[e->current];
      bool ms = s->q->multi_select;
      qt_step choose = ms ? QT_STEP_TOGGLE : QT_STEP_PICK;
      switch (s->view) {
        case QT_VIEW_LIST:
          PAIR(none, QT_ACT_UP, QT_ACT_DOWN, QT_STR_HELP_MOVE);
          if (ms) KEY(QT_STEP_TOGGLE, QT_ACT_TOGGLE, QT_STR_HELP_TOGGLE);
          KEY(ms ? QT_STEP_SUBMIT : QT_STEP_PICK, QT_ACT_CONFIRM, ms ? QT_STR_HELP_CONFIRM : QT_STR_HELP_SELECT);
          TEXT(choose, ms ? QT_STR_HELP_QUICK_TOGGLE : QT_STR_HELP_QUICK_PICK);
          TEXT(QT_STEP_TYPE, QT_STR_HELP_TYPE);
          KEY(QT_STEP_FILTER, QT_ACT_FILTER, QT_STR_HELP_FILTER);
          KEY(QT_STEP_GO, QT_ACT_NEXT, QT_STR_HELP_NEXT);
          KEY(QT_STEP_GO, QT_ACT_PREV, QT_STR_HELP_PREV);
          KEY(QT_STEP_NOTE, QT_ACT_NOTE, QT_STR_HELP_NOTE);
          KEY(QT_STEP_SKIP, QT_ACT_SKIP, skip_help(e));
          KEY(QT_STEP_DECLINE, QT_ACT_DECLINE, QT_STR_HELP_DECLINE);
          KEY(QT_STEP_DISCUSS, QT_ACT_DISCUSS, QT_STR_HELP_DISCUSS);
          KEY(s->filter_on ? QT_STEP_BACK : QT_STEP_CANCEL, QT_ACT_CANCEL,
              s->filter_on ? QT_STR_HELP_CLEAR_FILTER : QT_STR_HELP_CANCEL);
          KEY(none, QT_ACT_ASIDE, QT_STR_HELP_ASIDE);
          break;
        case QT_VIEW_ENTRY:
          KEY(QT_STEP_TYPE, QT_ACT_CONFIRM, QT_STR_HELP_SUBMIT);
          KEY(none, QT_ACT_NEW_LINE, QT_STR_HELP_NEW_LINE);
          if (!s->q->secret) KEY(none, QT_ACT_EXTERNAL_EDITOR, QT_STR_HELP_EDITOR); /* a secret is typed here only */
          KEY(QT_STEP_GO, QT_ACT_NEXT, QT_STR_HELP_NEXT);
          KEY(QT_STEP_GO, QT_ACT_PREV, QT_STR_HELP_PREV);
          KEY(QT_STEP_NOTE, QT_ACT_NOTE, QT_STR_HELP_NOTE);
          KEY(QT_STEP_SKIP, QT_ACT_SKIP, skip_help(e));
          /* the decline key deletes forward while there is text */
          if (!qt_editor_len(&s->draft)) KEY(QT_STEP_DECLINE, QT_ACT_DECLINE, QT_STR_HELP_DECLINE);
          KEY(QT_STEP_DISCUSS, QT_ACT_DISCUSS, QT_STR_HELP_DISCUSS);
          KEY(s->q->option_count ? QT_STEP_BACK : QT_STEP_CANCEL, QT_ACT_CANCEL,
              s->q->option_count ? QT_STR_HELP_BACK : QT_STR_HELP_CANCEL);
          KEY(none, QT_ACT_ASIDE, QT_STR_HELP_ASIDE);
          break;
        case QT_VIEW_FILTER:
          TEXT(QT_STEP_FILTER, QT_STR_HELP_TYPE_FILTER);
          PAIR(none, QT_ACT_UP, QT_ACT_DOWN, QT_STR_HELP_MOVE);
          /* Enter picks the match (single-select) or leaves the typing (multi-select) */
          KEY(ms ? none : QT_STEP_PICK, QT_ACT_CONFIRM, ms ? QT_STR_HELP_DONE : QT_STR_HELP_SELECT);
          KEY(QT_STEP_DISCUSS, QT_ACT_DISCUSS, QT_STR_HELP_DISCUSS);
          KEY(QT_STEP_BACK, QT_ACT_CANCEL, QT_STR_HELP_CLEAR_FILTER);
          break;
        case QT_VIEW_NOTE:
          KEY(QT_STEP_BACK, QT_ACT_CONFIRM, QT_STR_HELP_DONE);
          KEY(none, QT_ACT_EXTERNAL_EDITOR, QT_STR_HELP_EDITOR);
          KEY(QT_STEP_DISCUSS, QT_ACT_DISCUSS, QT_STR_HELP_DISCUSS);
          break;
      }
    }
  }
  for (int i = 0; i < QT_STEP_COUNT; i++)
    if ((m & STEP_BIT(i)) && !(seen & STEP_BIT(i)))
      ITEM((qt_step)i, QT_LIVE_HIDDEN, QT_ACT_COUNT, QT_ACT_COUNT, QT_STR_COUNT, QT_STR_COUNT);
#undef TEXT
#undef PAIR
#undef KEY
#undef ITEM
  return n;
}
