#!/usr/bin/env bash
# gpu.device_check_dry_run: tests/gpu/device-check.sh --cpu-dry-run in CI, so the script cannot rot while no GPU
# machine runs it. Usage: dry_run_test.sh PYTHON WORKER CLI
#   1. --pack into a scratch vendor folder (DDPDESK_GPU_VENDOR): CLI11, nlohmann-json and Gloo's headers;
#   2. the dry run with the build's own worker and CLI (--worker: no compile), which still configures a Qt-free
#      build folder as the GPU machine does (--configure-check: vendored headers, GLOO_INCLUDE_DIR, the LibTorch
#      found), trains 1 rank, 2 ranks and 2 ranks in bf16, and must pass with a report that says so;
#   3. the same with 1 step: the loss-falls checks cannot hold, and the script must say FAILED and exit 1.
# About 30-90 s on 2 cores, depending on what else runs. Exit 0 = passed, 1 = failed.
set -euo pipefail
[[ $# == 3 ]] || { echo "usage: $0 PYTHON WORKER CLI" >&2; exit 2; }
py=$1 worker=$2 cli=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/ddpdesk-dry-run-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
export DDPDESK_GPU_VENDOR=$work/vendor
# The script keeps its work folder when it fails (as the 1-step run must): under $work, it goes when this test ends.
export TMPDIR=$work/tmp
mkdir -p "$TMPDIR"
unset OUT # the report goes where --report says, not into a device run's $OUT

bash "$here/device-check.sh" --pack || fail "--pack failed"
for f in include/CLI/CLI.hpp include/nlohmann/json.hpp gloo-include/gloo/algorithm.h gloo-include/gloo/config.h \
         cmake/CLI11/CLI11Config.cmake cmake/nlohmann_json/nlohmann_jsonConfig.cmake; do
  [[ -f $DDPDESK_GPU_VENDOR/$f ]] || fail "--pack did not write vendor/$f"
done
grep -q '^Gloo headers from ' "$DDPDESK_GPU_VENDOR/VERSIONS.txt" || fail "VERSIONS.txt does not say where Gloo's headers came from"

common=(--cpu-dry-run --python "$py" --worker "$worker" --cli "$cli" --jobs 2 --run-timeout 120)
rc=0
bash "$here/device-check.sh" "${common[@]}" --configure-check --build-dir "$work/build" --steps 150 \
  --report "$work/report.md" || rc=$?
[[ -f $work/report.md ]] && cat "$work/report.md"
[[ $rc == 0 ]] || fail "the dry run exited $rc"
grep -q '^# DDP Desk GPU check: PASSED' "$work/report.md" || fail "the report does not say PASSED"
grep -q '^| gloo_headers | .*gloo\|^| gloo_headers | /' "$work/report.md" || fail "the report does not say where Gloo's headers came from"
grep -q '^| worker_version | .*NCCL: ' "$work/report.md" || fail "the report's worker version has no NCCL line"
grep -q '^| vendored_headers | .*Gloo headers from ' "$work/report.md" || fail "the report does not name the vendored Gloo headers"
[[ $(grep -c '^- \*\*PASS\*\*' "$work/report.md") -ge 10 ]] || fail "fewer than 10 passed checks in the report"
[[ -f $work/build/CMakeCache.txt ]] || fail "--configure-check did not configure $work/build"
! grep -q '^DDPDESK_WITH_QT:BOOL=ON' "$work/build/CMakeCache.txt" || fail "the check's build folder has Qt on"

# It must be able to fail: one step gives no loss curve.
rc=0
bash "$here/device-check.sh" "${common[@]}" --steps 1 --report "$work/fail.md" >"$work/fail.log" 2>&1 || rc=$?
[[ $rc == 1 ]] || { cat "$work/fail.log"; fail "a dry run whose checks cannot hold exited $rc, not 1"; }
grep -q '^# DDP Desk GPU check: FAILED' "$work/fail.md" || fail "the failing dry run's report does not say FAILED"
echo "device-check dry run: passed, and a run that cannot pass fails"
