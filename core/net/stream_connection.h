#pragma once

// Internal: the part of a Connection that is the same on every OS - looping partial sends/receives until one
// absolute deadline. Each OS file supplies only the raw calls (poll/select, send, recv, error codes).

#include "net/net_socket.h"

#include <atomic>
#include <string>
#include <vector>

namespace ddpdesk::net::detail {

class StreamConnection : public Connection {
public:
    bool sendAll(const void* data, std::size_t size, TimePoint deadline) override;
    bool recvExact(void* data, std::size_t size, TimePoint deadline) override;
    bool sendByteNow(char byte) override;
    bool peerClosed() const override { return m_closed; }
    bool timedOut() const override { return m_timedOut[m_lastFailed]; }
    std::string lastError() const override { return m_error[m_lastFailed]; }
    void cancel() override { m_cancelled = true; }

protected:
    enum class Wait { Ready, TimedOut, Failed };
    struct Io {
        long long bytes = 0; // < 0: failed, see error
        int error = 0;
    };
    virtual Wait waitReady(bool forWrite, Millis timeout) = 0;
    virtual Io sendSome(const char* data, std::size_t size) = 0;
    virtual Io recvSome(char* data, std::size_t size) = 0;
    virtual bool isRetryable(int error) const = 0; // interrupted / would block
    virtual bool isReset(int error) const = 0;
    virtual std::string errorText(int error) const = 0;
    virtual int lastWaitError() const = 0;

private:
    bool ready(bool forWrite, TimePoint deadline, const char* what);
    bool fail(bool forWrite, std::string error);

    // One thread may send (a server's wake-up) while another receives: each direction keeps its own state.
    std::atomic<bool> m_closed{false};
    std::atomic<bool> m_cancelled{false};
    bool m_timedOut[2] = {false, false}; // [forWrite]
    std::string m_error[2];
    std::atomic<int> m_lastFailed{0};
};

// getaddrinfo lists an address once per socket type/protocol; the findings want each address once.
void addUnique(std::vector<std::string>& addresses, const std::string& address);

// Milliseconds left until `deadline`, rounded up (0 when it has passed).
Millis timeLeft(TimePoint deadline);

} // namespace ddpdesk::net::detail
