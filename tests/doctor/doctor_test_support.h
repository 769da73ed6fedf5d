#pragma once

// Shared by the doctor tests: start a real fault (a helper process) and wait until it exists, and look
// findings up.

#include "doctor/doctor.h"
#include "doctor/rank_census.h"
#include "protocol/file_store_reader.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTest>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ddpdesk::doctor::test {

// $DDPDESK_TEST_PYTHON replaces the build's Python: the torch2 leg runs these tests with PyTorch 2.x ranks.
inline QString python() {
    return qEnvironmentVariable("DDPDESK_TEST_PYTHON", QStringLiteral(DDPDESK_PYTHON));
}
// The major version of the torch that python() imports (1 or 2), asked once; 0 if it cannot be asked.
inline int pythonTorchMajor() {
    static const int major = [] {
        QProcess p;
        p.start(python(), {"-c", "import torch; print(torch.__version__.split('.')[0])"});
        if (!p.waitForFinished(60000) || p.exitCode() != 0) return 0;
        return p.readAllStandardOutput().trimmed().toInt();
    }();
    return major;
}

// Whether the last record of rank `rank`'s Gloo address (1.x "rank_N", 2.x ".../cpu//0/N") is in a FileStore
// file.
inline bool glooRankPublished(const QString& path, int rank) {
    const protocol::FileStoreContents c = protocol::readFileStore(path.toStdString());
    std::vector<std::pair<std::string, std::string>> records;
    for (const auto& r : c.records)
        records.emplace_back(r.key, r.value);
    return censusFromRecords(records).arrived.count(rank) > 0;
}

inline QString helperScript() {
    return QStringLiteral(DDPDESK_DOCTOR_HELPERS);
}

// A helper process that holds a fault; killed (SIGKILL) when the test ends.
class Fault {
public:
    Fault() = default;
    Fault(const Fault&) = delete;
    ~Fault() { stop(); }

    // Starts `program args` and waits (bounded) for its "ready <detail>" line; returns false with a reason.
    bool start(const QString& program, const QStringList& args, int timeoutMs = 60000,
               const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
        m_proc = std::make_unique<QProcess>();
        m_proc->setProcessEnvironment(env);
        m_proc->setProcessChannelMode(QProcess::SeparateChannels);
        m_proc->start(program, args);
        if (!m_proc->waitForStarted(10000)) {
            m_error = "could not start " + program + ": " + m_proc->errorString();
            return false;
        }
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < timeoutMs) {
            while (m_proc->canReadLine()) {
                const QString line = QString::fromUtf8(m_proc->readLine()).trimmed();
                if (line.startsWith("ready")) {
                    m_detail = line.mid(5).trimmed();
                    return true;
                }
            }
            if (m_proc->state() == QProcess::NotRunning) {
                m_error =
                    "helper exited early: " + QString::fromUtf8(m_proc->readAllStandardError()).right(2000);
                return false;
            }
            m_proc->waitForReadyRead(200);
        }
        m_error = "helper not ready within " + QString::number(timeoutMs) +
                  " ms waiting for its 'ready' line; "
                  "stderr: " +
                  QString::fromUtf8(m_proc->readAllStandardError()).right(2000);
        return false;
    }
    bool startHelper(const QStringList& args, int timeoutMs = 60000,
                     const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
        return start(python(), QStringList{helperScript()} + args, timeoutMs, env);
    }
    // Starts without waiting for a ready line (for processes that never print one).
    bool launch(const QString& program, const QStringList& args,
                const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
        m_proc = std::make_unique<QProcess>();
        m_proc->setProcessEnvironment(env);
        m_proc->start(program, args);
        m_error = m_proc->errorString();
        return m_proc->waitForStarted(10000);
    }
    void stop() {
        if (m_proc && m_proc->state() != QProcess::NotRunning) {
            m_proc->kill();
            m_proc->waitForFinished(10000);
        }
    }
    qint64 pid() const { return m_proc ? m_proc->processId() : 0; }
    QString detail() const { return m_detail; }
    int port() const { return m_detail.toInt(); }
    QString error() const { return m_error; }
    QProcess* process() { return m_proc.get(); }

private:
    std::unique_ptr<QProcess> m_proc;
    QString m_detail;
    QString m_error;
};

inline const Finding* find(const std::vector<Finding>& findings, const std::string& code) {
    for (const auto& f : findings)
        if (f.code == code) return &f;
    return nullptr;
}

inline QByteArray dump(const std::vector<Finding>& findings) {
    return QByteArray::fromStdString(toText(findings));
}

// Diagnoses repeatedly until `code` appears and, when given, `ready` holds for it (a job takes a while to
// reach the state under test).
inline std::vector<Finding> diagnoseUntil(const DoctorRequest& request, const std::string& code,
                                          int timeoutMs,
                                          const std::function<bool(const Finding&)>& ready = {}) {
    QElapsedTimer t;
    t.start();
    std::vector<Finding> findings = diagnose(request);
    auto reached = [&] {
        const Finding* f = find(findings, code);
        return f && (!ready || ready(*f));
    };
    while (!reached() && t.elapsed() < timeoutMs) {
        QTest::qWait(300);
        findings = diagnose(request);
    }
    return findings;
}

// How many ranks a RANKS_MISSING finding counts as arrived (a list of ranks, or a count where ranks are
// unnamed).
inline std::size_t arrivedCount(const Finding& f) {
    const auto it = f.evidence.find("arrived");
    if (it == f.evidence.end()) return 0;
    return it->is_array() ? it->size() : it->is_number() ? it->get<std::size_t>() : 0;
}

} // namespace ddpdesk::doctor::test
