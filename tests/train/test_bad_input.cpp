// Bad input never crashes or hangs the worker: each case ends quickly with one specific `error` event and the
// documented exit code.

#include "os/utf8_path.h"
#include "worker_harness_std.h"

#include <filesystem>
#include <map>

using namespace ddpdesk;
using namespace ddpdesk::traintest;
using ddpdesk::testsupport::TempDir;
using ddpdesk::testsupport::testRow;

namespace {

// A small IDX pair whose image file declares 50 images but holds 20.
std::string makeTruncatedIdx(const TempDir& dir) {
    const std::string folder = dir.filePath("truncated");
    std::filesystem::create_directories(ddpdesk::os::pathFromUtf8(folder));
    const std::string imagesHeader("\x00\x00\x08\x03\x00\x00\x00\x32\x00\x00\x00\x1c\x00\x00\x00\x1c", 16);
    const std::string labelsHeader("\x00\x00\x08\x01\x00\x00\x00\x32", 8);
    writeFileBytes(folder + "/train-images-idx3-ubyte", imagesHeader + std::string(20 * 784, '\x01'));
    writeFileBytes(folder + "/train-labels-idx1-ubyte", labelsHeader + std::string(50, '\x01'));
    return folder;
}

struct Row {
    std::string name;
    Args args;
    std::string envName;
    std::string envValue;
    std::string code;
    int exitCode;
};

} // namespace

TEST_CASE(rejected) {
    TempDir dir;
    const std::string out = dir.filePath("out");
    const Args ae{"--workload", "autoencoder", "--steps", "2", "--out", out};
    const Args fm{"--workload", "fashion-mnist", "--steps", "2", "--out", out};
    TEST_REQUIRE(writeFileBytes(dir.filePath("plain-file"), "x"));
    TEST_REQUIRE(
        writeFileBytes(dir.filePath("model.pt"), "print('I am Python source, not a TorchScript archive')\n"));

    const std::vector<Row> rows = {
        {"rank >= world size", ae + Args{"--rank", "2", "--world-size", "2"}, "", "", "BAD_INPUT", 2},
        {"world size 0", ae + Args{"--world-size", "0"}, "", "", "BAD_INPUT", 2},
        {"WORLD_SIZE=0 in env", ae, "WORLD_SIZE", "0", "BAD_INPUT", 2},
        {"RANK not a number", ae, "RANK", "one", "BAD_INPUT", 2},
        {"unknown flag", ae + Args{"--learning-rate", "1"}, "", "", "BAD_INPUT", 2},
        {"unknown workload", Args{"--workload", "resnet"}, "", "", "BAD_INPUT", 2},
        {"world 2 without store", ae + Args{"--rank", "0", "--world-size", "2"}, "", "", "BAD_INPUT", 2},
        {"malformed store", ae + Args{"--store", "redis://x"}, "", "", "BAD_INPUT", 2},
        {"store port out of range", ae + Args{"--store", "tcp://127.0.0.1:70000"}, "", "", "BAD_INPUT", 2},
        {"store folder missing", ae + Args{"--store", "file:" + dir.filePath("no/such/dir/store")}, "", "",
         "BAD_INPUT", 2},
        {"global batch not divisible",
         ae + Args{"--global-batch", "3", "--rank", "0", "--world-size", "2", "--store",
                   "file:" + dir.filePath("gb-store")},
         "", "", "BAD_INPUT", 2},
        {"missing dataset folder", fm + Args{"--data", dir.filePath("nothing-here")}, "", "", "DATA_MISSING",
         2},
        {"truncated dataset", fm + Args{"--data", makeTruncatedIdx(dir)}, "", "", "DATA_CORRUPT", 2},
        {"not TorchScript",
         Args{"--workload", "torchscript", "--model", dir.filePath("model.pt"), "--out", out}, "", "",
         "MODEL_INVALID", 2},
        {"model file missing",
         Args{"--workload", "torchscript", "--model", dir.filePath("absent.pt"), "--out", out}, "", "",
         "MODEL_INVALID", 2},
        {"unwritable output folder",
         Args{"--workload", "autoencoder", "--steps", "1", "--out", dir.filePath("plain-file/sub")}, "", "",
         "OUTPUT_UNWRITABLE", 2},
        {"cuda on a CPU-only LibTorch", ae + Args{"--device", "cuda"}, "CUDA_VISIBLE_DEVICES", "",
         "DEVICE_UNAVAILABLE", 2},
        {"NaN loss",
         Args{"--workload", "fashion-mnist", "--lr", "1e12", "--limit-samples", "640", "--steps", "20",
              "--out", out},
         "", "", "NAN_LOSS", 4},
    };

    for (const Row& row : rows)
        testRow(row.name, [&] {
            EnvChanges env = withoutRankVariables();
            if (!row.envName.empty()) env.emplace_back(row.envName, row.envValue);
            RankResult r = runWorker(row.args, 120000, env);
            TEST_REQUIRE_MSG(r.finished, "the worker hung");
            TEST_REQUIRE_MSG(r.exitCode == row.exitCode, r.describe());
            auto errors = r.ofType("error");
            TEST_REQUIRE_EQ(errors.size(), 1u);
            TEST_REQUIRE_EQ(errors.front().body["code"].get<std::string>(), row.code);
            TEST_REQUIRE(!errors.front().body["message"].get<std::string>().empty());
            TEST_REQUIRE(!r.last("done"));
            // stdout carries telemetry only: every non-empty line parsed as an event.
            size_t lines = 0;
            for (const std::string& line : splitLines(r.stdoutText))
                lines += trimmed(line).empty() ? 0 : 1;
            TEST_REQUIRE_EQ(lines, r.events.size());
        });
}

TEST_CASE(helpAndVersion) {
    RankResult help = runWorker({"--help"});
    TEST_REQUIRE_EQ(help.exitCode, 0);
    TEST_REQUIRE(contains(help.stdoutText, "--workload"));
    RankResult version = runWorker({"--version"});
    TEST_REQUIRE_EQ(version.exitCode, 0);
    TEST_REQUIRE(version.stdoutText.rfind("ddpdesk-worker ", 0) == 0);
    TEST_REQUIRE(contains(version.stdoutText, "LibTorch"));

    // Which CUDA, NCCL and Gloo headers the worker was built with: one line each, and NCCL never without
    // CUDA.
    std::map<std::string, std::string> lines;
    for (const std::string& line : splitLines(version.stdoutText)) {
        const size_t colon = line.find(": ");
        if (colon != std::string::npos) lines[line.substr(0, colon)] = trimmed(line.substr(colon + 2));
    }
    for (const char* key : {"CUDA", "NCCL", "Gloo headers"})
        TEST_REQUIRE_MSG(lines.count(key) == 1,
                         std::string("no '") + key + ": ' line in " + version.stdoutText);
    const bool cuda = lines["CUDA"].rfind("compiled in", 0) == 0;
    TEST_REQUIRE(cuda || lines["CUDA"].rfind("not available (", 0) == 0);
    if (!cuda) TEST_REQUIRE_MSG(lines["NCCL"].rfind("not available (", 0) == 0, lines["NCCL"]);
    // "Gloo headers: DIR (where from)": DIR holds gloo/algorithm.h, which the build compiled against.
    const std::string gloo = lines["Gloo headers"];
    const size_t open = gloo.find(" (");
    TEST_REQUIRE(open != std::string::npos && gloo.back() == ')');
    TEST_REQUIRE_MSG(
        std::filesystem::exists(ddpdesk::os::pathFromUtf8(gloo.substr(0, open) + "/gloo/algorithm.h")), gloo);
}

DDPDESK_TEST_MAIN()
