#!/usr/bin/env bash
# GPU check for DDP Desk, for a machine with an NVIDIA GPU and a Python with a CUDA PyTorch wheel.
#
#   tests/gpu/device-check.sh --pack          on a Debian machine with libcli11-dev, nlohmann-json3-dev and
#                                             libgloo-dev: copies their headers into tests/gpu/vendor/ (CLI11 and
#                                             nlohmann-json with CMake config shims, Gloo's in vendor/gloo-include),
#                                             so they travel with this script (the GPU machine has no Debian packages;
#                                             a pip torch's LibTorch has c10d's headers but not Gloo's)
#   tests/gpu/device-check.sh [options]       on the GPU machine, from the repository root:
#       1. builds ddpdesk-worker (DDPDESK_WITH_QT=OFF, DDPDESK_BUILD_TESTS=OFF) against the LibTorch inside the
#          installed wheel (torch.utils.cmake_prefix_path), with the vendored CLI11 / nlohmann-json headers, the
#          vendored Gloo headers (-DGLOO_INCLUDE_DIR; CMake prefers the LibTorch's own where it has them), the
#          wheel's C++ ABI (torch._C._GLIBCXX_USE_CXX11_ABI) passed to every target, plus a small GPU probe that
#          prints what `ddpdesk-cli gpus --json` prints (core/monitor, NVML loaded at run time), without Qt;
#       2. lists the GPUs: `ddpdesk-cli gpus --json` when a working ddpdesk-cli exists, else the probe, else
#          `nvidia-smi --query-gpu` (the report says which);
#       3. trains the autoencoder for --steps steps: 1 rank on cuda:0, then 2 ranks sharing cuda:0 (FileStore in a
#          temporary folder), sampling NVML's compute processes meanwhile; checks that every rank exits 0, the
#          loss falls, and NVML shows memory for every rank's pid (both on the same GPU); then 2 ranks with
#          --precision fp16 (autocast + dynamic loss scaling; bf16 in a CPU dry run): identical parameters on both
#          ranks and a loss scale in every step;
#       4. writes a Markdown report to $OUT/gpu-check-report.md when $OUT is set, else ./gpu-check-report.md
#          (and, with $OUT, the raw telemetry and logs under $OUT/gpu-check-logs/).
#   tests/gpu/device-check.sh --cpu-dry-run   all of the above on --device cpu; the CUDA and NVML checks are skipped
#                                             (and said to be) -- for machines without a GPU.
#
# Options:
#   --python PY        Python with torch (default: $PYTHON, else python3, else python)
#   --build-dir DIR    CMake build folder (default: a new folder under ${TMPDIR:-/tmp}; reused when given)
#   --steps N          optimizer steps per run (default 2000 on GPU, 300 with --cpu-dry-run)
#   --jobs N           parallel compile jobs (default: all cores)
#   --report FILE      where the report goes (default above)
#   --cli PATH         ddpdesk-cli to try for the GPU listing (default: $DDPDESK_CLI, else ddpdesk-cli on PATH)
#   --worker PATH      use this ddpdesk-worker instead of building one (the probe is then not built either)
#   --configure-check  with --worker: still configure a build folder as step 1 does (vendored headers, Gloo
#                      headers, the LibTorch found against the Python's), without compiling (CI's dry run)
#   --system-deps      find CLI11 / nlohmann-json the normal way instead of tests/gpu/vendor
#   --build-timeout S  bound for configure + build (default 3600); --run-timeout S: per training job (default 600)
#   --keep             keep the temporary work folder
#
# Exit status: 0 all checks passed; 1 a check failed (the report says which); 2 the check could not run
# (bad usage, missing tool, configure/build failure). Every wait is bounded by `timeout`.

set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
VENDOR=${DDPDESK_GPU_VENDOR:-$HERE/vendor}

MODE=gpu
PY=${PYTHON:-}
BUILD_DIR=""
STEPS=""
JOBS=""
REPORT=""
CLI=${DDPDESK_CLI:-}
WORKER=""
SYSTEM_DEPS=0
CONFIGURE_CHECK=0
BUILD_TIMEOUT=3600
RUN_TIMEOUT=600
KEEP=0
MIN_DROP=0.2        # the loss must fall by at least this fraction (mean of the first steps vs the last steps)
SAMPLE_INTERVAL=0.2 # seconds between NVML samples during a run

log() { printf 'device-check: %s\n' "$*" >&2; }
die() { printf 'device-check: error: %s\n' "$*" >&2; exit 2; }
need_value() { [[ $# -ge 2 && -n $2 ]] || die "$1 needs a value (see --help)"; }

while [[ $# -gt 0 ]]; do
  case $1 in
    --pack) MODE=pack ;;
    --cpu-dry-run) MODE=cpu ;;
    --python) need_value "$@"; PY=$2; shift ;;
    --build-dir) need_value "$@"; BUILD_DIR=$2; shift ;;
    --steps) need_value "$@"; STEPS=$2; shift ;;
    --jobs) need_value "$@"; JOBS=$2; shift ;;
    --report) need_value "$@"; REPORT=$2; shift ;;
    --cli) need_value "$@"; CLI=$2; shift ;;
    --worker) need_value "$@"; WORKER=$2; shift ;;
    --system-deps) SYSTEM_DEPS=1 ;;
    --configure-check) CONFIGURE_CHECK=1 ;;
    --build-timeout) need_value "$@"; BUILD_TIMEOUT=$2; shift ;;
    --run-timeout) need_value "$@"; RUN_TIMEOUT=$2; shift ;;
    --keep) KEEP=1 ;;
    -h|--help) sed -n '2,/^$/{s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
  shift
done
for v in STEPS JOBS BUILD_TIMEOUT RUN_TIMEOUT; do
  [[ -z ${!v} || ${!v} =~ ^[1-9][0-9]*$ ]] || die "--$(tr 'A-Z_' 'a-z-' <<<"$v") must be a positive whole number"
done

# ---------------------------------------------------------------------------------------------------------------
# --pack: vendor the two header-only libraries with minimal CMake package configs
# ---------------------------------------------------------------------------------------------------------------
write_version_file() { # FILE VERSION
  cat >"$1" <<EOF
# Written by tests/gpu/device-check.sh --pack. Same major version and at least the version asked for.
set(PACKAGE_VERSION "$2")
string(REGEX MATCH "^[0-9]+" _ddpdesk_major "\${PACKAGE_VERSION}")
if(PACKAGE_FIND_VERSION AND (PACKAGE_VERSION VERSION_LESS PACKAGE_FIND_VERSION
                             OR NOT PACKAGE_FIND_VERSION_MAJOR STREQUAL _ddpdesk_major))
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
  if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
endif()
EOF
}

write_config_file() { # FILE PACKAGE TARGET VERSION
  cat >"$1" <<EOF
# Written by tests/gpu/device-check.sh --pack: $2 $4 as headers only, in ../../include beside this file.
get_filename_component(_ddpdesk_vendor_include "\${CMAKE_CURRENT_LIST_DIR}/../../include" ABSOLUTE)
set($2_VERSION "$4")
if(NOT TARGET $3)
  add_library($3 INTERFACE IMPORTED)
  set_target_properties($3 PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "\${_ddpdesk_vendor_include}")
endif()
set($2_FOUND TRUE)
EOF
}

pack() {
  local cli_src=${CLI11_INCLUDE:-/usr/include/CLI} json_src=${NLOHMANN_INCLUDE:-/usr/include/nlohmann}
  local gloo_src=${GLOO_INCLUDE:-/usr/include/gloo}
  [[ -f $cli_src/CLI.hpp ]] || die "no CLI11 headers at $cli_src (Debian: apt-get install libcli11-dev; or set CLI11_INCLUDE)"
  [[ -f $json_src/json.hpp ]] || die "no nlohmann-json headers at $json_src (Debian: apt-get install nlohmann-json3-dev; or set NLOHMANN_INCLUDE)"
  [[ -f $gloo_src/algorithm.h && -f $gloo_src/config.h ]] ||
    die "no Gloo headers at $gloo_src (Debian: apt-get install libgloo-dev; or set GLOO_INCLUDE to a gloo/ folder)"
  local cli_version json_version major minor patch
  cli_version=$(sed -n 's/^#define CLI11_VERSION "\([0-9.]*\)".*/\1/p' "$cli_src/Version.hpp" | head -1)
  major=$(grep -rhoE '#define NLOHMANN_JSON_VERSION_MAJOR [0-9]+' "$json_src" | head -1 | awk '{print $3}')
  minor=$(grep -rhoE '#define NLOHMANN_JSON_VERSION_MINOR [0-9]+' "$json_src" | head -1 | awk '{print $3}')
  patch=$(grep -rhoE '#define NLOHMANN_JSON_VERSION_PATCH [0-9]+' "$json_src" | head -1 | awk '{print $3}')
  json_version=$major.$minor.$patch
  [[ -n $cli_version && -n $major && -n $minor && -n $patch ]] ||
    die "could not read the versions (CLI11 '$cli_version', nlohmann-json '$json_version')"

  local tmp="$VENDOR.tmp.$$"
  rm -rf "$tmp"
  mkdir -p "$tmp/include" "$tmp/cmake/CLI11" "$tmp/cmake/nlohmann_json" "$tmp/licenses" "$tmp/gloo-include"
  cp -RL "$cli_src" "$tmp/include/CLI"
  cp -RL "$json_src" "$tmp/include/nlohmann"
  # Gloo's headers in a folder of their own, passed as GLOO_INCLUDE_DIR: on the include path they bring nothing else.
  cp -RL "$gloo_src" "$tmp/gloo-include/gloo"
  write_config_file "$tmp/cmake/CLI11/CLI11Config.cmake" CLI11 CLI11::CLI11 "$cli_version"
  write_version_file "$tmp/cmake/CLI11/CLI11ConfigVersion.cmake" "$cli_version"
  write_config_file "$tmp/cmake/nlohmann_json/nlohmann_jsonConfig.cmake" nlohmann_json nlohmann_json::nlohmann_json "$json_version"
  write_version_file "$tmp/cmake/nlohmann_json/nlohmann_jsonConfigVersion.cmake" "$json_version"
  local pkg
  for pkg in libcli11-dev nlohmann-json3-dev libgloo-dev; do
    [[ -f /usr/share/doc/$pkg/copyright ]] && cp "/usr/share/doc/$pkg/copyright" "$tmp/licenses/$pkg.copyright"
  done
  {
    echo "Vendored by tests/gpu/device-check.sh --pack on $(date -u +%Y-%m-%dT%H:%M:%SZ) from $(hostname)."
    echo "CLI11 $cli_version from $cli_src"
    echo "nlohmann-json $json_version from $json_src"
    echo "Gloo headers from $gloo_src (gloo-include/, for -DGLOO_INCLUDE_DIR)"
    command -v dpkg-query >/dev/null && dpkg-query -W libcli11-dev nlohmann-json3-dev libgloo-dev 2>/dev/null || true
  } >"$tmp/VERSIONS.txt"
  rm -rf "$VENDOR"
  mv "$tmp" "$VENDOR"
  log "vendored CLI11 $cli_version, nlohmann-json $json_version and Gloo's headers into $VENDOR ($(du -sh "$VENDOR" | cut -f1))"
}

if [[ $MODE == pack ]]; then
  pack
  exit 0
fi

# ---------------------------------------------------------------------------------------------------------------
# Set-up
# ---------------------------------------------------------------------------------------------------------------
[[ -f $REPO/CMakeLists.txt && -d $REPO/core/train ]] || die "$REPO does not look like the DDP Desk repository"
command -v timeout >/dev/null || die "the 'timeout' command (coreutils) is needed"
if [[ -z $PY ]]; then
  if command -v python3 >/dev/null; then PY=python3; elif command -v python >/dev/null; then PY=python; else
    die "no python3/python on PATH; pass --python PY (a Python with torch installed)"
  fi
fi
[[ -z $STEPS ]] && { [[ $MODE == gpu ]] && STEPS=2000 || STEPS=300; }
[[ -z $JOBS ]] && JOBS=$(nproc 2>/dev/null || echo 2)
if [[ -z $REPORT ]]; then
  if [[ -n ${OUT:-} ]]; then REPORT=$OUT/gpu-check-report.md; else REPORT=$PWD/gpu-check-report.md; fi
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ddpdesk-gpu-check.XXXXXX")
[[ -z $BUILD_DIR ]] && BUILD_DIR=$WORK/build
mkdir -p "$BUILD_DIR" "$WORK/jobs"
BUILD_DIR=$(cd "$BUILD_DIR" && pwd)
BG_PIDS=()
cleanup() {
  local rc=$? p
  for p in "${BG_PIDS[@]:-}"; do
    [[ -n $p ]] && kill "$p" 2>/dev/null || true
  done
  if [[ $KEEP == 1 || $rc != 0 ]]; then log "work folder kept: $WORK"; else rm -rf "$WORK"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

VERSIONS=$WORK/versions.tsv
: >"$VERSIONS"
version() { printf '%s\t%s\n' "$1" "$2" >>"$VERSIONS"; }
version mode "$([[ $MODE == gpu ]] && echo "GPU" || echo "CPU dry run (CUDA and NVML checks skipped)")"
version host "$(hostname 2>/dev/null || echo unknown)"
version date "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
version repository "$REPO"

# The device both runs use: cuda:0 of what CUDA_VISIBLE_DEVICES leaves, ordered like NVML (by PCI bus id). Only
# the first visible GPU stays visible to the ranks, so two ranks (local ranks 0 and 1) share it.
export CUDA_DEVICE_ORDER=PCI_BUS_ID
if [[ $MODE == gpu ]]; then
  RANK_GPU=${CUDA_VISIBLE_DEVICES:-0}
  RANK_GPU=${RANK_GPU%%,*}
  [[ -n $RANK_GPU ]] || die "CUDA_VISIBLE_DEVICES is set but empty: no GPU visible"
  export CUDA_VISIBLE_DEVICES=$RANK_GPU
  DEVICE=cuda
else
  DEVICE=cpu
fi

# ---------------------------------------------------------------------------------------------------------------
# Python / torch facts
# ---------------------------------------------------------------------------------------------------------------
log "asking $PY about torch (bounded: 180 s)"
cat >"$WORK/torch_facts.py" <<'EOF'
import os, platform, sys
import torch, torch.utils
inc = os.path.join(os.path.dirname(torch.__file__), "include")
facts = {
    "python": "%s (%s)" % (platform.python_version(), sys.executable),
    "torch": torch.__version__,
    "torch_cmake_prefix": torch.utils.cmake_prefix_path,
    "torch_cxx11_abi": int(bool(torch._C._GLIBCXX_USE_CXX11_ABI)),
    "torch_cuda": torch.version.cuda or "none",
    "torch_cudnn": (torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None) or "none",
    "torch_gloo_headers": "yes" if os.path.isdir(os.path.join(inc, "gloo")) else "not in " + inc,
    "cuda_available": int(torch.cuda.is_available()),
}
if torch.cuda.is_available():
    facts["cuda_device_count"] = torch.cuda.device_count()
    p = torch.cuda.get_device_properties(0)
    facts["cuda0_name"] = p.name
    facts["cuda0_memory_gib"] = "%.1f" % (p.total_memory / 2**30)
    facts["cuda0_capability"] = "%d.%d" % (p.major, p.minor)
for k, v in facts.items():
    print("%s\t%s" % (k, v))
EOF
"$PY" -c 'import sys; sys.exit(0)' 2>/dev/null || die "cannot run '$PY'"
if ! timeout 180 "$PY" "$WORK/torch_facts.py" >"$WORK/torch_facts.tsv" 2>"$WORK/torch_facts.err"; then
  cat "$WORK/torch_facts.err" >&2
  die "'$PY' could not import torch (or took over 180 s); pass --python with a Python that has PyTorch"
fi
cat "$WORK/torch_facts.tsv" >>"$VERSIONS"
fact() { awk -F'\t' -v k="$1" '$1 == k { print $2; exit }' "$WORK/torch_facts.tsv"; }
TORCH_VERSION=$(fact torch)
TORCH_PREFIX=$(fact torch_cmake_prefix)
TORCH_ABI=$(fact torch_cxx11_abi)
TORCH_CUDA=$(fact torch_cuda)
log "torch $TORCH_VERSION, CUDA $TORCH_CUDA, _GLIBCXX_USE_CXX11_ABI=$TORCH_ABI, cmake prefix $TORCH_PREFIX"
if [[ $MODE == gpu ]]; then
  [[ $TORCH_CUDA != none ]] || die "torch $TORCH_VERSION in '$PY' is a CPU-only build; install a CUDA wheel (or use --cpu-dry-run)"
  [[ $(fact cuda_available) == 1 ]] ||
    die "torch sees no CUDA device (CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES; driver loaded? nvidia-smi?)"
fi

# ---------------------------------------------------------------------------------------------------------------
# 1. Build ddpdesk-worker (Qt off) and the GPU probe
# ---------------------------------------------------------------------------------------------------------------
CXX_BIN=""
GLOO_HEADERS=""
GLOO_DIR=""
same_dir() { [[ -d $1 && -d $2 && $(cd "$1" && pwd -P) == "$(cd "$2" && pwd -P)" ]]; }
build_worker() { # [configure-only]
  local configure_only=${1:-}
  command -v cmake >/dev/null || die "cmake is needed to build ddpdesk-worker (pip install cmake gives one)"
  local gen=() deps=() cuda=() gloo=()
  if command -v ninja >/dev/null; then gen=(-G Ninja); elif command -v make >/dev/null; then gen=(-G "Unix Makefiles"); else
    die "neither ninja nor make found (pip install ninja gives one)"
  fi
  if [[ $SYSTEM_DEPS == 0 ]]; then
    [[ -f $VENDOR/cmake/CLI11/CLI11Config.cmake && -f $VENDOR/cmake/nlohmann_json/nlohmann_jsonConfig.cmake ]] ||
      die "no vendored headers in $VENDOR: run 'tests/gpu/device-check.sh --pack' on a machine with libcli11-dev and nlohmann-json3-dev and bring tests/gpu/vendor along, or pass --system-deps"
    deps=(-DCLI11_DIR="$VENDOR/cmake/CLI11" -Dnlohmann_json_DIR="$VENDOR/cmake/nlohmann_json")
    version vendored_headers "$(grep -E '^(CLI11|nlohmann-json|Gloo) ' "$VENDOR/VERSIONS.txt" | paste -sd ';' | sed 's/;/; /g')"
    # A pip torch's LibTorch has no Gloo headers: the pack's go in as GLOO_INCLUDE_DIR (CMake still prefers the
    # LibTorch's own where it has them). A pack made before Gloo was packed has none: CMake then looks in the system.
    if [[ -f $VENDOR/gloo-include/gloo/algorithm.h ]]; then
      gloo=(-DGLOO_INCLUDE_DIR="$VENDOR/gloo-include")
    else
      log "warning: $VENDOR has no gloo-include/ (packed before Gloo's headers were); re-run --pack on Debian with libgloo-dev if the configure stops for them"
    fi
  else
    version vendored_headers "not used (--system-deps)"
  fi
  if [[ ! -f $TORCH_PREFIX/Torch/TorchConfig.cmake ]]; then
    log "warning: torch.utils.cmake_prefix_path ($TORCH_PREFIX) has no Torch/TorchConfig.cmake (a distribution's torch rather than a wheel?); CMake searches its default places"
  fi
  local nvcc=""
  if [[ $TORCH_CUDA != none ]]; then
    local c
    for c in "${CUDACXX:-}" "${CUDA_HOME:+$CUDA_HOME/bin/nvcc}" "${CUDA_PATH:+$CUDA_PATH/bin/nvcc}" \
             "$(command -v nvcc || true)" "/usr/local/cuda-$TORCH_CUDA/bin/nvcc" /usr/local/cuda/bin/nvcc; do
      if [[ -n $c && -x $c ]]; then nvcc=$c; break; fi
    done
    if [[ -n $nvcc ]]; then
      local root; root=$(cd "$(dirname "$nvcc")/.." && pwd)
      cuda=(-DCUDAToolkit_ROOT="$root" -DCUDA_TOOLKIT_ROOT_DIR="$root" -DCMAKE_CUDA_COMPILER="$nvcc")
      version cuda_toolkit "$("$nvcc" --version | tail -1) ($nvcc)"
    else
      version cuda_toolkit "none found (nvcc)"
      log "warning: no CUDA toolkit (nvcc) found via CUDACXX, CUDA_HOME, CUDA_PATH, PATH or /usr/local/cuda; a CUDA wheel's CMake config usually needs one (torch.version.cuda=$TORCH_CUDA); trying anyway"
    fi
  fi
  # The wheel's ABI flag goes to every target, not only to those linking `torch` (TorchConfig.cmake sets it on the
  # torch target alone): ddpdesk_protocol and ddpdesk_monitor pass std::string across to ddpdesk_train.
  log "configuring $BUILD_DIR (log: $WORK/configure.log)"
  if ! timeout "$BUILD_TIMEOUT" cmake -S "$REPO" -B "$BUILD_DIR" "${gen[@]}" \
        -DDDPDESK_WITH_QT=OFF -DDDPDESK_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_PREFIX_PATH="$TORCH_PREFIX" -DCMAKE_CXX_FLAGS="-D_GLIBCXX_USE_CXX11_ABI=$TORCH_ABI" \
        -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "${deps[@]}" "${gloo[@]}" "${cuda[@]}" >"$WORK/configure.log" 2>&1; then
    tail -40 "$WORK/configure.log" >&2
    grep -q "Gloo's headers (gloo/algorithm.h) were not found" "$WORK/configure.log" &&
      log "hint: run 'tests/gpu/device-check.sh --pack' on a Debian machine with libgloo-dev and bring tests/gpu/vendor along (it passes vendor/gloo-include as GLOO_INCLUDE_DIR)"
    [[ $TORCH_CUDA != none && -z $nvcc ]] &&
      log "hint: LibTorch's CMake config (Caffe2/public/cuda.cmake) looks for the CUDA toolkit; install the toolkit for CUDA $TORCH_CUDA or point CUDA_HOME at it"
    die "configure failed (or exceeded ${BUILD_TIMEOUT}s); full log above: $WORK/configure.log"
  fi
  local found_torch
  found_torch=$(sed -n 's/.*DDP Desk: LibTorch \([^,]*\),.*/\1/p' "$WORK/configure.log" | head -1)
  log "CMake found LibTorch ${found_torch:-?} (torch in Python: $TORCH_VERSION)"
  # Release numbers only: a wheel's "2.11.0+cu130" and Debian's "1.13.0a0" are LibTorch 2.11.0 and 1.13.0 to CMake.
  [[ $found_torch == "$(sed -E 's/^([0-9]+(\.[0-9]+)*).*/\1/' <<<"$TORCH_VERSION")" ]] ||
    die "CMake found LibTorch '${found_torch}', not the $TORCH_VERSION of '$PY' (Torch_DIR: $(sed -n 's/^Torch_DIR:PATH=//p' "$BUILD_DIR/CMakeCache.txt"))"
  # Where CMake took Gloo's headers from (core/train/gloo_headers.cmake): the LibTorch's own, or the pack's.
  GLOO_HEADERS=$(sed -n 's/^-- DDP Desk: Gloo headers: //p' "$WORK/configure.log" | tail -1)
  [[ -n $GLOO_HEADERS ]] || die "the configure log does not say where Gloo's headers came from ('DDP Desk: Gloo headers: ...')"
  version gloo_headers "$GLOO_HEADERS"
  GLOO_DIR=${GLOO_HEADERS% (*}
  [[ -f $GLOO_DIR/gloo/algorithm.h ]] || die "CMake reports Gloo's headers in '$GLOO_DIR', which has no gloo/algorithm.h"
  if [[ ${#gloo[@]} -gt 0 && $GLOO_HEADERS != *"(LibTorch's own include folder)" ]] &&
     ! same_dir "$GLOO_DIR" "$VENDOR/gloo-include"; then
    die "CMake took Gloo's headers from $GLOO_HEADERS, neither the LibTorch's own nor the vendored $VENDOR/gloo-include"
  fi
  if [[ $configure_only == configure-only ]]; then
    version worker_build "configured in $BUILD_DIR (--configure-check), not compiled: the worker is --worker's"
    return 0
  fi
  local start=$SECONDS
  log "building ddpdesk-worker with $JOBS job(s) (log: $WORK/build.log)"
  if ! timeout "$BUILD_TIMEOUT" cmake --build "$BUILD_DIR" --target ddpdesk-worker ddpdesk_monitor ddpdesk_protocol \
        -j "$JOBS" >"$WORK/build.log" 2>&1; then
    grep -E 'error|Error' "$WORK/build.log" | head -20 >&2 || true
    tail -30 "$WORK/build.log" >&2
    die "build failed (or exceeded ${BUILD_TIMEOUT}s); full log: $WORK/build.log"
  fi
  version build_seconds "$((SECONDS - start)) (ddpdesk-worker + monitor, $JOBS jobs)"
  WORKER=$BUILD_DIR/bin/ddpdesk-worker
  [[ -x $WORKER ]] || die "the build succeeded but $WORKER is missing"

  # What the build really used: Torch config, compiler, ABI flag on every compile, where the JSON/CLI headers came from.
  local cache=$BUILD_DIR/CMakeCache.txt
  CXX_BIN=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$cache")
  version torch_cmake_dir "$(sed -n 's/^Torch_DIR:PATH=//p' "$cache")"
  version cmake "$(cmake --version | head -1)"
  version compiler "$("$CXX_BIN" --version | head -1)"
  local n_all n_abi
  n_all=$(grep -c '"command"' "$BUILD_DIR/compile_commands.json" || true)
  n_abi=$(grep '"command"' "$BUILD_DIR/compile_commands.json" | grep -c -- "-D_GLIBCXX_USE_CXX11_ABI=$TORCH_ABI" || true)
  if grep '"command"' "$BUILD_DIR/compile_commands.json" | grep -q -- "-D_GLIBCXX_USE_CXX11_ABI=$((1 - TORCH_ABI))"; then
    die "some compile commands carry -D_GLIBCXX_USE_CXX11_ABI=$((1 - TORCH_ABI)) while torch uses $TORCH_ABI"
  fi
  [[ $n_all -gt 0 && $n_abi == "$n_all" ]] ||
    die "only $n_abi of $n_all compile commands carry -D_GLIBCXX_USE_CXX11_ABI=$TORCH_ABI"
  version cxx11_abi_check "all $n_all compile commands use -D_GLIBCXX_USE_CXX11_ABI=$TORCH_ABI (= torch._C._GLIBCXX_USE_CXX11_ABI)"
  local used
  if [[ ${gen[1]} == Ninja ]]; then
    used=$( (cd "$BUILD_DIR" && timeout 60 ninja -t deps) | grep -oE '[^ ]*(nlohmann/json\.hpp|CLI/CLI\.hpp|gloo/algorithm\.h)$' | sort -u | paste -sd ' ' || true)
  else
    used=$(find "$BUILD_DIR" \( -name '*.d' -o -name 'compiler_depend.make' \) -print0 |
           xargs -0 grep -ohE '[^ ]*(nlohmann/json\.hpp|CLI/CLI\.hpp|gloo/algorithm\.h)' | sort -u | paste -sd ' ' || true)
  fi
  version headers_used "${used:-unknown}"
  local h
  for h in $used; do
    if [[ $h == */gloo/algorithm.h ]]; then
      # Gloo's header comes from where CMake said, whichever that was.
      same_dir "${h%/gloo/algorithm.h}" "$GLOO_DIR" || die "the build used $h, not the Gloo headers CMake chose ($GLOO_HEADERS)"
    elif [[ $SYSTEM_DEPS == 0 && $h != "$VENDOR"/* ]]; then
      die "the build used $h, not the vendored copy in $VENDOR"
    fi
  done
  [[ $used == *gloo/algorithm.h* ]] || die "no compile read gloo/algorithm.h (headers used: ${used:-unknown}); c10d_compat.cpp should"

  # The probe: `ddpdesk-cli gpus --json` without Qt (same library, same JSON: monitor::gpuReport).
  cat >"$WORK/gpu_probe.cpp" <<'EOF'
// Written by tests/gpu/device-check.sh: prints what `ddpdesk-cli gpus --json` prints, one line per sample.
#include "monitor/gpu_reader.h"
#include "monitor/monitor_events.h"
#include "protocol/telemetry.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <thread>

int main(int argc, char** argv) {
    double interval = 0.0;
    long count = 1;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--watch") && i + 1 < argc) {
            interval = std::atof(argv[++i]);
            count = 0;
        } else if (!std::strcmp(argv[i], "--count") && i + 1 < argc) {
            count = std::atol(argv[++i]);
        } else {
            std::cerr << "usage: ddpdesk-gpu-probe [--watch SECONDS [--count N]]\n";
            return 2;
        }
    }
    ddpdesk::monitor::GpuReader reader;
    for (long shown = 0; count == 0 || shown < count; ++shown) {
        if (shown) std::this_thread::sleep_for(std::chrono::duration<double>(interval));
        const double t = ddpdesk::protocol::nowSeconds();
        auto gpus = reader.sample();
        for (const auto& notice : reader.takeNotices()) std::cerr << "ddpdesk-gpu-probe: " << notice << "\n";
        std::cout << ddpdesk::monitor::gpuReport(reader.status(), gpus, t)
                         .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
                  << std::endl;
    }
    return 0;
}
EOF
  local inc=()
  [[ $SYSTEM_DEPS == 0 ]] && inc=(-isystem "$VENDOR/include")
  log "building the GPU probe (core/monitor without Qt)"
  if ! timeout 600 "$CXX_BIN" -std=c++17 -O1 -D_GLIBCXX_USE_CXX11_ABI="$TORCH_ABI" -I"$REPO/core" "${inc[@]}" \
        "$WORK/gpu_probe.cpp" "$BUILD_DIR/lib/libddpdesk_monitor.a" "$BUILD_DIR/lib/libddpdesk_protocol.a" \
        -ldl -pthread -o "$BUILD_DIR/bin/ddpdesk-gpu-probe" >"$WORK/probe-build.log" 2>&1; then
    cat "$WORK/probe-build.log" >&2
    die "the GPU probe did not build"
  fi
  PROBE=$BUILD_DIR/bin/ddpdesk-gpu-probe
}

PROBE=""
if [[ -n $WORKER ]]; then
  [[ -x $WORKER ]] || die "--worker $WORKER is not an executable"
  version worker_build "given with --worker (not built by this script)"
  if [[ $CONFIGURE_CHECK == 1 ]]; then build_worker configure-only; fi
else
  [[ $CONFIGURE_CHECK == 0 ]] || die "--configure-check goes with --worker (without it, step 1 configures and builds)"
  build_worker
fi
WORKER_VERSION=$(timeout 60 "$WORKER" --version 2>&1) || die "'$WORKER --version' failed: $WORKER_VERSION"
version worker "$WORKER"
version worker_version "$(paste -sd ';' <<<"$WORKER_VERSION" | sed 's/;/; /g')"
for line in LibTorch CUDA NCCL "Gloo headers"; do
  grep -q "^$line: " <<<"$WORKER_VERSION" ||
    die "'$WORKER --version' has no '$line: ' line (a worker older than this script?): $WORKER_VERSION"
done
if [[ $MODE == gpu ]]; then
  grep -q '^CUDA: compiled in' <<<"$WORKER_VERSION" ||
    die "this ddpdesk-worker has no CUDA (its --version says: $(grep '^CUDA' <<<"$WORKER_VERSION")); LibTorch found was CPU-only"
fi
if command -v ldd >/dev/null; then
  if ldd "$WORKER" 2>/dev/null | grep libtorch_cuda >/dev/null; then
    version worker_links_torch_cuda yes
  else
    version worker_links_torch_cuda no
  fi
fi

# ---------------------------------------------------------------------------------------------------------------
# 2. GPU listing: ddpdesk-cli, else the probe, else nvidia-smi
# ---------------------------------------------------------------------------------------------------------------
GPU_SOURCE=none
[[ -z $CLI ]] && CLI=$(command -v ddpdesk-cli || true)
if [[ -n $CLI ]] && timeout 30 "$CLI" gpus --json >"$WORK/gpus.json" 2>"$WORK/gpus.err" &&
   timeout 60 "$PY" -c 'import json,sys; json.load(open(sys.argv[1]))["gpus"]' "$WORK/gpus.json" 2>/dev/null; then
  GPU_SOURCE=ddpdesk-cli
  version gpu_listing "ddpdesk-cli gpus --json ($CLI)"
else
  [[ -n $CLI ]] && log "ddpdesk-cli at $CLI did not work here ($(head -c 300 "$WORK/gpus.err" 2>/dev/null | tr '\n' ' ')); falling back"
  if [[ -n $PROBE ]] && timeout 30 "$PROBE" >"$WORK/gpus.json" 2>"$WORK/gpus.err"; then
    GPU_SOURCE=probe
    version gpu_listing "ddpdesk-gpu-probe (core/monitor's gpuReport, the JSON of ddpdesk-cli gpus --json; no ddpdesk-cli here)"
  elif command -v nvidia-smi >/dev/null; then
    GPU_SOURCE=nvidia-smi
    version gpu_listing "nvidia-smi --query-gpu (neither ddpdesk-cli nor the probe available)"
  else
    version gpu_listing "none: no ddpdesk-cli, no probe, no nvidia-smi"
  fi
fi
if command -v nvidia-smi >/dev/null; then
  timeout 60 nvidia-smi --query-gpu=index,name,uuid,pci.bus_id,driver_version,memory.total,memory.used,compute_mode,mig.mode.current \
    --format=csv >"$WORK/nvidia-smi.csv" 2>&1 || log "warning: nvidia-smi --query-gpu failed: $(head -3 "$WORK/nvidia-smi.csv")"
fi
if [[ $MODE == gpu && $GPU_SOURCE == none ]]; then
  die "no way to read NVML here (no ddpdesk-cli, no probe, no nvidia-smi)"
fi

# ---------------------------------------------------------------------------------------------------------------
# 3. Training runs, with NVML sampled meanwhile
# ---------------------------------------------------------------------------------------------------------------
# The sampler: a small script of its own, so that `timeout` runs it in its own process group and a kill of that
# timeout ends it (and the program it runs) with nothing left over.
cat >"$WORK/sampler.sh" <<'EOF2'
#!/usr/bin/env bash
# sampler.sh SOURCE PROGRAM INTERVAL FILE: NVML samples until killed.
source=$1 program=$2 interval=$3 file=$4
case $source in
  ddpdesk-cli) exec "$program" gpus --json --watch --interval "$interval" >"$file" ;;
  probe) exec "$program" --watch "$interval" >"$file" ;;
  nvidia-smi)
    while :; do
      printf '# t %s\n' "$(date +%s.%N)"
      timeout 10 nvidia-smi --query-compute-apps=pid,used_memory,gpu_bus_id --format=csv,noheader,nounits || true
      sleep "$interval"
    done >"$file" ;;
esac
EOF2
case $GPU_SOURCE in
  ddpdesk-cli) SAMPLER_PROGRAM=$CLI ;;
  probe) SAMPLER_PROGRAM=$PROBE ;;
  *) SAMPLER_PROGRAM=nvidia-smi ;;
esac

run_job() { # NAME WORLD [worker flags]
  local name=$1 world=$2 dir=$WORK/jobs/$1 r rc
  shift 2
  mkdir -p "$dir/store" "$dir/out"
  local sampler=""
  if [[ $GPU_SOURCE != none ]]; then
    timeout $((RUN_TIMEOUT + 60)) bash "$WORK/sampler.sh" "$GPU_SOURCE" "$SAMPLER_PROGRAM" "$SAMPLE_INTERVAL" \
      "$dir/nvml.samples" </dev/null 2>"$dir/nvml.err" &
    sampler=$!
    BG_PIDS+=("$sampler")
    sleep 1 # a baseline sample before any rank starts
  fi
  date +%s.%N >"$dir/launch_t"
  log "job '$name': $world rank(s) on $DEVICE, $STEPS steps (bounded: ${RUN_TIMEOUT}s)"
  local pids=()
  for ((r = 0; r < world; r++)); do
    timeout --kill-after=10 "$RUN_TIMEOUT" "$WORKER" --workload autoencoder --device "$DEVICE" --steps "$STEPS" \
      --telemetry-ms 0 --seed 0 --rank "$r" --world-size "$world" --local-rank "$r" --local-world-size "$world" \
      --store "file:$dir/store/filestore" --timeout 120 --collective-timeout 120 --out "$dir/out" "$@" \
      </dev/null >"$dir/rank$r.jsonl" 2>"$dir/rank$r.log" &
    pids+=($!)
    BG_PIDS+=($!)
  done
  for ((r = 0; r < world; r++)); do
    rc=0
    wait "${pids[$r]}" || rc=$?
    echo "$rc" >"$dir/rc$r"
    if [[ $rc != 0 ]]; then
      log "job '$name' rank $r exited $rc$([[ $rc == 124 || $rc == 137 ]] && echo " (timed out after ${RUN_TIMEOUT}s)"); its log ends:"
      tail -15 "$dir/rank$r.log" >&2
    fi
  done
  date +%s.%N >"$dir/end_t"
  if [[ -n $sampler ]]; then
    sleep 0.5
    kill "$sampler" 2>/dev/null || true # timeout passes the signal on to the sampler's process group
    wait "$sampler" 2>/dev/null || true
  fi
  BG_PIDS=()
  return 0
}

run_job one-rank 1
run_job two-ranks 2
# Mixed precision: fp16 autocast with dynamic loss scaling needs CUDA; a CPU dry run checks bf16 instead.
run_job mixed-precision 2 --precision "$([[ $DEVICE == cuda ]] && echo fp16 || echo bf16)"

# ---------------------------------------------------------------------------------------------------------------
# 4. Checks and report
# ---------------------------------------------------------------------------------------------------------------
cat >"$WORK/analyze.py" <<'EOF'
import json, math, os, sys

work, mode, report_path, gpu_source, min_drop, steps = sys.argv[1:7]
min_drop, steps = float(min_drop), int(steps)
gpu = mode == "gpu"
jobs = [("one-rank", 1), ("two-ranks", 2), ("mixed-precision", 2)]
checks = []  # (status, text): PASS / FAIL / SKIPPED / NOTE

def check(ok, text):
    checks.append(("PASS" if ok else "FAIL", text))

versions = []
with open(os.path.join(work, "versions.tsv")) as f:
    for line in f:
        k, _, v = line.rstrip("\n").partition("\t")
        versions.append((k, v))

def events(path):
    out = []
    if not os.path.exists(path):
        return out
    with open(path, errors="replace") as f:
        for line in f:
            try:
                e = json.loads(line)
            except ValueError:
                continue
            if isinstance(e, dict) and "event" in e:
                out.append(e)
    return out

def read_samples(path, launch_t):
    """[(t, {pid: (gpu, bytes or None)})] from whichever source sampled NVML."""
    out = []
    if not os.path.exists(path):
        return out
    with open(path, errors="replace") as f:
        if gpu_source == "nvidia-smi":
            cur = None
            for line in f:
                line = line.strip()
                if line.startswith("# t "):
                    cur = (float(line[4:]), {})
                    out.append(cur)
                elif line and cur is not None and "," in line:
                    parts = [p.strip() for p in line.split(",")]
                    try:
                        mem = int(parts[1]) * 2**20
                    except ValueError:
                        mem = None
                    if parts[0].isdigit():
                        cur[1][int(parts[0])] = (parts[2] if len(parts) > 2 else "?", mem)
        else:
            for line in f:
                try:
                    doc = json.loads(line)
                except ValueError:
                    continue
                procs = {}
                for g in doc.get("gpus") or []:
                    for p in g.get("processes") or []:
                        procs[int(p["pid"])] = (g.get("index"), p.get("used_mem_bytes"))
                out.append((float(doc.get("t", 0)), procs))
    return out

def mib(b):
    return "n/a" if b is None else "%.0f MiB" % (b / 2**20)

runs, nvml_rows = [], []
for name, world in jobs:
    d = os.path.join(work, "jobs", name)
    per_rank = []
    for r in range(world):
        ev = events(os.path.join(d, "rank%d.jsonl" % r))
        rc_path = os.path.join(d, "rc%d" % r)
        rc = open(rc_path).read().strip() if os.path.exists(rc_path) else "?"
        hello = next((e for e in ev if e["event"] == "hello"), {})
        done = next((e for e in ev if e["event"] == "done"), None)
        errors = [e for e in ev if e["event"] == "error"]
        rdv = next((e for e in ev if e["event"] == "rendezvous" and e.get("phase") == "done"), {})
        losses = [e["loss"] for e in ev if e["event"] == "step" and isinstance(e.get("loss"), (int, float))]
        per_rank.append(dict(rank=r, rc=rc, pid=hello.get("pid"), done=done, errors=errors, losses=losses,
                             transport=rdv.get("grad_transport"), torch=(hello.get("versions") or {}).get("torch")))
        ok = rc == "0" and done is not None and not errors
        why = ""
        if errors:
            why = " (" + "; ".join("%s: %s" % (e.get("code"), e.get("message")) for e in errors) + ")"
        elif done is None:
            why = ", no done event"
        check(ok, "%s: rank %d exited %s%s" % (name, r, rc, why))
        n = len(losses)
        if n >= 2:
            k = max(1, min(20, n // 5))
            first, last = sum(losses[:k]) / k, sum(losses[-k:]) / k
            finite = all(math.isfinite(x) for x in losses)
            check(finite and last <= (1 - min_drop) * first,
                  "%s: rank %d loss falls: mean of first %d steps %.4g -> last %d steps %.4g (needs a %.0f%% drop)"
                  % (name, r, k, first, k, last, 100 * min_drop))
            per_rank[-1].update(first=first, last=last, k=k)
        else:
            check(False, "%s: rank %d reported %d step losses" % (name, r, n))
    if name == "mixed-precision":
        digests = {(p["done"] or {}).get("params_sha256") for p in per_rank}
        check(len(digests) == 1 and None not in digests,
              "%s: every rank ends with the same parameters (params_sha256 %s)" % (name, sorted(map(str, digests))))
        if gpu:  # fp16: the loss scaler reports its scale in every step event
            ev0 = events(os.path.join(d, "rank0.jsonl"))
            scales = [e.get("loss_scale") for e in ev0 if e["event"] == "step"]
            check(bool(scales) and all(isinstance(s, (int, float)) and s > 0 for s in scales),
                  "%s: fp16 steps report a loss scale (last %s, skipped steps %s)"
                  % (name, scales[-1] if scales else None, (per_rank[0]["done"] or {}).get("skipped_steps")))
    total_sps = sum((p["done"] or {}).get("samples_per_s") or 0 for p in per_rank)
    wall = max(((p["done"] or {}).get("wall_s") or 0) for p in per_rank)
    runs.append(dict(name=name, world=world, ranks=per_rank, total_sps=total_sps, wall=wall))

    # NVML: which of this job's pids held memory on which GPU
    if gpu_source == "none":
        continue
    launch_t = float(open(os.path.join(d, "launch_t")).read()) if os.path.exists(os.path.join(d, "launch_t")) else 0
    samples = read_samples(os.path.join(d, "nvml.samples"), launch_t)
    baseline = set()
    for t, procs in samples:
        if t < launch_t:
            baseline |= set(procs)
    during = [(t, p) for t, p in samples if t >= launch_t]
    seen = {}
    for t, procs in during:
        for pid, (g, mem) in procs.items():
            cur = seen.setdefault(pid, {"gpu": g, "max": None, "n": 0})
            cur["n"] += 1
            if mem is not None and (cur["max"] is None or mem > cur["max"]):
                cur["max"] = mem
    ours = {p["pid"]: p["rank"] for p in per_rank if p["pid"] is not None}
    runs[-1]["nvml_samples"] = len(during)
    if not gpu:
        checks.append(("SKIPPED", "%s: NVML readings for the ranks' pids (CPU dry run; %d NVML samples taken, "
                       "%d compute processes seen)" % (name, len(during), len(seen))))
        continue
    found = {pid: seen[pid] for pid in ours if pid in seen}
    new = {pid: v for pid, v in seen.items() if pid not in baseline and pid not in ours}
    for pid, rank in sorted(ours.items(), key=lambda x: x[1]):
        s = seen.get(pid)
        nvml_rows.append((name, rank, pid, s["gpu"] if s else "-", s["max"] if s else None, s["n"] if s else 0,
                          "" if s else "not among NVML's pids"))
    if len(found) == len(ours) == world:
        check(all(v["max"] for v in found.values()),
              "%s: NVML shows every rank's pid with memory (%s)" % (name, ", ".join(
                  "pid %d: %s on GPU %s" % (pid, mib(v["max"]), v["gpu"]) for pid, v in found.items())))
        if world > 1:
            gpus = {v["gpu"] for v in found.values()}
            check(len(gpus) == 1, "%s: all ranks on one GPU (NVML GPU(s) %s)" % (name, sorted(map(str, gpus))))
    elif not found and len(new) == world:
        # Containers: NVML reports host pids, the ranks see their own namespace's. Identified by elimination.
        for pid, v in new.items():
            nvml_rows.append((name, "?", pid, v["gpu"], v["max"], v["n"], "NVML pid (not the rank's own)"))
        checks.append(("PASS", "%s: NVML shows exactly %d new compute process(es) during the run, but under other "
                       "pids than the ranks' %s (a PID namespace, e.g. a container): matched by elimination"
                       % (name, world, sorted(ours))))
    else:
        check(False, "%s: NVML readings for the ranks' pids %s: found %s; %d sample(s) during the run saw pids %s "
              "(before launch: %s)" % (name, sorted(ours), sorted(found), len(during), sorted(seen), sorted(baseline)))

gj = os.path.join(work, "gpus.json")
if gpu and gpu_source in ("ddpdesk-cli", "probe"):
    try:
        nv = json.load(open(gj)).get("nvml", {})
        check(bool(nv.get("available")) and nv.get("device_count", 0) > 0,
              "NVML (%s): %s" % (gpu_source, "driver %s, %s GPU(s)" % (nv.get("driver"), nv.get("device_count"))
                                 if nv.get("available") else "not available: %s" % nv.get("reason")))
    except (OSError, ValueError) as e:
        check(False, "GPU listing %s unreadable: %s" % (gj, e))

failed = [c for c in checks if c[0] == "FAIL"]
L = []
L.append("# DDP Desk GPU check: %s" % ("PASSED" if not failed else "FAILED (%d check(s))" % len(failed)))
L.append("")
L.append("Written by `tests/gpu/device-check.sh`%s." % (" --cpu-dry-run" if not gpu else ""))
if not gpu:
    L.append("**CPU dry run: the CUDA and NVML parts are skipped; no GPU figures here.**")
L.append("")
L.append("## Versions and build")
L.append("")
L.append("| item | value |")
L.append("|---|---|")
for k, v in versions:
    L.append("| %s | %s |" % (k, v.replace("|", "\\|")))
L.append("")
L.append("## GPUs (source: %s)" % gpu_source)
L.append("")
gj = os.path.join(work, "gpus.json")
if gpu_source in ("ddpdesk-cli", "probe") and os.path.exists(gj):
    try:
        doc = json.load(open(gj))
        nv = doc.get("nvml", {})
        L.append("NVML: %s%s%s" % ("available" if nv.get("available") else "not available",
                                   ", driver %s" % nv["driver"] if nv.get("driver") else "",
                                   " (%s)" % nv["reason"] if nv.get("reason") else ""))
        L.append("")
        for g in doc.get("gpus", []):
            L.append("- GPU %s: %s, %s, %s of %s used, %s C, %s W" % (g.get("index"), g.get("name"), g.get("pci_bus_id"),
                     mib(g.get("mem_used_bytes")), mib(g.get("mem_total_bytes")), g.get("temperature_c"), g.get("power_w")))
    except ValueError as e:
        L.append("(could not read %s: %s)" % (gj, e))
smi = os.path.join(work, "nvidia-smi.csv")
if os.path.exists(smi):
    L.append("")
    L.append("nvidia-smi --query-gpu:")
    L.append("```")
    L.extend(open(smi, errors="replace").read().rstrip().splitlines())
    L.append("```")
elif gpu_source not in ("ddpdesk-cli", "probe"):
    L.append("(no listing)")
L.append("")
L.append("## Training (autoencoder, %d steps, batch 50 per rank, device %s)" % (steps, "cuda:0" if gpu else "cpu"))
L.append("")
L.append("| job | rank | pid | exit | loss start -> end | samples/s (rank) | grad transport | wall s |")
L.append("|---|---|---|---|---|---|---|---|")
for run in runs:
    for p in run["ranks"]:
        d = p["done"] or {}
        loss = "%.4g -> %.4g (means of %d steps)" % (p["first"], p["last"], p["k"]) if "first" in p else "n/a"
        sps = d.get("samples_per_s")
        L.append("| %s | %d | %s | %s | %s | %s | %s | %s |" % (run["name"], p["rank"], p["pid"], p["rc"], loss,
                 "%.0f" % sps if sps else "n/a", p["transport"] or "n/a",
                 "%.2f" % d["wall_s"] if d.get("wall_s") else "n/a"))
L.append("")
one = next(r for r in runs if r["world"] == 1)["total_sps"]
two = next(r for r in runs if r["world"] == 2)["total_sps"]
L.append("Samples/s, all ranks together: 1 rank %.0f, 2 ranks sharing the device %.0f (%.2fx)."
         % (one, two, two / one if one else float("nan")))
L.append("")
L.append("## NVML memory per pid")
L.append("")
if not gpu:
    L.append("Skipped (CPU dry run).")
elif not nvml_rows:
    L.append("No readings.")
else:
    L.append("| job | rank | pid | NVML GPU | max memory | samples | note |")
    L.append("|---|---|---|---|---|---|---|")
    for job, rank, pid, g, mem, n, note in nvml_rows:
        L.append("| %s | %s | %s | %s | %s | %d | %s |" % (job, rank, pid, g, mib(mem), n, note))
L.append("")
L.append("## Checks")
L.append("")
for status, text in checks:
    L.append("- **%s** %s" % (status, text))
if not gpu:
    L.append("- **SKIPPED** CUDA device use, NVML per-pid readings, GPU listing with a driver (CPU dry run)")
L.append("")
with open(report_path, "w") as f:
    f.write("\n".join(L))
for status, text in checks:
    print("%-7s %s" % (status, text), file=sys.stderr)
sys.exit(1 if failed else 0)
EOF

mkdir -p "$(dirname "$REPORT")"
rc=0
timeout 300 "$PY" "$WORK/analyze.py" "$WORK" "$MODE" "$REPORT" "$GPU_SOURCE" "$MIN_DROP" "$STEPS" || rc=$?
if [[ -n ${OUT:-} && -d ${OUT:-} ]]; then
  mkdir -p "$OUT/gpu-check-logs"
  cp -R "$WORK/jobs" "$OUT/gpu-check-logs/" 2>/dev/null || true
  rm -rf "$OUT/gpu-check-logs/jobs/"*/store "$OUT/gpu-check-logs/jobs/"*/out
  cp "$WORK"/*.log "$WORK"/*.tsv "$WORK"/gpus.json "$WORK"/nvidia-smi.csv "$OUT/gpu-check-logs/" 2>/dev/null || true
fi
case $rc in
  0) log "all checks passed; report: $REPORT" ;;
  1) log "some checks FAILED; report: $REPORT"; exit 1 ;;
  *) die "the analysis failed (exit $rc); raw files in $WORK" ;;
esac
