#!/usr/bin/env bash
# fuzz.NAME and asan.AREA in the normal build (tests/fuzz/CMakeLists.txt): run the tests matching REGEX in the
# sanitizer build folder that installer/sanitize.sh makes (clang, ASan and UBSan, the fuzz targets). Exit 77
# (skipped) when that folder was never made; a failure when its last build failed (sanitize.sh says so in
# BUILD/ddpdesk-sanitize-status) or a test there fails.
#
#   sanitized.sh BUILD REGEX
#
# Standard output: the inner ctest's report (with its failures' output) and this script's verdict.
set -uo pipefail
build="$1" regex="$2"
if [ ! -f "$build/CTestTestfile.cmake" ]; then
  echo "SKIP: no sanitizer build in $build (installer/sanitize.sh makes it; installer/test.sh runs that)"
  exit 77
fi
status=$(cat "$build/ddpdesk-sanitize-status" 2>/dev/null || echo ok)
if [ "$status" != ok ]; then
  echo "FAIL: the sanitizer build in $build failed: $status"
  exit 1
fi
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
exec ctest --test-dir "$build" --output-on-failure --no-tests=error -R "$regex"
