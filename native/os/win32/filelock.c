/* filelock.c (Windows) — qt_filelock of qt_filelock.h: LockFileEx on a lock file with a bounded
 * wait. A LockFileEx lock belongs to the handle, like flock's to the open file: a second handle
 * in the same process waits too, and Windows drops the lock when the handle closes or the
 * process dies, however it dies.
 *
 * No symbolic-link escapes: the file is opened with FILE_FLAG_OPEN_REPARSE_POINT (a symbolic
 * link or junction is opened as itself, never followed) and refused with ELOOP when what was
 * opened is a reparse point. The errors are the errno values the POSIX implementation reports
 * (ENOENT when the directory is missing, EACCES, ELOOP ...), so callers read them the same way.
 *
 * Removal while held: the holder deletes through its own handle (POSIX semantics where the file
 * system has them: the name goes at once; else the name stays "delete pending" until the last
 * handle closes, and opening it meanwhile fails with STATUS_DELETE_PENDING, which a waiter
 * treats like a busy lock and retries). A waiter that locks a file whose name now names another
 * file, or none, tries again on the one the path names now. */
#ifndef _WIN32_WINNT
#define _WIN32_WINNT 0x0A00
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "qt_filelock.h"

/* The pause between two attempts: short against the few milliseconds an update holds it. */
#define RETRY_PAUSE_MS 2

#define STATUS_DELETE_PENDING_VALUE 0xC0000056UL

/* FileDispositionInfoEx and its flags (Windows 10 1607), spelled out: the SDK headers declare
 * them only for a newer NTDDI_VERSION than _WIN32_WINNT 0x0A00 implies. */
#define DISPOSITION_INFO_EX         ((FILE_INFO_BY_HANDLE_CLASS)21)
#define DISPOSITION_DELETE          0x1
#define DISPOSITION_POSIX_SEMANTICS 0x2
typedef struct disposition_ex {
  DWORD Flags;
} disposition_ex;

struct qt_filelock {
  HANDLE file;
};

/* UTF-8 → UTF-16 (malloc'ed), NULL when `s` is not valid UTF-8 or memory ran out. */
static wchar_t *widen(const char *s, int *sys_error) {
  int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
  if (n <= 0) {
    *sys_error = EINVAL;
    return NULL;
  }
  wchar_t *w = malloc((size_t)n * sizeof *w);
  if (!w) {
    *sys_error = ENOMEM;
    return NULL;
  }
  MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n);
  return w;
}

/* The errno value the POSIX implementation would report for a Win32 error. */
static int errno_of(DWORD error) {
  switch (error) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_DRIVE:
    case ERROR_BAD_NETPATH:
    case ERROR_BAD_NET_NAME: return ENOENT;
    case ERROR_ACCESS_DENIED:
    case ERROR_WRITE_PROTECT: return EACCES;
    case ERROR_SHARING_VIOLATION: return EBUSY;
    case ERROR_INVALID_NAME:
    case ERROR_BAD_PATHNAME:
    case ERROR_DIRECTORY: return EINVAL;
    case ERROR_FILENAME_EXCED_RANGE: return ENAMETOOLONG;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY: return ENOMEM;
    case ERROR_TOO_MANY_OPEN_FILES: return EMFILE;
    case ERROR_CANT_RESOLVE_FILENAME: return ELOOP;
    default: return EIO;
  }
}

/* Whether the last failure of this thread was STATUS_DELETE_PENDING (Win32 folds it into
 * ERROR_ACCESS_DENIED): the lock file is being removed by its holder. */
static bool delete_pending(void) {
  typedef LONG(NTAPI * last_status_fn)(void);
  static last_status_fn last_status;
  static LONG looked; /* 0: not yet, 1: looked */
  if (!InterlockedCompareExchange(&looked, 0, 0)) {
    HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    FARPROC f = ntdll ? GetProcAddress(ntdll, "RtlGetLastNtStatus") : NULL;
    /* A function pointer through void *: MSVC and GCC both allow it for GetProcAddress. */
    last_status = (last_status_fn)(void (*)(void))f;
    InterlockedExchange(&looked, 1);
  }
  return last_status && (unsigned long)last_status() == STATUS_DELETE_PENDING_VALUE;
}

/* The identity of an open file; false when it cannot be read. */
static bool identity(HANDLE h, BY_HANDLE_FILE_INFORMATION *info) { return GetFileInformationByHandle(h, info) != 0; }

/* True when `path` still names the file open on `held` (a holder may have removed it). */
static bool still_named(HANDLE held, const wchar_t *path) {
  FILE_STANDARD_INFO standard;
  if (GetFileInformationByHandleEx(held, FileStandardInfo, &standard, sizeof standard) && standard.DeletePending)
    return false;
  BY_HANDLE_FILE_INFORMATION a, b;
  if (!identity(held, &a)) return false;
  HANDLE now = CreateFileW(path, FILE_READ_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                           OPEN_EXISTING, FILE_FLAG_OPEN_REPARSE_POINT | FILE_FLAG_BACKUP_SEMANTICS, NULL);
  if (now == INVALID_HANDLE_VALUE) return false;
  bool same = identity(now, &b) && a.dwVolumeSerialNumber == b.dwVolumeSerialNumber &&
              a.nFileIndexHigh == b.nFileIndexHigh && a.nFileIndexLow == b.nFileIndexLow;
  CloseHandle(now);
  return same;
}

static bool try_lock(HANDLE h) {
  OVERLAPPED at;
  memset(&at, 0, sizeof at);
  return LockFileEx(h, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, MAXDWORD, MAXDWORD, &at) != 0;
}

qt_status qt_filelock_acquire(const char *path, unsigned timeout_ms, qt_filelock **out, int *sys_error) {
  int unused = 0;
  if (!sys_error) sys_error = &unused;
  *sys_error = 0;
  if (out) *out = NULL;
  if (!path || !out) return QT_ERR_USAGE;
  wchar_t *wide = widen(path, sys_error);
  if (!wide) return *sys_error == ENOMEM ? QT_ERR_NOMEM : QT_ERR_STATE;
  qt_filelock *lock = malloc(sizeof *lock);
  if (!lock) {
    free(wide);
    return QT_ERR_NOMEM;
  }
  const ULONGLONG deadline = GetTickCount64() + timeout_ms;
  for (;;) {
    /* Not inherited by child processes (a NULL SECURITY_ATTRIBUTES): an editor started while
     * the lock is held must not keep it. DELETE access: the holder removes the file through
     * this handle. */
    HANDLE h =
        CreateFileW(wide, GENERIC_READ | GENERIC_WRITE | DELETE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                    NULL, OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, NULL);
    bool busy = false;
    if (h == INVALID_HANDLE_VALUE) {
      DWORD error = GetLastError();
      if (error == ERROR_ACCESS_DENIED && delete_pending()) {
        busy = true; /* its holder is removing it: the name comes free once that is done */
      } else if (error == ERROR_SHARING_VIOLATION) {
        busy = true; /* another program (a virus scanner, an indexer) has it open for a moment */
      } else {
        *sys_error = errno_of(error);
        if (error == ERROR_ACCESS_DENIED) { /* a directory (or a link to one) is refused so too */
          DWORD attributes = GetFileAttributesW(wide);
          if (attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_REPARSE_POINT))
            *sys_error = ELOOP;
          else if (attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_DIRECTORY))
            *sys_error = EISDIR;
        }
        break;
      }
    } else {
      BY_HANDLE_FILE_INFORMATION info;
      if (!identity(h, &info)) {
        *sys_error = errno_of(GetLastError());
        CloseHandle(h);
        break;
      }
      if (info.dwFileAttributes & (FILE_ATTRIBUTE_REPARSE_POINT | FILE_ATTRIBUTE_DIRECTORY)) {
        *sys_error = (info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) ? ELOOP : EISDIR;
        CloseHandle(h);
        break;
      }
      if (try_lock(h)) {
        if (still_named(h, wide)) {
          lock->file = h;
          free(wide);
          *out = lock;
          return QT_OK;
        }
        CloseHandle(h); /* locked a file its holder removed: try the one the path names now */
      } else {
        DWORD error = GetLastError();
        CloseHandle(h);
        if (error != ERROR_LOCK_VIOLATION && error != ERROR_SHARING_VIOLATION) {
          *sys_error = errno_of(error);
          break;
        }
        busy = true;
      }
    }
    if (GetTickCount64() >= deadline) {
      *sys_error = 0; /* timed out */
      break;
    }
    if (busy) Sleep(RETRY_PAUSE_MS);
  }
  free(wide);
  free(lock);
  return QT_ERR_STATE;
}

void qt_filelock_release(qt_filelock *lock, bool remove) {
  if (!lock) return;
  if (remove) {
    /* Through the held handle, so it is the locked file that goes, whatever the path names. */
    disposition_ex now;
    now.Flags = DISPOSITION_DELETE | DISPOSITION_POSIX_SEMANTICS;
    if (!SetFileInformationByHandle(lock->file, DISPOSITION_INFO_EX, &now, sizeof now)) {
      FILE_DISPOSITION_INFO on_close;
      on_close.DeleteFile = TRUE; /* older Windows, FAT: gone when the last handle closes */
      SetFileInformationByHandle(lock->file, FileDispositionInfo, &on_close, sizeof on_close);
    }
  }
  CloseHandle(lock->file); /* closing the handle drops the lock */
  free(lock);
}
