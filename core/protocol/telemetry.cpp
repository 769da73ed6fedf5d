#include "protocol/telemetry.h"

#include <algorithm>
#include <chrono>

namespace ddpdesk::protocol {

double nowSeconds() {
    using namespace std::chrono;
    return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count() / 1e6;
}

nlohmann::json makeEvent(std::string_view type, int rank) {
    nlohmann::json e;
    e[field::V] = kVersion;
    e[field::Event] = std::string(type);
    e[field::Rank] = rank;
    e[field::T] = nowSeconds();
    return e;
}

std::string encodeLine(const nlohmann::json& event) {
    return event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

LineCheck checkLine(std::string_view line) {
    // Depth first, over at most the first kMaxLineBytes + 1: a deep line is named deep, whatever its length.
    const size_t scan = std::min(line.size(), kMaxLineBytes + 1);
    int depth = 0;
    bool inString = false;
    for (size_t i = 0; i < scan; ++i) {
        const char c = line[i];
        if (inString) {
            if (c == '\\')
                ++i; // an escaped quote does not end the string
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            if (++depth > kMaxDepth) return LineCheck::TooDeep;
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }
    return line.size() > kMaxLineBytes ? LineCheck::TooLong : LineCheck::Ok;
}

std::optional<Event> parseLine(std::string_view line) {
    if (checkLine(line) != LineCheck::Ok) return std::nullopt;
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
        line.remove_suffix(1);
    size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] != '{') return std::nullopt;
    return eventFromJson(
        nlohmann::json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false));
}

std::optional<Event> eventFromJson(nlohmann::json j) {
    if (!j.is_object()) return std::nullopt;
    auto type = j.find(field::Event);
    if (type == j.end() || !type->is_string()) return std::nullopt;
    auto v = j.find(field::V);
    if (v != j.end() && (!v->is_number_integer() || v->get<int>() != kVersion)) return std::nullopt;
    Event e;
    e.type = type->get<std::string>();
    auto r = j.find(field::Rank);
    e.rank = (r != j.end() && r->is_number_integer()) ? r->get<int>() : -1;
    auto t = j.find(field::T);
    e.t = (t != j.end() && t->is_number()) ? t->get<double>() : nowSeconds();
    e.body = std::move(j);
    return e;
}

} // namespace ddpdesk::protocol
