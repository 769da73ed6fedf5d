// DDP Desk's own TCPStore server against real PyTorch clients (Python 1.13 here, 2.6 in the torch2 leg
// through $DDPDESK_TEST_PYTHON): every store call a rendezvous makes, a wait answered by another client's
// set, a gloo process group formed the way torchrun runs scripts (TORCHELASTIC_USE_AGENT_STORE),
// loopback-only listening, bounded sizes, and a prompt stop.
#include "net/tcp_store_server.h"
#include "net/tcp_store_wire.h"

#include "mini_test.h"
#include "subprocess.h"

#include <chrono>
#include <cstdlib>
#include <sstream>
#include <string>
#include <thread>

using namespace ddpdesk;
using ddpdesk::testsupport::Subprocess;
using namespace std::chrono_literals;

namespace {

std::string python() {
    const char* p = std::getenv("DDPDESK_TEST_PYTHON");
    return p && *p ? p : DDPDESK_PYTHON;
}

const std::string kScript = DDPDESK_NET_TEST_DIR "/store_clients.py";

std::unique_ptr<net::TcpStoreServer> startLoopback() {
    auto r = net::TcpStoreServer::start("127.0.0.1", 0);
    TEST_REQUIRE_MSG(r.server != nullptr, "could not listen: " + r.error);
    TEST_REQUIRE(r.server->port() > 0);
    return std::move(r.server);
}

void requireExit0(Subprocess& p, std::chrono::seconds limit, const std::string& what) {
    TEST_REQUIRE_MSG(p.waitFor(limit), what + " did not finish within the limit; stderr:\n" + p.stderrText());
    TEST_REQUIRE_MSG(p.exitCode() == 0, what + " exited " + std::to_string(p.exitCode()) + "; stdout:\n" +
                                            p.stdoutText() + "\nstderr:\n" + p.stderrText());
}

// One query in the client's own words (v1), for the cases PyTorch's client would never send.
std::unique_ptr<net::Connection> rawClient(int port) {
    auto c = net::connectTcp("127.0.0.1", port, 5000ms);
    TEST_REQUIRE_MSG(c.connection != nullptr, "connect: " + c.error);
    return std::move(c.connection);
}

bool closedByServer(net::Connection& c) {
    unsigned char b;
    return !c.recvExact(&b, 1, net::Clock::now() + 5s) && c.peerClosed();
}

} // namespace

TEST_CASE(everyStoreCallOfPyTorch) {
    auto server = startLoopback();
    Subprocess p;
    TEST_REQUIRE_MSG(p.start(python(), {kScript, "ops", "127.0.0.1", std::to_string(server->port())}),
                     p.startError());
    requireExit0(p, 90s, "the ops client");
    TEST_CHECK_MSG(p.stdoutText().find("ops ok") != std::string::npos, p.stdoutText());
}

TEST_CASE(aWaitIsAnsweredByAnotherClientsSet) {
    auto server = startLoopback();
    Subprocess waiter;
    TEST_REQUIRE(
        waiter.start(python(), {kScript, "waiter", "127.0.0.1", std::to_string(server->port()), "late"}));
    // The waiter must be inside its wait (it printed "waiting" and sent WAIT) before the key appears.
    const auto until = std::chrono::steady_clock::now() + 60s;
    while (waiter.stdoutText().find("waiting") == std::string::npos &&
           std::chrono::steady_clock::now() < until && !waiter.exited())
        std::this_thread::sleep_for(50ms);
    std::this_thread::sleep_for(300ms);
    TEST_REQUIRE_MSG(!waiter.exited(), "the waiter ended early: " + waiter.stderrText());
    auto setter = rawClient(server->port());
    std::string msg(1, char(*net::wire::code(1, net::wire::Query::Set)));
    net::wire::putString(msg, "/late"); // c10d's TCPStore puts "/" before every key its user names
    net::wire::putString(msg, "arrived");
    TEST_REQUIRE(setter->sendAll(msg.data(), msg.size(), net::Clock::now() + 5s));
    requireExit0(waiter, 30s, "the waiter");
    TEST_CHECK_MSG(waiter.stdoutText().find("value arrived") != std::string::npos, waiter.stdoutText());
}

TEST_CASE(processGroupFormsAsUnderTorchrun) {
    auto server = startLoopback();
    const std::string port = std::to_string(server->port());
    Subprocess r0, r1, r2;
    TEST_REQUIRE(r0.start(python(), {kScript, "rank", "127.0.0.1", port, "0", "3"},
                          {{"GLOO_SOCKET_IFNAME", "lo"}, {"USE_LIBUV", "0"}}));
    TEST_REQUIRE(r1.start(python(), {kScript, "rank", "127.0.0.1", port, "1", "3"},
                          {{"GLOO_SOCKET_IFNAME", "lo"}, {"USE_LIBUV", "0"}}));
    TEST_REQUIRE(r2.start(python(), {kScript, "rank", "127.0.0.1", port, "2", "3"},
                          {{"GLOO_SOCKET_IFNAME", "lo"}, {"USE_LIBUV", "0"}}));
    requireExit0(r0, 120s, "rank 0");
    requireExit0(r1, 60s, "rank 1");
    requireExit0(r2, 60s, "rank 2");
    for (Subprocess* r : {&r0, &r1, &r2})
        TEST_CHECK_MSG(r->stdoutText().find("sum 6") != std::string::npos, r->stdoutText());
    // The agent store's keys live under torchrun's prefix, so the doctor can tell them apart.
    TEST_CHECK(server->numKeys() > 0);
}

TEST_CASE(listensOnLoopbackOnly) {
    auto server = startLoopback();
    std::string other;
    const auto resolved = net::resolveHost(net::localHostName(), 5000ms);
    std::vector<std::string> candidates = resolved.addresses;
    // Where the host name means loopback (Debian's 127.0.1.1 habit, containers), ask for the interfaces.
    Subprocess hostnameI;
    if (hostnameI.start("hostname", {"-I"}) && hostnameI.waitFor(5s)) {
        std::istringstream words(hostnameI.stdoutText());
        for (std::string w; words >> w;)
            candidates.push_back(w);
    }
    for (const std::string& a : candidates)
        if (!net::isLoopbackAddress(a) && net::isLocalAddress(a)) other = a;
    if (other.empty()) TEST_SKIP("this machine has no address beside loopback to try the port on");
    auto c = net::connectTcp(other, server->port(), 3000ms);
    TEST_CHECK_MSG(c.status == net::ConnectStatus::Refused,
                   "connecting through " + other + " gave " + net::connectStatusName(c.status));
}

TEST_CASE(theV2HandshakeAndPing) {
    auto server = startLoopback();
    auto c = rawClient(server->port());
    std::string msg(1, char(*net::wire::code(2, net::wire::Query::Validate)));
    net::wire::putLe(msg, net::wire::kValidationMagic, 4);
    msg.push_back(char(*net::wire::code(2, net::wire::Query::Ping)));
    net::wire::putLe(msg, 0xA1B2C3D4, 4);
    msg.push_back(char(*net::wire::code(2, net::wire::Query::NumKeys)));
    TEST_REQUIRE(c->sendAll(msg.data(), msg.size(), net::Clock::now() + 5s));
    unsigned char answer[12];
    TEST_REQUIRE_MSG(c->recvExact(answer, 12, net::Clock::now() + 5s), c->lastError());
    TEST_CHECK_EQ(net::wire::getLe(answer, 4), std::uint64_t(0xA1B2C3D4));
    TEST_CHECK_EQ(net::wire::getLe(answer + 4, 8), std::uint64_t(0));
}

TEST_CASE(oversizedOrMalformedQueriesAreDropped) {
    auto server = startLoopback();
    {
        auto c = rawClient(server->port());
        std::string msg(1, char(*net::wire::code(1, net::wire::Query::Get)));
        net::wire::putLe(msg, net::TcpStoreServer::kMaxKeyBytes + 1, 8); // a key length nobody allocates
        TEST_REQUIRE(c->sendAll(msg.data(), msg.size(), net::Clock::now() + 5s));
        TEST_CHECK(closedByServer(*c));
    }
    {
        auto c = rawClient(server->port());
        std::string set(1, char(*net::wire::code(1, net::wire::Query::Set)));
        net::wire::putString(set, "text");
        net::wire::putString(set, "not a number");
        std::string add(1, char(*net::wire::code(1, net::wire::Query::Add)));
        net::wire::putString(add, "text");
        net::wire::putLe(add, 1, 8);
        const std::string both = set + add;
        TEST_REQUIRE(c->sendAll(both.data(), both.size(), net::Clock::now() + 5s));
        TEST_CHECK(closedByServer(*c));
    }
    {
        auto c = rawClient(server->port());
        const char unknown = char(0x7f);
        TEST_REQUIRE(c->sendAll(&unknown, 1, net::Clock::now() + 5s));
        TEST_CHECK(closedByServer(*c));
    }
    // The store itself lives on for everyone else.
    auto c = rawClient(server->port());
    const char numKeys = char(*net::wire::code(1, net::wire::Query::NumKeys));
    TEST_REQUIRE(c->sendAll(&numKeys, 1, net::Clock::now() + 5s));
    unsigned char answer[8];
    TEST_REQUIRE(c->recvExact(answer, 8, net::Clock::now() + 5s));
    TEST_CHECK_EQ(net::wire::getLe(answer, 8), std::uint64_t(1)); // "text" was set before the bad ADD
}

TEST_CASE(stopIsPromptWithClientsConnected) {
    auto server = startLoopback();
    auto idle = rawClient(server->port());
    auto waiting = rawClient(server->port());
    std::string wait(1, char(*net::wire::code(1, net::wire::Query::Wait)));
    net::wire::putLe(wait, 1, 8);
    net::wire::putString(wait, "never");
    TEST_REQUIRE(waiting->sendAll(wait.data(), wait.size(), net::Clock::now() + 5s));
    std::this_thread::sleep_for(200ms);
    const auto t0 = std::chrono::steady_clock::now();
    server.reset();
    const auto took = std::chrono::steady_clock::now() - t0;
    TEST_CHECK_MSG(took < 3s,
                   "stopping took " +
                       std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(took).count()) +
                       " ms");
    TEST_CHECK(closedByServer(*idle));
    TEST_CHECK(closedByServer(*waiting));
}

TEST_CASE(aTakenPortIsAClearError) {
    auto first = startLoopback();
    auto second = net::TcpStoreServer::start("127.0.0.1", first->port());
    TEST_CHECK(second.server == nullptr);
    TEST_CHECK_MSG(second.error.find("in use") != std::string::npos, second.error);
}

DDPDESK_TEST_MAIN()
