/* editor.c — the line editor of typed answers, notes and filters (see editor.h): cleaning
 * input on the way in, moving and deleting by grapheme cluster and by word. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "editor.h"

/* ---- character classes ------------------------------------------------------------------ */
bool qt_editor_is_space(uint32_t cp) {
  if (cp > ' ' && cp < 0x85) return false; /* the common case: printable ASCII */
  return cp == ' ' || (cp >= 0x09 && cp <= 0x0D) || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
         (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

/* pi-tui's punctuation set for word movement. */
static bool is_punct(uint32_t cp) {
  /* one bit per character: ( ) { } [ ] < > . , ; : ' " ! ? + - = * / \ | & % ^ $ # @ ~ ` */
  static const uint64_t bits[2] = {0xfc00fffe00000000ull, 0x7800000178000001ull};
  return cp < 0x80 && (bits[cp >> 6] >> (cp & 63) & 1);
}

/* Start of the code point that ends at pos (pos > 0). */
static size_t cp_start(const char *s, size_t pos) {
  size_t p = pos - 1;
  while (p > 0 && pos - p < 4 && ((unsigned char)s[p] & 0xC0) == 0x80) p--;
  return p;
}

static uint32_t cp_at(const char *s, size_t len, size_t pos) {
  size_t adv;
  return qt_utf8_decode_fast(s + pos, len - pos, &adv);
}

/* ---- grapheme stepping ------------------------------------------------------------------
 * Both directions cost what they step over: forward from a boundary, back by deciding each
 * boundary locally (qt_grapheme_prev), never by rescanning from the start of the text. */
static size_t next_g(const qt_editor *ed, size_t pos) {
  size_t n = qt_grapheme_next(ed->text.data, ed->text.len, pos);
  return n > pos ? n : pos + 1;
}

static size_t prev_g(qt_editor *ed, size_t pos) {
  return qt_grapheme_prev(ed->text.data, ed->text.len, pos, &ed->memo, NULL);
}

/* Class of a grapheme by its first code point: 0 white space, 1 punctuation, 2 word. */
static int class_of(uint32_t cp) { return qt_editor_is_space(cp) ? 0 : is_punct(cp) ? 1 : 2; }

/* Start of the grapheme before pos, and its class in *cls. */
static size_t prev_class(qt_editor *ed, size_t pos, int *cls) {
  uint32_t first;
  size_t p = qt_grapheme_prev(ed->text.data, ed->text.len, pos, &ed->memo, &first);
  *cls = class_of(first);
  return p;
}

/* The text changed at or after `at`: what stepping back learned before it still holds. */
static void changed(qt_editor *ed, size_t at) { qt_seg_memo_changed(&ed->memo, at); }

/* Class of the grapheme starting at pos: 0 white space, 1 punctuation, 2 word. */
static int class_at(const qt_editor *ed, size_t pos) { return class_of(cp_at(ed->text.data, ed->text.len, pos)); }

/* A run of word graphemes (class 2) is scanned code point by code point: a grapheme's class is
 * that of its first code point, so the run ends only at a white-space or punctuation code point
 * that starts a grapheme, and only there is a boundary decided. (A word is most of a long text:
 * this keeps Alt+B / Alt+F / Ctrl+W / Alt+D over 100 KB well under a millisecond.) */

/* Start of the run of word graphemes that ends with the one starting at pos. */
static size_t word_run_start(qt_editor *ed, size_t pos) {
  const char *s = ed->text.data;
  size_t len = ed->text.len, x = pos, looked = 0, start = 0;
  while (x > 0) {
    size_t p = x - 1, adv;
    while (p > 0 && x - p < 4 && ((unsigned char)s[p] & 0xC0) == 0x80) p--;
    uint32_t cp = qt_utf8_decode_fast(s + p, len - p, &adv);
    if (p + adv != x) { /* not a whole code point: its last byte is one of its own */
      p = x - 1;
      cp = qt_utf8_decode_fast(s + p, len - p, &adv);
    }
    looked++;
    if (class_of(cp) != 2 && qt_grapheme_boundary(s, len, p, &ed->memo)) { /* the grapheme before the run */
      start = qt_grapheme_next(s, len, p);
      break;
    }
    x = p;
  }
  qt_text_add_work(looked);
  return start;
}

/* End of the run of word graphemes that starts with the one at pos. */
static size_t word_run_end(qt_editor *ed, size_t pos) {
  const char *s = ed->text.data;
  size_t len = ed->text.len, x = pos, adv, looked = 0;
  qt_utf8_decode_fast(s + x, len - x, &adv); /* the run's first code point */
  for (x += adv; x < len; x += adv) {
    uint32_t cp = qt_utf8_decode_fast(s + x, len - x, &adv);
    looked++;
    if (class_of(cp) != 2 && qt_grapheme_boundary(s, len, x, &ed->memo)) break;
  }
  qt_text_add_work(looked);
  return x < len ? x : len;
}

/* Back over white space, then over the graphemes of the class before it. Each grapheme is
 * stepped over once (and the one that ends the word looked at once). */
static size_t word_left_of(qt_editor *ed, size_t pos) {
  size_t p = 0;
  int cls = 0, c;
  while (pos > 0) {
    p = prev_class(ed, pos, &cls);
    if (cls != 0) break;
    pos = p;
  }
  if (pos == 0) return 0;
  if (cls == 2) return word_run_start(ed, p);
  pos = p;
  while (pos > 0) {
    p = prev_class(ed, pos, &c);
    if (c != cls) break;
    pos = p;
  }
  return pos;
}

static size_t word_right_of(qt_editor *ed, size_t pos) {
  size_t len = ed->text.len;
  while (pos < len && class_at(ed, pos) == 0) pos = next_g(ed, pos);
  if (pos < len) {
    int cls = class_at(ed, pos);
    if (cls == 2) return word_run_end(ed, pos);
    while (pos < len && class_at(ed, pos) == cls) pos = next_g(ed, pos);
  }
  return pos;
}

/* Start and end of the logical line around pos (lines end at '\n'). */
static size_t line_start(const qt_editor *ed, size_t pos) {
  while (pos > 0 && ed->text.data[pos - 1] != '\n') pos--;
  return pos;
}

static size_t line_end(const qt_editor *ed, size_t pos) {
  if (pos >= ed->text.len) return ed->text.len;
  const char *nl = memchr(ed->text.data + pos, '\n', ed->text.len - pos);
  return nl ? (size_t)(nl - ed->text.data) : ed->text.len;
}

/* ---- life cycle --------------------------------------------------------------------------- */
void qt_editor_init(qt_editor *ed, size_t limit, bool multiline) {
  qt_buf_init(&ed->text);
  ed->memo = (qt_seg_memo){0};
  ed->cursor = 0;
  ed->limit = limit;
  ed->multiline = multiline;
  ed->masked = false; /* a secret's editor is masked by its owner */
}

void qt_editor_free(qt_editor *ed) {
  qt_buf_free(&ed->text);
  ed->memo = (qt_seg_memo){0};
  ed->cursor = 0;
}

void qt_editor_clear(qt_editor *ed) {
  qt_buf_reset(&ed->text);
  changed(ed, 0);
  ed->cursor = 0;
}

/* ---- inserting ---------------------------------------------------------------------------- */
/* Appends the cleaned form of s[0..n) to out, stopping before `room` bytes are passed. Runs of
 * bytes that stay as they are (printable text, tabs, kept newlines) are copied in one go. */
static bool clean_into(qt_buf *out, const char *s, size_t n, bool multiline, size_t room, bool *cut) {
  size_t i = 0, run = 0; /* s[run, i) is copied as it is */
  while (i < n) {
    unsigned char b = (unsigned char)s[i];
    size_t adv = 1;
    uint32_t cp = b;
    bool keep;
    if (b >= 0x20 && b < 0x7F) {
      keep = true;
    } else if (b >= 0x80) {
      cp = qt_utf8_decode_fast(s + i, n - i, &adv);
      keep = !(cp == 0xFFFD && adv == 1) && !(cp >= 0x80 && cp <= 0x9F); /* valid, not C1 */
    } else {
      keep = b == '\t' || (b == '\n' && multiline);
    }
    if (keep) {
      if (out->len + (i - run) + adv > room) { /* the limit: cut at a character boundary */
        *cut = true;
        break;
      }
      i += adv;
      continue;
    }
    if (i > run && !qt_buf_append(out, s + run, i - run)) return false;
    if (b == '\r') {
      if (i + 1 < n && s[i + 1] == '\n') adv = 2;
      cp = '\n';
    }
    i += adv;
    run = i;
    if (cp == '\n') {
      cp = multiline ? '\n' : ' ';
    } else if (cp != 0xFFFD) {
      continue; /* a control character: dropped */
    }
    size_t need = cp < 0x80 ? 1 : 3; /* a newline, a space or U+FFFD */
    if (out->len + need > room) {
      *cut = true;
      return true;
    }
    if (!qt_buf_put_cp(out, cp)) return false;
  }
  if (i > run && !qt_buf_append(out, s + run, i - run)) return false;
  return true;
}

qt_status qt_editor_insert(qt_editor *ed, const char *s, size_t n, bool *cut) {
  bool was_cut = false;
  if (cut) *cut = false;
  if (!n) return QT_OK;
  size_t room = ed->limit > ed->text.len ? ed->limit - ed->text.len : 0;
  qt_buf clean;
  qt_buf_init(&clean);
  if (!clean_into(&clean, s, n, ed->multiline, room, &was_cut) || clean.failed) {
    qt_buf_free(&clean);
    return QT_ERR_NOMEM;
  }
  if (clean.len) {
    if (!qt_buf_reserve(&ed->text, clean.len)) {
      ed->text.failed = false; /* the text itself is intact: keep it usable */
      qt_buf_free(&clean);
      return QT_ERR_NOMEM;
    }
    char *d = ed->text.data;
    memmove(d + ed->cursor + clean.len, d + ed->cursor, ed->text.len - ed->cursor);
    memcpy(d + ed->cursor, clean.data, clean.len);
    ed->text.len += clean.len;
    d[ed->text.len] = '\0';
    changed(ed, ed->cursor);
    ed->cursor += clean.len;
  }
  qt_buf_free(&clean);
  if (cut) *cut = was_cut;
  return QT_OK;
}

bool qt_editor_mask(const qt_editor *ed, qt_editor *out) {
  static const char BULLET[] = "\xE2\x80\xA2"; /* U+2022 */
  const char *s = qt_editor_text(ed);
  size_t n = qt_editor_len(ed), cursor = 0;
  qt_buf_reset(&out->text);
  qt_seg_memo_changed(&out->memo, 0);
  for (size_t i = 0; i < n; i++) {
    if (((unsigned char)s[i] & 0xC0) == 0x80) continue; /* a code point's later bytes */
    if (i < ed->cursor) cursor += sizeof BULLET - 1;
    qt_buf_append(&out->text, BULLET, sizeof BULLET - 1);
  }
  out->cursor = cursor;
  out->multiline = false;
  return !out->text.failed;
}

qt_status qt_editor_set(qt_editor *ed, const char *s, size_t n) {
  qt_editor fresh;
  qt_editor_init(&fresh, ed->limit, ed->multiline);
  fresh.masked = ed->masked;
  qt_status st = qt_editor_insert(&fresh, s, n, NULL);
  if (st) {
    qt_editor_free(&fresh);
    return st;
  }
  qt_editor_free(ed);
  *ed = fresh;
  return QT_OK;
}

/* ---- deleting ----------------------------------------------------------------------------- */
static bool erase(qt_editor *ed, size_t from, size_t to) {
  if (to <= from) return false;
  char *d = ed->text.data;
  memmove(d + from, d + to, ed->text.len - to);
  ed->text.len -= to - from;
  d[ed->text.len] = '\0';
  ed->cursor = from;
  changed(ed, from);
  return true;
}

bool qt_editor_delete_back(qt_editor *ed) { return ed->cursor > 0 && erase(ed, prev_g(ed, ed->cursor), ed->cursor); }

bool qt_editor_delete_forward(qt_editor *ed) {
  return ed->cursor < ed->text.len && erase(ed, ed->cursor, next_g(ed, ed->cursor));
}

bool qt_editor_delete_word_back(qt_editor *ed) { return erase(ed, word_left_of(ed, ed->cursor), ed->cursor); }

bool qt_editor_delete_word_forward(qt_editor *ed) { return erase(ed, ed->cursor, word_right_of(ed, ed->cursor)); }

bool qt_editor_delete_to_start(qt_editor *ed) { return erase(ed, line_start(ed, ed->cursor), ed->cursor); }

bool qt_editor_delete_to_end(qt_editor *ed) {
  size_t end = line_end(ed, ed->cursor);
  if (end <= ed->cursor) return false;
  size_t keep = ed->cursor;
  erase(ed, ed->cursor, end);
  ed->cursor = keep;
  return true;
}

/* ---- moving ------------------------------------------------------------------------------- */
static bool move_to(qt_editor *ed, size_t pos) {
  if (pos == ed->cursor) return false;
  ed->cursor = pos;
  return true;
}

bool qt_editor_left(qt_editor *ed) { return ed->cursor > 0 && move_to(ed, prev_g(ed, ed->cursor)); }
bool qt_editor_right(qt_editor *ed) { return ed->cursor < ed->text.len && move_to(ed, next_g(ed, ed->cursor)); }
bool qt_editor_word_left(qt_editor *ed) { return move_to(ed, word_left_of(ed, ed->cursor)); }
bool qt_editor_word_right(qt_editor *ed) { return move_to(ed, word_right_of(ed, ed->cursor)); }
bool qt_editor_home(qt_editor *ed) { return move_to(ed, line_start(ed, ed->cursor)); }
bool qt_editor_end(qt_editor *ed) { return move_to(ed, line_end(ed, ed->cursor)); }

/* ---- reading ------------------------------------------------------------------------------ */
void qt_editor_trimmed(const qt_editor *ed, size_t *start, size_t *len) {
  const char *s = qt_editor_text(ed);
  size_t a = 0, b = ed->text.len, adv;
  while (a < b && qt_editor_is_space(qt_utf8_decode(s + a, b - a, &adv))) a += adv;
  while (b > a) {
    size_t c = cp_start(s, b);
    if (c < a || !qt_editor_is_space(qt_utf8_decode(s + c, b - c, &adv))) break;
    b = c;
  }
  *start = a;
  *len = b - a;
}

bool qt_editor_blank(const qt_editor *ed) {
  size_t start, len;
  qt_editor_trimmed(ed, &start, &len);
  return len == 0;
}
