#!/usr/bin/env bash
# installer.bundle_linux: the portable Linux bundle (installer/bundle-linux.sh, issue 40 point 2) on other
# distributions than the Debian 12 it is built on, with nothing installed for it:
#  - Debian 13 (the torch2_6 root, Python only: no Qt, no X libraries, no fonts): ddpdesk-cli --version,
#    ddpdesk-cli gpus (no GPU: it says so and exits as the CLI here does), a --script run whose ranks must load the
#    system's libraries (the bundle's library path must not reach the processes it starts), the bundle's fontconfig
#    picking the bundle's fonts, an offscreen GUI screenshot that is a real picture with text in it, and the GUI
#    started through the xcb platform plugin on an Xvfb display (where Xvfb is);
#  - Debian unstable (the torch2 root, the only one with a ddpdesk-worker built inside it against its own LibTorch
#    2.14): ddpdesk-cli --version and a 2-rank CPU run of that worker, which must finish with identical parameters on
#    both ranks and must not see the bundle's libraries (the worker loads its own LibTorch's libstdc++ and libgomp).
# It also checks the script's refusals (a foreign tarball, a missing build folder).
#
#   bundle_linux.sh SOURCE_DIR BUILD_DIR [TORCH2_PYTHON] [TORCH2_WORKER] [TORCH2_6_PYTHON]
# The last three are the cache variables DDPDESK_TORCH2_PYTHON, DDPDESK_TORCH2_WORKER and DDPDESK_TORCH2_6_PYTHON
# (installer/test.sh sets them); empty ones fall back to the default roots under /var/cache/ddpdesk and to the
# worker DDPDESK_BUNDLE_TEST_WORKER names or SOURCE_DIR/build-torch2-sid/bin/ddpdesk-worker. Exit 77 (skipped) when
# the Debian 13 root is absent, or when no worker built in a root is found (after every other check has passed).
# Everything is made in one temporary folder under /tmp (which the roots share), removed at the end; nothing is
# written inside the roots.
set -euo pipefail
src="$1"
build="$2"
torch2_python="${3:-}"
torch2_worker="${4:-}"
torch2_6_python="${5:-}"
say() { echo "bundle_linux: $*" >&2; }
fail() {
  say "FAIL: $*"
  exit 1
}
NAME=ddpdesk-linux-x86_64

# The roots' entry wrappers (installer/torch2-root.sh): they make the mounts under the roots' mount locks.
trixie_run="/var/cache/ddpdesk/torch2-root.bin/torch2-run"
[ -n "$torch2_6_python" ] && trixie_run="$(dirname "$torch2_6_python")/torch2-run"
sid_run="/var/cache/ddpdesk/torch2-sid-root.bin/torch2-run"
[ -n "$torch2_python" ] && sid_run="$(dirname "$torch2_python")/torch2-run"
if [ "$(id -u)" -ne 0 ]; then
  say "SKIP: entering the roots needs root (chroot, bind mounts)"
  exit 77
fi
trixie_root="$(dirname "$trixie_run")"
trixie_root="${trixie_root%.bin}"
if [ ! -x "$trixie_run" ] || [ ! -f "$trixie_root/.ddpdesk-torch2-ready" ]; then
  say "SKIP: no Debian 13 root at $trixie_root (installer/torch2-root.sh with DDPDESK_TORCH2_SUITE=trixie makes it)"
  exit 77
fi
grep -q '^VERSION_ID="13"' "$trixie_root/etc/os-release" ||
  fail "$trixie_root is not Debian 13: $(grep PRETTY_NAME "$trixie_root/etc/os-release")"
for p in ddpdesk ddpdesk-cli; do
  [ -x "$build/bin/$p" ] || fail "$build/bin/$p is missing: build the ddpdesk and ddpdesk-cli targets"
done

tmp=$(mktemp -d /tmp/ddpdesk-bundle-test.XXXXXX)
xvfb_pid=""
gui_pid=""
# The GUI is not this shell's child (see 4.): it is stopped by its pid and waited for until it is gone.
stop_gui() {
  [ -n "$gui_pid" ] || return 0
  kill "$gui_pid" 2>/dev/null || true
  for _ in $(seq 50); do
    kill -0 "$gui_pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$gui_pid" 2>/dev/null && kill -9 "$gui_pid" 2>/dev/null
  gui_pid=""
}
cleanup() {
  stop_gui
  if [ -n "$xvfb_pid" ]; then
    kill "$xvfb_pid" 2>/dev/null || true
    wait "$xvfb_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
start=$(date +%s)

# 1. The script: its refusals first (they cost nothing), then the bundle of this build, into a build folder of this
#    test's own (its bin/ links to the real programs), so a tarball in BUILD_DIR is never touched.
mkdir -p "$tmp/build/bin"
ln -s "$(cd "$build/bin" && pwd)/ddpdesk" "$tmp/build/bin/ddpdesk"
ln -s "$(cd "$build/bin" && pwd)/ddpdesk-cli" "$tmp/build/bin/ddpdesk-cli"
rc=0
out=$(bash "$src/installer/bundle-linux.sh" "$tmp/no-such-build" 2>&1) || rc=$?
{ [ "$rc" = 2 ] && [[ "$out" == *"does not exist"* ]]; } || fail "a missing build folder: exit $rc, said: $out"
echo "someone else's" >"$tmp/build/$NAME.tar.xz"
rc=0
out=$(bash "$src/installer/bundle-linux.sh" "$tmp/build" 2>&1) || rc=$?
{ [ "$rc" = 2 ] && [[ "$out" == *"was not made by this script"* ]]; } || fail "a foreign tarball: exit $rc, said: $out"
[ "$(cat "$tmp/build/$NAME.tar.xz")" = "someone else's" ] || fail "the foreign tarball was changed"
rm "$tmp/build/$NAME.tar.xz"
t=$(date +%s)
printed=$(bash "$src/installer/bundle-linux.sh" "$tmp/build") || fail "installer/bundle-linux.sh failed"
tarball="$tmp/build/$NAME.tar.xz"
[ "$printed" = "$tarball" ] || fail "bundle-linux.sh printed '$printed', not the tarball's path $tarball"
say "bundle: $(du -k "$tarball" | cut -f1) KiB, made in $(($(date +%s) - t)) s"
mkdir "$tmp/u"
tar -C "$tmp/u" -xJf "$tarball"
b="$tmp/u/$NAME"
for f in bin/ddpdesk bin/ddpdesk-cli libexec/ddpdesk libexec/ddpdesk-cli libexec/qt.conf BUNDLE-INFO \
  plugins/platforms/libqxcb.so plugins/platforms/libqoffscreen.so fonts/DejaVuSans.ttf etc/fonts/fonts.conf \
  lib/libQt6Core.so.6 lib/libQt6Widgets.so.6; do
  [ -f "$b/$f" ] || fail "the bundle has no $f"
done
[ -n "$(find "$b/plugins/imageformats" -name '*.so' 2>/dev/null)" ] || fail "the bundle has no image format plugins"
bad=$(cd "$b" && find . \( -name 'ddpdesk-worker' -o -name 'libtorch*' -o -name 'libc10*' -o -name 'libc.so*' \
  -o -name 'ld-linux*' -o -name 'libm.so*' -o -name 'libpthread.so*' \) -print)
[ -z "$bad" ] || fail "the bundle carries what it must not: $bad"

# A clean environment, as on a fresh machine: no DISPLAY, no library or Qt paths; HOME and every cache in $tmp.
mkdir -m 0700 "$tmp/home" "$tmp/run"
clean=(env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$tmp/home" XDG_RUNTIME_DIR="$tmp/run"
  XDG_CONFIG_HOME="$tmp/home/config" XDG_CACHE_HOME="$tmp/home/cache" XDG_DATA_HOME="$tmp/home/data"
  TMPDIR="$tmp" LANG=C.UTF-8)
in_root() {
  local run="$1"
  shift
  (cd "$tmp" && "$run" "${clean[@]}" "$@")
}
# What could change inside the roots if something escaped $tmp: checked at the end.
touch "$tmp/stamp"

# 2. Debian 13: the command line.
[ -d "$trixie_root/usr/share/fonts" ] &&
  say "note: the Debian 13 root has fonts of its own; the screenshot proves less about the bundle's"
[ -e "$trixie_root/usr/lib/x86_64-linux-gnu/libQt6Core.so.6" ] &&
  say "note: the Debian 13 root has Qt of its own; the bundle's may not be what runs"
version=$(in_root "$trixie_run" "$b/bin/ddpdesk-cli" --version 2>&1) || fail "ddpdesk-cli --version in Debian 13: $version"
{ [[ "$version" == "ddpdesk-cli "* ]] && [[ "$version" == *"Qt: 6."* ]]; } ||
  fail "ddpdesk-cli --version in Debian 13 said: $version"
say "Debian 13: $(head -1 <<<"$version")"
host_rc=0
"$build/bin/ddpdesk-cli" gpus >/dev/null 2>&1 || host_rc=$?
rc=0
gpus=$(in_root "$trixie_run" "$b/bin/ddpdesk-cli" gpus 2>&1) || rc=$?
[ "$rc" = "$host_rc" ] || fail "ddpdesk-cli gpus exited $rc in Debian 13, $host_rc here; it said: $gpus"
if [ ! -e /dev/nvidiactl ]; then
  grep -qi "no GPU" <<<"$gpus" || fail "ddpdesk-cli gpus on a machine without GPU does not say so: $gpus"
fi
say "Debian 13: ddpdesk-cli gpus exits $rc: $(head -1 <<<"$gpus")"
# The processes the bundle's programs start load the system's libraries, not the bundle's (its library path is
# $ORIGIN-relative): a --script run whose ranks are a shell script in which grep (libpcre2, which the bundle carries
# too) reports where its libpcre2 came from.
cat >"$tmp/rank.sh" <<EOF
#!/bin/sh
grep -h 'libpcre2-8' /proc/self/maps >"$tmp/rank-maps.\$\$"
EOF
chmod 0755 "$tmp/rank.sh"
rc=0
out=$(in_root "$trixie_run" "$b/bin/ddpdesk-cli" run --nproc 2 --script "$tmp/rank.sh" --no-tensorboard \
  --out "$tmp/script-run" 2>&1) || rc=$?
maps=("$tmp"/rank-maps.*)
{ [ "$rc" = 0 ] && [ "${#maps[@]}" = 2 ] && [ -s "${maps[0]}" ]; } ||
  fail "a --script run in Debian 13 exited $rc, with ${#maps[@]} rank(s) reporting: $out"
if grep -F "$b/" "${maps[@]}"; then
  fail "a --script run's ranks loaded the bundle's libraries (above)"
fi
say "Debian 13: a --script run's ranks load the system's libraries: $(awk '{ print $NF }' "${maps[0]}" | head -1)"

# 3. Debian 13: the bundle's fontconfig with the bundle's fonts.conf finds the bundle's fonts (this root has none):
#    what sans-serif and monospace resolve to, through the root's python3 and ctypes.
#    (The script goes to a file first: a here-document cannot end outside the $(...) it feeds.) Only the bundle's
#    lib/ is on the path: Debian 13 has libexpat, and its python3 needs its own, newer one.
cat >"$tmp/fc.py" <<'PY'
import ctypes, sys
fc = ctypes.CDLL(sys.argv[1])
fc.FcInitLoadConfigAndFonts.restype = ctypes.c_void_p
fc.FcNameParse.restype = ctypes.c_void_p
fc.FcNameParse.argtypes = [ctypes.c_char_p]
fc.FcConfigSubstitute.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
fc.FcDefaultSubstitute.argtypes = [ctypes.c_void_p]
fc.FcFontMatch.restype = ctypes.c_void_p
fc.FcFontMatch.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
fc.FcPatternGetString.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
config = fc.FcInitLoadConfigAndFonts()
for name in (b"sans-serif", b"monospace"):
    pattern = fc.FcNameParse(name)
    fc.FcConfigSubstitute(config, pattern, 0)
    fc.FcDefaultSubstitute(pattern)
    result = ctypes.c_int()
    match = fc.FcFontMatch(config, pattern, ctypes.byref(result))
    path = ctypes.c_char_p()
    if not match or fc.FcPatternGetString(match, b"file", 0, ctypes.byref(path)) != 0:
        sys.exit("no font for %s" % name.decode())
    print("%s -> %s" % (name.decode(), path.value.decode()))
PY
fonts=$(in_root "$trixie_run" LD_LIBRARY_PATH="$b/lib" FONTCONFIG_FILE="$b/etc/fonts/fonts.conf" \
  python3 "$tmp/fc.py" "$b/lib/libfontconfig.so.1" 2>&1) || fail "fontconfig in Debian 13: $fonts"
if ! grep -q "^sans-serif -> $b/fonts/DejaVuSans.ttf\$" <<<"$fonts" ||
  ! grep -q "^monospace -> $b/fonts/DejaVuSansMono.ttf\$" <<<"$fonts"; then
  fail "fontconfig does not pick the bundle's fonts: $fonts"
fi
say "Debian 13: fontconfig: $(tr '\n' ' ' <<<"$fonts")"

# 4. Debian 13: the GUI offscreen, the screenshot tour's first pages (Setup). The tour goes on to start a run, which
#    fails here (no worker in this root), so the GUI is stopped once the Setup pictures are written.
mkdir "$tmp/png"
#    $! is only the subshell in front of it: the GUI writes its own pid (sh's, which execs down to libexec/ddpdesk
#    through the wrapper), so that stopping it stops the GUI itself.
# shellcheck disable=SC2016 # $$ and $@ are the inner sh's
in_root "$trixie_run" QT_QPA_PLATFORM=offscreen QT_FONT_DPI=96 DDPDESK_WORKER="$tmp/no-worker" \
  sh -c 'echo $$ >"$0" && exec "$@"' "$tmp/gui.pid" \
  "$b/bin/ddpdesk" --lang en --screenshot-dir "$tmp/png" >"$tmp/gui.log" 2>&1 &
front=$!
for _ in $(seq 600); do
  [ -s "$tmp/gui.pid" ] && gui_pid=$(cat "$tmp/gui.pid")
  [ -f "$tmp/png/setup-invalid.png" ] && break # written after setup.png: that one is complete
  kill -0 "$front" 2>/dev/null || break
  sleep 0.1
done
stop_gui
wait "$front" 2>/dev/null || true
[ -f "$tmp/png/setup-invalid.png" ] || fail "the offscreen GUI wrote no screenshot in 60 s; it said: $(cat "$tmp/gui.log")"
if grep -Ei "fontconfig (error|warning)|QFontDatabase|cannot find font|qt.qpa.plugin|could not (load|find) the Qt" \
  "$tmp/gui.log"; then
  fail "the GUI complained about fonts or plugins (above)"
fi
# A real picture: a window's size, many colours (anti-aliased text), no single colour covering nearly all of it.
python3 - "$tmp/png/setup.png" <<'PY' || fail "the screenshot is not a picture of the window (above)"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, hdr = 8, b"", None
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        hdr = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
w, h, depth, ctype = hdr[:4]
bpp = {2: 3, 6: 4}.get(ctype)
if depth != 8 or bpp is None:
    sys.exit("unexpected PNG layout: depth %d, colour type %d" % (depth, ctype))
raw, stride = zlib.decompress(idat), w * bpp
prev, counts = bytearray(stride), {}
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        px = bytes(line[x:x + 3])
        counts[px] = counts.get(px, 0) + 1
    prev = line
top = max(counts.values()) / (w * h)
print("screenshot: %dx%d, %d colours, the commonest covers %.0f%%" % (w, h, len(counts), top * 100))
if w < 800 or h < 500 or len(counts) < 64 or top > 0.95:
    sys.exit("too small, too few colours or nearly blank")
PY
say "Debian 13: offscreen screenshot $(du -k "$tmp/png/setup.png" | cut -f1) KiB"

# 5. Debian 13: the GUI through the xcb platform plugin, on an Xvfb display of this machine (its socket lives in /tmp,
#    which the root shares). --export-icon makes the whole QApplication on that display, paints and exits.
if command -v Xvfb >/dev/null; then
  exec 5>"$tmp/display"
  Xvfb -displayfd 5 -screen 0 1280x800x24 -nolisten tcp >"$tmp/xvfb.log" 2>&1 &
  xvfb_pid=$!
  exec 5>&-
  for _ in $(seq 100); do
    [ -s "$tmp/display" ] && break
    sleep 0.1
  done
  [ -s "$tmp/display" ] || fail "Xvfb did not start: $(cat "$tmp/xvfb.log")"
  rc=0
  xcb=$(in_root "$trixie_run" QT_QPA_PLATFORM=xcb DISPLAY=":$(cat "$tmp/display")" \
    "$b/bin/ddpdesk" --export-icon "$tmp/icon.png" 2>&1) || rc=$?
  { [ "$rc" = 0 ] && [ -s "$tmp/icon.png" ]; } || fail "the GUI on xcb (Xvfb) exited $rc: $xcb"
  kill "$xvfb_pid" 2>/dev/null || true
  wait "$xvfb_pid" 2>/dev/null || true
  xvfb_pid=""
  say "Debian 13: the GUI starts on xcb (Xvfb)"
else
  say "note: no Xvfb here (apt-get install xvfb): the xcb platform is not started"
fi

# 6. A 2-rank CPU run of a worker built against a root's own LibTorch. Debian 13's root is Python only (no
#    LibTorch headers, no compiler), so the worker is the one installer/build-torch2.sh builds inside the unstable
#    root, and the bundle's ddpdesk-cli runs there too, beside it.
worker=""
if [ -n "$torch2_worker" ]; then
  worker="$(dirname "$torch2_worker")/bin/ddpdesk-worker"
elif [ -n "${DDPDESK_BUNDLE_TEST_WORKER:-}" ]; then
  worker="$DDPDESK_BUNDLE_TEST_WORKER"
else
  worker="$src/build-torch2-sid/bin/ddpdesk-worker"
fi
sid_root="$(dirname "$sid_run")"
sid_root="${sid_root%.bin}"
if [ ! -x "$sid_run" ] || [ ! -f "$sid_root/.ddpdesk-torch2-ready" ] || [ ! -x "$worker" ]; then
  say "SKIP (after every other check passed, in $(($(date +%s) - start)) s): the 2-rank run needs the unstable root" \
    "($sid_root) and a ddpdesk-worker built in it ($worker; installer/build-torch2.sh makes both)"
  exit 77
fi
version=$(in_root "$sid_run" "$b/bin/ddpdesk-cli" --version 2>&1) || fail "ddpdesk-cli --version in unstable: $version"
say "Debian unstable: $(head -1 <<<"$version"); worker: $(in_root "$sid_run" "$worker" --version 2>&1 | head -2 |
  tr '\n' ' ')"
# The worker as the CLI starts it: a recorder of its environment in front of it.
cat >"$tmp/worker" <<EOF
#!/bin/sh
env >"$tmp/worker-env.\$\$"
exec "$worker" "\$@"
EOF
chmod 0755 "$tmp/worker"
t=$(date +%s)
rc=0
in_root "$sid_run" DDPDESK_WORKER="$tmp/worker" "$b/bin/ddpdesk-cli" run --nproc 2 --steps 20 --batch-size 32 \
  --no-tensorboard --out "$tmp/run" --json >"$tmp/run.json" 2>"$tmp/run.err" || rc=$?
[ "$rc" = 0 ] || fail "the 2-rank run exited $rc: $(tail -20 "$tmp/run.err")"
python3 - "$tmp/run.json" "$tmp/run/metrics.jsonl" <<'PY' || fail "the 2-rank run's results (above)"
import json, sys
s = json.load(open(sys.argv[1]))
ranks = s.get("ranks", [])
assert len(ranks) == 2, "ranks: %d" % len(ranks)
assert all(r.get("exit_code") == 0 and r.get("steps") == 20 for r in ranks), ranks
assert s.get("params_identical") is True, "params_identical: %r" % s.get("params_identical")
hellos = [json.loads(l) for l in open(sys.argv[2]) if '"hello"' in l]
hellos = [h for h in hellos if h.get("event") == "hello"]
torch = {h["versions"]["torch"] for h in hellos}
assert len(hellos) == 2 and len(torch) == 1 and not next(iter(torch)).startswith("1."), hellos
print("run: 2 ranks x 20 steps, identical parameters, LibTorch %s" % next(iter(torch)))
PY
envs=("$tmp"/worker-env.*)
[ -f "${envs[0]}" ] || fail "the run did not start the worker through DDPDESK_WORKER"
if grep -l "$NAME" "${envs[@]}"; then
  fail "the worker saw the bundle in its environment (above): $(grep -h "$NAME" "${envs[@]}" | sort -u)"
fi
say "Debian unstable: 2-rank run in $(($(date +%s) - t)) s; ${#envs[@]} worker(s) started with the user's environment"

# Nothing left inside the roots (their /tmp is this machine's, where $tmp lives).
left=$(find "$trixie_root/root" "$trixie_root/var/tmp" "$sid_root/root" "$sid_root/var/tmp" -newer "$tmp/stamp" \
  \( -iname '*ddpdesk*' -o -iname '*fontconfig*' -o -iname 'DDP Desk*' -o -iname 'runtime-*' \) 2>/dev/null || true)
[ -z "$left" ] || fail "files left inside a root: $left"
say "passed in $(($(date +%s) - start)) s"
