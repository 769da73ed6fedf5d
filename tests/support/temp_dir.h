#pragma once

// A fresh folder under the system's temporary folder, removed with everything in it when the object goes: the
// Qt-free tests' QTemporaryDir. Portable C++17 (std::filesystem); the name is random so parallel ctest runs
// and concurrent test binaries never share one.

#include "os/utf8_path.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <stdexcept>
#include <string>
#include <system_error>

namespace ddpdesk::testsupport {

class TempDir {
public:
    TempDir() {
        std::random_device seed;
        std::mt19937_64 random(seed());
        const std::filesystem::path base = std::filesystem::temp_directory_path();
        for (int attempt = 0; attempt < 100; ++attempt) {
            std::filesystem::path candidate =
                base / ("ddpdesk-test-" + std::to_string(random() % 1000000000000ULL));
            std::error_code ec;
            // create_directory is false when the name exists: another one is tried, nothing shared.
            if (std::filesystem::create_directory(candidate, ec)) {
                m_path = candidate;
                return;
            }
        }
        throw std::runtime_error("cannot create a temporary folder under " + base.string());
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return m_path; }
    // The folder as a string (UTF-8 on every platform), for command lines.
    std::string str() const { return os::utf8(m_path); }
    std::string filePath(const std::string& name) const { return os::utf8(m_path / os::pathFromUtf8(name)); }

private:
    std::filesystem::path m_path;
};

// A file's bytes ("" when it cannot be read), and a file replaced by `text`: what the file tests put in a
// TempDir and check afterwards.
inline std::string fileText(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}
inline void writeFileText(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

} // namespace ddpdesk::testsupport
