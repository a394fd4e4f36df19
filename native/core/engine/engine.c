/* engine.c — the interaction engine's state (qt_engine.h): creation from a request, host
 * configuration, the list of one question and its filter, the one-shot message, memory, the
 * renderers' memory, the external editor and the project's remembered answers. What each key does is
 * engine_keys.c, the steps of the flow engine_steps.c, what is live now engine_live.c, the
 * person's timeout engine_clock.c; frames are drawn and cached, and the host's screen kept, in
 * render/ (render_screen.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

/* ---- small helpers ------------------------------------------------------------------------ */
char *qt_dup_range(const char *s, size_t n) {
  char *p = malloc(n + 1);
  if (!p) return NULL;
  if (n) memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

/* Sanitized model text into *out (NULL stays NULL, unless `empty` asks for ""): `in` itself when
 * sanitizing leaves it as it is — the request, which holds it, outlives the engine, and most text
 * needs no change — else a copy. Free it with qt_free_text(out, in). A copy for each string of a
 * call was about a third of an engine's memory, which matters when engines are dropped rather
 * than disposed and pile up until the garbage collector gets to them. `scratch` is
 * reused between calls. */
static qt_status sanitized(qt_buf *scratch, const char *in, unsigned flags, bool empty, char **out) {
  *out = NULL;
  if (!in && !empty) return QT_OK;
  size_t len = in ? strlen(in) : 0;
  if (in && qt_sanitize_unchanged(in, len, flags)) {
    *out = (char *)in; /* never written through: display text is only read */
    return QT_OK;
  }
  qt_buf_reset(scratch);
  qt_sanitize(scratch, in ? in : "", len, flags);
  if (scratch->failed) return QT_ERR_NOMEM;
  if (in && scratch->len == len && (!len || memcmp(scratch->data, in, len) == 0)) {
    *out = (char *)in; /* never written through: display text is only read */
    return QT_OK;
  }
  *out = qt_dup_range(scratch->data ? scratch->data : "", scratch->len);
  return *out ? QT_OK : QT_ERR_NOMEM;
}

/* Frees display text made by sanitized() or shortened() from `from`, unless it is `from` itself. */
void qt_free_text(char *text, const char *from) {
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

void qt_touch(qt_engine *e) { e->revision++; }

/* ---- the list of one question --------------------------------------------------------------- */
size_t qt_list_rows(const qt_qstate *s) { return (s->filter_on ? s->shown_count : s->q->option_count) + 1; }

size_t qt_list_option_at(const qt_qstate *s, size_t row) {
  size_t n = s->filter_on ? s->shown_count : s->q->option_count;
  if (row >= n) return SIZE_MAX;
  return s->filter_on ? s->shown[row] : row;
}

/* Keeps the highlighted row inside the list and inside the window. */
void qt_keep_visible(qt_qstate *s) {
  size_t rows = qt_list_rows(s), win = QT_LIST_WINDOW;
  if (s->highlight >= rows) s->highlight = rows - 1;
  if (s->scroll > s->highlight) s->scroll = s->highlight;
  if (s->highlight >= s->scroll + win) s->scroll = s->highlight - win + 1;
  if (s->scroll + win > rows) s->scroll = rows > win ? rows - win : 0;
}

/* Simple case folding: ASCII, Latin-1, Greek and Cyrillic capitals. */
uint32_t qt_fold_cp(uint32_t cp) {
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
    if (!qt_buf_put_cp(out, qt_fold_cp(cp))) return false;
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
qt_status qt_apply_filter(qt_qstate *s) {
  if (qt_editor_len(&s->filter) == 0) {
    size_t opt = qt_list_option_at(s, s->highlight);
    s->filter_on = false;
    s->highlight = opt == SIZE_MAX ? s->q->option_count : opt;
    qt_keep_visible(s);
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
  qt_keep_visible(s);
  return QT_OK;
}

void qt_clear_filter(qt_qstate *s) {
  qt_editor_clear(&s->filter);
  qt_apply_filter(s); /* an empty filter allocates nothing */
}

/* ---- messages ------------------------------------------------------------------------------- */
/* Sets the one-shot message: template `id` with {n} and {s} filled in. */
void qt_flash(qt_engine *e, qt_style style, qt_string_id id, size_t n, const char *s) {
  qt_buf_reset(&e->flash);
  e->flash_style = style;
  if (!qt_format(&e->flash, qt_str(e, id), n, s)) qt_buf_reset(&e->flash); /* a lost message loses no data */
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
    [QT_ACT_SKIP] = {"ctrl+s"},
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
    ks->mods[ks->count++] = (uint8_t)mods; /* qt_mod bits: the low four */
  }
  return unknown;
}

/* Sanitized display text and editing state of question i. */
static qt_status init_question(qt_engine *e, size_t i, qt_buf *scratch) {
  qt_qstate *s = &e->qs[i];
  const qt_question *q = &e->req->questions[i];
  qt_status st;
  s->q = q;
  qt_editor_init(&s->draft, QT_MAX_ANSWER_BYTES, true); /* a secret may span lines too (a PEM key) */
  s->draft.masked = q->secret;
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
  /* the highlight starts on the option labelled "(Recommended)", so Enter takes the recommendation */
  size_t recommended = qt_recommended_option(q);
  if (recommended < q->option_count) s->highlight = recommended;
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
  qt_keep_visible(s);
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
  qt_editor_init(&e->call_note, QT_MAX_NOTE_BYTES, false);
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
    if (!(e->style_open[s] = qt_dup_range("", 0)) || !(e->style_close[s] = qt_dup_range("", 0))) goto fail;
  if (!(e->cursor_marker = qt_dup_range("", 0))) goto fail;
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
      qt_free_text(s->tab, s->label);
      qt_free_text(s->prompt, q->prompt);
      qt_free_text(s->label, q->label);
      if (s->opts) {
        for (size_t k = 0; k < q->option_count; k++) {
          qt_free_text(s->opts[k].label, q->options[k].label);
          qt_free_text(s->opts[k].description, q->options[k].description);
          qt_free_text(s->opts[k].preview, q->options[k].preview);
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
  qt_editor_free(&e->call_note);
  free(e->call_note_text);
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
  char *o = qt_dup_range(open, strlen(open)), *c = qt_dup_range(close, strlen(close));
  if (!o || !c) {
    free(o);
    free(c);
    return QT_ERR_NOMEM;
  }
  free(e->style_open[style]);
  free(e->style_close[style]);
  e->style_open[style] = o;
  e->style_close[style] = c;
  qt_draw_forget_kept(&e->draw); /* what it kept was drawn in the old style */
  qt_touch(e);
  return QT_OK;
}

bool qt_engine_first_keys_default(const qt_engine *e) {
  for (int a = 0; a < QT_ACT_COUNT; a++) {
    if (a == QT_ACT_ASIDE) continue; /* the host's own key, said after the sentences when bound */
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

/* After any change of the keys: the help line kept names the old ones. */
static void keys_changed(qt_engine *e) {
  qt_buf_reset(&e->draw.help_key);
  qt_touch(e);
}

qt_status qt_engine_bind(qt_engine *e, qt_action action, const char *const *keys, size_t count, size_t *unknown) {
  if (unknown) *unknown = 0;
  if (!e || (int)action < 0 || action >= QT_ACT_COUNT || (count && !keys)) return QT_ERR_USAGE;
  size_t bad = parse_keys(&e->keys[action], keys, count);
  if (unknown) *unknown = bad;
  keys_changed(e);
  return QT_OK;
}

qt_status qt_engine_copy_styles(qt_engine *to, const qt_engine *from) {
  if (!to || !from) return QT_ERR_USAGE;
  if (to == from) return QT_OK;
  char *open[QT_STYLE_COUNT] = {0}, *close[QT_STYLE_COUNT] = {0};
  bool ok = true;
  for (int i = 0; ok && i < QT_STYLE_COUNT; i++) { /* checked when they were set on `from` */
    const char *o = from->style_open[i] ? from->style_open[i] : "",
               *c = from->style_close[i] ? from->style_close[i] : "";
    ok = (open[i] = qt_dup_range(o, strlen(o))) && (close[i] = qt_dup_range(c, strlen(c)));
  }
  if (!ok) {
    for (int i = 0; i < QT_STYLE_COUNT; i++) free(open[i]), free(close[i]);
    return QT_ERR_NOMEM;
  }
  for (int i = 0; i < QT_STYLE_COUNT; i++) {
    free(to->style_open[i]);
    free(to->style_close[i]);
    to->style_open[i] = open[i];
    to->style_close[i] = close[i];
  }
  qt_draw_forget_kept(&to->draw); /* what it kept was drawn in the old styles */
  qt_touch(to);
  return QT_OK;
}

qt_status qt_engine_copy_keys(qt_engine *to, const qt_engine *from) {
  if (!to || !from) return QT_ERR_USAGE;
  if (to == from) return QT_OK;
  memcpy(to->keys, from->keys, sizeof to->keys);
  keys_changed(to);
  return QT_OK;
}

qt_status qt_engine_set_cursor_marker(qt_engine *e, const char *marker) {
  if (!e) return QT_ERR_USAGE;
  if (!marker) marker = "";
  if (!zero_width(marker)) return QT_ERR_USAGE;
  char *m = qt_dup_range(marker, strlen(marker));
  if (!m) return QT_ERR_NOMEM;
  free(e->cursor_marker);
  e->cursor_marker = m;
  qt_touch(e);
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
  qt_touch(e);
  return QT_OK;
}

qt_status qt_engine_set_language(qt_engine *e, qt_language lang) {
  if (!e || (int)lang < 0 || lang >= QT_LANG_COUNT) return QT_ERR_USAGE;
  e->lang = lang;
  qt_draw_forget_kept(&e->draw); /* the help line and "Something else…" kept are in the old language */
  qt_touch(e);
  return QT_OK;
}

qt_language qt_engine_language(const qt_engine *e) { return e ? e->lang : QT_LANG_EN; }

/* ---- running -------------------------------------------------------------------------------- */
void qt_engine_set_whole_keys(qt_engine *e, bool on) {
  if (e) qt_decoder_set_whole_keys(e->decoder, on);
}

bool qt_engine_pending(const qt_engine *e) { return e && !e->done && qt_decoder_pending(e->decoder); }

void qt_engine_interrupt(qt_engine *e) {
  if (!e || e->done) return;
  qt_finish(e, QT_INTERRUPTED);
  qt_touch(e);
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

qt_outcome qt_engine_outcome(const qt_engine *e) { return e ? e->outcome : QT_CANCELLED; }
const qt_answer *qt_engine_answers(const qt_engine *e) { return e ? e->answers : NULL; }
uint64_t qt_engine_revision(const qt_engine *e) { return e ? e->revision : 0; }

/* ---- the renderers' memory ---------------------------------------------------------------- */
/* The frame and the caches the renderers keep (render/) live in the engine, which frees them. */
size_t qt_draw_bytes(const qt_draw *d) {
  size_t n = qt_lines_bytes(&d->frame) + qt_lines_bytes(&d->scratch[0]) + qt_lines_bytes(&d->scratch[1]);
  n += qt_lines_bytes(&d->measure) + d->cell_text.cap + qt_editor_bytes(&d->mask);
  n += d->pv.cap * (sizeof *d->pv.start + sizeof *d->pv.end + sizeof *d->pv.width); /* the preview's layout */
  for (size_t i = 0; i < QT_WRAP_SLOTS; i++) n += d->wraps[i].text.cap + 2 * d->wraps[i].cap * sizeof(size_t);
  n += 2 * d->relaid.cap * sizeof(size_t);
  n += d->help_key.cap + qt_lines_bytes(&d->help_lines);
  for (size_t i = 0; i < QT_ROW_SLOTS; i++) n += d->rows[i].bytes.cap;
  return n;
}

void qt_draw_forget_kept(qt_draw *d) {
  qt_buf_reset(&d->help_key);
  for (size_t i = 0; i < QT_ROW_SLOTS; i++) d->rows[i].valid = false;
}

void qt_draw_free(qt_draw *d) {
  qt_lines_free(&d->frame);
  qt_lines_free(&d->scratch[0]);
  qt_lines_free(&d->scratch[1]);
  qt_lines_free(&d->measure);
  qt_lines_free(&d->help_lines);
  qt_buf_free(&d->help_key);
  for (size_t i = 0; i < QT_ROW_SLOTS; i++) qt_buf_free(&d->rows[i].bytes);
  qt_buf_free(&d->cell_text);
  qt_editor_free(&d->mask);
  free(d->pv.start);
  free(d->pv.end);
  free(d->pv.width);
  free(d->relaid.start);
  free(d->relaid.reach);
  for (size_t i = 0; i < QT_WRAP_SLOTS; i++) {
    qt_buf_free(&d->wraps[i].text);
    free(d->wraps[i].start);
    free(d->wraps[i].reach);
  }
  memset(d, 0, sizeof *d);
}

qt_string_id qt_confirm_string(const qt_engine *e) {
  return e->overlay == QT_OVERLAY_LONG ? QT_STR_CONFIRM_LONG
         : e->overlay_n == 0           ? QT_STR_CONFIRM_DISCARD_TEXT
         : e->overlay_n == 1           ? QT_STR_CONFIRM_DISCARD_ONE
                                       : QT_STR_CONFIRM_DISCARD_MANY;
}

/* ---- accessible mode ------------------------------------------------------------------------- */
qt_status qt_engine_set_accessible(qt_engine *e, bool on) {
  if (!e) return QT_ERR_USAGE;
  e->accessible = on;
  qt_touch(e);
  return QT_OK;
}

/* ---- stepping aside -------------------------------------------------------------------------- */
bool qt_engine_take_aside(qt_engine *e) {
  if (!e || !e->aside_want) return false;
  e->aside_want = false;
  return !e->done;
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
  qt_touch(e);
  if (!ed) return QT_OK;
  if (!ok) {
    qt_flash(e, QT_STYLE_WARNING, QT_STR_EDITOR_FAILED, 0, why && *why ? why : "?");
    return QT_OK;
  }
  /* editors end the file with a line break: one is dropped, as pi's own editor does */
  if (len && text[len - 1] == '\n') len--;
  if (len && text[len - 1] == '\r') len--;
  qt_editor fresh;
  qt_editor_init(&fresh, ed->limit, ed->multiline);
  fresh.masked = ed->masked;
  bool cut = false;
  qt_status st = qt_editor_insert(&fresh, text ? text : "", len, &cut);
  if (st) {
    qt_editor_free(&fresh);
    qt_flash(e, QT_STYLE_WARNING, QT_STR_EDITOR_FAILED, 0, "out of memory");
    return st; /* the field is as it was */
  }
  qt_editor_free(ed);
  *ed = fresh;
  ed->cursor = qt_editor_len(ed);
  if (cut) qt_flash(e, QT_STYLE_WARNING, QT_STR_WARN_CUT, ed->limit, NULL);
  if (want == 2) return qt_sync_note(e, e->current);
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
  char *shown = NULL, *date = qt_dup_range(when, date_len);
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
  qt_keep_visible(s);
  qt_touch(e);
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

const char *qt_engine_call_note(const qt_engine *e) { return e ? e->call_note_text : NULL; }

qt_string_id qt_skip_line(const qt_engine *e) {
  if (!e || e->current >= e->req->question_count) return QT_STR_COUNT;
  const qt_answer *a = &e->answers[e->current];
  return !a->present || !a->skipped      ? QT_STR_COUNT
         : a->skipped == QT_SKIP_SKIPPED ? QT_STR_SKIPPED_LINE
                                         : QT_STR_CHAT_LINE;
}

const char *qt_engine_earlier_line(const qt_engine *e) {
  if (!e || e->current >= e->req->question_count) return NULL;
  return e->qs[e->current].earlier_line;
}
