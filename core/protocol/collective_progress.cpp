#include "protocol/collective_progress.h"

#include "protocol/json_fields.h"

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
    // Written by a rank's instrumentation, i.e. by whatever the script does: read without trusting a type.
    const JsonFields fields(j);
    const auto num = [&fields](const char* key) -> std::optional<std::int64_t> {
        if (!fields.has(key)) return std::nullopt;
        return fields.integer64(key, -1); // a wrong type is -1: refused below like a negative count
    };
    const auto entered = num(f::Entered), completed = num(f::Completed);
    if (!entered || !completed || *entered < 0 || *completed < 0 || *completed > *entered)
        return std::nullopt;
    CollectiveRecord r;
    r.entered = *entered;
    r.completed = *completed;
    r.pid = fields.integer64(f::Pid, 0);
    r.bytes = fields.integer64(f::Bytes, 0);
    r.kind = fields.text(f::Kind);
    r.detail = fields.text(f::Detail);
    r.t = fields.number(f::T, 0.0);
    const auto flightEntered = num(f::FlightEntered), flightCompleted = num(f::FlightCompleted);
    if (flightEntered && flightCompleted && *flightEntered >= 0 && *flightCompleted >= 0) {
        CollectiveRecord::Flight fr;
        fr.entered = *flightEntered;
        // Gloo's Flight Recorder may count a collective completed a moment before it counts it entered.
        fr.completed = std::min(*flightCompleted, *flightEntered);
        fr.kind = fields.text(f::FlightKind);
        fr.bytes = fields.integer64(f::FlightBytes, 0);
        fr.t = fields.number(f::FlightT, 0.0);
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
