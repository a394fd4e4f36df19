/* notice.c — the desktop notification sequences of qt_notice.h. */
#include <string.h>

#include "qt_limits.h"
#include "qt_notice.h"

/* Sanitized one-line text, at most `max` bytes of the input (cut at a character boundary), with
 * the bytes that end a field of the protocol (';' for OSC 777's title, ':' and ';' nowhere else
 * matter once controls are gone) replaced by `swap_semicolon` when non-zero. */
static void put_field(qt_buf *out, const char *s, size_t max, char swap_semicolon) {
  if (!s) return;
  size_t n = strlen(s);
  if (n > max) {
    n = max;
    while (n && ((unsigned char)s[n] & 0xC0) == 0x80) n--;
  }
  size_t from = out->len;
  qt_sanitize(out, s, n, 0);
  if (swap_semicolon && !out->failed)
    for (size_t i = from; i < out->len; i++)
      if (out->data[i] == ';') out->data[i] = swap_semicolon;
  if (n < strlen(s)) qt_buf_puts(out, "…");
}

static void build_plain(qt_buf *seq, qt_notice_kind kind, const char *title, const char *body) {
  switch (kind) {
    case QT_NOTICE_OSC777:
      qt_buf_puts(seq, "\x1b]777;notify;");
      put_field(seq, title, QT_NOTICE_TITLE_BYTES, ',');
      qt_buf_putc(seq, ';');
      put_field(seq, body, QT_NOTICE_BODY_BYTES, 0);
      qt_buf_putc(seq, '\a');
      break;
    case QT_NOTICE_OSC9:
      /* ConEmu reads "9;<digit>" as its own commands: the text always starts with the title. */
      qt_buf_puts(seq, "\x1b]9;");
      put_field(seq, title, QT_NOTICE_TITLE_BYTES, 0);
      qt_buf_puts(seq, ": ");
      put_field(seq, body, QT_NOTICE_BODY_BYTES, 0);
      qt_buf_putc(seq, '\a');
      break;
    default: /* QT_NOTICE_OSC99: title, then body, as one notification (d=0: more follows) */
      qt_buf_puts(seq, "\x1b]99;i=pi-question:d=0;");
      put_field(seq, title, QT_NOTICE_TITLE_BYTES, 0);
      qt_buf_puts(seq, "\x1b\\\x1b]99;i=pi-question:p=body;");
      put_field(seq, body, QT_NOTICE_BODY_BYTES, 0);
      qt_buf_puts(seq, "\x1b\\");
      break;
  }
}

bool qt_notice_build(qt_buf *out, qt_notice_kind kind, const char *title, const char *body, bool tmux) {
  if (!out || (int)kind < 0 || kind >= QT_NOTICE_KIND_COUNT) return false;
  qt_buf seq;
  qt_buf_init(&seq);
  build_plain(&seq, kind, title, body);
  if (seq.failed) {
    qt_buf_free(&seq);
    out->failed = true;
    return false;
  }
  if (!tmux) {
    qt_buf_append(out, seq.data, seq.len);
  } else {
    qt_buf_puts(out, "\x1bPtmux;");
    for (size_t i = 0; i < seq.len; i++) {
      if (seq.data[i] == '\x1b') qt_buf_putc(out, '\x1b');
      qt_buf_putc(out, seq.data[i]);
    }
    qt_buf_puts(out, "\x1b\\");
  }
  qt_buf_free(&seq);
  return !out->failed;
}
