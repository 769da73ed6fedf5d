// os.process (Linux) and wine.process (mingw-w64 under wine): the facts process.h answers about a process -
// alive, its name, the monitor's sample (CPU time, memory, threads, start stamp) - for this process, for a
// child that runs and for one that has exited, so both halves answer the same questions the same way.
#include "mini_test.h"
#include "os/process.h"
#include "subprocess.h"

#include <chrono>
#include <string>
#include <thread>

using namespace ddpdesk;
using namespace ddpdesk::testsupport;

namespace {

int sleeper() {
    std::this_thread::sleep_for(std::chrono::seconds(60));
    return 0;
}

// Burns CPU for a moment so this process's CPU time is measurably above zero.
void spin() {
    volatile unsigned long long sink = 0;
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
    while (std::chrono::steady_clock::now() < until)
        for (int i = 0; i < 10000; ++i)
            sink = sink + static_cast<unsigned long long>(i);
}

} // namespace

TEST_CASE(thisProcessIsAliveAndSampled) {
    const std::int64_t self = os::currentPid();
    TEST_REQUIRE(self > 0);
    TEST_CHECK(os::processAlive(self));
    TEST_CHECK(!os::processName(self).empty());
    spin();
    const os::RawProcessStats stats = os::readProcessStats(self);
    TEST_REQUIRE(stats.alive);
    TEST_CHECK(stats.error.empty());
    TEST_CHECK(stats.cpuSeconds > 0.0);
    TEST_CHECK(stats.residentBytes > 0);
    TEST_CHECK(stats.threads >= 1);
    TEST_CHECK(stats.startStamp != 0);
    // The same process keeps its start stamp: the monitor tells a reused pid by it.
    TEST_CHECK_EQ(os::readProcessStats(self).startStamp, stats.startStamp);
}

TEST_CASE(runningChildThenExitedChild) {
    Subprocess child;
    TEST_REQUIRE(child.start(currentExecutable(), {"--sleep"}));
    const std::int64_t pid = child.pid();
    TEST_CHECK(os::processAlive(pid));
    const os::RawProcessStats running = os::readProcessStats(pid);
    TEST_CHECK(running.alive);
    TEST_CHECK(running.startStamp != 0);
    child.kill();
    TEST_REQUIRE(child.exited());
    TEST_CHECK(!os::processAlive(pid));
    const os::RawProcessStats gone = os::readProcessStats(pid);
    TEST_CHECK(!gone.alive);
    TEST_CHECK(!gone.error.empty());
}

TEST_CASE(invalidPidIsNeitherAliveNorSampled) {
    TEST_CHECK(!os::processAlive(0));
    TEST_CHECK(!os::processAlive(-5));
    const os::RawProcessStats stats = os::readProcessStats(-1);
    TEST_CHECK(!stats.alive);
    TEST_CHECK(stats.error.find("invalid pid") != std::string::npos);
}

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "--sleep") return sleeper();
    return runAll(argc, argv);
}
