/* json_arena.c — cJSON's memory while a call is validated: the trees cJSON parses inside a scope
 * (qt_json_arena_begin … _end) are bump-allocated in chunks owned by the scope and freed at once at
 * its end, instead of one malloc and one free per value and per string (issue 13: malloc and
 * free were a third of validating a 100 KB call, half of cJSON's own parse and free).
 *
 * cJSON's hooks are process-global, so they stay safe for every other use of cJSON: a scope is
 * per thread (the terminal runner validates on a thread of its own), the hooks allocate from the
 * arena only while qt_json_parse runs cJSON's parser inside a scope of this thread, and they hand
 * everything else to malloc and free. A pointer inside one of this thread's scope chunks is not
 * freed (a no-op until the scope ends); any other pointer is freed. So a tree parsed in a scope
 * must be deleted inside it, on its thread, or not at all (qt_request_parse_ex keeps to that).
 * (Other code in the process installing cJSON hooks with an allocator other than malloc would
 * conflict with these: whichever installs last frees what the other allocated. Nothing in pi or
 * node loads the system cJSON.)
 *
 * Each thread keeps the largest chunk of its last scope, up to QT_JSON_ARENA_KEEP bytes, for its
 * next one (freed when the thread ends): a chunk of a megabyte, fresh from the system for every
 * call, cost a page fault every 4 KB — inside node, a 100 KB call of string options faulted 140
 * times, which took longer than cJSON's parse of it. */
#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "qt_internal.h"

struct qt_json_chunk {
  struct qt_json_chunk *next;
  size_t used, cap;
  alignas(max_align_t) unsigned char data[];
};

#define QT_JSON_ARENA_KEEP ((size_t)2 << 20)

static _Thread_local qt_json_arena *active; /* this thread's open scope, or NULL */
static pthread_key_t spare_key;               /* this thread's kept chunk (freed at its end) */
static bool spare_ok;                         /* spare_key was made */

static bool owns(const qt_json_arena *a, const void *p) {
  uintptr_t at = (uintptr_t)p;
  for (const struct qt_json_chunk *c = a->head; c; c = c->next)
    if (at >= (uintptr_t)c->data && at < (uintptr_t)c->data + c->cap) return true;
  return false;
}

/* A new chunk for n bytes (the slow path of hook_malloc): the thread's kept one when it is big
 * enough, else a fresh one; NULL when none can be had. */
static __attribute__((noinline)) void *arena_grow(qt_json_arena *a, size_t n) {
  struct qt_json_chunk *c = spare_ok ? pthread_getspecific(spare_key) : NULL;
  if (c && c->cap >= n) {
    pthread_setspecific(spare_key, NULL);
  } else {
    c = a->head;
    size_t cap = c ? 2 * c->cap : a->first_cap;
    if (cap < n) cap = n;
    if (cap > SIZE_MAX - sizeof *c || !(c = malloc(sizeof *c + cap))) return NULL;
    c->cap = cap;
  }
  c->next = a->head;
  c->used = n;
  a->head = c;
  return c->data;
}

static void *hook_malloc(size_t n) {
  qt_json_arena *a = active;
  if (!a || !a->allocating) return malloc(n);
  const size_t align = alignof(max_align_t);
  if (n <= SIZE_MAX / 4) {
    n = (n + align - 1) & ~(align - 1);
    struct qt_json_chunk *c = a->head;
    if (c && c->cap - c->used >= n) {
      void *p = c->data + c->used;
      c->used += n;
      return p;
    }
    void *p = arena_grow(a, n);
    if (p) return p;
  }
  a->fell_back = true; /* a chunk could not be had: this value is malloc'ed, freed one by one */
  return malloc(n);
}

static void hook_free(void *p) {
  for (const qt_json_arena *a = active; p && a; a = a->outer)
    if (owns(a, p)) return;
  free(p);
}

static void install_hooks(void) {
  spare_ok = pthread_key_create(&spare_key, free) == 0;
  cJSON_Hooks hooks = {hook_malloc, hook_free};
  cJSON_InitHooks(&hooks);
}

void qt_json_arena_begin(qt_json_arena *a, size_t input_len) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, install_hooks);
  /* cJSON takes 64 bytes a value and a little more for each string: about 4 bytes for each byte
   * of a call of strings, 16 for a list of bare numbers (later chunks double) */
  size_t first = input_len < SIZE_MAX / 8 ? 4 * input_len : SIZE_MAX / 2;
  *a = (qt_json_arena){.first_cap = first < 4096 ? 4096 : first, .outer = active};
  active = a;
}

void qt_json_arena_end(qt_json_arena *a) {
  struct qt_json_chunk *keep = spare_ok ? pthread_getspecific(spare_key) : NULL;
  for (struct qt_json_chunk *c = a->head, *next; c; c = next) {
    next = c->next;
    if (c->cap <= QT_JSON_ARENA_KEEP && (!keep || c->cap > keep->cap)) {
      free(keep);
      keep = c;
    } else {
      free(c);
    }
  }
  if (keep && pthread_setspecific(spare_key, keep) != 0) free(keep);
  a->head = NULL;
  if (active == a) active = a->outer;
}

void qt_json_arena_drop(qt_json_arena *a, struct cJSON *tree) {
  /* Deleted unless it lives wholly in the chunks: a value fell back to malloc, or hooks someone
   * else installed after ours allocated it (then cJSON_Delete frees it through them). */
  if (tree && (a->fell_back || !owns(a, tree))) cJSON_Delete(tree);
}

bool qt_json_arena_parsing(bool on) {
  qt_json_arena *a = active;
  if (!a) return false;
  bool was = a->allocating;
  a->allocating = on;
  return was;
}
