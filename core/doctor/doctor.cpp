#include "doctor/doctor.h"

#include "doctor/checks.h"
#include "doctor/store_address.h"

#include <sstream>

namespace ddpdesk::doctor {

namespace detail {

Finding makeFinding(std::string code, Severity severity, std::string message, nlohmann::json evidence,
                    std::string fix) {
    Finding f;
    f.code = std::move(code);
    f.severity = severity;
    f.message = std::move(message);
    f.evidence = evidence.is_null() ? nlohmann::json::object() : std::move(evidence);
    f.fix = std::move(fix);
    return f;
}

Finding withArgs(Finding finding, std::string variant, std::vector<std::string> args) {
    finding.variant = std::move(variant);
    finding.args = std::move(args);
    return finding;
}

} // namespace detail

using detail::makeFinding;
using detail::withArgs;

std::vector<Finding> diagnose(const DoctorRequest& request) {
    std::vector<Finding> out;
    if (request.worldSize < 0)
        out.push_back(
            withArgs(makeFinding("WORLD_SIZE_MISMATCH", Severity::Error,
                                 "World size " + std::to_string(request.worldSize) + " is not valid.",
                                 {{"world_size", request.worldSize}},
                                 "Use the total number of ranks over all nodes (1 or more)."),
                     "invalid", {std::to_string(request.worldSize)}));
    if (request.rank >= 0 && request.worldSize > 0 && request.rank >= request.worldSize)
        out.push_back(withArgs(
            makeFinding("RANK_OUT_OF_RANGE", Severity::Error,
                        "Rank " + std::to_string(request.rank) + " is outside 0.." +
                            std::to_string(request.worldSize - 1) + " for world size " +
                            std::to_string(request.worldSize) + ".",
                        {{"rank", request.rank}, {"world_size", request.worldSize}},
                        "Ranks run from 0 to world_size-1; check --rank and --world-size on every node."),
            "request",
            {std::to_string(request.rank), std::to_string(request.worldSize - 1),
             std::to_string(request.worldSize)}));
    if (request.nodeRank < 0)
        out.push_back(withArgs(makeFinding("NODE_RANK_INVALID", Severity::Error,
                                           "Node rank " + std::to_string(request.nodeRank) + " is not valid.",
                                           {{"node_rank", request.nodeRank}},
                                           "Node ranks start at 0 (the master node)."),
                               "", {std::to_string(request.nodeRank)}));

    const StoreAddress address = parseStoreAddress(request.store);
    switch (address.kind) {
    case StoreAddress::Kind::File:
        detail::checkFileStore(request, address.path, out);
        break;
    case StoreAddress::Kind::Tcp:
        detail::checkTcpStore(request, address, out);
        break;
    case StoreAddress::Kind::Invalid:
        out.push_back(
            withArgs(makeFinding("STORE_INVALID", Severity::Error, "Store address: " + address.error + ".",
                                 {{"store", request.store}},
                                 "Use file:PATH (one machine or a shared folder) or tcp://HOST:PORT."),
                     "", {address.error}));
        break;
    }
    return out;
}

bool hasError(const std::vector<Finding>& findings) {
    for (const auto& f : findings)
        if (f.severity == Severity::Error)
            return true;
    return false;
}

const char* severityName(Severity s) {
    switch (s) {
    case Severity::Info: return "info";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
    }
    return "info";
}

nlohmann::json toJson(const std::vector<Finding>& findings) {
    nlohmann::json arr = nlohmann::json::array();
    for (const auto& f : findings)
        arr.push_back({{"code", f.code},
                       {"severity", severityName(f.severity)},
                       {"message", f.message},
                       {"evidence", f.evidence},
                       {"fix", f.fix}});
    return {{"findings", arr}};
}

std::string toText(const std::vector<Finding>& findings) {
    std::ostringstream s;
    int errors = 0, warnings = 0;
    for (const auto& f : findings) {
        errors += f.severity == Severity::Error;
        warnings += f.severity == Severity::Warning;
        s << "[" << severityName(f.severity) << "] " << f.code << ": " << f.message << "\n";
        if (!f.evidence.empty())
            s << "    evidence: " << f.evidence.dump() << "\n";
        if (!f.fix.empty())
            s << "    fix: " << f.fix << "\n";
    }
    if (errors == 0 && warnings == 0)
        s << "No problems found.\n";
    else
        s << errors << " error(s), " << warnings << " warning(s).\n";
    return s.str();
}

} // namespace ddpdesk::doctor
