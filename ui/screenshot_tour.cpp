#include "screenshot_tour.h"
#include "screenshot_tour_scripts.h"

#include "compare_panel.h"
#include "doctor_panel.h"
#include "history_panel.h"
#include "icons.h"
#include "launch/model/run_model.h"
#include "launch/run/supervisor.h"
#include "main_window.h"
#include "protocol/finding_codes.h"
#include "run_panel.h"
#include "setup_panel.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QPainter>
#include <QPixmap>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtEndian>

#include <cstdio>
#include <memory>

namespace ddpdesk::ui {

namespace {

bool liveDiagnosisIs(const launch::RunModel* m, const char* code) {
    return m && m->liveDiagnosis() && m->liveDiagnosis()->code == code;
}

} // namespace

ScreenshotTour::ScreenshotTour(MainWindow* window, const QString& outDir, const QString& tour,
                               QObject* parent)
    : QObject(parent), m_window(window), m_dir(outDir) {
    QDir().mkpath(m_dir);
    auto tmp = std::make_shared<QTemporaryDir>();
    const QString runs = QDir(tmp->path()).filePath(QStringLiteral("runs"));
    QDir().mkpath(runs);
    if (tour == QLatin1String("nodes")) {
        addMultiNodeRun(tmp->path());
        add(
            QStringLiteral("end"), [] { return true; }, [tmp] {});
        return;
    }
    auto base = [this, runs] {
        launch::RunConfig c;
        c.workload = QStringLiteral("autoencoder");
        c.nproc = 2;
        c.devices = QStringLiteral("cpu");
        c.training.steps = 400;
        c.training.batchSize = 64;
        c.outDir = QDir(runs).filePath(QStringLiteral("run-") + QDateTime::currentDateTime().toString(
                                                                    QStringLiteral("yyyyMMdd-HHmmss-zzz")));
        return c;
    };
    auto model = [this] { return m_window->supervisor() ? m_window->supervisor()->model() : nullptr; };
    auto running = [this] { return m_window->supervisor() && m_window->supervisor()->isRunning(); };
    auto always = [] { return true; };

    add(QStringLiteral("setup page"), always, [this, runs, base, tmp] {
        m_window->resize(1280, 800);
        m_window->setupPanel()->setRunsFolder(runs);
        m_window->historyPanel()->setRunsFolder(runs);
        m_window->setupPanel()->setConfig(base());
        m_window->showPage(MainWindow::SetupPage);
    });
    add(
        QStringLiteral("grab setup"), always, [this] { grab(QStringLiteral("setup")); }, 1000);
    add(QStringLiteral("invalid setup"), always, [this, base] {
        launch::RunConfig c = base();
        c.nodeRank = 2; // rank beyond the node count: Start must be disabled with the reason
        m_window->setupPanel()->setConfig(c);
    });
    add(QStringLiteral("grab invalid"), always, [this, base] {
        grab(QStringLiteral("setup-invalid"));
        m_window->setupPanel()->setConfig(base());
    });
    add(QStringLiteral("own script on node 1"), always, [this, base, tmp] {
        // The user's own script with its working folder, on the second node of two: the run-secret field is
        // open.
        const QString project = QDir(tmp->path()).filePath(QStringLiteral("myproject"));
        QDir().mkpath(project);
        QFile script(QDir(project).filePath(QStringLiteral("train.py")));
        script.open(QIODevice::WriteOnly);
        launch::RunConfig c = base();
        c.scriptFile = script.fileName();
        c.workDir = project;
        c.training = {};
        c.nnodes = 2;
        c.nodeRank = 1;
        c.store = QStringLiteral("tcp://10.0.0.1:29500");
        m_window->setupPanel()->setConfig(c);
    });
    add(QStringLiteral("grab script setup"), always, [this, base] {
        grab(QStringLiteral("setup-script"));
        m_window->setupPanel()->setConfig(base());
    });
    add(QStringLiteral("start a 2-worker run"), always, [this, base] { m_window->startRun(base()); });
    add(
        QStringLiteral("run in progress"),
        [model] {
            const auto* m = model();
            return m && m->progress() >= 0.45;
        },
        [this] { m_window->runPanel()->refreshNow(); }, 90000);
    add(QStringLiteral("grab run"), always, [this] {
        grab(QStringLiteral("run"));
        m_window->runPanel()->tabs()->setCurrentIndex(1);
        m_window->runPanel()->selectLogRank(0);
    });
    add(
        QStringLiteral("grab logs"), always,
        [this] {
            grab(QStringLiteral("run-logs"));
            m_window->runPanel()->tabs()->setCurrentIndex(0);
        },
        1000);
    add(
        QStringLiteral("run finished"), [running] { return !running(); }, [] {}, 120000);
    add(QStringLiteral("failing run"), always, [this, base, tmp] {
        // A model file that is not TorchScript: every rank fails to load it, the banner names the first.
        const QString bad = QDir(tmp->path()).filePath(QStringLiteral("broken-model.pt"));
        QFile f(bad);
        if (f.open(QIODevice::WriteOnly)) f.write("this is not a TorchScript archive\n");
        f.close();
        launch::RunConfig c = base();
        c.workload = QStringLiteral("torchscript");
        c.modelFile = bad;
        m_window->startRun(c);
    });
    add(
        QStringLiteral("failure shown"),
        [this, running] { return m_window->runPanel()->failureVisible() && !running(); },
        [this] { m_window->runPanel()->refreshNow(); }, 60000);
    add(
        QStringLiteral("grab failure"), always, [this] { grab(QStringLiteral("run-failure")); }, 500);
    // A user's own script, start to finish: a tutorial-style DDP script with no prints (the instrumentation
    // reports steps, loss and samples/s), then rank 1 stuck in its data loading and "Show stacks".
    auto scriptMark = std::make_shared<qint64>(0);
    add(QStringLiteral("own script run"), always, [this, base, tmp] {
        const QString project = QDir(tmp->path()).filePath(QStringLiteral("myproject"));
        QDir().mkpath(project);
        QFile script(QDir(project).filePath(QStringLiteral("train.py")));
        if (script.open(QIODevice::WriteOnly)) script.write(kTourScript);
        script.close();
        launch::RunConfig c = base();
        c.scriptFile = script.fileName();
        c.workDir = project;
        c.training =
            {}; // a script's length is its own business (no "of N", no ETA); worker flags are refused
        c.stallTimeoutSec = 600; // the tour asks for the stacks itself
        m_window->startRun(c);
    });
    add(
        QStringLiteral("script training"),
        [model] {
            const auto* m = model();
            return m && m->rankCount() == 2 && m->rank(0).step >= 80 && m->rank(1).step >= 80;
        },
        [this] { m_window->runPanel()->refreshNow(); }, 120000);
    add(
        QStringLiteral("grab script run"), always,
        [this, scriptMark] {
            grab(QStringLiteral("script-run"));
            *scriptMark = QDateTime::currentMSecsSinceEpoch();
        },
        500);
    add(
        QStringLiteral("script stuck"),
        [model] {
            // Rank 1 stops before its 150th optimizer step. Its step events are throttled (100 ms, about 4
            // steps), so the last one before the sleep may say 146 or so: waiting for 149 would wait out the
            // stall.
            const auto* m = model();
            return m && m->rank(1).step >= 140;
        },
        [scriptMark] { *scriptMark = QDateTime::currentMSecsSinceEpoch(); }, 60000);
    add(
        QStringLiteral("hold-up named"),
        [model] { return liveDiagnosisIs(model(), protocol::diagnosis::RankBehind); },
        [this] { m_window->runPanel()->refreshNow(); }, 20000);
    add(QStringLiteral("grab run-held-up"), always, [this] { grab(QStringLiteral("run-held-up")); });
    add(
        QStringLiteral("show stacks"),
        [scriptMark] { return QDateTime::currentMSecsSinceEpoch() - *scriptMark > 2500; },
        [this] { m_window->runPanel()->showStacks(); }, 10000);
    add(
        QStringLiteral("stacks arrived"),
        [scriptMark] { return QDateTime::currentMSecsSinceEpoch() - *scriptMark > 5500; },
        [this] {
            m_window->runPanel()->refreshNow();
            grab(QStringLiteral("script-stacks"));
            m_window->runPanel()->tabs()->setCurrentIndex(0);
        },
        10000);
    add(
        QStringLiteral("script finished"), [running] { return !running(); },
        [this] { m_window->runPanel()->refreshNow(); }, 120000);
    add(
        QStringLiteral("grab script done"), always, [this] { grab(QStringLiteral("script-done")); }, 1000);
    auto nanOut = std::make_shared<QString>();
    add(QStringLiteral("script that diverges"), always, [this, base, tmp, nanOut] {
        const QString project = QDir(tmp->path()).filePath(QStringLiteral("myproject"));
        QFile script(QDir(project).filePath(QStringLiteral("diverges.py")));
        if (script.open(QIODevice::WriteOnly)) script.write(kTourNanScript);
        script.close();
        launch::RunConfig c = base();
        c.scriptFile = script.fileName();
        c.workDir = project;
        c.training = {}; // the worker's flags are refused for a script (RunConfig::validate)
        *nanOut = c.outDir;
        m_window->startRun(c);
    });
    add(
        QStringLiteral("diverged run done"),
        [this, running, nanOut] {
            const launch::Supervisor* s = m_window->supervisor();
            return s && s->config().outDir == *nanOut && !running();
        },
        [this] { m_window->runPanel()->refreshNow(); }, 120000);
    add(
        QStringLiteral("grab nan warning"), always, [this] { grab(QStringLiteral("script-nan")); }, 1000);
    add(QStringLiteral("script with a slow rank"), always, [this, base, tmp] {
        const QString project = QDir(tmp->path()).filePath(QStringLiteral("myproject"));
        QFile script(QDir(project).filePath(QStringLiteral("slow_loader.py")));
        if (script.open(QIODevice::WriteOnly)) script.write(kTourSlowScript);
        script.close();
        launch::RunConfig c = base();
        c.scriptFile = script.fileName();
        c.workDir = project;
        c.training = {}; // the worker's flags are refused for a script (RunConfig::validate)
        c.stragglerAfterSec = 3;
        m_window->startRun(c);
    });
    add(
        QStringLiteral("straggler named"),
        [model] { return liveDiagnosisIs(model(), protocol::diagnosis::Straggler); },
        [this] { m_window->runPanel()->refreshNow(); }, 60000);
    add(QStringLiteral("grab run-straggler"), always, [this] { grab(QStringLiteral("run-straggler")); });
    add(
        QStringLiteral("slow run done"), [running] { return !running(); }, [] {}, 60000);
    addMultiNodeRun(tmp->path());
    add(QStringLiteral("doctor on a stale store"), always, [this, tmp] {
        const QString store = QDir(tmp->path()).filePath(QStringLiteral("old-run.store"));
        writeStaleStore(store);
        doctor::DoctorRequest r;
        r.store = (QStringLiteral("file:") + store).toStdString();
        r.worldSize = 2;
        m_window->showPage(MainWindow::DoctorPage);
        m_window->doctorPanel()->diagnose(r);
    });
    add(
        QStringLiteral("doctor done"), [this] { return !m_window->doctorPanel()->isBusy(); },
        [this] { m_window->doctorPanel()->selectFinding(0); }, 20000);
    add(
        QStringLiteral("grab doctor"), always, [this] { grab(QStringLiteral("doctor")); }, 500);
    add(QStringLiteral("sweep 1,2 x fp32,bf16"), always, [this, base] {
        launch::RunConfig c = base();
        c.training.steps = 150; // a sweep runs every size in turn; keep the tour short
        m_window->setupPanel()->setConfig(c);
        // Precision compared at each size: the Compare page's "Setting" column and one line per value.
        m_window->comparePanel()->setCompare(QStringLiteral("precision=fp32,bf16"));
        m_window->comparePanel()->startSweep(QStringLiteral("1,2"), QStringLiteral("precision=fp32,bf16"));
    });
    add(
        QStringLiteral("sweep done"), [this] { return !m_window->comparePanel()->isRunning(); },
        [this] { m_window->showPage(MainWindow::ComparePage); }, 240000);
    add(
        QStringLiteral("grab compare"), always, [this] { grab(QStringLiteral("compare")); }, 1000);
    add(QStringLiteral("history"), always, [this] {
        m_window->historyPanel()->refresh();
        m_window->showPage(MainWindow::HistoryPage);
        QVector<int> ok;
        const auto& runs = m_window->historyPanel()->runs();
        for (int i = 0; i < runs.size() && ok.size() < 3; ++i)
            if (runs[i].status() == QLatin1String("ok")) ok << i;
        m_window->historyPanel()->selectRuns(ok);
    });
    add(
        QStringLiteral("grab history"), [this] { return !m_window->historyPanel()->isReading(); },
        [this] { grab(QStringLiteral("history")); }, 60000);
    add(QStringLiteral("japanese"), always, [this] {
        m_window->setLanguage(QStringLiteral("ja"));
        m_window->showPage(MainWindow::SetupPage);
    });
    add(
        QStringLiteral("grab setup-ja"), always,
        [this, base] {
            grab(QStringLiteral("setup-ja"));
            launch::RunConfig c = base();
            c.nodeRank = 2; // the core's validation problem, in Japanese
            m_window->setupPanel()->setConfig(c);
        },
        1000);
    add(
        QStringLiteral("grab setup-invalid-ja"), always,
        [this, base] {
            grab(QStringLiteral("setup-invalid-ja"));
            m_window->setupPanel()->setConfig(base());
            m_window->showPage(MainWindow::DoctorPage); // the stale-store findings, re-rendered in Japanese
        },
        1000);
    auto okOut = std::make_shared<QString>();
    add(
        QStringLiteral("grab doctor-ja"), always,
        [this, base, okOut] {
            grab(QStringLiteral("doctor-ja"));
            launch::RunConfig c =
                base(); // a run of its own in Japanese (the Run page still shows the sweep's last size)
            c.training.steps = 150;
            *okOut = c.outDir;
            m_window->startRun(c);
        },
        1000);
    add(
        QStringLiteral("run finished (ja)"),
        [this, running, okOut] {
            const launch::Supervisor* s = m_window->supervisor();
            return s && s->config().outDir == *okOut && !running();
        },
        [this] { m_window->runPanel()->refreshNow(); }, 120000);
    auto failedOut = std::make_shared<QString>();
    add(
        QStringLiteral("grab run-ja"), always,
        [this, base, tmp, failedOut] {
            grab(QStringLiteral("run-ja"));
            launch::RunConfig c = base(); // a failing run in Japanese: exit texts and the failure summary
            c.workload = QStringLiteral("torchscript");
            c.modelFile = QDir(tmp->path()).filePath(QStringLiteral("broken-model.pt"));
            *failedOut = c.outDir;
            m_window->startRun(c);
        },
        1000);
    add(
        QStringLiteral("failure shown (ja)"),
        [this, running, failedOut] {
            // This run's own failure, not the banner of the earlier one.
            const launch::Supervisor* s = m_window->supervisor();
            return s && s->config().outDir == *failedOut && m_window->runPanel()->failureVisible() &&
                   !running();
        },
        [this] { m_window->runPanel()->refreshNow(); }, 60000);
    add(
        QStringLiteral("grab run-failure-ja"), always,
        [this] {
            grab(QStringLiteral("run-failure-ja"));
            m_window->setLanguage(QStringLiteral("en"));
        },
        500);
}

void ScreenshotTour::add(const QString& what, std::function<bool()> ready, std::function<void()> action,
                         int timeoutMs) {
    m_steps.push_back(Step{what, std::move(ready), std::move(action), timeoutMs});
}

void ScreenshotTour::start() {
    m_index = -1;
    next();
}

void ScreenshotTour::next() {
    ++m_index;
    if (m_index >= m_steps.size()) {
        std::fprintf(stderr, "screenshots: all %d steps done, PNGs in %s\n", int(m_steps.size()),
                     qPrintable(QDir::toNativeSeparators(m_dir)));
        emit finished(0);
        return;
    }
    m_stepStart = QDateTime::currentMSecsSinceEpoch();
    // Let the previous action's layout and paint settle before polling.
    QTimer::singleShot(300, this, &ScreenshotTour::poll);
}

void ScreenshotTour::poll() {
    const Step& s = m_steps[m_index];
    if (s.ready()) {
        std::fprintf(stderr, "screenshots: %s\n", qPrintable(s.what));
        s.action();
        next();
        return;
    }
    if (QDateTime::currentMSecsSinceEpoch() - m_stepStart > s.timeoutMs) {
        std::fprintf(stderr, "screenshots: gave up waiting for '%s' after %d ms\n", qPrintable(s.what),
                     s.timeoutMs);
        emit finished(1);
        return;
    }
    QTimer::singleShot(100, this, &ScreenshotTour::poll);
}

void ScreenshotTour::grab(const QString& name) {
    grabWidget(m_window, name);
}

void ScreenshotTour::grabWidget(QWidget* w, const QString& name) {
    const QString path = QDir(m_dir).filePath(name + QStringLiteral(".png"));
    if (!w->grab().save(path, "PNG"))
        std::fprintf(stderr, "screenshots: could not write %s\n", qPrintable(path));
}

// A FileStore log as c10d writes it (uint32 length + bytes, key then value), left behind by a "crashed" run.
bool ScreenshotTour::writeStaleStore(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return false;
    auto put = [&f](const QByteArray& b) {
        const quint32 n = qToLittleEndian(quint32(b.size()));
        f.write(reinterpret_cast<const char*>(&n), 4);
        f.write(b);
    };
    put("/default_pg/0//cpu//0/rank_0");
    put("1");
    put("/init/");
    put("1");
    f.close();
    const QDateTime old = QDateTime::currentDateTime().addSecs(-3600);
    QFile g(path);
    return g.open(QIODevice::ReadWrite) && g.setFileTime(old, QFileDevice::FileModificationTime);
}

bool ScreenshotTour::exportAppIcon(const QString& path, int size) {
    return icon(IconId::App).pixmap(size, size).save(path, "PNG");
}

} // namespace ddpdesk::ui
