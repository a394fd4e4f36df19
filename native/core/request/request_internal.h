/* request_internal.h — what the core's .c files share beyond the public contract of qt.h: the
 * helpers of common.c and the cJSON forms of requests and answers that request.c, answers.c
 * and result.c hand each other. Not part of the public contract. */
#ifndef QT_REQUEST_INTERNAL_H
#define QT_REQUEST_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "qt.h"

struct cJSON; /* <cjson/cJSON.h>: only the files that build JSON include it */

/* ---- common.c: errors ------------------------------------------------------------------- */
/* Fills *err (if not NULL) with a path and a printf-formatted message; returns QT_ERR_INVALID. */
qt_status qt_fail(qt_error *err, const char *path, const char *fmt, ...)
#if defined(__MINGW32__) /* C99 formats: Windows builds use mingw-w64's printf or UCRT's, never msvcrt's */
    __attribute__((format(gnu_printf, 3, 4)))
#elif defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* snprintf for JSON paths (truncation of an absurdly long path is harmless). */
void qt_pathf(char *dst, size_t cap, const char *fmt, ...)
#if defined(__MINGW32__) /* C99 formats: Windows builds use mingw-w64's printf or UCRT's, never msvcrt's */
    __attribute__((format(gnu_printf, 3, 4)))
#elif defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ---- common.c: strings ------------------------------------------------------------------ */
/* malloc'ed copy of s[0..n) with ASCII whitespace trimmed at both ends; NULL on OOM. */
char *qt_strndup_trimmed(const char *s, size_t n);
char *qt_strdup(const char *s);
/* cJSON_PrintUnformatted as a malloc'ed string (released with free(), unlike cJSON's own,
 * which cJSON_free releases); NULL on OOM. */
char *qt_cjson_print(const struct cJSON *item);

/* Case-insensitive (ASCII) equality after trimming both. */
bool qt_loose_equal(const char *a, const char *b);

/* A JSON number as text: integers exactly, others in the shortest form that reads back the same. */
void qt_number_text(double d, char *out, size_t cap);
/* The value of a JSON number's text s[0..n) (n <= QT_JSON_NUMBER_MAX, syntax already checked),
 * read with strtod whatever the locale's decimal point. */
double qt_json_number(const char *s, size_t n);

/* ---- common.c: reading a JSON payload --------------------------------------------------- */
/* Checks raw JSON before parsing: valid UTF-8, nesting within QT_MAX_JSON_DEPTH, no raw
 * control characters, escaped NULs, \u escapes without four hex digits or lone UTF-16
 * surrogates in strings (all refused, never mended). `what` names the payload in messages
 * ("arguments", "answers"); `base` is the JSON path of its root ("" or "answers"): an error
 * names the path of the bad string under it.
 * `max_values` (0: no bound) bounds the JSON values, counted as 1 plus the ',', ':' and '['
 * outside strings (each value but the first follows one), so that cJSON never allocates a node
 * for each of millions of tiny values; the scan stops at the first one past it. */
qt_status qt_json_precheck(const char *json, size_t len, const char *what, const char *base, size_t max_values,
                           qt_error *err);
/* qt_json_precheck, then cJSON on exactly len bytes: one value, only whitespace after it.
 * *out is the parsed tree (cJSON_Delete it) or NULL on failure. */
qt_status qt_json_parse(const char *json, size_t len, const char *what, const char *base, size_t max_values,
                        struct cJSON **out, qt_error *err);

/* Fills *err with "<path>: the <what> are not valid JSON (near byte at)", the path being where
 * byte `at` is (under `base`); or, with `trailing`, that text follows the value. QT_ERR_INVALID. */
qt_status qt_json_syntax_error(const char *json, size_t len, size_t at, bool trailing, const char *what,
                               const char *base, qt_error *err);

/* ---- json_tree.c: the tree of a call's arguments ---------------------------------------- */
/* A value of a parsed text, by its bytes (nothing is copied or decoded). Indexes name nodes of
 * the same tree; 0 (the root) stands for none in `child` and `next`. */
enum { QT_JV_NULL, QT_JV_FALSE, QT_JV_TRUE, QT_JV_NUMBER, QT_JV_STRING, QT_JV_ARRAY, QT_JV_OBJECT };
enum {
  QT_JV_ESCAPED = 1,     /* a string holding escapes (its raw bytes are not its text) */
  QT_JV_KEY_ESCAPED = 2, /* the same for the key of an object's member */
  QT_JV_WHOLE = 4        /* a number with neither fraction nor exponent */
};
typedef struct qt_jv {
  uint32_t start, end;         /* the value's bytes; a string's are those inside its quotes, raw */
  uint32_t key_start, key_len; /* an object's member: its key's raw bytes inside the quotes */
  uint32_t child, next;        /* an array's or object's first element; the next element */
  uint32_t count;              /* an array's or object's element count */
  uint8_t type, flags;
} qt_jv;
typedef struct qt_jdoc {
  const char *text;
  size_t len;
  qt_jv *v; /* v[0] is the root */
  uint32_t count, cap;
  bool nomem;     /* parsing failed for want of memory */
  bool trailing;  /* parsing failed at text after one whole value */
  bool unchecked; /* a string holds bytes above 0x7F or a \u escape: what qt_json_precheck
                     refuses (bad UTF-8, NUL, lone surrogates) can be there; without either,
                     a text this parser accepts passes the pre-check (depth aside, which it
                     bounds itself) */
} qt_jdoc;
/* Parses exactly len bytes as one strict JSON value (RFC 8259; numbers of at most
 * QT_JSON_NUMBER_MAX characters). On failure *error_at is the byte where it failed. The text
 * must outlive the tree; qt_jdoc_free it either way. */
bool qt_jdoc_parse(qt_jdoc *doc, const char *text, size_t len, size_t *error_at);
void qt_jdoc_free(qt_jdoc *doc);
/* The member of object `obj` named `key` (the first, if repeated), or NULL. */
const qt_jv *qt_jv_get(const qt_jdoc *doc, const qt_jv *obj, const char *key);
/* Whether a string's raw bytes (escaped: holding escapes) are the text lit[0..k): inline for the
 * usual case, a key compared with a field name thousands of times in a large call. */
bool qt_json_escaped_text_is(const char *raw, size_t n, const char *lit, size_t k);
static inline bool qt_json_text_is(const char *raw, size_t n, bool escaped, const char *lit, size_t k) {
  if (escaped) return qt_json_escaped_text_is(raw, n, lit, k);
  return n == k && memcmp(raw, lit, k) == 0;
}
/* Decodes a string's raw bytes (as the parser checked them) into out (room for n bytes: the text
 * is never longer than its escaped form); returns its length. */
size_t qt_json_unescape(const char *raw, size_t n, char *out);

/* ---- answers.c -------------------------------------------------------------------------- */
/* Resolves a parsed `answers` object against req (see qt_answers_from_json_note: the "" key is the
 * note on the whole call, read into *call_note, refused when call_note is NULL); `path` names the
 * object in messages. `from` (below): a skipped question, or a secret, may be given only by the
 * person, never in the model's pre-supplied answers (it skips and tells nothing in their name). */
qt_status qt_answers_from_cjson(const qt_request *req, const struct cJSON *obj, const char *path, unsigned from,
                                qt_answer **out, char **call_note, qt_error *err);
/* Whose answers qt_answers_from_cjson reads (`from`): the person's (a face, the page, another
 * terminal: skips and a secret's text may be given), and, with RELAYED, the pi above's (a secret
 * as its file). 0: the model's own pre-supplied answers. */
enum { QT_ANSWERS_PERSON = 1u, QT_ANSWERS_RELAYED = 2u };
/* The `answers` object form of answers (the shape qt_answers_from_cjson reads back). */
struct cJSON *qt_answers_to_cjson(const qt_request *req, const qt_answer *answers);

/* A short copy (an option's text is mostly a few bytes: a call of memcpy costs more than it);
 * request.c and request_json.c copy option texts with it. */
static inline void qt_copy_short(char *dst, const char *src, size_t n) {
  if (n > 16) {
    memcpy(dst, src, n);
    return;
  }
  for (size_t i = 0; i < n; i++) dst[i] = src[i];
}

/* ---- request_memory.c ------------------------------------------------------------------- */
/* A request's string arena (qt_request.arena): every string of its questions and options, freed
 * all at once with the request (never one by one: an option's value may share its label's
 * bytes). qt_arena_new sizes its first chunk for a call of call_len bytes; with `scratch` it
 * also holds this thread's scratch block (QT_PARSE_SCRATCH) while no other request does. NULL
 * when out of memory. */
struct qt_arena *qt_arena_new(size_t call_len, bool scratch);
void qt_arena_free(struct qt_arena *a);
/* n bytes in the arena, or NULL. */
char *qt_arena_alloc(struct qt_arena *a, size_t n);
/* Copy of s[0..n) (or of s) with ASCII whitespace trimmed at both ends, in the arena, or NULL. */
char *qt_arena_trimmed(struct qt_arena *a, const char *s, size_t n);
char *qt_arena_strdup(struct qt_arena *a, const char *s);
/* n bytes of the scratch block the arena holds; NULL when it holds none or it is full (then
 * malloc, and qt_arena_in_scratch tells which to free). */
void *qt_arena_scratch_alloc(struct qt_arena *a, size_t n);
bool qt_arena_in_scratch(const struct qt_arena *a, const void *p);
/* Bytes the arena's chunks take (qt_request_footprint). */
size_t qt_arena_bytes(const struct qt_arena *a);

/* ---- request.c -------------------------------------------------------------------------- */
/* The questions as a JSON array (canonical fields; `otherLabel` with with_other_label). */
struct cJSON *qt_questions_to_cjson(const qt_request *req, bool with_other_label);

#endif
