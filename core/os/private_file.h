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

// The loopback interface name Gloo (GLOO_SOCKET_IFNAME) accepts; empty where there is none to name (Windows).
std::string loopbackInterfaceName();

} // namespace ddpdesk::os
