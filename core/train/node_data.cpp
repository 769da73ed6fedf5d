#include "train/node_data.h"

#include "train/identity.h"
#include "train/shared_memory.h"

#include "os/process.h"
#include "protocol/sha256.h"

#include <torch/torch.h>

#include <atomic>
#include <thread>

namespace ddpdesk::train {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::size_t kHeaderBytes = 64;
// How long the others wait for the first rank's block to appear at all: it creates it first thing, but its
// process may start later than theirs.
constexpr std::chrono::milliseconds kAppearWait{15000};
constexpr std::chrono::milliseconds kPidWait{3000};

enum State : std::uint32_t { Filling = 0, Ready = 1, Failed = 2 };

struct Header {
    std::atomic<std::uint32_t> state;
    std::atomic<std::uint32_t> mapped; // local ranks other than the first that have mapped the block
    std::atomic<std::uint64_t> creatorPid;
};
static_assert(sizeof(Header) <= kHeaderBytes, "the header fits its line");
static_assert(std::atomic<std::uint64_t>::is_always_lock_free, "shared counters need lock-free atomics");

Header& header(SharedMemory& shm) {
    return *reinterpret_cast<Header*>(shm.data());
}

// A uint8 tensor over the block's data that keeps the block mapped while any view of it lives.
at::Tensor view(const std::shared_ptr<SharedMemory>& shm, const std::vector<std::int64_t>& dims) {
    return torch::from_blob(
        shm->data() + kHeaderBytes, dims, [keep = shm](void*) mutable { keep.reset(); }, torch::kUInt8);
}

} // namespace

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
    const protocol::Sha256Digest d = protocol::sha256(
        "ddpdesk-node-data|" + m_plan.runSecret + "|" + attempt + "|" + (ec ? file : canonical).u8string() +
        "|" + std::to_string(size) + "|" + std::to_string(mtime));
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
        if (shm) header(*shm).state.store(Failed, std::memory_order_release);
        throw;
    }
    if (!shm) {
        m_note = "images not shared between this machine's ranks: " + why;
        return a;
    }
    header(*shm).state.store(Ready, std::memory_order_release);
    m_note = "images shared with this machine's other " + std::to_string(m_plan.localWorldSize - 1) +
             " rank(s) (one copy per machine)";
    return a;
}

IdxArray NodeDataShare::attach(const fs::path& file, const std::string& token) {
    const IdxHeader h = readIdxHeader(file); // the same file, so the same size as the first rank's block
    const std::size_t bytes = kHeaderBytes + static_cast<std::size_t>(h.bytes);
    const Clock::time_point start = Clock::now();
    std::shared_ptr<SharedMemory> shm;
    std::string why;
    while (!shm) {
        try {
            shm = SharedMemory::open(token, bytes);
        } catch (const std::exception& e) {
            why = e.what();
            if (Clock::now() - start > std::min(kAppearWait, m_plan.timeout)) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }
    std::uint32_t state = Filling;
    if (shm) {
        // The first rank writes its pid right after creating the block; none after a while means it gave the
        // block up before that (no room in /dev/shm) and reads its own copy.
        const Clock::time_point opened = Clock::now(), deadline = start + m_plan.timeout;
        Header& hd = header(*shm);
        while ((state = hd.state.load(std::memory_order_acquire)) == Filling) {
            const std::uint64_t pid = hd.creatorPid.load();
            if (pid == 0 ? Clock::now() - opened > kPidWait
                         : !os::processAlive(static_cast<std::int64_t>(pid)))
                break;
            if (Clock::now() > deadline) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        if (state == Ready && hd.mapped.fetch_add(1) + 2 == static_cast<std::uint32_t>(m_plan.localWorldSize))
            SharedMemory::removeName(token); // the last of the local ranks to map it
    }
    if (state != Ready) {
        m_note = "images not shared between this machine's ranks: " +
                 (shm ? std::string(state == Failed ? "the first rank could not read them"
                                                    : "the first rank did not finish them in time")
                      : "no block from the first rank (" + why + ")") +
                 "; this rank reads its own copy";
        return readIdxFile(file);
    }
    m_note = "images mapped from this machine's first rank (one copy per machine)";
    IdxArray a;
    a.dims = h.dims;
    a.data = view(shm, h.dims);
    return a;
}

void NodeDataShare::releaseNames() {
    for (const std::string& token : m_created)
        SharedMemory::removeName(token);
    m_created.clear();
}

} // namespace ddpdesk::train
