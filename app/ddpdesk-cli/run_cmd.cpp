// `ddpdesk-cli run`: one supervised run from the command line; also registers `sweep` and `command`.
#include "run_cmd.h"

#include "commands.h"
#include "launch/config/launcher_flags.h"
#include "launch/process/process_control.h"
#include "launch/record/tensorboard_log.h"
#include "launch/run/console_view.h"
#include "launch/run/supervisor.h"
#include "os/platform.h"
#include "protocol/run_auth.h"
#include "protocol/sha256.h"
#include "protocol/worker_settings_cli.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QJsonDocument>

#include <cmath>
#include <iostream>
#include <memory>
#include <type_traits>

namespace ddpdesk::cli {

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

// RunConfig reads 0 as "the worker's default", so a typed 0 or negative value would silently mean something
// else: the flags refuse it themselves, by name, as a usage error (exit 2). Text that is no number is left to
// the type check, which names the flag too.
CLI::Validator numberAtLeast(double min, bool inclusive) {
    return CLI::Validator(
        [min, inclusive](std::string& text) -> std::string {
            double v = 0;
            if (!CLI::detail::lexical_cast(text, v)) return std::string();
            if (std::isfinite(v) && (inclusive ? v >= min : v > min)) return std::string();
            return (inclusive ? (min == 0 ? "must be 0 or more" : "must be at least 1")
                              : "must be a positive number") +
                   std::string(" (got ") + text + ")";
        },
        inclusive ? (min == 0 ? "NONNEGATIVE" : "POSITIVE") : "POSITIVE");
}
const CLI::Validator kCount = numberAtLeast(1, true);       // counts: 1, 2, ...
const CLI::Validator kPositive = numberAtLeast(0, false);   // sizes and rates: any number above 0
const CLI::Validator kNonNegative = numberAtLeast(0, true); // 0 has a meaning of its own (off, first, ...)

void printSummaryText(const launch::Supervisor& run) {
    const launch::RunSummary s = run.model()->summary();
    std::cout << "status: " << s.status.toStdString() << "\n"
              << "world size: " << s.worldSize << ", steps: " << s.steps << ", wall: " << s.wallS << " s\n"
              << "samples/s (global";
    if (s.samplesPerSBasis == QLatin1String(launch::rate_basis::AfterWarmup))
        std::cout << ", after warm-up): " << s.samplesPerS << "\n";
    else if (s.samplesPerS > 0)
        std::cout << ", from the first step on: too few steps to leave out a warm-up): " << s.samplesPerS
                  << "\n";
    else
        std::cout << "): n/a (" << s.samplesPerSWhy.toStdString() << ")\n";
    if (std::isfinite(s.finalLoss)) std::cout << "final loss: " << s.finalLoss << "\n";
    if (std::isfinite(s.testAccuracy)) std::cout << "test accuracy: " << s.testAccuracy << "\n";
    if (s.restarts > 0) std::cout << "restarts: " << s.restarts << "\n";
    // Validation passes and checkpoint saves, whose time samples/s leaves out: "validation: rank 0 3 passes,
    // 1.5 s; rank 1 none" and "checkpoint saves: ...".
    auto aside = [&](const char* what, int (*count)(const launch::RankStatus&),
                     double (*seconds)(const launch::RankStatus&), const char* unit) {
        std::string line;
        bool any = false;
        for (int i = 0; i < run.model()->rankCount(); ++i) {
            const launch::RankStatus& r = run.model()->rank(i);
            any = any || count(r) > 0;
            line += (i ? "; rank " : "rank ") + std::to_string(r.rank) +
                    (count(r) > 0 ? " " + std::to_string(count(r)) + unit +
                                        QString::number(seconds(r), 'f', 1).toStdString() + " s"
                                  : std::string(" none"));
        }
        if (any) std::cout << what << ": " << line << " (not training time: left out of samples/s)\n";
    };
    aside(
        "validation", [](const launch::RankStatus& r) { return r.evalPasses; },
        [](const launch::RankStatus& r) { return r.evalS; }, " passes, ");
    aside(
        "checkpoint saves", [](const launch::RankStatus& r) { return r.saves; },
        [](const launch::RankStatus& r) { return r.saveS; }, " saves, ");
    // The rank that reached its first step last: what the whole run waited for before it trained.
    int slowest = -1;
    double slowestS = -1;
    for (int i = 0; i < run.model()->rankCount(); ++i) {
        const launch::RankStartup& st = run.model()->rank(i).startup;
        if (st.startedT > 0 && st.firstStepT > 0 && st.firstStepT - st.startedT > slowestS)
            slowest = i, slowestS = st.firstStepT - st.startedT;
    }
    if (slowest >= 0)
        std::cout << "start-up of rank " << run.model()->rank(slowest).rank << ": "
                  << launch::RunModel::startupText(run.model()->rank(slowest).startup).toStdString() << "\n";
    if (s.paramsIdentical == 1)
        std::cout << "parameters: identical on all " << run.model()->rankCount() << " ranks (SHA-256 "
                  << run.model()->rank(0).paramsSha256.left(16).toStdString() << "...)\n";
    if (!s.failureReason.isEmpty())
        std::cout << (s.status == QLatin1String("failed") ? "failed: " : "reason: ")
                  << s.failureReason.toStdString() << "\n";
    if (!s.failedRankStderr.isEmpty()) {
        std::cout << "last stderr lines of rank " << s.failedRank << ":\n";
        for (const QString& line : s.failedRankStderr)
            std::cout << "  | " << line.toStdString() << "\n";
    }
    if (const auto& d = s.diagnosis) // a known failure, explained (core/launch/diagnose/failure_diagnosis.h)
        std::cout << "Diagnosis [" << d->code << "]: " << d->message << "\n  Fix: " << d->fix
                  << "\n  Seen in rank " << d->rank << ": " << d->matched << "\n";
    for (const launch::ScalingCause& c : s.scaling) // core/launch/diagnose/scaling.h
        std::cout << "Scaling [" << c.code.toStdString() << "]: " << c.text.toStdString()
                  << "\n  Fix: " << c.fix.toStdString() << "\n";
    std::cout << "metrics: " << run.metricsPath().toStdString()
              << "\nsummary: " << run.summaryPath().toStdString() << "\n";
    if (!run.tensorboardFile().isEmpty()) {
        // TensorBoard takes each folder below --logdir as a run: the folder above this one compares it with
        // its neighbours.
        const QString out = QDir::cleanPath(run.config().outDir);
        std::cout << "tensorboard: "
                  << QDir::toNativeSeparators(launch::TensorBoardLog::folder(out)).toStdString()
                  << " (tensorboard --logdir "
                  << QDir::toNativeSeparators(QFileInfo(out).path()).toStdString() << ")\n";
    }
}

int runMain(CliContext& ctx, const RunFlags& flags) {
    prepareQtApplication(ctx.argc, ctx.argv, false);
    const launch::RunConfig config = toConfig(flags);
    launch::Supervisor run;
    QVector<launch::ConfigProblem> problems;
    launch::ConsoleView view(&run);
    if (!run.start(config, &problems)) return refuse(problems);
    launch::installInterruptHandler(
        [&run] { run.stop(QStringLiteral("interrupted (Ctrl-C); checkpoints kept")); });
    if (run.isRunning())
        QObject::connect(&run, &launch::Supervisor::finished, qApp, [] { QCoreApplication::exit(0); });
    if (run.isRunning()) QCoreApplication::exec();
    if (flags.json)
        std::cout
            << QJsonDocument(run.model()->summary().toJson(run.model()->ranks())).toJson().toStdString();
    else
        printSummaryText(run);
    const QString status = run.model()->summary().status;
    return status == QLatin1String("ok") ? 0 : status == QLatin1String("stopped") ? 130 : 1;
}

} // namespace

void prepareQtApplication(int& argc, char** argv, bool gui) {
    if (QCoreApplication::instance()) return;
    if (gui) {
        // sweep.png is drawn with QPainter: fonts need a QGuiApplication, which needs a platform even
        // headless.
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
            qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") && !os::windowSystemAlwaysPresent()) {
            qputenv("QT_QPA_PLATFORM", "offscreen");
        }
        new QGuiApplication(argc, argv); // lives until exit, like the process
    } else {
        new QCoreApplication(argc, argv);
    }
}

int refuse(const QVector<launch::ConfigProblem>& problems) {
    std::cerr << "ddpdesk-cli: cannot start:\n";
    for (const launch::ConfigProblem& p : problems)
        std::cerr << "  --" << p.field.toStdString() << ": " << p.message.toStdString() << "\n";
    return 2;
}

bool resolveRunSecretFlags(RunFlags& f) {
    if (!f.runSecret.empty() && !f.runSecretFile.empty()) {
        std::cerr << "ddpdesk-cli: cannot start:\n  " << protocol::kRunSecretFlag << ": give either "
                  << protocol::kRunSecretFlag << " or " << protocol::kRunSecretFileFlag << ", not both\n";
        return false;
    }
    std::string raw, error;
    if (!f.runSecret.empty() && !protocol::decodeRunSecret(f.runSecret, &raw, &error)) {
        std::cerr << "ddpdesk-cli: cannot start:\n  " << protocol::kRunSecretFlag << ": " << error << "\n";
        return false;
    }
    if (!f.runSecretFile.empty() && !protocol::readRunSecretFile(f.runSecretFile, &raw, &error)) {
        std::cerr << "ddpdesk-cli: cannot start:\n  " << protocol::kRunSecretFileFlag << ": " << error
                  << "\n";
        return false;
    }
    if (!f.runSecret.empty())
        std::cerr << "ddpdesk-cli: warning: " << protocol::kRunSecretFlag
                  << " puts the secret on this command line, where every user of this machine can read it "
                     "(ps); prefer "
                  << protocol::kRunSecretFileFlag << " FILE (chmod 600)\n";
    if (!raw.empty()) f.config.runSecret = q(protocol::toHex(raw));
    return true;
}

void addRunFlags(CLI::App* sub, RunFlags& f, bool requireOut) {
    launch::RunConfig& c = f.config;
    // The launcher's flags from its table (launch/config/launcher_flags.h), the training settings from the
    // worker's (RunConfig::validateValues checks both), then what only the command line has.
    launch::visitLauncherFlags(c, [sub](const launch::LauncherFlag& flag, auto& field) {
        using T = std::decay_t<decltype(field)>;
        using R = launch::LauncherRule;
        if constexpr (std::is_same_v<T, bool>) {
            sub->add_flag(flag.rule == R::OffSwitch ? std::string(flag.flag) + "{false}"
                                                    : std::string(flag.flag),
                          field, flag.help);
        } else if constexpr (std::is_same_v<T, int>) {
            CLI::Option* o = sub->add_option(flag.flag, field, flag.help)->capture_default_str();
            if (flag.rule == R::Count) o->check(kCount);
            if (flag.rule == R::ZeroOrMore) o->check(kNonNegative);
        } else {
            CLI::Option* o = sub->add_option_function<std::string>(
                flag.flag, [&field](const std::string& v) { field = q(v); }, flag.help);
            if (!field.isEmpty()) o->default_str(field.toStdString());
        }
    });
    if (requireOut) sub->get_option("--out")->required();
    protocol::addSettingOptions(*sub, c.training);
    sub->add_option("script_args", f.scriptArgs, "arguments for --script, after --");
    sub->add_flag("--json", f.json, "print summary.json to stdout at the end");
}

void addRunSecretFlags(CLI::App* sub, RunFlags& f) {
    sub->add_option(protocol::kRunSecretFlag, f.runSecret,
                    "node 0's run secret, 64 hex digits (required on nodes > 0; else $DDPDESK_RUN_SECRET)");
    sub->add_option(protocol::kRunSecretFileFlag, f.runSecretFile,
                    "file holding the run secret, readable only by you (instead of --run-secret; node 0 "
                    "writes OUT/run-secret)");
}

launch::RunConfig toConfig(const RunFlags& f) {
    launch::RunConfig c = f.config;
    // A relative script path means the folder the CLI was started in, as with torchrun (not --out).
    if (!c.scriptFile.isEmpty() && QFileInfo(c.scriptFile).isRelative() && QFileInfo::exists(c.scriptFile))
        c.scriptFile = QFileInfo(c.scriptFile).absoluteFilePath();
    if (!c.workDir.isEmpty()) c.workDir = QDir(c.workDir).absolutePath();
    for (const std::string& a : f.scriptArgs)
        c.scriptArgs << q(a);
    return c;
}

void addRunCommands(CLI::App& app, CliContext& ctx) {
    auto flags = std::make_shared<RunFlags>();
    CLI::App* run =
        app.add_subcommand("run", "train with N supervised workers; writes metrics.jsonl and summary.json");
    addRunFlags(run, *flags, true);
    addRunSecretFlags(run, *flags);
    run->callback([&ctx, flags, run] {
        if (!resolveRunSecretFlags(*flags)) {
            ctx.exitCode = 2;
            return;
        }
        // The worker's training flags given with --script are refused by RunConfig::validate().
        // With GPUs and no --nproc: one worker per listed GPU.
        if (run->count("--nproc") == 0 && flags->config.devices != QLatin1String("cpu"))
            flags->config.nproc = toConfig(*flags).deviceList().size();
        ctx.exitCode = runMain(ctx, *flags);
    });
    addSweepCommand(app, ctx);
    addCommandCommand(app, ctx);
}

} // namespace ddpdesk::cli
