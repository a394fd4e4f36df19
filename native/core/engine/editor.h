/* editor.h — the line editor behind every typed answer, note and filter: UTF-8 text with a
 * cursor that moves and deletes by grapheme cluster and by word (pi-tui's word rules:
 * whitespace, runs of punctuation, runs of everything else).
 *
 * What an editor holds is clean: control characters are dropped on the way in (a tab stays;
 * a newline stays in a multi-line editor and becomes a space otherwise; CR LF and CR become
 * a newline first), invalid UTF-8 becomes U+FFFD. Display code still sanitizes it. Every
 * function that can allocate returns a qt_status; on failure the text is unchanged. */
#ifndef QT_EDITOR_H
#define QT_EDITOR_H

#include <stdbool.h>
#include <stddef.h>

#include "qt.h"
#include "qt_text.h"

typedef struct qt_editor {
  qt_buf text;      /* the UTF-8 text, NUL-terminated once anything was inserted */
  size_t cursor;    /* byte offset into text, on a grapheme boundary */
  size_t limit;     /* most bytes the text may hold; longer input is cut (see qt_editor_insert) */
  bool multiline;   /* newlines are kept (typed answers) or become spaces (notes, filters) */
  bool masked;      /* a secret: every renderer shows a bullet per character, never the text */
  qt_seg_memo memo; /* what stepping back learned about the text, kept up to where it changes */
} qt_editor;

void qt_editor_init(qt_editor *ed, size_t limit, bool multiline);
/* What a masked editor shows (qt_editor.masked): `out` (an editor the caller keeps and frees)
 * gets a bullet per code point of ed's text and the cursor after as many. False when out of memory. */
bool qt_editor_mask(const qt_editor *ed, qt_editor *out);
void qt_editor_free(qt_editor *ed);

/* Inserts s[0..n) at the cursor, cleaned as described above. When the limit would be passed
 * the input is cut at a character boundary and *cut (may be NULL) is set. */
qt_status qt_editor_insert(qt_editor *ed, const char *s, size_t n, bool *cut);
/* Replaces the whole text (cursor at its end). */
qt_status qt_editor_set(qt_editor *ed, const char *s, size_t n);
void qt_editor_clear(qt_editor *ed);

static inline const char *qt_editor_text(const qt_editor *ed) { return ed->text.data ? ed->text.data : ""; }
static inline size_t qt_editor_len(const qt_editor *ed) { return ed->text.len; }
/* Bytes of memory the editor holds (its text; where it wraps is the renderer's, see qt_draw). */
static inline size_t qt_editor_bytes(const qt_editor *ed) { return ed->text.cap; }

/* Cursor movement and deletion; each returns true when the text or the cursor changed. Each
 * costs work in proportion to what it moves over or removes (plus moving the text after a
 * deletion), never to the length of the whole text. */
bool qt_editor_left(qt_editor *ed);
bool qt_editor_right(qt_editor *ed);
bool qt_editor_word_left(qt_editor *ed);
bool qt_editor_word_right(qt_editor *ed);
bool qt_editor_home(qt_editor *ed);
bool qt_editor_end(qt_editor *ed);
bool qt_editor_delete_back(qt_editor *ed);
bool qt_editor_delete_forward(qt_editor *ed);
bool qt_editor_delete_word_back(qt_editor *ed);
bool qt_editor_delete_word_forward(qt_editor *ed);
bool qt_editor_delete_to_start(qt_editor *ed);
bool qt_editor_delete_to_end(qt_editor *ed);

/* The text without leading and trailing white space: *start and *len describe a range of the
 * editor's text (no copy). */
void qt_editor_trimmed(const qt_editor *ed, size_t *start, size_t *len);
/* True when the text is empty or only white space. */
bool qt_editor_blank(const qt_editor *ed);

/* True for Unicode White_Space code points. */
bool qt_editor_is_space(uint32_t cp);

#endif
