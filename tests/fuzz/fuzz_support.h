#pragma once

// What the fuzz targets share (tests/fuzz, built with -DDDPDESK_FUZZ=ON): a scratch folder of the process's
// own under $TMPDIR (run_fuzz.sh points it into a folder it removes), writing an input to a file, cutting an
// input into lines, and a net::Connection that reads the input's bytes instead of a socket.
//
// A target never catches what the code under test throws: the product's rule is that these parsers never
// throw, so an exception that escapes is a crash (libFuzzer reports std::terminate's abort). Where the
// product itself turns an escaped exception into a notice (a thread's last resort, os/caught.h), the target
// aborts on that notice for the same reason.

#include "net/net_socket.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

namespace fuzz {

namespace fs = std::filesystem;

[[noreturn]] inline void fail(const std::string& why) {
    std::fprintf(stderr, "fuzz target: %s\n", why.c_str());
    std::fflush(stderr);
    std::abort();
}

// This process's own folder, removed at exit.
inline const fs::path& scratch() {
    struct Folder {
        fs::path path;
        Folder() {
            const char* tmp = std::getenv("TMPDIR");
            std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/ddpdesk-fuzz-XXXXXX";
            if (!mkdtemp(pattern.data())) fail("no scratch folder under $TMPDIR");
            path = pattern;
        }
        ~Folder() {
            std::error_code ec;
            fs::remove_all(path, ec);
        }
    };
    static const Folder folder;
    return folder.path;
}

inline void writeFile(const fs::path& path, std::string_view bytes) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), std::streamsize(bytes.size()));
    if (!f) fail("cannot write " + path.string());
}

// An empty folder under scratch() (emptied again on every call).
inline fs::path freshFolder(const std::string& name) {
    const fs::path dir = scratch() / name;
    std::error_code ec;
    fs::remove_all(dir, ec);
    fs::create_directories(dir);
    return dir;
}

inline std::vector<std::string> splitLines(std::string_view text, char sep = '\n') {
    std::vector<std::string> lines;
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t end = text.find(sep, at);
        if (end == std::string_view::npos) {
            lines.emplace_back(text.substr(at));
            break;
        }
        lines.emplace_back(text.substr(at, end - at));
        at = end + 1;
    }
    return lines;
}

// A peer whose bytes are the input: reads take them in order, the end of the input is an orderly close, and
// what is sent is kept (up to a cap) and otherwise ignored. Never times out, never blocks.
class BytesConnection final : public ddpdesk::net::Connection {
public:
    BytesConnection(const std::uint8_t* data, std::size_t size) : m_data(data), m_size(size) {}
    bool sendAll(const void* data, std::size_t size, ddpdesk::net::TimePoint) override {
        if (m_sent.size() < kSentCap)
            m_sent.append(static_cast<const char*>(data), std::min(size, kSentCap - m_sent.size()));
        return true;
    }
    bool recvExact(void* data, std::size_t size, ddpdesk::net::TimePoint) override {
        if (m_size - m_at < size) {
            m_at = m_size;
            m_closed = true;
            return false;
        }
        if (size) std::memcpy(data, m_data + m_at, size);
        m_at += size;
        return true;
    }
    bool sendByteNow(char byte) override { return sendAll(&byte, 1, {}); }
    bool peerClosed() const override { return m_closed; }
    bool timedOut() const override { return false; }
    std::string lastError() const override { return m_closed ? "end of the input" : ""; }
    void cancel() override {}
    const std::string& sent() const { return m_sent; }

private:
    static constexpr std::size_t kSentCap = 1 << 20;
    const std::uint8_t* m_data;
    std::size_t m_size, m_at = 0;
    bool m_closed = false;
    std::string m_sent;
};

} // namespace fuzz
