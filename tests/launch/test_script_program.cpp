// Script ranks stay the user's program: DDP Desk's instrumentation module runs a script as `python SCRIPT
// ARGS` would, whatever the script does or is called. Each case is a short real run through ddpdesk-cli (one
// rank, a few seconds):
//  * a script with a SIGUSR1 handler of its own: neither the stall watch nor `ddpdesk-cli stacks` ever calls
//    it (its handler here ends the rank), and both still get the script's stacks;
//  * a ddpdesk_instrument.py of the user's in the folder the rank starts in: the script runs, not that file;
//  * a script started through a symlink: its real folder is sys.path[0] (a sibling import works), as plain
//    Python has it.
// The last two compare what the script sees (sys.argv, sys.path, __main__) with a plain `python SCRIPT` run
// in the same folder.
#include "launch_test_util.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

namespace {

bool writeFile(const QString& path, const QByteArray& text) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
}

// Writes what the script sees, as JSON, to the file named by its first argument; then imports its sibling
// helper.py when there is one next to its real file.
const QByteArray kIdentityScript = R"PY(import json, os, sys
import __main__
record = {
    "argv": sys.argv, "path": sys.path, "cwd": os.getcwd(), "name": __name__, "file": __file__,
    "main_is_this": __main__.__dict__ is globals(), "package": repr(__package__), "spec": repr(__spec__),
    "loader": [type(__loader__).__name__, getattr(__loader__, "name", None), getattr(__loader__, "path", None)],
    "globals": sorted(globals()),
}
if os.path.exists(os.path.join(os.path.dirname(os.path.realpath(__file__)), "helper.py")):
    import helper
    record["helper"] = helper.WHO
with open(sys.argv[1], "w") as f:
    json.dump(record, f, sort_keys=True)
)PY";

launchtest::CliResult runScript(const QString& cwd, const QString& script, const QString& out,
                                const QStringList& scriptArgs) {
    const auto r = launchtest::runCli(QStringList{"run", "--script", script, "--python",
                                                  launchtest::envPath("DDPDESK_PYTHON"), "--nproc", "1",
                                                  "--out", out, "--"} +
                                          scriptArgs,
                                      120000, {}, launchtest::envPath("DDPDESK_CLI"), cwd);
    if (!r.finished || r.exitCode != 0)
        for (const QString& line : launchtest::rankOutput(QDir(cwd).filePath(out) + "/metrics.jsonl"))
            qWarning().noquote() << line;
    return r;
}

// `python SCRIPT ARGS` in `cwd`, no DDP Desk.
bool runPlain(const QString& cwd, const QStringList& args, QString* err) {
    QProcess p;
    p.setWorkingDirectory(cwd);
    p.start(launchtest::envPath("DDPDESK_PYTHON"), args);
    const bool ok = p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    *err = QString::fromUtf8(p.readAllStandardError());
    return ok;
}

QString compact(const QJsonObject& o) {
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

// The "stacks" events in RUN/metrics.jsonl.
QString stacksEvents(const QString& runDir) {
    QString text;
    for (const QJsonObject& e : launchtest::readJsonLines(QDir(runDir).filePath("metrics.jsonl")))
        if (e["event"].toString() == QLatin1String("stacks")) text += e["text"].toString();
    return text;
}

} // namespace

class ScriptProgramTest : public QObject {
    Q_OBJECT

private slots:
    // Through the signal module, and through the C module _signal that signal.signal calls (a script
    // importing it directly once went unseen, and the stall watch called its handler).
    void theScriptsSigusr1HandlerIsNeverCalled_data() {
        QTest::addColumn<QString>("takes");
        QTest::newRow("signal.signal") << QStringLiteral("signal.signal(signal.SIGUSR1, users_own)");
        QTest::newRow("_signal.signal")
            << QStringLiteral("import _signal\n_signal.signal(signal.SIGUSR1, users_own)");
    }

    void theScriptsSigusr1HandlerIsNeverCalled() {
#ifdef Q_OS_WIN
        QSKIP("no SIGUSR1 on Windows");
#endif
        QFETCH(QString, takes);
        QTemporaryDir tmp;
        const QString script = tmp.filePath("own_handler.py"), out = tmp.filePath("run");
        // A few steps, then the script takes SIGUSR1 (a handler that ends the rank, as many do) and waits.
        QVERIFY(writeFile(script, QByteArray(R"PY(import os, signal, sys, time
import torch
folder = sys.argv[1]

def users_own(signum, frame):
    open(os.path.join(folder, "handler-called"), "w").close()
    os._exit(3)

def waiting_for_go():
    while not os.path.exists(os.path.join(folder, "go")):
        time.sleep(0.05)

model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    opt.zero_grad()
    model(torch.ones(4, 2)).sum().backward()
    opt.step()
TAKES
open(os.path.join(folder, "installed"), "w").close()
waiting_for_go()
)PY")
                                      .replace("TAKES", takes.toUtf8())));
        QProcess cli;
        cli.start(launchtest::envPath("DDPDESK_CLI"),
                  {"run", "--script", script, "--python", launchtest::envPath("DDPDESK_PYTHON"), "--nproc",
                   "1", "--stall-timeout", "2", "--out", out, "--", tmp.path()});
        struct Go {
            QTemporaryDir& tmp;
            QProcess& cli;
            ~Go() {
                writeFile(tmp.filePath("go"), {});
                if (!cli.waitForFinished(30000)) cli.kill();
                cli.waitForFinished(5000);
            }
        } go{tmp, cli};
        QVERIFY(cli.waitForStarted());

        // The stall watch asks once the handler is in place (no step for 2 s).
        QElapsedTimer t;
        t.start();
        while (
            t.elapsed() < 60000 && cli.state() == QProcess::Running &&
            !(QFileInfo::exists(tmp.filePath("installed")) && stacksEvents(out).contains("waiting_for_go")))
            QThread::msleep(200);
        QVERIFY2(!QFileInfo::exists(tmp.filePath("handler-called")),
                 "the stall watch called the script's handler");
        QVERIFY2(stacksEvents(out).contains("waiting_for_go"),
                 qPrintable(stacksEvents(out) + cli.readAllStandardError()));

        // Show stacks, on demand.
        const auto r = launchtest::runCli({"stacks", out}, 30000);
        QVERIFY2(!QFileInfo::exists(tmp.filePath("handler-called")), "ddpdesk-cli stacks called the handler");
        QVERIFY2(r.exitCode == 0 && r.out.contains("waiting_for_go"), qPrintable(r.out + r.err));

        // The run itself was never disturbed.
        writeFile(tmp.filePath("go"), {});
        QVERIFY(cli.waitForFinished(60000));
        QVERIFY2(cli.exitStatus() == QProcess::NormalExit && cli.exitCode() == 0,
                 qPrintable(cli.readAllStandardError()));
        QCOMPARE(launchtest::readJsonFile(out + "/summary.json")["status"].toString(), QStringLiteral("ok"));
    }

    // A script's stdout is the script's: lines shaped like the instrumentation's events with fields of the
    // wrong type (a number for "source", a string for "step") are its own text or refused field by field;
    // the launcher reads them through the typed accessor and the run ends as it would without them (one such
    // line once ended the launcher on nlohmann's type_error).
    void eventsOfTheWrongTypesFromAScriptDoNotEndTheRun() {
        QTemporaryDir tmp;
        const QString script = tmp.filePath("typed.py"), out = tmp.filePath("run");
        QVERIFY(writeFile(script, R"PY(import torch
print('{"v":1,"event":"x","source":7}', flush=True)
print('{"v":1,"event":"step","source":"instrument","rank":"zero","step":"one","samples":"many"}', flush=True)
print('{"v":1,"event":"log","source":"instrument","rank":0,"text":5,"stream":{}}', flush=True)
model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    opt.zero_grad()
    model(torch.ones(4, 2)).sum().backward()
    opt.step()
)PY"));
        const auto r =
            launchtest::runCli({"run", "--script", script, "--python", launchtest::envPath("DDPDESK_PYTHON"),
                                "--nproc", "1", "--out", out},
                               120000);
        QVERIFY2(r.finished && r.exitCode == 0, qPrintable(QString::number(r.exitCode) + "\n" + r.err));
        const QJsonObject summary = launchtest::readJsonFile(out + "/summary.json");
        QCOMPARE(summary["status"].toString(), QStringLiteral("ok"));
        QCOMPARE(summary["steps"].toInt(), 3);
    }

    void aDdpdeskInstrumentOfTheUsersCannotStandIn() {
        QTemporaryDir tmp;
        const QString project = tmp.filePath("project");
        QVERIFY(QDir().mkpath(project));
        QVERIFY(writeFile(project + "/who.py", kIdentityScript));
        QVERIFY(writeFile(project + "/ddpdesk_instrument.py",
                          "open('shadow-ran', 'w').close()\nprint('the user\\'s own ddpdesk_instrument')\n"));
        const auto r = runScript(project, "who.py", "runs/a", {"seen.json"});
        QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY2(!QFileInfo::exists(project + "/shadow-ran"), "the user's ddpdesk_instrument.py ran instead");
        const QJsonObject seen = launchtest::readJsonFile(project + "/seen.json");
        QVERIFY2(!seen.isEmpty(), "the script never ran");
        QString err;
        QVERIFY2(runPlain(project, {seen["argv"].toArray().at(0).toString(), "plain.json"}, &err),
                 qPrintable(err));
        QJsonObject plain = launchtest::readJsonFile(project + "/plain.json");
        QJsonArray argv = plain["argv"].toArray();
        argv.replace(1, QStringLiteral("seen.json"));
        plain["argv"] = argv;
        QCOMPARE(compact(seen), compact(plain));
    }

    void aScriptThroughASymlinkImportsItsSiblings() {
#ifdef Q_OS_WIN
        QSKIP("symlinks to files need privileges on Windows");
#endif
        QTemporaryDir tmp;
        QVERIFY(QDir().mkpath(tmp.filePath("real")) && QDir().mkpath(tmp.filePath("links")));
        QVERIFY(writeFile(tmp.filePath("real/train.py"), kIdentityScript));
        QVERIFY(writeFile(tmp.filePath("real/helper.py"), "WHO = 'the sibling of the real file'\n"));
        QVERIFY(QFile::link(tmp.filePath("real/train.py"), tmp.filePath("links/train.py")));
        const auto r = runScript(tmp.path(), "links/train.py", "runs/a", {tmp.filePath("seen.json")});
        QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.err + r.out));
        const QJsonObject seen = launchtest::readJsonFile(tmp.filePath("seen.json"));
        QCOMPARE(seen["helper"].toString(), QStringLiteral("the sibling of the real file"));
        QString err;
        QVERIFY2(
            runPlain(tmp.path(), {seen["argv"].toArray().at(0).toString(), tmp.filePath("plain.json")}, &err),
            qPrintable(err));
        QJsonObject plain = launchtest::readJsonFile(tmp.filePath("plain.json"));
        QJsonArray argv = plain["argv"].toArray();
        argv.replace(1, tmp.filePath("seen.json"));
        plain["argv"] = argv;
        QCOMPARE(compact(seen), compact(plain));
        QCOMPARE(seen["path"].toArray().at(0).toString(),
                 QFileInfo(tmp.filePath("real")).canonicalFilePath());
    }
};

QTEST_GUILESS_MAIN(ScriptProgramTest)
#include "test_script_program.moc"
