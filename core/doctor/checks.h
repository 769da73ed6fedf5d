#pragma once

// Internal: the probe families diagnose() runs, each appending findings. Not part of the public API.

#include "doctor/deadline.h"
#include "doctor/doctor.h"
#include "doctor/rank_census.h"
#include "protocol/store_spec.h"

#include <set>

namespace ddpdesk::doctor::detail {

Finding makeFinding(std::string code, Severity severity, std::string message, nlohmann::json evidence = {},
                    std::string fix = {});

// A finding worded from finding_texts.cpp, so its English is written only there: `code` is a
// protocol::finding name, `variant` picks one of its wordings; message and fix are their templates filled
// with `args`, and code, variant and args are recorded for a translated view (see Finding::variant /
// Finding::args).
Finding textFinding(const std::string& code, const std::string& variant, Severity severity,
                    std::vector<std::string> args, nlohmann::json evidence = {});
// The same for a code with one wording (`key` may also be "CODE/variant").
Finding textFinding(const std::string& key, Severity severity, std::vector<std::string> args,
                    nlohmann::json evidence = {});
// Appends the sentence `key` ("NOTE/...") filled with `args` to the finding's message, and records it in
// Finding::notes so a translated view appends the same sentence translated.
void appendNote(Finding& f, const std::string& key, std::vector<std::string> args);

// The running diagnosis (doctor.cpp), for the probes on its thread: its deadline (none outside a diagnosis),
// and what it is doing now. setActivity also hands the findings appended so far to diagnose(), which returns
// them if a probe outlives the deadline (a file system that stopped answering).
const Deadline& diagnosisDeadline();
void setActivity(const std::string& what);
// Appends DEADLINE_REACHED naming the current activity (once per diagnosis).
void deadlineReached(std::vector<Finding>& out);

void checkFileStore(const DoctorRequest& request, const std::filesystem::path& path,
                    std::vector<Finding>& out);
void checkTcpStore(const DoctorRequest& request, const protocol::StoreSpec& address,
                   std::vector<Finding>& out);

// Turns what a live store shows about the ranks into RANKS_MISSING / RANKS_EXCESS / RANK_* findings.
// `pending`: the job may still be forming (a pre-flight on a joining node), so missing ranks are only a
// warning.
void reportCensus(const DoctorRequest& request, const RankCensus& census, bool pending,
                  std::vector<Finding>& out);

// Node 0 of a multi-node run: NODE_* findings from request.nodes, beside the ranks the store showed
// (`arrived`; nullptr when the store could not tell).
void reportNodes(const DoctorRequest& request, const std::set<int>* arrived, std::vector<Finding>& out);

} // namespace ddpdesk::doctor::detail
