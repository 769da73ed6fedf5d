#pragma once

// One launcher's stream in a run's link folder (protocol/node_link.h, "Over a folder"): the writer appends
// signed frames to its segment files, the reader follows one stream and checks every frame. The folder is on
// a share any machine of the job (and any process there) may write to, so the reader trusts nothing it has
// not verified: a length over kMaxFrameBytes, a segment that is not the one it names or a frame without the
// run's MAC ends the stream (Broken, with why), and a poll reads a bounded number of bytes. Plain C++ without
// threads (the folder link's thread drives both); files only through std::filesystem and os::PlainFile (a
// link, a FIFO or a folder named like a segment is refused, never followed or waited on), so a UNC share's
// path works as well as a local folder.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace ddpdesk::launch::link {

class FolderStreamWriter {
public:
    FolderStreamWriter(std::filesystem::path folder, std::string secret, int node);

    const std::string& session() const { return m_session; }
    // Appends `payload` (one JSON object's text) as a signed frame; a segment past kSegmentBytes is closed
    // with "next" first. False (error()) when the file cannot be written or the segment's name is taken.
    bool append(const std::string& payload);
    // Segments of this stream still in the folder (node 0 removes another node's once it has read them).
    int unreadSegments();
    // Removes every segment of this stream still there (the run is over).
    void removeAll();
    const std::string& error() const { return m_error; }

private:
    bool write(const std::string& frame, bool create = false);
    std::filesystem::path segmentPath(std::uint64_t k) const;

    const std::filesystem::path m_folder;
    const std::string m_secret;
    const int m_node;
    const std::string m_session;
    std::uint64_t m_segment = 0, m_oldest = 0, m_seq = 0, m_bytes = 0;
    bool m_begun = false;
    std::string m_error;
};

class FolderStreamReader {
public:
    enum class State { Reading, Ended, Broken };
    // removeRead: remove each segment once read through (node 0, reading another node's stream).
    FolderStreamReader(std::filesystem::path folder, std::string secret, int node, std::string session,
                       bool removeRead);

    // The payloads verified since the last poll, at most about maxBytes of the files read.
    std::vector<nlohmann::json> poll(std::size_t maxBytes = 1u << 20);
    State state() const { return m_state; }
    const std::string& error() const { return m_error; } // Broken: why
    int node() const { return m_node; }
    const std::string& session() const { return m_session; }
    std::uint64_t segment() const { return m_segment; }
    void removeRest(); // the run is over: the segments of this stream still there

private:
    // The frames of m_buffer that are whole: false once the stream ended or broke.
    bool parse(std::vector<nlohmann::json>& out, bool* nextSegment);
    void broken(const std::string& why);

    const std::filesystem::path m_folder;
    const std::string m_secret;
    const int m_node;
    const std::string m_session;
    const bool m_removeRead;
    std::uint64_t m_segment = 0, m_offset = 0, m_seq = 0;
    bool m_headerSeen = false;
    std::string m_buffer; // bytes of a frame not whole yet: at most a frame's
    State m_state = State::Reading;
    std::string m_error;
};

} // namespace ddpdesk::launch::link
