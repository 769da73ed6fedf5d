#pragma once

// DIR/metrics.jsonl: every telemetry event of every rank as it arrived, plus the launcher's own events (launch,
// log, rank_exit, restart, stall, gpu, proc, run_end), one JSON object per line.

#include <QFile>
#include <QString>

#include <nlohmann/json_fwd.hpp>

namespace ddpdesk::launch {

class MetricsLog {
public:
    bool open(const QString& path, bool append, QString* error);
    void close();
    bool isOpen() const { return m_file.isOpen(); }
    void writeRaw(const QByteArray& line); // an already-encoded telemetry line from a rank
    void write(const nlohmann::json& event);
    void flush() { m_file.flush(); }

private:
    QFile m_file;
};

} // namespace ddpdesk::launch
