// A user's own script, torchrun's way: `cd project && ddpdesk-cli run --script train.py --out runs/a` finds
// the script in the folder the CLI was started in, runs the ranks there (a sibling import works, a relative
// snapshot lands there, not in --out), gives them torchrun's whole environment, and --use-local-rank-arg
// passes
// --local-rank=N. --workdir moves the ranks elsewhere; a missing one is refused.
#include "launch_test_util.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

namespace {

// Copies tests/launch/tutorial_project into `to`: the user's project folder.
bool copyProject(const QString& to) {
    const QDir from(QStringLiteral(DDPDESK_TUTORIAL_PROJECT));
    if (!QDir().mkpath(to)) return false;
    for (const QString& name : from.entryList({"*.py"}, QDir::Files))
        if (!QFile::copy(from.filePath(name), QDir(to).filePath(name))) return false;
    return true;
}

launchtest::CliResult runIn(const QString& cwd, const QStringList& args) {
    QProcess p;
    p.setWorkingDirectory(cwd);
    p.start(launchtest::envPath("DDPDESK_CLI"), args);
    launchtest::CliResult r;
    if (!p.waitForStarted(10000)) return r;
    r.finished = p.waitForFinished(200000);
    if (!r.finished) {
        p.kill();
        p.waitForFinished(5000);
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace

class ScriptWorkdirTest : public QObject {
    Q_OBJECT

private slots:
    void relativeScriptRunsInTheStartingFolder() {
        QTemporaryDir tmp;
        const QString project = tmp.filePath("myproject");
        QVERIFY(copyProject(project));
        const auto r =
            runIn(project, {"run", "--script", "train.py", "--python", launchtest::envPath("DDPDESK_PYTHON"),
                            "--nproc", "2", "--out", "runs/a", "--use-local-rank-arg"});
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY2(QFileInfo::exists(project + "/snapshot.pt"),
                 "the snapshot is not in the folder the run started in");
        QVERIFY(!QFileInfo::exists(project + "/runs/a/snapshot.pt"));
        QVERIFY(QFileInfo::exists(project + "/runs/a/summary.json")); // --out relative to the same folder
        QFile ran(project + "/ran_in.txt");
        QVERIFY(ran.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(ran.readAll()).split('\n');
        QCOMPARE(QFileInfo(lines.value(0)).canonicalFilePath(), QFileInfo(project).canonicalFilePath());
        for (const char* kv :
             {"WORLD_SIZE=2", "LOCAL_WORLD_SIZE=2", "GROUP_WORLD_SIZE=1", "ROLE_NAME=default",
              "ROLE_WORLD_SIZE=2", "TORCHELASTIC_RESTART_COUNT=0", "MASTER_ADDR=127.0.0.1"})
            QVERIFY2(lines.value(1).split(' ').contains(QString::fromLatin1(kv)), qPrintable(lines.value(1)));
        QCOMPARE(lines.value(2), QStringLiteral("local_rank_arg=0"));
        const QJsonObject s = launchtest::readJsonFile(project + "/runs/a/summary.json");
        QCOMPARE(s["status"].toString(), QStringLiteral("ok"));
    }

    void workdirFlagMovesTheRanks() {
        QTemporaryDir tmp;
        const QString project = tmp.filePath("myproject"), elsewhere = tmp.filePath("scratch");
        QVERIFY(copyProject(project));
        QVERIFY(QDir().mkpath(elsewhere));
        const auto r = runIn(tmp.path(), {"run", "--script", "myproject/train.py", "--python",
                                          launchtest::envPath("DDPDESK_PYTHON"), "--nproc", "2", "--out",
                                          tmp.filePath("out"), "--workdir", "scratch"});
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY(QFileInfo::exists(elsewhere + "/snapshot.pt"));
        QVERIFY(!QFileInfo::exists(project + "/snapshot.pt"));
    }

    void missingWorkdirIsRefused() {
        QTemporaryDir tmp;
        const QString project = tmp.filePath("myproject");
        QVERIFY(copyProject(project));
        const auto r =
            runIn(project, {"run", "--script", "train.py", "--python", launchtest::envPath("DDPDESK_PYTHON"),
                            "--out", tmp.filePath("out"), "--workdir", tmp.filePath("nowhere")});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2((r.err + r.out).contains("working folder"), qPrintable(r.err + r.out));
        QVERIFY(!QFileInfo::exists(project + "/snapshot.pt"));
    }
};

QTEST_GUILESS_MAIN(ScriptWorkdirTest)
#include "test_script_workdir.moc"
