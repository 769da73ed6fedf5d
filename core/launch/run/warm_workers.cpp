#include "launch/run/warm_workers.h"

#include "protocol/warm_start.h"

#include <QDir>
#include <QProcess>

#include <algorithm>

namespace ddpdesk::launch {

WarmWorkers::WarmWorkers(QObject* parent) : QObject(parent) {}

WarmWorkers::~WarmWorkers() {
    clear();
    // Every worker let go, now or before, has seen its input end and exits by itself; one that does not is
    // killed rather than left behind.
    for (QProcess* p : findChildren<QProcess*>()) {
        p->disconnect(this);
        if (!p->waitForFinished(2000)) {
            m_guard.kill(*p);
            p->waitForFinished(2000);
        }
        delete p;
    }
}

void WarmWorkers::release(std::size_t i) {
    QProcess* p = m_entries[i].process;
    m_entries.erase(m_entries.begin() + static_cast<std::ptrdiff_t>(i));
    p->disconnect(this);
    p->closeWriteChannel(); // end of input: it exits 0 and is deleted then
    connect(p, &QProcess::finished, p, &QObject::deleteLater);
}

void WarmWorkers::clear() {
    while (!m_entries.empty())
        release(m_entries.size() - 1);
}

void WarmWorkers::fill(const QString& program, int count) {
    for (std::size_t i = m_entries.size(); i-- > 0;)
        if (m_entries[i].program != program) release(i);
    while (static_cast<int>(m_entries.size()) < count) {
        auto* p = new QProcess(this);
        const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        p->setProcessEnvironment(env);
        p->setProgram(program);
        p->setArguments({QString::fromLatin1(protocol::kWaitForConfigFlag)});
        p->setWorkingDirectory(QDir::tempPath()); // holds no folder a user may want to remove
        m_guard.prepare(*p);
        connect(p, &QProcess::started, this, [this, p] { m_guard.adopt(*p); });
        // A worker that ends while waiting (killed, no LibTorch) is simply not there for the next run.
        connect(p, &QProcess::finished, this, [this, p] { drop(p); });
        connect(p, &QProcess::errorOccurred, this, [this, p](QProcess::ProcessError e) {
            if (e == QProcess::FailedToStart) drop(p);
        });
        m_entries.push_back({p, program, env});
        p->start();
    }
}

QProcess* WarmWorkers::take(const QString& program, QObject* newParent, QProcessEnvironment* startedWith) {
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it) {
        if (it->program != program || it->process->state() != QProcess::Running) continue;
        QProcess* p = it->process;
        *startedWith = it->env;
        m_entries.erase(it);
        p->disconnect(this);
        p->setParent(newParent);
        return p;
    }
    return nullptr;
}

int WarmWorkers::waiting() const {
    return static_cast<int>(m_entries.size());
}

QList<qint64> WarmWorkers::pids() const {
    QList<qint64> out;
    // Running, as take() wants them: a process whose pid is known may still be starting.
    for (const Entry& e : m_entries)
        if (e.process->state() == QProcess::Running && e.process->processId() > 0)
            out << e.process->processId();
    return out;
}

void WarmWorkers::drop(QProcess* process) {
    auto it = std::find_if(m_entries.begin(), m_entries.end(),
                           [process](const Entry& e) { return e.process == process; });
    if (it == m_entries.end()) return;
    m_entries.erase(it);
    process->deleteLater();
}

bool WarmWorkers::configure(QProcess& process, const QStringList& args, const QProcessEnvironment& env,
                            const QProcessEnvironment& startedWith, const QString& workDir) {
    protocol::WarmStartRequest r;
    for (const QString& a : args)
        r.args.push_back(a.toStdString());
    for (const QString& key : env.keys())
        if (!startedWith.contains(key) || startedWith.value(key) != env.value(key))
            r.env[key.toStdString()] = env.value(key).toStdString();
    for (const QString& key : startedWith.keys())
        if (!env.contains(key)) r.unset.push_back(key.toStdString());
    r.cwd = QDir::toNativeSeparators(workDir).toStdString();
    const QByteArray line = QByteArray::fromStdString(protocol::encodeWarmStart(r)) + '\n';
    if (process.write(line) != line.size()) return false;
    process.closeWriteChannel();
    return true;
}

} // namespace ddpdesk::launch
