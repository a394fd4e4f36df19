/* qt_notice.h — a desktop notification sent through the terminal while a question waits: the
 * escape sequence of one of the three protocols terminals understand, built from sanitized text
 * (model text never ends or extends the sequence), optionally wrapped for tmux's passthrough. */
#ifndef QT_NOTICE_H
#define QT_NOTICE_H

#include <stdbool.h>

#include "qt_text.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum qt_notice_kind {
  QT_NOTICE_OSC777 = 0, /* ESC ] 777 ; notify ; title ; body BEL  (urxvt, foot, Ghostty, WezTerm, VTE) */
  QT_NOTICE_OSC9,       /* ESC ] 9 ; title: body BEL               (iTerm2, Windows Terminal, ConEmu) */
  QT_NOTICE_OSC99,      /* ESC ] 99 ; i=…:d=0 ; title ST + ESC ] 99 ; i=…:p=body ; body ST  (kitty) */
  QT_NOTICE_KIND_COUNT
} qt_notice_kind;

/* Appends the notification's bytes to `out`: `title` and `body` are sanitized, put on one line
 * and cut to a sensible length at a character boundary; with `tmux` the whole sequence is
 * wrapped in tmux's DCS passthrough (ESC P tmux; … ESC \, every ESC inside doubled). False when
 * out of memory (out->failed) or the kind is unknown. */
bool qt_notice_build(qt_buf *out, qt_notice_kind kind, const char *title, const char *body, bool tmux);

#ifdef __cplusplus
}
#endif
#endif
