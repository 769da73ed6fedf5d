// Nothing of the user's is overwritten by the worker: started as torchrun, mpirun and Slurm start it (no
// --out), it writes checkpoint.pt and model.pt into a folder of its own (./ddpdesk-out, marked as DDP Desk's)
// and says where, leaving the current folder's files of those names alone; --resume finds that folder's
// checkpoint again; a folder of the user's by that name, and an --out folder holding the user's own
// model.pt or checkpoint.pt, are refused before anything trains (OUTPUT_UNWRITABLE, exit 2), every byte kept.
// The worker's program runs as a thread of this process (thread_ranks.h): what it writes and refuses is its
// own logic, not the process boundary's (launch.file_safety runs a real worker against a linked checkpoint).

#include "worker_harness_std.h"

#include "os/utf8_path.h"
#include "protocol/output_mark.h"

#include <filesystem>

using namespace ddpdesk;
using namespace ddpdesk::traintest;
using ddpdesk::testsupport::TempDir;
using ddpdesk::testsupport::testRow;

namespace fs = std::filesystem;

namespace {

const Args kQuick = {"--workload", "autoencoder", "--limit-samples", "64",
                     "--threads",  "1",           "--telemetry-ms",  "0"};

// The worker starts in `dir`, as a launcher started in that folder would start it (one rank: the only thread
// that reads the current folder meanwhile).
RankResult runIn(const TempDir& dir, const Args& args) {
    const fs::path before = fs::current_path();
    fs::current_path(dir.path());
    RankResult r = runWorkerAsThread(args);
    fs::current_path(before);
    return r;
}

} // namespace

TEST_CASE(withoutOutWritesIntoItsOwnFolder) {
    TempDir cwd;
    TEST_REQUIRE(writeFileBytes(cwd.filePath("model.pt"), "the user's model"));
    TEST_REQUIRE(writeFileBytes(cwd.filePath("checkpoint.pt"), "the user's checkpoint"));

    RankResult first = runIn(cwd, kQuick + Args{"--steps", "3"});
    TEST_REQUIRE_MSG(first.exitCode == 0, first.describe());
    TEST_CHECK_EQ(fileBytes(cwd.filePath("model.pt")), std::string("the user's model"));
    TEST_CHECK_EQ(fileBytes(cwd.filePath("checkpoint.pt")), std::string("the user's checkpoint"));
    const std::string own = cwd.filePath(protocol::kDefaultWorkerOutDir);
    TEST_CHECK(fs::is_regular_file(ddpdesk::os::pathFromUtf8(own + "/model.pt")));
    TEST_CHECK(fs::is_regular_file(ddpdesk::os::pathFromUtf8(own + "/checkpoint.pt")));
    const auto marked = protocol::markedOutputs(ddpdesk::os::pathFromUtf8(own));
    TEST_CHECK_MSG(std::count(marked.begin(), marked.end(), "model.pt") == 1, "model.pt is not in the mark");
    TEST_CHECK_MSG(contains(first.stderrText, "no --out given") && contains(first.stderrText, own),
                   first.describe()); // says where
    const protocol::Event* done = first.last("done");
    TEST_REQUIRE(done);
    TEST_CHECK_EQ(done->body["model"].get<std::string>(),
                  (ddpdesk::os::pathFromUtf8(own) / "model.pt").string());

    // The next run knows the folder as its own: --resume continues from its checkpoint.
    RankResult again = runIn(cwd, kQuick + Args{"--resume", "--steps", "5"});
    TEST_REQUIRE_MSG(again.exitCode == 0, again.describe());
    const auto checkpoints = again.ofType("checkpoint");
    TEST_REQUIRE(!checkpoints.empty());
    TEST_CHECK_EQ(checkpoints.front().body.value("resumed", false), true);
    TEST_CHECK_EQ(checkpoints.front().body["step"].get<int>(), 3);
    TEST_CHECK_EQ(fileBytes(cwd.filePath("model.pt")), std::string("the user's model"));
}

TEST_CASE(aFolderOfTheUsersByThatNameIsRefused) {
    TempDir cwd;
    const std::string folder = cwd.filePath(protocol::kDefaultWorkerOutDir);
    fs::create_directories(ddpdesk::os::pathFromUtf8(folder));
    TEST_REQUIRE(writeFileBytes(folder + "/model.pt", "the user's model"));
    RankResult r = runIn(cwd, kQuick + Args{"--steps", "3"});
    TEST_REQUIRE_MSG(r.exitCode == 2, r.describe());
    TEST_CHECK_EQ(r.errorCode(), std::string("OUTPUT_UNWRITABLE"));
    TEST_CHECK_MSG(contains(r.errorMessage(), folder) && contains(r.errorMessage(), "--out"),
                   r.errorMessage());
    TEST_CHECK_EQ(fileBytes(folder + "/model.pt"), std::string("the user's model"));
    TEST_CHECK(!r.last("done"));
}

TEST_CASE(usersFilesInOutAreRefused) {
    for (const std::string name : {"model.pt", "checkpoint.pt"})
        testRow(name, [&] {
            TempDir out;
            TEST_REQUIRE(writeFileBytes(out.filePath(name), "the user's own " + name));
            RankResult r = runWorkerAsThread(kQuick + Args{"--steps", "3", "--out", out.str()});
            TEST_REQUIRE_MSG(r.exitCode == 2, r.describe());
            TEST_CHECK_EQ(r.errorCode(), std::string("OUTPUT_UNWRITABLE"));
            TEST_CHECK_MSG(contains(r.errorMessage(), out.filePath(name)) &&
                               contains(r.errorMessage(), "did not write it"),
                           r.errorMessage());
            TEST_CHECK_EQ(fileBytes(out.filePath(name)), "the user's own " + name);
            TEST_CHECK(!r.last("done"));
        });
}

TEST_CASE(itsOwnEarlierOutputIsReplaced) {
    TempDir out;
    RankResult first = runWorkerAsThread(kQuick + Args{"--steps", "3", "--out", out.str()});
    TEST_REQUIRE_MSG(first.exitCode == 0, first.describe());
    const std::string model = fileBytes(out.filePath("model.pt"));
    RankResult second = runWorkerAsThread(kQuick + Args{"--steps", "3", "--out", out.str(), "--seed", "9"});
    TEST_REQUIRE_MSG(second.exitCode == 0, second.describe());
    TEST_CHECK(fileBytes(out.filePath("model.pt")) != model); // another seed, another model
}

DDPDESK_TEST_MAIN()
