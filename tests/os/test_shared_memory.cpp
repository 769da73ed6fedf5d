// train.shared_memory (Linux) and wine.shared_memory (mingw-w64 under wine): the OS side of the worker's
// shared-memory gradient exchange and its durable file writes. Two real processes map one named block (this
// program started again as the peer), see each other's bytes, and each notices when the other is gone;
// names are exclusive and vanish with their last user; a file is replaced whole or not at all; environment
// variables are set and removed.
#include "mini_test.h"
#include "os/platform.h"
#include "os/process.h"
#include "os/shared_memory.h"
#include "subprocess.h"
#include "temp_dir.h"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>

using namespace ddpdesk;
using namespace ddpdesk::testsupport;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

constexpr std::size_t kBytes = 1 << 20;
// Where the peer writes its pid and answer; the parent's pattern fills the first half.
constexpr std::size_t kPeerPid = kBytes / 2;
constexpr std::size_t kPeerAnswer = kPeerPid + 8;

std::string uniqueToken() {
    std::random_device seed;
    return "test-" + std::to_string(std::uint64_t(seed()) << 16 ^ seed());
}

unsigned char patternAt(std::size_t i) {
    return static_cast<unsigned char>((i * 131 + 7) & 0xff);
}

// The peer: opens the block, checks the parent's pattern, writes its pid and the pattern's sum, then stays
// (until killed) or exits.
int peer(const std::string& token, bool stay) {
    try {
        auto memory = train::SharedMemory::open(token, kBytes);
        std::uint64_t sum = 0;
        for (std::size_t i = 0; i < kPeerPid; ++i) {
            if (memory->data()[i] != patternAt(i)) return 4;
            sum += memory->data()[i];
        }
        const std::int64_t pid = os::currentPid();
        std::memcpy(memory->data() + kPeerAnswer, &sum, sizeof sum);
        std::memcpy(memory->data() + kPeerPid, &pid, sizeof pid); // last: the parent polls for it
        if (stay) std::this_thread::sleep_for(120s);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "peer: %s\n", e.what());
        return 3;
    }
}

std::int64_t waitForPeerPid(const train::SharedMemory& memory, Subprocess& peer) {
    const auto deadline = Clock::now() + 30s;
    std::int64_t pid = 0;
    while (Clock::now() < deadline) {
        std::memcpy(&pid, memory.data() + kPeerPid, sizeof pid);
        if (pid != 0) return pid;
        if (peer.waitFor(10ms) && peer.exitCode() != 0) return -peer.exitCode();
    }
    return 0;
}

std::string readAll(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

} // namespace

TEST_CASE(twoProcessesShareOneBlock) {
    const std::string token = uniqueToken();
    auto memory = train::SharedMemory::create(token, kBytes);
    TEST_REQUIRE(memory->size() >= kBytes);
    for (std::size_t i = 0; i < kBytes; ++i)
        TEST_REQUIRE_MSG(memory->data()[i] == 0, "a new block is not zeroed at byte " + std::to_string(i));
    std::uint64_t expected = 0;
    for (std::size_t i = 0; i < kPeerPid; ++i) {
        memory->data()[i] = patternAt(i);
        expected += patternAt(i);
    }
    Subprocess other;
    TEST_REQUIRE(other.start(currentExecutable(), {"--peer", token}));
    const std::int64_t pid = waitForPeerPid(*memory, other);
    TEST_REQUIRE_MSG(pid > 0, "the peer saw no block or a wrong pattern (" + std::to_string(pid) +
                                  "): " + other.stderrText());
    TEST_CHECK_EQ(pid, other.pid());
    std::uint64_t sum = 0;
    std::memcpy(&sum, memory->data() + kPeerAnswer, sizeof sum);
    TEST_CHECK_EQ(sum, expected);
    TEST_CHECK(other.waitFor(30s));
    TEST_CHECK_EQ(other.exitCode(), 0);
}

TEST_CASE(namesAreExclusiveAndVanishWithTheirLastUser) {
    const std::string token = uniqueToken();
    {
        auto memory = train::SharedMemory::create(token, kBytes);
        bool secondCreate = false;
        try {
            train::SharedMemory::create(token, kBytes);
            secondCreate = true;
        } catch (const std::runtime_error& e) {
            TEST_CHECK_MSG(std::string(e.what()).find(token) != std::string::npos,
                           std::string("the error does not name the block: ") + e.what());
        }
        TEST_CHECK_MSG(!secondCreate, "a second create() of a live name succeeded");
        auto opened = train::SharedMemory::open(token, kBytes); // a peer of the same run
        opened->data()[5] = 42;
        TEST_CHECK_EQ(int(memory->data()[5]), 42);
        memory->removeName(); // every process has mapped it
    }
    bool reopened = false;
    try {
        train::SharedMemory::open(token, kBytes);
        reopened = true;
    } catch (const std::runtime_error&) {
    }
    TEST_CHECK_MSG(!reopened, "the name outlived every process that used it");
}

TEST_CASE(aPeerThatDiesIsNoticed) {
    const std::string token = uniqueToken();
    auto memory = train::SharedMemory::create(token, kBytes);
    for (std::size_t i = 0; i < kPeerPid; ++i)
        memory->data()[i] = patternAt(i);
    Subprocess other;
    TEST_REQUIRE(other.start(currentExecutable(), {"--peer-stays", token}));
    const std::int64_t pid = waitForPeerPid(*memory, other);
    TEST_REQUIRE_MSG(pid > 0, other.stderrText());
    TEST_CHECK(os::processAlive(pid));
    other.kill(); // as a crashed rank: no goodbye in the block
    const auto deadline = Clock::now() + 10s;
    while (os::processAlive(pid) && Clock::now() < deadline)
        std::this_thread::sleep_for(20ms);
    TEST_CHECK_MSG(!os::processAlive(pid), "a killed peer still looks alive");
    TEST_CHECK(os::processAlive(os::currentPid()));
}

TEST_CASE(filesAreReplacedWholeOrNotAtAll) {
    TempDir dir;
    const fs::path target = dir.path() / "checkpoint.pt";
    const fs::path tmp = dir.path() / "checkpoint.pt.tmp";
    std::ofstream(target, std::ios::binary) << "old";
    const std::string fresh(100000, 'n');
    bool taken = false;
    TEST_CHECK_EQ(train::replaceFileDurably(tmp, target, fresh.data(), fresh.size(), &taken), std::string());
    TEST_CHECK(!taken);
    TEST_CHECK(readAll(target) == fresh);
    TEST_CHECK(!fs::exists(tmp));

    std::ofstream(tmp, std::ios::binary) << "someone else's";
    const std::string error = train::replaceFileDurably(tmp, target, "x", 1, &taken);
    TEST_CHECK(taken);
    TEST_CHECK_MSG(error.find(tmp.filename().string()) != std::string::npos,
                   "the error names no path: " + error);
    TEST_CHECK_EQ(readAll(tmp), std::string("someone else's"));
    TEST_CHECK(readAll(target) == fresh);
}

// A warm worker takes its rank's environment this way: what getenv then returns, for LibTorch and Gloo too.
TEST_CASE(environmentVariablesAreSetAndRemoved) {
    const std::string name = "DDPDESK_TEST_ENV_" + std::to_string(os::currentPid());
    const std::string value = "a b=c;d";
    TEST_REQUIRE(train::setEnvironmentVariable(name, &value));
    const char* got = std::getenv(name.c_str());
    TEST_REQUIRE(got != nullptr);
    TEST_CHECK_EQ(std::string(got), value);
    TEST_REQUIRE(train::setEnvironmentVariable(name, nullptr));
    TEST_CHECK(std::getenv(name.c_str()) == nullptr);
}

TEST_CASE(processFacts) {
    TEST_CHECK(!train::hostName().empty());
    TEST_CHECK(train::logicalCores() >= 1);
    TEST_CHECK(os::currentPid() > 0);
}

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "--peer" && argc > 2) return peer(argv[2], false);
    if (mode == "--peer-stays" && argc > 2) return peer(argv[2], true);
    return runAll(argc, argv);
}
