// POSIX side of private_file.h: stat()'s type and permission bits.
#include "os/private_file.h"

#include <sys/stat.h>

namespace ddpdesk::os {

FileReadersAnswer fileReaders(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return {FileReaders::Missing, 0};
    if (!S_ISREG(st.st_mode)) return {FileReaders::NotRegular, 0};
    if (st.st_mode & (S_IRWXG | S_IRWXO))
        return {FileReaders::Others, static_cast<unsigned>(st.st_mode & 07777)};
    return {FileReaders::OwnerOnly, 0};
}

std::string loopbackInterfaceName() {
#if defined(__APPLE__) || defined(__FreeBSD__)
    return "lo0";
#else
    return "lo";
#endif
}

} // namespace ddpdesk::os
