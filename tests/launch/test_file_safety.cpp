// DDP Desk never deletes, empties, replaces or writes through what it did not create. Real folders, files and
// symbolic links are put where a run keeps its FileStore, its checkpoints and its records; the launcher must
// refuse them by path before anything starts and leave every byte in place (ddpdesk-cli with exit 2), the
// worker must refuse a linked checkpoint.pt itself, and runs (also restarted ones) must remove only the store
// file they created - not a file that took its place. What the launcher refuses or creates around its ranks
// is checked in this process over fake ranks (fake_ranks.h); the CLI, the worker and one real run end to end.
#include "fake_ranks.h"
#include "launch/record/metrics_log.h"
#include "launch/run/supervisor.h"
#include "launch/run/sweep.h"
#include "launch_test_util.h"

#include <QDirIterator>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#ifndef Q_OS_WIN
#include <unistd.h>
#endif

using namespace ddpdesk::launch;
using launchtest::FakeRanks;
using launchtest::fakeRanks;
using launchtest::LauncherLog;

namespace {

const QStringList kSmall = {
    "--workload",      "autoencoder", "--nproc",   "2",  "--threads",      "1", "--batch-size", "16",
    "--limit-samples", "256",         "--timeout", "60", "--telemetry-ms", "0"};

bool writeFile(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QByteArray readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

// Every file under dir (relative path -> bytes), to prove nothing changed.
QMap<QString, QByteArray> snapshot(const QString& dir) {
    QMap<QString, QByteArray> files;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        files[QDir(dir).relativeFilePath(path)] = readFile(path);
    }
    return files;
}

// What `ddpdesk-cli run --steps 2 --out OUT` + kSmall asks for.
RunConfig smallRun(const QString& out) {
    RunConfig c = launchtest::smallRun(out, 2);
    c.training.telemetryMs = 0;
    c.timeoutSec = 60;
    return c;
}

// Ranks that never end by themselves: they end when the run stops them.
const FakeRanks::Script kRanksThatRunOn = [](FakeRanks&, int) {};

// The real worker for ddpdesk-cli (this process points DDPDESK_WORKER at the fake one for the Supervisor
// tests).
QMap<QString, QString> realWorkerEnv() {
    return {{"DDPDESK_WORKER", launchtest::envPath("DDPDESK_WORKER_BIN")}};
}

} // namespace

class FileSafetyTest : public QObject {
    Q_OBJECT

    // A run into `c.outDir` must be refused before anything starts: the flag and `path` named in the lines
    // ddpdesk-cli prints (RunConfig::problemsText), no rank started, no record written.
    void expectRefused(const RunConfig& c, const QString& flag, const QString& path) {
        LauncherLog log;
        Supervisor s(fakeRanks(log, kRanksThatRunOn));
        QVector<ConfigProblem> problems;
        QVERIFY2(!s.start(c, &problems), "the run started");
        const QString text = RunConfig::problemsText(problems);
        QVERIFY2(text.contains("--" + flag + ": "), qPrintable(text));
        QVERIFY2(text.contains(path), qPrintable(text));
        QVERIFY(log.attempts.isEmpty());
        QVERIFY(!QFile::exists(c.outDir + "/metrics.jsonl"));
    }
    void expectRefused(const QString& out, const QString& flag, const QString& path) {
        expectRefused(smallRun(out), flag, path);
    }

private slots:
    void initTestCase() {
        QVERIFY2(QFileInfo(launchtest::envPath("DDPDESK_CLI")).isExecutable(),
                 "DDPDESK_CLI must name ddpdesk-cli");
        QVERIFY2(QFileInfo(launchtest::envPath("DDPDESK_WORKER_BIN")).isExecutable(), "DDPDESK_WORKER_BIN");
        // The Supervisor checks that a worker exists before it starts; over fake ranks none is started.
        qputenv("DDPDESK_WORKER", QCoreApplication::applicationFilePath().toLocal8Bit());
    }

    void userStoreFolderIsKept() {
        QTemporaryDir dir;
        const QString out = dir.filePath("proj");
        QVERIFY(writeFile(out + "/store/notes.txt", "my notes"));
        QVERIFY(writeFile(out + "/store/deep/data.bin", QByteArray(4096, '\x5a')));
        const auto before = snapshot(out);
        expectRefused(out, "store", out + "/store");
        QCOMPARE(snapshot(out), before);
    }

    void storeLinkIsNotFollowed() {
        QTemporaryDir dir;
        const QString out = dir.filePath("proj"), elsewhere = dir.filePath("elsewhere");
        QVERIFY(writeFile(elsewhere + "/precious.txt", "precious"));
        QVERIFY(writeFile(elsewhere + "/filestore", "not a store, but named like one"));
        QVERIFY(QDir().mkpath(out));
        QVERIFY(QFile::link(elsewhere, out + "/store"));
        const auto before = snapshot(elsewhere);
        expectRefused(out, "store", out + "/store");
        QCOMPARE(snapshot(elsewhere), before);
        QVERIFY(QFileInfo(out + "/store").isSymLink());

        // An empty target folder is refused too: the run would create and delete its store file in there.
        QTemporaryDir empty;
        QVERIFY(QFile::remove(out + "/store"));
        QVERIFY(QFile::link(empty.path(), out + "/store"));
        expectRefused(out, "store", out + "/store");
        QVERIFY(QDir(empty.path()).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden));
    }

    void leftoverStoreFileIsKept() {
        QTemporaryDir dir;
        const QString out = dir.filePath("run");
        QVERIFY(writeFile(out + "/store/filestore", "left by a run that was killed"));
        expectRefused(out, "store", out + "/store/filestore");
        QCOMPARE(readFile(out + "/store/filestore"), QByteArray("left by a run that was killed"));
        // A given store path that is a dangling link is refused, and the link's target is not created.
        const QString link = dir.filePath("mystore");
        QVERIFY(QFile::link(dir.filePath("nowhere/target"), link));
        RunConfig c = smallRun(dir.filePath("run2"));
        c.store = "file:" + link;
        expectRefused(c, "store", link);
        QVERIFY(QFileInfo(link).isSymLink());
        QVERIFY(!QFileInfo::exists(dir.filePath("nowhere")));
    }

    void checkpointAndModelLinksAreRefused() {
        QTemporaryDir dir;
        const QString out = dir.filePath("run"), target = dir.filePath("weights.bin");
        QVERIFY(writeFile(target, "someone's weights"));
        QVERIFY(QDir().mkpath(out));
        QVERIFY(QFile::link(target, out + "/checkpoint.pt"));
        expectRefused(out, "out", out + "/checkpoint.pt");
        QVERIFY(QFile::remove(out + "/checkpoint.pt"));
        QVERIFY(QDir().mkpath(out + "/model.pt/inside"));
        expectRefused(out, "out", out + "/model.pt");
        QVERIFY(QFileInfo(out + "/model.pt/inside").isDir());
        QCOMPARE(readFile(target), QByteArray("someone's weights"));
    }

    // A sweep only adds its own folders and files: a link at sweep.csv or at a size's folder name is refused.
    void sweepLinksAreRefused() {
        QTemporaryDir dir;
        const QString out = dir.filePath("sweep"), other = dir.filePath("other");
        QVERIFY(writeFile(other + "/data.csv", "mine"));
        QVERIFY(QDir().mkpath(out));
        QVERIFY(QFile::link(other + "/data.csv", out + "/sweep.csv"));
        QVERIFY(QFile::link(other, out + "/n2"));
        QString error;
        const QVector<SweepSize> sizes = parseNprocList(QStringLiteral("1,2"), &error);
        QVERIFY2(!sizes.isEmpty(), qPrintable(error));
        SweepRunner sweep;
        QVector<ConfigProblem> problems;
        QVERIFY2(!sweep.start(smallRun(out), sizes, &problems), "the sweep started");
        const QString text = RunConfig::problemsText(problems);
        QVERIFY2(text.contains("--out: '" + out + "/sweep.csv' is a link"), qPrintable(text));
        QVERIFY2(text.contains("--out: '" + out + "/n2' is a link"), qPrintable(text));
        QCOMPARE(snapshot(other), (QMap<QString, QByteArray>{{"data.csv", "mine"}}));
    }

    // The worker refuses on its own (run by torchrun, mpirun or a scheduler, there is no launcher to ask).
    void workerRefusesALinkedCheckpoint() {
        QTemporaryDir dir;
        const QString out = dir.filePath("run"), target = dir.filePath("weights.bin");
        QVERIFY(writeFile(target, "someone's weights"));
        QVERIFY(QDir().mkpath(out));
        QVERIFY(QFile::link(target, out + "/checkpoint.pt"));
        QProcess worker;
        worker.start(launchtest::envPath("DDPDESK_WORKER_BIN"),
                     {"--workload", "autoencoder", "--steps", "2", "--threads", "1", "--limit-samples", "64",
                      "--out", out});
        QVERIFY(worker.waitForFinished(60000));
        const QString err = QString::fromUtf8(worker.readAllStandardError() + worker.readAllStandardOutput());
        QVERIFY2(worker.exitCode() == 2, qPrintable(err));
        QVERIFY2(err.contains(out + "/checkpoint.pt") && err.contains("symbolic link"), qPrintable(err));
        QCOMPARE(readFile(target), QByteArray("someone's weights"));
        QVERIFY(QFileInfo(out + "/checkpoint.pt").isSymLink());

        // Without the link the same run writes checkpoint.pt and model.pt as plain files, no temporaries
        // left.
        QVERIFY(QFile::remove(out + "/checkpoint.pt"));
        worker.start(launchtest::envPath("DDPDESK_WORKER_BIN"),
                     {"--workload", "autoencoder", "--steps", "2", "--threads", "1", "--limit-samples", "64",
                      "--out", out});
        QVERIFY(worker.waitForFinished(60000));
        QVERIFY2(worker.exitCode() == 0, worker.readAllStandardError().constData());
        QVERIFY(QFileInfo(out + "/checkpoint.pt").isFile() && !QFileInfo(out + "/checkpoint.pt").isSymLink());
        QVERIFY(QFileInfo(out + "/model.pt").isFile());
        QCOMPARE(QDir(out).entryList({"*.tmp-*"}, QDir::AllEntries | QDir::Hidden), QStringList());
        QCOMPARE(readFile(target), QByteArray("someone's weights"));
    }

    // A real 2-worker run leaves no store file, and the next run into the same folder is accepted.
    void normalRunsLeaveNoStoreFile() {
        QTemporaryDir dir;
        const QString out = dir.filePath("run");
        for (int i = 0; i < 2; ++i) {
            const auto r = launchtest::runCli(
                QStringList{"run", "--steps", "4", "--out", out, "--json"} + kSmall, 120000, realWorkerEnv());
            QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.err));
            // The store folder this run made goes with its file.
            QVERIFY(!QFileInfo::exists(out + "/store"));
        }
    }

    // An --out folder holding the user's own files of the names a run writes: refused by name before
    // anything starts, every byte kept. The run's own earlier output (normalRunsLeaveNoStoreFile) is not.
    void usersOwnOutputNamesAreRefused() {
        QTemporaryDir dir;
        const QString out = dir.filePath("results");
        const QStringList names{"model.pt", "checkpoint.pt", "summary.json", "metrics.jsonl"};
        for (const QString& name : names)
            QVERIFY(writeFile(out + "/" + name, "the user's " + name.toUtf8()));
        const auto before = snapshot(out);
        const auto r = launchtest::runCli(QStringList{"run", "--steps", "2", "--out", out} + kSmall, 60000,
                                          realWorkerEnv());
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 2, qPrintable(QString::number(r.exitCode) + "\n" + r.err));
        for (const QString& name : names)
            QVERIFY2(r.err.contains("--out: '" + out + "/" + name +
                                    "' is already there and DDP Desk did not write it"),
                     qPrintable(r.err));
        QCOMPARE(snapshot(out), before);
    }

    // Checking a run makes nothing; a refused run leaves no folder behind.
    void refusedRunMakesNoFolder() {
        QTemporaryDir dir;
        RunConfig c;
        c.outDir = dir.filePath("runs/run-1");
        QVERIFY2(c.validate().isEmpty(), qPrintable(RunConfig::problemsText(c.validate())));
        QVERIFY(!QFileInfo::exists(dir.filePath("runs")));
        RunConfig refused = smallRun(dir.filePath("runs/run-2"));
        refused.training.globalBatch = 3; // not a multiple of the 2 ranks
        expectRefused(refused, "global-batch", "3");
        QVERIFY(!QFileInfo::exists(dir.filePath("runs")));
    }

    // --max-restarts: each attempt gets a fresh store file, and none is left when the run ends.
    void restartedRunLeavesNoStoreFile() {
        QTemporaryDir dir;
        RunConfig c = smallRun(dir.filePath("run"));
        c.maxRestarts = 2;
        const QString store = c.outDir + "/store/filestore";
        // Each attempt finds a store file of its own (what the last attempt's ranks wrote is gone), writes
        // into it as ranks do, and rank 1 fails.
        QVector<QByteArray> seen;
        LauncherLog log;
        Supervisor s(fakeRanks(log, [&](FakeRanks& ranks, int attempt) {
            seen << (QFileInfo(store).isFile() ? readFile(store) : QByteArray("<no store file>"));
            QFile f(store);
            if (f.open(QIODevice::Append)) f.write("keys of attempt " + QByteArray::number(attempt));
            ranks.exit(1, 3);
        }));
        QSignalSpy finished(&s, &Supervisor::finished);
        QSignalSpy attempts(&s, &Supervisor::attemptStarted);
        QVector<ConfigProblem> problems;
        QVERIFY2(s.start(c, &problems), qPrintable(RunConfig::problemsText(problems)));
        QVERIFY(QFileInfo(store).isFile()); // created by the launcher, before any rank
        QVERIFY(finished.wait(30000));
        QCOMPARE(attempts.count(), 3);
        QCOMPARE(log.attempts, QVector<int>({0, 1, 2}));
        QCOMPARE(s.model()->summary().restarts, 2);
        QCOMPARE(seen, QVector<QByteArray>(3, QByteArray()));
        QVERIFY(!QFileInfo::exists(store));
    }

    // An --out folder DDP Desk would reuse must be the user's own: one every user may write into (or, as
    // root, one another user owns) is refused by name before anything is written or run from it. Another
    // local user could otherwise swap the instrumentation module the ranks run, after DDP Desk wrote it.
    void aRunFolderOthersCanChangeIsNotReused() {
        QTemporaryDir dir;
        RunConfig c = smallRun(dir.filePath("shared-run"));
        LauncherLog log;
        QVERIFY(QDir().mkpath(c.outDir));
        QVERIFY(QFile::setPermissions(c.outDir, QFileDevice::Permissions(0x7777))); // rwx for everyone
        {
            Supervisor s(fakeRanks(log, kRanksThatRunOn));
            QVector<ConfigProblem> problems;
            QVERIFY2(!s.start(c, &problems), "a folder every user may write into was reused");
            const QString text = RunConfig::problemsText(problems);
            QVERIFY2(text.contains(c.outDir) && text.contains("every user may write into it"),
                     qPrintable(text));
            QVERIFY(!QFileInfo::exists(c.outDir + "/.ddpdesk-python"));
            QVERIFY(!QFileInfo::exists(c.outDir + "/metrics.jsonl"));
        }
#ifndef Q_OS_WIN
        if (::geteuid() == 0) { // another uid needs root to make
            QVERIFY(QFile::setPermissions(c.outDir, QFileDevice::Permissions(0x7755)));
            QCOMPARE(::chown(QFile::encodeName(c.outDir).constData(), 65534, 65534), 0);
            Supervisor s(fakeRanks(log, kRanksThatRunOn));
            QVector<ConfigProblem> problems;
            QVERIFY(!s.start(c, &problems));
            const QString text = RunConfig::problemsText(problems);
            QVERIFY2(text.contains("another user (uid 65534) owns it"), qPrintable(text));
        }
#endif
        QVERIFY(log.attempts.isEmpty());
    }

    // summary.json and metrics.jsonl are written into files the launcher creates itself: a link planted at
    // either name while the run goes is replaced (or refused), never written through into another folder.
    void aLinkPlantedInTheRunFolderIsNotWrittenThrough() {
        QTemporaryDir dir;
        const QString target = dir.filePath("elsewhere/precious.json");
        QVERIFY(writeFile(target, "the user's own"));
        RunConfig c = smallRun(dir.filePath("run"));
        c.stallTimeoutSec = 0;
        LauncherLog launched;
        Supervisor s(fakeRanks(launched, kRanksThatRunOn));
        QSignalSpy finished(&s, &Supervisor::finished);
        QVERIFY(s.start(c));
        QVERIFY(QFile::link(target, c.outDir + "/summary.json"));
        s.stop();
        QVERIFY(finished.wait(20000));
        QCOMPARE(readFile(target), QByteArray("the user's own"));
        QVERIFY(!QFileInfo(c.outDir + "/summary.json").isSymLink());
        QCOMPARE(launchtest::readJsonFile(c.outDir + "/summary.json")["status"].toString(),
                 QStringLiteral("stopped"));
        QVERIFY(QDir(dir.filePath("elsewhere")).entryList(QDir::Files | QDir::Hidden) ==
                QStringList{"precious.json"});

        // The log: appended to only while it is a file of its own; a fresh one replaces the link itself.
        const QString log = c.outDir + "/metrics.jsonl";
        QVERIFY(QFile::remove(log));
        QVERIFY(QFile::link(target, log));
        MetricsLog m;
        QString why;
        QVERIFY(!m.open(log, true, &why));
        QVERIFY2(why.contains("symbolic link"), qPrintable(why));
        QVERIFY2(m.open(log, false, &why), qPrintable(why));
        m.write(nlohmann::json{{"event", "launch"}, {"rank", -1}});
        m.close();
        QVERIFY(!QFileInfo(log).isSymLink());
        QVERIFY(readFile(log).contains("launch"));
        QCOMPARE(readFile(target), QByteArray("the user's own"));
    }

    // The end of a run removes its store file only while it is still that file: one put in its place
    // survives.
    void aReplacedStoreFileIsNotRemoved() {
        QTemporaryDir dir;
        RunConfig c = smallRun(dir.filePath("run"));
        c.stallTimeoutSec = 0;
        const QString store = c.outDir + "/store/filestore";
        LauncherLog log;
        Supervisor s(fakeRanks(log, kRanksThatRunOn));
        QSignalSpy finished(&s, &Supervisor::finished);
        QVERIFY(s.start(c));
        QVERIFY(QFile::remove(store));
        QVERIFY(writeFile(store, "another job's store"));
        s.stop();
        QVERIFY(finished.wait(20000));
        QCOMPARE(readFile(store), QByteArray("another job's store"));
    }
};

QTEST_GUILESS_MAIN(FileSafetyTest)
#include "test_file_safety.moc"
