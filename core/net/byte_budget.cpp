#include "net/byte_budget.h"

namespace ddpdesk::net {

bool ByteBudget::take(std::uint64_t n) {
    std::uint64_t used = m_used.load();
    do {
        // Written so that a huge n cannot wrap around and pass.
        if (n > m_max || used > m_max - n) return false;
    } while (!m_used.compare_exchange_weak(used, used + n));
    return true;
}

bool BudgetCharge::take(std::uint64_t n) {
    if (!m_budget.take(n)) return false;
    m_bytes += n;
    return true;
}

void BudgetCharge::release() {
    m_budget.give(m_bytes);
    m_bytes = 0;
}

} // namespace ddpdesk::net
