// os.process (Linux) and wine.process (mingw-w64 under wine): the facts process.h answers about a process -
// alive, its name, the monitor's sample (CPU time, memory, threads, start stamp) - for this process, for a
// child that runs and for one that has exited, so both halves answer the same questions the same way; and how
// busy the whole machine was against this process and the children it reaped (machine_load.h).
#include "mini_test.h"
#include "os/machine_load.h"
#include "os/process.h"
#include "subprocess.h"

#include <chrono>
#include <ctime>
#include <string>
#include <thread>

using namespace ddpdesk;
using namespace ddpdesk::testsupport;

namespace {

int sleeper() {
    std::this_thread::sleep_for(std::chrono::seconds(60));
    return 0;
}

// Burns CPU for a moment so this process's CPU time is measurably above zero: `ms` of CPU time where
// std::clock counts it (POSIX; a loaded machine stretches the wall time, not the work), else of wall time.
void spin(int ms = 50) {
    volatile unsigned long long sink = 0;
    const std::clock_t cpu = std::clock();
    const auto start = std::chrono::steady_clock::now();
    const auto cap = start + std::chrono::seconds(10);
    auto done = [&] {
        const auto now = std::chrono::steady_clock::now();
        return now > cap || double(std::clock() - cpu) * 1000.0 / CLOCKS_PER_SEC >= ms;
    };
    while (!done())
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

// The machine counts the CPU time this process burns (whatever else runs adds to it, never takes away), and
// where the OS sums exited children's time (POSIX), a reaped child's 300 ms of work counts as this run's own.
TEST_CASE(theMachineCountsBusyTimeAndAReapedChildIsOurs) {
    const auto machine0 = os::readMachineCpu();
    const auto own0 = os::ownAndReapedCpuSeconds();
    const auto wall0 = std::chrono::steady_clock::now();
    spin(300);
    Subprocess child;
    TEST_REQUIRE(child.start(currentExecutable(), {"--spin"}));
    TEST_REQUIRE(child.waitFor(std::chrono::seconds(30)));
    const auto machine1 = os::readMachineCpu();
    const auto own1 = os::ownAndReapedCpuSeconds();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    TEST_REQUIRE(machine0 && machine1);
    const double busy = machine1->busySeconds - machine0->busySeconds;
    const double total = machine1->totalSeconds - machine0->totalSeconds;
    // 0.3 s here and 0.3 s in the child, less the clock ticks' coarseness. On a machine kept busy by other
    // work the two sums are all but equal, and their two readings a few ticks apart (wine under CI once read
    // busy above total): a tick or two either way.
    TEST_CHECK_MSG(busy >= 0.4, std::to_string(busy));
    TEST_CHECK_MSG(total >= busy - 0.05 && total >= 0.9 * wall,
                   std::to_string(total) + " of " + std::to_string(wall) + ", busy " + std::to_string(busy));
#ifdef _WIN32
    TEST_CHECK(!own0 && !own1);
#else
    TEST_REQUIRE(own0 && own1);
    TEST_CHECK_MSG(*own1 - *own0 >= 0.5, std::to_string(*own1 - *own0));
#endif
}

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "--sleep") return sleeper();
    if (mode == "--spin") {
        spin(300);
        return 0;
    }
    return runAll(argc, argv);
}
