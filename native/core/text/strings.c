/* strings.c — the tables of user-visible strings, one per language (see qt_strings.h):
 * English (complete: every id), German and Simplified Chinese (an id left out falls back to
 * English — key names that are the same in every language). */
#include <stdio.h>
#include <string.h>

#include "qt_strings.h"
#include "qt_text.h"

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
    [QT_STR_DIALOG_NOTE] = "Add a note…",
    [QT_STR_DIALOG_NOTE_EDIT] = "Edit the note…",
    [QT_STR_DIALOG_NOTE_TITLE] = "A note for the agent, sent with your answer",
    [QT_STR_NOTICE_TITLE] = "π ❓ {s}",
    [QT_STR_NOTICE_NOTIFY] = "The agent is asking: {s}",
    [QT_STR_NOTICE_DESKTOP_TITLE] = "pi is asking",
    [QT_STR_CMD_CLEARED] = "Removed {s}.",
    [QT_STR_CMD_NONE_PENDING] = "No questions are waiting in {s}.",
    [QT_STR_CMD_PENDING] = "Waiting in {s}:",
    [QT_STR_CMD_NO_ANSWER] = "(no answer yet)",
    [QT_STR_CMD_HISTORY] = "Asked in this session:",
    [QT_STR_CMD_WAITING] = "Waiting for your answer now:",
    [QT_STR_MEMORY_EARLIER] = "Answered on {d}: {s} — Enter keeps it",
    [QT_STR_MEMORY_HISTORY] = "Answered in this project, newest first:",
    [QT_STR_MEMORY_NONE] = "No answers are remembered in this project.",
    [QT_STR_MEMORY_OFF] = "Answers are not remembered: the setting \"memory\" is false.",
    [QT_STR_MEMORY_FORGOTTEN] = "Forgot answer {n}: {s}",
    [QT_STR_MEMORY_NO_SUCH] = "There is no answer {s} in /questions history.",
    [QT_STR_MEMORY_FORGET_PICK] = "Forget which answer?",
    [QT_STR_MEMORY_TYPED] = "you wrote “{s}”",
    [QT_STR_ASKED_BY] = "Asked by {s}",
    [QT_STR_ASKED_BY_SUBAGENT] = "Asked by a subagent in {s}",
    [QT_STR_ASKED_BY_PROCESS] = "a program, not a subagent: {s}",
    [QT_STR_REMOTE_ANSWERED_HERE] = "answered from another terminal",
    [QT_STR_ELSEWHERE_NOT_WAITING] = "That question is no longer waiting (answered, cancelled or withdrawn).",
    [QT_STR_ELSEWHERE_ALREADY] = "already answered",
    [QT_STR_REMOTE_NONE] = "No question is waiting in any pi.",
    [QT_STR_ELSEWHERE_TAKEN] = "Answer taken.",
    [QT_STR_ELSEWHERE_CLOSED] = "The question was answered elsewhere.",
    [QT_STR_ELSEWHERE_CANCELLED] = "already cancelled",
    [QT_STR_ELSEWHERE_TIMED_OUT] = "already ended: it ran out of time",
    [QT_STR_ELSEWHERE_WITHDRAWN] = "withdrawn: the agent that asked it stopped waiting",
    [QT_STR_REMOTE_LIST_ID] = "id {s}",
    [QT_STR_REMOTE_LIST_SESSION] = "session {s}",
    [QT_STR_REMOTE_LIST_AGENT] = "Asked by the agent",
    [QT_STR_REMOTE_LIST_WAITED] = "waiting {s}",
    [QT_STR_ELSEWHERE_WORDS_KEPT] = "Not delivered; what you wrote, so it is not lost:",
    [QT_STR_REMOTE_WORDS_UNCONFIRMED] = "Not confirmed; what you wrote, so it is not lost:",
    [QT_STR_REMOTE_PI_NO_CONNECT] = "the pi in {s} did not accept a connection within {n} s (stopped with Ctrl+Z, "
                                    "inside its editor, or busy); its questions are not shown",
    [QT_STR_REMOTE_PI_NO_REPLY] = "the pi in {s} did not answer within {n} s (stopped with Ctrl+Z, inside its editor, "
                                  "or busy); its questions are not shown",
    [QT_STR_REMOTE_PI_UNCONFIRMED] = "the pi in {s} did not confirm the answer within {n} s (stopped with Ctrl+Z, "
                                     "inside its editor, or busy); it may still take the answer when it resumes",
    [QT_STR_REMOTE_PI_NOT_SENT] = "the pi in {s} did not accept a connection within {n} s (stopped with Ctrl+Z, inside "
                                  "its editor, or busy); the answer was not sent",
    [QT_STR_REMOTE_STDIN_EMPTY] =
        "no answers on standard input; give them there, like: echo '{\"db\":\"SQLite\"}' | pi-question answer 2 -",
    [QT_STR_REMOTE_STDIN_LONG] = "the answers on standard input are longer than {n} bytes",
    [QT_STR_REMOTE_STDIN_READING] = "reading the answers from standard input; end them with Ctrl+D",
    [QT_STR_ELSEWHERE_DISCUSS_LONG] =
        "what you wrote to the agent is {n} bytes; pi takes at most {s} bytes. Nothing was "
        "sent; shorten it and send it again",
    [QT_STR_REMOTE_LAST_ENDED] = "the latest question to stop waiting: {s}",
    [QT_STR_REMOTE_BAD_JSON] =
        "the answers are not valid JSON ({s}); write them like '{\"db\":\"SQLite\"}' or '[\"SQLite\"]'",
    [QT_STR_REMOTE_ANSWERS_SHAPE] = "answers must be an object like {\"db\":\"SQLite\"} or a list in question order",
    [QT_STR_REMOTE_LIST_LENGTH] =
        "the list has {n} answers but the question has {s} parts; give one per question, in order",
    [QT_STR_REMOTE_ID_AMBIGUOUS] =
        "the id {s} names questions in {n} pis; answer by position (run \"pi-question pending\")",
    [QT_STR_REMOTE_NO_ID] = "no question with the id {s} is waiting in any pi; run \"pi-question pending\"",
    [QT_STR_REMOTE_NO_POSITION] =
        "there is no question {s}; give its position ({n}) or its id (like {i}) from \"pi-question pending\"",
    [QT_STR_REMOTE_RANGE] = "1 to {n}",
    [QT_STR_REMOTE_NO_TERMINAL] =
        "no terminal to ask on; answer with: echo '<answers JSON>' | pi-question answer <n or id> -",
    [QT_STR_WEB_ANSWERED_HERE] = "answered from the web page",
    [QT_STR_EXTENSION_ANSWERED_HERE] = "answered by another extension, not by you",
    [QT_STR_EXTENSION_ANSWERED_NAMED] = "answered by another extension (it calls itself “{s}”), not by you",
    [QT_STR_REMOTE_UNVERIFIED_HERE] =
        "answered with pi-question answer by a process pi could not identify: maybe you, maybe a command the agent ran",
    [QT_STR_WEB_STARTED] = "Answer questions in a browser (keep this link private):\n{s}",
    [QT_STR_WEB_QR_NARROW] =
        "Its QR code needs {n} columns: widen the terminal, then /questions web on shows it again.",
    [QT_STR_WEB_STOPPED] = "The web page for questions is off.",
    [QT_STR_WEB_FAILED] = "The web page for questions could not start: {s}",
    [QT_STR_WEB_TITLE] = "pi is asking",
    [QT_STR_WEB_SESSION] = "session {s}",
    [QT_STR_WEB_NONE] = "No question is waiting. New ones appear here by themselves.",
    [QT_STR_WEB_SUBMIT] = "Submit",
    [QT_STR_WEB_CANCEL] = "Cancel the question",
    [QT_STR_WEB_NOTE] = "Note (optional)",
    [QT_STR_WEB_PREVIEW] = "Preview",
    [QT_STR_WEB_CLOSED] = "This question was answered or ended elsewhere.",
    [QT_STR_WEB_OFFLINE] = "Connection to pi lost; trying again…",
    [QT_STR_WEB_DISPLACED] = "Newer pages took over the live updates; this one follows again when you come back to it.",
    [QT_STR_WEB_OFF] = "pi turned this page off (or exited).",
    [QT_STR_WEB_TOO_LARGE] =
        "Too long to send (pi takes at most {n} bytes). Nothing was sent; your text is still here.",
    [QT_STR_WEB_NOT_SENT] = "Not sent: pi could not be reached. Your text is still here; try again.",
    [QT_STR_CMD_NOTHING_TO_REOPEN] = "There is no cancelled or interrupted question to answer.",
    /* ---- the person's timeout, the external editor, accessible mode ---- */
    [QT_STR_COUNTDOWN_CANCEL] = "Closes itself in {s} — any key stops the clock",
    [QT_STR_COUNTDOWN_DECLINE] = "Leaves it to the agent in {s} — any key stops the clock",
    [QT_STR_COUNTDOWN_RECOMMENDED] = "Answers itself in {s} with the recommended option — any key stops the clock",
    [QT_STR_COUNTDOWN_SELECTED] = "Sends what you selected in {s} — any key starts the clock again",
    [QT_STR_CLOCK_STOPPED] = "Clock stopped.",
    [QT_STR_STATUS_TIMED_OUT] = "Not answered in time",
    [QT_STR_RESULT_APPLIED_BY_TIMEOUT] = "(applied by the timeout, not chosen)",
    [QT_STR_HELP_EDITOR] = "editor",
    [QT_STR_EDITOR_FAILED] = "Editor: {s}. Your text is kept.",
    [QT_STR_EDITOR_NOT_SET] = "no editor set ($VISUAL or $EDITOR)",
    [QT_STR_EDITOR_EXIT] = "exited with status {n}",
    [QT_STR_EDITOR_NOT_STARTED] = "could not be started ({s})",
    [QT_STR_PLAIN_QUESTION_N] = "Question {n} of {s}.",
    [QT_STR_PLAIN_REVIEW] = "Review of {n} questions.",
    [QT_STR_PLAIN_CHOOSE_ONE] = "Choose one of {n} options.",
    [QT_STR_PLAIN_CHOOSE_MANY] = "Check any of {n} options.",
    [QT_STR_PLAIN_TYPE_ANSWER] = "Type your answer.",
    [QT_STR_PLAIN_OPTION_N] = "Option {n} of {s}",
    [QT_STR_PLAIN_SELECTED] = "selected",
    [QT_STR_PLAIN_CHECKED] = "checked",
    [QT_STR_PLAIN_NOT_CHECKED] = "not checked",
    [QT_STR_PLAIN_NOW_CHECKED] = "Checked: {s}",
    [QT_STR_PLAIN_NOW_UNCHECKED] = "Unchecked: {s}",
    [QT_STR_PLAIN_MORE_ABOVE] = "{n} more options above",
    [QT_STR_PLAIN_MORE_BELOW] = "{n} more options below",
    [QT_STR_PLAIN_TYPING] = "Your answer: ",
    [QT_STR_PLAIN_EMPTY] = "empty",
    [QT_STR_PLAIN_MATCHES] = "{n} options match",
    [QT_STR_PLAIN_PREVIEW] = "Preview: ",
    [QT_STR_PLAIN_ANSWERED] = "answered",
    [QT_STR_PLAIN_KEYS_LIST] =
        "Keys: Up and Down move, Enter picks, a number picks that option, slash filters, Ctrl+N adds a note, Ctrl+D "
        "lets the agent decide, Ctrl+T talks to the agent first, Escape cancels.",
    [QT_STR_PLAIN_KEYS_MULTI] =
        "Keys: Up and Down move, Space checks or unchecks, Enter confirms, slash filters, Ctrl+N adds a note, Ctrl+D "
        "lets the agent decide, Ctrl+T talks to the agent first, Escape cancels.",
    [QT_STR_PLAIN_KEYS_ENTRY] = "Keys: Enter submits, Shift+Enter starts a new line, Ctrl+G opens your editor, Ctrl+T "
                                "talks to the agent first, Escape goes back.",
    [QT_STR_PLAIN_KEYS_FREE] =
        "Keys: Enter submits, Shift+Enter starts a new line, Ctrl+G opens your editor, Ctrl+D lets the agent decide "
        "while the answer is empty, Ctrl+T talks to the agent first, Escape cancels.",
    [QT_STR_PLAIN_KEYS_FILTER] = "Keys: type to filter, Up and Down move, Enter done, Ctrl+T talks to the agent first, "
                                 "Escape clears the filter.",
    [QT_STR_PLAIN_KEYS_NOTE] = "Keys: Enter done, Ctrl+G opens your editor, Ctrl+T talks to the agent first.",
    [QT_STR_PLAIN_KEYS_REVIEW] = "Keys: Enter submits, a number goes to that question, Ctrl+D lets the agent decide, "
                                 "Ctrl+T talks to the agent first, Escape cancels.",
    [QT_STR_PLAIN_KEYS_TABS] = "Tab goes to the next question, Shift+Tab to the previous one.",
    [QT_STR_PLAIN_KEYS_CONFIRM] = "Keys: y for yes, n for no.",
    [QT_STR_PLAIN_KEYS_BOUND] = "Keys: {s}.",
    /* the question fits the screen */
    [QT_STR_HELP_READ_PROMPT] = "read the question",
    [QT_STR_HELP_SCROLL] = "scroll",
    [QT_STR_HELP_READ_PREVIEW] = "read the preview",
    [QT_STR_PLAIN_PROMPT_ABOVE] = "{n} earlier lines of the question are hidden; {s} reads them.",
    [QT_STR_PLAIN_PROMPT_BELOW] = "The question goes on for {n} more lines; {s} reads them.",
    [QT_STR_PLAIN_KEY_PAGE_UP] = "PageUp",
    [QT_STR_PLAIN_KEY_PAGE_DOWN] = "PageDown",
    /* talk first: Ctrl+T */
    [QT_STR_DISCUSS_PROMPT] = "What do you want to tell the agent?",
    [QT_STR_HELP_DISCUSS] = "talk first",
    [QT_STR_HELP_SEND] = "send to the agent",
    [QT_STR_PLAIN_KEYS_DISCUSS] = "Keys: Enter sends it to the agent, Shift+Enter starts a new line, Ctrl+G opens your "
                                  "editor, Escape goes back to the question.",
    [QT_STR_HELP_ASIDE] = "step aside",
    [QT_STR_HELP_BACK_TO_QUESTION] = "back to the question",
    [QT_STR_WARN_DISCUSS_EMPTY] = "Type what you want to tell the agent (Esc goes back)",
    [QT_STR_STEP_NOT_NOW] = "That is not possible now",
    [QT_STR_STEP_ENDED] = "The question has ended",
    [QT_STR_STEP_YES_NO_FIRST] = "Answer yes or no first",
    [QT_STR_STEP_EMPTY] = "Type an answer first",
    [QT_STR_STEP_CHOOSE_FIRST] = "Choose an option or type an answer first",
    [QT_STR_STEP_NOTHING_TO_TELL] = "Type what you want to tell the agent first",
    [QT_STR_STEP_NO_QUESTION] = "There is no question {n}",
    [QT_STR_STEP_TOO_LONG] = "Too long: at most {n} bytes",
    [QT_STR_STATUS_DISCUSS] = "Wants to talk first",
    [QT_STR_DIALOG_DISCUSS] = "Discuss first…",
    [QT_STR_DIALOG_TYPE] = "Type an answer…",
    [QT_STR_DIALOG_BACK] = "Back to the questions",
    [QT_STR_STATUS_ASKED] = "asked without waiting — the answer comes as a message",
    [QT_STR_PLAIN_KEYS_ASIDE] = "{s} steps aside; the same key brings the question back.",
    [QT_STR_ASIDE_LINE] = "The question waits for you — {s} or /answer to show it again",
    [QT_STR_ASYNC_WAITING_ONE] = "1 question waiting — /answer or {s} to answer",
    [QT_STR_ASYNC_WAITING_MANY] = "{n} questions waiting — /answer or {s} to answer",
    [QT_STR_ASYNC_ANSWER_HEAD] = "the answer to a question asked without waiting ({s})",
    /* the transcript in accessible mode */
    [QT_STR_PLAIN_NOT_SELECTED] = "not selected",
    [QT_STR_PLAIN_RESULT_STATUS] = "Status: {s}.",
    [QT_STR_PLAIN_KEYS_FILTER_PICK] = "Keys: type to filter, Up and Down move, Enter picks the highlighted option, "
                                      "Ctrl+T talks to the agent first, Escape clears the filter.",
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
    [QT_STR_DIALOG_NOTE] = "Notiz hinzufügen…",
    [QT_STR_DIALOG_NOTE_EDIT] = "Notiz bearbeiten…",
    [QT_STR_DIALOG_NOTE_TITLE] = "Eine Notiz für den Agenten, mit deiner Antwort gesendet",
    [QT_STR_NOTICE_TITLE] = "π ❓ {s}",
    [QT_STR_NOTICE_NOTIFY] = "Der Agent fragt: {s}",
    [QT_STR_NOTICE_DESKTOP_TITLE] = "pi fragt",
    [QT_STR_CMD_CLEARED] = "{s} entfernt.",
    [QT_STR_CMD_NONE_PENDING] = "In {s} warten keine Fragen.",
    [QT_STR_CMD_PENDING] = "Wartet in {s}:",
    [QT_STR_CMD_NO_ANSWER] = "(noch keine Antwort)",
    [QT_STR_CMD_HISTORY] = "In dieser Sitzung gefragt:",
    [QT_STR_CMD_WAITING] = "Wartet jetzt auf deine Antwort:",
    [QT_STR_MEMORY_EARLIER] = "Beantwortet am {d}: {s} — Enter behält es",
    [QT_STR_MEMORY_HISTORY] = "In diesem Projekt beantwortet, neueste zuerst:",
    [QT_STR_MEMORY_NONE] = "In diesem Projekt sind keine Antworten gespeichert.",
    [QT_STR_MEMORY_OFF] = "Antworten werden nicht gespeichert: die Einstellung \"memory\" ist false.",
    [QT_STR_MEMORY_FORGOTTEN] = "Antwort {n} vergessen: {s}",
    [QT_STR_MEMORY_NO_SUCH] = "In /questions history gibt es keine Antwort {s}.",
    [QT_STR_MEMORY_FORGET_PICK] = "Welche Antwort vergessen?",
    [QT_STR_MEMORY_TYPED] = "selbst geschrieben: „{s}“",
    [QT_STR_ASKED_BY] = "Gefragt von {s}",
    [QT_STR_ASKED_BY_SUBAGENT] = "Gefragt von einem Subagenten in {s}",
    [QT_STR_ASKED_BY_PROCESS] = "einem Programm, keinem Subagenten: {s}",
    [QT_STR_REMOTE_ANSWERED_HERE] = "in einem anderen Terminal beantwortet",
    [QT_STR_ELSEWHERE_NOT_WAITING] = "Diese Frage wartet nicht mehr (beantwortet, abgebrochen oder zurückgezogen).",
    [QT_STR_ELSEWHERE_ALREADY] = "bereits beantwortet",
    [QT_STR_REMOTE_NONE] = "In keinem pi wartet eine Frage.",
    [QT_STR_ELSEWHERE_TAKEN] = "Antwort übernommen.",
    [QT_STR_ELSEWHERE_CLOSED] = "Die Frage wurde anderswo beantwortet.",
    [QT_STR_ELSEWHERE_CANCELLED] = "bereits abgebrochen",
    [QT_STR_ELSEWHERE_TIMED_OUT] = "bereits beendet: die Zeit ist abgelaufen",
    [QT_STR_ELSEWHERE_WITHDRAWN] = "zurückgezogen: der fragende Agent wartet nicht mehr",
    [QT_STR_REMOTE_LIST_ID] = "ID {s}",
    [QT_STR_REMOTE_LIST_SESSION] = "Sitzung {s}",
    [QT_STR_REMOTE_LIST_AGENT] = "Gefragt vom Agenten",
    [QT_STR_REMOTE_LIST_WAITED] = "wartet seit {s}",
    [QT_STR_ELSEWHERE_WORDS_KEPT] = "Nicht zugestellt; was Sie geschrieben haben, damit es nicht verloren geht:",
    [QT_STR_REMOTE_WORDS_UNCONFIRMED] = "Nicht bestätigt; was Sie geschrieben haben, damit es nicht verloren geht:",
    [QT_STR_REMOTE_PI_NO_CONNECT] = "das pi in {s} hat binnen {n} s keine Verbindung angenommen (mit Strg+Z "
                                    "angehalten, im Editor oder beschäftigt); seine Fragen fehlen hier",
    [QT_STR_REMOTE_PI_NO_REPLY] = "das pi in {s} hat binnen {n} s nicht geantwortet (mit Strg+Z angehalten, im Editor "
                                  "oder beschäftigt); seine Fragen fehlen hier",
    [QT_STR_REMOTE_PI_UNCONFIRMED] =
        "das pi in {s} hat die Antwort binnen {n} s nicht bestätigt (mit Strg+Z angehalten, im Editor oder "
        "beschäftigt); es kann sie noch annehmen, sobald es weiterläuft",
    [QT_STR_REMOTE_PI_NOT_SENT] = "das pi in {s} hat binnen {n} s keine Verbindung angenommen (mit Strg+Z angehalten, "
                                  "im Editor oder beschäftigt); die Antwort wurde nicht gesendet",
    [QT_STR_REMOTE_STDIN_EMPTY] = "keine Antworten auf der Standardeingabe; geben Sie sie dort an, etwa: echo "
                                  "'{\"db\":\"SQLite\"}' | pi-question answer 2 -",
    [QT_STR_REMOTE_STDIN_LONG] = "die Antworten auf der Standardeingabe sind länger als {n} Bytes",
    [QT_STR_REMOTE_STDIN_READING] = "die Antworten werden von der Standardeingabe gelesen; beenden Sie sie mit Strg+D",
    [QT_STR_ELSEWHERE_DISCUSS_LONG] =
        "Ihre Nachricht an den Agenten hat {n} Bytes; pi nimmt höchstens {s} Bytes. Nichts "
        "wurde gesendet; kürzen Sie sie und senden Sie sie erneut",
    [QT_STR_REMOTE_LAST_ENDED] = "die zuletzt beendete Frage: {s}",
    [QT_STR_REMOTE_BAD_JSON] = "die Antworten sind kein gültiges JSON ({s}); schreiben Sie sie etwa so: "
                               "'{\"db\":\"SQLite\"}' oder '[\"SQLite\"]'",
    [QT_STR_REMOTE_ANSWERS_SHAPE] =
        "die Antworten müssen ein Objekt wie {\"db\":\"SQLite\"} oder eine Liste in der Reihenfolge der Fragen sein",
    [QT_STR_REMOTE_LIST_LENGTH] =
        "die Liste hat {n} Antworten, die Frage aber {s} Teile; geben Sie eine pro Frage an, in der Reihenfolge",
    [QT_STR_REMOTE_ID_AMBIGUOUS] =
        "die ID {s} bezeichnet Fragen in {n} pis; antworten Sie über die Position (siehe \"pi-question pending\")",
    [QT_STR_REMOTE_NO_ID] = "in keinem pi wartet eine Frage mit der ID {s}; siehe \"pi-question pending\"",
    [QT_STR_REMOTE_NO_POSITION] =
        "es gibt keine Frage {s}; geben Sie ihre Position ({n}) oder ihre ID (etwa {i}) aus \"pi-question pending\" an",
    [QT_STR_REMOTE_RANGE] = "1 bis {n}",
    [QT_STR_REMOTE_NO_TERMINAL] =
        "kein Terminal zum Fragen; antworten Sie mit: echo '<Antworten als JSON>' | pi-question answer <n oder ID> -",
    [QT_STR_WEB_ANSWERED_HERE] = "auf der Webseite beantwortet",
    [QT_STR_EXTENSION_ANSWERED_HERE] = "von einer anderen Erweiterung beantwortet, nicht von dir",
    [QT_STR_EXTENSION_ANSWERED_NAMED] =
        "von einer anderen Erweiterung beantwortet (sie nennt sich „{s}“), nicht von dir",
    [QT_STR_REMOTE_UNVERIFIED_HERE] = "mit pi-question answer beantwortet, von einem Prozess, den pi nicht erkennen "
                                      "konnte: vielleicht du, vielleicht ein Befehl des Agenten",
    [QT_STR_WEB_STARTED] = "Fragen im Browser beantworten (Link nicht weitergeben):\n{s}",
    [QT_STR_WEB_QR_NARROW] =
        "Der QR-Code dazu braucht {n} Spalten: Terminal breiter ziehen, dann zeigt /questions web on ihn erneut.",
    [QT_STR_WEB_STOPPED] = "Die Webseite für Fragen ist aus.",
    [QT_STR_WEB_FAILED] = "Die Webseite für Fragen konnte nicht starten: {s}",
    [QT_STR_WEB_TITLE] = "pi fragt",
    [QT_STR_WEB_SESSION] = "Sitzung {s}",
    [QT_STR_WEB_NONE] = "Keine Frage wartet. Neue erscheinen hier von selbst.",
    [QT_STR_WEB_SUBMIT] = "Absenden",
    [QT_STR_WEB_CANCEL] = "Frage abbrechen",
    [QT_STR_WEB_NOTE] = "Notiz (optional)",
    [QT_STR_WEB_PREVIEW] = "Vorschau",
    [QT_STR_WEB_CLOSED] = "Diese Frage wurde anderswo beantwortet oder beendet.",
    [QT_STR_WEB_OFFLINE] = "Verbindung zu pi verloren; neuer Versuch…",
    [QT_STR_WEB_DISPLACED] =
        "Neuere Seiten haben die Live-Aktualisierung übernommen; diese folgt wieder, sobald Sie zu ihr zurückkehren.",
    [QT_STR_WEB_OFF] = "pi hat diese Seite abgeschaltet (oder wurde beendet).",
    [QT_STR_WEB_TOO_LARGE] =
        "Zu lang zum Senden (pi nimmt höchstens {n} Bytes). Nichts wurde gesendet; Ihr Text ist noch da.",
    [QT_STR_WEB_NOT_SENT] = "Nicht gesendet: pi ist nicht erreichbar. Ihr Text ist noch da; versuchen Sie es erneut.",
    [QT_STR_CMD_NOTHING_TO_REOPEN] = "Es gibt keine abgebrochene oder unterbrochene Frage zu beantworten.",

    /* ---- the person's timeout, the external editor, accessible mode ---- */
    [QT_STR_COUNTDOWN_CANCEL] = "Schließt sich in {s} — jede Taste hält die Uhr an",
    [QT_STR_COUNTDOWN_DECLINE] = "Überlässt es in {s} dem Agenten — jede Taste hält die Uhr an",
    [QT_STR_COUNTDOWN_RECOMMENDED] = "Antwortet in {s} mit der empfohlenen Option — jede Taste hält die Uhr an",
    [QT_STR_COUNTDOWN_SELECTED] = "Sendet in {s} das bisher Gewählte — jede Taste startet die Uhr neu",
    [QT_STR_CLOCK_STOPPED] = "Uhr angehalten.",
    [QT_STR_STATUS_TIMED_OUT] = "Nicht rechtzeitig beantwortet",
    [QT_STR_RESULT_APPLIED_BY_TIMEOUT] = "(vom Zeitlimit gesetzt, nicht gewählt)",
    [QT_STR_HELP_EDITOR] = "Editor",
    [QT_STR_EDITOR_FAILED] = "Editor: {s}. Dein Text bleibt erhalten.",
    [QT_STR_EDITOR_NOT_SET] = "kein Editor gesetzt ($VISUAL oder $EDITOR)",
    [QT_STR_EDITOR_EXIT] = "mit Status {n} beendet",
    [QT_STR_EDITOR_NOT_STARTED] = "konnte nicht gestartet werden ({s})",
    [QT_STR_PLAIN_QUESTION_N] = "Frage {n} von {s}.",
    [QT_STR_PLAIN_REVIEW] = "Übersicht über {n} Fragen.",
    [QT_STR_PLAIN_CHOOSE_ONE] = "Wähle eine von {n} Optionen.",
    [QT_STR_PLAIN_CHOOSE_MANY] = "Kreuze beliebig viele von {n} Optionen an.",
    [QT_STR_PLAIN_TYPE_ANSWER] = "Gib deine Antwort ein.",
    [QT_STR_PLAIN_OPTION_N] = "Option {n} von {s}",
    [QT_STR_PLAIN_SELECTED] = "ausgewählt",
    [QT_STR_PLAIN_CHECKED] = "angekreuzt",
    [QT_STR_PLAIN_NOT_CHECKED] = "nicht angekreuzt",
    [QT_STR_PLAIN_NOW_CHECKED] = "Angekreuzt: {s}",
    [QT_STR_PLAIN_NOW_UNCHECKED] = "Nicht mehr angekreuzt: {s}",
    [QT_STR_PLAIN_MORE_ABOVE] = "{n} weitere Optionen darüber",
    [QT_STR_PLAIN_MORE_BELOW] = "{n} weitere Optionen darunter",
    [QT_STR_PLAIN_TYPING] = "Deine Antwort: ",
    [QT_STR_PLAIN_EMPTY] = "leer",
    [QT_STR_PLAIN_MATCHES] = "{n} Optionen passen",
    [QT_STR_PLAIN_PREVIEW] = "Vorschau: ",
    [QT_STR_PLAIN_ANSWERED] = "beantwortet",
    [QT_STR_PLAIN_KEYS_LIST] = "Tasten: Pfeil hoch und runter bewegen, Enter wählt, eine Zahl wählt diese Option, "
                               "Schrägstrich filtert, Strg+N fügt eine Notiz an, Strg+D überlässt es dem Agenten, "
                               "Strg+T spricht erst mit dem Agenten, Escape bricht ab.",
    [QT_STR_PLAIN_KEYS_MULTI] = "Tasten: Pfeil hoch und runter bewegen, Leertaste kreuzt an oder ab, Enter bestätigt, "
                                "Schrägstrich filtert, Strg+N fügt eine Notiz an, Strg+D überlässt es dem Agenten, "
                                "Strg+T spricht erst mit dem Agenten, Escape bricht ab.",
    [QT_STR_PLAIN_KEYS_ENTRY] = "Tasten: Enter sendet, Umschalt+Enter beginnt eine neue Zeile, Strg+G öffnet deinen "
                                "Editor, Strg+T spricht erst mit dem Agenten, Escape geht zurück.",
    [QT_STR_PLAIN_KEYS_FREE] =
        "Tasten: Enter sendet, Umschalt+Enter beginnt eine neue Zeile, Strg+G öffnet deinen Editor, Strg+D überlässt "
        "es bei leerer Antwort dem Agenten, Strg+T spricht erst mit dem Agenten, Escape bricht ab.",
    [QT_STR_PLAIN_KEYS_FILTER] = "Tasten: tippen filtert, Pfeil hoch und runter bewegen, Enter fertig, Strg+T spricht "
                                 "erst mit dem Agenten, Escape löscht den Filter.",
    [QT_STR_PLAIN_KEYS_NOTE] =
        "Tasten: Enter fertig, Strg+G öffnet deinen Editor, Strg+T spricht erst mit dem Agenten.",
    [QT_STR_PLAIN_KEYS_REVIEW] = "Tasten: Enter sendet, eine Zahl geht zu dieser Frage, Strg+D überlässt es dem "
                                 "Agenten, Strg+T spricht erst mit dem Agenten, Escape bricht ab.",
    [QT_STR_PLAIN_KEYS_TABS] = "Tab geht zur nächsten Frage, Umschalt+Tab zur vorigen.",
    [QT_STR_PLAIN_KEYS_CONFIRM] = "Tasten: j für ja, n für nein.",
    [QT_STR_PLAIN_KEYS_BOUND] = "Tasten: {s}.",
    /* the question fits the screen */
    [QT_STR_HELP_READ_PROMPT] = "Frage lesen",
    [QT_STR_HELP_SCROLL] = "blättern",
    [QT_STR_HELP_READ_PREVIEW] = "Vorschau lesen",
    [QT_STR_PLAIN_PROMPT_ABOVE] = "{n} frühere Zeilen der Frage sind ausgeblendet; {s} liest sie.",
    [QT_STR_PLAIN_PROMPT_BELOW] = "Die Frage geht noch {n} Zeilen weiter; {s} liest sie.",
    [QT_STR_PLAIN_KEY_PAGE_UP] = "Bild auf",
    [QT_STR_PLAIN_KEY_PAGE_DOWN] = "Bild ab",
    /* talk first: Ctrl+T */
    [QT_STR_DISCUSS_PROMPT] = "Was möchtest du dem Agenten sagen?",
    [QT_STR_HELP_DISCUSS] = "erst besprechen",
    [QT_STR_HELP_SEND] = "an den Agenten senden",
    [QT_STR_PLAIN_KEYS_DISCUSS] = "Tasten: Enter sendet es an den Agenten, Umschalt+Enter beginnt eine neue Zeile, "
                                  "Strg+G öffnet deinen Editor, Escape geht zurück zur Frage.",
    [QT_STR_HELP_ASIDE] = "beiseite",
    [QT_STR_HELP_BACK_TO_QUESTION] = "zurück zur Frage",
    [QT_STR_WARN_DISCUSS_EMPTY] = "Erst tippen, was du dem Agenten sagen möchtest (Esc geht zurück)",
    [QT_STR_STEP_NOT_NOW] = "Das ist jetzt nicht möglich",
    [QT_STR_STEP_ENDED] = "Die Frage ist beendet",
    [QT_STR_STEP_YES_NO_FIRST] = "Erst mit Ja oder Nein antworten",
    [QT_STR_STEP_EMPTY] = "Erst eine Antwort tippen",
    [QT_STR_STEP_CHOOSE_FIRST] = "Erst eine Option wählen oder eine Antwort tippen",
    [QT_STR_STEP_NOTHING_TO_TELL] = "Erst tippen, was du dem Agenten sagen möchtest",
    [QT_STR_STEP_NO_QUESTION] = "Es gibt keine Frage {n}",
    [QT_STR_STEP_TOO_LONG] = "Zu lang: höchstens {n} Bytes",
    [QT_STR_STATUS_DISCUSS] = "Möchte erst darüber sprechen",
    [QT_STR_DIALOG_DISCUSS] = "Erst besprechen…",
    [QT_STR_DIALOG_TYPE] = "Eine Antwort schreiben…",
    [QT_STR_DIALOG_BACK] = "Zurück zu den Fragen",
    [QT_STR_STATUS_ASKED] = "ohne Warten gefragt — die Antwort kommt als Nachricht",
    [QT_STR_PLAIN_KEYS_ASIDE] = "{s} legt die Frage beiseite; dieselbe Taste holt sie zurück.",
    [QT_STR_ASIDE_LINE] = "Die Frage wartet auf dich — {s} oder /answer zeigt sie wieder",
    [QT_STR_ASYNC_WAITING_ONE] = "1 Frage wartet — /answer oder {s} zum Beantworten",
    [QT_STR_ASYNC_WAITING_MANY] = "{n} Fragen warten — /answer oder {s} zum Beantworten",
    [QT_STR_ASYNC_ANSWER_HEAD] = "die Antwort auf eine ohne Warten gestellte Frage ({s})",
    /* the transcript in accessible mode */
    [QT_STR_PLAIN_NOT_SELECTED] = "nicht ausgewählt",
    [QT_STR_PLAIN_RESULT_STATUS] = "Ergebnis: {s}.",
    [QT_STR_PLAIN_KEYS_FILTER_PICK] =
        "Tasten: tippen filtert, Pfeil hoch und runter bewegen, Enter wählt die markierte Option, Strg+T spricht erst "
        "mit dem Agenten, Escape löscht den Filter.",
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
    [QT_STR_DIALOG_NOTE] = "添加备注…",
    [QT_STR_DIALOG_NOTE_EDIT] = "编辑备注…",
    [QT_STR_DIALOG_NOTE_TITLE] = "给助手的备注，随回答一起发送",
    [QT_STR_NOTICE_TITLE] = "π ❓ {s}",
    [QT_STR_NOTICE_NOTIFY] = "助手在提问：{s}",
    [QT_STR_NOTICE_DESKTOP_TITLE] = "pi 在提问",
    [QT_STR_CMD_CLEARED] = "已删除 {s}。",
    [QT_STR_CMD_NONE_PENDING] = "{s} 中没有等待回答的问题。",
    [QT_STR_CMD_PENDING] = "在 {s} 中等待：",
    [QT_STR_CMD_NO_ANSWER] = "（尚无回答）",
    [QT_STR_CMD_HISTORY] = "本次会话中的提问：",
    [QT_STR_CMD_WAITING] = "正在等待你的回答：",
    [QT_STR_MEMORY_EARLIER] = "已于 {d} 回答：{s} — 按 Enter 保留",
    [QT_STR_MEMORY_HISTORY] = "本项目中的回答（最新在前）：",
    [QT_STR_MEMORY_NONE] = "本项目中没有记住的回答。",
    [QT_STR_MEMORY_OFF] = "回答不会被记住：设置 \"memory\" 为 false。",
    [QT_STR_MEMORY_FORGOTTEN] = "已忘记回答 {n}：{s}",
    [QT_STR_MEMORY_NO_SUCH] = "/questions history 中没有回答 {s}。",
    [QT_STR_MEMORY_FORGET_PICK] = "要忘记哪个回答？",
    [QT_STR_MEMORY_TYPED] = "你写的：“{s}”",
    [QT_STR_ASKED_BY] = "由 {s} 提问",
    [QT_STR_ASKED_BY_SUBAGENT] = "由 {s} 中的子代理提问",
    [QT_STR_ASKED_BY_PROCESS] = "一个程序（不是子代理）：{s}",
    [QT_STR_REMOTE_ANSWERED_HERE] = "已在另一个终端回答",
    [QT_STR_ELSEWHERE_NOT_WAITING] = "该问题已不再等待（已回答、已取消或已撤回）。",
    [QT_STR_ELSEWHERE_ALREADY] = "已被回答",
    [QT_STR_REMOTE_NONE] = "没有任何 pi 在等待问题。",
    [QT_STR_ELSEWHERE_TAKEN] = "回答已采用。",
    [QT_STR_ELSEWHERE_CLOSED] = "该问题已在别处回答。",
    [QT_STR_ELSEWHERE_CANCELLED] = "已被取消",
    [QT_STR_ELSEWHERE_TIMED_OUT] = "已结束：时间已到",
    [QT_STR_ELSEWHERE_WITHDRAWN] = "已撤回：提问的代理不再等待",
    [QT_STR_REMOTE_LIST_ID] = "编号 {s}",
    [QT_STR_REMOTE_LIST_SESSION] = "会话 {s}",
    [QT_STR_REMOTE_LIST_AGENT] = "由代理提问",
    [QT_STR_REMOTE_LIST_WAITED] = "已等待 {s}",
    [QT_STR_ELSEWHERE_WORDS_KEPT] = "未能送达；你写的内容如下，以免丢失：",
    [QT_STR_REMOTE_WORDS_UNCONFIRMED] = "未获确认；你写的内容如下，以免丢失：",
    [QT_STR_REMOTE_PI_NO_CONNECT] =
        "位于 {s} 的 pi 在 {n} 秒内未接受连接（已用 Ctrl+Z 暂停、正在编辑器中或忙碌）；未显示它的问题",
    [QT_STR_REMOTE_PI_NO_REPLY] =
        "位于 {s} 的 pi 在 {n} 秒内未回应（已用 Ctrl+Z 暂停、正在编辑器中或忙碌）；未显示它的问题",
    [QT_STR_REMOTE_PI_UNCONFIRMED] =
        "位于 {s} 的 pi 在 {n} 秒内未确认回答（已用 Ctrl+Z 暂停、正在编辑器中或忙碌）；它恢复运行后仍可能采用该回答",
    [QT_STR_REMOTE_PI_NOT_SENT] =
        "位于 {s} 的 pi 在 {n} 秒内未接受连接（已用 Ctrl+Z 暂停、正在编辑器中或忙碌）；回答未发送",
    [QT_STR_REMOTE_STDIN_EMPTY] =
        "标准输入中没有回答；请在那里提供，例如：echo '{\"db\":\"SQLite\"}' | pi-question answer 2 -",
    [QT_STR_REMOTE_STDIN_LONG] = "标准输入中的回答超过 {n} 字节",
    [QT_STR_REMOTE_STDIN_READING] = "正在从标准输入读取回答；以 Ctrl+D 结束",
    [QT_STR_ELSEWHERE_DISCUSS_LONG] =
        "你写给助手的内容有 {n} 字节；pi 最多接受 {s} 字节。未发送任何内容；请缩短后重新发送",
    [QT_STR_REMOTE_LAST_ENDED] = "最近结束等待的问题：{s}",
    [QT_STR_REMOTE_BAD_JSON] = "答案不是有效的 JSON（{s}）；请这样写：'{\"db\":\"SQLite\"}' 或 '[\"SQLite\"]'",
    [QT_STR_REMOTE_ANSWERS_SHAPE] = "答案必须是形如 {\"db\":\"SQLite\"} 的对象，或按问题顺序排列的列表",
    [QT_STR_REMOTE_LIST_LENGTH] = "列表有 {n} 个答案，但该问题有 {s} 个部分；请按顺序为每个问题给出一个答案",
    [QT_STR_REMOTE_ID_AMBIGUOUS] = "编号 {s} 对应 {n} 个 pi 中的问题；请按位置回答（运行 \"pi-question pending\"）",
    [QT_STR_REMOTE_NO_ID] = "没有任何 pi 在等待编号为 {s} 的问题；请运行 \"pi-question pending\"",
    [QT_STR_REMOTE_NO_POSITION] = "没有第 {s} 个问题；请给出 \"pi-question pending\" 中的位置（{n}）或编号（如 {i}）",
    [QT_STR_REMOTE_RANGE] = "1 到 {n}",
    [QT_STR_REMOTE_NO_TERMINAL] =
        "没有可用于提问的终端；请这样回答：echo '<答案 JSON>' | pi-question answer <位置或编号> -",
    [QT_STR_WEB_ANSWERED_HERE] = "已在网页上回答",
    [QT_STR_EXTENSION_ANSWERED_HERE] = "已由另一个扩展回答，不是你本人",
    [QT_STR_EXTENSION_ANSWERED_NAMED] = "已由另一个扩展（自称“{s}”）回答，不是你本人",
    [QT_STR_REMOTE_UNVERIFIED_HERE] =
        "由 pi 无法识别的进程通过 pi-question answer 回答：可能是你，也可能是代理运行的命令",
    [QT_STR_WEB_STARTED] = "在浏览器中回答问题（请勿外传此链接）：\n{s}",
    [QT_STR_WEB_QR_NARROW] = "其二维码需要 {n} 列宽：请加宽终端，然后用 /questions web on 再次显示。",
    [QT_STR_WEB_STOPPED] = "问题网页已关闭。",
    [QT_STR_WEB_FAILED] = "问题网页无法启动：{s}",
    [QT_STR_WEB_TITLE] = "pi 在提问",
    [QT_STR_WEB_SESSION] = "会话 {s}",
    [QT_STR_WEB_NONE] = "没有等待中的问题。新问题会自动出现在这里。",
    [QT_STR_WEB_SUBMIT] = "提交",
    [QT_STR_WEB_CANCEL] = "取消此问题",
    [QT_STR_WEB_NOTE] = "备注（可选）",
    [QT_STR_WEB_PREVIEW] = "预览",
    [QT_STR_WEB_CLOSED] = "此问题已在别处回答或结束。",
    [QT_STR_WEB_OFFLINE] = "与 pi 的连接已断开，正在重试…",
    [QT_STR_WEB_DISPLACED] = "较新的页面接管了实时更新；回到此页面时它会重新跟进。",
    [QT_STR_WEB_OFF] = "pi 已关闭此页面（或已退出）。",
    [QT_STR_WEB_TOO_LARGE] = "内容过长，无法发送（pi 最多接受 {n} 字节）。未发送任何内容；你的文字仍在此处。",
    [QT_STR_WEB_NOT_SENT] = "未发送：无法连接到 pi。你的文字仍在此处，请重试。",
    [QT_STR_CMD_NOTHING_TO_REOPEN] = "没有已取消或已中断的问题可以回答。",

    /* ---- the person's timeout, the external editor, accessible mode ---- */
    [QT_STR_COUNTDOWN_CANCEL] = "{s} 后自动关闭——按任意键停止计时",
    [QT_STR_COUNTDOWN_DECLINE] = "{s} 后交给助手决定——按任意键停止计时",
    [QT_STR_COUNTDOWN_RECOMMENDED] = "{s} 后自动采用推荐选项——按任意键停止计时",
    [QT_STR_COUNTDOWN_SELECTED] = "{s} 后发送已选内容——按任意键重新计时",
    [QT_STR_CLOCK_STOPPED] = "计时已停止。",
    [QT_STR_STATUS_TIMED_OUT] = "未及时回答",
    [QT_STR_RESULT_APPLIED_BY_TIMEOUT] = "（由超时自动采用，并非选择）",
    [QT_STR_HELP_EDITOR] = "编辑器",
    [QT_STR_EDITOR_FAILED] = "编辑器：{s}。你的文本已保留。",
    [QT_STR_EDITOR_NOT_SET] = "未设置编辑器（$VISUAL 或 $EDITOR）",
    [QT_STR_EDITOR_EXIT] = "退出状态为 {n}",
    [QT_STR_EDITOR_NOT_STARTED] = "无法启动（{s}）",
    [QT_STR_PLAIN_QUESTION_N] = "第 {n} 个问题，共 {s} 个。",
    [QT_STR_PLAIN_REVIEW] = "{n} 个问题的回顾。",
    [QT_STR_PLAIN_CHOOSE_ONE] = "从 {n} 个选项中选一个。",
    [QT_STR_PLAIN_CHOOSE_MANY] = "从 {n} 个选项中勾选任意个。",
    [QT_STR_PLAIN_TYPE_ANSWER] = "请输入你的回答。",
    [QT_STR_PLAIN_OPTION_N] = "第 {n} 项，共 {s} 项",
    [QT_STR_PLAIN_SELECTED] = "已选择",
    [QT_STR_PLAIN_CHECKED] = "已勾选",
    [QT_STR_PLAIN_NOT_CHECKED] = "未勾选",
    [QT_STR_PLAIN_NOW_CHECKED] = "已勾选：{s}",
    [QT_STR_PLAIN_NOW_UNCHECKED] = "已取消勾选：{s}",
    [QT_STR_PLAIN_MORE_ABOVE] = "上方还有 {n} 个选项",
    [QT_STR_PLAIN_MORE_BELOW] = "下方还有 {n} 个选项",
    [QT_STR_PLAIN_TYPING] = "你的回答：",
    [QT_STR_PLAIN_EMPTY] = "空",
    [QT_STR_PLAIN_MATCHES] = "{n} 个选项匹配",
    [QT_STR_PLAIN_PREVIEW] = "预览：",
    [QT_STR_PLAIN_ANSWERED] = "已回答",
    [QT_STR_PLAIN_KEYS_LIST] = "按键：上下方向键移动，回车选择，数字键选择对应选项，斜杠筛选，Ctrl+N 添加备注，Ctrl+D "
                               "让助手决定，Ctrl+T 先与助手讨论，Esc 取消。",
    [QT_STR_PLAIN_KEYS_MULTI] = "按键：上下方向键移动，空格勾选或取消，回车确认，斜杠筛选，Ctrl+N 添加备注，Ctrl+D "
                                "让助手决定，Ctrl+T 先与助手讨论，Esc 取消。",
    [QT_STR_PLAIN_KEYS_ENTRY] =
        "按键：回车提交，Shift+回车换行，Ctrl+G 打开你的编辑器，Ctrl+T 先与助手讨论，Esc 返回。",
    [QT_STR_PLAIN_KEYS_FREE] = "按键：回车提交，Shift+回车换行，Ctrl+G 打开你的编辑器，回答为空时 Ctrl+D "
                               "让助手决定，Ctrl+T 先与助手讨论，Esc 取消。",
    [QT_STR_PLAIN_KEYS_FILTER] = "按键：输入以筛选，上下方向键移动，回车完成，Ctrl+T 先与助手讨论，Esc 清除筛选。",
    [QT_STR_PLAIN_KEYS_NOTE] = "按键：回车完成，Ctrl+G 打开你的编辑器，Ctrl+T 先与助手讨论。",
    [QT_STR_PLAIN_KEYS_REVIEW] =
        "按键：回车提交，数字键转到对应问题，Ctrl+D 让助手决定，Ctrl+T 先与助手讨论，Esc 取消。",
    [QT_STR_PLAIN_KEYS_TABS] = "Tab 转到下一个问题，Shift+Tab 转到上一个。",
    [QT_STR_PLAIN_KEYS_CONFIRM] = "按键：y 表示是，n 表示否。",
    [QT_STR_PLAIN_KEYS_BOUND] = "按键：{s}。",
    /* the question fits the screen */
    [QT_STR_HELP_READ_PROMPT] = "阅读问题",
    [QT_STR_HELP_SCROLL] = "滚动",
    [QT_STR_HELP_READ_PREVIEW] = "阅读预览",
    [QT_STR_PLAIN_PROMPT_ABOVE] = "问题前面有 {n} 行被隐藏；按{s}阅读。",
    [QT_STR_PLAIN_PROMPT_BELOW] = "问题后面还有 {n} 行；按{s}阅读。",
    [QT_STR_PLAIN_KEY_PAGE_UP] = "上翻页键",
    [QT_STR_PLAIN_KEY_PAGE_DOWN] = "下翻页键",
    /* talk first: Ctrl+T */
    [QT_STR_DISCUSS_PROMPT] = "你想对助手说什么？",
    [QT_STR_HELP_DISCUSS] = "先讨论",
    [QT_STR_HELP_SEND] = "发送给助手",
    [QT_STR_PLAIN_KEYS_DISCUSS] = "按键：回车发送给助手，Shift+回车换行，Ctrl+G 打开你的编辑器，Esc 返回问题。",
    [QT_STR_HELP_ASIDE] = "暂时收起",
    [QT_STR_HELP_BACK_TO_QUESTION] = "返回问题",
    [QT_STR_WARN_DISCUSS_EMPTY] = "请先输入你想对助手说的话（Esc 返回）",
    [QT_STR_STEP_NOT_NOW] = "现在无法这样做",
    [QT_STR_STEP_ENDED] = "问题已结束",
    [QT_STR_STEP_YES_NO_FIRST] = "请先回答是或否",
    [QT_STR_STEP_EMPTY] = "请先输入回答",
    [QT_STR_STEP_CHOOSE_FIRST] = "请先选择一个选项或输入回答",
    [QT_STR_STEP_NOTHING_TO_TELL] = "请先输入你想对助手说的话",
    [QT_STR_STEP_NO_QUESTION] = "没有问题 {n}",
    [QT_STR_STEP_TOO_LONG] = "太长：最多 {n} 字节",
    [QT_STR_STATUS_DISCUSS] = "想先讨论",
    [QT_STR_DIALOG_DISCUSS] = "先讨论…",
    [QT_STR_DIALOG_TYPE] = "输入回答…",
    [QT_STR_DIALOG_BACK] = "返回各个问题",
    [QT_STR_STATUS_ASKED] = "已提问，不等待 — 回答将作为消息送达",
    [QT_STR_PLAIN_KEYS_ASIDE] = "{s} 暂时收起问题；再按一次即可恢复。",
    [QT_STR_ASIDE_LINE] = "问题在等你 — 用 {s} 或 /answer 重新显示",
    [QT_STR_ASYNC_WAITING_ONE] = "1 个问题在等待 — 用 /answer 或 {s} 回答",
    [QT_STR_ASYNC_WAITING_MANY] = "{n} 个问题在等待 — 用 /answer 或 {s} 回答",
    [QT_STR_ASYNC_ANSWER_HEAD] = "不等待提出的问题的回答（{s}）",
    /* the transcript in accessible mode */
    [QT_STR_PLAIN_NOT_SELECTED] = "未选择",
    [QT_STR_PLAIN_RESULT_STATUS] = "状态：{s}。",
    [QT_STR_PLAIN_KEYS_FILTER_PICK] =
        "按键：输入以筛选，上下方向键移动，回车选择高亮的选项，Ctrl+T 先与助手讨论，Esc 清除筛选。",
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

const char *qt_string_name(qt_string_id id) { return (int)id >= 0 && id < QT_STR_COUNT ? names[id] : ""; }

const char *qt_language_tag(qt_language lang) { return (int)lang >= 0 && lang < QT_LANG_COUNT ? tags[lang] : "en"; }

bool qt_format(qt_buf *out, const char *tmpl, size_t n, const char *s) {
  for (const char *t = tmpl; *t; t++) {
    if (t[0] == '{' && t[1] == 'n' && t[2] == '}') {
      qt_buf_printf(out, "%zu", n);
      t += 2;
    } else if (t[0] == '{' && t[1] == 's' && t[2] == '}') {
      qt_buf_puts(out, s ? s : "");
      t += 2;
    } else {
      qt_buf_putc(out, *t);
    }
  }
  return !out->failed;
}

bool qt_plain_option(qt_buf *out, qt_language lang, size_t n, size_t of, const char *label, qt_string_id state) {
  char total[32];
  snprintf(total, sizeof total, "%zu", of);
  if (!qt_format(out, qt_string(lang, QT_STR_PLAIN_OPTION_N), n, total)) return false;
  qt_buf_puts(out, ": ");
  qt_buf_puts(out, label ? label : "");
  if ((int)state >= 0 && state < QT_STR_COUNT) {
    qt_buf_puts(out, ", ");
    qt_buf_puts(out, qt_string(lang, state));
  }
  return !out->failed;
}
