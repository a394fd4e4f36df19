/* qt_engine.h — the interaction engine: a question/answer state machine driven by raw input
 * bytes, rendering styled lines for a given width. The host (pi's TUI through the addon, or
 * the raw-tty runner) feeds bytes and asks for frames; the engine never does I/O.
 *
 * Styles are semantic: the host gives the open/close byte strings of each style (taken from
 * pi's theme) and the engine wraps text in them; it holds no colours of its own. Every line
 * of a frame has a visible width <= the width asked for. */
#ifndef QT_ENGINE_H
#define QT_ENGINE_H

#include "qt.h"
#include "qt_strings.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum qt_style {
  QT_STYLE_ACCENT = 0, /* the highlighted option, the cursor row marker, active tab */
  QT_STYLE_MUTED,      /* descriptions, secondary text */
  QT_STYLE_DIM,        /* help line, scroll hints, unanswered tabs */
  QT_STYLE_SUCCESS,    /* answered marks, ticked boxes */
  QT_STYLE_WARNING,    /* missing answers, long-answer confirmation */
  QT_STYLE_ERROR,      /* errors */
  QT_STYLE_TITLE,      /* the prompt / header */
  QT_STYLE_BORDER,     /* horizontal rules */
  QT_STYLE_SELECTED,   /* text of the highlighted row */
  QT_STYLE_CURSOR,     /* the character under the text cursor (pi: reverse video, "\x1b[7m" … "\x1b[27m") */
  QT_STYLE_COUNT
} qt_style;

/* Actions whose keys the host may rebind (pi's keybindings). Defaults mirror pi's. */
typedef enum qt_action {
  QT_ACT_UP = 0,              /* tui.select.up: up */
  QT_ACT_DOWN,                /* tui.select.down: down */
  QT_ACT_PAGE_UP,             /* tui.select.pageUp: pageUp */
  QT_ACT_PAGE_DOWN,           /* tui.select.pageDown: pageDown */
  QT_ACT_CONFIRM,             /* tui.select.confirm: enter */
  QT_ACT_CANCEL,              /* tui.select.cancel: escape, ctrl+c */
  QT_ACT_NEXT,                /* next question: tab, right */
  QT_ACT_PREV,                /* previous question: shift+tab, left */
  QT_ACT_TOGGLE,              /* multi-select toggle: space */
  QT_ACT_DECLINE,             /* let the agent decide: ctrl+d (in a text field only while it is empty) */
  QT_ACT_NOTE,                /* attach a note: ctrl+n */
  QT_ACT_FILTER,              /* filter the options: / */
  QT_ACT_CURSOR_LEFT,         /* tui.editor.cursorLeft: left, ctrl+b */
  QT_ACT_CURSOR_RIGHT,        /* tui.editor.cursorRight: right, ctrl+f */
  QT_ACT_WORD_LEFT,           /* tui.editor.cursorWordLeft: alt+left, ctrl+left, alt+b */
  QT_ACT_WORD_RIGHT,          /* tui.editor.cursorWordRight: alt+right, ctrl+right, alt+f */
  QT_ACT_LINE_START,          /* tui.editor.cursorLineStart: home, ctrl+a */
  QT_ACT_LINE_END,            /* tui.editor.cursorLineEnd: end, ctrl+e */
  QT_ACT_DELETE_BACK,         /* tui.editor.deleteCharBackward: backspace */
  QT_ACT_DELETE_FORWARD,      /* tui.editor.deleteCharForward: delete, ctrl+d (while the field has text) */
  QT_ACT_DELETE_WORD_BACK,    /* tui.editor.deleteWordBackward: ctrl+w, alt+backspace */
  QT_ACT_DELETE_WORD_FORWARD, /* tui.editor.deleteWordForward: alt+d, alt+delete */
  QT_ACT_DELETE_TO_START,     /* tui.editor.deleteToLineStart: ctrl+u */
  QT_ACT_DELETE_TO_END,       /* tui.editor.deleteToLineEnd: ctrl+k */
  QT_ACT_NEW_LINE,            /* tui.input.newLine: shift+enter */
  QT_ACT_DISCUSS,             /* talk first, instead of answering: ctrl+t */
  QT_ACT_EXTERNAL_EDITOR,     /* app.editor.external: ctrl+g (typing an answer or a note) */
  QT_ACT_PREVIEW_UP,          /* read a preview that is cut: shift+up (a page back) */
  QT_ACT_PREVIEW_DOWN,        /* shift+down (a page on) */
  QT_ACT_SKIP,                /* skip the question shown (a call of several): ctrl+s; again: "I'll say it in
                               * the chat"; again: not skipped */
  QT_ACT_ASIDE,               /* step aside to read the transcript: no key unless the host binds one
                               * (pi's TUI: alt+a) — qt_engine_take_aside */
  QT_ACT_COUNT
} qt_action;

typedef struct qt_engine qt_engine;

/* Creates an engine for `req`, which it borrows: req must outlive the engine. Pre-supplied
 * answers in req->preset (if any) start as given answers. */
qt_status qt_engine_create(const qt_request *req, qt_engine **out);
void qt_engine_destroy(qt_engine *e);

/* Host configuration; each invalidates the cached frame. */
qt_status qt_engine_set_style(qt_engine *e, qt_style style, const char *open, const char *close);
/* Replaces the keys of one action with `count` pi key ids (see qt_key_parse). Unknown ids
 * are ignored and reported through *unknown (may be NULL). */
qt_status qt_engine_bind(qt_engine *e, qt_action action, const char *const *keys, size_t count, size_t *unknown);
/* Gives `to` the styles, or every action's keys, that `from` has (what qt_engine_set_style and
 * qt_engine_bind set there): a host sets them once on one engine and copies them to each new one. */
qt_status qt_engine_copy_styles(qt_engine *to, const qt_engine *from);
qt_status qt_engine_copy_keys(qt_engine *to, const qt_engine *from);
/* Bytes emitted where the text cursor is while typing (pi's CURSOR_MARKER); "" for none. */
qt_status qt_engine_set_cursor_marker(qt_engine *e, const char *marker);
qt_status qt_engine_set_language(qt_engine *e, qt_language lang);
/* The language set (QT_LANG_EN by default): the strings of the engine's faces, e.g. the external
 * editor's reasons, are taken in it. */
qt_language qt_engine_language(const qt_engine *e);
/* Who asks a relayed question (a subagent's): its name, else where it runs (a directory). The
 * frame says so under the top rule; both NULL (the default): the agent itself asks. Both are
 * sanitized and kept on one line. */
qt_status qt_engine_set_asker(qt_engine *e, const char *name, const char *where);

/* The answer this project remembers for question qi (`earlier`: one answer of qt_answers_from_json's
 * shape, its note not used), shown chosen when the question opens — ticked or highlighted, or
 * its typed text in the field — with `line` ("Answered on 21 Nov: SQLite — Enter keeps it",
 * sanitized, one line) under the question. It becomes the person's answer only when they take it
 * up; a decline, a timeout or a cancel carries nothing of it. `when` (cut to
 * QT_MAX_EARLIER_DATE_BYTES) is the date the model's result gives (qt_engine_earlier). Call before
 * the first key. */
qt_status qt_engine_remember(qt_engine *e, size_t qi, const qt_answer *earlier, const char *line, const char *when);
/* Once done with QT_ANSWERED: the `when` of question qi when its answer is the remembered one,
 * unchanged (the person confirmed it); NULL otherwise. */
const char *qt_engine_earlier(const qt_engine *e, size_t qi);
/* The remembered-answer line of the question shown now, or NULL (the renderers). */
const char *qt_engine_earlier_line(const qt_engine *e);

/* Whole keys: every feed ends on a key boundary (pi's TUI, which has already waited for the
 * rest of each sequence); off by default (a raw terminal). See qt_decoder_set_whole_keys. */
void qt_engine_set_whole_keys(qt_engine *e, bool on);

/* The size of the frames the host shows: `width` columns (clamped to >= 1) and the rows the
 * frame may take (the host's terminal rows, less what the host shows around it; 0: no limit).
 * The keys that depend on what the frame showed (PageUp/PageDown, Shift+↑/Shift+↓, a list cut
 * to the rows) act on the frame at this size: the engine keeps what the last frame drawn at it
 * showed, or lays that frame out again at the key when none was drawn for it. Until a screen is
 * named, no frame is shown and those keys find nothing cut. Changes no frame. */
qt_status qt_engine_set_screen(qt_engine *e, int width, int rows);

/* Feeds raw input bytes (any number of sequences, or part of one). */
qt_status qt_engine_feed(qt_engine *e, const char *bytes, size_t len);
/* Delivers input bytes held back as the start of an unfinished sequence (call after a short
 * quiet time on a raw terminal), and whether any are held. */
qt_status qt_engine_flush(qt_engine *e);
bool qt_engine_pending(const qt_engine *e);
/* Ends the question at once with QT_INTERRUPTED (the agent was aborted). */
void qt_engine_interrupt(qt_engine *e);

bool qt_engine_done(const qt_engine *e);
qt_outcome qt_engine_outcome(const qt_engine *e); /* meaningful once done */
/* What the person wrote to the agent when the outcome is QT_DISCUSS (trimmed); "" otherwise.
 * Valid until the next feed or destroy. */
const char *qt_engine_discussion(const qt_engine *e);
/* The answers, question_count entries, valid until the next feed or destroy. */
const qt_answer *qt_engine_answers(const qt_engine *e);
/* The person's one note on the whole call (written on the review with the note key, or a face's
 * NOTE step there), trimmed; NULL when there is none. Valid until the next feed or destroy. */
const char *qt_engine_call_note(const qt_engine *e);
/* What the person typed for question qi, whether or not it became an answer (the answer's
 * editor, else the answer's typed text; the note's editor, else the answer's note), trimmed:
 * `answer` and `note` point into the engine (not NUL-terminated; a length 0: none), valid until
 * the next feed or destroy. For a host that must not lose it when the call ends unanswered. */
void qt_engine_typed(const qt_engine *e, size_t qi, const char **answer, size_t *alen, const char **note, size_t *nlen);
/* Increments whenever what a frame would show changes: hosts cache frames by it. */
uint64_t qt_engine_revision(const qt_engine *e);

/* About how many bytes of native memory the engine holds now, its request not counted (which
 * qt_request_footprint tells): hosts with a garbage collector report it, so dropped engines
 * are collected before the native memory piles up. O(questions). */
size_t qt_engine_footprint(const qt_engine *e);

/* ---- the person's timeout -------------------------------------------------------------------
 * The engine keeps no clock of its own: the host tells it the time (milliseconds of any steady
 * clock), so tests are deterministic. */
typedef enum qt_timeout_then {
  QT_TIMEOUT_CANCEL = 0,  /* the question closes as cancelled */
  QT_TIMEOUT_DECLINE,     /* the agent decides */
  QT_TIMEOUT_RECOMMENDED, /* the option labelled "… (Recommended)" is applied (none: as DECLINE) */
  QT_TIMEOUT_SELECTED     /* an idle clock: each key or step starts it again, and when it runs out
                           * the answers selected so far go (the rest left to the agent) */
} qt_timeout_then;
#define QT_TIMEOUT_THEN_COUNT 4
/* Arms the clock: `after_ms` (> 0) from the first qt_engine_tick, the question ends with
 * QT_TIMED_OUT unless a key arrives first — any key stops the clock for good (with
 * QT_TIMEOUT_SELECTED: starts it again from the next tick). */
qt_status qt_engine_set_timeout(qt_engine *e, int64_t after_ms, qt_timeout_then then);
/* The time now. The first call starts the clock; on the deadline the engine finishes with
 * QT_TIMED_OUT. Bumps the revision when the countdown shown changes. */
qt_status qt_engine_tick(qt_engine *e, int64_t now_ms);
/* The person is answering this question on another face (the page): the clock stops for good,
 * as at a key here — with QT_TIMEOUT_SELECTED it starts again instead. Nothing when no clock
 * runs. */
qt_status qt_engine_stop_clock(qt_engine *e);
/* Milliseconds from `now_ms` until the clock runs out (its whole time before the first tick),
 * -1 when no clock runs. */
int64_t qt_engine_clock_left(const qt_engine *e, int64_t now_ms);
/* Milliseconds from `now_ms` until the countdown shown changes (or the deadline), -1 when no
 * clock runs (off, stopped by a key, or done). */
int64_t qt_engine_next_tick(const qt_engine *e, int64_t now_ms);
/* The qt_result_build_ex flags this engine's outcome needs (the timeout's "then"), 0 unless
 * it ended with QT_TIMED_OUT. */
unsigned qt_engine_result_flags(const qt_engine *e);
/* The qt_result_build_ex flags a timeout whose "then" is `then` adds (the one rule, for a
 * timed-out result built outside an engine too: the pi above's). */
unsigned qt_timeout_result_flags(qt_timeout_then then);

/* ---- accessible mode --------------------------------------------------------------------------
 * Plain lines a screen reader can follow: no box drawing or symbols, no styles (no meaning in
 * colour), markers as words ("selected", "checked"), the focused option announced as "Option 2
 * of 4: SQLite", each state change a short line. */
qt_status qt_engine_set_accessible(qt_engine *e, bool on);

/* ---- the external editor ----------------------------------------------------------------------
 * Ctrl+G while typing an answer or a note asks the host to open $VISUAL / $EDITOR on the text.
 * After each feed the host checks qt_engine_editor_request; when it returns true (*text: the
 * draft, valid until the next call on the engine) it runs the editor and hands the outcome to
 * qt_engine_editor_done: ok with the new text (replaces the field), or not ok with a short
 * reason (the field is kept as it was and the reason shown). Input fed meanwhile is ignored. */
bool qt_engine_editor_request(const qt_engine *e, const char **text, size_t *len);
/* Whether the person asked to step aside (QT_ACT_ASIDE) since the last call: the host shrinks
 * the question to a line and shows it again, as it was, when asked. Nothing else changes: the
 * flow keeps every draft, tick and scroll. */
bool qt_engine_take_aside(qt_engine *e);
qt_status qt_engine_editor_done(qt_engine *e, bool ok, const char *text, size_t len, const char *why);

/* ---- the question flow as steps -------------------------------------------------------------
 * Every face drives the same flow. The TUI and the terminal runner feed keys, which the engine
 * maps onto these steps; a face that draws no frame (pi's RPC dialogs, the web page) applies
 * the steps itself with qt_engine_act and reads the state with qt_engine_view. Keys that only
 * move or edit (↑↓, the cursor, opening a text field) have no step.
 *
 * Which steps are live depends on the state alone (qt_engine_live): a step that is not live is
 * refused with QT_ERR_STATE and changes nothing; a key is applied only through a live step. */
typedef enum qt_step {
  QT_STEP_PICK = 0, /* index: option (0-based) of a single-select question: its answer */
  QT_STEP_TOGGLE,   /* index: option of a multi-select question: ticked / unticked at once */
  QT_STEP_TYPE,     /* text: the typed answer ("Something else…", or a free-text question's),
                     * submitted: it answers a single-select or free-text question (long text
                     * asks "Answer is long… Submit anyway?" first); in a multi-select question
                     * it becomes the typed part of the answer and the question stays open
                     * ("" removes it) until SUBMIT */
  QT_STEP_NOTE,     /* text: the note of the current question ("" removes it); on the review, the
                     * one note on the whole call */
  QT_STEP_DISCUSS,  /* text: talk first: ends the call with QT_DISCUSS and the trimmed text
                     * (answers given so far kept); text NULL: opens the discussion field (talk
                     * first as a mode, as Ctrl+T: what it held before is still there, BACK
                     * leaves it; already open: nothing changes) */
  QT_STEP_DECLINE,  /* let the agent decide (answers given so far kept) */
  QT_STEP_CANCEL,   /* cancel the call ("Discard N answers?" first when answers were given) */
  QT_STEP_BACK,     /* leave a sub-state: the typed answer's field, the filter, the note, the
                     * discussion field (what was typed stays) */
  QT_STEP_GO,       /* index: question to show (0-based; question_count: the review) */
  QT_STEP_SUBMIT,   /* finish a multi-select question, or submit the review (missing answers:
                     * a warning, and the first unanswered question is shown) */
  QT_STEP_FILTER,   /* text: filter the options ("" shows them all) */
  QT_STEP_YES,      /* the answer to the engine's own question ("Discard N answers?", "Discard */
  QT_STEP_NO,       /*   what you typed?", "Answer is long… Submit anyway?"); no goes back */
  QT_STEP_DRAFT,    /* text: the typed answer's field, held without submitting it (as typing
                     * without Enter holds it): live where TYPE is. A face whose field is its own
                     * (the page) says what it holds before the person leaves the question, so
                     * leaving asks "Discard what you typed?" as in the TUI */
  QT_STEP_SKIP,     /* text: the question shown (a call of several) is left unanswered on purpose:
                     * "skipped" (the agent decides it), "chat" (the person says it in the chat) or
                     * "none" (not skipped: a multi-select question's ticks are its answer again);
                     * NULL: the next of those three (the skip key). It counts as dealt with for
                     * the review; picking, ticking or typing an answer replaces it. The question
                     * stays shown */
  QT_STEP_COUNT
} qt_step;

/* "pick", "toggle", "type", "note", "discuss", "decline", "cancel", "back", "go", "submit",
 * "filter", "yes", "no", "draft", "skip"; NULL for no step. */
const char *qt_step_name(qt_step step);
/* The step named `name`; false when there is none. */
bool qt_step_from_name(const char *name, qt_step *out);
/* The steps live now, in enum order, into out (at most cap); returns how many are live. None
 * once done, nor while the host runs the external editor. */
size_t qt_engine_live(const qt_engine *e, qt_step *out, size_t cap);
bool qt_engine_is_live(const qt_engine *e, qt_step step);
/* No index given (a face that sends none, e.g. the page's Submit with no option chosen): PICK and
 * TOGGLE are refused with "Choose an option…", GO as not possible now. */
#define QT_NO_INDEX ((size_t)-1)
/* Applies one step as the person's reply (it stops the timeout's clock, as a key does). `index`
 * is read by PICK, TOGGLE and GO (QT_NO_INDEX: none given); `text` (len bytes, any bytes: cleaned as typed text is, line
 * breaks kept only where the field keeps them) by TYPE, DRAFT, NOTE, DISCUSS and FILTER, by
 * TOGGLE as the state wanted: "ticked" or "unticked" (already so: nothing changes; none: a
 * flip), and by SKIP as the skip wanted ("skipped", "chat", "none"; none: the next). QT_ERR_STATE:
 * the step is not live now; QT_ERR_USAGE: an index out of range, text over its field's limit
 * (QT_MAX_ANSWER_BYTES, QT_MAX_NOTE_BYTES, QT_MAX_DISCUSS_BYTES, QT_MAX_FILTER_BYTES) or empty
 * where text is needed. Either way nothing changed, and qt_engine_act_error says why. */
qt_status qt_engine_act(qt_engine *e, qt_step step, size_t index, const char *text, size_t len);
/* Why the last qt_engine_act failed, one sentence in the engine's language (qt_engine_set_language;
 * English only for a call that names no step), "" after one that succeeded. */
const char *qt_engine_act_error(const qt_engine *e);
/* The state as JSON, for a face that draws no frame (flow.c); *json is malloc'd (free() it).
 * Display text in it is sanitized as the frame's is; "answers" and option "value"s are data.
 *   { "state": "choosing" | "typing" | "note" | "filter" | "discuss" | "confirm" | "review" | "callNote" | "done",
 *     "current": the question shown (question_count: the review),
 *     "questions": [{ "id", "label", "prompt", "multi", "answered", "skipped": "skipped" | "chat" | null,
 *                     "options": [{ "label", "description"?, "value", "ticked" }],
 *                     "typed": the draft, "wrote": the typed answer given or null, "note",
 *                     "filter": the filter text, "shown": [option indices the filter lets through] }],
 *     "discussion": the discussion field's text, "callNote": the field of the one note on the whole call,
 *     "confirm": { "which": "discard" | "long", "title": the engine's question,
 *                  "count": N (answers to discard, 0: typed text; "long": characters),
 *                  "items": [{ "question", "label", "text" }] what "yes" would discard } | null,
 *     "message": the one-shot warning ("" for none),
 *     "actions": [live step names],
 *     "answers": the answers object (qt_answers_from_json_note's shape, for the result builder: the
 *                one note on the whole call as ""),
 *     "outcome": once done ("answered", …), "discussionSent": the words sent with "discuss" } */
qt_status qt_engine_view(const qt_engine *e, char **json);

/* Renders the current state for `width` columns (clamped to >= 1) and `rows` (0: no limit).
 * With a row limit, no frame is taller: the prompt, the preview and the option list share the
 * height, each scrolling in its window with "↑ N more" / "↓ N more"; the help line and the line
 * being edited stay visible. A frame at any size changes nothing in the engine (what the keys
 * act on is the screen's: qt_engine_set_screen). *lines stays valid until the next call on this
 * engine; rendering twice with no change in between returns the cache. */
qt_status qt_engine_render(qt_engine *e, int width, int rows, const char *const **lines, size_t *count);

#ifdef __cplusplus
}
#endif
#endif
