#!/usr/bin/env bash
# Engine benchmarks: ddpdesk-worker against PyTorch's own Python DDP (ddp_reference.py), same model, data, batch,
# Gloo over loopback, 1 thread per process; then 2-vs-1 worker scaling (the engine's default gradient transport,
# shared memory between local ranks, and Gloo side by side), overlap on vs off, precision, peak memory and launch
# to first step, 2 nodes x 2 ranks over a shaped link (flat Gloo against the hierarchical exchange), and what the
# instrumentation module of script runs costs a training loop, and how soon the launcher names a rank that stopped.
# Prints a table.
# Usage: [BENCH_ONLY=headline] run_benchmarks.sh WORKER [PYTHON] [STEPS_SCALE]
#   (not part of ctest: `cmake --build <dir> --target bench`)
set -euo pipefail
WORKER=${1:?path to ddpdesk-worker}
PYTHON=${2:-/usr/bin/python3}
SCALE=${3:-1}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
WARMUP=10
PORT=$((29900 + RANDOM % 500))

engine() { # name world workload batch steps [extra flags]
  local name=$1 world=$2 workload=$3 batch=$4 steps=$5; shift 5
  PORT=$((PORT + 1))
  local pids=() outs=()
  for ((r = 0; r < world; r++)); do
    "$WORKER" --workload "$workload" --batch-size "$batch" --steps "$steps" --threads 1 --telemetry-ms 0 \
      --rank $r --world-size "$world" --store "tcp://127.0.0.1:$PORT" --out "$WORK/$name" "$@" \
      >"$WORK/$name.$r.jsonl" 2>"$WORK/$name.$r.err" &
    pids+=($!)
    outs+=("$WORK/$name.$r.jsonl")
  done
  for p in "${pids[@]}"; do wait "$p"; done
  "$PYTHON" "$HERE/bench_stats.py" engine "$WARMUP" "${outs[@]}"
}

reference() { # name world workload batch steps [extra flags]
  local name=$1 world=$2 workload=$3 batch=$4 steps=$5; shift 5
  PORT=$((PORT + 1))
  local pids=() outs=()
  for ((r = 0; r < world; r++)); do
    RANK=$r WORLD_SIZE=$world MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT GLOO_SOCKET_IFNAME=lo OMP_NUM_THREADS=1 \
      "$PYTHON" "$HERE/ddp_reference.py" --workload "$workload" --batch-size "$batch" --steps "$steps" \
      --warmup "$WARMUP" "$@" >"$WORK/$name.$r.json" 2>"$WORK/$name.$r.err" &
    pids+=($!)
    outs+=("$WORK/$name.$r.json")
  done
  for p in "${pids[@]}"; do wait "$p"; done
  "$PYTHON" "$HERE/bench_stats.py" reference "$WARMUP" "${outs[@]}"
}

median() { "$PYTHON" -c "import statistics, sys; print('%.2f' % statistics.median(map(float, sys.argv[1:])))" "$@"; }

ratio() { "$PYTHON" -c "import sys; print('%.2f' % (float(sys.argv[1]) / float(sys.argv[2])))" "$1" "$2"; }

AE_STEPS=$((400 * SCALE))
FM_STEPS=$((120 * SCALE))
ROUNDS=${BENCH_ROUNDS:-5}
echo "# ddpdesk-worker vs PyTorch Python DDP ($(nproc) cores, $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg))"
ae_e=$(engine ae2 2 autoencoder 50 "$AE_STEPS")
ae_p=$(reference ae2py 2 autoencoder 50 "$AE_STEPS")
fm_e=$(engine fm2 2 fashion-mnist 64 "$FM_STEPS")
fm_p=$(reference fm2py 2 fashion-mnist 64 "$FM_STEPS")
printf '%-44s %12s %12s %8s\n' "benchmark (2 workers, 1 thread each)" "engine s/s" "python s/s" "ratio"
printf '%-44s %12s %12s %8s\n' "autoencoder, batch 50/rank" "$ae_e" "$ae_p" "$(ratio "$ae_e" "$ae_p")"
printf '%-44s %12s %12s %8s\n' "fashion-mnist CNN, batch 64/rank" "$fm_e" "$fm_p" "$(ratio "$fm_e" "$fm_p")"
echo
# BENCH_ONLY=headline: the table above alone (the README's headline figures, in about two minutes).
[ "${BENCH_ONLY:-}" = headline ] && exit 0
fm_no=$(engine fm2no 2 fashion-mnist 64 "$FM_STEPS" --no-overlap)
ae_no=$(engine ae2no 2 autoencoder 50 "$AE_STEPS" --no-overlap)
# Over Gloo the allreduce really runs on other threads during backward; over shared memory the sum happens after it.
fm_g=$(engine fm2g 2 fashion-mnist 64 "$FM_STEPS" --grad-transport gloo)
fm_gno=$(engine fm2gno 2 fashion-mnist 64 "$FM_STEPS" --grad-transport gloo --no-overlap)
# Mixed precision: bf16 autocast against fp32, the engine and torch.autocast in Python side by side. Whether bf16
# pays depends on the CPU (AVX-512 BF16 / AMX run it natively; without them it is emulated and slower).
ae_bf=$(engine ae2bf 2 autoencoder 50 "$AE_STEPS" --precision bf16)
fm_bf=$(engine fm2bf 2 fashion-mnist 64 "$FM_STEPS" --precision bf16)
ae_pbf=$(reference ae2pybf 2 autoencoder 50 "$AE_STEPS" --precision bf16)
fm_pbf=$(reference fm2pybf 2 fashion-mnist 64 "$FM_STEPS" --precision bf16)

# Scaling: the machine's speed drifts over minutes, so each round measures 1 worker, 2 workers, 1 worker back to
# back and the efficiency is the median of the rounds' own ratios.
printf '%-44s %12s %12s %12s\n' "scaling, fashion-mnist (efficiency = s/s(2) / (2 x s/s(1)))" "engine" "engine gloo" "python"
eff_e=() eff_g=() eff_p=()
mean2() { "$PYTHON" -c "import sys; print('%.1f' % ((float(sys.argv[1]) + float(sys.argv[2])) / 2))" "$1" "$2"; }
for ((round = 1; round <= ROUNDS; round++)); do
  # 1 worker before and after the 2-worker runs (A-B-B-A): a drift in the machine's speed cancels out.
  e1a=$(engine "fm1ar$round" 1 fashion-mnist 64 "$FM_STEPS")
  e2=$(engine "fm2r$round" 2 fashion-mnist 64 "$FM_STEPS")
  g2=$(engine "fm2gr$round" 2 fashion-mnist 64 "$FM_STEPS" --grad-transport gloo)
  e1b=$(engine "fm1br$round" 1 fashion-mnist 64 "$FM_STEPS")
  p1a=$(reference "fm1apyr$round" 1 fashion-mnist 64 "$FM_STEPS")
  p2=$(reference "fm2pyr$round" 2 fashion-mnist 64 "$FM_STEPS")
  p1b=$(reference "fm1bpyr$round" 1 fashion-mnist 64 "$FM_STEPS")
  e1=$(mean2 "$e1a" "$e1b") p1=$(mean2 "$p1a" "$p1b")
  eff_e+=("$(ratio "$e2" "$(ratio "$e1" 0.5)")")
  eff_g+=("$(ratio "$g2" "$(ratio "$e1" 0.5)")")
  eff_p+=("$(ratio "$p2" "$(ratio "$p1" 0.5)")")
  printf '%-44s %12s %12s %12s\n' "round $round: 1 worker samples/s (before+after)" "$e1" "$e1" "$p1"
  printf '%-44s %12s %12s %12s\n' "round $round: 2 workers samples/s" "$e2" "$g2" "$p2"
  printf '%-44s %12s %12s %12s\n' "round $round: efficiency" "${eff_e[-1]}" "${eff_g[-1]}" "${eff_p[-1]}"
done
printf '%-44s %12s %12s %12s\n' "efficiency (median of $ROUNDS rounds)" "$(median "${eff_e[@]}")" \
  "$(median "${eff_g[@]}")" "$(median "${eff_p[@]}")"
echo
printf '%-44s %12s %12s %8s\n' "overlap (engine, 2 workers)" "overlap s/s" "no-overlap" "ratio"
printf '%-44s %12s %12s %8s\n' "autoencoder" "$ae_e" "$ae_no" "$(ratio "$ae_e" "$ae_no")"
printf '%-44s %12s %12s %8s\n' "fashion-mnist" "$fm_e" "$fm_no" "$(ratio "$fm_e" "$fm_no")"
printf '%-44s %12s %12s %8s\n' "fashion-mnist, --grad-transport gloo" "$fm_g" "$fm_gno" "$(ratio "$fm_g" "$fm_gno")"
echo
bf16_cpu=$(grep -qw avx512_bf16 /proc/cpuinfo && echo "this CPU has AVX-512 BF16" || echo "no native bf16 on this CPU")
printf '%-44s %12s %12s %8s %12s\n' "precision, 2 workers ($bf16_cpu)" "fp32 s/s" "bf16 s/s" "ratio" "python ratio"
printf '%-44s %12s %12s %8s %12s\n' "autoencoder" "$ae_e" "$ae_bf" "$(ratio "$ae_bf" "$ae_e")" \
  "$(ratio "$ae_pbf" "$ae_p")"
printf '%-44s %12s %12s %8s %12s\n' "fashion-mnist" "$fm_e" "$fm_bf" "$(ratio "$fm_bf" "$fm_e")" \
  "$(ratio "$fm_pbf" "$fm_p")"
echo
"$PYTHON" "$HERE/peak_rss.py" "$WORKER" "$PYTHON" 30
echo
"$PYTHON" "$HERE/node_memory.py" "$WORKER" "$PYTHON" 60
echo
"$PYTHON" "$HERE/first_step.py" "$WORKER" "$PYTHON" 3
echo
"$PYTHON" "$HERE/two_nodes.py" "$WORKER" "$PYTHON" "$((80 * SCALE))" "$((200 * SCALE))"
echo
"$PYTHON" "$HERE/instrument_overhead.py"
echo
"$PYTHON" "$HERE/hold_up_latency.py" "$(dirname "$WORKER")/ddpdesk-cli" "$PYTHON" 3
