#include "protocol/collective_progress.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace ddpdesk::protocol {

namespace f = collective_field;

std::string formatCollectiveRecord(const CollectiveRecord& r) {
    nlohmann::json j = {{f::Pid, r.pid},
                        {f::Entered, r.entered},
                        {f::Completed, r.completed},
                        {f::Kind, r.kind.substr(0, 64)},
                        {f::Bytes, r.bytes},
                        {f::Detail, r.detail.substr(0, 200)},
                        {f::T, r.t}};
    if (r.flight) {
        j[f::FlightEntered] = r.flight->entered;
        j[f::FlightCompleted] = r.flight->completed;
        j[f::FlightKind] = r.flight->kind.substr(0, 64);
        j[f::FlightBytes] = r.flight->bytes;
        j[f::FlightT] = r.flight->t;
    }
    std::string text = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    text.resize(kCollectiveRecordBytes - 1, ' ');
    text.push_back('\n');
    return text;
}

std::optional<CollectiveRecord> parseCollectiveRecord(std::string_view bytes) {
    const std::size_t end = bytes.find('\n');
    if (end == std::string_view::npos) return std::nullopt;
    const nlohmann::json j = nlohmann::json::parse(bytes.substr(0, end), nullptr, false);
    if (!j.is_object()) return std::nullopt;
    const auto num = [&j](const char* key) -> std::optional<std::int64_t> {
        const auto it = j.find(key);
        if (it == j.end() || !it->is_number()) return std::nullopt;
        return it->get<std::int64_t>();
    };
    const auto entered = num(f::Entered), completed = num(f::Completed);
    if (!entered || !completed || *entered < 0 || *completed < 0 || *completed > *entered)
        return std::nullopt;
    CollectiveRecord r;
    r.entered = *entered;
    r.completed = *completed;
    r.pid = num(f::Pid).value_or(0);
    r.bytes = num(f::Bytes).value_or(0);
    r.kind = j.value(f::Kind, std::string());
    r.detail = j.value(f::Detail, std::string());
    const auto time = [&j](const char* key) {
        const auto it = j.find(key);
        return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
    };
    r.t = time(f::T);
    const auto flightEntered = num(f::FlightEntered), flightCompleted = num(f::FlightCompleted);
    if (flightEntered && flightCompleted && *flightEntered >= 0 && *flightCompleted >= 0) {
        CollectiveRecord::Flight fr;
        fr.entered = *flightEntered;
        // Gloo's Flight Recorder may count a collective completed a moment before it counts it entered.
        fr.completed = std::min(*flightCompleted, *flightEntered);
        fr.kind = j.value(f::FlightKind, std::string());
        fr.bytes = num(f::FlightBytes).value_or(0);
        fr.t = time(f::FlightT);
        r.flight = fr;
    }
    return r;
}

std::optional<CollectiveRecord> CollectiveRecord::flightView() const {
    if (!flight) return std::nullopt;
    CollectiveRecord r;
    r.pid = pid;
    r.entered = flight->entered;
    r.completed = flight->completed;
    r.kind = flight->kind;
    r.bytes = flight->bytes;
    r.detail = "PyTorch's Flight Recorder";
    r.t = flight->t;
    return r;
}

} // namespace ddpdesk::protocol
