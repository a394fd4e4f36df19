/* peer.c (Windows) — qt_peer.h on Win32. qt_peer_credentials tells nothing (the relay is a named
 * pipe, with no descriptor to ask; the pipe gives the client's pid, qt_pipe.h). A process's parent
 * comes from a Toolhelp snapshot, checked against the processes' start times (Windows keeps a
 * parent's pid after it ended, and may give that pid to a later process); its command line is
 * read from its own memory: the PEB's process parameters, through NtQueryInformationProcess
 * (found in ntdll at run time) and ReadProcessMemory. */
#ifndef _WIN32_WINNT
#define _WIN32_WINNT 0x0A00
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <tlhelp32.h>
#include <winternl.h>

#include "qt_limits.h"
#include "qt_peer.h"

qt_status qt_peer_credentials(int fd, qt_peer *out, int *sys_error) {
  (void)fd;
  if (!out || !sys_error) return QT_ERR_USAGE;
  out->pid = out->uid = -1;
  *sys_error = 0;
  return QT_ERR_STATE;
}

/* When `pid` began (100-ns ticks since 1601), or 0 when it cannot be told. */
static unsigned long long started_at(DWORD pid) {
  HANDLE h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
  if (!h) return 0;
  FILETIME created, exited, kernel, user;
  unsigned long long at = 0;
  if (GetProcessTimes(h, &created, &exited, &kernel, &user))
    at = (unsigned long long)created.dwHighDateTime << 32 | created.dwLowDateTime;
  CloseHandle(h);
  return at;
}

qt_status qt_process_parent(long long pid, long long *parent, int *sys_error) {
  if (!parent || !sys_error) return QT_ERR_USAGE;
  *parent = -1;
  *sys_error = 0;
  if (pid < 0 || pid > 0xFFFFFFFFLL) {
    *sys_error = ERROR_NOT_FOUND;
    return QT_ERR_STATE;
  }
  HANDLE snap = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
  if (snap == INVALID_HANDLE_VALUE) {
    *sys_error = (int)GetLastError();
    return QT_ERR_STATE;
  }
  PROCESSENTRY32W e;
  e.dwSize = sizeof e;
  bool found = false, parent_listed = false;
  DWORD ppid = 0;
  for (BOOL more = Process32FirstW(snap, &e); more && !found; more = Process32NextW(snap, &e)) {
    if ((long long)e.th32ProcessID == pid) {
      found = true;
      ppid = e.th32ParentProcessID;
    }
  }
  if (found && ppid) {
    e.dwSize = sizeof e;
    for (BOOL more = Process32FirstW(snap, &e); more && !parent_listed; more = Process32NextW(snap, &e))
      parent_listed = e.th32ProcessID == ppid;
  }
  CloseHandle(snap);
  if (!found) {
    *sys_error = ERROR_NOT_FOUND;
    return QT_ERR_STATE;
  }
  *parent = 0;
  if (!ppid || !parent_listed || ppid == (DWORD)pid) return QT_OK;
  /* The listed parent counts only if it began before its child: else its pid was reused. */
  unsigned long long child = started_at((DWORD)pid), up = started_at(ppid);
  if (child && up && up <= child) *parent = (long long)ppid;
  return QT_OK;
}

typedef LONG(NTAPI *query_process_fn)(HANDLE, PROCESSINFOCLASS, PVOID, ULONG, PULONG);

qt_status qt_process_command_line(long long pid, char **out, int *sys_error) {
  if (!out || !sys_error) return QT_ERR_USAGE;
  *out = NULL;
  *sys_error = 0;
  if (pid <= 0 || pid > 0xFFFFFFFFLL) {
    *sys_error = ERROR_INVALID_PARAMETER;
    return QT_ERR_STATE;
  }
  FARPROC found = GetProcAddress(GetModuleHandleW(L"ntdll.dll"), "NtQueryInformationProcess");
  if (!found) {
    *sys_error = ERROR_PROC_NOT_FOUND;
    return QT_ERR_STATE;
  }
  query_process_fn query;
  memcpy(&query, &found, sizeof query);
  HANDLE h = OpenProcess(PROCESS_QUERY_INFORMATION | PROCESS_VM_READ, FALSE, (DWORD)pid);
  if (!h) {
    *sys_error = (int)GetLastError();
    return QT_ERR_STATE;
  }
  qt_status st = QT_ERR_STATE;
  PROCESS_BASIC_INFORMATION basic;
  ULONG got = 0;
  PRTL_USER_PROCESS_PARAMETERS params = NULL;
  UNICODE_STRING line;
  /* At most this many UTF-16 units: each gives at most 3 bytes of UTF-8. */
  size_t most = QT_PEER_COMMAND_LINE_BYTES / 3;
  if (query(h, ProcessBasicInformation, &basic, sizeof basic, &got) != 0 || !basic.PebBaseAddress ||
      !ReadProcessMemory(h, (const char *)basic.PebBaseAddress + offsetof(PEB, ProcessParameters), &params,
                         sizeof params, NULL) ||
      !params ||
      !ReadProcessMemory(h, (const char *)params + offsetof(RTL_USER_PROCESS_PARAMETERS, CommandLine), &line,
                         sizeof line, NULL) ||
      !line.Buffer) {
    *sys_error = (int)GetLastError();
  } else {
    size_t units = line.Length / sizeof(WCHAR);
    if (units > most) units = most;
    WCHAR *wide = malloc((units + 1) * sizeof *wide);
    if (!wide) {
      st = QT_ERR_NOMEM;
    } else if (!ReadProcessMemory(h, line.Buffer, wide, units * sizeof *wide, NULL)) {
      *sys_error = (int)GetLastError();
    } else {
      /* A surrogate pair cut in half at the end goes. */
      if (units && wide[units - 1] >= 0xD800 && wide[units - 1] <= 0xDBFF) units--;
      int n = units ? WideCharToMultiByte(CP_UTF8, 0, wide, (int)units, NULL, 0, NULL, NULL) : 0;
      char *utf8 = malloc((size_t)n + 1);
      if (!utf8) {
        st = QT_ERR_NOMEM;
      } else {
        if (n) WideCharToMultiByte(CP_UTF8, 0, wide, (int)units, utf8, n, NULL, NULL);
        utf8[n] = '\0';
        *out = utf8;
        st = QT_OK;
      }
    }
    free(wide);
  }
  CloseHandle(h);
  return st;
}
