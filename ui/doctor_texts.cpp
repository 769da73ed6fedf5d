#include "doctor_texts.h"

#include "doctor/finding_texts.h"
#include "protocol/finding_codes.h"

#include <QCoreApplication>
#include <QStringList>

namespace ddpdesk::ui {

namespace {

// The wording lives in core/doctor/finding_texts.cpp (the English the doctor itself builds its texts from);
// this file only translates it.
const doctor::FindingText* lookup(const doctor::Finding& f) {
    return doctor::findingText(f.code, f.variant);
}

QStringList toQt(const std::vector<std::string>& values) {
    QStringList out;
    for (const std::string& v : values)
        out << QString::fromStdString(v);
    return out;
}

QStringList argsOf(const doctor::Finding& f) {
    QStringList args = toQt(f.args);
    // The doctor leaves the holder empty when the OS did not name it.
    if (f.code == protocol::finding::PortInUse && args.size() > 1 && args[1].isEmpty())
        args[1] = QCoreApplication::translate("ddpdesk::ui::DoctorTexts", "another process");
    return args;
}

// The translated wording filled with `args`; null when there is none (or an argument is missing).
QString translated(const QStringList& args, const char* source) {
    if (!source) return QString();
    const QString pattern = QCoreApplication::translate(doctor::kFindingTextContext, source);
    if (pattern == QLatin1String(source)) return QString();
    return fillArgs(pattern, args);
}

// The translated wording when there is one; otherwise the doctor's own text, so English is exactly the CLI's.
QString render(const QStringList& args, const char* source, const std::string& english) {
    const QString filled = translated(args, source);
    return filled.isNull() ? QString::fromStdString(english) : filled;
}

} // namespace

QString fillArgs(const QString& pattern, const QStringList& args) {
    QString out = QLatin1String(""); // not null: null means "an argument is missing"
    for (int i = 0; i < pattern.size(); ++i) {
        const QChar c = pattern.at(i);
        if (c == QLatin1Char('%') && i + 1 < pattern.size() && pattern.at(i + 1) >= QLatin1Char('1') &&
            pattern.at(i + 1) <= QLatin1Char('9')) {
            const int n = pattern.at(i + 1).digitValue();
            if (n > args.size()) return QString();
            out += args.at(n - 1);
            ++i;
        } else {
            out += c;
        }
    }
    return out;
}

QString findingMessage(const doctor::Finding& finding) {
    const doctor::FindingText* t = lookup(finding);
    QString out = translated(argsOf(finding), t ? t->message : nullptr);
    for (const doctor::Finding::Note& note : finding.notes) {
        const doctor::FindingText* n = doctor::findingText(note.key);
        const QString sentence = translated(toQt(note.args), n ? n->message : nullptr);
        if (out.isNull() || sentence.isNull()) break;
        out += QLatin1Char(' ') + sentence;
    }
    // Untranslated in part: the doctor's own text whole, so English is exactly the CLI's.
    return out.isNull() ? QString::fromStdString(finding.message) : out;
}

QString findingFix(const doctor::Finding& finding) {
    if (finding.fix.empty()) return QString();
    const doctor::FindingText* t = lookup(finding);
    return render(argsOf(finding), t ? t->fix : nullptr, finding.fix);
}

QString fixResultMessage(const doctor::FixResult& result) {
    const doctor::FindingText* t = doctor::fixResultText(result.code);
    return render(toQt(result.args), t ? t->message : nullptr, result.message);
}

} // namespace ddpdesk::ui
