#pragma once

// Helpers shared by the launcher tests: running ddpdesk-cli as a real process, reading its output files, and
// checking that no worker outlived its run.

#include "launch/config/run_config.h"
#include "launch/process/process_control.h"
#include "os/process.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTcpServer>
#include <QThread>

namespace launchtest {

struct CliResult {
    int exitCode = -1;
    bool finished = false;
    QString out, err;
};

inline QString envPath(const char* name) {
    return qEnvironmentVariable(name);
}

// `workDir`: the folder the CLI is started in (empty: this test's).
inline CliResult runCli(const QStringList& args, int timeoutMs, const QMap<QString, QString>& extraEnv = {},
                        const QString& program = envPath("DDPDESK_CLI"), const QString& workDir = {}) {
    QProcess p;
    if (!workDir.isEmpty()) p.setWorkingDirectory(workDir);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (auto it = extraEnv.begin(); it != extraEnv.end(); ++it)
        env.insert(it.key(), it.value());
    p.setProcessEnvironment(env);
    p.start(program, args);
    CliResult r;
    if (!p.waitForStarted(10000)) {
        r.err = QStringLiteral("could not start %1: %2").arg(program, p.errorString());
        return r;
    }
    r.finished = p.waitForFinished(timeoutMs);
    if (!r.finished) {
        p.kill();
        p.waitForFinished(5000);
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

inline QJsonObject readJsonFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

inline QVector<QJsonObject> readJsonLines(const QString& path) {
    QVector<QJsonObject> events;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return events;
    while (!f.atEnd()) {
        const QByteArray line = f.readLine().trimmed();
        if (!line.isEmpty()) events.push_back(QJsonDocument::fromJson(line).object());
    }
    return events;
}

// Worker pids the launcher recorded (rank_start events) in metrics.jsonl.
inline QVector<qint64> workerPids(const QString& metricsPath) {
    QVector<qint64> pids;
    for (const QJsonObject& e : readJsonLines(metricsPath))
        if (e["event"].toString() == QLatin1String("rank_start")) pids.push_back(qint64(e["pid"].toDouble()));
    return pids;
}

// Pids still alive after up to graceMs (a process being reaped by its parent takes a moment).
inline QVector<qint64> leftovers(const QVector<qint64>& pids, int graceMs = 2000) {
    QVector<qint64> alive;
    for (int waited = 0;; waited += 100) {
        alive.clear();
        for (qint64 pid : pids)
            if (ddpdesk::os::processAlive(pid)) alive.push_back(pid);
        if (alive.isEmpty() || waited >= graceMs) return alive;
        QThread::msleep(100);
    }
}

inline int freePort() {
    QTcpServer s;
    return s.listen(QHostAddress::Any, 0) ? s.serverPort() : 0;
}

// Everything ranks wrote outside the telemetry protocol (the `log` events the launcher recorded in
// metrics.jsonl), for a failing test to print whole: the CLI's summary keeps only the last lines, each cut
// short.
inline QStringList rankOutput(const QString& metricsPath) {
    QStringList lines;
    for (const QJsonObject& e : readJsonLines(metricsPath))
        if (e["event"].toString() == QLatin1String("log"))
            lines << QStringLiteral("rank %1 %2: %3")
                         .arg(e["rank"].toInt())
                         .arg(e["stream"].toString(), e["text"].toString());
    return lines;
}

// The smallest real training a launcher test starts: two autoencoder ranks of one thread each, batch 16 on
// 256 samples, `steps` steps, into `out`.
inline ddpdesk::launch::RunConfig smallRun(const QString& out, int steps) {
    ddpdesk::launch::RunConfig c;
    c.workload = QStringLiteral("autoencoder");
    c.nproc = 2;
    c.training.steps = steps;
    c.training.threads = 1;
    c.training.batchSize = 16;
    c.training.limitSamples = 256;
    c.outDir = out;
    return c;
}

inline int countEvents(const QVector<QJsonObject>& events, const QString& type, int rank = -2) {
    int n = 0;
    for (const QJsonObject& e : events)
        n += e["event"].toString() == type && (rank == -2 || e["rank"].toInt() == rank);
    return n;
}

} // namespace launchtest
