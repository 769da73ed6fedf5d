#pragma once

// Telemetry travels as nlohmann::json (core/protocol, plain C++); the Qt side (summary.json, the GUI) uses
// QJsonObject. The two conversions live here so every file converts the same way (invalid UTF-8 replaced).

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <nlohmann/json.hpp>

namespace ddpdesk::launch {

inline QJsonObject toQtJson(const nlohmann::json& j) {
    const std::string text = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
}

inline nlohmann::json toNlohmannJson(const QJsonObject& o) {
    const QByteArray text = QJsonDocument(o).toJson(QJsonDocument::Compact);
    return nlohmann::json::parse(text.constData(), text.constData() + text.size(), nullptr, false);
}

} // namespace ddpdesk::launch
