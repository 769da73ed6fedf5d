#pragma once

// c10d TCPStore's wire protocol, written once for the doctor's read-only client and DDP Desk's own server.
// Two dialects, both verified against real PyTorch (Debian's 1.13 and Debian 13's 2.6):
//   v1 (PyTorch 1.x): a connection starts with its first query.
//   v2 (PyTorch 2.x): a connection starts with VALIDATE + uint32 kValidationMagic; query codes shift by one.
// Integers travel in host order (every platform PyTorch supports is little-endian); strings and values are a
// uint64 length and the bytes; CHECK answers one byte (0 ready, 1 not ready), WAIT one byte (0 stop waiting,
// 1 wait cancelled).

#include <cstdint>
#include <optional>
#include <string>

namespace ddpdesk::net::wire {

constexpr std::uint32_t kValidationMagic = 0x3C85F7CE;

enum class Query {
    Validate,
    Set,
    CompareSet,
    Get,
    Add,
    Check,
    Wait,
    NumKeys,
    WatchKey, // v1 only
    DeleteKey,
    Append, // v2 only, from here on
    MultiGet,
    MultiSet,
    CancelWait,
    Ping,
};

constexpr std::uint8_t kCheckReady = 0, kCheckNotReady = 1;
constexpr std::uint8_t kStopWaiting = 0, kWaitCanceled = 1;

// The byte a dialect sends for a query (nullopt: the dialect has no such query).
std::optional<std::uint8_t> code(int dialect, Query q);
// The query a byte means in a dialect (nullopt: unknown there).
std::optional<Query> query(int dialect, std::uint8_t code);

void putLe(std::string& out, std::uint64_t v, int bytes);
std::uint64_t getLe(const unsigned char* b, int bytes);
void putString(std::string& out, const std::string& s); // uint64 length + bytes

} // namespace ddpdesk::net::wire
