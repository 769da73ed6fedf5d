// os.rename_aside (Linux) and wine.rename_aside (mingw-w64 under wine): renameNoReplace moves a file or a
// folder to a free name, and never replaces what is at the new name - the doctor's fixes move a user's store
// aside with it and must not destroy another file on the way.
#include "mini_test.h"
#include "os/rename_aside.h"
#include "temp_dir.h"

#include <filesystem>
#include <string>

using namespace ddpdesk;
using namespace ddpdesk::testsupport;
namespace fs = std::filesystem;

TEST_CASE(fileMovesToAFreeName) {
    TempDir dir;
    writeFileText(dir.path() / "store", "records");
    std::string error;
    TEST_REQUIRE_EQ(int(os::renameNoReplace(dir.path() / "store", dir.path() / "store.stale", error)),
                    int(os::RenameStatus::Done));
    TEST_CHECK(error.empty());
    TEST_CHECK(!fs::exists(dir.path() / "store"));
    TEST_CHECK_EQ(fileText(dir.path() / "store.stale"), std::string("records"));
}

TEST_CASE(existingTargetIsNeverReplaced) {
    TempDir dir;
    writeFileText(dir.path() / "store", "ours");
    writeFileText(dir.path() / "store.stale", "someone else's");
    std::string error;
    TEST_CHECK_EQ(int(os::renameNoReplace(dir.path() / "store", dir.path() / "store.stale", error)),
                  int(os::RenameStatus::TargetExists));
    TEST_CHECK_EQ(fileText(dir.path() / "store"), std::string("ours"));
    TEST_CHECK_EQ(fileText(dir.path() / "store.stale"), std::string("someone else's"));
}

TEST_CASE(folderMovesToo) {
    TempDir dir;
    fs::create_directory(dir.path() / "run");
    writeFileText(dir.path() / "run" / "file", "x");
    std::string error;
    TEST_REQUIRE_EQ(int(os::renameNoReplace(dir.path() / "run", dir.path() / "run.aside", error)),
                    int(os::RenameStatus::Done));
    TEST_CHECK_EQ(fileText(dir.path() / "run.aside" / "file"), std::string("x"));
}

TEST_CASE(missingSourceFailsWithAReason) {
    TempDir dir;
    std::string error;
    TEST_CHECK_EQ(int(os::renameNoReplace(dir.path() / "absent", dir.path() / "absent.aside", error)),
                  int(os::RenameStatus::Failed));
    TEST_CHECK(!error.empty());
    TEST_CHECK(!fs::exists(dir.path() / "absent.aside"));
}

DDPDESK_TEST_MAIN()
