// The Doctor page's one-click fixes, for real: a stale FileStore file is found and deleted; a TCP port held by a
// live listener is found and a free one is handed to the Setup page.

#include "doctor_panel.h"
#include "main_window.h"
#include "screenshot_tour.h"
#include "setup_panel.h"
#include "ui_test_util.h"

#include <QFileInfo>
#include <QSignalSpy>
#include <QTcpServer>
#include <QtTest>

using namespace ddpdesk;
using namespace ddpdesk::ui;

class TestDoctorFixes : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    static int indexOf(const DoctorPanel& p, const std::string& code)
    {
        for (size_t i = 0; i < p.findings().size(); ++i)
            if (p.findings()[i].code == code)
                return int(i);
        return -1;
    }

    static QString codes(const DoctorPanel& p)
    {
        QStringList out;
        for (const auto& f : p.findings())
            out << QString::fromStdString(f.code);
        return out.join(QLatin1Char(','));
    }

private slots:
    void initTestCase() { test::isolateSettings(m_dir); }

    void staleStoreIsDeleted()
    {
        const QString store = m_dir.filePath(QStringLiteral("old.store"));
        QVERIFY(ScreenshotTour::writeStaleStore(store));
        DoctorPanel p;
        QSignalSpy done(&p, &DoctorPanel::diagnosed);
        QSignalSpy deleted(&p, &DoctorPanel::storeFileDeleted);
        doctor::DoctorRequest r;
        r.store = (QStringLiteral("file:") + store).toStdString();
        r.worldSize = 2;
        p.diagnose(r);
        QVERIFY(p.isBusy());
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 20000);
        QVERIFY(done.front().at(0).toInt() >= 1); // an error
        const int i = indexOf(p, "FILESTORE_STALE");
        QVERIFY2(i >= 0, qPrintable(codes(p)));
        QVERIFY(!DoctorPanel::fixLabel(p.findings()[size_t(i)]).isEmpty());
        QVERIFY(QFileInfo::exists(store));
        QVERIFY2(p.applyFix(i), qPrintable(p.resultText()));
        QVERIFY(!QFileInfo::exists(store));
        QCOMPARE(deleted.count(), 1);
        // Findings without a safe fix offer no button.
        doctor::Finding info;
        info.code = "FILESTORE_READY";
        QVERIFY(DoctorPanel::fixLabel(info).isEmpty());
    }

    void busyPortGetsAFreeOne()
    {
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
