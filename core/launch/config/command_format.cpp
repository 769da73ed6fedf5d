#include "launch/config/command_format.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace ddpdesk::launch {

namespace {

constexpr int kDefaultPort = 29500;

// Worker flags that carry the run's settings but not the per-process identity, which the scheduler provides
// (RANK/WORLD_SIZE from torchrun, OMPI_COMM_WORLD_* from mpirun, SLURM_* from srun).
QStringList settingsArgs(const RunConfig& c, bool keepStore) {
    static const QStringList identity = {"--rank", "--world-size", "--local-rank", "--local-world-size",
                                         "--store"};
    const QStringList all = c.workerArgs(0);
    QStringList out;
    for (int i = 0; i < all.size(); ++i) {
        if (identity.contains(all[i]) && !(keepStore && all[i] == QLatin1String("--store"))) {
            ++i; // skip the value too
            continue;
        }
        out << all[i];
    }
    return out;
}

QString joinShell(const QStringList& args) {
    QStringList q;
    for (const QString& a : args)
        q << shellQuote(a);
    return q.join(QLatin1Char(' '));
}

QString joinCmd(const QStringList& args) {
    QStringList q;
    for (const QString& a : args)
        q << cmdQuote(a);
    return q.join(QLatin1Char(' '));
}

// The program line each rank runs, after the scheduler's own words.
QStringList rankProgram(const RunConfig& c, const QString& worker, bool keepStore) {
    if (c.isScript()) {
        const QString interp = c.interpreter();
        QStringList p = interp.isEmpty() ? QStringList{c.scriptFile} : QStringList{interp, c.scriptFile};
        return p + c.scriptArgs;
    }
    return QStringList{worker} + settingsArgs(c, keepStore);
}

// torchrun's agent already hosts a TCPStore on master_port: rank 0 must join it (--external-store), not
// create another. A FileStore the user chose is kept as it is.
QStringList workerArgsUnderTorchrun(const RunConfig& c) {
    if (c.store.startsWith(QLatin1String("file:"))) return settingsArgs(c, true);
    return settingsArgs(c, false) << QStringLiteral("--external-store");
}

QString masterHost(const RunConfig& c, const QString& fallback) {
    return c.storeIsTcp() ? c.storeHost() : fallback;
}
int masterPort(const RunConfig& c) {
    return c.storeIsTcp() ? c.storePort() : kDefaultPort;
}

QString torchrun(const RunConfig& c, const QString& worker) {
    QStringList a{"torchrun", QStringLiteral("--nnodes=%1").arg(c.nnodes),
                  QStringLiteral("--nproc_per_node=%1").arg(c.nproc)};
    if (c.nnodes > 1) a << QStringLiteral("--node_rank=%1").arg(c.nodeRank);
    a << QStringLiteral("--master_addr=%1").arg(masterHost(c, QStringLiteral("127.0.0.1")))
      << QStringLiteral("--master_port=%1").arg(masterPort(c));
    if (c.maxRestarts > 0) a << QStringLiteral("--max_restarts=%1").arg(c.maxRestarts);
    if (c.isScript()) {
        if (c.interpreter().isEmpty()) a << "--no_python";
        a << c.scriptFile << c.scriptArgs;
    } else {
        a << "--no_python" << worker << workerArgsUnderTorchrun(c);
    }
    QString prefix;
    if (c.usesGpus()) // the list as CUDA reads it ("0, 1" -> 0,1), quoted like every other value
        prefix =
            QStringLiteral("CUDA_VISIBLE_DEVICES=%1 ").arg(shellQuote(c.deviceList().join(QLatin1Char(','))));
    return prefix + joinShell(a) + QLatin1Char('\n');
}

QString mpirun(const RunConfig& c, const QString& worker) {
    QStringList a{"mpirun", "-np", QString::number(c.worldSize()), "-npernode", QString::number(c.nproc)};
    if (c.nnodes > 1) a << "-H" << QStringLiteral("NODE0:%1,NODE1:%1").arg(c.nproc);
    QStringList env{"PATH", "LD_LIBRARY_PATH",
                    QStringLiteral("OMP_NUM_THREADS=%1").arg(c.threadsPerWorker())};
    const QString host = masterHost(c, c.nnodes > 1 ? QStringLiteral("NODE0") : QStringLiteral("127.0.0.1"));
    env << QStringLiteral("MASTER_ADDR=%1").arg(host) << QStringLiteral("MASTER_PORT=%1").arg(masterPort(c));
    if (!c.iface.isEmpty()) env << QStringLiteral("GLOO_SOCKET_IFNAME=%1").arg(c.iface);
    for (const QString& e : env)
        a << "-x" << e;
    QString line = joinShell(a);
    if (c.isScript()) {
        // A script reads torchrun's variable names; map Open MPI's per-process ones onto them.
        line += QStringLiteral(" sh -c ") +
                shellQuote(QStringLiteral("RANK=$OMPI_COMM_WORLD_RANK WORLD_SIZE=$OMPI_COMM_WORLD_SIZE "
                                          "LOCAL_RANK=$OMPI_COMM_WORLD_LOCAL_RANK "
                                          "LOCAL_WORLD_SIZE=$OMPI_COMM_WORLD_LOCAL_SIZE exec ") +
                           joinShell(rankProgram(c, worker, false)));
    } else {
        line += QLatin1Char(' ') + joinShell(rankProgram(c, worker, !c.store.isEmpty()));
    }
    if (c.nnodes > 1)
        line += QStringLiteral("\n# replace NODE0, NODE1 (and add one host per node) with your node names\n");
    return line + QLatin1Char('\n');
}

QString slurm(const RunConfig& c, const QString& worker) {
    QString s = QStringLiteral("#!/bin/bash\n#SBATCH --job-name=ddpdesk\n#SBATCH --nodes=%1\n"
                               "#SBATCH --ntasks-per-node=%2\n#SBATCH --cpus-per-task=%3\n")
                    .arg(c.nnodes)
                    .arg(c.nproc)
                    .arg(c.threadsPerWorker());
    if (c.usesGpus()) s += QStringLiteral("#SBATCH --gpus-per-node=%1\n").arg(c.nproc);
    s += QStringLiteral("#SBATCH --output=ddpdesk-%j.out\n\n");
    if (c.storeIsTcp())
        s += QStringLiteral("export MASTER_ADDR=%1\n").arg(shellQuote(c.storeHost()));
    else
        s += QStringLiteral(
            "export MASTER_ADDR=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)\n");
    s += QStringLiteral("export MASTER_PORT=%1\nexport OMP_NUM_THREADS=%2\n")
             .arg(masterPort(c))
             .arg(c.threadsPerWorker());
    if (!c.iface.isEmpty()) s += QStringLiteral("export GLOO_SOCKET_IFNAME=%1\n").arg(shellQuote(c.iface));
    s += QLatin1Char('\n');
    if (c.isScript()) {
        s +=
            QStringLiteral("srun bash -c ") +
            shellQuote(QStringLiteral("RANK=$SLURM_PROCID WORLD_SIZE=$SLURM_NTASKS LOCAL_RANK=$SLURM_LOCALID "
                                      "LOCAL_WORLD_SIZE=$SLURM_NTASKS_PER_NODE exec ") +
                       joinShell(rankProgram(c, worker, false))) +
            QLatin1Char('\n');
    } else {
        s += QStringLiteral("srun ") + joinShell(rankProgram(c, worker, !c.store.isEmpty())) +
             QLatin1Char('\n');
    }
    return s;
}

QString hpcpack(const RunConfig& c, const QString& worker) {
    // One torchrun per node (mpiexec -cores 1 starts one process per allocated node); torchrun's c10d
    // rendezvous assigns node ranks, so the same line serves every node. The line is meant for a .cmd batch
    // file: cmdQuote doubles every %, so %CCP_JOBID% reaches job submit as written and HPC Pack fills it in
    // per job.
    const QString dir = c.outDir.isEmpty() ? QStringLiteral("\\\\HEADNODE\\share\\ddpdesk") : c.outDir;
    QStringList a{"job",
                  "submit",
                  QStringLiteral("/numnodes:%1").arg(c.nnodes),
                  "/exclusive:true",
                  QStringLiteral("/workdir:%1").arg(dir),
                  QStringLiteral("/stdout:ddpdesk-%CCP_JOBID%.out"),
                  QStringLiteral("/stderr:ddpdesk-%CCP_JOBID%.err"),
                  "mpiexec",
                  "-cores",
                  "1",
                  "torchrun",
                  QStringLiteral("--nnodes=%1").arg(c.nnodes),
                  QStringLiteral("--nproc_per_node=%1").arg(c.nproc),
                  "--rdzv_id=%CCP_JOBID%",
                  "--rdzv_backend=c10d",
                  QStringLiteral("--rdzv_endpoint=%1:%2")
                      .arg(masterHost(c, QStringLiteral("%CCP_SCHEDULER%")))
                      .arg(masterPort(c))};
    if (c.isScript()) {
        if (c.interpreter().isEmpty()) a << "--no_python";
        a << c.scriptFile << c.scriptArgs;
    } else {
        QString exe = worker;
        if (!exe.endsWith(QLatin1String(".exe"), Qt::CaseInsensitive) && QFileInfo(exe).suffix().isEmpty())
            exe += QStringLiteral(".exe");
        a << "--no_python" << exe << workerArgsUnderTorchrun(c);
    }
    return joinCmd(a) + QLatin1Char('\n');
}

} // namespace

std::optional<CommandFormat> parseCommandFormat(const QString& name) {
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("torchrun")) return CommandFormat::Torchrun;
    if (n == QLatin1String("mpirun")) return CommandFormat::Mpirun;
    if (n == QLatin1String("slurm")) return CommandFormat::Slurm;
    if (n == QLatin1String("hpcpack")) return CommandFormat::HpcPack;
    return std::nullopt;
}

QString commandFormatName(CommandFormat f) {
    switch (f) {
    case CommandFormat::Torchrun:
        return QStringLiteral("torchrun");
    case CommandFormat::Mpirun:
        return QStringLiteral("mpirun");
    case CommandFormat::Slurm:
        return QStringLiteral("slurm");
    case CommandFormat::HpcPack:
        return QStringLiteral("hpcpack");
    }
    return QString();
}

QStringList commandFormatNames() {
    return {"torchrun", "mpirun", "slurm", "hpcpack"};
}

QString formatCommand(const RunConfig& config, CommandFormat format, const QString& workerProgram) {
    switch (format) {
    case CommandFormat::Torchrun:
        return torchrun(config, workerProgram);
    case CommandFormat::Mpirun:
        return mpirun(config, workerProgram);
    case CommandFormat::Slurm:
        return slurm(config, workerProgram);
    case CommandFormat::HpcPack:
        return hpcpack(config, workerProgram);
    }
    return QString();
}

QVector<ConfigProblem> commandProblems(const RunConfig& config, CommandFormat format) {
    QVector<ConfigProblem> problems;
    if (format != CommandFormat::HpcPack)
        return problems; // POSIX single quotes carry any byte but NUL, which no argument can hold anyway
    // cmd.exe ends a command at a line break and has no escape that keeps one inside an argument.
    auto check = [&problems](const char* field, const QString& value) {
        if (value.contains(QLatin1Char('\n')) || value.contains(QLatin1Char('\r')))
            problems.push_back(
                {QString::fromLatin1(field),
                 QCoreApplication::translate("ddpdesk::launch::CommandFormat",
                                             "contains a line break, which a cmd.exe command line "
                                             "(--format hpcpack) cannot carry")});
    };
    check("script", config.scriptFile);
    check("python", config.python);
    check("model", config.modelFile);
    check("data", config.dataDir);
    check("out", config.outDir);
    check("store", config.store);
    check("iface", config.iface);
    for (const QString& a : config.scriptArgs)
        check("script", a);
    return problems;
}

QString shellQuote(const QString& arg) {
    // Only ASCII that no POSIX shell treats specially stays bare; everything else goes into single quotes,
    // inside which nothing is special ($, `, \, newlines included) and a quote is closed, escaped and
    // reopened.
    static const QString safe = QStringLiteral("@%+=:,./-_");
    bool plain = !arg.isEmpty();
    for (const QChar ch : arg)
        plain = plain && ch.unicode() < 0x80 && (ch.isLetterOrNumber() || safe.contains(ch));
    if (plain) return arg;
    return QLatin1Char('\'') + QString(arg).replace(QLatin1String("'"), QLatin1String("'\\''")) +
           QLatin1Char('\'');
}

namespace {

// Two parsers read the line: cmd.exe and then the program's argument splitter (Microsoft C runtime rules: ""
// is a quote inside a quoted argument, backslashes only matter before a quote). & | < > ^ act outside quotes
// in both of cmd.exe's modes, so they are ^-escaped there. % differs: a batch file reads %% as %, even inside
// quotes; a prompt leaves %% as it is and only ^% stops an expansion, which works outside quotes alone, so
// inside them the quote closes around ^% and reopens (the program still reads one argument).
// \" would end cmd.exe's quoted region while the program still reads one argument, so it is never written.
QString quoteForCmd(const QString& arg, bool prompt) {
    const QString percentOutside = prompt ? QStringLiteral("^%") : QStringLiteral("%%");
    const bool needsQuotes = arg.isEmpty() || arg.contains(QLatin1Char(' ')) ||
                             arg.contains(QLatin1Char('\t')) || arg.contains(QLatin1Char('"'));
    QString out;
    if (!needsQuotes) {
        for (const QChar ch : arg) {
            if (ch == QLatin1Char('%'))
                out += percentOutside;
            else if (QStringLiteral("&|<>^").contains(ch))
                out += QLatin1Char('^') + ch;
            else
                out += ch;
        }
        return out;
    }
    // A prompt's % sits outside quotes: the region closes before it and opens again after it. A region that
    // would close with nothing in it is taken back instead, since "" inside quotes is a quote to the program.
    out += QLatin1Char('"');
    bool inQuotes = true, emptyRegion = true;
    int backslashes = 0;
    for (const QChar ch : arg) {
        if (ch == QLatin1Char('\\')) {
            ++backslashes;
            continue;
        }
        if (prompt && ch == QLatin1Char('%')) {
            if (!inQuotes)
                out += QString(backslashes, QLatin1Char('\\'));
            else if (emptyRegion && backslashes == 0)
                out.chop(1);
            else
                out += QString(backslashes * 2, QLatin1Char('\\')) + QLatin1Char('"');
            out += QLatin1String("^%");
            inQuotes = false;
        } else {
            if (!inQuotes) out += QLatin1Char('"');
            inQuotes = true;
            emptyRegion = false;
            if (ch == QLatin1Char('"'))
                out += QString(backslashes * 2, QLatin1Char('\\')) + QLatin1String("\"\"");
            else
                out += QString(backslashes, QLatin1Char('\\')) +
                       (ch == QLatin1Char('%') ? QStringLiteral("%%") : QString(ch));
        }
        backslashes = 0;
    }
    if (inQuotes)
        out +=
            QString(backslashes * 2, QLatin1Char('\\')) + QLatin1Char('"'); // the closing quote stays a quote
    else
        out += QString(backslashes, QLatin1Char('\\'));
    return out;
}

} // namespace

QString cmdQuote(const QString& arg) {
    return quoteForCmd(arg, false);
}

QString cmdPromptQuote(const QString& arg) {
    return quoteForCmd(arg, true);
}

} // namespace ddpdesk::launch
