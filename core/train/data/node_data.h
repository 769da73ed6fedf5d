#pragma once

// One copy of a data set's images per machine. The machine's first rank (local rank 0) inflates each IDX
// image file straight into a shared block named after the run and the file; the machine's other ranks map
// that block instead of inflating a copy each, read-only in effect (nothing writes it after it is ready). The
// name goes once every local rank has mapped it (the last one removes it), or when the creating rank ends,
// also on SIGTERM/SIGINT/SIGHUP (shared_memory.h): a kill leaves nothing behind unless it is SIGKILL of the
// first rank while a peer has not mapped the block yet, as with the gradient blocks. A rank that cannot share
// (no run secret to name the block after, a single local rank, no block after a wait) reads its own copy and
// says why. So does a rank that finds a block it must not trust: one this user does not own alone
// (SharedMemory::open), or whose images do not match the checksum the first rank wrote beside them.

#include "train/data/idx_reader.h"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace ddpdesk::train {

class NodeDataShare {
public:
    // The start of every data block, ahead of the images. The first rank fills the images, then writes their
    // size and checksum, then marks the block Ready; the others check both before they use a single byte.
    static constexpr std::size_t kHeaderBytes = 64;
    struct BlockHeader {
        enum State : std::uint32_t { Filling = 0, Ready = 1, Failed = 2 };
        std::atomic<std::uint32_t> state;
        std::atomic<std::uint32_t> mapped; // local ranks other than the first that have mapped the block
        std::atomic<std::uint64_t> creatorPid;
        std::uint64_t payloadBytes; // published by the release store of state = Ready
        std::uint64_t checksum;     // checksum() of the payloadBytes after the header
    };
    // A 64-bit hash of the images (not cryptographic: the owner check keeps other users out, this catches
    // contents that are not what the first rank wrote). ~4 ms for 47 MB here.
    static std::uint64_t checksum(const unsigned char* data, std::size_t bytes);

    struct Plan {
        std::string runSecret; // raw bytes; empty: no sharing (nothing unique to name the blocks after)
        int localRank = 0;
        int localWorldSize = 1;
        bool localWorldKnown = false;
        std::chrono::milliseconds timeout{60000}; // waiting for the first rank's block to be ready
    };
    explicit NodeDataShare(Plan plan);

    bool enabled() const { return m_enabled; }
    // The token of `file`'s block (SharedMemory's name for it): from the run secret, the restart attempt and
    // the file's path, size and modification time.
    std::string tokenFor(const std::filesystem::path& file) const;
    // The IDX file's bytes: in the machine's shared block when possible, else read by this rank alone.
    IdxArray load(const std::filesystem::path& file);
    // Removes the names of the blocks this rank created; call once every local rank is past loading its data
    // (they have mapped the blocks or given up): after the job's first collective.
    void releaseNames();
    // What happened, for the rank's log: "shared with ..." or, for each file that was not, why not ("" when
    // sharing was never planned).
    const std::string& note() const { return m_note; }

private:
    IdxArray create(const std::filesystem::path& file, const std::string& token);
    IdxArray attach(const std::filesystem::path& file, const std::string& token);
    void noteShared(const std::string& text);
    void noteNotShared(const std::filesystem::path& file, const std::string& why);

    Plan m_plan;
    bool m_enabled = false;
    std::string m_note;
    std::vector<std::string> m_notShared; // why each file that was not shared was not
    std::vector<std::string> m_created;   // tokens of the blocks this rank created
};

} // namespace ddpdesk::train
