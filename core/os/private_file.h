#pragma once

// Who may read a file, and the loopback interface's name: the OS facts behind the run secret file and
// loopback-only runs. core/protocol's run_auth.cpp words the answer (what is wrong and the fix); the OS calls
// are in private_file_posix.cpp / private_file_win.cpp.

#include <string>

namespace ddpdesk::os {

enum class FileReaders {
    OwnerOnly, // a regular file only its owner can read (Windows: any regular file, see private_file_win.cpp)
    Missing,   // it cannot be read: missing, or a folder on the way refuses
    NotRegular,  // a folder, a device, a pipe ...
    Others,      // group or others have some access (POSIX mode bits in `mode`)
    InvalidName, // the path is not valid UTF-8 (Windows)
};

struct FileReadersAnswer {
    FileReaders readers = FileReaders::Missing;
    unsigned mode = 0; // POSIX permission bits (07777) when readers is Others; 0 elsewhere
};

FileReadersAnswer fileReaders(const std::string& path);

// Whether a folder DDP Desk writes into and reuses is the user's own: files it writes there (the run's
// records, the instrumentation module the ranks run) must not be swapped or planted by another local user.
enum class FolderOwner {
    Own,              // a folder this user owns that others cannot write to
    Missing,          // nothing there (or a folder on the way refuses)
    NotAFolder,       // a file, a device, or (not following links) a link
    OtherOwner,       // another user owns it (POSIX uid in `owner`)
    WritableByOthers, // anyone may write into it (POSIX mode o+w, in `mode`); group-writable is allowed: a
                      // user's own group on most Linux systems
};

struct FolderOwnerAnswer {
    FolderOwner answer = FolderOwner::Missing;
    unsigned mode = 0;    // POSIX permission bits
    long long owner = -1; // POSIX uid of the owner
};

// `followLink`: the path the user named may be a link to a folder (OUT); a folder DDP Desk makes inside one
// may not. Windows: the owner (the user, or Administrators for an elevated process) from the folder's
// security descriptor; its ACL is the folder's parent's, as for any folder the user makes.
FolderOwnerAnswer folderOwner(const std::string& path, bool followLink);

// The loopback interface name Gloo (GLOO_SOCKET_IFNAME) accepts; empty where there is none to name (Windows).
std::string loopbackInterfaceName();

} // namespace ddpdesk::os
