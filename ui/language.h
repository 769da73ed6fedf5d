#pragma once

// The UI language: the app's own translation (compiled into the binary from resources/translations) plus Qt's
// standard dialogs. Switching sends QEvent::LanguageChange to every widget, which re-applies its tr() texts.

#include <QString>
#include <QStringList>

namespace ddpdesk::ui {

QStringList availableLanguages(); // "en", "ja"
QString languageDisplayName(const QString& code);
// Installs the language; false when its translation is missing (English stays). Empty code: system locale.
bool applyLanguage(const QString& code);
QString currentLanguage();

} // namespace ddpdesk::ui
