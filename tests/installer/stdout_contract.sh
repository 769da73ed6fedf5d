#!/usr/bin/env bash
# installer.stdout_contract: the installer scripts keep standard output for what their callers parse.
#
# installer/build-torch2.sh takes torch2-root.sh's standard output as the python3 wrapper's path, and test.sh takes
# build-torch2.sh's as two paths, so one progress line on stdout breaks every fresh machine (issue 28) while a machine
# with the root cached stays green. This runs torch2-root.sh the way a fresh machine does, in a fresh root location,
# with only mmdebstrap replaced by a stand-in that is at least as chatty on both streams. The stand-in makes a root
# that chroot can really enter (the host's /usr bound inside, in a private mount namespace that vanishes with the
# test), so the wrappers, their mounts and the torch import run for real. Then once more with the root cached, and
# install-deps.sh as callers run it. Every installer script also states its stdout contract in its header.
#
#   stdout_contract.sh SOURCE_DIR [TORCH2_ROOT_SCRIPT]    (the second argument tries another version of the script)
set -euo pipefail
src="$1"
script="${2:-$src/installer/torch2-root.sh}"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

for f in "$src"/installer/*.sh; do
  grep -q '^# Standard output: ' "$f" || fail "$(basename "$f") does not say what its standard output carries" \
    "(a '# Standard output: ...' header line)"
done

if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: the root-making path needs root (chroot, mounts), as installer/test.sh does"
  [ "$failures" -eq 0 ] && exit 77 || exit 1
fi

work=$(mktemp -d /var/tmp/ddpdesk-stdout-contract.XXXXXX)
trap 'rm -rf --one-file-system "$work"' EXIT
mkdir -p "$work/stand-in"
cat >"$work/stand-in/mmdebstrap" <<'STANDIN'
#!/usr/bin/env bash
# Stand-in for mmdebstrap (OPTIONS... SUITE TARGET MIRROR): talks on both streams as the real one may, and makes a
# root chroot can enter from the host's own /usr and /etc (merged-usr Debian: /bin, /lib... are links into /usr;
# /etc holds the loader cache and the BLAS alternatives torch loads through).
set -euo pipefail
args=("$@")
target="${args[$((${#args[@]} - 2))]}"
echo "I: stand-in mmdebstrap: chroot preparation for ${args[$((${#args[@]} - 3))]} in $target"
echo "I: stand-in mmdebstrap: installing packages" >&2
mkdir -p "$target"/{usr,etc,tmp,proc,dev,var,root}
mount --bind /usr "$target/usr"
mount --bind /etc "$target/etc"
for l in bin sbin lib lib64; do [ -e "/$l" ] && ln -s "usr/$l" "$target/$l"; done
echo "I: stand-in mmdebstrap: success"
STANDIN
chmod 0755 "$work/stand-in/mmdebstrap"

# Runs in a private mount namespace: the stand-in's and the wrappers' mounts end with it.
export DDPDESK_TORCH2_ROOT="$work/root" SCRIPT="$script" STANDIN="$work/stand-in" OUT="$work"
unshare -m --propagation private bash -c '
  set -uo pipefail
  PATH="$STANDIN:$PATH" bash "$SCRIPT" >"$OUT/fresh.out" 2>"$OUT/fresh.err"; echo $? >"$OUT/fresh.rc"
  PATH="$STANDIN:$PATH" bash "$SCRIPT" >"$OUT/cached.out" 2>"$OUT/cached.err"; echo $? >"$OUT/cached.rc"
  wrapper=$(head -n 1 "$OUT/fresh.out")
  [ -x "$wrapper" ] && "$wrapper" -c "import torch; print(torch.__version__)" >"$OUT/torch.out" 2>"$OUT/torch.err"
  true'

expected="$work/root.bin/python3"
for run in fresh cached; do
  rc=$(cat "$work/$run.rc")
  [ "$rc" -eq 0 ] || { fail "$run root: torch2-root.sh exited $rc"; sed 's/^/  stderr: /' "$work/$run.err"; }
  if [ "$(cat "$work/$run.out")" != "$expected" ] || [ "$(wc -l <"$work/$run.out")" -ne 1 ]; then
    fail "$run root: standard output must be exactly the line '$expected'; it was:"
    sed 's/^/  stdout: /' "$work/$run.out"
  fi
done
grep -q "torch2-root: making" "$work/fresh.err" || fail "fresh root: the progress line did not reach stderr"
grep -q "stand-in mmdebstrap: success" "$work/fresh.err" || fail "fresh root: mmdebstrap's output did not reach stderr"
grep -q "torch2-root: making" "$work/cached.err" && fail "cached root: it was made again instead of reused"
grep -Eq '^[0-9]+\.[0-9]+' "$work/torch.out" 2>/dev/null ||
  fail "the printed python3 wrapper did not import torch inside the root: $(cat "$work/torch.err" 2>/dev/null)"

# install-deps.sh as demo.sh (no argument) and test.sh (--tests) run it: with everything present it says so, on stderr
# only; the demo's set is the smaller one, and a word it does not know is refused.
for args in "" --tests; do
  bash "$src/installer/install-deps.sh" $args >"$work/deps.out" 2>"$work/deps.err" || fail "install-deps.sh $args failed"
  [ -s "$work/deps.out" ] && { fail "install-deps.sh $args wrote to standard output:"; sed 's/^/  stdout: /' "$work/deps.out"; }
  grep -q "install-deps:" "$work/deps.err" || fail "install-deps.sh $args said nothing on stderr"
  sed -n 's/^install-deps: all \([0-9]*\) packages present$/\1/p' "$work/deps.err" >"$work/deps${args}.count"
done
[ "$(cat "$work/deps.count")" -lt "$(cat "$work/deps--tests.count")" ] ||
  fail "install-deps.sh (the demo's) should install fewer packages than --tests (the suite's):" \
    "$(cat "$work/deps.count") vs $(cat "$work/deps--tests.count")"
bash "$src/installer/install-deps.sh" --bogus >/dev/null 2>"$work/deps.err" && fail "install-deps.sh --bogus succeeded"
grep -q "unknown argument '--bogus'" "$work/deps.err" || fail "install-deps.sh --bogus did not name the argument"

if [ "$failures" -ne 0 ]; then
  echo "installer.stdout_contract: $failures failure(s)"
  exit 1
fi
echo "installer.stdout_contract: torch2-root.sh printed only '$expected' (fresh and cached)," \
  "torch $(cat "$work/torch.out") inside; install-deps.sh kept stdout empty"
