#pragma once

// Where rank 0 writes checkpoint.pt and model.pt, and why it may. Without --out (a worker started by
// torchrun, mpirun or Slurm) that is DDP Desk's own folder ./ddpdesk-out, never the current folder, whose
// files are the user's. A file already at one of those names is replaced only when the folder's mark
// (protocol/output_mark.h) says DDP Desk wrote it.

#include "train/base/identity.h"

#include <filesystem>
#include <string>

namespace ddpdesk::train {

// The folder rank 0 writes into: `outFlag` (absolute), or ./ddpdesk-out when it is empty. On rank 0 the
// folder is made (a default one with its mark, so the next run knows it as DDP Desk's) and checked: writable,
// and checkpoint.pt / model.pt free, DDP Desk's own, never a link or a folder. Throws TrainError
// OUTPUT_UNWRITABLE (exit 2) naming the path before anything trains. Other ranks write nothing there and
// touch nothing.
std::filesystem::path prepareOutputFolder(const std::string& outFlag, const Identity& id);

// Before each write of OUT/NAME: records NAME in the folder's mark. Throws std::runtime_error with the
// reason.
void claimOutputFile(const std::filesystem::path& dir, const std::string& name);

} // namespace ddpdesk::train
