#include "train/base/output_folder.h"

#include "train/base/errors.h"
#include "train/base/telemetry_emitter.h"

#include "protocol/output_mark.h"

#include <fstream>
#include <stdexcept>

namespace ddpdesk::train {

namespace fs = std::filesystem;

namespace {

constexpr const char* kWrittenNames[] = {"checkpoint.pt", "model.pt"};

[[noreturn]] void unwritable(const std::string& why) {
    throw TrainError(error_code::OutputUnwritable, why, exit_code::BadInput);
}

// ./ddpdesk-out is DDP Desk's when it made it (its mark is there) or it is still to be made; a folder of the
// user's with that name is left alone.
void checkDefaultFolder(const fs::path& dir) {
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(dir, ec);
    if (!fs::exists(st)) return;
    const bool marked = fs::is_regular_file(fs::symlink_status(dir / protocol::kOutputMarkName, ec));
    if (fs::is_directory(st) && (marked || fs::is_empty(dir, ec))) return;
    unwritable(
        dir.string() +
        " is already there and DDP Desk did not make it; without --out the worker writes checkpoint.pt "
        "and model.pt into a folder of its own by that name: move it away or give --out DIR");
}

void checkWritable(const fs::path& dir, const Identity& id) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (!fs::is_directory(dir, ec))
        unwritable("--out " + dir.string() + " is not a folder and cannot be created" +
                   (ec ? " (" + ec.message() + ")" : std::string()));
    const fs::path probe =
        dir / (".ddpdesk-write-test-" + std::to_string(id.rank) + "-" + std::to_string(id.pid));
    {
        std::ofstream out(probe, std::ios::binary);
        out << "ok";
        if (!out)
            unwritable("--out " + dir.string() + " is not writable (checkpoint.pt and model.pt go there)");
    }
    fs::remove(probe, ec);
}

void checkTargets(const fs::path& dir) {
    for (const char* name : kWrittenNames) {
        const fs::path path = dir / name;
        switch (protocol::outputState(dir, name)) {
        case protocol::OutputState::Free:
        case protocol::OutputState::Own:
            break;
        case protocol::OutputState::Foreign:
            unwritable(path.string() + " is already there and DDP Desk did not write it (" +
                       (dir / protocol::kOutputMarkName).string() +
                       " does not list it); DDP Desk never replaces a file of yours: move it away or choose "
                       "another --out");
        case protocol::OutputState::NotAFile: {
            std::error_code ec;
            const fs::file_status st = fs::symlink_status(path, ec);
            unwritable(path.string() + " is " +
                       (fs::is_symlink(st)     ? "a symbolic link"
                        : fs::is_directory(st) ? "a folder"
                                               : "not a regular file") +
                       "; DDP Desk writes this file itself and never writes through a link or over a folder: "
                       "move it away or choose another --out");
        }
        }
    }
}

} // namespace

fs::path prepareOutputFolder(const std::string& outFlag, const Identity& id) {
    const bool given = !outFlag.empty();
    std::error_code ec;
    fs::path dir = fs::absolute(given ? fs::path(outFlag) : fs::path(protocol::kDefaultWorkerOutDir), ec);
    if (ec) dir = given ? fs::path(outFlag) : fs::path(protocol::kDefaultWorkerOutDir);
    if (id.rank != 0) return dir;
    if (!given) checkDefaultFolder(dir);
    checkWritable(dir, id);
    checkTargets(dir);
    if (!given) {
        if (const std::string why = protocol::markOutputs(dir, {}); !why.empty()) unwritable(why);
        TelemetryEmitter::instance().log("no --out given: checkpoint.pt and model.pt go to " + dir.string() +
                                         " (DDP Desk's own folder; --out DIR chooses another)");
    }
    return dir;
}

void claimOutputFile(const fs::path& dir, const std::string& name) {
    if (protocol::outputState(dir, name) == protocol::OutputState::Foreign)
        throw std::runtime_error((dir / name).string() +
                                 " appeared during the run and DDP Desk did not write it; it is left alone");
    if (const std::string why = protocol::markOutputs(dir, {name}); !why.empty())
        throw std::runtime_error(why);
}

} // namespace ddpdesk::train
