#pragma once

// The Run page's failure banner: which rank failed, why, and its last error, with "Show log" and "Diagnose".

#include "launch/failure_diagnosis.h"

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
    int failedRank() const { return m_failedRank; }
    void clear();
    QString text() const;
    void retranslate();
    static QString diagnosisHtml(const std::optional<launch::Diagnosis>& d); // "" without one

signals:
    void showLogClicked(int failedRank);
    void diagnoseClicked(int failedRank);

private:
    QLabel* m_text;
    QPushButton* m_showLog;
    QPushButton* m_diagnose;
    int m_failedRank = -1;
};

} // namespace ddpdesk::ui
