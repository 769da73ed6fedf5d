#!/usr/bin/env bash
# Installs the Debian 12 packages DDP Desk needs. Idempotent: a no-op when all are present, and `apt-get update` runs
# at most once. Run as root (or with sudo available).
#   install-deps.sh          what building and running the three programs needs (the demo: installer/demo.sh)
#   install-deps.sh --tests  that plus what only the test suite needs (installer/test.sh): the Python reference,
#                            Open MPI, Xvfb, the mingw-w64/wine leg, NSIS, clang-format, clang-14 and libFuzzer
#                            (the sanitizer leg, installer/sanitize.sh), ...
#
# Standard output: nothing (callers parse none); progress and apt's output go to stderr.
set -euo pipefail
exec 1>&2

PACKAGES=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-charts-dev libqt6opengl6-dev libxkbcommon-dev libvulkan-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-translations-l10n libgl-dev
  libtorch-dev libgloo-dev nlohmann-json3-dev libcli11-dev zlib1g-dev
  dataset-fashion-mnist
)
TEST_PACKAGES=(
  git python3 python3-torch
  openmpi-bin xvfb xauth imagemagick fonts-noto-cjk nsis p7zip-full
  g++-mingw-w64-x86-64 wine64 iproute2 procps dpkg-dev file clang-format
  clang-14 libfuzzer-14-dev
)
case "${1:-}" in
  "") ;;
  --tests) PACKAGES+=("${TEST_PACKAGES[@]}") ;;
  *)
    echo "install-deps: unknown argument '$1' (none: the programs' packages; --tests: also the test suite's)"
    exit 2
    ;;
esac

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "install-deps: done"
