/* qt_strings.h — every user-visible string of the engine and the extension, one table per
 * language (the model-facing result text stays English: see result.c). The code refers to strings by id only.
 *
 * Placeholders: "{n}" is replaced by a number and "{s}" by a text (see the comment of each
 * id). Translations keep the placeholders and may move them. */
#ifndef QT_STRINGS_H
#define QT_STRINGS_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum qt_language { QT_LANG_EN = 0, QT_LANG_DE, QT_LANG_ZH, QT_LANG_COUNT } qt_language;

/* Every string id, in one list: X(ID) for each (the enum and the name table are made from it). */
#define QT_STRING_LIST(X)                                                                                                                                  \
  X(SOMETHING_ELSE) /* "Something else…": the always-present last choice */                                                                              \
  /* ---- the screen ---- */                                                                                                                               \
  X(TAB_REVIEW)    /* tab of the review step while answers are missing */                                                                                  \
  X(TAB_SUBMIT)    /* tab of the review step once everything is answered */                                                                                \
  X(REVIEW_TITLE)  /* heading of the review step */                                                                                                        \
  X(NOT_ANSWERED)  /* review: a question without an answer */                                                                                              \
  X(TYPED)         /* review: after a typed answer, "(typed)" */                                                                                           \
  X(NOTE_PREFIX)   /* before a note, "Note: " */                                                                                                           \
  X(FILTER_PREFIX) /* before the filter text, "Filter: " */                                                                                                \
  X(NO_MATCHES)    /* the filter lets no option through */                                                                                                 \
  X(MORE_ABOVE)    /* "↑ {n} more": rows above the list window */                                                                                        \
  X(MORE_BELOW)    /* "↓ {n} more": rows below the list window */                                                                                        \
  X(LINES_ABOVE)   /* "↑ {n} more lines": typed text above the shown lines */                                                                            \
  X(LINES_BELOW)   /* "↓ {n} more lines": typed text below the shown lines */                                                                            \
  X(NO_PREVIEW)    /* the highlighted option has no preview */                                                                                             \
  /* ---- messages ---- */                                                                                                                                 \
  X(WARN_EMPTY)           /* Enter on an empty typed answer */                                                                                             \
  X(WARN_NOTHING_CHOSEN)  /* Enter on a multi-select question with nothing ticked */                                                                       \
  X(WARN_MISSING)         /* "Not answered yet: {s}" ({s}: the labels) */                                                                                  \
  X(WARN_NO_OPTION)       /* "There is no option {n}" */                                                                                                   \
  X(WARN_CUT)             /* "Text cut at the limit of {n} bytes" */                                                                                       \
  X(CONFIRM_DISCARD_ONE)  /* "Discard 1 answer?" */                                                                                                        \
  X(CONFIRM_DISCARD_MANY) /* "Discard {n} answers?" */                                                                                                     \
  X(CONFIRM_DISCARD_TEXT) /* cancelling would drop typed text that is no answer yet */                                                                     \
  X(CONFIRM_LONG)         /* "Answer is long ({n} chars). Submit anyway?" */                                                                               \
  X(YES_NO)               /* "(y/n)" after a confirmation */                                                                                               \
  X(KEY_YES)              /* the letter that answers yes: "y" */                                                                                           \
  X(KEY_NO)               /* the letter that answers no: "n" */                                                                                            \
  /* ---- help line: what a key does ---- */                                                                                                               \
  X(HELP_MOVE)         /* ↑↓ "move" */                                                                                                                 \
  X(HELP_SELECT)       /* Enter "select" */                                                                                                                \
  X(HELP_CONFIRM)      /* Enter "confirm" (multi-select) */                                                                                                \
  X(HELP_TOGGLE)       /* Space "toggle" */                                                                                                                \
  X(HELP_QUICK_PICK)   /* the whole item "1-9 pick" */                                                                                                     \
  X(HELP_QUICK_TOGGLE) /* the whole item "1-9 toggle" */                                                                                                   \
  X(HELP_TYPE)         /* the whole item "type to answer" */                                                                                               \
  X(HELP_FILTER)       /* / "filter" */                                                                                                                    \
  X(HELP_TYPE_FILTER)  /* the whole item "type to filter" */                                                                                               \
  X(HELP_NOTE)         /* Ctrl+N "note" */                                                                                                                 \
  X(HELP_DECLINE)      /* Ctrl+D "let the agent decide" */                                                                                                 \
  X(HELP_CANCEL)       /* Esc "cancel" */                                                                                                                  \
  X(HELP_BACK)         /* Esc "back to the options" */                                                                                                     \
  X(HELP_CLEAR_FILTER) /* Esc "clear filter" */                                                                                                            \
  X(HELP_NEXT)         /* Tab "next question" */                                                                                                           \
  X(HELP_PREV)         /* Shift+Tab "previous question" */                                                                                                 \
  X(HELP_SUBMIT)       /* Enter "submit" */                                                                                                                \
  X(HELP_NEW_LINE)     /* Shift+Enter "new line" */                                                                                                        \
  X(HELP_DONE)         /* Enter "done" */                                                                                                                  \
  X(HELP_GOTO)         /* the whole item "1-9 go to question" */                                                                                           \
  X(HELP_YES)          /* y "yes" */                                                                                                                       \
  X(HELP_NO)           /* n "no" */                                                                                                                        \
  /* ---- key names on the help line ---- */                                                                                                               \
  X(KEY_ENTER)                                                                                                                                             \
  X(KEY_ESCAPE)                                                                                                                                            \
  X(KEY_TAB)                                                                                                                                               \
  X(KEY_SPACE)                                                                                                                                             \
  X(KEY_BACKSPACE)                                                                                                                                         \
  X(KEY_DELETE)                                                                                                                                            \
  X(KEY_INSERT)                                                                                                                                            \
  X(KEY_CLEAR)                                                                                                                                             \
  X(KEY_HOME)                                                                                                                                              \
  X(KEY_END)                                                                                                                                               \
  X(KEY_PAGE_UP)                                                                                                                                           \
  X(KEY_PAGE_DOWN)                                                                                                                                         \
  X(KEY_UP)                                                                                                                                                \
  X(KEY_DOWN)                                                                                                                                              \
  X(KEY_LEFT)                                                                                                                                              \
  X(KEY_RIGHT)                                                                                                                                             \
  X(KEY_F)     /* "F{n}" */                                                                                                                                \
  X(MOD_CTRL)  /* "Ctrl+" */                                                                                                                               \
  X(MOD_ALT)   /* "Alt+" */                                                                                                                                \
  X(MOD_SHIFT) /* "Shift+" */                                                                                                                              \
  X(MOD_SUPER) /* "Super+" */                                                                                                                              \
  /* ---- the extension's own screens (transcript rows, dialogs, commands, notices) ---- */                                                                \
  X(STATUS_ANSWERED)       /* renderResult: "Answered" */                                                                                                  \
  X(STATUS_DECLINED)       /* "Declined: the agent decides" */                                                                                             \
  X(STATUS_CANCELLED)      /* "Cancelled" */                                                                                                               \
  X(STATUS_INTERRUPTED)    /* "Interrupted" */                                                                                                             \
  X(STATUS_UNAVAILABLE)    /* "Not asked: no interactive UI" */                                                                                            \
  X(RESULT_WROTE)          /* after a typed answer in the transcript: "(wrote)" */                                                                         \
  X(RESULT_NOTE)           /* before a note in the transcript: "note:" */                                                                                  \
  X(RESULT_ERROR)          /* before an error in the transcript: "Error" */                                                                                \
  X(CALL_ONE_QUESTION)     /* renderCall: "1 question" */                                                                                                  \
  X(CALL_QUESTIONS)        /* renderCall: "{n} questions" */                                                                                               \
  X(WAITING)               /* pi's working message while a question waits */                                                                               \
  X(DIALOG_PLACEHOLDER)    /* RPC input placeholder: "Type your answer" */                                                                                 \
  X(DIALOG_DONE)           /* RPC multi-select: "Done" */                                                                                                  \
  X(DIALOG_REVIEW)         /* RPC confirm title: "Submit these answers?" */                                                                                \
  X(DIALOG_DECLINE)        /* RPC select entry: "Let the agent decide" */                                                                                  \
  X(DIALOG_NOTE)           /* RPC select entry: "Add a note…" */                                                                                         \
  X(DIALOG_NOTE_EDIT)      /* RPC select entry when the question has a note: "Edit the note…" */                                                         \
  X(DIALOG_NOTE_TITLE)     /* RPC editor title for the note */                                                                                             \
  X(NOTICE_TITLE)          /* terminal title while waiting: "π ❓ {s}" */                                                                                \
  X(NOTICE_NOTIFY)         /* pi notification: "The agent is asking: {s}" */                                                                               \
  X(NOTICE_DESKTOP_TITLE)  /* title of the desktop notification: "pi is asking" */                                                                         \
  X(CMD_CLEARED)           /* /questions clear: "Removed {s}." */                                                                                          \
  X(CMD_NONE_PENDING)      /* "No questions are waiting in {s}." */                                                                                        \
  X(CMD_PENDING)           /* "Waiting in {s}:" */                                                                                                         \
  X(CMD_NO_ANSWER)         /* "(no answer yet)" */                                                                                                         \
  X(CMD_HISTORY)           /* "Asked in this session:" */                                                                                                  \
  X(CMD_NOTHING_TO_REOPEN) /* /answer with nothing to reopen */                                                                                            \
  X(CMD_WAITING)           /* /questions: "Waiting for your answer now:" (relayed questions) */                                                            \
  /* ---- remembered answers (~/.pi/agent/question-answers, per project) ---- */                                                                           \
  X(MEMORY_EARLIER) /* under a question answered before: "Answered on {d}: {s} — Enter keeps it" ({d}: the date) */                                      \
  X(MEMORY_HISTORY) /* /questions history: "Answered in this project, newest first:" */                                                                    \
  X(MEMORY_NONE)    /* /questions history with nothing remembered (or nothing matching) */                                                                 \
  X(MEMORY_OFF)     /* /questions history or forget with the setting "memory": false */                                                                    \
  X(MEMORY_FORGOTTEN)   /* /questions forget N: "Forgot answer {n}: {s}" */                                                                                \
  X(MEMORY_NO_SUCH)     /* /questions forget N: "There is no answer {s} in /questions history." */                                                         \
  X(MEMORY_FORGET_PICK) /* the select dialog of /questions forget: "Forget which answer?" */                                                               \
  X(MEMORY_TYPED)       /* a remembered typed answer in MEMORY_EARLIER's {s}: "you wrote “{s}”" (one line, cut) */                                     \
  /* ---- relayed questions (a subagent asks through this pi) ---- */                                                                                      \
  X(ASKED_BY)         /* under the top rule: "Asked by {s}" ({s}: the subagent's name) */                                                                  \
  X(ASKED_BY_PROCESS) /* who asked, inside ASKED_BY: "a program, not a subagent: {s}" ({s}: its command line and pid) */                                   \
  X(ASKED_BY_SUBAGENT) /* "Asked by a subagent in {s}" ({s}: its directory) */                                                                             \
  /* ---- answering from elsewhere (another terminal, the page): what the board says ---- */                                                               \
  X(ELSEWHERE_NOT_WAITING)  /* that question is no longer waiting */                                                                                       \
  X(ELSEWHERE_ALREADY)      /* someone answered it first: "already answered" */                                                                            \
  X(ELSEWHERE_TAKEN)        /* the answer was taken (pi-question answer, the page) */                                                                      \
  X(ELSEWHERE_CLOSED)       /* answered elsewhere while shown on this terminal */                                                                          \
  X(ELSEWHERE_CANCELLED)    /* a later answer: the question was cancelled */                                                                               \
  X(ELSEWHERE_TIMED_OUT)    /* a later answer: the question ran out of time */                                                                             \
  X(ELSEWHERE_WITHDRAWN)    /* a later answer: the question was withdrawn (its asker stopped waiting) */                                                   \
  X(ELSEWHERE_WORDS_KEPT)   /* Ctrl+T's words or typed answers could not be delivered; shown after this */                                                 \
  X(ELSEWHERE_DISCUSS_LONG) /* a "discuss" from elsewhere refused: {n} bytes written, {s} the most pi takes */                                             \
  /* ---- answering from another terminal (pi-question pending / answer) ---- */                                                                           \
  X(REMOTE_ANSWERED_HERE)     /* transcript: the question was answered from another terminal */                                                            \
  X(REMOTE_NONE)              /* pi-question pending: no question waits anywhere */                                                                        \
  X(REMOTE_LIST_ID)           /* pi-question pending: "id {s}" (the id `answer` takes) */                                                                  \
  X(REMOTE_LIST_SESSION)      /* pi-question pending: "session {s}" (a name, else a short id) */                                                           \
  X(REMOTE_LIST_AGENT)        /* pi-question pending: who asks when it is the session's own agent */                                                       \
  X(REMOTE_LIST_WAITED)       /* pi-question pending: "waiting {s}" (a duration like 2m 5s) */                                                             \
  X(REMOTE_WORDS_UNCONFIRMED) /* pi-question answer: a pi did not confirm in time; what was typed, shown after this */                                     \
  X(REMOTE_PI_NO_CONNECT) /* pending/answer: a registered pi ({s}: where, pid) did not accept a connection in {n} s */                                     \
  X(REMOTE_PI_NO_REPLY)   /* pending/answer: a registered pi ({s}) did not answer the listing in {n} s */                                                  \
  X(REMOTE_PI_UNCONFIRMED) /* answer: the pi ({s}) did not confirm the answer in {n} s; it may still take it */                                            \
  X(REMOTE_PI_NOT_SENT)    /* answer: the pi ({s}) did not accept a connection in {n} s; nothing was sent */                                               \
  X(REMOTE_STDIN_EMPTY)    /* answer n -: nothing on standard input; how to give it */                                                                     \
  X(REMOTE_STDIN_LONG)     /* answer n -: more than {n} bytes on standard input */                                                                         \
  X(REMOTE_STDIN_READING)  /* answer n - on a terminal: reading until Ctrl+D */                                                                            \
  X(REMOTE_LAST_ENDED)     /* pi-question answer, nothing at that position: "the latest to stop waiting: {s}" */                                           \
  X(REMOTE_BAD_JSON)       /* pi-question answer n '…': the answers are not JSON ({s}: the parser's words) */                                            \
  X(REMOTE_ANSWERS_SHAPE)  /* pi-question answer n '…': answers neither an object nor a list */                                                          \
  X(REMOTE_LIST_LENGTH)    /* pi-question answer n '[…]': {n} answers given, {s} parts in the question */                                                \
  X(REMOTE_ID_AMBIGUOUS)   /* pi-question answer <id>: {s} the id, {n} how many pis have it */                                                             \
  X(REMOTE_NO_ID)          /* pi-question answer <id>: no question {s} waits anywhere */                                                                   \
  X(REMOTE_NO_POSITION)    /* pi-question answer <n>: {s} what was given, {n} the range, {i} an id to copy */                                              \
  X(REMOTE_RANGE)          /* the positions "1 to {n}" (when there is more than one) */                                                                    \
  X(REMOTE_NO_TERMINAL)    /* answer: no terminal to ask on; how to answer without one */                                                                  \
  /* ---- the web page (/questions web) ---- */                                                                                                            \
  X(WEB_ANSWERED_HERE)        /* transcript: the question was answered from the web page */                                                                \
  X(EXTENSION_ANSWERED_HERE)  /* transcript: answered by another extension through pi.events, not by the person */                                         \
  X(EXTENSION_ANSWERED_NAMED) /* the same, the extension named ({s}: the name it gives itself, its own claim) */                                           \
  X(REMOTE_UNVERIFIED_HERE)   /* transcript: answered by pi-question answer from a process pi could not identify */                                        \
  X(WEB_STARTED)              /* "Answer in a browser (…): {s}" ({s}: the URL) */                                                                        \
  X(WEB_QR_NARROW)            /* in place of the QR code the terminal is too narrow for ({n}: columns it needs) */                                         \
  X(WEB_STOPPED)              /* the web page was turned off */                                                                                            \
  X(WEB_FAILED)               /* "The web page could not start: {s}" ({s}: why) */                                                                         \
  X(WEB_TITLE)                /* the page's title and heading */                                                                                           \
  X(WEB_SESSION)   /* under the page's heading: "session {s}" ({s}: its name in quotes, a short id or "pid N") */                                          \
  X(WEB_NONE)      /* the page: no question is waiting */                                                                                                  \
  X(WEB_SUBMIT)    /* the page: the button that sends the answers */                                                                                       \
  X(WEB_CANCEL)    /* the page's button and the RPC dialogs' entry that cancel the question */                                                             \
  X(WEB_NOTE)      /* the page: label of the note field */                                                                                                 \
  X(WEB_PREVIEW)   /* the page: "Preview" (an option's preview, folded) */                                                                                 \
  X(WEB_CLOSED)    /* the page: the question was answered or ended elsewhere */                                                                            \
  X(WEB_OFFLINE)   /* the page: the connection to pi is lost, retrying */                                                                                  \
  X(WEB_DISPLACED) /* the page: newer pages took its place; it follows again when looked at */                                                             \
  X(WEB_OFF)       /* the page: pi turned the page off or exited */                                                                                        \
  X(WEB_TOO_LARGE) /* the page: an answer longer than the server takes ({n}: bytes); not sent, text kept */                                                \
  X(WEB_NOT_SENT)  /* the page: not sent (no connection); text kept */                                                                                     \
  /* ---- the person's timeout, the external editor, accessible mode ---- */                                                                               \
  X(COUNTDOWN_CANCEL)      /* "Closes itself in {s} — any key stops the clock" ({s}: "4:59") */                                                          \
  X(COUNTDOWN_DECLINE)     /* "Leaves it to the agent in {s} — any key stops the clock" */                                                               \
  X(COUNTDOWN_SELECTED)    /* then "selected": "Sends what you selected in {s} — any key starts the clock again" */                                      \
  X(COUNTDOWN_RECOMMENDED) /* "Answers itself in {s} with the recommended option — any key stops the clock" */                                           \
  X(CLOCK_STOPPED)         /* accessible mode: a key stopped the clock */                                                                                  \
  X(STATUS_TIMED_OUT)      /* renderResult: "Not answered in time" */                                                                                      \
  X(RESULT_APPLIED_BY_TIMEOUT) /* after an option the timeout applied: "(applied by the timeout, not chosen)" */                                           \
  X(HELP_EDITOR)               /* Ctrl+G "editor" */                                                                                                       \
  X(EDITOR_FAILED)             /* "Editor: {s}. Your text is kept." ({s}: why) */                                                                          \
  X(EDITOR_NOT_SET)            /* why: no $VISUAL or $EDITOR */                                                                                            \
  X(EDITOR_EXIT)               /* why: "exited with status {n}" */                                                                                         \
  X(EDITOR_NOT_STARTED)        /* why: "could not be started ({s})" */                                                                                     \
  X(PLAIN_QUESTION_N)          /* accessible: "Question {n} of {s}." */                                                                                    \
  X(PLAIN_REVIEW)              /* accessible: "Review of {n} questions." */                                                                                \
  X(PLAIN_CHOOSE_ONE)          /* "Choose one of {n} options." */                                                                                          \
  X(PLAIN_CHOOSE_MANY)         /* "Check any of {n} options." */                                                                                           \
  X(PLAIN_TYPE_ANSWER)         /* free-text question: "Type your answer." */                                                                               \
  X(PLAIN_OPTION_N)            /* "Option {n} of {s}" (the focused one; ": label" follows) */                                                              \
  X(PLAIN_SELECTED)            /* the chosen option of a single-select question: "selected" */                                                             \
  X(PLAIN_CHECKED)             /* a ticked option: "checked" */                                                                                            \
  X(PLAIN_NOT_CHECKED)         /* "not checked" */                                                                                                         \
  X(PLAIN_NOW_CHECKED)         /* state change: "Checked: {s}" */                                                                                          \
  X(PLAIN_NOW_UNCHECKED)       /* state change: "Unchecked: {s}" */                                                                                        \
  X(PLAIN_MORE_ABOVE)          /* "{n} more options above" */                                                                                              \
  X(PLAIN_MORE_BELOW)          /* "{n} more options below" */                                                                                              \
  X(PLAIN_TYPING)              /* "Your answer: " (then the text) */                                                                                       \
  X(PLAIN_EMPTY)               /* an empty text field: "empty" */                                                                                          \
  X(PLAIN_MATCHES)             /* "{n} options match" */                                                                                                   \
  X(PLAIN_PREVIEW)             /* "Preview: " */                                                                                                           \
  X(PLAIN_ANSWERED)            /* review: "answered" */                                                                                                    \
  X(PLAIN_KEYS_LIST)           /* the keys, in words, on a single-select list */                                                                           \
  X(PLAIN_KEYS_MULTI)          /* on a multi-select list */                                                                                                \
  X(PLAIN_KEYS_ENTRY)          /* typing an answer */                                                                                                      \
  X(PLAIN_KEYS_FREE)           /* typing the answer of a question without options */                                                                       \
  X(PLAIN_KEYS_FILTER)         /* typing the filter */                                                                                                     \
  X(PLAIN_KEYS_NOTE)           /* typing a note */                                                                                                         \
  X(PLAIN_KEYS_REVIEW)         /* the review */                                                                                                            \
  X(PLAIN_KEYS_TABS)           /* appended with several questions: Tab, Shift+Tab */                                                                       \
  X(PLAIN_KEYS_CONFIRM)        /* a yes/no question */                                                                                                     \
  X(PLAIN_KEYS_BOUND)          /* keys rebound: "Keys: {s}." ({s}: the help line's items) */                                                               \
  /* ---- the question fits the screen ---------------------- */                                                                                           \
  X(HELP_READ_PROMPT)  /* PgUp/PgDn "read the question" (the prompt is cut to fit the screen) */                                                           \
  X(HELP_SCROLL)       /* PgUp/PgDn "scroll" (the review is cut to fit the screen) */                                                                      \
  X(HELP_READ_PREVIEW) /* Shift+↑/Shift+↓ "read the preview" (the preview is cut) */                                                                   \
  X(PLAIN_PROMPT_ABOVE) /* accessible mode, the prompt cut to fit: "{n} earlier lines of the question are hidden; {s} reads them." ({s}: PageUp's name) */ \
  X(PLAIN_PROMPT_BELOW)  /* "The question goes on for {n} more lines; {s} reads them." ({s}: PageDown's name) */                                           \
  X(PLAIN_KEY_PAGE_UP)   /* accessible mode: PageUp as a word ("PageUp"), no symbols */                                                                    \
  X(PLAIN_KEY_PAGE_DOWN) /* "PageDown" */                                                                                                                  \
  /* ---- talk first: Ctrl+T ---------------------- */                                                                                                     \
  X(DISCUSS_PROMPT)        /* above the text field: "What do you want to tell the agent?" */                                                               \
  X(HELP_DISCUSS)          /* Ctrl+T "talk first" */                                                                                                       \
  X(HELP_SEND)             /* Enter "send to the agent" (in the discussion field) */                                                                       \
  X(PLAIN_KEYS_DISCUSS)    /* accessible mode: the keys, in words, in the discussion field */                                                              \
  X(HELP_ASIDE)            /* Alt+A "step aside": the question shrinks to a line; the same key brings it back */                                           \
  X(HELP_BACK_TO_QUESTION) /* Esc "back to the question" (closes the discussion field) */                                                                  \
  X(WARN_DISCUSS_EMPTY)    /* Enter on an empty discussion field */                                                                                        \
  /* ---- why a step was refused (the RPC dialogs and the page show it) ---- */                                                                            \
  X(STEP_NOT_NOW)         /* a step not possible in this state (two pages racing, a stale page) */                                                         \
  X(STEP_ENDED)           /* a step after the question ended */                                                                                            \
  X(STEP_YES_NO_FIRST)    /* a step while the engine asks yes or no ("Discard 2 answers?") */                                                              \
  X(STEP_EMPTY)           /* an empty typed answer (no key hint: not every face has Esc) */                                                                \
  X(STEP_CHOOSE_FIRST)    /* a pick or tick naming no option (the page's Submit with none chosen) */                                                       \
  X(STEP_NOTHING_TO_TELL) /* an empty "talk first" */                                                                                                      \
  X(STEP_NO_QUESTION)     /* "There is no question {n}" */                                                                                                 \
  X(STEP_TOO_LONG)        /* text over its field's limit: at most {n} bytes */                                                                             \
  X(STATUS_DISCUSS)       /* renderResult: "Wants to talk first" */                                                                                        \
  X(DIALOG_DISCUSS)       /* RPC select entry: "Discuss first…" */                                                                                       \
  X(DIALOG_TYPE) /* RPC: a free-text question's input dismissed, the entry that shows it again: "Type an answer…" */                                     \
  X(DIALOG_BACK) /* RPC: the review not submitted, the entry back to the questions: "Back to the questions" */                                             \
  X(STATUS_ASKED) /* renderResult: a question asked without waiting (wait: false): "asked without waiting — the answer comes…"  */                     \
  X(PLAIN_KEYS_ASIDE)     /* accessible: "{s} steps aside; the same key brings the question back." ({s}: Alt+A) */                                         \
  X(ASIDE_LINE)           /* above the editor: the question shown stepped aside; {s}: the key that brings it back */                                       \
  X(ASYNC_WAITING_ONE)    /* above the editor: one question asked without waiting; {s}: the shortcut */                                                    \
  X(ASYNC_WAITING_MANY)   /* above the editor: {n} questions asked without waiting; {s}: the shortcut */                                                   \
  X(ASYNC_ANSWER_HEAD)    /* transcript: the message bringing such an answer; {s}: the question id */                                                      \
  X(HELP_SKIP)            /* Ctrl+S "skip": the question shown is left to the agent (a call of several) */                                                 \
  X(HELP_SKIP_CHAT)       /* Ctrl+S on a skipped question: "say it in chat" instead */                                                                     \
  X(HELP_UNSKIP)          /* Ctrl+S on a question skipped for the chat: "unskip" */                                                                        \
  X(SKIPPED_LINE)         /* under a skipped question: "Skipped: the agent decides this one" */                                                            \
  X(CHAT_LINE)            /* under a question skipped for the chat: "Skipped: you'll answer it in the chat" */                                             \
  X(REVIEW_SKIPPED)       /* review, the answer of a skipped question: "skipped" */                                                                        \
  X(REVIEW_CHAT)          /* review, a question skipped for the chat: "you'll say it in the chat" */                                                       \
  X(PLAIN_KEYS_SKIP)      /* accessible: what the skip key does, in words (default keys) */                                                                \
  X(DIALOG_SKIP)          /* RPC select entry: "Skip this question" */                                                                                     \
  X(DIALOG_SKIP_CHAT)     /* RPC select entry: "I'll answer this in the chat" */                                                                           \
  X(DIALOG_UNSKIP)        /* RPC select entry on a skipped question: "Answer it after all" */                                                              \
  X(HELP_CALL_NOTE)       /* Ctrl+N on the review: "note on all" (one note on the whole call) */                                                           \
  X(CALL_NOTE_PROMPT)     /* above the field of that note: "A note on all your answers (Enter when done):" */                                              \
  X(CALL_NOTE_PREFIX)     /* review: before that note, "Note on all: " */                                                                                  \
  X(DIALOG_CALL_NOTE)     /* RPC select entry after the review: "Note on all the answers…" */                                                            \
  X(CMD_ANSWER_UNCHANGED) /* /answer on the last question answered, every answer kept: "Nothing changed: …" */                                           \
  X(TYPED_NUMBER)     /* hint under a question of type number: "A number{s}" ({s}: its bounds, " (1–10)", or "") */                                      \
  X(TYPED_INTEGER)    /* type integer: "A whole number{s}" */                                                                                              \
  X(TYPED_BOOLEAN)    /* type boolean: "Yes or no" */                                                                                                      \
  X(TYPED_DATE)       /* type date: "A date (YYYY-MM-DD)" */                                                                                               \
  X(TYPED_EMAIL)      /* type email: "An e-mail address" */                                                                                                \
  X(TYPED_URL)        /* type url: "A web address (https://…)" */                                                                                        \
  X(TYPED_EXPECTED)   /* a typed answer that does not read as its type: "Expected: {s}" ({s}: the hint) */                                                 \
  X(SECRET_HINT)      /* hint under a secret question: what happens to what is typed */                                                                    \
  X(SECRET_NO_EDITOR) /* Ctrl+G on a secret answer: refused, an editor would write it to a file */                                                         \
  X(SECRET_ANSWER)    /* the review's answer of a secret question (never its text) */                                                                      \
  X(SECRET_DROPPED)   /* the transcript's answer of a secret that could not be handed over (the model was told) */                                         \
  X(PLAIN_KEYS_CALL_NOTE) /* accessible: the keys in the field of the note on all the answers */                                                           \
  /* ---- the transcript in accessible mode: words, not marks or colours ---------------------- */                                                         \
  X(PLAIN_NOT_SELECTED)     /* after an option the person did not pick: "not selected" */                                                                  \
  X(PLAIN_RESULT_STATUS)    /* renderResult's first line: "Status: {s}." ({s}: a STATUS_* string) */                                                       \
  X(PLAIN_KEYS_FILTER_PICK) /* typing the filter of a single-select question, where Enter picks the highlighted match */

typedef enum qt_string_id {
#define QT_STRING_ENUM(id) QT_STR_##id,
  QT_STRING_LIST(QT_STRING_ENUM)
#undef QT_STRING_ENUM
      QT_STR_COUNT
} qt_string_id;

/* The string for `id` in `lang` (falls back to English). Never NULL. */
const char *qt_string(qt_language lang, qt_string_id id);
/* "en", "de", "zh" (also "de_DE.UTF-8", "zh-CN") → language; unknown → QT_LANG_EN. */
qt_language qt_language_from_tag(const char *tag);
/* The id's name without its prefix ("SOMETHING_ELSE"): the key of the table the addon exports. */
const char *qt_string_name(qt_string_id id);
/* The tag of a language: "en", "de", "zh". */
const char *qt_language_tag(qt_language lang);
/* Appends template `tmpl` (a string of the table) with "{n}" replaced by n and "{s}" by s to
 * out (qt_text.h); false when out failed for want of memory. */
struct qt_buf;
bool qt_format(struct qt_buf *out, const char *tmpl, size_t n, const char *s);
/* How accessible mode says one option, the one place it is composed (the question's plain frame
 * and the transcript): "Option 2 of 3: SQLite, selected". `state`: QT_STR_PLAIN_SELECTED,
 * _NOT_SELECTED, _CHECKED or _NOT_CHECKED, or QT_STR_COUNT for none; `label` as it is (the
 * caller's to sanitize). False when out of memory. */
bool qt_plain_option(struct qt_buf *out, qt_language lang, size_t n, size_t of, const char *label, qt_string_id state);

#ifdef __cplusplus
}
#endif
#endif
