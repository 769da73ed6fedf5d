#include "protocol/json_fields.h"

#include <limits>

namespace ddpdesk::protocol {

const char* jsonKindName(const nlohmann::json& j) noexcept {
    switch (j.type()) {
    case nlohmann::json::value_t::null:
        return "null";
    case nlohmann::json::value_t::object:
        return "an object";
    case nlohmann::json::value_t::array:
        return "an array";
    case nlohmann::json::value_t::string:
        return "a string";
    case nlohmann::json::value_t::boolean:
        return "a boolean";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
        return "an integer";
    case nlohmann::json::value_t::number_float:
        return "a number";
    case nlohmann::json::value_t::binary:
        return "binary data";
    default:
        return "not a value";
    }
}

std::string jsonShown(const nlohmann::json& j, std::size_t maxChars) noexcept {
    try {
        std::string s = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        if (s.size() > maxChars) s = s.substr(0, maxChars) + "...";
        return s;
    } catch (...) {
        return "(unprintable)";
    }
}

const nlohmann::json* JsonFields::find(std::string_view key) const noexcept {
    if (!m_j.is_object()) {
        if (m_refusal.empty()) {
            try {
                m_refusal = std::string("it is ") + jsonKindName(m_j) + ", not a JSON object";
            } catch (...) {
            }
        }
        return nullptr;
    }
    try {
        const auto it = m_j.find(std::string(key));
        return it == m_j.end() ? nullptr : &*it;
    } catch (...) { // only std::bad_alloc can come from the key's copy
        return nullptr;
    }
}

void JsonFields::refuse(std::string_view key, const char* wanted, const nlohmann::json& got) const noexcept {
    if (!m_refusal.empty()) return;
    try {
        m_refusal =
            "field '" + std::string(key.substr(0, 64)) + "' is " + jsonKindName(got) + ", not " + wanted;
    } catch (...) {
    }
}

bool JsonFields::has(std::string_view key) const noexcept {
    return m_j.is_object() && find(key) != nullptr;
}

std::string JsonFields::text(std::string_view key, std::string fallback) const noexcept {
    const nlohmann::json* v = find(key);
    if (!v) return fallback;
    if (!v->is_string()) {
        refuse(key, "a string", *v);
        return fallback;
    }
    try {
        return v->get_ref<const std::string&>();
    } catch (...) {
        return fallback;
    }
}

std::int64_t JsonFields::integer64(std::string_view key, std::int64_t fallback) const noexcept {
    const nlohmann::json* v = find(key);
    if (!v) return fallback;
    if (v->is_number_unsigned()) {
        const auto u = v->get_ref<const nlohmann::json::number_unsigned_t&>();
        if (u <= std::uint64_t(std::numeric_limits<std::int64_t>::max())) return std::int64_t(u);
        refuse(key, "an integer in range", *v);
        return fallback;
    }
    if (v->is_number_integer()) return v->get_ref<const nlohmann::json::number_integer_t&>();
    refuse(key, "an integer", *v);
    return fallback;
}

int JsonFields::integer(std::string_view key, int fallback) const noexcept {
    const nlohmann::json* v = find(key);
    if (!v) return fallback;
    const std::int64_t i = integer64(key, std::int64_t(std::numeric_limits<int>::min()) - 1);
    if (i < std::numeric_limits<int>::min() || i > std::numeric_limits<int>::max()) {
        refuse(key, "an integer in range", *v);
        return fallback;
    }
    return int(i);
}

std::uint64_t JsonFields::count(std::string_view key, std::uint64_t fallback) const noexcept {
    const nlohmann::json* v = find(key);
    if (!v) return fallback;
    if (v->is_number_unsigned()) return v->get_ref<const nlohmann::json::number_unsigned_t&>();
    if (v->is_number_integer() && v->get_ref<const nlohmann::json::number_integer_t&>() >= 0)
        return std::uint64_t(v->get_ref<const nlohmann::json::number_integer_t&>());
    refuse(key, "a count (an integer from 0)", *v);
    return fallback;
}

double JsonFields::number(std::string_view key, double fallback) const noexcept {
    const nlohmann::json* v = find(key);
    if (!v) return fallback;
    if (v->is_number_float()) return v->get_ref<const nlohmann::json::number_float_t&>();
    if (v->is_number_unsigned()) return double(v->get_ref<const nlohmann::json::number_unsigned_t&>());
    if (v->is_number_integer()) return double(v->get_ref<const nlohmann::json::number_integer_t&>());
    refuse(key, "a number", *v);
    return fallback;
}

bool JsonFields::flag(std::string_view key, bool fallback) const noexcept {
    const nlohmann::json* v = find(key);
    if (!v) return fallback;
    if (v->is_boolean()) return v->get_ref<const nlohmann::json::boolean_t&>();
    refuse(key, "true or false", *v);
    return fallback;
}

const nlohmann::json* JsonFields::object(std::string_view key) const noexcept {
    const nlohmann::json* v = find(key);
    if (!v) return nullptr;
    if (v->is_object()) return v;
    refuse(key, "an object", *v);
    return nullptr;
}

const nlohmann::json* JsonFields::array(std::string_view key) const noexcept {
    const nlohmann::json* v = find(key);
    if (!v) return nullptr;
    if (v->is_array()) return v;
    refuse(key, "an array", *v);
    return nullptr;
}

std::string JsonFields::shown(std::string_view key, std::size_t maxChars) const noexcept {
    const nlohmann::json* v = m_j.is_object() ? find(key) : nullptr;
    return v ? jsonShown(*v, maxChars) : std::string("null");
}

} // namespace ddpdesk::protocol
