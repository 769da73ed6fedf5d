#pragma once

// Which processes hold a port or a file, or name a text on their command line: the OS's evidence behind the
// doctor's PORT_IN_USE and FILESTORE_LOCKED (the doctor judges it, core/doctor/os_probes.h). Linux reads
// /proc (process_holders_posix.cpp), Windows asks IP Helper and the Restart Manager
// (process_holders_win.cpp). All calls are best effort and bounded: an empty answer means "no holder seen",
// never an exception.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ddpdesk::os {

struct ProcessRef {
    std::int64_t pid = 0;
    std::string name; // short process name (e.g. "python3"), empty when it could not be read
    std::string how;  // "listening", "bound", "lock", "open", "command line"
};

// Processes with a TCP socket bound to `port` (listening or merely bound), any local address.
std::vector<ProcessRef> portHolders(int port);

// Processes that hold `path` open or locked right now (other than this process).
std::vector<ProcessRef> fileHolders(const std::filesystem::path& path);

// Whether process `pid` holds `path` open right now, compared by the file itself (a process in another root,
// a chroot, names the same file by another path): Linux asks /proc, Windows the Restart Manager. nullopt
// where this OS cannot tell.
std::optional<bool> processHoldsFile(std::int64_t pid, const std::filesystem::path& path);

// Running processes (other than this one) whose command line mentions `text` where an argument (or a quoted
// word) ends (Linux only; Windows returns none), unless it also contains one of `unless` (the arguments read
// as one text, each followed by a space). Catches ranks that re-open a FileStore for each operation and so
// rarely hold it open at the instant anyone looks; `unless` is the caller's judgement of which mentions do
// not count.
std::vector<ProcessRef> processesMentioning(const std::string& text, const std::vector<std::string>& unless);

} // namespace ddpdesk::os
