#include "launch/run/machine_load_window.h"

#include "os/machine_load.h"
#include "os/process.h"

namespace ddpdesk::launch {

double MachineLoadWindow::oursNow(const QList<qint64>& pids, std::map<qint64, double>* each) const {
    double sum = 0;
    for (qint64 pid : pids) {
        const os::RawProcessStats s = os::readProcessStats(pid);
        if (!s.alive) continue;
        if (each) (*each)[pid] = s.cpuSeconds;
        const auto before = m_ours.find(pid);
        sum += s.cpuSeconds - (before == m_ours.end() ? 0.0 : before->second);
    }
    return sum;
}

void MachineLoadWindow::start(const QList<qint64>& ours) {
    m_start = std::chrono::steady_clock::now();
    m_ours.clear();
    const auto machine = os::readMachineCpu();
    m_busy = machine ? std::optional<double>(machine->busySeconds) : std::nullopt;
    m_total = machine ? std::optional<double>(machine->totalSeconds) : std::nullopt;
    m_own = os::ownAndReapedCpuSeconds();
    std::map<qint64, double> each;
    oursNow(ours, &each);
    m_ours = each;
}

MachineLoadWindow::Result MachineLoadWindow::finish(const QList<qint64>& ours) const {
    Result r;
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    const auto machine = os::readMachineCpu();
    const auto own = os::ownAndReapedCpuSeconds();
    if (!machine || !m_busy || !m_total || !own || !m_own || wall <= 0) return r;
    r.cores = (machine->totalSeconds - *m_total) / wall;
    const double others = (machine->busySeconds - *m_busy) - (*own - *m_own) - oursNow(ours, nullptr);
    r.otherCores = qMax(0.0, others / wall);
    return r;
}

} // namespace ddpdesk::launch
