#pragma once

// The Doctor page: runs core/doctor's diagnosis off the UI thread (probes wait on sockets) and lists findings
// with severity, evidence and, where a fix is safe, a button that applies it.

#include "doctor/doctor.h"

#include <QWidget>

#include <functional>
#include <vector>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTextBrowser;
class QTreeWidget;

namespace ddpdesk::ui {

class DoctorPanel : public QWidget {
    Q_OBJECT
public:
    explicit DoctorPanel(QWidget* parent = nullptr);
    ~DoctorPanel() override;

    // Starts a diagnosis (ignored while one runs). The request's fields also fill the page's inputs.
    void diagnose(const doctor::DoctorRequest& request);
    bool isBusy() const { return m_busy; }
    const std::vector<doctor::Finding>& findings() const { return m_findings; }

    // Safe fixes: renaming a stale FileStore file aside, picking a free port. Empty when the finding has
    // none.
    static QString fixLabel(const doctor::Finding& finding);
    // A fix that changes a file is asked first (see setConfirmation). True when the fix was applied; the
    // outcome is also shown on the page.
    bool applyFix(int index);
    // How applyFix asks: true to go ahead. Default: a QMessageBox (Yes/No, No by default). Tests inject an
    // answer.
    using Confirmation = std::function<bool(const QString& question)>;
    void setConfirmation(Confirmation ask) { m_confirm = std::move(ask); }
    QString resultText() const;
    void selectFinding(int index);

signals:
    void diagnosed(int errorCount, int warningCount);
    void portChosen(int port); // the "pick a free port" fix: Setup takes it
    void storeFileRenamed(const QString& path, const QString& newPath); // the stale-store fix moved it aside
    void message(const QString& text);

protected:
    void changeEvent(QEvent* e) override;

private:
    void build();
    void retranslate();
    void showFindings(const std::vector<doctor::Finding>& findings);
    void showDetails();
    void runFromInputs();

    QLineEdit* m_store;
    QSpinBox* m_worldSize;
    QPushButton* m_run;
    QLabel* m_state;
    QTreeWidget* m_list;
    QTextBrowser* m_details;
    QPushButton* m_fix;
    QLabel* m_result;
    QLabel* m_storeLabel;
    QLabel* m_worldLabel;

    std::vector<doctor::Finding> m_findings;
    doctor::DoctorRequest m_lastRequest;
    bool m_busy = false;
    bool m_ranOnce = false;
    Confirmation m_confirm;
};

} // namespace ddpdesk::ui
