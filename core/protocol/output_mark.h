#pragma once

// Which files in a folder are DDP Desk's own output. DDP Desk writes a file only where nothing is, or over
// its own earlier output: a folder it writes run output into holds the mark OUT/.ddpdesk-output, listing the
// names it wrote there, and a file of one of those names counts as its own. The launcher (run folder, sweep)
// and the worker (checkpoint.pt, model.pt) read and extend the same mark; this file is the one definition.
// Plain C++17.
//
// Format: JSON {"format": "ddpdesk-output-1", "files": ["checkpoint.pt", ...]}. Rewritten through a temporary
// file and a rename, so a reader never sees half of it; a link or folder at the mark's path is never
// followed or replaced.

#include <filesystem>
#include <string>
#include <vector>

namespace ddpdesk::protocol {

constexpr const char* kOutputMarkName = ".ddpdesk-output";
constexpr const char* kOutputMarkFormat = "ddpdesk-output-1";
// Where ddpdesk-worker writes when started without --out (torchrun, mpirun, Slurm): a folder of its own in
// the current folder, never the current folder itself.
constexpr const char* kDefaultWorkerOutDir = "ddpdesk-out";

enum class OutputState {
    Free,     // nothing at dir/name
    Own,      // a regular file the folder's mark lists
    Foreign,  // a regular file DDP Desk did not write (the user's own)
    NotAFile, // a link, folder or special file: never written through or replaced
};

OutputState outputState(const std::filesystem::path& dir, const std::string& name);

// The names dir's mark lists; empty when there is no readable mark.
std::vector<std::string> markedOutputs(const std::filesystem::path& dir);

// Adds `names` to dir's mark (creating it). Empty on success, else why not, naming the path.
std::string markOutputs(const std::filesystem::path& dir, const std::vector<std::string>& names);

} // namespace ddpdesk::protocol
