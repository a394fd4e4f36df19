/* win-delay-load-hook.c — linked into the win32-x64 prebuilt only (scripts/prebuild.mjs): the
 * addon's Node-API imports name NODE.EXE and are delay-loaded; when they are first resolved this
 * hook hands over the running program instead of loading a file called node.exe, so the addon
 * works in whatever executable hosts Node-API (node.exe, a renamed or embedded Node, Bun's
 * Windows build that pi's release binary is). node-gyp links the same hook into addons that
 * Visual Studio builds (win_delay_load_hook.cc). */
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

#include <delayimp.h>
#include <string.h>

static FARPROC WINAPI load_host_hook(unsigned event, PDelayLoadInfo info) {
  if (event != dliNotePreLoadLibrary || _stricmp(info->szDll, "NODE.EXE") != 0) return NULL;
  return (FARPROC)GetModuleHandleW(NULL);
}

/* Both hooks are defined here: mingw-w64's own definitions of them share one object, which
 * would otherwise be linked in beside these. */
PfnDliHook __pfnDliNotifyHook2 = load_host_hook;
PfnDliHook __pfnDliFailureHook2 = NULL;
