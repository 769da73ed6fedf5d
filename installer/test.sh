#!/usr/bin/env bash
# Quick start (2): install what is missing, build, and run the whole test suite. CI runs exactly this.
# The suite includes the PyTorch 2.x leg (ctest label torch2): a Debian 13 root with PyTorch/LibTorch 2.6
# (installer/torch2-root.sh, cached in /var/cache/ddpdesk) and ddpdesk-worker built against it in build-torch2/.
# DDPDESK_SKIP_TORCH2=1 leaves that leg out (the torch2 tests are then not registered).
#
# Standard output: ctest's report (CI reads its closing lines). Installing, building and progress go to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "test: $*" >&2; }
bash installer/install-deps.sh >&2
torch2_args=(-DDDPDESK_TORCH2_PYTHON= -DDDPDESK_TORCH2_WORKER=)
if [ "${DDPDESK_SKIP_TORCH2:-0}" != 1 ]; then
  start=$(date +%s)
  mapfile -t torch2 < <(bash installer/build-torch2.sh)
  if [ "${#torch2[@]}" -ne 2 ] || [ ! -x "${torch2[0]}" ] || [ ! -x "${torch2[1]}" ]; then
    say "the PyTorch 2.x peer could not be made: installer/build-torch2.sh should print two executable paths;" \
      "it printed ${#torch2[@]} line(s): $(printf '[%s] ' "${torch2[@]}")"
    exit 1
  fi
  torch2_args=(-DDDPDESK_TORCH2_PYTHON="${torch2[0]}" -DDDPDESK_TORCH2_WORKER="${torch2[1]}")
  say "PyTorch 2.x peer (root + worker build) ready in $(($(date +%s) - start)) s"
fi
start=$(date +%s)
bash installer/build.sh "${torch2_args[@]}" >&2
say "built in $(($(date +%s) - start)) s"
export QT_QPA_PLATFORM=offscreen
ctest --test-dir build --output-on-failure --timeout 1200 -j "$(nproc)"
