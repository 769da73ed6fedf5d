#!/usr/bin/env bash
# The PyTorch 2.x peers: a Debian root with python3-torch beside this Debian 12 machine. Users bring PyTorch 2.x; every
# test labelled `torch2` runs against the newest one Debian carries, `torch2_6` against Debian 13's 2.6. Idempotent
# and cached: a finished root is stamped with its suite and package list and reused (a root holding more packages than
# asked for serves too); only the mounts are (re)made.
#
# Standard output: exactly one line, the path of the root's python3 wrapper (installer/build-torch2.sh reads it).
# Everything else (progress, mmdebstrap's and apt's output, errors) goes to standard error; tests/installer checks it.
#
#   bash installer/torch2-root.sh            make (or reuse) the root, print the path of its python3 wrapper
#   DDPDESK_TORCH2_SUITE=sid|trixie ...       which PyTorch: sid (unstable, PyTorch/LibTorch 2.14; the default, the
#                                             torch2 leg) or trixie (Debian 13, PyTorch 2.6)
#   DDPDESK_TORCH2_PYTHON_ONLY=1 ...          python3-torch only, no LibTorch headers nor compiler (the 2.6 leg)
#   DDPDESK_TORCH2_ROOT=/some/dir ...         root location (default /var/cache/ddpdesk/torch2-sid-root for sid,
#                                             /var/cache/ddpdesk/torch2-root for trixie)
#
# Wrappers (outside the root, beside it): ROOT.bin/torch2-run CMD... runs CMD inside the root in the current folder;
# ROOT.bin/python3 is `torch2-run /usr/bin/python3`. Shared folders (/tmp, the folder above this checkout and the
# datasets) are
# bind-mounted at the same path inside, so FileStore paths, build trees and loopback sockets are the same both sides.
set -euo pipefail
# Only the result line may reach the caller's standard output (fd 3); whatever else anything here prints goes to stderr.
exec 3>&1 1>&2

here="$(cd "$(dirname "$0")/.." && pwd)"
# The one switch between PyTorch releases: the suite whose python3-torch / libtorch-dev the torch2 leg runs.
SUITE="${DDPDESK_TORCH2_SUITE:-sid}"
MIRROR="${DDPDESK_TORCH2_MIRROR:-http://deb.debian.org/debian}"
APTOPTS=()
case "$SUITE" in
  sid)
    ROOT="${DDPDESK_TORCH2_ROOT:-/var/cache/ddpdesk/torch2-sid-root}"
    WHAT="Debian unstable (sid) root with PyTorch 2.14"
    # Unstable's Release file in the mirror here is past its Valid-Until date; this root alone accepts that (the
    # option lands in the root's /etc/apt/apt.conf.d, so later apt calls inside it accept it too).
    APTOPTS=(--aptopt='Acquire::Check-Valid-Until "false"')
    ;;
  trixie)
    ROOT="${DDPDESK_TORCH2_ROOT:-/var/cache/ddpdesk/torch2-root}"
    WHAT="Debian 13 (trixie) root with PyTorch 2.6"
    ;;
  *)
    echo "torch2-root: DDPDESK_TORCH2_SUITE must be sid or trixie, not '$SUITE'" >&2
    exit 2
    ;;
esac
BIN="${ROOT}.bin"
if [ "${DDPDESK_TORCH2_PYTHON_ONLY:-0}" = 1 ]; then
  PACKAGES="python3-torch,procps,iproute2"
else
  # openmpi-bin: train.mpirun starts the worker through mpirun inside the root.
  PACKAGES="python3-torch,libtorch-dev,libgloo-dev,cmake,g++,ninja-build,nlohmann-json3-dev,libcli11-dev,procps,iproute2"
  PACKAGES+=",openmpi-bin"
fi
SHARED=("/tmp" "$(dirname "$here")")
# Fashion-MNIST (Debian 12's dataset-fashion-mnist) for the engine tests' workers inside the root.
[ -d /usr/share/datasets ] && SHARED+=("/usr/share/datasets")
STAMP="$ROOT/.ddpdesk-torch2-ready"

# The stamp says "SUITE PACKAGES" (a stamp of only PACKAGES is a trixie root from before there was a choice).
stamp_suite() { local s; s=$(cat "$STAMP"); case "$s" in *" "*) echo "${s%% *}" ;; *) echo trixie ;; esac; }
stamp_packages() { local s; s=$(cat "$STAMP"); echo "${s##* }"; }
# Whether the stamped root has every package asked for.
serves() {
  [ -f "$STAMP" ] && [ "$(stamp_suite)" = "$SUITE" ] || return 1
  local have p
  have=",$(stamp_packages),"
  for p in ${PACKAGES//,/ }; do
    case "$have" in *",$p,"*) ;; *) return 1 ;; esac
  done
}

if [ "$(id -u)" -ne 0 ]; then
  echo "torch2-root: needs root (mmdebstrap, chroot and bind mounts)" >&2
  exit 2
fi

if [ -f "$STAMP" ] && [ "$(stamp_suite)" != "$SUITE" ]; then
  # Another PyTorch: not a root to throw away because a variable pointed here.
  echo "torch2-root: $ROOT holds a $(stamp_suite) root, not $SUITE; set DDPDESK_TORCH2_ROOT elsewhere" >&2
  exit 2
fi
if ! serves; then
  command -v mmdebstrap >/dev/null || {
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap
  }
  # Ours to replace: a half-made root (its marker sits beside it) or one stamped with another package list.
  # Anything else at that path is not.
  if [ -e "$ROOT" ] && [ ! -e "$ROOT.partial" ] && [ ! -f "$STAMP" ]; then
    echo "torch2-root: $ROOT exists and was not made by this script; set DDPDESK_TORCH2_ROOT elsewhere" >&2
    exit 2
  fi
  if [ -e "$ROOT" ]; then
    # The shared folders are bind-mounted inside: every mount goes before anything is removed, or nothing is.
    for m in $(awk -v r="$ROOT/" 'index($2, r) == 1 { print $2 }' /proc/mounts | sort -r); do umount -l "$m"; done
    if awk -v r="$ROOT/" 'index($2, r) == 1 { f = 1 } END { exit !f }' /proc/mounts; then
      echo "torch2-root: something is still mounted inside $ROOT; not removing it" >&2
      exit 2
    fi
    rm -rf --one-file-system "$ROOT"
  fi
  mkdir -p "$(dirname "$ROOT")"
  touch "$ROOT.partial"
  start=$(date +%s)
  echo "torch2-root: making $WHAT at $ROOT (2 to 5 minutes, about 2 GB)" >&2
  mmdebstrap --quiet --variant=apt "${APTOPTS[@]}" --include="$PACKAGES" \
    "$SUITE" "$ROOT" "deb $MIRROR $SUITE main"
  printf '%s %s' "$SUITE" "$PACKAGES" >"$STAMP"
  rm -f "$ROOT.partial"
  echo "torch2-root: made in $(($(date +%s) - start)) s" >&2
fi

mkdir -p "$BIN"
cat >"$BIN/torch2-run" <<EOF
#!/usr/bin/env bash
# Runs a command inside the $WHAT (made by installer/torch2-root.sh), in the current folder.
set -euo pipefail
ROOT="$ROOT"
SHARED=(${SHARED[*]})
mounted() { awk -v p="\$1" '\$2 == p { f = 1 } END { exit !f }' /proc/mounts; }
same() { [ "\$(stat -c %d:%i "\$1" 2>/dev/null)" = "\$(stat -c %d:%i "\$2" 2>/dev/null)" ]; }
# A mount made by an earlier run can outlive its source: a CI checkout folder removed and cloned again leaves the
# root showing the old, deleted folder. Such a mount is dropped and made again from what is there now.
bind() {
  local i
  for i in 1 2 3 4; do
    mounted "\$2" && ! same "\$1" "\$2" || break
    umount -l "\$2"
  done
  mounted "\$2" || mount "\$3" "\$1" "\$2"
  same "\$1" "\$2" || { echo "torch2-run: \$2 does not show \$1" >&2; exit 2; }
}
ensure_mounts() {
  mounted "\$ROOT/proc" || mount -t proc proc "\$ROOT/proc"
  mounted "\$ROOT/dev" || mount --rbind /dev "\$ROOT/dev"
  for d in "\${SHARED[@]}"; do
    [ -d "\$d" ] || continue
    mkdir -p "\$ROOT\$d"
    bind "\$d" "\$ROOT\$d" --rbind
  done
  # One network namespace, one answer for "what is my hostname's address" on both sides.
  for f in /etc/hosts /etc/resolv.conf /etc/hostname; do
    [ -f "\$f" ] || continue
    touch "\$ROOT\$f"
    bind "\$f" "\$ROOT\$f" --bind
  done
}
# Parallel tests start many wrappers at once: one makes the mounts, the others wait for it.
exec 9>"\$ROOT.mount.lock"
flock 9
ensure_mounts
flock -u 9
exec 9>&-
cd_to="\$PWD"
exec chroot "\$ROOT" /usr/bin/env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \\
  /bin/sh -c 'cd "\$1" 2>/dev/null || cd /; shift; exec "\$@"' sh "\$cd_to" "\$@"
EOF
cat >"$BIN/python3" <<EOF
#!/usr/bin/env bash
exec "$BIN/torch2-run" /usr/bin/python3 "\$@"
EOF
chmod 0755 "$BIN/torch2-run" "$BIN/python3"

version=$("$BIN/python3" -c 'import torch; print(torch.__version__)')
echo "torch2-root: torch $version ready" >&2
echo "$BIN/python3" >&3
