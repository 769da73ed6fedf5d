#pragma once

// A regular file opened without ever following a symbolic link, for the files DDP Desk writes and the files
// it reads from folders others can write to (a share's link folder, a run folder). std::ofstream follows a
// link put in place of a file (and appends frames to whatever file the user can write), std::ifstream blocks
// for ever on a FIFO named like a file. Here: CreateNew creates the file itself (nothing already there, not
// even a dangling link, is reused); AppendExisting and ReadExisting open only a regular file that is not a
// link, and never block on a FIFO or a device (they are refused, named). Plain C++; OS calls in
// plain_file_posix.cpp / plain_file_win.cpp (CreateFileW with FILE_FLAG_OPEN_REPARSE_POINT, then the handle's
// type and attributes).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

namespace ddpdesk::os {

class PlainFile {
public:
    enum class Mode {
        CreateNew,      // write; fails when any entry has the name (AlreadyThere)
        AppendExisting, // write at the end of an existing regular file
        ReadExisting,   // read an existing regular file
    };
    enum class Status { Open, AlreadyThere, Missing, NotRegular, Failed };

    PlainFile() = default;
    ~PlainFile();
    PlainFile(PlainFile&& other) noexcept;
    PlainFile& operator=(PlainFile&& other) noexcept;
    PlainFile(const PlainFile&) = delete;
    PlainFile& operator=(const PlainFile&) = delete;

    // Opens `path`; status() and error() say why not ("is a symbolic link", "is a FIFO, not a regular file").
    // `ownerOnly` (CreateNew): only the owner may read it (POSIX 0600; else 0644).
    static PlainFile open(const std::filesystem::path& path, Mode mode, bool ownerOnly = false);

    bool isOpen() const { return m_handle != kNone; }
    Status status() const { return m_status; }
    const std::string& error() const { return m_error; }

    // Every byte, or false with error().
    bool writeAll(const char* data, std::size_t size);
    // Up to `size` bytes from `offset`; -1 with error() on a failure, 0 at the end.
    std::int64_t readAt(std::uint64_t offset, char* data, std::size_t size);
    // Flushes to the disk (before a rename makes it the file's content); false with error().
    bool sync();
    void close();

private:
    static constexpr std::intptr_t kNone = -1;
    std::intptr_t m_handle = kNone; // fd / HANDLE
    Status m_status = Status::Failed;
    std::string m_error;
};

// True when the directory entry `path` is a regular file itself (not a link to one, not a FIFO or a folder).
bool isPlainFileEntry(const std::filesystem::path& path);

// Writes `bytes` as the whole new content of `path`, atomically: into a file created beside it (CreateNew,
// no link followed), then renamed over `path`; a link at `path` is replaced itself, never followed. False
// with the reason in *error (the temporary file is removed).
bool replaceFileContent(const std::filesystem::path& path, const std::string& bytes, std::string* error);

} // namespace ddpdesk::os
