#pragma once

// Monitor samples as telemetry events (core/protocol), so the launcher can write them into metrics.jsonl and
// feed the RunModel the same way as worker events. Per snapshot: one `gpu` event holding every device, one
// `proc` event holding every watched process, and one `log` event per notice. Field reference:
// docs/monitor.md.

#include "monitor/gpu_sample.h"
#include "monitor/monitor_sampler.h"
#include "monitor/nvml_status.h"
#include "monitor/process_stats.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace ddpdesk::monitor {

// One device's fields (the objects in the `gpus` array); metrics a device does not report are null.
nlohmann::json gpuJson(const GpuSample& gpu);

// One process's fields (the objects in the `processes` array); `gpus` lists the GPUs it holds memory on.
nlohmann::json processJson(const ProcessSample& process, const std::vector<GpuSample>& gpus);

// {"v":1,"event":"gpu","rank":-1,"t":…,"driver":"…","gpus":[…]}
nlohmann::json gpuEvent(const std::vector<GpuSample>& gpus, const NvmlStatus& nvml, double t);

// {"v":1,"event":"proc","rank":-1,"t":…,"processes":[…]}
nlohmann::json procEvent(const std::vector<ProcessSample>& processes, const std::vector<GpuSample>& gpus,
                         double t);

// {"v":1,"event":"log","rank":-1,"t":…,"source":"monitor","text":"…"}
nlohmann::json noticeEvent(const std::string& text, double t);

// All events of one snapshot, notices first; a `gpu` event only when there are GPUs, a `proc` event only when
// processes are watched.
std::vector<nlohmann::json> snapshotEvents(const MonitorSnapshot& snapshot);

// The `gpus --json` document:
// {"nvml":{"available":…,"reason":…,"driver":…,"device_count":…},"t":…,"gpus":[…]}
nlohmann::json gpuReport(const NvmlStatus& nvml, const std::vector<GpuSample>& gpus, double t);

} // namespace ddpdesk::monitor
