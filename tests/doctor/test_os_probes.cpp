// doctor.os_probes (Linux) and wine.os_probes (mingw-w64 under wine): the evidence behind PORT_IN_USE,
// STORE_EXPOSED and FILESTORE_LOCKED, taken from another real process - this program started as a helper that
// holds a port (DDP Desk's own TCPStore server, or a listener that is not a store) or locks a file the way
// c10d's FileStore does. Where wine answers an API with nothing (owner PIDs of sockets, the Restart Manager),
// the case checks what wine does answer and skips the rest, naming the API.
#include "doctor/doctor.h"
#include "doctor/os_probes.h"
#include "file_lock.h"
#include "mini_test.h"
#include "net/net_socket.h"
#include "net/tcp_store_server.h"
#include "subprocess.h"
#include "temp_dir.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

using namespace ddpdesk;
using namespace ddpdesk::testsupport;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

void announce(const std::string& line) {
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
}

int hostStore(const std::string& address) {
    auto started = net::TcpStoreServer::start(address, 0);
    if (!started.server) {
        std::fprintf(stderr, "cannot host a store on %s: %s\n", address.c_str(), started.error.c_str());
        return 3;
    }
    announce("port " + std::to_string(started.server->port()));
    std::this_thread::sleep_for(120s);
    return 0;
}

// Answers every connection with a line no TCPStore would send, as an unrelated service on the port would.
int notAStore() {
    auto listening = net::listenTcp("127.0.0.1", 0);
    if (!listening.listener) return 3;
    announce("port " + std::to_string(listening.listener->port()));
    const auto end = Clock::now() + 120s;
    while (Clock::now() < end)
        if (auto c = listening.listener->accept(net::Millis(200))) {
            const std::string hello = "SSH-2.0-OpenSSH_9.2\r\n";
            c->sendAll(hello.data(), hello.size(), Clock::now() + 1s);
        }
    return 0;
}

int lockFile(const std::string& path) {
    HeldFileLock lock(path);
    if (!lock.ok()) {
        std::fprintf(stderr, "%s\n", lock.error().c_str());
        return 3;
    }
    announce("locked");
    std::this_thread::sleep_for(120s);
    return 0;
}

// Starts this program as a helper and waits for its first line ("port N" / "locked"); "" when it never came.
std::string startHelper(Subprocess& helper, const std::vector<std::string>& args) {
    if (!helper.start(currentExecutable(), args)) return {};
    const auto deadline = Clock::now() + 60s;
    while (Clock::now() < deadline && !helper.exited()) {
        const std::string out = helper.stdoutText();
        const auto newline = out.find('\n');
        if (newline != std::string::npos) {
            std::string line = out.substr(0, newline);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            return line;
        }
        helper.waitFor(20ms);
    }
    return {};
}

int portOf(const std::string& line) {
    return line.rfind("port ", 0) == 0 ? std::stoi(line.substr(5)) : -1;
}

const doctor::Finding* find(const std::vector<doctor::Finding>& findings, const std::string& code) {
    for (const auto& f : findings)
        if (f.code == code) return &f;
    return nullptr;
}

std::string codes(const std::vector<doctor::Finding>& findings) {
    std::string out;
    for (const auto& f : findings)
        out += f.code + " ";
    return out;
}

// A FileStore file as c10d writes it: records of a uint32 length and key bytes, then a uint32 length and
// value.
void writeStore(const fs::path& path, const std::vector<std::pair<std::string, std::string>>& records) {
    std::ofstream out(path, std::ios::binary);
    auto put = [&](const std::string& s) {
        const std::uint32_t n = std::uint32_t(s.size());
        const unsigned char le[4] = {(unsigned char)(n), (unsigned char)(n >> 8), (unsigned char)(n >> 16),
                                     (unsigned char)(n >> 24)};
        out.write(reinterpret_cast<const char*>(le), 4);
        out.write(s.data(), std::streamsize(s.size()));
    };
    for (const auto& [key, value] : records) {
        put(key);
        put(value);
    }
}

} // namespace

TEST_CASE(thisProcessIsAliveAndNamed) {
    const std::int64_t self = doctor::os::currentPid();
    TEST_CHECK(self > 0);
    TEST_CHECK(doctor::os::processAlive(self));
    const std::string name = doctor::os::processName(self);
    // Linux shortens the name to 15 bytes; Windows gives the file name.
    const std::string file = fs::path(currentExecutable()).filename().string();
    TEST_CHECK_MSG(!name.empty() && file.rfind(name, 0) == 0, "processName gave '" + name + "' for " + file);
    Subprocess gone;
    TEST_REQUIRE(gone.start(currentExecutable(), {"--exit"}));
    TEST_REQUIRE(gone.waitFor(30s));
    TEST_CHECK(!doctor::os::processAlive(gone.pid()));
}

TEST_CASE(portHeldByAnotherProcessIsInUse) {
    Subprocess helper;
    const int port = portOf(startHelper(helper, {"--not-a-store"}));
    TEST_REQUIRE_MSG(port > 0, "the helper did not listen: " + helper.stderrText());

    TEST_CHECK_EQ(int(net::tryBind(port).status), int(net::BindStatus::InUse));
    const std::vector<std::string> addresses = doctor::os::listenAddresses(port);
    TEST_CHECK_MSG(addresses == std::vector<std::string>{"127.0.0.1"},
                   "listen addresses: " + std::to_string(addresses.size()));

    doctor::DoctorRequest request;
    request.store = "tcp://127.0.0.1:" + std::to_string(port);
    request.worldSize = 2;
    request.probeTimeoutSec = 3;
    // Under wine on a loaded CI machine the hostname probes alone once took the default 10 s.
    request.deadlineSec = 60;
    const auto findings = doctor::diagnose(request);
    const doctor::Finding* inUse = find(findings, "PORT_IN_USE");
    TEST_REQUIRE_MSG(inUse, "findings: " + codes(findings));

    const auto holders = doctor::os::portHolders(port);
    TEST_REQUIRE_MSG(!holders.empty(), "no process seen holding port " + std::to_string(port));
    bool helperNamed = false, onlyZero = true;
    for (const auto& h : holders) {
        helperNamed = helperNamed || h.pid == helper.pid();
        onlyZero = onlyZero && h.pid == 0;
    }
    if (onlyZero)
        TEST_SKIP("the port's owner is reported as pid 0: wine's GetExtendedTcpTable does not fill "
                  "dwOwningPid (Windows does; the port itself was found)");
    TEST_CHECK_MSG(helperNamed, "the helper's pid is not among the port's holders");
    TEST_CHECK_EQ(inUse->evidence.value("pid", std::int64_t(-1)), helper.pid());
}

TEST_CASE(storeOnEveryInterfaceIsExposed) {
    for (const std::string& address : {std::string("0.0.0.0"), std::string("127.0.0.1")}) {
        Subprocess helper;
        const int port = portOf(startHelper(helper, {"--store", address}));
        TEST_REQUIRE_MSG(port > 0, "the helper hosted no store on " + address + ": " + helper.stderrText());
        doctor::DoctorRequest request;
        request.store = "tcp://127.0.0.1:" + std::to_string(port);
        request.worldSize = 2;
        request.jobRunning = true;
        request.probeTimeoutSec = 3;
        const auto findings = doctor::diagnose(request);
        TEST_CHECK_MSG(find(findings, "STORE_REACHABLE"), "findings: " + codes(findings));
        const doctor::Finding* exposed = find(findings, "STORE_EXPOSED");
        if (address == "0.0.0.0") {
            TEST_CHECK_MSG(exposed, "a store on every interface was not reported: " + codes(findings));
            if (exposed) TEST_CHECK_EQ(exposed->evidence.value("address", std::string()), address);
        } else {
            TEST_CHECK_MSG(!exposed, "a loopback store was reported exposed");
        }
    }
}

TEST_CASE(lockedStoreFileHolderIsNamed) {
    TempDir dir;
    const fs::path store = dir.path() / "store";
    writeStore(store, {{"/default_pg/0/0/rank_0", "hostA"}});
    Subprocess helper;
    TEST_REQUIRE_MSG(startHelper(helper, {"--lock", store.string()}) == "locked",
                     "the helper could not lock the store: " + helper.stderrText());

    doctor::DoctorRequest request;
    request.store = "file:" + store.string();
    request.worldSize = 2;
    const auto findings = doctor::diagnose(request);
    const auto holders = doctor::os::fileHolders(store);
    bool helperNamed = false;
    for (const auto& h : holders)
        helperNamed = helperNamed || h.pid == helper.pid();
    // The file is fresh and in use either way: the doctor must not call it stale or offer to move it.
    TEST_CHECK_MSG(!find(findings, "FILESTORE_STALE") && !find(findings, "FILESTORE_ABANDONED"),
                   "a store held by a live process was judged stale: " + codes(findings));
    TEST_CHECK_MSG(find(findings, "FILESTORE_LOCKED") || find(findings, "FILESTORE_IN_USE") ||
                       find(findings, "FILESTORE_MAYBE_LIVE"),
                   "a store file held by a live process was not reported as possibly in use: " +
                       codes(findings));
    if (holders.empty())
        TEST_SKIP("no holder of the locked file was seen: wine's Restart Manager (RmGetList) answers no "
                  "process (Windows names the helper); the doctor still did not call the store stale");
    TEST_CHECK_MSG(helperNamed, "the helper is not among the file's holders");
    const doctor::Finding* locked = find(findings, "FILESTORE_LOCKED");
    TEST_REQUIRE_MSG(locked, "findings: " + codes(findings));
    TEST_CHECK_EQ(locked->evidence.value("pid", std::int64_t(-1)), helper.pid());
}

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "--store" && argc > 2) return hostStore(argv[2]);
    if (mode == "--not-a-store") return notAStore();
    if (mode == "--lock" && argc > 2) return lockFile(argv[2]);
    if (mode == "--exit") return 0;
    return runAll(argc, argv);
}
