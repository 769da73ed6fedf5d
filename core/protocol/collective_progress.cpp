#include "protocol/collective_progress.h"

#include <nlohmann/json.hpp>

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
    const auto t = j.find(f::T);
    r.t = t != j.end() && t->is_number() ? t->get<double>() : 0;
    return r;
}

} // namespace ddpdesk::protocol
