#pragma once

// One copy of a data set's images per machine. The machine's first rank (local rank 0) inflates each IDX
// image file straight into a shared block named after the run and the file; the machine's other ranks map
// that block instead of inflating a copy each, read-only in effect (nothing writes it after it is ready). The
// name goes once every local rank has mapped it (the last one removes it), or when the creating rank ends,
// also on SIGTERM/SIGINT/SIGHUP (shared_memory.h): a kill leaves nothing behind unless it is SIGKILL of the
// first rank while a peer has not mapped the block yet, as with the gradient blocks. A rank that cannot share
// (no run secret to name the block after, a single local rank, no block after a wait) reads its own copy and
// says why.

#include "train/idx_reader.h"

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace ddpdesk::train {

class NodeDataShare {
public:
    struct Plan {
        std::string runSecret; // raw bytes; empty: no sharing (nothing unique to name the blocks after)
        int localRank = 0;
        int localWorldSize = 1;
        bool localWorldKnown = false;
        std::chrono::milliseconds timeout{60000}; // waiting for the first rank's block to be ready
    };
    explicit NodeDataShare(Plan plan);

    bool enabled() const { return m_enabled; }
    // The IDX file's bytes: in the machine's shared block when possible, else read by this rank alone.
    IdxArray load(const std::filesystem::path& file);
    // Removes the names of the blocks this rank created; call once every local rank is past loading its data
    // (they have mapped the blocks or given up): after the job's first collective.
    void releaseNames();
    // What happened, for the rank's log: "shared with ..." or why not ("" when sharing was never planned).
    const std::string& note() const { return m_note; }

private:
    IdxArray create(const std::filesystem::path& file, const std::string& token);
    IdxArray attach(const std::filesystem::path& file, const std::string& token);
    std::string tokenFor(const std::filesystem::path& file) const;

    Plan m_plan;
    bool m_enabled = false;
    std::string m_note;
    std::vector<std::string> m_created; // tokens of the blocks this rank created
};

} // namespace ddpdesk::train
