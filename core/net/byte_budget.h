#pragma once

// The store server's budget of bytes in flight, all connections together: frames being received and answers
// being built or sent. Every byte is taken before the memory for it is, so what a client can make the server
// hold follows the budget, never a length prefix or a reply it asks for. Taking never blocks: a request that
// does not fit is refused at once, and the caller names that.

#include <atomic>
#include <cstdint>

namespace ddpdesk::net {

class ByteBudget {
public:
    explicit ByteBudget(std::uint64_t max) : m_max(max) {}
    bool take(std::uint64_t n); // all of n, or nothing
    void give(std::uint64_t n) { m_used -= n; }
    std::uint64_t used() const { return m_used.load(); }
    std::uint64_t max() const { return m_max; }

private:
    const std::uint64_t m_max;
    std::atomic<std::uint64_t> m_used{0};
};

// What one piece of work (a query's frame, an answer) holds of a budget; given back when it is released or
// destroyed, so an exception or an early return cannot leak budget.
class BudgetCharge {
public:
    explicit BudgetCharge(ByteBudget& budget) : m_budget(budget) {}
    ~BudgetCharge() { release(); }
    bool take(std::uint64_t n); // false: nothing more was taken
    void release();
    std::uint64_t bytes() const { return m_bytes; }

    BudgetCharge(const BudgetCharge&) = delete;
    BudgetCharge& operator=(const BudgetCharge&) = delete;

private:
    ByteBudget& m_budget;
    std::uint64_t m_bytes = 0;
};

} // namespace ddpdesk::net
