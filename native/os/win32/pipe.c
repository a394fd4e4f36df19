/* pipe.c (Windows) — qt_pipe.h: the relay's named pipe with an access list of this user's alone,
 * served on a thread of its own (overlapped ConnectNamedPipe, woken by a stop event), and the
 * client's end checked against the process and the user that serve it. The security descriptor
 * is written in SDDL: this user alone (its SID from the process token). */
#ifndef _WIN32_WINNT
#define _WIN32_WINNT 0x0A00
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

#include <sddl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "qt_limits.h"
#include "qt_pipe.h"
#include "qt_thread.h"

struct qt_pipe_server {
  wchar_t *name;
  PSECURITY_DESCRIPTOR sd; /* LocalFree */
  SECURITY_ATTRIBUTES sa;
  HANDLE stop;     /* manual-reset: set by qt_pipe_server_close */
  HANDLE instance; /* the instance waiting for its client (the server thread's) */
  qt_pipe_accepted on_accept;
  void *ctx;
  qt_thread *thread;
};

/* `utf8` as a new wide string (free), or NULL. */
static wchar_t *wide(const char *utf8) {
  int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, utf8, -1, NULL, 0);
  if (n <= 0) return NULL;
  wchar_t *w = malloc((size_t)n * sizeof *w);
  if (w && MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, utf8, -1, w, n) != n) {
    free(w);
    return NULL;
  }
  return w;
}

/* The user the token of `process` runs as (a TOKEN_USER to free), or NULL with *err set. */
static TOKEN_USER *token_user(HANDLE process, DWORD *err) {
  HANDLE token = NULL;
  if (!OpenProcessToken(process, TOKEN_QUERY, &token)) {
    *err = GetLastError();
    return NULL;
  }
  DWORD size = 0;
  GetTokenInformation(token, TokenUser, NULL, 0, &size);
  TOKEN_USER *user = size ? malloc(size) : NULL;
  if (!user || !GetTokenInformation(token, TokenUser, user, size, &size)) {
    *err = user ? GetLastError() : ERROR_NOT_ENOUGH_MEMORY;
    free(user);
    user = NULL;
  }
  CloseHandle(token);
  return user;
}

/* The pipe's security descriptor: this user allowed everything, nobody else anything (a
 * protected DACL: nothing inherited). Not a deny of network logons: this same user's ssh or
 * remoting session has that group, and must reach its pi (another computer's clients are
 * refused by PIPE_REJECT_REMOTE_CLIENTS). */
static PSECURITY_DESCRIPTOR owner_only(DWORD *err) {
  TOKEN_USER *user = token_user(GetCurrentProcess(), err);
  if (!user) return NULL;
  wchar_t *sid = NULL;
  PSECURITY_DESCRIPTOR sd = NULL;
  if (!ConvertSidToStringSidW(user->User.Sid, &sid)) {
    *err = GetLastError();
  } else {
    wchar_t sddl[256];
    if (_snwprintf(sddl, sizeof sddl / sizeof *sddl, L"D:P(A;;GA;;;%ls)", sid) < 0) {
      *err = ERROR_INSUFFICIENT_BUFFER;
    } else if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(sddl, SDDL_REVISION_1, &sd, NULL)) {
      *err = GetLastError();
      sd = NULL;
    }
    LocalFree(sid);
  }
  free(user);
  return sd;
}

static HANDLE make_instance(qt_pipe_server *s, bool first) {
  DWORD open_mode = PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED | (first ? FILE_FLAG_FIRST_PIPE_INSTANCE : 0);
  DWORD pipe_mode = PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT | PIPE_REJECT_REMOTE_CLIENTS;
  return CreateNamedPipeW(s->name, open_mode, pipe_mode, PIPE_UNLIMITED_INSTANCES, QT_PIPE_BUFFER_BYTES,
                          QT_PIPE_BUFFER_BYTES, 0, &s->sa);
}

/* Waits for the instance's client, or the stop event: 1 connected, 0 the client came and went
 * (the instance is of no more use), -1 stopped or failed. */
static int wait_for_client(qt_pipe_server *s, HANDLE event) {
  OVERLAPPED ov;
  ZeroMemory(&ov, sizeof ov);
  ov.hEvent = event;
  ResetEvent(event);
  if (ConnectNamedPipe(s->instance, &ov)) return 1;
  DWORD err = GetLastError();
  if (err == ERROR_PIPE_CONNECTED) return 1;
  if (err == ERROR_NO_DATA) return 0;
  if (err != ERROR_IO_PENDING) return -1;
  HANDLE waits[2] = {s->stop, event};
  DWORD woke = WaitForMultipleObjects(2, waits, FALSE, INFINITE);
  DWORD n = 0;
  if (woke != WAIT_OBJECT_0 + 1) {
    CancelIoEx(s->instance, &ov);
    GetOverlappedResult(s->instance, &ov, &n, TRUE); /* the cancelled wait ends before `ov` goes */
    return -1;
  }
  if (GetOverlappedResult(s->instance, &ov, &n, FALSE)) return 1;
  return GetLastError() == ERROR_NO_DATA ? 0 : -1;
}

/* Whether the server was asked to stop within `ms` (a pause before trying again after a
 * failure, so a lasting one does not spin). */
static bool stopped_within(qt_pipe_server *s, DWORD ms) { return WaitForSingleObject(s->stop, ms) == WAIT_OBJECT_0; }

static void serve(void *arg) {
  qt_pipe_server *s = arg;
  HANDLE event = CreateEventW(NULL, TRUE, FALSE, NULL);
  while (event) {
    if (s->instance == INVALID_HANDLE_VALUE) {
      /* No instance to wait on (making one failed: out of resources): try again until stopped. */
      if (stopped_within(s, 100)) break;
      s->instance = make_instance(s, false);
      continue;
    }
    int got = wait_for_client(s, event);
    if (got < 0) {
      if (WaitForSingleObject(s->stop, 0) == WAIT_OBJECT_0) break;
      /* Failed otherwise: this instance goes, a new one is made (the name stays held by any
       * instance still open; a client meanwhile is told busy and tries again). */
      CloseHandle(s->instance);
      s->instance = INVALID_HANDLE_VALUE;
      if (stopped_within(s, 100)) break;
      s->instance = make_instance(s, false);
      continue;
    }
    HANDLE next = make_instance(s, false); /* made first: the name is never free while served */
    if (got == 0) {
      CloseHandle(s->instance);
    } else {
      ULONG pid = 0;
      long long client = GetNamedPipeClientProcessId(s->instance, &pid) ? (long long)pid : -1;
      s->on_accept(s->ctx, (intptr_t)s->instance, client);
    }
    s->instance = next;
  }
  if (event) CloseHandle(event);
}

qt_status qt_pipe_serve(const char *name, qt_pipe_accepted on_accept, void *ctx, qt_pipe_server **out, int *sys_error) {
  if (out) *out = NULL;
  if (!name || !on_accept || !out || !sys_error) return QT_ERR_USAGE;
  *sys_error = 0;
  qt_pipe_server *s = calloc(1, sizeof *s);
  if (!s) return QT_ERR_NOMEM;
  s->instance = INVALID_HANDLE_VALUE;
  s->on_accept = on_accept;
  s->ctx = ctx;
  DWORD err = 0;
  qt_status st = QT_ERR_STATE;
  if (!(s->name = wide(name))) {
    err = ERROR_INVALID_NAME;
  } else if (!(s->sd = owner_only(&err))) {
    /* err set */
  } else if (!(s->stop = CreateEventW(NULL, TRUE, FALSE, NULL))) {
    err = GetLastError();
  } else {
    s->sa.nLength = sizeof s->sa;
    s->sa.lpSecurityDescriptor = s->sd;
    s->sa.bInheritHandle = FALSE;
    s->instance = make_instance(s, true);
    if (s->instance == INVALID_HANDLE_VALUE) {
      err = GetLastError();
    } else {
      st = qt_thread_start(serve, s, &s->thread);
      if (st == QT_OK) {
        *out = s;
        return QT_OK;
      }
    }
  }
  *sys_error = (int)err;
  qt_pipe_server_close(s);
  return st;
}

void qt_pipe_server_close(qt_pipe_server *s) {
  if (!s) return;
  if (s->thread) {
    SetEvent(s->stop);
    qt_thread_join(s->thread);
  }
  if (s->instance != INVALID_HANDLE_VALUE) CloseHandle(s->instance);
  if (s->stop) CloseHandle(s->stop);
  if (s->sd) LocalFree(s->sd);
  free(s->name);
  free(s);
}

/* Whether the process `pid` runs as the user this process runs as; *err when it cannot be told. */
static bool same_user(DWORD pid, DWORD *err) {
  HANDLE process = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
  if (!process) {
    *err = GetLastError();
    return false;
  }
  TOKEN_USER *theirs = token_user(process, err);
  CloseHandle(process);
  if (!theirs) return false;
  TOKEN_USER *mine = token_user(GetCurrentProcess(), err);
  bool same = mine && EqualSid(theirs->User.Sid, mine->User.Sid);
  free(theirs);
  free(mine);
  return same;
}

qt_status qt_pipe_connect(const char *name, long long server_pid, intptr_t *handle, long long *server_pid_out,
                          qt_pipe_refusal *why, int *sys_error) {
  if (!name || !handle || !server_pid_out || !why || !sys_error) return QT_ERR_USAGE;
  *handle = (intptr_t)INVALID_HANDLE_VALUE;
  *server_pid_out = -1;
  *why = QT_PIPE_FAILED;
  *sys_error = 0;
  wchar_t *w = wide(name);
  if (!w) {
    *sys_error = ERROR_INVALID_NAME;
    return QT_ERR_STATE;
  }
  /* Identification level: the server may learn who connected, never act as this user. */
  HANDLE h = CreateFileW(w, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING,
                         FILE_FLAG_OVERLAPPED | SECURITY_SQOS_PRESENT | SECURITY_IDENTIFICATION, NULL);
  free(w);
  if (h == INVALID_HANDLE_VALUE) {
    DWORD err = GetLastError();
    *sys_error = (int)err;
    *why = err == ERROR_FILE_NOT_FOUND ? QT_PIPE_NO_SUCH_PIPE : err == ERROR_PIPE_BUSY ? QT_PIPE_BUSY : QT_PIPE_FAILED;
    return QT_ERR_STATE;
  }
  ULONG pid = 0;
  if (!GetNamedPipeServerProcessId(h, &pid)) {
    *sys_error = (int)GetLastError();
    *why = QT_PIPE_FAILED;
    CloseHandle(h);
    return QT_ERR_STATE;
  }
  *server_pid_out = (long long)pid;
  if (server_pid >= 0 && (long long)pid != server_pid) {
    *why = QT_PIPE_OTHER_PROCESS;
    CloseHandle(h);
    return QT_ERR_STATE;
  }
  DWORD err = 0;
  if (!same_user(pid, &err)) {
    *sys_error = (int)err;
    *why = QT_PIPE_OTHER_USER;
    CloseHandle(h);
    return QT_ERR_STATE;
  }
  *why = QT_PIPE_CONNECTED;
  *handle = (intptr_t)h;
  return QT_OK;
}

void qt_pipe_close_handle(intptr_t handle) {
  if ((HANDLE)handle != INVALID_HANDLE_VALUE && handle) CloseHandle((HANDLE)handle);
}

/* libuv's uv_open_osfhandle in the program that hosts this addon (node.exe exports it), found at
 * run time: a host without it (not Node) leaves the relay to net's pipe. */
typedef int(__cdecl *open_osfhandle_fn)(HANDLE);

static open_osfhandle_fn host_open_osfhandle(void) {
  FARPROC found = GetProcAddress(GetModuleHandleW(NULL), "uv_open_osfhandle");
  open_osfhandle_fn fn = NULL;
  if (found) memcpy(&fn, &found, sizeof fn);
  return fn;
}

bool qt_pipe_host_ready(void) { return host_open_osfhandle() != NULL; }

qt_status qt_pipe_host_fd(intptr_t handle, int *fd) {
  if (!fd) return QT_ERR_USAGE;
  *fd = -1;
  open_osfhandle_fn open_osfhandle = host_open_osfhandle();
  if (!open_osfhandle) return QT_ERR_STATE;
  int got = open_osfhandle((HANDLE)handle);
  if (got < 0) return QT_ERR_STATE;
  *fd = got;
  return QT_OK;
}
