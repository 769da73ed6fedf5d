#include "launch/run/script_output.h"

#include "protocol/telemetry.h"

#include <cmath>
#include <limits>

namespace ddpdesk::launch {

ScriptOutputParser::ScriptOutputParser(const QString& lossRegex)
    : m_loss(lossRegex, QRegularExpression::CaseInsensitiveOption),
      m_epoch(QStringLiteral("\\bepoch\\s*[:=]?\\s*(\\d+)"), QRegularExpression::CaseInsensitiveOption) {}

std::optional<nlohmann::json> ScriptOutputParser::parse(int rank, const QString& line) {
    const QRegularExpressionMatch m = m_loss.match(line);
    if (!m.hasMatch()) return std::nullopt;
    // The loss is the first capture group, or the whole match when the expression has none.
    const QString text = (m_loss.captureCount() >= 1 ? m.captured(1) : m.captured(0)).trimmed().toLower();
    bool ok = false;
    double loss = text.toDouble(&ok);
    if (!ok) {
        if (text == QLatin1String("nan"))
            loss = std::numeric_limits<double>::quiet_NaN();
        else if (text.endsWith(QLatin1String("inf")))
            loss = text.startsWith(QLatin1Char('-')) ? -std::numeric_limits<double>::infinity()
                                                     : std::numeric_limits<double>::infinity();
        else
            return std::nullopt;
    }
    ++m_count;
    nlohmann::json e = protocol::makeEvent(protocol::ev::Step, rank);
    e[protocol::field::Step] = m_count;
    const QRegularExpressionMatch em = m_epoch.match(line);
    if (em.hasMatch()) e[protocol::field::Epoch] = em.captured(1).toInt();
    if (std::isfinite(loss)) {
        e[protocol::field::Loss] = loss;
    } else {
        e[protocol::field::Loss] = nullptr;
        e[protocol::kLossNonFinite] = std::isnan(loss) ? "nan" : loss > 0 ? "inf" : "-inf";
        e[protocol::field::Line] = line.left(400).toStdString();
    }
    e[protocol::field::Source] = "script";
    return e;
}

} // namespace ddpdesk::launch
