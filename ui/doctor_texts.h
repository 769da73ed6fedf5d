#pragma once

// Translated wording for the doctor's findings. core/doctor stays free of Qt and speaks English (the CLI
// prints it as is), built from the templates in core/doctor/finding_texts.cpp; the GUI looks each finding's
// template up there by its stable code (plus variant), translates it and fills in the values the doctor
// recorded in Finding::args. Unknown codes, or a language without a translation, show the doctor's text.

#include "doctor/doctor.h"

#include <QString>

namespace ddpdesk::ui {

QString findingMessage(const doctor::Finding& finding);
QString findingFix(const doctor::Finding& finding);
QString fixResultMessage(const doctor::FixResult& result); // what an applied fix did, or why it was refused

// Substitutes %1..%9 in `pattern` with `args` in one pass, so a value that itself contains "%1" stays
// verbatim. Returns a null QString when the pattern refers to an argument that is missing.
QString fillArgs(const QString& pattern, const QStringList& args);

} // namespace ddpdesk::ui
