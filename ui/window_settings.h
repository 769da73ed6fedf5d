#pragma once

// What DDP Desk keeps between sessions in QSettings: owns the keys, their defaults and the default runs
// folder. The window's geometry and dock state, its page, the runs folder, whether workers are kept ready,
// the last configuration and the language. MainWindow applies what load() returns and fills in what save()
// writes.

#include "launch/config/run_config.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace ddpdesk::ui {

struct WindowSettings {
    QByteArray geometry;
    QByteArray dockState;
    int page = 0; // a MainWindow::Page
    QString runsFolder;
    bool warmWorkers = true;
    std::optional<launch::RunConfig> lastConfig;

    static WindowSettings load(); // the runs folder is created if missing
    void save() const;            // the language too: the one in use
    static void saveLanguage(const QString& code);
    static QString defaultRunsFolder(); // <AppDataLocation>/runs, without a doubled "DDP Desk/DDP Desk"
};

} // namespace ddpdesk::ui
