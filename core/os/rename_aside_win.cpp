// Windows side of rename_aside.h.
#include "os/rename_aside.h"

#include <windows.h>

namespace ddpdesk::os {

RenameStatus renameNoReplace(const std::filesystem::path& from, const std::filesystem::path& to,
                             std::string& error) {
    // Without MOVEFILE_REPLACE_EXISTING, MoveFileExW refuses an existing target; a symlink is moved, not
    // followed.
    if (::MoveFileExW(from.wstring().c_str(), to.wstring().c_str(), MOVEFILE_WRITE_THROUGH))
        return RenameStatus::Done;
    const DWORD code = ::GetLastError();
    if (code == ERROR_ALREADY_EXISTS || code == ERROR_FILE_EXISTS) return RenameStatus::TargetExists;
    error = "Windows error " + std::to_string(code);
    return RenameStatus::Failed;
}

} // namespace ddpdesk::os
