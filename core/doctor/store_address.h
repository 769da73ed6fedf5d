#pragma once

// The doctor reads the store string exactly as the worker and the launcher do (protocol/store_spec.h).

#include "protocol/store_spec.h"

namespace ddpdesk::doctor {

using StoreAddress = protocol::StoreSpec;

inline StoreAddress parseStoreAddress(const std::string& store) {
    return protocol::parseStoreSpec(store);
}

} // namespace ddpdesk::doctor
