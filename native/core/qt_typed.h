/* qt_typed.h — typed answers: a question's `type` (qt_type in qt.h) read from typed text, the
 * value it stands for, and the hint every face shows for it. */
#ifndef QT_TYPED_H
#define QT_TYPED_H

#include "qt.h"
#include "qt_strings.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "text", "number", "integer", "boolean", "date", "email", "url"; NULL for none. */
const char *qt_type_name(qt_type type);
/* The type named name[0..len); false when none is. */
bool qt_type_from_name(const char *name, size_t len, qt_type *out);

/* The value a typed answer stands for. */
typedef struct qt_typed_value {
  qt_type type;
  double number; /* QT_TYPE_NUMBER, QT_TYPE_INTEGER */
  bool yes;      /* QT_TYPE_BOOLEAN */
} qt_typed_value;

/* Whether s[0..n) (trimmed text) is an answer of q's type, within its bounds: a number as JSON
 * writes it, a whole number (exact in a double), yes/y/true or no/n/false (ASCII case ignored), a
 * calendar date YYYY-MM-DD, an e-mail address (one '@', a dotted domain), an http(s) address with
 * a host. Any text for QT_TYPE_TEXT. */
bool qt_typed_read(const qt_question *q, const char *s, size_t n, qt_typed_value *out);
/* The typed value of an answer to a typed question (a boolean question's option, or its typed
 * text); false for a question without a type, or no such answer. */
bool qt_typed_of_answer(const qt_question *q, const qt_answer *a, qt_typed_value *out);
/* The value as the model reads it: the number ("12", "3.5"), "true"/"false", else the text as typed. */
struct qt_buf;
void qt_typed_text(const qt_question *q, const qt_typed_value *v, const char *as_typed, struct qt_buf *b);
/* The hint for q's type in `lang` ("A whole number (1–10)", "A date (YYYY-MM-DD)"), appended to
 * out; false (nothing appended) for a question without a type. */
bool qt_typed_hint(const qt_question *q, qt_language lang, struct qt_buf *out);

#ifdef __cplusplus
}
#endif
#endif
