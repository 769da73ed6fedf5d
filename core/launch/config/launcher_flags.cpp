#include "launch/config/launcher_flags.h"

#include "launch/config/command_format.h"
#include "os/platform.h"
#include "protocol/run_auth.h"

#include <QMap>

#include <type_traits>

namespace ddpdesk::launch {

namespace {

template <class T> QString valueText(const T& field) {
    if constexpr (std::is_same_v<T, bool>)
        return field ? QStringLiteral("true") : QStringLiteral("false");
    else if constexpr (std::is_same_v<T, int>)
        return QString::number(field);
    else
        return field;
}

} // namespace

QStringList everyNodeArguments(const RunConfig& c) {
    const RunConfig unset;
    QMap<QString, QString> defaults;
    visitLauncherFlags(unset, [&defaults](const LauncherFlag& f, const auto& field) {
        defaults[QLatin1String(f.flag)] = valueText(field);
    });
    QStringList args;
    visitLauncherFlags(c, [&](const LauncherFlag& f, const auto& field) {
        if (f.spread == Spread::ThisNode) return;
        const QString flag = QLatin1String(f.flag);
        // The store this node made up (a FileStore inside its --out) is the one the others must reach.
        const QString value = flag == QLatin1String("--store") ? c.effectiveStore() : valueText(field);
        const bool isDefault = value == defaults.value(flag);
        if constexpr (std::is_same_v<std::decay_t<decltype(field)>, bool>) {
            if (!isDefault) args << flag; // a switch is present only to say what is not the default
        } else if (f.spread == Spread::EveryNodeShown || (!isDefault && !value.isEmpty())) {
            args << flag << value;
        }
    });
    for (const std::string& arg : protocol::settingArgs(c.training))
        args << QString::fromStdString(arg);
    return args;
}

QString joinCommandLine(const RunConfig& c, const QString& secretFile) {
    QStringList args{QStringLiteral("ddpdesk-cli"), QStringLiteral("run")};
    args << everyNodeArguments(c) << QStringLiteral("--node-rank") << QStringLiteral("N")
         << QLatin1String(protocol::kRunSecretFileFlag) << secretFile << QStringLiteral("--out")
         << QStringLiteral("DIR");
    const bool cmd = os::printedCommandsAreForCmd();
    QStringList quoted;
    for (const QString& a : args)
        quoted << (cmd ? cmdPromptQuote(a) : shellQuote(a));
    return quoted.join(QLatin1Char(' '));
}

} // namespace ddpdesk::launch
