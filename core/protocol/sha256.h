#pragma once

// SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), self-contained so the rank proof needs no crypto library
// on any platform. Not constant-time against local side channels; the attacker here is on the network.

#include <array>
#include <cstdint>
#include <string>

namespace ddpdesk::protocol {

using Sha256Digest = std::array<std::uint8_t, 32>;

Sha256Digest sha256(const std::string& data);
Sha256Digest hmacSha256(const std::string& key, const std::string& message);

// Lowercase hex of any bytes; fromHex is false for an odd length or a non-hex character.
std::string toHex(const std::uint8_t* data, std::size_t size);
std::string toHex(const Sha256Digest& digest);
std::string toHex(const std::string& bytes);
bool fromHex(const std::string& hex, std::string* bytes);

// Compares without stopping at the first difference, so timing does not reveal how much of a MAC matched.
bool equalConstantTime(const std::string& a, const std::string& b);

} // namespace ddpdesk::protocol
