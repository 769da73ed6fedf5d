#include "train/engine/checkpoint.h"

#include "os/platform.h"
#include "os/process.h"
#include "train/base/errors.h"

#include <ATen/CPUGeneratorImpl.h>
#include <torch/serialize.h>
#include <torch/torch.h>

#include <nlohmann/json.hpp>

#include <sstream>

namespace ddpdesk::train {

namespace fs = std::filesystem;

namespace {

constexpr const char* kFormat = "ddpdesk-checkpoint-1";

nlohmann::json identityJson(const CheckpointIdentity& id) {
    return {{"workload", id.workload},
            {"world_size", id.worldSize},
            {"batch_size", id.batchSize},
            {"seed", id.seed},
            {"dataset_size", id.datasetSize},
            {"accumulate", id.accumulate},
            {"grad_compression", id.gradCompression},
            {"precision", id.precision}};
}

[[noreturn]] void corrupt(const std::string& source, const std::string& why) {
    throw TrainError(error_code::CheckpointCorrupt,
                     "checkpoint " + source + " is damaged or not a DDP Desk checkpoint (" + why +
                         "); delete it to start over, or restore a good copy",
                     exit_code::TrainingFailure);
}

[[noreturn]] void mismatch(const std::string& source, const std::string& why) {
    throw TrainError(error_code::CheckpointMismatch,
                     "checkpoint " + source + " belongs to a different run (" + why +
                         "); resume with the same settings, or use another --out folder",
                     exit_code::BadInput);
}

std::string firstLine(const std::exception& e) {
    std::string w = e.what();
    return w.substr(0, w.find('\n'));
}

} // namespace

namespace {

// A link or folder where DDP Desk writes a file is the user's: refused, never followed or replaced. Empty
// when the path is free or a regular file.
std::string foreignTargetProblem(const fs::path& path) {
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(path, ec);
    if (ec || !fs::exists(st) || fs::is_regular_file(st)) return std::string();
    const char* what = fs::is_symlink(st)     ? "a symbolic link"
                       : fs::is_directory(st) ? "a folder"
                                              : "not a regular file";
    return path.string() + " is " + what +
           "; DDP Desk writes this file itself and never writes through a link or over a folder: move it "
           "away or "
           "choose another --out";
}

} // namespace

void writeFileAtomically(const fs::path& path, const std::function<void(std::ostream&)>& write) {
    const std::string foreign = foreignTargetProblem(path);
    if (!foreign.empty()) throw std::runtime_error(foreign);
    std::ostringstream buffer(std::ios::binary);
    write(buffer);
    if (!buffer) throw std::runtime_error("serialising " + path.string() + " failed");
    const std::string bytes = buffer.str();
    // A left-over temporary of a crashed writer with a reused pid (or anything else at that name) is not
    // reused.
    for (int attempt = 0;; ++attempt) {
        fs::path tmp = path;
        tmp += ".tmp-" + std::to_string(os::currentPid()) +
               (attempt ? "-" + std::to_string(attempt) : std::string());
        bool taken = false;
        const std::string why = replaceFileDurably(tmp, path, bytes.data(), bytes.size(), &taken);
        if (why.empty()) return;
        if (!taken || attempt >= 8) throw std::runtime_error(why);
    }
}

std::vector<char> encodeCheckpoint(TrainModel& model, torch::optim::Optimizer& optimizer,
                                   const TrainPosition& pos, const CheckpointIdentity& identity) {
    torch::serialize::OutputArchive archive;
    archive.write("format", c10::IValue(std::string(kFormat)));
    archive.write("identity", c10::IValue(identityJson(identity).dump()));
    archive.write("position",
                  torch::tensor({pos.epoch, pos.stepInEpoch, pos.globalStep, pos.samples}, torch::kLong));

    torch::serialize::OutputArchive weights;
    NamedTensors params = model.namedParameters();
    NamedTensors buffers = model.namedBuffers();
    nlohmann::json names = {{"params", nlohmann::json::array()}, {"buffers", nlohmann::json::array()}};
    for (std::size_t i = 0; i < params.size(); ++i) {
        weights.write("p" + std::to_string(i), params[i].second.detach().cpu());
        names["params"].push_back(params[i].first);
    }
    for (std::size_t i = 0; i < buffers.size(); ++i) {
        weights.write("b" + std::to_string(i), buffers[i].second.detach().cpu(), true);
        names["buffers"].push_back(buffers[i].first);
    }
    archive.write("names", c10::IValue(names.dump()));
    archive.write("model", weights);

    torch::serialize::OutputArchive opt;
    optimizer.save(opt);
    archive.write("optimizer", opt);

    auto gen = at::detail::getDefaultCPUGenerator();
    at::Tensor rng;
    {
        std::lock_guard<std::mutex> lock(gen.mutex());
        rng = gen.get_state();
    }
    archive.write("rng", rng);

    std::ostringstream out(std::ios::binary);
    archive.save_to(out);
    std::string s = out.str();
    return std::vector<char>(s.begin(), s.end());
}

TrainPosition decodeCheckpoint(const std::vector<char>& bytes, const std::string& source, TrainModel& model,
                               torch::optim::Optimizer& optimizer, const CheckpointIdentity& identity) {
    torch::serialize::InputArchive archive;
    c10::IValue format, storedIdentity, storedNames;
    at::Tensor position, rng;
    torch::serialize::InputArchive weights, opt;
    try {
        archive.load_from(bytes.data(), bytes.size());
        if (!archive.try_read("format", format) || !format.isString() || format.toStringRef() != kFormat)
            corrupt(source, "no DDP Desk format marker");
        archive.read("identity", storedIdentity);
        archive.read("names", storedNames);
        archive.read("position", position);
        archive.read("model", weights);
        archive.read("optimizer", opt);
        archive.read("rng", rng);
    } catch (const TrainError&) {
        throw;
    } catch (const std::exception& e) {
        corrupt(source, firstLine(e));
    }

    nlohmann::json want = identityJson(identity);
    nlohmann::json have = nlohmann::json::parse(storedIdentity.toStringRef(), nullptr, false);
    if (!have.is_object()) corrupt(source, "unreadable identity record");
    // Written before these settings existed: their defaults.
    if (!have.contains("accumulate")) have["accumulate"] = 1;
    if (!have.contains("grad_compression")) have["grad_compression"] = "none";
    if (!have.contains("precision")) have["precision"] = "fp32";
    for (auto it = want.begin(); it != want.end(); ++it)
        if (have.value(it.key(), nlohmann::json()) != it.value())
            mismatch(source, it.key() + " was " + have.value(it.key(), nlohmann::json()).dump() + ", now " +
                                 it.value().dump());
    if (position.numel() != 4 || position.scalar_type() != torch::kLong)
        corrupt(source, "bad position record");

    NamedTensors params = model.namedParameters();
    NamedTensors buffers = model.namedBuffers();
    nlohmann::json names = nlohmann::json::parse(storedNames.toStringRef(), nullptr, false);
    if (!names.is_object() || names.value("params", nlohmann::json::array()).size() != params.size() ||
        names.value("buffers", nlohmann::json::array()).size() != buffers.size())
        mismatch(source, "the model has a different number of parameters or buffers");
    try {
        torch::NoGradGuard noGrad;
        auto restore = [&](NamedTensors& list, const char* prefix, bool isBuffer) {
            for (std::size_t i = 0; i < list.size(); ++i) {
                at::Tensor t;
                weights.read(prefix + std::to_string(i), t, isBuffer);
                if (t.sizes() != list[i].second.sizes())
                    mismatch(source, "tensor " + list[i].first + " has shape " + c10::str(t.sizes()) +
                                         " in the checkpoint, " + c10::str(list[i].second.sizes()) +
                                         " in the model");
                list[i].second.copy_(t);
            }
        };
        restore(params, "p", false);
        restore(buffers, "b", true);
        optimizer.load(opt);
        auto gen = at::detail::getDefaultCPUGenerator();
        std::lock_guard<std::mutex> lock(gen.mutex());
        gen.set_state(rng);
    } catch (const TrainError&) {
        throw;
    } catch (const std::exception& e) {
        corrupt(source, firstLine(e));
    }
    auto p = position.accessor<std::int64_t, 1>();
    TrainPosition pos{p[0], p[1], p[2], p[3]};
    if (pos.epoch < 0 || pos.stepInEpoch < 0 || pos.globalStep < 0) corrupt(source, "negative position");
    return pos;
}

} // namespace ddpdesk::train
