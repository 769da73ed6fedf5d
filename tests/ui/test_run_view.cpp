// The Run page against real ddpdesk-worker processes: a 2-worker run fills the rank table and finishes; Stop
// ends a long run with every rank stopped; a broken model file fails the run and the banner names the failing
// rank. And a recorded 100k-step run: the page shows it whole while the model's series stay bounded. Start
// takes the workers the window keeps ready.

#include "doctor_panel.h"
#include "history_panel.h"
#include "launch/model/run_model.h"
#include "launch/run/supervisor.h"
#include "main_window.h"
#include "protocol/telemetry.h"
#include "run_panel.h"
#include "run_rank_table.h"
#include "setup_panel.h"
#include "ui_test_util.h"

#include <QDateTime>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableWidget>
#include <QtTest>

#include <cmath>

using namespace ddpdesk;
using namespace ddpdesk::ui;

class TestRunView : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    int m_runs = 0;

    launch::RunConfig config(int steps) {
        launch::RunConfig c;
        c.workload = QStringLiteral("autoencoder");
        c.nproc = 2;
        c.training.steps = steps;
        c.training.batchSize = 32;
        c.training.threads = 1;
        c.timeoutSec = 30;
        c.outDir = m_dir.filePath(QStringLiteral("runs/run-%1").arg(++m_runs));
        return c;
    }

    static QVector<QJsonObject> readLines(const QString& path) {
        QVector<QJsonObject> out;
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) return out;
        for (const QByteArray& line : f.readAll().split('\n'))
            if (!line.trimmed().isEmpty()) out.push_back(QJsonDocument::fromJson(line).object());
        return out;
    }

    QPushButton* button(QWidget* w, const QString& text) {
        for (QPushButton* b : w->findChildren<QPushButton*>())
            if (b->text().remove(QLatin1Char('&')) == text) return b;
        return nullptr;
    }

private slots:
    void initTestCase() {
        test::isolateSettings(m_dir);
        QString err;
        if (launch::Supervisor::findWorker(&err).isEmpty())
            QFAIL(qPrintable(QStringLiteral("ddpdesk-worker not found (set DDPDESK_WORKER): ") + err));
    }

    void twoWorkerRunFillsTable() {
        MainWindow w;
        w.historyPanel()->setRunsFolder(m_dir.filePath(QStringLiteral("runs")));
        w.show();
        QSignalSpy finished(&w, &MainWindow::runFinished);
        QVERIFY(w.startRun(config(30))); // the doctor's pre-flight check runs first, then the workers
        QTRY_VERIFY_WITH_TIMEOUT(w.supervisor() != nullptr, 10000);
        QCOMPARE(w.currentPage(), MainWindow::RunPage);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 90000);
        QVERIFY2(finished.front().front().toBool(),
                 qPrintable(w.supervisor()->model()->summary().failureReason));
        RunPanel* run = w.runPanel();
        run->refreshNow();
        QTableWidget* t = run->rankTable();
        QCOMPARE(t->rowCount(), 2);
        for (int r = 0; r < 2; ++r) {
            QCOMPARE(t->item(r, 0)->text(), QString::number(r));
            QCOMPARE(t->item(r, 1)->text(), QStringLiteral("done"));
            QCOMPARE(t->item(r, 2)->text().toLongLong(), 30);
            bool ok = false;
            t->item(r, 3)->text().toDouble(&ok);
            QVERIFY2(ok, qPrintable(t->item(r, 3)->text())); // a real loss value
            const int exitColumn = RunRankTable::ColExit;
            QVERIFY2(t->item(r, exitColumn)->text().contains(QLatin1Char('0')),
                     qPrintable(t->item(r, exitColumn)->text())); // exit 0
            // The collective column's tooltip: the rank's last collectives, each with its place in the
            // worker.
            const QString tip = t->item(r, RunRankTable::ColCollective)->toolTip();
            QVERIFY2(tip.startsWith(QStringLiteral("Last collectives of rank %1 (newest last):").arg(r)) &&
                         tip.count(QStringLiteral(" at ddpdesk-worker")) == 8,
                     qPrintable(tip));
            bool bucket = false;
            for (const auto& e : w.supervisor()->model()->rank(r).history)
                bucket = bucket || (e.op == "allreduce" && e.completed && e.dtype == "float32" &&
                                    e.site.rfind("ddpdesk-worker bucket 1 of ", 0) == 0);
            QVERIFY(bucket);
        }
        QVERIFY(!run->failureVisible());
        QVERIFY2(run->statusText().contains(QLatin1String("world size 2")), qPrintable(run->statusText()));
        // The finished run shows up in History with its summary.
        QTRY_VERIFY_WITH_TIMEOUT(!w.historyPanel()->runs().isEmpty(), 5000);
        QCOMPARE(w.historyPanel()->runs().front().status(), QStringLiteral("ok"));
        w.historyPanel()->selectRuns({0});
        QVERIFY(w.historyPanel()->detailsText().contains(QLatin1String("world size 2")));
        // The curves are read in a background thread, then drawn; the second time they come from the cache.
        QVERIFY(w.historyPanel()->detailsText().contains(QLatin1String("Reading the recording")));
        QVERIFY(w.historyPanel()->isReading());
        QTRY_VERIFY_WITH_TIMEOUT(!w.historyPanel()->isReading(), 30000);
        QVERIFY(!w.historyPanel()->detailsText().contains(QLatin1String("Reading")));
        w.historyPanel()->selectRuns({});
        w.historyPanel()->selectRuns({0});
        QVERIFY(!w.historyPanel()->detailsText().contains(QLatin1String("Reading")));
        // Reopened on the Run page, the recording replays into a fresh model that shows what the live one
        // showed.
        const launch::RunModel* live = w.supervisor()->model();
        w.showPage(MainWindow::HistoryPage);
        QPushButton* reopen = w.historyPanel()->showInRunButton();
        QVERIFY(reopen->isEnabled());
        reopen->click();
        // The recording is read in a background thread: the click returns at once, the page follows when it
        // is read.
        QCOMPARE(run->model(), live);
        QTRY_COMPARE_WITH_TIMEOUT(w.currentPage(), MainWindow::RunPage, 30000);
        const launch::RunModel* replayed = run->model();
        QVERIFY(replayed && replayed != live);
        QVERIFY(replayed->isFinished());
        QCOMPARE(replayed->summary().status, QStringLiteral("ok"));
        QCOMPARE(replayed->summary().finalLoss, live->summary().finalLoss);
        run->refreshNow();
        QCOMPARE(t->rowCount(), 2);
        for (int r = 0; r < 2; ++r) {
            QCOMPARE(t->item(r, 1)->text(), QStringLiteral("done"));
            QCOMPARE(t->item(r, 2)->text().toLongLong(), 30);
            QCOMPARE(replayed->lossSeries(r).size(), live->lossSeries(r).size());
            QCOMPARE(replayed->rank(r).loss, live->rank(r).loss);
        }
    }

    // Keep workers ready (Settings menu): the Setup page's worker count waits with LibTorch loaded, Start
    // hands them the ranks, the pool fills again after the run, and switching it off lets them go.
    void startTakesWaitingWorkers() {
        MainWindow w;
        w.historyPanel()->setRunsFolder(m_dir.filePath(QStringLiteral("runs")));
        w.setupPanel()->setConfig(config(20));
        w.show();
        QTRY_COMPARE_WITH_TIMEOUT(w.warmWorkers()->pids().size(), 2, 15000);
        const QList<qint64> waiting = w.warmWorkers()->pids();
        QSignalSpy finished(&w, &MainWindow::runFinished);
        const launch::RunConfig c = config(20);
        QVERIFY(w.startRun(c));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 90000);
        QVERIFY(finished.first().first().toBool());
        int warm = 0;
        for (const QJsonObject& e : readLines(c.outDir + QStringLiteral("/metrics.jsonl")))
            if (e[QStringLiteral("event")].toString() == QLatin1String("rank_start")) {
                QVERIFY(e[QStringLiteral("warm")].toBool());
                QVERIFY(waiting.contains(qint64(e[QStringLiteral("pid")].toDouble())));
                ++warm;
            }
        QCOMPARE(warm, 2);
        QTRY_COMPARE_WITH_TIMEOUT(w.warmWorkers()->pids().size(), 2, 15000); // ready for the next Start
        w.setWarmWorkersEnabled(false);
        QCOMPARE(w.warmWorkers()->waiting(), 0);
    }

    void stopEndsTheRun() {
        MainWindow w;
        w.setPreflightEnabled(false);
        w.show();
        QSignalSpy finished(&w, &MainWindow::runFinished);
        QVERIFY(w.startRun(config(1000000)));
        RunPanel* run = w.runPanel();
        QTableWidget* t = run->rankTable();
        QTRY_VERIFY_WITH_TIMEOUT(t->rowCount() == 2 && t->item(0, 2) &&
                                     t->item(0, 2)->text().toLongLong() > 0 &&
                                     t->item(1, 2)->text().toLongLong() > 0,
                                 60000);
        QPushButton* stop = button(run, QStringLiteral("Stop"));
        QVERIFY(stop && stop->isEnabled());
        stop->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 15000);
        QVERIFY(!finished.front().front().toBool());
        run->refreshNow();
        const auto* m = w.supervisor()->model();
        QCOMPARE(m->summary().status, QStringLiteral("stopped"));
        for (const auto& r : m->ranks())
            QVERIFY2(r.state == launch::RankState::Stopped || r.state == launch::RankState::Done,
                     qPrintable(launch::rankStateName(r.state)));
        QVERIFY(!stop->isEnabled());
        QVERIFY(!run->failureVisible()); // a user's Stop is not a failure
    }

    // Issue 40: the status bar still said "The run failed or was stopped." while the next run trained.
    void statusBarSpeaksOfTheRunOnScreen() {
        MainWindow w;
        w.setPreflightEnabled(false);
        w.setWarmWorkersEnabled(false);
        w.show();
        QSignalSpy finished(&w, &MainWindow::runFinished);
        QVERIFY(w.startRun(config(1000000)));
        QTRY_VERIFY_WITH_TIMEOUT(w.supervisor() && w.supervisor()->model()->rankCount() == 2 &&
                                     w.supervisor()->model()->rank(0).step > 0,
                                 60000);
        w.stopRun();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 15000);
        QCOMPARE(w.statusBar()->currentMessage(), QStringLiteral("The run failed or was stopped."));
        QVERIFY(w.startRun(config(1000000))); // at once, well within the message's few seconds
        QVERIFY2(!w.statusBar()->currentMessage().contains(QLatin1String("failed")),
                 qPrintable(w.statusBar()->currentMessage()));
        QTRY_VERIFY_WITH_TIMEOUT(
            w.supervisor()->model()->rankCount() == 2 && w.supervisor()->model()->rank(0).step > 0, 60000);
        QVERIFY2(!w.statusBar()->currentMessage().contains(QLatin1String("failed")),
                 qPrintable(w.statusBar()->currentMessage()));
        w.stopRun();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 15000);
    }

    void longRunStaysBounded() {
        // 100,000 steps of 2 ranks, one step every 10 ms of the run's own clock, as History replays a
        // recording.
        constexpr qint64 kSteps = 100000;
        launch::RunModel model;
        const double t0 = 1.7e9;
        model.setReplayClock(t0);
        model.reset({0, 1}, 2, QStringLiteral("autoencoder"), kSteps);
        for (qint64 s = 1; s <= kSteps; ++s)
            for (int r = 0; r < 2; ++r) {
                protocol::Event e;
                e.type = protocol::ev::Step;
                e.rank = r;
                e.t = t0 + s * 0.01;
                e.body = protocol::makeEvent(protocol::ev::Step, r);
                e.body["step"] = s;
                e.body["loss"] = 1.0 / std::sqrt(double(s)) + 0.01 * r;
                e.body["samples"] = 32;
                e.body["step_ms"] = 10.0;
                e.body["comm_wait_ms"] = 1.0;
                model.setReplayClock(e.t);
                model.applyEvent(r, e);
            }
        model.finish(QStringLiteral("ok"), -1, QString());
        model.setReplayClock(0);
        for (int r = 0; r < 2; ++r) {
            QVERIFY(model.lossSeries(r).size() <= launch::RunModel::kMaxSeriesPoints);
            QVERIFY(model.lossSeries(r).size() > launch::RunModel::kMaxSeriesPoints / 4);
            QCOMPARE(model.lossSeries(r).back().x(),
                     kSteps * 0.01); // thinned, yet still ends where the run did
        }
        RunPanel run;
        run.resize(1000, 700);
        run.show();
        run.showModel(&model, QStringLiteral("long"));
        QCOMPARE(run.rankTable()->rowCount(), 2);
        for (int r = 0; r < 2; ++r)
            QCOMPARE(run.rankTable()->item(r, 2)->text().toLongLong(), kSteps);
        QVERIFY2(run.statusText().contains(QLatin1String("step 100000 of 100000")),
                 qPrintable(run.statusText()));
        QVERIFY2(run.statusText().contains(QLatin1String("16:40 elapsed")), qPrintable(run.statusText()));
    }

    // A rank in a validation pass shows "evaluating" while the other waits (training); the pass's count and
    // time stay in the state's tooltip after it ended, and a step ends the pass even if its end was lost.
    void aRankInAValidationPassShowsEvaluating() {
        launch::RunModel model;
        const double t0 = 1.7e9;
        model.setReplayClock(t0);
        model.reset({0, 1}, 2, QStringLiteral("script"), 0);
        auto send = [&](int r, const char* type, nlohmann::json fields) {
            protocol::Event e;
            e.type = type;
            e.rank = r;
            e.t = t0 + 1;
            e.body = protocol::makeEvent(type, r);
            e.body.update(fields);
            model.applyEvent(r, e);
        };
        for (int r = 0; r < 2; ++r)
            send(r, protocol::ev::Step, {{"step", 5}, {"loss", 1.0}, {"samples", 160}});
        send(0, protocol::ev::Eval,
             {{"state", "begin"},
              {"step", 5},
              {"samples", 0},
              {"eval_ms", 0},
              {"eval_total_ms", 0},
              {"passes", 1}});
        RunPanel run;
        run.show();
        run.showModel(&model, QStringLiteral("eval"));
        run.refreshNow();
        QTableWidget* t = run.rankTable();
        QCOMPARE(t->item(0, RunRankTable::ColState)->text(), QStringLiteral("evaluating"));
        QCOMPARE(t->item(1, RunRankTable::ColState)->text(), QStringLiteral("training"));
        send(0, protocol::ev::Eval,
             {{"state", "end"},
              {"step", 5},
              {"samples", 640},
              {"eval_ms", 2500},
              {"eval_total_ms", 2500},
              {"passes", 1}});
        run.refreshNow();
        QCOMPARE(t->item(0, RunRankTable::ColState)->text(), QStringLiteral("training"));
        const QString tip = t->item(0, RunRankTable::ColState)->toolTip();
        QVERIFY2(tip.contains(QLatin1String("validation passes: 1, 2.5 s in all")), qPrintable(tip));
        send(0, protocol::ev::Eval,
             {{"state", "begin"},
              {"step", 5},
              {"samples", 0},
              {"eval_ms", 0},
              {"eval_total_ms", 2500},
              {"passes", 2}});
        send(0, protocol::ev::Step, {{"step", 6}, {"loss", 1.0}, {"samples", 192}});
        run.refreshNow();
        QCOMPARE(t->item(0, RunRankTable::ColState)->text(), QStringLiteral("training"));
        QCOMPARE(model.rank(0).evalPasses, 2);
    }

    // Node 0 of a 2 x 2 run: a node table above the ranks says each node's launcher's state (this one,
    // connected, no contact for N s counting on, its run's end), the rank table groups the ranks by node,
    // and the GPU charts name every node's GPUs "node/GPU".
    void nodeZeroShowsEachNodesState() {
        launch::RunModel model;
        model.reset({0, 1, 2, 3, 4, 5}, 6, QStringLiteral("autoencoder"), 100);
        model.setNodes(0, 3, 2, true, QStringLiteral("node-a"));
        RunPanel run;
        run.resize(1000, 700);
        run.show();
        run.showModel(&model, QStringLiteral("three nodes"));
        QTableWidget* nodes = run.nodeTable();
        QVERIFY(nodes->isVisible());
        QCOMPARE(nodes->rowCount(), 3);
        auto cell = [&](int row, int col) { return nodes->item(row, col)->text(); };
        QCOMPARE(cell(0, 1), QStringLiteral("node-a"));
        QCOMPARE(cell(0, 2), QStringLiteral("this launcher"));
        QCOMPARE(cell(1, 2), QStringLiteral("waiting for its launcher"));
        QCOMPARE(cell(0, 3), QStringLiteral("2 pending"));
        const double now = QDateTime::currentMSecsSinceEpoch() / 1000.0;
        model.setNodeContact(1, QStringLiteral("node-b"), QStringLiteral("connected"), now);
        model.setNodeContact(2, QStringLiteral("node-c"), QStringLiteral("connected"), now - 9);
        model.setNodeContact(2, QStringLiteral("node-c"), QStringLiteral("no_contact"), now - 7);
        model.setRankState(2, launch::RankState::Training);
        model.setRankState(3, launch::RankState::Done);
        run.refreshNow();
        QCOMPARE(cell(1, 1), QStringLiteral("node-b"));
        QCOMPARE(cell(1, 2), QStringLiteral("connected"));
        QCOMPARE(cell(1, 3), QStringLiteral("1 training, 1 done"));
        QVERIFY2(cell(2, 2).startsWith(QLatin1String("no contact for ")), qPrintable(cell(2, 2)));
        const int silentS = cell(2, 2).section(' ', 3, 3).toInt();
        QVERIFY2(silentS >= 7 && silentS < 30, qPrintable(cell(2, 2)));
        QCOMPARE(run.rankTable()->item(5, RunRankTable::ColNode)->text(), QStringLiteral("2 (node-c)"));
        // Node groups: node 1's rows tinted, nodes 0 and 2 not.
        QCOMPARE(run.rankTable()->item(2, 0)->background(), run.rankTable()->item(3, 0)->background());
        QVERIFY(run.rankTable()->item(2, 0)->background() != run.rankTable()->item(1, 0)->background());
        QCOMPARE(run.rankTable()->item(4, 0)->background(), run.rankTable()->item(0, 0)->background());
        model.setNodeContact(1, QStringLiteral("node-b"), QStringLiteral("ended: ok"), now);
        model.setNodeContact(2, QStringLiteral("node-c"), QStringLiteral("lost: connection reset"), now);
        run.refreshNow();
        QCOMPARE(cell(1, 2), QStringLiteral("ended: ok"));
        QCOMPARE(cell(2, 2), QStringLiteral("lost: connection reset"));

        // Another launcher's ranks, seen in the store.
        launch::RunModel foreign;
        foreign.reset({0, 1, 2, 3}, 4, QStringLiteral("autoencoder"), 100);
        foreign.setNodes(0, 2, 2, true, QStringLiteral("node-a"));
        foreign.setNodeContact(1, QString(), QStringLiteral("store_only: 2, 3"));
        run.showModel(&foreign, QStringLiteral("torchrun on node 1"));
        QCOMPARE(run.nodeTable()->item(1, 2)->text(),
                 QStringLiteral("no DDP Desk launcher; ranks 2, 3 seen in the store"));
        QCOMPARE(run.rankTable()->item(3, RunRankTable::ColState)->text(),
                 QStringLiteral("in the store (another launcher)"));

        // A single-node run has no node table.
        launch::RunModel single;
        single.reset({0, 1}, 2, QStringLiteral("autoencoder"), 10);
        run.showModel(&single, QStringLiteral("one node"));
        QVERIFY(!run.nodeTable()->isVisible());
    }

    void brokenModelShowsFailingRank() {
        const QString bad = m_dir.filePath(QStringLiteral("broken.pt"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a TorchScript zip archive\n");
        f.close();
        MainWindow w;
        w.setPreflightEnabled(false);
        w.show();
        QSignalSpy finished(&w, &MainWindow::runFinished);
        launch::RunConfig c = config(10);
        c.workload = QStringLiteral("torchscript");
        c.modelFile = bad;
        QVERIFY(w.startRun(c));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QVERIFY(!finished.front().front().toBool());
        RunPanel* run = w.runPanel();
        QVERIFY(run->failureVisible());
        const int failed = w.supervisor()->model()->summary().failedRank;
        QVERIFY(failed == 0 || failed == 1);
        QVERIFY2(run->failureText().contains(QStringLiteral("Rank %1 failed").arg(failed)),
                 qPrintable(run->failureText()));
        run->refreshNow();
        QCOMPARE(run->rankTable()->item(failed, 1)->text(), QStringLiteral("failed"));
        // Diagnose jumps to the doctor with the run's store.
        QPushButton* diagnose = button(run, QStringLiteral("Diagnose"));
        QVERIFY(diagnose);
        diagnose->click();
        QCOMPARE(w.currentPage(), MainWindow::DoctorPage);
        QTRY_VERIFY_WITH_TIMEOUT(!w.doctorPanel()->isBusy(), 20000);
    }
};

QTEST_MAIN(TestRunView)
#include "test_run_view.moc"
