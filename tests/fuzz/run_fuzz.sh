#!/usr/bin/env bash
# fuzz.NAME in the fuzz build (tests/fuzz/CMakeLists.txt): runs one libFuzzer target over each of its crash
# regressions (tests/fuzz/regressions/NAME/*, each once), then fuzzes for SECONDS over a copy of its seed corpus
# (tests/fuzz/corpus/NAME/): nothing is written into the source tree. A crash's input is kept in
# ARTIFACTS/NAME/ (the build folder), named in the output, to be added to the regressions once understood.
#
#   run_fuzz.sh FUZZER NAME SOURCE_DIR ARTIFACTS [SECONDS]
#
# Standard output: libFuzzer's report and this script's verdict lines (ctest shows them).
set -uo pipefail
fuzzer="$1" name="$2" src="$3" artifacts="$4" seconds="${5:-10}"
work=$(mktemp -d "${TMPDIR:-/tmp}/ddpdesk-fuzz-$name.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The targets' own scratch files go into the folder removed above.
export TMPDIR="$work"
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:handle_abort=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
exec 2>&1

keep() { # the inputs libFuzzer saved (crash-*, leak-*, timeout-*, oom-*) -> ARTIFACTS/NAME/
  mkdir -p "$artifacts/$name"
  for f in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* "$work"/slow-unit-*; do
    [ -e "$f" ] || continue
    cp "$f" "$artifacts/$name/"
    echo "fuzz.$name: kept $artifacts/$name/$(basename "$f") (to keep it as a regression:" \
      "cp it to $src/regressions/$name/)"
  done
}

failed=0
shopt -s nullglob
regressions=("$src/regressions/$name"/*)
for r in "${regressions[@]}"; do
  if ! "$fuzzer" -timeout=25 -rss_limit_mb=2048 -artifact_prefix="$work/" "$r" >"$work/regression.log" 2>&1; then
    cat "$work/regression.log"
    echo "FAIL: fuzz.$name: regression $(basename "$r") crashes (tests/fuzz/regressions/$name/$(basename "$r"))"
    failed=$((failed + 1))
  fi
done
echo "fuzz.$name: ${#regressions[@]} regression(s) run, $failed failed"

mkdir -p "$work/corpus"
cp -r "$src/corpus/$name/." "$work/corpus/" 2>/dev/null || true
seeds=$(find "$work/corpus" -type f | wc -l)
rc=0
# JSON's tokens of every type (json.dict): a wrong-typed field is found in seconds, not by chance.
"$fuzzer" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2048 -print_final_stats=1 -dict="$src/json.dict" \
  -artifact_prefix="$work/" "$work/corpus" || rc=$?
if [ "$rc" -ne 0 ]; then
  keep
  echo "FAIL: fuzz.$name: the target failed (exit $rc) after ${seconds} s over $seeds seed(s)"
  exit 1
fi
[ "$failed" -eq 0 ] || exit 1
echo "fuzz.$name: no crash in ${seconds} s from $seeds seed(s); corpus grew to $(find "$work/corpus" -type f | wc -l)"
