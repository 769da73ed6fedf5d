// POSIX side of private_file.h: stat()'s type and permission bits.
#include "os/private_file.h"

#include <sys/stat.h>
#include <unistd.h>

namespace ddpdesk::os {

FileReadersAnswer fileReaders(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return {FileReaders::Missing, 0};
    if (!S_ISREG(st.st_mode)) return {FileReaders::NotRegular, 0};
    if (st.st_mode & (S_IRWXG | S_IRWXO))
        return {FileReaders::Others, static_cast<unsigned>(st.st_mode & 07777)};
    return {FileReaders::OwnerOnly, 0};
}

FolderOwnerAnswer folderOwner(const std::string& path, bool followLink) {
    struct stat st {};
    if ((followLink ? ::stat(path.c_str(), &st) : ::lstat(path.c_str(), &st)) != 0) return {};
    FolderOwnerAnswer a;
    a.mode = unsigned(st.st_mode & 07777);
    a.owner = (long long)st.st_uid;
    if (!S_ISDIR(st.st_mode))
        a.answer = FolderOwner::NotAFolder;
    else if (st.st_uid != ::geteuid())
        a.answer = FolderOwner::OtherOwner;
    else if (st.st_mode & S_IWOTH)
        a.answer = FolderOwner::WritableByOthers;
    else
        a.answer = FolderOwner::Own;
    return a;
}

std::string loopbackInterfaceName() {
#if defined(__APPLE__) || defined(__FreeBSD__)
    return "lo0";
#else
    return "lo";
#endif
}

} // namespace ddpdesk::os
