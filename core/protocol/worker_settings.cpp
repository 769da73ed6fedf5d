#include "protocol/worker_settings.h"

#include <cmath>
#include <limits>
#include <locale>
#include <sstream>
#include <type_traits>

namespace ddpdesk::protocol {

namespace {

template <class T> struct IsOptional : std::false_type {};
template <class T> struct IsOptional<std::optional<T>> : std::true_type {};

template <class T> std::string text(const T& v) {
    if constexpr (std::is_same_v<T, std::string>)
        return v;
    else if constexpr (std::is_same_v<T, bool>)
        return v ? "true" : "false";
    else if constexpr (std::is_floating_point_v<T>)
        return formatNumber(v);
    else
        return std::to_string(v);
}

template <class T> bool tooLarge(const T& v, const SettingInfo& info) {
    if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
        return info.max > 0 && double(v) > info.max;
    else
        return false;
}

template <class T> bool breaks(SettingRule rule, const T& v, const SettingInfo& info) {
    if constexpr (std::is_same_v<T, std::string>) {
        if (rule != SettingRule::OneOf) return false;
        for (const std::string& c : info.choiceList())
            if (c == v) return false;
        return true;
    } else if constexpr (std::is_same_v<T, bool>) {
        return false;
    } else {
        switch (rule) {
        case SettingRule::AtLeastOne:
            return !(v >= 1);
        case SettingRule::ZeroOrMore:
            return !(v >= 0);
        case SettingRule::Positive:
            return !(v > 0 && std::isfinite(double(v)));
        default:
            return false;
        }
    }
}

void excludePair(const WorkerSettings& s, bool both, const char* first, const char* second,
                 std::vector<SettingProblem>& out) {
    if (!both) return;
    visitSettings(s, [&](const SettingInfo& info, const auto&) {
        if (std::string(info.flag) == second) out.push_back({info, SettingRule::None, {}, first});
    });
}

} // namespace

bool WorkerSettings::operator==(const WorkerSettings& o) const {
    return settingsToJson(*this) == settingsToJson(o);
}

std::vector<std::string> SettingInfo::choiceList() const {
    std::vector<std::string> out;
    if (!choices) return out;
    std::stringstream in(choices);
    for (std::string c; std::getline(in, c, '|');)
        out.push_back(c);
    return out;
}

std::string SettingInfo::choicesText() const {
    std::string valid;
    const auto list = choiceList();
    for (std::size_t i = 0; i < list.size(); ++i)
        valid += (i ? (i + 1 == list.size() ? " or " : ", ") : "") + list[i];
    return valid;
}

std::string SettingProblem::message() const {
    const std::string flag = info.flag;
    if (!other.empty()) return "give either " + other + " or " + flag + ", not both";
    switch (rule) {
    case SettingRule::AtLeastOne:
        return flag + " must be at least 1 (got " + value + ")";
    case SettingRule::ZeroOrMore:
        return flag + " must be 0 or more (got " + value + ")";
    case SettingRule::Positive:
        return flag + " must be a positive number (got " + value + ")";
    case SettingRule::OneOf:
        return flag + " '" + value + "' is not valid; use " + info.choicesText();
    case SettingRule::AtMost:
        return flag + " must be at most " + formatNumber(info.max) + ": " + info.maxWhy + " (got " + value +
               ")";
    default:
        return flag + " is not valid";
    }
}

std::vector<SettingProblem> settingProblems(const WorkerSettings& s) {
    std::vector<SettingProblem> out;
    visitSettings(s, [&](const SettingInfo& info, const auto& field) {
        using T = std::decay_t<decltype(field)>;
        if constexpr (IsOptional<T>::value) {
            if (field && breaks(info.rule, *field, info))
                out.push_back({info, info.rule, text(*field), {}});
            else if (field && tooLarge(*field, info))
                out.push_back({info, SettingRule::AtMost, text(*field), {}});
        } else if (breaks(info.rule, field, info)) {
            out.push_back({info, info.rule, text(field), {}});
        } else if (tooLarge(field, info)) {
            out.push_back({info, SettingRule::AtMost, text(field), {}});
        }
    });
    excludePair(s, s.epochs && s.steps, "--epochs", "--steps", out);
    excludePair(s, s.batchSize && s.globalBatch, "--batch-size", "--global-batch", out);
    return out;
}

std::vector<std::string> settingArgs(const WorkerSettings& s) {
    const WorkerSettings defaults;
    std::vector<std::string> out;
    visitSettings(s, [&](const SettingInfo& info, const auto& field) {
        using T = std::decay_t<decltype(field)>;
        if constexpr (IsOptional<T>::value) {
            if (field) out.insert(out.end(), {info.flag, text(*field)});
        } else if constexpr (std::is_same_v<T, bool>) {
            if (field) out.push_back(info.flag);
        } else {
            // Defaults are left out, so an exported command says only what the user chose.
            bool isDefault = false;
            visitSettings(defaults, [&](const SettingInfo& d, const auto& dv) {
                if constexpr (std::is_same_v<std::decay_t<decltype(dv)>, T>)
                    if (std::string(d.flag) == info.flag) isDefault = dv == field;
            });
            if (!isDefault) out.insert(out.end(), {info.flag, text(field)});
        }
    });
    return out;
}

namespace {

template <class T> bool parseText(const std::string& text, T& out) {
    std::istringstream in(text);
    in.imbue(std::locale::classic());
    T v{};
    if (!(in >> v) || !(in >> std::ws).eof()) return false;
    out = v;
    return true;
}

} // namespace

double defaultLearningRate(const std::string& workload) {
    return workload == "autoencoder" ? 1e-4 : 0.01;
}

std::string assignSetting(WorkerSettings& s, const std::string& field, const std::string& value) {
    std::string error = "--" + field + " is not a training setting";
    visitSettings(s, [&](const SettingInfo& info, auto& target) {
        if (info.field() != field) return;
        using T = std::decay_t<decltype(target)>;
        error.clear();
        bool parsed = true;
        if constexpr (IsOptional<T>::value) {
            typename T::value_type v{};
            parsed = parseText(value, v);
            if (parsed) target = v;
        } else if constexpr (std::is_same_v<T, bool>) {
            parsed = value == "on" || value == "off" || value == "true" || value == "false";
            if (parsed) target = value == "on" || value == "true";
        } else if constexpr (std::is_same_v<T, std::string>) {
            target = value;
        } else {
            parsed = parseText(value, target);
        }
        if (!parsed) {
            error = info.flag + std::string(" '") + value + "' is not " +
                    (std::is_same_v<T, bool> ? "on or off" : "a number");
            return;
        }
        for (const SettingProblem& p : settingProblems(s))
            if (p.info.field() == field && p.other.empty()) error = p.message();
    });
    return error;
}

nlohmann::json settingsToJson(const WorkerSettings& s) {
    nlohmann::json j = nlohmann::json::object();
    visitSettings(s, [&](const SettingInfo& info, const auto& field) {
        using T = std::decay_t<decltype(field)>;
        if constexpr (IsOptional<T>::value) {
            if (field) j[info.key] = *field;
        } else {
            j[info.key] = field;
        }
    });
    return j;
}

namespace {

// A profile's number as T: a value beyond T's range (1e300 for an int) is clamped, never cast (undefined).
template <typename T> T numberAs(const nlohmann::json& v) {
    if constexpr (std::is_integral_v<T>) {
        const double d = v.get<double>();
        if (!(d >= double(std::numeric_limits<T>::lowest()))) return std::numeric_limits<T>::lowest();
        if (d >= double(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
        if (v.is_number_float()) return T(d);
        return v.is_number_unsigned() ? T(v.get<std::uint64_t>()) : T(v.get<std::int64_t>());
    } else {
        return v.get<T>();
    }
}

} // namespace

WorkerSettings settingsFromJson(const nlohmann::json& j) {
    WorkerSettings s;
    if (!j.is_object()) return s;
    visitSettings(s, [&](const SettingInfo& info, auto& field) {
        using T = std::decay_t<decltype(field)>;
        const auto it = j.find(info.key);
        if (it == j.end() || it->is_null()) return;
        if constexpr (IsOptional<T>::value) {
            using V = typename T::value_type;
            if (!it->is_number()) return;
            const V v = numberAs<V>(*it);
            // Profiles wrote "worker default" as 0 or -1 before settings could be unset.
            if (breaks(info.rule, v, info))
                field.reset();
            else
                field = v;
        } else if constexpr (std::is_same_v<T, bool>) {
            if (it->is_boolean()) field = it->template get<bool>();
        } else if constexpr (std::is_same_v<T, std::string>) {
            if (it->is_string()) field = it->template get<std::string>();
        } else {
            if (it->is_number()) field = numberAs<T>(*it);
        }
    });
    return s;
}

std::string formatNumber(double v) {
    // The classic locale both ways: Qt sets the user's locale, and "0,01" is not a flag value.
    std::string out;
    for (int precision = 6; precision <= 17; ++precision) {
        std::ostringstream w;
        w.imbue(std::locale::classic());
        w.precision(precision);
        w << v;
        out = w.str();
        std::istringstream r(out);
        r.imbue(std::locale::classic());
        double back = 0;
        if ((r >> back) && back == v) break;
    }
    return out;
}

} // namespace ddpdesk::protocol
