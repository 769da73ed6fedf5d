#!/usr/bin/env bash
# Configures and builds DDP Desk into build/ (executables in build/bin/). Extra arguments go to CMake's configure.
#   build.sh [CMAKE_ARGS...]             everything: the programs, the test suite, the benchmarks (installer/test.sh)
#   build.sh --programs [CMAKE_ARGS...]  only ddpdesk, ddpdesk-cli and ddpdesk-worker (installer/demo.sh); a build
#                                        folder made this way has the tests switched off until build.sh runs without
#                                        --programs, which switches them on again
#
# Standard output: nothing (callers parse none); CMake's and the compiler's output go to stderr.
set -euo pipefail
exec 1>&2
cd "$(dirname "$0")/.."
programs=0
if [ "${1:-}" = --programs ]; then
  programs=1
  shift
fi
gen=()
command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
tests_now=$(sed -n 's/^DDPDESK_BUILD_TESTS:BOOL=//p' build/CMakeCache.txt 2>/dev/null || true)
if [ "$programs" = 1 ]; then
  # A folder configured before keeps its tests (the next full build needs no second configure).
  [ -f build/CMakeCache.txt ] || set -- -DDDPDESK_BUILD_TESTS=OFF "$@"
  targets=(--target ddpdesk ddpdesk-cli ddpdesk-worker)
else
  [ "$tests_now" = OFF ] && set -- -DDDPDESK_BUILD_TESTS=ON "$@"
  targets=()
fi
# Arguments reconfigure an existing build folder too (installer/test.sh passes the PyTorch 2.x peer's paths).
if [ ! -f build/CMakeCache.txt ] || [ $# -gt 0 ]; then
  cmake -S . -B build "${gen[@]}" -DCMAKE_BUILD_TYPE=Release "$@"
fi
cmake --build build --parallel "$(nproc)" "${targets[@]}"
