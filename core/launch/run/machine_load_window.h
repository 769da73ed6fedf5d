#pragma once

// What other work took from this machine while one sweep size ran: the machine's busy CPU time over the
// window (os/machine_load.h) less this launcher's own, its reaped ranks' (with their children) and its warm
// workers'. A sweep size that ran beside other work is slower than the machine can give (sweep_trust.h:
// MACHINE_BUSY). NaN where it cannot be told: no machine counters, or an OS without the children's sum.

#include <QList>
#include <QtGlobal>

#include <chrono>
#include <map>
#include <optional>

namespace ddpdesk::launch {

class MachineLoadWindow {
public:
    // `ours`: live processes of ours that are not our children's reaped ones by the end (warm workers).
    void start(const QList<qint64>& ours);
    struct Result {
        double otherCores = qQNaN(); // mean cores other work kept busy over the window
        double cores = 0;            // the machine's cores, as its counters say
    };
    Result finish(const QList<qint64>& ours) const;

private:
    double oursNow(const QList<qint64>& pids, std::map<qint64, double>* each) const;

    std::chrono::steady_clock::time_point m_start;
    std::optional<double> m_busy, m_total, m_own;
    std::map<qint64, double> m_ours; // pid -> its CPU seconds at the start
};

} // namespace ddpdesk::launch
