#include "launch/link/hello_check.h"

#include "protocol/json_fields.h"
#include "protocol/node_link.h"
#include "protocol/telemetry_fields.h"

namespace ddpdesk::launch::link {

namespace nl = protocol::node_link;

std::string helloRefusal(const nlohmann::json& hello, const RunShape& run) {
    const protocol::JsonFields f(hello);
    if (!f.isObject() || f.text(nl::field::Type) != nl::type::Hello) return "its first frame is not a hello";
    if (f.integer(nl::field::Version, 0) != nl::kVersion)
        return "it speaks node-link protocol " + f.shown(nl::field::Version, 16) + ", this launcher " +
               std::to_string(nl::kVersion) + ": run the same DDP Desk on every node";
    const int node = f.integer(nl::field::NodeRank, -1);
    if (node < 1 || node >= run.nnodes)
        return "node rank " + f.shown(nl::field::NodeRank, 16) + " is not one of this run's 1.." +
               std::to_string(run.nnodes - 1);
    if (f.integer(nl::field::WorldSize, 0) != run.worldSize || f.integer(nl::field::Nproc, 0) != run.nproc)
        return "it runs world size " + f.shown(nl::field::WorldSize, 16) + " with " +
               f.shown(nl::field::Nproc, 16) + " rank(s) per node; this run " +
               std::to_string(run.worldSize) + " with " + std::to_string(run.nproc);
    f.text(nl::field::Host);
    if (!f.ok()) return "its hello is malformed: " + f.refusal();
    return {};
}

std::vector<nlohmann::json> nodeEvents(nlohmann::json& frame, int node, int nproc) {
    const int first = node * nproc, last = first + nproc - 1;
    std::vector<nlohmann::json> events;
    auto list = frame.find(nl::field::Events);
    if (list == frame.end() || !list->is_array()) return events;
    for (nlohmann::json& e : *list) {
        if (!e.is_object()) continue;
        const auto rank = e.find(protocol::field::Rank);
        const int r = rank != e.end() && rank->is_number_integer() ? rank->get<int>() : -2;
        if (r != -1 && (r < first || r > last)) continue; // another node's rank: not this one's to say
        e[protocol::field::Node] = node;                  // from its hello, not from the event
        events.push_back(std::move(e));
    }
    return events;
}

} // namespace ddpdesk::launch::link
