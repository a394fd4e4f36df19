/* qt_thread.h — the little of the OS beyond the services with their own header (terminal,
 * file lock, editor) that the binding and the core need: a thread of their own, a lock with one
 * condition, memory kept per thread, and the wall clock. One implementation per OS family, under
 * native/os/<family>/thread.c; nothing else in the core includes a threading or OS header. */
#ifndef QT_THREAD_H
#define QT_THREAD_H

#include <stdbool.h>
#include <stdint.h>

#include "qt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct qt_thread qt_thread;

/* Runs fn(arg) on a new thread. On POSIX every signal is blocked in it: signals go to the host's
 * own threads (the terminal runner's handlers reach a run through its wake pipe). */
qt_status qt_thread_start(void (*fn)(void *), void *arg, qt_thread **out);
/* Waits for the thread to end, then frees the handle. */
void qt_thread_join(qt_thread *t);
/* Lets the thread run on unjoined (it frees nothing of its own when it ends); frees the handle. */
void qt_thread_detach(qt_thread *t);

/* A mutex with one condition variable. */
typedef struct qt_gate qt_gate;

qt_status qt_gate_create(qt_gate **out);
/* Accepts NULL. Must not be held or waited on. */
void qt_gate_destroy(qt_gate *g);
void qt_gate_lock(qt_gate *g);
void qt_gate_unlock(qt_gate *g);
void qt_gate_broadcast(qt_gate *g);
/* With the gate locked: waits for a broadcast (or a spurious wake) until the wall clock reaches
 * `deadline_ms` (qt_clock_wall_ms). False once the deadline has passed. */
bool qt_gate_wait_until(qt_gate *g, int64_t deadline_ms);

/* Memory kept per thread: blocks a thread keeps between calls (in _Thread_local variables) and
 * frees when it ends: `p` becomes slot's block (NULL: none), freed with free() if the thread
 * ends holding it. */
enum { QT_KEEP_JSON_NODES, QT_KEEP_SCRATCH, QT_KEEP_NORMALIZED, QT_KEEP_ENGINES, QT_KEEP_COUNT };
void qt_keep_until_thread_end(int slot, void *p);

/* Milliseconds since the Unix epoch. */
int64_t qt_clock_wall_ms(void);

#ifdef __cplusplus
}
#endif

#endif
