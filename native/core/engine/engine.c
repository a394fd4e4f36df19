/* engine.c — the interaction engine's state machine (qt_engine.h): creation from a request,
 * host configuration, and what every key does in every state. Frames are drawn by render.c.
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

/* ---- small helpers ------------------------------------------------------------------------ */
static char *dup_range(const char *s, size_t n) {
  char *p = malloc(n + 1);
  if (!p) return NULL;
  if (n) memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

/* Sanitized model text into *out (NULL stays NULL, unless `empty` asks for ""): `in` itself when
 * sanitizing leaves it as it is — the request, which holds it, outlives the engine, and most text
 * needs no change — else a copy. Free it with free_text(out, in). A copy for each string of a
 * call was about a third of an engine's memory, which matters when engines are dropped rather
 * than disposed and pile up until the garbage collector gets to them. `scratch` is
 * reused between calls. */
static qt_status sanitized(qt_buf *scratch, const char *in, unsigned flags, bool empty, char **out) {
  *out = NULL;
  if (!in && !empty) return QT_OK;
  size_t len = in ? strlen(in) : 0;
  qt_buf_reset(scratch);
  qt_sanitize(scratch, in ? in : "", len, flags);
  if (scratch->failed) return QT_ERR_NOMEM;
  if (in && scratch->len == len && (!len || memcmp(scratch->data, in, len) == 0)) {
    *out = (char *)in; /* never written through: display text is only read */
    return QT_OK;
  }
  *out = dup_range(scratch->data ? scratch->data : "", scratch->len);
  return *out ? QT_OK : QT_ERR_NOMEM;
}

/* Frees display text made by sanitized() or shortened() from `from`, unless it is `from` itself. */
static void free_text(char *text, const char *from) {
  if (text != from) free(text);
}

/* A sanitized one-line label shortened to `cols` columns with a trailing "…"; `s` itself when it
 * fits. */
static char *shortened(const char *s, int cols) {
  size_t len = strlen(s), pos = 0, cut = 0;
  int w = 0;
  bool fits = true;
  while (pos < len) {
    size_t next = qt_grapheme_next(s, len, pos);
    if (next <= pos) next = pos + 1;
    int gw = qt_grapheme_width(s + pos, next - pos);
    if (w + gw > cols) {
      fits = false;
      break;
    }
    w += gw;
    pos = next;
    if (w <= cols - 1) cut = pos;
  }
  if (fits) return (char *)s; /* the label itself (free_text) */
  char *p = malloc(cut + sizeof "…");
  if (!p) return NULL;
  memcpy(p, s, cut);
  memcpy(p + cut, "…", sizeof "…");
  return p;
}

static void touch(qt_engine *e) { e->revision++; }

/* Applies one step of the flow if it is live (below, "the flow as steps"): the one way keys and
 * faces change answers or end the call. For QT_STEP_TYPE, `k` 1 keeps a multi-select question
 * open (submit_typed's `close` false). */
static qt_status step(qt_engine *e, qt_step st, size_t k);
static bool live(const qt_engine *e, qt_step st);

/* ---- the list of one question --------------------------------------------------------------- */
size_t qt_list_rows(const qt_qstate *s) { return (s->filter_on ? s->shown_count : s->q->option_count) + 1; }

size_t qt_list_option_at(const qt_qstate *s, size_t row) {
  size_t n = s->filter_on ? s->shown_count : s->q->option_count;
  if (row >= n) return SIZE_MAX;
  return s->filter_on ? s->shown[row] : row;
}

/* Keeps the highlighted row inside the list and inside the window. */
static void keep_visible(qt_qstate *s) {
  size_t rows = qt_list_rows(s), win = QT_LIST_WINDOW;
  if (s->highlight >= rows) s->highlight = rows - 1;
  if (s->scroll > s->highlight) s->scroll = s->highlight;
  if (s->highlight >= s->scroll + win) s->scroll = s->highlight - win + 1;
  if (s->scroll + win > rows) s->scroll = rows > win ? rows - win : 0;
}

/* Simple case folding: ASCII, Latin-1, Greek and Cyrillic capitals. */
static uint32_t fold_cp(uint32_t cp) {
  if (cp >= 'A' && cp <= 'Z') return cp + 32;
  if (cp < 0x80) return cp;
  if (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7) return cp + 32;
  if (cp >= 0x391 && cp <= 0x3A9) return cp + 32;
  if (cp >= 0x410 && cp <= 0x42F) return cp + 32;
  if (cp >= 0x400 && cp <= 0x40F) return cp + 80;
  return cp;
}

static bool fold_into(qt_buf *out, const char *s) {
  size_t len = strlen(s), i = 0, adv;
  while (i < len) {
    uint32_t cp = qt_utf8_decode(s + i, len - i, &adv);
    i += adv;
    if (!qt_buf_put_cp(out, fold_cp(cp))) return false;
  }
  return true;
}

/* Makes the folded search text of every option of s (once). */
static qt_status ensure_folded(qt_qstate *s) {
  for (size_t k = 0; k < s->q->option_count; k++) {
    qt_opt_text *o = &s->opts[k];
    if (o->folded) continue;
    qt_buf b;
    qt_buf_init(&b);
    fold_into(&b, o->label);
    if (o->description) {
      qt_buf_putc(&b, '\n');
      fold_into(&b, o->description);
    }
    if (!b.data) qt_buf_reserve(&b, 0);
    size_t cap = b.cap;
    if (b.failed || !(o->folded = qt_buf_take(&b))) {
      qt_buf_free(&b);
      return QT_ERR_NOMEM;
    }
    s->folded_bytes += cap;
  }
  return QT_OK;
}

/* Re-applies the filter text to the options (O(options), on filter edits only). */
static qt_status apply_filter(qt_qstate *s) {
  if (qt_editor_len(&s->filter) == 0) {
    size_t opt = qt_list_option_at(s, s->highlight);
    s->filter_on = false;
    s->highlight = opt == SIZE_MAX ? s->q->option_count : opt;
    keep_visible(s);
    return QT_OK;
  }
  if (!s->shown) {
    s->shown = malloc((s->q->option_count ? s->q->option_count : 1) * sizeof *s->shown);
    if (!s->shown) return QT_ERR_NOMEM;
  }
  qt_status st = ensure_folded(s);
  if (st) return st;
  qt_buf needle;
  qt_buf_init(&needle);
  fold_into(&needle, qt_editor_text(&s->filter));
  if (needle.failed) {
    qt_buf_free(&needle);
    return QT_ERR_NOMEM;
  }
  s->shown_count = 0;
  for (size_t k = 0; k < s->q->option_count; k++)
    if (strstr(s->opts[k].folded, needle.data)) s->shown[s->shown_count++] = k;
  qt_buf_free(&needle);
  s->filter_on = true;
  s->highlight = 0;
  s->scroll = 0;
  keep_visible(s);
  return QT_OK;
}

static void clear_filter(qt_qstate *s) {
  qt_editor_clear(&s->filter);
  apply_filter(s); /* an empty filter allocates nothing */
}

/* ---- answers ------------------------------------------------------------------------------ */
static size_t tick_count(const qt_qstate *s) {
  size_t n = 0;
  for (size_t k = 0; k < s->q->option_count; k++) n += s->ticked[k];
  return n;
}

/* Copies the note editor into the answer's note (NULL when blank). */
static qt_status sync_note(qt_engine *e, size_t qi) {
  qt_qstate *s = &e->qs[qi];
  qt_answer *a = &e->answers[qi];
  size_t start, len;
  qt_editor_trimmed(&s->note, &start, &len);
  char *note = NULL;
  if (len && !(note = dup_range(qt_editor_text(&s->note) + start, len))) return QT_ERR_NOMEM;
  free(a->note);
  a->note = note;
  return QT_OK;
}

/* Replaces the answer of question qi (the note is kept). custom may be NULL. */
static qt_status set_answer(qt_engine *e, size_t qi, const size_t *indices, size_t count, const char *custom,
                            size_t custom_len) {
  qt_answer *a = &e->answers[qi];
  size_t *idx = NULL;
  char *text = NULL;
  if (count && !(idx = malloc(count * sizeof *idx))) return QT_ERR_NOMEM;
  if (count) memcpy(idx, indices, count * sizeof *idx);
  if (custom && !(text = dup_range(custom, custom_len))) {
    free(idx);
    return QT_ERR_NOMEM;
  }
  free(a->indices);
  free(a->custom);
  a->indices = idx;
  a->index_count = count;
  a->custom = text;
  a->present = count > 0 || text != NULL;
  return QT_OK;
}

/* Rebuilds a multi-select answer from its ticks and the given typed text. */
static qt_status set_multi_answer(qt_engine *e, size_t qi, const char *custom, size_t custom_len) {
  qt_qstate *s = &e->qs[qi];
  size_t n = tick_count(s), *idx = NULL, j = 0;
  if (n && !(idx = malloc(n * sizeof *idx))) return QT_ERR_NOMEM;
  for (size_t k = 0; k < s->q->option_count; k++)
    if (s->ticked[k]) idx[j++] = k + 1;
  qt_status st = set_answer(e, qi, idx, n, custom, custom_len);
  free(idx);
  return st;
}

/* The trimmed draft differs from the typed answer given (it is no answer yet). */
static bool draft_pending(const qt_engine *e, size_t qi) {
  const qt_qstate *s = &e->qs[qi];
  size_t start, len;
  qt_editor_trimmed(&s->draft, &start, &len);
  const char *committed = e->answers[qi].custom ? e->answers[qi].custom : "";
  return strlen(committed) != len || memcmp(committed, qt_editor_text(&s->draft) + start, len) != 0;
}

size_t qt_count_given(const qt_engine *e) {
  size_t n = 0;
  for (size_t i = 0; i < e->req->question_count; i++) n += e->answers[i].present && e->qs[i].touched;
  return n;
}

/* ---- messages ------------------------------------------------------------------------------- */
/* Sets the one-shot message: template `id` with {n} and {s} filled in. */
static void flash(qt_engine *e, qt_style style, qt_string_id id, size_t n, const char *s) {
  qt_buf_reset(&e->flash);
  e->flash_style = style;
  if (!qt_format(&e->flash, qt_str(e, id), n, s)) qt_buf_reset(&e->flash); /* a lost message loses no data */
}

/* ---- the flow ------------------------------------------------------------------------------- */
static void finish(qt_engine *e, qt_outcome outcome) {
  for (size_t i = 0; i < e->req->question_count; i++) {
    sync_note(e, i); /* best effort */
    /* A remembered answer the person never took up is theirs only on an answer: a decline, a
     * timeout or a cancel carries nothing of it. */
    if (outcome != QT_ANSWERED && e->qs[i].earlier.present && !e->qs[i].touched) qt_answer_clear(&e->answers[i]);
  }
  e->done = true;
  e->outcome = outcome;
  e->overlay = QT_OVERLAY_NONE;
}

/* Question qi got its answer: end a single question, else go on to the next unanswered. */
static void question_done(qt_engine *e, size_t qi) {
  e->qs[qi].touched = true;
  if (!e->multi) {
    finish(e, QT_ANSWERED);
    return;
  }
  size_t n = e->req->question_count, next = qi + 1;
  while (next < n && e->answers[next].present) next++;
  e->current = next; /* n: the review step */
}

/* The draft is the remembered typed answer, as it opened (qt_engine_remember): nothing the
 * person typed, so nothing to lose. */
static bool draft_remembered(const qt_qstate *s) {
  if (!s->earlier.present || !s->earlier.custom) return false;
  size_t start, len;
  qt_editor_trimmed(&s->draft, &start, &len);
  return strlen(s->earlier.custom) == len && memcmp(s->earlier.custom, qt_editor_text(&s->draft) + start, len) == 0;
}

/* Typed text the result would not carry if the call ended now with `outcome` (after question
 * e->current got option `pick`, unless SIZE_MAX): a draft that is not its question's answer,
 * or a note on a question without an answer (on a cancel, any note: nothing is kept). */
unsigned qt_typed_lost(const qt_engine *e, size_t i, qt_outcome outcome, size_t pick) {
  const qt_qstate *s = &e->qs[i];
  bool picked = pick != SIZE_MAX && i == e->current;
  unsigned lost = 0;
  if (!qt_editor_blank(&s->draft) && (picked || draft_pending(e, i)) && !draft_remembered(s)) lost |= QT_LOST_DRAFT;
  /* A call of one question counts no answers as given (nothing to "Discard N answers?" about),
   * but the typed part of its multi-select answer, given with the type step while the question
   * stays open, is what the person wrote: a cancel asks before it goes. */
  else if (outcome == QT_CANCELLED && !e->multi && s->q->multi_select && e->answers[i].present &&
           e->answers[i].custom && e->answers[i].custom[0])
    lost |= QT_LOST_DRAFT;
  bool answered = e->answers[i].present || picked;
  if (!qt_editor_blank(&s->note) && (outcome == QT_CANCELLED || !answered)) lost |= QT_LOST_NOTE;
  return lost;
}

static bool typed_would_be_lost(const qt_engine *e, qt_outcome outcome, size_t pick) {
  for (size_t i = 0; i < e->req->question_count; i++)
    if (qt_typed_lost(e, i, outcome, pick)) return true;
  return outcome != QT_DISCUSS && !qt_editor_blank(&e->discuss); /* words for the agent not sent */
}

/* Ends the call with `outcome` (after picking option `pick` of the current question, unless
 * SIZE_MAX), first asking "Discard …?" when answers given (`given`, on a cancel) or typed text
 * would be lost. */
static qt_status end_call(qt_engine *e, qt_outcome outcome, size_t given, size_t pick);

static void request_cancel(qt_engine *e) {
  end_call(e, QT_CANCELLED, e->multi ? qt_count_given(e) : 0, SIZE_MAX); /* allocates nothing */
}

static void request_decline(qt_engine *e) { end_call(e, QT_DECLINED, 0, SIZE_MAX); }

static void submit_review(qt_engine *e) {
  size_t n = e->req->question_count, first = n;
  qt_buf missing;
  qt_buf_init(&missing);
  for (size_t i = 0; i < n; i++) {
    if (e->answers[i].present) continue;
    if (first == n) first = i;
    if (missing.len) qt_buf_puts(&missing, ", ");
    qt_buf_puts(&missing, e->qs[i].label);
  }
  if (first == n) {
    qt_buf_free(&missing);
    end_call(e, QT_ANSWERED, 0, SIZE_MAX); /* allocates nothing */
    return;
  }
  flash(e, QT_STYLE_WARNING, QT_STR_WARN_MISSING, 0, missing.failed ? "" : missing.data);
  qt_buf_free(&missing);
  e->current = first;
}

/* Enter on a typed answer of question qi (or confirming a multi-select question whose draft
 * changed). `confirmed`: the long-answer question was already answered yes. `close`: a
 * multi-select question is finished too (Enter); else its typed part changes and it stays open
 * (the "type" step of a face that shows the list again). */
static qt_status submit_typed(qt_engine *e, size_t qi, bool confirmed, bool close) {
  qt_qstate *s = &e->qs[qi];
  size_t start, len;
  qt_editor_trimmed(&s->draft, &start, &len);
  const char *text = qt_editor_text(&s->draft) + start;
  bool stays = s->q->multi_select && !close;
  if (!len) {
    if (s->q->multi_select && (tick_count(s) || stays)) {
      qt_status st = set_multi_answer(e, qi, NULL, 0);
      if (st) return st;
      if (s->q->option_count) s->view = QT_VIEW_LIST;
      if (stays)
        s->touched = true;
      else
        question_done(e, qi);
      return QT_OK;
    }
    flash(e, QT_STYLE_WARNING, QT_STR_WARN_EMPTY, 0, NULL);
    if (s->q->option_count) s->highlight = qt_list_rows(s) - 1;
    s->view = QT_VIEW_ENTRY;
    return QT_OK;
  }
  size_t chars = qt_utf8_count(text, len);
  if (chars > QT_SOFT_ANSWER_CHARS && !confirmed) {
    e->overlay = QT_OVERLAY_LONG;
    e->overlay_n = chars;
    e->overlay_close = close;
    return QT_OK;
  }
  qt_status st = s->q->multi_select ? set_multi_answer(e, qi, text, len) : set_answer(e, qi, NULL, 0, text, len);
  if (st) return st;
  if (s->q->option_count) s->view = QT_VIEW_LIST;
  if (stays)
    s->touched = true;
  else
    question_done(e, qi);
  return QT_OK;
}

/* Answers question qi with option k (0-based). `confirmed`: losing typed text was agreed to. */
static qt_status pick_option(qt_engine *e, size_t qi, size_t k, bool confirmed) {
  if (!e->multi && !confirmed && typed_would_be_lost(e, QT_ANSWERED, k)) /* picking ends the call */
    return end_call(e, QT_ANSWERED, 0, k);
  size_t idx = k + 1;
  qt_status st = set_answer(e, qi, &idx, 1, NULL, 0);
  if (st) return st;
  question_done(e, qi);
  return QT_OK;
}

static qt_status end_call(qt_engine *e, qt_outcome outcome, size_t given, size_t pick) {
  if (given || typed_would_be_lost(e, outcome, pick)) {
    e->overlay = QT_OVERLAY_DISCARD;
    e->overlay_n = given;
    e->overlay_then = outcome;
    e->overlay_pick = pick;
    return QT_OK;
  }
  if (pick != SIZE_MAX) return pick_option(e, e->current, pick, true);
  finish(e, outcome);
  return QT_OK;
}

static qt_status toggle_option(qt_engine *e, size_t qi, size_t k) {
  qt_qstate *s = &e->qs[qi];
  s->ticked[k] = !s->ticked[k];
  s->touched = true;
  const char *custom = e->answers[qi].custom;
  qt_status st = set_multi_answer(e, qi, custom, custom ? strlen(custom) : 0);
  if (st)
    s->ticked[k] = !s->ticked[k];
  else if (e->accessible) /* a state change is a short line of its own */
    flash(e, QT_STYLE_SUCCESS, s->ticked[k] ? QT_STR_PLAIN_NOW_CHECKED : QT_STR_PLAIN_NOW_UNCHECKED, k + 1,
          s->opts[k].label);
  return st;
}

/* Enter on an option row of a multi-select question. */
static qt_status confirm_multi(qt_engine *e, size_t qi) {
  qt_qstate *s = &e->qs[qi];
  if (draft_pending(e, qi)) return submit_typed(e, qi, false, true);
  if (tick_count(s) || e->answers[qi].custom) {
    question_done(e, qi);
    return QT_OK;
  }
  flash(e, QT_STYLE_WARNING, QT_STR_WARN_NOTHING_CHOSEN, 0, NULL);
  return QT_OK;
}

static void open_entry(qt_qstate *s) {
  s->view = QT_VIEW_ENTRY;
  s->highlight = qt_list_rows(s) - 1;
  s->draft.cursor = qt_editor_len(&s->draft);
  keep_visible(s);
}

static void open_note(qt_qstate *s) {
  if (s->view == QT_VIEW_NOTE) return;
  s->note_return = s->view == QT_VIEW_FILTER ? QT_VIEW_LIST : s->view;
  s->view = QT_VIEW_NOTE;
  s->note.cursor = qt_editor_len(&s->note);
}

/* Next or previous tab, wrapping around (the review step is the last tab). */
static qt_status switch_question(qt_engine *e, int delta) {
  size_t n = e->req->question_count + 1;
  return step(e, QT_STEP_GO, delta > 0 ? (e->current + 1) % n : (e->current + n - 1) % n);
}

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
  if (fold_cp(ev->key) == fold_cp(cp)) return true;
  if (ev->text && ev->text_len) return fold_cp(qt_utf8_decode(ev->text, ev->text_len, &adv)) == fold_cp(cp);
  return false;
}

/* Inserts typed or pasted text into an editor, warning when it was cut at the limit. */
static qt_status insert_text(qt_engine *e, qt_editor *ed, const char *s, size_t n) {
  bool cut = false;
  qt_status st = qt_editor_insert(ed, s, n, &cut);
  if (!st && cut) flash(e, QT_STYLE_WARNING, QT_STR_WARN_CUT, ed->limit, NULL);
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
  keep_visible(s);
  return true;
}

/* ---- input: one handler per state ----------------------------------------------------------- */
static qt_status on_overlay(qt_engine *e, const qt_key_event *ev) {
  bool yes = matches(e, QT_ACT_CONFIRM, ev) || is_letter(e, ev, QT_STR_KEY_YES);
  bool no = matches(e, QT_ACT_CANCEL, ev) || is_letter(e, ev, QT_STR_KEY_NO);
  if (!yes && !no) return QT_OK;
  return step(e, yes ? QT_STEP_YES : QT_STEP_NO, 0);
}

/* The answer to the engine's own question: yes does what was asked, no goes back. */
static qt_status answer_overlay(qt_engine *e, bool yes) {
  qt_overlay was = e->overlay;
  e->overlay = QT_OVERLAY_NONE;
  touch(e);
  if (was == QT_OVERLAY_DISCARD) { /* "no": back where the person was, every draft as it was */
    if (!yes) return QT_OK;
    if (e->overlay_pick != SIZE_MAX) return pick_option(e, e->current, e->overlay_pick, true);
    finish(e, e->overlay_then);
    return QT_OK;
  }
  qt_qstate *s = &e->qs[e->current];
  if (yes) return submit_typed(e, e->current, true, e->overlay_close);
  open_entry(s); /* back to editing, the text as it was */
  return QT_OK;
}

static qt_status on_review(qt_engine *e, const qt_key_event *ev) {
  int d = digit_of(ev);
  qt_status st;
  if (matches(e, QT_ACT_CONFIRM, ev))
    st = step(e, QT_STEP_SUBMIT, 0);
  else if (matches(e, QT_ACT_CANCEL, ev))
    st = step(e, QT_STEP_CANCEL, 0);
  else if (matches(e, QT_ACT_NEXT, ev))
    st = switch_question(e, 1);
  else if (matches(e, QT_ACT_PREV, ev))
    st = switch_question(e, -1);
  else if (matches(e, QT_ACT_DECLINE, ev))
    st = step(e, QT_STEP_DECLINE, 0);
  else if (d >= 1 && (size_t)d <= e->req->question_count)
    st = step(e, QT_STEP_GO, (size_t)d - 1);
  else
    return QT_OK;
  touch(e);
  return st;
}

static qt_status on_list(qt_engine *e, qt_qstate *s, const qt_key_event *ev) {
  qt_status st = QT_OK;
  int d = digit_of(ev);
  if (matches(e, QT_ACT_CONFIRM, ev)) {
    size_t k = qt_list_option_at(s, s->highlight);
    if (k == SIZE_MAX)
      open_entry(s);
    else if (s->q->multi_select)
      st = step(e, QT_STEP_SUBMIT, 0);
    else
      st = step(e, QT_STEP_PICK, k);
  } else if (matches(e, QT_ACT_CANCEL, ev)) {
    st = step(e, s->filter_on ? QT_STEP_BACK : QT_STEP_CANCEL, 0);
  } else if (move_key(e, s, ev)) {
  } else if (e->multi && matches(e, QT_ACT_NEXT, ev)) {
    st = switch_question(e, 1);
  } else if (e->multi && matches(e, QT_ACT_PREV, ev)) {
    st = switch_question(e, -1);
  } else if (s->q->multi_select && matches(e, QT_ACT_TOGGLE, ev)) {
    size_t k = qt_list_option_at(s, s->highlight);
    if (k == SIZE_MAX)
      open_entry(s);
    else
      st = step(e, QT_STEP_TOGGLE, k);
  } else if (matches(e, QT_ACT_DECLINE, ev)) {
    st = step(e, QT_STEP_DECLINE, 0);
  } else if (matches(e, QT_ACT_NOTE, ev) && live(e, QT_STEP_NOTE)) {
    open_note(s);
  } else if (matches(e, QT_ACT_FILTER, ev) && live(e, QT_STEP_FILTER)) {
    s->view = QT_VIEW_FILTER;
    s->filter.cursor = qt_editor_len(&s->filter);
  } else if (d >= 0) {
    size_t shown = qt_list_rows(s) - 1;
    if (d == 0 || (size_t)d == shown + 1) {
      open_entry(s);
    } else if ((size_t)d <= shown) {
      s->highlight = (size_t)d - 1;
      keep_visible(s);
      size_t k = qt_list_option_at(s, s->highlight);
      st = step(e, s->q->multi_select ? QT_STEP_TOGGLE : QT_STEP_PICK, k);
    } else {
      flash(e, QT_STYLE_WARNING, QT_STR_WARN_NO_OPTION, (size_t)d, NULL);
    }
  } else if (is_printable(ev) || ev->kind == QT_EV_PASTE) {
    open_entry(s);
    st = insert_text(e, &s->draft, ev->text, ev->text_len);
  } else {
    return QT_OK;
  }
  touch(e);
  return st;
}

static qt_status on_entry(qt_engine *e, qt_qstate *s, const qt_key_event *ev) {
  bool free_text = s->q->option_count == 0, handled;
  qt_status st = QT_OK;
  if (matches(e, QT_ACT_CANCEL, ev)) {
    st = step(e, free_text ? QT_STEP_CANCEL : QT_STEP_BACK, 0);
  } else if (matches(e, QT_ACT_NEW_LINE, ev)) { /* before Enter's: a lone LF is both */
    st = insert_text(e, &s->draft, "\n", 1);
  } else if (matches(e, QT_ACT_CONFIRM, ev)) {
    st = step(e, QT_STEP_TYPE, 0); /* a multi-select question is finished too */
  } else if (matches(e, QT_ACT_EXTERNAL_EDITOR, ev)) {
    e->editor_want = 1;
  } else if (edit_key(e, &s->draft, ev, &handled), handled) {
  } else if (e->multi && matches(e, QT_ACT_NEXT, ev)) {
    st = switch_question(e, 1);
  } else if (e->multi && matches(e, QT_ACT_PREV, ev)) {
    st = switch_question(e, -1);
  } else if (!free_text && (matches(e, QT_ACT_UP, ev) || matches(e, QT_ACT_DOWN, ev))) {
    s->view = QT_VIEW_LIST;
    move_key(e, s, ev);
  } else if (matches(e, QT_ACT_NOTE, ev) && live(e, QT_STEP_NOTE)) {
    open_note(s);
  } else if (matches(e, QT_ACT_DECLINE, ev)) {
    st = step(e, QT_STEP_DECLINE, 0); /* on the key that also deletes forward, only once the text is empty */
  } else if (is_printable(ev) || ev->kind == QT_EV_PASTE) {
    st = insert_text(e, &s->draft, ev->text, ev->text_len);
  } else {
    return QT_OK;
  }
  touch(e);
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
    qt_status st = step(e, QT_STEP_PICK, k);
    /* picked (the call goes on to the next question): the filter is used up; coming back shows
     * the whole list, the pick highlighted */
    if (!st && !e->done && e->overlay == QT_OVERLAY_NONE) clear_filter(s);
    return st;
  }
  if (s->filter_on && s->shown_count == 0 && qt_editor_len(&s->draft) == 0) {
    qt_status st = qt_editor_set(&s->draft, qt_editor_text(&s->filter), qt_editor_len(&s->filter));
    if (st) return st;
  }
  open_entry(s);
  return QT_OK;
}

static qt_status on_filter(qt_engine *e, qt_qstate *s, const qt_key_event *ev) {
  bool handled;
  qt_status st = QT_OK;
  if (matches(e, QT_ACT_CANCEL, ev)) {
    st = step(e, QT_STEP_BACK, 0);
  } else if (matches(e, QT_ACT_CONFIRM, ev)) {
    st = confirm_filter(e, s);
  } else if (move_key(e, s, ev)) {
  } else if (edit_key(e, &s->filter, ev, &handled), handled) {
    st = step(e, QT_STEP_FILTER, 0);
  } else if (e->multi && matches(e, QT_ACT_NEXT, ev)) {
    st = switch_question(e, 1);
  } else if (e->multi && matches(e, QT_ACT_PREV, ev)) {
    st = switch_question(e, -1);
  } else if (matches(e, QT_ACT_NOTE, ev) && live(e, QT_STEP_NOTE)) {
    open_note(s);
  } else if (matches(e, QT_ACT_DECLINE, ev)) {
    st = step(e, QT_STEP_DECLINE, 0);
  } else if (is_printable(ev) || ev->kind == QT_EV_PASTE) {
    st = insert_text(e, &s->filter, ev->text, ev->text_len);
    if (!st) st = step(e, QT_STEP_FILTER, 0);
  } else {
    return QT_OK;
  }
  touch(e);
  return st;
}

static qt_status on_note(qt_engine *e, qt_qstate *s, const qt_key_event *ev) {
  bool handled;
  qt_status st = QT_OK;
  if (matches(e, QT_ACT_CANCEL, ev) || matches(e, QT_ACT_CONFIRM, ev) || matches(e, QT_ACT_NOTE, ev)) {
    st = step(e, QT_STEP_BACK, 0);
  } else if (matches(e, QT_ACT_EXTERNAL_EDITOR, ev)) {
    e->editor_want = 2;
  } else if (edit_key(e, &s->note, ev, &handled), handled) {
    st = step(e, QT_STEP_NOTE, 0);
  } else if (e->multi && (matches(e, QT_ACT_NEXT, ev) || matches(e, QT_ACT_PREV, ev))) {
    s->view = s->note_return;
    st = switch_question(e, matches(e, QT_ACT_NEXT, ev) ? 1 : -1);
  } else if (is_printable(ev) || ev->kind == QT_EV_PASTE) {
    st = insert_text(e, &s->note, ev->text, ev->text_len);
    if (!st) st = step(e, QT_STEP_NOTE, 0);
  } else {
    return QT_OK;
  }
  touch(e);
  return st;
}

/* ---- talk first: Ctrl+T ----------------------------------------------------------------------- */
/* Enter in the discussion field: ends the call with QT_DISCUSS and the trimmed text. */
static qt_status send_discussion(qt_engine *e) {
  size_t start, len;
  qt_editor_trimmed(&e->discuss, &start, &len);
  if (!len) {
    flash(e, QT_STYLE_WARNING, QT_STR_WARN_DISCUSS_EMPTY, 0, NULL);
    return QT_OK;
  }
  char *text = dup_range(qt_editor_text(&e->discuss) + start, len);
  if (!text) return QT_ERR_NOMEM;
  free(e->discussion);
  e->discussion = text;
  return end_call(e, QT_DISCUSS, 0, SIZE_MAX); /* asks first when a draft or a note would be lost */
}

/* The discussion field has the keyboard: Esc (or Ctrl+T again) closes it, keeping the text. */
static qt_status on_discuss(qt_engine *e, const qt_key_event *ev) {
  bool handled;
  qt_status st = QT_OK;
  if (matches(e, QT_ACT_CANCEL, ev) || matches(e, QT_ACT_DISCUSS, ev)) {
    st = step(e, QT_STEP_BACK, 0);
  } else if (matches(e, QT_ACT_NEW_LINE, ev)) { /* before Enter's: a lone LF is both */
    st = insert_text(e, &e->discuss, "\n", 1);
  } else if (matches(e, QT_ACT_CONFIRM, ev)) {
    st = step(e, QT_STEP_DISCUSS, 0);
  } else if (matches(e, QT_ACT_EXTERNAL_EDITOR, ev)) {
    e->editor_want = 3; /* Ctrl+G: the host runs the external editor on the words */
  } else if (edit_key(e, &e->discuss, ev, &handled), handled) {
  } else if (is_printable(ev) || ev->kind == QT_EV_PASTE) {
    st = insert_text(e, &e->discuss, ev->text, ev->text_len);
  } else {
    return QT_OK;
  }
  touch(e);
  return st;
}

static void stop_clock(qt_engine *e);

/* ---- the flow as steps ---------------------------------------------------------------------- */
static const char *const STEP_NAMES[QT_STEP_COUNT] = {
    [QT_STEP_PICK] = "pick",       [QT_STEP_TOGGLE] = "toggle",   [QT_STEP_TYPE] = "type",     [QT_STEP_NOTE] = "note",
    [QT_STEP_DISCUSS] = "discuss", [QT_STEP_DECLINE] = "decline", [QT_STEP_CANCEL] = "cancel", [QT_STEP_BACK] = "back",
    [QT_STEP_GO] = "go",           [QT_STEP_SUBMIT] = "submit",   [QT_STEP_FILTER] = "filter", [QT_STEP_YES] = "yes",
    [QT_STEP_NO] = "no",           [QT_STEP_DRAFT] = "draft",
};

const char *qt_step_name(qt_step st) { return (int)st >= 0 && st < QT_STEP_COUNT ? STEP_NAMES[st] : NULL; }

bool qt_step_from_name(const char *name, qt_step *out) {
  for (int i = 0; name && i < QT_STEP_COUNT; i++)
    if (strcmp(name, STEP_NAMES[i]) == 0) {
      *out = (qt_step)i;
      return true;
    }
  return false;
}

#define STEP_BIT(st) (1u << (st))

/* THE rule of what may happen now: every key and every face's step is checked against it. */
static unsigned live_mask(const qt_engine *e) {
  if (e->done || e->editor_want) return 0;
  if (e->overlay != QT_OVERLAY_NONE) return STEP_BIT(QT_STEP_YES) | STEP_BIT(QT_STEP_NO);
  if (e->discuss_open) return STEP_BIT(QT_STEP_DISCUSS) | STEP_BIT(QT_STEP_BACK);
  unsigned m = STEP_BIT(QT_STEP_DISCUSS) | STEP_BIT(QT_STEP_DECLINE) | STEP_BIT(QT_STEP_CANCEL);
  if (e->multi) m |= STEP_BIT(QT_STEP_GO);
  if (e->current >= e->req->question_count) return m | STEP_BIT(QT_STEP_SUBMIT); /* the review */
  const qt_qstate *s = &e->qs[e->current];
  bool options = s->q->option_count > 0;
  m |= STEP_BIT(QT_STEP_TYPE) | STEP_BIT(QT_STEP_DRAFT) | STEP_BIT(QT_STEP_NOTE);
  if (options) {
    m |= STEP_BIT(QT_STEP_FILTER);
    m |= s->q->multi_select ? STEP_BIT(QT_STEP_TOGGLE) | STEP_BIT(QT_STEP_SUBMIT) : STEP_BIT(QT_STEP_PICK);
  }
  if (s->view == QT_VIEW_NOTE || s->view == QT_VIEW_FILTER || s->filter_on || (s->view == QT_VIEW_ENTRY && options))
    m |= STEP_BIT(QT_STEP_BACK);
  return m;
}

static bool live(const qt_engine *e, qt_step st) { return (live_mask(e) & STEP_BIT(st)) != 0; }

bool qt_engine_is_live(const qt_engine *e, qt_step st) {
  return e && (int)st >= 0 && st < QT_STEP_COUNT && live(e, st);
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
      KEY(QT_STEP_DECLINE, QT_ACT_DECLINE, QT_STR_HELP_DECLINE);
      KEY(QT_STEP_DISCUSS, QT_ACT_DISCUSS, QT_STR_HELP_DISCUSS);
      KEY(QT_STEP_CANCEL, QT_ACT_CANCEL, QT_STR_HELP_CANCEL);
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
          KEY(QT_STEP_DECLINE, QT_ACT_DECLINE, QT_STR_HELP_DECLINE);
          KEY(QT_STEP_DISCUSS, QT_ACT_DISCUSS, QT_STR_HELP_DISCUSS);
          KEY(s->filter_on ? QT_STEP_BACK : QT_STEP_CANCEL, QT_ACT_CANCEL,
              s->filter_on ? QT_STR_HELP_CLEAR_FILTER : QT_STR_HELP_CANCEL);
          break;
        case QT_VIEW_ENTRY:
          KEY(QT_STEP_TYPE, QT_ACT_CONFIRM, QT_STR_HELP_SUBMIT);
          KEY(none, QT_ACT_NEW_LINE, QT_STR_HELP_NEW_LINE);
          KEY(none, QT_ACT_EXTERNAL_EDITOR, QT_STR_HELP_EDITOR);
          KEY(QT_STEP_GO, QT_ACT_NEXT, QT_STR_HELP_NEXT);
          KEY(QT_STEP_GO, QT_ACT_PREV, QT_STR_HELP_PREV);
          KEY(QT_STEP_NOTE, QT_ACT_NOTE, QT_STR_HELP_NOTE);
          /* the decline key deletes forward while there is text */
          if (!qt_editor_len(&s->draft)) KEY(QT_STEP_DECLINE, QT_ACT_DECLINE, QT_STR_HELP_DECLINE);
          KEY(QT_STEP_DISCUSS, QT_ACT_DISCUSS, QT_STR_HELP_DISCUSS);
          KEY(s->q->option_count ? QT_STEP_BACK : QT_STEP_CANCEL, QT_ACT_CANCEL,
              s->q->option_count ? QT_STR_HELP_BACK : QT_STR_HELP_CANCEL);
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

/* Says why a step is refused, in the person's language (the RPC dialogs and the page show it). */
static void refuse(qt_engine *e, qt_string_id id, size_t n, const char *s) {
  qt_buf why;
  qt_buf_init(&why);
  const char *text = qt_format(&why, qt_str(e, id), n, s) && why.len ? why.data : "refused"; /* out of memory */
  size_t len = strlen(text), cap = sizeof e->act_why - 1;
  if (len > cap) { /* cut on a character boundary */
    len = cap;
    while (len && ((unsigned char)text[len] & 0xC0) == 0x80) len--;
  }
  memcpy(e->act_why, text, len);
  e->act_why[len] = '\0';
  qt_buf_free(&why);
}

/* Why step st is not live now. */
static void refuse_not_live(qt_engine *e) {
  if (e->done)
    refuse(e, QT_STR_STEP_ENDED, 0, NULL);
  else if (e->overlay != QT_OVERLAY_NONE)
    refuse(e, QT_STR_STEP_YES_NO_FIRST, 0, NULL);
  else
    refuse(e, QT_STR_STEP_NOT_NOW, 0, NULL);
}

static qt_status step(qt_engine *e, qt_step st, size_t k) {
  if (!live(e, st)) { /* a key handler that disagrees with live_mask: a bug, refused all the same */
    refuse_not_live(e);
    return QT_ERR_STATE;
  }
  size_t qi = e->current;
  qt_qstate *s = qi < e->req->question_count ? &e->qs[qi] : NULL;
  switch (st) {
    case QT_STEP_PICK: return pick_option(e, qi, k, false);
    case QT_STEP_TOGGLE: return toggle_option(e, qi, k);
    case QT_STEP_TYPE: return submit_typed(e, qi, false, k != 1);
    case QT_STEP_NOTE: return sync_note(e, qi); /* the note's editor holds the text */
    case QT_STEP_DRAFT: return QT_OK;           /* held in the field: nothing is answered */
    case QT_STEP_DISCUSS: return send_discussion(e);
    case QT_STEP_DECLINE: request_decline(e); return QT_OK;
    case QT_STEP_CANCEL: request_cancel(e); return QT_OK;
    case QT_STEP_BACK:
      if (e->discuss_open)
        e->discuss_open = false;
      else if (s->view == QT_VIEW_NOTE)
        s->view = s->note_return;
      else if (s->view == QT_VIEW_FILTER) {
        clear_filter(s);
        s->view = QT_VIEW_LIST;
      } else if (s->view == QT_VIEW_ENTRY)
        s->view = QT_VIEW_LIST;
      else
        clear_filter(s);
      return QT_OK;
    case QT_STEP_GO: e->current = k; return QT_OK;
    case QT_STEP_SUBMIT:
      if (!s) {
        submit_review(e);
        return QT_OK;
      }
      return confirm_multi(e, qi);
    case QT_STEP_FILTER: return apply_filter(s); /* the filter's editor holds the text */
    case QT_STEP_YES: return answer_overlay(e, true);
    case QT_STEP_NO: return answer_overlay(e, false);
    default: return QT_ERR_USAGE;
  }
}

/* Replaces an editor's text with a face's (cleaned as typed text is); refused whole, the editor
 * unchanged, when it is over the field's limit. */
static qt_status replace_text(qt_engine *e, qt_editor *ed, const char *text, size_t len) {
  qt_editor fresh;
  qt_editor_init(&fresh, ed->limit, ed->multiline);
  bool cut = false;
  qt_status st = qt_editor_insert(&fresh, text ? text : "", len, &cut);
  if (st || cut) {
    qt_editor_free(&fresh);
    if (cut) refuse(e, QT_STR_STEP_TOO_LONG, ed->limit, NULL);
    return st ? st : QT_ERR_USAGE;
  }
  qt_editor_free(ed);
  *ed = fresh;
  ed->cursor = qt_editor_len(ed);
  return QT_OK;
}

static bool blank(const char *text, size_t len) {
  for (size_t i = 0; i < len; i++)
    if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' && text[i] != '\r') return false;
  return true;
}

const char *qt_engine_act_error(const qt_engine *e) { return e ? e->act_why : "no engine"; }

static void adopt_layout(qt_engine *e);

qt_status qt_engine_act(qt_engine *e, qt_step st, size_t index, const char *text, size_t len) {
  if (!e) return QT_ERR_USAGE;
  e->act_why[0] = '\0';
  if ((int)st < 0 || st >= QT_STEP_COUNT || (len && !text)) {
    snprintf(e->act_why, sizeof e->act_why, "no such step, or text without its bytes");
    return QT_ERR_USAGE;
  }
  if (!live(e, st)) {
    refuse_not_live(e);
    return QT_ERR_STATE;
  }
  size_t n = e->req->question_count, qi = e->current;
  qt_qstate *s = qi < n ? &e->qs[qi] : NULL;
  /* Refusals first, so that a refused step changes nothing at all. */
  switch (st) {
    case QT_STEP_PICK:
    case QT_STEP_TOGGLE:
      if (index >= s->q->option_count) {
        refuse(e, QT_STR_WARN_NO_OPTION, index + 1, NULL);
        return QT_ERR_USAGE;
      }
      break;
    case QT_STEP_TYPE:
      if (blank(text, len) && !s->q->multi_select) {
        refuse(e, QT_STR_STEP_EMPTY, 0, NULL);
        return QT_ERR_USAGE;
      }
      break;
    case QT_STEP_DISCUSS:
      if ((text || !e->discuss_open) && blank(text, len)) {
        refuse(e, QT_STR_STEP_NOTHING_TO_TELL, 0, NULL);
        return QT_ERR_USAGE;
      }
      break;
    case QT_STEP_GO:
      if (index > n) {
        refuse(e, QT_STR_STEP_NO_QUESTION, index + 1, NULL);
        return QT_ERR_USAGE;
      }
      break;
    default: break;
  }
  /* A step starts from what the last frame showed, as a key does. (Text over its field's limit
   * is refused below, after this: what was adopted is only what the person already saw.) */
  adopt_layout(e);
  qt_status r = QT_OK;
  switch (st) {
    case QT_STEP_PICK:
    case QT_STEP_TOGGLE:
      /* as if chosen on the list: the row of the option highlighted */
      if (s->view != QT_VIEW_LIST) s->view = QT_VIEW_LIST;
      if (s->filter_on) {
        size_t row = SIZE_MAX;
        for (size_t i = 0; i < s->shown_count; i++)
          if (s->shown[i] == index) row = i;
        if (row == SIZE_MAX)
          clear_filter(s);
        else
          s->highlight = row;
      }
      if (!s->filter_on) s->highlight = index;
      keep_visible(s);
      break;
    case QT_STEP_TYPE:
      r = replace_text(e, &s->draft, text, len);
      index = s->q->multi_select ? 1 : 0; /* a multi-select question stays open */
      break;
    case QT_STEP_NOTE: r = replace_text(e, &s->note, text, len); break;
    case QT_STEP_DRAFT: r = replace_text(e, &s->draft, text, len); break;
    case QT_STEP_DISCUSS:
      if (text || !e->discuss_open) r = replace_text(e, &e->discuss, text, len);
      break;
    case QT_STEP_FILTER: r = replace_text(e, &s->filter, text, len); break;
    default: break;
  }
  if (r) return r;
  if (e->flash.len) qt_buf_reset(&e->flash);
  if (e->clock_on) stop_clock(e); /* the person replied: the timeout stops for good, as on a key */
  r = step(e, st, index);
  touch(e);
  return r;
}

/* ---- the question fits the screen ----------------------------------------------------------- */
/* The first key after a frame starts from what the frame showed: the windows that scroll take
 * the places the renderer kept them at (inside their text, the highlighted row in view). The
 * renderer only reports them (qt_layout); they become state here, once, and the key then moves
 * them. A frame drawn at another width in between does not change what a key does. */
static void adopt_layout(qt_engine *e) {
  qt_layout *l = &e->layout;
  if (!l->valid || l->adopted) return;
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
  touch(e);
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
  touch(e);
  return true;
}

static void stop_clock(qt_engine *e);

static qt_status handle_event(qt_engine *e, const qt_key_event *ev) {
  if (e->editor_want) return QT_OK; /* the host is running the external editor */
  if (e->flash.len) {
    qt_buf_reset(&e->flash);
    touch(e);
  }
  if (e->clock_on) stop_clock(e); /* any key stops the person's timeout for good */
  if (e->overlay != QT_OVERLAY_NONE) return on_overlay(e, ev);
  if (e->discuss_open) return on_discuss(e, ev);
  if (matches(e, QT_ACT_DISCUSS, ev) && live(e, QT_STEP_DISCUSS)) {
    e->discuss_open = true;
    e->discuss.cursor = qt_editor_len(&e->discuss);
    touch(e);
    return QT_OK;
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
  adopt_layout(e);
  qt_status st = handle_event(e, ev);
  if (st) {
    e->feed_status = st;
    touch(e);
    return false;
  }
  return !e->done;
}

/* ---- memory ---------------------------------------------------------------------------------- */
static size_t text_bytes(const char *s) { return s ? strlen(s) + 1 : 0; }

/* What creation allocates for question i and keeps to the end. */
static size_t owned_bytes(const char *text, const char *from) { return text != from ? text_bytes(text) : 0; }

static size_t question_bytes(const qt_qstate *s) {
  const qt_question *q = s->q;
  size_t n = owned_bytes(s->prompt, q->prompt) + owned_bytes(s->label, q->label) + owned_bytes(s->tab, s->label);
  size_t options = q->option_count;
  n += options * (sizeof *s->opts + sizeof *s->ticked);
  for (size_t k = 0; s->opts && k < options; k++)
    n += owned_bytes(s->opts[k].label, q->options[k].label) +
         owned_bytes(s->opts[k].description, q->options[k].description) +
         owned_bytes(s->opts[k].preview, q->options[k].preview);
  return n;
}

size_t qt_engine_footprint(const qt_engine *e) {
  if (!e) return 0;
  size_t n = e->fixed_bytes + e->flash.cap + e->discuss.text.cap + text_bytes(e->discussion);
  for (size_t i = 0; i < e->req->question_count; i++) {
    const qt_qstate *s = &e->qs[i];
    const qt_answer *a = &e->answers[i];
    n += qt_editor_bytes(&s->draft) + qt_editor_bytes(&s->note) + qt_editor_bytes(&s->filter) + s->folded_bytes;
    if (s->shown) n += s->q->option_count * sizeof *s->shown;
    n += a->index_count * sizeof *a->indices + text_bytes(a->custom) + text_bytes(a->note);
  }
  n += qt_draw_bytes(&e->draw) + e->line_ptr_cap * sizeof *e->line_ptrs;
  return n;
}

/* ---- creation ------------------------------------------------------------------------------- */
static const char *const DEFAULT_KEYS[QT_ACT_COUNT][4] = {
    [QT_ACT_UP] = {"up"},
    [QT_ACT_DOWN] = {"down"},
    [QT_ACT_PAGE_UP] = {"pageUp"},
    [QT_ACT_PAGE_DOWN] = {"pageDown"},
    [QT_ACT_CONFIRM] = {"enter"},
    [QT_ACT_CANCEL] = {"escape", "ctrl+c"},
    [QT_ACT_NEXT] = {"tab", "right"},
    [QT_ACT_PREV] = {"shift+tab", "left"},
    [QT_ACT_TOGGLE] = {"space"},
    [QT_ACT_DECLINE] = {"ctrl+d"},
    [QT_ACT_NOTE] = {"ctrl+n"},
    [QT_ACT_FILTER] = {"/"},
    [QT_ACT_CURSOR_LEFT] = {"left", "ctrl+b"},
    [QT_ACT_CURSOR_RIGHT] = {"right", "ctrl+f"},
    [QT_ACT_WORD_LEFT] = {"alt+left", "ctrl+left", "alt+b"},
    [QT_ACT_WORD_RIGHT] = {"alt+right", "ctrl+right", "alt+f"},
    [QT_ACT_LINE_START] = {"home", "ctrl+a"},
    [QT_ACT_LINE_END] = {"end", "ctrl+e"},
    [QT_ACT_DELETE_BACK] = {"backspace"},
    [QT_ACT_DELETE_FORWARD] = {"delete", "ctrl+d"},
    [QT_ACT_DELETE_WORD_BACK] = {"ctrl+w", "alt+backspace"},
    [QT_ACT_DELETE_WORD_FORWARD] = {"alt+d", "alt+delete"},
    [QT_ACT_DELETE_TO_START] = {"ctrl+u"},
    [QT_ACT_DELETE_TO_END] = {"ctrl+k"},
    [QT_ACT_NEW_LINE] = {"shift+enter"},
    [QT_ACT_DISCUSS] = {"ctrl+t"},
    [QT_ACT_EXTERNAL_EDITOR] = {"ctrl+g"},
    [QT_ACT_PREVIEW_UP] = {"shift+up"},
    [QT_ACT_PREVIEW_DOWN] = {"shift+down"},
};

/* Parses key ids into a key set; returns how many were not understood (or did not fit). */
static size_t parse_keys(qt_keyset *ks, const char *const *names, size_t count) {
  size_t unknown = 0;
  ks->count = 0;
  for (size_t i = 0; i < count; i++) {
    uint32_t key;
    unsigned mods;
    if (!names[i] || !qt_key_parse(names[i], &key, &mods) || ks->count == QT_MAX_KEYS) {
      unknown++;
      continue;
    }
    bool dup = false;
    for (size_t j = 0; j < ks->count; j++) dup |= ks->key[j] == key && ks->mods[j] == mods;
    if (dup) continue;
    ks->key[ks->count] = key;
    ks->mods[ks->count++] = mods;
  }
  return unknown;
}

/* Sanitized display text and editing state of question i. */
static qt_status init_question(qt_engine *e, size_t i, qt_buf *scratch) {
  qt_qstate *s = &e->qs[i];
  const qt_question *q = &e->req->questions[i];
  qt_status st;
  s->q = q;
  qt_editor_init(&s->draft, QT_MAX_ANSWER_BYTES, true);
  qt_editor_init(&s->note, QT_MAX_NOTE_BYTES, false);
  qt_editor_init(&s->filter, QT_MAX_FILTER_BYTES, false);
  if ((st = sanitized(scratch, q->prompt, QT_SANITIZE_NEWLINES, true, &s->prompt))) return st;
  if ((st = sanitized(scratch, q->label, 0, true, &s->label))) return st;
  if (!(s->tab = shortened(s->label, QT_TAB_LABEL_COLUMNS))) return QT_ERR_NOMEM;
  if (q->option_count) {
    if (!(s->opts = calloc(q->option_count, sizeof *s->opts))) return QT_ERR_NOMEM;
    if (!(s->ticked = calloc(q->option_count, sizeof *s->ticked))) return QT_ERR_NOMEM;
  }
  for (size_t k = 0; k < q->option_count; k++) {
    const qt_option *o = &q->options[k];
    qt_opt_text *t = &s->opts[k];
    if ((st = sanitized(scratch, o->label, 0, true, &t->label))) return st;
    if ((st = sanitized(scratch, o->description, QT_SANITIZE_NEWLINES, false, &t->description))) return st;
    if ((st = sanitized(scratch, o->preview, QT_SANITIZE_NEWLINES, false, &t->preview))) return st;
    if (t->preview) s->has_preview = true;
  }
  s->view = q->option_count ? QT_VIEW_LIST : QT_VIEW_ENTRY;
  s->note_return = s->view;
  /* a pre-supplied answer starts as given */
  const qt_answer *pre = e->req->preset ? &e->req->preset[i] : NULL;
  if (pre && pre->present) {
    if ((st = qt_answer_copy(&e->answers[i], pre))) return st;
    for (size_t j = 0; j < pre->index_count; j++)
      if (pre->indices[j] >= 1 && pre->indices[j] <= q->option_count) s->ticked[pre->indices[j] - 1] = true;
    if (pre->custom && (st = qt_editor_set(&s->draft, pre->custom, strlen(pre->custom)))) return st;
    if (pre->index_count && pre->indices[0] >= 1 && pre->indices[0] <= q->option_count)
      s->highlight = pre->indices[0] - 1;
    else
      s->highlight = q->option_count;
  }
  if (pre && pre->note && (st = qt_editor_set(&s->note, pre->note, strlen(pre->note)))) return st;
  keep_visible(s);
  return QT_OK;
}

qt_status qt_engine_create(const qt_request *req, qt_engine **out) {
  if (!out) return QT_ERR_USAGE;
  *out = NULL;
  if (!req || !req->question_count || !req->questions) return QT_ERR_USAGE;
  qt_engine *e = calloc(1, sizeof *e);
  if (!e) return QT_ERR_NOMEM;
  e->req = req;
  e->multi = req->question_count > 1;
  qt_buf_init(&e->flash);
  qt_editor_init(&e->discuss, QT_MAX_DISCUSS_BYTES, true);
  qt_status st = QT_ERR_NOMEM;
  e->qs = calloc(req->question_count, sizeof *e->qs);
  e->answers = calloc(req->question_count, sizeof *e->answers);
  if (!e->qs || !e->answers) goto fail;
  qt_buf scratch;
  qt_buf_init(&scratch);
  st = QT_OK;
  for (size_t i = 0; i < req->question_count && !st; i++) st = init_question(e, i, &scratch);
  qt_buf_free(&scratch);
  if (st) goto fail;
  st = QT_ERR_NOMEM;
  for (int s = 0; s < QT_STYLE_COUNT; s++)
    if (!(e->style_open[s] = dup_range("", 0)) || !(e->style_close[s] = dup_range("", 0))) goto fail;
  if (!(e->cursor_marker = dup_range("", 0))) goto fail;
  for (int a = 0; a < QT_ACT_COUNT; a++) {
    size_t n = 0;
    while (n < 4 && DEFAULT_KEYS[a][n]) n++;
    parse_keys(&e->keys[a], DEFAULT_KEYS[a], n);
  }
  if ((st = qt_decoder_create(&e->decoder))) goto fail;
  e->fixed_bytes =
      sizeof *e + req->question_count * (sizeof *e->qs + sizeof *e->answers) + 1024; /* the decoder, about */
  for (size_t i = 0; i < req->question_count; i++) e->fixed_bytes += question_bytes(&e->qs[i]);
  if (e->multi) {
    e->current = 0;
    while (e->current < req->question_count && e->answers[e->current].present) e->current++;
  }
  e->revision = 1;
  *out = e;
  return QT_OK;
fail:
  qt_engine_destroy(e);
  return st;
}

void qt_engine_destroy(qt_engine *e) {
  if (!e) return;
  if (e->qs) {
    for (size_t i = 0; i < e->req->question_count; i++) {
      qt_qstate *s = &e->qs[i];
      const qt_question *q = s->q;
      if (!q) continue; /* creation stopped before this question */
      free_text(s->tab, s->label);
      free_text(s->prompt, q->prompt);
      free_text(s->label, q->label);
      if (s->opts) {
        for (size_t k = 0; k < q->option_count; k++) {
          free_text(s->opts[k].label, q->options[k].label);
          free_text(s->opts[k].description, q->options[k].description);
          free_text(s->opts[k].preview, q->options[k].preview);
          free(s->opts[k].folded);
        }
      }
      free(s->opts);
      free(s->ticked);
      free(s->shown);
      qt_editor_free(&s->draft);
      qt_editor_free(&s->note);
      qt_editor_free(&s->filter);
      qt_answer_clear(&s->earlier);
      free(s->earlier_line);
      free(s->earlier_when);
    }
    free(e->qs);
  }
  qt_answers_free(e->answers, e->req->question_count);
  for (int s = 0; s < QT_STYLE_COUNT; s++) {
    free(e->style_open[s]);
    free(e->style_close[s]);
  }
  free(e->cursor_marker);
  free(e->asker_name);
  free(e->asker_where);
  qt_decoder_destroy(e->decoder);
  qt_buf_free(&e->flash);
  qt_draw_free(&e->draw);
  free(e->line_ptrs);
  qt_editor_free(&e->discuss);
  free(e->discussion);
  free(e);
}

/* ---- host configuration ------------------------------------------------------------------- */
/* Host bytes must not take up columns, or every width computed here would be wrong. */
static bool zero_width(const char *s) { return qt_visible_width(s, strlen(s)) == 0; }

qt_status qt_engine_set_style(qt_engine *e, qt_style style, const char *open, const char *close) {
  if (!e || (int)style < 0 || style >= QT_STYLE_COUNT) return QT_ERR_USAGE;
  if (!open) open = "";
  if (!close) close = "";
  if (!zero_width(open) || !zero_width(close)) return QT_ERR_USAGE;
  char *o = dup_range(open, strlen(open)), *c = dup_range(close, strlen(close));
  if (!o || !c) {
    free(o);
    free(c);
    return QT_ERR_NOMEM;
  }
  free(e->style_open[style]);
  free(e->style_close[style]);
  e->style_open[style] = o;
  e->style_close[style] = c;
  qt_buf_reset(&e->draw.help_key); /* the help line kept was drawn in the old style */
  touch(e);
  return QT_OK;
}

bool qt_engine_first_keys_default(const qt_engine *e) {
  for (int a = 0; a < QT_ACT_COUNT; a++) {
    size_t n = 0;
    while (n < 4 && DEFAULT_KEYS[a][n]) n++;
    qt_keyset d;
    parse_keys(&d, DEFAULT_KEYS[a], n);
    const qt_keyset *k = &e->keys[a];
    if (!d.count != !k->count) return false;
    if (d.count && (d.key[0] != k->key[0] || d.mods[0] != k->mods[0])) return false;
  }
  return true;
}

qt_status qt_engine_bind(qt_engine *e, qt_action action, const char *const *keys, size_t count, size_t *unknown) {
  if (unknown) *unknown = 0;
  if (!e || (int)action < 0 || action >= QT_ACT_COUNT || (count && !keys)) return QT_ERR_USAGE;
  size_t bad = parse_keys(&e->keys[action], keys, count);
  if (unknown) *unknown = bad;
  touch(e);
  return QT_OK;
}

qt_status qt_engine_set_cursor_marker(qt_engine *e, const char *marker) {
  if (!e) return QT_ERR_USAGE;
  if (!marker) marker = "";
  if (!zero_width(marker)) return QT_ERR_USAGE;
  char *m = dup_range(marker, strlen(marker));
  if (!m) return QT_ERR_NOMEM;
  free(e->cursor_marker);
  e->cursor_marker = m;
  touch(e);
  return QT_OK;
}

/* A sanitized one-line copy of s (NULL for NULL or ""). */
static qt_status sanitized_line(const char *s, char **out) {
  *out = NULL;
  if (!s || !*s) return QT_OK;
  size_t n = strlen(s);
  if (n > QT_MAX_ASKER_BYTES) { /* cut at a character boundary */
    n = QT_MAX_ASKER_BYTES;
    while (n && ((unsigned char)s[n] & 0xC0) == 0x80) n--;
  }
  qt_buf b;
  qt_buf_init(&b);
  if (!qt_sanitize(&b, s, n, 0) || b.failed || !b.data) {
    qt_buf_free(&b);
    return QT_ERR_NOMEM;
  }
  *out = b.data; /* the buffer's bytes, NUL-terminated, now owned by the caller */
  return QT_OK;
}

qt_status qt_engine_set_asker(qt_engine *e, const char *name, const char *where) {
  if (!e) return QT_ERR_USAGE;
  char *n, *w;
  qt_status st = sanitized_line(name, &n);
  if (st) return st;
  if ((st = sanitized_line(where, &w))) {
    free(n);
    return st;
  }
  free(e->asker_name);
  free(e->asker_where);
  e->asker_name = n;
  e->asker_where = w;
  touch(e);
  return QT_OK;
}

qt_status qt_engine_set_language(qt_engine *e, qt_language lang) {
  if (!e || (int)lang < 0 || lang >= QT_LANG_COUNT) return QT_ERR_USAGE;
  e->lang = lang;
  touch(e);
  return QT_OK;
}

qt_language qt_engine_language(const qt_engine *e) { return e ? e->lang : QT_LANG_EN; }

/* ---- running -------------------------------------------------------------------------------- */
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

void qt_engine_set_whole_keys(qt_engine *e, bool on) {
  if (e) qt_decoder_set_whole_keys(e->decoder, on);
}

bool qt_engine_pending(const qt_engine *e) { return e && !e->done && qt_decoder_pending(e->decoder); }

void qt_engine_interrupt(qt_engine *e) {
  if (!e || e->done) return;
  finish(e, QT_INTERRUPTED);
  touch(e);
}

bool qt_engine_done(const qt_engine *e) { return e && e->done; }
void qt_engine_typed(const qt_engine *e, size_t qi, const char **answer, size_t *alen, const char **note,
                     size_t *nlen) {
  *answer = *note = "";
  *alen = *nlen = 0;
  if (!e || qi >= e->req->question_count) return;
  const qt_qstate *s = &e->qs[qi];
  const qt_answer *a = &e->answers[qi];
  size_t start, len;
  qt_editor_trimmed(&s->draft, &start, &len);
  if (len)
    *answer = qt_editor_text(&s->draft) + start, *alen = len;
  else if (a->present && a->custom)
    *answer = a->custom, *alen = strlen(a->custom);
  qt_editor_trimmed(&s->note, &start, &len);
  if (len)
    *note = qt_editor_text(&s->note) + start, *nlen = len;
  else if (a->present && a->note)
    *note = a->note, *nlen = strlen(a->note);
}

const char *qt_engine_discussion(const qt_engine *e) {
  return e && e->done && e->outcome == QT_DISCUSS && e->discussion ? e->discussion : "";
}

qt_status qt_engine_set_rows(qt_engine *e, int rows) {
  if (!e) return QT_ERR_USAGE;
  if (rows < 0) rows = 0;
  if (rows != e->rows) {
    e->rows = rows;
    touch(e);
  }
  return QT_OK;
}
qt_outcome qt_engine_outcome(const qt_engine *e) { return e ? e->outcome : QT_CANCELLED; }
const qt_answer *qt_engine_answers(const qt_engine *e) { return e ? e->answers : NULL; }
uint64_t qt_engine_revision(const qt_engine *e) { return e ? e->revision : 0; }

qt_status qt_engine_render(qt_engine *e, int width, const char *const **lines, size_t *count) {
  if (!e || !lines || !count) return QT_ERR_USAGE;
  if (width < 1) width = 1;
  unsigned rules = qt_width_rules();
  if (!(e->frame_width == width && e->frame_revision == e->revision && e->frame_rules == rules)) {
    qt_layout shown;
    qt_status st =
        e->accessible ? qt_render_plain_frame(e, &e->draw, width, &shown) : qt_render_frame(e, &e->draw, width, &shown);
    if (st) {
      e->frame_width = 0;
      return st;
    }
    e->layout = shown;
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
    e->frame_revision = e->revision;
    e->frame_rules = rules;
  }
  *lines = e->line_ptrs;
  *count = e->draw.frame.count;
  return QT_OK;
}

/* ---- the clock: the person's timeout --------------------------------------------------------- */
static void stop_clock(qt_engine *e) {
  e->clock_on = false;
  touch(e);
  if (e->accessible) flash(e, QT_STYLE_DIM, QT_STR_CLOCK_STOPPED, 0, NULL);
}

qt_status qt_engine_set_timeout(qt_engine *e, int64_t after_ms, qt_timeout_then then) {
  if (!e || after_ms <= 0 || (int)then < 0 || then > QT_TIMEOUT_RECOMMENDED) return QT_ERR_USAGE;
  if (e->done) return QT_ERR_STATE;
  e->clock_on = true;
  e->clock_started = false;
  e->clock_after = after_ms;
  e->clock_then = then;
  touch(e);
  return QT_OK;
}

qt_status qt_engine_stop_clock(qt_engine *e) {
  if (!e) return QT_ERR_USAGE;
  if (e->clock_on && !e->done) stop_clock(e);
  return QT_OK;
}

/* Whole seconds left, rounded up (what the countdown shows). */
static int64_t seconds_left(const qt_engine *e) {
  int64_t left = e->clock_started ? e->clock_deadline - e->clock_now : e->clock_after;
  return left <= 0 ? 0 : (left + 999) / 1000;
}

qt_status qt_engine_tick(qt_engine *e, int64_t now_ms) {
  if (!e) return QT_ERR_USAGE;
  if (!e->clock_on || e->done) return QT_OK;
  int64_t before = seconds_left(e);
  if (!e->clock_started) {
    e->clock_started = true;
    e->clock_deadline = now_ms + e->clock_after;
  }
  e->clock_now = now_ms;
  if (now_ms >= e->clock_deadline) {
    e->clock_on = false;
    e->timed_out = true;
    finish(e, QT_TIMED_OUT);
    touch(e);
    return QT_OK;
  }
  if (seconds_left(e) != before) touch(e);
  return QT_OK;
}

int64_t qt_engine_next_tick(const qt_engine *e, int64_t now_ms) {
  if (!e || !e->clock_on || e->done) return -1;
  if (!e->clock_started) return 0;
  int64_t left = e->clock_deadline - now_ms;
  if (left <= 0) return 0;
  int64_t to_change = left % 1000;
  return to_change ? to_change : 1000;
}

unsigned qt_engine_result_flags(const qt_engine *e) {
  if (!e || !e->done || e->outcome != QT_TIMED_OUT) return 0;
  return e->clock_then == QT_TIMEOUT_RECOMMENDED ? QT_RESULT_TIMEOUT_RECOMMENDED
         : e->clock_then == QT_TIMEOUT_DECLINE   ? QT_RESULT_TIMEOUT_DECLINE
                                                 : 0;
}

qt_string_id qt_confirm_string(const qt_engine *e) {
  return e->overlay == QT_OVERLAY_LONG ? QT_STR_CONFIRM_LONG
         : e->overlay_n == 0           ? QT_STR_CONFIRM_DISCARD_TEXT
         : e->overlay_n == 1           ? QT_STR_CONFIRM_DISCARD_ONE
                                       : QT_STR_CONFIRM_DISCARD_MANY;
}

bool qt_countdown_text(const qt_engine *e, qt_buf *out) {
  if (!e->clock_on || e->done) return false;
  int64_t secs = seconds_left(e);
  char clock[32];
  if (secs >= 3600)
    snprintf(clock, sizeof clock, "%lld:%02lld:%02lld", (long long)(secs / 3600), (long long)(secs / 60 % 60),
             (long long)(secs % 60));
  else
    snprintf(clock, sizeof clock, "%lld:%02lld", (long long)(secs / 60), (long long)(secs % 60));
  qt_string_id id = e->clock_then == QT_TIMEOUT_RECOMMENDED ? QT_STR_COUNTDOWN_RECOMMENDED
                    : e->clock_then == QT_TIMEOUT_DECLINE   ? QT_STR_COUNTDOWN_DECLINE
                                                            : QT_STR_COUNTDOWN_CANCEL;
  return qt_format(out, qt_str(e, id), 0, clock);
}

/* ---- accessible mode ------------------------------------------------------------------------- */
qt_status qt_engine_set_accessible(qt_engine *e, bool on) {
  if (!e) return QT_ERR_USAGE;
  e->accessible = on;
  touch(e);
  return QT_OK;
}

/* ---- the external editor --------------------------------------------------------------------- */
static qt_editor *editor_target(qt_engine *e) {
  if (!e->editor_want || e->done) return NULL;
  if (e->editor_want == 3) return &e->discuss; /* the discussion field (Ctrl+T) */
  if (e->current >= e->req->question_count) return NULL;
  qt_qstate *s = &e->qs[e->current];
  return e->editor_want == 2 ? &s->note : &s->draft;
}

bool qt_engine_editor_request(const qt_engine *e, const char **text, size_t *len) {
  qt_editor *ed = e ? editor_target((qt_engine *)e) : NULL;
  if (!ed) return false;
  if (text) *text = qt_editor_text(ed);
  if (len) *len = qt_editor_len(ed);
  return true;
}

qt_status qt_engine_editor_done(qt_engine *e, bool ok, const char *text, size_t len, const char *why) {
  if (!e || (ok && len && !text)) return QT_ERR_USAGE;
  qt_editor *ed = editor_target(e);
  int want = e->editor_want;
  e->editor_want = 0;
  touch(e);
  if (!ed) return QT_OK;
  if (!ok) {
    flash(e, QT_STYLE_WARNING, QT_STR_EDITOR_FAILED, 0, why && *why ? why : "?");
    return QT_OK;
  }
  /* editors end the file with a line break: one is dropped, as pi's own editor does */
  if (len && text[len - 1] == '\n') len--;
  if (len && text[len - 1] == '\r') len--;
  qt_editor fresh;
  qt_editor_init(&fresh, ed->limit, ed->multiline);
  bool cut = false;
  qt_status st = qt_editor_insert(&fresh, text ? text : "", len, &cut);
  if (st) {
    qt_editor_free(&fresh);
    flash(e, QT_STYLE_WARNING, QT_STR_EDITOR_FAILED, 0, "out of memory");
    return st; /* the field is as it was */
  }
  qt_editor_free(ed);
  *ed = fresh;
  ed->cursor = qt_editor_len(ed);
  if (cut) flash(e, QT_STYLE_WARNING, QT_STR_WARN_CUT, ed->limit, NULL);
  if (want == 2) return sync_note(e, e->current);
  return QT_OK;
}

/* ---- the project's memory of answers --------------------------------------------------------
 * A question answered before in this project opens with that answer chosen, as a pre-supplied
 * one does (ticked or highlighted, or the typed text in the field), with a line saying so. It
 * is no answer of the person's until they take it up (Enter keeps it): a decline, a timeout or
 * a cancel drops it (finish). */
qt_status qt_engine_remember(qt_engine *e, size_t qi, const qt_answer *earlier, const char *line, const char *when) {
  if (!e || !earlier || !earlier->present || !line || !when || e->done || qi >= e->req->question_count)
    return QT_ERR_USAGE;
  qt_qstate *s = &e->qs[qi];
  const qt_question *q = s->q;
  /* an answer as qt_answers_from_json makes them: options in range, ascending, once each; one
   * thing for a single-select question; typed text UTF-8, not empty, within its limit */
  if (earlier->index_count && !earlier->indices) return QT_ERR_USAGE;
  for (size_t j = 0; j < earlier->index_count; j++)
    if (earlier->indices[j] < 1 || earlier->indices[j] > q->option_count ||
        (j && earlier->indices[j] <= earlier->indices[j - 1]))
      return QT_ERR_USAGE;
  if (!q->multi_select && earlier->index_count + (earlier->custom != NULL) != 1) return QT_ERR_USAGE;
  if (!earlier->index_count && !earlier->custom) return QT_ERR_USAGE;
  if (earlier->custom && (!earlier->custom[0] || strlen(earlier->custom) > QT_MAX_ANSWER_BYTES ||
                          !qt_utf8_valid(earlier->custom, strlen(earlier->custom), NULL)))
    return QT_ERR_USAGE;
  size_t date_len = 0;
  while (date_len <= QT_MAX_EARLIER_DATE_BYTES && when[date_len]) date_len++;
  if (date_len > QT_MAX_EARLIER_DATE_BYTES) { /* cut at a character boundary */
    date_len = QT_MAX_EARLIER_DATE_BYTES;
    while (date_len && ((unsigned char)when[date_len] & 0xC0) == 0x80) date_len--;
  }
  if (!qt_utf8_valid(when, date_len, NULL)) return QT_ERR_USAGE; /* the model's text stays UTF-8 */
  qt_answer copy = {0}, given = {0};
  char *shown = NULL, *date = dup_range(when, date_len);
  qt_status st = date ? sanitized_line(line, &shown) : QT_ERR_NOMEM;
  if (!st) st = qt_answer_copy(&copy, earlier);
  if (!st) st = qt_answer_copy(&given, earlier);
  if (!st && earlier->custom) st = qt_editor_set(&s->draft, earlier->custom, strlen(earlier->custom));
  if (st) {
    free(date);
    free(shown);
    qt_answer_clear(&copy);
    qt_answer_clear(&given);
    return st;
  }
  free(given.note); /* the note was about that time: the field starts empty */
  given.note = NULL;
  free(copy.note);
  copy.note = NULL;
  qt_answer_clear(&s->earlier);
  free(s->earlier_line);
  free(s->earlier_when);
  s->earlier = copy;
  s->earlier_line = shown;
  s->earlier_when = date;
  qt_answer_clear(&e->answers[qi]);
  e->answers[qi] = given;
  if (q->option_count) memset(s->ticked, 0, q->option_count * sizeof *s->ticked);
  for (size_t j = 0; j < earlier->index_count; j++) s->ticked[earlier->indices[j] - 1] = true;
  if (earlier->index_count) {
    s->highlight = earlier->indices[0] - 1;
    s->view = QT_VIEW_LIST;
  } else if (q->option_count) { /* their own words: the field open on them */
    s->highlight = q->option_count;
    s->view = q->multi_select ? QT_VIEW_LIST : QT_VIEW_ENTRY;
  }
  /* the cursor at the start: the field shows the remembered text from its first line, so no
   * line of it is scrolled out of sight above what the person reads */
  s->draft.cursor = 0;
  keep_visible(s);
  touch(e);
  return QT_OK;
}

const char *qt_engine_earlier(const qt_engine *e, size_t qi) {
  if (!e || !e->done || e->outcome != QT_ANSWERED || qi >= e->req->question_count) return NULL;
  const qt_qstate *s = &e->qs[qi];
  const qt_answer *a = &e->answers[qi], *was = &s->earlier;
  if (!was->present || !a->present || a->index_count != was->index_count) return NULL;
  if (a->index_count && memcmp(a->indices, was->indices, a->index_count * sizeof *a->indices) != 0) return NULL;
  if (!a->custom != !was->custom || (a->custom && strcmp(a->custom, was->custom) != 0)) return NULL;
  return s->earlier_when;
}

const char *qt_engine_earlier_line(const qt_engine *e) {
  if (!e || e->current >= e->req->question_count) return NULL;
  return e->qs[e->current].earlier_line;
}
