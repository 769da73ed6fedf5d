// `ddpdesk-cli gpus [--json] [--watch [--interval S] [--count N]]`: the nvidia-smi-like view of core/monitor.
// No driver is a normal state: it says why NVML could not be loaded and exits 0.

#include "commands.h"

#include "monitor/gpu_reader.h"
#include "monitor/gpu_table.h"
#include "monitor/monitor_events.h"
#include "protocol/telemetry.h"

#include <chrono>
#include <iostream>
#include <memory>
#include <thread>

namespace ddpdesk::cli {

namespace {

struct GpusOptions {
    bool json = false;
    bool watch = false;
    double intervalSeconds = 1.0;
    int count = 0; // with --watch: refreshes before exiting, 0 = until Ctrl-C
};

void printOnce(monitor::GpuReader& reader, const GpusOptions& options, bool first) {
    const double t = protocol::nowSeconds();
    std::vector<monitor::GpuSample> gpus = reader.sample();
    for (const std::string& notice : reader.takeNotices())
        std::cerr << "ddpdesk-cli gpus: " << notice << "\n";
    if (options.json) {
        // Watching prints JSON Lines (one document per refresh); a single report is indented for people.
        // A driver's GPU name is not guaranteed UTF-8; replaced, so the report never throws.
        std::cout << monitor::gpuReport(reader.status(), gpus, t)
                         .dump(options.watch ? -1 : 2, ' ', false, nlohmann::json::error_handler_t::replace)
                  << "\n";
    } else {
        if (!first) std::cout << "\n";
        std::cout << monitor::formatGpuTable(reader.status(), gpus, t);
    }
    std::cout.flush();
}

int runGpus(const GpusOptions& options) {
    monitor::GpuReader reader;
    printOnce(reader, options, true);
    if (!options.watch) return 0;
    if (!reader.status().available) {
        std::cerr << "ddpdesk-cli gpus: nothing to watch without NVML\n";
        return 0;
    }
    const auto interval = std::chrono::duration<double>(options.intervalSeconds);
    for (int shown = 1; options.count == 0 || shown < options.count; ++shown) {
        std::this_thread::sleep_for(interval);
        printOnce(reader, options, false);
    }
    return 0;
}

} // namespace

void addGpusCommand(CLI::App& app, CliContext& ctx) {
    auto options = std::make_shared<GpusOptions>();
    CLI::App* gpus = app.add_subcommand(
        "gpus",
        "Show NVIDIA GPUs like nvidia-smi: utilization, memory, temperature, power, clocks, fan, PCIe and "
        "compute processes (NVML from the installed driver; without one it says why and exits 0)");
    gpus->add_flag("--json", options->json,
                   "Print JSON instead of the table (with --watch: one JSON document per line)");
    CLI::Option* watch =
        gpus->add_flag("--watch,-w", options->watch, "Refresh until Ctrl-C (or --count refreshes)");
    gpus->add_option("--interval", options->intervalSeconds,
                     "Seconds between refreshes with --watch (default 1)")
        ->check(CLI::Range(0.1, 3600.0))
        ->needs(watch);
    gpus->add_option("--count", options->count,
                     "With --watch: stop after N refreshes (default 0 = until Ctrl-C)")
        ->check(CLI::NonNegativeNumber)
        ->needs(watch);
    gpus->callback([options, &ctx] { ctx.exitCode = runGpus(*options); });
}

} // namespace ddpdesk::cli
