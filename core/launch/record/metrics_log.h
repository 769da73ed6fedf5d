#pragma once

// DIR/metrics.jsonl: every telemetry event of every rank as it arrived, plus the launcher's own events
// (launch, log, rank_exit, restart, stall, gpu, proc, run_end), one JSON object per line.
//
// A multi-day run must not fill the disk: once the file passes thinFromBytes, periodic samples (step, gpu,
// proc) are thinned to every k-th per event type and rank, k doubling with every further thinChunkBytes
// written, so the file grows with the logarithm of the run's length. Every other event is always written.

#include "os/plain_file.h"

#include <QByteArray>
#include <QString>

#include <nlohmann/json_fwd.hpp>

#include <map>
#include <string>
#include <utility>

namespace ddpdesk::launch {

class MetricsLog {
public:
    static constexpr qint64 kThinFromBytes = 64LL << 20;
    static constexpr qint64 kThinChunkBytes = 32LL << 20;

    MetricsLog() = default;
    ~MetricsLog() { close(); }
    MetricsLog(const MetricsLog&) = delete;
    MetricsLog& operator=(const MetricsLog&) = delete;

    bool open(const QString& path, bool append, QString* error);
    void close();
    bool isOpen() const { return m_file.isOpen(); }
    void writeRaw(const QByteArray& line); // an already-encoded line, written as is (never thinned)
    // Encodes (invalid UTF-8 replaced) and writes the event unless thinning drops it; a `log` text that would
    // make the line longer than protocol::kMaxLineBytes is cut, so replay never has to skip a recorded line.
    void write(const nlohmann::json& event);
    void flush(); // what is buffered goes to the file

    void setThinning(qint64 fromBytes, qint64 chunkBytes); // tests use small sizes
    qint64 stride() const;                                 // 1 while nothing is thinned
    qint64 bytesWritten() const { return m_bytes; }
    qint64 thinnedEvents() const { return m_thinned; }

private:
    bool keep(const nlohmann::json& event);

    // Opened without following a link (os::PlainFile): a link planted in OUT in place of metrics.jsonl while
    // the run starts is refused, never written through. Lines collect in m_pending and go out 16 KiB at a
    // time.
    os::PlainFile m_file;
    QByteArray m_pending;
    qint64 m_bytes = 0;
    qint64 m_thinned = 0;
    qint64 m_thinFrom = kThinFromBytes;
    qint64 m_thinChunk = kThinChunkBytes;
    std::map<std::pair<std::string, int>, qint64> m_seen; // sampled events per (type, rank)
};

} // namespace ddpdesk::launch
