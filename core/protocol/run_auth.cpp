#include "protocol/run_auth.h"

#include "protocol/json_fields.h"
#include "protocol/sha256.h"

#include "os/private_file.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <random>

namespace ddpdesk::protocol {

namespace {

// Empty when `path` is a regular file only its owner can read; else why not, naming the path and the fix.
std::string secretFileProblem(const std::string& path) {
    const os::FileReadersAnswer answer = os::fileReaders(path);
    switch (answer.readers) {
    case os::FileReaders::OwnerOnly:
        return {};
    case os::FileReaders::Missing:
        return path + " cannot be read (missing?)";
    case os::FileReaders::NotRegular:
        return path + " is not a regular file";
    case os::FileReaders::InvalidName:
        return path + " is not a valid UTF-8 path";
    case os::FileReaders::Others:
        break;
    }
    char mode[8];
    std::snprintf(mode, sizeof(mode), "%04o", answer.mode);
    return path + " is accessible by group or others (mode " + mode + "); run: chmod 600 " + path;
}

std::string trimmed(const std::string& s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

std::string macMessage(int rank, const std::string& host, std::int64_t pid, const std::string& nonce,
                       const std::string& context) {
    return std::to_string(rank) + "|" + host + "|" + std::to_string(pid) + "|" + nonce + "|" + context;
}

} // namespace

std::string authKey(int rank) {
    return "ddpdesk/auth/" + std::to_string(rank);
}

std::string authContext(int worldSize) {
    return "ddpdesk-rank-proof/v1|world_size=" + std::to_string(worldSize);
}

std::string randomHex(std::size_t bytes) {
    std::random_device source;
    std::string raw;
    raw.reserve(bytes);
    while (raw.size() < bytes) {
        const unsigned int word = source();
        for (std::size_t i = 0; i < sizeof(word) && raw.size() < bytes; ++i)
            raw += static_cast<char>((word >> (8 * i)) & 0xff);
    }
    return toHex(raw);
}

std::string newRunSecretHex() {
    return randomHex(kRunSecretBytes);
}

bool decodeRunSecret(const std::string& text, std::string* secret, std::string* error) {
    const std::string hex = trimmed(text);
    std::string bytes;
    if (hex.size() != 2 * kRunSecretBytes || !fromHex(hex, &bytes)) {
        if (error)
            *error =
                "a run secret is " + std::to_string(2 * kRunSecretBytes) +
                " hexadecimal characters (as in the OUT/run-secret file node 0's launcher writes); got " +
                std::to_string(hex.size()) + " characters" +
                (hex.size() == 2 * kRunSecretBytes ? " with non-hex ones" : "");
        return false;
    }
    *secret = std::move(bytes);
    return true;
}

bool readRunSecretFile(const std::string& path, std::string* secret, std::string* error) {
    const std::string problem = secretFileProblem(path);
    if (!problem.empty()) {
        if (error) *error = problem;
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    std::string content(256, '\0');
    in.read(content.data(), static_cast<std::streamsize>(content.size()));
    content.resize(static_cast<std::size_t>(in.gcount()));
    if (!in.eof() && in.good()) {
        if (error) *error = path + " is too long for a run secret";
        return false;
    }
    std::string why;
    if (!decodeRunSecret(content, secret, &why)) {
        if (error) *error = path + ": " + why;
        return false;
    }
    return true;
}

std::string makeAuthRecord(const std::string& secret, int rank, const std::string& host, std::int64_t pid,
                           const std::string& context) {
    const std::string nonce = randomHex(16);
    const std::string mac = toHex(hmacSha256(secret, macMessage(rank, host, pid, nonce, context)));
    return nlohmann::json{{"rank", rank}, {"host", host}, {"pid", pid}, {"nonce", nonce}, {"mac", mac}}.dump(
        -1, ' ', false, nlohmann::json::error_handler_t::replace);
}

AuthCheck verifyAuthRecord(const std::string& record, int rank, const std::string& secret,
                           const std::string& context) {
    AuthCheck c;
    const nlohmann::json j = nlohmann::json::parse(record, nullptr, false);
    if (!j.is_object()) {
        c.why = "its proof record is not JSON";
        return c;
    }
    // Any process that reaches the store wrote this record: read through the accessor that cannot throw.
    const JsonFields f(j);
    c.host = f.text("host");
    c.pid = f.integer64("pid", -1);
    const std::int64_t claimed = f.integer64("rank", -1);
    const std::string nonce = f.text("nonce"), claimedMac = f.text("mac");
    if (!f.ok() || claimed < 0 || nonce.empty() || claimedMac.empty() || c.pid < 0) {
        c.why = "its proof record lacks rank, host, pid, nonce or mac";
        return c;
    }
    if (claimed != rank) {
        c.why = "its proof record claims rank " + std::to_string(claimed);
        return c;
    }
    const std::string expected = toHex(hmacSha256(secret, macMessage(rank, c.host, c.pid, nonce, context)));
    if (!equalConstantTime(expected, claimedMac)) {
        c.why = "its proof does not verify with this run's secret";
        return c;
    }
    c.ok = true;
    return c;
}

} // namespace ddpdesk::protocol
