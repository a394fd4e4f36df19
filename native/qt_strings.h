/* qt_strings.h — every user-visible string of the engine and of the result text, one table
 * per language. The code refers to strings by id only. */
#ifndef QT_STRINGS_H
#define QT_STRINGS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum qt_language { QT_LANG_EN = 0, QT_LANG_COUNT } qt_language;

typedef enum qt_string_id {
  QT_STR_SOMETHING_ELSE = 0,  /* "Something else…" */
  QT_STR_COUNT
} qt_string_id;

/* The string for `id` in `lang` (falls back to English). Never NULL. */
const char *qt_string(qt_language lang, qt_string_id id);
/* "en", "de", "zh" → language; unknown → QT_LANG_EN. */
qt_language qt_language_from_tag(const char *tag);

#ifdef __cplusplus
}
#endif
#endif
