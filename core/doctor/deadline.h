#pragma once

// Internal: the one deadline of a whole diagnosis (DoctorRequest::deadlineSec). Every probe waits until the
// earlier of its own timeout and this, so the doctor ends in time with what it learned (DEADLINE_REACHED).

#include "net/net_socket.h"

#include <algorithm>

namespace ddpdesk::doctor::detail {

class Deadline {
public:
    Deadline() = default; // never expires
    explicit Deadline(double seconds);

    bool expired() const { return net::Clock::now() >= m_end; }
    net::TimePoint end() const { return m_end; }
    double seconds() const { return m_seconds; }
    net::Millis left() const;
    // A probe's own timeout, cut to what is left.
    net::Millis bound(net::Millis probe) const { return std::min(probe, left()); }

private:
    net::TimePoint m_end = net::TimePoint::max();
    double m_seconds = 0;
};

} // namespace ddpdesk::doctor::detail
