#pragma once

// Internal: a Connection over one OS socket (os/tcp_socket.h) - looping partial sends/receives until one
// absolute deadline, waited in slices so cancel() ends a wait from any thread. The same on every OS: the OS
// calls under it are core/os's.

#include "net/net_socket.h"
#include "os/tcp_socket.h"

#include <atomic>
#include <memory>
#include <string>

namespace ddpdesk::net::detail {

class StreamConnection final : public Connection {
public:
    explicit StreamConnection(std::unique_ptr<os::TcpSocket> socket) : m_socket(std::move(socket)) {}
    bool sendAll(const void* data, std::size_t size, TimePoint deadline) override;
    bool recvExact(void* data, std::size_t size, TimePoint deadline) override;
    bool sendByteNow(char byte) override;
    bool peerClosed() const override { return m_closed; }
    bool timedOut() const override { return m_timedOut[m_lastFailed]; }
    std::string lastError() const override { return m_error[m_lastFailed]; }
    void cancel() override { m_cancelled = true; }

private:
    bool ready(bool forWrite, TimePoint deadline, const char* what);
    bool fail(bool forWrite, std::string error);

    std::unique_ptr<os::TcpSocket> m_socket;
    // One thread may send (a server's wake-up) while another receives: each direction keeps its own state.
    std::atomic<bool> m_closed{false};
    std::atomic<bool> m_cancelled{false};
    bool m_timedOut[2] = {false, false}; // [forWrite]
    std::string m_error[2];
    std::atomic<int> m_lastFailed{0};
};

} // namespace ddpdesk::net::detail
