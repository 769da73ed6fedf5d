// A single-node script run joins a store DDP Desk hosts on loopback (as torchrun's agent hosts one), so
// nothing of the run listens beyond loopback: not the launcher, not the script's ranks (whose rank 0 would
// otherwise host Python's TCPStore on every interface). Real ddpdesk-cli, real Python ranks (1.13 here, 2.6
// in the torch2 leg), sockets read from /proc. A restart gets a fresh store; --no-instrument keeps the
// script's own store. An unknown query byte sent to the hosted store is named in the log and metrics.jsonl.
#include "launch_test_util.h"
#include "listening_sockets.h"
#include "net/net_socket.h"
#include "net/tcp_store_wire.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

namespace net = ddpdesk::net;

namespace {

struct Ready {
    qint64 pid = 0;
    QString attempt, agentStore, sum;
};

// The rank's line in FOLDER/ready-RANK, once it is there.
std::optional<Ready> readReady(const QString& folder, int rank) {
    QFile f(QDir(folder).filePath(QStringLiteral("ready-%1").arg(rank)));
    if (!f.open(QIODevice::ReadOnly)) return std::nullopt;
    const QStringList w = QString::fromUtf8(f.readAll()).simplified().split(' ');
    if (w.size() < 4) return std::nullopt;
    return Ready{w[0].toLongLong(), w[1], w[2], w[3]};
}

QStringList beyondLoopback(const QStringList& addresses) {
    QStringList beyond;
    for (const QString& a : addresses)
        if (!listentest::isLoopback(a)) beyond << a;
    return beyond;
}

class RunningCli {
public:
    void start(const QStringList& args) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        m_process.setProcessEnvironment(env);
        m_process.start(launchtest::envPath("DDPDESK_CLI"), args);
    }
    QProcess& process() { return m_process; }
    ~RunningCli() {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }

private:
    QProcess m_process;
};

// Waits until every rank reported from `attempt`; false after `ms`.
bool waitForRanks(const QString& folder, int world, const QString& attempt, int ms, QProcess& cli) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms && cli.state() != QProcess::NotRunning) {
        int ready = 0;
        for (int r = 0; r < world; ++r)
            if (auto got = readReady(folder, r); got && got->attempt == attempt) ++ready;
        if (ready == world) return true;
        QThread::msleep(100);
    }
    return false;
}

} // namespace

class ScriptStoreTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
#ifndef __linux__
        QSKIP("reads listening sockets from /proc (Linux)");
#endif
    }

    void nothingListensBeyondLoopback() {
        QTemporaryDir tmp;
        const QString out = tmp.filePath("run");
        RunningCli cli;
        cli.start({"run", "--script", DDPDESK_STORE_PROBE, "--python", launchtest::envPath("DDPDESK_PYTHON"),
                   "--nproc", "2", "--out", out, "--", tmp.path()});
        QVERIFY2(waitForRanks(tmp.path(), 2, "0", 120000, cli.process()),
                 qPrintable(cli.process().readAllStandardOutput() + cli.process().readAllStandardError()));
        // The launcher hosts the store on loopback...
        const QStringList launcher = listentest::listeningAddresses(cli.process().processId());
        QVERIFY2(!launcher.isEmpty(), "the launcher listens nowhere: the check would prove nothing");
        QVERIFY2(beyondLoopback(launcher).isEmpty(), qPrintable("launcher: " + launcher.join(", ")));
        // ...and the ranks, told so through torchrun's variable, host nothing beyond it (Gloo stays on lo).
        for (int r = 0; r < 2; ++r) {
            const Ready ready = *readReady(tmp.path(), r);
            QCOMPARE(ready.agentStore, QStringLiteral("True"));
            QCOMPARE(ready.sum, QStringLiteral("2"));
            const QStringList sockets = listentest::localAddresses(ready.pid, false);
            QVERIFY2(!sockets.isEmpty(), "the rank has no TCP socket: the check would prove nothing");
            QVERIFY2(beyondLoopback(sockets).isEmpty(),
                     qPrintable(QStringLiteral("rank %1: ").arg(r) + sockets.join(", ")));
        }
        // A query byte the store does not know (as a newer PyTorch might send) is named, with the client's
        // dialect, on the launcher's log and in metrics.jsonl; the run goes on.
        const int port = launcher.first().section(':', -1).toInt();
        auto probe = net::connectTcp("127.0.0.1", port, std::chrono::milliseconds(5000));
        QVERIFY2(probe.connection, probe.error.c_str());
        std::string unknown(1, char(*net::wire::code(2, net::wire::Query::Validate)));
        net::wire::putLe(unknown, net::wire::kValidationMagic, 4);
        unknown.push_back(char(0x30));
        QVERIFY(probe.connection->sendAll(unknown.data(), unknown.size(),
                                          net::Clock::now() + std::chrono::seconds(5)));
        unsigned char b;
        QVERIFY(!probe.connection->recvExact(&b, 1, net::Clock::now() + std::chrono::seconds(5)));
        QVERIFY(probe.connection->peerClosed());
        QFile(tmp.filePath("go")).open(QIODevice::WriteOnly);
        QVERIFY(cli.process().waitForFinished(60000));
        const QString said =
            QString::fromUtf8(cli.process().readAllStandardOutput() + cli.process().readAllStandardError());
        QVERIFY2(cli.process().exitCode() == 0, qPrintable(said));
        QVERIFY2(said.contains("hosted by DDP Desk on 127.0.0.1:"), qPrintable(said));
        QVERIFY2(said.contains(
                     "store server [STORE_UNKNOWN_QUERY]: a PyTorch 2.x (v2 wire dialect) store client sent "
                     "query byte 0x30"),
                 qPrintable(said));
        QFile metrics(QDir(out).filePath("metrics.jsonl"));
        QVERIFY(metrics.open(QIODevice::ReadOnly));
        const QByteArray events = metrics.readAll();
        QVERIFY2(events.contains("\"event\":\"store_notice\"") && events.contains("STORE_UNKNOWN_QUERY"),
                 "no store_notice event in metrics.jsonl");
        // The probe script takes no optimizer step: throughput cannot be measured, and says so.
        QVERIFY2(said.contains("samples/s (global): n/a (no training step was reported)"), qPrintable(said));
        QVERIFY2(
            said.contains("Diagnosis [NO_TRAINING_STEPS]: The run ended without reporting one training step"),
            qPrintable(said));
        QFile summary(QDir(out).filePath("summary.json"));
        QVERIFY(summary.open(QIODevice::ReadOnly));
        QVERIFY2(QJsonDocument::fromJson(summary.readAll()).object().value("samples_per_s").isNull(),
                 "summary.json gives a throughput nobody measured");
    }

    void aRestartMeetsAFreshStore() {
        QTemporaryDir tmp;
        const QString out = tmp.filePath("run");
        RunningCli cli;
        cli.start({"run", "--script", DDPDESK_STORE_PROBE, "--python", launchtest::envPath("DDPDESK_PYTHON"),
                   "--nproc", "2", "--max-restarts", "1", "--out", out, "--", tmp.path(),
                   "--fail-first-attempt"});
        QVERIFY2(waitForRanks(tmp.path(), 2, "1", 180000, cli.process()),
                 qPrintable(cli.process().readAllStandardOutput() + cli.process().readAllStandardError()));
        QFile(tmp.filePath("go")).open(QIODevice::WriteOnly);
        QVERIFY(cli.process().waitForFinished(60000));
        const QString said =
            QString::fromUtf8(cli.process().readAllStandardOutput() + cli.process().readAllStandardError());
        QVERIFY2(cli.process().exitCode() == 0, qPrintable(said));
        QCOMPARE(readReady(tmp.path(), 1)->sum, QStringLiteral("2"));
    }

    void noInstrumentKeepsTheScriptsOwnStore() {
        QTemporaryDir tmp;
        RunningCli cli;
        cli.start({"run", "--script", DDPDESK_STORE_PROBE, "--python", launchtest::envPath("DDPDESK_PYTHON"),
                   "--nproc", "2", "--no-instrument", "--out", tmp.filePath("run"), "--", tmp.path()});
        QVERIFY2(waitForRanks(tmp.path(), 2, "0", 120000, cli.process()),
                 qPrintable(cli.process().readAllStandardOutput() + cli.process().readAllStandardError()));
        QCOMPARE(readReady(tmp.path(), 0)->agentStore, QStringLiteral("-"));
        QVERIFY(listentest::listeningAddresses(cli.process().processId()).isEmpty());
        QFile(tmp.filePath("go")).open(QIODevice::WriteOnly);
        QVERIFY(cli.process().waitForFinished(60000));
        QCOMPARE(cli.process().exitCode(), 0);
    }
};

QTEST_GUILESS_MAIN(ScriptStoreTest)
#include "test_script_store.moc"
