// Texts that come from core/ follow the GUI's language too: a real invalid configuration, real doctor
// findings (a stale FileStore file on disk, a TCP port held by a live listener) and a real failed worker run
// read in Japanese when Japanese is selected, and exactly as the CLI prints them in English.

#include "doctor_panel.h"
#include "doctor_texts.h"
#include "language.h"
#include "main_window.h"
#include "run_panel.h"
#include "screenshot_tour.h"
#include "setup_panel.h"
#include "ui_test_util.h"

#include "doctor/checks.h"
#include "launch/run/supervisor.h"

#include <QFile>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTcpServer>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QtTest>

using namespace ddpdesk;
using namespace ddpdesk::ui;

namespace {
// Parts of the Japanese texts (escaped below, as in test_language.cpp): 既に存在します, のポートは 1..65535,
// 以前の実行のストアファイルが残っています, の名前を変更して退避, エラー, が使用しています, 終了コード,
// 最初の失敗.
const QString kJaExists = QStringLiteral("\u65e2\u306b\u5b58\u5728\u3057\u307e\u3059");
const QString kJaPortRange = QStringLiteral("\u306e\u30dd\u30fc\u30c8\u306f 1..65535");
const QString kJaStale = QStringLiteral("\u4ee5\u524d\u306e\u5b9f\u884c\u306e\u30b9\u30c8\u30a2\u30d5"
                                        "\u30a1\u30a4\u30eb\u304c\u6b8b\u3063\u3066\u3044\u307e\u3059");
const QString kJaRename = QStringLiteral("\u306e\u540d\u524d\u3092\u5909\u66f4\u3057\u3066\u9000\u907f");
const QString kJaError = QStringLiteral("\u30a8\u30e9\u30fc");
const QString kJaInUse = QStringLiteral("\u304c\u4f7f\u7528\u3057\u3066\u3044\u307e\u3059");
const QString kJaExitCode = QStringLiteral("\u7d42\u4e86\u30b3\u30fc\u30c9");
const QString kJaFirstFailure = QStringLiteral("\u6700\u521d\u306e\u5931\u6557");
} // namespace

class TestLanguageCore : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    int m_runs = 0;

    static QSpinBox* portSpin(SetupPanel& p) {
        for (QSpinBox* s : p.findChildren<QSpinBox*>())
            if (s->maximum() == 70000) // the TCPStore port: out-of-range values are shown, not clamped
                return s;
        return nullptr;
    }

    // Runs the doctor on the page and returns the row of the finding with `code` (-1 when absent).
    static int diagnoseFor(DoctorPanel& p, const QString& store, const std::string& code) {
        QSignalSpy done(&p, &DoctorPanel::diagnosed);
        doctor::DoctorRequest r;
        r.store = store.toStdString();
        r.worldSize = 2;
        p.diagnose(r);
        if (!QTest::qWaitFor([&] { return done.count() == 1; }, 20000)) return -1;
        for (size_t i = 0; i < p.findings().size(); ++i)
            if (p.findings()[i].code == code) return int(i);
        return -1;
    }

    // A real worker that fails: a TorchScript file that is not one. Returns the run's failure reason.
    QString failRun(MainWindow& w) {
        const QString bad = m_dir.filePath(QStringLiteral("broken.pt"));
        QFile f(bad);
        if (!f.open(QIODevice::WriteOnly) || f.write("not a TorchScript zip archive\n") <= 0)
            return QStringLiteral("cannot write %1").arg(bad);
        f.close();
        launch::RunConfig c;
        c.workload = QStringLiteral("torchscript");
        c.modelFile = bad;
        c.nproc = 1;
        c.training.steps = 5;
        c.training.threads = 1;
        c.timeoutSec = 30;
        c.outDir = m_dir.filePath(QStringLiteral("runs/run-%1").arg(++m_runs));
        QSignalSpy finished(&w, &MainWindow::runFinished);
        if (!w.startRun(c)) return QStringLiteral("the run did not start");
        if (!QTest::qWaitFor([&] { return finished.count() == 1; }, 60000))
            return QStringLiteral("the run did not finish within 60 s");
        return w.supervisor()->model()->summary().failureReason;
    }

private slots:
    void initTestCase() {
        test::isolateSettings(m_dir);
        QString why;
        const bool haveWorker = !launch::Supervisor::findWorker(&why).isEmpty();
        QVERIFY2(haveWorker, qPrintable(QStringLiteral("the failed-run check needs ddpdesk-worker: ") + why));
    }

    void cleanup() { applyLanguage(QStringLiteral("en")); }

    void validationProblems() {
        const QString stale = m_dir.filePath(QStringLiteral("left-over.store"));
        QFile f(stale);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        launch::RunConfig c;
        c.outDir = m_dir.filePath(QStringLiteral("runs/validation"));
        c.store = QStringLiteral("file:") + stale;

        QVERIFY(applyLanguage(QStringLiteral("ja")));
        SetupPanel p;
        p.setConfig(c);
        p.revalidate();
        QVERIFY(!p.canStart());
        QVERIFY2(p.problemText().contains(kJaExists), qPrintable(p.problemText()));
        QVERIFY2(p.problemText().contains(stale), qPrintable(p.problemText())); // the path stays verbatim

        // A TCPStore port out of range: Japanese reason, and the port field (not the host) is marked.
        c.store = QStringLiteral("tcp://127.0.0.1:70000");
        p.setConfig(c);
        p.revalidate();
        QVERIFY2(p.problemText().contains(kJaPortRange), qPrintable(p.problemText()));
        QSpinBox* port = portSpin(p);
        QVERIFY(port);
        QVERIFY(port->property("problem").toBool());

        // English: exactly the text the CLI prints.
        QVERIFY(applyLanguage(QStringLiteral("en")));
        c.store = QStringLiteral("file:") + stale;
        p.setConfig(c);
        QTRY_VERIFY(p.problemText().contains(QLatin1String("already exists (left by an earlier run")));
        QVERIFY(!p.problemText().contains(kJaExists));
        const auto problems = c.validate();
        QVERIFY(!problems.isEmpty());
        QVERIFY2(p.problemText().contains(problems.front().message), qPrintable(p.problemText()));
    }

    void doctorFindings() {
        const QString store = m_dir.filePath(QStringLiteral("stale.store"));
        QVERIFY(ScreenshotTour::writeStaleStore(store));
        QTcpServer holder;
        QVERIFY(holder.listen(QHostAddress::Any, 0));
        const QString busy = QString::number(holder.serverPort());

        QVERIFY(applyLanguage(QStringLiteral("ja")));
        DoctorPanel p;
        auto* list = p.findChild<QTreeWidget*>();
        auto* details = p.findChild<QTextBrowser*>();
        QVERIFY(list && details);
        const int stale = diagnoseFor(p, QStringLiteral("file:") + store, "FILESTORE_STALE");
        QVERIFY(stale >= 0);
        QTreeWidgetItem* item = list->topLevelItem(stale);
        QCOMPARE(item->text(0), kJaError);
        QVERIFY2(item->text(2).contains(kJaStale), qPrintable(item->text(2)));
        p.selectFinding(stale);
        const QString shown = details->toPlainText();
        QVERIFY2(shown.contains(kJaRename) && shown.contains(store),
                 qPrintable(shown)); // "Rename <path> aside"
        // The fix button's outcome is the doctor's, in Japanese too; the store file really moves aside.
        p.setConfirmation([](const QString&) { return true; });
        QVERIFY2(p.applyFix(stale), qPrintable(p.resultText()));
        QVERIFY2(p.resultText().contains(store) && !p.resultText().startsWith(QLatin1String("Renamed")),
                 qPrintable(p.resultText()));
        QVERIFY(!QFile::exists(store));

        const int inUse = diagnoseFor(p, QStringLiteral("tcp://127.0.0.1:") + busy, "PORT_IN_USE");
        QVERIFY(inUse >= 0);
        const QString portText = list->topLevelItem(inUse)->text(2);
        QVERIFY2(portText.contains(kJaInUse) && portText.contains(busy), qPrintable(portText));
        const doctor::Finding finding = p.findings()[size_t(inUse)];

        // English: the doctor's own words, as the CLI prints them (switching re-renders the list live).
        QVERIFY(applyLanguage(QStringLiteral("en")));
        QTRY_COMPARE(list->topLevelItem(inUse)->text(2), QString::fromStdString(finding.message));
        QCOMPARE(findingFix(finding), QString::fromStdString(finding.fix));
    }

    // A sentence the doctor appends (Finding::notes) is translated with the finding, never left in English.
    void appendedSentencesTranslated() {
        // Made as the doctor's TCPStore census makes it (tcp_store_checks.cpp).
        doctor::Finding f = doctor::detail::textFinding("RANKS_MISSING/listed", doctor::Severity::Error,
                                                        {"2", "100000", "2, 3 (of ranks 0..3)"});
        doctor::detail::appendNote(f, "NOTE/not_all_ranks_probed", {"0..3"});
        QVERIFY(applyLanguage(QStringLiteral("ja")));
        const QString ja = findingMessage(f);
        QVERIFY2(!ja.contains(QLatin1String("Not all")) && !ja.contains(QLatin1String("ranks arrived")),
                 qPrintable(ja));
        QVERIFY2(ja.contains(QLatin1String("0..3")) && ja.contains(QLatin1String("2, 3 (of ranks 0..3)")),
                 qPrintable(ja));
        QVERIFY(applyLanguage(QStringLiteral("en")));
        QCOMPARE(findingMessage(f), QString::fromStdString(f.message));
        QVERIFY2(f.message.find("ranks never joined") == std::string::npos &&
                     f.message.find(" Not all ranks probed: only ranks 0..3 were looked up one by one.") !=
                         std::string::npos,
                 f.message.c_str());
    }

    void failedRunExitText() {
        MainWindow w;
        w.setPreflightEnabled(false);
        w.show();
        w.setLanguage(QStringLiteral("ja"));
        const QString reason = failRun(w);
        QVERIFY2(reason.contains(kJaExitCode) && reason.contains(kJaFirstFailure), qPrintable(reason));
        RunPanel* run = w.runPanel();
        QVERIFY(run->failureVisible());
        QVERIFY2(run->failureText().contains(kJaExitCode), qPrintable(run->failureText()));
        run->refreshNow();
        QTableWidget* table = run->rankTable();
        QStringList row;
        for (int col = 0; col < table->columnCount(); ++col)
            if (table->item(0, col)) row << table->item(0, col)->text();
        QVERIFY2(row.join(QLatin1Char('|')).contains(kJaExitCode), qPrintable(row.join(QLatin1Char('|'))));

        w.setLanguage(QStringLiteral("en"));
        const QString english = failRun(w);
        QVERIFY2(english.startsWith(QLatin1String("rank 0 exit code ")) &&
                     english.endsWith(QLatin1String("(first failure)")),
                 qPrintable(english));
    }
};

QTEST_MAIN(TestLanguageCore)
#include "test_language_core.moc"
