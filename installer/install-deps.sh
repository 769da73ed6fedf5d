#!/usr/bin/env bash
# Installs every Debian 12 package DDP Desk needs to build, test and demo. Idempotent: a no-op when all are present,
# and `apt-get update` runs at most once. Run as root (or with sudo available).
#
# Standard output: nothing (callers parse none); progress and apt's output go to stderr.
set -euo pipefail
exec 1>&2

PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  qt6-base-dev qt6-charts-dev libqt6opengl6-dev libxkbcommon-dev libvulkan-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-translations-l10n libgl-dev
  libtorch-dev libgloo-dev nlohmann-json3-dev libcli11-dev
  dataset-fashion-mnist python3 python3-torch
  openmpi-bin xvfb xauth imagemagick fonts-noto-cjk nsis p7zip-full
  zlib1g-dev g++-mingw-w64-x86-64 wine64 iproute2 procps dpkg-dev file clang-format
)

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
