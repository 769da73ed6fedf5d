#include "train/worker/resolve_identity.h"

#include "os/process.h"
#include "protocol/run_auth.h"
#include "protocol/store_spec.h"

#include "os/platform.h"
#include "train/base/environment.h"
#include "train/base/errors.h"

#include <cstdlib>
#include <optional>

namespace ddpdesk::train {

namespace {

struct Lookup {
    std::optional<int> value;
    std::string source;
};

int parseInt(const std::string& text, const std::string& what) {
    try {
        size_t used = 0;
        long long v = std::stoll(text, &used);
        if (used != text.size() || v < -1 || v > 1000000) throw std::invalid_argument(text);
        return static_cast<int>(v);
    } catch (const std::exception&) {
        throw badInput(what + " is not a whole number: '" + text + "'");
    }
}

// Flag first, then each environment family in the documented order.
Lookup lookup(const std::optional<int>& flag, const char* torchrun, const char* ompi, const char* slurm) {
    if (flag) return {flag, "flags"};
    const std::pair<const char*, const char*> env[] = {
        {torchrun, "torchrun env"}, {ompi, "Open MPI env"}, {slurm, "Slurm env"}};
    for (const auto& [name, family] : env) {
        if (!name) continue;
        if (auto v = envValue(name))
            return {parseInt(*v, std::string("environment variable ") + name), family};
    }
    return {std::nullopt, "default"};
}

} // namespace

Identity resolveIdentity(const WorkerOptions& o) {
    Identity id;
    Lookup rank = lookup(o.rank, "RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID");
    Lookup world = lookup(o.worldSize, "WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "SLURM_NTASKS");
    Lookup localRank = lookup(o.localRank, "LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID");
    Lookup localWorld =
        lookup(o.localWorldSize, "LOCAL_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE", "SLURM_NTASKS_PER_NODE");

    id.worldSize = world.value.value_or(1);
    id.rank = rank.value.value_or(0);
    id.source = rank.source;
    if (id.worldSize < 1)
        throw badInput("world size must be at least 1 (got " + std::to_string(id.worldSize) + " from " +
                       world.source + ")");
    if (id.rank < 0 || id.rank >= id.worldSize)
        throw badInput("rank " + std::to_string(id.rank) + " (from " + rank.source +
                       ") is not valid for world size " + std::to_string(id.worldSize) + " (from " +
                       world.source + "): ranks are 0.." + std::to_string(id.worldSize - 1));
    // Without node-local facts, assume every rank shares this node: the safe guess for thread counts.
    id.localWorldSize = localWorld.value.value_or(id.worldSize);
    id.localWorldKnown = localWorld.value.has_value();
    id.localRank = localRank.value.value_or(id.localWorldSize == id.worldSize ? id.rank : 0);
    if (id.localWorldSize < 1 || id.localWorldSize > id.worldSize)
        throw badInput("local world size " + std::to_string(id.localWorldSize) +
                       " must be between 1 and the world size " + std::to_string(id.worldSize));
    if (id.localRank < 0 || id.localRank >= id.localWorldSize)
        throw badInput("local rank " + std::to_string(id.localRank) + " is not valid for local world size " +
                       std::to_string(id.localWorldSize));
    id.host = hostName();
    id.pid = os::currentPid();
    return id;
}

std::string resolveRunSecret(const WorkerOptions& o) {
    std::string secret, error;
    if (!o.runSecretFile.empty()) {
        if (!protocol::readRunSecretFile(o.runSecretFile, &secret, &error))
            throw badInput(std::string(protocol::kRunSecretFileFlag) + " " + error);
        return secret;
    }
    if (auto hex = envValue(protocol::kRunSecretEnv)) {
        if (!protocol::decodeRunSecret(*hex, &secret, &error))
            throw badInput(std::string("environment variable ") + protocol::kRunSecretEnv + ": " + error);
        return secret;
    }
    return {};
}

bool storeHostedElsewhere(const WorkerOptions& o) {
    if (o.externalStore) return true;
    // torchrun (PyTorch 2.x) hosts the store in its agent and says so to its ranks; PyTorch compares the
    // value with str(True). The agent's store is the one at MASTER_ADDR:MASTER_PORT, so an explicit --store
    // is not it.
    return o.store.empty() && envValue("TORCHELASTIC_USE_AGENT_STORE").value_or("") == "True";
}

std::optional<protocol::StoreSpec> resolveStore(const WorkerOptions& o) {
    std::string spec = o.store;
    if (spec.empty()) {
        auto addr = envValue("MASTER_ADDR");
        auto port = envValue("MASTER_PORT");
        if (addr && port)
            spec = "tcp://" + protocol::urlHost(*addr) + ":" + *port; // MASTER_ADDR=::1 is an IPv6 host
        else if (addr || port)
            throw badInput("MASTER_ADDR and MASTER_PORT must be set together (or give --store)");
        else
            return std::nullopt;
    }
    const protocol::StoreSpec parsed = protocol::parseStoreSpec(spec);
    switch (parsed.kind) {
    case protocol::StoreSpec::Kind::File:
        return parsed;
    case protocol::StoreSpec::Kind::Tcp:
        if (parsed.port < 1)
            throw badInput("--store " + spec + ": port must be 1..65535 (got '" + parsed.portText + "')");
        return parsed;
    case protocol::StoreSpec::Kind::Invalid:
        break;
    }
    throw badInput("--store " + spec + ": " + parsed.error);
}

} // namespace ddpdesk::train
