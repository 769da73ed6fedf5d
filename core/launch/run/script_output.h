#pragma once

// A user script prints free text, not telemetry: its loss is read with a regular expression and turned into
// `step` events, so the model, the charts and summary.json treat a script like the built-in worker.

#include <QRegularExpression>
#include <QString>

#include <nlohmann/json.hpp>

#include <optional>

namespace ddpdesk::launch {

class ScriptOutputParser {
public:
    explicit ScriptOutputParser(const QString& lossRegex);
    // A `step` event (step = number of loss lines so far, epoch when the line names one) when the line has a
    // loss.
    std::optional<nlohmann::json> parse(int rank, const QString& line);
    qint64 count() const { return m_count; }

private:
    QRegularExpression m_loss;
    QRegularExpression m_epoch;
    qint64 m_count = 0;
};

} // namespace ddpdesk::launch
