# binding.gyp — the C core (native/core/) as a static library (no Node headers) and the Node-API
# addon (native/node/) on top of it. The core is the same everywhere; what touches the OS
# (terminal, file lock, external editor, threads, a socket's peer) comes from native/os/posix/ or
# native/os/win32/, per OS below. The core's .c files sit in folders by concern (native/core/text/,
# request/, result/, engine/, render/, tty/: ARCHITECTURE.md); its public headers (qt.h, qt_*.h)
# at the top of native/core/, the one include directory of every target.
#
# Linux, macOS and other POSIX systems: cJSON comes from the system (pkg-config libcjson);
# scripts/install.mjs checks it is there before node-gyp runs.
#
# Windows, building from source with Visual Studio 2022 (17.8 or newer: C11 with atomics) and
# its "Desktop development with C++" workload: cJSON comes from the directory CJSON_DIR names,
# laid out as vcpkg installs it (include\cjson\cJSON.h and lib\cjson.lib, with bin\cjson.dll
# beside them for a dynamic build), e.g.
#   vcpkg install cjson:x64-windows-static
#   set CJSON_DIR=C:\vcpkg\installed\x64-windows-static
#   npm run build
# A dynamic cJSON (vcpkg's x64-windows) needs its cjson.dll next to build\Release\pi_question.node
# or on PATH. Warnings are shown, not fatal, with MSVC: the -Werror gate for the Windows sources
# is the mingw-w64 build (scripts/prebuild.mjs, tests/portability.test.mjs).
{
  "variables": {
    "qt_cflags": ["-std=c11", "-DNAPI_VERSION=8", "-Wall", "-Wextra", "-Werror", "-fvisibility=hidden"],
    "cjson_dir%": "<!(node -p \"process.env.CJSON_DIR || ''\")"
  },
  "target_defaults": {
    "cflags_c": ["<@(qt_cflags)"],
    "cflags!": ["-fno-exceptions"],
    "xcode_settings": {
      "OTHER_CFLAGS": ["<@(qt_cflags)", "-D_POSIX_C_SOURCE=200809L"],
      "GCC_SYMBOLS_PRIVATE_EXTERN": "YES"
    },
    "conditions": [
      ["OS!=\"win\"", {
        "cflags_c": ["-D_POSIX_C_SOURCE=200809L"]
      }],
      ["OS==\"win\"", {
        "defines": ["NAPI_VERSION=8", "WIN32_LEAN_AND_MEAN", "_CRT_SECURE_NO_WARNINGS"],
        "msvs_settings": {
          "VCCLCompilerTool": {
            "AdditionalOptions": ["/std:c11", "/experimental:c11atomics", "/utf-8"],
            "WarningLevel": 3
          }
        }
      }]
    ]
  },
  "targets": [
    {
      "target_name": "qt_core",
      "type": "static_library",
      "sources": [
        "native/core/text/buf.c",
        "native/core/text/utf8.c",
        "native/core/text/strings.c",
        "native/core/text/width.c",
        "native/core/text/sanitize.c",
        "native/core/text/notice.c",
        "native/core/text/lines.c",
        "native/core/request/common.c",
        "native/core/request/json_tree.c",
        "native/core/request/request.c",
        "native/core/request/request_memory.c",
        "native/core/request/request_json.c",
        "native/core/request/answers.c",
        "native/core/request/typed.c",
        "native/core/result/result.c",
        "native/core/engine/keys.c",
        "native/core/engine/editor.c",
        "native/core/engine/engine.c",
        "native/core/engine/engine_keys.c",
        "native/core/engine/engine_steps.c",
        "native/core/engine/engine_live.c",
        "native/core/engine/engine_clock.c",
        "native/core/engine/flow.c",
        "native/core/render/render.c",
        "native/core/render/render_editor.c",
        "native/core/render/render_help.c",
        "native/core/render/render_fit.c",
        "native/core/render/render_plain.c",
        "native/core/render/render_screen.c",
        "native/core/tty/tty_run.c"
      ],
      "include_dirs": ["native/core"],
      "conditions": [
        ["OS!=\"win\"", {
          "sources": [
            "native/os/posix/tty.c",
            "native/os/posix/filelock.c",
            "native/os/posix/external_edit.c",
            "native/os/posix/thread.c",
            "native/os/posix/peer.c",
            "native/os/posix/pipe.c"
          ],
          "include_dirs": ["<!@(pkg-config --cflags-only-I libcjson | sed -e 's/-I//g')"]
        }],
        ["OS==\"win\"", {
          "sources": [
            "native/os/win32/tty.c",
            "native/os/win32/filelock.c",
            "native/os/win32/external_edit.c",
            "native/os/win32/thread.c",
            "native/os/win32/peer.c",
            "native/os/win32/pipe.c"
          ],
          "include_dirs": ["<(cjson_dir)/include"]
        }]
      ],
      "direct_dependent_settings": {
        "include_dirs": ["native/core"]
      }
    },
    {
      "target_name": "pi_question",
      "dependencies": ["qt_core"],
      "sources": [
        "native/node/binding.c",
        "native/node/marshal.c",
        "native/node/engine_class.c",
        "native/node/text_keys.c",
        "native/node/tty_thread.c",
        "native/node/lock_file.c",
        "native/node/peer.c",
        "native/node/pipe.c"
      ],
      "conditions": [
        ["OS!=\"win\"", {
          "include_dirs": ["<!@(pkg-config --cflags-only-I libcjson | sed -e 's/-I//g')"],
          "libraries": ["<!@(pkg-config --libs libcjson)"]
        }],
        ["OS==\"win\"", {
          "include_dirs": ["<(cjson_dir)/include"],
          "libraries": ["<(cjson_dir)/lib/cjson.lib"]
        }]
      ]
    }
  ]
}
