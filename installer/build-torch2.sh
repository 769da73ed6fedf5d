#!/usr/bin/env bash
# Builds the Qt-free configuration (core/protocol, core/train, ddpdesk-worker) against LibTorch 2.6 inside the
# PyTorch 2.x root (installer/torch2-root.sh) into build-torch2/. The torch2 tests use both printed paths.
#
# Standard output: exactly two lines, the root's python3 wrapper and a wrapper that runs build-torch2's
# ddpdesk-worker inside the root (installer/test.sh reads them). Progress, build output and errors go to stderr.
set -euo pipefail
# Only the result lines may reach the caller's standard output (fd 3); whatever else anything here prints goes to stderr.
exec 3>&1 1>&2
cd "$(dirname "$0")/.."
here="$PWD"
mapfile -t printed < <(bash installer/torch2-root.sh)
python="${printed[0]:-}"
if [ "${#printed[@]}" -ne 1 ] || [ ! -x "$python" ]; then
  echo "build-torch2: installer/torch2-root.sh should print one line, its python3 wrapper; it printed ${#printed[@]}:" \
    "$(printf '[%s] ' "${printed[@]}")" >&2
  exit 1
fi
run="$(dirname "$python")/torch2-run"
if [ ! -f build-torch2/CMakeCache.txt ]; then
  "$run" cmake -S "$here" -B "$here/build-torch2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDDPDESK_WITH_QT=OFF
fi
start=$(date +%s)
"$run" cmake --build "$here/build-torch2" --parallel "$(nproc)"
echo "build-torch2: built against LibTorch 2.x in $(($(date +%s) - start)) s"
worker="$here/build-torch2/ddpdesk-worker-in-torch2-root"
cat >"$worker" <<WRAP
#!/usr/bin/env bash
exec "$run" "$here/build-torch2/bin/ddpdesk-worker" "\$@"
WRAP
chmod 0755 "$worker"
printf '%s\n%s\n' "$python" "$worker" >&3
