/* external_edit.c (POSIX) — Ctrl+G for the terminal runner: $VISUAL / $EDITOR on the draft
 * in a temporary file (mode 0600 from mkstemp, removed afterwards), the editor's own
 * terminal the runner's. pi's TUI does the same in TypeScript (extension/ask/external-editor.ts).
 * Nothing is lost when the editor is missing, fails or exits non-zero: the caller keeps the
 * draft and shows `why`. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine_internal.h"
#include "qt_external_edit.h"

static void say(const qt_engine *e, qt_buf *why, qt_string_id id, size_t n, const char *s) {
  qt_buf_reset(why);
  qt_format(why, qt_str(e, id), n, s);
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
  qt_buf_printf(&path, "%s/pi-question-XXXXXX", dir);
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
