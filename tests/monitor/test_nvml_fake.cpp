// monitor.nvml_fake (Linux) and wine.nvml_fake (mingw-w64 under wine, with the fake built as fake_nvml.dll):
// the NVML reader through the real loading path (DDPDESK_NVML_LIBRARY, full path -> dlopen / LoadLibraryW ->
// symbol lookup) against the fake driver library the Qt tests use: two GPUs, GPU 1 without a fan
// (NOT_SUPPORTED), GPU 1 lost mid-run (GPU_IS_LOST) while GPU 0 goes on, and a driver that is not loaded.
// The reads run in a child started with the fake's script in its environment.
#include "mini_test.h"
#include "monitor/gpu_reader.h"
#include "monitor/nvml_library.h"
#include "subprocess.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

using namespace ddpdesk;
using namespace ddpdesk::testsupport;
using namespace std::chrono_literals;

namespace {

std::string fakeLibrary() {
#ifdef _WIN32
    return (std::filesystem::path(currentExecutable()).parent_path() / "fake_nvml.dll").string();
#else
    return FAKE_NVML_PATH;
#endif
}

// The child: three samples, one line per GPU each, then the notices.
int readGpus() {
    monitor::GpuReader reader;
    if (!reader.status().available) {
        std::printf("unavailable: %s\n", reader.status().reason.c_str());
        return 0;
    }
    for (int round = 0; round < 3; ++round)
        for (const auto& g : reader.sample())
            std::printf("round %d gpu %d lost %d util %d fan %d name %s\n", round, g.index, int(g.lost),
                        int(g.gpuUtilPercent.value_or(999)), int(g.fanPercent.value_or(999)), g.name.c_str());
    for (const std::string& notice : reader.takeNotices())
        std::printf("notice: %s\n", notice.c_str());
    return 0;
}

std::string readWith(const EnvChanges& script) {
    EnvChanges env = script;
    env.push_back({monitor::kNvmlLibraryEnv, fakeLibrary()});
    const ProgramResult r = runProgram(currentExecutable(), {"--read"}, 60s, env);
    if (!r.finished || r.exitCode != 0) return "child failed (" + std::to_string(r.exitCode) + "): " + r.err;
    std::string out = r.out;
    out.erase(std::remove(out.begin(), out.end(), '\r'), out.end());
    return out;
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

TEST_CASE(readsBothGpusAndAMissingFan) {
    const std::string out = readWith({});
    TEST_CHECK_MSG(has(out, "round 0 gpu 0 lost 0 util 37 fan 30 name DDP Desk Fake GPU 0\n"), out);
    TEST_CHECK_MSG(has(out, "round 0 gpu 1 lost 0 util 88 fan 999 name DDP Desk Fake GPU 1\n"), out);
    TEST_CHECK_MSG(!has(out, "notice"), out);
}

TEST_CASE(aLostGpuIsReportedOnceAndTheOtherGoesOn) {
    const std::string out = readWith({{"FAKE_NVML_LOST_AFTER", std::string("1")}});
    TEST_CHECK_MSG(has(out, "round 0 gpu 1 lost 0 util 88"), out);
    TEST_CHECK_MSG(has(out, "round 1 gpu 1 lost 1"), out);
    TEST_CHECK_MSG(has(out, "round 2 gpu 1 lost 1"), out);
    TEST_CHECK_MSG(has(out, "round 2 gpu 0 lost 0 util 37"), out);
    TEST_CHECK_MSG(has(out,
                       "notice: GPU 1 (DDP Desk Fake GPU 1, 00000000:86:00.0) was lost: GPU is lost (NVML "
                       "error 15)"),
                   out);
}

TEST_CASE(aDriverThatIsNotLoadedSaysSo) {
    const std::string out = readWith({{"FAKE_NVML_INIT_RESULT", std::string("9")}});
    TEST_CHECK_MSG(has(out, "unavailable: "), out);
    TEST_CHECK_MSG(!has(out, "round"), out);
}

int main(int argc, char** argv) {
    if (argc > 1 && std::string(argv[1]) == "--read") return readGpus();
    return runAll(argc, argv);
}
