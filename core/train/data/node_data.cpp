#include "train/data/node_data.h"

#include "os/shared_memory.h"
#include "train/base/environment.h"
#include "train/base/identity.h"

#include "os/process.h"
#include "os/utf8_path.h"
#include "protocol/sha256.h"

#include <torch/torch.h>

#include <atomic>
#include <cstring>
#include <thread>

namespace ddpdesk::train {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

using BlockHeader = NodeDataShare::BlockHeader;
constexpr std::size_t kHeaderBytes = NodeDataShare::kHeaderBytes;
// How long the others wait for the first rank's block to appear at all: it creates it first thing, but its
// process may start later than theirs.
constexpr std::chrono::milliseconds kAppearWait{15000};
constexpr std::chrono::milliseconds kPidWait{3000};

static_assert(sizeof(BlockHeader) <= kHeaderBytes, "the header fits its line");
static_assert(std::atomic<std::uint64_t>::is_always_lock_free, "shared counters need lock-free atomics");

BlockHeader& header(SharedMemory& shm) {
    return *reinterpret_cast<BlockHeader*>(shm.data());
}

constexpr std::uint64_t kPrime1 = 0x9E3779B97F4A7C15ull, kPrime2 = 0xC2B2AE3D27D4EB4Full;

std::uint64_t rotl(std::uint64_t x, int r) {
    return (x << r) | (x >> (64 - r));
}

std::uint64_t avalanche(std::uint64_t x) { // MurmurHash3's finaliser
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

// Why a block marked ready must not be used, or "" when its images are what the first rank wrote.
std::string contentsProblem(SharedMemory& shm, const std::string& token, std::uint64_t expectBytes) {
    const BlockHeader& hd = header(shm);
    const std::string name = SharedMemory::osName(token);
    if (hd.payloadBytes != expectBytes)
        return "the block " + name + " says it holds " + std::to_string(hd.payloadBytes) +
               " bytes of images, the file " + std::to_string(expectBytes) + ": not used";
    if (NodeDataShare::checksum(shm.data() + kHeaderBytes, static_cast<std::size_t>(expectBytes)) !=
        hd.checksum)
        return "the images in the block " + name + " do not match their checksum: not used";
    return {};
}

// A uint8 tensor over the block's data that keeps the block mapped while any view of it lives.
at::Tensor view(const std::shared_ptr<SharedMemory>& shm, const std::vector<std::int64_t>& dims) {
    return torch::from_blob(
        shm->data() + kHeaderBytes, dims, [keep = shm](void*) mutable { keep.reset(); }, torch::kUInt8);
}

} // namespace

std::uint64_t NodeDataShare::checksum(const unsigned char* data, std::size_t bytes) {
    // Four independent lanes of 8-byte words (xxHash's round), so the multiplications overlap.
    std::uint64_t lane[4] = {kPrime1, kPrime2, kPrime1 ^ kPrime2, ~kPrime1};
    std::size_t i = 0;
    for (; i + 32 <= bytes; i += 32)
        for (int l = 0; l < 4; ++l) {
            std::uint64_t w;
            std::memcpy(&w, data + i + 8 * l, sizeof w);
            lane[l] = rotl(lane[l] + w * kPrime2, 31) * kPrime1;
        }
    std::uint64_t h = static_cast<std::uint64_t>(bytes);
    for (std::uint64_t v : lane)
        h = rotl(h ^ avalanche(v), 27) * kPrime1;
    for (; i < bytes; ++i)
        h = rotl(h ^ (data[i] * kPrime2), 11) * kPrime1;
    return avalanche(h);
}

NodeDataShare::NodeDataShare(Plan plan) : m_plan(std::move(plan)) {
    if (m_plan.runSecret.empty() || !m_plan.localWorldKnown || m_plan.localWorldSize < 2) return;
    m_enabled = true;
}

std::string NodeDataShare::tokenFor(const fs::path& file) const {
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(file, ec);
    const auto size = fs::file_size(file, ec);
    const auto mtime = fs::last_write_time(file, ec).time_since_epoch().count();
    // A restart of the same run (the launcher's TORCHELASTIC_RESTART_COUNT) names fresh blocks: a first rank
    // killed in the last attempt may have left its block behind.
    const std::string attempt = envValue("TORCHELASTIC_RESTART_COUNT").value_or("0");
    const protocol::Sha256Digest d = protocol::sha256("ddpdesk-node-data|" + m_plan.runSecret + "|" +
                                                      attempt + "|" + os::utf8(ec ? file : canonical) + "|" +
                                                      std::to_string(size) + "|" + std::to_string(mtime));
    return "d" + protocol::toHex(d).substr(0, 16);
}

IdxArray NodeDataShare::load(const fs::path& file) {
    if (!m_enabled) return readIdxFile(file);
    const std::string token = tokenFor(file);
    return m_plan.localRank == 0 ? create(file, token) : attach(file, token);
}

IdxArray NodeDataShare::create(const fs::path& file, const std::string& token) {
    std::shared_ptr<SharedMemory> shm;
    std::string why;
    IdxArray a;
    try {
        a = readIdxFile(file, [&](const IdxHeader& h) -> at::Tensor {
            try {
                shm = SharedMemory::create(token, kHeaderBytes + static_cast<std::size_t>(h.bytes));
            } catch (const std::exception& e) {
                why = e.what();
                return {}; // a copy of its own; the others give up waiting and read theirs
            }
            header(*shm).creatorPid.store(static_cast<std::uint64_t>(os::currentPid()));
            m_created.push_back(token);
            return view(shm, h.dims);
        });
    } catch (...) {
        if (shm) header(*shm).state.store(BlockHeader::Failed, std::memory_order_release);
        throw;
    }
    if (!shm) {
        noteNotShared(file, why);
        return a;
    }
    BlockHeader& hd = header(*shm);
    hd.payloadBytes = shm->size() - kHeaderBytes;
    hd.checksum = checksum(shm->data() + kHeaderBytes, shm->size() - kHeaderBytes);
    hd.state.store(BlockHeader::Ready, std::memory_order_release);
    noteShared("images shared with this machine's other " + std::to_string(m_plan.localWorldSize - 1) +
               " rank(s) (one copy per machine)");
    return a;
}

IdxArray NodeDataShare::attach(const fs::path& file, const std::string& token) {
    const IdxHeader h = readIdxHeader(file); // the same file, so the same size as the first rank's block
    const std::size_t bytes = kHeaderBytes + static_cast<std::size_t>(h.bytes);
    const Clock::time_point start = Clock::now();
    std::shared_ptr<SharedMemory> shm;
    std::string why;
    bool untrusted = false;
    while (!shm) {
        try {
            shm = SharedMemory::open(token, bytes);
        } catch (const UntrustedSharedMemory& e) {
            // Someone else holds the name: the first rank's block can never appear under it.
            why = e.what();
            untrusted = true;
            break;
        } catch (const std::exception& e) {
            why = e.what();
            if (Clock::now() - start > std::min(kAppearWait, m_plan.timeout)) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }
    std::uint32_t state = BlockHeader::Filling;
    std::string problem; // why a ready block is not used
    if (shm) {
        // The first rank writes its pid right after creating the block; none after a while means it gave the
        // block up before that (no room in /dev/shm) and reads its own copy.
        const Clock::time_point opened = Clock::now(), deadline = start + m_plan.timeout;
        BlockHeader& hd = header(*shm);
        while ((state = hd.state.load(std::memory_order_acquire)) == BlockHeader::Filling) {
            const std::uint64_t pid = hd.creatorPid.load();
            if (pid == 0 ? Clock::now() - opened > kPidWait
                         : !os::processAlive(static_cast<std::int64_t>(pid)))
                break;
            if (Clock::now() > deadline) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        if (state == BlockHeader::Ready)
            problem = contentsProblem(*shm, token, static_cast<std::uint64_t>(h.bytes));
        if (state == BlockHeader::Ready && problem.empty() &&
            hd.mapped.fetch_add(1) + 2 == static_cast<std::uint32_t>(m_plan.localWorldSize))
            SharedMemory::removeName(token); // the last of the local ranks to map it
    }
    if (state != BlockHeader::Ready || !problem.empty()) {
        std::string reason = problem;
        if (reason.empty() && untrusted)
            reason = why;
        else if (reason.empty() && shm)
            reason = state == BlockHeader::Failed ? "the first rank could not read them"
                                                  : "the first rank did not finish them in time";
        else if (reason.empty())
            reason = "no block from the first rank (" + why + ")";
        noteNotShared(file, reason + "; this rank reads its own copy");
        return readIdxFile(file);
    }
    noteShared("images mapped from this machine's first rank (one copy per machine)");
    IdxArray a;
    a.dims = h.dims;
    a.data = view(shm, h.dims);
    return a;
}

void NodeDataShare::noteShared(const std::string& text) {
    if (m_notShared.empty()) m_note = text;
}

// Kept whatever the later files do: the log line is written once, after every file is loaded.
void NodeDataShare::noteNotShared(const fs::path& file, const std::string& why) {
    m_notShared.push_back("images not shared between this machine's ranks: " + why + " (" +
                          os::utf8(file.filename()) + ")");
    m_note.clear();
    for (const std::string& n : m_notShared)
        m_note += (m_note.empty() ? "" : "; ") + n;
}

void NodeDataShare::releaseNames() {
    for (const std::string& token : m_created)
        SharedMemory::removeName(token);
    m_created.clear();
}

} // namespace ddpdesk::train
