#include "launch/run/sweep.h"
#include "os/plain_file.h"

#include <filesystem>

#include <QCoreApplication>

#include "launch/config/output_paths.h"
#include "launch/run/run_folder.h"
#include "launch/run/supervisor.h"
#include "launch/run/sweep_trust.h"
#include "os/utf8_path.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QLocale>
#include <QRegularExpression>
#include <QThread>

#include <cmath>

namespace ddpdesk::launch {

QVector<SweepSize> parseNprocList(const QString& text, QString* error) {
    QVector<SweepSize> sizes;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int n = part.trimmed().toInt(&ok);
        if (!ok || n < 1) {
            if (error)
                *error = QCoreApplication::translate(
                             "ddpdesk::launch::SweepRunner",
                             "--nproc-list: '%1' is not a worker count; use a list like 1,2,4")
                             .arg(part);
            return {};
        }
        SweepSize size;
        size.nproc = n;
        sizes.push_back(size);
    }
    if (sizes.isEmpty() && error)
        *error = QCoreApplication::translate("ddpdesk::launch::SweepRunner",
                                             "--nproc-list: empty; use a list like 1,2,4");
    return sizes;
}

QVector<SweepSize> parseGpuSets(const QString& text, QString* error) {
    QVector<SweepSize> sizes;
    for (const QString& set : text.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        QStringList ids;
        for (const QString& part : set.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            bool ok = false;
            const int id = part.trimmed().toInt(&ok);
            if (!ok || id < 0) {
                if (error)
                    *error = QCoreApplication::translate(
                                 "ddpdesk::launch::SweepRunner",
                                 "--gpu-sets: '%1' is not a GPU index; use sets like 0;0,1;0,1,2,3")
                                 .arg(part);
                return {};
            }
            ids << QString::number(id);
        }
        if (ids.isEmpty()) continue;
        SweepSize size;
        size.nproc = int(ids.size());
        size.devices = ids.join(QLatin1Char(','));
        sizes.push_back(size);
    }
    if (sizes.isEmpty() && error)
        *error = QCoreApplication::translate("ddpdesk::launch::SweepRunner",
                                             "--gpu-sets: empty; use sets like 0;0,1;0,1,2,3");
    return sizes;
}

QVector<SweepSize> compareSetting(const QVector<SweepSize>& sizes, const QString& spec, QString* error) {
    auto fail = [error](const QString& why) {
        if (error) *error = why;
        return QVector<SweepSize>();
    };
    const int eq = spec.indexOf(QLatin1Char('='));
    const QString name = spec.left(eq).trimmed().remove(QRegularExpression(QStringLiteral("^-+")));
    const QStringList values = spec.mid(eq + 1).split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (eq <= 0 || name.isEmpty() || values.size() < 2)
        return fail(QCoreApplication::translate("ddpdesk::launch::SweepRunner",
                                                "--compare: '%1' is not SETTING=VALUE,VALUE; use e.g. "
                                                "precision=fp32,bf16 or grad-compression=none,fp16")
                        .arg(spec));
    QVector<SweepSize> out;
    QStringList seen;
    for (const QString& raw : values) {
        const QString value = raw.trimmed();
        if (seen.contains(value))
            return fail(QCoreApplication::translate("ddpdesk::launch::SweepRunner",
                                                    "--compare: '%1' is given twice; each value runs once")
                            .arg(value));
        seen << value;
        protocol::WorkerSettings probe;
        const std::string why = protocol::assignSetting(probe, name.toStdString(), value.toStdString());
        if (!why.empty()) return fail(QStringLiteral("--compare: ") + QString::fromStdString(why));
        for (SweepSize s : sizes) {
            s.setting = name;
            s.value = value;
            out.push_back(s);
        }
    }
    return out;
}

void computeSweepMetrics(QVector<SweepRow>& rows, double targetLoss) {
    // Speedup against the smallest size of the same compared value.
    QHash<QString, const SweepRow*> bases;
    for (const SweepRow& r : rows) {
        const SweepRow*& base = bases[r.size.variant()];
        if (r.ok && r.samplesPerS > 0 && (!base || r.size.nproc < base->size.nproc)) base = &r;
    }
    double target = targetLoss;
    if (!(target > 0)) {
        target = qQNaN();
        for (const SweepRow& r : rows)
            if (r.ok && std::isfinite(r.finalLoss))
                target = std::isnan(target) ? r.finalLoss : qMax(target, r.finalLoss);
    }
    for (SweepRow& r : rows) {
        const SweepRow* base = bases.value(r.size.variant());
        if (base && r.samplesPerS > 0) {
            r.speedup = r.samplesPerS / base->samplesPerS;
            r.efficiency = r.speedup / (double(r.size.nproc) / double(base->size.nproc));
        }
        r.timeToTargetS = -1;
        if (std::isfinite(target))
            for (const QPointF& p : r.lossVsWall)
                if (p.y() <= target) {
                    r.timeToTargetS = p.x();
                    break;
                }
    }
    judgeSweepRows(rows);
}

namespace {
QString cell(double v, int prec = 4) {
    return std::isfinite(v) ? QString::number(v, 'g', prec + 2) : QString();
}
} // namespace

QString sweepCsv(const QVector<SweepRow>& rows) {
    QString out = QStringLiteral(
        "nproc,samples_per_s,speedup,efficiency,time_to_target_s,final_loss,test_accuracy,comm_wait_share,"
        "bytes_per_step,variant,scaling,notes\n");
    for (const SweepRow& r : rows) {
        out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12\n")
                   .arg(r.size.nproc)
                   .arg(cell(r.samplesPerS), cell(r.speedup), cell(r.efficiency),
                        r.timeToTargetS >= 0 ? cell(r.timeToTargetS) : QString(), cell(r.finalLoss),
                        cell(r.testAccuracy), cell(r.commWaitShare))
                   .arg(r.bytesPerStep)
                   .arg(r.size.variant(), r.scaling.join(QLatin1Char(';')), r.notes.join(QLatin1Char(';')));
    }
    return out;
}

QString sweepTable(const QVector<SweepRow>& rows) {
    auto f = [](double v, int prec) {
        return std::isfinite(v) ? QString::number(v, 'f', prec) : QStringLiteral("-");
    };
    QString out = QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9  %10\n")
                      .arg("nproc", 5)
                      .arg("samples/s", 10)
                      .arg("speedup", 8)
                      .arg("effic.", 7)
                      .arg("t_target", 9)
                      .arg("loss", 9)
                      .arg("test_acc", 8)
                      .arg("comm", 6)
                      .arg("grad/step", 10)
                      .arg("status");
    for (const SweepRow& r : rows) {
        out += QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9  %10\n")
                   .arg(r.size.nproc, 5)
                   .arg(f(r.samplesPerS, 1), 10)
                   .arg(f(r.speedup, 2), 8)
                   .arg(f(r.efficiency, 2), 7)
                   .arg(r.timeToTargetS >= 0 ? f(r.timeToTargetS, 1) : "-", 9)
                   .arg(f(r.finalLoss, 4), 9)
                   .arg(f(r.testAccuracy, 3), 8)
                   .arg(f(r.commWaitShare, 2), 6)
                   .arg(r.bytesPerStep > 0 ? QLocale::c().formattedDataSize(r.bytesPerStep) : "-", 10)
                   .arg(r.size.setting.isEmpty() ? r.status : r.size.variant() + QLatin1Char(' ') + r.status);
    }
    // What a size's figures can be trusted for (sweep_trust.h), under the table, each with its size.
    for (const SweepRow& r : rows)
        for (const QString& text : r.notesText)
            out += QStringLiteral("size %1%2: %3\n")
                       .arg(r.size.nproc)
                       .arg(r.size.setting.isEmpty() ? QString() : QLatin1Char(' ') + r.size.variant(), text);
    return out;
}

SweepRunner::SweepRunner(Plotter plotter, QObject* parent) : QObject(parent), m_plotter(std::move(plotter)) {}
SweepRunner::~SweepRunner() = default;

QString SweepRunner::csvPath() const {
    return QDir(m_base.outDir).filePath(QStringLiteral("sweep.csv"));
}
QString SweepRunner::pngPath() const {
    return QDir(m_base.outDir).filePath(QStringLiteral("sweep.png"));
}

static QString sizeDirName(const SweepSize& s) {
    const QString size = s.devices == QLatin1String("cpu")
                             ? QStringLiteral("n%1").arg(s.nproc)
                             : QStringLiteral("gpus-%1").arg(QString(s.devices).replace(',', '-'));
    if (s.setting.isEmpty()) return size;
    // Only what is safe in a folder name on every system.
    const QString value =
        QString(s.value).replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
    return size + QLatin1Char('-') + s.setting + QLatin1Char('-') + value;
}

RunConfig sweepPointConfig(const RunConfig& base, const SweepSize& size) {
    RunConfig c = base;
    c.nproc = size.nproc;
    c.devices = size.devices;
    c.outDir = QDir(base.outDir).filePath(sizeDirName(size));
    if (!size.setting.isEmpty())
        protocol::assignSetting(c.training, size.setting.toStdString(), size.value.toStdString());
    return c;
}

bool SweepRunner::start(const RunConfig& base, const QVector<SweepSize>& sizes,
                        QVector<ConfigProblem>* problems, double targetLoss) {
    QVector<ConfigProblem> found;
    if (sizes.isEmpty())
        found.push_back({QStringLiteral("nproc-list"), tr("no sizes to run; use --nproc-list 1,2,4")});
    // The sweep only adds folders and files under --out and removes none; what it rewrites must be its own
    // files.
    for (const QString& name : {QStringLiteral("sweep.csv"), QStringLiteral("sweep.png")}) {
        const QString why = foreignOutputProblem(QDir(base.outDir).filePath(name));
        if (!why.isEmpty()) found.push_back({QStringLiteral("out"), why});
    }
    // A script gets none of the worker's training settings but the thread count: its points would all be the
    // same run under different names.
    const bool sameRunTwice = base.isScript() && !sizes.isEmpty() && !sizes.front().setting.isEmpty() &&
                              sizes.front().setting != QLatin1String("threads");
    if (sameRunTwice)
        found.push_back({QStringLiteral("compare"),
                         tr("%1: a script run does not take the worker's training settings (only threads); "
                            "compare them on a built-in workload")
                             .arg(sizes.front().setting)});
    // Check every size up front, so a bad one is refused before the first run spends minutes (checking makes
    // no folder: each size's folder is made when its run starts).
    for (const SweepSize& s : sameRunTwice ? QVector<SweepSize>() : sizes) {
        const RunConfig c = sweepPointConfig(base, s);
        // The sweep names these folders itself: a link there would send a run's files into someone else's
        // folder.
        const QFileInfo sizeDir(c.outDir);
        if (sizeDir.isSymLink() || sizeDir.isJunction()) {
            found.push_back(
                {QStringLiteral("out"),
                 tr("'%1' is a link; the sweep keeps each size's run in a plain folder of its own and "
                    "never writes through a link: move it away or choose another --out")
                     .arg(c.outDir)});
            continue;
        }
        for (const ConfigProblem& p : c.validate())
            if (!found.contains(p)) found.push_back(p);
    }
    if (problems) *problems = found;
    if (!found.isEmpty()) return false;
    m_base = base;
    m_sizes = sizes;
    m_rows.clear();
    m_next = 0;
    m_target = targetLoss;
    m_stopped = false;
    if (!m_warmEnabled)
        m_warm = nullptr;
    else if (!m_warm && !base.isScript())
        m_warm = new WarmWorkers(this);
    QMetaObject::invokeMethod(this, &SweepRunner::runNext, Qt::QueuedConnection);
    return true;
}

void SweepRunner::stop() {
    m_stopped = true;
    if (m_current) m_current->stop(tr("sweep stopped by the user"));
}

void SweepRunner::runNext() {
    if (m_stopped || m_next >= m_sizes.size()) {
        computeSweepMetrics(m_rows, m_target);
        bool allOk = !m_stopped && m_rows.size() == m_sizes.size();
        for (const SweepRow& r : m_rows)
            allOk = allOk && r.ok;
        // Listed in the folder's mark first, so the next sweep into this folder may replace them.
        QString why;
        const bool marked =
            QDir().mkpath(m_base.outDir) &&
            RunFolder::mark(m_base.outDir, {QStringLiteral("sweep.csv"), QStringLiteral("sweep.png")}, &why);
        std::string csvWhy; // a file of its own renamed over sweep.csv: a link there is never written through
        if (!marked || !os::replaceFileContent(os::pathFromUtf8(csvPath().toStdString()),
                                               sweepCsv(m_rows).toUtf8().toStdString(), &csvWhy))
            allOk = false;
        if (marked && m_plotter && !m_plotter(m_rows, pngPath(), &why)) allOk = false;
        emit finished(allOk);
        return;
    }
    const SweepSize size = m_sizes[m_next];
    const RunConfig c = sweepPointConfig(m_base, size);
    m_current = new Supervisor(this);
    m_current->setWarmWorkers(m_warm);
    connect(m_current, &Supervisor::finished, this, &SweepRunner::onRunFinished);
    emit sizeStarted(m_next, m_current);
    QVector<ConfigProblem> problems;
    m_load.start(m_warm ? m_warm->pids() : QList<qint64>());
    if (m_current->start(c, &problems)) {
        // The next size's workers load LibTorch where that takes no CPU from this size's measured steps: at
        // once when this size leaves enough cores idle, else once every rank has taken its last step (beside
        // the final evaluation, model save and exit).
        m_nextPrepared = false;
        const int idle = QThread::idealThreadCount() - c.nproc * c.threadsPerWorker();
        if (m_next + 1 < m_sizes.size() && idle >= sweepPointConfig(m_base, m_sizes[m_next + 1]).nproc)
            prepareNextSize();
        connect(m_current->model(), &RunModel::progressChanged, this, [this, run = m_current] {
            if (run == m_current && !m_nextPrepared && run->model()->progress() >= 1.0) prepareNextSize();
        });
    } else {
        SweepRow row;
        row.size = size;
        row.status = RunConfig::problemsText(problems);
        m_rows.push_back(row);
        m_current->deleteLater();
        m_current = nullptr;
        emit sizeFinished(m_next++, false);
        QMetaObject::invokeMethod(this, &SweepRunner::runNext, Qt::QueuedConnection);
    }
}

void SweepRunner::prepareNextSize() {
    m_nextPrepared = true;
    if (!m_warm || m_next + 1 >= m_sizes.size()) return;
    const RunConfig next = sweepPointConfig(m_base, m_sizes[m_next + 1]);
    QString why;
    const QString worker = Supervisor::findWorker(&why);
    if (!next.isScript() && !worker.isEmpty()) m_warm->fill(worker, next.nproc);
}

void SweepRunner::setWarmWorkers(WarmWorkers* pool) {
    m_warm = pool;
}

void SweepRunner::onRunFinished(bool ok) {
    Supervisor* run = m_current;
    const RunModel* model = run->model();
    const RunSummary s = model->summary();
    SweepRow row;
    row.size = m_sizes[m_next];
    row.ok = ok;
    row.status = s.status;
    row.samplesPerS = s.samplesPerS;
    row.finalLoss = s.finalLoss;
    row.testAccuracy = s.testAccuracy;
    row.wallS = s.wallS;
    row.rateBasis = s.samplesPerSBasis;
    row.rateWhy = s.samplesPerSWhy;
    row.steps = s.steps;
    const MachineLoadWindow::Result load = m_load.finish(m_warm ? m_warm->pids() : QList<qint64>());
    row.otherCores = load.otherCores;
    row.machineCores = load.cores;
    double comm = 0;
    int stepped =
        0; // a rank that never stepped or reported no wait measured none: left out, not counted as 0
    for (const RankStatus& r : model->ranks()) {
        if (r.step > 0 && r.commReported) {
            comm += r.commWaitShare;
            ++stepped;
        }
        row.bytesPerStep = qMax(row.bytesPerStep, r.bytesPerStep);
    }
    row.commWaitShare = stepped ? comm / stepped : qQNaN();
    for (const ScalingCause& c : s.scaling) {
        row.scaling << c.code;
        row.scalingText << QStringLiteral("%1: %2. %3").arg(c.code, c.text, c.fix);
    }
    row.lossVsWall = model->globalLossSeries();
    m_rows.push_back(row);
    m_current = nullptr;
    run->deleteLater();
    emit sizeFinished(m_next++, ok);
    QMetaObject::invokeMethod(this, &SweepRunner::runNext, Qt::QueuedConnection);
}

} // namespace ddpdesk::launch
