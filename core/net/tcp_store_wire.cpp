#include "net/tcp_store_wire.h"

#include <array>

namespace ddpdesk::net::wire {

namespace {

// Indexed by the byte on the wire. v1 from PyTorch 1.13's TCPStore.cpp, v2 from 2.x's TCPStoreBackend.hpp.
constexpr std::array<Query, 9> kV1 = {Query::Set,     Query::CompareSet, Query::Get,
                                      Query::Add,     Query::Check,      Query::Wait,
                                      Query::NumKeys, Query::WatchKey,   Query::DeleteKey};
constexpr std::array<Query, 14> kV2 = {Query::Validate,   Query::Set,    Query::CompareSet, Query::Get,
                                       Query::Add,        Query::Check,  Query::Wait,       Query::NumKeys,
                                       Query::DeleteKey,  Query::Append, Query::MultiGet,   Query::MultiSet,
                                       Query::CancelWait, Query::Ping};

template <std::size_t N> std::optional<std::uint8_t> find(const std::array<Query, N>& table, Query q) {
    for (std::size_t i = 0; i < N; ++i)
        if (table[i] == q) return static_cast<std::uint8_t>(i);
    return std::nullopt;
}

} // namespace

std::optional<std::uint8_t> code(int dialect, Query q) {
    return dialect == 2 ? find(kV2, q) : find(kV1, q);
}

std::optional<Query> query(int dialect, std::uint8_t c) {
    if (dialect == 2) return c < kV2.size() ? std::optional<Query>(kV2[c]) : std::nullopt;
    return c < kV1.size() ? std::optional<Query>(kV1[c]) : std::nullopt;
}

void putLe(std::string& out, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i)
        out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::uint64_t getLe(const unsigned char* b, int bytes) {
    std::uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i)
        v = (v << 8) | b[i];
    return v;
}

void putString(std::string& out, const std::string& s) {
    putLe(out, s.size(), 8);
    out += s;
}

} // namespace ddpdesk::net::wire
