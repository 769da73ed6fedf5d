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
    const char* code;    // Finding::code (FixResult::code for an outcome): a protocol/finding_codes.h name
    const char* variant; // Finding::variant where one code has several wordings, else ""
    const char* message; // English, with the values as %1, %2, ...
    const char* fix;     // nullptr: no fix text
};

// The translation context the templates are marked with (the GUI translates in it).
constexpr const char* kFindingTextContext = "ddpdesk::ui::DoctorTexts";

// A finding's wording by code and variant ("" for none); nullptr when the table has none.
const FindingText* findingText(const std::string& code, const std::string& variant);
// The same by key: "CODE" or "CODE/variant" (a Finding::Note's key, findingTextKey()).
const FindingText* findingText(const std::string& key);
// The wording of a renameStaleStore outcome by code and variant; nullptr if none.
const FindingText* fixResultText(const std::string& code, const std::string& variant);
// The same by FixResult::code, which carries the variant (e.g. "NOT_STALE/waiting").
const FindingText* fixResultText(const std::string& code);
// A key as findingText(key) reads it: the code, plus "/variant" when it has one.
std::string findingTextKey(const std::string& code, const std::string& variant);

// Substitutes %1..%9 in `pattern` with `args` in one pass, so a value that itself contains "%1" stays
// verbatim. A placeholder without an argument stays as it is; any other '%' is copied.
std::string fill(const char* pattern, const std::vector<std::string>& args);

} // namespace ddpdesk::doctor
