#pragma once

// The run secret and the rank proof: one definition of the names (environment variable, flags, store keys)
// and the record format, used by the launcher (which generates and hands over the secret) and by the worker
// (which proves itself and checks every other rank before the process group forms). Plain C++17.
//
// A record is JSON {"rank","host","pid","nonce","mac"} stored under authKey(rank), where
// mac = hex(HMAC-SHA256(secret, "rank|host|pid|nonce|context")). The secret itself never enters the store:
// anyone who reaches the store can read every record.

#include <cstddef>
#include <cstdint>
#include <string>

namespace ddpdesk::protocol {

// Hex secret handed from launcher to worker through the environment, never on a command line (visible in ps).
constexpr const char* kRunSecretEnv = "DDPDESK_RUN_SECRET";
constexpr const char* kRunSecretFlag = "--run-secret";          // HEX, for ddpdesk-cli on nodes > 0
constexpr const char* kRunSecretFileFlag = "--run-secret-file"; // a file only its owner can read
constexpr std::size_t kRunSecretBytes = 32;

std::string authKey(int rank); // "ddpdesk/auth/<rank>"
// Binds a record to this protocol and job shape, so a record cannot be replayed into a job of another size.
std::string authContext(int worldSize);

std::string randomHex(std::size_t bytes); // std::random_device
std::string newRunSecretHex();            // kRunSecretBytes random bytes as hex

// Accepts exactly kRunSecretBytes as hex (surrounding whitespace ignored); the raw bytes go to *secret.
bool decodeRunSecret(const std::string& text, std::string* secret, std::string* error);
// Refuses a file that others may read (POSIX mode bits), then decodes its content.
bool readRunSecretFile(const std::string& path, std::string* secret, std::string* error);

std::string makeAuthRecord(const std::string& secret, int rank, const std::string& host, std::int64_t pid,
                           const std::string& context);

struct AuthCheck {
    bool ok = false;
    std::string host = "?"; // as claimed by the record, for the error message
    std::int64_t pid = -1;
    std::string why; // when !ok
};

AuthCheck verifyAuthRecord(const std::string& record, int rank, const std::string& secret,
                           const std::string& context);

} // namespace ddpdesk::protocol
