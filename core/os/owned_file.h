#pragma once

// Files a run creates for itself and may later remove: the rule is that DDP Desk removes only what it
// created. A file is created exclusively (nothing already at the path, not even a symbolic link, is reused or
// followed) and remembered by its identity (device + file index), so a later removal skips whatever has taken
// its place since. The file stays open until then: a file number is free for reuse as soon as its file is
// gone, so without the open handle a file someone put in its place could carry the very same identity. Plain
// C++ (no Qt) so the Windows half compiles with mingw-w64; OS calls in owned_file_posix.cpp / _win.cpp.

#include <cstdint>
#include <filesystem>
#include <string>

namespace ddpdesk::launch {

struct OwnedFile {
    std::uint64_t device = 0;  // st_dev / volume serial number
    std::uint64_t index = 0;   // st_ino / file index
    std::intptr_t handle = -1; // the open file descriptor / HANDLE that pins the identity
    bool valid = false;
};

enum class CreateResult { Created, AlreadyThere, Failed };

// Creates `path` as a new empty file and keeps it open in *id. AlreadyThere when any entry (file, folder,
// symbolic link, even a dangling one) has that name; Failed with the OS's reason in *error otherwise. With
// `privateContent` the file holds those bytes and only its owner may read it (POSIX mode 0600; on Windows
// the folder's inherited ACL, as for any file a user makes there).
CreateResult createOwnedFile(const std::filesystem::path& path, OwnedFile* id, std::string* error,
                             const std::string* privateContent = nullptr);

// Removes `path` when it is still the very file `id` names; never a folder, never through a symbolic link.
// True when it was removed, false when something else (or nothing) is there. Closes the handle and clears
// `id` either way.
bool removeOwnedFile(const std::filesystem::path& path, OwnedFile& id);

} // namespace ddpdesk::launch
