#pragma once

#include "protocol/store_spec.h"
#include "train/base/identity.h"
#include "train/rendezvous/c10d_compat.h"

#include <chrono>
#include <memory>

namespace ddpdesk::train {

struct RendezvousConfig {
    protocol::StoreSpec address; // File or Tcp (resolveStore)
    bool externalStore = false;
    Identity identity;
    std::chrono::milliseconds timeout{60000};            // store connect + arrivals + process-group creation
    std::chrono::milliseconds collectiveTimeout{300000}; // each collective afterwards
    GlooDeviceSpec device;
    std::string secret; // raw run secret (resolveRunSecret); empty: no rank proof, as under torchrun by hand
};

struct RendezvousResult {
    std::shared_ptr<KvStore> store;
    std::unique_ptr<GlooGroup> group;
};

// Store key each rank sets before the process group is created; value is JSON {"host","pid","t"}. With a run
// secret, each rank first writes its proof under protocol::authKey(rank) and, once all have arrived, verifies
// every rank's proof: FOREIGN_RANK (naming the rank's host and pid) when one is missing or does not verify.
std::string arrivedKey(int rank);

// Connects to (or hosts) the store, records this rank's arrival, waits for every rank, then creates the Gloo
// process group — each step bounded by config.timeout and reported as a `rendezvous` event. Throws TrainError
// (RENDEZVOUS_TIMEOUT naming the store and which ranks arrived, STORE_UNREACHABLE, PORT_IN_USE, ...). After a
// timeout a library call may still be running on an abandoned thread: the caller must exit with std::_Exit.
RendezvousResult rendezvous(const RendezvousConfig& config);

// A further Gloo group of `size` ranks (this one is `rank` in it) on the job's store under `prefix`, on the
// job's Gloo device; bounded by config.timeout like the job's own group. Collective over those ranks only.
std::unique_ptr<GlooGroup> createSubgroup(const RendezvousConfig& config,
                                          const std::shared_ptr<KvStore>& store, const std::string& prefix,
                                          int rank, int size);

// The Gloo device to use: --iface, else GLOO_SOCKET_IFNAME, else loopback when the store is on loopback or
// every rank is on this machine (identity.allRanksLocal()), else the hostname's address.
GlooDeviceSpec chooseGlooDevice(const std::string& ifaceFlag, const protocol::StoreSpec& store,
                                const Identity& identity);

} // namespace ddpdesk::train
