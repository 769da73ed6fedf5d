#!/usr/bin/env bash
# Quick start (1): install what is missing, build, and run the demo job: a real 2-worker DDP training of the
# Fashion-MNIST CNN over Gloo with a FileStore. With a display the GUI opens and starts the demo; headless it runs
# through ddpdesk-cli with live progress and ends with the test accuracy. Only the three programs are built and only
# the packages they need are installed (the test suite's come with installer/test.sh).
#
# Standard output: the demo's own (ddpdesk-cli's progress and report); installing, building and the timings go to
# stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "demo: $*" >&2; }
begin=$(date +%s)
bash installer/install-deps.sh >&2
start=$(date +%s)
bash installer/build.sh --programs >&2
say "packages $((start - begin)) s, the three programs built in $(($(date +%s) - start)) s"
out="${DDPDESK_DEMO_OUT:-}"
if [ -z "$out" ]; then
  out="$PWD/build/demo-run"
  rm -rf "$out" # the demo's own folder; a folder you name keeps what is in it (a new run refuses your files there)
fi
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -z "${DDPDESK_HEADLESS:-}" ]; then
  exec build/bin/ddpdesk --demo
fi
# The time to the first training step, from the demo's start, as the run's own record shows it (metrics.jsonl).
(
  for _ in $(seq 1 1200); do
    if grep -q '"event":"step"' "$out/metrics.jsonl" 2>/dev/null; then
      say "first training step $(($(date +%s) - begin)) s after the demo started"
      exit 0
    fi
    sleep 0.5
  done
) &
watch=$!
rc=0
build/bin/ddpdesk-cli run --workload fashion-mnist --nproc 2 --epochs "${DDPDESK_DEMO_EPOCHS:-2}" --out "$out" || rc=$?
kill "$watch" 2>/dev/null || true
wait "$watch" 2>/dev/null || true
exit "$rc"
