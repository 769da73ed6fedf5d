// Node 0's end of the node link (launch/link/node_link_server.h) over a real loopback connection, as any
// local process can reach it: the target connects, reads the challenge, sends the input, closes its side and
// waits until the hub has ended that session (a refused or disconnected hook) before the next input. Input:
// one mode byte, then
//   mode even: the raw bytes sent after the challenge (length-prefixed bodies: 64 hex digits of MAC, JSON);
//   mode odd:  payloads, one a line, which the target signs with the run's secret and the challenge's nonce
//   as
//              node 1's launcher would (seq 0 the hello, then events frames), so what follows the MAC check
//              is reached.
// The hub's last resort (an exception that left a session's thread, reported by the refused hook as "the node
// link's own thread") is a crash here.
#include "fuzz_support.h"

#include "launch/link/node_link_server.h"
#include "protocol/node_link.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <chrono>
#include <condition_variable>
#include <mutex>

using namespace ddpdesk;
using namespace ddpdesk::launch::link;
namespace nl = protocol::node_link;

namespace {

const std::string kSecret(32, 's');

struct Hub {
    std::mutex mutex;
    std::condition_variable changed;
    std::uint64_t ended = 0; // sessions that ended (refused or disconnected)
    std::unique_ptr<NodeLinkServer> server;
};

Hub& hub() {
    static Hub* h = [] {
        auto* hub = new Hub; // never destroyed: its threads may still run at exit
        NodeLinkServerConfig c;
        c.address = "127.0.0.1";
        c.secret = kSecret;
        c.worldSize = 4;
        c.nproc = 2;
        c.nnodes = 2;
        NodeLinkServerHooks hooks;
        auto ended = [hub] {
            std::lock_guard<std::mutex> lock(hub->mutex);
            ++hub->ended;
            hub->changed.notify_all();
        };
        hooks.refused = [ended](const std::string& claimed, const std::string& why) {
            if (claimed == "the node link's own thread") fuzz::fail("a node-link thread threw: " + why);
            ended();
        };
        hooks.disconnected = [ended](int, const std::string&) { ended(); };
        hooks.events = [](int, std::vector<nlohmann::json>& events, std::uint64_t) {
            for (auto& e : events)
                (void)e.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        };
        auto started = NodeLinkServer::start(c, hooks);
        if (!started.server) fuzz::fail("the node-link server did not start: " + started.error);
        hub->server = std::move(started.server);
        return hub;
    }();
    return *h;
}

bool readExact(int fd, char* out, std::size_t n) {
    while (n > 0) {
        const ssize_t got = ::recv(fd, out, n, 0);
        if (got <= 0) return false;
        out += got;
        n -= std::size_t(got);
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    Hub& h = hub();
    std::uint64_t before;
    {
        std::lock_guard<std::mutex> lock(h.mutex);
        before = h.ended;
    }
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) fuzz::fail("no socket");
    timeval tv{10, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(std::uint16_t(h.server->port()));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
        fuzz::fail("cannot connect to the hub");

    // The challenge: its nonce, for the frames this target signs.
    char header[4];
    std::string nonce;
    if (readExact(fd, header, 4)) {
        std::string body(nl::frameLength(reinterpret_cast<unsigned char*>(header)), '\0');
        if (body.size() <= nl::kMaxFrameBytes && readExact(fd, body.data(), body.size())) {
            const auto payload = nl::unsignedPayload(body);
            const auto j = payload ? nlohmann::json::parse(*payload, nullptr, false) : nlohmann::json();
            if (j.is_object() && j.contains(nl::field::Nonce) && j[nl::field::Nonce].is_string())
                nonce = j[nl::field::Nonce].get<std::string>();
        }
    }
    const std::string rest(reinterpret_cast<const char*>(data + 1), size - 1);
    std::string bytes;
    if (data[0] & 1) {
        std::uint64_t seq = 0;
        for (const std::string& payload : fuzz::splitLines(rest))
            bytes += nl::frameBytes(nl::signFrame(kSecret, nonce, nl::Direction::Up, seq++, payload));
    } else {
        bytes = rest;
    }
    for (std::size_t at = 0; at < bytes.size();) {
        const ssize_t sent = ::send(fd, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL);
        if (sent <= 0) break; // the hub closed: it may, early
        at += std::size_t(sent);
    }
    ::shutdown(fd, SHUT_WR);
    {
        std::unique_lock<std::mutex> lock(h.mutex);
        if (!h.changed.wait_for(lock, std::chrono::seconds(30), [&] { return h.ended > before; }))
            fuzz::fail("the hub did not end the session within 30 s of the input's end");
    }
    ::close(fd);
    return 0;
}
