#!/bin/sh
# Renders docs/screenshots/*.png: starts the real GUI under Xvfb, which tours every page during a real 2-worker run
# (setup, invalid setup, run, logs, a failing run, doctor, a 1,2 sweep, history, then setup, invalid setup, doctor,
# run and a failing run in Japanese), then exits.
#   tests/ui/screenshots.sh [BUILD_DIR] [OUT_DIR]
# BUILD_DIR defaults to build-ui, OUT_DIR to docs/screenshots. Needs xvfb-run and a built ddpdesk + ddpdesk-worker
# ($DDPDESK_WORKER, when set, names the worker to use).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-ui}
out=${2:-$root/docs/screenshots}
gui=$build/bin/ddpdesk
worker=${DDPDESK_WORKER:-$build/bin/ddpdesk-worker}
for f in "$gui" "$worker"; do
  [ -x "$f" ] || { echo "screenshots.sh: $f is missing; build the ddpdesk and ddpdesk-worker targets" >&2; exit 2; }
done
command -v xvfb-run >/dev/null || { echo "screenshots.sh: xvfb-run not found (apt-get install xvfb)" >&2; exit 2; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Private settings so the tour never touches the user's own; a fixed DPI and font for stable pictures.
export XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" DDPDESK_WORKER="$worker"
export QT_QPA_PLATFORM=xcb QT_FONT_DPI=96
timeout 600 xvfb-run -a -s "-screen 0 1400x900x24" "$gui" --lang en --screenshot-dir "$tmp/png"
# Keep the committed PNGs small: re-encode as 8-bit palette images where ImageMagick is present.
for p in "$tmp"/png/*.png; do
  name=$(basename "$p")
  if command -v convert >/dev/null; then
    convert "$p" -strip -colors 256 PNG8:"$out/$name"
  else
    cp "$p" "$out/$name"
  fi
done
ls -l "$out"
