/* qt_internal.h — helpers shared by the core's .c files (not part of the public contract). */
#ifndef QT_INTERNAL_H
#define QT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "qt.h"

/* Fills *err (if not NULL) with a path and a printf-formatted message; returns QT_ERR_INVALID. */
qt_status qt_fail(qt_error *err, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* snprintf for JSON paths (truncation of an absurdly long path is harmless). */
void qt_pathf(char *dst, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Checks raw JSON before parsing: valid UTF-8, nesting within QT_MAX_JSON_DEPTH, no raw
 * control characters or escaped NULs in strings. `what` names the payload in messages. */
qt_status qt_json_precheck(const char *json, size_t len, const char *what, qt_error *err);

/* A JSON number as text: integers exactly, others in the shortest form that reads back the same. */
void qt_number_text(double d, char *out, size_t cap);

/* malloc'ed copy of s[0..n) with ASCII whitespace trimmed at both ends; NULL on OOM. */
char *qt_strndup_trimmed(const char *s, size_t n);
char *qt_strdup(const char *s);

/* Case-insensitive (ASCII) equality after trimming both. */
bool qt_loose_equal(const char *a, const char *b);

#endif
