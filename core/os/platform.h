#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

namespace ddpdesk::train {

// The few facts about the running process that need OS calls (platform_posix.cpp / platform_win.cpp).
std::string hostName();
// Logical CPU cores visible to this process (at least 1).
int logicalCores();
// Keeps freed memory in the process for reuse instead of returning it to the OS after each step.
void keepFreedMemory();
// Sets an environment variable of this process (UTF-8), or removes it when `value` is null; what getenv
// then returns, for LibTorch and Gloo too. False when the OS refused.
bool setEnvironmentVariable(const std::string& name, const std::string* value);
// Writes `size` bytes into `tmp` - created exclusively: any entry already there, a symbolic link included, is
// an error, so nothing is followed - flushes them to the disk, renames `tmp` over `target` and flushes the
// folder, so after a crash `target` is the old file or the complete new one. Removes `tmp` on failure.
// Returns "" or the reason naming the path; *tmpTaken is set when `tmp` already existed (the caller may try
// another name).
std::string replaceFileDurably(const std::filesystem::path& tmp, const std::filesystem::path& target,
                               const char* data, std::size_t size, bool* tmpTaken);

} // namespace ddpdesk::train

namespace ddpdesk::os {

// What a program's file and the default Python are called on this system, and whether a GUI always has a
// window system to draw on: the few names and facts the launcher and the tools would otherwise spell with
// #ifdef outside core/os.
std::string executableName(const std::string& base); // "ddpdesk-worker" -> "ddpdesk-worker.exe" on Windows
std::string defaultPythonCommand();                  // "python" (on PATH) on Windows, else /usr/bin/python3
bool windowSystemAlwaysPresent();                    // Windows: yes; X11/Wayland: only when DISPLAY says so
// A command line DDP Desk prints for the user to paste (node 0's join command) is for cmd.exe on Windows and
// for a POSIX shell elsewhere: it is quoted for that one.
bool printedCommandsAreForCmd();
// Whether a line of at most 4 KiB written to stdout now goes through without waiting for its reader: false
// when it is a pipe the reader has let fill up. True when that cannot be known (Windows' anonymous pipes tell
// no free space) and for a file or a terminal.
bool standardOutputHasRoom();

} // namespace ddpdesk::os
