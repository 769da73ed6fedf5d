#pragma once

// The one home of the doctor's English wording. Each finding (and each outcome of a fix) that embeds values
// has a template here with the values as %1..%9: the doctor fills it to build Finding::message / Finding::fix
// (what the CLI prints), and the GUI looks the same template up by key to translate it and fills it with
// Finding::args. So a sentence is written once and the translation catalogue keys on exactly the English the
// CLI prints. Plain C++ (no Qt): the templates carry QT_TRANSLATE_NOOP marks only for lupdate.

#include <string>
#include <vector>

namespace ddpdesk::doctor {

struct FindingText {
    const char* key;     // "CODE", or "CODE/variant" where one code has several wordings
    const char* message; // English, with the values as %1, %2, ...
    const char* fix;     // nullptr: no fix text
};

// The translation context the templates are marked with (the GUI translates in it).
constexpr const char* kFindingTextContext = "ddpdesk::ui::DoctorTexts";

// A finding's wording by key ("CODE" or "CODE/variant"); nullptr when the table has none.
const FindingText* findingText(const std::string& key);
// The wording of a renameStaleStore outcome by FixResult::code (e.g. "NOT_STALE/waiting"); nullptr if none.
const FindingText* fixResultText(const std::string& code);
// The key findingText() looks a finding up by: its code, plus "/variant" when it has one.
std::string findingTextKey(const std::string& code, const std::string& variant);

// Substitutes %1..%9 in `pattern` with `args` in one pass, so a value that itself contains "%1" stays
// verbatim. A placeholder without an argument stays as it is; any other '%' is copied.
std::string fill(const char* pattern, const std::vector<std::string>& args);

} // namespace ddpdesk::doctor
