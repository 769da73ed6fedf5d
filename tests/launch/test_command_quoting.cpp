// The cluster exports (`ddpdesk-cli command`, the GUI's "Copy as command") with hostile values: spaces,
// quotes,
// $(...), backticks, ; & | % ^ and line breaks. The POSIX formats are run by a real sh with the launchers
// replaced by stubs and the program by a printer, so the argv that arrives is compared byte for byte and no
// embedded command may run. The HPC Pack line is decoded with cmd.exe's batch-file rules and the Microsoft C
// runtime's argument rules. Host names and GPU lists that are not well formed are refused, naming the flag
// (exit 2).

#include "launch/config/command_format.h"
#include "launch/config/run_config.h"
#include "launch_test_util.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace ddpdesk::launch;

namespace {

const QStringList kHostile = {
    "a b",   "it's",   "\"dq\"",    "$(touch pwned1)", "`touch pwned2`", "a;touch pwned3",
    "x&y|z", "%PATH%", "^caret",    "line1\nline2",    "$HOME",          "back\\slash",
    "*",     "~",      "tab\there", "trailing\\",      "<in >out",       "!bang",
    "",      "'"};

// Printer: every argument NUL-terminated, so arguments holding line breaks stay whole.
QString writePrinter(const QTemporaryDir& dir) {
    const QString path = dir.filePath("printer");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return QString();
    f.write("#!/bin/sh\nprintf '%s\\0' \"$@\"\n");
    f.close();
    f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

// Launchers reduced to what matters here: they drop their own options and run the rank program as written.
const char* kStubs =
    "torchrun() { while [ $# -gt 0 ]; do case \"$1\" in --*) shift ;; *) break ;; esac; done;"
    " printf 'CVD=%s\\0' \"${CUDA_VISIBLE_DEVICES-unset}\";"
    " if [ \"$1\" = \"$PRINTER\" ]; then \"$@\"; else \"$PRINTER\" \"$@\"; fi; }\n"
    "mpirun() { while [ $# -gt 0 ] && [ \"$1\" != sh ] && [ \"$1\" != \"$PRINTER\" ]; do shift; "
    "done; OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=1 OMPI_COMM_WORLD_LOCAL_RANK=0 "
    "OMPI_COMM_WORLD_LOCAL_SIZE=1 \"$@\"; }\n"
    "srun() { \"$@\"; }\n"
    "scontrol() { echo node0; }\n";

struct ShellRun {
    int exitCode = -1;
    QStringList argv;
    QString err;
};

ShellRun runInSh(const QString& script, const QTemporaryDir& dir, const QString& printer, bool syntaxOnly) {
    QProcess sh;
    sh.setWorkingDirectory(dir.path());
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("PRINTER", printer);
    env.remove("CUDA_VISIBLE_DEVICES");
    sh.setProcessEnvironment(env);
    sh.start("/bin/sh", {syntaxOnly ? "-nc" : "-c", QString::fromLatin1(kStubs) + script});
    ShellRun r;
    if (!sh.waitForFinished(20000)) {
        sh.kill();
        sh.waitForFinished(5000);
        r.err = "sh did not finish";
        return r;
    }
    r.exitCode = sh.exitStatus() == QProcess::NormalExit ? sh.exitCode() : -1;
    r.err = QString::fromUtf8(sh.readAllStandardError());
    QByteArray out = sh.readAllStandardOutput();
    if (out.endsWith('\0')) out.chop(1);
    for (const QByteArray& a : out.split('\0'))
        r.argv << QString::fromUtf8(a);
    if (out.isEmpty()) r.argv.clear();
    return r;
}

// cmd.exe reading a line, from a batch file or typed at its prompt: ^x -> x outside quotes, quotes toggle a
// region where & | < > ^ are plain. Fails (returns false) where cmd.exe would do something else: an unescaped
// & | < > outside quotes (a second command or a redirection), a line break, and a % that may expand a
// variable. A batch file reads %% as %, and any other % may expand. A prompt leaves %% as it is and expands
// %NAME% when NAME is defined, so there a % is safe only right after an unquoted ^ (the name looked up then
// ends in ^, which nothing defines, and the ^ is dropped afterwards).
bool cmdLine(const QString& line, bool prompt, QString* out, QString* why) {
    bool quoted = false;
    for (int i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (c == '\n' || c == '\r') {
            *why = QStringLiteral("line break at %1").arg(i);
            return false;
        }
        if (c == '%') {
            if (!prompt && i + 1 < line.size() && line[i + 1] == '%') {
                *out += '%';
                ++i;
                continue;
            }
            *why =
                QStringLiteral("%1 %% at %2 may expand a variable").arg(prompt ? "unescaped" : "lone").arg(i);
            return false;
        }
        if (c == '"') quoted = !quoted;
        if (!quoted && c == '^') {
            if (i + 1 >= line.size()) {
                *why = "^ at the end continues the line";
                return false;
            }
            *out += line[++i];
            continue;
        }
        if (!quoted && QStringLiteral("&|<>").contains(c)) {
            *why = QStringLiteral("unescaped %1 at %2 outside quotes").arg(c).arg(i);
            return false;
        }
        *out += c;
    }
    if (quoted) {
        *why = "unbalanced quotes";
        return false;
    }
    return true;
}

bool cmdBatchLine(const QString& line, QString* out, QString* why) {
    return cmdLine(line, false, out, why);
}

bool cmdPromptLine(const QString& line, QString* out, QString* why) {
    return cmdLine(line, true, out, why);
}

// The Microsoft C runtime's (2008 and later) argument splitting.
QStringList msvcrtArgv(const QString& line) {
    QStringList args;
    int i = 0;
    const int n = line.size();
    while (i < n) {
        while (i < n && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        if (i >= n) break;
        QString arg;
        bool quoted = false;
        while (i < n && (quoted || (line[i] != ' ' && line[i] != '\t'))) {
            int backslashes = 0;
            while (i < n && line[i] == '\\') {
                ++backslashes;
                ++i;
            }
            if (i < n && line[i] == '"') {
                arg += QString(backslashes / 2, '\\');
                if (backslashes % 2) {
                    arg += '"';
                    ++i;
                } else if (quoted && i + 1 < n && line[i + 1] == '"') {
                    arg += '"'; // "" inside quotes: a literal quote, still quoted
                    i += 2;
                } else {
                    quoted = !quoted;
                    ++i;
                }
                continue;
            }
            arg += QString(backslashes, '\\');
            if (i < n && (quoted || (line[i] != ' ' && line[i] != '\t'))) arg += line[i++];
        }
        args << arg;
    }
    return args;
}

RunConfig baseConfig(const QTemporaryDir& dir) {
    RunConfig c;
    c.nproc = 2;
    c.outDir = dir.filePath("out $(touch pwned4) 'q' \"d\" ;&|%^ `touch pwned5`");
    c.dataDir = dir.filePath("data\nwith break $HOME");
    c.store = "file:" + dir.filePath("st ore;touch pwned6/filestore");
    c.iface = "eth0;touch pwned7";
    return c;
}

QString valueAfter(const QStringList& argv, const QString& flag) {
    const int i = argv.indexOf(flag);
    return i >= 0 && i + 1 < argv.size() ? argv[i + 1] : QStringLiteral("<missing %1>").arg(flag);
}

QStringList pwned(const QTemporaryDir& dir) {
    return QDir(dir.path()).entryList(QStringList{"pwned*"}, QDir::AllEntries | QDir::Hidden);
}

} // namespace

class CommandQuotingTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void posixFormatsCarryHostileArgumentsUnchanged_data() {
        QTest::addColumn<int>("format");
        QTest::addColumn<bool>("script");
        for (CommandFormat f : {CommandFormat::Torchrun, CommandFormat::Mpirun, CommandFormat::Slurm})
            for (bool script : {false, true})
                QTest::newRow(qPrintable(commandFormatName(f) + (script ? " script" : " worker")))
                    << int(f) << script;
    }

    void posixFormatsCarryHostileArgumentsUnchanged() {
        QFETCH(int, format);
        QFETCH(bool, script);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString printer = writePrinter(dir);
        QVERIFY(!printer.isEmpty());
        RunConfig c = baseConfig(dir);
        if (script) {
            c.scriptFile = dir.filePath("my train $(touch pwned8).py");
            c.python = printer; // the interpreter prints the script's path and its arguments
            c.scriptArgs = kHostile;
        }
        QVERIFY2(c.validateValues().isEmpty(), qPrintable(RunConfig::problemsText(c.validateValues())));
        const QString text = formatCommand(c, CommandFormat(format), printer);

        const ShellRun syntax = runInSh(text, dir, printer, true);
        QVERIFY2(syntax.exitCode == 0, qPrintable(syntax.err + "\n" + text));
        const ShellRun r = runInSh(text, dir, printer, false);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + "\n" + text));
        QStringList argv = r.argv;
        if (CommandFormat(format) == CommandFormat::Torchrun)
            QCOMPARE(argv.takeFirst(), QStringLiteral("CVD=unset")); // a CPU run sets no GPU list
        if (script) {
            QCOMPARE(argv, QStringList{c.scriptFile} + kHostile);
        } else {
            QCOMPARE(valueAfter(argv, "--out"), c.outDir);
            QCOMPARE(valueAfter(argv, "--data"), c.dataDir);
            QCOMPARE(valueAfter(argv, "--iface"), c.iface);
            if (argv.contains("--store")) QCOMPARE(valueAfter(argv, "--store"), c.store);
        }
        QVERIFY2(pwned(dir).isEmpty(), qPrintable(pwned(dir).join(", ") + "\n" + text));
    }

    void torchrunGpuListIsOneWord() {
        QTemporaryDir dir;
        const QString printer = writePrinter(dir);
        RunConfig c;
        c.devices = "0, 1"; // unquoted, the shell ran a command named "1"
        c.nproc = 2;
        c.outDir = dir.path();
        QVERIFY2(c.validateValues().isEmpty(), qPrintable(RunConfig::problemsText(c.validateValues())));
        const QString text = formatCommand(c, CommandFormat::Torchrun, printer);
        const ShellRun r = runInSh(text, dir, printer, false);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + "\n" + text));
        QVERIFY2(!r.argv.isEmpty(), qPrintable(text));
        QCOMPARE(r.argv.first(), QStringLiteral("CVD=0,1"));
    }

    void cmdQuotingRules() {
        QCOMPARE(cmdQuote("plain-arg.exe"), QStringLiteral("plain-arg.exe"));
        QCOMPARE(cmdQuote("a&b|c<d>e^f"), QStringLiteral("a^&b^|c^<d^>e^^f"));
        QCOMPARE(cmdQuote("%PATH%"), QStringLiteral("%%PATH%%"));
        QCOMPARE(cmdQuote("a b"), QStringLiteral("\"a b\""));
        QCOMPARE(cmdQuote("x & y"), QStringLiteral("\"x & y\"")); // inside quotes & is plain text to cmd.exe
        QCOMPARE(cmdQuote("50% off"), QStringLiteral("\"50%% off\"")); // but % still expands there
        QCOMPARE(cmdQuote("say \"hi\""), QStringLiteral("\"say \"\"hi\"\"\""));
        QCOMPARE(cmdQuote(""), QStringLiteral("\"\""));
        QCOMPARE(cmdQuote("C:\\my dir\\"), QStringLiteral("\"C:\\my dir\\\\\""));
        QCOMPARE(cmdQuote("C:\\dir\\x"), QStringLiteral("C:\\dir\\x"));
        QVERIFY(!cmdQuote("a \"b\" & c").contains("\\\"")); // never \" - cmd.exe does not honour it
    }

    void cmdQuotingRoundTripsThroughBothParsers() {
        QStringList values = kHostile;
        values.removeAll("line1\nline2"); // refused for hpcpack, see below
        values << "C:\\Program Files\\x\\"
               << "\\\\server\\share\\a b"
               << "a\\\"b"
               << "\""
               << "\\\""
               << "&";
        for (const QString& v : values) {
            QString decoded, why;
            QVERIFY2(cmdBatchLine(QStringLiteral("prog ") + cmdQuote(v), &decoded, &why),
                     qPrintable(QStringLiteral("[%1] -> [%2]: %3").arg(v, cmdQuote(v), why)));
            const QStringList argv = msvcrtArgv(decoded);
            QCOMPARE(argv, (QStringList{"prog", v}));
        }
    }

    // Node 0's join command is pasted at a prompt, where %% stays %%: a % goes outside quotes behind a ^.
    void cmdPromptQuotingRoundTripsThroughBothParsers() {
        QCOMPARE(cmdPromptQuote("plain-arg.exe"), QStringLiteral("plain-arg.exe"));
        QCOMPARE(cmdPromptQuote("%PATH%"), QStringLiteral("^%PATH^%"));
        QCOMPARE(cmdPromptQuote("50% off"), QStringLiteral("\"50\"^%\" off\""));
        QCOMPARE(cmdPromptQuote("% x"), QStringLiteral("^%\" x\"")); // no "" before the %: that is a quote
        QCOMPARE(cmdPromptQuote("a&b"), QStringLiteral("a^&b"));
        QStringList values = kHostile;
        values.removeAll("line1\nline2");
        values << "C:\\Program Files\\x\\"
               << "\\\\server\\share\\a b"
               << "a\\\"b"
               << "\""
               << "\\\""
               << "&"
               << "% %"
               << "%%"
               << " %"
               << "C:\\a b\\%\\"
               << "\\%\" \\"
               << "%\"%";
        for (const QString& v : values) {
            QString decoded, why;
            QVERIFY2(cmdPromptLine(QStringLiteral("prog ") + cmdPromptQuote(v), &decoded, &why),
                     qPrintable(QStringLiteral("[%1] -> [%2]: %3").arg(v, cmdPromptQuote(v), why)));
            QCOMPARE(msvcrtArgv(decoded), (QStringList{"prog", v}));
        }
    }

    void hpcPackLineRoundTrips() {
        RunConfig c;
        c.nproc = 2;
        c.nnodes = 2;
        c.store = "tcp://node0:29500";
        c.outDir = "C:\\runs\\a & b %USERNAME% ^x";
        c.scriptFile = "C:\\jobs\\train \"v2\".py";
        c.python = "C:\\Python311\\python.exe";
        c.scriptArgs = {"--tag", "x|y", "50%", "\"quoted\"", "", "trailing\\"};
        QVERIFY2(c.validateValues().isEmpty(), qPrintable(RunConfig::problemsText(c.validateValues())));
        const QString text = formatCommand(c, CommandFormat::HpcPack);
        QVERIFY(text.endsWith('\n'));
        QString decoded, why;
        QVERIFY2(cmdBatchLine(text.chopped(1), &decoded, &why), qPrintable(why + "\n" + text));
        const QStringList argv = msvcrtArgv(decoded);
        QVERIFY2(argv.mid(0, 2) == (QStringList{"job", "submit"}), qPrintable(argv.join(" | ")));
        QVERIFY2(argv.contains("/workdir:" + c.outDir), qPrintable(argv.join(" | ")));
        QVERIFY2(argv.contains("/stdout:ddpdesk-%CCP_JOBID%.out"), qPrintable(argv.join(" | ")));
        QVERIFY2(argv.contains("--rdzv_id=%CCP_JOBID%"), qPrintable(argv.join(" | ")));
        const int at = argv.indexOf(c.scriptFile);
        QVERIFY2(at > 0, qPrintable(argv.join(" | ")));
        QCOMPARE(argv.mid(at + 1), c.scriptArgs);
    }

    // The same line through wine's real cmd.exe and a real Windows program (mingw-built) that writes down its
    // argv.
    void hpcPackLineThroughRealCmdExe() {
        const QString wine = qEnvironmentVariable("DDPDESK_WINE64");
        const QString printer = qEnvironmentVariable("DDPDESK_WIN_PRINTARGS");
        if (wine.isEmpty() || printer.isEmpty())
            QSKIP("wine64 or mingw-w64 is not installed: only the decoder above checks the cmd.exe rules");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto windowsPath = [](const QString& path) { return "Z:" + QString(path).replace('/', '\\'); };
        RunConfig c;
        c.nproc = 2;
        c.nnodes = 2;
        c.store = "tcp://node0:29500";
        c.outDir = "C:\\runs\\a & b %USERNAME% ^x";
        c.scriptFile = "C:\\jobs\\train \"v2\".py";
        c.python = "C:\\Python311\\python.exe";
        c.scriptArgs = kHostile;
        c.scriptArgs.removeAll("line1\nline2");
        QVERIFY(commandProblems(c, CommandFormat::HpcPack).isEmpty());
        const QString line = formatCommand(c, CommandFormat::HpcPack).chopped(1);
        QVERIFY2(line.startsWith("job "), qPrintable(line));
        const QString out = dir.filePath("argv.bin");
        // "job" becomes the printer; everything after it is the exported line as it is.
        QFile batch(dir.filePath("line.cmd"));
        QVERIFY(batch.open(QIODevice::WriteOnly));
        batch.write(("@echo off\r\n" + cmdQuote(windowsPath(printer)) + " " + cmdQuote(windowsPath(out)) +
                     line.mid(3) + "\r\n")
                        .toUtf8());
        batch.close();

        QProcess cmd;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        const QString prefix = qEnvironmentVariable("DDPDESK_WINEPREFIX");
        if (!prefix.isEmpty()) env.insert("WINEPREFIX", prefix); // reused: creating a prefix takes ~20 s
        env.insert("WINEDEBUG", "-all");
        cmd.setProcessEnvironment(env);
        cmd.start(wine, {"cmd", "/c", windowsPath(batch.fileName())});
        if (!cmd.waitForFinished(150000)) {
            cmd.kill();
            cmd.waitForFinished(5000);
            QFAIL("wine cmd /c did not finish within 150 s");
        }
        QFile f(out);
        QVERIFY2(f.open(QIODevice::ReadOnly),
                 qPrintable("no argv written; wine said: " + cmd.readAllStandardError()));
        QByteArray raw = f.readAll();
        QVERIFY(raw.endsWith('\0'));
        raw.chop(1);
        QStringList received;
        for (const QByteArray& a : raw.split('\0'))
            received << QString::fromUtf8(a);

        QString decoded, why;
        QVERIFY2(cmdBatchLine(line, &decoded, &why), qPrintable(why));
        QCOMPARE(received, msvcrtArgv(decoded).mid(1)); // the decoder above models what cmd.exe really does
        const int at = received.indexOf(c.scriptFile);
        QVERIFY2(at > 0, qPrintable(received.join(" | ")));
        QCOMPARE(received.mid(at + 1), c.scriptArgs);
        QVERIFY(received.contains("/workdir:" + c.outDir));
        QVERIFY(received.contains("--rdzv_id=%CCP_JOBID%"));
    }

    void lineBreaksAreRefusedForHpcPack() {
        RunConfig c;
        c.outDir = "C:\\runs";
        c.scriptFile = "train.py";
        c.scriptArgs = {"ok", "two\nlines"};
        const QVector<ConfigProblem> p = commandProblems(c, CommandFormat::HpcPack);
        QCOMPARE(p.size(), 1);
        QCOMPARE(p[0].field, QStringLiteral("script"));
        QVERIFY(commandProblems(c, CommandFormat::Torchrun).isEmpty());
    }

    void hostsAndDevicesAreValidated_data() {
        QTest::addColumn<QString>("store");
        QTest::addColumn<QString>("devices");
        QTest::addColumn<QString>("field"); // empty: valid
        const QString node0 = "tcp://node0:29500";
        const QString uuids =
            "GPU-5c0a3f4e-1b2c-3d4e-5f60-718293a4b5c6,MIG-0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9";
        const QList<QStringList> rows = {
            {"name", node0, "cpu", ""},
            {"fqdn", "tcp://node-0.cluster.local:29500", "cpu", ""},
            {"ipv4", "tcp://10.0.0.5:29500", "cpu", ""},
            {"ipv6", "tcp://[::1]:29500", "cpu", ""},
            {"ipv6 scoped", "tcp://[fe80::1%eth0]:29500", "cpu", ""},
            {"gpus", node0, "0,1", ""},
            {"gpus with spaces", node0, "0, 1", ""},
            {"gpu uuids", node0, uuids, ""},
            {"substitution", "tcp://$(id):29500", "cpu", "store"},
            {"semicolon", "tcp://node0;id:29500", "cpu", "store"},
            {"space", "tcp://node 0:29500", "cpu", "store"},
            {"backtick", "tcp://`id`:29500", "cpu", "store"},
            {"leading dash", "tcp://-node0:29500", "cpu", "store"},
            {"underscore", "tcp://node_0:29500", "cpu", "store"},
            {"ipv4 range", "tcp://256.1.1.1:29500", "cpu", "store"},
            {"bad ipv6", "tcp://[zz::1]:29500", "cpu", "store"},
            {"label too long", "tcp://" + QString(64, 'a') + ":29500", "cpu", "store"},
            {"newline", "tcp://node0\n:29500", "cpu", "store"},
            {"plus sign", node0, "0,+1", "devices"},
            {"empty entry", node0, "0,,1", "devices"},
            {"injection", node0, "0;id", "devices"},
            {"two words", node0, "0 1", "devices"},
            {"not a uuid", node0, "GPU-$(id),1", "devices"},
        };
        for (const QStringList& r : rows)
            QTest::newRow(qPrintable(r[0])) << r[1] << r[2] << r[3];
    }

    void hostsAndDevicesAreValidated() {
        QFETCH(QString, store);
        QFETCH(QString, devices);
        QFETCH(QString, field);
        RunConfig c;
        c.store = store;
        c.devices = devices;
        c.nproc = devices == "cpu" ? 1 : 2;
        c.outDir = "/tmp/x";
        QStringList fields;
        for (const ConfigProblem& p : c.validateValues())
            fields << p.field;
        if (field.isEmpty())
            QVERIFY2(fields.isEmpty(), qPrintable(RunConfig::problemsText(c.validateValues())));
        else
            QVERIFY2(fields.contains(field), qPrintable(fields.join(", ")));
    }

    void cliRefusesHostileValuesWithExit2() {
        if (launchtest::envPath("DDPDESK_CLI").isEmpty()) QSKIP("DDPDESK_CLI not set");
        struct Case {
            QStringList args;
            QString expected;
        };
        const QList<Case> cases = {
            {{"--format", "torchrun", "--store", "tcp://node0;touch pwned:29500"}, "--store: "},
            {{"--format", "torchrun", "--devices", "0,+1", "--nproc", "2"}, "--devices: "},
            {{"--format", "slurm", "--store", "tcp://[not-v6]:29500"}, "--store: "},
            {{"--format", "hpcpack", "--script", "train.py", "--", "two\nlines"}, "--script: "},
        };
        for (const Case& k : cases) {
            const auto r = launchtest::runCli(QStringList{"command"} + k.args, 30000);
            QVERIFY(r.finished);
            QVERIFY2(r.exitCode == 2, qPrintable(QString::number(r.exitCode) + " " + r.err + r.out));
            QVERIFY2(r.err.contains(k.expected), qPrintable(r.err));
            QVERIFY2(r.out.isEmpty(), qPrintable(r.out)); // nothing half-quoted is printed
        }
    }
};

QTEST_GUILESS_MAIN(CommandQuotingTest)
#include "test_command_quoting.moc"
