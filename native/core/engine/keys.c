/* keys.c — the input decoder of qt_keys.h: raw terminal bytes become key and paste events,
 * named exactly as pi-tui's parseKey names the same bytes, and pi key ids parse back to
 * key + modifiers so bindings from pi's keybindings manager can be matched against events.
 *
 * Shape: a small state machine (ground, bracketed paste, terminal string, over-long CSI)
 * over the bytes of each feed. An incomplete trailing sequence is held in a fixed buffer
 * (QT_KEYS_HOLD_BYTES), so the common path never allocates; only a bracketed paste (in
 * pieces of at most QT_KEYS_PASTE_BYTES) and input left over after a sink asked to stop
 * (at most QT_KEYS_BACKLOG_BYTES) use a qt_buf. Decoding never touches a file descriptor.
 *
 * Where pi-tui's parseKey names the bytes, the event's key+mods are what that name means.
 * Where parseKey returns undefined (e.g. CSI 1~, modified F-keys, ESC + symbol, non-ASCII
 * text) the event carries the obvious key and the name is built the same way. A name depends
 * on key + modifiers only: a Shift-only letter is "A" (parseKey's name for the byte "A"), also
 * when it arrives as a Kitty/modifyOtherKeys sequence, which parseKey calls "shift+a". The
 * legacy reading is used for the few bytes whose name depends on pi's isKittyProtocolActive()
 * ("\n", "\x1b\r", ESC + letter): a real Kitty sequence is never ambiguous. */
#include <stdlib.h>
#include <string.h>

#include "qt_keys.h"
#include "qt_text.h"

#ifndef QT_KEYS_HOLD_BYTES
#define QT_KEYS_HOLD_BYTES 128 /* longest incomplete sequence kept between feeds */
#endif
#ifndef QT_KEYS_PASTE_BYTES
#define QT_KEYS_PASTE_BYTES (1024 * 1024) /* a longer paste is delivered in pieces this big */
#endif
#ifndef QT_KEYS_BACKLOG_BYTES
#define QT_KEYS_BACKLOG_BYTES (4 * 1024 * 1024) /* input kept after a sink returned false */
#endif

#define ESC           0x1b
#define LOCK_BITS     (64u | 128u) /* Caps Lock, Num Lock: ignored */
#define ALL_MODS      (QT_MOD_SHIFT | QT_MOD_ALT | QT_MOD_CTRL | QT_MOD_SUPER)
#define MAX_PARAMS    4
#define MAX_SUBPARAMS 16
#define NUM_MAX       0x7fffffffu

enum { ST_GROUND = 0, ST_PASTE, ST_STRING, ST_SKIP };

struct qt_decoder {
  int state;
  bool paste_failed; /* the paste buffer could not grow: swallow the paste */
  size_t held_len;
  unsigned char held[QT_KEYS_HOLD_BYTES];
  qt_buf paste;
  qt_buf backlog;  /* non-empty only after a sink stopped; then held_len == 0 */
  bool whole_keys; /* every feed ends on a key boundary (pi's TUI): see qt_keys.h */
  char text[80];   /* text of an event that is not a slice of the input */
};

typedef struct run {
  qt_decoder *d;
  qt_key_sink sink;
  void *user;
  bool stopped;
  qt_status st;
} run;

static const char REPLACEMENT[] = "\xEF\xBF\xBD";
static const char PASTE_END[] = "\x1b[201~";

/* ---- small helpers ----------------------------------------------------------------------- */
static bool is_symbol(uint32_t c) {
  return c < 0x80 && c != 0 && strchr("`-=[]\\;',./!@#$%^&*()_+|~{}:<>?", (int)c) != NULL;
}

static bool printable_cp(uint32_t cp) {
  return cp > 0x20 && cp != 0x7f && !(cp >= 0x80 && cp < 0xa0) && !(cp >= 0xd800 && cp <= 0xdfff) && cp <= 0x10ffff;
}

static size_t put_utf8(char *out, uint32_t cp) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xC0 | (cp >> 6));
    out[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (char)(0xE0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = (char)(0xF0 | (cp >> 18));
  out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  out[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

/* When p[0..len) is a valid but truncated UTF-8 sequence, the length it needs; else 0. */
static size_t utf8_truncated(const unsigned char *p, size_t len) {
  unsigned char c = p[0];
  size_t need;
  unsigned char lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
  if (c >= 0xC2 && c <= 0xDF)
    need = 2;
  else if (c >= 0xE0 && c <= 0xEF) {
    need = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    need = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else
    return 0;
  if (len >= need) return 0;
  for (size_t i = 1; i < len; i++) {
    if (i == 1 ? (p[i] < lo || p[i] > hi) : (p[i] & 0xC0) != 0x80) return 0;
  }
  return need;
}

static void deliver(run *r, const qt_key_event *ev) {
  if (!r->sink(r->user, ev)) r->stopped = true;
}

static void emit(run *r, uint32_t key, unsigned mods, bool repeat, const char *text, size_t text_len) {
  qt_key_event ev;
  ev.kind = QT_EV_KEY;
  ev.key = key;
  ev.mods = mods;
  ev.repeat = repeat;
  ev.text = text_len ? text : NULL;
  ev.text_len = text_len;
  ev.line_feed = false;
  deliver(r, &ev);
}

/* Text of one code point in the decoder's scratch buffer ("" when it inserts nothing). */
static size_t cp_text(qt_decoder *d, uint32_t cp) {
  if (cp != 0x20 && !printable_cp(cp)) return 0;
  if (cp >= 0xE000 && cp <= 0xF8FF) return 0; /* Kitty's functional keys live here */
  return put_utf8(d->text, cp);
}

/* ---- key tables -------------------------------------------------------------------------- */
/* C0 control bytes as pi-tui names them (0x08 is "backspace" outside Windows Terminal). */
static void control_key(unsigned char c, uint32_t *key, unsigned *mods) {
  *mods = QT_MOD_CTRL;
  switch (c) {
    case 0x00: *key = QT_KEY_SPACE; return;
    case 0x08:
      *key = QT_KEY_BACKSPACE;
      *mods = 0;
      return;
    case 0x09:
      *key = QT_KEY_TAB;
      *mods = 0;
      return;
    case 0x0a:
    case 0x0d:
      *key = QT_KEY_ENTER;
      *mods = 0;
      return;
    case 0x1b:
      *key = QT_KEY_ESCAPE;
      *mods = 0;
      return;
    case 0x1c: *key = '\\'; return;
    case 0x1d: *key = ']'; return;
    case 0x1e: *key = '^'; return;
    case 0x1f: *key = '-'; return;
    case 0x7f:
      *key = QT_KEY_BACKSPACE;
      *mods = 0;
      return;
    default: *key = (uint32_t)('a' + c - 1); return;
  }
}

/* CSI n ~ (and rxvt's CSI n $ / ^ / @). */
static uint32_t tilde_key(uint32_t n) {
  switch (n) {
    case 1:
    case 7: return QT_KEY_HOME;
    case 2: return QT_KEY_INSERT;
    case 3: return QT_KEY_DELETE;
    case 4:
    case 8: return QT_KEY_END;
    case 5: return QT_KEY_PAGE_UP;
    case 6: return QT_KEY_PAGE_DOWN;
    case 11:
    case 12:
    case 13:
    case 14:
    case 15: return QT_KEY_F1 + (n - 11);
    case 17:
    case 18:
    case 19:
    case 20:
    case 21: return QT_KEY_F1 + 5 + (n - 17);
    case 23:
    case 24: return QT_KEY_F1 + 10 + (n - 23);
    default: return 0;
  }
}

/* Final byte of CSI [1;m] X and SS3 X. */
static uint32_t letter_key(unsigned char f) {
  switch (f) {
    case 'A': return QT_KEY_UP;
    case 'B': return QT_KEY_DOWN;
    case 'C': return QT_KEY_RIGHT;
    case 'D': return QT_KEY_LEFT;
    case 'E': return QT_KEY_CLEAR;
    case 'F': return QT_KEY_END;
    case 'H': return QT_KEY_HOME;
    case 'P': return QT_KEY_F1;
    case 'Q': return QT_KEY_F1 + 1;
    case 'R': return QT_KEY_F1 + 2;
    case 'S': return QT_KEY_F1 + 3;
    default: return 0;
  }
}

/* Kitty's keypad keys as pi-tui folds them (KP_0 -> "0", KP_LEFT -> left, ...). */
static uint32_t kitty_normalize(uint32_t cp) {
  static const char kp_chars[] = "0123456789./*-+\0=,"; /* 57399..57416, 57414 is KP_ENTER */
  if (cp >= 57399 && cp <= 57416 && cp != 57414) return (uint32_t)(unsigned char)kp_chars[cp - 57399];
  switch (cp) {
    case 57417: return QT_KEY_LEFT;
    case 57418: return QT_KEY_RIGHT;
    case 57419: return QT_KEY_UP;
    case 57420: return QT_KEY_DOWN;
    case 57421: return QT_KEY_PAGE_UP;
    case 57422: return QT_KEY_PAGE_DOWN;
    case 57423: return QT_KEY_HOME;
    case 57424: return QT_KEY_END;
    case 57425: return QT_KEY_INSERT;
    case 57426: return QT_KEY_DELETE;
    default: return cp;
  }
}

/* A Kitty / modifyOtherKeys code point as pi-tui's formatParsedKey reads it: shifted letters
 * fold to lower case; a code that is not a Latin letter, digit or known symbol gives way to
 * the base-layout key when one is reported. Returns false for keys pi cannot name and we
 * would not know what to do with either (lone modifiers, media keys, F13+, ...). */
static bool code_key(uint32_t code, bool has_base, uint32_t base, unsigned *mods, uint32_t *key) {
  uint32_t x = kitty_normalize(code);
  if ((*mods & QT_MOD_SHIFT) && x >= 'A' && x <= 'Z') x += 32;
  bool known = (x >= 'a' && x <= 'z') || (x >= '0' && x <= '9') || is_symbol(x);
  uint32_t e = known ? x : (has_base ? base : x);
  if (e >= QT_KEY_ENTER && e <= QT_KEY_F12) {
    *key = e;
    return true;
  }
  switch (e) {
    case 27: *key = QT_KEY_ESCAPE; return true;
    case 9: *key = QT_KEY_TAB; return true;
    case 13:
    case 57414: *key = QT_KEY_ENTER; return true;
    case 32: *key = QT_KEY_SPACE; return true;
    case 127: *key = QT_KEY_BACKSPACE; return true;
    default: break;
  }
  if ((e >= 'a' && e <= 'z') || (e >= '0' && e <= '9') || is_symbol(e)) {
    *key = e;
    return true;
  }
  /* Beyond pi-tui (which names none of these): an upper-case letter reported without shift,
   * and any other printable character (e.g. Cyrillic with no base-layout key). */
  if (e >= 'A' && e <= 'Z') {
    *key = e + 32;
    *mods |= QT_MOD_SHIFT;
    return true;
  }
  if (e >= 0xA0 && printable_cp(e) && !(e >= 0xE000 && e <= 0xF8FF)) {
    *key = e;
    return true;
  }
  return false;
}

/* ---- CSI / SS3 interpretation ------------------------------------------------------------ */
typedef struct param {
  uint32_t v[MAX_SUBPARAMS];
  bool has[MAX_SUBPARAMS];
  int n; /* sub-parameters present (>= 1) */
} param;

/* Parses "1;5:2" style parameters. False for private markers or anything odd. */
static bool parse_params(const unsigned char *s, size_t len, param *ps, int *np) {
  *np = 0;
  if (len == 0) return true;
  if (s[0] >= '<' && s[0] <= '?') return false;
  memset(ps, 0, sizeof(param) * MAX_PARAMS);
  int n = 1;
  ps[0].n = 1;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = s[i];
    param *p = &ps[n - 1];
    if (c >= '0' && c <= '9') {
      uint32_t *v = &p->v[p->n - 1];
      *v = *v > (NUM_MAX - 9) / 10 ? NUM_MAX : *v * 10 + (uint32_t)(c - '0');
      p->has[p->n - 1] = true;
    } else if (c == ':') {
      if (p->n == MAX_SUBPARAMS) return false;
      p->n++;
    } else if (c == ';') {
      if (n == MAX_PARAMS) return false;
      ps[n++].n = 1;
    } else {
      return false;
    }
  }
  *np = n;
  return true;
}

/* A modifier parameter "m[:event]": Kitty/xterm value m = 1 + bits; lock bits dropped;
 * hyper/meta (which pi-tui cannot name) reject the key. */
static bool mod_param(const param *p, unsigned *mods, uint32_t *event) {
  uint32_t v = p->has[0] ? p->v[0] : 1;
  if (v < 1) return false;
  uint32_t m = (v - 1) & ~LOCK_BITS;
  if (m & ~(uint32_t)ALL_MODS) return false;
  *mods = m;
  *event = (p->n >= 2 && p->has[1]) ? p->v[1] : 1;
  return p->n <= 2;
}

/* Delivers a key whose Kitty event type is `event` (3 = release: dropped). */
static void emit_event(run *r, uint32_t key, unsigned mods, uint32_t event, const char *text, size_t tl) {
  if (event == 3) return;
  emit(r, key, mods, event == 2, text, tl);
}

static void csi_kitty(run *r, const param *ps, int np, unsigned alt) {
  if (np < 1 || np > 3 || ps[0].n > 3 || !ps[0].has[0]) return;
  uint32_t code = ps[0].v[0];
  bool has_shifted = ps[0].n >= 2 && ps[0].has[1];
  bool has_base = ps[0].n >= 3 && ps[0].has[2];
  unsigned mods = 0;
  uint32_t event = 1;
  if (np >= 2 && !mod_param(&ps[1], &mods, &event)) return;
  unsigned text_mods = mods | alt;
  uint32_t key;
  if (!code_key(code, has_base, ps[0].v[2], &mods, &key)) return;
  size_t tl = 0;
  if ((text_mods & ~(unsigned)QT_MOD_SHIFT) == 0) {
    if (np == 3) { /* flag 16: the text as code points */
      for (int i = 0; i < ps[2].n && tl + 4 <= sizeof r->d->text; i++) {
        uint32_t cp = ps[2].v[i];
        if (ps[2].has[i] && (cp == 0x20 || printable_cp(cp))) tl += put_utf8(r->d->text + tl, cp);
      }
    } else {
      uint32_t cp = (mods & QT_MOD_SHIFT) && has_shifted ? ps[0].v[1] : code;
      cp = kitty_normalize(cp);
      if (cp < 0x110000) tl = cp_text(r->d, cp);
    }
  }
  emit_event(r, key, mods | alt, event, r->d->text, tl);
}

/* xterm modifyOtherKeys: CSI 27 ; m ; code ~ */
static void csi_modify_other_keys(run *r, const param *ps, unsigned alt) {
  if (ps[1].n != 1 || ps[2].n != 1 || !ps[1].has[0] || !ps[2].has[0] || ps[1].v[0] < 1) return;
  uint32_t m = (ps[1].v[0] - 1) & ~LOCK_BITS;
  if (m & ~(uint32_t)ALL_MODS) return;
  unsigned mods = m;
  uint32_t code = ps[2].v[0], key;
  if (!code_key(code, false, 0, &mods, &key)) return;
  size_t tl = 0;
  if (((m | alt) & ~(unsigned)QT_MOD_SHIFT) == 0 && code < 0x110000) tl = cp_text(r->d, code);
  emit(r, key, mods | alt, false, r->d->text, tl);
}

static void interpret_csi(run *r, const unsigned char *params, size_t plen, size_t ninter, unsigned char f,
                          unsigned alt) {
  qt_decoder *d = r->d;
  param ps[MAX_PARAMS];
  int np;
  if (ninter || !parse_params(params, plen, ps, &np)) return;
  unsigned mods = 0;
  uint32_t event = 1, key;
  switch (f) {
    case 'u': csi_kitty(r, ps, np, alt); return;
    case '~':
      if (np == 0 || ps[0].n != 1 || !ps[0].has[0]) return;
      if (ps[0].v[0] == 27 && np == 3) {
        csi_modify_other_keys(r, ps, alt);
        return;
      }
      if (ps[0].v[0] == 200 && np == 1) {
        d->state = ST_PASTE;
        d->paste_failed = false;
        qt_buf_reset(&d->paste);
        return;
      }
      if (np > 2 || !(key = tilde_key(ps[0].v[0]))) return;
      if (np == 2 && !mod_param(&ps[1], &mods, &event)) return;
      emit_event(r, key, mods | alt, event, NULL, 0);
      return;
    case '$': /* rxvt: shift */
    case '^': /* rxvt: ctrl */
    case '@': /* rxvt: ctrl+shift */
      if (np != 1 || ps[0].n != 1 || !(key = tilde_key(ps[0].v[0]))) return;
      mods = f == '$' ? QT_MOD_SHIFT : f == '^' ? QT_MOD_CTRL : (QT_MOD_CTRL | QT_MOD_SHIFT);
      emit(r, key, mods | alt, false, NULL, 0);
      return;
    case 'a':
    case 'b':
    case 'c':
    case 'd':
    case 'e': /* rxvt: shift+arrows, shift+clear */
      if (np) return;
      key = f == 'e' ? QT_KEY_CLEAR : letter_key((unsigned char)(f - 32));
      emit(r, key, QT_MOD_SHIFT | alt, false, NULL, 0);
      return;
    default: break;
  }
  if (f == 'Z')
    key = QT_KEY_TAB;
  else if (!(key = letter_key(f)))
    return; /* focus reports, mouse, replies: nothing */
  if (np >= 1 && (ps[0].n != 1 || (ps[0].has[0] && ps[0].v[0] != 1))) return;
  if (np == 2 && !mod_param(&ps[1], &mods, &event)) return;
  if (np > 2) return;
  if (f == 'Z') mods |= QT_MOD_SHIFT;
  emit_event(r, key, mods | alt, event, NULL, 0);
}

static void interpret_ss3(run *r, const unsigned char *params, size_t plen, unsigned char f, unsigned alt) {
  static const char keypad[] = "*+,-./0123456789"; /* SS3 j..y: application keypad */
  unsigned mods = 0;
  if (plen) { /* old xterm/VTE: SS3 m X or SS3 1;m X; the last number is the modifier */
    uint32_t v = 0;
    for (size_t i = 0; i < plen; i++) {
      if (params[i] == ';')
        v = 0;
      else
        v = v > 1000 ? v : v * 10 + (uint32_t)(params[i] - '0');
    }
    if (v < 1 || ((v - 1) & ~LOCK_BITS & ~(uint32_t)ALL_MODS)) return;
    mods = (v - 1) & ALL_MODS;
  }
  uint32_t key = letter_key(f);
  const char *text = NULL;
  if (!key) {
    if (f == 'M')
      key = QT_KEY_ENTER;
    else if (f >= 'a' && f <= 'e') { /* rxvt: ctrl+arrows, ctrl+clear */
      key = f == 'e' ? QT_KEY_CLEAR : letter_key((unsigned char)(f - 32));
      mods |= QT_MOD_CTRL;
    } else if (f >= 'j' && f <= 'y') {
      key = (unsigned char)keypad[f - 'j'];
      text = &keypad[f - 'j'];
    } else if (f == 'X') {
      key = '=';
      text = "=";
    } else
      return;
  }
  emit(r, key, mods | alt, false, text, text && !(mods | alt) ? 1 : 0);
}

/* ---- ground-state steps ------------------------------------------------------------------ */
/* Each step looks at the bytes from one token start and returns how many it consumed; it sets
 * *more (and returns 0) when the token is incomplete. `eof`: nothing follows in this feed;
 * `force` (flush): nothing will follow at all, so decide now. */

/* ESC [ ... from p[0]; the parameters start at p[i0]. `alt` is set for ESC ESC [. */
static size_t scan_csi(run *r, const unsigned char *p, size_t len, size_t i0, unsigned alt, bool force, bool *more) {
  size_t i = i0, j;
  if (i >= len) {
    if (!force) {
      *more = true;
      return 0;
    }
    if (!alt) emit(r, '[', QT_MOD_ALT, false, NULL, 0); /* "\x1b[" alone: alt+[ */
    return len;
  }
  if (p[i] == 'M' && i == i0) { /* X10 mouse report: ESC [ M b x y */
    if (len < i + 4) {
      if (force) return len;
      *more = true;
      return 0;
    }
    return i + 4;
  }
  bool linux_console = p[i] == '[';
  if (linux_console) i++;
  j = i;
  while (j < len && ((p[j] >= 0x30 && p[j] <= 0x3F) && (!linux_console || (p[j] >= '0' && p[j] <= ';')))) j++;
  size_t pe = j;
  bool rxvt_dollar = false;
  while (j < len && p[j] >= 0x20 && p[j] <= 0x2F && !linux_console) {
    if (p[j] == '$' && j == pe && pe > i) {
      bool digits = true;
      for (size_t k = i; k < pe; k++) digits = digits && p[k] >= '0' && p[k] <= '9';
      if (digits) {
        rxvt_dollar = true;
        break;
      }
    }
    j++;
  }
  if (j >= len) {
    if (len >= QT_KEYS_HOLD_BYTES) { /* too long for any key: skip it to its end */
      r->d->state = ST_SKIP;
      return len;
    }
    if (force) return len;
    *more = true;
    return 0;
  }
  if (j + 1 > QT_KEYS_HOLD_BYTES) { /* too long for any key: skipped to its end, as when split */
    r->d->state = ST_SKIP;
    return j;
  }
  unsigned char f = p[j];
  if (!rxvt_dollar && (f < 0x40 || f > 0x7E)) { /* malformed: drop what we have */
    if (j == i0 && !alt) {
      emit(r, '[', QT_MOD_ALT, false, NULL, 0);
      return i0;
    }
    return j;
  }
  if (linux_console) { /* Linux console: ESC [ [ A..E = F1..F5, ESC [ [ 5~ / 6~ = page keys */
    uint32_t key = 0;
    if (pe == i && f >= 'A' && f <= 'E')
      key = QT_KEY_F1 + (uint32_t)(f - 'A');
    else if (f == '~' && pe == i + 1 && (p[i] == '5' || p[i] == '6'))
      key = p[i] == '5' ? QT_KEY_PAGE_UP : QT_KEY_PAGE_DOWN;
    if (key) emit(r, key, alt, false, NULL, 0);
    return j + 1;
  }
  interpret_csi(r, p + i, pe - i, j - pe, f, alt);
  return j + 1;
}

/* ESC O ... from p[0]; p[i0] is the byte after 'O'. */
static size_t scan_ss3(run *r, const unsigned char *p, size_t len, size_t i0, unsigned alt, bool force, bool *more) {
  size_t j = i0;
  while (j < len && ((p[j] >= '0' && p[j] <= '9') || p[j] == ';') && j - i0 < 16) j++;
  if (j >= len) {
    if (!force) {
      *more = true;
      return 0;
    }
    if (j == i0 && !alt) emit(r, 'o', QT_MOD_SHIFT | QT_MOD_ALT, false, NULL, 0); /* alt+O */
    return len;
  }
  unsigned char f = p[j];
  if (f < 0x40 || f > 0x7E) {
    if (j == i0 && !alt) {
      emit(r, 'o', QT_MOD_SHIFT | QT_MOD_ALT, false, NULL, 0);
      return i0;
    }
    return j;
  }
  interpret_ss3(r, p + i0, j - i0, f, alt);
  return j + 1;
}

/* ESC followed by one character: alt+key, with pi-tui's legacy readings. */
static size_t alt_key(run *r, const unsigned char *p, size_t len, bool force, bool *more) {
  unsigned char c = p[1];
  uint32_t key;
  unsigned mods = QT_MOD_ALT;
  if (c < 0x20 || c == 0x7f) {
    if (c == 0x0d)
      key = QT_KEY_ENTER; /* alt+enter (legacy) */
    else if (c == 0x08 || c == 0x7f)
      key = QT_KEY_BACKSPACE; /* alt+backspace */
    else if (c == 0x00) {
      key = QT_KEY_SPACE;
      mods = QT_MOD_CTRL | QT_MOD_ALT;
    } else if (c <= 0x1a) { /* ctrl+alt+letter, even ESC TAB ("ctrl+alt+i") and ESC LF */
      key = (uint32_t)('a' + c - 1);
      mods = QT_MOD_CTRL | QT_MOD_ALT;
    } else { /* 0x1c..0x1f: ctrl+alt+\ ] ^ - */
      control_key(c, &key, &mods);
      mods |= QT_MOD_ALT;
    }
    emit(r, key, mods, false, NULL, 0);
    return 2;
  }
  if (c < 0x80) {
    switch (c) {
      case ' ': key = QT_KEY_SPACE; break;
      case 'b':
      case 'B': key = QT_KEY_LEFT; break; /* pi-tui: ESC b / ESC B = alt+left */
      case 'f':
      case 'F': key = QT_KEY_RIGHT; break;
      case 'p': key = QT_KEY_UP; break;
      case 'n': key = QT_KEY_DOWN; break;
      default:
        key = c;
        if (c >= 'A' && c <= 'Z') {
          key = (uint32_t)c + 32;
          mods |= QT_MOD_SHIFT;
        }
        break;
    }
    emit(r, key, mods, false, NULL, 0);
    return 2;
  }
  size_t need = utf8_truncated(p + 1, len - 1);
  if (need && !force) {
    *more = true;
    return 0;
  }
  size_t adv;
  uint32_t cp = qt_utf8_decode((const char *)p + 1, len - 1, &adv);
  if (need || (cp == 0xFFFD && adv == 1) || !printable_cp(cp)) { /* ESC then junk: Escape */
    emit(r, QT_KEY_ESCAPE, 0, false, NULL, 0);
    return 1;
  }
  emit(r, cp, QT_MOD_ALT, false, NULL, 0);
  return 1 + adv;
}

static size_t step_escape(run *r, const unsigned char *p, size_t len, bool eof, bool force, bool *more) {
  if (len == 1) {
    if (eof || force) { /* a lone ESC at the end of a feed is Escape at once */
      emit(r, QT_KEY_ESCAPE, 0, false, NULL, 0);
      return 1;
    }
    *more = true;
    return 0;
  }
  switch (p[1]) {
    case '[': return scan_csi(r, p, len, 2, 0, force, more);
    case 'O': return scan_ss3(r, p, len, 2, 0, force, more);
    case ']': /* OSC */
    case 'P': /* DCS */
    case '_': /* APC */
      if (len == 2) {
        if (!force) {
          *more = true;
          return 0;
        }
        emit(r, p[1] == 'P' ? 'p' : p[1], p[1] == 'P' ? (QT_MOD_SHIFT | QT_MOD_ALT) : QT_MOD_ALT, false, NULL, 0);
        return 2;
      }
      r->d->state = ST_STRING; /* a terminal reply: swallowed up to its terminator */
      return 2;
    case ESC:
      if (len == 2) {
        if (!(eof || force)) {
          *more = true;
          return 0;
        }
      } else if (p[2] == '[') {
        return scan_csi(r, p, len, 3, QT_MOD_ALT, force, more);
      } else if (p[2] == 'O') {
        return scan_ss3(r, p, len, 3, QT_MOD_ALT, force, more);
      }
      emit(r, '[', QT_MOD_CTRL | QT_MOD_ALT, false, NULL, 0); /* ESC ESC: ctrl+alt+[ */
      return 2;
    default: return alt_key(r, p, len, force, more);
  }
}

static size_t step_ground(run *r, const unsigned char *p, size_t len, bool eof, bool force, bool *more) {
  unsigned char c = p[0];
  uint32_t key;
  unsigned mods;
  if (c == ESC) return step_escape(r, p, len, eof, force, more);
  if (c == 0x0a) { /* LF: Enter to a legacy terminal, and Ctrl+J: the engine decides */
    qt_key_event ev = {QT_EV_KEY, QT_KEY_ENTER, 0, false, NULL, 0, true};
    deliver(r, &ev);
    return 1;
  }
  if (c < 0x20 || c == 0x7f) {
    control_key(c, &key, &mods);
    emit(r, key, mods, false, NULL, 0);
    return 1;
  }
  if (c < 0x80) {
    mods = 0;
    key = c;
    if (c == ' ')
      key = QT_KEY_SPACE;
    else if (c >= 'A' && c <= 'Z') {
      key = (uint32_t)c + 32;
      mods = QT_MOD_SHIFT;
    }
    emit(r, key, mods, false, (const char *)p, 1);
    return 1;
  }
  if (utf8_truncated(p, len)) {
    if (!force) {
      *more = true;
      return 0;
    }
    emit(r, 0xFFFD, 0, false, REPLACEMENT, 3); /* half a character, and nothing more comes */
    return len;
  }
  size_t adv;
  uint32_t cp = qt_utf8_decode((const char *)p, len, &adv);
  if (cp == 0xFFFD && adv == 1) {
    emit(r, 0xFFFD, 0, false, REPLACEMENT, 3);
    return 1;
  }
  if (cp < 0xA0) return adv; /* C1 controls: nothing */
  emit(r, cp, 0, false, (const char *)p, adv);
  return adv;
}

/* ---- paste, strings, skipping ------------------------------------------------------------- */
static void paste_piece(run *r) {
  qt_decoder *d = r->d;
  qt_key_event ev;
  ev.kind = QT_EV_PASTE;
  ev.key = QT_KEY_NONE;
  ev.mods = 0;
  ev.repeat = false;
  ev.text = d->paste.data ? d->paste.data : "";
  ev.text_len = d->paste.len;
  ev.line_feed = false;
  deliver(r, &ev);
}

static void paste_add(run *r, const unsigned char *s, size_t n) {
  qt_decoder *d = r->d;
  while (n && !d->paste_failed) {
    if (d->paste.len >= QT_KEYS_PASTE_BYTES) { /* bounded: hand over what is held */
      paste_piece(r);
      qt_buf_reset(&d->paste);
    }
    size_t take = QT_KEYS_PASTE_BYTES - d->paste.len;
    if (take > n) take = n;
    if (!qt_buf_append(&d->paste, (const char *)s, take)) {
      d->paste_failed = true; /* swallow the rest of this paste; never read it as keys */
      qt_buf_free(&d->paste);
      r->st = QT_ERR_NOMEM;
      return;
    }
    s += take;
    n -= take;
  }
}

static void paste_done(run *r) {
  qt_decoder *d = r->d;
  d->state = ST_GROUND;
  if (!d->paste_failed) paste_piece(r);
  d->paste_failed = false;
  if (d->paste.cap > 65536)
    qt_buf_free(&d->paste);
  else
    qt_buf_reset(&d->paste);
}

static size_t step_paste(run *r, const unsigned char *p, size_t len, bool *more) {
  if (p[0] != ESC) {
    const unsigned char *e = memchr(p, ESC, len);
    size_t n = e ? (size_t)(e - p) : len;
    paste_add(r, p, n);
    return n;
  }
  size_t m = len < 6 ? len : 6;
  if (memcmp(p, PASTE_END, m) == 0) {
    if (m < 6) { /* maybe the end marker, split across feeds */
      *more = true;
      return 0;
    }
    paste_done(r);
    return 6;
  }
  paste_add(r, p, 1);
  return 1;
}

/* OSC/DCS/APC reply: ends at BEL or ESC \; an ESC that starts something else, or any other
 * control byte (Enter or Ctrl+C typed after a stray ESC P: replies never hold them), ends it
 * without being swallowed. */
static size_t step_string(run *r, const unsigned char *p, size_t len, bool force, bool *more) {
  for (size_t i = 0; i < len; i++) {
    unsigned char c = p[i];
    if (c == 0x07) {
      r->d->state = ST_GROUND;
      return i + 1;
    }
    if (c == ESC) {
      if (i + 1 >= len) {
        if (i > 0) return i;
        if (force) {
          r->d->state = ST_GROUND;
          return 1;
        }
        *more = true;
        return 0;
      }
      r->d->state = ST_GROUND;
      return p[i + 1] == '\\' ? i + 2 : i;
    }
    if (c < 0x20) {
      r->d->state = ST_GROUND;
      return i;
    }
  }
  return len;
}

/* Rest of an over-long CSI: parameter/intermediate bytes up to the final byte. */
static size_t step_skip(run *r, const unsigned char *p, size_t len) {
  for (size_t i = 0; i < len; i++) {
    if (p[i] >= 0x40 && p[i] <= 0x7E) {
      r->d->state = ST_GROUND;
      return i + 1;
    }
    if (p[i] < 0x20 || p[i] > 0x7E) {
      r->d->state = ST_GROUND;
      return i;
    }
  }
  return len;
}

/* Processes tokens that start before `stop_at`; returns the offset reached. */
static size_t process_range(run *r, const unsigned char *p, size_t len, size_t stop_at, bool eof, bool force) {
  size_t pos = 0;
  while (pos < stop_at && !r->stopped) {
    bool more = false;
    int before = r->d->state;
    size_t used;
    switch (before) {
      case ST_PASTE: used = step_paste(r, p + pos, len - pos, &more); break;
      case ST_STRING: used = step_string(r, p + pos, len - pos, force, &more); break;
      case ST_SKIP: used = step_skip(r, p + pos, len - pos); break;
      default: used = step_ground(r, p + pos, len - pos, eof, force, &more); break;
    }
    if (more) break;
    if (used == 0 && r->d->state == before) break; /* cannot happen; never spin */
    pos += used;
  }
  return pos;
}

/* ---- feeding ------------------------------------------------------------------------------ */
static void keep_held(qt_decoder *d, const unsigned char *p, size_t n) {
  if (n > QT_KEYS_HOLD_BYTES) n = 0; /* cannot happen: incomplete tokens are shorter */
  memcpy(d->held, p, n);
  d->held_len = n;
}

static void release_backlog(qt_decoder *d) {
  if (d->backlog.cap > 65536)
    qt_buf_free(&d->backlog);
  else
    qt_buf_reset(&d->backlog);
}

/* The sink stopped: keep a[0..na) + b[0..nb) for the next call. */
static void save_backlog(run *r, const unsigned char *a, size_t na, const unsigned char *b, size_t nb) {
  qt_decoder *d = r->d;
  qt_buf_reset(&d->backlog);
  if (na + nb > QT_KEYS_BACKLOG_BYTES || !qt_buf_append(&d->backlog, (const char *)a, na) ||
      !qt_buf_append(&d->backlog, (const char *)b, nb)) {
    qt_buf_free(&d->backlog);
    r->st = QT_ERR_NOMEM;
  }
}

static void process_input(run *r, const unsigned char *in, size_t n, bool force) {
  static const unsigned char nothing[1];
  if (!in) in = nothing; /* a flush passes no bytes: keep pointer arithmetic defined */
  qt_decoder *d = r->d;
  size_t off = 0;
  if (d->held_len) { /* finish the held sequence with the first bytes of this feed */
    unsigned char tmp[2 * QT_KEYS_HOLD_BYTES];
    size_t h = d->held_len, k = n < QT_KEYS_HOLD_BYTES ? n : QT_KEYS_HOLD_BYTES;
    memcpy(tmp, d->held, h);
    if (k) memcpy(tmp + h, in, k);
    d->held_len = 0;
    bool eof = k == n;
    size_t pos = process_range(r, tmp, h + k, h, eof, force && eof);
    if (pos < h) {
      if (r->stopped)
        save_backlog(r, tmp + pos, h - pos, in, n);
      else
        keep_held(d, tmp + pos, h + k - pos); /* still incomplete: k == n here */
      return;
    }
    off = pos - h;
    if (r->stopped) {
      save_backlog(r, NULL, 0, in + off, n - off);
      return;
    }
  }
  if (off >= n) return;
  size_t pos = process_range(r, in + off, n - off, n - off, true, force);
  if (r->stopped)
    save_backlog(r, NULL, 0, in + off + pos, n - off - pos);
  else
    keep_held(d, in + off + pos, n - off - pos);
}

static void process_backlog(run *r, bool force) {
  qt_buf *b = &r->d->backlog;
  const unsigned char *p = (const unsigned char *)b->data;
  size_t pos = process_range(r, p, b->len, b->len, true, force);
  if (r->stopped) {
    memmove(b->data, b->data + pos, b->len - pos);
    b->len -= pos;
    b->data[b->len] = '\0';
    return;
  }
  keep_held(r->d, p + pos, b->len - pos);
  release_backlog(r->d);
}

qt_status qt_decoder_create(qt_decoder **out) {
  if (!out) return QT_ERR_USAGE;
  *out = NULL;
  qt_decoder *d = calloc(1, sizeof *d);
  if (!d) return QT_ERR_NOMEM;
  qt_buf_init(&d->paste);
  qt_buf_init(&d->backlog);
  *out = d;
  return QT_OK;
}

void qt_decoder_destroy(qt_decoder *d) {
  if (!d) return;
  qt_buf_free(&d->paste);
  qt_buf_free(&d->backlog);
  free(d);
}

void qt_decoder_set_whole_keys(qt_decoder *d, bool on) {
  if (d) d->whole_keys = on;
}

/* Whole keys: what the feed left unfinished (held bytes, a terminal string, an over-long
 * sequence) is decided now; an open paste stays open, and so does input a sink stopped. */
static void end_of_whole_keys(run *r) {
  qt_decoder *d = r->d;
  if (!d->whole_keys || r->stopped || d->backlog.len || d->state == ST_PASTE) return;
  if (!d->held_len && d->state == ST_GROUND) return;
  process_input(r, NULL, 0, true);
  if (!r->stopped && d->state != ST_PASTE) {
    d->state = ST_GROUND;
    d->held_len = 0;
  }
}

qt_status qt_decoder_feed(qt_decoder *d, const char *bytes, size_t len, qt_key_sink sink, void *user) {
  if (!d || !sink || (!bytes && len)) return QT_ERR_USAGE;
  run r = {d, sink, user, false, QT_OK};
  if (d->backlog.len) {
    if (len > QT_KEYS_BACKLOG_BYTES - d->backlog.len || !qt_buf_append(&d->backlog, bytes, len)) {
      d->backlog.failed = false; /* the new bytes are dropped; what was kept stays */
      return QT_ERR_NOMEM;
    }
    process_backlog(&r, false);
  } else {
    process_input(&r, (const unsigned char *)bytes, len, false);
  }
  end_of_whole_keys(&r);
  return r.st;
}

qt_status qt_decoder_flush(qt_decoder *d, qt_key_sink sink, void *user) {
  if (!d || !sink) return QT_ERR_USAGE;
  run r = {d, sink, user, false, QT_OK};
  if (d->backlog.len)
    process_backlog(&r, true);
  else
    process_input(&r, NULL, 0, true);
  /* An open paste stays open (its end marker will come, as in pi-tui's StdinBuffer); an
   * unterminated terminal reply or over-long sequence is abandoned. */
  if (!r.stopped && d->state != ST_PASTE) {
    d->state = ST_GROUND;
    d->held_len = 0;
  }
  return r.st;
}

bool qt_decoder_pending(const qt_decoder *d) { return d && (d->held_len || d->backlog.len || d->state != ST_GROUND); }

/* ---- names -------------------------------------------------------------------------------- */
static const char *const NAMED[] = {"enter", "tab",   "escape", "backspace", "space",    "delete", "insert",
                                    "clear", "home",  "end",    "pageUp",    "pageDown", "up",     "down",
                                    "left",  "right", "f1",     "f2",        "f3",       "f4",     "f5",
                                    "f6",    "f7",    "f8",     "f9",        "f10",      "f11",    "f12"};

size_t qt_key_name(const qt_key_event *ev, char *buf, size_t cap) {
  if (!buf || cap == 0) return 0;
  buf[0] = '\0';
  if (!ev || ev->kind != QT_EV_KEY || (ev->mods & ~(unsigned)ALL_MODS)) return 0;
  uint32_t key = ev->key;
  unsigned mods = ev->mods;
  if (key >= 'A' && key <= 'Z') {
    key += 32;
    mods |= QT_MOD_SHIFT;
  }
  if (key == ' ') key = QT_KEY_SPACE;
  char out[64];
  size_t n = 0;
  if (key >= 'a' && key <= 'z' && mods == QT_MOD_SHIFT) { /* pi-tui names "A" as "A" */
    out[n++] = (char)(key - 32);
  } else {
    if (mods & QT_MOD_SHIFT) memcpy(out + n, "shift+", 6), n += 6;
    if (mods & QT_MOD_CTRL) memcpy(out + n, "ctrl+", 5), n += 5;
    if (mods & QT_MOD_ALT) memcpy(out + n, "alt+", 4), n += 4;
    if (mods & QT_MOD_SUPER) memcpy(out + n, "super+", 6), n += 6;
    if (key >= QT_KEY_ENTER && key <= QT_KEY_F12) {
      const char *s = NAMED[key - QT_KEY_ENTER];
      size_t l = strlen(s);
      memcpy(out + n, s, l);
      n += l;
    } else if (printable_cp(key)) {
      n += put_utf8(out + n, key);
    } else {
      return 0;
    }
  }
  if (n + 1 > cap) return 0;
  memcpy(buf, out, n);
  buf[n] = '\0';
  return n;
}

static bool ieq(const char *s, size_t n, const char *lit) {
  size_t l = strlen(lit);
  if (n != l) return false;
  for (size_t i = 0; i < n; i++) {
    char a = s[i], b = lit[i];
    if (a >= 'A' && a <= 'Z') a = (char)(a + 32);
    if (b >= 'A' && b <= 'Z') b = (char)(b + 32);
    if (a != b) return false;
  }
  return true;
}

bool qt_key_parse(const char *name, uint32_t *key, unsigned *mods) {
  if (!name || !key || !mods) return false;
  size_t len = strlen(name);
  if (len == 0 || len > 64) return false;
  size_t ks;                  /* start of the key part */
  if (name[len - 1] == '+') { /* the key is "+" itself: "+", "ctrl++" */
    ks = len - 1;
    if (ks > 0 && name[ks - 1] != '+') return false;
  } else {
    ks = 0;
    for (size_t i = 0; i < len; i++)
      if (name[i] == '+') ks = i + 1;
  }
  unsigned m = 0;
  bool any_mod = false;
  for (size_t i = 0; i < ks;) {
    size_t j = i;
    while (name[j] != '+') j++;
    if (ieq(name + i, j - i, "ctrl"))
      m |= QT_MOD_CTRL;
    else if (ieq(name + i, j - i, "shift"))
      m |= QT_MOD_SHIFT;
    else if (ieq(name + i, j - i, "alt"))
      m |= QT_MOD_ALT;
    else if (ieq(name + i, j - i, "super"))
      m |= QT_MOD_SUPER;
    else
      return false;
    any_mod = true;
    i = j + 1;
  }
  const char *k = name + ks;
  size_t kl = len - ks;
  uint32_t kv = 0;
  if (ieq(k, kl, "esc"))
    kv = QT_KEY_ESCAPE;
  else if (ieq(k, kl, "return"))
    kv = QT_KEY_ENTER;
  else {
    for (size_t i = 0; i < sizeof NAMED / sizeof NAMED[0]; i++)
      if (ieq(k, kl, NAMED[i])) kv = QT_KEY_ENTER + (uint32_t)i;
  }
  if (!kv) {
    size_t adv;
    uint32_t cp = qt_utf8_decode(k, kl, &adv);
    if (adv != kl || !printable_cp(cp) || (cp == 0xFFFD && kl != 3)) return false;
    if (cp >= 'A' && cp <= 'Z') { /* pi-tui lower-cases ids; a bare "A" is its name of shift+a */
      cp += 32;
      if (!any_mod) m |= QT_MOD_SHIFT;
    }
    kv = cp;
  }
  *key = kv;
  *mods = m;
  return true;
}
