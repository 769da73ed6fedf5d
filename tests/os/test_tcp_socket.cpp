// os.tcp_socket (Linux) and wine.tcp_socket (mingw-w64 under wine): the sockets' OS half under core/net - a
// loopback listener and a connection carry bytes both ways, every wait ends by its timeout, a refused port
// and a held port read as such, and names and numeric addresses are told apart without a resolver.
#include "mini_test.h"
#include "os/tcp_socket.h"

#include <chrono>
#include <cstring>
#include <string>

using namespace ddpdesk;
using namespace std::chrono_literals;

namespace {

#ifdef _WIN32
constexpr bool kWindows = true;
#else
constexpr bool kWindows = false;
#endif

struct Pair {
    std::unique_ptr<os::TcpListenSocket> listener;
    std::unique_ptr<os::TcpSocket> client;
    std::unique_ptr<os::TcpSocket> server;
};

Pair connectedPair() {
    Pair p;
    os::SocketListen l = os::listenTcp("127.0.0.1", 0);
    TEST_REQUIRE_MSG(l.listener, l.error);
    TEST_REQUIRE(l.listener->port() > 0);
    os::SocketConnect c;
    TEST_REQUIRE(os::connectNumeric("127.0.0.1", l.listener->port(), os::SocketClock::now() + 5s, c));
    TEST_REQUIRE_EQ(c.error, 0);
    TEST_CHECK_EQ(c.address, std::string("127.0.0.1"));
    TEST_REQUIRE(c.socket != nullptr);
    std::string error;
    p.server = l.listener->accept(5000ms, error);
    TEST_REQUIRE_MSG(p.server, error);
    p.listener = std::move(l.listener);
    p.client = std::move(c.socket);
    return p;
}

// Reads exactly `size` bytes within a few seconds, the way net's StreamConnection loops.
std::string readExactly(os::TcpSocket& s, std::size_t size) {
    std::string out(size, '\0');
    std::size_t got = 0;
    const auto deadline = os::SocketClock::now() + 5s;
    while (got < size && os::SocketClock::now() < deadline) {
        if (s.waitReady(false, 100ms) != os::TcpSocket::Wait::Ready) continue;
        const os::TcpSocket::Io io = s.recvSome(&out[got], size - got);
        if (io.bytes == 0) break;
        if (io.bytes < 0) {
            if (os::socketErrorKind(io.error) == os::SocketErrorKind::Retry) continue;
            break;
        }
        got += static_cast<std::size_t>(io.bytes);
    }
    out.resize(got);
    return out;
}

} // namespace

TEST_CASE(bytesTravelBothWays) {
    Pair p = connectedPair();
    TEST_REQUIRE(p.client->waitReady(true, 1000ms) == os::TcpSocket::Wait::Ready);
    TEST_CHECK_EQ(p.client->sendSome("ping", 4).bytes, 4LL);
    TEST_CHECK_EQ(readExactly(*p.server, 4), std::string("ping"));
    TEST_CHECK_EQ(p.server->sendSome("pong!", 5).bytes, 5LL);
    TEST_CHECK_EQ(readExactly(*p.client, 5), std::string("pong!"));
}

TEST_CASE(anIdleReadWaitEndsByItsTimeout) {
    Pair p = connectedPair();
    const auto start = os::SocketClock::now();
    TEST_CHECK(p.server->waitReady(false, 200ms) == os::TcpSocket::Wait::TimedOut);
    TEST_CHECK(os::SocketClock::now() - start >= 150ms);
    // Nothing to read yet: the non-blocking call says "try again", it does not block.
    char byte = 0;
    const os::TcpSocket::Io io = p.server->recvSome(&byte, 1);
    TEST_CHECK_EQ(io.bytes, -1LL);
    TEST_CHECK(os::socketErrorKind(io.error) == os::SocketErrorKind::Retry);
}

TEST_CASE(aClosedPeerReadsAsZeroBytes) {
    Pair p = connectedPair();
    p.client.reset();
    TEST_REQUIRE(p.server->waitReady(false, 5000ms) == os::TcpSocket::Wait::Ready);
    char byte = 0;
    TEST_CHECK_EQ(p.server->recvSome(&byte, 1).bytes, 0LL);
}

TEST_CASE(acceptWithNobodyKnockingReturnsNothingAndNoError) {
    os::SocketListen l = os::listenTcp("127.0.0.1", 0);
    TEST_REQUIRE_MSG(l.listener, l.error);
    std::string error = "stale";
    TEST_CHECK(l.listener->accept(100ms, error) == nullptr);
    TEST_CHECK_MSG(error.empty(), error);
}

TEST_CASE(aPortNobodyListensOnIsRefused) {
    const int port = os::pickFreePort();
    TEST_REQUIRE(port > 0);
    os::SocketConnect c;
    TEST_REQUIRE(os::connectNumeric("127.0.0.1", port, os::SocketClock::now() + 5s, c));
    TEST_CHECK(c.socket == nullptr);
    TEST_CHECK(!c.socketFailed);
    TEST_CHECK_MSG(os::socketErrorKind(c.error) == os::SocketErrorKind::Refused,
                   os::socketErrorText(c.error));
    TEST_CHECK(!os::socketErrorText(c.error).empty());
}

TEST_CASE(aHeldPortCannotBeBoundAndAFreeOneCan) {
    os::SocketListen l = os::listenTcp("0.0.0.0", 0);
    TEST_REQUIRE_MSG(l.listener, l.error);
    const int held = os::bindWildcard(false, l.listener->port());
    const os::SocketErrorKind kind = os::socketErrorKind(held);
    // Windows refuses a bind beside an SO_EXCLUSIVEADDRUSE listener with WSAEADDRINUSE; wine with WSAEACCES.
    TEST_CHECK_MSG(kind == os::SocketErrorKind::InUse ||
                       (kWindows && kind == os::SocketErrorKind::AccessDenied),
                   os::socketErrorText(held));
    const int port = os::pickFreePort();
    TEST_REQUIRE(port > 0);
    TEST_CHECK_EQ(os::bindWildcard(false, port), 0);
    // Listening twice on one port: the second is refused with the OS's words.
    os::SocketListen again = os::listenTcp("0.0.0.0", l.listener->port());
    TEST_CHECK(again.listener == nullptr);
    TEST_CHECK(!again.error.empty());
}

TEST_CASE(numericAddressesNeedNoResolver) {
    TEST_CHECK(os::isNumericHost("127.0.0.1"));
    TEST_CHECK(os::isNumericHost("::1"));
    TEST_CHECK(!os::isNumericHost("localhost"));
    TEST_CHECK(!os::isNumericHost("not an address"));
    os::SocketConnect untouched;
    TEST_CHECK(!os::connectNumeric("localhost", 1, os::SocketClock::now() + 1s, untouched));
    TEST_CHECK(untouched.address.empty());
    const os::HostAddresses a = os::resolveBlocking("127.0.0.1");
    TEST_REQUIRE_MSG(a.ok, a.error);
    TEST_CHECK_EQ(a.addresses.size(), std::size_t(1));
    TEST_CHECK_EQ(a.addresses[0], std::string("127.0.0.1"));
}

TEST_CASE(loopbackIsLocalAndADocumentationAddressIsNot) {
    TEST_CHECK(os::isLocalAddress("127.0.0.1"));
    TEST_CHECK(!os::isLocalAddress("192.0.2.1")); // TEST-NET-1, never assigned
    TEST_CHECK(!os::isLocalAddress("not an address"));
    TEST_CHECK(!os::localHostName().empty());
}

TEST_CASE(timeLeftRoundsUpAndStopsAtZero) {
    TEST_CHECK_EQ(os::timeLeft(os::SocketClock::now() - 1s).count(), 0LL);
    const auto left = os::timeLeft(os::SocketClock::now() + 1500us);
    TEST_CHECK(left.count() >= 1 && left.count() <= 2);
    TEST_CHECK(os::timeLeft(os::SocketDeadline::max()) >= std::chrono::hours(24));
}

TEST_CASE(eachAddressIsKeptOnce) {
    std::vector<std::string> addresses;
    os::addUnique(addresses, "::1");
    os::addUnique(addresses, "127.0.0.1");
    os::addUnique(addresses, "::1");
    TEST_CHECK_EQ(addresses.size(), std::size_t(2));
}

DDPDESK_TEST_MAIN()
