// launch.owned_file (Linux) and wine.owned_file (mingw-w64 under wine): DDP Desk removes only a file it
// created itself. Creation is exclusive (a file, a folder, a symbolic link - dangling too - already at the
// name is left alone), and removal checks the identity, so a file that took the name since, or a folder,
// survives.
#include "mini_test.h"
#include "os/owned_file.h"
#include "temp_dir.h"

#include <filesystem>
#include <string>
#include <system_error>

using namespace ddpdesk;
using namespace ddpdesk::testsupport;
namespace fs = std::filesystem;

namespace {

// Creates DIR/store as a run would, then moves it aside (allowed while the run holds it) to DIR/ours-aside,
// so a case can put something else in its place. False when the create failed.
bool createThenMoveAside(const fs::path& dir, launch::OwnedFile& id) {
    std::string error;
    if (launch::createOwnedFile(dir / "store", &id, &error) != launch::CreateResult::Created) return false;
    fs::rename(dir / "store", dir / "ours-aside");
    return true;
}

} // namespace

TEST_CASE(createdFileIsRemoved) {
    TempDir dir;
    const fs::path store = dir.path() / "store";
    launch::OwnedFile id;
    std::string error;
    TEST_REQUIRE_EQ(int(launch::createOwnedFile(store, &id, &error)), int(launch::CreateResult::Created));
    TEST_CHECK(id.valid);
    TEST_CHECK(fs::is_regular_file(store));
    writeFileText(store, "keys a rank wrote"); // the run uses it while the handle pins its identity
    TEST_CHECK(launch::removeOwnedFile(store, id));
    TEST_CHECK(!fs::exists(store));
    TEST_CHECK(!id.valid);
}

TEST_CASE(whatIsAlreadyThereStays) {
    TempDir dir;
    const fs::path file = dir.path() / "file";
    writeFileText(file, "user data");
    const fs::path folder = dir.path() / "folder";
    fs::create_directory(folder);
    writeFileText(folder / "inside", "more user data");
    for (const fs::path& taken : {file, folder}) {
        launch::OwnedFile id;
        std::string error;
        TEST_CHECK_EQ(int(launch::createOwnedFile(taken, &id, &error)),
                      int(launch::CreateResult::AlreadyThere));
        TEST_CHECK(!id.valid);
        TEST_CHECK_MSG(!error.empty(), "no reason given for " + taken.string());
    }
    TEST_CHECK_EQ(fileText(file), std::string("user data"));
    TEST_CHECK_EQ(fileText(folder / "inside"), std::string("more user data"));
}

TEST_CASE(aFileThatTookTheNameSurvivesRemoval) {
    TempDir dir;
    const fs::path store = dir.path() / "store";
    launch::OwnedFile id;
    TEST_REQUIRE(createThenMoveAside(dir.path(), id));
    writeFileText(store, "theirs");
    TEST_CHECK(!launch::removeOwnedFile(store, id));
    TEST_CHECK_EQ(fileText(store), std::string("theirs"));
    TEST_CHECK(fs::exists(dir.path() / "ours-aside"));
}

TEST_CASE(aFolderInItsPlaceSurvivesRemoval) {
    TempDir dir;
    const fs::path store = dir.path() / "store";
    launch::OwnedFile id;
    TEST_REQUIRE(createThenMoveAside(dir.path(), id));
    fs::create_directory(store);
    writeFileText(store / "kept", "x");
    TEST_CHECK(!launch::removeOwnedFile(store, id));
    TEST_CHECK(fs::exists(store / "kept"));
}

TEST_CASE(symbolicLinksAreNeverFollowed) {
    TempDir dir;
    const fs::path target = dir.path() / "target";
    writeFileText(target, "the link's target");
    const fs::path link = dir.path() / "link";
    const fs::path dangling = dir.path() / "dangling";
    std::error_code ec;
    fs::create_symlink(target, link, ec);
    if (!ec) fs::create_symlink(dir.path() / "nothing-here", dangling, ec);
    if (ec)
        TEST_SKIP("this system lets no unprivileged process make symbolic links (CreateSymbolicLinkW: " +
                  ec.message() + "); Windows needs developer mode or the privilege");
    for (const fs::path& taken : {link, dangling}) {
        launch::OwnedFile id;
        std::string error;
        TEST_CHECK_EQ(int(launch::createOwnedFile(taken, &id, &error)),
                      int(launch::CreateResult::AlreadyThere));
    }
    TEST_CHECK_EQ(fileText(target), std::string("the link's target"));
    TEST_CHECK(!fs::exists(dir.path() / "nothing-here"));

    // A link put in place of our file is not removed, and neither is what it points to.
    const fs::path store = dir.path() / "store";
    launch::OwnedFile id;
    TEST_REQUIRE(createThenMoveAside(dir.path(), id));
    fs::create_symlink(dir.path() / "ours-aside", store, ec);
    TEST_REQUIRE(!ec);
    TEST_CHECK(!launch::removeOwnedFile(store, id));
    TEST_CHECK(fs::is_symlink(fs::symlink_status(store)));
    TEST_CHECK(fs::exists(dir.path() / "ours-aside"));
}

DDPDESK_TEST_MAIN()
