// os.plain_file (Linux) and wine.plain_file (mingw-w64 under wine): the files DDP Desk writes and the files
// it reads from folders others can write to. A new file is created by DDP Desk itself (nothing at the name is
// reused, not even a dangling link); an existing one is appended to or read only when it is a regular file,
// never through a link; a replaced content arrives whole and replaces a link itself, not its target.
#include "mini_test.h"
#include "os/plain_file.h"
#include "temp_dir.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>

using namespace ddpdesk;
using namespace ddpdesk::testsupport;
namespace fs = std::filesystem;

namespace {

std::string readAll(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A symbolic link, where the OS lets this user make one (Windows: developer mode or an elevated process).
bool makeLink(const fs::path& target, const fs::path& link) {
    std::error_code ec;
    fs::create_symlink(target, link, ec);
    return !ec;
}

} // namespace

TEST_CASE(createAppendAndRead) {
    TempDir dir;
    const fs::path file = dir.path() / "segment";
    os::PlainFile w = os::PlainFile::open(file, os::PlainFile::Mode::CreateNew);
    TEST_REQUIRE(w.isOpen());
    TEST_REQUIRE(w.writeAll("abc", 3));
    w.close();
    TEST_CHECK(os::PlainFile::open(file, os::PlainFile::Mode::CreateNew).status() ==
               os::PlainFile::Status::AlreadyThere);
    os::PlainFile a = os::PlainFile::open(file, os::PlainFile::Mode::AppendExisting);
    TEST_REQUIRE(a.isOpen());
    TEST_REQUIRE(a.writeAll("def", 3));
    a.close();
    os::PlainFile r = os::PlainFile::open(file, os::PlainFile::Mode::ReadExisting);
    TEST_REQUIRE(r.isOpen());
    char buf[8] = {};
    TEST_REQUIRE_EQ(r.readAt(2, buf, sizeof buf), std::int64_t(4));
    TEST_REQUIRE_EQ(std::string(buf, 4), std::string("cdef"));
    TEST_REQUIRE_EQ(r.readAt(6, buf, sizeof buf), std::int64_t(0));
    TEST_CHECK(os::PlainFile::open(dir.path() / "none", os::PlainFile::Mode::ReadExisting).status() ==
               os::PlainFile::Status::Missing);
    TEST_CHECK(os::isPlainFileEntry(file));
    TEST_CHECK(!os::isPlainFileEntry(dir.path()));
}

TEST_CASE(aFolderIsNeverAFile) {
    TempDir dir;
    const fs::path folder = dir.path() / "segment";
    fs::create_directory(folder);
    TEST_CHECK(!os::PlainFile::open(folder, os::PlainFile::Mode::ReadExisting).isOpen());
    TEST_CHECK(!os::PlainFile::open(folder, os::PlainFile::Mode::AppendExisting).isOpen());
    TEST_CHECK(!os::PlainFile::open(folder, os::PlainFile::Mode::CreateNew).isOpen());
    std::string why;
    TEST_CHECK(!os::replaceFileContent(folder, "x", &why)); // a folder is never replaced
    TEST_CHECK(fs::is_directory(folder));
}

TEST_CASE(aLinkIsNeverFollowed) {
    TempDir dir;
    const fs::path target = dir.path() / "users-file", link = dir.path() / "segment";
    writeFileText(target, "the user's own");
    if (!makeLink(target, link)) TEST_SKIP("this user may not make symbolic links here");
    TEST_CHECK(os::PlainFile::open(link, os::PlainFile::Mode::AppendExisting).status() ==
               os::PlainFile::Status::NotRegular);
    TEST_CHECK(os::PlainFile::open(link, os::PlainFile::Mode::ReadExisting).status() ==
               os::PlainFile::Status::NotRegular);
    TEST_CHECK(os::PlainFile::open(link, os::PlainFile::Mode::CreateNew).status() ==
               os::PlainFile::Status::AlreadyThere);
    TEST_CHECK(!os::isPlainFileEntry(link));
    std::string why;
    TEST_REQUIRE(os::replaceFileContent(link, "summary", &why));
    TEST_CHECK(!fs::is_symlink(fs::symlink_status(link)));
    TEST_REQUIRE_EQ(readAll(link), std::string("summary"));
    TEST_REQUIRE_EQ(readAll(target), std::string("the user's own"));
    // A dangling link at a new file's name: nothing is created where it points.
    const fs::path dangling = dir.path() / "dangling";
    if (makeLink(dir.path() / "nowhere", dangling)) {
        TEST_CHECK(!os::PlainFile::open(dangling, os::PlainFile::Mode::CreateNew).isOpen());
        TEST_CHECK(!fs::exists(dir.path() / "nowhere"));
    }
}

TEST_CASE(replacedContentLeavesNoTemporaryFile) {
    TempDir dir;
    const fs::path file = dir.path() / "summary.json";
    std::string why;
    TEST_REQUIRE(os::replaceFileContent(file, "one", &why));
    TEST_REQUIRE(os::replaceFileContent(file, "two", &why));
    TEST_REQUIRE_EQ(readAll(file), std::string("two"));
    int entries = 0;
    for (const auto& e : fs::directory_iterator(dir.path())) {
        (void)e;
        ++entries;
    }
    TEST_REQUIRE_EQ(entries, 1);
}

DDPDESK_TEST_MAIN()
