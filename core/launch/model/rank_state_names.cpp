// A rank's state by name: what summary.json and metrics.jsonl write, and what a replay reads back.
#include "launch/model/run_model.h"

namespace ddpdesk::launch {

std::optional<RankState> rankStateFromName(const QString& name) {
    for (RankState s : {RankState::Pending, RankState::Starting, RankState::Rendezvous, RankState::Training,
                        RankState::Done, RankState::Failed, RankState::Stopped})
        if (rankStateName(s) == name) return s;
    return std::nullopt;
}

QString rankStateName(RankState s) {
    switch (s) {
    case RankState::Pending:
        return QStringLiteral("pending");
    case RankState::Starting:
        return QStringLiteral("starting");
    case RankState::Rendezvous:
        return QStringLiteral("rendezvous");
    case RankState::Training:
        return QStringLiteral("training");
    case RankState::Done:
        return QStringLiteral("done");
    case RankState::Failed:
        return QStringLiteral("failed");
    case RankState::Stopped:
        return QStringLiteral("stopped");
    }
    return QStringLiteral("unknown");
}

} // namespace ddpdesk::launch
