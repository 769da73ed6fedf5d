#pragma once

// Shared setup for the GUI tests: settings and app data in a private temporary folder, so a test never reads
// or overwrites the user's real DDP Desk settings, and parallel tests never share files.

#include "icons.h"

#include <QApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

namespace ddpdesk::ui::test {

inline void isolateSettings(QTemporaryDir& dir) {
    QStandardPaths::setTestModeEnabled(true);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
    QApplication::setOrganizationName(QStringLiteral("DDP Desk Test"));
    QApplication::setApplicationName(QStringLiteral("ddpdesk-test"));
    ddpdesk::ui::initResources();
}

} // namespace ddpdesk::ui::test
