/* width.c — grapheme clusters (UAX #29 extended clusters, split as Intl.Segmenter splits them)
 * and their terminal width, counted exactly as pi-tui's visibleWidth counts them; plus the
 * ANSI escape sequences (CSI, OSC, APC) that pi-tui's extractAnsiCode skips. The property
 * tables come from scripts/gen-unicode-tables.mjs (native/unicode_tables.h). Nothing here
 * allocates. */
#include <limits.h>
#include <stdatomic.h>
#include <string.h>

#include "qt_text.h"
#include "unicode_tables.h"

/* ---- work counter (tests) ---------------------------------------------------------------- */
/* Relaxed atomic loads and stores (plain moves, no locked instruction): threads that segment
 * at the same time may lose each other's counts, which a test counter can afford. */
static _Atomic size_t work_count;

static inline void add_work(size_t n) {
  atomic_store_explicit(&work_count, atomic_load_explicit(&work_count, memory_order_relaxed) + n, memory_order_relaxed);
}

size_t qt_text_work(void) { return atomic_load_explicit(&work_count, memory_order_relaxed); }

void qt_text_add_work(size_t n) { add_work(n); }

/* ---- the rule set ------------------------------------------------------------------------
 * Process-wide, set once by the host after probing its pi-tui (qt_set_width_rules); read with
 * a relaxed load (a plain move) once per call, by any thread (the tty runner's too). */
static _Atomic unsigned width_rules;

void qt_set_width_rules(unsigned rules) {
  atomic_store_explicit(&width_rules, rules & QT_WIDTH_RULES_ALL, memory_order_relaxed);
}

unsigned qt_width_rules(void) { return atomic_load_explicit(&width_rules, memory_order_relaxed); }

/* The property bit that says "wide" under the rules r. */
static inline uint16_t wide_bit(unsigned r) { return (r & QT_WIDTH_CURRENT_EAW) ? QT_P_WIDE_CURRENT : QT_P_WIDE; }

/* ---- decoding -------------------------------------------------------------------------- */
#define decode qt_utf8_decode_fast

/* ---- code point properties ------------------------------------------------------------ */

/* The range the last look-up found: text tends to stay in one script, so the next code point
 * is often in it (Cyrillic letters, a run of combining marks) and needs no search. */
static _Atomic size_t last_range; /* relaxed: a stale index only costs a search */

/* The search when the last range does not hold cp: out of line, so that the common case
 * below is inlined where the segmenter's loops call it. */
static uint16_t props_search(uint32_t cp) {
  /* last range whose start is <= cp */
  size_t lo = 0, hi = QT_PROP_RANGES;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (qt_prop_start[mid] <= cp)
      lo = mid;
    else
      hi = mid;
  }
  atomic_store_explicit(&last_range, lo, memory_order_relaxed);
  return qt_prop_value[lo];
}

static inline uint16_t props_lookup(uint32_t cp) {
  if (cp < 0x80) return qt_ascii_value[cp];
  size_t r = atomic_load_explicit(&last_range, memory_order_relaxed);
  if (qt_prop_start[r] <= cp && (r + 1 == QT_PROP_RANGES || cp < qt_prop_start[r + 1])) return qt_prop_value[r];
  return props_search(cp);
}

/* The word with the GCB, InCB and pictographic classes of Bun's segmenter (qt_alt_*), for a
 * code point flagged QT_P_ALT_CLUSTERS: it lies in one of the side table's ranges. */
static uint16_t alt_classes(uint32_t cp, uint16_t v) {
  size_t lo = 0, hi = QT_ALT_RANGES;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (qt_alt_start[mid] <= cp)
      lo = mid;
    else
      hi = mid;
  }
  if (cp < qt_alt_start[lo] || cp >= qt_alt_end[lo]) return v; /* not flagged by the generator */
  return (uint16_t)((v & ~(QT_P_GCB_MASK | QT_P_INCB_MASK | QT_P_PICT)) | qt_alt_value[lo]);
}

/* Properties of cp under the current rules: with QT_WIDTH_UNICODE15_CLUSTERS the classes that
 * segment as Bun's Intl.Segmenter does (a relaxed load of the rules, only for the few code
 * points whose classes differ there). */
static inline uint16_t props_of(uint32_t cp) {
  uint16_t v = props_lookup(cp);
  if ((v & QT_P_ALT_CLUSTERS) && (qt_width_rules() & QT_WIDTH_UNICODE15_CLUSTERS)) v = alt_classes(cp, v);
  return v;
}

#define GCB(p)  ((unsigned)((p)&QT_P_GCB_MASK))
#define INCB(p) ((unsigned)(((p)&QT_P_INCB_MASK) >> QT_P_INCB_SHIFT))

static bool printable_ascii(unsigned char b) { return b >= 0x20 && b < 0x7F; }

/* ---- segmentation: the state that the break rules look back on ------------------------- */

typedef struct {
  uint16_t prev; /* properties of the previous code point */
  size_t ri;     /* regional indicators in a row ending at prev (GB12, GB13) */
  unsigned pict; /* 1: ExtPict Extend* ends at prev, 2: ExtPict Extend* ZWJ (GB11) */
  unsigned incb; /* 1: Consonant [Extend Linker]* ends at prev, 2: with a Linker (GB9c) */
} seg_state;

static void seg_start(seg_state *st, uint16_t cur) {
  memset(st, 0, sizeof *st);
  st->prev = cur;
  st->ri = GCB(cur) == QT_GCB_RI;
  st->pict = (cur & QT_P_PICT) ? 1 : 0;
  st->incb = INCB(cur) == QT_INCB_CONSONANT ? 1 : 0;
}

/* Is there a boundary between st->prev and cur? */
static bool seg_breaks(const seg_state *st, uint16_t cur) {
  unsigned p = GCB(st->prev), c = GCB(cur);
  if (p == QT_GCB_CR && c == QT_GCB_LF) return false;                                                       /* GB3 */
  if (p == QT_GCB_CR || p == QT_GCB_LF || p == QT_GCB_CONTROL) return true;                                 /* GB4 */
  if (c == QT_GCB_CR || c == QT_GCB_LF || c == QT_GCB_CONTROL) return true;                                 /* GB5 */
  if (p == QT_GCB_L && (c == QT_GCB_L || c == QT_GCB_V || c == QT_GCB_LV || c == QT_GCB_LVT)) return false; /* GB6 */
  if ((p == QT_GCB_LV || p == QT_GCB_V) && (c == QT_GCB_V || c == QT_GCB_T)) return false;                  /* GB7 */
  if ((p == QT_GCB_LVT || p == QT_GCB_T) && c == QT_GCB_T) return false;                                    /* GB8 */
  if (c == QT_GCB_EXTEND || c == QT_GCB_ZWJ) return false;                                                  /* GB9 */
  if (c == QT_GCB_SPACINGMARK) return false;                                                                /* GB9a */
  if (p == QT_GCB_PREPEND) return false;                                                                    /* GB9b */
  if (st->incb == 2 && INCB(cur) == QT_INCB_CONSONANT) return false;                                        /* GB9c */
  if (p == QT_GCB_ZWJ && st->pict == 2 && (cur & QT_P_PICT)) return false;                                  /* GB11 */
  if (p == QT_GCB_RI && c == QT_GCB_RI && (st->ri & 1)) return false; /* GB12, GB13 */
  return true;                                                        /* GB999 */
}

static void seg_push(seg_state *st, uint16_t cur) {
  unsigned c = GCB(cur), ib = INCB(cur);
  if (cur & QT_P_PICT)
    st->pict = 1;
  else if (st->pict == 1 && c == QT_GCB_EXTEND)
    st->pict = 1;
  else if (st->pict == 1 && c == QT_GCB_ZWJ)
    st->pict = 2;
  else
    st->pict = 0;
  st->ri = c == QT_GCB_RI ? st->ri + 1 : 0;
  if (ib == QT_INCB_CONSONANT)
    st->incb = 1;
  else if (st->incb && ib == QT_INCB_LINKER)
    st->incb = 2;
  else if (!(st->incb && ib == QT_INCB_EXTEND))
    st->incb = 0;
  st->prev = cur;
}

/* ---- width of one cluster, gathered code point by code point ---------------------------
 * Mirrors pi-tui's graphemeWidth(segment):
 *   [QT_WIDTH_SPACING_MARKS, pi-tui >= 0.87: the number of code points when every one is a
 *   terminal spacing mark;]
 *   0 when every code point is Default_Ignorable, Cc, Mark (or a surrogate);
 *   2 when couldBeEmoji(segment) and the segment is \p{RGI_Emoji};
 *   otherwise the base (first code point that is not Default_Ignorable/Cc/Cf/Mark) decides:
 *   none → 0, regional indicator → 2, else its East Asian width, plus for every code point
 *   after the first: halfwidth/fullwidth forms U+FF00..U+FFEF their own East Asian width,
 *   Thai/Lao AM (U+0E33, U+0EB3) one more.
 *   [QT_WIDTH_SPACING_MARKS: instead, for every code point after the base: a terminal spacing
 *   mark one more; another mark sets "follows a mark"; a printable code point (not
 *   Default_Ignorable/Cc/Cf/Mark) its East Asian width when it follows a mark or is a
 *   halfwidth/fullwidth form, else one for Thai/Lao AM, and clears "follows a mark".]
 *   "East Asian width" is get-east-asian-width's: that of the tables' Node, or with
 *   QT_WIDTH_CURRENT_EAW that of the current pi line (QT_P_WIDE_CURRENT). */

typedef struct {
  size_t n;      /* code points */
  size_t u16;    /* length in UTF-16 units (couldBeEmoji's segment.length > 2) */
  size_t extra;  /* columns from trailing halfwidth/fullwidth forms and AM vowels (or, with
                      spacing marks, from what follows the base) */
  uint16_t wide; /* the property bit that says wide (wide_bit) */
  bool marks;    /* QT_WIDTH_SPACING_MARKS */
  bool all_tsm;  /* every code point is a terminal spacing mark */
  bool follows_mark;
  uint32_t first; /* first code point */
  uint16_t first_props;
  bool all_zero;
  bool fe0f;
  bool has_base;
  uint16_t base_props;
  uint32_t base;
  uint32_t cps[QT_RGI_MAX_CPS];
} cluster;

static void cluster_reset(cluster *k, unsigned rules) {
  k->n = 0;
  k->u16 = 0;
  k->extra = 0;
  k->wide = wide_bit(rules);
  k->marks = (rules & QT_WIDTH_SPACING_MARKS) != 0;
  k->all_tsm = true;
  k->follows_mark = false;
  k->all_zero = true;
  k->fe0f = false;
  k->has_base = false;
}

static void cluster_add(cluster *k, uint32_t cp, uint16_t props) {
  if (k->n == 0) {
    k->first = cp;
    k->first_props = props;
  } else if (k->marks) {
    if (k->has_base) { /* after the base */
      if (props & QT_P_TSM) {
        k->extra += 1;
        k->follows_mark = false;
      } else if (props & QT_P_MARK) {
        k->follows_mark = true;
      } else if (!(props & QT_P_LEAD)) {
        if (k->follows_mark || (cp >= 0xFF00 && cp <= 0xFFEF))
          k->extra += (props & k->wide) ? 2 : 1;
        else if (cp == 0x0E33 || cp == 0x0EB3)
          k->extra += 1;
        k->follows_mark = false;
      }
    }
  } else if (cp >= 0xFF00 && cp <= 0xFFEF) {
    k->extra += (props & k->wide) ? 2 : 1;
  } else if (cp == 0x0E33 || cp == 0x0EB3) {
    k->extra += 1;
  }
  if (!(props & QT_P_TSM)) k->all_tsm = false;
  if (k->n < QT_RGI_MAX_CPS) k->cps[k->n] = cp;
  k->n++;
  k->u16 += cp > 0xFFFF ? 2 : 1;
  if (!(props & QT_P_ZERO)) k->all_zero = false;
  if (cp == 0xFE0F) k->fe0f = true;
  if (!k->has_base && !(props & QT_P_LEAD)) {
    k->has_base = true;
    k->base = cp;
    k->base_props = props;
  }
}

static int cmp_seq(const uint32_t *a, size_t na, const uint32_t *b, size_t nb) {
  size_t n = na < nb ? na : nb;
  for (size_t i = 0; i < n; i++)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return na == nb ? 0 : (na < nb ? -1 : 1);
}

static bool cluster_is_rgi(const cluster *k) {
  if (k->n == 1) return (k->first_props & QT_P_EMOJI) != 0;
  if (k->n > QT_RGI_MAX_CPS) return false;
  size_t lo = 0, hi = QT_RGI_COUNT;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = cmp_seq(qt_rgi_cps + qt_rgi_off[mid], (size_t)(qt_rgi_off[mid + 1] - qt_rgi_off[mid]), k->cps, k->n);
    if (c == 0) return true;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return false;
}

static bool could_be_emoji(const cluster *k) {
  uint32_t cp = k->first;
  return (cp >= 0x1F000 && cp <= 0x1FBFF) || (cp >= 0x2300 && cp <= 0x23FF) || (cp >= 0x2600 && cp <= 0x27BF) ||
         (cp >= 0x2B50 && cp <= 0x2B55) || k->fe0f || k->u16 > 2;
}

static size_t cluster_width(const cluster *k) {
  if (k->n == 0) return 0;
  if (k->marks && k->all_tsm) return k->n;
  if (k->all_zero) return 0;
  if (could_be_emoji(k) && cluster_is_rgi(k)) return 2;
  if (!k->has_base) return 0;
  if (k->base >= 0x1F1E6 && k->base <= 0x1F1FF) return 2;
  size_t w = (k->base_props & k->wide) ? 2 : 1;
  return w + k->extra;
}

/* ---- escape sequences ------------------------------------------------------------------ */

/* Offset of the first of "mGKHJ" at or after j, or len. */
static size_t csi_end(const char *s, size_t len, size_t j) {
  for (; j < len; j++) {
    char c = s[j];
    if (c == 'm' || c == 'G' || c == 'K' || c == 'H' || c == 'J') return j;
  }
  return len;
}

/* Length up to and including the first BEL or ESC '\' at or after j (counted from 0), or 0. */
static size_t string_end(const char *s, size_t len, size_t j) {
  for (; j < len; j++) {
    if (s[j] == '\x07') return j + 1;
    if (s[j] == '\x1b' && j + 1 < len && s[j + 1] == '\\') return j + 2;
  }
  return 0;
}

size_t qt_escape_length(const char *s, size_t len) {
  if (len < 2 || s[0] != '\x1b') return 0;
  if (s[1] == '[') {
    size_t j = csi_end(s, len, 2);
    return j < len ? j + 1 : 0;
  }
  if (s[1] == ']' || s[1] == '_') return string_end(s, len, 2);
  return 0;
}

/* ---- the code point stream that visibleWidth segments ----------------------------------
 * pi-tui first turns each tab into three spaces, then drops the escape sequences, then
 * segments what is left; escapes therefore do not split a cluster ("e", SGR, U+0301 is one
 * cluster). Unterminated sequences are remembered so that many of them stay linear. */

typedef struct {
  const char *s;
  size_t len;
  size_t pos;
  unsigned spaces; /* spaces still owed for a tab */
  bool skip_escapes;
  size_t no_csi_from; /* no CSI final byte at or after this offset */
  size_t no_st_from;  /* no BEL / ESC '\' at or after this offset */
} cp_stream;

static void stream_init(cp_stream *t, const char *s, size_t len, bool skip_escapes) {
  t->s = s;
  t->len = len;
  t->pos = 0;
  t->spaces = 0;
  t->skip_escapes = skip_escapes;
  t->no_csi_from = SIZE_MAX;
  t->no_st_from = SIZE_MAX;
}

/* Length of the escape at t->pos (as qt_escape_length), using what earlier scans learned. */
static size_t stream_escape(cp_stream *t) {
  const char *s = t->s + t->pos;
  size_t len = t->len - t->pos;
  if (len < 2) return 0;
  if (s[1] == '[') {
    if (t->pos + 2 >= t->no_csi_from) return 0;
    size_t j = csi_end(s, len, 2);
    if (j < len) return j + 1;
    t->no_csi_from = t->pos + 2;
    return 0;
  }
  if (s[1] == ']' || s[1] == '_') {
    if (t->pos + 2 >= t->no_st_from) return 0;
    size_t n = string_end(s, len, 2);
    if (!n) t->no_st_from = t->pos + 2;
    return n;
  }
  return 0;
}

static bool stream_next(cp_stream *t, uint32_t *cp) {
  if (t->spaces) {
    t->spaces--;
    *cp = ' ';
    return true;
  }
  while (t->pos < t->len) {
    unsigned char b = (unsigned char)t->s[t->pos];
    if (b == 0x1B && t->skip_escapes) {
      size_t n = stream_escape(t);
      if (n) {
        t->pos += n;
        continue;
      }
    }
    if (b < 0x80) {
      t->pos++;
      add_work(1);
      if (b == '\t') {
        t->spaces = 2;
        b = ' ';
      }
      *cp = b;
      return true;
    }
    size_t adv;
    *cp = decode(t->s + t->pos, t->len - t->pos, &adv);
    t->pos += adv;
    add_work(1);
    return true;
  }
  return false;
}

/* Width of everything the stream yields, cluster by cluster. */
static size_t measure(const char *s, size_t len, bool skip_escapes) {
  cp_stream t;
  stream_init(&t, s, len, skip_escapes);
  unsigned rules = qt_width_rules();
  seg_state st;
  cluster k;
  cluster_reset(&k, rules);
  bool open = false; /* k holds a cluster and st its state */
  size_t width = 0;
  for (;;) {
    /* A run of printable ASCII: every byte but the last is a cluster of width 1 of its own
     * (Other × Other breaks), unless the cluster before it ends in a Prepend. The last one
     * may still take combining marks, so it goes the normal way. */
    if (!t.spaces && t.pos < t.len && printable_ascii((unsigned char)s[t.pos]) &&
        (!open || GCB(st.prev) != QT_GCB_PREPEND)) {
      size_t r = t.pos + 1;
      while (r < len && printable_ascii((unsigned char)s[r])) r++;
      if (r - t.pos >= 2) {
        if (open) width += cluster_width(&k);
        cluster_reset(&k, rules);
        open = false;
        width += r - t.pos - 1;
        add_work(r - t.pos - 1);
        t.pos = r - 1;
      }
    }
    uint32_t cp;
    if (!stream_next(&t, &cp)) break;
    uint16_t p = props_of(cp);
    if (!open) {
      seg_start(&st, p);
      open = true;
    } else if (seg_breaks(&st, p)) {
      width += cluster_width(&k);
      cluster_reset(&k, rules);
      seg_push(&st, p);
    } else {
      seg_push(&st, p);
    }
    cluster_add(&k, cp, p);
  }
  if (open) width += cluster_width(&k);
  return width;
}

/* ---- public ---------------------------------------------------------------------------- */

size_t qt_grapheme_next(const char *s, size_t len, size_t pos) {
  if (pos >= len) return len;
  add_work(1);
  unsigned char b = (unsigned char)s[pos];
  if (b < 0x80) {
    if (b == '\r') return pos + 1 < len && s[pos + 1] == '\n' ? pos + 2 : pos + 1; /* GB3, GB4 */
    if (b < 0x20 || b == 0x7F) return pos + 1;                                     /* GB4 */
    if (pos + 1 == len || (unsigned char)s[pos + 1] < 0x80) return pos + 1;        /* GB999 */
  }
  int w;
  size_t plain = qt_grapheme_next_plain(s, len, pos, &w);
  if (plain > pos) return plain;
  size_t adv;
  uint32_t cp = decode(s + pos, len - pos, &adv);
  seg_state st;
  seg_start(&st, props_of(cp));
  size_t q = pos + adv;
  while (q < len) {
    cp = decode(s + q, len - q, &adv);
    add_work(1);
    uint16_t p = props_of(cp);
    if (seg_breaks(&st, p)) break;
    seg_push(&st, p);
    q += adv;
  }
  return q;
}

/* ---- stepping back ----------------------------------------------------------------------
 * Whether a boundary lies between two code points depends on the two alone, except for three
 * rules that look further back: GB9c (a consonant after a linker: back over [Extend Linker]*
 * to a consonant), GB11 (a pictograph after ZWJ: back over Extend* to a pictograph) and
 * GB12/13 (regional indicators pair from the start of their run). Those runs join the cluster
 * before the boundary (GB9), so looking over them costs no more than the step itself, except
 * a run of indicators, which the memo remembers. */

/* Start of the code point that ends at pos (pos > 0), as forward decoding splits it (every
 * byte of an invalid sequence is a code point of its own), and its properties in *props and
 * the code point in *cp. */
static inline size_t cp_back(const char *s, size_t len, size_t pos, uint16_t *props, uint32_t *cp) {
  size_t p = pos - 1, adv;
  while (p > 0 && pos - p < 4 && ((unsigned char)s[p] & 0xC0) == 0x80) p--;
  uint32_t c = decode(s + p, len - p, &adv);
  if (p + adv != pos) {
    p = pos - 1;
    c = decode(s + p, len - p, &adv);
  }
  add_work(1);
  *cp = c;
  *props = props_of(c);
  return p;
}

/* Regional indicators in a row ending with the one at a (which is one). */
static size_t ri_run(const char *s, size_t len, size_t a, qt_seg_memo *memo) {
  if (memo && memo->ri_end > a && a >= memo->ri_start && (a - memo->ri_start) % 4 == 0)
    return (a - memo->ri_start) / 4 + 1;
  bool known = memo && memo->ri_end > memo->ri_start && a >= memo->ri_end && (a - memo->ri_end) % 4 == 0;
  size_t start = a, n = 1;
  while (start > 0) {
    if (known && start == memo->ri_end) { /* the rest of the run is known */
      n += (start - memo->ri_start) / 4;
      start = memo->ri_start;
      break;
    }
    uint16_t pb;
    uint32_t cp;
    size_t b = cp_back(s, len, start, &pb, &cp);
    if (GCB(pb) != QT_GCB_RI) break;
    start = b;
    n++;
  }
  if (memo && a + 4 <= len) {
    memo->ri_start = start;
    memo->ri_end = a + 4;
  }
  return n;
}

/* Is there a boundary between the code point at a (properties pa) and the one after it (pc)? */
static bool boundary_between(const char *s, size_t len, size_t a, uint16_t pa, uint16_t pc, qt_seg_memo *memo) {
  unsigned ga = GCB(pa), gc = GCB(pc);
  if (ga == QT_GCB_CR || ga == QT_GCB_LF || ga == QT_GCB_CONTROL) return !(ga == QT_GCB_CR && gc == QT_GCB_LF);
  if (gc == QT_GCB_EXTEND || gc == QT_GCB_ZWJ || gc == QT_GCB_SPACINGMARK) return false; /* GB9, GB9a */
  if (gc == QT_GCB_OTHER && !(pc & QT_P_PICT) && INCB(pc) != QT_INCB_CONSONANT)
    return ga != QT_GCB_PREPEND; /* GB9b, GB999 */
  seg_state st;
  st.prev = pa;
  st.ri = 0;
  st.pict = 0;
  st.incb = 0;
  if (ga == QT_GCB_RI && gc == QT_GCB_RI) st.ri = ri_run(s, len, a, memo);
  if (ga == QT_GCB_ZWJ && (pc & QT_P_PICT)) { /* GB11: ExtPict Extend* ZWJ × ExtPict */
    size_t x = a;
    while (x > 0) {
      uint16_t px;
      uint32_t cp;
      x = cp_back(s, len, x, &px, &cp);
      if (px & QT_P_PICT) {
        st.pict = 2;
        break;
      }
      if (GCB(px) != QT_GCB_EXTEND) break;
    }
  }
  unsigned ia = INCB(pa);
  if (INCB(pc) == QT_INCB_CONSONANT && (ia == QT_INCB_LINKER || ia == QT_INCB_EXTEND)) { /* GB9c */
    bool linker = ia == QT_INCB_LINKER;
    size_t x = a;
    while (x > 0) {
      uint16_t px;
      uint32_t cp;
      x = cp_back(s, len, x, &px, &cp);
      unsigned ix = INCB(px);
      if (ix == QT_INCB_CONSONANT) {
        st.incb = linker ? 2 : 1;
        break;
      }
      if (ix == QT_INCB_LINKER)
        linker = true;
      else if (ix != QT_INCB_EXTEND)
        break;
    }
  }
  return seg_breaks(&st, pc);
}

bool qt_grapheme_boundary(const char *s, size_t len, size_t pos, qt_seg_memo *memo) {
  if (!s || pos == 0 || pos >= len) return true;
  size_t adv;
  uint32_t cc = decode(s + pos, len - pos, &adv), ca;
  add_work(1);
  uint16_t pc = props_of(cc), pa;
  size_t a = cp_back(s, len, pos, &pa, &ca);
  return boundary_between(s, len, a, pa, pc, memo);
}

size_t qt_grapheme_prev(const char *s, size_t len, size_t pos, qt_seg_memo *memo, uint32_t *first) {
  uint32_t dummy;
  if (!first) first = &dummy;
  *first = 0;
  if (pos == 0 || !s) return 0;
  if (pos > len) pos = len;
  unsigned char z = (unsigned char)s[pos - 1];
  if (z < 0x80 && (pos == 1 || ((unsigned char)s[pos - 2] < 0x80 && !(z == '\n' && s[pos - 2] == '\r')))) {
    add_work(1); /* two ASCII code points: always a boundary between them but in CR LF */
    *first = z;
    return pos - 1;
  }
  uint16_t pc, pa = 0;
  uint32_t cc, ca = 0;
  size_t c, a = 0;
  if (memo && memo->cp_end == pos) { /* the last step back looked at this one already */
    c = memo->cp_start;
    pc = memo->cp_props;
    cc = memo->cp;
  } else {
    c = cp_back(s, len, pos, &pc, &cc);
  }
  while (c > 0) {
    a = cp_back(s, len, c, &pa, &ca);
    if (boundary_between(s, len, a, pa, pc, memo)) break;
    c = a;
    pc = pa;
    cc = ca;
  }
  if (memo && c > 0) {
    memo->cp_start = a;
    memo->cp_end = c;
    memo->cp = ca;
    memo->cp_props = pa;
  }
  *first = cc;
  return c;
}

/* A base no rule looks back on or emoji reading could change: Other, not pictographic, not an
 * emoji alone, not zero-width or a format character, no Indic conjunct role, outside the ranges
 * where couldBeEmoji looks. */
static inline bool simple_base(uint32_t cp, uint16_t p) {
  return GCB(p) == QT_GCB_OTHER && !(p & (QT_P_PICT | QT_P_EMOJI | QT_P_LEAD | QT_P_INCB_MASK)) &&
         !(cp >= 0x2300 && cp <= 0x23FF) && !(cp >= 0x2600 && cp <= 0x27BF) && !(cp >= 0x2B50 && cp <= 0x2B55) &&
         !(cp >= 0x1F000 && cp <= 0x1FBFF);
}

/* A mark that only joins the cluster before it and adds no width: Extend, zero-width, neither
 * pictographic nor an emoji, not VS16, not a halfwidth/fullwidth form or a Thai/Lao AM, and
 * under rules that count terminal spacing marks (`tsm` is then QT_P_TSM, else 0) not one of
 * them. Such marks may set "follows a mark", but nothing printable joins a simple cluster. */
static inline bool simple_mark(uint32_t cp, uint16_t p, uint16_t tsm) {
  return GCB(p) == QT_GCB_EXTEND && (p & QT_P_ZERO) && !(p & (QT_P_PICT | QT_P_EMOJI | tsm)) && cp != 0xFE0F &&
         !(cp >= 0xFF00 && cp <= 0xFFEF) && cp != 0x0E33 && cp != 0x0EB3;
}

size_t qt_grapheme_next_plain(const char *s, size_t len, size_t pos, int *width) {
  if (pos >= len) return 0;
  size_t adv, q;
  uint32_t cp = decode(s + pos, len - pos, &adv);
  uint16_t p = props_of(cp);
  if (!simple_base(cp, p)) return 0;
  unsigned rules = qt_width_rules();
  uint16_t tsm = (rules & QT_WIDTH_SPACING_MARKS) ? QT_P_TSM : 0;
  int w = (p & wide_bit(rules)) ? 2 : 1;
  size_t n = 1;
  for (q = pos + adv; q < len; q += adv, n++) {
    cp = decode(s + q, len - q, &adv);
    p = props_of(cp);
    unsigned g = GCB(p);
    if (g != QT_GCB_EXTEND && g != QT_GCB_ZWJ && g != QT_GCB_SPACINGMARK) break; /* GB999: nothing joins */
    if (!simple_mark(cp, p, tsm)) return 0;
  }
  add_work(n);
  *width = w;
  return q;
}

size_t qt_plain_run(const char *s, size_t len, size_t pos, int room, int *usedp, size_t *over, int *over_width) {
  int used = *usedp;
  size_t work = 0, adv = 0;
  uint32_t cp = 0;
  uint16_t p = 0;
  bool have = false; /* cp, p and adv are already those of the code point at pos */
  unsigned rules = qt_width_rules();
  uint16_t wide = wide_bit(rules), tsm = (rules & QT_WIDTH_SPACING_MARKS) ? QT_P_TSM : 0;
  *over = 0;
  while (pos < len) {
    unsigned char b = (unsigned char)s[pos];
    size_t end;
    int w;
    if (b > 0x20 && b < 0x7F && (pos + 1 == len || (unsigned char)s[pos + 1] < 0x80)) {
      w = 1;
      end = pos + 1;
      have = false;
    } else {
      if (b <= 0x20) break;
      if (!have) {
        cp = decode(s + pos, len - pos, &adv);
        p = props_of(cp);
      }
      have = false;
      if (!simple_base(cp, p)) break;
      w = (p & wide) ? 2 : 1;
      size_t q = pos + adv, n = 1;
      bool plain = true;
      while (q < len) {
        uint32_t c2 = decode(s + q, len - q, &adv);
        uint16_t p2 = props_of(c2);
        unsigned g = GCB(p2);
        if (g != QT_GCB_EXTEND && g != QT_GCB_ZWJ && g != QT_GCB_SPACINGMARK) { /* GB999: the next cluster */
          cp = c2;
          p = p2;
          have = true;
          break;
        }
        if (!simple_mark(c2, p2, tsm)) {
          plain = false;
          break;
        }
        q += adv;
        n++;
      }
      if (!plain) break;
      work += n;
      end = q;
    }
    if (used + w > room) {
      *over = end;
      *over_width = w;
      break;
    }
    used += w;
    pos = end;
  }
  add_work(work);
  *usedp = used;
  return pos;
}

size_t qt_grapheme_next_width(const char *s, size_t len, size_t pos, int *width) {
  *width = 0;
  if (pos >= len) return len;
  unsigned char b = (unsigned char)s[pos];
  if (b >= 0x20 && b < 0x7F && (pos + 1 == len || (unsigned char)s[pos + 1] < 0x80)) {
    add_work(1);
    *width = 1;
    return pos + 1;
  }
  size_t adv;
  uint32_t cp = decode(s + pos, len - pos, &adv);
  add_work(1);
  uint16_t p = props_of(cp);
  seg_state st;
  cluster k;
  cluster_reset(&k, qt_width_rules());
  seg_start(&st, p);
  cluster_add(&k, cp, p);
  size_t q = pos + adv;
  while (q < len) {
    cp = decode(s + q, len - q, &adv);
    add_work(1);
    p = props_of(cp);
    if (seg_breaks(&st, p)) break;
    seg_push(&st, p);
    cluster_add(&k, cp, p);
    q += adv;
  }
  if (b == '\t') {
    *width = 3; /* as visibleWidth counts a tab */
  } else {
    size_t w = cluster_width(&k);
    *width = w > INT_MAX ? INT_MAX : (int)w;
  }
  return q;
}

int qt_grapheme_width(const char *s, size_t len) {
  size_t w = measure(s, len, false);
  return w > INT_MAX ? INT_MAX : (int)w;
}

size_t qt_visible_width(const char *s, size_t len) {
  size_t i = 0;
  while (i < len && printable_ascii((unsigned char)s[i])) i++;
  if (i == len) return len;
  return measure(s, len, true);
}
