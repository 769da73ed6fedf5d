#pragma once

// Ranks as threads of one test process, behind the engine's collectives seam (core/train/base/collectives.h),
// as c10d tests its own logic with FakeProcessGroup. A ThreadProcessGroup is the meeting point of N ranks;
// rank(r) is what rank r's Trainer or reducer talks to. Every operation is matched by its sequence number,
// the way Gloo matches them by order: the n-th call of each rank meets the n-th call of every other rank.
//
// What a real group would do, it does the same way here, so the engine's handling is exercised for real:
// - sums are added in rank order, so every rank computes bit-identical values (as the shared-memory
// exchange);
// - a wait past its deadline throws CommError Timeout, naming the operation and the ranks that never came;
// - a rank that left (leave(), as a dead process) makes every wait that needs it throw CommError PeerLost;
// - ranks that disagree on an operation (one broadcasts where another sums, or sizes differ) throw
//   CommError Other naming both, where real Gloo would hang or corrupt.
// Header-only: the test links LibTorch through ddpdesk_train already.

#include "train/base/collectives.h"

#include <ATen/ATen.h>

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace ddpdesk::testsupport {

class ThreadProcessGroup {
public:
    explicit ThreadProcessGroup(int size) : m_size(size) {
        for (int r = 0; r < size; ++r)
            m_ranks.push_back(std::make_unique<Rank>(*this, r));
    }

    // What rank r uses; owned by the group, valid while it lives.
    train::Collectives& rank(int r) { return *m_ranks.at(static_cast<std::size_t>(r)); }

    // Rank r is gone (its process died): whatever waits for it fails as a lost peer.
    void leave(int r) {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_left.push_back(r);
        m_changed.notify_all();
    }

    // How many operations each rank has called so far (tests compare them).
    std::uint64_t callsOf(int r) const {
        std::lock_guard<std::mutex> lock(m_mutex);
        return m_ranks.at(static_cast<std::size_t>(r))->m_calls;
    }

private:
    enum class Op { Sum, Broadcast, Barrier };

    static const char* opName(Op op) {
        return op == Op::Sum ? "allreduce" : op == Op::Broadcast ? "broadcast" : "barrier";
    }

    // One sequence number's meeting: what each rank brought, and how many have read the result.
    struct Meeting {
        std::vector<bool> arrived;
        std::vector<Op> ops;
        std::vector<std::vector<at::Tensor>> tensors; // each rank's own tensors, written in place at the end
        std::vector<int> roots;
        int arrivals = 0;
        bool done = false;
        std::string mismatch;
    };

    class Pending final : public train::PendingCollective {
    public:
        Pending(ThreadProcessGroup& g, std::uint64_t seq, int rank) : m_g(g), m_seq(seq), m_rank(rank) {}
        void wait(std::chrono::milliseconds timeout) override { m_g.complete(m_seq, m_rank, timeout); }

    private:
        ThreadProcessGroup& m_g;
        std::uint64_t m_seq;
        int m_rank;
    };

    class Rank final : public train::Collectives {
    public:
        Rank(ThreadProcessGroup& g, int rank) : m_g(g), m_rank(rank) {}
        int rank() const override { return m_rank; }
        int size() const override { return m_g.m_size; }
        const char* backendName() const override { return "threads"; }
        std::string cannotSum(c10::ScalarType) const override { return {}; }
        std::shared_ptr<train::PendingCollective> allreduceSum(const at::Tensor& tensor) override {
            return m_g.arrive(m_rank, Op::Sum, {tensor}, 0);
        }
        std::shared_ptr<train::PendingCollective> broadcast(const std::vector<at::Tensor>& tensors,
                                                            int root) override {
            return m_g.arrive(m_rank, Op::Broadcast, tensors, root);
        }
        std::shared_ptr<train::PendingCollective> barrier() override {
            return m_g.arrive(m_rank, Op::Barrier, {}, 0);
        }
        std::uint64_t m_calls = 0; // guarded by the group's mutex

    private:
        ThreadProcessGroup& m_g;
        int m_rank;
    };

    std::shared_ptr<train::PendingCollective> arrive(int rank, Op op, const std::vector<at::Tensor>& tensors,
                                                     int root) {
        std::lock_guard<std::mutex> lock(m_mutex);
        Rank& self = *m_ranks[static_cast<std::size_t>(rank)];
        const std::uint64_t seq = self.m_calls++;
        Meeting& m = meeting(seq);
        m.arrived[static_cast<std::size_t>(rank)] = true;
        m.ops[static_cast<std::size_t>(rank)] = op;
        m.tensors[static_cast<std::size_t>(rank)] = tensors;
        m.roots[static_cast<std::size_t>(rank)] = root;
        ++m.arrivals;
        if (m.arrivals == m_size) finish(seq, m);
        m_changed.notify_all();
        return std::make_shared<Pending>(*this, seq, rank);
    }

    Meeting& meeting(std::uint64_t seq) {
        Meeting& m = m_meetings[seq];
        if (m.arrived.empty()) {
            const auto n = static_cast<std::size_t>(m_size);
            m.arrived.assign(n, false);
            m.ops.assign(n, Op::Barrier);
            m.tensors.assign(n, {});
            m.roots.assign(n, 0);
        }
        return m;
    }

    // Every rank is here: check they agree, then write each rank's result into its own tensors.
    void finish(std::uint64_t seq, Meeting& m) {
        m.done = true;
        for (int r = 1; r < m_size; ++r) {
            const auto i = static_cast<std::size_t>(r);
            const bool sameShape = m.tensors[i].size() == m.tensors[0].size() && [&] {
                for (std::size_t k = 0; k < m.tensors[i].size(); ++k)
                    if (!m.tensors[i][k].sizes().equals(m.tensors[0][k].sizes())) return false;
                return true;
            }();
            if (m.ops[i] != m.ops[0] || m.roots[i] != m.roots[0] || !sameShape) {
                m.mismatch = "collective " + std::to_string(seq) + ": rank 0 called " + opName(m.ops[0]) +
                             ", rank " + std::to_string(r) + " called " + opName(m.ops[i]) +
                             (sameShape ? "" : " with other tensor sizes");
                return;
            }
        }
        if (m.ops[0] == Op::Sum) {
            at::Tensor acc = m.tensors[0][0].clone();
            for (int r = 1; r < m_size; ++r)
                acc.add_(m.tensors[static_cast<std::size_t>(r)][0]);
            for (auto& t : m.tensors)
                t[0].copy_(acc);
        } else if (m.ops[0] == Op::Broadcast) {
            const auto root = static_cast<std::size_t>(m.roots[0]);
            for (std::size_t r = 0; r < m.tensors.size(); ++r)
                if (r != root)
                    for (std::size_t k = 0; k < m.tensors[r].size(); ++k)
                        m.tensors[r][k].copy_(m.tensors[root][k]);
        }
    }

    void complete(std::uint64_t seq, int rank, std::chrono::milliseconds timeout) {
        std::unique_lock<std::mutex> lock(m_mutex);
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        auto lost = [&] {
            for (int r : m_left)
                if (!meeting(seq).arrived[static_cast<std::size_t>(r)]) return r;
            return -1;
        };
        m_changed.wait_until(lock, deadline, [&] { return meeting(seq).done || lost() >= 0; });
        Meeting& m = meeting(seq);
        const std::string what = std::string(opName(m.ops[static_cast<std::size_t>(rank)])) + " " +
                                 std::to_string(seq) + " of rank " + std::to_string(rank);
        if (!m.done) {
            if (const int r = lost(); r >= 0)
                throw train::CommError(train::CommFailure::PeerLost,
                                       what + ": rank " + std::to_string(r) + " left the group");
            std::string missing;
            for (int r = 0; r < m_size; ++r)
                if (!m.arrived[static_cast<std::size_t>(r)])
                    missing += (missing.empty() ? "" : ", ") + std::to_string(r);
            throw train::CommError(train::CommFailure::Timeout, what + ": timed out after " +
                                                                    std::to_string(timeout.count()) +
                                                                    " ms waiting for rank(s) " + missing);
        }
        if (!m.mismatch.empty()) throw train::CommError(train::CommFailure::Other, m.mismatch);
    }

    const int m_size;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<std::unique_ptr<Rank>> m_ranks;
    std::map<std::uint64_t, Meeting> m_meetings; // kept for the group's life: tests are short
    std::vector<int> m_left;
};

} // namespace ddpdesk::testsupport
