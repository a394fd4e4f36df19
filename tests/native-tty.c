/* native-tty.c — the terminal runner's threads and signals (a signal while another thread stops
 * or closes the runner), for
 * ThreadSanitizer (tests/tty-signals.test.mjs builds it with -fsanitize=thread) and, shortened,
 * AddressSanitizer (`npm run test:asan` runs every tests/native-*.c).
 *
 * Cycles of: a runner opened on a pseudo-terminal, run on a thread of its own, stopped from the
 * main thread, joined, closed (freed) — while another thread receives a storm of SIGWINCH the
 * whole time, so the runner's signal handler runs on a third thread before, during and right
 * after each run, as close to the close as it gets. A handler touching a closed runner, or a
 * flag shared between threads without atomics, is a report of the sanitizer (exit code 66 for
 * TSan, an abort for ASan).
 *
 * The wake pipe: in every build, the first runner opened must add exactly one pipe (two fds, the
 * same pipe inode in /proc/self/fd), both ends close-on-exec and non-blocking. Built with
 * -DQT_WATCH_PIPES -Wl,--wrap=pipe,--wrap=pipe2 (tests/tty-signals.test.mjs, no sanitizer), the
 * runner's own pipe()/pipe2() calls come here first, which proves the flags were there from
 * birth: no plain pipe() at all, one pipe2() whose flags hold O_CLOEXEC and O_NONBLOCK, and at
 * the very moment the pipe call returns (before any later fcntl could run) a fork+exec of this
 * program — what another thread of the host forking right then would start — must not find
 * the new fds open. pipe() + fcntl(FD_CLOEXEC) fails all three.
 *
 * Usage: native-tty [cycles]   (default 300; NATIVE_TEST_QUICK=1 in the environment: 40)
 *        native-tty --open FD FD   (the exec'd child: exit 0 when either fd is open, 3 if not) */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "qt.h"
#include "qt_engine.h"
#include "qt_tty.h"

#define CHECK(cond)                                                                                                    \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      fprintf(stderr, "native-tty: %s failed at %s:%d\n", #cond, __FILE__, __LINE__);                                  \
      exit(1);                                                                                                         \
    }                                                                                                                  \
  } while (0)

static const char REQUEST[] = "{\"questions\":[{\"id\":\"db\",\"prompt\":\"Which "
                              "database?\",\"options\":[{\"value\":\"pg\",\"label\":\"PostgreSQL\","
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

/* ---- the wake pipe's birth ------------------------------------------------------------- */

/* The pipe inode an fd refers to, or 0 when it is no pipe (or not open). */
static unsigned long pipe_inode(int fd) {
  char path[64], link[256];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(path, link, sizeof link - 1);
  if (n <= 0) return 0;
  link[n] = 0;
  unsigned long inode = 0;
  return sscanf(link, "pipe:[%lu]", &inode) == 1 ? inode : 0;
}

#ifdef QT_WATCH_PIPES
int __real_pipe(int fds[2]);
int __real_pipe2(int fds[2], int flags);
int __wrap_pipe(int fds[2]);
int __wrap_pipe2(int fds[2], int flags);

static atomic_bool watching;   /* only while main opens the first runner */
static atomic_int plain_pipes; /* pipe() calls: never atomic with FD_CLOEXEC */
static atomic_int pipe2_calls;
static atomic_int pipe2_flags;
static atomic_int born_fds[2] = {-1, -1};
static atomic_int inherited; /* a fork+exec right after the call found the fds open */

/* Forks and execs this program, which reports whether fds[0] or fds[1] survived the exec. */
static bool survives_exec(const int fds[2]) {
  char a[16], b[16];
  snprintf(a, sizeof a, "%d", fds[0]);
  snprintf(b, sizeof b, "%d", fds[1]);
  pid_t pid = fork();
  if (pid == 0) {
    execl("/proc/self/exe", "native-tty", "--open", a, b, (char *)NULL);
    _exit(127);
  }
  int status = 0;
  CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 3);
  return WEXITSTATUS(status) == 0;
}

static void born(const int fds[2]) {
  atomic_store(&born_fds[0], fds[0]);
  atomic_store(&born_fds[1], fds[1]);
  if (survives_exec(fds)) atomic_fetch_add(&inherited, 1);
}

int __wrap_pipe(int fds[2]) {
  int r = __real_pipe(fds);
  if (atomic_load(&watching) && r == 0) {
    atomic_fetch_add(&plain_pipes, 1);
    born(fds);
  }
  return r;
}

int __wrap_pipe2(int fds[2], int flags) {
  int r = __real_pipe2(fds, flags);
  if (atomic_load(&watching) && r == 0) {
    atomic_fetch_add(&pipe2_calls, 1);
    atomic_store(&pipe2_flags, flags);
    born(fds);
  }
  return r;
}
#endif

/* Opens the first runner and checks its wake pipe (see the top of this file). */
static qt_tty *open_first(const char *slave) {
  bool before[256];
  for (int fd = 0; fd < 256; fd++) before[fd] = fcntl(fd, F_GETFD) >= 0;
#ifdef QT_WATCH_PIPES
  atomic_store(&watching, true);
#endif
  qt_tty *t = NULL;
  CHECK(qt_tty_open(slave, &t) == QT_OK);
#ifdef QT_WATCH_PIPES
  atomic_store(&watching, false);
#endif
  int ends[2], found = 0;
  for (int fd = 0; fd < 256; fd++) {
    if (before[fd] || fcntl(fd, F_GETFD) < 0 || !pipe_inode(fd)) continue;
    CHECK(found < 2); /* one pipe, no more */
    ends[found++] = fd;
    CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC);
    CHECK(fcntl(fd, F_GETFL) & O_NONBLOCK);
  }
  CHECK(found == 2); /* the wake pipe is there: both ends */
  CHECK(pipe_inode(ends[0]) == pipe_inode(ends[1]));
#ifdef QT_WATCH_PIPES
  CHECK(atomic_load(&plain_pipes) == 0);
  CHECK(atomic_load(&pipe2_calls) == 1);
  CHECK((atomic_load(&pipe2_flags) & (O_CLOEXEC | O_NONBLOCK)) == (O_CLOEXEC | O_NONBLOCK));
  CHECK(atomic_load(&born_fds[0]) == ends[0] && atomic_load(&born_fds[1]) == ends[1]);
  CHECK(atomic_load(&inherited) == 0); /* a fork+exec at the pipe's birth inherits nothing */
  printf("native-tty: the wake pipe (fds %d, %d) was born close-on-exec: one pipe2, no exec inherited it\n", ends[0],
         ends[1]);
#endif
  return t;
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
  if (argc == 4 && strcmp(argv[1], "--open") == 0) /* the exec'd child of survives_exec */
    return fcntl(atoi(argv[2]), F_GETFD) >= 0 || fcntl(atoi(argv[3]), F_GETFD) >= 0 ? 0 : 3;
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
    if (i == 0)
      r.t = open_first(slave);
    else
      CHECK(qt_tty_open(slave, &r.t) == QT_OK);
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
