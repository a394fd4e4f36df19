/* engine_steps.c — the question flow as steps (qt_engine_act, qt_step_name): the answers of a
 * question, ending the call (after "Discard N answers?" when typed text or answers would be
 * lost), picking, toggling, typing, notes, switching questions, and the one function that
 * applies a step (qt_step_apply) for keys and faces alike, refusing one that is not live with
 * a sentence in the engine's language. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"
#include "qt_typed.h"

/* ---- answers ------------------------------------------------------------------------------ */
static size_t tick_count(const qt_qstate *s) {
  size_t n = 0;
  for (size_t k = 0; k < s->q->option_count; k++) n += s->ticked[k];
  return n;
}

/* Replaces *out with a copy of the editor's trimmed text (NULL when blank). */
static qt_status sync_trimmed(const qt_editor *ed, char **out) {
  size_t start, len;
  qt_editor_trimmed(ed, &start, &len);
  char *text = NULL;
  if (len && !(text = qt_dup_range(qt_editor_text(ed) + start, len))) return QT_ERR_NOMEM;
  free(*out);
  *out = text;
  return QT_OK;
}

/* Copies the note editor into the answer's note (NULL when blank). */
qt_status qt_sync_note(qt_engine *e, size_t qi) { return sync_trimmed(&e->qs[qi].note, &e->answers[qi].note); }

qt_status qt_sync_call_note(qt_engine *e) { return sync_trimmed(&e->call_note, &e->call_note_text); }

/* Replaces the answer of question qi (the note is kept). custom may be NULL. */
static qt_status set_answer(qt_engine *e, size_t qi, const size_t *indices, size_t count, const char *custom,
                            size_t custom_len) {
  qt_answer *a = &e->answers[qi];
  size_t *idx = NULL;
  char *text = NULL;
  if (count && !(idx = malloc(count * sizeof *idx))) return QT_ERR_NOMEM;
  if (count) memcpy(idx, indices, count * sizeof *idx);
  if (custom && !(text = qt_dup_range(custom, custom_len))) {
    free(idx);
    return QT_ERR_NOMEM;
  }
  free(a->indices);
  free(a->custom);
  a->indices = idx;
  a->index_count = count;
  a->custom = text;
  a->present = count > 0 || text != NULL;
  a->skipped = QT_SKIP_NONE; /* an answer replaces a skip */
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

/* ---- the flow ------------------------------------------------------------------------------- */
void qt_finish(qt_engine *e, qt_outcome outcome) {
  for (size_t i = 0; i < e->req->question_count; i++) {
    qt_sync_note(e, i); /* best effort */
    if (i == 0) qt_sync_call_note(e);
    /* A remembered answer the person never took up is theirs only on an answer: a decline, a
     * timeout or a cancel carries nothing of it. */
    if (outcome != QT_ANSWERED && e->qs[i].earlier.present && !e->qs[i].touched) qt_answer_clear(&e->answers[i]);
    /* "then": "selected" sends what the person selected as theirs: an answer the model
     * pre-supplied that the person never took up is not theirs */
    if (outcome == QT_TIMED_OUT && e->clock_then == QT_TIMEOUT_SELECTED && !e->qs[i].touched && e->req->preset &&
        e->req->preset[i].present)
      qt_answer_clear(&e->answers[i]);
  }
  e->done = true;
  e->outcome = outcome;
  e->overlay = QT_OVERLAY_NONE;
  e->call_note_open = false;
}

/* Question qi got its answer: end a single question, else go on to the next unanswered. */
static void question_done(qt_engine *e, size_t qi) {
  e->qs[qi].touched = true;
  if (!e->multi) {
    qt_finish(e, QT_ANSWERED);
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
  if (outcome == QT_CANCELLED && !qt_editor_blank(&e->call_note)) return true; /* a cancel keeps no note on all */
  return outcome != QT_DISCUSS && !qt_editor_blank(&e->discuss);               /* words for the agent not sent */
}

/* Ends the call with `outcome` (after picking option `pick` of the current question, unless
 * SIZE_MAX), first asking "Discard …?" when answers given (`given`, on a cancel) or typed text
 * would be lost. */

static void request_cancel(qt_engine *e) {
  qt_end_call(e, QT_CANCELLED, e->multi ? qt_count_given(e) : 0, SIZE_MAX); /* allocates nothing */
}

static void request_decline(qt_engine *e) { qt_end_call(e, QT_DECLINED, 0, SIZE_MAX); }

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
    qt_end_call(e, QT_ANSWERED, 0, SIZE_MAX); /* allocates nothing */
    return;
  }
  qt_flash(e, QT_STYLE_WARNING, QT_STR_WARN_MISSING, 0, missing.failed ? "" : missing.data);
  qt_buf_free(&missing);
  e->current = first;
}

/* Enter on a typed answer of question qi (or confirming a multi-select question whose draft
 * changed). `confirmed`: the long-answer question was already answered yes. `close`: a
 * multi-select question is finished too (Enter); else its typed part changes and it stays open
 * (the "type" step of a face that shows the list again). */
qt_status qt_submit_typed(qt_engine *e, size_t qi, bool confirmed, bool close) {
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
    qt_flash(e, QT_STYLE_WARNING, QT_STR_WARN_EMPTY, 0, NULL);
    if (s->q->option_count) s->highlight = qt_list_rows(s) - 1;
    s->view = QT_VIEW_ENTRY;
    return QT_OK;
  }
  qt_typed_value typed;
  if (!qt_typed_read(s->q, text, len, &typed)) { /* a typed question: "Expected: A whole number (1–10)" */
    qt_buf hint;
    qt_buf_init(&hint);
    qt_typed_hint(s->q, e->lang, &hint);
    qt_flash(e, QT_STYLE_WARNING, QT_STR_TYPED_EXPECTED, 0, hint.data ? hint.data : "");
    qt_buf_free(&hint);
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
qt_status qt_pick_option(qt_engine *e, size_t qi, size_t k, bool confirmed) {
  if (!e->multi && !confirmed && typed_would_be_lost(e, QT_ANSWERED, k)) /* picking ends the call */
    return qt_end_call(e, QT_ANSWERED, 0, k);
  size_t idx = k + 1;
  qt_status st = set_answer(e, qi, &idx, 1, NULL, 0);
  if (st) return st;
  question_done(e, qi);
  return QT_OK;
}

qt_status qt_end_call(qt_engine *e, qt_outcome outcome, size_t given, size_t pick) {
  if (given || typed_would_be_lost(e, outcome, pick)) {
    e->overlay = QT_OVERLAY_DISCARD;
    e->overlay_n = given;
    e->overlay_then = outcome;
    e->overlay_pick = pick;
    return QT_OK;
  }
  if (pick != SIZE_MAX) return qt_pick_option(e, e->current, pick, true);
  qt_finish(e, outcome);
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
    qt_flash(e, QT_STYLE_SUCCESS, s->ticked[k] ? QT_STR_PLAIN_NOW_CHECKED : QT_STR_PLAIN_NOW_UNCHECKED, k + 1,
             s->opts[k].label);
  return st;
}

/* Enter on an option row of a multi-select question. */
static qt_status confirm_multi(qt_engine *e, size_t qi) {
  qt_qstate *s = &e->qs[qi];
  if (draft_pending(e, qi)) return qt_submit_typed(e, qi, false, true);
  if (e->answers[qi].skipped && tick_count(s)) { /* Enter on the ticks shown: they answer it, the skip goes */
    qt_status st = set_multi_answer(e, qi, NULL, 0);
    if (st) return st;
    question_done(e, qi);
    return QT_OK;
  }
  if (tick_count(s) || e->answers[qi].custom) {
    question_done(e, qi);
    return QT_OK;
  }
  qt_flash(e, QT_STYLE_WARNING, QT_STR_WARN_NOTHING_CHOSEN, 0, NULL);
  return QT_OK;
}

void qt_open_entry(qt_qstate *s) {
  s->view = QT_VIEW_ENTRY;
  s->highlight = qt_list_rows(s) - 1;
  s->draft.cursor = qt_editor_len(&s->draft);
  qt_keep_visible(s);
}

void qt_open_note(qt_qstate *s) {
  if (s->view == QT_VIEW_NOTE) return;
  s->note_return = s->view == QT_VIEW_FILTER ? QT_VIEW_LIST : s->view;
  s->view = QT_VIEW_NOTE;
  s->note.cursor = qt_editor_len(&s->note);
}

/* Question qi left unanswered on purpose with `why` (QT_SKIP_NONE: not skipped any more; a
 * multi-select question's ticks are its answer again). The draft, the ticks and the note stay. */
static qt_status skip_question(qt_engine *e, size_t qi, qt_skip why) {
  qt_answer *a = &e->answers[qi];
  qt_qstate *s = &e->qs[qi];
  if (why == QT_SKIP_NONE && (!a->present || !a->skipped)) return QT_OK; /* nothing changes: nothing touched */
  s->touched = true;
  if (why == QT_SKIP_NONE) {
    if (s->q->multi_select) return set_multi_answer(e, qi, NULL, 0);
    a->skipped = QT_SKIP_NONE;
    a->present = false;
    return QT_OK;
  }
  free(a->indices);
  free(a->custom);
  a->indices = NULL;
  a->index_count = 0;
  a->custom = NULL;
  a->present = true;
  a->skipped = (uint8_t)why;
  return QT_OK;
}

/* Next or previous tab, wrapping around (the review step is the last tab). */
qt_status qt_switch_question(qt_engine *e, int delta) {
  size_t n = e->req->question_count + 1;
  return qt_step_apply(e, QT_STEP_GO, delta > 0 ? (e->current + 1) % n : (e->current + n - 1) % n);
}

/* ---- the flow as steps ---------------------------------------------------------------------- */
static const char *const STEP_NAMES[QT_STEP_COUNT] = {
    [QT_STEP_PICK] = "pick",       [QT_STEP_TOGGLE] = "toggle",   [QT_STEP_TYPE] = "type",     [QT_STEP_NOTE] = "note",
    [QT_STEP_DISCUSS] = "discuss", [QT_STEP_DECLINE] = "decline", [QT_STEP_CANCEL] = "cancel", [QT_STEP_BACK] = "back",
    [QT_STEP_GO] = "go",           [QT_STEP_SUBMIT] = "submit",   [QT_STEP_FILTER] = "filter", [QT_STEP_YES] = "yes",
    [QT_STEP_NO] = "no",           [QT_STEP_DRAFT] = "draft",     [QT_STEP_SKIP] = "skip",
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

qt_status qt_step_apply(qt_engine *e, qt_step st, size_t k) {
  if (!qt_step_live(e, st)) { /* a key handler that disagrees with live_mask: a bug, refused all the same */
    refuse_not_live(e);
    return QT_ERR_STATE;
  }
  size_t qi = e->current;
  qt_qstate *s = qi < e->req->question_count ? &e->qs[qi] : NULL;
  switch (st) {
    case QT_STEP_PICK: return qt_pick_option(e, qi, k, false);
    case QT_STEP_TOGGLE: return toggle_option(e, qi, k);
    case QT_STEP_TYPE: return qt_submit_typed(e, qi, false, k != 1);
    case QT_STEP_NOTE: /* the note's editor holds the text; on the review, the call's note */
      return s ? qt_sync_note(e, qi) : qt_sync_call_note(e);
    case QT_STEP_DRAFT: return QT_OK; /* held in the field: nothing is answered */
    case QT_STEP_DISCUSS: return qt_send_discussion(e);
    case QT_STEP_DECLINE: request_decline(e); return QT_OK;
    case QT_STEP_CANCEL: request_cancel(e); return QT_OK;
    case QT_STEP_BACK:
      if (e->call_note_open) {
        e->call_note_open = false;
        return qt_sync_call_note(e);
      }
      if (e->discuss_open)
        e->discuss_open = false;
      else if (s->view == QT_VIEW_NOTE)
        s->view = s->note_return;
      else if (s->view == QT_VIEW_FILTER) {
        qt_clear_filter(s);
        s->view = QT_VIEW_LIST;
      } else if (s->view == QT_VIEW_ENTRY)
        s->view = QT_VIEW_LIST;
      else
        qt_clear_filter(s);
      return QT_OK;
    case QT_STEP_GO: e->current = k; return QT_OK;
    case QT_STEP_SUBMIT:
      if (!s) {
        submit_review(e);
        return QT_OK;
      }
      return confirm_multi(e, qi);
    case QT_STEP_FILTER: return qt_apply_filter(s); /* the filter's editor holds the text */
    case QT_STEP_YES: return qt_answer_overlay(e, true);
    case QT_STEP_NO: return qt_answer_overlay(e, false);
    case QT_STEP_SKIP: /* k: 0 the next of skipped, "in the chat", not skipped; else qt_skip + 1 */
      if (k == 0) {
        const qt_answer *a = &e->answers[qi];
        return skip_question(e, qi, (qt_skip)((a->present ? a->skipped + 1 : 1) % QT_SKIP_COUNT));
      }
      return k <= QT_SKIP_COUNT ? skip_question(e, qi, (qt_skip)(k - 1)) : QT_ERR_USAGE;
    default: return QT_ERR_USAGE;
  }
}

/* Replaces an editor's text with a face's (cleaned as typed text is); refused whole, the editor
 * unchanged, when it is over the field's limit. */
static qt_status replace_text(qt_engine *e, qt_editor *ed, const char *text, size_t len) {
  qt_editor fresh;
  qt_editor_init(&fresh, ed->limit, ed->multiline);
  fresh.masked = ed->masked;
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

qt_status qt_engine_act(qt_engine *e, qt_step st, size_t index, const char *text, size_t len) {
  if (!e) return QT_ERR_USAGE;
  e->act_why[0] = '\0';
  if ((int)st < 0 || st >= QT_STEP_COUNT || (len && !text)) {
    snprintf(e->act_why, sizeof e->act_why, "no such step, or text without its bytes");
    return QT_ERR_USAGE;
  }
  if (!qt_step_live(e, st)) {
    refuse_not_live(e);
    return QT_ERR_STATE;
  }
  size_t n = e->req->question_count, qi = e->current;
  qt_qstate *s = qi < n ? &e->qs[qi] : NULL;
  /* Refusals first, so that a refused step changes nothing at all. */
  if (index == QT_NO_INDEX && (st == QT_STEP_PICK || st == QT_STEP_TOGGLE || st == QT_STEP_GO)) {
    refuse(e, st == QT_STEP_GO ? QT_STR_STEP_NOT_NOW : QT_STR_STEP_CHOOSE_FIRST, 0, NULL);
    return QT_ERR_USAGE;
  }
  switch (st) {
    case QT_STEP_PICK:
    case QT_STEP_TOGGLE:
      if (index >= s->q->option_count) {
        refuse(e, QT_STR_WARN_NO_OPTION, index + 1, NULL);
        return QT_ERR_USAGE;
      }
      if (st == QT_STEP_TOGGLE && text) {
        /* the state wanted, not a flip: two faces ticking one option at once both mean ticked */
        bool on = len == 6 && memcmp(text, "ticked", 6) == 0;
        if (!on && !(len == 8 && memcmp(text, "unticked", 8) == 0)) {
          snprintf(e->act_why, sizeof e->act_why, "a toggle's text is \"ticked\", \"unticked\" or none");
          return QT_ERR_USAGE;
        }
        if (s->ticked[index] == on) return QT_OK; /* already so: nothing changes */
        text = NULL;
        len = 0;
      }
      break;
    case QT_STEP_TYPE: {
      if (blank(text, len) && !s->q->multi_select) {
        refuse(e, QT_STR_STEP_EMPTY, 0, NULL);
        return QT_ERR_USAGE;
      }
      size_t at = 0, n = len; /* a typed question's answer reads as its type, or is refused whole */
      while (at < n && (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r')) at++;
      while (n > at && (text[n - 1] == ' ' || text[n - 1] == '\t' || text[n - 1] == '\n' || text[n - 1] == '\r')) n--;
      qt_typed_value typed;
      if (n > at && !qt_typed_read(s->q, text + at, n - at, &typed)) {
        qt_buf hint;
        qt_buf_init(&hint);
        qt_typed_hint(s->q, e->lang, &hint);
        refuse(e, QT_STR_TYPED_EXPECTED, 0, hint.data ? hint.data : "");
        qt_buf_free(&hint);
        return QT_ERR_USAGE;
      }
      break;
    }
    case QT_STEP_DISCUSS:
      if (text && blank(text, len)) {
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
    case QT_STEP_SKIP:
      index = 0; /* no text: the next, as the key */
      if (text) {
        static const char *const WHY[QT_SKIP_COUNT] = {"none", "skipped", "chat"};
        for (size_t w = 0; w < QT_SKIP_COUNT && !index; w++)
          if (len == strlen(WHY[w]) && memcmp(text, WHY[w], len) == 0) index = w + 1;
        if (!index) {
          snprintf(e->act_why, sizeof e->act_why, "a skip's text is \"skipped\", \"chat\", \"none\" or none");
          return QT_ERR_USAGE;
        }
      }
      break;
    default: break;
  }
  /* A step starts from what the last frame showed, as a key does. (Text over its field's limit
   * is refused below, after this: what was adopted is only what the person already saw.) */
  qt_adopt_layout(e);
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
          qt_clear_filter(s);
        else
          s->highlight = row;
      }
      if (!s->filter_on) s->highlight = index;
      qt_keep_visible(s);
      break;
    case QT_STEP_TYPE:
      r = replace_text(e, &s->draft, text, len);
      index = s->q->multi_select ? 1 : 0; /* a multi-select question stays open */
      break;
    case QT_STEP_NOTE: r = replace_text(e, s ? &s->note : &e->call_note, text, len); break;
    case QT_STEP_DRAFT: r = replace_text(e, &s->draft, text, len); break;
    case QT_STEP_DISCUSS:
      if (text) r = replace_text(e, &e->discuss, text, len);
      break;
    case QT_STEP_FILTER: r = replace_text(e, &s->filter, text, len); break;
    default: break;
  }
  if (r) return r;
  if (e->flash.len) qt_buf_reset(&e->flash);
  if (e->clock_on) qt_clock_stop(e); /* the person replied: the timeout stops for good, as on a key */
  if (st == QT_STEP_DISCUSS && !text) {
    /* talk first as a mode: the field, as Ctrl+T opens it; already open, nothing changes (a
     * face acting on a stale view never sends words the person has not sent) */
    if (!e->discuss_open) qt_open_discussion(e);
  } else
    r = qt_step_apply(e, st, index);
  qt_touch(e);
  return r;
}
