/* thread.c (Windows) — qt_thread.h on Win32: threads from _beginthreadex, the gate as an SRWLOCK
 * with one CONDITION_VARIABLE, the wall clock from GetSystemTimePreciseAsFileTime, and the
 * memory a thread keeps (qt_keep_until_thread_end, qt_thread.h) in a fiber-local slot whose
 * callback frees it when the thread ends. Windows has no signals to block in a new thread: the
 * console's Ctrl+C arrives on a thread of its own (tty.c). */
#ifndef _WIN32_WINNT
#define _WIN32_WINNT 0x0A00
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

#include <errno.h>
#include <process.h>
#include <stdlib.h>

#include "qt_thread.h"

/* ---- threads ------------------------------------------------------------------------------- */
struct qt_thread {
  HANDLE handle;
};

/* What the new thread runs; it frees this itself, so a detached thread needs no handle. */
typedef struct thread_start {
  void (*fn)(void *);
  void *arg;
} thread_start;

static unsigned __stdcall thread_main(void *p) {
  thread_start start = *(thread_start *)p;
  free(p);
  start.fn(start.arg);
  return 0;
}

qt_status qt_thread_start(void (*fn)(void *), void *arg, qt_thread **out) {
  if (out) *out = NULL;
  if (!fn || !out) return QT_ERR_USAGE;
  qt_thread *t = malloc(sizeof *t);
  thread_start *start = malloc(sizeof *start);
  if (!t || !start) {
    free(t);
    free(start);
    return QT_ERR_NOMEM;
  }
  start->fn = fn;
  start->arg = arg;
  /* _beginthreadex rather than CreateThread: the C runtime sets up its per-thread state. */
  uintptr_t h = _beginthreadex(NULL, 0, thread_main, start, 0, NULL);
  if (h == 0) {
    int why = errno; /* EAGAIN: too many threads; EACCES: out of resources */
    free(start);
    free(t);
    return why == EAGAIN || why == EACCES || why == ENOMEM ? QT_ERR_NOMEM : QT_ERR_STATE;
  }
  t->handle = (HANDLE)h;
  *out = t;
  return QT_OK;
}

void qt_thread_join(qt_thread *t) {
  if (!t) return;
  WaitForSingleObject(t->handle, INFINITE);
  CloseHandle(t->handle);
  free(t);
}

void qt_thread_detach(qt_thread *t) {
  if (!t) return;
  CloseHandle(t->handle); /* the thread runs on; its kernel object goes once it ends */
  free(t);
}

/* ---- the gate ------------------------------------------------------------------------------ */
struct qt_gate {
  SRWLOCK lock;
  CONDITION_VARIABLE cond;
};

qt_status qt_gate_create(qt_gate **out) {
  if (!out) return QT_ERR_USAGE;
  qt_gate *g = malloc(sizeof *g);
  *out = g;
  if (!g) return QT_ERR_NOMEM;
  InitializeSRWLock(&g->lock);
  InitializeConditionVariable(&g->cond);
  return QT_OK;
}

void qt_gate_destroy(qt_gate *g) { free(g); /* SRW locks and condition variables own nothing */ }

void qt_gate_lock(qt_gate *g) { AcquireSRWLockExclusive(&g->lock); }

void qt_gate_unlock(qt_gate *g) { ReleaseSRWLockExclusive(&g->lock); }

void qt_gate_broadcast(qt_gate *g) { WakeAllConditionVariable(&g->cond); }

bool qt_gate_wait_until(qt_gate *g, int64_t deadline_ms) {
  int64_t left = deadline_ms - qt_clock_wall_ms();
  if (left <= 0) return false;
  /* The wait is relative: the rest of the way to the wall-clock deadline, one wait at most
   * ~24 days (below INFINITE); the caller's loop waits again after a wake that came early. */
  DWORD ms = left > 0x7FFFFFFF ? 0x7FFFFFFF : (DWORD)left;
  if (SleepConditionVariableSRW(&g->cond, &g->lock, ms, 0)) return true;
  /* Timed out (the lock is held again): the timer may end a little before the wall clock gets
   * there, which counts as a spurious wake. */
  return qt_clock_wall_ms() < deadline_ms;
}

/* ---- the wall clock ------------------------------------------------------------------------ */
int64_t qt_clock_wall_ms(void) {
  FILETIME ft;
  GetSystemTimePreciseAsFileTime(&ft);
  ULARGE_INTEGER t;
  t.LowPart = ft.dwLowDateTime;
  t.HighPart = ft.dwHighDateTime;
  /* 100 ns ticks since 1601-01-01 to milliseconds since 1970-01-01 */
  return (int64_t)((t.QuadPart - 116444736000000000ULL) / 10000ULL);
}

/* ---- memory kept per thread ------------------------------------------------------------------ */
/* A fiber-local slot rather than TlsAlloc: only FLS has a callback when the thread ends. */
static DWORD keep_index = FLS_OUT_OF_INDEXES;

static VOID NTAPI keep_free(PVOID v) {
  void **kept = v;
  if (!kept) return;
  for (int i = 0; i < QT_KEEP_COUNT; i++) free(kept[i]);
  free(kept);
}

static BOOL CALLBACK keep_init(PINIT_ONCE once, PVOID param, PVOID *context) {
  (void)once;
  (void)param;
  (void)context;
  keep_index = FlsAlloc(keep_free);
  return TRUE;
}

void qt_keep_until_thread_end(int slot, void *p) {
  static INIT_ONCE once = INIT_ONCE_STATIC_INIT;
  InitOnceExecuteOnce(&once, keep_init, NULL, NULL);
  if (keep_index == FLS_OUT_OF_INDEXES || slot < 0 || slot >= QT_KEEP_COUNT) return;
  void **kept = FlsGetValue(keep_index);
  if (!kept) {
    if (!p) return;
    if (!(kept = calloc(QT_KEEP_COUNT, sizeof *kept))) return; /* kept, then, until the process ends */
    if (!FlsSetValue(keep_index, kept)) {
      free(kept);
      return;
    }
  }
  kept[slot] = p;
}
