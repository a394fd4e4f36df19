/* thread.c (POSIX) — qt_thread.h with pthreads: threads that start with every signal blocked,
 * the gate as a mutex with one condition variable waited on against CLOCK_REALTIME (the clock
 * pthread_cond_timedwait uses by default, everywhere including macOS), the wall clock, and the
 * memory a thread keeps (qt_keep_until_thread_end, qt_thread.h) under a pthread key whose
 * destructor frees it when the thread ends. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>

#include "qt_thread.h"

/* ---- threads ------------------------------------------------------------------------------- */
struct qt_thread {
  pthread_t id;
};

typedef struct thread_start {
  void (*fn)(void *);
  void *arg;
} thread_start;

static void *thread_main(void *data) {
  thread_start start = *(thread_start *)data;
  free(data);
  start.fn(start.arg);
  return NULL;
}

qt_status qt_thread_start(void (*fn)(void *), void *arg, qt_thread **out) {
  if (!fn || !out) return QT_ERR_USAGE;
  *out = NULL;
  qt_thread *t = malloc(sizeof *t);
  thread_start *start = malloc(sizeof *start);
  if (!t || !start) {
    free(t);
    free(start);
    return QT_ERR_NOMEM;
  }
  start->fn = fn;
  start->arg = arg;
  /* The new thread inherits the mask in force when it is created: every signal blocked for
   * that moment, then this thread's own mask back. */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  int rc = pthread_create(&t->id, NULL, thread_main, start);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (rc != 0) {
    free(t);
    free(start);
    return rc == ENOMEM || rc == EAGAIN ? QT_ERR_NOMEM : QT_ERR_STATE;
  }
  *out = t;
  return QT_OK;
}

void qt_thread_join(qt_thread *t) {
  if (!t) return;
  pthread_join(t->id, NULL);
  free(t);
}

void qt_thread_detach(qt_thread *t) {
  if (!t) return;
  pthread_detach(t->id);
  free(t);
}

/* ---- the gate ------------------------------------------------------------------------------ */
struct qt_gate {
  pthread_mutex_t lock;
  pthread_cond_t cond;
};

qt_status qt_gate_create(qt_gate **out) {
  if (!out) return QT_ERR_USAGE;
  *out = NULL;
  qt_gate *g = malloc(sizeof *g);
  if (!g) return QT_ERR_NOMEM;
  if (pthread_mutex_init(&g->lock, NULL) != 0) {
    free(g);
    return QT_ERR_NOMEM;
  }
  if (pthread_cond_init(&g->cond, NULL) != 0) {
    pthread_mutex_destroy(&g->lock);
    free(g);
    return QT_ERR_NOMEM;
  }
  *out = g;
  return QT_OK;
}

void qt_gate_destroy(qt_gate *g) {
  if (!g) return;
  pthread_cond_destroy(&g->cond);
  pthread_mutex_destroy(&g->lock);
  free(g);
}

void qt_gate_lock(qt_gate *g) { pthread_mutex_lock(&g->lock); }
void qt_gate_unlock(qt_gate *g) { pthread_mutex_unlock(&g->lock); }
void qt_gate_broadcast(qt_gate *g) { pthread_cond_broadcast(&g->cond); }

bool qt_gate_wait_until(qt_gate *g, int64_t deadline_ms) {
  if (qt_clock_wall_ms() >= deadline_ms) return false;
  struct timespec until;
  until.tv_sec = (time_t)(deadline_ms / 1000);
  until.tv_nsec = (long)(deadline_ms % 1000) * 1000000L;
  return pthread_cond_timedwait(&g->cond, &g->lock, &until) != ETIMEDOUT;
}

/* ---- the wall clock ------------------------------------------------------------------------ */
int64_t qt_clock_wall_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* ---- memory kept per thread ---------------------------------------------------------------- */
static pthread_key_t keep_key;
static bool keep_ok;

static void keep_free(void *v) {
  void **kept = v;
  for (int i = 0; i < QT_KEEP_COUNT; i++) free(kept[i]);
  free(kept);
}

static void keep_init(void) { keep_ok = pthread_key_create(&keep_key, keep_free) == 0; }

void qt_keep_until_thread_end(int slot, void *p) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, keep_init);
  if (!keep_ok || slot < 0 || slot >= QT_KEEP_COUNT) return;
  void **kept = pthread_getspecific(keep_key);
  if (!kept) {
    if (!p) return;
    if (!(kept = calloc(QT_KEEP_COUNT, sizeof *kept))) return; /* kept, then, until the process ends */
    if (pthread_setspecific(keep_key, kept) != 0) {
      free(kept);
      return;
    }
  }
  kept[slot] = p;
}
