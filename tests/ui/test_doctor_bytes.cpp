// The Doctor page with stores whose bytes are not UTF-8 (nlohmann::json::dump throws on them, and a throw
// through the Qt event loop ends the GUI), and with a diagnosis still running when the page goes away
// (quitting must not wait for it, and its late answer must not reach a destroyed page).

#include "doctor_panel.h"
#include "ui_test_util.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QtTest>

using namespace ddpdesk;
using namespace ddpdesk::ui;

namespace {

const QString kReplacement = QString(QChar(0xFFFD));

// Diagnoses on the page, then opens every finding's details (which render the evidence); returns all the
// text.
QString diagnoseAndShowAll(DoctorPanel& p, const doctor::DoctorRequest& r, QString* error) {
    QSignalSpy done(&p, &DoctorPanel::diagnosed);
    p.diagnose(r);
    if (!QTest::qWaitFor([&] { return done.count() == 1; }, 30000)) {
        *error = QStringLiteral("no diagnosis within 30 s");
        return {};
    }
    QTextBrowser* details = p.findChild<QTextBrowser*>();
    QTreeWidget* list = p.findChild<QTreeWidget*>();
    QString all;
    for (int i = 0; i < int(p.findings().size()); ++i) {
        p.selectFinding(i);
        all += list->topLevelItem(i)->text(1) + QLatin1Char(' ') + list->topLevelItem(i)->text(2) +
               QLatin1Char('\n') + details->toPlainText() + QLatin1Char('\n');
    }
    return all;
}

} // namespace

class TestDoctorBytes : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { test::isolateSettings(m_dir); }

    void fileStoreWithInvalidUtf8() {
        // A real FileStore log (uint32 length + key, uint32 length + value) with bytes that are not UTF-8.
        const QString path = m_dir.filePath(QStringLiteral("store"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        auto field = [&](const QByteArray& s) {
            const quint32 n = quint32(s.size());
            const char le[4] = {char(n & 0xff), char((n >> 8) & 0xff), char((n >> 16) & 0xff), char(n >> 24)};
            f.write(le, 4);
            f.write(s);
        };
        for (const auto& [key, value] : std::initializer_list<std::pair<QByteArray, QByteArray>>{
                 {"/ddpdesk/arrived/0", "\xff"},
                 {"/default_pg/0/0/rank_1", "host\xfe\xff"},
                 {"/odd\xff"
                  "key",
                  "x"}}) {
            field(key);
            field(value);
        }
        f.close();

        DoctorPanel p;
        doctor::DoctorRequest r;
        r.store = "file:" + path.toStdString();
        r.worldSize = 3;
        QString error;
        const QString shown = diagnoseAndShowAll(p, r, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(!p.findings().empty(), qPrintable(shown));
        QVERIFY2(shown.contains(kReplacement), qPrintable(shown)); // the bad bytes, shown as U+FFFD
    }

    void tcpStoreWithInvalidUtf8() {
        const QString script = QStringLiteral("import datetime, time, torch.distributed as d\n"
                                              "s = d.TCPStore('127.0.0.1', 0, 1, True, "
                                              "datetime.timedelta(seconds=60), wait_for_workers=False)\n"
                                              "s.set('ddpdesk/arrived/0', b'\\xff')\n"
                                              "print('ready', s.port, flush=True)\n"
                                              "time.sleep(3600)\n");
        QProcess store;
        store.start(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), script});
        QVERIFY(store.waitForStarted(10000));
        QVERIFY2(
            QTest::qWaitFor([&] { return store.canReadLine() || store.state() != QProcess::Running; }, 60000),
            "the python3-torch TCPStore did not start");
        const QByteArray line = store.readLine().trimmed();
        QVERIFY2(line.startsWith("ready "), line + store.readAllStandardError());
        const int port = line.mid(6).toInt();

        DoctorPanel p;
        doctor::DoctorRequest r;
        r.store = "tcp://127.0.0.1:" + std::to_string(port);
        r.nodeRank = 1;
        r.worldSize = 2;
        QString error;
        const QString shown = diagnoseAndShowAll(p, r, &error);
        store.kill();
        store.waitForFinished(10000);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(shown.contains(QStringLiteral("RANKS_MISSING")), qPrintable(shown));
        QVERIFY2(shown.contains(kReplacement), qPrintable(shown));
    }

    void closingDoesNotWaitForADiagnosis() {
        // A listener that accepts and never answers: the store probe waits its full timeout (8 s here).
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
        auto* p = new DoctorPanel;
        doctor::DoctorRequest r;
        r.store = "tcp://127.0.0.1:" + std::to_string(silent.serverPort());
        r.nodeRank = 1;
        r.probeTimeoutSec = 8;
        r.deadlineSec = 9;
        p->diagnose(r);
        QVERIFY(p->isBusy());
        QTest::qWait(300);
        QVERIFY(p->isBusy());
        QElapsedTimer t;
        t.start();
        delete p;
        QVERIFY2(t.elapsed() < 1000, qPrintable(QString::number(t.elapsed()) + " ms to close"));
        // The diagnosis ends later and answers; the answer must find no page (a crash here fails the test).
        QTest::qWait(10000);
    }
};

QTEST_MAIN(TestDoctorBytes)
#include "test_doctor_bytes.moc"
