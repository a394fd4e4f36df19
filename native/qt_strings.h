/* qt_strings.h — every user-visible string of the engine and of the result text, one table
 * per language. The code refers to strings by id only.
 *
 * Placeholders: "{n}" is replaced by a number and "{s}" by a text (see the comment of each
 * id). Translations keep the placeholders and may move them. */
#ifndef QT_STRINGS_H
#define QT_STRINGS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum qt_language { QT_LANG_EN = 0, QT_LANG_COUNT } qt_language;

typedef enum qt_string_id {
  QT_STR_SOMETHING_ELSE = 0,  /* "Something else…": the always-present last choice */

  /* ---- the screen ---- */
  QT_STR_TAB_REVIEW,          /* tab of the review step while answers are missing */
  QT_STR_TAB_SUBMIT,          /* tab of the review step once everything is answered */
  QT_STR_REVIEW_TITLE,        /* heading of the review step */
  QT_STR_NOT_ANSWERED,        /* review: a question without an answer */
  QT_STR_TYPED,               /* review: after a typed answer, "(typed)" */
  QT_STR_NOTE_PREFIX,         /* before a note, "Note: " */
  QT_STR_FILTER_PREFIX,       /* before the filter text, "Filter: " */
  QT_STR_NO_MATCHES,          /* the filter lets no option through */
  QT_STR_MORE_ABOVE,          /* "↑ {n} more": rows above the list window */
  QT_STR_MORE_BELOW,          /* "↓ {n} more": rows below the list window */
  QT_STR_LINES_ABOVE,         /* "↑ {n} more lines": typed text above the shown lines */
  QT_STR_LINES_BELOW,         /* "↓ {n} more lines": typed text below the shown lines */
  QT_STR_PREVIEW_MORE,        /* last line of a preview that goes on: "… {n} more lines" */
  QT_STR_NO_PREVIEW,          /* the highlighted option has no preview */

  /* ---- messages ---- */
  QT_STR_WARN_EMPTY,          /* Enter on an empty typed answer */
  QT_STR_WARN_NOTHING_CHOSEN, /* Enter on a multi-select question with nothing ticked */
  QT_STR_WARN_MISSING,        /* "Not answered yet: {s}" ({s}: the labels) */
  QT_STR_WARN_NO_OPTION,      /* "There is no option {n}" */
  QT_STR_WARN_CUT,            /* "Text cut at the limit of {n} bytes" */
  QT_STR_CONFIRM_DISCARD_ONE, /* "Discard 1 answer?" */
  QT_STR_CONFIRM_DISCARD_MANY,/* "Discard {n} answers?" */
  QT_STR_CONFIRM_DISCARD_TEXT,/* cancelling would drop typed text that is no answer yet */
  QT_STR_CONFIRM_LONG,        /* "Answer is long ({n} chars). Submit anyway?" */
  QT_STR_YES_NO,              /* "(y/n)" after a confirmation */
  QT_STR_KEY_YES,             /* the letter that answers yes: "y" */
  QT_STR_KEY_NO,              /* the letter that answers no: "n" */

  /* ---- help line: what a key does ---- */
  QT_STR_HELP_MOVE,           /* ↑↓ "move" */
  QT_STR_HELP_SELECT,         /* Enter "select" */
  QT_STR_HELP_CONFIRM,        /* Enter "confirm" (multi-select) */
  QT_STR_HELP_TOGGLE,         /* Space "toggle" */
  QT_STR_HELP_QUICK_PICK,     /* the whole item "1-9 pick" */
  QT_STR_HELP_QUICK_TOGGLE,   /* the whole item "1-9 toggle" */
  QT_STR_HELP_TYPE,           /* the whole item "type to answer" */
  QT_STR_HELP_FILTER,         /* / "filter" */
  QT_STR_HELP_TYPE_FILTER,    /* the whole item "type to filter" */
  QT_STR_HELP_NOTE,           /* Ctrl+N "note" */
  QT_STR_HELP_DECLINE,        /* Ctrl+D "let the agent decide" */
  QT_STR_HELP_CANCEL,         /* Esc "cancel" */
  QT_STR_HELP_BACK,           /* Esc "back to the options" */
  QT_STR_HELP_CLEAR_FILTER,   /* Esc "clear filter" */
  QT_STR_HELP_NEXT,           /* Tab "next question" */
  QT_STR_HELP_PREV,           /* Shift+Tab "previous question" */
  QT_STR_HELP_SUBMIT,         /* Enter "submit" */
  QT_STR_HELP_NEW_LINE,       /* Shift+Enter "new line" */
  QT_STR_HELP_DONE,           /* Enter "done" */
  QT_STR_HELP_GOTO,           /* the whole item "1-9 go to question" */
  QT_STR_HELP_YES,            /* y "yes" */
  QT_STR_HELP_NO,             /* n "no" */

  /* ---- key names on the help line ---- */
  QT_STR_KEY_ENTER,
  QT_STR_KEY_ESCAPE,
  QT_STR_KEY_TAB,
  QT_STR_KEY_SPACE,
  QT_STR_KEY_BACKSPACE,
  QT_STR_KEY_DELETE,
  QT_STR_KEY_INSERT,
  QT_STR_KEY_CLEAR,
  QT_STR_KEY_HOME,
  QT_STR_KEY_END,
  QT_STR_KEY_PAGE_UP,
  QT_STR_KEY_PAGE_DOWN,
  QT_STR_KEY_UP,
  QT_STR_KEY_DOWN,
  QT_STR_KEY_LEFT,
  QT_STR_KEY_RIGHT,
  QT_STR_KEY_F,               /* "F{n}" */
  QT_STR_MOD_CTRL,            /* "Ctrl+" */
  QT_STR_MOD_ALT,             /* "Alt+" */
  QT_STR_MOD_SHIFT,           /* "Shift+" */
  QT_STR_MOD_SUPER,           /* "Super+" */

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
