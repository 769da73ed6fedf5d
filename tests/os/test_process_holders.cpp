// os.process_holders (Linux) and wine.process_holders (mingw-w64 under wine): processHoldsFile, the check
// that keeps the launcher from sending SIGUSR1 (which ends a process without a handler) to a pid that is not
// the rank holding its stacks file. The doctor's port and file holders are doctor.os_probes.
#include "mini_test.h"
#include "os/process.h"
#include "os/process_holders.h"
#include "temp_dir.h"

#include <fstream>

using namespace ddpdesk;
using namespace ddpdesk::testsupport;

TEST_CASE(aFileThisProcessHoldsOpenIsHeld) {
    TempDir dir;
    const auto path = dir.path() / "stacks-0.txt";
    std::ofstream open(path);
    open << "held";
    open.flush();
    const std::optional<bool> held = os::processHoldsFile(os::currentPid(), path);
    TEST_REQUIRE(held.has_value());
    if (!*held)
        TEST_SKIP("no holder seen: wine's Restart Manager (RmGetList) answers no process; Windows names it");
    TEST_CHECK(*held);
}

TEST_CASE(aClosedFileIsNotHeld) {
    TempDir dir;
    const auto path = dir.path() / "stacks-0.txt";
    writeFileText(path, "written and closed");
    const std::optional<bool> held = os::processHoldsFile(os::currentPid(), path);
    TEST_REQUIRE(held.has_value());
    TEST_CHECK(!*held);
}

TEST_CASE(aMissingFileIsNotHeld) {
    TempDir dir;
    const std::optional<bool> held = os::processHoldsFile(os::currentPid(), dir.path() / "absent");
    TEST_REQUIRE(held.has_value());
    TEST_CHECK(!*held);
}

DDPDESK_TEST_MAIN()
