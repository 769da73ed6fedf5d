#pragma once

// A read-only client for a live c10d TCPStore, speaking its wire protocol directly (the doctor links no LibTorch).
// Only queries that cannot change the store are ever sent: GETNUMKEYS, CHECK, GET (GET only after CHECK said the
// key exists, because a GET of a missing key blocks). Two dialects:
//   v1 (PyTorch 1.x, verified against Debian's torch 1.13): QueryType SET=0 COMPARE_SET=1 GET=2 ADD=3 CHECK=4
//      WAIT=5 GETNUMKEYS=6; strings are uint64 length + bytes; CHECK answers one byte 0=ready 1=not ready.
//   v2 (PyTorch 2.x): every connection first sends VALIDATE=0 + uint32 0x3C85F7CE; GET=3 CHECK=5 GETNUMKEYS=7.
// The first probe is v1 GETNUMKEYS (a single byte with no payload), which a v2 server rejects without side effects.

#include "doctor/net_socket.h"

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
        std::string detail;       // what was seen: the error, or why the answer is not a store's
        std::string dialect;      // "v1" / "v2" when a store answered
        long long numKeys = -1;
    };

    TcpStoreClient(std::string host, int port, net::Millis timeout);
    OpenResult open();

    std::optional<bool> check(const std::string& rawKey);       // nullopt: the connection failed
    std::optional<std::string> get(const std::string& rawKey);  // nullopt: missing or failed

private:
    bool handshake(int dialect, OpenResult& r);
    bool sendString(const std::string& s);

    std::string m_host;
    int m_port;
    net::Millis m_timeout;
    int m_dialect = 0;
    std::unique_ptr<net::Connection> m_conn;
};

} // namespace ddpdesk::doctor
