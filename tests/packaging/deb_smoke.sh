#!/usr/bin/env bash
# Usage: deb_smoke.sh BUILD_DIR VERSION
set -euo pipefail
build="$1"; version="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

(cd "$work" && cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/pkg" >"$work/cpack.log" 2>&1) \
  || { cat "$work/cpack.log"; fail "cpack could not build the Debian package"; }
deb="$work/pkg/ddpdesk_${version}_amd64.deb"
[ -f "$deb" ] || { ls -l "$work/pkg"; fail "expected $deb"; }
echo "built $(basename "$deb") ($(du -h "$deb" | cut -f1))"

info="$(dpkg-deb -I "$deb")"
echo "$info" | grep -E '^ (Package|Version|Depends):' || true
grep -q '^ Depends:.*libtorch' <<<"$info" || fail "Depends does not name the LibTorch runtime"
grep -q '^ Depends:.*libqt6' <<<"$info" || fail "Depends does not name the Qt runtime"

root="$work/root"
dpkg -x "$deb" "$root"
for exe in ddpdesk ddpdesk-cli ddpdesk-worker; do
  [ -x "$root/usr/bin/$exe" ] || fail "$exe missing from the package"
done
[ -f "$root/usr/share/applications/ddpdesk.desktop" ] || fail "desktop entry missing"

export QT_QPA_PLATFORM=offscreen
for exe in ddpdesk ddpdesk-cli ddpdesk-worker; do
  out="$("$root/usr/bin/$exe" --version)" || fail "$exe --version exited non-zero"
  echo "$out" | head -1
  grep -q "$version" <<<"$out" || fail "$exe --version does not print $version"
  grep -q "LibTorch" <<<"$out" || fail "$exe --version does not print the LibTorch version"
  grep -q "NVML" <<<"$out" || fail "$exe --version does not say whether NVML is available"
done

"$root/usr/bin/ddpdesk-cli" run --workload autoencoder --nproc 2 --steps 20 --out "$work/run" --json >"$work/summary.out" \
  || { cat "$work/summary.out"; fail "2-worker run from the unpacked package failed"; }
grep -q '"status": *"ok"' "$work/run/summary.json" || fail "summary.json does not say ok"
grep -q '"world_size": *2' "$work/run/summary.json" || fail "summary.json does not say world_size 2"
echo "2-worker run from the unpacked package: ok"
