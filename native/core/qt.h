/* qt.h — the contract of pi-question's core: the normalized request a model's `question`
 * call becomes, the answers a person gives, and the one builder of the tool result.
 *
 * Names: `qt_` (types, functions, files) and `QT_` (constants) stand for "question tool", the
 * tool this project gives pi; they have nothing to do with the Qt toolkit.
 *
 * Ownership: every `qt_*_create`/`qt_*_parse` result is owned by the caller and released
 * with the matching `qt_*_free`/`qt_*_destroy`, which accept NULL. Strings returned through
 * `char **` are malloc'ed and released with free(). Nothing here aborts or exits: failures
 * come back as a qt_status, with a sentence in a caller-provided qt_error where one fits.
 * No function keeps a pointer to its inputs unless it says so. Not thread-safe per object;
 * distinct objects may be used from distinct threads. */
#ifndef QT_H
#define QT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "qt_limits.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status codes ------------------------------------------------------------------ */
typedef enum qt_status {
  QT_OK = 0,
  QT_ERR_NOMEM = 1,   /* an allocation failed; the object is unchanged or freed */
  QT_ERR_INVALID = 2, /* the model's arguments were rejected; qt_error says where and why */
  QT_ERR_USAGE = 3,   /* the caller broke this contract (NULL where an object was needed, bad enum) */
  QT_ERR_STATE = 4    /* the call does not fit the object's state (e.g. answers of a running engine) */
} qt_status;

/* "QT_OK", "QT_ENOMEM", "QT_EINVALID", "QT_EUSAGE", "QT_ESTATE": the `code` of a JS error. */
const char *qt_status_code(qt_status status);

/* Where and why the arguments were rejected. `message` is one or two sentences naming the
 * JSON path, the problem and the fix, ready to show the model. */
typedef struct qt_error {
  char path[192]; /* e.g. "questions[2].options[0].label"; "" for the whole payload */
  char message[896];
} qt_error;

/* ---- the normalized request --------------------------------------------------------- */
typedef struct qt_option {
  char *value;                   /* machine value; defaults to the label */
  char *label;                   /* what the person reads */
  char *description;             /* NULL when absent */
  char *preview;                 /* multi-line text shown for the highlighted option; NULL when absent */
  uint32_t value_len, label_len; /* their lengths in bytes */
  bool label_plain;              /* JSON carries the label as it is (no escapes) */
} qt_option;

/* What a question's typed answer must be (`type`; qt_typed.h reads it). */
typedef enum qt_type {
  QT_TYPE_TEXT = 0, /* anything (no `type`: the question as it always was) */
  QT_TYPE_NUMBER,   /* a number, within min and max when given */
  QT_TYPE_INTEGER,  /* a whole number, within min and max when given */
  QT_TYPE_BOOLEAN,  /* yes or no: two options, yes first (Yes/No when none are given) */
  QT_TYPE_DATE,     /* a calendar date, YYYY-MM-DD */
  QT_TYPE_EMAIL,    /* an e-mail address */
  QT_TYPE_URL       /* an http(s) address */
} qt_type;
#define QT_TYPE_COUNT 7

typedef struct qt_question {
  char *id;            /* unique within the request */
  char *label;         /* short tab title; defaults to "Q<n>" */
  char *prompt;        /* the full question */
  qt_option *options;  /* the model's options; "Something else…" is NOT stored: it is always */
  size_t option_count; /* the choice after the last option (index option_count + 1, 1-based) */
  bool multi_select;
  uint8_t type;          /* qt_type */
  bool has_min, has_max; /* QT_TYPE_NUMBER, QT_TYPE_INTEGER: the bounds given */
  double min, max;
  bool secret; /* `secret: true`: a text answer masked where it is typed and handed to the model as
                * a file only this user can read (qt_secret.h), never as text */
} qt_question;

/* Why a question of several was left without an answer by the person's own choice (the skip
 * key, or a face's skip step): it counts as dealt with, carries no indices and no text. */
typedef enum qt_skip {
  QT_SKIP_NONE = 0, /* not skipped */
  QT_SKIP_SKIPPED,  /* skipped: the agent decides it */
  QT_SKIP_CHAT      /* "I'll say it in the chat": the person answers it in their next message */
} qt_skip;
#define QT_SKIP_COUNT 3
/* "skipped", "chat"; NULL for QT_SKIP_NONE. */
const char *qt_skip_name(qt_skip skip);

/* One question's answer. A single-select answer has one index or custom text; a
 * multi-select answer any number of indices plus optional custom text; a skipped one neither. */
typedef struct qt_answer {
  bool present;    /* false: not answered (yet) */
  uint8_t skipped; /* qt_skip: present, and left unanswered on purpose */
  size_t *indices; /* 1-based option indices, ascending; NULL when index_count is 0 */
  size_t index_count;
  char *custom;     /* typed text (trimmed, non-empty) or NULL; with secret_file, the secret's file */
  bool secret_file; /* a secret question answered above this pi (the relay): custom is the path of
                     * the file the pi above handed the secret over in ("" when it could not) */
  char *note;       /* a note the person attached, or NULL */
} qt_answer;

typedef struct qt_request {
  struct qt_arena *arena; /* owns every string of `questions` (never free those one by one) */
  qt_question *questions;
  size_t question_count;
  char *metadata_json; /* the normalized `metadata` object as JSON, or NULL */
  qt_answer *preset;   /* pre-supplied answers, one per question, or NULL when none were given */
  bool no_wait;        /* `wait: false`: the model asks and goes on working; the answer comes later */
} qt_request;

/* Parses, normalizes and validates the tool arguments (canonical shape or any accepted
 * alternative shape). On QT_ERR_INVALID, *err says why and *out is NULL. */
qt_status qt_request_parse(const char *json, size_t len, qt_request **out, qt_error *err);

/* Flags of qt_request_parse_ex. */
enum {
  /* The JSON is this core's own canonical output for a payload that passed the argument limit
   * (pi's prepared arguments): canonical options are longer than short-hand ones, so the size
   * limit is QT_MAX_PREPARED_BYTES instead of QT_MAX_ARGUMENT_BYTES. */
  QT_PARSE_PREPARED = 1,
  /* The request lives for one call: its options and strings go in this thread's scratch
   * memory, kept between calls. qt_request_free it on this thread before the thread ends (a
   * second such parse before that simply uses malloc). */
  QT_PARSE_SCRATCH = 2
};
qt_status qt_request_parse_ex(const char *json, size_t len, unsigned flags, qt_request **out, qt_error *err);
void qt_request_free(qt_request *req);
/* About how many bytes of native memory a request holds (see qt_engine_footprint). */
size_t qt_request_footprint(const qt_request *req);

/* Whether the call pre-supplies an answer to every one of its questions (`answers`): then it is
 * answered at once, in every mode, and no face shows it (the one rule, for every host). */
bool qt_request_all_presupplied(const qt_request *req);

/* The canonical arguments of a request, as JSON (`prepareArguments` hands these to pi). */
qt_status qt_request_to_json(const qt_request *req, bool with_preset, char **out_json);
/* qt_request_to_json, appended to b (qt_text.h), which the caller frees (it may keep it for
 * the next call: a megabyte fresh from the system for each call faulted a page every 4 KB). */
struct qt_buf;
qt_status qt_request_write_json(const qt_request *req, bool with_preset, struct qt_buf *b);

/* Resolves free-form answers (`{ id: string | string[] | { selected?: string[], wrote?: string } |
 * { skipped: "skipped" | "chat" } }`, as JSON) against a request: a string equal to an option's
 * value or label (exactly, then trimmed and ignoring ASCII case) picks it, anything else is typed
 * text; in the object form `selected` must name options and `wrote` is always typed text;
 * `skipped` is a question the person skipped (a call of several questions only).
 * *out has question_count entries (absent ones have present == false). */
qt_status qt_answers_from_json(const qt_request *req, const char *json, size_t len, qt_answer **out, qt_error *err);
/* qt_answers_from_json, where the key "" (no question's id: an empty id is never kept) is the
 * person's one note on the whole call, read into *call_note (malloc'd, NULL when absent). */
qt_status qt_answers_from_json_note(const qt_request *req, const char *json, size_t len, qt_answer **out,
                                    char **call_note, qt_error *err);
/* qt_answers_from_json_note for the answer of the pi above (the relay): a secret question's answer
 * is { "secretFile": path } (the file the pi above wrote; "" when it could not), never its text. */
qt_status qt_answers_from_json_relayed(const qt_request *req, const char *json, size_t len, qt_answer **out,
                                       char **call_note, qt_error *err);
/* Frees the strings inside `count` answers, then the array. */
void qt_answers_free(qt_answer *answers, size_t count);
/* Deep copy of one answer into *dst (whose previous contents are not freed). */
qt_status qt_answer_copy(qt_answer *dst, const qt_answer *src);
void qt_answer_clear(qt_answer *a);

/* ---- the tool result: one builder for every mode -------------------------------------- */
typedef enum qt_outcome {
  QT_ANSWERED = 0,
  QT_DECLINED = 1,    /* the person lets the agent decide */
  QT_CANCELLED = 2,   /* the person stopped the question; the turn ends */
  QT_INTERRUPTED = 3, /* the agent was aborted while the question was open */
  QT_UNAVAILABLE = 4, /* no way to ask in this mode */
  QT_TIMED_OUT = 5,   /* the person's own timeout ran out before they pressed a key */
  QT_DISCUSS = 6,     /* the person wants to talk first (Ctrl+T): their words instead of an answer; the turn goes on */
  QT_ASKED = 7        /* asked without waiting (wait: false): the answer comes later as a message; `reason` is the
                         question's id (details.qid) */
} qt_outcome;
#define QT_OUTCOME_LAST QT_ASKED

const char *qt_outcome_name(qt_outcome outcome); /* "answered", "declined", … */

/* Builds `details` (JSON) and the text the model reads. `answers` holds question_count
 * entries and may be NULL when the outcome is not QT_ANSWERED. `mode` is e.g.
 * "interactive", "rpc", "print", "tty", "presupplied". `reason` (may be NULL) is appended to
 * the sentence of a non-answered outcome; for QT_DISCUSS it is what the person wrote (quoted
 * in the sentence and kept as `discussion` in details). */
qt_status qt_result_build(const qt_request *req, const qt_answer *answers, qt_outcome outcome, const char *mode,
                          int64_t answered_at_ms, const char *reason, char **details_json, char **text);

/* Flags of qt_result_build_ex. */
enum {
  QT_RESULT_CANCEL_CONTINUES = 1, /* the user's settings let the agent go on after a cancel */
  /* QT_TIMED_OUT: what the person's timeout setting applies ("then"); neither flag: cancel.
   * With RECOMMENDED, every question left without an answer gets its option whose label ends
   * in "(Recommended)" (marked as applied by the timeout, never as chosen by the person); a
   * question without one is left to the agent, as with DECLINE. With SELECTED (the person
   * stopped answering part-way), the answers given are sent as the person's and the rest are
   * left to the agent. */
  QT_RESULT_TIMEOUT_DECLINE = 2,
  QT_RESULT_TIMEOUT_RECOMMENDED = 4,
  QT_RESULT_TIMEOUT_SELECTED = 8
};
/* The 0-based index of option k of q whose label ends in "(Recommended)" (ASCII case ignored,
 * trailing spaces ignored), the first such one; SIZE_MAX for none. */
size_t qt_recommended_option(const qt_question *q);
qt_status qt_result_build_ex(const qt_request *req, const qt_answer *answers, qt_outcome outcome, const char *mode,
                             int64_t answered_at_ms, const char *reason, unsigned flags, char **details_json,
                             char **text);
/* qt_result_build_ex, where `earlier` (NULL, or question_count entries, each NULL or a date) marks
 * the answers the person kept unchanged from this project's memory of answers, given on that
 * date: the text says "(the earlier answer (<date>), confirmed)" after the answer's line and
 * details carries `earlierAnswer: <date>`. Read only with QT_ANSWERED. */
qt_status qt_result_build_earlier(const qt_request *req, const qt_answer *answers, qt_outcome outcome, const char *mode,
                                  int64_t answered_at_ms, const char *reason, unsigned flags,
                                  const char *const *earlier, char **details, char **text);
/* qt_result_build_earlier, knowing who answered when it was not (or not surely) the person:
 * mode "extension" (another pi extension, pi's event bus), "unverified" (`pi-question answer`
 * from a process the relay could not identify) or "pending" (print mode: the answers written
 * into the pending-questions file between runs). The text says so first and never "user
 * selected"; `source` (NULL, or what is known of who answered: the name the extension gives
 * itself, unverified; why the process could not be identified; the pending file) is sanitized, cut to
 * QT_MAX_ANSWER_SOURCE_BYTES, said as such and kept as details.source. Any other mode ignores
 * `source` and builds what qt_result_build_earlier does. */
qt_status qt_result_build_from(const qt_request *req, const qt_answer *answers, qt_outcome outcome, const char *mode,
                               const char *source, int64_t answered_at_ms, const char *reason, unsigned flags,
                               const char *const *earlier, char **details, char **text);
/* qt_result_build_from with the person's one note on the whole call (`call_note`, NULL for none):
 * the text says it after the answers ("note on all the answers: …") and details keeps it as
 * `note`. Read where the answers are kept (not for a cancel). */
qt_status qt_result_build_noted(const qt_request *req, const qt_answer *answers, qt_outcome outcome, const char *mode,
                                const char *source, int64_t answered_at_ms, const char *reason, unsigned flags,
                                const char *const *earlier, const char *call_note, char **details, char **text);
/* qt_result_build_noted knowing where each secret question's answer goes (qt_question.secret):
 * `secret_paths` (NULL, or question_count entries, each NULL or a path) names the file the host
 * writes that answer's text to; the text and details then carry only the path, with how to use
 * it. A secret answer without a path, or in an answer not the person's (the modes named at
 * qt_result_build_from), is dropped and said as such: its text never reaches either. */
/* Whether a result of this outcome and mode hands secret answers over as files (the answers
 * are kept, and they are the person's): the host makes paths only then. */
bool qt_result_takes_secrets(qt_outcome outcome, const char *mode, unsigned flags);
qt_status qt_result_build_secret(const qt_request *req, const qt_answer *answers, qt_outcome outcome, const char *mode,
                                 const char *source, int64_t answered_at_ms, const char *reason, unsigned flags,
                                 const char *const *earlier, const char *call_note, const char *const *secret_paths,
                                 char **details, char **text);

#ifdef __cplusplus
}
#endif
#endif
