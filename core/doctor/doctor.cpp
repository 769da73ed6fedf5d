#include "doctor/doctor.h"

#include "doctor/checks.h"
#include "doctor/finding_texts.h"
#include "os/bounded_call.h"
#include "os/utf8_path.h"
#include "protocol/finding_codes.h"
#include "protocol/store_spec.h"
#include "protocol/utf8.h"

#include <cmath>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <iomanip>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

namespace ddpdesk::doctor {

namespace detail {

Finding makeFinding(std::string code, Severity severity, std::string message, nlohmann::json evidence,
                    std::string fix) {
    Finding f;
    f.code = std::move(code);
    f.severity = severity;
    f.message = std::move(message);
    f.evidence = evidence.is_null() ? nlohmann::json::object() : std::move(evidence);
    f.fix = std::move(fix);
    return f;
}

Finding textFinding(const std::string& code, const std::string& variant, Severity severity,
                    std::vector<std::string> args, nlohmann::json evidence) {
    const FindingText* text = findingText(code, variant);
    Finding f = makeFinding(code, severity, text ? fill(text->message, args) : findingTextKey(code, variant),
                            std::move(evidence), text && text->fix ? fill(text->fix, args) : std::string());
    f.variant = variant;
    f.args = std::move(args);
    return f;
}

Finding textFinding(const std::string& key, Severity severity, std::vector<std::string> args,
                    nlohmann::json evidence) {
    const std::size_t slash = key.find('/');
    if (slash == std::string::npos)
        return textFinding(key, std::string(), severity, std::move(args), std::move(evidence));
    return textFinding(key.substr(0, slash), key.substr(slash + 1), severity, std::move(args),
                       std::move(evidence));
}

void appendNote(Finding& f, const std::string& key, std::vector<std::string> args) {
    const FindingText* text = findingText(key);
    f.message += " " + (text ? fill(text->message, args) : key);
    f.notes.push_back({key, std::move(args)});
}

Deadline::Deadline(double seconds) : m_seconds(seconds) {
    m_end = net::Clock::now() +
            std::chrono::duration_cast<net::Clock::duration>(std::chrono::duration<double>(seconds));
}

net::Millis Deadline::left() const {
    const auto now = net::Clock::now();
    if (m_end <= now) return net::Millis(0);
    if (m_end == net::TimePoint::max()) return net::Millis(24LL * 3600 * 1000);
    return std::chrono::duration_cast<net::Millis>(m_end - now);
}

namespace {

// Shared by diagnose() and the thread that runs the checks; diagnose() may return before that thread ends.
struct Progress {
    std::mutex mutex;
    std::condition_variable finished;
    // What the checks had found at their last setActivity (all of it once done).
    std::vector<Finding> published;
    std::string activity = "starting";
    bool done = false;
    std::exception_ptr error;
};

struct Context {
    Deadline deadline;
    std::shared_ptr<Progress> progress;
    std::vector<Finding>* out = nullptr;
};

thread_local Context* t_context = nullptr;

std::string secondsText(double seconds) {
    std::ostringstream s;
    s << std::setprecision(3) << seconds;
    return s.str();
}

Finding deadlineFinding(double seconds, const std::string& activity) {
    return textFinding(protocol::finding::DeadlineReached, Severity::Warning,
                       {secondsText(seconds), activity}, {{"deadline_s", seconds}, {"activity", activity}});
}

} // namespace

const Deadline& diagnosisDeadline() {
    static const Deadline never;
    return t_context ? t_context->deadline : never;
}

void setActivity(const std::string& what) {
    if (!t_context) return;
    Progress& p = *t_context->progress;
    std::lock_guard<std::mutex> lock(p.mutex);
    const auto& out = *t_context->out;
    if (p.published.size() > out.size()) p.published.clear(); // the checks rewrote their list: take it again
    p.published.insert(p.published.end(), out.begin() + static_cast<std::ptrdiff_t>(p.published.size()),
                       out.end());
    p.activity = what;
}

void deadlineReached(std::vector<Finding>& out) {
    for (const auto& f : out)
        if (f.code == protocol::finding::DeadlineReached) return;
    std::string activity = "probing";
    double seconds = 0;
    if (t_context) {
        seconds = t_context->deadline.seconds();
        std::lock_guard<std::mutex> lock(t_context->progress->mutex);
        activity = t_context->progress->activity;
    }
    out.push_back(deadlineFinding(seconds, activity));
}

} // namespace detail

using detail::textFinding;

namespace {

namespace fs = std::filesystem;

// The probes stop at the deadline by themselves; this grace lets them report what they learned. Only a call
// that cannot be bounded from inside (a file system that stopped answering) is abandoned after it.
constexpr auto kGrace = std::chrono::milliseconds(400);

// A store on a network share that went away blocks stat/open for minutes: ask in a helper thread first.
bool storePathAnswers(const fs::path& path, net::Millis timeout) {
    return ddpdesk::os::callBounded<bool>(
               [path] {
                   std::error_code ec;
                   const fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
                   (void)fs::status(dir, ec);
                   (void)fs::status(path, ec);
                   return true;
               },
               timeout)
        .has_value();
}

void checkFileStoreBounded(const DoctorRequest& request, const fs::path& path, std::vector<Finding>& out) {
    const auto& deadline = detail::diagnosisDeadline();
    const auto timeout = deadline.bound(net::Millis(static_cast<long long>(request.probeTimeoutSec * 1000)));
    detail::setActivity("checking whether the store path " + ddpdesk::os::utf8(path) + " answers");
    if (!storePathAnswers(path, timeout)) {
        if (deadline.expired()) {
            detail::deadlineReached(out);
            return;
        }
        out.push_back(textFinding(protocol::finding::FileStoreNotAnswering, Severity::Error,
                                  {ddpdesk::os::utf8(path), std::to_string(timeout.count())},
                                  {{"path", ddpdesk::os::utf8(path)}, {"timeout_ms", timeout.count()}}));
        return;
    }
    detail::setActivity("checking the store file " + ddpdesk::os::utf8(path));
    detail::checkFileStore(request, path, out);
}

// Which ranks the store showed, from the census findings: all of them, or the ones RANKS_MISSING lists; false
// when it did not name them (a counter, an unread store).
bool arrivedRanks(const DoctorRequest& request, const std::vector<Finding>& findings,
                  std::set<int>* arrived) {
    for (const Finding& f : findings) {
        if (f.code == protocol::finding::RanksComplete && request.worldSize > 0) {
            for (int r = 0; r < request.worldSize; ++r)
                arrived->insert(r);
            return true;
        }
        const auto listed = f.evidence.find("arrived");
        if (f.code == protocol::finding::RanksMissing && listed != f.evidence.end() && listed->is_array()) {
            for (const auto& r : *listed)
                if (r.is_number_integer()) arrived->insert(r.get<int>());
            return true;
        }
    }
    return false;
}

void runChecks(const DoctorRequest& request, std::vector<Finding>& out) {
    if (request.worldSize < 0)
        out.push_back(textFinding(protocol::finding::WorldSizeMismatch, "invalid", Severity::Error,
                                  {std::to_string(request.worldSize)}, {{"world_size", request.worldSize}}));
    if (request.rank >= 0 && request.worldSize > 0 && request.rank >= request.worldSize)
        out.push_back(textFinding(protocol::finding::RankOutOfRange, "request", Severity::Error,
                                  {std::to_string(request.rank), std::to_string(request.worldSize - 1),
                                   std::to_string(request.worldSize)},
                                  {{"rank", request.rank}, {"world_size", request.worldSize}}));
    if (request.nodeRank < 0)
        out.push_back(textFinding(protocol::finding::NodeRankInvalid, Severity::Error,
                                  {std::to_string(request.nodeRank)}, {{"node_rank", request.nodeRank}}));

    const protocol::StoreSpec address = protocol::parseStoreSpec(request.store);
    switch (address.kind) {
    case protocol::StoreSpec::Kind::File:
        checkFileStoreBounded(request, address.path, out);
        break;
    case protocol::StoreSpec::Kind::Tcp:
        detail::checkTcpStore(request, address, out);
        break;
    case protocol::StoreSpec::Kind::Invalid:
        out.push_back(textFinding(protocol::finding::StoreInvalid, Severity::Error, {address.error},
                                  {{"store", request.store}}));
        break;
    }
    if (!request.nodes.empty()) {
        std::set<int> arrived;
        const bool known = arrivedRanks(request, out, &arrived);
        detail::reportNodes(request, known ? &arrived : nullptr, out);
    }
}

void sanitize(nlohmann::json& j) {
    if (j.is_string()) {
        j = protocol::validUtf8(j.get_ref<const std::string&>());
    } else if (j.is_array()) {
        for (auto& v : j)
            sanitize(v);
    } else if (j.is_object()) {
        nlohmann::json clean = nlohmann::json::object();
        for (auto& [key, value] : j.items()) {
            sanitize(value);
            clean[protocol::validUtf8(key)] = std::move(value);
        }
        j = std::move(clean);
    }
}

// Store values and paths come from outside and may be any bytes; findings go to JSON and Qt, which need
// UTF-8.
void sanitize(std::vector<Finding>& findings) {
    for (auto& f : findings) {
        f.message = protocol::validUtf8(f.message);
        f.fix = protocol::validUtf8(f.fix);
        for (auto& a : f.args)
            a = protocol::validUtf8(a);
        sanitize(f.evidence);
    }
}

} // namespace

std::vector<Finding> diagnose(const DoctorRequest& request) {
    double seconds = request.deadlineSec;
    if (!(seconds > 0) || !std::isfinite(seconds)) seconds = DoctorRequest{}.deadlineSec;
    seconds = std::min(std::max(seconds, 0.05), 7.0 * 24 * 3600);
    auto progress = std::make_shared<detail::Progress>();
    const detail::Deadline deadline(seconds);
    auto work = [request, progress, deadline] {
        std::vector<Finding> out;
        detail::Context context{deadline, progress, &out};
        detail::t_context = &context;
        std::exception_ptr error;
        try {
            runChecks(request, out);
        } catch (...) {
            error = std::current_exception();
        }
        detail::t_context = nullptr;
        std::lock_guard<std::mutex> lock(progress->mutex);
        progress->published = std::move(out);
        progress->error = error;
        progress->done = true;
        progress->finished.notify_all();
    };
    try {
        std::thread(work).detach();
    } catch (const std::system_error&) {
        work(); // no thread to be had: run here, still bounded by the probes' own deadlines
    }
    std::unique_lock<std::mutex> lock(progress->mutex);
    progress->finished.wait_until(lock, deadline.end() + kGrace, [&] { return progress->done; });
    if (progress->error) std::rethrow_exception(progress->error);
    std::vector<Finding> out = progress->published;
    const bool done = progress->done;
    const std::string activity = progress->activity;
    lock.unlock();
    if (!done) out.push_back(detail::deadlineFinding(seconds, activity));
    sanitize(out);
    return out;
}

bool hasError(const std::vector<Finding>& findings) {
    for (const auto& f : findings)
        if (f.severity == Severity::Error) return true;
    return false;
}

const char* severityName(Severity s) {
    switch (s) {
    case Severity::Info:
        return "info";
    case Severity::Warning:
        return "warning";
    case Severity::Error:
        return "error";
    }
    return "info";
}

nlohmann::json toJson(const std::vector<Finding>& findings) {
    nlohmann::json arr = nlohmann::json::array();
    for (const auto& f : findings)
        arr.push_back({{"code", f.code},
                       {"severity", severityName(f.severity)},
                       {"message", f.message},
                       {"evidence", f.evidence},
                       {"fix", f.fix}});
    return {{"findings", arr}};
}

std::string toText(const std::vector<Finding>& findings) {
    std::ostringstream s;
    int errors = 0, warnings = 0;
    for (const auto& f : findings) {
        errors += f.severity == Severity::Error;
        warnings += f.severity == Severity::Warning;
        s << "[" << severityName(f.severity) << "] " << f.code << ": " << f.message << "\n";
        if (!f.evidence.empty())
            s << "    evidence: " << f.evidence.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
              << "\n";
        if (!f.fix.empty()) s << "    fix: " << f.fix << "\n";
    }
    if (errors == 0 && warnings == 0)
        s << "No problems found.\n";
    else
        s << errors << " error(s), " << warnings << " warning(s).\n";
    return s.str();
}

} // namespace ddpdesk::doctor
