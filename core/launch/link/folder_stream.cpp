#include "launch/link/folder_stream.h"

#include "os/plain_file.h"
#include "protocol/json_fields.h"
#include "protocol/node_link.h"
#include "protocol/run_auth.h"

namespace ddpdesk::launch::link {

namespace nl = protocol::node_link;
namespace fs = std::filesystem;

namespace {

nl::Direction directionOf(int node) {
    return node == 0 ? nl::Direction::Down : nl::Direction::Up;
}

constexpr std::size_t kReadChunk = 256u << 10;

} // namespace

FolderStreamWriter::FolderStreamWriter(fs::path folder, std::string secret, int node)
    : m_folder(std::move(folder)), m_secret(std::move(secret)), m_node(node),
      m_session(protocol::randomHex(8)) {}

fs::path FolderStreamWriter::segmentPath(std::uint64_t k) const {
    return m_folder / nl::segmentFileName(m_node, m_session, k);
}

bool FolderStreamWriter::write(const std::string& frame, bool create) {
    // Created by this launcher, then appended to only while it is still a regular file: a link put in its
    // place is refused, never followed. Closed after every batch: the share's other machines see it, and
    // node 0 may remove it.
    os::PlainFile out =
        os::PlainFile::open(segmentPath(m_segment),
                            create ? os::PlainFile::Mode::CreateNew : os::PlainFile::Mode::AppendExisting);
    if (!out.isOpen() || !out.writeAll(frame.data(), frame.size())) {
        m_error = "cannot write " + segmentPath(m_segment).string() + ": " + out.error();
        return false;
    }
    m_bytes += frame.size();
    return true;
}

bool FolderStreamWriter::append(const std::string& payload) {
    const auto signedFrame = [&](const std::string& text) {
        return nl::frameBytes(nl::signFrame(m_secret, nl::segmentNonce(m_node, m_session, m_segment),
                                            directionOf(m_node), m_seq++, text));
    };
    if (m_begun && m_bytes + payload.size() > nl::kSegmentBytes) {
        if (!write(signedFrame(nlohmann::json{{nl::field::Type, nl::type::Next}}.dump()))) return false;
        ++m_segment;
        m_begun = false;
    }
    if (!m_begun) { // a name taken already is never written over (CreateNew)
        m_seq = 0;
        m_bytes = 0;
        const nlohmann::json header{{nl::field::Type, nl::type::Segment},
                                    {nl::field::Version, nl::kVersion},
                                    {nl::field::Node, m_node},
                                    {nl::field::Session, m_session},
                                    {nl::field::SegmentIndex, m_segment}};
        if (!write(nl::frameBytes(nl::signFrame({}, {}, directionOf(m_node), 0, header.dump())), true))
            return false;
        m_begun = true;
    }
    return write(signedFrame(payload));
}

int FolderStreamWriter::unreadSegments() {
    std::error_code ec;
    while (m_oldest < m_segment && !fs::exists(segmentPath(m_oldest), ec))
        ++m_oldest;
    return int(m_segment - m_oldest) + (m_begun && fs::exists(segmentPath(m_segment), ec) ? 1 : 0);
}

void FolderStreamWriter::removeAll() {
    std::error_code ec;
    for (std::uint64_t k = m_oldest; k <= m_segment; ++k)
        fs::remove(segmentPath(k), ec);
}

FolderStreamReader::FolderStreamReader(fs::path folder, std::string secret, int node, std::string session,
                                       bool removeRead)
    : m_folder(std::move(folder)), m_secret(std::move(secret)), m_node(node), m_session(std::move(session)),
      m_removeRead(removeRead) {}

void FolderStreamReader::broken(const std::string& why) {
    m_state = State::Broken;
    m_error = why;
    m_buffer.clear();
}

std::vector<nlohmann::json> FolderStreamReader::poll(std::size_t maxBytes) {
    std::vector<nlohmann::json> out;
    std::size_t read = 0;
    while (m_state == State::Reading && read < maxBytes) {
        const fs::path file = m_folder / nl::segmentFileName(m_node, m_session, m_segment);
        // Only a regular file: a FIFO named like a segment would block this thread for good, a link would
        // read whatever it points to.
        os::PlainFile in = os::PlainFile::open(file, os::PlainFile::Mode::ReadExisting);
        if (in.status() == os::PlainFile::Status::NotRegular) {
            broken(in.error());
            break;
        }
        if (!in.isOpen()) break; // not there yet (or not visible on the share yet)
        std::string chunk(std::min(kReadChunk, maxBytes - read), '\0');
        const std::int64_t got = in.readAt(m_offset, chunk.data(), chunk.size());
        in.close();
        const auto n = std::size_t(got > 0 ? got : 0);
        chunk.resize(n);
        m_offset += n;
        read += n;
        m_buffer += chunk;
        bool next = false;
        if (!parse(out, &next)) {
            if (m_removeRead && m_state == State::Ended) { // a broken one stays, as evidence
                std::error_code ec;
                fs::remove(file, ec);
            }
            break;
        }
        if (next) {
            if (m_removeRead) {
                std::error_code ec;
                fs::remove(file, ec);
            }
            ++m_segment;
            m_offset = m_seq = 0;
            m_headerSeen = false;
            m_buffer.clear();
            continue;
        }
        if (n == 0) break; // nothing more written yet
    }
    return out;
}

bool FolderStreamReader::parse(std::vector<nlohmann::json>& out, bool* nextSegment) {
    std::size_t at = 0;
    while (m_buffer.size() - at >= 4) {
        const std::uint32_t length =
            nl::frameLength(reinterpret_cast<const unsigned char*>(m_buffer.data() + at));
        if (length > nl::kMaxFrameBytes || length < nl::kMacHexChars) {
            broken("a frame of " + std::to_string(length) + " bytes (at most " +
                   std::to_string(nl::kMaxFrameBytes) + "): not written by a DDP Desk launcher");
            return false;
        }
        if (m_buffer.size() - at < 4 + length) break;
        const std::string body = m_buffer.substr(at + 4, length);
        at += 4 + length;
        if (!m_headerSeen) {
            const auto text = nl::unsignedPayload(body);
            const nlohmann::json h = text ? nlohmann::json::parse(*text, nullptr, false) : nlohmann::json();
            const protocol::JsonFields f(h);
            if (f.text(nl::field::Type) != nl::type::Segment || f.integer(nl::field::Node, -1) != m_node ||
                f.text(nl::field::Session) != m_session ||
                f.count(nl::field::SegmentIndex, std::uint64_t(-1)) != m_segment) {
                broken("segment " + std::to_string(m_segment) + " does not begin as its name says");
                return false;
            }
            m_headerSeen = true;
            continue;
        }
        const auto payload = nl::verifyFrame(m_secret, nl::segmentNonce(m_node, m_session, m_segment),
                                             directionOf(m_node), m_seq, body);
        if (!payload) {
            broken("frame " + std::to_string(m_seq) + " of segment " + std::to_string(m_segment) +
                   " is not signed with this run's secret (forged, changed or out of order)");
            return false;
        }
        ++m_seq;
        nlohmann::json j = nlohmann::json::parse(*payload, nullptr, false);
        if (!j.is_object()) {
            broken("a signed frame that is not a JSON object");
            return false;
        }
        const std::string type = protocol::JsonFields(j).text(nl::field::Type);
        if (type == nl::type::Next) {
            *nextSegment = true;
            return true;
        }
        if (type == nl::type::Bye) {
            m_state = State::Ended;
            m_buffer.clear();
            return false;
        }
        out.push_back(std::move(j));
    }
    m_buffer.erase(0, at);
    return true;
}

void FolderStreamReader::removeRest() {
    std::error_code ec;
    for (std::uint64_t k = m_segment;; ++k)
        if (!fs::remove(m_folder / nl::segmentFileName(m_node, m_session, k), ec)) break;
}

} // namespace ddpdesk::launch::link
