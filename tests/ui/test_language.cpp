// The shipped Japanese translation is compiled in and switches the whole window live, and back.

#include "language.h"
#include "main_window.h"
#include "run_panel.h"
#include "setup_panel.h"
#include "ui_test_util.h"

#include <QListWidget>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QtTest>

using namespace ddpdesk::ui;

class TestLanguage : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    static QStringList menuTitles(MainWindow& w) {
        QStringList out;
        for (QAction* a : w.menuBar()->actions())
            out << a->text();
        return out;
    }

    static QStringList buttonTexts(QWidget* w) {
        QStringList out;
        for (QPushButton* b : w->findChildren<QPushButton*>())
            out << b->text();
        return out;
    }

private slots:
    void initTestCase() { test::isolateSettings(m_dir); }

    void switchesToJapaneseAndBack() {
        QVERIFY(applyLanguage(QStringLiteral("en")));
        MainWindow w;
        auto* nav = w.findChild<QListWidget*>(QStringLiteral("navigation"));
        QVERIFY(nav);
        QCOMPARE(nav->item(0)->text(), QStringLiteral("Setup"));
        QVERIFY(menuTitles(w).contains(QStringLiteral("&File")));

        w.setLanguage(QStringLiteral("ja"));
        QCOMPARE(currentLanguage(), QStringLiteral("ja"));
        // Qt delivers LanguageChange to windows as a posted event: wait for it.
        QTRY_COMPARE(nav->item(0)->text(),
                     QStringLiteral("\u30bb\u30c3\u30c8\u30a2\u30c3\u30d7"));            // セットアップ
        QCOMPARE(nav->item(2)->text(), QStringLiteral("\u8a3a\u65ad"));                  // 診断
        QVERIFY2(menuTitles(w).contains(QStringLiteral("\u30d5\u30a1\u30a4\u30eb(&F)")), // ファイル(&F)
                 qPrintable(menuTitles(w).join(QLatin1Char('|'))));
        QVERIFY2(buttonTexts(w.setupPanel()).contains(QStringLiteral("\u958b\u59cb(&S)")), // 開始(&S)
                 qPrintable(buttonTexts(w.setupPanel()).join(QLatin1Char('|'))));
        // The reason text under Start is translated too (core texts: see test_language_core.cpp).
        QVERIFY(!w.setupPanel()->problemText().startsWith(QLatin1String("Ready")));
        QCOMPARE(QSettings().value(QStringLiteral("language")).toString(), QStringLiteral("ja"));

        w.setLanguage(QStringLiteral("en"));
        QTRY_COMPARE(nav->item(0)->text(), QStringLiteral("Setup"));
        QVERIFY(buttonTexts(w.setupPanel()).contains(QStringLiteral("&Start")));
        QVERIFY(!applyLanguage(QStringLiteral("xx"))); // no such translation: stays English, says so
        QCOMPARE(currentLanguage(), QStringLiteral("en"));
    }
};

QTEST_MAIN(TestLanguage)
#include "test_language.moc"
