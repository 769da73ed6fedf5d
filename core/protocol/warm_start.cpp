#include "protocol/warm_start.h"

#include <nlohmann/json.hpp>

namespace ddpdesk::protocol {

std::string encodeWarmStart(const WarmStartRequest& r) {
    const nlohmann::json j{{"args", r.args}, {"env", r.env}, {"unset", r.unset}, {"cwd", r.cwd}};
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool decodeWarmStart(const std::string& line, WarmStartRequest* r, std::string* error) {
    try {
        const nlohmann::json j = nlohmann::json::parse(line);
        if (!j.is_object() || !j.contains("args") || !j["args"].is_array()) {
            *error = "the configuration line is not an object with an \"args\" array";
            return false;
        }
        *r = WarmStartRequest{};
        r->args = j["args"].get<std::vector<std::string>>();
        if (j.contains("env")) r->env = j["env"].get<std::map<std::string, std::string>>();
        if (j.contains("unset")) r->unset = j["unset"].get<std::vector<std::string>>();
        if (j.contains("cwd")) r->cwd = j["cwd"].get<std::string>();
        return true;
    } catch (const nlohmann::json::exception& e) {
        *error = std::string("the configuration line is not valid: ") + e.what();
        return false;
    }
}

} // namespace ddpdesk::protocol
