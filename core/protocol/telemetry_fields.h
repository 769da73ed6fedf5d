#pragma once

// The field names of the telemetry events (core/protocol/telemetry.h), each spelled once: writers and readers
// use these names, never the literal. The wire strings are fixed: the Python instrumentation module
// (resources/python/ddpdesk_instrument.py) writes the `step` event's and users' metrics.jsonl readers read
// them. A name several events share is defined once, under the event that introduces it; each event's comment
// lists all of its fields. Keep in sync with the README's "Telemetry protocol" table.

namespace ddpdesk::protocol::field {

// Envelope, on every event: v, event, rank, t; `source` on events not from a rank's own telemetry.
constexpr const char* V = "v";
constexpr const char* Event = "event";
constexpr const char* Rank = "rank";
// The node an event came from, added by node 0's launcher to what another node's launcher forwarded
// (protocol/node_link.h); absent on a node's own events.
constexpr const char* Node = "node";
constexpr const char* T = "t";
constexpr const char* Source = "source"; // "launcher", "monitor", "script", the instrumentation's tag

// hello: world_size, local_rank, local_world_size, identity_source, host, pid, device, workload, threads,
// store, versions{ddpdesk, torch, protocol}.
constexpr const char* WorldSize = "world_size";
constexpr const char* LocalRank = "local_rank";
constexpr const char* LocalWorldSize = "local_world_size";
constexpr const char* IdentitySource = "identity_source";
constexpr const char* Host = "host";
constexpr const char* Pid = "pid";
constexpr const char* Device = "device";
constexpr const char* Workload = "workload";
constexpr const char* Threads = "threads";
constexpr const char* Store = "store";
constexpr const char* Versions = "versions";
constexpr const char* VersionDdpdesk = "ddpdesk";   // in versions
constexpr const char* VersionTorch = "torch";       // in versions
constexpr const char* VersionProtocol = "protocol"; // in versions

// rendezvous: phase, store, elapsed_ms; store_connect adds hosting, pg_create device; done (the trainer's
// plan) adds buckets, overlap, grad_transport, precision, prepare_ms, peer_wait_ms, and by transport
// grad_compression, grad_transport_note, nodes, local_ranks.
constexpr const char* Phase = "phase";
constexpr const char* ElapsedMs = "elapsed_ms";
constexpr const char* Hosting = "hosting";
constexpr const char* Buckets = "buckets";
constexpr const char* Overlap = "overlap";
constexpr const char* GradTransport = "grad_transport";
constexpr const char* GradTransportNote = "grad_transport_note";
constexpr const char* GradCompression = "grad_compression";
constexpr const char* Precision = "precision";
constexpr const char* PrepareMs = "prepare_ms";
constexpr const char* PeerWaitMs = "peer_wait_ms";
constexpr const char* Nodes = "nodes";
constexpr const char* LocalRanks = "local_ranks";

// step: epoch, step, total_steps, loss, samples (cumulative), step_ms, compute_ms, comm_wait_ms, data_ms
// (means since the previous step event; data_ms: a script's time outside forward and backward - data loading,
// the optimizer, its own code), bytes_allreduced, allreduce_calls, steps_averaged; with fp16 loss_scale,
// skipped_steps; a non-finite loss is null with loss_nonfinite (and, from a script's output, line). Readers
// also take samples_per_s when a script reports it.
constexpr const char* Epoch = "epoch";
constexpr const char* Step = "step";
constexpr const char* TotalSteps = "total_steps";
constexpr const char* Loss = "loss";
constexpr const char* Samples = "samples";
constexpr const char* StepMs = "step_ms";
constexpr const char* ComputeMs = "compute_ms";
constexpr const char* CommWaitMs = "comm_wait_ms";
// A script rank's step event while none of its forwards ran a DistributedDataParallel model (true; absent
// once one did): the rank trains alone, and its samples (counted at a DDP forward) and comm wait are not
// measured.
constexpr const char* NoDdp = "no_ddp";
constexpr const char* DataMs = "data_ms";
// Of step_ms, the validation passes and the checkpoint saves between the steps (a script's; means per step
// like step_ms): not the rank's training work, and not part of data_ms.
constexpr const char* EvalMs = "eval_ms";
constexpr const char* SaveMs = "save_ms";
constexpr const char* BytesAllreduced = "bytes_allreduced";
constexpr const char* AllreduceCalls = "allreduce_calls";
constexpr const char* StepsAveraged = "steps_averaged";
constexpr const char* LossScale = "loss_scale";
constexpr const char* SkippedSteps = "skipped_steps";
constexpr const char* LossNonFinite = "loss_nonfinite"; // "nan", "inf" or "-inf"
// The first step since the previous event whose loss was not finite (the event itself reports a later one).
constexpr const char* LossNonFiniteStep = "loss_nonfinite_step";
constexpr const char* Line = "line";

// epoch: epoch, step, train_loss, test_accuracy (classification) or test_loss; null without a test set.
constexpr const char* TrainLoss = "train_loss";
constexpr const char* TestAccuracy = "test_accuracy";
constexpr const char* TestLoss = "test_loss";

// eval: state (eval_state below), step (the steps trained so far), samples (this pass's, so far), eval_ms
// (this pass's time so far), eval_total_ms and passes (every pass of the rank's so far, this one included:
// the latest event says it all, so a dropped one loses nothing). "running" comes at most once a second while
// the pass goes on (progress: an evaluating rank is not stalled).
constexpr const char* EvalTotalMs = "eval_total_ms";
constexpr const char* Passes = "passes";

// checkpoint: path, step, epoch; model at the end, resumed when continuing. A script's (its torch.save) adds
// elapsed_ms (that save), saves and save_total_ms (every save of the rank's so far, this one included).
constexpr const char* Saves = "saves";
constexpr const char* SaveTotalMs = "save_total_ms";
constexpr const char* Path = "path";
constexpr const char* Model = "model";
constexpr const char* Resumed = "resumed";

// error: code (stable, protocol::error_code), message, exit_code, waiting_for (optional object).
constexpr const char* Code = "code";
constexpr const char* Message = "message";
constexpr const char* ExitCode = "exit_code";
constexpr const char* WaitingFor = "waiting_for";
// waiting_for: what, store, timeout_s, and by what: step, epoch, world_size, device, arrived, missing,
// duplicate_rank, rank, host, pid, why.
constexpr const char* What = "what";
constexpr const char* TimeoutS = "timeout_s";
constexpr const char* Arrived = "arrived";
constexpr const char* Missing = "missing";
constexpr const char* DuplicateRank = "duplicate_rank";
constexpr const char* Why = "why";

// done: steps, epochs_completed, wall_s, final_loss, samples, samples_per_s, test_accuracy, params_sha256,
// model (rank 0); skipped_steps with fp16.
constexpr const char* Steps = "steps";
constexpr const char* EpochsCompleted = "epochs_completed";
constexpr const char* WallS = "wall_s";
constexpr const char* FinalLoss = "final_loss";
constexpr const char* SamplesPerS = "samples_per_s";
constexpr const char* ParamsSha256 = "params_sha256";

// store_notice: code (STORE_*), text.
constexpr const char* Text = "text";

// log: source, stream ("stdout"|"stderr"), text.
constexpr const char* Stream = "stream";

// gpu (launcher's monitor, docs/monitor.md): driver, gpus[]; each gpu: index, name, uuid, pci_bus_id, lost,
// gpu_util_percent, mem_util_percent, mem_used_bytes, mem_total_bytes, temperature_c, power_w,
// power_limit_w, sm_clock_mhz, mem_clock_mhz, fan_percent, pcie_tx_bytes_per_s, pcie_rx_bytes_per_s,
// processes[] (pid, used_mem_bytes) or null.
constexpr const char* Driver = "driver";
constexpr const char* Gpus = "gpus";
constexpr const char* Index = "index";
constexpr const char* Name = "name";
constexpr const char* Uuid = "uuid";
constexpr const char* PciBusId = "pci_bus_id";
constexpr const char* Lost = "lost";
constexpr const char* GpuUtilPercent = "gpu_util_percent";
constexpr const char* MemUtilPercent = "mem_util_percent";
constexpr const char* MemUsedBytes = "mem_used_bytes";
constexpr const char* MemTotalBytes = "mem_total_bytes";
constexpr const char* TemperatureC = "temperature_c";
constexpr const char* PowerW = "power_w";
constexpr const char* PowerLimitW = "power_limit_w";
constexpr const char* SmClockMhz = "sm_clock_mhz";
constexpr const char* MemClockMhz = "mem_clock_mhz";
constexpr const char* FanPercent = "fan_percent";
constexpr const char* PcieTxBytesPerS = "pcie_tx_bytes_per_s";
constexpr const char* PcieRxBytesPerS = "pcie_rx_bytes_per_s";
constexpr const char* Processes = "processes";
constexpr const char* UsedMemBytes = "used_mem_bytes";

// proc (launcher's monitor): processes[]; each: pid, rank, alive, cpu_percent, cpu_seconds, rss_bytes,
// threads, gpus[] (index, used_mem_bytes), error (when it could not be read).
constexpr const char* Alive = "alive";
constexpr const char* CpuPercent = "cpu_percent";
constexpr const char* CpuSeconds = "cpu_seconds";
constexpr const char* RssBytes = "rss_bytes";
constexpr const char* Error = "error";

// store_inspect (the worker's --inspect-store): store, reachable, error, keys, and by store all_keys,
// num_keys, finished_ranks, file_size.
constexpr const char* Reachable = "reachable";
constexpr const char* Keys = "keys";
constexpr const char* AllKeys = "all_keys";
constexpr const char* NumKeys = "num_keys";
constexpr const char* FinishedRanks = "finished_ranks";
constexpr const char* FileSize = "file_size";

// Launcher events (source "launcher", docs/launcher.md):
// launch: config, program, store.
constexpr const char* Config = "config";
constexpr const char* Program = "program";
// rank_start: pid, local_rank, attempt, warm.
constexpr const char* Attempt = "attempt";
constexpr const char* Warm = "warm";
// rank_exit: local_rank, exit_code, signal, text, state.
constexpr const char* Signal = "signal";
constexpr const char* State = "state";
// restart: restart, max_restarts, reason.
constexpr const char* Restart = "restart";
constexpr const char* MaxRestarts = "max_restarts";
constexpr const char* Reason = "reason";
// stall: behind, ranks[] (rank, step, state, phase), stall_timeout_s; doctor or doctor_error once diagnosed.
constexpr const char* Behind = "behind";
constexpr const char* Ranks = "ranks";
constexpr const char* StallTimeoutS = "stall_timeout_s";
constexpr const char* Doctor = "doctor";
constexpr const char* DoctorError = "doctor_error";
// diagnosis (the hold-up watch, launch/watch/collective_watch.h): code (RANK_BEHIND, COLLECTIVE_WAIT_ALL),
// text, behind[], waiting[], collective{number, kind, detail, bytes}, waited_s, last_collectives{rank:
// [the rank's last 8 collectives, protocol/collective_history.h]}. summary.json ranks[].collectives: the
// last 64.
constexpr const char* Waiting = "waiting";
constexpr const char* Collective = "collective";
constexpr const char* Number = "number";
constexpr const char* Kind = "kind";
constexpr const char* Detail = "detail";
constexpr const char* Bytes = "bytes";
constexpr const char* WaitedS = "waited_s";
constexpr const char* LastCollectives = "last_collectives";
constexpr const char* Collectives = "collectives";
// diagnosis STRAGGLER (launch/watch/straggler_watch.h): code, text, behind[] (the slow rank), fastest_rank,
// ratio, own_ms, fastest_ms, slow_part ("compute", "data_loading"), part_ms, fastest_part_ms, slow_for_s, and
// its process's cpu_percent, threads where the monitor sampled it; for a rank on a GPU, its index, its
// gpu_util_percent, temperature_c and sm_clock_mhz, the fastest rank's GPU's fastest_sm_clock_mhz, and
// gpu_other_pids (other processes on its GPU).
constexpr const char* FastestRank = "fastest_rank";
constexpr const char* Ratio = "ratio";
constexpr const char* OwnMs = "own_ms";
constexpr const char* FastestMs = "fastest_ms";
constexpr const char* SlowPart = "slow_part";
constexpr const char* PartMs = "part_ms";
constexpr const char* FastestPartMs = "fastest_part_ms";
constexpr const char* SlowForS = "slow_for_s";
constexpr const char* FastestSmClockMhz = "fastest_sm_clock_mhz";
constexpr const char* GpuOtherPids = "gpu_other_pids";
// stacks: reason, pid, text.
// run_end: summary (summary.json's object).
constexpr const char* Summary = "summary";

} // namespace ddpdesk::protocol::field
