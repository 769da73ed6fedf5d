// The one table of worker training settings: the launcher writes flags from it, the worker and the CLI parse
// them from it, profiles store them under its keys, and both sides check values by its rules. A setting
// that is set must come out as its flag, one that is unset must not, and a saved profile must read back
// to the same settings (also the older profiles that wrote "worker default" as 0 or -1).
#include "protocol/worker_settings.h"

#include "mini_test.h"

#include <set>

using namespace ddpdesk::protocol;
using ddpdesk::testsupport::testRow;

namespace {

std::string joined(const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& s : v)
        out += (out.empty() ? "" : " ") + s;
    return out;
}

std::vector<std::string> fieldsWithProblems(const WorkerSettings& s) {
    std::vector<std::string> out;
    for (const SettingProblem& p : settingProblems(s))
        out.push_back(p.info.field());
    return out;
}

} // namespace

TEST_CASE(everySettingHasItsOwnFlagAndKey) {
    WorkerSettings s;
    std::set<std::string> flags, keys;
    int count = 0;
    visitSettings(s, [&](const SettingInfo& info, const auto&) {
        ++count;
        TEST_REQUIRE_MSG(std::string(info.flag).rfind("--", 0) == 0, info.flag);
        TEST_REQUIRE_MSG(flags.insert(info.flag).second, std::string("flag twice: ") + info.flag);
        TEST_REQUIRE_MSG(keys.insert(info.key).second, std::string("key twice: ") + info.key);
        TEST_REQUIRE_MSG(info.help && *info.help, std::string("no help for ") + info.flag);
        TEST_REQUIRE_EQ(info.rule == SettingRule::OneOf, info.choices != nullptr);
    });
    TEST_REQUIRE_EQ(count, 17);
    TEST_REQUIRE(flags.count("--checkpoint-every") == 1);
}

TEST_CASE(onlyWhatIsSetBecomesAFlag) {
    WorkerSettings s;
    TEST_REQUIRE_EQ(joined(settingArgs(s)), std::string());
    TEST_REQUIRE(settingProblems(s).empty());

    s.steps = 12;
    s.batchSize = 16;
    s.lr = 0.1;
    s.seed = 0; // set to the worker's default still counts as chosen
    s.noOverlap = true;
    s.gradTransport = "gloo";
    s.checkpointEvery = 4;
    s.resume = true;
    s.telemetryMs = 0;
    TEST_REQUIRE_EQ(
        joined(settingArgs(s)),
        std::string("--steps 12 --batch-size 16 --lr 0.1 --seed 0 --no-overlap --grad-transport gloo "
                    "--checkpoint-every 4 --resume --telemetry-ms 0"));
    s.gradTransport = "auto"; // the default choice is left out
    s.checkpointEvery = 0;
    TEST_REQUIRE_EQ(joined(settingArgs(s)).find("grad-transport"), std::string::npos);
    TEST_REQUIRE_EQ(joined(settingArgs(s)).find("checkpoint-every"), std::string::npos);
}

TEST_CASE(numbersKeepEveryBit) {
    for (double v : {0.1, 1e-4, 0.003, 2.0 / 3.0, 25.0, 1e-300, 123456789.125})
        testRow(formatNumber(v), [&] {
            WorkerSettings s;
            s.lr = v;
            const auto args = settingArgs(s);
            TEST_REQUIRE_EQ(args.size(), std::size_t(2));
            TEST_REQUIRE_EQ(std::stod(args[1]), v);
        });
    TEST_REQUIRE_EQ(formatNumber(0.01), std::string("0.01")); // short, as a user would type it
    TEST_REQUIRE_EQ(formatNumber(25.0), std::string("25"));
}

TEST_CASE(badValuesNameTheirFlag) {
    struct Row {
        const char* name;
        void (*set)(WorkerSettings&);
        const char* field;
        const char* message;
    };
    const Row rows[] = {
        {"steps 0", [](WorkerSettings& s) { s.steps = 0; }, "steps", "--steps must be at least 1 (got 0)"},
        {"batch -4", [](WorkerSettings& s) { s.batchSize = -4; }, "batch-size",
         "--batch-size must be at least 1 (got -4)"},
        {"lr 0", [](WorkerSettings& s) { s.lr = 0.0; }, "lr", "--lr must be a positive number (got 0)"},
        {"lr inf", [](WorkerSettings& s) { s.lr = 1.0 / 0.0; }, "lr",
         "--lr must be a positive number (got inf)"},
        {"seed -1", [](WorkerSettings& s) { s.seed = -1; }, "seed", "--seed must be 0 or more (got -1)"},
        {"threads 1e9", [](WorkerSettings& s) { s.threads = 1000000000; }, "threads",
         "--threads must be at most 1024: more intra-op threads than any machine has cores only costs memory "
         "and "
         "time (got 1000000000)"},
        {"batch 99999999999", [](WorkerSettings& s) { s.batchSize = 99999999999; }, "batch-size",
         "--batch-size must be at most 1048576: a step's batch is held in memory whole (got 99999999999)"},
        {"global 2^21", [](WorkerSettings& s) { s.globalBatch = 1 << 21; }, "global-batch",
         "--global-batch must be at most 1048576: a step's batch is held in memory whole (got 2097152)"},
        {"bucket 1e12", [](WorkerSettings& s) { s.bucketMb = 1e12; }, "bucket-mb",
         "--bucket-mb must be at most 4096: a bucket is allocated whole on every rank; 4096 MiB is more than "
         "any "
         "model's gradients need (got 1e+12)"},
        {"checkpoint -2", [](WorkerSettings& s) { s.checkpointEvery = -2; }, "checkpoint-every",
         "--checkpoint-every must be 0 or more (got -2)"},
        {"transport", [](WorkerSettings& s) { s.gradTransport = "nccl"; }, "grad-transport",
         "--grad-transport 'nccl' is not valid; use auto, shm or gloo"},
        {"precision", [](WorkerSettings& s) { s.precision = "fp8"; }, "precision",
         "--precision 'fp8' is not valid; use fp32, bf16 or fp16"},
        {"epochs and steps",
         [](WorkerSettings& s) {
             s.epochs = 1;
             s.steps = 5;
         },
         "steps", "give either --epochs or --steps, not both"},
        {"batch and global",
         [](WorkerSettings& s) {
             s.batchSize = 8;
             s.globalBatch = 32;
         },
         "global-batch", "give either --batch-size or --global-batch, not both"},
    };
    for (const Row& row : rows)
        testRow(row.name, [&] {
            WorkerSettings s;
            row.set(s);
            const auto problems = settingProblems(s);
            TEST_REQUIRE_EQ(problems.size(), std::size_t(1));
            TEST_REQUIRE_EQ(problems[0].info.field(), std::string(row.field));
            TEST_REQUIRE_EQ(problems[0].message(), std::string(row.message));
        });
}

TEST_CASE(profilesReadBack) {
    WorkerSettings s;
    s.epochs = 3;
    s.globalBatch = 256;
    s.lr = 0.0125;
    s.bucketMb = 4.5;
    s.gradTransport = "shm";
    s.resume = true;
    s.limitSamples = 640;
    const nlohmann::json j = settingsToJson(s);
    TEST_REQUIRE_EQ(j.at("global_batch").get<int>(), 256);
    TEST_REQUIRE(!j.contains("steps")); // unset stays out
    const WorkerSettings back = settingsFromJson(nlohmann::json::parse(j.dump()));
    TEST_REQUIRE(back == s);
    TEST_REQUIRE_EQ(joined(settingArgs(back)), joined(settingArgs(s)));
}

TEST_CASE(olderProfilesMeanDefaults) {
    // What RunConfig wrote before settings could be unset: 0 / -1 for "the worker's default".
    const auto j = nlohmann::json::parse(R"({"epochs": 0, "steps": 40, "batch_size": 0, "lr": 0, "threads": 0,
        "bucket_mb": 0, "no_overlap": false, "grad_transport": "auto", "checkpoint_every": 5, "resume": false,
        "seed": -1, "telemetry_ms": -1, "limit_samples": 0, "nproc": 2, "out": "/tmp/x"})");
    const WorkerSettings s = settingsFromJson(j);
    TEST_REQUIRE(!s.epochs && !s.batchSize && !s.lr && !s.threads && !s.bucketMb && !s.seed &&
                 !s.telemetryMs && !s.limitSamples);
    TEST_REQUIRE_EQ(s.steps.value_or(0), std::int64_t(40));
    TEST_REQUIRE_EQ(s.checkpointEvery, std::int64_t(5));
    TEST_REQUIRE(fieldsWithProblems(s).empty());
    TEST_REQUIRE_EQ(joined(settingArgs(s)), std::string("--steps 40 --checkpoint-every 5"));
    // Wrong types are ignored like unknown keys, never thrown.
    const WorkerSettings odd = settingsFromJson(nlohmann::json::parse(R"({"steps": "many", "resume": 1})"));
    TEST_REQUIRE(!odd.steps && !odd.resume);
}

TEST_CASE(oneSettingFromTextAsTheCommandLineWould) {
    WorkerSettings s;
    TEST_REQUIRE_EQ(assignSetting(s, "precision", "bf16"), std::string());
    TEST_REQUIRE_EQ(s.precision, std::string("bf16"));
    TEST_REQUIRE_EQ(assignSetting(s, "batch-size", "48"), std::string());
    TEST_REQUIRE_EQ(s.batchSize.value_or(0), std::int64_t(48));
    TEST_REQUIRE_EQ(assignSetting(s, "lr", "0.003"), std::string());
    TEST_REQUIRE_EQ(s.lr.value_or(0), 0.003);
    TEST_REQUIRE_EQ(assignSetting(s, "no-overlap", "on"), std::string());
    TEST_REQUIRE(s.noOverlap);
    TEST_REQUIRE_EQ(joined(settingArgs(s)),
                    std::string("--batch-size 48 --precision bf16 --lr 0.003 --no-overlap"));

    TEST_REQUIRE_EQ(assignSetting(s, "precision", "fp8"),
                    std::string("--precision 'fp8' is not valid; use fp32, bf16 or fp16"));
    TEST_REQUIRE_EQ(assignSetting(s, "batch-size", "0"),
                    std::string("--batch-size must be at least 1 (got 0)"));
    TEST_REQUIRE_EQ(assignSetting(s, "batch-size", "12x"), std::string("--batch-size '12x' is not a number"));
    TEST_REQUIRE_EQ(assignSetting(s, "resume", "yes"), std::string("--resume 'yes' is not on or off"));
    TEST_REQUIRE_EQ(assignSetting(s, "nproc", "2"), std::string("--nproc is not a training setting"));
}

DDPDESK_TEST_MAIN()
