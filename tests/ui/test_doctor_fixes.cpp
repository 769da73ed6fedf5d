// The Doctor page's one-click fixes, for real: a stale FileStore file is found and, once the user says yes to
// a question naming both paths, renamed aside (never deleted); a store that turned live meanwhile is refused;
// a TCP port held by a live listener is found and a free one is handed to the Setup page.

#include "doctor_panel.h"
#include "main_window.h"
#include "os/utf8_path.h"
#include "screenshot_tour.h"
#include "setup_panel.h"
#include "ui_test_util.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTimer>
#include <QtTest>

#include <filesystem>

using namespace ddpdesk;
using namespace ddpdesk::ui;

class TestDoctorFixes : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    static int indexOf(const DoctorPanel& p, const std::string& code) {
        for (size_t i = 0; i < p.findings().size(); ++i)
            if (p.findings()[i].code == code) return int(i);
        return -1;
    }

    // Answers the real QMessageBox the panel opens (offscreen, modal) and records its question.
    static void answerNextQuestion(QMessageBox::StandardButton answer, QString* question) {
        auto* timer = new QTimer;
        timer->setInterval(50);
        QObject::connect(timer, &QTimer::timeout, timer, [timer, answer, question] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box) return;
            *question = box->text();
            box->button(answer)->click();
            timer->deleteLater();
        });
        timer->start();
    }

    static QByteArray bytes(const QString& path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    static int diagnoseStale(DoctorPanel& p, const QString& store) {
        QSignalSpy done(&p, &DoctorPanel::diagnosed);
        doctor::DoctorRequest r;
        r.store = (QStringLiteral("file:") + store).toStdString();
        r.worldSize = 2;
        p.diagnose(r);
        if (!done.wait(20000) && done.isEmpty()) return -2;
        return indexOf(p, "FILESTORE_STALE");
    }

    static QString codes(const DoctorPanel& p) {
        QStringList out;
        for (const auto& f : p.findings())
            out << QString::fromStdString(f.code);
        return out.join(QLatin1Char(','));
    }

private slots:
    void initTestCase() { test::isolateSettings(m_dir); }

    void staleStoreIsRenamedAfterAsking() {
        const QString store = m_dir.filePath(QStringLiteral("old.store"));
        QVERIFY(ScreenshotTour::writeStaleStore(store));
        const QByteArray before = bytes(store);
        DoctorPanel p;
        QSignalSpy renamed(&p, &DoctorPanel::storeFileRenamed);
        const int i = diagnoseStale(p, store);
        QVERIFY2(i >= 0, qPrintable(codes(p)));
        QVERIFY(p.findings()[size_t(i)].severity == doctor::Severity::Error);
        QVERIFY(DoctorPanel::fixLabel(p.findings()[size_t(i)]).startsWith(QLatin1String("Rename")));

        // "No": the question named what would happen, and nothing did.
        QString question;
        answerNextQuestion(QMessageBox::No, &question);
        QVERIFY(!p.applyFix(i));
        const QString native = QDir::toNativeSeparators(store);
        QVERIFY2(question.startsWith(QStringLiteral("Rename %1 to %1.stale-").arg(native)),
                 qPrintable(question));
        QVERIFY2(question.contains(QLatin1String("nothing is deleted")) &&
                     question.contains(QLatin1String("would time out")),
                 qPrintable(question));
        QCOMPARE(p.resultText(), QStringLiteral("Nothing was changed."));
        QCOMPARE(bytes(store), before);
        QCOMPARE(renamed.count(), 0);

        // "Yes": renamed aside in the same folder, byte for byte; the original name is free again.
        answerNextQuestion(QMessageBox::Yes, &question);
        QVERIFY2(p.applyFix(i), qPrintable(p.resultText()));
        QVERIFY(!QFileInfo::exists(store));
        QCOMPARE(renamed.count(), 1);
        QCOMPARE(renamed.front().at(0).toString(), native);
        const QString moved = renamed.front().at(1).toString();
        QVERIFY2(QRegularExpression(QStringLiteral("^old\\.store\\.stale-\\d{8}-\\d{6}(-\\d+)?$"))
                     .match(QFileInfo(moved).fileName())
                     .hasMatch(),
                 qPrintable(moved));
        QCOMPARE(QFileInfo(moved).absolutePath(), QFileInfo(store).absolutePath());
        QCOMPARE(bytes(moved), before);
        QVERIFY2(p.resultText().contains(moved) &&
                     p.resultText().contains(QLatin1String("nothing was deleted")),
                 qPrintable(p.resultText()));
        // Findings without a safe fix offer no button.
        doctor::Finding info;
        info.code = "FILESTORE_READY";
        QVERIFY(DoctorPanel::fixLabel(info).isEmpty());
    }

    // The button may be pressed long after the diagnosis: a store that a rank wrote to meanwhile (1 of 2
    // arrived, just now) may be waited on again, and the fix refuses even after a "yes".
    void storeThatTurnedLiveIsRefused() {
        const QString store = m_dir.filePath(QStringLiteral("revived.store"));
        QVERIFY(ScreenshotTour::writeStaleStore(store));
        DoctorPanel p;
        const int i = diagnoseStale(p, store);
        QVERIFY2(i >= 0, qPrintable(codes(p)));
        std::filesystem::last_write_time(ddpdesk::os::pathFromUtf8(store.toStdString()),
                                         std::filesystem::file_time_type::clock::now() -
                                             std::chrono::seconds(5));
        const QByteArray before = bytes(store);
        int asked = 0;
        p.setConfirmation([&asked](const QString&) {
            ++asked;
            return true;
        });
        QVERIFY(!p.applyFix(i));
        QCOMPARE(asked, 1);
        QVERIFY2(p.resultText().contains(QLatin1String("not stale yet")), qPrintable(p.resultText()));
        QCOMPARE(bytes(store), before);
        QVERIFY(QDir(m_dir.path()).entryList({QStringLiteral("revived.store.stale-*")}).isEmpty());
    }

    void busyPortGetsAFreeOne() {
        QTcpServer holder;
        QVERIFY(holder.listen(QHostAddress::Any, 0));
        const int busy = holder.serverPort();
        MainWindow w;
        DoctorPanel* p = w.doctorPanel();
        QSignalSpy done(p, &DoctorPanel::diagnosed);
        doctor::DoctorRequest r;
        r.store = QStringLiteral("tcp://127.0.0.1:%1").arg(busy).toStdString();
        r.worldSize = 2;
        r.nodeRank = 0; // node 0 must be able to listen there
        p->diagnose(r);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 20000);
        const int i = indexOf(*p, "PORT_IN_USE");
        QVERIFY2(i >= 0, qPrintable(codes(*p)));
        QSignalSpy chosen(p, &DoctorPanel::portChosen);
        QVERIFY2(p->applyFix(i), qPrintable(p->resultText()));
        QCOMPARE(chosen.count(), 1);
        const int port = chosen.front().front().toInt();
        QVERIFY(port > 0 && port != busy);
        // The Setup page now uses it, and it really is free.
        QCOMPARE(w.setupPanel()->config().store, QStringLiteral("tcp://127.0.0.1:%1").arg(port));
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::Any, quint16(port)));
    }
};

QTEST_MAIN(TestDoctorFixes)
#include "test_doctor_fixes.moc"
