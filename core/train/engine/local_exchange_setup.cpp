// How the ranks of a job find the ranks they share a machine with, and the shared block each node maps
// (local_exchange.h). Every step is a collective over the whole job, so every rank takes the same branch.
#include "train/engine/local_exchange.h"

#include "os/process.h"

#include <torch/torch.h>

#include <algorithm>
#include <cstdio>
#include <random>

namespace ddpdesk::train {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kAutoLimitBytes = 2ull << 30; // beyond this, auto mode leaves the job to Gloo

std::size_t alignUp(std::size_t n) {
    return (n + kExchangeLine - 1) / kExchangeLine * kExchangeLine;
}

std::uint64_t randomToken() {
    std::random_device rd;
    return (static_cast<std::uint64_t>(rd()) << 32) ^ rd() ^
           static_cast<std::uint64_t>(Clock::now().time_since_epoch().count()) ^
           (static_cast<std::uint64_t>(os::currentPid()) << 17);
}

std::string tokenText(std::uint64_t v) {
    char buf[17];
    std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

// 64-bit values travel through a float64 allreduce as two 32-bit halves (exact in a double).
void put(std::vector<double>& v, std::size_t at, std::uint64_t x) {
    v[at] = static_cast<double>(x >> 32);
    v[at + 1] = static_cast<double>(x & 0xffffffffu);
}
std::uint64_t take(const std::vector<double>& v, std::size_t at) {
    return (static_cast<std::uint64_t>(v[at]) << 32) | static_cast<std::uint64_t>(v[at + 1]);
}

// FNV-1a: equal host names give equal keys on every platform.
std::uint64_t nodeKey(const std::string& name) {
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char c : name)
        h = (h ^ c) * 1099511628211ull;
    return h;
}

// A float64 sum over the group: each rank fills its own entries, so the sum gathers everyone's.
std::vector<double> allreduce(Collectives& group, const std::vector<double>& values,
                              std::chrono::milliseconds timeout) {
    at::Tensor t = torch::tensor(values, torch::kFloat64);
    group.allreduceSum(t)->wait(timeout);
    return std::vector<double>(t.data_ptr<double>(), t.data_ptr<double>() + t.numel());
}

// Why this rank will not use shared memory at all; empty when it will.
std::string refusal(const std::vector<at::Tensor>& buckets, GradTransport mode) {
    if (mode == GradTransport::Gloo) return "Gloo was asked for (--grad-transport gloo)";
    for (const at::Tensor& b : buckets)
        if (!b.device().is_cpu()) return "gradients live on " + b.device().str() + ", not in host memory";
    return {};
}

} // namespace

struct LocalGradientExchange::Layout {
    std::size_t controlBytes = 0;
    std::size_t rankDataBytes = 0;
    std::vector<std::size_t> offsets; // per bucket, within a rank's data block
    // Two halves of every rank's slots, then the leader's result area.
    std::size_t total(int ranks) const {
        return controlBytes + (2 * static_cast<std::size_t>(ranks) + 1) * rankDataBytes;
    }
};

LocalGradientExchange::Setup
LocalGradientExchange::setup(Collectives& group, const std::vector<at::Tensor>& buckets, GradTransport mode,
                             std::chrono::milliseconds timeout, const std::string& nodeName) {
    const int rank = group.rank(), world = group.size();
    const std::size_t controlLines = 1 + 2 * buckets.size();
    Layout layout;
    for (const at::Tensor& b : buckets) {
        layout.offsets.push_back(layout.rankDataBytes);
        layout.rankDataBytes += alignUp(static_cast<std::size_t>(b.numel()) * b.element_size());
    }

    // 1. Who is willing, and where everyone runs.
    std::string note = refusal(buckets, mode);
    std::vector<double> census(3 * static_cast<std::size_t>(world), 0.0);
    put(census, 3 * rank, nodeKey(nodeName));
    census[3 * rank + 2] = note.empty() ? 0.0 : 1.0;
    census = allreduce(group, census, timeout);
    int declined = 0;
    std::vector<std::uint64_t> keys;
    for (int r = 0; r < world; ++r) {
        keys.push_back(take(census, 3 * r));
        declined += static_cast<int>(census[3 * r + 2]);
    }
    if (declined > 0) {
        if (note.empty())
            note = std::to_string(declined) + " of " + std::to_string(world) +
                   " ranks declined shared memory (--grad-transport gloo, gradients on a GPU, or a block too "
                   "large; see their logs)";
        return Setup{nullptr, note};
    }
    std::vector<int> members, leaders;
    for (int r = 0; r < world; ++r) {
        if (keys[r] == keys[rank]) members.push_back(r);
        if (std::find(keys.begin(), keys.begin() + r, keys[r]) == keys.begin() + r) leaders.push_back(r);
    }
    if (leaders.size() == static_cast<std::size_t>(world))
        return Setup{nullptr, "every rank runs on a machine of its own (" + std::to_string(world) +
                                  " host names): there is no memory to share"};
    // Every rank sees the same census, so every rank takes this branch or none.
    std::size_t largest = 0;
    for (int leader : leaders)
        largest =
            std::max(largest, static_cast<std::size_t>(std::count(keys.begin(), keys.end(), keys[leader])));
    layout.controlBytes = largest * controlLines * kExchangeLine;
    const std::size_t largestTotal = layout.total(static_cast<int>(largest));
    if (mode == GradTransport::Auto && largestTotal > kAutoLimitBytes)
        return Setup{nullptr, "the gradients need " + std::to_string(largestTotal >> 20) +
                                  " MiB of shared memory on a machine (more than " +
                                  std::to_string(kAutoLimitBytes >> 20) +
                                  " MiB); --grad-transport shm forces it"};

    // 2. Each node's leader creates its block and names it; the node's other ranks open it.
    std::unique_ptr<LocalGradientExchange> ex(new LocalGradientExchange);
    ex->m_world = static_cast<int>(members.size());
    ex->m_rank = static_cast<int>(std::find(members.begin(), members.end(), rank) - members.begin());
    ex->m_jobRanks = members;
    ex->m_nodeCount = static_cast<int>(leaders.size());
    ex->m_nodeIndex =
        static_cast<int>(std::find(leaders.begin(), leaders.end(), members[0]) - leaders.begin());
    ex->m_buckets = buckets.size();
    ex->m_controlLines = controlLines;
    layout.controlBytes = static_cast<std::size_t>(ex->m_world) * controlLines * kExchangeLine;
    const std::size_t total = layout.total(ex->m_world);
    std::vector<double> names(2 * static_cast<std::size_t>(world), 0.0);
    std::uint64_t token = 0;
    if (ex->isLeader()) {
        try {
            token = randomToken() | 1; // never 0, which means "no block"
            ex->m_shm = SharedMemory::create(tokenText(token), total);
            put(names, 2 * rank, token);
        } catch (const std::exception& e) {
            note = e.what();
        }
    }
    names = allreduce(group, names, timeout);
    token = take(names, 2 * static_cast<std::size_t>(members[0]));
    if (!ex->isLeader() && token == 0)
        note =
            "rank " + std::to_string(members[0]) + " could not create its node's shared block (see its log)";
    if (!ex->isLeader() && token != 0) {
        try {
            ex->m_shm = SharedMemory::open(tokenText(token), total);
        } catch (const std::exception& e) {
            note = e.what();
        }
    }
    if (ex->m_shm)
        ex->counter(ex->m_rank, 0)
            .store(static_cast<std::uint64_t>(os::currentPid()), std::memory_order_release);
    const std::vector<double> opened = allreduce(group, {ex->m_shm ? 1.0 : 0.0}, timeout);
    if (ex->isLeader() && ex->m_shm)
        ex->m_shm->removeName(); // everybody who could open it has: nothing is left behind after a crash
    if (opened[0] < world) {
        const std::string count =
            std::to_string(static_cast<int>(opened[0])) + " of " + std::to_string(world) + " could map";
        if (!note.empty())
            note += " (" + count + " the shared memory)";
        else if (leaders.size() == 1)
            note = "not every rank runs on this machine (" + count + " the shared memory)";
        else
            note = "ranks with the same host name could not share memory (" + count + " their node's block)";
        return Setup{nullptr, note};
    }

    // 3. Liveness checks during waits need every local peer's process to be visible (not so across PID
    // namespaces).
    bool seeAll = true;
    for (int r = 0; r < ex->m_world; ++r) {
        ex->m_pids.push_back(static_cast<std::int64_t>(ex->counter(r, 0).load(std::memory_order_acquire)));
        seeAll = seeAll && os::processAlive(ex->m_pids.back());
    }
    const std::vector<double> visible = allreduce(group, {seeAll ? 1.0 : 0.0}, timeout);
    if (visible[0] < world)
        return Setup{nullptr,
                     "the ranks share memory but cannot see each other's processes (separate containers?)"};
    ex->m_name = "ddpdesk-" + tokenText(token);
    ex->mapSlots(layout, buckets);
    return Setup{std::move(ex), {}};
}

void LocalGradientExchange::mapSlots(const Layout& layout, const std::vector<at::Tensor>& buckets) {
    auto view = [&](std::size_t base, std::size_t b) {
        return torch::from_blob(m_shm->data() + base + layout.offsets[b], {buckets[b].numel()},
                                buckets[b].options().requires_grad(false));
    };
    for (std::size_t parity = 0; parity < 2; ++parity) {
        m_slots.emplace_back();
        for (int r = 0; r < m_world; ++r) {
            m_slots[parity].emplace_back();
            const std::size_t base = layout.controlBytes + (parity * m_world + r) * layout.rankDataBytes;
            for (std::size_t b = 0; b < buckets.size(); ++b)
                m_slots[parity][r].push_back(view(base, b));
        }
    }
    const std::size_t resultBase =
        layout.controlBytes + 2 * static_cast<std::size_t>(m_world) * layout.rankDataBytes;
    for (std::size_t b = 0; b < buckets.size(); ++b)
        m_results.push_back(view(resultBase, b));
}

} // namespace ddpdesk::train
