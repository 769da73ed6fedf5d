#pragma once

// The rendezvous store string shared by the worker, the launcher and the doctor: "file:PATH" or
// "tcp://HOST:PORT". One parser, so a path or address means the same thing to every part of DDP Desk.
//   file:/tmp/run/store  file:C:\runs\store  file:\\server\share\store    the path as written
//   file:///tmp/x -> /tmp/x   file:///C:/x, file://C:/x -> C:/x   file://server/share/x -> //server/share/x
//   (UNC) tcp://127.0.0.1:29500  tcp://node0:29500  tcp://[::1]:29500 (IPv6 in brackets)

#include <filesystem>
#include <string>

namespace ddpdesk::protocol {

struct StoreSpec {
    enum class Kind { Invalid, File, Tcp };
    Kind kind = Kind::Invalid;
    std::filesystem::path path; // File
    std::string host;           // Tcp, without IPv6 brackets
    std::string portText;       // Tcp, as written (so an error can quote it)
    int port = -1;              // Tcp: 0..65535, or -1 when portText is not such a number
    std::string error;          // Invalid: why, naming what was expected
};

StoreSpec parseStoreSpec(const std::string& store);

// Whether `text` is an IPv6 address as written in a URL's brackets ("::1", "fe80::1%eth0",
// "::ffff:10.0.0.1").
bool isIpv6Literal(const std::string& text);

// A host as a URL writes it: an IPv6 address in brackets ("[::1]"), anything else (and a host already
// bracketed) as it is.
std::string urlHost(const std::string& host);

// "tcp://HOST:PORT" with IPv6 hosts bracketed again.
std::string tcpStoreSpec(const std::string& host, int port);

// The store as a user writes it, for messages and events: "file:PATH" or "tcp://HOST:PORT"; "" when invalid.
std::string storeSpecText(const StoreSpec& spec);

} // namespace ddpdesk::protocol
