#pragma once

// DIR/tensorboard/events.out.tfevents.<unix seconds>.<host>: a TensorBoard event file, written by hand. The
// format is small and fixed (TensorFlow's record_writer.cc and event.proto / summary.proto), and TensorBoard
// itself is not packaged in Debian, so nothing here needs TensorFlow or protobuf:
//   record = uint64 LE length, uint32 LE masked CRC32C of those 8 bytes, data, uint32 LE masked CRC32C of
//   data Event  = 1: wall_time (double), 2: step (int64), 3: file_version (string), 5: summary (Summary)
//   Summary = 1: value (repeated Value); Value = 1: tag (string), 2: simple_value (float)
// The encoding (namespace tfevents) is plain C++; the file is opened through Qt, which creates it exclusively
// on every OS (an existing name, a link included, is never reused or followed).

#include <QFile>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ddpdesk::launch {

namespace tfevents {

struct Scalar {
    std::string tag;
    float value = 0;
};

// CRC-32C (Castagnoli, reflected 0x82F63B78), continuing from `crc` (0 to start).
std::uint32_t crc32c(const void* data, std::size_t size, std::uint32_t crc = 0);
// TFRecord's masking: a CRC of data that holds CRCs is itself no good CRC, so stored ones are rotated and
// offset.
std::uint32_t maskedCrc32c(const void* data, std::size_t size);
// One TFRecord around `data`.
std::string record(const std::string& data);
// An Event's bytes (not framed): the first one of a file, and one with scalar values for one step.
std::string versionEvent(double wallTime);
std::string scalarEvent(double wallTime, std::int64_t step, const std::vector<Scalar>& values);

} // namespace tfevents

class TensorBoardWriter {
public:
    static constexpr const char* kFileVersion = "brain.Event:2";

    ~TensorBoardWriter() { close(); }

    // Creates a new event file in `folder` (which must exist) and writes the version record. The name carries
    // the wall time's seconds and this host's name, as TensorFlow's writers name theirs; a name already taken
    // gets a ".N" suffix rather than touching what is there. False with *why when nothing could be created.
    bool open(const QString& folder, double wallTime, QString* why);
    void close();
    bool isOpen() const { return m_file.isOpen(); }
    QString path() const { return m_file.fileName(); }
    qint64 bytesWritten() const { return m_bytes; }

    // One Event carrying `values` at `step`; non-finite values are left out (TensorBoard would draw a NaN as
    // a gap at best), and nothing is written when none is left. False (and the file closed, *why set) when
    // the write failed, e.g. a full disk.
    bool addScalars(std::int64_t step, double wallTime, const std::vector<tfevents::Scalar>& values,
                    QString* why = nullptr);
    bool addScalar(const std::string& tag, std::int64_t step, double wallTime, double value,
                   QString* why = nullptr) {
        return addScalars(step, wallTime, {{tag, float(value)}}, why);
    }
    // Hands what was written to the OS, so TensorBoard reading the file meanwhile sees whole records. A
    // failed write usually shows here (the writes before it only fill Qt's buffer): false, closed and *why as
    // above.
    bool flush(QString* why = nullptr);

private:
    bool writeRecord(const std::string& event, QString* why);
    bool fail(QString* why);

    QFile m_file;
    qint64 m_bytes = 0;
};

} // namespace ddpdesk::launch
