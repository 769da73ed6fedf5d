#include "launch/nodes/remote_ranks.h"

#include "protocol/json_fields.h"
#include "protocol/telemetry.h"

namespace ddpdesk::launch {

namespace {

// Another node's launcher wrote these (verified as one of this run's, but its ranks are scripts): read
// without trusting a type.
QString text(const nlohmann::json& e, const char* key) {
    return QString::fromStdString(protocol::JsonFields(e).text(key));
}

} // namespace

std::optional<RemoteExit> applyRemoteEvent(RunModel& model, int nproc, const nlohmann::json& e) {
    const protocol::JsonFields fields(e);
    const std::string type = fields.text(protocol::field::Event);
    if (type == protocol::ev::Gpu || type == protocol::ev::Proc) { // its monitor's, tagged with its node
        model.applyMonitorEvent(e);
        return std::nullopt;
    }
    const int index = model.indexOfRank(fields.integer(protocol::field::Rank, -1));
    if (index < nproc) return std::nullopt; // the node's own launcher events, or (never) a rank of this node
    if (fields.text(protocol::field::Source) == "launcher") {
        if (type == protocol::ev::RankExit) {
            const auto state = rankStateFromName(text(e, protocol::field::State));
            RemoteExit exit{index, fields.integer(protocol::field::ExitCode, -1),
                            text(e, protocol::field::Text)};
            model.setRankState(index, state.value_or(RankState::Failed), exit.text, exit.exitCode);
            if (state == RankState::Failed) return exit;
        } else if (type == protocol::ev::RankStart) {
            model.setRankState(index, RankState::Starting);
        } else if (type == protocol::ev::Stacks) { // node 0's Show stacks reached it: in that rank's log
            model.appendNote(index, text(e, protocol::field::Text));
        }
        return std::nullopt;
    }
    if (type == protocol::ev::Log) {
        if (text(e, protocol::field::Stream) == QLatin1String("stderr"))
            model.appendStderr(index, text(e, protocol::field::Text));
        else // as a replay of this run's metrics.jsonl shows it
            model.applyLine(index, text(e, protocol::field::Text).toUtf8());
        return std::nullopt;
    }
    if (auto parsed = protocol::eventFromJson(e)) model.applyEvent(index, *parsed);
    return std::nullopt;
}

} // namespace ddpdesk::launch
