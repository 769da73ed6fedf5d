// How gradients travel between ranks on one machine: shared memory (the default when every rank can map it)
// or Gloo. Real worker processes: the choice is agreed by all ranks, a forced choice that cannot be met is a
// clear error, a stalled or vanished peer is reported (never a hang), and no shared-memory name is left
// behind.

#include "worker_harness.h"

#include "os/process.h"
#include "train/shared_memory.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QThread>

#include <csignal>
#include <cstring>

using namespace ddpdesk;
using namespace ddpdesk::traintest;

namespace {

// 200 samples: 2 steps per epoch, quick. `samples` 0 uses the whole data set (100 steps per epoch per rank),
// so a rank frozen at a random moment is almost always frozen mid-step, not in an epoch-end collective over
// Gloo.
QStringList shortRun(const QTemporaryDir& dir, const QString& steps = "4", int samples = 200) {
    QStringList args{"--workload",     "autoencoder", "--steps", steps,
                     "--telemetry-ms", "0",           "--store", "file:" + dir.filePath("store"),
                     "--out",          dir.path()};
    if (samples > 0) args += QStringList{"--limit-samples", QString::number(samples)};
    return args;
}

QStringList rankArgs(const QStringList& common, int rank, int world, const QStringList& extra = {}) {
    return common + extra +
           QStringList{"--rank", QString::number(rank), "--world-size", QString::number(world)};
}

std::string transportOf(const RankResult& r) {
    for (const auto& e : r.ofType("rendezvous"))
        if (e.body.value("phase", "") == "done") return e.body.value("grad_transport", "");
    return "";
}

// The shared block's name as the worker logged it ("... shared memory ddpdesk-<token> ...").
QString loggedBlockName(const RankResult& r) {
    QRegularExpressionMatch m =
        QRegularExpression("shared memory (ddpdesk-[0-9a-f]{16})").match(r.stderrText);
    return m.hasMatch() ? m.captured(1) : QString();
}

} // namespace

class TestGradTransport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sharedMemoryBlockIsSharedAndNamedOnce() {
        const std::string token = "test-" + std::to_string(QCoreApplication::applicationPid());
        auto a = train::SharedMemory::create(token, 4096);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, train::SharedMemory::create(token, 4096));
        auto b = train::SharedMemory::open(token, 4096);
        QCOMPARE(static_cast<int>(b->data()[100]), 0); // starts zeroed
        std::strcpy(reinterpret_cast<char*>(a->data()) + 100, "written through a");
        QCOMPARE(QByteArray(reinterpret_cast<const char*>(b->data()) + 100), QByteArray("written through a"));
#ifndef Q_OS_WIN
        a->removeName();
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, train::SharedMemory::open(token, 4096));
        QVERIFY(!QFile::exists(QString::fromStdString("/dev/shm/ddpdesk-" + token)));
#endif
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, train::SharedMemory::open("never-created-here", 4096));
    }

    void processAliveSeesExitedAndZombieProcesses() {
        QVERIFY(os::processAlive(QCoreApplication::applicationPid()));
#ifdef Q_OS_WIN
        QSKIP("zombie processes are a POSIX notion; the Windows check waits on the process handle");
#else
        // The shell's background child exits after the shell has become `sleep` (exec), which never reaps it:
        // a zombie that kill(pid, 0) still reports as present. (A child that exited before the exec could be
        // reaped by the shell itself.)
        QProcess sh;
        sh.start("/bin/sh", {"-c", "sleep 2 & echo $!; exec sleep 30"});
        QVERIFY(sh.waitForReadyRead(10000));
        qint64 zombie = sh.readLine().trimmed().toLongLong();
        QVERIFY(zombie > 0);
        QVERIFY(os::processAlive(zombie)); // still sleeping
        QThread::msleep(3000);
        QFile stat(QString("/proc/%1/stat").arg(zombie));
        if (QFile::exists("/proc/self")) {
            QVERIFY(stat.open(QIODevice::ReadOnly));
            QVERIFY2(stat.readAll().contains(") Z "), "not a zombie: the check below would prove nothing");
        }
        QVERIFY(!os::processAlive(zombie));
        QVERIFY(os::processAlive(sh.processId()));
        sh.kill();
        sh.waitForFinished(5000);
        QVERIFY(!os::processAlive(sh.processId()));
#endif
    }

    void localRanksShareMemoryAndLeaveNothingBehind() {
        QTemporaryDir dir;
        WorkerSet set;
        set.startRanks(3, shortRun(dir) + QStringList{"--threads", "1"});
        auto results = set.waitAll(180000);
        for (const RankResult& r : results) {
            QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
            QCOMPARE(transportOf(r), std::string("shared_memory"));
        }
        QString name = loggedBlockName(results[0]);
        QVERIFY2(!name.isEmpty(), results[0].stderrText.constData());
        QCOMPARE(loggedBlockName(results[2]), name); // one block for all ranks
#ifndef Q_OS_WIN
        QVERIFY(!QFile::exists("/dev/shm/" + name)); // the name went away as soon as every rank had mapped it
#endif
    }

    // Rank 0 creates the block, then waits in two allreduces until every rank has mapped it; only then is the
    // name removed. A stop (SIGTERM) in that window used to leave /dev/shm/ddpdesk-<token> until reboot. Rank
    // 1 is frozen as soon as rank 0 has the block mapped, which holds rank 0 inside the window, then rank 0
    // is SIGTERMed: the name must go, and rank 0 must still die of SIGTERM (the handler re-raises it).
    void sigtermDuringSetupLeavesNoSharedMemory() {
#ifdef Q_OS_WIN
        QSKIP("POSIX names only: a Windows mapping vanishes with its last handle");
#else
        int hits = 0;
        QStringList leftovers;
        for (int attempt = 0; attempt < 12 && hits < 3; ++attempt) {
            QTemporaryDir dir;
            WorkerSet set;
            set.startRanks(2, shortRun(dir, "100000") +
                                  QStringList{"--threads", "1", "--collective-timeout", "60"});
            QVERIFY(set.process(0)->waitForStarted(20000) && set.process(1)->waitForStarted(20000));
            const qint64 pid0 = set.process(0)->processId();
            const qint64 pid1 = set.process(1)->processId();
            QVERIFY(pid0 > 0 && pid1 > 0);
            // The block as rank 0 maps it: "/dev/shm/ddpdesk-<token>", with " (deleted)" once the name is
            // gone.
            static const QRegularExpression mapped("/dev/shm/(ddpdesk-[0-9a-f]{16})( \\(deleted\\))?");
            QString name;
            QElapsedTimer timer;
            timer.start();
            while (name.isEmpty() && timer.elapsed() < 120000 &&
                   set.process(0)->state() != QProcess::NotRunning) {
                QFile maps(QStringLiteral("/proc/%1/maps").arg(pid0));
                if (maps.open(QIODevice::ReadOnly)) {
                    const QRegularExpressionMatch m = mapped.match(QString::fromLatin1(maps.readAll()));
                    if (m.hasMatch()) {
                        name = m.captured(1);
                        if (!m.captured(2).isEmpty()) break; // already past the window this time
                        ::kill(pid_t(pid1), SIGSTOP);
                    }
                }
                if (name.isEmpty()) QThread::usleep(500);
            }
            QVERIFY2(!name.isEmpty(), "rank 0 never mapped a shared-memory block");
            const QString path = "/dev/shm/" + name;
            const bool inWindow = QFile::exists(path);
            ::kill(pid_t(pid0), SIGTERM);
            QVERIFY(set.process(0)->waitForFinished(20000));
            ::kill(pid_t(pid1), SIGKILL);
            set.process(1)->waitForFinished(20000);
            if (!inWindow) continue;
            ++hits;
            QCOMPARE(set.process(0)->exitStatus(), QProcess::CrashExit);
            QCOMPARE(set.process(0)->exitCode(), int(SIGTERM));
            if (QFile::exists(path)) {
                leftovers << name;
                QFile::remove(path); // not left for the next test run
            }
        }
        qInfo("caught rank 0 between creating and removing the block %d time(s)", hits);
        QVERIFY2(hits > 0, "never caught rank 0 between creating and removing the block");
        QVERIFY2(leftovers.isEmpty(), qPrintable("left in /dev/shm: " + leftovers.join(", ")));
#endif
    }

    void oneRankAskingForGlooMakesAllUseGloo() {
        QTemporaryDir dir;
        WorkerSet set;
        set.start(rankArgs(shortRun(dir), 0, 2));
        set.start(rankArgs(shortRun(dir), 1, 2, {"--grad-transport", "gloo"}));
        auto results = set.waitAll(180000);
        for (const RankResult& r : results) {
            QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
            QCOMPARE(transportOf(r), std::string("gloo"));
        }
        QVERIFY(results[1].stderrText.contains("--grad-transport gloo"));
    }

    void forcedSharedMemoryThatCannotBeMetIsAClearError() {
        QTemporaryDir dir;
        WorkerSet set;
        set.start(rankArgs(shortRun(dir), 0, 2, {"--grad-transport", "shm"}));
        set.start(rankArgs(shortRun(dir, "100000"), 1, 2,
                           {"--grad-transport", "gloo", "--collective-timeout", "20"}));
        auto results = set.waitAll(120000);
        const RankResult& r0 = results[0];
        QVERIFY2(r0.exitCode == 2, qPrintable(r0.describe()));
        QCOMPARE(r0.last("error")->body["code"].get<std::string>(), std::string("BAD_INPUT"));
        QVERIFY(r0.last("error")->body["message"].get<std::string>().find("--grad-transport shm") !=
                std::string::npos);
        // The other rank notices its peer is gone instead of training on alone or hanging.
        QVERIFY2(results[1].finished && results[1].exitCode != 0, qPrintable(results[1].describe()));
    }

    void stalledPeerIsReportedByName() {
#ifdef Q_OS_WIN
        QSKIP("needs SIGSTOP to freeze a rank mid-step");
#else
        QTemporaryDir dir;
        WorkerSet set;
        set.startRanks(2, shortRun(dir, "100000", 0) + QStringList{"--collective-timeout", "3"});
        QByteArray buffer;
        QVERIFY(waitForEvent(set.process(1), "step", 120000, buffer));
        const qint64 frozen = set.process(1)->processId();
        QCOMPARE(QProcess::execute("kill", {"-STOP", QString::number(frozen)}), 0);
        QElapsedTimer timer;
        timer.start();
        QVERIFY(set.process(0)->waitForFinished(60000));
        qint64 waited = timer.elapsed();
        auto results = set.waitAll(1); // rank 1 is still frozen: killed here
        const RankResult& r0 = results[0];
        QVERIFY2(r0.exitCode == 3, qPrintable(r0.describe()));
        QCOMPARE(r0.last("error")->body["code"].get<std::string>(), std::string("COLLECTIVE_TIMEOUT"));
        std::string message = r0.last("error")->body["message"].get<std::string>();
        // Frozen mid-step (nearly always): the shared-memory wait names the rank. Frozen right at an epoch's
        // end, Gloo's epoch-loss allreduce times out instead; that is reported as well, just without the
        // rank.
        if (r0.last("error")->body["waiting_for"].value("what", "") == "the gradient allreduce")
            QVERIFY2(message.find("rank 1 (process " + std::to_string(frozen) +
                                  ", still running) did not hand over gradient bucket") != std::string::npos,
                     message.c_str());
        else
            QVERIFY2(message.find("allreduce did not complete within 3 s") != std::string::npos,
                     message.c_str());
        QVERIFY2(waited < 30000, qPrintable(QString::number(waited)));
#endif
    }

    void vanishedPeerIsReportedAsLost() {
        QTemporaryDir dir;
        WorkerSet set;
        set.startRanks(2, shortRun(dir, "100000") + QStringList{"--collective-timeout", "60"});
        QByteArray buffer;
        QVERIFY(waitForEvent(set.process(1), "step", 120000, buffer));
        QElapsedTimer timer;
        timer.start();
        set.process(1)->kill();
        auto results = set.waitAll(60000);
        const RankResult& r0 = results[0];
        QVERIFY2(r0.exitCode == 5, qPrintable(r0.describe()));
        QCOMPARE(r0.last("error")->body["code"].get<std::string>(), std::string("PEER_LOST"));
        QVERIFY2(timer.elapsed() < 20000,
                 qPrintable(QString::number(timer.elapsed()))); // not the 60 s timeout
    }
};

QTEST_GUILESS_MAIN(TestGradTransport)
#include "test_grad_transport.moc"
