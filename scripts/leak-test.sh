#!/usr/bin/env bash
# leak-test.sh — `npm run test:leaks`: 100,000 create/feed/render/destroy cycles of the engine
# plus parse/result cycles, three ways:
#   1. tests/native-leaks.c built with AddressSanitizer: LeakSanitizer must report nothing;
#   2. the same driver without sanitizers: RSS after warm-up must not grow (LEAKS_C_MAX_GROWTH_KB,
#      default 1024 kB);
#   3. tests/leaks.mjs through the addon (built here without sanitizers, as users get it) in
#      one node process with forced GC: every engine is freed by its finalizer and RSS stays
#      within LEAKS_MAX_GROWTH_MB (default 20 MB) after warm-up.
# Builds go to LEAKS_OUT (default build/leaks); build/Release is not touched.
# LEAKS_CYCLES changes the 100,000 (for a quick run).
set -euo pipefail
cd "$(dirname "$0")/.."
NATIVE_ENV_NAME=test:leaks
. scripts/native-env.sh

OUT=${LEAKS_OUT:-build/leaks}
CYCLES=${LEAKS_CYCLES:-100000}

echo "test:leaks: 1/3 LeakSanitizer, $CYCLES cycles"
build_driver tests/native-leaks.c "$OUT/native-leaks-asan" -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ASAN_OPTIONS=detect_leaks=1:exitcode=23 UBSAN_OPTIONS=print_stacktrace=1 "$OUT/native-leaks-asan" "$CYCLES"

echo "test:leaks: 2/3 RSS of the C core, $CYCLES cycles"
build_driver tests/native-leaks.c "$OUT/native-leaks" -O2
NATIVE_LEAKS_MAX_GROWTH_KB=${LEAKS_C_MAX_GROWTH_KB:-1024} "$OUT/native-leaks" "$CYCLES"

echo "test:leaks: 3/3 RSS through the addon, $CYCLES cycles"
build_addon "$OUT/pi_question.node" -O2
PI_QUESTION_ADDON="$(cd "$OUT" && pwd)/pi_question.node" LEAKS_CYCLES=$CYCLES node --expose-gc --test tests/leaks.mjs
echo "test:leaks: clean"
