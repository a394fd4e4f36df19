/* native-tty.c — the terminal runner's threads and signals (issue 10 item 10), for
 * ThreadSanitizer (tests/tty-signals.test.mjs builds it with -fsanitize=thread) and, shortened,
 * AddressSanitizer (`npm run test:asan` runs every tests/native-*.c).
 *
 * Cycles of: a runner opened on a pseudo-terminal, run on a thread of its own, stopped from the
 * main thread, joined, closed (freed) — while another thread receives a storm of SIGWINCH the
 * whole time, so the runner's signal handler runs on a third thread before, during and right
 * after each run, as close to the close as it gets. A handler touching a closed runner, or a
 * flag shared between threads without atomics, is a report of the sanitizer (exit code 66 for
 * TSan, an abort for ASan). The wake pipe must be close-on-exec and non-blocking from birth.
 *
 * Usage: native-tty [cycles]   (default 300; NATIVE_TEST_QUICK=1 in the environment: 40) */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "qt.h"
#include "qt_engine.h"
#include "qt_tty.h"

#define CHECK(cond)                                                                   \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      fprintf(stderr, "native-tty: %s failed at %s:%d\n", #cond, __FILE__, __LINE__); \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

static const char REQUEST[] =
    "{\"questions\":[{\"id\":\"db\",\"prompt\":\"Which database?\",\"options\":[{\"value\":\"pg\",\"label\":\"PostgreSQL\","
    "\"description\":\"Solid\"},{\"value\":\"lite\",\"label\":\"SQLite\"}]}]}";

static atomic_bool done;
static atomic_long winches;
static pthread_t victim;

static void sleep_us(long us) {
  struct timespec ts = {0, us * 1000};
  nanosleep(&ts, NULL);
}

/* The host's own SIGWINCH handler, which the runner chains to. */
static void host_winch(int sig) {
  (void)sig;
  atomic_fetch_add(&winches, 1);
}

/* Receives the signals: the handler runs here, never on the thread that closes the runner. */
static void *victim_main(void *arg) {
  (void)arg;
  while (!atomic_load(&done)) sleep_us(50);
  return NULL;
}

static void *storm(void *arg) {
  (void)arg;
  while (!atomic_load(&done)) {
    pthread_kill(victim, SIGWINCH);
    sleep_us(20);
  }
  return NULL;
}

/* Reads what the runner draws, so its writes never wait. */
static void *drain(void *arg) {
  int master = *(int *)arg;
  char buf[4096];
  while (!atomic_load(&done)) {
    if (read(master, buf, sizeof buf) <= 0) sleep_us(200);
  }
  return NULL;
}

typedef struct {
  qt_tty *t;
  qt_engine *e;
  qt_status st;
} run_args;

static void *run(void *arg) {
  run_args *r = arg;
  r->st = qt_tty_run(r->t, r->e);
  return NULL;
}

int main(int argc, char **argv) {
  long cycles = argc > 1 ? atol(argv[1]) : getenv("NATIVE_TEST_QUICK") ? 40 : 300;
  int master = posix_openpt(O_RDWR | O_NOCTTY);
  CHECK(master >= 0 && grantpt(master) == 0 && unlockpt(master) == 0);
  fcntl(master, F_SETFL, O_NONBLOCK);
  const char *slave = ptsname(master);
  CHECK(slave != NULL);
  CHECK(qt_tty_probe(slave) == QT_TTY_FREE);

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = host_winch;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGWINCH, &sa, NULL);

  /* Only the victim takes signals. */
  sigset_t winch, old;
  sigemptyset(&winch);
  sigaddset(&winch, SIGWINCH);
  pthread_sigmask(SIG_BLOCK, &winch, &old);
  pthread_t stormer, drainer;
  CHECK(pthread_create(&drainer, NULL, drain, &master) == 0);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  CHECK(pthread_create(&victim, NULL, victim_main, NULL) == 0);
  pthread_sigmask(SIG_BLOCK, &winch, NULL);
  CHECK(pthread_create(&stormer, NULL, storm, NULL) == 0);

  qt_request *req = NULL;
  qt_error err;
  CHECK(qt_request_parse(REQUEST, strlen(REQUEST), &req, &err) == QT_OK);
  for (long i = 0; i < cycles; i++) {
    run_args r = {NULL, NULL, QT_OK};
    CHECK(qt_engine_create(req, &r.e) == QT_OK);
    CHECK(qt_tty_open(slave, &r.t) == QT_OK);
    if (i == 0) {
      /* The wake pipe: close-on-exec and non-blocking from birth (pipe2). */
      int seen = 0;
      for (int fd = 3; fd < 64; fd++) {
        int fl = fcntl(fd, F_GETFL), fdf = fcntl(fd, F_GETFD);
        if (fl < 0 || fd == master) continue;
        char path[64], link[256];
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        ssize_t n = readlink(path, link, sizeof link - 1);
        if (n <= 0) continue;
        link[n] = 0;
        if (strncmp(link, "pipe:", 5) != 0) continue;
        CHECK(fdf & FD_CLOEXEC);
        CHECK(fl & O_NONBLOCK);
        seen++;
      }
      CHECK(seen == 0 || seen >= 2);
    }
    pthread_t runner;
    CHECK(pthread_create(&runner, NULL, run, &r) == 0);
    sleep_us(200 + (i % 7) * 150);
    qt_tty_stop(r.t);
    CHECK(pthread_join(runner, NULL) == 0);
    CHECK(r.st == QT_OK);
    CHECK(qt_engine_done(r.e) && qt_engine_outcome(r.e) == QT_INTERRUPTED);
    qt_tty_close(r.t); /* the handler may be running on the victim right now */
    qt_engine_destroy(r.e);
  }
  qt_request_free(req);
  atomic_store(&done, true);
  pthread_join(stormer, NULL);
  pthread_join(victim, NULL);
  pthread_join(drainer, NULL);
  close(master);
  printf("native-tty: %ld cycles, %ld SIGWINCH reached the host's handler\n", cycles, atomic_load(&winches));
  CHECK(atomic_load(&winches) > 0);
  return 0;
}
