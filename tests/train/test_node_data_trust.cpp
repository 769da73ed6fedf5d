// A data block someone else put under the name a run's ranks will look for (core/train/data/node_data.h),
// with real worker processes. The name derives from the run secret, so whoever learns the secret can create
// the block before the first rank does, fill it with anything and mark it ready. The ranks must then train on
// the real files, exactly as a run without sharing does (same params_sha256), and say in their log why the
// block was not used: open to other users (mode 0666), owned by another user (as root only: it can give a
// block away), or this user's own but with images that do not match the checksum beside them. Plain C++ (the
// Qt-free harness), POSIX only: it sets modes and owners.

#include "worker_harness_std.h"

#include "os/shared_memory.h"
#include "protocol/run_auth.h"
#include "train/data/idx_reader.h"
#include "train/data/node_data.h"

#include <cstring>
#include <filesystem>

#ifndef _WIN32
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

using namespace ddpdesk;
using namespace ddpdesk::traintest;
using ddpdesk::testsupport::TempDir;

namespace {

const std::string kSecret(64, 'e'); // hex: the launcher's DDPDESK_RUN_SECRET

EnvChanges withSecret(bool on) {
    EnvChanges env = withoutRankVariables();
    env.emplace_back("DDPDESK_RUN_SECRET", on ? std::optional<std::string>(kSecret) : std::nullopt);
    env.emplace_back("TORCHELASTIC_RESTART_COUNT", std::nullopt); // attempt 0, as the test names the block
    return env;
}

std::vector<RankResult> trainTwo(bool secret) {
    TempDir dir;
    WorkerSet set;
    set.start(localRankArgs(dir, 0), withSecret(secret));
    set.start(localRankArgs(dir, 1), withSecret(secret));
    std::vector<RankResult> r = set.waitAll(240000);
    TEST_CHECK_MSG(r[0].exitCode == 0, r[0].describe());
    TEST_CHECK_MSG(r[1].exitCode == 0, r[1].describe());
    return r;
}

#ifndef _WIN32
enum class Forgery { OpenToAll, OtherOwner, BadChecksum };

// The block the run's ranks will look for, made first: all-255 images marked ready, with the checksum of
// those bytes (wrong only for BadChecksum, so each forgery is caught by its own check alone).
std::unique_ptr<train::SharedMemory> forgeBlock(Forgery how) {
    std::string raw, error;
    TEST_REQUIRE_MSG(protocol::decodeRunSecret(kSecret, &raw, &error), error);
    train::NodeDataShare::Plan plan;
    plan.runSecret = raw;
    plan.localRank = 1;
    plan.localWorldSize = 2;
    plan.localWorldKnown = true;
    const std::filesystem::path file = train::findIdxFile(fashionDir(), "train-images-idx3-ubyte");
    const std::string token = train::NodeDataShare(plan).tokenFor(file);
    const auto bytes = static_cast<std::size_t>(train::readIdxHeader(file).bytes);
    constexpr std::size_t kHeader = train::NodeDataShare::kHeaderBytes;
    auto shm = train::SharedMemory::create(token, kHeader + bytes);
    std::memset(shm->data() + kHeader, 255, bytes);
    auto& hd = *reinterpret_cast<train::NodeDataShare::BlockHeader*>(shm->data());
    hd.payloadBytes = bytes;
    hd.checksum =
        train::NodeDataShare::checksum(shm->data() + kHeader, bytes) + (how == Forgery::BadChecksum);
    hd.creatorPid.store(static_cast<std::uint64_t>(getpid()));
    hd.state.store(train::NodeDataShare::BlockHeader::Ready);
    const int fd = shm_open(train::SharedMemory::osName(token).c_str(), O_RDWR, 0);
    TEST_REQUIRE_MSG(fd >= 0, std::strerror(errno));
    if (how == Forgery::OpenToAll) TEST_CHECK(fchmod(fd, 0666) == 0);
    if (how == Forgery::OtherOwner) TEST_CHECK(fchown(fd, 65534, 65534) == 0); // nobody
    close(fd);
    return shm;
}
#endif

} // namespace

TEST_CASE(aForgedBlockIsNotTrainedOn) {
#ifdef _WIN32
    TEST_SKIP("sets POSIX modes and owners; shared_memory_win.cpp checks the mapping's owner SID instead");
#else
    // What the two ranks train to with a copy each, no block involved.
    const std::vector<RankResult> plain = trainTwo(false);
    const std::string expected = plain[0].paramsDigest();
    TEST_REQUIRE(!expected.empty());

    struct Case {
        Forgery how;
        const char* why; // in rank 1's log
    };
    std::vector<Case> cases = {{Forgery::OpenToAll, "mode 0666"},
                               {Forgery::BadChecksum, "do not match their checksum"}};
    if (geteuid() == 0)
        cases.push_back({Forgery::OtherOwner, "another user (uid 65534"});
    else
        std::cout << "not root: the block of another owner is left out" << std::endl;
    for (const Case& c : cases) {
        std::cout << "forged block, expecting: " << c.why << std::endl;
        const auto forged = forgeBlock(c.how);
        const std::vector<RankResult> r = trainTwo(true);
        for (int i : {0, 1})
            for (const std::string& line : splitLines(r[i].stderrText))
                if (contains(line, "images")) std::cout << "rank " << i << ": " << line << std::endl;
        // Rank 1 says why it read the file itself, and trained on it: the parameters of the plain run.
        TEST_CHECK_MSG(contains(r[1].stderrText, c.why) &&
                           contains(r[1].stderrText, "this rank reads its own copy (train-images-idx3-ubyte"),
                       r[1].stderrText);
        TEST_CHECK_MSG(!contains(r[1].stderrText, "images mapped from this machine's first rank"),
                       r[1].stderrText);
        TEST_CHECK_EQ(r[0].paramsDigest(), expected);
        TEST_CHECK_EQ(r[1].paramsDigest(), expected);
        // Rank 0 found the name taken and read its own copy too.
        TEST_CHECK_MSG(contains(r[0].stderrText, "images not shared between this machine's ranks"),
                       r[0].stderrText);
    }
#endif
}

DDPDESK_TEST_MAIN()
