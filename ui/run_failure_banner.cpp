#include "run_failure_banner.h"

#include "icons.h"
#include "launch/model/run_model.h"
#include "protocol/finding_codes.h"
#include "run_panel.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace ddpdesk::ui {

RunFailureBanner::RunFailureBanner(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("failureBanner"));
    m_icon = new QLabel;
    setWarning(false);
    m_text = new QLabel;
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_diagnose = new QPushButton(icon(IconId::Doctor), QString());
    m_showLog = new QPushButton;
    auto* bh = new QHBoxLayout(this);
    bh->addWidget(m_icon, 0, Qt::AlignTop);
    bh->addWidget(m_text, 1);
    bh->addWidget(m_showLog, 0, Qt::AlignTop);
    bh->addWidget(m_diagnose, 0, Qt::AlignTop);
    hide();
    connect(m_diagnose, &QPushButton::clicked, this, [this] { emit diagnoseClicked(m_failedRank); });
    connect(m_showLog, &QPushButton::clicked, this, [this] { emit showLogClicked(m_failedRank); });
}

void RunFailureBanner::setWarning(bool warning) {
    m_warning = warning;
    setStyleSheet(warning ? QStringLiteral("#failureBanner { background: #fff4ce; border: 1px solid #9d5d00;"
                                           " border-radius: 4px; } QLabel { color: #4d2f00; }")
                          : QStringLiteral("#failureBanner { background: #fde7e9; border: 1px solid #c42b1c;"
                                           " border-radius: 4px; } QLabel { color: #5c0f08; }"));
    m_icon->setPixmap(icon(warning ? IconId::Warning : IconId::Error).pixmap(32, 32));
}

// Translated in RunPanel's context, where these strings have always lived (the shipped translations use it).
void RunFailureBanner::retranslate() {
    m_diagnose->setText(RunPanel::tr("&Diagnose"));
    m_showLog->setText(RunPanel::tr("Show log"));
}

void RunFailureBanner::clear() {
    m_failedRank = -1;
    hide();
}

QString RunFailureBanner::text() const {
    return m_text->text();
}

// A known failure, explained (core/launch/diagnose/failure_diagnosis.h), in the user's language. The table's
// own texts are looked up by code; the context is spelled out where lupdate has to read it.
QString RunFailureBanner::diagnosisHtml(const std::optional<launch::Diagnosis>& d) {
    if (!d) return QString();
    const launch::FailureKind* kind = launch::findFailureKind(d->code);
    const char* ctx = launch::kFailureTranslationContext;
    QString message =
        kind ? QCoreApplication::translate(ctx, kind->message) : QString::fromStdString(d->message);
    const QString fix = kind ? QCoreApplication::translate(ctx, kind->fix) : QString::fromStdString(d->fix);
    if (kind && d->firstFailedRank >= 0) {
        const QString first =
            d->firstFailedExit.empty()
                ? QCoreApplication::translate(
                      "ddpdesk::launch::FailureDiagnosis",
                      "Rank %1 failed first: its output and exit status show the cause.")
                      .arg(d->firstFailedRank)
                : QCoreApplication::translate(
                      "ddpdesk::launch::FailureDiagnosis",
                      "Rank %1 failed first (%2): its output and exit status show the cause.")
                      .arg(d->firstFailedRank)
                      .arg(QString::fromStdString(d->firstFailedExit));
        message += QLatin1Char(' ') + first;
    }
    return QStringLiteral("<br>") +
           QCoreApplication::translate("ddpdesk::launch::FailureDiagnosis", "<b>Why [%1]:</b> %2")
               .arg(QString::fromStdString(d->code), message.toHtmlEscaped()) +
           QStringLiteral("<br>") +
           QCoreApplication::translate("ddpdesk::launch::FailureDiagnosis", "<b>Fix:</b> %1")
               .arg(fix.toHtmlEscaped());
}

void RunFailureBanner::showCompletedWarning(const launch::RunModel* model) {
    const auto d = model ? model->summary().diagnosis : std::nullopt;
    if (!d) {
        clear();
        return;
    }
    setWarning(true);
    m_failedRank = d->rank;
    m_diagnose->hide(); // the doctor reads rendezvous; a run that completed got past it
    m_text->setText(
        RunPanel::tr("<b>The run completed, but rank %1 needs a look.</b> %2")
            .arg(d->rank)
            .arg(RunPanel::tr("Seen: %1").arg(QString::fromStdString(d->matched).toHtmlEscaped())) +
        diagnosisHtml(d));
    show();
}

void RunFailureBanner::showHoldUp(const launch::RunModel* model) {
    const auto d = model ? model->liveDiagnosis() : std::nullopt;
    if (!d) {
        if (m_warning) clear(); // a failure banner stays
        return;
    }
    setWarning(true);
    m_failedRank = d->rank;
    m_diagnose->show(); // the doctor adds what the store says
    const bool straggler = d->code == protocol::diagnosis::Straggler;
    m_text->setText((straggler ? RunPanel::tr("<b>One rank is slower than the others.</b>")
                               : RunPanel::tr("<b>The run is held up.</b>")) +
                    diagnosisHtml(d));
    show();
}

void RunFailureBanner::showFailure(const launch::RunModel* model, int rank, const QString& reason) {
    setWarning(false);
    m_diagnose->show();
    m_failedRank = rank;
    QString lastError;
    if (model) {
        const int idx = model->indexOfRank(rank);
        if (idx >= 0) {
            const auto& rs = model->rank(idx);
            if (!rs.errorMessage.isEmpty())
                lastError = rs.errorCode.isEmpty()
                                ? rs.errorMessage
                                : QStringLiteral("%1: %2").arg(rs.errorCode, rs.errorMessage);
            else if (!rs.lastStderr.isEmpty())
                lastError = rs.lastStderr.back();
        }
    }
    QString text = rank >= 0 ? RunPanel::tr("<b>Rank %1 failed.</b> %2").arg(rank).arg(reason.toHtmlEscaped())
                             : RunPanel::tr("<b>The run failed.</b> %1").arg(reason.toHtmlEscaped());
    if (!lastError.isEmpty() && !reason.contains(lastError))
        text += QStringLiteral("<br>") + RunPanel::tr("Last error: %1").arg(lastError.toHtmlEscaped());
    if (model) text += diagnosisHtml(model->summary().diagnosis);
    m_text->setText(text);
    show();
}

} // namespace ddpdesk::ui
