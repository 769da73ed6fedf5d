// A node's end of the node link (launch/link/node_link_client.h) against a fake node 0 over a real loopback
// connection: whoever answers on node 0's link port. The target listens; the client connects (again after
// each session, as it does); the target sends the input and closes its side, then waits until that session is
// over (the client connects again, or gave up for good after a refusal, which makes a new client). Input: one
// mode byte, then
//   mode & 1 == 0: the raw bytes node 0 sends (length-prefixed bodies: 64 hex digits of MAC, then JSON);
//   mode & 1 == 1: lines: the challenge's payload (unsigned), the answer to the hello (signed with the run's
//                  secret and the challenge's nonce; unsigned, a refusal, with mode & 2), then requests
//                  (stop, stacks) signed as node 0 would.
// The client's last resort (an exception that left one of its threads: a status "node link to/from node 0:
// ..." from os::runCaught) is a crash here.
#include "fuzz_support.h"

#include "launch/link/node_link_client.h"
#include "protocol/node_link.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <chrono>
#include <condition_variable>
#include <mutex>

using namespace ddpdesk;
using namespace ddpdesk::launch::link;
namespace nl = protocol::node_link;

namespace {

const std::string kSecret(32, 'c');

struct FakeNodeZero {
    int listener = -1, port = 0;
    int pending = -1; // the client's next connection, accepted while waiting for the last session's end
    std::mutex mutex;
    std::condition_variable changed;
    bool gaveUp = false; // the client's thread ended (refused, or a MAC it will not accept)
    NodeLinkClient* client = nullptr;

    FakeNodeZero() {
        listener = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t n = sizeof a;
        if (listener < 0 || ::bind(listener, reinterpret_cast<sockaddr*>(&a), n) != 0 ||
            ::listen(listener, 8) != 0 || ::getsockname(listener, reinterpret_cast<sockaddr*>(&a), &n) != 0)
            fuzz::fail("cannot listen on loopback");
        port = ntohs(a.sin_port);
    }

    void ensureClient() {
        {
            std::lock_guard<std::mutex> lock(mutex);
            if (client && !gaveUp) return;
        }
        delete client; // joins its thread
        gaveUp = false;
        NodeLinkClientConfig c;
        c.host = "127.0.0.1";
        c.port = port;
        c.secret = kSecret;
        c.nodeRank = 1;
        c.worldSize = 4;
        c.nproc = 2;
        c.hostName = "node-b";
        NodeLinkClientHooks hooks;
        hooks.status = [this](const std::string& text) {
            if (text.rfind("node link to node 0: ", 0) == 0 || text.rfind("node link from node 0: ", 0) == 0)
                fuzz::fail("a node-link client thread threw: " + text);
            if (text.find("refused this one") != std::string::npos ||
                text.find("not signed with this run's secret") != std::string::npos) {
                std::lock_guard<std::mutex> lock(mutex);
                gaveUp = true;
                changed.notify_all();
            }
        };
        hooks.control = [](const nlohmann::json& request) {
            (void)request.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        };
        client = new NodeLinkClient(c, hooks);
    }

    // The client's next connection within `ms`; -1 when none came.
    int accept(int ms) {
        pollfd p{listener, POLLIN, 0};
        if (::poll(&p, 1, ms) != 1) return -1;
        return ::accept(listener, nullptr, nullptr);
    }
};

FakeNodeZero& node0() {
    static FakeNodeZero* z = new FakeNodeZero; // never destroyed: the client's thread may run at exit
    return *z;
}

std::string unsignedFrame(const std::string& payload) {
    return nl::frameBytes(nl::signFrame(std::string(), std::string(), nl::Direction::Down, 0, payload));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    FakeNodeZero& z = node0();
    z.ensureClient();
    int fd = z.pending;
    z.pending = -1;
    if (fd < 0) fd = z.accept(10000);
    if (fd < 0) fuzz::fail("the node-link client did not connect within 10 s");

    const std::string rest(reinterpret_cast<const char*>(data + 1), size - 1);
    std::string bytes;
    if (data[0] & 1) {
        const auto lines = fuzz::splitLines(rest);
        std::string nonce;
        const auto challenge = nlohmann::json::parse(lines[0], nullptr, false);
        if (challenge.is_object() && challenge.contains(nl::field::Nonce) &&
            challenge[nl::field::Nonce].is_string())
            nonce = challenge[nl::field::Nonce].get<std::string>();
        bytes = unsignedFrame(lines[0]);
        for (std::size_t i = 1; i < lines.size(); ++i)
            bytes +=
                i == 1 && (data[0] & 2)
                    ? unsignedFrame(lines[i])
                    : nl::frameBytes(nl::signFrame(kSecret, nonce, nl::Direction::Down, i - 1, lines[i]));
    } else {
        bytes = rest;
    }
    for (std::size_t at = 0; at < bytes.size();) {
        const ssize_t sent = ::send(fd, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL);
        if (sent <= 0) break; // the client closed: it may, early
        at += std::size_t(sent);
    }
    ::shutdown(fd, SHUT_WR);
    // The session is over when the client connects again or gives up.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
        {
            std::lock_guard<std::mutex> lock(z.mutex);
            if (z.gaveUp) break;
        }
        z.pending = z.accept(20);
        if (z.pending >= 0) break;
        if (std::chrono::steady_clock::now() > deadline)
            fuzz::fail("the node-link client's session did not end within 30 s of the input's end");
    }
    ::close(fd);
    return 0;
}
