#pragma once

// The one way to read JSON that came from outside this process: a peer's frame, a line a script printed, a
// record a rank wrote, a file on a share, a value in the store. nlohmann's own typed reads (value(), get<>)
// throw type_error when a field has another type than the reader expects, and a throw on a reader's thread
// ends the whole launcher (issue: one hello whose "host" was a number took node 0 down). Every read here is
// noexcept: a missing field gives the fallback, a field of the wrong type gives the fallback too and is
// remembered as a refusal that names the field ("field 'host' is a number, not a string"), so a caller can
// refuse the message with a reason instead of acting on half of it.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ddpdesk::protocol {

class JsonFields {
public:
    // `j` must outlive this reader (it is read in place, never copied).
    explicit JsonFields(const nlohmann::json& j) noexcept : m_j(j) {}

    bool isObject() const noexcept { return m_j.is_object(); }
    bool has(std::string_view key) const noexcept;

    // A string field; a number, object, ... is a refusal.
    std::string text(std::string_view key, std::string fallback = {}) const noexcept;
    // An integer field (not 1.5, not "1") that fits an int / int64 / uint64; out of range is a refusal.
    int integer(std::string_view key, int fallback) const noexcept;
    std::int64_t integer64(std::string_view key, std::int64_t fallback) const noexcept;
    std::uint64_t count(std::string_view key, std::uint64_t fallback) const noexcept; // never negative
    // Any number (integers too); NaN never comes from JSON.
    double number(std::string_view key, double fallback) const noexcept;
    bool flag(std::string_view key, bool fallback) const noexcept;
    // The field when it is an object / array, else nullptr (a refusal when present with another type).
    const nlohmann::json* object(std::string_view key) const noexcept;
    const nlohmann::json* array(std::string_view key) const noexcept;
    // The field as JSON text for a message ("null" when missing), invalid UTF-8 replaced, at most maxChars.
    std::string shown(std::string_view key, std::size_t maxChars = 80) const noexcept;

    // The first field read with the wrong type (or out of range): "field 'host' is a number, not a string";
    // empty while every field read so far was absent or right. A reader that is not an object says so.
    const std::string& refusal() const noexcept { return m_refusal; }
    bool ok() const noexcept { return m_refusal.empty(); }

private:
    const nlohmann::json* find(std::string_view key) const noexcept;
    void refuse(std::string_view key, const char* wanted, const nlohmann::json& got) const noexcept;

    const nlohmann::json& m_j;
    mutable std::string m_refusal;
};

// What kind of JSON value `j` is, in words ("a number", "an object"): for refusals.
const char* jsonKindName(const nlohmann::json& j) noexcept;
// `j` as JSON text that never throws (invalid UTF-8 replaced), cut to maxChars with "...".
std::string jsonShown(const nlohmann::json& j, std::size_t maxChars = 80) noexcept;

} // namespace ddpdesk::protocol
