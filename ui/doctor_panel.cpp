#include "doctor_panel.h"

#include "doctor_fixes.h"
#include "doctor_texts.h"
#include "icons.h"

#include "protocol/finding_codes.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTextBrowser>
#include <QThread>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <memory>
#include <mutex>

namespace ddpdesk::ui {

namespace {

QIcon severityIcon(doctor::Severity s) {
    switch (s) {
    case doctor::Severity::Error:
        return icon(IconId::Error);
    case doctor::Severity::Warning:
        return icon(IconId::Warning);
    default:
        return icon(IconId::Info);
    }
}

QString jsonValueText(const nlohmann::json& v) {
    if (v.is_string()) return QString::fromStdString(v.get<std::string>());
    return QString::fromStdString(v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

} // namespace

DoctorPanel::DoctorPanel(QWidget* parent) : QWidget(parent) {
    build();
    retranslate();
}

DoctorPanel::~DoctorPanel() = default;

void DoctorPanel::build() {
    m_storeLabel = new QLabel;
    m_store = new QLineEdit;
    m_worldLabel = new QLabel;
    m_worldSize = new QSpinBox;
    m_worldSize->setRange(0, 65536);
    m_worldSize->setValue(2);
    m_run = new QPushButton(icon(IconId::Doctor), QString());
    m_state = new QLabel;
    auto* top = new QHBoxLayout;
    top->addWidget(m_storeLabel);
    top->addWidget(m_store, 1);
    top->addWidget(m_worldLabel);
    top->addWidget(m_worldSize);
    top->addWidget(m_run);

    m_list = new QTreeWidget;
    m_list->setColumnCount(3);
    m_list->setRootIsDecorated(false);
    m_list->setAlternatingRowColors(true);
    m_list->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_list->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_list->header()->setStretchLastSection(true);
    m_list->setIconSize(QSize(20, 20));
    m_details = new QTextBrowser;
    m_details->setOpenLinks(false);
    m_fix = new QPushButton(icon(IconId::Ok), QString());
    m_fix->setEnabled(false);
    m_result = new QLabel;
    m_result->setWordWrap(true);
    auto* detailBox = new QWidget;
    auto* dv = new QVBoxLayout(detailBox);
    dv->setContentsMargins(0, 0, 0, 0);
    dv->addWidget(m_details, 1);
    auto* fixRow = new QHBoxLayout;
    fixRow->addWidget(m_result, 1);
    fixRow->addWidget(m_fix);
    dv->addLayout(fixRow);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_list);
    split->addWidget(detailBox);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);

    auto* v = new QVBoxLayout(this);
    v->addLayout(top);
    v->addWidget(m_state);
    v->addWidget(split, 1);

    connect(m_run, &QPushButton::clicked, this, &DoctorPanel::runFromInputs);
    connect(m_store, &QLineEdit::returnPressed, this, &DoctorPanel::runFromInputs);
    connect(m_list, &QTreeWidget::currentItemChanged, this, &DoctorPanel::showDetails);
    connect(m_fix, &QPushButton::clicked, this, [this] {
        const QTreeWidgetItem* item = m_list->currentItem();
        if (item) applyFix(item->data(0, Qt::UserRole).toInt());
    });
}

void DoctorPanel::retranslate() {
    m_storeLabel->setText(tr("Store:"));
    m_store->setPlaceholderText(tr("file:C:\\shared\\store or tcp://host:29500"));
    m_worldLabel->setText(tr("World size:"));
    m_worldSize->setSpecialValueText(tr("unknown"));
    m_run->setText(tr("&Diagnose"));
    m_run->setToolTip(tr("Check the store, the port and the network (F7)"));
    m_list->setHeaderLabels({tr("Severity"), tr("Code"), tr("Finding")});
    m_fix->setText(tr("Apply fix"));
    if (!m_busy && !m_ranOnce)
        m_state->setText(
            tr("The doctor checks the rendezvous store, the port and the network before a run starts, "
               "when a run stalls, and whenever you press Diagnose."));
    if (m_ranOnce && !m_busy) showFindings(m_findings);
}

void DoctorPanel::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(e);
}

void DoctorPanel::runFromInputs() {
    doctor::DoctorRequest r = m_lastRequest;
    r.store = m_store->text().trimmed().toStdString();
    r.worldSize = m_worldSize->value();
    diagnose(r);
}

void DoctorPanel::diagnose(const doctor::DoctorRequest& request) {
    if (m_busy) return;
    m_busy = true;
    m_lastRequest = request;
    m_store->setText(QString::fromStdString(request.store));
    m_worldSize->setValue(request.worldSize);
    m_run->setEnabled(false);
    m_state->setText(tr("Diagnosing %1 ...").arg(QString::fromStdString(request.store)));
    // Probes block on sockets; keep them off the UI thread. The thread is never waited for (quitting does not
    // wait on a diagnosis, which ends by its deadline anyway): its answer is posted under the link's lock,
    // which the panel's destruction clears, and Qt drops an event posted to an object destroyed before it
    // runs.
    struct Link {
        std::mutex mutex;
        DoctorPanel* panel = nullptr;
    };
    auto link = std::make_shared<Link>();
    link->panel = this;
    QThread* thread = QThread::create([link, request] {
        std::vector<doctor::Finding> found;
        try {
            found = doctor::diagnose(request);
        } catch (const std::exception& e) {
            doctor::Finding f;
            f.code = protocol::finding::DoctorFailed;
            f.severity = doctor::Severity::Error;
            f.message = tr("The diagnosis itself failed: %1").arg(QString::fromUtf8(e.what())).toStdString();
            found.push_back(f);
        } catch (...) { // a thread that throws ends the process: named instead
            doctor::Finding f;
            f.code = protocol::finding::DoctorFailed;
            f.severity = doctor::Severity::Error;
            f.message = tr("The diagnosis itself failed.").toStdString();
            found.push_back(f);
        }
        std::lock_guard<std::mutex> lock(link->mutex);
        if (DoctorPanel* panel = link->panel)
            QMetaObject::invokeMethod(
                panel, [panel, found] { panel->showFindings(found); }, Qt::QueuedConnection);
    });
    connect(
        this, &QObject::destroyed, thread,
        [link] {
            std::lock_guard<std::mutex> lock(link->mutex);
            link->panel = nullptr;
        },
        Qt::DirectConnection);
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    thread->start();
}

void DoctorPanel::showFindings(const std::vector<doctor::Finding>& findings) {
    const bool fresh = m_busy;
    m_busy = false;
    m_ranOnce = true;
    m_run->setEnabled(true);
    m_findings = findings;
    m_list->clear();
    int errors = 0, warnings = 0;
    for (size_t i = 0; i < findings.size(); ++i) {
        const doctor::Finding& f = findings[i];
        errors += f.severity == doctor::Severity::Error;
        warnings += f.severity == doctor::Severity::Warning;
        const QString sev = f.severity == doctor::Severity::Error     ? tr("Error")
                            : f.severity == doctor::Severity::Warning ? tr("Warning")
                                                                      : tr("Info");
        const QString text = findingMessage(f);
        auto* item = new QTreeWidgetItem(m_list, {sev, QString::fromStdString(f.code), text});
        item->setIcon(0, severityIcon(f.severity));
        item->setData(0, Qt::UserRole, int(i));
        item->setToolTip(2, text);
    }
    m_state->setText(errors     ? tr("%n problem(s) found that stop the run.", nullptr, errors)
                     : warnings ? tr("No blocking problem; %n warning(s).", nullptr, warnings)
                                : tr("No problem found."));
    if (!findings.empty())
        m_list->setCurrentItem(m_list->topLevelItem(0));
    else
        showDetails();
    if (fresh) emit diagnosed(errors, warnings);
}

void DoctorPanel::selectFinding(int index) {
    if (index >= 0 && index < m_list->topLevelItemCount())
        m_list->setCurrentItem(m_list->topLevelItem(index));
}

void DoctorPanel::showDetails() {
    const QTreeWidgetItem* item = m_list->currentItem();
    m_result->clear();
    if (!item) {
        m_details->clear();
        m_fix->setEnabled(false);
        return;
    }
    const doctor::Finding& f = m_findings[size_t(item->data(0, Qt::UserRole).toInt())];
    QString html = QStringLiteral("<p><b>%1</b></p>").arg(findingMessage(f).toHtmlEscaped());
    if (f.evidence.is_object() && !f.evidence.empty()) {
        html += QStringLiteral("<p><b>%1</b></p><table cellspacing=2>").arg(tr("Evidence").toHtmlEscaped());
        for (auto it = f.evidence.begin(); it != f.evidence.end(); ++it)
            html += QStringLiteral("<tr><td><tt>%1</tt></td><td>%2</td></tr>")
                        .arg(QString::fromStdString(it.key()).toHtmlEscaped(),
                             jsonValueText(it.value()).toHtmlEscaped());
        html += QStringLiteral("</table>");
    }
    if (!f.fix.empty())
        html += QStringLiteral("<p><b>%1</b> %2</p>")
                    .arg(tr("How to fix:").toHtmlEscaped(), findingFix(f).toHtmlEscaped());
    m_details->setHtml(html);
    const QString label = fixLabel(f);
    m_fix->setEnabled(!label.isEmpty());
    m_fix->setText(label.isEmpty() ? tr("Apply fix") : label);
}

QString DoctorPanel::fixLabel(const doctor::Finding& finding) {
    switch (safeFixFor(finding)) {
    case SafeFix::RenameStaleStore:
        return tr("Rename the stale store file aside");
    case SafeFix::PickFreePort:
        return tr("Pick a free port");
    case SafeFix::None:
        break;
    }
    return QString();
}

bool DoctorPanel::applyFix(int index) {
    if (index < 0 || size_t(index) >= m_findings.size()) return false;
    const doctor::Finding finding =
        m_findings[size_t(index)]; // the list may be refreshed while the question waits
    const QString question = fixConfirmation(finding);
    if (!question.isEmpty()) {
        const bool yes = m_confirm ? m_confirm(question)
                                   : QMessageBox::question(this, fixLabel(finding), question,
                                                           QMessageBox::Yes | QMessageBox::No,
                                                           QMessageBox::No) == QMessageBox::Yes;
        if (!yes) {
            m_result->setText(tr("Nothing was changed."));
            m_result->setStyleSheet(QString());
            return false;
        }
    }
    const FixOutcome out = applySafeFix(finding, m_lastRequest);
    if (out.ok) {
        m_result->setText(out.message);
        m_result->setStyleSheet(QStringLiteral("color: #107c10;"));
        if (out.port > 0) emit portChosen(out.port);
        if (!out.renamedPath.isEmpty()) emit storeFileRenamed(out.renamedPath, out.newPath);
        m_fix->setEnabled(false);
    } else {
        m_result->setText(out.message);
        m_result->setStyleSheet(QStringLiteral("color: #c42b1c;"));
    }
    emit message(out.message);
    return out.ok;
}

QString DoctorPanel::resultText() const {
    return m_result->text();
}

} // namespace ddpdesk::ui
