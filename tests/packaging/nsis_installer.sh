#!/usr/bin/env bash
# Usage: nsis_installer.sh SOURCE_DIR VERSION DESCRIPTION HOMEPAGE
# Runs CPack's NSIS generator on Linux over installer/cpack.cmake's Windows branch (tests/packaging/nsis configures it
# with CMAKE_SYSTEM_NAME=Windows), so makensis compiles the real installer script into a real .exe. Stand-ins: the
# executables (a mingw-built PE when mingw-w64 is present), LibTorch's lib\*.dll, a vcpkg zlib1.dll and windeployqt
# (a script that checks what it is given and writes Qt DLLs the way windeployqt does). The work folder's name has
# spaces so quoting mistakes in the install code fail here. Exit 77 (skipped) only when makensis is absent.
set -euo pipefail
src="$1"; version="$2"; description="$3"; homepage="$4"
fail() { echo "FAIL: $*" >&2; exit 1; }

command -v makensis >/dev/null || { echo "SKIP: makensis not found (Debian: apt-get install nsis)"; exit 77; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
work="$tmp/nsis work"
mkdir -p "$work"

# The executables' stand-in.
standin="$work/standin.exe"
if command -v x86_64-w64-mingw32-gcc >/dev/null; then
  printf 'int main(void) { return 0; }\n' >"$work/standin.c"
  x86_64-w64-mingw32-gcc -O1 -s -o "$standin" "$work/standin.c"
else
  echo "stand-in for a DDP Desk executable" >"$standin"
fi

# LibTorch as unzipped on Windows: lib\ holds the DLLs and their import libraries.
torch="$work/lib torch"
mkdir -p "$torch/lib"
for f in c10.dll torch.dll torch_cpu.dll libiomp5md.dll uv.dll torch_cpu.lib c10.lib; do
  echo "stand-in $f" >"$torch/lib/$f"
done
# vcpkg's x64-windows zlib: headers in include\, the DLL in bin\.
zlib="$work/vcpkg installed/x64-windows"
mkdir -p "$zlib/include" "$zlib/bin"
echo "stand-in" >"$zlib/include/zlib.h"
echo "stand-in" >"$zlib/bin/zlib1.dll"

# Qt: found through Qt6_DIR (<Qt>/lib/cmake/Qt6 -> <Qt>/bin), as on Windows.
qt="$work/Qt/6.5.3/msvc2019_64"
mkdir -p "$qt/lib/cmake/Qt6" "$qt/bin"
cat >"$qt/bin/windeployqt" <<'EOF'
#!/usr/bin/env bash
# windeployqt stand-in: records its arguments, insists on existing .exe files, deploys beside the first one.
set -eu
printf '%s\n' "$@" >"$WINDEPLOYQT_LOG"
first=""
for a in "$@"; do
  case "$a" in
    --*) ;;
    *.exe) [ -f "$a" ] || { echo "windeployqt: $a does not exist" >&2; exit 1; }; [ -n "$first" ] || first="$a" ;;
    *) echo "windeployqt: unexpected argument $a" >&2; exit 1 ;;
  esac
done
[ -n "$first" ] || { echo "windeployqt: no executable given" >&2; exit 1; }
dir="$(dirname "$first")"
mkdir -p "$dir/platforms" "$dir/translations"
for f in Qt6Core.dll Qt6Gui.dll Qt6Widgets.dll Qt6Charts.dll Qt6Network.dll platforms/qwindows.dll translations/qtbase_ja.qm; do
  echo "stand-in" >"$dir/$f"
done
EOF
chmod +x "$qt/bin/windeployqt"
export WINDEPLOYQT_LOG="$work/windeployqt.args"

build="$work/build dir"
cmake -S "$src/tests/packaging/nsis" -B "$build" -DCMAKE_SYSTEM_NAME=Windows -DDDPDESK_SOURCE_DIR="$src" \
      -DDDPDESK_VERSION="$version" -DDDPDESK_DESCRIPTION="$description" -DDDPDESK_HOMEPAGE="$homepage" \
      -DDDPDESK_STANDIN_EXE="$standin" -DTORCH_INSTALL_PREFIX="$torch" -DQt6_DIR="$qt/lib/cmake/Qt6" \
      -DZLIB_INCLUDE_DIR="$zlib/include" >"$work/configure.log" 2>&1 \
  || { cat "$work/configure.log"; fail "configuring the Windows packaging failed"; }
grep -A4 "CMake Warning" "$work/configure.log" && fail "configuring the Windows packaging warned (above)"

pkg="$work/pkg"
if ! (cd "$work" && cpack --config "$build/CPackConfig.cmake" -G NSIS -B "$pkg" >"$work/cpack.log" 2>&1); then
  cat "$work/cpack.log"
  cat "$pkg/_CPack_Packages/win64/NSIS/NSISOutput.log" 2>/dev/null | tail -30
  fail "CPack's NSIS generator (makensis) failed"
fi
exe="$pkg/ddpdesk-$version-win64.exe"
[ -f "$exe" ] || { ls -l "$pkg"; fail "expected $exe"; }
echo "built $(basename "$exe") ($(stat -c %s "$exe") bytes) with $(makensis -VERSION)"
[ "$(head -c 2 "$exe")" = "MZ" ] || fail "$exe is not a Windows executable (no MZ header)"
grep -aq "NullsoftInst" "$exe" || fail "$exe carries no NSIS data (NullsoftInst signature missing)"

nsi="$pkg/_CPack_Packages/win64/NSIS/project.nsi"
stage="$pkg/_CPack_Packages/win64/NSIS/ddpdesk-$version-win64"
[ -f "$nsi" ] || fail "no generated $nsi"
has() { grep -qF -- "$1" "$nsi" || fail "project.nsi lacks: $1"; }
has 'InstallDir "$PROGRAMFILES64\DDP Desk"'
has 'Name "DDP Desk"'
# Exactly one Start menu shortcut named "DDP Desk", to bin\ddpdesk.exe, removed again by the uninstaller.
has 'CreateShortCut "$SMPROGRAMS\$STARTMENU_FOLDER\DDP Desk.lnk" "$INSTDIR\bin\ddpdesk.exe"'
[ "$(grep -cE "CreateShortCut .*DDP Desk\.lnk[\"']" "$nsi")" = 1 ] || fail "not exactly one 'DDP Desk' shortcut"
has 'Delete "$SMPROGRAMS\$MUI_TEMP\DDP Desk.lnk"'
grep -q 'START_MENU\\DDP Desk' "$nsi" && fail "a shortcut is deleted through \$START_MENU instead of \$MUI_TEMP"
# Every shortcut points at a file that is in the package.
grep -o 'CreateShortCut "[^"]*" "\$INSTDIR\\[^"]*"' "$nsi" | sed 's/.*"\$INSTDIR\\\(.*\)"$/\1/' | tr '\\' '/' \
  | while read -r target; do
      case "$target" in Uninstall.exe) continue ;; esac
      [ -f "$stage/$target" ] || fail "a shortcut points at $target, which is not in the package"
    done
# Add/Remove Programs: the uninstaller, under an unversioned key, with the display name and icon.
has 'WriteUninstaller "$INSTDIR\Uninstall.exe"'
has 'WriteRegStr SHCTX "Software\Microsoft\Windows\CurrentVersion\Uninstall\DDP Desk"'
grep -A1 'Push "DisplayName"' "$nsi" | grep -qF "Push \"DDP Desk $version\"" || fail "DisplayName is not 'DDP Desk $version'"
grep -A1 'Push "DisplayIcon"' "$nsi" | grep -qF 'Push "$INSTDIR\ddpdesk.ico"' || fail "DisplayIcon is not the installed icon"
# The PATH is never touched.
has 'StrCmp "OFF" "ON" 0 doNotAddToPath'
# The README: on the finish page and in the Start menu; no placeholder license page.
has '!define MUI_FINISHPAGE_SHOWREADME "$INSTDIR\README.txt"'
has 'CreateShortCut "$SMPROGRAMS\$STARTMENU_FOLDER\DDP Desk README.lnk" "$INSTDIR\README.txt"'
grep -q 'MUI_PAGE_LICENSE' "$nsi" && fail "the installer shows CPack's placeholder license page"
# The icon makensis embedded is the project's .ico.
icon="$(sed -n 's/^ *!define MUI_ICON "\(.*\)"/\1/p' "$nsi")"
[ "$icon" = "$src/resources/ddpdesk.ico" ] || fail "MUI_ICON is '$icon'"
[ "$(head -c 4 "$icon" | od -An -tx1 | tr -d ' ')" = "00000100" ] || fail "$icon is not a Windows .ico"

# windeployqt ran on both staged Qt executables, release, without the compiler runtime.
[ -f "$WINDEPLOYQT_LOG" ] || fail "windeployqt was not run during packaging"
for arg in --release --no-compiler-runtime "$stage/bin/ddpdesk.exe" "$stage/bin/ddpdesk-cli.exe"; do
  grep -qxF -- "$arg" "$WINDEPLOYQT_LOG" || { cat "$WINDEPLOYQT_LOG"; fail "windeployqt was not given $arg"; }
done

# What the installer carries (7-Zip reads NSIS installers; otherwise the staged tree it was made from).
if command -v 7z >/dev/null; then
  contents="$(7z l -ba "$exe" | awk '{print $NF}' | tr '\\' '/')"
  src_of_list="7z l"
else
  contents="$(cd "$stage" && find . -type f | sed 's|^\./||')"
  src_of_list="the staged tree"
fi
for f in bin/ddpdesk.exe bin/ddpdesk-cli.exe bin/ddpdesk-worker.exe bin/c10.dll bin/torch_cpu.dll bin/libiomp5md.dll \
         bin/zlib1.dll bin/Qt6Core.dll bin/Qt6Charts.dll bin/platforms/qwindows.dll bin/translations/qtbase_ja.qm \
         README.txt ddpdesk.ico; do
  grep -qxF "$f" <<<"$contents" || { echo "$contents"; fail "$f is not in the installer ($src_of_list)"; }
done
grep -qE '\.lib$' <<<"$contents" && fail "LibTorch import libraries (.lib) are in the installer"
grep -qi 'vc_redist' <<<"$contents" && fail "vc_redist is in the installer although nothing runs it"
echo "installer contents checked with $src_of_list: $(echo "$contents" | wc -l) files"
echo "ok"
