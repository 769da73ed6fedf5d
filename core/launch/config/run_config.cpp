#include "launch/config/run_config.h"

#include "launch/config/output_paths.h"
#include "os/platform.h"
#include "os/private_file.h"
#include "os/utf8_path.h"
#include "protocol/run_auth.h"
#include "protocol/store_spec.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryFile>
#include <QThread>
#include <QUrl>

namespace ddpdesk::launch {

namespace {

constexpr int kMaxLocalWorkers = 256;

QString nonEmpty(const QString& s, const QString& fallback) {
    return s.isEmpty() ? fallback : s;
}

// The shared store-string parser (protocol/store_spec.h), so the launcher reads a store as the worker will.
// Returns false when the store is not tcp://; port -1 when missing or not a number in 0..65535.
bool splitTcp(const QString& store, QString* host, int* port) {
    const protocol::StoreSpec spec = protocol::parseStoreSpec(store.toStdString());
    if (!store.startsWith(QLatin1String("tcp://"))) return false;
    *host = QString::fromStdString(spec.host);
    *port = spec.kind == protocol::StoreSpec::Kind::Tcp ? spec.port : -1;
    return true;
}

// The worker settings' own checks (protocol/worker_settings.h), in the user's language: one sentence per
// rule, so a new setting needs no new translation.
QVector<ConfigProblem> trainingProblems(const protocol::WorkerSettings& s) {
    QVector<ConfigProblem> p;
    for (const protocol::SettingProblem& sp : protocol::settingProblems(s)) {
        const QString value = QString::fromStdString(sp.value);
        QString message;
        if (!sp.other.empty())
            message =
                QCoreApplication::translate("ddpdesk::launch::RunConfig", "give either %1 or %2, not both")
                    .arg(QString::fromStdString(sp.other), QString::fromLatin1(sp.info.flag));
        else if (sp.rule == protocol::SettingRule::AtLeastOne)
            message = QCoreApplication::translate("ddpdesk::launch::RunConfig", "must be at least 1 (got %1)")
                          .arg(value);
        else if (sp.rule == protocol::SettingRule::ZeroOrMore)
            message = QCoreApplication::translate("ddpdesk::launch::RunConfig", "must be 0 or more (got %1)")
                          .arg(value);
        else if (sp.rule == protocol::SettingRule::Positive)
            message = QCoreApplication::translate("ddpdesk::launch::RunConfig",
                                                  "must be a positive number (got %1)")
                          .arg(value);
        else if (sp.rule == protocol::SettingRule::AtMost)
            message =
                QCoreApplication::translate("ddpdesk::launch::RunConfig", "must be at most %1: %2 (got %3)")
                    .arg(QString::fromStdString(protocol::formatNumber(sp.info.max)),
                         QString::fromLatin1(sp.info.maxWhy), value);
        else
            message = QCoreApplication::translate("ddpdesk::launch::RunConfig", "'%1' is not valid; use %2")
                          .arg(value, QString::fromStdString(sp.info.choicesText()));
        p.push_back({QString::fromStdString(sp.info.field()), message});
    }
    return p;
}

// Proves the folder can be made and written, making nothing: the folder itself, or else its nearest existing
// parent, must take a new file (a probe that is gone again at once). The run makes the folder when it starts
// (run_folder.h); the GUI checks a configuration on every edit.
QString writableDirProblem(const QString& dir) {
    QString existing = QDir::cleanPath(QDir(dir).absolutePath());
    while (!QFileInfo::exists(existing) && QFileInfo(existing).path() != existing)
        existing = QFileInfo(existing).path();
    if (!QFileInfo(existing).isDir())
        return QCoreApplication::translate("ddpdesk::launch::RunConfig",
                                           "cannot create folder '%1' ('%2' is not a folder)")
            .arg(dir, existing);
    QTemporaryFile probe(QDir(existing).filePath(QStringLiteral(".ddpdesk-write-test-XXXXXX")));
    if (!probe.open())
        return QCoreApplication::translate("ddpdesk::launch::RunConfig", "folder '%1' is not writable: %2")
            .arg(existing, probe.errorString());
    return QString();
}

// The store host ends up on command lines, in environment variables and in exported cluster scripts, so only
// well-formed values pass: an RFC 1123 host name, a dotted IPv4 address or a bracketed IPv6 address (the GPU
// list is checked by deviceList()). Anything else is a typo or an injection attempt.
QVector<ConfigProblem> hostProblems(const RunConfig& c) {
    QVector<ConfigProblem> p;
    const QString st = c.effectiveStore();
    const protocol::StoreSpec spec = protocol::parseStoreSpec(st.toStdString());
    const QString host = QString::fromStdString(spec.host);
    if (st.startsWith(QLatin1String("tcp://")) && !host.isEmpty()) {
        static const QRegularExpression ipv4(QStringLiteral("^\\d{1,3}(\\.\\d{1,3}){3}\\z"));
        static const QRegularExpression name(
            QStringLiteral("^(?=.{1,253}\\z)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:"
                           "[A-Za-z0-9-]{0,61}"
                           "[A-Za-z0-9])?)*\\z"));
        QString why;
        if (st.startsWith(QLatin1String("tcp://["))) {
            if (!protocol::isIpv6Literal(spec.host))
                why = QCoreApplication::translate("ddpdesk::launch::RunConfig",
                                                  "'%1' in brackets is not an IPv6 address");
        } else if (ipv4.match(host).hasMatch()) {
            for (const QString& part : host.split(QLatin1Char('.')))
                if (part.toInt() > 255)
                    why = QCoreApplication::translate("ddpdesk::launch::RunConfig",
                                                      "'%1' is not an IPv4 address (each number is 0..255)");
        } else if (host.contains(QLatin1Char(':'))) {
            why = QCoreApplication::translate("ddpdesk::launch::RunConfig",
                                              "'%1' looks like an IPv6 address; write it in brackets: "
                                              "tcp://[ADDRESS]:PORT");
        } else if (!name.match(host).hasMatch()) {
            why = QCoreApplication::translate("ddpdesk::launch::RunConfig",
                                              "'%1' is not a valid host name (letters, digits, '-' and '.' "
                                              "only, e.g. node0 or node0.cluster.local)");
        }
        if (!why.isEmpty()) p.push_back({QStringLiteral("store"), why.arg(host)});
    }
    return p;
}

} // namespace

QString RunConfig::defaultLossRegex() {
    // loss: 0.123 | loss=0.123 | "Epoch 3 : 0.45" (the seed script's format). Group 1 is the number.
    return QStringLiteral("(?:\\bloss\\s*[:=]\\s*|\\bEpoch\\s+\\d+\\s*:\\s*)"
                          "([-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?|nan|inf)");
}

QStringList RunConfig::workloads() {
    return {QStringLiteral("autoencoder"), QStringLiteral("fashion-mnist"), QStringLiteral("torchscript")};
}

bool RunConfig::usesGpus() const {
    const QString d = devices.trimmed().toLower();
    return !d.isEmpty() && d != QLatin1String("cpu");
}

QVector<int> RunConfig::gpuList() const {
    QVector<int> ids;
    if (!usesGpus()) return ids;
    for (const QString& part : devices.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int id = part.trimmed().toInt(&ok);
        if (!ok || id < 0) return {};
        ids.push_back(id);
    }
    return ids;
}

QStringList RunConfig::deviceList() const {
    // A GPU index, or a UUID as nvidia-smi -L prints it (GPU-..., MIG-...): both are what
    // CUDA_VISIBLE_DEVICES takes, and nothing else may reach that variable, a command line or an exported
    // script.
    static const QRegularExpression entry(
        QStringLiteral("^(?:\\d{1,4}|(?:GPU|MIG)-[0-9A-Fa-f]{8}(?:-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12})\\z"));
    QStringList ids;
    if (!usesGpus()) return ids;
    for (const QString& part : devices.split(QLatin1Char(','))) {
        const QString id = part.trimmed();
        if (!entry.match(id).hasMatch()) return {};
        ids << id;
    }
    return ids;
}

int RunConfig::localWorldSize() const {
    return nproc;
}
int RunConfig::worldSize() const {
    return nproc * nnodes;
}
int RunConfig::globalRank(int localRank) const {
    return nodeRank * nproc + localRank;
}

RunConfig RunConfig::withAbsolutePaths() const {
    RunConfig c = *this;
    auto absolute = [](QString& path) {
        if (!path.isEmpty() && QFileInfo(path).isRelative()) path = QFileInfo(path).absoluteFilePath();
    };
    absolute(c.outDir);
    absolute(c.dataDir);
    absolute(c.modelFile);
    absolute(c.scriptFile);
    absolute(c.workDir);
    // "python3" is looked up in PATH; "venv/bin/python" is a path.
    if (c.python.contains(QLatin1Char('/')) || c.python.contains(QLatin1Char('\\'))) absolute(c.python);
    if (c.store.startsWith(QLatin1String("file:"))) {
        QString file = c.store.mid(5);
        absolute(file);
        c.store = QStringLiteral("file:") + file;
    }
    return c;
}

QString RunConfig::effectiveStore() const {
    if (!store.isEmpty()) return store;
    return QStringLiteral("file:") + QDir(outDir).filePath(QStringLiteral("store/filestore"));
}

bool RunConfig::storeIsTcp() const {
    return effectiveStore().startsWith(QLatin1String("tcp://"));
}

QString RunConfig::storeHost() const {
    QString host;
    int port = 0;
    return splitTcp(effectiveStore(), &host, &port) ? host : QStringLiteral("127.0.0.1");
}

int RunConfig::storePort() const {
    QString host;
    int port = 0;
    return splitTcp(effectiveStore(), &host, &port) ? port : 0;
}

QString RunConfig::storeFilePath() const {
    const protocol::StoreSpec spec = protocol::parseStoreSpec(effectiveStore().toStdString());
    return spec.kind == protocol::StoreSpec::Kind::File ? QString::fromStdString(os::utf8(spec.path))
                                                        : QString();
}

int RunConfig::threadsPerWorker() const {
    if (training.threads) return *training.threads;
    const int cores = qMax(1, QThread::idealThreadCount());
    return qMax(1, cores / qMax(1, nproc));
}

QString RunConfig::interpreter() const {
    if (!python.isEmpty()) return python;
    if (scriptFile.endsWith(QLatin1String(".py"), Qt::CaseInsensitive))
        return QString::fromStdString(os::defaultPythonCommand());
    return QString();
}

QVector<ConfigProblem> RunConfig::missingRunSecret() const {
    if (nnodes <= 1 || nodeRank <= 0 || !runSecret.isEmpty() ||
        qEnvironmentVariableIsSet(protocol::kRunSecretEnv))
        return {};
    const QString flags =
        QStringLiteral("%1 HEX or %2 FILE")
            .arg(QLatin1String(protocol::kRunSecretFlag), QLatin1String(protocol::kRunSecretFileFlag));
    return {
        {QStringLiteral("run-secret"),
         QCoreApplication::translate("ddpdesk::launch::Supervisor",
                                     "node %1 of a %2-node run needs node 0's run secret: give %3 (node 0's "
                                     "launcher prints the command for the other nodes)")
             .arg(nodeRank)
             .arg(nnodes)
             .arg(flags)}};
}

QString RunConfig::effectiveWorkDir() const {
    return QDir(workDir.isEmpty() ? QDir::currentPath() : workDir).absolutePath();
}

QStringList RunConfig::scriptArguments(int localRank) const {
    if (!useLocalRankArg) return scriptArgs;
    return QStringList{QStringLiteral("--local-rank=%1").arg(localRank)} + scriptArgs;
}

QString RunConfig::effectiveLossRegex() const {
    return nonEmpty(lossRegex, defaultLossRegex());
}

QVector<ConfigProblem> RunConfig::validate() const {
    QVector<ConfigProblem> p = validateValues();
    auto add = [&p](const char* field, const QString& msg) {
        p.push_back({QString::fromLatin1(field), msg});
    };
    p += missingRunSecret();
    if (isScript()) {
        const QFileInfo fi(scriptFile);
        if (!workDir.isEmpty() && !QFileInfo(workDir).isDir())
            add("workdir",
                QCoreApplication::translate("ddpdesk::launch::RunConfig", "working folder '%1' not found")
                    .arg(workDir));
        if (!fi.isFile())
            add("script", QCoreApplication::translate("ddpdesk::launch::RunConfig", "'%1' is not a file")
                              .arg(scriptFile));
        const QString interp = interpreter();
        if (!python.isEmpty() && QFileInfo(python).isAbsolute() && !QFileInfo(python).isExecutable())
            add("python", QCoreApplication::translate("ddpdesk::launch::RunConfig",
                                                      "'%1' is not an executable interpreter")
                              .arg(python));
        else if (interp.isEmpty() && fi.isFile() && !fi.isExecutable())
            add("script", QCoreApplication::translate(
                              "ddpdesk::launch::RunConfig",
                              "'%1' is not executable; give --python PATH to run it with an interpreter")
                              .arg(scriptFile));
        // A script trains as it is written: the worker's training flags would be accepted and change nothing
        // (the CLI, the GUI, profiles and sweeps all come through here). Only the run's length (the progress
        // bar's total) and the threads (the ranks' OMP_NUM_THREADS) reach a script.
        protocol::WorkerSettings inert = training;
        inert.epochs.reset();
        inert.steps.reset();
        inert.threads.reset();
        for (const std::string& arg : protocol::settingArgs(inert))
            if (arg.rfind("--", 0) == 0)
                add(arg.c_str() + 2,
                    QCoreApplication::translate(
                        "ddpdesk::launch::RunConfig",
                        "does nothing for a --script run: the script trains as it is written "
                        "(change it in the script, or pass it to the script after --)"));
    } else {
        if (workload == QLatin1String("torchscript") && !modelFile.isEmpty() &&
            !QFileInfo(modelFile).isFile())
            add("model",
                QCoreApplication::translate("ddpdesk::launch::RunConfig", "model file '%1' not found")
                    .arg(modelFile));
        if (!dataDir.isEmpty() && !QFileInfo(dataDir).isDir())
            add("data",
                QCoreApplication::translate("ddpdesk::launch::RunConfig", "data folder '%1' not found")
                    .arg(dataDir));
    }
    const QString storeFile = storeFilePath();
    // Folders, links and files DDP Desk did not create at the paths it writes: refused, never replaced or
    // removed.
    const QVector<ConfigProblem> foreign = foreignPathProblems(*this);
    p += foreign;
    if (!outDir.isEmpty()) {
        const QString why = writableDirProblem(outDir);
        if (!why.isEmpty())
            add("out", why);
        else if (!storeFile.isEmpty() && foreign.isEmpty()) {
            const QString w = writableDirProblem(QFileInfo(storeFile).absolutePath());
            if (!w.isEmpty()) add("store", w);
        }
    }
    return p;
}

void RunConfig::addWorkloadValueProblems(QVector<ConfigProblem>* problems) const {
    auto add = [problems](const char* field, const QString& msg) {
        problems->push_back({QString::fromLatin1(field), msg});
    };

    if (isScript()) {
        if (!QRegularExpression(effectiveLossRegex()).isValid())
            add("loss-regex", QCoreApplication::translate("ddpdesk::launch::RunConfig",
                                                          "not a valid regular expression: %1")
                                  .arg(QRegularExpression(effectiveLossRegex()).errorString()));
    } else {
        if (!workloads().contains(workload))
            add("workload",
                QCoreApplication::translate("ddpdesk::launch::RunConfig", "unknown workload '%1'; valid: %2")
                    .arg(workload, workloads().join(", ")));
        if (workload == QLatin1String("torchscript") && modelFile.isEmpty())
            add("model", QCoreApplication::translate("ddpdesk::launch::RunConfig",
                                                     "the torchscript workload needs --model FILE"));
    }
}

void RunConfig::addWorldValueProblems(QVector<ConfigProblem>* problems) const {
    auto add = [problems](const char* field, const QString& msg) {
        problems->push_back({QString::fromLatin1(field), msg});
    };

    if (nproc < 1 || nproc > kMaxLocalWorkers)
        add("nproc",
            QCoreApplication::translate("ddpdesk::launch::RunConfig", "%1 workers is not valid; use 1..%2")
                .arg(nproc)
                .arg(kMaxLocalWorkers));
    if (usesGpus()) {
        const QStringList gpus = deviceList();
        if (gpus.isEmpty())
            add("devices",
                QCoreApplication::translate("ddpdesk::launch::RunConfig",
                                            "'%1' is neither 'cpu' nor a GPU list: use GPU indices "
                                            "like 0,1 or UUIDs like GPU-xxxxxxxx-xxxx-... "
                                            "separated by commas")
                    .arg(devices));
        else if (gpus.size() != nproc)
            add("nproc", QCoreApplication::translate(
                             "ddpdesk::launch::RunConfig",
                             "--nproc %1 does not match the %2 GPU(s) in --devices %3 (one worker per GPU)")
                             .arg(nproc)
                             .arg(gpus.size())
                             .arg(devices));
    }
    if (nnodes < 1)
        add("nnodes",
            QCoreApplication::translate("ddpdesk::launch::RunConfig", "%1 nodes is not valid; use 1 or more")
                .arg(nnodes));
    if (nnodes >= 1 && (nodeRank < 0 || nodeRank >= nnodes))
        add("node-rank", QCoreApplication::translate(
                             "ddpdesk::launch::RunConfig",
                             "node rank %1 is out of range: with --nnodes %2 valid node ranks are 0..%3 "
                             "(its ranks would not be below world size %4)")
                             .arg(nodeRank)
                             .arg(nnodes)
                             .arg(nnodes - 1)
                             .arg(worldSize()));
}

void RunConfig::addStoreValueProblems(QVector<ConfigProblem>* problems) const {
    auto add = [problems](const char* field, const QString& msg) {
        problems->push_back({QString::fromLatin1(field), msg});
    };

    const QString st = effectiveStore();
    QString host;
    int port = 0;
    if (splitTcp(st, &host, &port)) {
        if (host.isEmpty())
            add("store", QCoreApplication::translate("ddpdesk::launch::RunConfig",
                                                     "'%1' has no host; use tcp://HOST:PORT")
                             .arg(st));
        if (port < 1 || port > 65535)
            add("store",
                QCoreApplication::translate("ddpdesk::launch::RunConfig", "port in '%1' must be 1..65535")
                    .arg(st));
    } else if (st.startsWith(QLatin1String("file:"))) {
        if (storeFilePath().isEmpty())
            add("store", QCoreApplication::translate("ddpdesk::launch::RunConfig",
                                                     "'file:' needs a path, e.g. file:C:/share/run1/store"));
    } else {
        add("store", QCoreApplication::translate("ddpdesk::launch::RunConfig",
                                                 "'%1' is not a store; use file:PATH or tcp://HOST:PORT")
                         .arg(st));
    }
    if (nnodes > 1 && store.isEmpty())
        add("store",
            QCoreApplication::translate("ddpdesk::launch::RunConfig",
                                        "with --nnodes %1 every node must reach the same store: give "
                                        "tcp://NODE0_ADDRESS:PORT or file:SHARED_FOLDER/store")
                .arg(nnodes));
}

void RunConfig::addTrainingValueProblems(QVector<ConfigProblem>* problems) const {
    auto add = [problems](const char* field, const QString& msg) {
        problems->push_back({QString::fromLatin1(field), msg});
    };

    *problems += trainingProblems(training);
    if (!isScript() && training.precision == "fp16" && !usesGpus())
        add("precision", QCoreApplication::translate("ddpdesk::launch::RunConfig",
                                                     "fp16 needs GPUs (CUDA autocast with loss scaling); on "
                                                     "CPU workers use bf16"));
    // The worker splits it over world size x micro-batches; an uneven split is known before anything starts.
    const qint64 parts = qint64(worldSize()) * training.accumulate;
    if (!isScript() && training.globalBatch && *training.globalBatch >= 1 && parts >= 1 &&
        *training.globalBatch % parts != 0)
        add("global-batch",
            QCoreApplication::translate("ddpdesk::launch::RunConfig",
                                        "%1 does not split evenly over %2 rank(s) x %3 micro-batch(es); "
                                        "use a multiple of %4")
                .arg(*training.globalBatch)
                .arg(worldSize())
                .arg(training.accumulate)
                .arg(parts));
    if (maxRestarts < 0)
        add("max-restarts",
            QCoreApplication::translate("ddpdesk::launch::RunConfig", "%1 is not valid; use 0 or more")
                .arg(maxRestarts));
    if (timeoutSec < 1)
        add("timeout", QCoreApplication::translate("ddpdesk::launch::RunConfig",
                                                   "%1 s is not valid; use 1 or more seconds")
                           .arg(timeoutSec));
    if (stallTimeoutSec < 0)
        add("stall-timeout", QCoreApplication::translate("ddpdesk::launch::RunConfig",
                                                         "%1 s is not valid; use 0 (off) or more seconds")
                                 .arg(stallTimeoutSec));
    if (stragglerAfterSec < 0)
        add("straggler-after", QCoreApplication::translate("ddpdesk::launch::RunConfig",
                                                           "%1 s is not valid; use 0 (off) or more seconds")
                                   .arg(stragglerAfterSec));
}

QVector<ConfigProblem> RunConfig::validateValues() const {
    QVector<ConfigProblem> p;
    auto add = [&p](const char* field, const QString& msg) {
        p.push_back({QString::fromLatin1(field), msg});
    };

    addWorkloadValueProblems(&p);
    addWorldValueProblems(&p);
    addStoreValueProblems(&p);
    addTrainingValueProblems(&p);
    p += hostProblems(*this);
    if (outDir.isEmpty())
        add("out", QCoreApplication::translate("ddpdesk::launch::RunConfig",
                                               "an output folder is required (--out DIR)"));
    return p;
}

QString RunConfig::problemsText(const QVector<ConfigProblem>& problems) {
    QStringList lines;
    for (const ConfigProblem& pr : problems)
        lines << QStringLiteral("--%1: %2").arg(pr.field, pr.message);
    return lines.join(QLatin1Char('\n'));
}

QStringList RunConfig::workerArgs(int localRank) const {
    QStringList a;
    a << "--workload" << workload;
    if (!modelFile.isEmpty()) a << "--model" << modelFile;
    if (!dataDir.isEmpty()) a << "--data" << dataDir;
    a << "--rank" << QString::number(globalRank(localRank)) << "--world-size" << QString::number(worldSize())
      << "--local-rank" << QString::number(localRank) << "--local-world-size" << QString::number(nproc);
    a << "--store" << effectiveStore();
    if (!iface.isEmpty()) a << "--iface" << iface;
    a << "--timeout" << QString::number(timeoutSec);
    protocol::WorkerSettings settings = training;
    settings.threads = threadsPerWorker();
    for (const std::string& arg : protocol::settingArgs(settings))
        a << QString::fromStdString(arg);
    a << "--device" << (usesGpus() ? QStringLiteral("cuda") : QStringLiteral("cpu"));
    a << "--out" << outDir;
    return a;
}

QMap<QString, QString> RunConfig::rankEnvironment(int localRank, int masterPortOverride) const {
    QMap<QString, QString> env;
    env["RANK"] = QString::number(globalRank(localRank));
    env["LOCAL_RANK"] = QString::number(localRank);
    env["WORLD_SIZE"] = QString::number(worldSize());
    env["LOCAL_WORLD_SIZE"] = QString::number(nproc);
    env["GROUP_RANK"] = QString::number(nodeRank);
    env["NODE_RANK"] = QString::number(nodeRank);
    // One node: the script's store and Gloo stay on loopback (Python's TCPStore server still binds every
    // interface; the address only decides what the ranks connect to and advertise).
    env["MASTER_ADDR"] = nnodes == 1 ? QStringLiteral("127.0.0.1") : storeHost();
    const int port = masterPortOverride > 0 ? masterPortOverride : storePort();
    if (port > 0) env["MASTER_PORT"] = QString::number(port);
    env["DDPDESK_STORE"] = effectiveStore();
    // The rest of torchrun's environment, so scripts written for it find what they read.
    env["GROUP_WORLD_SIZE"] = QString::number(nnodes);
    env["ROLE_RANK"] = env["RANK"];
    env["ROLE_WORLD_SIZE"] = env["WORLD_SIZE"];
    env["ROLE_NAME"] = QStringLiteral("default");
    env["TORCHELASTIC_RUN_ID"] = QStringLiteral("ddpdesk");
    env["TORCHELASTIC_RESTART_COUNT"] = QStringLiteral("0"); // the supervisor sets the attempt
    env["TORCHELASTIC_MAX_RESTARTS"] = QString::number(maxRestarts);
    // torchrun sets 1 thread per rank unless the user chose; DDP Desk splits the cores unless the user chose.
    if (!qEnvironmentVariableIsSet("OMP_NUM_THREADS") || training.threads)
        env["OMP_NUM_THREADS"] = QString::number(threadsPerWorker());
    // PyTorch 2.4+ asks for a libuv TCPStore, which Windows wheels and some Linux builds lack ("use_libuv was
    // requested but PyTorch was build without libuv support"), and torchrun ignores USE_LIBUV=0 there. The
    // classic backend serves every version, so script ranks get it unless the user chose.
    if (!qEnvironmentVariableIsSet("USE_LIBUV")) env["USE_LIBUV"] = QStringLiteral("0");
    env["PYTHONUNBUFFERED"] = "1"; // a script's loss lines must arrive while it runs, not at exit
    if (!iface.isEmpty())
        env["GLOO_SOCKET_IFNAME"] = iface;
    else if (nnodes == 1 && !os::loopbackInterfaceName().empty())
        env["GLOO_SOCKET_IFNAME"] = QString::fromStdString(os::loopbackInterfaceName());
    const QStringList gpus = deviceList();
    if (!gpus.isEmpty() && localRank < gpus.size())
        env["CUDA_VISIBLE_DEVICES"] = gpus[localRank];
    else if (!usesGpus())
        env["CUDA_VISIBLE_DEVICES"] = QString(); // CPU run: no rank grabs a GPU by accident
    return env;
}

} // namespace ddpdesk::launch
