#pragma once

// The Run page's failure banner: which rank failed, why, and its last error, with "Show log" and "Diagnose".
// A run that completed on a diagnosed problem (a loss that became NaN) gets the same banner as a warning.

#include "launch/diagnose/failure_diagnosis.h"

#include <QFrame>

#include <optional>

class QLabel;
class QPushButton;

namespace ddpdesk::launch {
class RunModel;
}

namespace ddpdesk::ui {

class RunFailureBanner : public QFrame {
    Q_OBJECT
public:
    explicit RunFailureBanner(QWidget* parent = nullptr);

    // rank -1: the run failed without a failing rank (launch error, rendezvous timeout).
    void showFailure(const launch::RunModel* model, int rank, const QString& reason);
    // A completed run whose summary carries a diagnosis; hidden when it has none.
    void showCompletedWarning(const launch::RunModel* model);
    // While a run goes: who holds it up now (the model's live diagnosis); hidden once it moves on.
    void showHoldUp(const launch::RunModel* model);
    bool isWarning() const { return m_warning; }
    int failedRank() const { return m_failedRank; }
    void clear();
    QString text() const;
    void retranslate();
    static QString diagnosisHtml(const std::optional<launch::Diagnosis>& d); // "" without one

signals:
    void showLogClicked(int failedRank);
    void diagnoseClicked(int failedRank);

private:
    void setWarning(bool warning);

    QLabel* m_icon;
    QLabel* m_text;
    QPushButton* m_showLog;
    QPushButton* m_diagnose;
    int m_failedRank = -1;
    bool m_warning = false;
};

} // namespace ddpdesk::ui
