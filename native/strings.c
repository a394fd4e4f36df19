/* strings.c — the tables of user-visible strings, one per language (see qt_strings.h):
 * English (complete: every id), German and Simplified Chinese (an id left out falls back to
 * English — key names that are the same in every language). */
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

    [QT_STR_STATUS_ANSWERED] = "Answered",
    [QT_STR_STATUS_DECLINED] = "Declined: the agent decides",
    [QT_STR_STATUS_CANCELLED] = "Cancelled",
    [QT_STR_STATUS_INTERRUPTED] = "Interrupted",
    [QT_STR_STATUS_UNAVAILABLE] = "Not asked: no interactive UI",
    [QT_STR_RESULT_WROTE] = "(wrote)",
    [QT_STR_RESULT_NOTE] = "note:",
    [QT_STR_RESULT_ERROR] = "Error",
    [QT_STR_CALL_ONE_QUESTION] = "1 question",
    [QT_STR_CALL_QUESTIONS] = "{n} questions",
    [QT_STR_WAITING] = "Waiting for your answer…",
    [QT_STR_DIALOG_PLACEHOLDER] = "Type your answer",
    [QT_STR_DIALOG_DONE] = "Done",
    [QT_STR_DIALOG_REVIEW] = "Submit these answers?",
    [QT_STR_DIALOG_DECLINE] = "Let the agent decide",
    [QT_STR_NOTICE_TITLE] = "π ❓ {s}",
    [QT_STR_NOTICE_NOTIFY] = "The agent is asking: {s}",
    [QT_STR_CMD_CLEARED] = "Removed {s}.",
    [QT_STR_CMD_NONE_PENDING] = "No questions are waiting in {s}.",
    [QT_STR_CMD_PENDING] = "Waiting in {s}:",
    [QT_STR_CMD_NO_ANSWER] = "(no answer yet)",
    [QT_STR_CMD_HISTORY] = "Asked in this session:",
    [QT_STR_CMD_NOTHING_TO_REOPEN] = "There is no cancelled or interrupted question to answer.",
};

static const char *const german[QT_STR_COUNT] = {
    [QT_STR_SOMETHING_ELSE] = "Etwas anderes…",

    [QT_STR_TAB_REVIEW] = "Übersicht",
    [QT_STR_TAB_SUBMIT] = "Absenden",
    [QT_STR_REVIEW_TITLE] = "Antworten prüfen",
    [QT_STR_NOT_ANSWERED] = "nicht beantwortet",
    [QT_STR_TYPED] = "(getippt)",
    [QT_STR_NOTE_PREFIX] = "Notiz: ",
    [QT_STR_FILTER_PREFIX] = "Filter: ",
    [QT_STR_NO_MATCHES] = "Keine Option passt",
    [QT_STR_MORE_ABOVE] = "↑ {n} weitere",
    [QT_STR_MORE_BELOW] = "↓ {n} weitere",
    [QT_STR_LINES_ABOVE] = "↑ {n} weitere Zeilen",
    [QT_STR_LINES_BELOW] = "↓ {n} weitere Zeilen",
    [QT_STR_PREVIEW_MORE] = "… {n} weitere Zeilen",
    [QT_STR_NO_PREVIEW] = "(keine Vorschau)",

    [QT_STR_WARN_EMPTY] = "Erst eine Antwort tippen (Esc geht zurück)",
    [QT_STR_WARN_NOTHING_CHOSEN] = "Mindestens eine Option ankreuzen oder eine Antwort tippen",
    [QT_STR_WARN_MISSING] = "Noch nicht beantwortet: {s}",
    [QT_STR_WARN_NO_OPTION] = "Es gibt keine Option {n}",
    [QT_STR_WARN_CUT] = "Text an der Grenze von {n} Bytes abgeschnitten",
    [QT_STR_CONFIRM_DISCARD_ONE] = "1 Antwort verwerfen?",
    [QT_STR_CONFIRM_DISCARD_MANY] = "{n} Antworten verwerfen?",
    [QT_STR_CONFIRM_DISCARD_TEXT] = "Getippten Text verwerfen?",
    [QT_STR_CONFIRM_LONG] = "Die Antwort ist lang ({n} Zeichen). Trotzdem absenden?",
    [QT_STR_YES_NO] = "(j/n)",
    [QT_STR_KEY_YES] = "j",
    [QT_STR_KEY_NO] = "n",

    [QT_STR_HELP_MOVE] = "bewegen",
    [QT_STR_HELP_SELECT] = "wählen",
    [QT_STR_HELP_CONFIRM] = "bestätigen",
    [QT_STR_HELP_TOGGLE] = "ankreuzen",
    [QT_STR_HELP_QUICK_PICK] = "1-9 wählen",
    [QT_STR_HELP_QUICK_TOGGLE] = "1-9 ankreuzen",
    [QT_STR_HELP_TYPE] = "tippen zum Antworten",
    [QT_STR_HELP_FILTER] = "filtern",
    [QT_STR_HELP_TYPE_FILTER] = "tippen zum Filtern",
    [QT_STR_HELP_NOTE] = "Notiz",
    [QT_STR_HELP_DECLINE] = "der Agent entscheidet",
    [QT_STR_HELP_CANCEL] = "abbrechen",
    [QT_STR_HELP_BACK] = "zurück zu den Optionen",
    [QT_STR_HELP_CLEAR_FILTER] = "Filter löschen",
    [QT_STR_HELP_NEXT] = "nächste Frage",
    [QT_STR_HELP_PREV] = "vorherige",
    [QT_STR_HELP_SUBMIT] = "absenden",
    [QT_STR_HELP_NEW_LINE] = "neue Zeile",
    [QT_STR_HELP_DONE] = "fertig",
    [QT_STR_HELP_GOTO] = "1-9 zur Frage",
    [QT_STR_HELP_YES] = "ja",
    [QT_STR_HELP_NO] = "nein",

    [QT_STR_KEY_ENTER] = "Enter",
    [QT_STR_KEY_ESCAPE] = "Esc",
    [QT_STR_KEY_TAB] = "Tab",
    [QT_STR_KEY_SPACE] = "Leertaste",
    [QT_STR_KEY_BACKSPACE] = "Rücktaste",
    [QT_STR_KEY_DELETE] = "Entf",
    [QT_STR_KEY_INSERT] = "Einfg",
    [QT_STR_KEY_CLEAR] = "Clear",
    [QT_STR_KEY_HOME] = "Pos1",
    [QT_STR_KEY_END] = "Ende",
    [QT_STR_KEY_PAGE_UP] = "Bild↑",
    [QT_STR_KEY_PAGE_DOWN] = "Bild↓",
    [QT_STR_KEY_UP] = "↑",
    [QT_STR_KEY_DOWN] = "↓",
    [QT_STR_KEY_LEFT] = "←",
    [QT_STR_KEY_RIGHT] = "→",
    [QT_STR_KEY_F] = "F{n}",
    [QT_STR_MOD_CTRL] = "Strg+",
    [QT_STR_MOD_ALT] = "Alt+",
    [QT_STR_MOD_SHIFT] = "Umschalt+",
    [QT_STR_MOD_SUPER] = "Super+",

    [QT_STR_STATUS_ANSWERED] = "Beantwortet",
    [QT_STR_STATUS_DECLINED] = "Abgelehnt: der Agent entscheidet",
    [QT_STR_STATUS_CANCELLED] = "Abgebrochen",
    [QT_STR_STATUS_INTERRUPTED] = "Unterbrochen",
    [QT_STR_STATUS_UNAVAILABLE] = "Nicht gefragt: keine interaktive Oberfläche",
    [QT_STR_RESULT_WROTE] = "(getippt)",
    [QT_STR_RESULT_NOTE] = "Notiz:",
    [QT_STR_RESULT_ERROR] = "Fehler",
    [QT_STR_CALL_ONE_QUESTION] = "1 Frage",
    [QT_STR_CALL_QUESTIONS] = "{n} Fragen",
    [QT_STR_WAITING] = "Wartet auf deine Antwort…",
    [QT_STR_DIALOG_PLACEHOLDER] = "Antwort eingeben",
    [QT_STR_DIALOG_DONE] = "Fertig",
    [QT_STR_DIALOG_REVIEW] = "Diese Antworten absenden?",
    [QT_STR_DIALOG_DECLINE] = "Der Agent soll entscheiden",
    [QT_STR_NOTICE_TITLE] = "π ❓ {s}",
    [QT_STR_NOTICE_NOTIFY] = "Der Agent fragt: {s}",
    [QT_STR_CMD_CLEARED] = "{s} entfernt.",
    [QT_STR_CMD_NONE_PENDING] = "In {s} warten keine Fragen.",
    [QT_STR_CMD_PENDING] = "Wartet in {s}:",
    [QT_STR_CMD_NO_ANSWER] = "(noch keine Antwort)",
    [QT_STR_CMD_HISTORY] = "In dieser Sitzung gefragt:",
    [QT_STR_CMD_NOTHING_TO_REOPEN] = "Es gibt keine abgebrochene oder unterbrochene Frage zu beantworten.",
};

static const char *const chinese[QT_STR_COUNT] = {
    [QT_STR_SOMETHING_ELSE] = "其他…",

    [QT_STR_TAB_REVIEW] = "检查",
    [QT_STR_TAB_SUBMIT] = "提交",
    [QT_STR_REVIEW_TITLE] = "检查你的回答",
    [QT_STR_NOT_ANSWERED] = "未回答",
    [QT_STR_TYPED] = "（输入）",
    [QT_STR_NOTE_PREFIX] = "备注：",
    [QT_STR_FILTER_PREFIX] = "筛选：",
    [QT_STR_NO_MATCHES] = "没有匹配的选项",
    [QT_STR_MORE_ABOVE] = "↑ 还有 {n} 项",
    [QT_STR_MORE_BELOW] = "↓ 还有 {n} 项",
    [QT_STR_LINES_ABOVE] = "↑ 还有 {n} 行",
    [QT_STR_LINES_BELOW] = "↓ 还有 {n} 行",
    [QT_STR_PREVIEW_MORE] = "… 还有 {n} 行",
    [QT_STR_NO_PREVIEW] = "（无预览）",

    [QT_STR_WARN_EMPTY] = "请先输入回答（Esc 返回）",
    [QT_STR_WARN_NOTHING_CHOSEN] = "请至少勾选一个选项或输入回答",
    [QT_STR_WARN_MISSING] = "尚未回答：{s}",
    [QT_STR_WARN_NO_OPTION] = "没有选项 {n}",
    [QT_STR_WARN_CUT] = "文本已在 {n} 字节上限处截断",
    [QT_STR_CONFIRM_DISCARD_ONE] = "放弃 1 个回答？",
    [QT_STR_CONFIRM_DISCARD_MANY] = "放弃 {n} 个回答？",
    [QT_STR_CONFIRM_DISCARD_TEXT] = "放弃已输入的文字？",
    [QT_STR_CONFIRM_LONG] = "回答很长（{n} 个字符）。仍然提交？",
    [QT_STR_YES_NO] = "(y/n)",
    [QT_STR_KEY_YES] = "y",
    [QT_STR_KEY_NO] = "n",

    [QT_STR_HELP_MOVE] = "移动",
    [QT_STR_HELP_SELECT] = "选择",
    [QT_STR_HELP_CONFIRM] = "确认",
    [QT_STR_HELP_TOGGLE] = "勾选",
    [QT_STR_HELP_QUICK_PICK] = "1-9 选择",
    [QT_STR_HELP_QUICK_TOGGLE] = "1-9 勾选",
    [QT_STR_HELP_TYPE] = "直接输入回答",
    [QT_STR_HELP_FILTER] = "筛选",
    [QT_STR_HELP_TYPE_FILTER] = "输入以筛选",
    [QT_STR_HELP_NOTE] = "备注",
    [QT_STR_HELP_DECLINE] = "让助手决定",
    [QT_STR_HELP_CANCEL] = "取消",
    [QT_STR_HELP_BACK] = "返回选项",
    [QT_STR_HELP_CLEAR_FILTER] = "清除筛选",
    [QT_STR_HELP_NEXT] = "下一题",
    [QT_STR_HELP_PREV] = "上一题",
    [QT_STR_HELP_SUBMIT] = "提交",
    [QT_STR_HELP_NEW_LINE] = "换行",
    [QT_STR_HELP_DONE] = "完成",
    [QT_STR_HELP_GOTO] = "1-9 跳到问题",
    [QT_STR_HELP_YES] = "是",
    [QT_STR_HELP_NO] = "否",

    [QT_STR_KEY_SPACE] = "空格",
    [QT_STR_KEY_BACKSPACE] = "退格",

    [QT_STR_STATUS_ANSWERED] = "已回答",
    [QT_STR_STATUS_DECLINED] = "已拒绝：由助手决定",
    [QT_STR_STATUS_CANCELLED] = "已取消",
    [QT_STR_STATUS_INTERRUPTED] = "已中断",
    [QT_STR_STATUS_UNAVAILABLE] = "未提问：没有交互界面",
    [QT_STR_RESULT_WROTE] = "（输入）",
    [QT_STR_RESULT_NOTE] = "备注：",
    [QT_STR_RESULT_ERROR] = "错误",
    [QT_STR_CALL_ONE_QUESTION] = "1 个问题",
    [QT_STR_CALL_QUESTIONS] = "{n} 个问题",
    [QT_STR_WAITING] = "等待你的回答…",
    [QT_STR_DIALOG_PLACEHOLDER] = "输入你的回答",
    [QT_STR_DIALOG_DONE] = "完成",
    [QT_STR_DIALOG_REVIEW] = "提交这些回答？",
    [QT_STR_DIALOG_DECLINE] = "让助手决定",
    [QT_STR_NOTICE_TITLE] = "π ❓ {s}",
    [QT_STR_NOTICE_NOTIFY] = "助手在提问：{s}",
    [QT_STR_CMD_CLEARED] = "已删除 {s}。",
    [QT_STR_CMD_NONE_PENDING] = "{s} 中没有等待回答的问题。",
    [QT_STR_CMD_PENDING] = "在 {s} 中等待：",
    [QT_STR_CMD_NO_ANSWER] = "（尚无回答）",
    [QT_STR_CMD_HISTORY] = "本次会话中的提问：",
    [QT_STR_CMD_NOTHING_TO_REOPEN] = "没有已取消或已中断的问题可以回答。",
};

static const char *const names[QT_STR_COUNT] = {
#define QT_STRING_NAME(id) [QT_STR_##id] = #id,
    QT_STRING_LIST(QT_STRING_NAME)
#undef QT_STRING_NAME
};

static const char *const tags[QT_LANG_COUNT] = {[QT_LANG_EN] = "en", [QT_LANG_DE] = "de", [QT_LANG_ZH] = "zh"};

static const char *const *const tables[QT_LANG_COUNT] = {
    [QT_LANG_EN] = english,
    [QT_LANG_DE] = german,
    [QT_LANG_ZH] = chinese,
};

const char *qt_string(qt_language lang, qt_string_id id) {
  if ((int)id < 0 || id >= QT_STR_COUNT) return "";
  if ((int)lang < 0 || lang >= QT_LANG_COUNT) lang = QT_LANG_EN;
  const char *s = tables[lang][id];
  if (!s) s = english[id];
  return s ? s : "";
}

qt_language qt_language_from_tag(const char *tag) {
  if (!tag) return QT_LANG_EN;
  for (int l = 0; l < QT_LANG_COUNT; l++) {
    size_t n = strlen(tags[l]);
    if (strncmp(tag, tags[l], n) == 0 && (tag[n] == '\0' || tag[n] == '_' || tag[n] == '-' || tag[n] == '.'))
      return (qt_language)l;
  }
  return QT_LANG_EN;
}

const char *qt_string_name(qt_string_id id) {
  return (int)id >= 0 && id < QT_STR_COUNT ? names[id] : "";
}

const char *qt_language_tag(qt_language lang) {
  return (int)lang >= 0 && lang < QT_LANG_COUNT ? tags[lang] : "en";
}
