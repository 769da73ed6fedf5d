#pragma once

// One launch configuration: everything the `run` command line (and the GUI's form) can say. It is validated
// before anything starts, turned into per-rank worker flags + environment, and saved/loaded as a JSON
// profile.

#include "protocol/worker_settings.h"

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QVector>

namespace ddpdesk::launch {

// A reason the configuration cannot start; `field` is the command-line flag without dashes ("nproc", "store",
// "out", ...) so the GUI can highlight the matching widget.
struct ConfigProblem {
    QString field;
    QString message;
    bool operator==(const ConfigProblem& o) const { return field == o.field && message == o.message; }
};

struct RunConfig {
    // What runs: the built-in worker with a workload, or the user's own script.
    QString workload = QStringLiteral("autoencoder"); // autoencoder|fashion-mnist|torchscript
    QString modelFile;                                // --model (torchscript workload)
    QString dataDir;                                  // --data; empty: worker default
    QString scriptFile;                               // --script; non-empty selects script mode
    QStringList scriptArgs;                           // after `--`
    QString python;    // --python; empty: /usr/bin/python3 for *.py (python on Windows)
    QString lossRegex; // --loss-regex; empty: defaultLossRegex()
    // --workdir: where script ranks run (torchrun's way); empty: the folder the run started in.
    QString workDir;
    // --use-local-rank-arg: append --local-rank=N (scripts written for torch.distributed.launch).
    bool useLocalRankArg = false;
    // Script runs: report steps, loss and samples through the instrumentation module (script_instrument.h);
    // --no-instrument turns it off.
    bool instrument = true;
    // OUT/tensorboard/: the run's scalars for TensorBoard, written by the launcher (tensorboard_log.h), for
    // built-in and script runs alike; --no-tensorboard turns it off. A launcher option, no worker flag.
    bool tensorboard = true;

    // Where it runs.
    int nproc = 1; // local workers on this node
    QString devices =
        QStringLiteral("cpu"); // "cpu" or a GPU list "0,1"; with GPUs nproc defaults to their count
    int nnodes = 1;
    int nodeRank = 0;
    QString store; // "file:PATH" | "tcp://HOST:PORT"; empty: file:<out>/store/filestore
    QString iface; // --iface: Gloo network interface (GLOO_SOCKET_IFNAME)
    // Multi-node: the other nodes' launchers forward their ranks' events to node 0's (node_link_feed.h);
    // --no-node-link: each node shows only its own ranks, and nothing is hosted or written beside the store.
    bool nodeLink = true;
    QString runSecret; // hex (--run-secret / --run-secret-file); never saved in profiles

    // How it trains: the settings every rank gets unchanged, each declared once in protocol/worker_settings.h
    // (unset: the worker's default, not passed on).
    protocol::WorkerSettings training;
    int maxRestarts = 0;
    int timeoutSec = 60;        // worker's --timeout
    int stallTimeoutSec = 120;  // no progress for this long while others wait -> stall report + doctor
    int stragglerAfterSec = 30; // a rank this long kSlowRatio slower than the fastest -> STRAGGLER (0: off)
    QString outDir;             // --out (required)

    bool isScript() const { return !scriptFile.isEmpty(); }
    QString effectiveWorkDir() const; // script ranks' working folder: workDir, or the current folder
    QStringList scriptArguments(int localRank) const; // scriptArgs, after --local-rank=N with useLocalRankArg
    bool usesGpus() const;                            // devices is a GPU list
    QVector<int> gpuList() const;                     // parsed devices; empty for "cpu" or when malformed
    QStringList deviceList() const; // devices as CUDA_VISIBLE_DEVICES entries (indices or GPU-/MIG- UUIDs,
                                    // trimmed); empty for "cpu" or when any entry is malformed
    int localWorldSize() const;     // nproc
    int worldSize() const;          // nproc * nnodes
    int globalRank(int localRank) const; // nodeRank * nproc + localRank
    QString effectiveStore() const;      // store, or the default FileStore inside outDir
    // Ranks run in outDir (or a script's working folder), so a relative --out, store file, data folder,
    // model, script, working folder or interpreter path handed on as given would point elsewhere there:
    // these, made absolute against the current folder (a bare interpreter name stays a PATH lookup).
    RunConfig withAbsolutePaths() const;
    bool storeIsTcp() const;
    QString storeHost() const;     // tcp host; "127.0.0.1" for a file store
    int storePort() const;         // tcp port; 0 for a file store
    QString storeFilePath() const; // the FileStore file (file:// URLs resolved); empty for tcp
    int threadsPerWorker() const;  // training.threads, or cores / nproc (at least 1)
    QString interpreter() const;   // the program that runs scriptFile (empty: run it directly)
    QString effectiveLossRegex() const;

    // All problems, empty when the configuration can start: validateValues() plus the environment this
    // machine must provide (out dir writable - it is created -, model/script/data present, FileStore folder
    // creatable, no stale FileStore file on a single node).
    QVector<ConfigProblem> validate() const;
    // A node above 0 of a multi-node run without node 0's secret (runSecret empty, $DDPDESK_RUN_SECRET
    // unset): its ranks would be refused as FOREIGN_RANK, so it must not start. Empty when fine.
    QVector<ConfigProblem> missingRunSecret() const;
    // Only the values (ranges, formats, combinations); touches no file. For `command` and live form feedback.
    QVector<ConfigProblem> validateValues() const;
    static QString problemsText(const QVector<ConfigProblem>& problems); // "--flag: message" lines

    // Arguments for ddpdesk-worker for one local rank (the rank identity is passed both as flags and env).
    QStringList workerArgs(int localRank) const;
    // torchrun-compatible environment for one local rank (RANK, LOCAL_RANK, WORLD_SIZE, LOCAL_WORLD_SIZE,
    // GROUP_RANK, MASTER_ADDR, MASTER_PORT, CUDA_VISIBLE_DEVICES, OMP_NUM_THREADS, GLOO_SOCKET_IFNAME,
    // DDPDESK_STORE). masterPortOverride: used for script mode with a file store (scripts need env://).
    QMap<QString, QString> rankEnvironment(int localRank, int masterPortOverride = 0) const;

    QJsonObject toJson() const;
    static RunConfig fromJson(const QJsonObject& json); // unknown keys ignored, missing keys keep defaults
    bool saveProfile(const QString& path, QString* error) const;
    static bool loadProfile(const QString& path, RunConfig* out, QString* error);

    static QString defaultLossRegex();
    static QStringList workloads(); // autoencoder, fashion-mnist, torchscript

private:
    // validateValues() by topic, each appending to *problems; called in this order, which is the order the
    // problems are reported in.
    void addWorkloadValueProblems(QVector<ConfigProblem>* problems) const; // workload, model, loss regex
    void addWorldValueProblems(QVector<ConfigProblem>* problems) const;    // nproc, devices, nodes
    void addStoreValueProblems(QVector<ConfigProblem>* problems) const;    // the rendezvous store
    void addTrainingValueProblems(QVector<ConfigProblem>* problems) const; // numbers, restarts, timeouts
};

} // namespace ddpdesk::launch
