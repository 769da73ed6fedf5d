#!/usr/bin/env bash
# Quick start (1): install what is missing, build, and run the demo job: a real 2-worker DDP training of the
# Fashion-MNIST CNN over Gloo with a FileStore. With a display the GUI opens and starts the demo; headless it runs
# through ddpdesk-cli with live progress and ends with the test accuracy.
#
# Standard output: the demo's own (ddpdesk-cli's progress and report); installing and building go to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
bash installer/install-deps.sh >&2
bash installer/build.sh >&2
out="${DDPDESK_DEMO_OUT:-$PWD/build/demo-run}"
rm -rf "$out"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -z "${DDPDESK_HEADLESS:-}" ]; then
  exec build/bin/ddpdesk --demo
fi
exec build/bin/ddpdesk-cli run --workload fashion-mnist --nproc 2 --epochs "${DDPDESK_DEMO_EPOCHS:-2}" --out "$out"
