#pragma once

// A scaling sweep: the same configuration run at several sizes (worker counts or GPU sets) one after another,
// compared by throughput, speedup against the ideal line, efficiency, and time to a common target loss.
// Optionally each size also runs once per value of one training setting (--compare precision=fp32,bf16), so
// the effect of that setting shows in the same table; speedup is then measured within each value.

#include "launch/config/run_config.h"
#include "launch/run/machine_load_window.h"
#include "launch/run/warm_workers.h"

#include <QObject>
#include <QPointF>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QVector>

#include <functional>
#include <memory>

namespace ddpdesk::launch {

class Supervisor;

struct SweepSize {
    int nproc = 1;
    QString devices = QStringLiteral("cpu"); // "cpu" or the GPU list of this size
    QString setting, value; // the compared setting (its flag without dashes) and this point's value; or empty

    QString variant() const { return setting.isEmpty() ? QString() : setting + QLatin1Char('=') + value; }
};

struct SweepRow {
    SweepSize size;
    bool ok = false;
    QString status; // the run's summary status
    double samplesPerS = 0;
    double speedup = 0;        // samplesPerS / samplesPerS of the smallest size
    double efficiency = 0;     // speedup / (nproc / smallest nproc)
    double timeToTargetS = -1; // first wall time the mean loss reached the target; -1: never
    double finalLoss = qQNaN();
    double testAccuracy = qQNaN();
    double commWaitShare = qQNaN(); // mean over the ranks that stepped; NaN: none reported one
    qint64 bytesPerStep = 0;    // gradient bytes a rank exchanges per step (halves with --grad-compression)
    QStringList scaling;        // why it would not get faster (diagnose/scaling.h codes)
    QStringList scalingText;    // each one's text and fix
    QString rateBasis, rateWhy; // what its samples/s covers (model/throughput.h), or why it is n/a
    qint64 steps = -1;          // the most steps a rank made; -1: not known
    // What its figures can be trusted for (run/sweep_trust.h): note codes, and the same in words.
    QStringList notes;
    QStringList notesText;
    double wallS = 0;
    QVector<QPointF> lossVsWall; // (seconds since start, mean loss)
    // Other work on this machine while it ran (run/machine_load_window.h): mean busy cores, NaN when unknown.
    double otherCores = qQNaN();
    double machineCores = 0;
};

// "1,2,4" -> sizes on cpu; "0;0,1;0,1,2,3" -> GPU sets. Empty + error on bad text.
QVector<SweepSize> parseNprocList(const QString& text, QString* error);
QVector<SweepSize> parseGpuSets(const QString& text, QString* error);
// "precision=fp32,bf16": every size once per value, grouped by value in the order given. Each value is
// checked against the setting's rule (protocol::assignSetting). Empty + error on bad text.
QVector<SweepSize> compareSetting(const QVector<SweepSize>& sizes, const QString& spec, QString* error);
// base with size's worker count, devices and compared setting applied; its own folder under base.outDir.
RunConfig sweepPointConfig(const RunConfig& base, const SweepSize& size);

// Fills speedup/efficiency/timeToTarget, then each size's notes (sweep_trust.h). targetLoss <= 0 (or NaN):
// the largest final loss among successful sizes, so every size that finished reaches it.
void computeSweepMetrics(QVector<SweepRow>& rows, double targetLoss = 0);
QString sweepCsv(const QVector<SweepRow>& rows); // header: nproc,samples_per_s,speedup,efficiency,
                                                 // time_to_target_s,final_loss,test_accuracy,comm_wait_share,
                                                 // bytes_per_step,variant,scaling,notes
QString
sweepTable(const QVector<SweepRow>& rows); // aligned text table for the terminal, then each size's notes

class SweepRunner : public QObject {
    Q_OBJECT
public:
    // Draws sweep.png (plot::drawSweepPng: QtGui lives there, not in the launcher). Unset: no sweep.png.
    using Plotter = std::function<bool(const QVector<SweepRow>& rows, const QString& path, QString* error)>;
    explicit SweepRunner(Plotter plotter = {}, QObject* parent = nullptr);
    ~SweepRunner() override;

    // Each size runs in <base.outDir>/n<nproc> (or g<list>); sweep.csv and sweep.png go into base.outDir.
    bool start(const RunConfig& base, const QVector<SweepSize>& sizes,
               QVector<ConfigProblem>* problems = nullptr, double targetLoss = 0);
    void stop();
    // Workers for the next size start while the current one runs (launch/warm_workers.h) where they take no
    // CPU from its measured steps: at once on idle cores, else after its last step. Sizes after the first pay
    // less (or no) process start and library load. `pool` is used instead of the sweep's own (the GUI's); not
    // owned. Call before start().
    void setWarmWorkers(WarmWorkers* pool);
    void setWarmWorkersEnabled(bool on) { m_warmEnabled = on; } // off: every size starts its workers cold
    const QVector<SweepRow>& rows() const { return m_rows; }
    Supervisor* current() const { return m_current; } // the run in progress (null between sizes)
    QString csvPath() const;
    QString pngPath() const;

signals:
    void sizeStarted(int index, Supervisor* run);
    void sizeFinished(int index, bool ok);
    void finished(bool allOk); // after sweep.csv and sweep.png are written

private:
    void runNext();
    void onRunFinished(bool ok);
    void prepareNextSize();

    RunConfig m_base;
    QVector<SweepSize> m_sizes;
    QVector<SweepRow> m_rows;
    Supervisor* m_current = nullptr;
    int m_next = 0;
    double m_target = 0;
    bool m_stopped = false;
    Plotter m_plotter;
    QPointer<WarmWorkers> m_warm; // the GUI's, or the sweep's own (a child)
    bool m_nextPrepared = false;
    MachineLoadWindow m_load; // what other work took while the current size ran
    bool m_warmEnabled = true;
};

} // namespace ddpdesk::launch
