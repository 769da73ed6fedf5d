// ddpdesk: the desktop GUI. Everything lives in ddpdesk_ui; this only reads the command line.

#include "common/version_text.h"
#include "icons.h"
#include "language.h"
#include "main_window.h"
#include "os/console.h"
#include "screenshot_tour.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QSettings>
#include <QTimer>

#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
    ddpdesk::os::attachParentConsole();
    // --version must work without a display (installers and CI call it), so it is answered before
    // QApplication.
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--version") == 0 || std::strcmp(argv[i], "-v") == 0) {
            std::printf("%s\n", ddpdesk::versionText("ddpdesk", qVersion()).c_str());
            return 0;
        }
    }
    QApplication::setHighDpiScaleFactorRoundingPolicy(Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("DDP Desk"));
    QApplication::setApplicationName(QStringLiteral("DDP Desk"));
    QApplication::setApplicationVersion(QStringLiteral(DDPDESK_APP_VERSION));
    ddpdesk::ui::initResources();

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("DDP Desk: point-and-click Distributed Data Parallel training."));
    parser.addHelpOption();
    parser.addOption(
        {QStringLiteral("version"), QStringLiteral("Print versions (product, LibTorch, Qt, CUDA, NVML).")});
    const QCommandLineOption demo(QStringLiteral("demo"), QStringLiteral("Start the demo run immediately."));
    const QCommandLineOption lang(
        QStringLiteral("lang"), QStringLiteral("User interface language: en or ja."), QStringLiteral("code"));
    const QCommandLineOption shots(
        QStringLiteral("screenshot-dir"),
        QStringLiteral("Tour every page during a real run, save PNGs into DIR, then exit."),
        QStringLiteral("DIR"));
    const QCommandLineOption tourName(
        QStringLiteral("screenshot-tour"),
        QStringLiteral(
            "With --screenshot-dir: which tour, all (default) or nodes (node 0's Run page during a "
            "2 x 2 run on this machine)."),
        QStringLiteral("NAME"), QStringLiteral("all"));
    const QCommandLineOption icon(
        QStringLiteral("export-icon"),
        QStringLiteral("Write the application icon as a 256 px PNG to FILE and exit."),
        QStringLiteral("FILE"));
    parser.addOptions({demo, lang, shots, tourName, icon});
    parser.addPositionalArgument(
        QStringLiteral("RUN_DIR"),
        QStringLiteral("A run folder to open in History, kept anywhere (or a sweep's folder: its sizes)."),
        QStringLiteral("[RUN_DIR]"));
    parser.process(app);

    if (parser.isSet(icon))
        return ddpdesk::ui::ScreenshotTour::exportAppIcon(parser.value(icon), 256) ? 0 : 1;

    QString code = parser.value(lang);
    if (!code.isEmpty() && !ddpdesk::ui::availableLanguages().contains(code)) {
        std::fprintf(stderr, "ddpdesk: --lang %s: unknown language; valid: %s\n", qPrintable(code),
                     qPrintable(ddpdesk::ui::availableLanguages().join(QStringLiteral(", "))));
        return 2;
    }
    if (code.isEmpty())
        code = QSettings().value(QStringLiteral("language")).toString(); // empty: follow the system
    ddpdesk::ui::applyLanguage(code);

    const QStringList runDirs = parser.positionalArguments();
    if (runDirs.size() > 1) {
        std::fprintf(stderr, "ddpdesk: give one RUN_DIR, not %d\n", int(runDirs.size()));
        return 2;
    }

    ddpdesk::ui::MainWindow window;
    window.show();
    // After the window's own start-up (it restores the runs folder and page); History then says why when the
    // folder is no run, and so does stderr for whoever typed the command.
    if (!runDirs.isEmpty())
        QTimer::singleShot(0, &window, [&window, dir = runDirs.front()] {
            QString why;
            if (!window.openRunFolder(dir, &why)) std::fprintf(stderr, "ddpdesk: %s\n", qPrintable(why));
        });
    if (parser.isSet(shots)) {
        const QString which = parser.value(tourName);
        if (which != QLatin1String("all") && which != QLatin1String("nodes")) {
            std::fprintf(stderr, "ddpdesk: --screenshot-tour %s: unknown tour; valid: all, nodes\n",
                         qPrintable(which));
            return 2;
        }
        auto* tour = new ddpdesk::ui::ScreenshotTour(&window, parser.value(shots), which, &window);
        QObject::connect(tour, &ddpdesk::ui::ScreenshotTour::finished, &app,
                         [](int rc) { QApplication::exit(rc); });
        QTimer::singleShot(500, tour, &ddpdesk::ui::ScreenshotTour::start);
    } else if (parser.isSet(demo)) {
        QTimer::singleShot(0, &window, &ddpdesk::ui::MainWindow::startDemo);
    }
    return app.exec();
}
