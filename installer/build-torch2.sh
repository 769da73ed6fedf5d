#!/usr/bin/env bash
# Builds the Qt-free configuration (core/protocol, core/train, ddpdesk-worker) against the LibTorch of a PyTorch 2.x
# root (installer/torch2-root.sh; by default Debian unstable's 2.14, C++20) into build-torch2-SUITE/. The torch2
# tests use both printed paths. DDPDESK_TORCH2_SUITE (read by torch2-root.sh only) picks the root, and so the LibTorch.
#
# Standard output: exactly two lines, the root's python3 wrapper and a wrapper that runs that build's
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
# One build folder per suite (the root's stamp names it; torch2-root.sh alone holds the default): switching PyTorch
# releases never reuses a tree configured for another LibTorch.
root="$(dirname "$python")"
suite=$(cut -d' ' -f1 "${root%.bin}/.ddpdesk-torch2-ready" 2>/dev/null || true)
case "$suite" in sid | trixie) ;; *) suite=trixie ;; esac # a stamp of only packages: a trixie root of before
build="$here/build-torch2-$suite"
if [ ! -f "$build/CMakeCache.txt" ]; then
  "$run" cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDDPDESK_WITH_QT=OFF
fi
start=$(date +%s)
"$run" cmake --build "$build" --parallel "$(nproc)"
echo "build-torch2: built in $(($(date +%s) - start)) s"
worker="$build/ddpdesk-worker-in-torch2-root"
cat >"$worker" <<WRAP
#!/usr/bin/env bash
exec "$run" "$build/bin/ddpdesk-worker" "\$@"
WRAP
chmod 0755 "$worker"
# What it was built against, as the worker itself says (the same versions its hello event carries).
echo "build-torch2: $("$worker" --version 2>&1 | tr '\n' ' ')"
printf '%s\n%s\n' "$python" "$worker" >&3
