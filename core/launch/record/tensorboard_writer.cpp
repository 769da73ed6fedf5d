#include "launch/record/tensorboard_writer.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSysInfo>

#include <array>
#include <cmath>
#include <cstring>

namespace ddpdesk::launch {

namespace tfevents {

namespace {

using Table = std::array<std::uint32_t, 256>;

Table makeTable() {
    Table t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int k = 0; k < 8; ++k)
            c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        t[i] = c;
    }
    return t;
}

// Protobuf wire format, only what Event and Summary need.
enum WireType { Varint = 0, Fixed64 = 1, LengthDelimited = 2, Fixed32 = 5 };

void putVarint(std::string& out, std::uint64_t v) {
    while (v >= 0x80) {
        out.push_back(char(std::uint8_t(v) | 0x80));
        v >>= 7;
    }
    out.push_back(char(v));
}

void putKey(std::string& out, int field, WireType type) {
    putVarint(out, (std::uint64_t(field) << 3) | std::uint64_t(type));
}

template <typename T> void putLittleEndian(std::string& out, T v) {
    for (std::size_t i = 0; i < sizeof(T); ++i)
        out.push_back(char(std::uint8_t(v >> (8 * i))));
}

void putDouble(std::string& out, int field, double v) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    putKey(out, field, Fixed64);
    putLittleEndian(out, bits);
}

void putFloat(std::string& out, int field, float v) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    putKey(out, field, Fixed32);
    putLittleEndian(out, bits);
}

void putBytes(std::string& out, int field, const std::string& bytes) {
    putKey(out, field, LengthDelimited);
    putVarint(out, bytes.size());
    out += bytes;
}

void putWallTimeAndStep(std::string& event, double wallTime, std::int64_t step) {
    putDouble(event, 1, wallTime);
    if (step != 0) { // proto3: a default value is not written
        putKey(event, 2, Varint);
        putVarint(event, std::uint64_t(step)); // int64: negative values as their two's complement, 10 bytes
    }
}

} // namespace

std::uint32_t crc32c(const void* data, std::size_t size, std::uint32_t crc) {
    static const Table table = makeTable();
    const auto* p = static_cast<const std::uint8_t*>(data);
    crc = ~crc;
    for (std::size_t i = 0; i < size; ++i)
        crc = table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

std::uint32_t maskedCrc32c(const void* data, std::size_t size) {
    const std::uint32_t crc = crc32c(data, size);
    return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

std::string record(const std::string& data) {
    std::string out;
    out.reserve(data.size() + 16);
    putLittleEndian(out, std::uint64_t(data.size()));
    putLittleEndian(out, maskedCrc32c(out.data(), 8));
    out += data;
    putLittleEndian(out, maskedCrc32c(data.data(), data.size()));
    return out;
}

std::string versionEvent(double wallTime) {
    std::string event;
    putWallTimeAndStep(event, wallTime, 0);
    putBytes(event, 3, TensorBoardWriter::kFileVersion);
    return event;
}

std::string scalarEvent(double wallTime, std::int64_t step, const std::vector<Scalar>& values) {
    std::string summary;
    for (const Scalar& s : values) {
        std::string value;
        putBytes(value, 1, s.tag);
        putFloat(value, 2, s.value);
        putBytes(summary, 1, value);
    }
    std::string event;
    putWallTimeAndStep(event, wallTime, step);
    putBytes(event, 5, summary);
    return event;
}

} // namespace tfevents

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ddpdesk::launch::TensorBoardWriter", text);
}

// The host part of the file name: TensorBoard only needs "tfevents" in it, but a name must stay one path
// component on every OS.
QString hostForFileName() {
    QString host = QSysInfo::machineHostName();
    for (QChar& c : host)
        if (!(c.isLetterOrNumber() && c.unicode() < 128) && c != QLatin1Char('-') && c != QLatin1Char('.'))
            c = QLatin1Char('_');
    return host.isEmpty() ? QStringLiteral("localhost") : host;
}

} // namespace

bool TensorBoardWriter::open(const QString& folder, double wallTime, QString* why) {
    close();
    const QString base =
        QStringLiteral("events.out.tfevents.%1.%2").arg(qint64(std::floor(wallTime))).arg(hostForFileName());
    for (int n = 0; n < 100; ++n) {
        m_file.setFileName(QDir(folder).filePath(n == 0 ? base : base + QStringLiteral(".%1").arg(n)));
        // NewOnly: O_EXCL / CREATE_NEW, so whatever has that name (a file, a link) is left alone.
        if (m_file.open(QIODevice::WriteOnly | QIODevice::NewOnly)) break;
        if (!QFileInfo(m_file.fileName()).isSymLink() && !QFileInfo::exists(m_file.fileName())) {
            if (why)
                *why = tr("cannot create %1: %2")
                           .arg(QDir::toNativeSeparators(m_file.fileName()), m_file.errorString());
            return false;
        }
    }
    if (!m_file.isOpen()) {
        if (why) *why = tr("no free event file name in %1").arg(QDir::toNativeSeparators(folder));
        return false;
    }
    m_bytes = 0;
    return writeRecord(tfevents::versionEvent(wallTime), why) && flush(why);
}

void TensorBoardWriter::close() {
    if (m_file.isOpen()) m_file.close();
}

bool TensorBoardWriter::addScalars(std::int64_t step, double wallTime,
                                   const std::vector<tfevents::Scalar>& values, QString* why) {
    if (!m_file.isOpen()) return false;
    std::vector<tfevents::Scalar> finite;
    finite.reserve(values.size());
    for (const tfevents::Scalar& s : values)
        if (std::isfinite(s.value)) finite.push_back(s);
    if (finite.empty()) return true;
    return writeRecord(tfevents::scalarEvent(wallTime, step, finite), why);
}

bool TensorBoardWriter::flush(QString* why) {
    if (!m_file.isOpen()) return false;
    if (m_file.flush()) return true;
    return fail(why);
}

bool TensorBoardWriter::writeRecord(const std::string& event, QString* why) {
    const std::string bytes = tfevents::record(event);
    if (m_file.write(bytes.data(), qint64(bytes.size())) == qint64(bytes.size())) {
        m_bytes += qint64(bytes.size());
        return true;
    }
    return fail(why);
}

bool TensorBoardWriter::fail(QString* why) {
    if (why)
        *why =
            tr("cannot write %1: %2").arg(QDir::toNativeSeparators(m_file.fileName()), m_file.errorString());
    m_file.close();
    return false;
}

} // namespace ddpdesk::launch
