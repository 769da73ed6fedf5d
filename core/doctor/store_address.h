#pragma once

// Parses the store string shared by the worker, the launcher and the doctor: "file:PATH" (also "file://PATH")
// or "tcp://HOST:PORT" (IPv6 hosts in brackets). Kept separate so every probe sees the same interpretation.

#include <filesystem>
#include <string>

namespace ddpdesk::doctor {

struct StoreAddress {
    enum class Kind { Invalid, File, Tcp };
    Kind kind = Kind::Invalid;
    std::filesystem::path path; // File
    std::string host;           // Tcp
    std::string portText;       // Tcp, as written (validated separately so PORT_INVALID can quote it)
    int port = -1;              // Tcp: parsed port, -1 when portText is not a number in 0..65535
    std::string error;          // Invalid: why
};

StoreAddress parseStoreAddress(const std::string& store);

} // namespace ddpdesk::doctor
