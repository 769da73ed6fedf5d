#pragma once

// The training settings a launcher hands unchanged to every rank of ddpdesk-worker, each declared once here:
// its flag, its profile key, its rule and its help. The worker's parser, RunConfig (CLI `run`, the GUI's
// form, profiles), the exported torchrun/mpirun/srun commands and the checks on both sides read this table;
// adding a setting is one line in visitSettings() plus the engine code that uses it (docs/architecture.md).
// Rank identity and the store are not here: the launcher sets those per rank.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ddpdesk::protocol {

struct WorkerSettings {
    // Unset: the worker's default (given in the help), and nothing is passed on.
    std::optional<std::int64_t> epochs, steps;
    std::optional<std::int64_t> batchSize, globalBatch;
    std::int64_t accumulate = 1;
    std::string precision = "fp32";
    std::optional<double> lr;
    std::optional<std::int64_t> seed;
    std::optional<int> threads;
    std::optional<double> bucketMb;
    bool noOverlap = false;
    std::string gradTransport = "auto";
    std::string gradCompression = "none";
    std::int64_t checkpointEvery = 0;
    bool resume = false;
    std::optional<int> telemetryMs;
    std::optional<std::int64_t> limitSamples;

    bool operator==(const WorkerSettings& o) const;
    bool operator!=(const WorkerSettings& o) const { return !(*this == o); }
};

// What a value must satisfy; the launcher translates problems by rule, so the rules are few.
enum class SettingRule {
    None,       // a switch
    AtLeastOne, // a count
    ZeroOrMore, // 0 means "off" / "every time"
    Positive,   // a finite number above 0
    OneOf,      // one of SettingInfo::choices
    AtMost,     // only in a SettingProblem: above SettingInfo::max
};

struct SettingInfo {
    const char* flag; // "--checkpoint-every"
    const char* key;  // profile key, "checkpoint_every"
    SettingRule rule;
    const char* choices; // OneOf: "auto|shm|gloo"; else nullptr
    const char* help;    // worker --help and the CLI's run --help
    double max = 0;      // numbers: the largest value that makes sense (0: no bound beyond the type's)
    const char* maxWhy = nullptr; // why, for the message: "no machine has that many cores"

    std::string field() const { return std::string(flag).substr(2); } // "checkpoint-every"
    std::vector<std::string> choiceList() const;
    std::string choicesText() const; // "auto, shm or gloo"
};

// Calls visit(info, field) for every setting, field being a reference into s (const when s is), in the order
// the flags are documented. visit is generic: the field types are those of WorkerSettings.
// A step's batch is allocated whole: past 2^20 samples no machine holds it, and the worker would try for
// minutes.
inline constexpr double kMaxBatch = 1 << 20;
inline constexpr const char* kMaxBatchWhy = "a step's batch is held in memory whole";

template <class Settings, class Visit> void visitSettings(Settings& s, Visit&& visit) {
    using R = SettingRule;
    visit(SettingInfo{"--epochs", "epochs", R::AtLeastOne, nullptr, "Epochs to train (default 1)"}, s.epochs);
    visit(SettingInfo{"--steps", "steps", R::AtLeastOne, nullptr,
                      "Total optimizer steps across epochs (instead of --epochs)"},
          s.steps);
    visit(SettingInfo{"--batch-size", "batch_size", R::AtLeastOne, nullptr,
                      "Samples per rank per step (default: the workload's)", kMaxBatch, kMaxBatchWhy},
          s.batchSize);
    visit(SettingInfo{"--global-batch", "global_batch", R::AtLeastOne, nullptr,
                      "Samples per step over all ranks, split evenly (instead of --batch-size)", kMaxBatch,
                      kMaxBatchWhy},
          s.globalBatch);
    visit(
        SettingInfo{"--accumulate", "accumulate", R::AtLeastOne, nullptr,
                    "Micro-batches of the batch size per optimizer step; gradients add up and are exchanged "
                    "once per step, as under DDP's no_sync (default 1)"},
        s.accumulate);
    visit(
        SettingInfo{"--precision", "precision", R::OneOf, "fp32|bf16|fp16",
                    "Mixed precision: the forward pass and loss run under autocast in bf16 (CPU and CUDA) or "
                    "fp16 (CUDA only, with dynamic loss scaling); weights and optimizer state stay fp32 "
                    "(default fp32: no autocast)"},
        s.precision);
    visit(SettingInfo{"--lr", "lr", R::Positive, nullptr, "Learning rate (default: the workload's)"}, s.lr);
    visit(SettingInfo{"--seed", "seed", R::ZeroOrMore, nullptr,
                      "Seed for initialisation and shuffling (default 0)"},
          s.seed);
    visit(SettingInfo{"--threads", "threads", R::AtLeastOne, nullptr,
                      "Intra-op threads per worker (default: the cores split over this node's workers)", 1024,
                      "more intra-op threads than any machine has cores only costs memory and time"},
          s.threads);
    visit(
        SettingInfo{
            "--bucket-mb", "bucket_mb", R::Positive, nullptr, "Gradient bucket size in MiB (default 25)",
            4096,
            "a bucket is allocated whole on every rank; 4096 MiB is more than any model's gradients need"},
        s.bucketMb);
    visit(SettingInfo{"--no-overlap", "no_overlap", R::None, nullptr,
                      "Allreduce after backward instead of during it"},
          s.noOverlap);
    visit(
        SettingInfo{"--grad-transport", "grad_transport", R::OneOf, "auto|shm|gloo",
                    "Gradient exchange: auto (shared memory when all ranks share this machine, else Gloo) | "
                    "shm | gloo"},
        s.gradTransport);
    visit(
        SettingInfo{"--grad-compression", "grad_compression", R::OneOf, "none|fp16|bf16",
                    "Gradient buckets travel as fp16 or bf16 and are cast back after the exchange (PyTorch's "
                    "fp16/bf16 compression hooks): half the bytes, every rank still identical"},
        s.gradCompression);
    visit(SettingInfo{"--checkpoint-every", "checkpoint_every", R::ZeroOrMore, nullptr,
                      "Write OUT/checkpoint.pt every N steps (0: only at the end)"},
          s.checkpointEvery);
    visit(SettingInfo{"--resume", "resume", R::None, nullptr, "Continue from OUT/checkpoint.pt when present"},
          s.resume);
    visit(SettingInfo{"--telemetry-ms", "telemetry_ms", R::ZeroOrMore, nullptr,
                      "Minimum milliseconds between step events (0: every step; default 100)"},
          s.telemetryMs);
    visit(SettingInfo{"--limit-samples", "limit_samples", R::AtLeastOne, nullptr,
                      "Use only the first N training (and test) samples"},
          s.limitSamples);
}

// A value that breaks its rule, or two settings that exclude each other. `other` is set for the pair.
struct SettingProblem {
    SettingInfo info;
    SettingRule rule;            // the rule broken; None for an excluded pair
    std::string value;           // the offending value as given
    std::string other;           // the flag it excludes ("--epochs" for "--steps"), for a pair
    std::string message() const; // English, naming the flag: "--steps must be at least 1 (got 0)"
};

std::vector<SettingProblem> settingProblems(const WorkerSettings& s);

// The worker's flags for s: only what is set (or differs from its default), in table order.
std::vector<std::string> settingArgs(const WorkerSettings& s);

// The learning rate a workload trains with when --lr is not given (the worker's, and what the launcher
// reports for TensorBoard).
double defaultLearningRate(const std::string& workload);

// Sets one setting from text, by its flag without dashes ("precision", "batch-size"), the way the command
// line would: a sweep that compares values of a setting uses it. Empty when done, else an English message
// naming the flag (an unknown setting, text that is not a number, a value that breaks the rule).
std::string assignSetting(WorkerSettings& s, const std::string& field, const std::string& value);

// Profile form: the keys of SettingInfo::key, unset values left out. Reading is lenient the way profiles
// always were: a key that is missing keeps the default, and a number below its rule's range (the older
// "0 / -1 = worker default") means unset.
nlohmann::json settingsToJson(const WorkerSettings& s);
WorkerSettings settingsFromJson(const nlohmann::json& j);

// A number as the command line and profiles spell it: the shortest text that reads back to the same double.
std::string formatNumber(double v);

} // namespace ddpdesk::protocol
