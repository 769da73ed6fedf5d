#!/usr/bin/env bash
# The sanitizer leg's build (issue 42): configures and builds build-asan/ with clang-14, AddressSanitizer, UBSan
# and libFuzzer (-DDDPDESK_FUZZ=ON, tests/fuzz/fuzz_build.cmake): the libFuzzer targets (fuzz_*) and the net,
# protocol and node-link tests, from the plain-C++ libraries (and the launcher's, for three targets) only; no
# LibTorch, no GUI. The main suite runs them as fuzz.<name> and asan.<area> (tests/fuzz/sanitized.sh), which
# fail when this build failed: the outcome is written to build-asan/ddpdesk-sanitize-status ("ok" or why not).
# installer/test.sh runs it after the main build; needs clang-14 and libfuzzer-14-dev (install-deps.sh --tests).
#   sanitize.sh [CMAKE_ARGS...]    extra arguments go to CMake's configure
#
# Standard output: nothing (callers parse none); CMake's and the compiler's output go to stderr.
set -uo pipefail
exec 1>&2
cd "$(dirname "$0")/.."
dir=build-asan
mkdir -p "$dir"
status() { echo "$1" >"$dir/ddpdesk-sanitize-status"; }
status "building (installer/sanitize.sh did not finish)"
gen=()
command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
if [ ! -f "$dir/CMakeCache.txt" ] || [ $# -gt 0 ]; then
  if ! cmake -S . -B "$dir" "${gen[@]}" -DDDPDESK_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++-14 \
    -DCMAKE_BUILD_TYPE=Release "$@"; then
    status "configuring $dir failed (installer/sanitize.sh's output says why)"
    echo "sanitize: configuring $dir failed"
    exit 1
  fi
fi
if ! cmake --build "$dir" --parallel "$(nproc)"; then
  status "building $dir failed (installer/sanitize.sh's output says why)"
  echo "sanitize: building $dir failed"
  exit 1
fi
status ok
echo "sanitize: $dir built: $(find "$dir/bin" -maxdepth 1 -name 'fuzz_*' -type f | wc -l) fuzz targets"
