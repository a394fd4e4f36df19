# binding.gyp — the C core as a static library (no Node headers) and the Node-API addon on
# top of it. cJSON comes from the system (pkg-config libcjson); scripts/install.mjs checks it
# is there before node-gyp runs.
{
  "variables": {
    "qt_cflags": ["-std=c11", "-DNAPI_VERSION=8", "-Wall", "-Wextra", "-Werror", "-fvisibility=hidden", "-D_POSIX_C_SOURCE=200809L"]
  },
  "target_defaults": {
    "cflags_c": ["<@(qt_cflags)"],
    "cflags!": ["-fno-exceptions"],
    "xcode_settings": {
      "OTHER_CFLAGS": ["<@(qt_cflags)"],
      "GCC_SYMBOLS_PRIVATE_EXTERN": "YES"
    }
  },
  "targets": [
    {
      "target_name": "qt_core",
      "type": "static_library",
      "sources": [
        "native/buf.c",
        "native/utf8.c",
        "native/strings.c",
        "native/common.c",
        "native/json_tree.c",
        "native/request.c",
        "native/answers.c",
        "native/result.c",
        "native/width.c",
        "native/sanitize.c",
        "native/notice.c",
        "native/keys.c",
        "native/editor.c",
        "native/engine.c",
        "native/render.c",
        "native/render_plain.c",
        "native/external_edit.c",
        "native/tty.c",
        "native/filelock.c"
      ],
      "include_dirs": ["<!@(pkg-config --cflags-only-I libcjson | sed -e 's/-I//g')"],
      "direct_dependent_settings": {
        "include_dirs": ["native"]
      }
    },
    {
      "target_name": "pi_question",
      "dependencies": ["qt_core"],
      "sources": ["native/binding.c"],
      "include_dirs": ["<!@(pkg-config --cflags-only-I libcjson | sed -e 's/-I//g')"],
      "libraries": ["<!@(pkg-config --libs libcjson)"]
    }
  ]
}
