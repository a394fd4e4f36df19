/* external_edit.c (POSIX) — Ctrl+G for the terminal runner: $VISUAL / $EDITOR on the draft
 * in a temporary file (mode 0600 from mkstemp, removed afterwards), the editor's own
 * terminal the runner's. pi's TUI does the same in TypeScript (extension/ask/external-editor.ts).
 * Nothing is lost when the editor is missing, fails or exits non-zero: the caller keeps the
 * draft and shows `why`.
 *
 * The file's name carries this process's pid (pi-question-draft-<pid>-XXXXXX, as the TypeScript
 * path names its folder): a draft left behind by a process that was killed while the editor was
 * open is removed, if it is this user's, the next time anyone's Ctrl+G runs here or there. */
#if defined(__APPLE__) && !defined(_DARWIN_C_SOURCE)
#define _DARWIN_C_SOURCE /* O_NOFOLLOW (and O_DIRECTORY) beside _POSIX_C_SOURCE */
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "qt_external_edit.h"

static void say(const qt_engine *e, qt_buf *why, qt_string_id id, size_t n, const char *s) {
  qt_buf_reset(why);
  qt_format(why, qt_string(qt_engine_language(e), id), n, s);
}

static bool write_all_fd(int fd, const char *s, size_t n) {
  while (n) {
    ssize_t w = write(fd, s, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    s += w;
    n -= (size_t)w;
  }
  return true;
}

#define DRAFT_PREFIX "pi-question-draft-"

/* Removes the drafts in `dir` whose process is gone (kill says ESRCH): only this user's, never
 * through a link (a link is removed itself), the TypeScript path's folders with their one file.
 * Errors are ignored: the sweep never stops the editor. */
static void sweep_stale_drafts(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  int dfd = dirfd(d);
  uid_t me = geteuid();
  pid_t self = getpid();
  struct dirent *ent;
  while ((ent = readdir(d)) != NULL) {
    const char *name = ent->d_name;
    if (strncmp(name, DRAFT_PREFIX, sizeof DRAFT_PREFIX - 1) != 0) continue;
    const char *digits = name + sizeof DRAFT_PREFIX - 1;
    char *end = NULL;
    errno = 0;
    long pid = strtol(digits, &end, 10);
    if (errno || end == digits || *end != '-' || pid <= 0 || pid > INT_MAX || (pid_t)pid == self) continue;
    if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue; /* running (EPERM: another user's) */
    struct stat st;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || st.st_uid != me) continue;
    if (S_ISDIR(st.st_mode)) {
      int sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub >= 0) {
        unlinkat(sub, "answer.md", 0);
        close(sub);
      }
      unlinkat(dfd, name, AT_REMOVEDIR);
    } else {
      unlinkat(dfd, name, 0);
    }
  }
  closedir(d);
}

bool qt_external_edit(const qt_engine *e, int tty_fd, const char *text, size_t len, qt_buf *out, qt_buf *why) {
  const char *cmd = getenv("VISUAL");
  if (!cmd || !*cmd) cmd = getenv("EDITOR");
  if (!cmd || !*cmd) {
    say(e, why, QT_STR_EDITOR_NOT_SET, 0, NULL);
    return false;
  }
  const char *dir = getenv("TMPDIR");
  if (!dir || !*dir) dir = "/tmp";
  qt_buf path, line;
  qt_buf_init(&path);
  qt_buf_init(&line);
  sweep_stale_drafts(dir);
  qt_buf_printf(&path, "%s/" DRAFT_PREFIX "%ld-XXXXXX", dir, (long)getpid());
  qt_buf_printf(&line, "%s \"$1\"", cmd); /* "code --wait" style commands keep their arguments */
  if (path.failed || line.failed) {
    say(e, why, QT_STR_EDITOR_NOT_STARTED, 0, "out of memory");
    qt_buf_free(&path);
    qt_buf_free(&line);
    return false;
  }
  int fd = mkstemp(path.data); /* mode 0600 */
  if (fd < 0) {
    say(e, why, QT_STR_EDITOR_NOT_STARTED, 0, strerror(errno));
    qt_buf_free(&path);
    qt_buf_free(&line);
    return false;
  }
  bool ok = write_all_fd(fd, text ? text : "", len);
  close(fd);
  if (!ok) {
    say(e, why, QT_STR_EDITOR_NOT_STARTED, 0, strerror(errno));
    unlink(path.data);
    qt_buf_free(&path);
    qt_buf_free(&line);
    return false;
  }
  pid_t pid = fork();
  if (pid == 0) {
    /* The runner's thread blocks every signal (native/node/tty_thread.c): the editor must get
     * them (Ctrl+C, SIGWINCH, SIGTSTP), so the mask it inherits through exec is cleared. */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (tty_fd >= 0) {
      dup2(tty_fd, 0);
      dup2(tty_fd, 1);
      dup2(tty_fd, 2);
    }
    execl("/bin/sh", "sh", "-c", line.data, "sh", path.data, (char *)NULL);
    _exit(127);
  }
  ok = false;
  if (pid < 0) {
    say(e, why, QT_STR_EDITOR_NOT_STARTED, 0, strerror(errno));
  } else {
    int status = 0;
    pid_t got;
    do got = waitpid(pid, &status, 0);
    while (got < 0 && errno == EINTR);
    if (got < 0) {
      say(e, why, QT_STR_EDITOR_NOT_STARTED, 0, strerror(errno));
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
      say(e, why, QT_STR_EDITOR_NOT_STARTED, 0, cmd);
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      say(e, why, QT_STR_EDITOR_EXIT, WIFEXITED(status) ? (size_t)WEXITSTATUS(status) : 128 + (size_t)WTERMSIG(status),
          NULL);
    } else {
      int in = open(path.data, O_RDONLY | O_CLOEXEC);
      if (in < 0) {
        say(e, why, QT_STR_EDITOR_NOT_STARTED, 0, strerror(errno));
      } else {
        char buf[8192];
        ssize_t n;
        qt_buf_reset(out);
        ok = true;
        while ((n = read(in, buf, sizeof buf)) != 0) {
          if (n < 0) {
            if (errno == EINTR) continue;
            ok = false;
            break;
          }
          /* far past any field's limit: the engine cuts it anyway, so stop reading */
          if (out->len > (size_t)QT_MAX_ANSWER_BYTES * 4) break;
          qt_buf_append(out, buf, (size_t)n);
        }
        close(in);
        if (!ok || out->failed) {
          ok = false;
          say(e, why, QT_STR_EDITOR_NOT_STARTED, 0, "read error");
        }
      }
    }
  }
  unlink(path.data);
  qt_buf_free(&path);
  qt_buf_free(&line);
  return ok;
}
