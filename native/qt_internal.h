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

/* malloc'ed copy of s[0..n) with ASCII whitespace trimmed at both ends; NULL on OOM. */
char *qt_strndup_trimmed(const char *s, size_t n);
char *qt_strdup(const char *s);

/* Case-insensitive (ASCII) equality after trimming both. */
bool qt_loose_equal(const char *a, const char *b);

#endif
