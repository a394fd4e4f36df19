/* external_edit.c (Windows) — Ctrl+G for the terminal runner: %VISUAL%, else %EDITOR%, else
 * the system's notepad.exe (by its full path in the system directory: a bare name would be looked
 * for in the current directory first, where an untrusted project could plant one) on the draft
 * in a temporary file (created new under the user's temporary directory, %TEMP%, whose ACL
 * already keeps other users out; removed afterwards; its name carries the pid, so a draft left by a
 * process killed meanwhile is removed at the next Ctrl+G). Nothing is lost when the editor is
 * missing, fails or exits non-zero: the caller keeps the draft and shows `why`.
 *
 * The command line is the variable's text as written, then a space and the file's path in
 * double quotes, given to CreateProcessW as it is: no shell (cmd.exe) reads it, so nothing in
 * the path is interpreted, and the editor's own quoting ("C:\Program Files\…\editor.exe" -w)
 * reaches it the way Windows programs split their command line (CommandLineToArgvW rules; a
 * Windows path cannot contain a double quote, and ours never ends in a backslash). CreateProcessW
 * would take the first word (or the quoted first part) as the program and look for it with ".exe"
 * added in the application's directory, then the current directory — the project, maybe an
 * untrusted clone holding an editor.exe — then the system directories and PATH. So a bare name
 * is looked up here first (resolve_program), in those places but the current directory, and
 * the line given to CreateProcessW names the program by its full path; a bare name found
 * nowhere else is not started (as pi's TUI path does it: NoDefaultCurrentDirectoryInExePath). A
 * batch-file editor must be named with its ".cmd"/".bat" ending (e.g. "code.cmd --wait"), and
 * Windows then runs it through cmd.exe itself.
 *
 * The editor's terminal: with `tty_fd` >= 0 (the runner's; Windows has no descriptor for it) the
 * console itself, CONIN$ and CONOUT$, even when the process's output goes to a pipe; with -1 the
 * process's own standard handles. Only those handles are inherited (an explicit handle list),
 * never another open file of the host such as a held lock. */
#ifndef _WIN32_WINNT
#define _WIN32_WINNT 0x0A00
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "qt_external_edit.h"

static void say(const qt_engine *e, qt_buf *why, qt_string_id id, size_t n, const char *s) {
  qt_buf_reset(why);
  qt_format(why, qt_string(qt_engine_language(e), id), n, s);
}

/* A Win32 error as a short English reason (the system's messages follow the system's language
 * and codepage; a number is what a person can look up). */
static void say_error(const qt_engine *e, qt_buf *why, const char *what, DWORD error) {
  char text[96];
  snprintf(text, sizeof text, "%s (Windows error %lu)", what, (unsigned long)error);
  say(e, why, QT_STR_EDITOR_NOT_STARTED, 0, text);
}

/* An environment variable (malloc'ed), NULL when it is unset, empty or memory ran out. */
static wchar_t *env_var(const wchar_t *name) {
  DWORD n = GetEnvironmentVariableW(name, NULL, 0);
  if (n <= 1) return NULL;
  wchar_t *v = malloc((size_t)n * sizeof *v);
  if (!v) return NULL;
  DWORD got = GetEnvironmentVariableW(name, v, n);
  if (got == 0 || got >= n) {
    free(v);
    return NULL;
  }
  return v;
}

static wchar_t *wide_dup(const wchar_t *s) {
  size_t n = wcslen(s) + 1;
  wchar_t *d = malloc(n * sizeof *d);
  if (d) memcpy(d, s, n * sizeof *d);
  return d;
}

/* UTF-16 → UTF-8 in `out` (for the reason shown when the editor cannot be found). */
static void narrow_into(qt_buf *out, const wchar_t *s) {
  int n = WideCharToMultiByte(CP_UTF8, 0, s, -1, NULL, 0, NULL, NULL);
  if (n <= 1) return;
  char *t = malloc((size_t)n);
  if (!t) return;
  WideCharToMultiByte(CP_UTF8, 0, s, -1, t, n, NULL, NULL);
  qt_buf_append(out, t, (size_t)n - 1);
  free(t);
}

/* Appends `s` (n characters) and a ';' to the search path being built. */
static bool add_dir(wchar_t **list, size_t *len, size_t *cap, const wchar_t *s, size_t n) {
  if (n == 0) return true;
  if (*len + n + 2 > *cap) {
    size_t grown = (*cap + n + 2) * 2;
    wchar_t *bigger = realloc(*list, grown * sizeof *bigger);
    if (!bigger) return false;
    *list = bigger;
    *cap = grown;
  }
  memcpy(*list + *len, s, n * sizeof **list);
  *len += n;
  (*list)[(*len)++] = L';';
  (*list)[*len] = 0;
  return true;
}

/* Whether a PATH entry is absolute ("C:\…" or "\server\…"): a relative one, "." included,
 * would be the current directory again. */
static bool absolute_dir(const wchar_t *s, size_t n) {
  if (n >= 3 && ((s[0] >= L'A' && s[0] <= L'Z') || (s[0] >= L'a' && s[0] <= L'z')) && s[1] == L':' &&
      (s[2] == L'\\' || s[2] == L'/'))
    return true;
  return n >= 2 && (s[0] == L'\\' || s[0] == L'/') && (s[1] == L'\\' || s[1] == L'/');
}

/* The command line `cmd` with its program named by a full path (malloc'ed). A program given
 * with a path (\, / or :) is kept as written. A bare name is looked for, with ".exe" added
 * unless it has an ending, in the application's directory, the system directory, the Windows
 * directory and PATH's absolute entries — never the current directory; NULL with *missing set
 * when it is in none of them, NULL alone when memory ran out. */
static wchar_t *resolve_program(const wchar_t *cmd, bool *missing) {
  *missing = false;
  const wchar_t *start = cmd, *end;
  while (*start == L' ' || *start == L'\t') start++;
  bool quoted = *start == L'"';
  if (quoted) {
    start++;
    end = wcschr(start, L'"');
    if (!end) end = start + wcslen(start);
  } else {
    end = start;
    while (*end && *end != L' ' && *end != L'\t') end++;
  }
  const wchar_t *rest = quoted && *end == L'"' ? end + 1 : end;
  size_t name_len = (size_t)(end - start);
  bool bare = name_len > 0;
  for (const wchar_t *c = start; c < end && bare; c++) bare = *c != L'\\' && *c != L'/' && *c != L':';
  if (!bare) return wide_dup(cmd);
  wchar_t *name = malloc((name_len + 1) * sizeof *name);
  wchar_t *list = NULL;
  size_t len = 0, cap = 0;
  wchar_t *found = NULL, *line = NULL;
  if (!name) return NULL;
  memcpy(name, start, name_len * sizeof *name);
  name[name_len] = 0;
  wchar_t dir[MAX_PATH];
  DWORD n = GetModuleFileNameW(NULL, dir, MAX_PATH);
  bool ok = true;
  if (n > 0 && n < MAX_PATH) {
    wchar_t *slash = wcsrchr(dir, L'\\');
    if (slash) ok = add_dir(&list, &len, &cap, dir, (size_t)(slash - dir));
  }
  UINT m = GetSystemDirectoryW(dir, MAX_PATH);
  if (ok && m > 0 && m < MAX_PATH) ok = add_dir(&list, &len, &cap, dir, m);
  m = GetWindowsDirectoryW(dir, MAX_PATH);
  if (ok && m > 0 && m < MAX_PATH) ok = add_dir(&list, &len, &cap, dir, m);
  wchar_t *path = env_var(L"PATH");
  for (const wchar_t *p = path; ok && p && *p;) {
    const wchar_t *semi = wcschr(p, L';');
    size_t plen = semi ? (size_t)(semi - p) : wcslen(p);
    const wchar_t *d = p;
    size_t dlen = plen;
    if (dlen >= 2 && d[0] == L'"' && d[dlen - 1] == L'"') {
      d++;
      dlen -= 2;
    }
    if (absolute_dir(d, dlen)) ok = add_dir(&list, &len, &cap, d, dlen);
    p = semi ? semi + 1 : p + plen;
  }
  free(path);
  if (ok && list) {
    DWORD need = SearchPathW(list, name, L".exe", 0, NULL, NULL);
    if (need > 0 && (found = malloc((size_t)need * sizeof *found)) != NULL) {
      DWORD got = SearchPathW(list, name, L".exe", need, found, NULL);
      if (got == 0 || got >= need) {
        free(found);
        found = NULL;
      }
    } else if (need == 0) {
      *missing = true;
    }
  } else if (ok) {
    *missing = true;
  }
  if (found) {
    size_t size = wcslen(found) + wcslen(rest) + 3;
    if ((line = malloc(size * sizeof *line)) != NULL) swprintf(line, size, L"\"%ls\"%ls", found, rest);
  }
  free(found);
  free(list);
  free(name);
  return line;
}

/* Whether process `pid` has ended: no such process, or one that has exited. A process this user
 * may not open (another user's) is running. */
static bool process_gone(DWORD pid) {
  HANDLE p = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
  if (!p) return GetLastError() == ERROR_INVALID_PARAMETER;
  DWORD code = 0;
  bool gone = GetExitCodeProcess(p, &code) && code != STILL_ACTIVE;
  CloseHandle(p);
  return gone;
}

/* Removes the drafts in the temporary folder `dir` (ending in a backslash; %TEMP% is this user's
 * own) whose process has ended (see the top: pi-question-draft-<pid>-…), the TypeScript path's
 * folders with their one file; never a link or junction. Errors are ignored. */
static void sweep_stale_drafts(const wchar_t *dir) {
  static const wchar_t prefix[] = L"pi-question-draft-";
  size_t dir_len = wcslen(dir), cap = dir_len + MAX_PATH + 16;
  wchar_t *path = malloc(cap * sizeof *path);
  if (!path) return;
  swprintf(path, cap, L"%ls%ls*", dir, prefix);
  WIN32_FIND_DATAW found;
  HANDLE find = FindFirstFileW(path, &found);
  if (find == INVALID_HANDLE_VALUE) {
    free(path);
    return;
  }
  DWORD self = GetCurrentProcessId();
  do {
    const wchar_t *digits = found.cFileName + (sizeof prefix / sizeof prefix[0] - 1);
    wchar_t *end = NULL;
    unsigned long pid = wcstoul(digits, &end, 10);
    if (end == digits || *end != L'-' || pid == 0 || pid > 0xFFFFFFFFUL || (DWORD)pid == self) continue;
    if (found.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) continue;
    if (!process_gone((DWORD)pid)) continue;
    if (found.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) {
      swprintf(path, cap, L"%ls%ls\\answer.md", dir, found.cFileName);
      DeleteFileW(path);
      swprintf(path, cap, L"%ls%ls", dir, found.cFileName);
      RemoveDirectoryW(path);
    } else {
      swprintf(path, cap, L"%ls%ls", dir, found.cFileName);
      DeleteFileW(path);
    }
  } while (FindNextFileW(find, &found));
  FindClose(find);
  free(path);
}

/* Creates a new, empty temporary file for the draft; *path gets its name (malloc'ed). */
static HANDLE create_temp(wchar_t **path, DWORD *error) {
  *path = NULL;
  DWORD n = GetTempPathW(0, NULL);
  if (n == 0) {
    *error = GetLastError();
    return INVALID_HANDLE_VALUE;
  }
  size_t cap = (size_t)n + 64;
  wchar_t *name = malloc(cap * sizeof *name);
  if (!name) {
    *error = ERROR_NOT_ENOUGH_MEMORY;
    return INVALID_HANDLE_VALUE;
  }
  DWORD dir = GetTempPathW(n, name); /* ends in a backslash */
  if (dir == 0 || dir >= n) {
    *error = dir == 0 ? GetLastError() : ERROR_BUFFER_OVERFLOW;
    free(name);
    return INVALID_HANDLE_VALUE;
  }
  sweep_stale_drafts(name);
  /* A name nobody can have made yet is not needed: CREATE_NEW never opens an existing file,
   * and a taken name is simply passed over. */
  static volatile LONG counter;
  LARGE_INTEGER now;
  QueryPerformanceCounter(&now);
  for (int attempt = 0; attempt < 100; attempt++) {
    unsigned long tag = (unsigned long)(now.QuadPart ^ ((LONGLONG)GetCurrentProcessId() << 20)) +
                        (unsigned long)InterlockedIncrement(&counter) * 7919UL;
    /* the pid in the name: a draft left by a killed process is removed by the next Ctrl+G, here
     * (sweep_stale_drafts) or in pi's TUI (extension/ask/external-editor.ts sweepStaleDrafts) */
    swprintf(name + dir, cap - dir, L"pi-question-draft-%lu-%08lx.md", (unsigned long)GetCurrentProcessId(),
             tag & 0xFFFFFFFFUL);
    HANDLE h = CreateFileW(name, GENERIC_WRITE, 0, NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
    if (h != INVALID_HANDLE_VALUE) {
      *path = name;
      return h;
    }
    *error = GetLastError();
    if (*error != ERROR_FILE_EXISTS && *error != ERROR_ALREADY_EXISTS) break;
  }
  free(name);
  return INVALID_HANDLE_VALUE;
}

static bool write_all(HANDLE h, const char *s, size_t n) {
  while (n) {
    DWORD chunk = n > 0x40000000 ? 0x40000000 : (DWORD)n, wrote = 0;
    if (!WriteFile(h, s, chunk, &wrote, NULL) || wrote == 0) return false;
    s += wrote;
    n -= wrote;
  }
  return true;
}

/* An inheritable copy of `h` (NULL when h is not a handle). */
static HANDLE inheritable(HANDLE h) {
  HANDLE copy = NULL;
  if (!h || h == INVALID_HANDLE_VALUE) return NULL;
  if (!DuplicateHandle(GetCurrentProcess(), h, GetCurrentProcess(), &copy, 0, TRUE, DUPLICATE_SAME_ACCESS)) return NULL;
  return copy;
}

static HANDLE open_console(const wchar_t *name) {
  SECURITY_ATTRIBUTES sa = {(DWORD)sizeof sa, NULL, TRUE};
  HANDLE h =
      CreateFileW(name, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa, OPEN_EXISTING, 0, NULL);
  return h == INVALID_HANDLE_VALUE ? NULL : h;
}

/* Runs `line` with the chosen standard handles; *code gets its exit code. */
static bool run(wchar_t *line, int tty_fd, DWORD *code, DWORD *error) {
  HANDLE std[3] = {NULL, NULL, NULL};
  if (tty_fd >= 0) {
    std[0] = open_console(L"CONIN$");
    std[1] = open_console(L"CONOUT$");
    std[2] = std[1];
  } else {
    std[0] = inheritable(GetStdHandle(STD_INPUT_HANDLE));
    std[1] = inheritable(GetStdHandle(STD_OUTPUT_HANDLE));
    std[2] = inheritable(GetStdHandle(STD_ERROR_HANDLE));
  }
  HANDLE list[3];
  DWORD count = 0;
  for (int i = 0; i < 3; i++) {
    bool seen = !std[i];
    for (DWORD j = 0; j < count && !seen; j++) seen = list[j] == std[i];
    if (!seen) list[count++] = std[i];
  }
  bool with_std = std[0] && std[1] && std[2];
  STARTUPINFOEXW si;
  memset(&si, 0, sizeof si);
  si.StartupInfo.cb = sizeof si;
  DWORD flags = 0;
  SIZE_T size = 0;
  if (with_std) {
    si.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
    si.StartupInfo.hStdInput = std[0];
    si.StartupInfo.hStdOutput = std[1];
    si.StartupInfo.hStdError = std[2];
    InitializeProcThreadAttributeList(NULL, 1, 0, &size);
    si.lpAttributeList = size ? malloc(size) : NULL;
    if (si.lpAttributeList && InitializeProcThreadAttributeList(si.lpAttributeList, 1, 0, &size)) {
      if (UpdateProcThreadAttribute(si.lpAttributeList, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, list,
                                    count * sizeof list[0], NULL, NULL)) {
        si.StartupInfo.cb = sizeof si;
        flags = EXTENDED_STARTUPINFO_PRESENT;
      } else {
        DeleteProcThreadAttributeList(si.lpAttributeList);
        free(si.lpAttributeList);
        si.lpAttributeList = NULL;
      }
    } else {
      free(si.lpAttributeList);
      si.lpAttributeList = NULL;
    }
    /* Without the list every inheritable handle of the process would go along: then no
     * standard handles either (the editor still shares the console). */
    if (!flags) {
      with_std = false;
      si.StartupInfo.dwFlags = 0;
      si.StartupInfo.hStdInput = si.StartupInfo.hStdOutput = si.StartupInfo.hStdError = NULL;
    }
  }
  if (!flags) si.StartupInfo.cb = sizeof si.StartupInfo;
  PROCESS_INFORMATION pi;
  memset(&pi, 0, sizeof pi);
  BOOL started = CreateProcessW(NULL, line, NULL, NULL, with_std, flags, NULL, NULL, &si.StartupInfo, &pi);
  *error = started ? 0 : GetLastError();
  if (si.lpAttributeList) {
    DeleteProcThreadAttributeList(si.lpAttributeList);
    free(si.lpAttributeList);
  }
  for (DWORD j = 0; j < count; j++) CloseHandle(list[j]);
  if (!started) return false;
  CloseHandle(pi.hThread);
  WaitForSingleObject(pi.hProcess, INFINITE);
  if (!GetExitCodeProcess(pi.hProcess, code)) *code = 1;
  CloseHandle(pi.hProcess);
  return true;
}

/* Reads the edited file into *out; false on a read error. */
static bool read_back(const wchar_t *path, qt_buf *out, DWORD *error) {
  HANDLE in = CreateFileW(path, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                          OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
  if (in == INVALID_HANDLE_VALUE) {
    *error = GetLastError();
    return false;
  }
  char buf[8192];
  bool ok = true;
  qt_buf_reset(out);
  for (;;) {
    DWORD n = 0;
    if (!ReadFile(in, buf, sizeof buf, &n, NULL)) {
      *error = GetLastError();
      ok = false;
      break;
    }
    if (n == 0) break;
    /* far past any field's limit: the engine cuts it anyway, so stop reading */
    if (out->len > (size_t)QT_MAX_ANSWER_BYTES * 4) break;
    qt_buf_append(out, buf, n);
  }
  CloseHandle(in);
  return ok;
}

bool qt_external_edit(const qt_engine *e, int tty_fd, const char *text, size_t len, qt_buf *out, qt_buf *why) {
  wchar_t *cmd = env_var(L"VISUAL");
  if (!cmd) cmd = env_var(L"EDITOR");
  if (!cmd) { /* every Windows has it, in the system directory (see the top) */
    wchar_t dir[MAX_PATH], quoted[MAX_PATH + 16];
    UINT n = GetSystemDirectoryW(dir, MAX_PATH);
    if (n == 0 || n >= MAX_PATH) {
      say_error(e, why, "no system directory", GetLastError());
      return false;
    }
    swprintf(quoted, MAX_PATH + 16, L"\"%ls\\notepad.exe\"", dir);
    cmd = wide_dup(quoted);
  }
  if (!cmd) {
    say(e, why, QT_STR_EDITOR_NOT_STARTED, 0, "out of memory");
    return false;
  }
  bool missing = false;
  wchar_t *program = resolve_program(cmd, &missing);
  if (!program) {
    if (missing) {
      qt_buf name;
      qt_buf_init(&name);
      narrow_into(&name, cmd);
      say(e, why, QT_STR_EDITOR_NOT_STARTED, 0, name.failed || !name.data ? "?" : name.data);
      qt_buf_free(&name);
    } else {
      say(e, why, QT_STR_EDITOR_NOT_STARTED, 0, "out of memory");
    }
    free(cmd);
    return false;
  }
  wchar_t *path = NULL, *line = NULL;
  DWORD error = 0;
  bool ok = false;
  HANDLE h = create_temp(&path, &error);
  if (h == INVALID_HANDLE_VALUE) {
    say_error(e, why, "no temporary file", error);
    free(program);
    free(cmd);
    return false;
  }
  bool written = write_all(h, text ? text : "", text ? len : 0);
  if (!written) error = GetLastError();
  CloseHandle(h);
  if (!written) {
    say_error(e, why, "could not write the temporary file", error);
    goto done;
  }
  size_t cap = wcslen(program) + wcslen(path) + 4;
  if (!(line = malloc(cap * sizeof *line))) {
    say(e, why, QT_STR_EDITOR_NOT_STARTED, 0, "out of memory");
    goto done;
  }
  swprintf(line, cap, L"%ls \"%ls\"", program, path);
  DWORD code = 0;
  if (!run(line, tty_fd, &code, &error)) {
    if (error == ERROR_FILE_NOT_FOUND || error == ERROR_PATH_NOT_FOUND || error == ERROR_BAD_EXE_FORMAT) {
      qt_buf name;
      qt_buf_init(&name);
      narrow_into(&name, cmd);
      say(e, why, QT_STR_EDITOR_NOT_STARTED, 0, name.failed || !name.data ? "?" : name.data);
      qt_buf_free(&name);
    } else {
      say_error(e, why, "could not start the editor", error);
    }
    goto done;
  }
  if (code != 0) {
    say(e, why, QT_STR_EDITOR_EXIT, (size_t)code, NULL);
    goto done;
  }
  if (!read_back(path, out, &error) || out->failed) {
    say_error(e, why, "could not read the file back", out->failed ? ERROR_NOT_ENOUGH_MEMORY : error);
    goto done;
  }
  /* Notepad of older Windows saves UTF-8 with a byte order mark: not part of the text, unless
   * the draft began with one. */
  if (out->len >= 3 && memcmp(out->data, "\xEF\xBB\xBF", 3) == 0 &&
      !(text && len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)) {
    memmove(out->data, out->data + 3, out->len - 3);
    out->len -= 3;
    out->data[out->len] = '\0';
  }
  ok = true;
done:
  DeleteFileW(path);
  free(path);
  free(line);
  free(program);
  free(cmd);
  return ok;
}
