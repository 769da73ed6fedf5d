#include "launch/run/remote_ranks.h"

#include "protocol/telemetry.h"

namespace ddpdesk::launch {

namespace {

QString text(const nlohmann::json& e, const char* key) {
    return QString::fromStdString(e.value(key, std::string()));
}

} // namespace

std::optional<RemoteExit> applyRemoteEvent(RunModel& model, int nproc, const nlohmann::json& e) {
    const std::string type = e.value(protocol::field::Event, std::string());
    if (type == protocol::ev::Gpu || type == protocol::ev::Proc) { // its monitor's, tagged with its node
        model.applyMonitorEvent(e);
        return std::nullopt;
    }
    const int index = model.indexOfRank(e.value(protocol::field::Rank, -1));
    if (index < nproc) return std::nullopt; // the node's own launcher events, or (never) a rank of this node
    if (e.value(protocol::field::Source, std::string()) == "launcher") {
        if (type == protocol::ev::RankExit) {
            const auto state = rankStateFromName(text(e, protocol::field::State));
            const auto code = e.find(protocol::field::ExitCode);
            RemoteExit exit{index, code != e.end() && code->is_number_integer() ? code->get<int>() : -1,
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
