#include "language.h"

#include <QCoreApplication>
#include <QEvent>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace ddpdesk::ui {
namespace {

QTranslator& appTranslator() {
    static QTranslator t;
    return t;
}

QTranslator& qtTranslator() {
    static QTranslator t;
    return t;
}

QString& current() {
    static QString c = QStringLiteral("en");
    return c;
}

} // namespace

QStringList availableLanguages() {
    return {QStringLiteral("en"), QStringLiteral("ja")};
}

QString languageDisplayName(const QString& code) {
    // Each language is named in itself so a user who cannot read the current one still finds theirs.
    if (code == QLatin1String("ja")) return QStringLiteral("\u65e5\u672c\u8a9e (Japanese)");
    return QStringLiteral("English");
}

namespace {
// Qt sends LanguageChange itself only once the event loop runs; before that (start-up, tests) widgets would
// keep the old texts, so say it explicitly. Retranslating twice is harmless.
void announce() {
    if (QCoreApplication* app = QCoreApplication::instance()) {
        QEvent e(QEvent::LanguageChange);
        QCoreApplication::sendEvent(app, &e);
    }
}
} // namespace

bool applyLanguage(const QString& requested) {
    QString code = requested;
    if (code.isEmpty())
        code =
            QLocale::system().language() == QLocale::Japanese ? QStringLiteral("ja") : QStringLiteral("en");
    QCoreApplication::removeTranslator(&appTranslator());
    QCoreApplication::removeTranslator(&qtTranslator());
    if (code == QLatin1String("en")) {
        current() = code;
        announce();
        return true;
    }
    if (!appTranslator().load(QStringLiteral(":/i18n/ddpdesk_%1.qm").arg(code))) {
        current() = QStringLiteral("en");
        announce();
        return false;
    }
    QCoreApplication::installTranslator(&appTranslator());
    if (qtTranslator().load(QStringLiteral("qtbase_%1").arg(code),
                            QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(&qtTranslator());
    current() = code;
    announce();
    return true;
}

QString currentLanguage() {
    return current();
}

} // namespace ddpdesk::ui
