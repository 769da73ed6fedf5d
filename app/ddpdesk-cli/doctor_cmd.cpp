// `ddpdesk-cli doctor`: a thin view over core/doctor. Exit 0 when no finding is an error, 1 otherwise
// (2 for bad flags, via CLI11/main.cpp).

#include "commands.h"

#include "doctor/doctor.h"
#include "protocol/finding_codes.h"

#include <iostream>
#include <memory>

namespace ddpdesk::cli {

namespace {

struct DoctorOptions {
    doctor::DoctorRequest request;
    bool json = false;
    bool renameStale = false;
};

} // namespace

void addDoctorCommand(CLI::App& app, CliContext& ctx) {
    auto opts = std::make_shared<DoctorOptions>();
    CLI::App* cmd = app.add_subcommand(
        "doctor",
        "Explain why a DDP rendezvous will not start or hangs: store, ports, hosts and which ranks arrived");
    cmd->add_option("--store", opts->request.store, "file:PATH or tcp://HOST:PORT")->required();
    cmd->add_option("--world-size", opts->request.worldSize, "total number of ranks (0: unknown)")
        ->check(CLI::Range(0, 1 << 20));
    cmd->add_option("--node-rank", opts->request.nodeRank,
                    "0: this node hosts the TCPStore; other: this node connects to it")
        ->check(CLI::Range(0, 1 << 20));
    cmd->add_option("--rank", opts->request.rank, "a rank to check against the world size and the store")
        ->check(CLI::Range(0, 1 << 20));
    cmd->add_option("--timeout", opts->request.probeTimeoutSec,
                    "seconds each network probe may take (default 2)")
        ->check(CLI::Range(0.05, 60.0));
    cmd->add_option("--deadline", opts->request.deadlineSec,
                    std::string("seconds the whole diagnosis may take (default 10); then it reports what it "
                                "learned and ") +
                        protocol::finding::DeadlineReached)
        ->check(CLI::Range(0.1, 3600.0));
    cmd->add_flag("--running", opts->request.jobRunning,
                  "the job using this store is running or hung: diagnose it instead of a new launch");
    cmd->add_flag("--json", opts->json, "print {\"findings\":[...]} instead of text");
    cmd->add_option(
           "--rendezvous-timeout", opts->request.rendezvousTimeoutSec,
           "seconds ranks may wait in rendezvous (default 1800): a younger store with ranks missing may "
           "still be waited on, so it is not called stale")
        ->check(CLI::Range(1.0, 1e7));
    cmd->add_flag("--force", opts->request.force,
                  "on a node whose node rank is above 0, still judge whether the shared store is stale");
    // --delete-stale-store is the old name; it renames too (nothing is deleted).
    cmd->add_flag(
        "--rename-stale-store,--delete-stale-store", opts->renameStale,
        "apply the FILESTORE_STALE fix: rename the store file aside to NAME.stale-YYYYmmdd-HHMMSS when "
        "no rank can still be waiting on it");

    cmd->callback([opts, &ctx] {
        if (opts->renameStale) {
            auto fix = doctor::renameStaleStore(opts->request.store, opts->request);
            std::cerr << "ddpdesk-cli doctor: " << fix.message << "\n";
            if (!fix.ok) {
                ctx.exitCode = 1;
                return;
            }
        }
        const auto findings = doctor::diagnose(opts->request);
        if (opts->json)
            // The findings are valid UTF-8 already; `replace` keeps one stray byte from costing the whole
            // report.
            std::cout << doctor::toJson(findings).dump(2, ' ', false,
                                                       nlohmann::json::error_handler_t::replace)
                      << "\n";
        else
            std::cout << doctor::toText(findings);
        ctx.exitCode = doctor::hasError(findings) ? 1 : 0;
    });
}

} // namespace ddpdesk::cli
