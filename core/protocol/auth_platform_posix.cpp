#include "protocol/auth_platform.h"

#include <sys/stat.h>

#include <cstdio>

namespace ddpdesk::protocol {

std::string secretFileProblem(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return path + " cannot be read (missing?)";
    if (!S_ISREG(st.st_mode)) return path + " is not a regular file";
    if (st.st_mode & (S_IRWXG | S_IRWXO)) {
        char mode[8];
        std::snprintf(mode, sizeof(mode), "%04o", static_cast<unsigned>(st.st_mode & 07777));
        return path + " is accessible by group or others (mode " + mode + "); run: chmod 600 " + path;
    }
    return {};
}

std::string loopbackInterfaceName() {
#if defined(__APPLE__) || defined(__FreeBSD__)
    return "lo0";
#else
    return "lo";
#endif
}

} // namespace ddpdesk::protocol
