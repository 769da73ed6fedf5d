#pragma once

// Runs real ddpdesk-worker processes for the engine tests: one QProcess per rank, stdout parsed with the
// telemetry protocol, every wait bounded. Paths come from CMake: DDPDESK_WORKER_PATH, DDPDESK_PYTHON,
// DDPDESK_TEST_DATA.

#include "protocol/telemetry.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStringList>
#include <QTcpServer>
#include <QTest>

#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace ddpdesk::traintest {

// $DDPDESK_TEST_WORKER / $DDPDESK_TEST_PYTHON replace the build's worker and Python: the torch2 leg runs
// these tests with a worker built against LibTorch 2.x and Python 2.x ranks (tests/CMakeLists.txt,
// ddpdesk_torch2_test).
inline QString workerPath() {
    return qEnvironmentVariable("DDPDESK_TEST_WORKER", QStringLiteral(DDPDESK_WORKER_PATH));
}
inline QString pythonPath() {
    return qEnvironmentVariable("DDPDESK_TEST_PYTHON", QStringLiteral(DDPDESK_PYTHON));
}
inline QString fashionDir() {
    return QStringLiteral(DDPDESK_FASHION_DIR);
}

// The LibTorch version the worker under test was built with (its --version), as major * 100 + minor; 0 if
// unknown. Behaviour that depends on LibTorch (e.g. a loopback-only TCPStore server from 2.3) is judged by
// the worker's own version, since the torch2 leg runs a worker built against another LibTorch than this test.
inline int workerTorchVersion() {
    QProcess p;
    p.start(workerPath(), {"--version"});
    if (!p.waitForFinished(60000)) return 0;
    for (const QByteArray& line : p.readAllStandardOutput().split('\n'))
        if (line.startsWith("LibTorch: ")) {
            const QList<QByteArray> parts = line.mid(10).trimmed().split('.');
            if (parts.size() >= 2) return parts[0].toInt() * 100 + parts[1].toInt();
        }
    return 0;
}

// A port nobody listens on right now (bind to 0, read it, release it).
inline quint16 freePort() {
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost, 0)) return 0;
    quint16 port = server.serverPort();
    server.close();
    return port;
}

struct RankResult {
    int exitCode = -1;
    bool finished = false;
    std::vector<protocol::Event> events;
    QByteArray stderrText;
    QByteArray stdoutText;

    std::vector<protocol::Event> ofType(const char* type) const {
        std::vector<protocol::Event> out;
        for (const auto& e : events)
            if (e.type == type) out.push_back(e);
        return out;
    }
    const protocol::Event* last(const char* type) const {
        for (auto it = events.rbegin(); it != events.rend(); ++it)
            if (it->type == type) return &*it;
        return nullptr;
    }
    QString describe() const {
        return QStringLiteral("exit %1; stdout:\n%2\nstderr:\n%3")
            .arg(exitCode)
            .arg(QString::fromUtf8(stdoutText.right(3000)))
            .arg(QString::fromUtf8(stderrText.right(3000)));
    }
};

// One or more worker processes started together.
class WorkerSet {
public:
    ~WorkerSet() {
        for (auto& p : m_procs)
            if (p->state() != QProcess::NotRunning) {
                p->kill();
                p->waitForFinished(5000);
            }
    }

    QProcess* start(const QStringList& args,
                    const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
                    const QString& program = workerPath()) {
        auto p = std::make_unique<QProcess>();
        p->setProcessEnvironment(env);
        p->start(program, args);
        QProcess* raw = p.get();
        m_procs.push_back(std::move(p));
        return raw;
    }

    // Starts `world` ranks with --rank/--world-size appended to `common`.
    void startRanks(int world, const QStringList& common, int firstRank = 0, int count = -1) {
        if (count < 0) count = world;
        for (int r = firstRank; r < firstRank + count; ++r)
            start(common + QStringList{"--rank", QString::number(r), "--world-size", QString::number(world)});
    }

    // Waits for every process (bounded) and collects their output.
    std::vector<RankResult> waitAll(int timeoutMs) {
        QElapsedTimer timer;
        timer.start();
        std::vector<RankResult> results;
        for (auto& p : m_procs) {
            RankResult r;
            int left = std::max(1, timeoutMs - static_cast<int>(timer.elapsed()));
            // A process that already ended (waited for elsewhere) counts as finished; one that never started
            // does not.
            r.finished = p->waitForFinished(left) ||
                         (p->state() == QProcess::NotRunning && p->error() != QProcess::FailedToStart);
            if (!r.finished) {
                p->kill();
                p->waitForFinished(5000);
            }
            r.exitCode = r.finished && p->exitStatus() == QProcess::NormalExit ? p->exitCode() : -1;
            r.stdoutText = p->readAllStandardOutput();
            r.stderrText = p->readAllStandardError();
            for (const QByteArray& line : r.stdoutText.split('\n'))
                if (auto e = protocol::parseLine(line.toStdString())) r.events.push_back(*e);
            results.push_back(std::move(r));
        }
        return results;
    }

    QProcess* process(int i) { return m_procs.at(static_cast<size_t>(i)).get(); }

private:
    std::vector<std::unique_ptr<QProcess>> m_procs;
};

// Runs one worker to completion.
inline RankResult runWorker(const QStringList& args, int timeoutMs = 120000,
                            const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    WorkerSet set;
    set.start(args, env);
    return set.waitAll(timeoutMs).front();
}

// Runs /usr/bin/python3 with a script; returns stdout, fails the test on a non-zero exit.
inline QByteArray runPython(const QString& script, const QStringList& args = {}, int timeoutMs = 120000) {
    QProcess p;
    p.start(pythonPath(), QStringList{"-c", script} + args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        qWarning("python timed out");
        return {};
    }
    if (p.exitCode() != 0) qWarning("python failed: %s", p.readAllStandardError().constData());
    return p.readAllStandardOutput();
}

} // namespace ddpdesk::traintest

namespace ddpdesk::traintest {

// Reads a running worker's stdout until an event of `type` arrives (bounded); `buffer` keeps what was read.
inline std::optional<protocol::Event> waitForEvent(QProcess* p, const char* type, int timeoutMs,
                                                   QByteArray& buffer) {
    QElapsedTimer timer;
    timer.start();
    for (;;) {
        int nl;
        while ((nl = buffer.indexOf('\n')) >= 0) {
            QByteArray line = buffer.left(nl);
            buffer.remove(0, nl + 1);
            if (auto e = protocol::parseLine(line.toStdString()))
                if (e->type == type) return e;
        }
        int left = timeoutMs - static_cast<int>(timer.elapsed());
        if (left <= 0 || p->state() == QProcess::NotRunning) return std::nullopt;
        p->waitForReadyRead(std::min(left, 500));
        buffer += p->readAllStandardOutput();
    }
}

} // namespace ddpdesk::traintest
