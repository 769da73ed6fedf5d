// The per-process sampler against real child processes: a busy one, an idle one, one that exited, and a pid
// that does not exist.

#include "monitor/process_stats.h"
#include "os/process.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QThread>
#include <QtTest>

using namespace ddpdesk::monitor;

namespace {

// Starts the helper and waits (bounded) until it has touched its memory and started its threads.
bool startChild(QProcess& child, const QString& mode, int megabytes, int extraThreads) {
    child.setProgram(QStringLiteral(BUSY_CHILD_PATH));
    child.setArguments(
        {QStringLiteral("30"), QString::number(megabytes), QString::number(extraThreads), mode});
    child.start();
    if (!child.waitForStarted(10000)) return false;
    QElapsedTimer timer;
    timer.start();
    while (!child.canReadLine() && timer.elapsed() < 15000)
        child.waitForReadyRead(500);
    return child.readLine().trimmed() == "ready";
}

void stopChild(QProcess& child) {
    if (child.state() != QProcess::NotRunning) {
        child.kill();
        child.waitForFinished(10000);
    }
}

} // namespace

class TestProcessStats : public QObject {
    Q_OBJECT
private slots:
    void busyChildShowsCpuMemoryAndThreads() {
        QProcess child;
        QVERIFY2(startChild(child, QStringLiteral("busy"), 64, 3),
                 "the busy child did not get ready within 15 s");
        const std::int64_t pid = child.processId();
        ProcessSampler sampler;

        auto first = sampler.sample({{pid, 2}});
        QCOMPARE(int(first.size()), 1);
        QVERIFY2(first[0].alive, first[0].error.c_str());
        QCOMPARE(first[0].pid, pid);
        QCOMPARE(first[0].rank, 2);
        QVERIFY(!first[0].cpuPercent.has_value()); // no interval to measure over yet
        QVERIFY2(first[0].residentBytes >= 60ULL * 1024 * 1024,
                 qPrintable(QStringLiteral("rss %1").arg(first[0].residentBytes)));
        QVERIFY2(first[0].threads >= 4, qPrintable(QStringLiteral("threads %1").arg(first[0].threads)));

        // On a loaded machine the child may get little CPU in one interval: sample until it shows (bounded).
        double cpu = 0;
        QElapsedTimer timer;
        timer.start();
        while (cpu <= 0 && timer.elapsed() < 10000) {
            QThread::msleep(250);
            auto next = sampler.sample({{pid, 2}});
            QVERIFY2(next[0].alive, next[0].error.c_str());
            QVERIFY(next[0].cpuPercent.has_value());
            cpu = *next[0].cpuPercent;
            QVERIFY(next[0].cpuSeconds >= first[0].cpuSeconds);
        }
        QVERIFY2(cpu > 0, "a busy-looping child never showed CPU use in 10 s");
        qInfo("busy child: %.0f%% CPU", cpu);
        stopChild(child);
    }

    void idleChildAndSelf() {
        QProcess child;
        QVERIFY(startChild(child, QStringLiteral("idle"), 8, 0));
        const std::int64_t pid = child.processId();
        const std::int64_t self = ddpdesk::os::currentPid();
        QVERIFY(self > 0);
        QVERIFY(self != pid);
        ProcessSampler sampler;
        sampler.sample({{pid, 0}, {self, -1}});
        QThread::msleep(200);
        auto s = sampler.sample({{pid, 0}, {self, -1}});
        QCOMPARE(int(s.size()), 2);
        QVERIFY(s[0].alive && s[1].alive);
        QVERIFY(s[0].cpuPercent.has_value() && *s[0].cpuPercent >= 0);
        QVERIFY(s[0].residentBytes >= 8ULL * 1024 * 1024);
        QCOMPARE(s[1].pid, self);
        QCOMPARE(s[1].rank, -1);
        QVERIFY(s[1].threads >= 1);
        stopChild(child);
    }

    void exitedAndMissingProcesses() {
        QProcess child;
        QVERIFY(startChild(child, QStringLiteral("idle"), 1, 0));
        const std::int64_t pid = child.processId();
        ProcessSampler sampler;
        QVERIFY(sampler.sample({{pid, 1}})[0].alive);
        stopChild(child); // QProcess reaps it
        auto gone = sampler.sample({{pid, 1}});
        QVERIFY(!gone[0].alive);
        QVERIFY(!gone[0].cpuPercent.has_value());
        QVERIFY2(!gone[0].error.empty(), "an exited process must say why it has no numbers");

        auto bogus = sampler.sample({{0, -1}, {-5, -1}});
        QVERIFY(!bogus[0].alive && !bogus[1].alive);
        QVERIFY(bogus[0].error.find("invalid pid") != std::string::npos);
        QVERIFY(sampler.sample({}).empty());
    }
};

QTEST_GUILESS_MAIN(TestProcessStats)
#include "test_process_stats.moc"
