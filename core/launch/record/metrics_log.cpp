#include "launch/record/metrics_log.h"

#include <QCoreApplication>

#include <algorithm>
#include <filesystem>

#include "os/utf8_path.h"
#include "protocol/telemetry.h"

namespace ddpdesk::launch {

namespace {

// Periodic samples: a coarser series of them still draws the same curve. Everything else is a fact that
// happens once (launch, rendezvous, epoch, error, exit, ...) and is never dropped.
bool isSample(const std::string& type) {
    return type == protocol::ev::Step || type == protocol::ev::Gpu || type == protocol::ev::Proc;
}

} // namespace

bool MetricsLog::open(const QString& path, bool append, QString* error) {
    close();
    namespace fs = std::filesystem;
    const fs::path file = os::pathFromUtf8(path.toStdString());
    std::error_code ec;
    // A fresh log replaces an earlier run's (listed in the folder's mark as the launcher's): the entry is
    // removed, a link itself and never what it points to, and the file created anew.
    if (!append && (os::isPlainFileEntry(file) || fs::is_symlink(fs::symlink_status(file, ec))))
        fs::remove(file, ec);
    m_file = os::PlainFile::open(file, append ? os::PlainFile::Mode::AppendExisting
                                              : os::PlainFile::Mode::CreateNew);
    if (append && m_file.status() == os::PlainFile::Status::Missing)
        m_file = os::PlainFile::open(file, os::PlainFile::Mode::CreateNew);
    if (!m_file.isOpen()) {
        if (error)
            *error = QCoreApplication::translate("ddpdesk::launch::MetricsLog", "cannot write '%1': %2")
                         .arg(path, QString::fromStdString(m_file.error()));
        return false;
    }
    const std::uintmax_t size = append ? fs::file_size(file, ec) : 0;
    m_bytes = ec ? 0 : qint64(size); // appending continues the thinning where the file already is
    m_thinned = 0;
    m_seen.clear();
    return true;
}

void MetricsLog::flush() {
    if (m_pending.isEmpty() || !m_file.isOpen()) return;
    m_file.writeAll(m_pending.constData(), std::size_t(m_pending.size()));
    m_pending.clear();
}

void MetricsLog::close() {
    flush();
    m_file.close();
}

void MetricsLog::setThinning(qint64 fromBytes, qint64 chunkBytes) {
    m_thinFrom = fromBytes;
    m_thinChunk = chunkBytes > 0 ? chunkBytes : 1;
}

qint64 MetricsLog::stride() const {
    if (m_bytes < m_thinFrom) return 1;
    const qint64 doublings = 1 + (m_bytes - m_thinFrom) / m_thinChunk;
    return qint64(1) << std::min<qint64>(doublings, 40);
}

void MetricsLog::writeRaw(const QByteArray& line) {
    if (!m_file.isOpen()) return;
    m_pending += line;
    m_pending += '\n';
    m_bytes += line.size() + 1;
    if (m_pending.size() >= (16 << 10)) flush();
}

bool MetricsLog::keep(const nlohmann::json& event) {
    const auto type = event.find(protocol::field::Event);
    if (type == event.end() || !type->is_string() || !isSample(type->get_ref<const std::string&>()))
        return true;
    const auto rank = event.find(protocol::field::Rank);
    const int r = (rank != event.end() && rank->is_number_integer()) ? rank->get<int>() : -1;
    const qint64 n = m_seen[{type->get<std::string>(), r}]++;
    if (n % stride() == 0) return true;
    ++m_thinned;
    return false;
}

void MetricsLog::write(const nlohmann::json& event) {
    if (!m_file.isOpen() || !keep(event)) return;
    std::string line = protocol::encodeLine(event);
    const auto text = event.find(protocol::field::Text);
    if (line.size() > protocol::kMaxLineBytes && text != event.end() && text->is_string()) {
        // Cut from the middle, keeping the end, where the supervisor's own cut marker is. Escaping makes the
        // encoded size of a prefix unknown in advance: the longest head that fits is searched for (rare, so a
        // few encodings do not matter).
        const std::string& t = text->get_ref<const std::string&>();
        const size_t tail = std::min<size_t>(t.size(), 64);
        nlohmann::json cut = event;
        auto encodeWithHead = [&](size_t head) {
            cut[protocol::field::Text] = t.substr(0, head) + " [cut] " + t.substr(t.size() - tail);
            return protocol::encodeLine(cut);
        };
        size_t lo = 0, hi = t.size() - tail; // encodeWithHead(lo) is taken as fitting
        while (lo < hi) {
            const size_t mid = lo + (hi - lo + 1) / 2;
            if (encodeWithHead(mid).size() <= protocol::kMaxLineBytes)
                lo = mid;
            else
                hi = mid - 1;
        }
        line = encodeWithHead(lo);
    }
    writeRaw(QByteArray::fromStdString(line));
}

} // namespace ddpdesk::launch
