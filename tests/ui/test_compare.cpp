// The Compare page with a setting compared at each size: a real sweep of 2 workers with gradient compression
// none and fp16 fills one row per value, says which value in the "Setting" column, measures speedup within
// each value and shows fp16's halved gradient bytes; a bad comparison is refused in the status line and
// starts nothing.
#include "compare_panel.h"
#include "ui_test_util.h"

#include <QComboBox>
#include <QDir>
#include <QTableWidget>
#include <QtTest>

using namespace ddpdesk;
using namespace ddpdesk::ui;

class TestCompare : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    launch::RunConfig config(const QString& name) const {
        launch::RunConfig c;
        c.workload = QStringLiteral("autoencoder");
        c.nproc = 2;
        c.training.steps = 4;
        c.training.batchSize = 16;
        c.training.threads = 1;
        c.training.limitSamples = 256;
        c.training.telemetryMs = 0;
        c.outDir = m_dir.filePath(QStringLiteral("run-") + name);
        return c;
    }

private Q_SLOTS:
    void initTestCase() { test::isolateSettings(m_dir); }

    void settingComparedSideBySide() {
        ComparePanel panel;
        panel.setConfigProvider([this] { return config(QStringLiteral("a")); });
        auto* combo = panel.findChild<QComboBox*>();
        QVERIFY(combo);
        QStringList offered;
        for (int i = 0; i < combo->count(); ++i)
            offered << combo->itemData(i).toString();
        QVERIFY2(offered.contains(QStringLiteral("precision=fp32,bf16")), qPrintable(offered.join(' ')));
        panel.setCompare(QStringLiteral("grad-compression=none,fp16,bf16"));
        QCOMPARE(combo->currentData().toString(), QStringLiteral("grad-compression=none,fp16,bf16"));

        QVERIFY(panel.startSweep(QStringLiteral("2"), QStringLiteral("grad-compression=none,fp16")));
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isRunning(), 180000);
        QTableWidget* table = panel.table();
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->horizontalHeaderItem(1)->text(), QStringLiteral("Setting"));
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("grad-compression=none"));
        QCOMPARE(table->item(1, 1)->text(), QStringLiteral("grad-compression=fp16"));
        for (int row : {0, 1}) {
            QCOMPARE(table->item(row, 0)->text(), QStringLiteral("2"));
            QCOMPARE(table->item(row, 3)->text(), QString::fromUtf8("1.00\u00d7")); // within its own value
        }
        // sweep.csv next to the sizes' folders: fp16 buckets carry half the bytes.
        QFile csv(m_dir.filePath(QStringLiteral("sweep-a/sweep.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        const qint64 none = lines[1].split(',').value(8).toLongLong(),
                     fp16 = lines[2].split(',').value(8).toLongLong();
        QVERIFY(none > 0);
        QCOMPARE(fp16 * 2, none);
        QVERIFY(table->item(0, 8)->text() != table->item(1, 8)->text());
    }

    void badComparisonStartsNothing() {
        ComparePanel panel;
        panel.setConfigProvider([this] { return config(QStringLiteral("b")); });
        QVERIFY(!panel.startSweep(QStringLiteral("2"), QStringLiteral("precision=fp32,fp8")));
        QVERIFY2(panel.statusText().contains(QStringLiteral("--precision 'fp8' is not valid")),
                 qPrintable(panel.statusText()));
        QVERIFY(!panel.isRunning());
        QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("sweep-b"))));
    }
};

QTEST_MAIN(TestCompare)
#include "test_compare.moc"
