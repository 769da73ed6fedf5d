#!/usr/bin/env bash
# A portable Linux bundle of the GUI and the command line (issue 40 point 2): BUILD_DIR/ddpdesk-linux-x86_64.tar.xz
# holds ddpdesk and ddpdesk-cli with every shared library they need beyond glibc, the Qt plugins (xcb, offscreen and
# minimal platforms, the xcb GL integrations, image formats, input methods), Qt's Japanese translation, DejaVu fonts
# with a fontconfig file of its own, so it starts on another distribution without installing anything.
#
#   bash installer/bundle-linux.sh [BUILD_DIR]     BUILD_DIR defaults to build/ beside installer/; it must hold
#                                                  bin/ddpdesk and bin/ddpdesk-cli (the ddpdesk, ddpdesk-cli targets)
#   tar -xJf ddpdesk-linux-x86_64.tar.xz && ddpdesk-linux-x86_64/bin/ddpdesk
#
# Not in the bundle: ddpdesk-worker. It is built against the user's own LibTorch (docs: the worker builds against
# Debian's, the zip's or the one inside pip's torch); the bundle's programs take it from DDPDESK_WORKER or from
# `ddpdesk-worker` on PATH. ddpdesk and ddpdesk-cli themselves do not link LibTorch (checked below: a build that does
# stops here, because the bundle would then have to carry it).
#
# Relocation: RUNPATH would need patchelf (or chrpath, which cannot add a RUNPATH that is not there), which this
# project's machines do not install. So the real programs sit in libexec/ beside a qt.conf (Qt's plugin and
# translation folders, relative to the program), and bin/ddpdesk and bin/ddpdesk-cli are a small sh wrapper that sets
# LD_LIBRARY_PATH, QT_PLUGIN_PATH, FONTCONFIG_FILE and QT_QPA_FONTDIR from its own location and execs the real one.
# LD_LIBRARY_PATH is inherited by child processes (the worker, a --script run's python3), which must load their own
# libraries (the user's LibTorch, libgomp, libstdc++), never the bundle's. So its entries are '$ORIGIN/../lib...':
# ld.so expands $ORIGIN to the folder of each process's own program, which is the bundle only for libexec/ddpdesk*
# (for /usr/bin/python3 it names /usr/lib, the system's). The worker gets the user's environment back exactly: the
# wrapper points DDPDESK_WORKER at libexec/ddpdesk-worker-env, which restores it before it execs the real worker.
#
# Standard output: one line, the tarball's path. Progress and errors go to standard error.
set -euo pipefail
exec 3>&1 1>&2

NAME=ddpdesk-linux-x86_64
MARK="made by installer/bundle-linux.sh"
say() { echo "bundle-linux: $*" >&2; }
die() {
  say "$*"
  exit 2
}

case "${1:-}" in
  -h | --help)
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
esac
[ "$#" -le 1 ] || die "one argument at most, the build folder (got $#: $*)"
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build}"
[ -d "$build" ] || die "build folder '$build' does not exist (configure and build first: bash installer/build.sh)"
build="$(cd "$build" && pwd)"
for p in ddpdesk ddpdesk-cli; do
  [ -f "$build/bin/$p" ] && [ -x "$build/bin/$p" ] && continue
  die "$build/bin/$p is missing or not executable; build it: cmake --build '$build' --target $p"
done
[ "$(uname -m)" = x86_64 ] || die "this machine is $(uname -m); the bundle is x86_64 only"
for tool in ldd readelf tar xz; do
  command -v "$tool" >/dev/null || die "'$tool' not found (apt-get install binutils xz-utils)"
done

out="$build/$NAME.tar.xz"
# Only a tarball this script wrote is replaced: it carries BUNDLE-INFO with the mark.
if [ -L "$out" ] || { [ -e "$out" ] && [ ! -f "$out" ]; }; then
  die "$out exists and is not a plain file; not replacing it"
fi
if [ -f "$out" ] && ! tar -xJOf "$out" "$NAME/BUNDLE-INFO" 2>/dev/null | grep -qF "$MARK"; then
  die "$out exists and was not made by this script (no $NAME/BUNDLE-INFO saying so); move it away first"
fi

# Qt's plugin and translation folders, as the Qt the programs were built with reports them.
qt_query() {
  local v=""
  if command -v qtpaths6 >/dev/null; then
    v=$(qtpaths6 --query "$1" 2>/dev/null || true)
  fi
  if [ -z "$v" ] && command -v qmake6 >/dev/null; then
    v=$(qmake6 -query "$1" 2>/dev/null || true)
  fi
  echo "$v"
}
qt_plugins="${DDPDESK_QT_PLUGIN_DIR:-$(qt_query QT_INSTALL_PLUGINS)}"
qt_translations="$(qt_query QT_INSTALL_TRANSLATIONS)"
if [ -z "$qt_plugins" ] || [ ! -f "$qt_plugins/platforms/libqxcb.so" ]; then
  die "Qt's plugin folder not found (qtpaths6/qmake6 said '$qt_plugins'; no platforms/libqxcb.so there);" \
    "install qt6-base-dev-tools and qt6-qpa-plugins, or set DDPDESK_QT_PLUGIN_DIR"
fi
fonts_src="${DDPDESK_BUNDLE_FONTS:-/usr/share/fonts/truetype/dejavu}"
[ -f "$fonts_src/DejaVuSans.ttf" ] || die "no DejaVuSans.ttf in $fonts_src (apt-get install fonts-dejavu-core)"

start=$(date +%s)
stage=$(mktemp -d "$build/.bundle-linux.XXXXXX")
trap 'rm -rf "$stage"' EXIT
top="$stage/$NAME"
mkdir -p "$top"/{bin,libexec,lib/compat,lib/glvnd,lib/fallback,plugins,translations,fonts,etc/fonts,share/doc}

# What goes where. glibc and the kernel's vDSO stay the system's: the loader, libc and the libraries that come with
# it must be one set from one glibc (a bundled libc beside the system's ld-linux does not start). The GL dispatch
# libraries (glvnd: libEGL, libGLX, libOpenGL, libGLdispatch, libGL) choose the GPU vendor's driver at run time and
# must match the driver the machine has; bundled ones would hide the NVIDIA/Mesa driver set. They are carried in
# lib/glvnd only for machines that have none (a GPU server without a desktop; Qt's xcb/offscreen code links them),
# and the wrapper uses them only then. libdrm, libgbm and libvulkan belong to the driver too and are never carried.
# libstdc++ and libgcc_s go to lib/compat, used only where the system's is missing or older than the programs need:
# a newer system libstdc++ must win, or the system's own libraries loaded into the process (GL drivers) break.
# libexpat (a stable ABI, on nearly every system) goes to lib/fallback, used only where the system has none: Debian
# 12's needs glibc 2.36, and the system's copy lets the bundle start on glibc 2.35 (Ubuntu 22.04).
kind_of() {
  case "$1" in
    linux-vdso.so.* | ld-linux*.so.* | libc.so.* | libm.so.* | libmvec.so.* | libpthread.so.* | libdl.so.* | \
      librt.so.* | libresolv.so.* | libutil.so.* | libanl.so.* | libnsl.so.* | libBrokenLocale.so.* | \
      libthread_db.so.* | libc_malloc_debug.so.*)
      echo glibc ;;
    libdrm.so.* | libgbm.so.* | libvulkan.so.* | libnvidia-* | libcuda.so.*) echo driver ;;
    libEGL.so.* | libGLX.so.* | libOpenGL.so.* | libGLdispatch.so.* | libGL.so.* | libGLESv2.so.* | libGLESv1_CM.so.*)
      echo glvnd ;;
    libstdc++.so.* | libgcc_s.so.*) echo compat ;;
    libtorch* | libc10*) echo torch ;;
    libexpat.so.*) echo fallback ;;
    *) echo bundle ;;
  esac
}

declare -A libs=()    # soname -> path on this machine
declare -a elves=()   # every ELF file the bundle runs or loads (programs and plugins)
# Every library an ELF file needs, with the path this machine resolves it to (ldd's whole closure).
collect() {
  local f="$1" line name path
  elves+=("$f")
  if ! ldd "$f" >"$stage/ldd.txt" 2>&1; then
    die "ldd $f failed: $(head -3 "$stage/ldd.txt")"
  fi
  while read -r line; do
    case "$line" in
      *"=> not found"*) die "$f needs ${line%% *}, which this machine does not have" ;;
      *" => "/*)
        name="${line%% *}"
        path="${line#* => }"
        path="${path%% (*}"
        ;;
      *) continue ;;
    esac
    [ "$(kind_of "$name")" = torch ] &&
      die "$f links LibTorch ($name): the bundle does not carry LibTorch; only ddpdesk-worker may link it"
    libs[$name]="$path"
  done <"$stage/ldd.txt"
}

cp "$build/bin/ddpdesk" "$build/bin/ddpdesk-cli" "$top/libexec/"
collect "$top/libexec/ddpdesk"
collect "$top/libexec/ddpdesk-cli"
# Plugins: the platforms a desktop and a headless run need (xcb, offscreen; minimal for tests), the xcb GL
# integrations (else xcb warns and OpenGL widgets fail), image formats, and input methods (compose, ibus for Japanese).
plugins=(platforms/libqxcb.so platforms/libqoffscreen.so platforms/libqminimal.so
  xcbglintegrations/libqxcb-glx-integration.so xcbglintegrations/libqxcb-egl-integration.so
  platforminputcontexts/libcomposeplatforminputcontextplugin.so
  platforminputcontexts/libibusplatforminputcontextplugin.so)
for f in "$qt_plugins"/imageformats/*.so "$qt_plugins"/iconengines/*.so; do
  [ -f "$f" ] && plugins+=("${f#"$qt_plugins"/}")
done
for p in "${plugins[@]}"; do
  if [ ! -f "$qt_plugins/$p" ]; then
    case "$p" in
      platforms/libqxcb.so | platforms/libqoffscreen.so) die "Qt plugin $qt_plugins/$p is missing" ;;
      *) say "note: Qt plugin $p is not installed here; the bundle goes without it" && continue ;;
    esac
  fi
  mkdir -p "$top/plugins/$(dirname "$p")"
  cp "$qt_plugins/$p" "$top/plugins/$p"
  collect "$top/plugins/$p"
done

declare -A counts=([bundle]=0 [compat]=0 [glvnd]=0 [fallback]=0 [glibc]=0 [driver]=0)
for name in "${!libs[@]}"; do
  kind=$(kind_of "$name")
  counts[$kind]=$((counts[$kind] + 1))
  case "$kind" in
    bundle) dest="$top/lib/$name" ;;
    compat | glvnd | fallback) dest="$top/lib/$kind/$name" ;;
    *) continue ;;
  esac
  cp -L "${libs[$name]}" "$dest"
  chmod 0644 "$dest"
  elves+=("$dest")
done
say "libraries: ${counts[bundle]} carried, ${counts[compat]} in lib/compat (libstdc++), ${counts[glvnd]} in lib/glvnd" \
  "(GL dispatch, used only where the system has none), ${counts[glibc]} from glibc and ${counts[driver]} of the" \
  "driver left to the system"

# The symbol versions the bundle needs from libstdc++/libgcc_s (the wrapper compares them with the system's) and the
# newest glibc version the libraries always loaded need (BUNDLE-INFO: the oldest distribution it starts on).
for f in "${elves[@]}"; do
  case "$f" in "$top"/lib/compat/* | "$top"/lib/fallback/*) continue ;; esac
  readelf -V --wide "$f" 2>/dev/null | awk '
    /^Version needs section/ { needs = 1; next }
    /^Version (symbols|definition) section/ { needs = 0; next }
    needs && /File: / { file = $0; sub(/.*File: /, "", file); sub(/ .*/, "", file) }
    needs && /Name: / { v = $0; sub(/.*Name: /, "", v); sub(/ .*/, "", v); print file, v }'
done | sort -u >"$stage/versions.txt"
awk '$1 ~ /^(libstdc\+\+|libgcc_s)\.so/ { print }' "$stage/versions.txt" >"$top/lib/compat/needs"
glibc_max=$(awk '$2 ~ /^GLIBC_[0-9.]+$/ { sub(/^GLIBC_/, "", $2); print $2 }' "$stage/versions.txt" |
  sort -t. -k1,1n -k2,2n -k3,3n | tail -1)

# qt.conf beside the real programs: Qt finds its plugins and translations relative to them, wherever the bundle is.
cat >"$top/libexec/qt.conf" <<'EOF'
[Paths]
Prefix = ..
Libraries = lib
Plugins = plugins
Translations = translations
EOF
if [ -n "$qt_translations" ] && [ -d "$qt_translations" ]; then
  [ -f "$qt_translations/qtbase_ja.qm" ] && cp "$qt_translations/qtbase_ja.qm" "$top/translations/"
fi

# Fonts: DejaVu Sans and Sans Mono, and a fontconfig file that reads them and the system's fonts (so a machine's
# own CJK fonts still serve the Japanese interface), caching in the user's cache folder, never in the bundle.
for f in "$fonts_src"/DejaVuSans.ttf "$fonts_src"/DejaVuSans-Bold.ttf "$fonts_src"/DejaVuSans-Oblique.ttf \
  "$fonts_src"/DejaVuSans-BoldOblique.ttf "$fonts_src"/DejaVuSansMono*.ttf; do
  [ -f "$f" ] && cp "$f" "$top/fonts/"
done
for c in /usr/share/doc/fonts-dejavu-core/copyright /usr/share/doc/fonts-dejavu/copyright; do
  [ -f "$c" ] && mkdir -p "$top/share/doc/fonts-dejavu-core" && cp "$c" "$top/share/doc/fonts-dejavu-core/" && break
done
cat >"$top/etc/fonts/fonts.conf" <<'EOF'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<!-- DDP Desk bundle: its own fonts first, then the system's; no system configuration is read, so an older or
     newer fontconfig elsewhere cannot break it. FONTCONFIG_FILE points here (bin/ddpdesk). -->
<fontconfig>
  <dir prefix="relative">../../fonts</dir>
  <dir>/usr/share/fonts</dir>
  <dir>/usr/local/share/fonts</dir>
  <dir prefix="xdg">fonts</dir>
  <dir>~/.fonts</dir>
  <cachedir prefix="xdg">fontconfig</cachedir>
  <cachedir>~/.fontconfig</cachedir>
  <alias><family>sans-serif</family><prefer><family>DejaVu Sans</family></prefer></alias>
  <alias><family>serif</family><prefer><family>DejaVu Sans</family></prefer></alias>
  <alias><family>monospace</family><prefer><family>DejaVu Sans Mono</family></prefer></alias>
  <match target="pattern">
    <test qual="any" name="family"><string>system-ui</string></test>
    <edit name="family" mode="prepend" binding="strong"><string>DejaVu Sans</string></edit>
  </match>
  <match target="font">
    <edit name="antialias" mode="assign"><bool>true</bool></edit>
    <edit name="hinting" mode="assign"><bool>true</bool></edit>
    <edit name="hintstyle" mode="assign"><const>hintslight</const></edit>
  </match>
</fontconfig>
EOF

# The wrapper (bin/ddpdesk and bin/ddpdesk-cli are the same file; its name says which program it starts).
cat >"$top/bin/ddpdesk" <<'EOF'
#!/bin/sh
# DDP Desk portable bundle (installer/bundle-linux.sh): runs libexec/<this name> with the bundle's libraries, Qt
# plugins and fonts. The worker is not in the bundle: set DDPDESK_WORKER, or have ddpdesk-worker on PATH.
set -eu
self=$(readlink -f "$0")
top=$(cd "$(dirname "$self")/.." && pwd)
prog="$top/libexec/$(basename "$self")"
[ -x "$prog" ] || { echo "ddpdesk bundle: $prog is missing; unpack the bundle again" >&2; exit 2; }
lib="$top/lib"
# The bundle's library folder as ld.so reads it: relative to the program it is loading for (libexec/ddpdesk*), so
# the processes those start (workers, scripts, tools) do not load the bundle's libraries (see installer/bundle-linux.sh).
# shellcheck disable=SC2016 # ld.so, not sh, expands $ORIGIN
o='$ORIGIN/../lib'
syslib() {
  for d in /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu /lib64 /usr/lib64 /usr/lib /lib; do
    [ -e "$d/$1" ] && { echo "$d/$1"; return 0; }
  done
  return 1
}
# libstdc++/libgcc_s: the system's unless it lacks one of the symbol versions the bundle needs.
compat=""
while read -r so version; do
  # (A prefix match is enough: a library with GLIBCXX_3.4.30 has every older version too.)
  if ! s=$(syslib "$so") || ! grep -qaF "$version" "$s"; then compat=":$o/compat" && break; fi
done <"$lib/compat/needs"
# The GL dispatch libraries: the system's (they pick its GPU driver); the bundle's only where it has none.
glvnd=""
for so in libEGL.so.1 libGLX.so.0 libOpenGL.so.0 libGLdispatch.so.0; do
  [ -e "$lib/glvnd/$so" ] || continue
  syslib "$so" >/dev/null || { glvnd=":$o/glvnd"; break; }
done
# Libraries nearly every system has (libexpat): the system's, the bundle's only where it has none.
fallback=""
for f in "$lib"/fallback/*.so*; do
  [ -e "$f" ] || continue
  syslib "$(basename "$f")" >/dev/null || { fallback=":$o/fallback"; break; }
done
# What the user had, for the worker (libexec/ddpdesk-worker-env puts it back before starting it).
if [ "${DDPDESK_BUNDLE_TOP:-}" != "$top" ]; then
  export DDPDESK_BUNDLE_TOP="$top"
  export DDPDESK_BUNDLE_SAVED_LD="${LD_LIBRARY_PATH-}" DDPDESK_BUNDLE_SAVED_LD_SET="${LD_LIBRARY_PATH+1}"
  export LD_LIBRARY_PATH="$o$compat$glvnd$fallback${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  worker="${DDPDESK_WORKER:-}"
  [ -n "$worker" ] || worker=$(command -v ddpdesk-worker 2>/dev/null || true)
  if [ -n "$worker" ]; then
    export DDPDESK_BUNDLE_WORKER="$worker" DDPDESK_WORKER="$top/libexec/ddpdesk-worker-env"
  fi
fi
export QT_PLUGIN_PATH="$top/plugins"
unset QT_QPA_PLATFORM_PLUGIN_PATH
export FONTCONFIG_FILE="$top/etc/fonts/fonts.conf" QT_QPA_FONTDIR="$top/fonts"
exec "$prog" "$@"
EOF
cp "$top/bin/ddpdesk" "$top/bin/ddpdesk-cli"
cat >"$top/libexec/ddpdesk-worker-env" <<'EOF'
#!/bin/sh
# DDP Desk portable bundle: starts the user's ddpdesk-worker (DDPDESK_BUNDLE_WORKER, set by bin/ddpdesk) with the
# environment the user had, so it loads its own LibTorch's libraries, never the bundle's.
set -eu
worker="${DDPDESK_BUNDLE_WORKER:?ddpdesk bundle: DDPDESK_BUNDLE_WORKER is not set; start bin/ddpdesk or bin/ddpdesk-cli}"
if [ "${DDPDESK_BUNDLE_SAVED_LD_SET:-}" = 1 ]; then
  export LD_LIBRARY_PATH="$DDPDESK_BUNDLE_SAVED_LD"
else
  unset LD_LIBRARY_PATH
fi
unset QT_PLUGIN_PATH FONTCONFIG_FILE QT_QPA_FONTDIR DDPDESK_BUNDLE_TOP DDPDESK_BUNDLE_SAVED_LD \
  DDPDESK_BUNDLE_SAVED_LD_SET DDPDESK_BUNDLE_WORKER
export DDPDESK_WORKER="$worker"
exec "$worker" "$@"
EOF
chmod 0755 "$top/bin/ddpdesk" "$top/bin/ddpdesk-cli" "$top/libexec/ddpdesk-worker-env"

# Licences: each carried library's Debian copyright file (Qt and most of these are LGPL: they stay replaceable
# shared libraries in lib/).
if command -v dpkg >/dev/null; then
  for name in "${!libs[@]}"; do
    case "$(kind_of "$name")" in bundle | compat | glvnd | fallback) ;; *) continue ;; esac
    real=$(readlink -f "${libs[$name]}")
    pkg=$(dpkg -S "$real" 2>/dev/null || dpkg -S "${real#/usr}" 2>/dev/null || dpkg -S "/usr$real" 2>/dev/null || true)
    pkg="${pkg%%:*}"
    if [ -z "$pkg" ] || [ ! -f "/usr/share/doc/$pkg/copyright" ]; then continue; fi
    mkdir -p "$top/share/doc/$pkg"
    cp "/usr/share/doc/$pkg/copyright" "$top/share/doc/$pkg/"
  done
fi

version=$("$top/bin/ddpdesk-cli" --version 2>&1 | head -1) || die "the bundled ddpdesk-cli does not start: $version"
cat >"$top/BUNDLE-INFO" <<EOF
DDP Desk portable bundle for Linux x86_64, $MARK on $(date -u +%Y-%m-%d).
$version
Built on: $(sed -n 's/^PRETTY_NAME="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' /etc/os-release 2>/dev/null); needs glibc ${glibc_max:-?} or newer.
Start: bin/ddpdesk (GUI) or bin/ddpdesk-cli. The worker is not included: build ddpdesk-worker against your own
LibTorch and set DDPDESK_WORKER to it (or put it on PATH). Headless: QT_QPA_PLATFORM=offscreen bin/ddpdesk ...
EOF

tmp_out=$(mktemp "$build/.$NAME.XXXXXX.tar.xz")
trap 'rm -rf "$stage" "$tmp_out"' EXIT
tar -C "$stage" --owner=0 --group=0 --numeric-owner --sort=name -cf - "$NAME" | xz -T2 -6 >"$tmp_out"
chmod 0644 "$tmp_out"
mv -f "$tmp_out" "$out"
say "wrote $out ($(du -k "$out" | cut -f1) KiB, $(find "$top" -type f | wc -l) files, $(du -sk "$top" | cut -f1) KiB" \
  "unpacked; glibc >= ${glibc_max:-?}) in $(($(date +%s) - start)) s"
echo "$out" >&3
