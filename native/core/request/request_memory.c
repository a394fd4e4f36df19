/* request_memory.c — the memory a request is read into (request.c): the string arena that owns
 * every string of its questions and options, freed with the request, and this thread's scratch
 * block that a request living for one call (QT_PARSE_SCRATCH) takes its options and strings
 * from. In a file of its own so that the parser reads as parsing. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "request_internal.h"
#include "qt_thread.h"

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

/* ---- the request's string arena ------------------------------------------------------------
 * Every string of a request's questions and options lives in one arena freed with the request:
 * a 100 KB call has thousands of short strings, and one malloc each was a third of validating
 * it. Strings are never freed one by one (an option's value may share its label's bytes). */
typedef struct arena_chunk {
  struct arena_chunk *next;
  size_t used, cap;
  char data[];
} arena_chunk;

/* ---- scratch memory (QT_PARSE_SCRATCH) ------------------------------------------------------
 * A request that lives only for one call (normalize: parsed, written back, freed) takes its
 * options and strings from this thread's scratch block, kept between calls up to
 * QT_SCRATCH_KEEP bytes: the options of a call of 25,000 of them are over a megabyte, and memory
 * fresh from the system for them (the allocator gives it back after each call) faulted a page
 * every 4 KB — a third of validating such a call. What does not fit goes to malloc
 * (and the next call's block is made as large as this one wanted). One scratch request per
 * thread at a time; another parse meanwhile uses malloc. */
#define QT_SCRATCH_KEEP ((size_t)4 << 20)

typedef struct scratch {
  char *base;
  size_t cap, used, wanted;
  bool busy; /* a request holds it */
} scratch;

static _Thread_local scratch thread_scratch;

static scratch *scratch_begin(void) {
  scratch *s = &thread_scratch;
  if (s->busy) return NULL;
  size_t want = s->wanted < QT_SCRATCH_KEEP ? s->wanted : QT_SCRATCH_KEEP;
  if (want > s->cap) {
    free(s->base);
    s->base = malloc(want);
    s->cap = s->base ? want : 0;
    qt_keep_until_thread_end(QT_KEEP_SCRATCH, s->base); /* freed when the thread ends */
  }
  s->used = s->wanted = 0;
  s->busy = true;
  return s;
}

static void *scratch_alloc(scratch *s, size_t n) {
  n = (n + 15) & ~(size_t)15;
  s->wanted += n;
  if (!s->base || s->cap - s->used < n) return NULL;
  void *p = s->base + s->used;
  s->used += n;
  return p;
}

static bool in_scratch(const scratch *s, const void *p) {
  return s && s->base && (const char *)p >= s->base && (const char *)p < s->base + s->cap;
}

struct qt_arena {
  arena_chunk *head;
  size_t first_cap; /* the first chunk's size: about the call's own size, so a small request
                       held by an engine does not keep 32 KB (dropped engines wait for the GC) */
  scratch *scratch; /* this thread's scratch block, held by this request (or NULL) */
};

void qt_arena_free(struct qt_arena *a) {
  if (!a) return;
  for (arena_chunk *c = a->head, *next; c; c = next) {
    next = c->next;
    if (!in_scratch(a->scratch, c)) free(c);
  }
  if (a->scratch) a->scratch->busy = false;
  free(a);
}

char *qt_arena_alloc(struct qt_arena *a, size_t n) {
  arena_chunk *c = a->head;
  if (!c || c->cap - c->used < n) {
    size_t base = !c && a->first_cap ? a->first_cap : 32768;
    size_t cap = n > base ? n : base;
    if (cap > SIZE_MAX - sizeof *c) return NULL;
    c = a->scratch ? scratch_alloc(a->scratch, sizeof *c + cap) : NULL;
    if (!c) c = malloc(sizeof *c + cap);
    if (!c) return NULL;
    c->next = a->head;
    c->used = 0;
    c->cap = cap;
    a->head = c;
  }
  char *p = c->data + c->used;
  c->used += n;
  return p;
}

char *qt_arena_trimmed(struct qt_arena *a, const char *s, size_t n) {
  while (n && is_space(*s)) s++, n--;
  while (n && is_space(s[n - 1])) n--;
  char *p = qt_arena_alloc(a, n + 1);
  if (!p) return NULL;
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *qt_arena_strdup(struct qt_arena *a, const char *s) { return qt_arena_trimmed(a, s, strlen(s)); }

struct qt_arena *qt_arena_new(size_t call_len, bool scratch) {
  struct qt_arena *a = calloc(1, sizeof *a);
  if (!a) return NULL;
  /* Every string of the request fits in about the call's own length (the rest spills over). */
  a->first_cap = call_len < 32768 - 512 ? call_len + 512 : 32768;
  if (scratch) a->scratch = scratch_begin();
  return a;
}

void *qt_arena_scratch_alloc(struct qt_arena *a, size_t n) {
  return a && a->scratch ? scratch_alloc(a->scratch, n) : NULL;
}

bool qt_arena_in_scratch(const struct qt_arena *a, const void *p) { return in_scratch(a ? a->scratch : NULL, p); }

size_t qt_arena_bytes(const struct qt_arena *a) {
  size_t n = 0;
  if (a)
    for (const arena_chunk *c = a->head; c; c = c->next) n += sizeof *c + c->cap;
  return n;
}
