/* engine_internal.h — the interaction engine's state, shared by the engine's files (engine.c,
 * engine_keys.c, engine_steps.c, engine_live.c, engine_clock.c: input and state changes) and the
 * renderers (render*.c: frames). Not part of the public contract: see qt_engine.h. */
#ifndef QT_ENGINE_INTERNAL_H
#define QT_ENGINE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "editor.h"
#include "text/lines.h"
#include "qt_engine.h"
#include "qt_keys.h"
#include "qt_text.h"

/* ---- tunables ------------------------------------------------------------------------------ */
/* Rows of an option list shown at once (the host's height is unknown, so this is fixed). */
#define QT_LIST_WINDOW          8
/* Lines of a typed answer shown at once; longer text scrolls with the cursor. */
#define QT_EDITOR_WINDOW        10
/* Lines of a preview shown at once (a longer one scrolls: Shift+↑/Shift+↓). */
#define QT_PREVIEW_LINES        16
/* From this width on, a preview stands beside the list instead of below it. */
#define QT_PREVIEW_BESIDE_WIDTH 100
/* Keys per action (QT_MAX_KEYS) and the note and filter caps are limits: qt_limits.h. */

/* ---- state --------------------------------------------------------------------------------- */
/* What has the keyboard inside one question. */
typedef enum qt_view {
  QT_VIEW_LIST = 0, /* the option list */
  QT_VIEW_ENTRY,    /* typing the "Something else…" answer (or a free-text answer) */
  QT_VIEW_FILTER,   /* typing the filter of the option list */
  QT_VIEW_NOTE      /* typing the note of the question */
} qt_view;

/* A question put to the person before they may go on. */
typedef enum qt_overlay {
  QT_OVERLAY_NONE = 0,
  QT_OVERLAY_DISCARD, /* "Discard N answers?" / "Discard what you typed?" before ending the call */
  QT_OVERLAY_LONG     /* "Answer is long (N chars). Submit anyway?" */
} qt_overlay;

/* The keys of one action, in small types: every engine holds one per action (with 8 keys, 44
 * bytes where size_t and unsigned made 72). */
typedef struct qt_keyset {
  uint32_t key[QT_MAX_KEYS];
  uint8_t mods[QT_MAX_KEYS]; /* qt_mod bits */
  uint8_t count;
} qt_keyset;
_Static_assert(QT_MAX_KEYS <= UINT8_MAX, "qt_keyset counts its keys in a uint8_t");

/* Display text of one option, sanitized once at creation. */
typedef struct qt_opt_text {
  char *label;       /* one line */
  char *description; /* line breaks kept; NULL when absent */
  char *preview;     /* line breaks kept; NULL when absent */
  char *folded;      /* case-folded "label\ndescription" for the filter; made on first use */
} qt_opt_text;

/* Everything the engine keeps about one question. */
typedef struct qt_qstate {
  const qt_question *q; /* borrowed from the request */
  char *prompt;         /* sanitized prompt, line breaks kept */
  char *label;          /* sanitized label, one line (review) */
  char *tab;            /* label shortened to QT_TAB_LABEL_COLUMNS (tab bar) */
  qt_opt_text *opts;    /* option_count entries */
  bool has_preview;     /* some option has a preview */
  qt_view view;         /* what has the keyboard when this question is shown */
  qt_view note_return;  /* the view to go back to when the note editor closes */
  size_t highlight;     /* highlighted row of the current list (row_count - 1 = "Something else…") */
  size_t scroll;        /* first row inside the list window (where the keys put it; see qt_layout) */
  bool *ticked;         /* multi-select: ticked options, option_count entries */
  qt_editor draft;      /* the typed answer, kept whatever keys are pressed */
  qt_editor note;       /* the note (empty: none) */
  qt_editor filter;     /* the filter text */
  bool filter_on;       /* the list is filtered (shown[] is valid) */
  size_t *shown;        /* 0-based indices of the options the filter lets through */
  size_t shown_count;
  size_t folded_bytes;   /* bytes of the opts[].folded texts made so far (qt_engine_footprint) */
  bool touched;          /* the person answered or changed this question */
  size_t prompt_scroll;  /* first line of the prompt to show when it is cut to fit the rows */
  size_t preview_for;    /* the option (0-based) whose preview preview_scroll is about */
  size_t preview_scroll; /* first line of that preview to show when it is cut */
  /* the answer this project remembers for this question (qt_engine_remember) */
  qt_answer earlier;  /* present: the question opened with it chosen */
  char *earlier_line; /* "Answered on 21 Nov: SQLite — Enter keeps it", sanitized, one line */
  char *earlier_when; /* when it was given, for the model's result ("21 Nov 2026") */
} qt_qstate;

/* What a frame showed that the next key needs: where each window that scrolls started and how
 * many lines it showed (PageUp/PageDown and Shift+↑/Shift+↓ move by that). A renderer returns it
 * beside the frame. The engine keeps the one of the frame at the host's screen size
 * (qt_engine_set_screen; render/render_screen.c), and the first key after that frame starts from
 * it (engine_keys.c qt_adopt_layout). Drawing writes nothing else: a frame is a function of the
 * state, the width and the rows, and a frame at another size changes nothing. */
typedef struct qt_layout {
  bool valid;            /* it is the layout of a frame */
  bool adopted;          /* a key already started from it */
  size_t question;       /* the question drawn (question_count: the review) */
  size_t list_top;       /* first row of the option list shown */
  size_t prompt_top;     /* first line of the prompt shown */
  size_t prompt_window;  /* lines of the prompt shown when it was cut; 0: not cut */
  size_t preview_for;    /* the option (0-based, SIZE_MAX: none) whose preview the fields below are about */
  size_t preview_top;    /* first line of that preview shown */
  size_t preview_window; /* lines of it shown when it was cut; 0: not cut (or not shown) */
  size_t review_top;     /* first line of the review shown */
  size_t review_window;  /* lines of the review shown when it was cut; 0: not cut */
} qt_layout;

/* Where the text of one editor wraps, as the renderer laid it out last, with a copy of the text
 * it laid out: the renderer compares that copy with the editor's text to lay out again only
 * the lines from the first byte that differs (nothing after a cursor move). The editor knows
 * nothing of it. */
typedef struct qt_wrap_cache {
  const qt_editor *editor; /* the editor laid out here last: only compared, never read through */
  qt_buf text;             /* a copy of the text laid out */
  size_t *start;           /* where each line starts; start[count] is the end of all */
  size_t *reach;           /* for each line, the position after the last grapheme its layout looked at */
  size_t count, cap;       /* lines; entries allocated in start and in reach */
  int first, avail;        /* the columns of the first line and of the others it was laid out for */
  bool with_end;           /* laid out with a cell for the cursor after the text */
  unsigned rules;          /* under these width rules (qt_width_rules) */
  bool valid;              /* start, reach and count are the layout of text */
  uint64_t used;           /* qt_draw.wrap_clock when it was used last */
} qt_wrap_cache;
/* Editors a frame may draw: the current question's draft, note and filter, the discussion. */
#define QT_WRAP_SLOTS 4

/* One option row as drawn (render.c qt_rd_draw_row): its lines are the same while what it is
 * drawn from is (the option and its number, its marks, the width, the width rules, the styles;
 * for "Something else…" with nothing typed, the language). */
typedef struct qt_row_cache {
  size_t q, k, row; /* question, option (SIZE_MAX: "Something else…"), row number */
  unsigned marks;   /* highlighted, ticked, chosen (render.c ROW_*) */
  int width;        /* columns */
  unsigned rules;   /* width rules (qt_width_rules) */
  bool valid;       /* lines are that row */
  uint64_t used;    /* qt_draw.row_clock when it was used last */
  size_t count;     /* its lines, in `bytes` one after the other: the width (an int), the text, '\0' */
  qt_buf bytes;
} qt_row_cache;
/* Rows kept: each row of a full list window, highlighted and not. */
#define QT_ROW_SLOTS (2 * QT_LIST_WINDOW)

/* The renderers' own memory: the frame they draw into and what they keep to draw the next
 * frame faster. None of it is state: no key reads it, and a frame drawn with all of it empty
 * is the same. qt_engine_render hands it to a renderer apart from the state, which the
 * renderer only reads. */
typedef struct qt_draw {
  qt_lines frame;
  qt_lines scratch[2]; /* reusable columns for side-by-side previews */
  qt_lines measure;    /* lines drawn aside to be measured or windowed (render.c) */
  qt_buf cell_text;    /* the display bytes of the graphemes of an editor line being drawn */
  qt_editor mask;      /* what a masked (secret) editor shows: its bullets (qt_editor_mask) */
  /* where the text of the editors drawn last wraps (render_editor.c wrap_editor), one slot per
   * editor, the one used longest ago given to another */
  qt_wrap_cache wraps[QT_WRAP_SLOTS];
  uint64_t wrap_clock;  /* counts the slots' uses */
  qt_wrap_cache relaid; /* the lines laid out again, before they go into their slot (start, reach) */
  /* the help line, laid out once for each set of items and width (render_help.c): it was half of
   * a keystroke's rendering */
  qt_buf help_key;     /* what it was laid out for (render_help.c help_line_key); empty: nothing kept */
  qt_lines help_lines; /* the lines it gave */
  /* the option rows drawn last (render.c qt_rd_draw_row), one slot per row, the one used longest
   * ago given to another: a key that moves the highlight draws only the two rows it changed */
  qt_row_cache rows[QT_ROW_SLOTS];
  uint64_t row_clock; /* counts the slots' uses */
  /* where the lines of the preview shown last wrap, for its width (render.c preview_layout):
   * laid out once per option, width and width rules, so a key that scrolls it does not wrap
   * it again */
  struct {
    bool valid;
    size_t q, k;         /* question and option */
    int avail;           /* columns of its lines */
    unsigned rules;      /* under these width rules (qt_width_rules) */
    size_t *start, *end; /* each line's text: preview[start, end) */
    int *width;          /* and its columns */
    size_t count, cap;
  } pv;
} qt_draw;

struct qt_engine {
  const qt_request *req;   /* borrowed: the questions */
  qt_qstate *qs;           /* question_count entries */
  qt_answer *answers;      /* question_count entries: what was answered so far */
  size_t current;          /* shown question; question_count = the review step */
  bool multi;              /* more than one question: tab bar and review */
  qt_overlay overlay;      /* a yes/no question on top of the current screen */
  size_t overlay_n;        /* N of the overlay: answers to discard (0: typed text), or characters */
  qt_outcome overlay_then; /* QT_OVERLAY_DISCARD: how the call ends on "yes" */
  size_t overlay_pick;     /* QT_OVERLAY_DISCARD: the option (0-based) "yes" picks first, or SIZE_MAX */
  bool overlay_close;      /* QT_OVERLAY_LONG: "yes" also finishes a multi-select question */
  char act_why[200];       /* why the last qt_engine_act failed ("" after one that succeeded) */
  bool done;               /* finished: input is ignored */
  qt_outcome outcome;      /* how it finished */
  qt_decoder *decoder;     /* raw bytes -> key events */
  qt_status feed_status;   /* an error raised while handling one event */
  qt_keyset keys[QT_ACT_COUNT];
  char *style_open[QT_STYLE_COUNT]; /* host bytes around each style ("" by default) */
  char *style_close[QT_STYLE_COUNT];
  char *cursor_marker;  /* emitted where the text cursor is ("" by default) */
  char *asker_name;     /* who asks, for a relayed question (sanitized; NULL: the agent itself) */
  char *asker_where;    /* where the asking subagent runs, when it has no name (sanitized) */
  qt_language lang;     /* language of the string table */
  qt_buf flash;         /* a one-shot message shown above the help line ("" for none) */
  qt_style flash_style; /* its style */
  uint64_t revision;    /* bumped on every change a frame would show */
  size_t fixed_bytes;   /* what creation allocated and nothing frees before destroy (qt_engine_footprint) */
  /* the frame cache (render/render_screen.c) */
  qt_draw draw;           /* the renderer's memory, the frame in it */
  const char **line_ptrs; /* frame.count pointers into frame.buf, handed to the host */
  size_t line_ptr_cap;
  int frame_width; /* width of the cached frame; 0 when there is none */
  int frame_rows;  /* the rows it was fitted to (0: no limit) */
  uint64_t frame_revision;
  unsigned frame_rules;   /* the width rules it was drawn under (qt_width_rules) */
  qt_layout frame_layout; /* what it showed */
  /* the host's screen (qt_engine_set_screen) and what the frame at its size showed, for keys */
  int screen_width; /* 0: no screen named yet, nothing shown */
  int screen_rows;  /* 0: no limit */
  qt_layout layout; /* what the frame at the screen's size showed that keys need */
  int layout_width; /* the size, rules and revision of that frame */
  int layout_rows;
  unsigned layout_rules;
  uint64_t layout_revision;
  /* lays out the frame at the screen's size for the state now, when none was drawn for it
   * (set with the screen by render/, which the engine does not call by name: rule 8) */
  qt_status (*lay_out_screen)(qt_engine *e);
  /* talk first: Ctrl+T */
  bool discuss_open; /* the "What do you want to tell the agent?" field has the keyboard */
  qt_editor discuss; /* its text, kept when the field is closed */
  char *discussion;  /* the trimmed text sent with QT_DISCUSS (NULL before) */
  /* one note for the whole call, written on the review (Ctrl+N there) */
  bool call_note_open;  /* its field has the keyboard */
  qt_editor call_note;  /* its text, kept when the field is closed */
  char *call_note_text; /* the trimmed text the result carries (NULL: none) */
  /* the question fits the screen */
  size_t review_scroll; /* first line of the review to show when it is cut */
  /* the person's timeout (engine_clock.c) */
  bool clock_on;          /* a timeout is armed and no key has stopped it */
  bool clock_started;     /* the first tick fixed the deadline */
  int64_t clock_after;    /* milliseconds from the first tick to the deadline */
  int64_t clock_deadline; /* on the host's clock */
  int64_t clock_now;      /* the last tick */
  qt_timeout_then clock_then;
  bool timed_out; /* finished by the clock (outcome QT_TIMED_OUT) */
  /* accessible mode (render_plain.c) */
  bool accessible;
  /* the external editor: 0 none, 1 the draft, 2 the note, 3 the discussion is asked for */
  int editor_want;
  bool aside_want; /* QT_ACT_ASIDE was pressed: the host steps aside (qt_engine_take_aside) */
};

/* One grapheme of an editor's text as drawn. */
typedef enum qt_cell_kind { QT_CELL_TEXT = 0, QT_CELL_SPACE, QT_CELL_NEWLINE, QT_CELL_END } qt_cell_kind;
typedef struct qt_cell {
  size_t raw;  /* byte offset in the editor's text */
  size_t disp; /* offset of its display bytes in cell_text */
  size_t disp_len;
  int width; /* columns (1 for a newline and the end: room for the cursor) */
  qt_cell_kind kind;
} qt_cell;

/* ---- the live steps as the help line names them ------------------------------------------ */
/* One item of what works now: a step (or none: a key that only moves or edits), the key or pair
 * of keys that does it, and what the help line says. Built by qt_live_items from the live
 * steps (qt_engine_live), in the help line's order; render_help.c prints the shown ones. */
typedef enum qt_live_kind {
  QT_LIVE_KEY = 0, /* "<first key of `key`> <help>" */
  QT_LIVE_PAIR,    /* "<key><key2> <help>" ("↑↓ move") */
  QT_LIVE_TEXT,    /* "<help>" alone ("1-9 pick") */
  QT_LIVE_LETTER,  /* "<letter string> <help>" ("y yes") */
  QT_LIVE_SCROLL,  /* the keys that read a cut prompt or preview go here (layout facts: render_help.c) */
  QT_LIVE_HIDDEN   /* live, but the help line leaves it out */
} qt_live_kind;
typedef struct qt_live {
  qt_step step; /* QT_STEP_COUNT: no step */
  qt_live_kind kind;
  qt_action key, key2;
  qt_string_id help, letter;
} qt_live;
#define QT_LIVE_MAX 32
/* The items for the current state (at most QT_LIVE_MAX); every step live is in one of them. */
size_t qt_live_items(const qt_engine *e, qt_live *out);

/* ---- what the engine's own questions are about (engine_steps.c; the view in flow.c says it) -- */
/* Answers the person gave in this call (present and touched): "Discard N answers?". */
size_t qt_count_given(const qt_engine *e);
/* What of question i's typed text the result would not carry if the call ended now with
 * `outcome` (after option `pick` of the current question, unless SIZE_MAX). */
#define QT_LOST_DRAFT 1u
#define QT_LOST_NOTE  2u
unsigned qt_typed_lost(const qt_engine *e, size_t i, qt_outcome outcome, size_t pick);

/* ---- what the engine's files share ----------------------------------------------------------- */
/* engine.c: the state */
/* A malloc'ed copy of s[0..n), or NULL. */
char *qt_dup_range(const char *s, size_t n);
/* Frees display text made from `from` at creation (sanitized, shortened), unless it is `from` itself. */
void qt_free_text(char *text, const char *from);
/* Bumps the revision: the next frame is drawn again. */
void qt_touch(qt_engine *e);
/* Keeps the highlighted row inside the list and inside the window. */
void qt_keep_visible(qt_qstate *s);
/* Simple case folding: ASCII, Latin-1, Greek and Cyrillic capitals. */
uint32_t qt_fold_cp(uint32_t cp);
/* Re-applies the filter text to the options (O(options), on filter edits only); drops the filter. */
qt_status qt_apply_filter(qt_qstate *s);
void qt_clear_filter(qt_qstate *s);
/* Sets the one-shot message: template `id` with {n} and {s} filled in. */
void qt_flash(qt_engine *e, qt_style style, qt_string_id id, size_t n, const char *s);

/* engine_steps.c: the flow */
/* Applies one step of the flow if it is live (engine_live.c): the one way keys and faces change
 * answers or end the call. For QT_STEP_TYPE, `k` 1 keeps a multi-select question open
 * (qt_submit_typed's `close` false). */
qt_status qt_step_apply(qt_engine *e, qt_step st, size_t k);
/* Copies the note editor of question qi into its answer's note (NULL when blank). */
qt_status qt_sync_note(qt_engine *e, size_t qi);
/* Ends the call with `outcome`. */
void qt_finish(qt_engine *e, qt_outcome outcome);
/* Ends the call with `outcome` (after option `pick` of the current question, unless SIZE_MAX),
 * first asking "Discard …?" when `given` answers or typed text would be lost. */
qt_status qt_end_call(qt_engine *e, qt_outcome outcome, size_t given, size_t pick);
/* Enter on a typed answer of question qi. `confirmed`: the long-answer question was already
 * answered yes. `close`: a multi-select question is finished too, else it stays open. */
qt_status qt_submit_typed(qt_engine *e, size_t qi, bool confirmed, bool close);
/* Answers question qi with option k (0-based). `confirmed`: losing typed text was agreed to. */
qt_status qt_pick_option(qt_engine *e, size_t qi, size_t k, bool confirmed);
/* Copies the call note's editor into call_note_text (NULL when blank). */
qt_status qt_sync_call_note(qt_engine *e);
/* Opens text entry, the note editor of a question. */
void qt_open_entry(qt_qstate *s);
void qt_open_note(qt_qstate *s);
/* Next or previous tab, wrapping around (the review step is the last tab). */
qt_status qt_switch_question(qt_engine *e, int delta);

/* engine_keys.c: the keys */
/* The answer to the engine's own question: yes does what was asked, no goes back. */
qt_status qt_answer_overlay(qt_engine *e, bool yes);
/* Ends the call with QT_DISCUSS and the trimmed text of the discussion field. */
qt_status qt_send_discussion(qt_engine *e);
/* Talk first as a mode: the discussion field takes the keyboard (what it held before kept). */
void qt_open_discussion(qt_engine *e);
/* The first key or step after a frame starts from what the frame showed (qt_layout). */
void qt_adopt_layout(qt_engine *e);

/* engine_live.c: whether step st is live now (qt_engine_live). */
bool qt_step_live(const qt_engine *e, qt_step st);

/* engine.c: the line under the question shown when the person skipped it (QT_STR_SKIPPED_LINE,
 * QT_STR_CHAT_LINE), QT_STR_COUNT when it is not skipped (or the review is shown). */
qt_string_id qt_skip_line(const qt_engine *e);

/* engine_clock.c: stops the person's timeout for good (a key or a step came). */
void qt_clock_stop(qt_engine *e);

/* ---- shared helpers ------------------------------------------------------------------------ */
static inline const char *qt_str(const qt_engine *e, qt_string_id id) { return qt_string(e->lang, id); }

/* Rows of the current list of question i: the options shown plus "Something else…". */
size_t qt_list_rows(const qt_qstate *s);
/* 0-based option index at a row, or SIZE_MAX for the "Something else…" row. */
size_t qt_list_option_at(const qt_qstate *s, size_t row);

/* engine.c: the memory a qt_draw holds (the renderers' memory, which the engine owns), and
 * freeing it. */
size_t qt_draw_bytes(const qt_draw *d);
void qt_draw_free(qt_draw *d);
/* engine.c: forgets the lines the renderers kept (option rows, the help line): the styles or the
 * language they were drawn in changed. */
void qt_draw_forget_kept(qt_draw *d);
/* The renderers (render/) read the state through this header; the engine calls none of them by
 * name (rule 8: render/ comes after engine/), only e->lay_out_screen. */
/* True when every action's first key is its default one (engine.c): the plain frame's sentences
 * name those keys. */
bool qt_engine_first_keys_default(const qt_engine *e);
/* Appends the countdown ("Answers itself in 4:59 — any key stops the clock"); false when no
 * clock runs (nothing appended). */
bool qt_countdown_text(const qt_engine *e, qt_buf *out);
/* The sentence of the engine's own question now ("Discard 1 answer?", "Discard what you typed?",
 * "Answer is long…"), its {n} being e->overlay_n: the one choice, for every renderer and the view. */
qt_string_id qt_confirm_string(const qt_engine *e);

#endif
