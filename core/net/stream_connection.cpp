#include "net/stream_connection.h"

#include <algorithm>

namespace ddpdesk::net::detail {

using os::SocketErrorKind;
using os::TcpSocket;

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
        const Millis left = os::timeLeft(deadline);
        if (left.count() <= 0) break;
        switch (m_socket->waitReady(forWrite, std::min(left, kCancelSlice))) {
        case TcpSocket::Wait::Ready:
            return true;
        case TcpSocket::Wait::TimedOut:
            continue;
        case TcpSocket::Wait::Failed:
            return fail(forWrite,
                        "waiting on the socket failed: " + os::socketErrorText(m_socket->lastWaitError()));
        }
    }
    m_timedOut[forWrite] = true;
    return fail(forWrite, std::string("the time ran out waiting for ") + what);
}

bool StreamConnection::sendAll(const void* data, std::size_t size, TimePoint deadline) {
    auto p = static_cast<const char*>(data);
    while (size > 0) {
        if (!ready(true, deadline, "sending")) return false;
        const TcpSocket::Io io = m_socket->sendSome(p, size);
        if (io.bytes < 0) {
            if (os::socketErrorKind(io.error) == SocketErrorKind::Retry) continue;
            return fail(true, "send failed: " + os::socketErrorText(io.error));
        }
        p += io.bytes;
        size -= static_cast<std::size_t>(io.bytes);
    }
    return true;
}

bool StreamConnection::sendByteNow(char byte) {
    // The socket is non-blocking: a full buffer fails at once. One attempt only; a caller that gets false has
    // the byte sent the waiting way (an interrupted call counts as a full buffer).
    return !m_cancelled && m_socket->sendSome(&byte, 1).bytes == 1;
}

bool StreamConnection::recvExact(void* data, std::size_t size, TimePoint deadline) {
    auto p = static_cast<char*>(data);
    while (size > 0) {
        if (!ready(false, deadline, "an answer")) return false;
        const TcpSocket::Io io = m_socket->recvSome(p, size);
        if (io.bytes == 0) {
            m_closed = true;
            return fail(false, "the peer closed the connection");
        }
        if (io.bytes < 0) {
            const SocketErrorKind kind = os::socketErrorKind(io.error);
            if (kind == SocketErrorKind::Retry) continue;
            m_closed = kind == SocketErrorKind::Reset;
            return fail(false, "recv failed: " + os::socketErrorText(io.error));
        }
        p += io.bytes;
        size -= static_cast<std::size_t>(io.bytes);
    }
    return true;
}

} // namespace ddpdesk::net::detail
