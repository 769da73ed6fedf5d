#include "doctor/stream_connection.h"

#include <algorithm>

namespace ddpdesk::doctor::net::detail {

bool StreamConnection::ready(bool forWrite, Millis timeout, const char* what) {
    switch (waitReady(forWrite, timeout)) {
    case Wait::Ready:
        return true;
    case Wait::TimedOut:
        m_error = "no progress within " + std::to_string(timeout.count()) + " ms waiting for " + what;
        return false;
    case Wait::Failed:
        break;
    }
    m_error = "waiting on the socket failed: " + errorText(lastWaitError());
    return false;
}

bool StreamConnection::sendAll(const void* data, std::size_t size, Millis timeout) {
    auto p = static_cast<const char*>(data);
    while (size > 0) {
        if (!ready(true, timeout, "sending"))
            return false;
        Io io = sendSome(p, size);
        if (io.bytes < 0) {
            if (isRetryable(io.error))
                continue;
            m_error = "send failed: " + errorText(io.error);
            return false;
        }
        p += io.bytes;
        size -= static_cast<std::size_t>(io.bytes);
    }
    return true;
}

bool StreamConnection::recvExact(void* data, std::size_t size, Millis timeout) {
    auto p = static_cast<char*>(data);
    while (size > 0) {
        if (!ready(false, timeout, "an answer"))
            return false;
        Io io = recvSome(p, size);
        if (io.bytes == 0) {
            m_closed = true;
            m_error = "the peer closed the connection";
            return false;
        }
        if (io.bytes < 0) {
            if (isRetryable(io.error))
                continue;
            m_closed = isReset(io.error);
            m_error = "recv failed: " + errorText(io.error);
            return false;
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

} // namespace ddpdesk::doctor::net::detail
