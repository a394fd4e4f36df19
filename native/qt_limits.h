/* qt_limits.h — every bound pi-question puts on what a model sends and on what a user types.
 * One place for each limit: the validator, the engine, the README and the tests read them here
 * (the addon exports them as `limits`). Each may be overridden at build time with -D. */
#ifndef QT_LIMITS_H
#define QT_LIMITS_H

/* Whole tool-argument payload, in bytes of UTF-8 JSON. */
#ifndef QT_MAX_ARGUMENT_BYTES
#define QT_MAX_ARGUMENT_BYTES 100000
#endif
/* The same payload after normalization (options spelled out in full: "A" becomes
 * {"value":"A","label":"A"}), as pi hands the prepared arguments back. */
#ifndef QT_MAX_PREPARED_BYTES
#define QT_MAX_PREPARED_BYTES 1000000
#endif
/* Questions in one call (peers allow 4; users ask for more). */
#ifndef QT_MAX_QUESTIONS
#define QT_MAX_QUESTIONS 50
#endif
/* Options in one question, not counting the synthetic "Something else…". */
#ifndef QT_MAX_OPTIONS
#define QT_MAX_OPTIONS 1000
#endif
/* Lengths in bytes of UTF-8. */
#ifndef QT_MAX_ID_BYTES
#define QT_MAX_ID_BYTES 64
#endif
#ifndef QT_MAX_LABEL_BYTES
#define QT_MAX_LABEL_BYTES 200
#endif
#ifndef QT_MAX_PROMPT_BYTES
#define QT_MAX_PROMPT_BYTES 4000
#endif
#ifndef QT_MAX_OPTION_LABEL_BYTES
#define QT_MAX_OPTION_LABEL_BYTES 500
#endif
#ifndef QT_MAX_OPTION_VALUE_BYTES
#define QT_MAX_OPTION_VALUE_BYTES 500
#endif
#ifndef QT_MAX_DESCRIPTION_BYTES
#define QT_MAX_DESCRIPTION_BYTES 2000
#endif
#ifndef QT_MAX_PREVIEW_BYTES
#define QT_MAX_PREVIEW_BYTES 20000
#endif
/* Who asks a relayed question (a subagent's name or directory), in bytes; longer is cut. */
#ifndef QT_MAX_ASKER_BYTES
#define QT_MAX_ASKER_BYTES 200
#endif
#ifndef QT_MAX_METADATA_SOURCE_BYTES
#define QT_MAX_METADATA_SOURCE_BYTES 200
#endif
/* A pre-supplied or typed answer, in bytes. */
#ifndef QT_MAX_ANSWER_BYTES
#define QT_MAX_ANSWER_BYTES 100000
#endif
/* Typed answers longer than this many characters ask for confirmation (a soft limit). */
#ifndef QT_SOFT_ANSWER_CHARS
#define QT_SOFT_ANSWER_CHARS 2000
#endif
/* The tab title a question label is shortened to, in columns (cosmetic: normalized, not rejected). */
#ifndef QT_TAB_LABEL_COLUMNS
#define QT_TAB_LABEL_COLUMNS 16
#endif
/* JSON nesting accepted before the parser is even asked (cJSON's own limit is 1000). */
#ifndef QT_MAX_JSON_DEPTH
#define QT_MAX_JSON_DEPTH 32
#endif
/* The text the model reads, in bytes; longer text is cut with a visible mark. */
#ifndef QT_MAX_RESULT_TEXT_BYTES
#define QT_MAX_RESULT_TEXT_BYTES 100000
#endif

/* What the person writes when they want to talk first (Ctrl+T, status "discuss"), in bytes. */
#ifndef QT_MAX_DISCUSS_BYTES
#define QT_MAX_DISCUSS_BYTES 4000
#endif

#endif
