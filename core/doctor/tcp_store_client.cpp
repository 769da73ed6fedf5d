#include "doctor/tcp_store_client.h"

#include "net/net_socket.h"
#include "net/tcp_store_wire.h"
#include "os/tcp_socket.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace ddpdesk::doctor {

namespace {

// How long a 1.x GETNUMKEYS may stay unanswered before the server is taken for a silent 2.x libuv one. A 1.x
// server answers within milliseconds; one slower than this is stuck anyway.
constexpr net::Millis kSilentV1{1500};

std::uint8_t codeOf(int dialect, net::wire::Query q) {
    return *net::wire::code(dialect, q); // GET, CHECK and GETNUMKEYS exist in both dialects
}

} // namespace

TcpStoreClient::TcpStoreClient(std::string host, int port, net::Millis timeout, net::TimePoint end)
    : m_host(std::move(host)), m_port(port), m_timeout(timeout), m_end(end) {}

net::TimePoint TcpStoreClient::probeDeadline() const {
    const auto now = net::Clock::now();
    return m_end - now < m_timeout ? m_end : now + m_timeout;
}

bool TcpStoreClient::handshake(int dialect, OpenResult& r) {
    const net::TimePoint deadline = probeDeadline();
    auto c = net::connectTcp(m_host, m_port, os::timeLeft(deadline));
    r.connect = c.status;
    r.address = c.address;
    if (c.status != net::ConnectStatus::Connected) {
        r.outcome = Outcome::Unreachable;
        r.detail = c.error;
        return false;
    }
    m_conn = std::move(c.connection);
    std::string msg;
    if (dialect == 2) {
        msg.push_back(0);
        net::wire::putLe(msg, net::wire::kValidationMagic, 4);
    }
    msg.push_back(static_cast<char>(codeOf(dialect, net::wire::Query::NumKeys)));
    unsigned char answer[8];
    // The libuv server of PyTorch 2.4+ neither answers nor closes a 1.x query, where a 1.x server answers at
    // once: a 1.x probe that hears nothing for a moment gives way to the 2.x handshake instead of using the
    // whole timeout.
    const net::TimePoint firstByte =
        dialect == 1 ? std::min(deadline, net::Clock::now() + kSilentV1) : deadline;
    if (!m_conn->sendAll(msg.data(), msg.size(), deadline) || !m_conn->recvExact(answer, 1, firstByte) ||
        !m_conn->recvExact(answer + 1, 7, deadline)) {
        r.outcome = Outcome::NotAStore;
        r.detail = m_conn->lastError();
        m_conn.reset();
        return false;
    }
    auto n = static_cast<long long>(net::wire::getLe(answer, 8));
    // A store answers with exactly one small non-negative int64; a chatty server (HTTP, SSH banner) says
    // more.
    unsigned char extra;
    bool more = m_conn->recvExact(&extra, 1, std::min(net::Clock::now() + net::Millis(100), m_end));
    if (n < 0 || n > 100000000 || more) {
        std::string seen(reinterpret_cast<const char*>(answer), 8);
        for (auto& ch : seen)
            if (static_cast<unsigned char>(ch) < 32 || static_cast<unsigned char>(ch) > 126) ch = '.';
        r.outcome = Outcome::NotAStore;
        r.detail = "answered \"" + seen + (more ? "...\"" : "\"") + " to a store query";
        m_conn.reset();
        return false;
    }
    r.outcome = Outcome::Store;
    r.dialect = dialect == 2 ? "v2" : "v1";
    r.numKeys = n;
    r.detail.clear();
    m_dialect = dialect;
    return true;
}

TcpStoreClient::OpenResult TcpStoreClient::open() {
    OpenResult r;
    // 1.x first, and never both at once: a 1.x server reads the 2.x VALIDATE as a SET whose length never
    // completes, and its one daemon thread blocks on that connection, stalling the live job, until it closes.
    if (handshake(1, r) || r.outcome == Outcome::Unreachable) return r;
    OpenResult v1 = r;
    if (handshake(2, r)) return r;
    if (r.outcome == Outcome::Unreachable) return r;
    // Report what the PyTorch 1.x probe saw: it is the more telling answer for a non-store listener.
    v1.detail += "; the PyTorch 2.x handshake got: " + r.detail;
    return v1;
}

void TcpStoreClient::appendString(std::string& msg, const std::string& s) {
    net::wire::putLe(msg, s.size(), 8);
    msg += s;
}

std::optional<bool> TcpStoreClient::check(const std::string& rawKey) {
    if (!m_conn) return std::nullopt;
    std::string msg(1, static_cast<char>(codeOf(m_dialect, net::wire::Query::Check)));
    net::wire::putLe(msg, 1, 8);
    unsigned char answer = 0xff;
    const net::TimePoint deadline = probeDeadline();
    appendString(msg, rawKey);
    if (!m_conn->sendAll(msg.data(), msg.size(), deadline) || !m_conn->recvExact(&answer, 1, deadline) ||
        answer > 1) {
        m_conn.reset();
        return std::nullopt;
    }
    return answer == 0;
}

std::optional<std::string> TcpStoreClient::get(const std::string& rawKey) {
    auto exists = check(rawKey);
    if (!exists || !*exists) return std::nullopt;
    std::string msg(1, static_cast<char>(codeOf(m_dialect, net::wire::Query::Get)));
    unsigned char len[8];
    const net::TimePoint deadline = probeDeadline();
    appendString(msg, rawKey);
    if (!m_conn->sendAll(msg.data(), msg.size(), deadline) || !m_conn->recvExact(len, 8, deadline)) {
        m_conn.reset();
        return std::nullopt;
    }
    auto n = net::wire::getLe(len, 8);
    if (n > kMaxValueBytes) {
        // The rest of the answer is never read, so the connection is out of step: drop it.
        m_oversized = OversizedValue{rawKey, n};
        m_conn.reset();
        return std::nullopt;
    }
    std::string value(static_cast<std::size_t>(n), '\0');
    if (n > 0 && !m_conn->recvExact(value.data(), value.size(), deadline)) {
        m_conn.reset();
        return std::nullopt;
    }
    return value;
}

} // namespace ddpdesk::doctor
