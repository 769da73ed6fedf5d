#!/usr/bin/env bash
# Configures and builds DDP Desk into build/ (executables in build/bin/). Extra arguments go to CMake's configure.
#
# Standard output: nothing (callers parse none); CMake's and the compiler's output go to stderr.
set -euo pipefail
exec 1>&2
cd "$(dirname "$0")/.."
gen=()
command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
# Arguments reconfigure an existing build folder too (installer/test.sh passes the PyTorch 2.x peer's paths).
if [ ! -f build/CMakeCache.txt ] || [ $# -gt 0 ]; then
  cmake -S . -B build "${gen[@]}" -DCMAKE_BUILD_TYPE=Release "$@"
fi
cmake --build build --parallel "$(nproc)"
