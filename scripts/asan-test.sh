#!/usr/bin/env bash
# asan-test.sh — `npm run test:asan`: builds the addon and the C test drivers with
# AddressSanitizer + UndefinedBehaviorSanitizer (clang, straight from the sources listed in
# binding.gyp, into build/asan/ — the normal build is not touched), runs the C drivers
# (tests/native-*.c, shortened, LeakSanitizer on), then the node test suite against that addon
# with clang's ASan runtime preloaded into node (PI_QUESTION_ADDON points the extension and
# the tests at it). Nothing recovers: a sanitizer report aborts the process that hit it, so
# the test that triggered it fails.
#
# Leak detection is off inside node (V8 and node keep memory at exit that is not ours); the
# leak check is `npm run test:leaks`. The end-to-end tests that spawn pi (print, RPC,
# interactive through tmux) run: the preload and PI_QUESTION_ADDON are inherited by pi's node.
# Left out (ASAN_SKIP, file-name prefixes):
#   e2e-tty      drives /dev/tty through stty and pkill, which inherit the preload: under it
#                pkill hangs and stty prints nothing (the test then times out after 12 min);
#   e2e-install  checks which addon file a fresh install loads and that an unbuilt checkout
#                says so, which PI_QUESTION_ADDON overrides by design;
#   win32-, prebuilt  run Wine (the Windows harnesses and the prebuilts): Wine does not start
#                with the ASan runtime preloaded ("failed to start wineboot.exe"), and what they
#                test is the prebuilt files, not this build.
#
# Of the end-to-end tests through pi, only those that drive the most native code run (ASAN_E2E:
# pi's TUI, RPC dialogs, print mode, the hostile doors, every key): each starts pi (and its Node)
# under the sanitizer, which made this pass take over 30 minutes on a busy machine, while the
# native code they reach is the same the unit suites drive directly (engine, renderers, keys,
# answers, result, relay wire). `ASAN_E2E=all` runs every one.
#
# Environment: ASAN_OUT (default build/asan), ASAN_TESTS (test files, default all of tests/
# but ASAN_SKIP and the e2e files not in ASAN_E2E), ASAN_SKIP (default "e2e-tty e2e-install
# win32- prebuilt"), ASAN_E2E (default "e2e-interactive. e2e-rpc. e2e-print. e2e-doors-fuzz.
# e2e-whole-keys."; "all": every e2e file), ASAN_CONCURRENCY (test files at once, default 2, as
# npm test), CC (default clang).
set -euo pipefail
cd "$(dirname "$0")/.."
NATIVE_ENV_NAME=test:asan
. scripts/native-env.sh

OUT=${ASAN_OUT:-build/asan}
RT=$("$CC" -print-file-name=libclang_rt.asan-x86_64.so)
[ -f "$RT" ] ||
  native_env_die "clang's ASan runtime is missing ($RT); install it: Debian/Ubuntu \"sudo apt-get install libclang-rt-14-dev\" (for clang 14; the package matching your clang's version otherwise)."

SAN="-O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
echo "test:asan: building $OUT/pi_question.node"
# -shared-libasan: the runtime comes from the preloaded libclang_rt.asan (it carries UBSan's too)
build_addon "$OUT/pi_question.node" $SAN -shared-libasan

for t in tests/native-*.c; do
  [ -f "$t" ] || continue
  # the Windows harnesses: built with mingw-w64 and run under Wine (tests/win32-os.test.mjs,
  # tests/win32-tty.test.mjs)
  case "$t" in */native-win32*.c) continue ;; esac
  exe="$OUT/$(basename "$t" .c)"
  echo "test:asan: building and running $exe"
  build_driver "$t" "$exe" $SAN
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 NATIVE_TEST_QUICK=1 "$exe"
done

if [ -n "${ASAN_TESTS:-}" ]; then
  read -r -a tests <<<"$ASAN_TESTS"
else
  tests=()
  for t in tests/*.test.mjs; do
    skip=""
    for p in ${ASAN_SKIP-e2e-tty e2e-install win32- prebuilt}; do
      case "$(basename "$t")" in "$p"*) skip=$p ;; esac
    done
    name=$(basename "$t")
    if [ -z "$skip" ] && [ "${ASAN_E2E:-}" != all ] && [[ $name == e2e-* ]]; then
      skip=e2e
      for keep in ${ASAN_E2E-e2e-interactive. e2e-rpc. e2e-print. e2e-doors-fuzz. e2e-whole-keys.}; do
        case "$name" in "$keep"*) skip="" ;; esac
      done
    fi
    if [ -n "$skip" ]; then echo "test:asan: skipping $t (see the top of scripts/asan-test.sh)"; continue; fi
    tests+=("$t")
  done
fi
export LD_PRELOAD="$RT${LD_PRELOAD:+:$LD_PRELOAD}"
# detect_leaks=0: node's own memory at exit; handle_segv=0 and allow_user_segv_handler: V8
# installs its own signal handlers.
export ASAN_OPTIONS="detect_leaks=0:handle_segv=0:handle_sigbus=0:allow_user_segv_handler=1:abort_on_error=1:print_summary=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
PI_QUESTION_ADDON="$(cd "$OUT" && pwd)/pi_question.node"
export PI_QUESTION_ADDON
echo "test:asan: node --test with LD_PRELOAD=$RT PI_QUESTION_ADDON=$PI_QUESTION_ADDON"
exec node --test --test-concurrency="${ASAN_CONCURRENCY:-2}" "${tests[@]}"
