/* strings.c — the tables of user-visible strings, one per language (see qt_strings.h). */
#include <string.h>

#include "qt_strings.h"

static const char *const english[QT_STR_COUNT] = {
    [QT_STR_SOMETHING_ELSE] = "Something else…",
};

static const char *const *const tables[QT_LANG_COUNT] = {
    [QT_LANG_EN] = english,
};

const char *qt_string(qt_language lang, qt_string_id id) {
  if ((int)id < 0 || id >= QT_STR_COUNT) return "";
  if ((int)lang < 0 || lang >= QT_LANG_COUNT) lang = QT_LANG_EN;
  const char *s = tables[lang][id];
  if (!s) s = english[id];
  return s ? s : "";
}

qt_language qt_language_from_tag(const char *tag) {
  (void)tag;
  return QT_LANG_EN;
}
