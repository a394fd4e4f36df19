/* engine_keys.c — what every key does in every state: matching key events against the bound
 * keys, one handler per state (the list, text entry, the filter, the note, the review, the
 * engine's own question, talk first), the keys that scroll a cut prompt, review or preview, and
 * feeding the decoder (qt_engine_feed, qt_engine_flush). A semantic key goes through the steps
 * of engine_steps.c, and only when engine_live.c allows it.
 *
 * Key rules where the specification left a choice:
 *  - ↑/↓ wrap around the list; PageUp/PageDown move by a window and stop at the ends;
 *    Tab/Shift+Tab (and →/← on the list) wrap around the tabs in a multi-question call.
 *  - Number keys act on the list as shown (the filtered list while a filter is applied):
 *    1–9 pick (single-select) or toggle (multi-select) that row, 0 and the number shown on
 *    "Something else…" open text entry.
 *  - In a text editor, a key bound to an editing action edits (→, ← move the cursor; Tab
 *    still switches questions). Ctrl+D deletes forward while there is text and declines on
 *    an empty text, like a shell's end-of-file.
 *  - Esc leaves text entry (the draft stays), clears an applied filter, closes the note
 *    editor, and otherwise cancels — after "Discard N answers?" when answers were given in
 *    a multi-question call.
 *  - Multi-select ticks count at once; typed text counts once submitted with Enter (Enter on
 *    the list submits a changed draft too). Switching questions, opening and closing the
 *    filter or the note, and leaving text entry keep every draft as it is.
 *  - Typed text is never dropped unasked: a key that would end the call (cancel, decline,
 *    submit at the review, picking an option of a single question) while some typed text
 *    would not reach the result — a draft that is not its question's answer, or a note on a
 *    question left without one (on cancel: any note) — first asks "Discard what you typed?";
 *    "n" goes back to where the person was, every draft as it was.
 *  - Enter while typing the filter picks the highlighted match of a single-select question at
 *    once; in a multi-select question it leaves the filter typing, the list still filtered.
 *  - Ctrl+T, anywhere but a confirmation, opens "What do you want to tell the agent?"; Enter
 *    there ends the call with QT_DISCUSS and the trimmed text (answers given so far kept), Esc
 *    or Ctrl+T closes the field and keeps the text.
 *  - While the last frame cut the prompt (or the review) to fit the host's rows, PageUp and
 *    PageDown scroll it instead of paging the list. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

/* ---- input: matching keys ------------------------------------------------------------------- */
static bool keyset_has(const qt_keyset *ks, uint32_t key, unsigned mods) {
  for (size_t i = 0; i < ks->count; i++)
    if (ks->key[i] == key && ks->mods[i] == mods) return true;
  return false;
}

/* A lone LF byte is Ctrl+J, a new line, and Enter, as pi-tui reads it: it matches an action bound
 * to Ctrl+J (pi from 0.87 binds it to a new line), the new-line action (pi's own editor inserts a
 * line for it on every version), and otherwise what Enter matches. Where typing is edited the
 * new-line action is therefore tried before Enter's. */
static bool matches(const qt_engine *e, qt_action a, const qt_key_event *ev) {
  if (ev->kind != QT_EV_KEY) return false;
  if (ev->line_feed && (a == QT_ACT_NEW_LINE || keyset_has(&e->keys[a], 'j', QT_MOD_CTRL))) return true;
  return keyset_has(&e->keys[a], ev->key, ev->mods);
}

static bool is_printable(const qt_key_event *ev) {
  return ev->kind == QT_EV_KEY && ev->text && ev->text_len && !(ev->mods & (QT_MOD_CTRL | QT_MOD_ALT | QT_MOD_SUPER));
}

/* The digit of a plain number key, or -1. */
static int digit_of(const qt_key_event *ev) {
  if (ev->kind != QT_EV_KEY || (ev->mods & ~(unsigned)QT_MOD_SHIFT) || ev->key < '0' || ev->key > '9') return -1;
  if (ev->text && !(ev->text_len == 1 && ev->text[0] == (char)ev->key)) return -1;
  return (int)(ev->key - '0');
}

/* True when the event is the letter of string `id` ("y", "n"), in either case. */
static bool is_letter(const qt_engine *e, const qt_key_event *ev, qt_string_id id) {
  if (ev->kind != QT_EV_KEY || (ev->mods & ~(unsigned)QT_MOD_SHIFT)) return false;
  const char *s = qt_str(e, id);
  size_t adv;
  uint32_t cp = qt_utf8_decode(s, strlen(s), &adv);
  if (qt_fold_cp(ev->key) == qt_fold_cp(cp)) return true;
  if (ev->text && ev->text_len) return qt_fold_cp(qt_utf8_decode(ev->text, ev->text_len, &adv)) == qt_fold_cp(cp);
  return false;
}

/* Inserts typed or pasted text into an editor, warning when it was cut at the limit. */
static qt_status insert_text(qt_engine *e, qt_editor *ed, const char *s, size_t n) {
  bool cut = false;
  qt_status st = qt_editor_insert(ed, s, n, &cut);
  if (!st && cut) qt_flash(e, QT_STYLE_WARNING, QT_STR_WARN_CUT, ed->limit, NULL);
  return st;
}

/* Editing keys shared by every editor. *handled says whether the key was an editing key;
 * deleting forward counts only while there is text (so Ctrl+D can decline on an empty one). */
static bool edit_key(const qt_engine *e, qt_editor *ed, const qt_key_event *ev, bool *handled) {
  static const qt_action acts[] = {QT_ACT_CURSOR_LEFT,         QT_ACT_CURSOR_RIGHT,    QT_ACT_WORD_LEFT,
                                   QT_ACT_WORD_RIGHT,          QT_ACT_LINE_START,      QT_ACT_LINE_END,
                                   QT_ACT_DELETE_BACK,         QT_ACT_DELETE_FORWARD,  QT_ACT_DELETE_WORD_BACK,
                                   QT_ACT_DELETE_WORD_FORWARD, QT_ACT_DELETE_TO_START, QT_ACT_DELETE_TO_END};
  *handled = false;
  for (size_t i = 0; i < sizeof acts / sizeof acts[0]; i++) {
    if (!matches(e, acts[i], ev)) continue;
    if (acts[i] == QT_ACT_DELETE_FORWARD && qt_editor_len(ed) == 0) continue;
    *handled = true;
    switch (acts[i]) {
      case QT_ACT_CURSOR_LEFT: return qt_editor_left(ed);
      case QT_ACT_CURSOR_RIGHT: return qt_editor_right(ed);
      case QT_ACT_WORD_LEFT: return qt_editor_word_left(ed);
      case QT_ACT_WORD_RIGHT: return qt_editor_word_right(ed);
      case QT_ACT_LINE_START: return qt_editor_home(ed);
      case QT_ACT_LINE_END: return qt_editor_end(ed);
      case QT_ACT_DELETE_BACK: return qt_editor_delete_back(ed);
      case QT_ACT_DELETE_FORWARD: return qt_editor_delete_forward(ed);
      case QT_ACT_DELETE_WORD_BACK: return qt_editor_delete_word_back(ed);
      case QT_ACT_DELETE_WORD_FORWARD: return qt_editor_delete_word_forward(ed);
      case QT_ACT_DELETE_TO_START: return qt_editor_delete_to_start(ed);
      case QT_ACT_DELETE_TO_END: return qt_editor_delete_to_end(ed);
      default: return false;
    }
  }
  return false;
}

/* ↑ ↓ PageUp PageDown on the list; false when the key is none of them. */
static bool move_key(const qt_engine *e, qt_qstate *s, const qt_key_event *ev) {
  size_t rows = qt_list_rows(s), h = s->highlight;
  if (matches(e, QT_ACT_UP, ev))
    h = h == 0 ? rows - 1 : h - 1;
  else if (matches(e, QT_ACT_DOWN, ev))
    h = h + 1 >= rows ? 0 : h + 1;
  else if (matches(e, QT_ACT_PAGE_UP, ev))
    h = h > QT_LIST_WINDOW ? h - QT_LIST_WINDOW : 0;
  else if (matches(e, QT_ACT_PAGE_DOWN, ev))
    h = h + QT_LIST_WINDOW < rows ? h + QT_LIST_WINDOW : rows - 1;
  else
    return false;
  s->highlight = h;
  qt_keep_visible(s);
  return true;
}

/* ---- input: one handler per state ----------------------------------------------------------- */
static qt_status on_overlay(qt_engine *e, const qt_key_event *ev) {
  bool yes = matches(e, QT_ACT_CONFIRM, ev) || is_letter(e, ev, QT_STR_KEY_YES);
  bool no = matches(e, QT_ACT_CANCEL, ev) || is_letter(e, ev, QT_STR_KEY_NO);
  if (!yes && !no) return QT_OK;
  return qt_step_apply(e, yes ? QT_STEP_YES : QT_STEP_NO, 0);
}

/* The answer to the engine's own question: yes does what was asked, no goes back. */
qt_status qt_answer_overlay(qt_engine *e, bool yes) {
  qt_overlay was = e->overlay;
  e->overlay = QT_OVERLAY_NONE;
  qt_touch(e);
  if (was == QT_OVERLAY_DISCARD) { /* "no": back where the person was, every draft as it was */
    if (!yes) return QT_OK;
    if (e->overlay_pick != SIZE_MAX) return qt_pick_option(e, e->current, e->overlay_pick, true);
    qt_finish(e, e->overlay_then);
    return QT_OK;
  }
  qt_qstate *s = &e->qs[e->current];
  if (yes) return qt_submit_typed(e, e->current, true, e->overlay_close);
  qt_open_entry(s); /* back to editing, the text as it was */
  return QT_OK;
}

static qt_status on_review(qt_engine *e, const qt_key_event *ev) {
  int d = digit_of(ev);
  qt_status st;
  if (matches(e, QT_ACT_CONFIRM, ev))
    st = qt_step_apply(e, QT_STEP_SUBMIT, 0);
  else if (matches(e, QT_ACT_CANCEL, ev))
    st = qt_step_apply(e, QT_STEP_CANCEL, 0);
  else if (matches(e, QT_ACT_NEXT, ev))
    st = qt_switch_question(e, 1);
  else if (matches(e, QT_ACT_PREV, ev))
    st = qt_switch_question(e, -1);
  else if (matches(e, QT_ACT_DECLINE, ev))
    st = qt_step_apply(e, QT_STEP_DECLINE, 0);
  else if (matches(e, QT_ACT_NOTE, ev) && qt_step_live(e, QT_STEP_NOTE)) {
    e->call_note_open = true; /* one note on the whole call */
    e->call_note.cursor = qt_editor_len(&e->call_note);
    st = QT_OK;
  } else if (d >= 1 && (size_t)d <= e->req->question_count)
    st = qt_step_apply(e, QT_STEP_GO, (size_t)d - 1);
  else
    return QT_OK;
  qt_touch(e);
  return st;
}

static qt_status on_list(qt_engine *e, qt_qstate *s, const qt_key_event *ev) {
  qt_status st = QT_OK;
  int d = digit_of(ev);
  if (matches(e, QT_ACT_CONFIRM, ev)) {
    size_t k = qt_list_option_at(s, s->highlight);
    if (k == SIZE_MAX)
      qt_open_entry(s);
    else if (s->q->multi_select)
      st = qt_step_apply(e, QT_STEP_SUBMIT, 0);
    else
      st = qt_step_apply(e, QT_STEP_PICK, k);
  } else if (matches(e, QT_ACT_CANCEL, ev)) {
    st = qt_step_apply(e, s->filter_on ? QT_STEP_BACK : QT_STEP_CANCEL, 0);
  } else if (move_key(e, s, ev)) {
  } else if (e->multi && matches(e, QT_ACT_NEXT, ev)) {
    st = qt_switch_question(e, 1);
  } else if (e->multi && matches(e, QT_ACT_PREV, ev)) {
    st = qt_switch_question(e, -1);
  } else if (s->q->multi_select && matches(e, QT_ACT_TOGGLE, ev)) {
    size_t k = qt_list_option_at(s, s->highlight);
    if (k == SIZE_MAX)
      qt_open_entry(s);
    else
      st = qt_step_apply(e, QT_STEP_TOGGLE, k);
  } else if (matches(e, QT_ACT_DECLINE, ev)) {
    st = qt_step_apply(e, QT_STEP_DECLINE, 0);
  } else if (matches(e, QT_ACT_NOTE, ev) && qt_step_live(e, QT_STEP_NOTE)) {
    qt_open_note(s);
  } else if (matches(e, QT_ACT_FILTER, ev) && qt_step_live(e, QT_STEP_FILTER)) {
    s->view = QT_VIEW_FILTER;
    s->filter.cursor = qt_editor_len(&s->filter);
  } else if (d >= 0) {
    size_t shown = qt_list_rows(s) - 1;
    if (d == 0 || (size_t)d == shown + 1) {
      qt_open_entry(s);
    } else if ((size_t)d <= shown) {
      s->highlight = (size_t)d - 1;
      qt_keep_visible(s);
      size_t k = qt_list_option_at(s, s->highlight);
      st = qt_step_apply(e, s->q->multi_select ? QT_STEP_TOGGLE : QT_STEP_PICK, k);
    } else {
      qt_flash(e, QT_STYLE_WARNING, QT_STR_WARN_NO_OPTION, (size_t)d, NULL);
    }
  } else if (is_printable(ev) || ev->kind == QT_EV_PASTE) {
    qt_open_entry(s);
    st = insert_text(e, &s->draft, ev->text, ev->text_len);
  } else {
    return QT_OK;
  }
  qt_touch(e);
  return st;
}

static qt_status on_entry(qt_engine *e, qt_qstate *s, const qt_key_event *ev) {
  bool free_text = s->q->option_count == 0, handled;
  qt_status st = QT_OK;
  if (matches(e, QT_ACT_CANCEL, ev)) {
    st = qt_step_apply(e, free_text ? QT_STEP_CANCEL : QT_STEP_BACK, 0);
  } else if (matches(e, QT_ACT_NEW_LINE, ev)) { /* before Enter's: a lone LF is both */
    st = insert_text(e, &s->draft, "\n", 1);
  } else if (matches(e, QT_ACT_CONFIRM, ev)) {
    st = qt_step_apply(e, QT_STEP_TYPE, 0); /* a multi-select question is finished too */
  } else if (matches(e, QT_ACT_EXTERNAL_EDITOR, ev)) {
    if (s->q->secret)
      qt_flash(e, QT_STYLE_WARNING, QT_STR_SECRET_NO_EDITOR, 0, NULL);
    else
      e->editor_want = 1;
  } else if (edit_key(e, &s->draft, ev, &handled), handled) {
  } else if (e->multi && matches(e, QT_ACT_NEXT, ev)) {
    st = qt_switch_question(e, 1);
  } else if (e->multi && matches(e, QT_ACT_PREV, ev)) {
    st = qt_switch_question(e, -1);
  } else if (!free_text && (matches(e, QT_ACT_UP, ev) || matches(e, QT_ACT_DOWN, ev))) {
    s->view = QT_VIEW_LIST;
    move_key(e, s, ev);
  } else if (matches(e, QT_ACT_NOTE, ev) && qt_step_live(e, QT_STEP_NOTE)) {
    qt_open_note(s);
  } else if (matches(e, QT_ACT_DECLINE, ev)) {
    st = qt_step_apply(e, QT_STEP_DECLINE, 0); /* on the key that also deletes forward, only once the text is empty */
  } else if (is_printable(ev) || ev->kind == QT_EV_PASTE) {
    st = insert_text(e, &s->draft, ev->text, ev->text_len);
  } else {
    return QT_OK;
  }
  qt_touch(e);
  return st;
}

/* Enter while typing the filter. Single-select: picks the highlighted match at
 * once, as pi's selectors and fzf do; on "Something else…" it opens text entry, the filter text
 * becoming the draft when no option matched and nothing was typed yet. Multi-select: leaves the
 * filter typing, the list stays filtered. */
static qt_status confirm_filter(qt_engine *e, qt_qstate *s) {
  s->view = QT_VIEW_LIST;
  if (s->q->multi_select) return QT_OK;
  size_t k = qt_list_option_at(s, s->highlight);
  if (k != SIZE_MAX) {
    qt_status st = qt_step_apply(e, QT_STEP_PICK, k);
    /* picked (the call goes on to the next question): the filter is used up; coming back shows
     * the whole list, the pick highlighted */
    if (!st && !e->done && e->overlay == QT_OVERLAY_NONE) qt_clear_filter(s);
    return st;
  }
  if (s->filter_on && s->shown_count == 0 && qt_editor_len(&s->draft) == 0) {
    qt_status st = qt_editor_set(&s->draft, qt_editor_text(&s->filter), qt_editor_len(&s->filter));
    if (st) return st;
  }
  qt_open_entry(s);
  return QT_OK;
}

static qt_status on_filter(qt_engine *e, qt_qstate *s, const qt_key_event *ev) {
  bool handled;
  qt_status st = QT_OK;
  if (matches(e, QT_ACT_CANCEL, ev)) {
    st = qt_step_apply(e, QT_STEP_BACK, 0);
  } else if (matches(e, QT_ACT_CONFIRM, ev)) {
    st = confirm_filter(e, s);
  } else if (move_key(e, s, ev)) {
  } else if (edit_key(e, &s->filter, ev, &handled), handled) {
    st = qt_step_apply(e, QT_STEP_FILTER, 0);
  } else if (e->multi && matches(e, QT_ACT_NEXT, ev)) {
    st = qt_switch_question(e, 1);
  } else if (e->multi && matches(e, QT_ACT_PREV, ev)) {
    st = qt_switch_question(e, -1);
  } else if (matches(e, QT_ACT_NOTE, ev) && qt_step_live(e, QT_STEP_NOTE)) {
    qt_open_note(s);
  } else if (matches(e, QT_ACT_DECLINE, ev)) {
    st = qt_step_apply(e, QT_STEP_DECLINE, 0);
  } else if (is_printable(ev) || ev->kind == QT_EV_PASTE) {
    st = insert_text(e, &s->filter, ev->text, ev->text_len);
    if (!st) st = qt_step_apply(e, QT_STEP_FILTER, 0);
  } else {
    return QT_OK;
  }
  qt_touch(e);
  return st;
}

static qt_status on_note(qt_engine *e, qt_qstate *s, const qt_key_event *ev) {
  bool handled;
  qt_status st = QT_OK;
  if (matches(e, QT_ACT_CANCEL, ev) || matches(e, QT_ACT_CONFIRM, ev) || matches(e, QT_ACT_NOTE, ev)) {
    st = qt_step_apply(e, QT_STEP_BACK, 0);
  } else if (matches(e, QT_ACT_EXTERNAL_EDITOR, ev)) {
    e->editor_want = 2;
  } else if (edit_key(e, &s->note, ev, &handled), handled) {
    st = qt_step_apply(e, QT_STEP_NOTE, 0);
  } else if (e->multi && (matches(e, QT_ACT_NEXT, ev) || matches(e, QT_ACT_PREV, ev))) {
    s->view = s->note_return;
    st = qt_switch_question(e, matches(e, QT_ACT_NEXT, ev) ? 1 : -1);
  } else if (is_printable(ev) || ev->kind == QT_EV_PASTE) {
    st = insert_text(e, &s->note, ev->text, ev->text_len);
    if (!st) st = qt_step_apply(e, QT_STEP_NOTE, 0);
  } else {
    return QT_OK;
  }
  qt_touch(e);
  return st;
}

/* The call's note has the keyboard (the review's note key): Enter or Esc closes it, keeping the text. */
static qt_status on_call_note(qt_engine *e, const qt_key_event *ev) {
  bool handled;
  qt_status st = QT_OK;
  if (matches(e, QT_ACT_CANCEL, ev) || matches(e, QT_ACT_CONFIRM, ev) || matches(e, QT_ACT_NOTE, ev)) {
    st = qt_step_apply(e, QT_STEP_BACK, 0);
  } else if (edit_key(e, &e->call_note, ev, &handled), handled) {
    st = qt_step_apply(e, QT_STEP_NOTE, 0);
  } else if (is_printable(ev) || ev->kind == QT_EV_PASTE) {
    st = insert_text(e, &e->call_note, ev->text, ev->text_len);
    if (!st) st = qt_step_apply(e, QT_STEP_NOTE, 0);
  } else {
    return QT_OK;
  }
  qt_touch(e);
  return st;
}

/* ---- talk first: Ctrl+T ----------------------------------------------------------------------- */
/* Enter in the discussion field: ends the call with QT_DISCUSS and the trimmed text. */
qt_status qt_send_discussion(qt_engine *e) {
  size_t start, len;
  qt_editor_trimmed(&e->discuss, &start, &len);
  if (!len) {
    qt_flash(e, QT_STYLE_WARNING, QT_STR_WARN_DISCUSS_EMPTY, 0, NULL);
    return QT_OK;
  }
  char *text = qt_dup_range(qt_editor_text(&e->discuss) + start, len);
  if (!text) return QT_ERR_NOMEM;
  free(e->discussion);
  e->discussion = text;
  return qt_end_call(e, QT_DISCUSS, 0, SIZE_MAX); /* asks first when a draft or a note would be lost */
}

void qt_open_discussion(qt_engine *e) {
  e->discuss_open = true;
  e->discuss.cursor = qt_editor_len(&e->discuss);
}

/* The discussion field has the keyboard: Esc (or Ctrl+T again) closes it, keeping the text. */
static qt_status on_discuss(qt_engine *e, const qt_key_event *ev) {
  bool handled;
  qt_status st = QT_OK;
  if (matches(e, QT_ACT_CANCEL, ev) || matches(e, QT_ACT_DISCUSS, ev)) {
    st = qt_step_apply(e, QT_STEP_BACK, 0);
  } else if (matches(e, QT_ACT_NEW_LINE, ev)) { /* before Enter's: a lone LF is both */
    st = insert_text(e, &e->discuss, "\n", 1);
  } else if (matches(e, QT_ACT_CONFIRM, ev)) {
    st = qt_step_apply(e, QT_STEP_DISCUSS, 0);
  } else if (matches(e, QT_ACT_EXTERNAL_EDITOR, ev)) {
    e->editor_want = 3; /* Ctrl+G: the host runs the external editor on the words */
  } else if (edit_key(e, &e->discuss, ev, &handled), handled) {
  } else if (is_printable(ev) || ev->kind == QT_EV_PASTE) {
    st = insert_text(e, &e->discuss, ev->text, ev->text_len);
  } else {
    return QT_OK;
  }
  qt_touch(e);
  return st;
}

/* ---- the question fits the screen ----------------------------------------------------------- */
/* The first key after a frame starts from what the frame showed: the windows that scroll take
 * the places the renderer kept them at (inside their text, the highlighted row in view). The
 * renderer only reports them (qt_layout); they become state here, once, and the key then moves
 * them. The frame is the one at the host's screen size (qt_engine_set_screen): a frame drawn at
 * another size in between does not change what a key does. When none was drawn at that size
 * since it was named (or since the width rules changed), it is laid out now, for the state at
 * the key (render/render_screen.c, through e->lay_out_screen). */
void qt_adopt_layout(qt_engine *e) {
  qt_layout *l = &e->layout;
  if (!e->screen_width) return; /* no screen named: nothing shown */
  if (!(l->valid && e->layout_width == e->screen_width && e->layout_rows == e->screen_rows &&
        e->layout_rules == qt_width_rules())) {
    l->valid = false;
    /* out of memory: nothing is known cut, as before any frame */
    if (!e->lay_out_screen || e->lay_out_screen(e) != QT_OK || !l->valid) return;
  }
  if (l->adopted) return;
  l->adopted = true;
  if (l->question >= e->req->question_count) {
    e->review_scroll = l->review_top;
    return;
  }
  qt_qstate *s = &e->qs[l->question];
  s->scroll = l->list_top;
  s->prompt_scroll = l->prompt_top;
  s->preview_for = l->preview_for;
  s->preview_scroll = l->preview_top;
}

/* The lines the last frame showed of the prompt (or the review) it cut; 0 when not cut. */
static size_t shown_window(const qt_engine *e) {
  const qt_layout *l = &e->layout;
  if (!l->valid || l->question != e->current) return 0;
  return e->current >= e->req->question_count ? l->review_window : l->prompt_window;
}

/* PageUp/PageDown read a prompt (or the review) that the last frame cut to fit the rows: they
 * move it by the lines shown; the renderer keeps the scroll inside the text. */
static bool scroll_key(qt_engine *e, const qt_key_event *ev) {
  bool up = matches(e, QT_ACT_PAGE_UP, ev), down = !up && matches(e, QT_ACT_PAGE_DOWN, ev);
  if (!up && !down) return false;
  size_t *scroll, window = shown_window(e);
  if (e->current >= e->req->question_count)
    scroll = &e->review_scroll;
  else
    scroll = &e->qs[e->current].prompt_scroll;
  if (!window) return false;
  if (down)
    *scroll += window;
  else
    *scroll = *scroll > window ? *scroll - window : 0;
  qt_touch(e);
  return true;
}

/* Shift+↑/Shift+↓ read the highlighted option's preview when the last frame cut it: a page of
 * the lines shown back or on; the renderer keeps the scroll inside the text. */
static bool preview_key(qt_engine *e, const qt_key_event *ev) {
  bool up = matches(e, QT_ACT_PREVIEW_UP, ev), down = !up && matches(e, QT_ACT_PREVIEW_DOWN, ev);
  if ((!up && !down) || e->current >= e->req->question_count) return false;
  qt_qstate *s = &e->qs[e->current];
  size_t k = qt_list_option_at(s, s->highlight), window = e->layout.preview_window;
  if (!e->layout.valid || e->layout.question != e->current) window = 0;
  if (k == SIZE_MAX || k != s->preview_for || !window || s->view == QT_VIEW_ENTRY) return false;
  if (down)
    s->preview_scroll += window;
  else
    s->preview_scroll = s->preview_scroll > window ? s->preview_scroll - window : 0;
  qt_touch(e);
  return true;
}

static qt_status handle_event(qt_engine *e, const qt_key_event *ev) {
  if (e->editor_want) return QT_OK; /* the host is running the external editor */
  if (e->flash.len) {
    qt_buf_reset(&e->flash);
    qt_touch(e);
  }
  if (e->clock_on) qt_clock_stop(e);  /* any key stops the person's timeout for good */
  if (matches(e, QT_ACT_ASIDE, ev)) { /* in any state: the host hides the question, as it is */
    e->aside_want = true;
    return QT_OK;
  }
  if (e->overlay != QT_OVERLAY_NONE) return on_overlay(e, ev);
  if (e->discuss_open) return on_discuss(e, ev);
  if (e->call_note_open) return on_call_note(e, ev);
  if (matches(e, QT_ACT_DISCUSS, ev) && qt_step_live(e, QT_STEP_DISCUSS)) {
    qt_open_discussion(e);
    qt_touch(e);
    return QT_OK;
  }
  if (matches(e, QT_ACT_SKIP, ev) && qt_step_live(e, QT_STEP_SKIP)) { /* skipped, in the chat, not skipped */
    qt_status st = qt_step_apply(e, QT_STEP_SKIP, 0);
    qt_touch(e);
    return st;
  }
  if (scroll_key(e, ev) || preview_key(e, ev)) return QT_OK;
  if (e->current >= e->req->question_count) return on_review(e, ev);
  qt_qstate *s = &e->qs[e->current];
  switch (s->view) {
    case QT_VIEW_ENTRY: return on_entry(e, s, ev);
    case QT_VIEW_FILTER: return on_filter(e, s, ev);
    case QT_VIEW_NOTE: return on_note(e, s, ev);
    default: return on_list(e, s, ev);
  }
}

static bool event_sink(void *user, const qt_key_event *ev) {
  qt_engine *e = user;
  if (e->done) return false;
  qt_adopt_layout(e);
  qt_status st = handle_event(e, ev);
  if (st) {
    e->feed_status = st;
    qt_touch(e);
    return false;
  }
  return !e->done;
}

/* ---- feeding the decoder --------------------------------------------------------------------- */
qt_status qt_engine_feed(qt_engine *e, const char *bytes, size_t len) {
  if (!e || (len && !bytes)) return QT_ERR_USAGE;
  if (e->done || !len) return QT_OK;
  e->feed_status = QT_OK;
  qt_status st = qt_decoder_feed(e->decoder, bytes, len, event_sink, e);
  return e->feed_status ? e->feed_status : st;
}

qt_status qt_engine_flush(qt_engine *e) {
  if (!e) return QT_ERR_USAGE;
  if (e->done) return QT_OK;
  e->feed_status = QT_OK;
  qt_status st = qt_decoder_flush(e->decoder, event_sink, e);
  return e->feed_status ? e->feed_status : st;
}
