/* qt_external_edit.h — the external editor for the terminal runner. */
#ifndef QT_EXTERNAL_EDIT_H
#define QT_EXTERNAL_EDIT_H

#include <stdbool.h>
#include <stddef.h>

#include "qt_engine.h"
#include "qt_text.h"

/* Opens $VISUAL (else $EDITOR) on text[0..len) in a temporary file of mode 0600 on terminal
 * `tty_fd` (-1: the process's own stdio), waits for it, and removes the file. True with the
 * file's contents in *out when the editor exited 0; false with a short reason in *why (in the
 * engine's language) otherwise. Blocks the calling thread. */
bool qt_external_edit(const qt_engine *e, int tty_fd, const char *text, size_t len, qt_buf *out, qt_buf *why);

#endif
