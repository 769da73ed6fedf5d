#pragma once

// Renaming without ever replacing what is at the new name: the doctor's fixes move a user's file aside and
// must not destroy another file on the way. std::filesystem::rename replaces silently on POSIX, hence this.
// OS calls in rename_aside_posix.cpp (renameat2, else link + unlink) / rename_aside_win.cpp (MoveFileExW).

#include <filesystem>
#include <string>

namespace ddpdesk::os {

enum class RenameStatus { Done, TargetExists, Failed };

// Renames the directory entry `from` (a symlink is renamed itself, never followed) to `to` in the same
// folder.
RenameStatus renameNoReplace(const std::filesystem::path& from, const std::filesystem::path& to,
                             std::string& error);

} // namespace ddpdesk::os
