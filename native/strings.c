/* strings.c — the tables of user-visible strings, one per language (see qt_strings.h). */
#include <string.h>

#include "qt_strings.h"

static const char *const english[QT_STR_COUNT] = {
    [QT_STR_SOMETHING_ELSE] = "Something else…",

    [QT_STR_TAB_REVIEW] = "Review",
    [QT_STR_TAB_SUBMIT] = "Submit",
    [QT_STR_REVIEW_TITLE] = "Review your answers",
    [QT_STR_NOT_ANSWERED] = "not answered",
    [QT_STR_TYPED] = "(typed)",
    [QT_STR_NOTE_PREFIX] = "Note: ",
    [QT_STR_FILTER_PREFIX] = "Filter: ",
    [QT_STR_NO_MATCHES] = "No option matches",
    [QT_STR_MORE_ABOVE] = "↑ {n} more",
    [QT_STR_MORE_BELOW] = "↓ {n} more",
    [QT_STR_LINES_ABOVE] = "↑ {n} more lines",
    [QT_STR_LINES_BELOW] = "↓ {n} more lines",
    [QT_STR_PREVIEW_MORE] = "… {n} more lines",
    [QT_STR_NO_PREVIEW] = "(no preview)",

    [QT_STR_WARN_EMPTY] = "Type an answer first (Esc goes back)",
    [QT_STR_WARN_NOTHING_CHOSEN] = "Tick at least one option or type an answer",
    [QT_STR_WARN_MISSING] = "Not answered yet: {s}",
    [QT_STR_WARN_NO_OPTION] = "There is no option {n}",
    [QT_STR_WARN_CUT] = "Text cut at the limit of {n} bytes",
    [QT_STR_CONFIRM_DISCARD_ONE] = "Discard 1 answer?",
    [QT_STR_CONFIRM_DISCARD_MANY] = "Discard {n} answers?",
    [QT_STR_CONFIRM_DISCARD_TEXT] = "Discard what you typed?",
    [QT_STR_CONFIRM_LONG] = "Answer is long ({n} chars). Submit anyway?",
    [QT_STR_YES_NO] = "(y/n)",
    [QT_STR_KEY_YES] = "y",
    [QT_STR_KEY_NO] = "n",

    [QT_STR_HELP_MOVE] = "move",
    [QT_STR_HELP_SELECT] = "select",
    [QT_STR_HELP_CONFIRM] = "confirm",
    [QT_STR_HELP_TOGGLE] = "toggle",
    [QT_STR_HELP_QUICK_PICK] = "1-9 pick",
    [QT_STR_HELP_QUICK_TOGGLE] = "1-9 toggle",
    [QT_STR_HELP_TYPE] = "type to answer",
    [QT_STR_HELP_FILTER] = "filter",
    [QT_STR_HELP_TYPE_FILTER] = "type to filter",
    [QT_STR_HELP_NOTE] = "note",
    [QT_STR_HELP_DECLINE] = "let the agent decide",
    [QT_STR_HELP_CANCEL] = "cancel",
    [QT_STR_HELP_BACK] = "back to the options",
    [QT_STR_HELP_CLEAR_FILTER] = "clear filter",
    [QT_STR_HELP_NEXT] = "next question",
    [QT_STR_HELP_PREV] = "previous",
    [QT_STR_HELP_SUBMIT] = "submit",
    [QT_STR_HELP_NEW_LINE] = "new line",
    [QT_STR_HELP_DONE] = "done",
    [QT_STR_HELP_GOTO] = "1-9 go to question",
    [QT_STR_HELP_YES] = "yes",
    [QT_STR_HELP_NO] = "no",

    [QT_STR_KEY_ENTER] = "Enter",
    [QT_STR_KEY_ESCAPE] = "Esc",
    [QT_STR_KEY_TAB] = "Tab",
    [QT_STR_KEY_SPACE] = "Space",
    [QT_STR_KEY_BACKSPACE] = "Backspace",
    [QT_STR_KEY_DELETE] = "Del",
    [QT_STR_KEY_INSERT] = "Ins",
    [QT_STR_KEY_CLEAR] = "Clear",
    [QT_STR_KEY_HOME] = "Home",
    [QT_STR_KEY_END] = "End",
    [QT_STR_KEY_PAGE_UP] = "PgUp",
    [QT_STR_KEY_PAGE_DOWN] = "PgDn",
    [QT_STR_KEY_UP] = "↑",
    [QT_STR_KEY_DOWN] = "↓",
    [QT_STR_KEY_LEFT] = "←",
    [QT_STR_KEY_RIGHT] = "→",
    [QT_STR_KEY_F] = "F{n}",
    [QT_STR_MOD_CTRL] = "Ctrl+",
    [QT_STR_MOD_ALT] = "Alt+",
    [QT_STR_MOD_SHIFT] = "Shift+",
    [QT_STR_MOD_SUPER] = "Super+",
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
