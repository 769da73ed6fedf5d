#include "protocol/warm_start.h"

#include "protocol/json_fields.h"

#include <nlohmann/json.hpp>

namespace ddpdesk::protocol {

std::string encodeWarmStart(const WarmStartRequest& r) {
    const nlohmann::json j{{"args", r.args}, {"env", r.env}, {"unset", r.unset}, {"cwd", r.cwd}};
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

namespace {

// The strings of a JSON array; false when it holds anything else.
bool strings(const nlohmann::json* list, std::vector<std::string>* out) {
    if (!list) return true;
    for (const nlohmann::json& v : *list) {
        if (!v.is_string()) return false;
        out->push_back(v.get_ref<const std::string&>());
    }
    return true;
}

} // namespace

bool decodeWarmStart(const std::string& line, WarmStartRequest* r, std::string* error) {
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    const JsonFields f(j);
    const nlohmann::json* args = f.array("args");
    if (!args) {
        *error = "the configuration line is not an object with an \"args\" array";
        return false;
    }
    *r = WarmStartRequest{};
    r->cwd = f.text("cwd");
    bool ok = strings(args, &r->args) && strings(f.array("unset"), &r->unset);
    if (const nlohmann::json* env = f.object("env"))
        for (const auto& [key, value] : env->items()) {
            ok = ok && value.is_string();
            if (value.is_string()) r->env[key] = value.get_ref<const std::string&>();
        }
    if (!ok || !f.ok()) {
        *error = "the configuration line is not valid: " +
                 (f.ok() ? std::string("args, unset and env hold strings only") : f.refusal());
        return false;
    }
    return true;
}

} // namespace ddpdesk::protocol
