/* qt_keys.h — decoding raw terminal input bytes into key events.
 * Understands UTF-8 text, C0 control keys, legacy VT/xterm sequences (CSI and SS3 forms,
 * with xterm modifier parameters), xterm modifyOtherKeys (CSI 27;mod;code ~), the Kitty
 * keyboard protocol (CSI code[:shifted[:base]];mods[:event][;text] u and the functional
 * forms; lock bits ignored; press and repeat reported, release dropped) and bracketed paste
 * (ESC[200~ … ESC[201~ delivered as one QT_EV_PASTE, never as keys).
 * Decoding never touches a file descriptor: it reads the bytes it is given. */
#ifndef QT_KEYS_H
#define QT_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "qt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Named keys are numbered above any Unicode code point. A printable key is its code point
 * (lower-case letter for letters; shift is in the modifiers). */
enum qt_key {
  QT_KEY_NONE = 0,
  QT_KEY_ENTER = 0x110000,
  QT_KEY_TAB,
  QT_KEY_ESCAPE,
  QT_KEY_BACKSPACE,
  QT_KEY_SPACE,
  QT_KEY_DELETE,
  QT_KEY_INSERT,
  QT_KEY_CLEAR,
  QT_KEY_HOME,
  QT_KEY_END,
  QT_KEY_PAGE_UP,
  QT_KEY_PAGE_DOWN,
  QT_KEY_UP,
  QT_KEY_DOWN,
  QT_KEY_LEFT,
  QT_KEY_RIGHT,
  QT_KEY_F1, /* F1..F12 are consecutive */
  QT_KEY_F12 = QT_KEY_F1 + 11
};

enum qt_mod { QT_MOD_SHIFT = 1, QT_MOD_ALT = 2, QT_MOD_CTRL = 4, QT_MOD_SUPER = 8 };

typedef enum qt_event_kind {
  QT_EV_KEY = 1,  /* `key` + `mods`; `text` holds the UTF-8 it would insert, if any */
  QT_EV_PASTE = 2 /* `text` is the pasted bytes, exactly as received */
} qt_event_kind;

typedef struct qt_key_event {
  qt_event_kind kind;
  uint32_t key;     /* enum qt_key or a code point */
  unsigned mods;    /* enum qt_mod bits */
  bool repeat;      /* Kitty "repeat" event */
  const char *text; /* printable text this key inserts (UTF-8), or NULL; valid during the callback */
  size_t text_len;
  bool line_feed; /* a lone LF byte: Enter in a legacy terminal, Ctrl+J, a new line (engine_keys.c matches) */
} qt_key_event;

/* Called once per decoded event. Return false to stop decoding (the rest stays buffered). */
typedef bool (*qt_key_sink)(void *user, const qt_key_event *ev);

typedef struct qt_decoder qt_decoder;

qt_status qt_decoder_create(qt_decoder **out);
void qt_decoder_destroy(qt_decoder *d);
/* Feeds bytes. Complete sequences are delivered to `sink`; an incomplete trailing sequence
 * (e.g. "\x1b[1;" or half a UTF-8 character or an open paste) is kept for the next feed.
 * A lone ESC at the end of a feed is delivered as Escape at once (pi hands one sequence per
 * call). Returns QT_ERR_NOMEM if buffering failed (the bytes are then dropped, not half-kept). */
qt_status qt_decoder_feed(qt_decoder *d, const char *bytes, size_t len, qt_key_sink sink, void *user);
/* Whole keys (off by default, for raw terminal bytes): every feed ends on a key boundary, as
 * pi's TUI hands its components whole key sequences (its own input buffer has already waited
 * for the rest of each). Whatever a feed leaves unfinished is decided at its end, as a flush
 * decides it: "\x1b]" alone is Alt+], never the start of a terminal reply that would swallow
 * the typing after it. An open bracketed paste still waits for its end marker. */
void qt_decoder_set_whole_keys(qt_decoder *d, bool on);
/* Delivers whatever is pending as best it can (used after an input timeout on a raw tty). */
qt_status qt_decoder_flush(qt_decoder *d, qt_key_sink sink, void *user);
/* True while bytes are held back waiting for the rest of a sequence. */
bool qt_decoder_pending(const qt_decoder *d);

/* The key id of an event exactly as pi-tui's parseKey names the same bytes ("up", "ctrl+a",
 * "shift+tab", "alt+enter", "a"), written to buf (NUL-terminated). Returns the length, 0 for
 * a paste or when cap is too small. */
size_t qt_key_name(const qt_key_event *ev, char *buf, size_t cap);
/* Parses a pi key id ("ctrl+shift+p", "pageUp", "esc", "return", "f5", "/") into key+mods.
 * Returns false for anything unknown. */
bool qt_key_parse(const char *name, uint32_t *key, unsigned *mods);

#ifdef __cplusplus
}
#endif
#endif
