#include "net/stream_connection.h"

#include <algorithm>

namespace ddpdesk::net::detail {

Millis timeLeft(TimePoint deadline) {
    const auto now = Clock::now();
    if (deadline <= now) return Millis(0);
    if (deadline == TimePoint::max()) return Millis(24LL * 3600 * 1000);
    return std::chrono::ceil<Millis>(deadline - now);
}

bool StreamConnection::fail(bool forWrite, std::string error) {
    m_error[forWrite] = std::move(error);
    m_lastFailed = forWrite ? 1 : 0;
    return false;
}

bool StreamConnection::ready(bool forWrite, TimePoint deadline, const char* what) {
    m_timedOut[forWrite] = false;
    // Waited in slices, so cancel() from another thread ends the wait within one.
    for (;;) {
        if (m_cancelled) return fail(forWrite, "the connection was cancelled");
        const Millis left = timeLeft(deadline);
        if (left.count() <= 0) break;
        switch (waitReady(forWrite, std::min(left, kCancelSlice))) {
        case Wait::Ready:
            return true;
        case Wait::TimedOut:
            continue;
        case Wait::Failed:
            return fail(forWrite, "waiting on the socket failed: " + errorText(lastWaitError()));
        }
    }
    m_timedOut[forWrite] = true;
    return fail(forWrite, std::string("the time ran out waiting for ") + what);
}

bool StreamConnection::sendAll(const void* data, std::size_t size, TimePoint deadline) {
    auto p = static_cast<const char*>(data);
    while (size > 0) {
        if (!ready(true, deadline, "sending")) return false;
        Io io = sendSome(p, size);
        if (io.bytes < 0) {
            if (isRetryable(io.error)) continue;
            return fail(true, "send failed: " + errorText(io.error));
        }
        p += io.bytes;
        size -= static_cast<std::size_t>(io.bytes);
    }
    return true;
}

bool StreamConnection::sendByteNow(char byte) {
    // The socket is non-blocking: a full buffer fails at once. One attempt only; a caller that gets false has
    // the byte sent the waiting way (an interrupted call counts as a full buffer).
    return !m_cancelled && sendSome(&byte, 1).bytes == 1;
}

bool StreamConnection::recvExact(void* data, std::size_t size, TimePoint deadline) {
    auto p = static_cast<char*>(data);
    while (size > 0) {
        if (!ready(false, deadline, "an answer")) return false;
        Io io = recvSome(p, size);
        if (io.bytes == 0) {
            m_closed = true;
            return fail(false, "the peer closed the connection");
        }
        if (io.bytes < 0) {
            if (isRetryable(io.error)) continue;
            m_closed = isReset(io.error);
            return fail(false, "recv failed: " + errorText(io.error));
        }
        p += io.bytes;
        size -= static_cast<std::size_t>(io.bytes);
    }
    return true;
}

void addUnique(std::vector<std::string>& addresses, const std::string& address) {
    if (std::find(addresses.begin(), addresses.end(), address) == addresses.end())
        addresses.push_back(address);
}

} // namespace ddpdesk::net::detail
