#include "launch/metrics_log.h"

#include <QCoreApplication>

#include "protocol/telemetry.h"

namespace ddpdesk::launch {

bool MetricsLog::open(const QString& path, bool append, QString* error) {
    close();
    m_file.setFileName(path);
    const QIODevice::OpenMode mode = QIODevice::WriteOnly | (append ? QIODevice::Append : QIODevice::Truncate);
    if (!m_file.open(mode)) {
        if (error)
            *error = QCoreApplication::translate("ddpdesk::launch::MetricsLog", "cannot write '%1': %2")
                         .arg(path, m_file.errorString());
        return false;
    }
    return true;
}

void MetricsLog::close() {
    if (m_file.isOpen())
        m_file.close();
}

void MetricsLog::writeRaw(const QByteArray& line) {
    if (!m_file.isOpen())
        return;
    m_file.write(line);
    m_file.write("\n", 1);
}

void MetricsLog::write(const nlohmann::json& event) {
    if (!m_file.isOpen())
        return;
    writeRaw(QByteArray::fromStdString(protocol::encodeLine(event)));
}

} // namespace ddpdesk::launch
