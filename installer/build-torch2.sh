#!/usr/bin/env bash
# Builds the Qt-free configuration (core/protocol, core/train, ddpdesk-worker) against LibTorch 2.6 inside the
# PyTorch 2.x root (installer/torch2-root.sh) into build-torch2/, and prints two lines: the root's python3 wrapper
# and a wrapper that runs build-torch2's ddpdesk-worker inside the root. The torch2 tests use both.
set -euo pipefail
cd "$(dirname "$0")/.."
here="$PWD"
python=$(bash installer/torch2-root.sh)
run="$(dirname "$python")/torch2-run"
if [ ! -f build-torch2/CMakeCache.txt ]; then
  "$run" cmake -S "$here" -B "$here/build-torch2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDDPDESK_WITH_QT=OFF >&2
fi
start=$(date +%s)
"$run" cmake --build "$here/build-torch2" --parallel "$(nproc)" >&2
echo "build-torch2: built against LibTorch 2.x in $(($(date +%s) - start)) s" >&2
worker="$here/build-torch2/ddpdesk-worker-in-torch2-root"
cat >"$worker" <<WRAP
#!/usr/bin/env bash
exec "$run" "$here/build-torch2/bin/ddpdesk-worker" "\$@"
WRAP
chmod 0755 "$worker"
echo "$python"
echo "$worker"
