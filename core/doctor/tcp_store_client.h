#pragma once

// A read-only client for a live c10d TCPStore, speaking its wire protocol directly (the doctor links no
// LibTorch; the wire codes live in net/tcp_store_wire.h). Only queries that cannot change the store are ever
// sent: GETNUMKEYS, CHECK, GET (GET only after CHECK said the key exists, because a GET of a missing key
// blocks). Two dialects:
//   v1 (PyTorch 1.x, verified against Debian's torch 1.13): QueryType SET=0 COMPARE_SET=1 GET=2 ADD=3 CHECK=4
//      WAIT=5 GETNUMKEYS=6; strings are uint64 length + bytes; CHECK answers one byte 0=ready 1=not ready.
//   v2 (PyTorch 2.x): every connection first sends VALIDATE=0 + uint32 0x3C85F7CE; GET=3 CHECK=5
//   GETNUMKEYS=7.
// The first probe is v1 GETNUMKEYS (a single byte with no payload), which a v2 server rejects without side
// effects, or, as the libuv backend of 2.4+, leaves unanswered: after 1.5 s of silence the v2 handshake
// follows, so a libuv store costs no whole timeout. Never both at once (see open()). Every request/answer
// pair must finish within the per-probe timeout and before the diagnosis' end (absolute deadlines, so a peer
// trickling bytes cannot stretch it), and a value is read only up to kMaxValueBytes.

#include "net/net_socket.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace ddpdesk::doctor {

class TcpStoreClient {
public:
    enum class Outcome { Store, NotAStore, Unreachable };
    struct OpenResult {
        Outcome outcome = Outcome::Unreachable;
        net::ConnectStatus connect = net::ConnectStatus::Error;
        std::string address;
        std::string detail;  // what was seen: the error, or why the answer is not a store's
        std::string dialect; // "v1" / "v2" when a store answered
        long long numKeys = -1;
    };

    // Rank records and Gloo's host names are tiny; a larger length prefix is not read (nor allocated).
    static constexpr std::uint64_t kMaxValueBytes = 64 * 1024;

    struct OversizedValue {
        std::string key;
        std::uint64_t bytes = 0; // the length the store announced
    };

    // `end`: nothing is waited for past it (the diagnosis deadline), whatever `timeout` says.
    TcpStoreClient(std::string host, int port, net::Millis timeout,
                   net::TimePoint end = net::TimePoint::max());
    OpenResult open();

    std::optional<bool> check(const std::string& rawKey);      // nullopt: the connection failed
    std::optional<std::string> get(const std::string& rawKey); // nullopt: missing or failed
    bool connected() const { return m_conn != nullptr; }
    const std::optional<OversizedValue>& oversized() const { return m_oversized; } // the last value not read

private:
    bool handshake(int dialect, OpenResult& r);
    // A request goes out in one send: split writes meet the server's delayed ACK (Nagle), 40 ms per request.
    static void appendString(std::string& msg, const std::string& s);
    net::TimePoint probeDeadline() const; // now + timeout, but never past m_end

    std::string m_host;
    int m_port;
    net::Millis m_timeout;
    net::TimePoint m_end;
    int m_dialect = 0;
    std::unique_ptr<net::Connection> m_conn;
    std::optional<OversizedValue> m_oversized;
};

} // namespace ddpdesk::doctor
