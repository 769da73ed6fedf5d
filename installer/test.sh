#!/usr/bin/env bash
# Quick start (2): install what is missing, build, and run the whole test suite. CI runs exactly this.
# The suite includes two PyTorch 2.x legs (installer/torch2-root.sh; both roots cached in /var/cache/ddpdesk):
#  - ctest label torch2: a Debian unstable root with PyTorch/LibTorch 2.14 and ddpdesk-worker built against it in
#    build-torch2-sid/ (installer/build-torch2.sh);
#  - ctest label torch2_6: a Python-only Debian 13 root with PyTorch 2.6 (DDPDESK_TORCH2_6_ROOT, default
#    /var/cache/ddpdesk/torch2-root): the store server's wire dialect, the doctor's layouts, an instrumented script.
# The roots are downloads and unpacking: they are made in the background while the main build compiles.
# DDPDESK_SKIP_TORCH2=1 leaves both legs out (their tests are then not registered); DDPDESK_SKIP_TORCH2_6=1 the second.
# The sanitizer leg (issue 42): after the main build, while the roots may still download, installer/sanitize.sh
# builds build-asan/ (clang-14, ASan + UBSan, libFuzzer); the suite runs its fuzz targets (ctest label fuzz, about
# 10 s each over a copy of their seed corpus, after their crash regressions) and its net, protocol and node-link
# tests (label asan). A failed sanitizer build fails those tests, not the run. DDPDESK_SKIP_SANITIZE=1 skips the
# build (the tests then run what build-asan/ holds, or are skipped when there is none).
#
# Standard output: ctest's report (CI reads its closing lines; a copy stays in build/ctest-report.txt). Installing,
# building, progress and the closing time table (phases and labels) go to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "test: $*" >&2; }
t0=$(date +%s)
bash installer/install-deps.sh --tests >&2
t_packages=$(($(date +%s) - t0))
torch2=0
[ "${DDPDESK_SKIP_TORCH2:-0}" != 1 ] && torch2=1
torch2_6=$torch2
[ "${DDPDESK_SKIP_TORCH2_6:-0}" = 1 ] && torch2_6=0
if [ "$torch2" = 1 ]; then
  roots=$(mktemp -d /tmp/ddpdesk-torch2-roots.XXXXXX)
  # One after the other (each may install mmdebstrap first); their output is shown once the build is done.
  (
    rc=0
    bash installer/torch2-root.sh >"$roots/torch2.out" 2>"$roots/torch2.err" || rc=$?
    echo "$rc" >"$roots/torch2.rc"
    if [ "$torch2_6" = 1 ]; then
      rc=0
      DDPDESK_TORCH2_SUITE=trixie DDPDESK_TORCH2_PYTHON_ONLY=1 \
        DDPDESK_TORCH2_ROOT="${DDPDESK_TORCH2_6_ROOT:-/var/cache/ddpdesk/torch2-root}" \
        bash installer/torch2-root.sh >"$roots/torch2_6.out" 2>"$roots/torch2_6.err" || rc=$?
      echo "$rc" >"$roots/torch2_6.rc"
    fi
  ) &
  roots_pid=$!
  start=$(date +%s)
  bash installer/build.sh >&2
else
  start=$(date +%s)
  bash installer/build.sh -DDDPDESK_TORCH2_PYTHON= -DDDPDESK_TORCH2_WORKER= -DDDPDESK_TORCH2_6_PYTHON= >&2
fi
t_build=$(($(date +%s) - start))
say "built in $t_build s"
t_sanitize=0
if [ "${DDPDESK_SKIP_SANITIZE:-0}" != 1 ]; then
  start=$(date +%s)
  bash installer/sanitize.sh >&2 || say "the sanitizer build failed: the fuzz and asan tests will say so"
  t_sanitize=$(($(date +%s) - start))
  say "sanitizer build (build-asan) in $t_sanitize s"
fi

if [ "$torch2" = 1 ]; then
  start=$(date +%s)
  wait "$roots_pid" || true
  say "PyTorch roots: waited $(($(date +%s) - start)) s for them after the build"
  sed 's/^/[torch2 root] /' "$roots/torch2.err" >&2
  # A failed root is tried once more by build-torch2.sh, which then says why it failed.
  start=$(date +%s)
  mapfile -t peer < <(bash installer/build-torch2.sh)
  if [ "${#peer[@]}" -ne 2 ] || [ ! -x "${peer[0]}" ] || [ ! -x "${peer[1]}" ]; then
    say "the PyTorch 2.x peer could not be made: installer/build-torch2.sh should print two executable paths;" \
      "it printed ${#peer[@]} line(s): $(printf '[%s] ' "${peer[@]}")"
    exit 1
  fi
  t_peer=$(($(date +%s) - start))
  say "PyTorch 2.x peer (worker build) ready in $t_peer s"
  python2_6=""
  if [ "$torch2_6" = 1 ]; then
    sed 's/^/[torch2_6 root] /' "$roots/torch2_6.err" >&2
    mapfile -t peer2_6 <"$roots/torch2_6.out"
    if [ "$(cat "$roots/torch2_6.rc" 2>/dev/null)" != 0 ] || [ "${#peer2_6[@]}" -ne 1 ] || [ ! -x "${peer2_6[0]}" ]; then
      say "the PyTorch 2.6 peer could not be made: installer/torch2-root.sh (trixie, Python only) exited" \
        "$(cat "$roots/torch2_6.rc" 2>/dev/null || echo '?') and printed ${#peer2_6[@]} line(s):" \
        "$(printf '[%s] ' "${peer2_6[@]}")"
      exit 1
    fi
    python2_6="${peer2_6[0]}"
  fi
  rm -rf "$roots"
  # Only the tests' registration changes: a configure, nothing to compile.
  bash installer/build.sh -DDDPDESK_TORCH2_PYTHON="${peer[0]}" -DDDPDESK_TORCH2_WORKER="${peer[1]}" \
    -DDDPDESK_TORCH2_6_PYTHON="$python2_6" >&2
fi
export QT_QPA_PLATFORM=offscreen
start=$(date +%s)
rc=0
ctest --test-dir build --output-on-failure --timeout 1200 -j "$(nproc)" | tee build/ctest-report.txt || rc=$?
t_tests=$(($(date +%s) - start))
# Where the time went: the phases, then each label's test time (ctest's sum over its tests, run two at a time).
{
  echo "test: time table (s)"
  printf '  %-28s %6s\n' packages "$t_packages" build "$t_build" "sanitizer build" "$t_sanitize" \
    "PyTorch 2.x peer" "${t_peer:-0}" "tests (wall)" "$t_tests" \
    total "$(($(date +%s) - t0))"
  sed -n '/^Label Time Summary:/,/^$/p' build/ctest-report.txt | sed '1d;/^$/d' |
    awk '{printf "  label %-22s %6.0f\n", $1, $3}'
  # Every test has an area (its name up to the first dot), labelled or not: the areas add up to the whole.
  grep -E '^ *[0-9]+/[0-9]+ Test +#[0-9]+: ' build/ctest-report.txt |
    awk '{for (i = 1; i <= NF; i++) if ($i == "sec") { split($4, n, "."); t[n[1]] += $(i - 1) }}
         END {for (a in t) printf "  area %-23s %6.0f\n", a, t[a]}' | sort
} >&2
# A failed run ends with each failed check and where it is (QtTest's FAIL! and Loc: lines, CTest's verdict
# lines): a long failing test's output is cut in the middle of the log CI keeps, and its failing line is
# the one thing a reader needs.
if [ "$rc" -ne 0 ]; then
  echo "test: the failed checks"
  grep -E '(^FAIL! |^ *Loc: |\*\*\*(Failed|Timeout|Exception))' build/ctest-report.txt | cut -c1-400 | tail -n 60
fi >&2
exit "$rc"
