#!/usr/bin/env bash
# fuzz.sh — `npm run fuzz`: builds the libFuzzer targets of native/fuzz/ (clang,
# -fsanitize=fuzzer,address,undefined, nothing recovers), re-runs every kept regression input,
# then fuzzes each target for FUZZ_SECONDS (default 60) on one core, starting from its seed
# corpus; FUZZ_JOBS targets build and fuzz at once (one per core by default). A crash, leak, timeout or failed invariant is kept under
# native/fuzz/regressions/<target>/ and fails the script; a summary gives executions, exec/s
# and coverage per target.
#
# Environment:
#   FUZZ_SECONDS       seconds per target (default 60)
#   FUZZ_TARGETS       targets to run (default: all, in the order below)
#   FUZZ_JOBS          targets built and fuzzed at once (default: the number of cores)
#   FUZZ_OUT           build and working-corpus directory (default build/fuzz)
#   FUZZ_EXTRA_CFLAGS  added to every compile (e.g. -fno-sanitize=float-cast-overflow to look
#                      past a known finding while it is being fixed)
#   FUZZ_BUILD_ONLY=1  build, run the regressions, do not fuzz
#   CC                 the compiler (default clang)
set -uo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_TARGET=${FUZZ_SECONDS:-60}
OUT=${FUZZ_OUT:-build/fuzz}
CC=${CC:-clang}
ALL_TARGETS="fuzz_request fuzz_json_tree fuzz_answers fuzz_decoder fuzz_session fuzz_oom"
TARGETS=${FUZZ_TARGETS:-$ALL_TARGETS}
JOBS=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}

die() { echo "fuzz: $*" >&2; exit 2; }
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || die "FUZZ_JOBS=$JOBS: the number of targets at once is a whole number from 1 up."
# Ctrl+C or a kill stops the builds and fuzzers running in the background too.
trap 'kill $(jobs -p) 2>/dev/null' INT TERM

# ---- toolchain -------------------------------------------------------------------------------
command -v "$CC" >/dev/null 2>&1 ||
  die "no clang found ($CC); install it: Debian/Ubuntu \"sudo apt-get install clang libclang-rt-14-dev\"."
rt=$("$CC" -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null)
[ -f "$rt" ] ||
  die "clang's libFuzzer runtime is missing ($rt); install it: Debian/Ubuntu \"sudo apt-get install libclang-rt-14-dev\" (the version of your clang)."
pkg-config --exists libcjson 2>/dev/null ||
  die "the cJSON library was not found; install it: Debian/Ubuntu \"sudo apt-get install libcjson-dev pkg-config\"."

N=native/core
F=native/fuzz
# The core's parsers keep per-thread blocks through the OS layer's thread.c (POSIX here).
CORE="$N/text/buf.c $N/text/utf8.c $N/text/strings.c $N/request/common.c $N/request/json_tree.c $N/request/request.c
  $N/request/request_memory.c $N/request/request_json.c $N/request/answers.c $N/request/typed.c $N/result/result.c native/os/posix/thread.c"
TEXT="$N/text/width.c $N/text/sanitize.c"
KEYS="$N/engine/keys.c"
# the engine's files but the decoder (KEYS), the renderers and their lines
ENGINE="$(find $N/engine $N/render -name '*.c' ! -name keys.c | sort | tr '\n' ' ') $N/text/lines.c"
CFLAGS="-g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -fno-omit-frame-pointer
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I$N -I$F
  $(pkg-config --cflags libcjson) ${FUZZ_EXTRA_CFLAGS:-}"
LIBS="$(pkg-config --libs libcjson)"

sources_of() {
  case "$1" in
    fuzz_request | fuzz_answers | fuzz_json_tree) echo "$CORE $TEXT" ;; # result.c sanitizes who answered (qt_sanitize)
    fuzz_decoder) echo "$KEYS $N/text/buf.c $N/text/utf8.c" ;;
    fuzz_session) echo "$CORE $TEXT $KEYS $ENGINE" ;;
    fuzz_oom) echo "$CORE $TEXT $KEYS $ENGINE $F/fuzz_alloc.c" ;;
    *) return 1 ;;
  esac
}
flags_of() {
  case "$1" in
    fuzz_oom) echo "-include $F/fuzz_alloc.h" ;; # every malloc of the core may fail
    fuzz_answers) echo "-DQT_MAX_RESULT_TEXT_BYTES=4096" ;; # inputs this short still reach the cap of the model's text
  esac
}
maxlen_of() {
  case "$1" in
    fuzz_session) echo 2048 ;; # each byte is a step, each step a frame: keep inputs short
    *) echo 8192 ;;
  esac
}

mkdir -p "$OUT/logs" || die "cannot create $OUT"
failed=()
summary=()

# ---- build -----------------------------------------------------------------------------------
# At most JOBS background jobs at once: waits for one to end while JOBS run.
throttle() { while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done; }

build_one() {
  local t=$1
  echo "fuzz: building $t"
  # shellcheck disable=SC2086
  "$CC" $CFLAGS $(flags_of "$t") "$F/$t.c" $(sources_of "$t") $LIBS -o "$OUT/$t" 2>"$OUT/logs/$t.build.log"
}
built=()
for t in $TARGETS; do
  src=$(sources_of "$t") || die "unknown target $t (known: $ALL_TARGETS)"
  missing=""
  for f in $src; do [ -f "$f" ] || missing="$missing $f"; done
  if [ -n "$missing" ]; then
    echo "fuzz: $t: cannot build, missing:$missing" >&2
    failed+=("$t (build)")
    continue
  fi
  rm -f "$OUT/$t"
  built+=("$t")
  throttle
  { build_one "$t" || rm -f "$OUT/$t"; } & # judged by the binary being there: none after a failed build
done
wait
for t in "${built[@]}"; do
  if [ ! -x "$OUT/$t" ]; then
    cat "$OUT/logs/$t.build.log" >&2
    failed+=("$t (build)")
  fi
done

# ---- regressions, then fuzzing -----------------------------------------------------------------
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

# Fuzzes one target; its summary line goes to logs/<target>.summary, and what a crash left
# (the report and how to reproduce it) to logs/<target>.crash, printed once every job is done.
fuzz_one() {
  local t=$1 bin="$OUT/$1" reg="$F/regressions/$1" work="$OUT/corpus/$1" log="$OUT/logs/$1.log"
  local dict=() before rc execs rate rss cov corp new
  mkdir -p "$work"
  case "$t" in fuzz_request | fuzz_json_tree | fuzz_answers | fuzz_oom | fuzz_session) dict=(-dict="$F/fuzz.dict") ;; esac
  before=$(ls "$reg" | sort)
  echo "fuzz: running $t for ${SECONDS_PER_TARGET}s"
  nice -n 5 "$bin" -max_total_time="$SECONDS_PER_TARGET" -timeout=30 -rss_limit_mb=2560 -max_len="$(maxlen_of "$t")" \
    -print_final_stats=1 -artifact_prefix="$reg/" "${dict[@]}" "$work" "$F/corpus/$t" >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
  corp=$(ls "$work" | wc -l)
  printf '%-14s %10s execs %7s exec/s  %-22s corpus %5s  peak %s MB' "$t" "${execs:-?}" "${rate:-?}" "${cov:-cov: ?}" \
    "$corp" "${rss:-?}" >"$OUT/logs/$t.summary"
  if [ $rc -ne 0 ]; then
    new=$(comm -13 <(echo "$before") <(ls "$reg" | sort) | sed "s|^|$reg/|")
    {
      echo "fuzz: CRASH in $t (exit $rc); kept: ${new:-none}"
      grep -E -A20 "fuzz invariant failed|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error" "$log" | head -40
      for f in $new; do echo "  reproduce: $bin $f"; done
      echo "  full log: $log"
    } >"$OUT/logs/$t.crash"
  fi
}

fuzzed=()
for t in $TARGETS; do
  bin="$OUT/$t"
  [ -x "$bin" ] || continue
  reg="$F/regressions/$t"
  mkdir -p "$reg"
  bad=0
  for f in "$reg"/*; do
    [ -f "$f" ] || continue
    if ! "$bin" "$f" >"$OUT/logs/$t.regression.log" 2>&1; then
      echo "fuzz: REGRESSION $t fails on $f" >&2
      grep -E -A12 "fuzz invariant failed|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error" \
        "$OUT/logs/$t.regression.log" | head -16 >&2
      echo "  reproduce: $bin $f" >&2
      bad=1
    fi
  done
  if [ $bad -ne 0 ]; then
    failed+=("$t (regression)")
    summary+=("$(printf '%-14s %s' "$t" "regression inputs fail: not fuzzed")")
    continue
  fi
  [ "${FUZZ_BUILD_ONLY:-0}" = 1 ] && { summary+=("$(printf '%-14s %s' "$t" "regressions pass")"); continue; }
  rm -f "$OUT/logs/$t.summary" "$OUT/logs/$t.crash"
  fuzzed+=("$t")
  throttle
  fuzz_one "$t" &
done
wait
for t in "${fuzzed[@]}"; do
  summary+=("$(cat "$OUT/logs/$t.summary" 2>/dev/null || printf '%-14s %s' "$t" "no summary: the fuzzer did not finish")")
  if [ -f "$OUT/logs/$t.crash" ]; then
    cat "$OUT/logs/$t.crash" >&2
    failed+=("$t (crash)")
  elif [ ! -f "$OUT/logs/$t.summary" ]; then
    failed+=("$t (no summary)")
  fi
done

echo
echo "fuzz: summary (${SECONDS_PER_TARGET}s per target)"
for line in "${summary[@]}"; do echo "  $line"; done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: all targets clean"
